"""Chess clocks for the time controls of Table 3 (101) and Table 9 (313/314,
317/318, 361/362): one per side, at most one running, times in seconds of a
monotonic clock passed in by the caller (so the arithmetic is testable alone).

A clock is charged the time of its turn less the stalls of the referee's own
making within it (a listing, a GC pause, a slow disk: ``StallLog``, kept by the
server's loop-lag monitor), so that a player who answered at once never loses
on time because the server was not running.  Nor is it charged the time its reply
waited to be read: a turn ends when the line ending the reply reached the server's
host (``arrival_delay``, the kernel's record of the socket's last data), or when it
was handled if that is not known — never later.  A loop too busy to read, with no
single stall long enough for the monitor, then costs the player nothing either.

With a Fischer increment a side's clock gains it when its move is accepted
(``moved``): after the turn's time is charged and before the opponent's clock
starts, so that the remaining time the 207 and 313/314 lines announce includes it
(spec/protocol.py ``remaining``: before − used + increment).  A clock stopped
for anything else (a draw offer, the end of the game) gains nothing."""

from __future__ import annotations

import bisect
import math
import socket
import struct
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

Stalls = Callable[[float, float], float]
"""Seconds the referee stalled within ``[start, end]``."""


def no_stalls(start: float, end: float) -> float:
    return 0.0


@dataclass(frozen=True)
class ClockReading:
    """Both clocks as read at ``taken`` (the caller's monotonic time), first mover's
    first, and the one running from then on (None: neither)."""

    left: tuple[float, float]
    running: int | None
    taken: float

    def at(self, now: float) -> tuple[float, float]:
        """The time left on each clock at ``now``, counting the running one down."""
        if self.running is None:
            return self.left
        left = list(self.left)
        left[self.running] -= now - self.taken
        return (left[0], left[1])


class Clocks:
    """Remaining time per side; the clock of the side the server waits for runs."""

    def __init__(
        self, seconds: tuple[float, float], stalls: Stalls = no_stalls, increment: tuple[float, float] = (0.0, 0.0)
    ) -> None:
        self.initial = seconds
        self.increment = increment
        """Seconds each side's clock gains with each of its accepted moves."""
        self._remaining = list(seconds)
        self.running: int | None = None
        self._since = 0.0
        self._stalls = stalls

    def start(self, side: int, now: float) -> None:
        """Start ``side``'s clock (no other may be running)."""
        assert self.running is None, "two clocks running"
        self.running, self._since = side, now

    def _charged(self, now: float) -> float:
        """The running clock's time since it started, less the stalls within it."""
        return max(0.0, now - self._since - self._stalls(self._since, now))

    def stop(self, now: float) -> float:
        """Stop the running clock; the time left to its side."""
        side = self.running
        assert side is not None, "no clock running"
        self._remaining[side] -= self._charged(now)
        self.running = None
        return self._remaining[side]

    def moved(self, now: float) -> float:
        """Stop the running clock for its side's accepted move, and add the side's
        increment: the time left to it, the increment included."""
        side = self.running
        assert side is not None, "no clock running"
        self.stop(now)
        self._remaining[side] += self.increment[side]
        return self._remaining[side]

    def deadline(self) -> float | None:
        """When the running clock's flag falls, None if no clock runs: later by the
        stalls seen so far within the turn (a timer that fires then re-arms)."""
        if self.running is None:
            return None
        return self._since + self._remaining[self.running] + self._stalls(self._since, math.inf)

    def reading(self, now: float, running: int | None) -> ClockReading:
        """Both clocks at ``now``, with ``running`` the clock that runs once the input
        being handled is done (the session says so before it starts that clock)."""
        return ClockReading((self.left(0, now), self.left(1, now)), running, now)

    def left(self, side: int, now: float) -> float:
        """``side``'s time left at ``now``, counting a running clock."""
        running = self._charged(now) if self.running == side else 0.0
        return self._remaining[side] - running


class StallLog:
    """Stall intervals in time order, disjoint, with their running total, so that
    the stall time within any span is two binary searches.  At most ``keep``
    intervals are kept: a span reaching before the oldest kept is charged the
    forgotten stalls (the safe side for a long turn is the player's clock as if
    the server had not stalled then)."""

    def __init__(self, keep: int = 100_000) -> None:
        self._starts: list[float] = []
        self._ends: list[float] = []
        self._before: list[float] = []
        """The stall total before each interval."""
        self._total = 0.0
        self._keep = keep

    def add(self, start: float, end: float) -> None:
        if end <= start or (self._ends and start < self._ends[-1]):
            return
        self._starts.append(start)
        self._ends.append(end)
        self._before.append(self._total)
        self._total += end - start
        if len(self._starts) > 2 * self._keep:
            del self._starts[: self._keep], self._ends[: self._keep], self._before[: self._keep]

    def until(self, t: float) -> float:
        """Stall time before ``t`` (since the oldest interval kept)."""
        i = bisect.bisect_right(self._starts, t) - 1
        if i < 0:
            return self._before[0] if self._before else 0.0
        return self._before[i] + min(t, self._ends[i]) - self._starts[i]

    def within(self, start: float, end: float) -> float:
        """Stall time within ``[start, end]``."""
        return max(0.0, self.until(end) - self.until(start)) if end > start else 0.0


_TCPI_LAST_DATA_RECV = 52
"""Offset of ``tcpi_last_data_recv`` (u32, milliseconds since the last data segment
arrived) in Linux's ``struct tcp_info`` (linux/tcp.h), unchanged since 2.6."""
_TCP_INFO_SIZE = 104


class Sockopts(Protocol):
    """A socket, or asyncio's ``TransportSocket`` around one."""

    def getsockopt(self, level: int, option: int, buflen: int, /) -> bytes: ...


def arrival_delay(sock: Sockopts | None) -> float | None:
    """Seconds since the last data segment arrived on TCP socket ``sock``, read or
    not (Linux, ``TCP_INFO``; to the kernel's tick, a few milliseconds), None where
    that is not known (another system, not TCP, an error).  Segments arriving after
    a line's end only make it later: a client cannot make its reply seem earlier.

    Not ``SIOCGSTAMP``: Linux keeps no receive stamp for TCP sockets (ENOENT, even
    after data is read, with or without ``SO_TIMESTAMP``)."""
    if sock is None or not sys.platform.startswith("linux") or not hasattr(socket, "TCP_INFO"):
        return None
    try:
        info = sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, _TCP_INFO_SIZE)
    except OSError:
        return None
    if len(info) < _TCPI_LAST_DATA_RECV + 4:
        return None
    (millis,) = struct.unpack_from("=I", info, _TCPI_LAST_DATA_RECV)
    return float(millis) / 1000.0
