"""Game servers: one listening socket per (game, server number), each hosting one
game at a time — one game then exit, like gthd, or game after game (``forever``).
One process may run any number of them (``serve``)."""

from __future__ import annotations

import asyncio
import logging
import signal
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from . import protocol as P
from .net import Connection, NetLimits
from .records import event
from .session import Entity, Session, Settings


def default_port(game: str, server: int) -> int:
    """Awari listens on 29046 + n, Gothello on 29068 + n (the papers' section 2)."""
    return P.VOCABULARIES[game].port_base + server


@dataclass(frozen=True)
class ServerSpec:
    """One server: which game, its number and where it listens."""

    settings: Settings
    host: str = "0.0.0.0"
    port: int | None = None
    """None: the default port for the game and server number; 0: any free port."""
    forever: bool = False
    net: NetLimits = field(default_factory=NetLimits)


class GameServer:
    """A listening socket and the session that new connections join."""

    def __init__(self, spec: ServerSpec, engine: Any) -> None:
        self.spec, self.engine = spec, engine
        self.settings = spec.settings
        self.games = 0
        """Games finished."""
        self._session: Session | None = None
        self._server: asyncio.Server | None = None
        self._connections: set[Connection] = set()
        self._done: asyncio.Event | None = None

    @property
    def port(self) -> int:
        assert self._server is not None, "not started"
        port: int = self._server.sockets[0].getsockname()[1]
        return port

    async def start(self) -> None:
        loop = asyncio.get_running_loop()
        self._done = asyncio.Event()
        port = (
            self.spec.port
            if self.spec.port is not None
            else default_port(self.settings.vocab.game, self.settings.server)
        )
        self._session = self._new_session()
        self._server = await loop.create_server(
            lambda: Connection(self._attach, self.spec.net), self.spec.host, port, reuse_address=True
        )
        self._log(logging.INFO, "listen", host=self.spec.host, port=self.port, forever=self.spec.forever)

    def _new_session(self) -> Session:
        loop = asyncio.get_running_loop()
        return Session(self.settings, self.engine, loop, self.games + 1, self._session_over)

    def _attach(self, conn: Connection) -> tuple[Session, Entity] | None:
        if self._session is None:
            return None
        limit = self.spec.net.max_connections
        if len(self._connections) >= limit:
            self._log(logging.WARNING, "server_full", address=conn.address, connections=limit)
            conn.send([f"199 Server full (at most {limit} connections), try again later"])
            return None
        self._connections.add(conn)
        conn.closed.add_done_callback(lambda _: self._connections.discard(conn))
        return self._session, self._session.join(conn)

    def _session_over(self, session: Session) -> None:
        self.games += 1
        if self.spec.forever and self._session is not None:  # None: stopping
            self._session = self._new_session()
            return
        self._session = None
        if self._server is not None:
            self._server.close()
        assert self._done is not None
        self._done.set()

    async def wait(self) -> None:
        """Until the server stops taking games (never with ``forever``), then until
        the last connection has flushed and closed."""
        assert self._done is not None, "not started"
        await self._done.wait()
        await self._drain()

    async def _drain(self) -> None:
        pending = [c.closed for c in self._connections]
        if pending:
            await asyncio.wait(pending, timeout=self.spec.net.close_grace + 1)

    async def stop(self) -> None:
        """Stop listening, abort a game in progress (399 to everyone, and its record
        written: Session.shutdown), and close every connection."""
        session, self._session = self._session, None
        if session is not None:
            session.shutdown()
        if self._server is not None:
            self._server.close()
        for conn in list(self._connections):
            conn.close()
        if self._done is not None:
            self._done.set()
        await self._drain()

    def _log(self, level: int, what: str, **fields: Any) -> None:
        event(level, what, game=self.settings.vocab.game, server=self.settings.server, **fields)


async def serve(servers: Sequence[GameServer]) -> int | None:
    """Start every server, and return when all of them have stopped: None, or the
    number of the signal (SIGINT, SIGTERM) on which they were stopped, aborting the
    games in progress (GameServer.stop)."""
    loop = asyncio.get_running_loop()
    caught: list[int] = []
    stopping = asyncio.Event()

    def on_signal(signum: int) -> None:
        caught.append(signum)
        stopping.set()

    handled = []
    for signum in (signal.SIGINT, signal.SIGTERM):
        try:
            loop.add_signal_handler(signum, on_signal, signum)
            handled.append(signum)
        except (NotImplementedError, RuntimeError, ValueError):  # not the main thread, or no Unix signals
            pass
    try:
        for server in servers:
            await server.start()
        finished = asyncio.ensure_future(asyncio.gather(*(server.wait() for server in servers)))
        signalled = asyncio.ensure_future(stopping.wait())
        either: set[asyncio.Future[Any]] = {finished, signalled}
        await asyncio.wait(either, return_when=asyncio.FIRST_COMPLETED)
        signalled.cancel()
        if caught:
            event(logging.WARNING, "stopping", signal=signal.Signals(caught[0]).name)
            await asyncio.gather(*(server.stop() for server in servers))
        await finished
    finally:
        for signum in handled:
            loop.remove_signal_handler(signum)
    return caught[0] if caught else None
