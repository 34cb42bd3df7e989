"""The referee's side of the web view's process (issue "Isolation"): the web view
runs as a separate OS process (impl/web/child.py), at a lower scheduling
priority, fed the game feed over a socket pair, so that no number of viewers or
requests takes a share of the referee's event loop.

``WebLink`` is a ``FeedSink``: the taps (impl/web/tap.py) publish each feed event
to it on the game's own loop, and publishing costs the same whatever the web
side does.  The event is pickled (its engine, states and clocks are small;
a ``GameOver``'s record without its moves) and appended to a bounded buffer;
one writer thread sends the buffer to the web process.  A game never waits for
the web view:

* past ``BUFFER_LIMIT`` bytes unsent (the web process is behind, or stopped),
  events are dropped and the link is *stale*: nothing more is encoded until the
  buffer has drained; then the web process is sent, in one message, the events
  of the last KEEP_FINISHED games finished and of every game in progress
  (``resync``), and the feed goes on;
* if the web process dies, one JSON event line says so (``web_process_exited``)
  and the games go on without it; it is not restarted.

Messages, each a 4-byte length then a pickle of one of feed.py's ``LinkMessage``
values: referee → web ``Published`` (a feed event, in order), ``ServerList`` (the
servers of the process, as they change), ``ServerAdded`` (a tournament's or an
arena's game on its private server), ``Resync`` (the last games finished and those
in progress, whole), ``StandingsUpdate`` and ``ArenaUpdate`` (a tournament's or an
arena's standings); web → referee, once, ``Listening`` or ``ListenFailed``.

The web process exits when its end of the socket pair reads EOF (the referee
closed it, or exited), and on Linux is also killed with the referee (child.py:
PR_SET_PDEATHSIG).
"""

from __future__ import annotations

import asyncio
import logging
import os
import pickle
import socket
import struct
import subprocess
import sys
import threading
from collections import deque
from collections.abc import Callable, Sequence
from contextlib import suppress
from dataclasses import dataclass, replace
from pathlib import Path

from impl.config import WebLimits
from impl.log import event
from impl.server.records import DIVERGENCE
from impl.server.server import GameServer, serve
from impl.server.session import Session, Written

from .feed import (
    FeedEvent,
    GameOver,
    GameStarted,
    LinkMessage,
    ListenFailed,
    Listening,
    Published,
    Resync,
    ServerInfo,
    ServerList,
)
from .tap import SessionTap, describe

BUFFER_LIMIT = 1 << 20
"""Bytes of encoded events the referee keeps for the web process at most; past
them, events are dropped and the web side is resynchronised."""
START_WAIT = 30.0
"""Seconds the web process has to report its port (importing aiohttp on a busy machine)."""
POLL = 1.0
"""Seconds between the writer's checks that the web process is alive, and
between two looks at the servers' descriptions."""
HEADER = struct.Struct("!I")
KEEP_FINISHED = 20
"""Finished games kept for a resync (the web view keeps as many: HubLimits.keep_finished)."""
MAX_MESSAGE = 1 << 30
"""Bytes of one message at most (a reader refuses more: a corrupt stream)."""


@dataclass(frozen=True)
class ViewConfig:
    """What the web process serves, handed to it whole as the feed's first message
    (as uvicorn hands its ``Config`` to its workers), never spelled out as options
    and parsed back (impl/web/child.py ``make_view``)."""

    mode: str = "serve"
    """``serve``, ``tournament`` or ``arena``."""
    host: str = "127.0.0.1"
    port: int = 0
    record_dir: Path | None = None
    tables: Path | None = None
    """``--tb``: the endgame tables the replay page values moves by."""
    live: bool = False
    """A tournament's: its games' boards are fed."""
    limits: WebLimits | None = None
    """``Config.web_limits``; None: their defaults."""
    log_level: str = "info"


def frame(message: LinkMessage | ViewConfig) -> bytes:
    """``message`` as sent: its length, then its pickle."""
    data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    return HEADER.pack(len(data)) + data


def read_message(sock: socket.socket) -> LinkMessage | ViewConfig:
    """One message from a blocking socket; EOFError at its end."""
    (size,) = HEADER.unpack(_read_exactly(sock, HEADER.size))
    if size > MAX_MESSAGE:
        raise EOFError("message too long")
    message: LinkMessage | ViewConfig = pickle.loads(_read_exactly(sock, size))
    return message


def _read_exactly(sock: socket.socket, size: int) -> bytes:
    data = bytearray()
    while len(data) < size:
        chunk = sock.recv(size - len(data))
        if not chunk:
            raise EOFError("the other side closed")
        data += chunk
    return bytes(data)


def slim(what: FeedEvent) -> FeedEvent:
    """The event as sent: a ``GameOver``'s record without its moves, clocks and
    divergences (the web view shows its result; the moves it has already)."""
    if isinstance(what, GameOver):
        kept = tuple((k, v) for k, v in what.record.tags if k != DIVERGENCE)
        return replace(what, source=Written(replace(what.record, tags=kept, plies=())))
    return what


def log_level() -> str:
    """The referee's log level for the web process, ``off`` when the referee logs nothing."""
    logger = logging.getLogger("referee")
    if not any(isinstance(h, logging.StreamHandler) for h in logger.handlers):
        return "off"
    return logging.getLevelName(logger.getEffectiveLevel()).lower()


class WebLink:
    """The web view as a process of its own, and the feed to it."""

    mode = "serve"
    """The web process's kind (child.py ``--mode``): ``serve`` or ``tournament``."""

    def __init__(
        self,
        host: str,
        port: int,
        record_dir: Path | None = None,
        buffer_limit: int = BUFFER_LIMIT,
        tables: Path | None = None,
        limits: WebLimits | None = None,
    ) -> None:
        self.host, self.requested_port, self.record_dir = host, port, record_dir
        self.limits = limits
        """The web view's limits (``Config.web_limits``); None: their defaults."""
        self.tables = tables
        """``--tb``: the endgame tables the replay page values the moves by (archive.Archive)."""
        self.buffer_limit = buffer_limit
        self.port = 0
        """Where the web process listens, once ``open``."""
        self.process: subprocess.Popen[bytes] | None = None
        self.game_servers: list[GameServer] = []
        self._sock: socket.socket | None = None
        self._lock = threading.Condition()
        self._buffer = bytearray()
        self._stale = False
        """Events were dropped: resynchronise once the buffer has drained."""
        self._games: dict[str, list[FeedEvent]] = {}
        """Server key → the events of its game in progress (references, for a resync)."""
        self._finished: deque[list[FeedEvent]] = deque(maxlen=KEEP_FINISHED)
        """The events of the last games finished, oldest first (their ends may be among those dropped)."""
        self._known: dict[int, ServerInfo] = {}
        self._servers: tuple[ServerInfo, ...] = ()
        """As last sent."""
        self._closed = False
        self.dead = False
        """The web process has gone (or could not be written to): the feed stops."""
        self.dropped = 0
        """Events dropped for a full buffer, since the start."""
        self.resyncs = 0
        self._writer = threading.Thread(target=self._write_loop, name="web-link", daemon=True)
        self.tap = SessionTap(self)

    # ─── life ──────────────────────────────────────────────────────────────────

    def view_config(self) -> ViewConfig:
        """What the web process is to serve (a subclass adds its own)."""
        tables = None if self.tables is None else self.tables.resolve()
        return ViewConfig(
            mode=self.mode,
            host=self.host,
            port=self.requested_port,
            record_dir=self.record_dir,
            tables=tables,
            limits=self.limits,
            log_level=log_level(),
        )

    def open(self) -> None:
        """Start the web process, hand it its ``ViewConfig`` and wait for its port;
        an OSError if it cannot listen."""
        ours, theirs = socket.socketpair()
        command = [sys.executable, "-m", "impl.web.child", "--fd", str(theirs.fileno()), "--parent", str(os.getpid())]
        try:
            self.process = subprocess.Popen(
                command, pass_fds=(theirs.fileno(),), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL
            )
        finally:
            theirs.close()
        self._sock = ours
        try:
            ours.settimeout(START_WAIT)
            ours.sendall(frame(self.view_config()))
            answer = read_message(ours)
            ours.settimeout(None)
        except (OSError, EOFError) as exc:
            self._abandon()
            raise OSError(f"the web process did not start: {exc}") from None
        if not isinstance(answer, Listening):
            self._abandon()
            raise OSError(answer.error if isinstance(answer, ListenFailed) else f"unexpected {answer!r}")
        self.port = answer.port
        self._writer.start()

    def _abandon(self) -> None:
        if self._sock is not None:
            self._sock.close()
        if self.process is not None:
            with suppress(subprocess.TimeoutExpired):
                self.process.wait(5.0)
            if self.process.poll() is None:
                self.process.kill()
                self.process.wait()

    def close(self) -> None:
        """Stop feeding; the web process reads EOF and exits (killed after a few seconds)."""
        with self._lock:
            self._closed = True
            self._lock.notify()
        if self._writer.is_alive():
            self._writer.join(2.0)
        if self._sock is not None:
            with suppress(OSError):
                self._sock.shutdown(socket.SHUT_RDWR)
            self._sock.close()
        if self.process is not None:
            try:
                self.process.wait(3.0)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    # ─── serve --web ───────────────────────────────────────────────────────────

    def session_hook(self, session: Session) -> None:
        """For ``ServerConfig.session_hooks`` of every server this view shows."""
        self.tap.hook(session)

    def attach(self, servers: Sequence[GameServer]) -> None:
        self.game_servers = list(servers)

    async def serve(self, servers: Sequence[GameServer], on_ready: Callable[[], None] | None = None) -> int | None:
        """impl.server.server.serve, with the web process beside the servers
        (started first: its port is printed with theirs)."""
        self.attach(servers)
        self.open()
        watcher = asyncio.create_task(self._watch_servers())
        try:
            return await serve(servers, on_ready)
        finally:
            watcher.cancel()
            with suppress(asyncio.CancelledError):
                await watcher
            self.close()

    async def _watch_servers(self) -> None:
        while True:
            self.refresh_servers()
            await asyncio.sleep(POLL)

    def refresh_servers(self) -> None:
        """Send the servers' descriptions if they changed: every server that has
        listened (a one-game server that stopped is still shown, with its last game)."""
        for server in self.game_servers:
            info = describe(server)
            if info is not None:
                self._known[id(server)] = info
        servers = tuple(self._known[id(s)] for s in self.game_servers if id(s) in self._known)
        if servers != self._servers:
            self._servers = servers
            self.send(ServerList(servers))

    # ─── the feed (any thread: a tournament's games run on loops of their own) ─

    def publish(self, event: FeedEvent) -> None:
        """Keep the event for a resync and send it, or drop it if the web process
        is behind; never waits, and costs the same whatever the web side does."""
        if isinstance(event, GameStarted) and self.game_servers:
            self.refresh_servers()  # the game's server is described before its game
        with self._lock:
            key = event.server
            if isinstance(event, GameStarted):
                self._games[key] = [event]
            elif isinstance(event, GameOver):
                if key in self._games:
                    self._finished.append([*self._games.pop(key), event])
            elif key in self._games:
                self._games[key].append(event)
            if self._stale or self.dead:
                return
        self.send(Published(slim(event)))

    def send(self, message: LinkMessage) -> None:
        """Queue ``message`` for the web process; dropped (and the link stale)
        when the buffer is full."""
        if self.dead or (self._stale and isinstance(message, Published)):
            return
        data = frame(message)
        with self._lock:
            if len(self._buffer) + len(data) > self.buffer_limit:
                self._stale = True
                self.dropped += 1
                return
            self._buffer += data
            self._lock.notify()

    # ─── the writer thread ─────────────────────────────────────────────────────

    def _write_loop(self) -> None:
        """Send what is buffered; resynchronise the web side once a stale link's
        buffer has drained; notice the web process's death."""
        while True:
            with self._lock:
                while not self._buffer and not self._closed and not self._stale and not self._due():
                    if not self._lock.wait(POLL) and self._exited():
                        return
                if self._closed and not self._buffer:
                    return
                closing = self._closed
                data = bytes(self._buffer)
                self._buffer.clear()
                games = None
                if self._stale and not data:
                    games = [list(events) for events in (*self._finished, *self._games.values())]
                if games is not None:
                    self._stale = False
            try:
                if games is not None:
                    data = self._resync(games)
                data += self._extra()
            except Exception as exc:  # a message that cannot be pickled must not end the feed
                event(logging.ERROR, "web_feed_failed", error=repr(exc))
            if (data and not self._write(data)) or closing:
                return

    def _resync(self, games: list[list[FeedEvent]]) -> bytes:
        """The last games finished and every game in progress, each from its
        start, and the servers; put before
        whatever was published meanwhile (which is newer)."""
        self.resyncs += 1
        data = frame(ServerList(self._servers)) + frame(Resync(tuple(tuple(slim(e) for e in g) for g in games)))
        with self._lock:
            data, self._buffer = data + bytes(self._buffer), bytearray()
        return data

    def _due(self) -> bool:
        """Whether ``_extra`` has something to send (a subclass's)."""
        return False

    def _extra(self) -> bytes:
        """More to send, made on the writer thread (a tournament's standings)."""
        return b""

    def _write(self, data: bytes) -> bool:
        assert self._sock is not None
        try:
            self._sock.sendall(data)
        except OSError as exc:
            self._gone(repr(exc))
            return False
        return True

    def _exited(self) -> bool:
        if self.process is None or self.process.poll() is None:
            return False
        self._gone(f"exit status {self.process.returncode}")
        return True

    def _gone(self, why: str) -> None:
        with self._lock:
            if self.dead or self._closed:
                return
            self.dead = True
            self._buffer.clear()
        event(logging.ERROR, "web_process_exited", error=why, restarted=False, games="going on without the web view")
