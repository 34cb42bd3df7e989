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


FULL_EVERY = 1_000
"""Collections of the middle generation between two full ones (Python's default: 10)."""


def settle_heap() -> None:
    """Once a server process listens: what exists now (modules, the servers) stays for
    the process's life, so the cyclic collector is told to pass it over (``gc.freeze``),
    and its full passes, which walk every live object — 66–79 ms at 1,000 live games
    here, every two seconds or so, the long tail of the move round trip — come a hundred
    times less often.  A finished game is freed by reference counting (it leaves no
    cycle: server.py), so the rare full pass has little to find.  The young generations
    are collected as before."""
    gc.collect()
    gc.freeze()
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, FULL_EVERY)


def running() -> str:
    """The running loop's name: ``uvloop`` or ``asyncio`` (the ``listen`` log line says it)."""
    return "uvloop" if type(asyncio.get_running_loop()).__module__.startswith("uvloop") else "asyncio"


def run(main: Coroutine[Any, Any, T], name: str = "asyncio") -> T:
    """``asyncio.run(main)`` on a loop of ``name``."""
    with asyncio.Runner(loop_factory=factory(name)) as runner:
        return runner.run(main)
