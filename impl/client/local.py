"""A referee server running in a background thread of this process, for ``referee
play``, the match runner and the tests: the real asyncio server of impl/server/, on
127.0.0.1 and a free port, driven from blocking code."""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType

from impl import protocol as P
from impl.apps.serve import DEFAULT_CONFIG
from impl.engines.registry import get_engine
from impl.server.net import NetLimits
from impl.server.server import GameServer, ServerConfig
from impl.server.session import ConfigMessages, Event, Limits, OnDivergence, PlayerSeated, Session, Settings
from spec.awari_rules import canonical

SeatHook = Callable[[int, str], None]
"""Told, on the server's thread, of each player seated: its side (0 first mover, 1
second) and the client's ``address:port`` (impl/apps/seats.py maps it to a process)."""


@dataclass(frozen=True)
class ServerOptions:
    """What ``referee serve`` would take for one server (docs/protocol.md §1)."""

    game: str
    time: tuple[float, float] | None = None
    forever: bool = False
    config: ConfigMessages | None = None
    """None: the server's default for the game (Gothello players get no 341–344)."""
    max_observers: int = Limits.max_observers
    engine: str = "impl"
    record_dir: Path | None = None
    on_divergence: OnDivergence = OnDivergence.CONTINUE
    rules: str = "paper"
    """The Awari rule set: any text spec/awari_rules.py's ``parse_rules`` reads."""
    on_seat: SeatHook | None = None
    """Called as each player takes a seat, before the game starts (impl/apps/match.py
    checks that the seat's connection is the launched program's)."""
    opening: tuple[str, ...] = ()
    """Moves the referee plays first in every game (impl/apps/openings.py)."""
    session_hooks: tuple[Callable[[Session], None], ...] = ()
    """``ServerConfig.session_hooks``: a live web view's tap (impl/web/tourney.py)."""


class LocalServer:
    """One game server in a thread with its own event loop; ``port`` once started."""

    def __init__(self, options: ServerOptions) -> None:
        self.options = options
        self._ready = threading.Event()
        self._finished = threading.Event()
        self._port = 0
        self._error: BaseException | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._thread = threading.Thread(target=self._main, name=f"referee-{options.game}", daemon=True)

    def start(self, timeout: float = 10.0) -> LocalServer:
        """Start the server; return once it listens."""
        self._thread.start()
        if not self._ready.wait(timeout):
            raise RuntimeError("the local server did not start")
        if self._error is not None:
            raise RuntimeError(f"the local server failed to start: {self._error!r}") from self._error
        return self

    @property
    def port(self) -> int:
        return self._port

    def wait(self, timeout: float | None = None) -> bool:
        """Until the server has stopped taking games (one game served, unless
        ``forever``); False on timeout."""
        return self._finished.wait(timeout)

    def stop(self) -> None:
        """Stop the server, ending any game in progress, and join its thread."""
        loop, stop = self._loop, self._stop
        if loop is not None and stop is not None and not self._finished.is_set():
            # The loop may close between the check and the call: the server has stopped then.
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(stop.set)
        self._thread.join(15.0)

    def __enter__(self) -> LocalServer:
        return self.start()

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.stop()

    def _main(self) -> None:
        try:
            asyncio.run(self._serve())
        except BaseException as exc:  # reported by start(); a thread must not die silently
            self._error = exc
            self._ready.set()
        finally:
            self._finished.set()

    def _server(self) -> GameServer:
        o = self.options
        config = o.config if o.config is not None else DEFAULT_CONFIG[o.game]
        limits = Limits(max_observers=o.max_observers)
        rules = canonical(o.rules)  # the greeting and the records name the set canonically
        settings = Settings(
            P.VOCABULARIES[o.game], 0, o.time, config, limits, on_divergence=o.on_divergence, rules=rules
        )
        spec = ServerConfig(
            settings,
            host="127.0.0.1",
            port=0,
            forever=o.forever,
            net=NetLimits(close_grace=1.0),
            record_dir=o.record_dir,
            opening=o.opening,
            session_hooks=o.session_hooks,
        )
        server = GameServer(spec, get_engine(o.game, o.engine, rules))
        if o.on_seat is not None:
            server.watchers.append(_seat_watcher(o.on_seat))
        return server

    async def _serve(self) -> None:
        self._loop, self._stop = asyncio.get_running_loop(), asyncio.Event()
        server = self._server()
        await server.start()
        self._port = server.port
        self._ready.set()
        stopping = asyncio.create_task(self._stop.wait())
        serving = asyncio.create_task(server.wait())
        await asyncio.wait([stopping, serving], return_when=asyncio.FIRST_COMPLETED)
        stopping.cancel()
        serving.cancel()
        await server.stop()


def _seat_watcher(hook: SeatHook) -> Callable[[Session, Event], None]:
    """A server watcher passing each seated player's side and client address to ``hook``."""

    def watch(session: Session, what: Event) -> None:
        if isinstance(what, PlayerSeated):
            holder = session.players[what.side]
            hook(int(what.side), str(getattr(holder.peer, "address", "")) if holder is not None else "")

    return watch
