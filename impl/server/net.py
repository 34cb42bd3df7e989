"""Connections: line framing of requests, bounded output, and closing.

Requests end with CR (LF and CRLF are accepted too: both characters end a line and
empty lines are skipped, as gthd skips them); responses end with CRLF.  Nothing a
client does can make the server buffer without bound: an over-long line is cut
and refused, and a client that does not read its responses is cut off once its
unsent output passes ``write_limit`` — writes never wait on a client.

Reading is fair and linear: a line end is looked for only within the first
``max_line + 1`` bytes (the tail of an over-long line is skipped in one pass), a
run of empty lines counts as a refused request, and one connection handles at most
``lines_per_slice`` lines before it yields the event loop to the others.  A line
begun must be completed within ``line_timeout`` seconds.

Reading is also rate-limited per connection, so that the server's work for a
flooding client is bounded by the rate, not by the client's speed: a token bucket of
bytes read and one of requests refused (19x, 299).  A connection in debt on
either stops being read (``pause_reading``) until the bucket has refilled; TCP
back-pressure then makes the flooder wait.  It is slowed, never closed for its
speed alone.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import ClassVar, Protocol, cast

from impl.config import NetLimits

from .clock import Sockopts, arrival_delay
from .loops import cancelled
from .session import LineError

_PRINTABLE = bytes(range(0x20, 0x7F)) + b"\t"
_ENDS = (b"\r", b"\n")
_REFUSED = ("19", "299")
"""Replies that count against ``NetLimits.refusal_rate``: a seat refused and a
request not understood.  Not 291 (a well-formed request the game's rules refuse:
an illegal move, not one's turn), which clients may retry without limit — they find
a legal move by trial (bench/server.py) — and which a seated player sends 64
times in a row at most (``Limits.max_rejected``)."""


@dataclass(frozen=True)
class TokenBucket:
    """A budget refilled at ``rate`` a second up to ``burst``.  Taking more than is
    left runs into debt, and the debt is the wait: at most one read (or one slice
    of lines) beyond the budget, then nothing until it is paid.  Pure: the time
    is passed in."""

    rate: float
    burst: float
    level: float
    stamp: float
    """The time ``level`` was taken at."""

    @classmethod
    def full(cls, rate: float, burst: float, now: float) -> TokenBucket:
        return cls(rate, burst, burst, now)

    def level_at(self, now: float) -> float:
        return min(self.burst, self.level + max(0.0, now - self.stamp) * self.rate)

    def take(self, amount: float, now: float) -> TokenBucket:
        # The constructor, not dataclasses.replace: this runs on every read.
        return TokenBucket(self.rate, self.burst, self.level_at(now) - amount, max(now, self.stamp))

    def wait(self, now: float) -> float:
        """Seconds until the bucket is out of debt (0 if it is not)."""
        level = self.level_at(now)
        return 0.0 if level >= 0 else -level / self.rate


def _bucket(rate: float, burst: float, now: float) -> TokenBucket | None:
    return TokenBucket.full(rate, burst, now) if rate > 0 else None


class Target(Protocol):
    """Where a connection's lines and its end go (server.Link)."""

    def receive(self, line: str | LineError) -> None: ...

    def leave(self) -> None: ...


def listening_port(listener: asyncio.Server | None) -> int:
    """The port ``listener`` is bound to: the one the system chose when asked for
    port 0 (the referee's servers and the web view)."""
    assert listener is not None, "not started"
    port: int = listener.sockets[0].getsockname()[1]
    return port


def check_line(raw: bytes) -> str | LineError:
    """A complete line as text, or why it is refused."""
    if raw.translate(None, _PRINTABLE):
        return LineError.NOT_ASCII
    return raw.decode("ascii")


class Connection(asyncio.Protocol):
    """One client socket, attached to the session current when it connected."""

    def __init__(self, attach: Callable[[Connection], Target | None], limits: NetLimits) -> None:
        self._attach, self.limits = attach, limits
        self.address = "?"
        self.host = "?"
        """The client's address without its port (``per_address`` counts by it)."""
        self._transport: asyncio.Transport | None = None
        self._buffer = bytearray()
        self._skipping = False
        """Discarding the rest of an over-long line."""
        self._empty = 0
        """Empty lines in a row."""
        loop = asyncio.get_running_loop()
        self._now = loop.time
        self._bytes = _bucket(limits.read_rate, limits.read_burst, self._now())
        self._refusals = _bucket(limits.refusal_rate, limits.refusal_burst, self._now())
        self._reading = True
        self._wake: asyncio.Handle | None = None
        """The next turn of ``_pump`` while reading is paused (a slice used up, or a
        bucket in debt)."""
        self._line_timer: asyncio.TimerHandle | None = None
        self._write_timer: asyncio.TimerHandle | None = None
        """Set while unsent output is above ``stalled_output``."""
        self._closing = False
        self._pending: list[str] = []
        self._flush_scheduled = False
        self._writes = _Writes.of(loop)
        self._target: Target | None = None
        self._sock: Sockopts | None = None
        self._arrival: float | None = None
        self._arrival_read = True
        """``_arrival`` is that of the data read last (read again after each read)."""
        self.closed = loop.create_future()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # A stream transport, asyncio's or uvloop's (which does not subclass asyncio's).
        transport = cast(asyncio.Transport, transport)
        self._transport = transport
        peer = transport.get_extra_info("peername")
        self.address = f"{peer[0]}:{peer[1]}" if isinstance(peer, tuple) else str(peer)
        self.host = str(peer[0]) if isinstance(peer, tuple) else str(peer)
        sock = transport.get_extra_info("socket")
        self._sock = sock
        if self.limits.send_buffer > 0 and sock is not None:
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, self.limits.send_buffer)
        if self.limits.write_timeout > 0:  # pause_writing then says the output is stalled
            transport.set_write_buffer_limits(high=min(self.limits.stalled_output, self.limits.write_limit))
        self._target = self._attach(self)
        if self._target is None:  # the server has stopped taking games, or is full
            self.close()

    def data_received(self, data: bytes) -> None:
        self._buffer += data
        self._arrival_read = False
        if self._bytes is not None:
            self._bytes = self._bytes.take(len(data), self._now())
        if self._wake is None:
            self._pump()

    def arrival(self) -> float | None:
        """When the last data read reached this host, in the loop's time (None: not
        known; impl/server/clock.py ``arrival_delay``).  Read from the kernel at most
        once per read, when asked: for a line from the player whose clock runs."""
        if not self._arrival_read:
            self._arrival_read = True
            delay = arrival_delay(self._sock)
            self._arrival = None if delay is None else self._now() - delay
        return self._arrival

    def _pump(self) -> None:
        """Handle the lines buffered, then read on, or stop reading until the next
        slice (``call_soon``) or until the buckets are out of debt (``call_later``)."""
        self._wake = None
        transport = self._transport
        if self._closing or transport is None:
            return
        delay = self._process()
        if self._closing:
            return
        if delay is None:  # every complete line handled: read on if the bytes allow
            bytes_ = self._bytes  # a level not below 0 when taken cannot be in debt now
            delay = bytes_.wait(self._now()) if bytes_ is not None and bytes_.level < 0 else 0.0
            if delay <= 0:
                if not self._reading:
                    self._reading = True
                    transport.resume_reading()
                return
        if self._reading:
            self._reading = False
            transport.pause_reading()
        loop = asyncio.get_running_loop()
        self._wake = loop.call_later(delay, self._pump) if delay > 0 else loop.call_soon(self._pump)

    def _process(self) -> float | None:
        """Handle the complete lines buffered, at most ``lines_per_slice`` of them
        and while refusals are within their budget.  None if every complete line
        was handled, else the seconds to wait before the rest (0: the next turn)."""
        limits, buffer = self.limits, self._buffer
        budget = limits.lines_per_slice
        ended = False
        delay: float | None = None
        while not self._closing:
            refusals = self._refusals
            if refusals is not None and refusals.level < 0 and (wait := refusals.wait(self._now())) > 0:
                delay = wait
                break
            if self._skipping:  # the tail of a line already refused: one pass over it
                cut = terminator(buffer, len(buffer))
                if cut < 0:
                    buffer.clear()
                    break
                del buffer[: cut + 1]
                self._skipping, ended = False, True
                continue
            if buffer[:1] in _ENDS:  # a run of empty lines (a CR flood): skipped in one pass
                run = min(len(buffer), limits.max_empty - self._empty)
                head = bytes(buffer[:run])
                run -= len(head.lstrip(b"\r\n"))
                del buffer[:run]
                self._empty_lines(run)
                ended = True
                budget -= 1
                if budget == 0 and buffer:
                    delay = 0.0
                    break
                continue
            cut = terminator(buffer, limits.max_line + 1)
            if cut < 0:
                if len(buffer) > limits.max_line:
                    self._skipping = True
                    self._deliver(LineError.TOO_LONG)
                    continue
                break
            raw = bytes(buffer[:cut])
            del buffer[: cut + 1]
            ended = True
            if raw.strip(b" \t"):
                self._empty = 0
                self._deliver(check_line(raw))
            else:
                self._empty_lines(1)
            budget -= 1
            if budget == 0 and buffer:
                delay = 0.0
                break
        self._time_line(ended)
        return delay

    def _empty_lines(self, n: int) -> None:
        """``n`` more empty lines in a row: a run of ``max_empty`` is one refused request."""
        self._empty += n
        if self._empty >= self.limits.max_empty:
            self._empty = 0
            self._deliver(LineError.EMPTY)

    def _time_line(self, ended: bool) -> None:
        """The bound on a line begun: from its first byte, restarted when a line ends."""
        partial = bool(self._buffer) or self._skipping
        if self._line_timer is not None and (ended or not partial or self._closing):
            self._line_timer.cancel()
            self._line_timer = None
        if partial and self._line_timer is None and not self._closing and self.limits.line_timeout > 0:
            self._line_timer = asyncio.get_running_loop().call_later(self.limits.line_timeout, self._too_slow)

    def _too_slow(self) -> None:
        self._line_timer = None
        if self._closing:
            return
        self._deliver(LineError.SLOW)
        self.close()

    def _deliver(self, line: str | LineError) -> None:
        if self._target is not None:
            self._target.receive(line)

    def eof_received(self) -> bool:
        """End of input is leaving, for observers too: a place must not stay taken
        by a client that has gone.  The connection is then closed by us, after the
        last lines (a player's 39x) are written to a client that still reads."""
        if self._target is not None and not self._closing:
            target, self._target = self._target, None
            target.leave()
        self.close()
        return True

    def pause_writing(self) -> None:
        """Unsent output passed ``stalled_output``: the client has that long to read."""
        if self._write_timer is None and self.limits.write_timeout > 0:
            self._write_timer = asyncio.get_running_loop().call_later(self.limits.write_timeout, self._not_reading)

    def resume_writing(self) -> None:
        self._write_timer = cancelled(self._write_timer)

    def _not_reading(self) -> None:
        self._write_timer = None
        if self._transport is not None:
            self._closing = True
            self._transport.abort()

    def connection_lost(self, exc: Exception | None) -> None:
        self._closing = True
        self._write_timer = cancelled(self._write_timer)
        self._wake = cancelled(self._wake)
        self._line_timer = cancelled(self._line_timer)
        if not self.closed.done():
            self.closed.set_result(None)
        if self._target is not None:
            target, self._target = self._target, None
            target.leave()

    def send(self, lines: Sequence[str]) -> None:
        """Queue lines (CRLF-terminated).  Lines queued while one event is handled
        go out in one write, after it."""
        if self._closing or self._transport is None:
            return
        if self._refusals is not None:
            refused = 0
            for line in lines:
                if line.startswith(_REFUSED):
                    refused += 1
            if refused:
                self._refusals = self._refusals.take(refused, self._now())
        self._pending.extend(lines)
        if len(self._pending) >= 256:  # a flood of refusals: write as it comes
            self._flush()
        elif not self._flush_scheduled:
            self._flush_scheduled = True
            self._writes.add(self)

    def _flush(self) -> None:
        """Write what is queued; drop the client if it has stopped reading."""
        self._flush_scheduled = False
        transport = self._transport
        if self._closing or transport is None or not self._pending:
            return
        transport.write(("\r\n".join(self._pending) + "\r\n").encode("ascii", "replace"))
        self._pending.clear()
        if transport.get_write_buffer_size() > self.limits.write_limit:
            self._closing = True
            transport.abort()

    def close(self) -> None:
        """Flush and close; abort if the client will not take the rest."""
        transport = self._transport
        if self._closing or transport is None:
            return
        self._flush()
        if self._closing:
            return
        self._closing = True
        self._wake = cancelled(self._wake)
        transport.close()
        asyncio.get_running_loop().call_later(self.limits.close_grace, transport.abort)


class _Writes:
    """The connections with output queued, written once the loop's turn is done:
    one callback a turn for all of them, not one per connection (a move's lines
    go to both players and every observer)."""

    _of: ClassVar[weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Writes]] = weakref.WeakKeyDictionary()

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._queued: list[Connection] = []

    @classmethod
    def of(cls, loop: asyncio.AbstractEventLoop) -> _Writes:
        writes = cls._of.get(loop)
        if writes is None:
            writes = cls._of[loop] = cls(loop)
        return writes

    def add(self, conn: Connection) -> None:
        if not self._queued:
            self._loop.call_soon(self._run)
        self._queued.append(conn)

    def _run(self) -> None:
        queued, self._queued = self._queued, []
        for conn in queued:
            conn._flush()  # the connection's own write, deferred to the end of the turn


def terminator(buffer: bytearray, within: int) -> int:
    """Index of the first CR or LF among the first ``within`` bytes, or -1."""
    cr, lf = buffer.find(b"\r", 0, within), buffer.find(b"\n", 0, within)
    if cr < 0:
        return lf
    return cr if lf < 0 else min(cr, lf)
