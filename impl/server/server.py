"""Game servers: one listening socket per (game, server number), each hosting one
game at a time — one game then exit, like gthd, or game after game (``forever``).
One process may run any number of them (``serve``).

This is the adapter around the sans-IO session: it gives the session the loop's
time, arms one timer at the session's ``deadline()``, draws its randomness, and
writes the record of each finished game (the ``GameOver`` event) to a file."""

from __future__ import annotations

import asyncio
import logging
import os
import random
import signal
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from impl.engine import GameEngine
from impl.protocol import Refused, port_of

from .net import Connection, NetLimits
from .records import GameRecord, event
from .session import Entity, Event, GameOver, LineError, Session, Settings


def default_port(game: str, server: int) -> int:
    """Awari listens on 29046 + n, Gothello on 29068 + n (the papers' section 2)."""
    return port_of(game, server)


def write_record(directory: Path, record: GameRecord) -> Path:
    """Write the record (impl/pgn.py) as ``<game>-<server>-<UTC time>-<pid>-<number>.pgn``."""
    directory.mkdir(parents=True, exist_ok=True)
    stamp = datetime.fromtimestamp(record.ended, UTC).strftime("%Y%m%dT%H%M%SZ")
    path = directory / f"{record.game}-{record.server}-{stamp}-{os.getpid()}-{record.game_no}.pgn"
    path.write_text(record.text(), encoding="ascii")
    return path


@dataclass(frozen=True)
class ServerConfig:
    """One server: which game, its number, where it listens, where records go,
    and who hears of its sessions."""

    settings: Settings
    host: str = "0.0.0.0"
    port: int | None = None
    """None: the default port for the game and server number; 0: any free port."""
    forever: bool = False
    net: NetLimits = field(default_factory=NetLimits)
    record_dir: Path | None = None
    """Write a record file per finished game here."""
    session_hooks: tuple[Callable[[Session], None], ...] = ()
    """Called with each new session, before anyone joins it (a web view adds its
    listener there)."""
    opening: tuple[str, ...] = ()
    """Moves the referee plays at the start of every game (impl/openings.py,
    docs/protocol.md "Openings"); none by default."""


class Link:
    """One connection's way into the session: each input stamped with the loop's
    time, and the session's timer re-armed after it."""

    def __init__(self, server: GameServer, session: Session, entity: Entity) -> None:
        self.server, self.session, self.entity = server, session, entity
        self._time = asyncio.get_running_loop().time

    def receive(self, line: str | LineError) -> None:
        self.session.receive(self.entity, line, self._time())
        self.server.rearm(self.session)

    def leave(self) -> None:
        self.session.leave(self.entity, self._time())
        self.server.rearm(self.session)


class GameServer:
    """A listening socket and the session that new connections join."""

    def __init__(self, spec: ServerConfig, engine: GameEngine) -> None:
        self.spec, self.engine = spec, engine
        self.settings = spec.settings
        self.games = 0
        """Games finished."""
        self._session: Session | None = None
        self._server: asyncio.Server | None = None
        self._connections: set[Connection] = set()
        self._done: asyncio.Event | None = None
        self._timer: asyncio.TimerHandle | None = None
        self._rng = random.Random()
        self.watchers: list[Callable[[Session, Event], None]] = []
        """Called with every event of every game this server hosts (a web view, a
        tournament's recorder), after the server's own handling; a watcher must not
        call the session's inputs."""

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
        now = asyncio.get_running_loop().time()
        session = Session(
            self.settings,
            self.engine,
            rng=self._rng,
            now=now,
            epoch=time.time() - now,
            game_no=self.games + 1,
            opening=self.spec.opening,
        )
        session.listeners.append(lambda what: self._on_event(session, what))
        for hook in self.spec.session_hooks:
            hook(session)
        return session

    def _on_event(self, session: Session, what: Event) -> None:
        if isinstance(what, GameOver):
            self._session_over(session, what.record)
        for watcher in list(self.watchers):
            watcher(session, what)

    def _attach(self, conn: Connection) -> Link | None:
        session = self._session
        if session is None:
            return None
        limit = self.spec.net.max_connections
        if len(self._connections) >= limit:
            self._log(logging.WARNING, "server_full", address=conn.address, connections=limit)
            conn.send(
                [
                    Refused(199, f"Server full (at most {limit} connections), try again later").to_line(
                        self.settings.vocab
                    )
                ]
            )
            return None
        self._connections.add(conn)
        conn.closed.add_done_callback(lambda _: self._connections.discard(conn))
        link = Link(self, session, session.join(conn, asyncio.get_running_loop().time()))
        self.rearm(session)
        return link

    def rearm(self, session: Session) -> None:
        """One timer per server, due no later than the session's next deadline.  A
        timer due earlier is kept (when it fires, ``tick`` does nothing and the timer
        is set again), so that most inputs touch no timer at all."""
        if session is not self._session:
            return
        deadline = session.deadline()
        if deadline is None or (self._timer is not None and self._timer.when() <= deadline):
            return
        if self._timer is not None:
            self._timer.cancel()
        self._timer = asyncio.get_running_loop().call_at(deadline, self._on_timer, session)

    def _on_timer(self, session: Session) -> None:
        self._timer = None
        session.tick(asyncio.get_running_loop().time())
        self.rearm(session)

    def _session_over(self, session: Session, record: GameRecord) -> None:
        if self.spec.record_dir is not None and session.started is not None:  # nothing to record before the start
            try:
                path = write_record(self.spec.record_dir, record)
                self._log(logging.DEBUG, "record", game_no=record.game_no, path=str(path))
            except OSError as exc:
                self._log(logging.WARNING, "record_failed", error=repr(exc))
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
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
            session.shutdown(asyncio.get_running_loop().time())
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
