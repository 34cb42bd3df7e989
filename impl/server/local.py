"""A referee server running in a background thread of this process, for ``referee
play``, the match runner and the tests: the real asyncio server of impl/server/, on
127.0.0.1 and a free port, driven from blocking code."""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable
from types import TracebackType

from impl.config import Config
from impl.engines.registry import get_engine
from impl.game import Termination
from impl.server.server import GameServer, ServerConfig
from impl.server.session import Event, PlayerSeated, Session

SeatHook = Callable[[int, str, str], None]
"""Told, on the server's thread, of each player seated: its side (0 first mover, 1
second), the client's ``address:port`` (impl/apps/seats.py maps it to a process)
and the name it gave (a match's seat token, impl/apps/games.py)."""


class LocalServer:
    """One game server in a thread with its own event loop; ``port`` once started."""

    def __init__(
        self,
        config: Config,
        *,
        on_seat: SeatHook | None = None,
        owner_of: Callable[[str], str | None] | None = None,
        opening: tuple[str, ...] = (),
        session_hooks: tuple[Callable[[Session], None], ...] = (),
    ) -> None:
        """One server of ``config``'s game (``Config.local(game, …)``: 127.0.0.1, a
        free port, the fast engine).  ``on_seat`` is called as each player takes a seat,
        before the game starts (impl/apps/games.py checks that the seat's connection
        is the launched program's); ``owner_of``: who a new connection is of, None
        to refuse it (``GameServer.owner_of``); ``opening``: moves the referee plays first in
        every game (impl/engines/openings.py); ``session_hooks``: a live web view's tap
        (impl/web/tourney.py)."""
        if len(config.games) != 1:
            raise ValueError(f"a local server hosts one game, not {', '.join(config.games)}")
        self.config = config
        self.game = config.games[0]
        self.on_seat, self.owner_of = on_seat, owner_of
        self.opening, self.session_hooks = opening, session_hooks
        self._ready = threading.Event()
        self._finished = threading.Event()
        self._port = 0
        self._error: BaseException | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._thread = threading.Thread(target=self._main, name=f"referee-{self.game}", daemon=True)
        self._termination = Termination.SHUTDOWN

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

    def stop(self, termination: Termination = Termination.SHUTDOWN) -> None:
        """Stop the server, ending any game in progress (its ``termination``:
        ``adjudication`` when the match runner ends it), and join its thread."""
        self._termination = termination
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
        c = self.config
        spec = ServerConfig.of(c, self.game, opening=self.opening, session_hooks=self.session_hooks)
        server = GameServer(spec, get_engine(self.game, c.engine or "impl", c.rules_for(self.game)))
        server.owner_of = self.owner_of
        if self.on_seat is not None:
            server.watchers.append(_seat_watcher(self.on_seat))
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
        await server.stop(self._termination)


def _seat_watcher(hook: SeatHook) -> Callable[[Session, Event], None]:
    """A server watcher passing each seated player's side and client address to ``hook``."""

    def watch(session: Session, what: Event) -> None:
        if isinstance(what, PlayerSeated):
            holder = session.players[what.side]
            address = str(getattr(holder.peer, "address", "")) if holder is not None else ""
            hook(int(what.side), address, what.name)

    return watch
