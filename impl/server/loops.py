"""The event loop a server process runs on, chosen as uvicorn's ``--loop`` chooses it.

``auto`` is uvloop where it is installed (the ``fast`` extra: libuv's loop, its
sockets' reads and writes in C) and asyncio's own loop otherwise; ``asyncio`` and
``uvloop`` ask for one.  The servers' code is the same on both: it uses only the
asyncio Protocol and Transport interfaces, which uvloop implements.
"""

from __future__ import annotations

import asyncio
import gc
import importlib.util
from collections.abc import Callable, Coroutine
from typing import Any, Protocol, TypeVar

LOOPS = ("auto", "asyncio", "uvloop")
T = TypeVar("T")


class Cancellable(Protocol):
    """A loop's timer handle, or a SessionTimer: what ``cancelled`` stops."""

    def cancel(self) -> object: ...


C = TypeVar("C", bound=Cancellable)


def cancelled(timer: C | None) -> C | None:
    """Cancel ``timer`` if one is set; always None, for the caller to store in its
    place (``self._timer = cancelled(self._timer)``)."""
    if timer is not None:
        timer.cancel()
    return None


class LoopUnavailable(Exception):
    """``uvloop`` was asked for and is not installed."""


def has_uvloop() -> bool:
    return importlib.util.find_spec("uvloop") is not None


def loop_name(choice: str) -> str:
    """The loop ``choice`` (one of ``LOOPS``) runs on: ``asyncio`` or ``uvloop``."""
    if choice == "uvloop" and not has_uvloop():
        raise LoopUnavailable("--loop uvloop: uvloop is not installed (pip install 'zreferee[fast]')")
    if choice == "auto":
        return "uvloop" if has_uvloop() else "asyncio"
    return choice


def factory(name: str) -> Callable[[], asyncio.AbstractEventLoop] | None:
    """A new loop of ``name`` (``loop_name``'s answer); None: asyncio's default."""
    if name == "uvloop":
        import uvloop  # the fast extra; has_uvloop() was asked first

        return uvloop.new_event_loop
    return None


YOUNG_EVERY = 0.01
"""Seconds between two collections of the young generation once a server listens."""
MIDDLE_EVERY = 10
"""Young collections between two of the middle generation."""
FULL_EVERY = 300.0
"""Seconds between two full collections."""


def settle_heap() -> None:
    """Once a server process listens, in its loop: what exists now (modules, the servers)
    stays for the process's life, so the cyclic collector is told to pass it over
    (``gc.freeze``), and the collector runs on the loop's clock instead of on counts of
    allocations.  Python triggers a young collection when allocations outrun
    deallocations by 700; a game's moves allocate and free about as much, so the young
    generation grew between triggers to what took 40–80 ms of CPU to walk, and every
    such pass was a stall of every game (the long tail of the move round trip at 1,000
    games).  Walked every 10 ms it is small each time; a finished game leaves no cycle
    (server.py), so the full pass, which walks every live object, comes every five
    minutes."""
    gc.collect()
    gc.freeze()
    gc.disable()
    _Collector(asyncio.get_running_loop()).arm()


class _Collector:
    """``settle_heap``'s collections on the loop's timer."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.young = 0
        self.full_at = loop.time() + FULL_EVERY

    def arm(self) -> None:
        self.loop.call_later(YOUNG_EVERY, self.collect)

    def collect(self) -> None:
        self.young += 1
        if self.loop.time() >= self.full_at:
            gc.collect()
            self.full_at = self.loop.time() + FULL_EVERY
        else:
            gc.collect(1 if self.young % MIDDLE_EVERY == 0 else 0)
        self.arm()


def running() -> str:
    """The running loop's name: ``uvloop`` or ``asyncio`` (the ``listen`` log line says it)."""
    return "uvloop" if type(asyncio.get_running_loop()).__module__.startswith("uvloop") else "asyncio"


def run(main: Coroutine[Any, Any, T], name: str = "asyncio") -> T:
    """``asyncio.run(main)`` on a loop of ``name``."""
    with asyncio.Runner(loop_factory=factory(name)) as runner:
        return runner.run(main)
