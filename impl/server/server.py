"""Game servers: one listening socket per (game, server number), each hosting one
game at a time — one game then exit, like gthd, or game after game (``forever``).
One process may run any number of them (``serve``).

This is the adapter around the sans-IO session: it gives the session the loop's
time, arms one timer at the session's ``deadline()``, draws its randomness, and
writes the record of each finished game (the ``GameOver`` event) to a file, in a
thread, so that a slow disk never stalls the games (``_session_over``).

The loop's own stalls are measured (``LagMonitor``) and not charged to the
players' clocks, nor is the time a reply waited to be read (``Link``;
impl/server/clock.py).  Who gets a place is decided by impl/server/admission.py
(``_attach``)."""

from __future__ import annotations

import asyncio
import errno
import logging
import os
import random
import signal
import time
import traceback
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, ClassVar

from impl.atomic import why, write_atomic
from impl.config import DEFAULTS, Config, NetLimits
from impl.engines.port import GameEngine
from impl.game import Termination
from impl.log import event, event_limited
from impl.pgn import PgnGame, write
from impl.protocol import Refused, port_of

from .admission import Holder, Room, StormGuard, Verdict, address_group, decide
from .clock import StallLog, no_stalls
from .loops import cancelled, running
from .net import Connection, listening_port
from .session import Conn, Entity, Event, GameOver, LineError, Session, Settings
from .transcript import monitor


def default_port(game: str, server: int) -> int:
    """Awari listens on 29046 + n, Gothello on 29068 + n (the papers' section 2)."""
    return port_of(game, server)


RECORD_CLASHES = 100
"""Names ``write_record`` tries before giving up (a clash needs a restarted server
reusing a pid within the second: one more name almost always does)."""


def write_record(directory: Path, record: PgnGame, ended: float) -> Path:
    """Write the record (impl/pgn.py) as ``<game>-<server>-<UTC time>-<pid>-<number>.pgn``
    (``…-<number>-2.pgn`` and on if that name is taken: a record is never
    overwritten), atomically (impl/atomic.py): an OSError such as a full disk
    propagates and leaves no file."""
    directory.mkdir(parents=True, exist_ok=True)
    stamp = datetime.fromtimestamp(ended, UTC).strftime("%Y%m%dT%H%M%SZ")
    stem = f"{record.game}-{record.tag('Server')}-{stamp}-{os.getpid()}-{record.tag('Number')}"
    text = write(record)
    for n in range(1, RECORD_CLASHES + 1):
        path = directory / (f"{stem}.pgn" if n == 1 else f"{stem}-{n}.pgn")
        try:
            write_atomic(path, text, overwrite=False)
        except FileExistsError:
            continue
        return path
    raise FileExistsError(errno.EEXIST, f"{RECORD_CLASHES} names taken", str(directory / f"{stem}.pgn"))


@dataclass(frozen=True)
class ServerConfig:
    """One server: which game, its number, where it listens, where records go,
    and who hears of its sessions."""

    settings: Settings
    host: str = DEFAULTS.host
    port: int | None = DEFAULTS.port
    """None: the default port for the game and server number; 0: any free port."""
    forever: bool = DEFAULTS.forever
    net: NetLimits = DEFAULTS.net
    record_dir: Path | None = DEFAULTS.record_dir
    """Write a record file per finished game here."""
    session_hooks: tuple[Callable[[Session], None], ...] = ()
    """Called with each new session, before anyone joins it (a web view adds its
    listener there)."""
    opening: tuple[str, ...] = ()
    """Moves the referee plays at the start of every game (impl/engines/openings.py,
    docs/protocol.md "Openings"); none by default."""
    check_protocol: bool = DEFAULTS.check_protocol
    """Check what each session sends against the protocol's model (``Config.check_protocol``)."""

    @classmethod
    def of(
        cls,
        config: Config,
        game: str,
        server: int = 0,
        *,
        opening: tuple[str, ...] = (),
        session_hooks: tuple[Callable[[Session], None], ...] = (),
    ) -> ServerConfig:
        """Game ``game``'s server ``server`` as ``config`` (impl/config.py) says; the
        opening (checked by the game's engine) and the hooks are the caller's."""
        return cls(
            Settings.of(config, game, server),
            host=config.host,
            port=config.port,
            forever=config.forever,
            net=config.net,
            record_dir=config.record_dir,
            session_hooks=session_hooks,
            opening=opening,
            check_protocol=config.check_protocol,
        )


EVICTED = "Server full: closed to make room for another address, try again later"
"""The 199 an evicted connection gets (docs/protocol.md §2): 199 as for the other
reasons a connection without a seat is closed (a seat timeout, the game over)."""

RECORD_TRIES = 5
"""Attempts at a record write that found no descriptor free (EMFILE, ENFILE)."""
RECORD_RETRY = 1.0
"""Seconds between them."""


class LagMonitor:
    """One per event loop: a timer every ``interval`` seconds that measures its own
    lateness.  Lateness beyond ``slack`` is a stall of the referee's own making (the
    loop did not run: a blocking call, a GC pause, a slow disk), kept in a
    ``StallLog``.  A stall still under way when an input is handled (its timer
    not yet run) counts up to the loop's present time."""

    interval = 0.05
    slack = 0.02
    _monitors: ClassVar[weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, LagMonitor]] = weakref.WeakKeyDictionary()

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self.log = StallLog()
        self._users = 0
        self._due = 0.0
        self._handle: asyncio.TimerHandle | None = None

    @classmethod
    def acquire(cls) -> LagMonitor:
        """The running loop's monitor, running while any server uses it."""
        loop = asyncio.get_running_loop()
        monitor = cls._monitors.get(loop)
        if monitor is None:
            monitor = cls._monitors[loop] = cls(loop)
        monitor._users += 1
        if monitor._handle is None:
            monitor._arm(loop.time())
        return monitor

    def release(self) -> None:
        self._users -= 1
        if self._users <= 0 and self._handle is not None:
            self._handle.cancel()
            self._handle = None

    def _arm(self, now: float) -> None:
        self._due = now + self.interval
        self._handle = self._loop.call_at(self._due, self._fire)

    def _fire(self) -> None:
        now = self._loop.time()
        if now - self._due > self.slack:
            self.log.add(self._due, now)
            # Information, not a warning: the stall is kept out of every clock (clock.py).
            event_limited(logging.INFO, "loop_stall", "loop", seconds=round(now - self._due, 3))
        self._arm(now)

    def stalled(self, start: float, end: float) -> float:
        """The referee's stall time within ``[start, end]``, the one under way included."""
        total = self.log.within(start, end)
        now = self._loop.time()
        if self._handle is not None and now - self._due > self.slack:
            total += max(0.0, min(end, now) - max(start, self._due))
        return total


class SessionTimer:
    """A session's one timer, due no later than its ``deadline()``.  A timer due
    earlier is kept (when it fires, ``tick`` does nothing and the timer is set
    again), so that most inputs touch no timer at all."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self._handle: asyncio.TimerHandle | None = None

    def rearm(self) -> None:
        deadline = self.session.deadline()
        if deadline is None or (self._handle is not None and self._handle.when() <= deadline):
            return
        if self._handle is not None:
            self._handle.cancel()
        self._handle = asyncio.get_running_loop().call_at(deadline, self._fire)

    def cancel(self) -> None:
        self._handle = cancelled(self._handle)

    def _fire(self) -> None:
        self._handle = None
        self.session.tick(asyncio.get_running_loop().time())
        self.rearm()


class Link:
    """One connection's way into the session: each input stamped with the loop's
    time (and, from the player whose clock runs, with its arrival: Session.receive),
    and the session's timer re-armed after it."""

    def __init__(self, server: GameServer, session: Session, entity: Entity, conn: Connection, group: str) -> None:
        self.server, self.session, self.entity, self.conn = server, session, entity, conn
        self.group = group
        """Its address group (impl/server/admission.py)."""
        self.joined = asyncio.get_running_loop().time()
        self._time = asyncio.get_running_loop().time

    def receive(self, line: str | LineError) -> None:
        session, entity = self.session, self.entity
        arrived = self.conn.arrival() if session.clock_runs_for(entity) else None
        session.receive(entity, line, self._time(), arrived)
        self.server.rearm(session)

    def holder(self) -> Holder:
        conn = self.entity.conn
        return Holder(self.group, self.joined, conn in (Conn.WAITING, Conn.PLAYING), conn is Conn.WATCHING)

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
        self._connections: dict[Connection, Link] = {}
        """Open connections admitted, in the order admitted (closing ones leave it
        when closed; evicted ones at once)."""
        net = spec.net
        self._evicted: set[Connection] = set()
        """Evicted connections still closing."""
        self._room = Room.of(net.max_connections, net.per_address, net.reserve)
        self._storms = StormGuard(net.accept_rate, net.accept_burst)
        self._done: asyncio.Event | None = None
        self._timer: SessionTimer | None = None
        """The current session's."""
        self._rng = random.Random()
        self._monitor: LagMonitor | None = None
        self._writes: asyncio.Future[None] | None = None
        """The last record write queued: writes run in a thread, one after another."""
        self.watchers: list[Callable[[Session, Event], None]] = []
        """Called with every event of every game this server hosts (a web view, a
        tournament's recorder), after the server's own handling; a watcher must not
        call the session's inputs."""
        self.owner_of: Callable[[str], str | None] | None = None
        """A private server's (impl/apps/games.py): the owner of a new connection,
        given its client ``address:port`` — a launched program or the runner —
        None to refuse it.  Connections are then limited per owner, not per
        address: every program of a match shares 127.0.0.1, and one must not
        crowd the other out."""

    @property
    def port(self) -> int:
        return listening_port(self._server)

    async def start(self) -> None:
        loop = asyncio.get_running_loop()
        self._done = asyncio.Event()
        self._monitor = LagMonitor.acquire()
        port = (
            self.spec.port
            if self.spec.port is not None
            else default_port(self.settings.vocab.game, self.settings.server)
        )
        self._session = self._new_session()
        self._server = await loop.create_server(
            lambda: Connection(self._attach, self.spec.net), self.spec.host, port, reuse_address=True
        )
        self._log(
            logging.INFO, "listen", host=self.spec.host, port=self.port, forever=self.spec.forever, loop=running()
        )

    def _new_session(self) -> Session:
        now = asyncio.get_running_loop().time()
        session = Session(
            self.settings,
            self.engine,
            rng=self._rng,
            now=now,
            epoch=time.time() - now,
            game_no=self.games + 1,
            stalls=self._monitor.stalled if self._monitor is not None else no_stalls,
            opening=self.spec.opening,
        )
        # The session reached through a weak reference: a closure over it would make each
        # game a reference cycle, freed only by the cyclic collector, whose full passes
        # over thousands of finished games were the long tail of move round trips.
        ref = weakref.ref(session)
        session.resumed = lambda: self._rearm_ref(ref)
        session.listeners.append(lambda what: self._on_event_ref(ref, what))
        if self.spec.check_protocol:
            monitor(session)
        for hook in self.spec.session_hooks:
            hook(session)
        self._timer = SessionTimer(session)
        return session

    def _rearm_ref(self, ref: weakref.ReferenceType[Session]) -> None:
        session = ref()
        if session is not None:
            self.rearm(session)

    def _on_event_ref(self, ref: weakref.ReferenceType[Session], what: Event) -> None:
        session = ref()
        if session is not None:
            self._on_event(session, what)

    def _on_event(self, session: Session, what: Event) -> None:
        if isinstance(what, GameOver):
            self._session_over(session, what)
        for watcher in list(self.watchers):
            watcher(session, what)

    def _attach(self, conn: Connection) -> Link | None:
        """Admit ``conn`` or refuse it (199), by the rules of impl/server/admission.py
        (docs/protocol.md §2): its group's connection rate, its group's share, the
        places left, and eviction to make one."""
        session = self._session
        if session is None:
            return None
        net, room = self.spec.net, self._room
        now = asyncio.get_running_loop().time()
        group = address_group(conn.host, net.ipv4_group, net.ipv6_group)
        if self.owner_of is not None:  # a private server: counted per program, not per address
            owner = self.owner_of(conn.address)
            if owner is None:
                self._refuse(conn, "not_a_player", "Not a program of this game")
                return None
            group = owner
        if not self._storms.allows(group, now):
            self._refuse(conn, "connection_rate", f"Too many connections from {group} at once, try again later")
            return None
        self._storms.take(group, now)  # a try refused for room counts too: knocking again and again is slowed
        links = list(self._connections.values())
        decision = decide(room, [link.holder() for link in links], group)
        if decision.verdict is Verdict.GROUP_FULL:
            self._refuse(conn, "address_full", f"Too many connections from {group} (at most {room.per_group})")
            return None
        if decision.verdict is Verdict.FULL:
            self._refuse(conn, "server_full", f"Server full (at most {room.limit} connections), try again later")
            return None
        if decision.evict is not None:
            self._evict(links[decision.evict], group)
        link = Link(self, session, session.join(conn, now), conn, group)
        self._connections[conn] = link
        conn.closed.add_done_callback(lambda _: self._forget(conn))
        self.rearm(session)
        return link

    def _evict(self, link: Link, newcomer: str) -> None:
        """Close ``link``'s connection (199) to make a place for a newcomer of
        another group; it stops counting at once."""
        conn = link.conn
        self._connections.pop(conn, None)
        self._evicted.add(conn)
        event_limited(
            logging.WARNING,
            "evicted",
            f"{self.settings.vocab.game}-{self.settings.server}-{link.group}",
            game=self.settings.vocab.game,
            server=self.settings.server,
            group=link.group,
            newcomer=newcomer,
        )
        conn.send([Refused(199, EVICTED).to_line(self.settings.vocab)])
        conn.close()

    def _refuse(self, conn: Connection, what: str, text: str) -> None:
        """199 and closed (by the caller); logged once an interval per address."""
        event_limited(
            logging.WARNING,
            what,
            f"{self.settings.vocab.game}-{self.settings.server}-{conn.host}",
            game=self.settings.vocab.game,
            server=self.settings.server,
            address=conn.host,
            connections=len(self._connections),
        )
        conn.send([Refused(199, text).to_line(self.settings.vocab)])

    def _forget(self, conn: Connection) -> None:
        self._connections.pop(conn, None)
        self._evicted.discard(conn)

    def rearm(self, session: Session) -> None:
        """The current session's timer set again after an input (``SessionTimer``)."""
        if session is self._session and self._timer is not None:
            self._timer.rearm()

    def _session_over(self, session: Session, over: GameOver) -> None:
        if self.spec.record_dir is not None and session.started is not None:  # nothing to record before the start
            self._writes = asyncio.ensure_future(self._write(self._writes, self.spec.record_dir, over))
        self._timer = cancelled(self._timer)
        self.games += 1
        if self.spec.forever and self._session is not None:  # None: stopping
            self._session = self._new_session()
            return
        self._session = None
        if self._server is not None:
            self._server.close()
        assert self._done is not None
        self._done.set()

    async def _write(self, before: asyncio.Future[None] | None, directory: Path, over: GameOver) -> None:
        """Write ``over``'s record in a thread once the write before it is done
        (records appear in the order the games ended); a failure is one log line."""
        if before is not None:
            await asyncio.wait([before])
        for attempt in range(1, RECORD_TRIES + 1):
            try:
                # over.record is read in the thread: a record no viewer asked for is made there, off the loop
                path = await asyncio.to_thread(lambda: write_record(directory, over.record, over.ended))
                self._log(logging.DEBUG, "record", game_no=over.game_no, path=str(path))
                return
            except OSError as exc:
                if exc.errno in (errno.EMFILE, errno.ENFILE) and attempt < RECORD_TRIES:
                    self._log(logging.WARNING, "record_retry", game_no=over.game_no, error=why(exc))
                    await asyncio.sleep(RECORD_RETRY)  # connections close meanwhile and free descriptors
                    continue
                self._log(logging.ERROR, "record_failed", game_no=over.game_no, error=why(exc))
                return
            except Exception as exc:  # a bug in the writer must not end the server
                self._log(logging.ERROR, "record_failed", game_no=over.game_no, error=repr(exc), traceback=_trace(exc))
                return

    async def flush(self) -> None:
        """Until every record queued is written."""
        while self._writes is not None and not self._writes.done():
            await asyncio.wait([self._writes])

    async def wait(self) -> None:
        """Until the server stops taking games (never with ``forever``), then until
        the last connection has flushed and closed."""
        assert self._done is not None, "not started"
        await self._done.wait()
        await self._drain()

    async def _drain(self) -> None:
        """The connections closed and the records written; the monitor released."""
        pending = [c.closed for c in (*self._connections, *self._evicted)]
        if pending:
            await asyncio.wait(pending, timeout=self.spec.net.close_grace + 1)
        await self.flush()
        if self._monitor is not None:
            self._monitor.release()
            self._monitor = None

    async def stop(self, termination: Termination = Termination.SHUTDOWN) -> None:
        """Stop listening, abort a game in progress (399 to everyone, and its record
        written: Session.shutdown, with ``termination``), and close every connection."""
        session, self._session = self._session, None
        if session is not None:
            session.shutdown(asyncio.get_running_loop().time(), termination)
        self._timer = cancelled(self._timer)  # a game still seating: its bounds no longer matter
        if self._server is not None:
            self._server.close()
        for conn in list(self._connections):
            conn.close()
        if self._done is not None:
            self._done.set()
        await self._drain()

    def _log(self, level: int, what: str, **fields: Any) -> None:
        event(level, what, game=self.settings.vocab.game, server=self.settings.server, **fields)


def _trace(exc: BaseException) -> str:
    return "".join(traceback.format_exception(exc))


def on_loop_error(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
    """The loop's errors (an ``accept`` failing with EMFILE, which asyncio retries
    a second later) as one JSON line, at most once an interval per message,
    instead of a traceback each time."""
    exc = context.get("exception")
    message = str(context.get("message", "error"))
    fields: dict[str, Any] = {"message": message}
    if isinstance(exc, OSError):
        fields["error"] = why(exc)
    elif isinstance(exc, BaseException):
        fields.update(error=repr(exc), traceback=_trace(exc))
    event_limited(logging.ERROR, "loop_error", message, **fields)


SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
"""Signals that stop the servers: SIGHUP as well (a closed terminal, a dropped ssh
session), so that its games end with 399 and their records."""


async def serve(servers: Sequence[GameServer], on_ready: Callable[[], None] | None = None) -> int | None:
    """Start every server, and return when all of them have stopped: None, or the
    number of the signal (``SIGNALS``) on which they were stopped, aborting the
    games in progress (GameServer.stop).  ``on_ready`` is called once all listen."""
    loop = asyncio.get_running_loop()
    loop.set_exception_handler(on_loop_error)
    caught: list[int] = []
    stopping = asyncio.Event()

    def on_signal(signum: int) -> None:
        caught.append(signum)
        stopping.set()

    handled = []
    for signum in SIGNALS:
        try:
            loop.add_signal_handler(signum, on_signal, signum)
            handled.append(signum)
        except (NotImplementedError, RuntimeError, ValueError):  # not the main thread, or no Unix signals
            pass
    try:
        for server in servers:
            await server.start()
        if on_ready is not None:
            on_ready()
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
