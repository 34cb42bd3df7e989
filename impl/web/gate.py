"""The web view's connections, before any request: the view's cap (``WebLimits.
max_connections``) and each client's (impl/web/admission.py ``Admission.connect``).
A connection over either is answered ``503`` with ``Retry-After`` by a small
protocol of its own (``Refuse``: its request's head read, bounded in bytes and
time, so that the close does not reset the answer away) and closed; one under both
is aiohttp's.  In a match's or tournament's view (``sort_programs``), a connection
from this machine is first sorted (impl/web/programs.py): one the run's programs
hold is client ``PROGRAMS``, the others their address's; what it sends meanwhile
waits for the protocol it gets.  Its client is kept for its requests (``client``).  aiohttp's own error
log becomes the referee's JSON event lines, rate-limited (``quiet_aiohttp``)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from aiohttp import web

from impl.log import event
from impl.server import procs

from .admission import Admission, group
from .programs import PROGRAMS, SHARE, Ask, Sort, Sorter, local_pair

CLIENT = web.RequestKey("client", str)
"""A request's client (``Gate.client``), as the view's admission found it
(impl/web/app.py), for the routes after it (the record queue, library.py)."""
RETRY_AFTER = "5"
"""Seconds a refused client is told to wait (503's ``Retry-After``)."""
_BUSY = b"too many web connections; retry later\n"
REFUSED = (
    b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n"
    b"Retry-After: %s\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s"
) % (RETRY_AFTER.encode(), len(_BUSY), _BUSY)
"""The whole answer to a connection over the cap."""
REFUSE_WAIT = 1.0
"""Seconds a refused connection is given to send its request before the answer
(closing with a request unread would reset the connection, losing the 503)."""
MAX_REFUSING = 64
"""Refused connections waiting for their request at once; more are closed at once."""
EARLY_BYTES = 8192
"""Bytes kept of what a connection sends while it is sorted (a request's head)."""
LOG_EVERY = 10.0
"""Seconds between two log lines about refused connections, or about aiohttp's errors
(each with the count since the last)."""


class Gate:
    """Which protocol a new connection gets: aiohttp's under the caps, a ``Refuse``
    over them; the count of connections refused, logged at most every LOG_EVERY s."""

    def __init__(self, admission: Admission, max_connections: int) -> None:
        self.admission = admission
        self.max_connections = max_connections
        self.server: web.Server | None = None
        """aiohttp's server, once the view has started (its connections are counted)."""
        self.refused = 0
        """Connections refused for the cap, since the start."""
        self._fresh = 0
        """Connections accepted in this turn of the loop, not yet in the server's count."""
        self._refusing = 0
        self._logged: tuple[float, int] = (float("-inf"), 0)
        self.sorter: Sorter | None = None
        """Sorts the connections from this machine, in a run's view (``sort_programs``)."""
        self.clients: dict[asyncio.BaseTransport, str] = {}
        """Each admitted connection's client (its transport's, while it is open)."""
        self._sorting: set[Admitted] = set()

    def sort_programs(self, runner: int) -> None:
        """Count the connections of the programs below ``runner`` (the process that
        launched them) apart, as client ``PROGRAMS`` (impl/web/programs.py); without
        /proc (not Linux), say so once: they are counted by address."""
        if procs.available():
            self.sorter = Sorter(runner)
        else:
            event(
                logging.WARNING, "web_programs_unsorted", reason="no /proc: the programs' connections count by address"
            )

    def cap(self, key: str) -> int | None:
        """A client's cap below its ``ClientLimits.connections``: the run's programs
        together hold at most 1/SHARE of the view's connections."""
        return self.max_connections // SHARE if key == PROGRAMS else None

    def client(self, transport: asyncio.BaseTransport | None, address: str | None) -> str:
        """The client of a request: its connection's, as sorted when it was made
        (by its address if the connection is not known)."""
        key = self.clients.get(transport) if transport is not None else None
        return key if key is not None else group(address)

    def close(self) -> None:
        """The view stops: connections still waiting to be sorted are closed."""
        if self.sorter is not None:
            self.sorter.close()
        for waiting in list(self._sorting):
            waiting.abort()

    @property
    def connections(self) -> int:
        """Web connections open now (the server's, those accepted in this turn of
        the loop that it will count on the next, and those being sorted)."""
        assert self.server is not None
        pending = self.sorter.pending if self.sorter is not None else 0
        return len(self.server.connections) + self._fresh + pending

    def connection(self) -> asyncio.BaseProtocol:
        """The protocol of a new connection (``loop.create_server``'s factory)."""
        assert self.server is not None
        if self.connections < self.max_connections:
            if not self._fresh:
                asyncio.get_running_loop().call_soon(self._settle)
            self._fresh += 1
            return Admitted(self, self.server())
        return self.refusal()

    def refusal(self) -> Refuse:
        """The protocol of a refused connection (over the view's cap, or its client's)."""
        self.refused += 1
        self._log_refused()
        wait = self._refusing < MAX_REFUSING
        self._refusing += 1
        return Refuse(self._refuse_done, wait)

    def _settle(self) -> None:
        # Runs before the connection_made callbacks of the connections accepted
        # this turn, which add them to the server's own count.
        self._fresh = 0

    def _refuse_done(self) -> None:
        self._refusing -= 1

    def _log_refused(self) -> None:
        now = asyncio.get_running_loop().time()
        last, count = self._logged
        if now - last >= LOG_EVERY:
            event(logging.WARNING, "web_refused", cap=self.max_connections, since_last=self.refused - count)
            self._logged = (now, self.refused)


class Refuse(asyncio.Protocol):
    """A connection over the cap: read its request's head (bounded in bytes and
    time), answer 503 and close."""

    def __init__(self, done: Callable[[], None], wait: bool) -> None:
        self._done, self._wait = done, wait
        self._transport: asyncio.Transport | None = None
        self._timer: asyncio.TimerHandle | None = None
        self._tail, self._read = b"", 0

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self._transport = transport
        if self._wait:
            self._timer = asyncio.get_running_loop().call_later(REFUSE_WAIT, self._answer)
        else:
            self._answer()

    def data_received(self, data: bytes) -> None:
        seen = self._tail + data
        self._read += len(data)
        if b"\r\n\r\n" in seen or b"\n\n" in seen or self._read >= 4096:
            self._answer()
        self._tail = seen[-3:]

    def eof_received(self) -> bool:
        self._answer()
        return False

    def _answer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        if self._transport is not None and not self._transport.is_closing():
            self._transport.write(REFUSED)
            self._transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self._done()


class Admitted(asyncio.Protocol):
    """aiohttp's protocol of a connection, once its client (address group, or the
    run's programs) is under its connection cap (admission.Admission.connect,
    Gate.cap); over it, a ``Refuse`` answers 503 instead.  While a connection is
    sorted (Gate.sorter), what it sends is kept (EARLY_BYTES at most, then it is
    not read) for the protocol it gets, and its end closes it: a client that
    connects and leaves holds no place while it waits.  Everything else is aiohttp's."""

    def __init__(self, gate: Gate, inner: asyncio.Protocol) -> None:
        self._gate, self._inner = gate, inner
        self._group: str | None = None
        self._transport: asyncio.BaseTransport | None = None
        self._asked: Ask | None = None
        self._made = False
        """The inner protocol has its connection (connection_made passed on)."""
        self._early = bytearray()
        """What the client sent while its connection was sorted."""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self._transport = transport
        peer = transport.get_extra_info("peername")
        address = peer[0] if isinstance(peer, tuple) and peer else None
        sorter = self._gate.sorter
        pair = local_pair(peer, transport.get_extra_info("sockname")) if sorter is not None else None
        if sorter is None or pair is None:
            self._enter(group(address))
            return
        self._gate._sorting.add(self)
        hurry = max(1, self._gate.max_connections // SHARE)
        self._asked = sorter.ask(*pair, lambda sort: self._sorted(sort, address), hurry)

    def _sorted(self, sort: Sort, address: str | None) -> None:
        self._asked = None
        self._gate._sorting.discard(self)
        transport = self._transport
        assert isinstance(transport, asyncio.ReadTransport)
        if transport.is_closing():
            return
        self._enter(PROGRAMS if sort is Sort.PROGRAM else group(address))
        early, self._early = bytes(self._early), bytearray()
        if early:
            self._inner.data_received(early)
        transport.resume_reading()

    def _enter(self, key: str) -> None:
        gate, transport = self._gate, self._transport
        assert transport is not None
        if gate.admission.connect(key, asyncio.get_running_loop().time(), gate.cap(key)).admitted:
            self._group = key
            gate.clients[transport] = key
        else:
            self._inner = gate.refusal()
        self._made = True
        self._inner.connection_made(transport)

    def abort(self) -> None:
        """Close a connection still being sorted (the view stops)."""
        if self._transport is not None:
            self._transport.close()

    def data_received(self, data: bytes) -> None:
        if self._made:
            self._inner.data_received(data)
            return
        self._early += data
        if len(self._early) >= EARLY_BYTES:
            assert isinstance(self._transport, asyncio.ReadTransport)
            self._transport.pause_reading()

    def eof_received(self) -> bool | None:
        if self._made:
            return self._inner.eof_received()
        return False  # gone while sorted: closed (no HTTP client half-closes before its answer)

    def pause_writing(self) -> None:
        self._inner.pause_writing()

    def resume_writing(self) -> None:
        self._inner.resume_writing()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._asked is not None and self._gate.sorter is not None:
            self._gate.sorter.forget(self._asked)
            self._asked = None
        self._gate._sorting.discard(self)
        if self._transport is not None:
            self._gate.clients.pop(self._transport, None)
        if self._group is not None:
            self._gate.admission.disconnect(self._group)
            self._group = None
        if self._made:
            self._inner.connection_lost(exc)


class _ErrorLines(logging.Handler):
    """aiohttp's own error log (a malformed request, a header line too long, a
    client gone mid-answer) as the referee's JSON event lines, without
    tracebacks, at most one line per LOG_EVERY seconds with the count since;
    never to stderr through logging's last resort."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self._last, self._count = float("-inf"), 0

    def emit(self, record: logging.LogRecord) -> None:
        self._count += 1
        if record.created - self._last < LOG_EVERY:
            return
        exc = record.exc_info[1] if record.exc_info else None
        error = " ".join(str(exc).split())[:160] if exc is not None else ""
        event(
            max(record.levelno, logging.INFO),
            "web_error",
            message=record.getMessage()[:160],
            error=error,
            kind=type(exc).__name__ if exc is not None else "",
            since_last=self._count,
        )
        self._last, self._count = record.created, 0


def quiet_aiohttp() -> None:
    """Once per process: aiohttp's server log goes to ``_ErrorLines`` only."""
    logger = logging.getLogger("aiohttp.server")
    if not any(isinstance(h, _ErrorLines) for h in logger.handlers):
        logger.addHandler(_ErrorLines())
        logger.propagate = False
