"""The arena's server (docs/arena.md): one listening port for one game; every
connection is greeted as the papers' server greets it, logs in with its seat
request (impl/apps/arena/login.py), is seated at once (100/101, as a player who
waits for an opponent), and waits; every round the waiting players are paired
(impl/apps/arena/pairing.py) and each pair plays one game on a session of its own
(impl/server/session.py: the same referee as ``referee serve``), after which the
game is stored (impl/apps/arena/store.py), its record written, the ratings fitted
again (impl/apps/arena/ledger.py).  One connection plays one game, as on the
papers' servers: a program plays again by connecting again.

The session of a game is joined by connections already greeted and seated here:
``Relay`` drops the two lines the session would send them again (its 000 and its
100/101, the same lines), and counts the refusals each player gets (its faults).
The database is used from one thread of its own, one call after another, so the
loop never waits on the disk."""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import random
import secrets
import time
from collections.abc import Callable
from functools import partial
from typing import Any, TypeVar

from impl import protocol as P
from impl.engines.openings import random_openings
from impl.engines.port import GameEngine
from impl.log import event
from impl.server.admission import Decision, Room, StormGuard, Verdict, address_group, decide
from impl.server.clock import Stalls, no_stalls
from impl.server.net import Connection, listening_port
from impl.server.server import LagMonitor
from impl.server.session import GameOver, LineError, Settings

from .anchors import run_anchor
from .config import ArenaConfig, WebFeed, settings_lines
from .ledger import Ledger, first_line
from .login import ANCHOR_PREFIX, FIELD_MAX, BadLogin, Credentials, Guest, Remembered, Throttle, credentials
from .pairing import Rematches, Waiter, pair
from .store import Login, Player, Store
from .table import Stage, Table, Visitor

T = TypeVar("T")


# ─── The arena ──────────────────────────────────────────────────────────────────


NEW_NAMES_WINDOW = 600.0


class Arena:
    """The running arena (``start``, ``stop``)."""

    def __init__(
        self, cfg: ArenaConfig, engine: GameEngine, store: Store, settings: Settings, web: WebFeed | None = None
    ) -> None:
        self.cfg, self.engine, self.store, self.settings = cfg, engine, store, settings
        self.web = web
        """The web view's link (impl/web/arena.py ``ArenaLink``), if one is shown."""
        self.vocab = settings.vocab
        self.rng = random.Random(cfg.seed)
        self.numbered = 0
        self.stalls: Stalls = no_stalls
        self._db = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="arena-db")
        self._server: asyncio.Server | None = None
        self._tls_server: asyncio.Server | None = None
        self._monitor: LagMonitor | None = None
        self._visitors: dict[Connection, Visitor] = {}
        self._tickets = 0
        self.waiting: dict[int, Visitor] = {}
        self.tables: set[Table] = set()
        self.throttle = Throttle()
        self.registrations = Throttle(limit=cfg.new_names, window=NEW_NAMES_WINDOW)
        self._storms = StormGuard(cfg.net.accept_rate, cfg.net.accept_burst)
        self._room = Room.of(cfg.net.max_connections, cfg.net.per_address, cfg.net.reserve)
        self._logins = 0
        self._pending: set[asyncio.Future[None]] = set()
        self.last: dict[int, int] = {}
        self.rematches = Rematches()
        self.balance: dict[int, int] = {}
        self._started: dict[int, list[float]] = {}
        """Each player's game start times of the last 24 hours (the daily cap)."""
        self._anchor_tokens: dict[str, str] = {}
        self._remembered = Remembered()
        self._anchor_tasks: list[asyncio.Task[None]] = []
        self._rounds: asyncio.Task[None] | None = None
        self.ledger = Ledger(cfg, store, self.vocab, self.db, web, settings_lines(cfg, settings, engine.rule_set))
        """Its stored games, record files and ratings (impl/apps/arena/ledger.py)."""

    # The database's thread.

    async def db(self, fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._db, partial(fn, *args))

    # Starting and stopping.

    @property
    def port(self) -> int:
        return listening_port(self._server)

    @property
    def tls_port(self) -> int | None:
        return None if self._tls_server is None else listening_port(self._tls_server)

    async def start(self) -> None:
        loop = asyncio.get_running_loop()
        self._monitor = LagMonitor.acquire()
        self.stalls = self._monitor.stalled
        ids = await self.db(self.store.game_ids)
        self.numbered = len(ids)
        self.ledger.round_id = await self.db(self.store.last_round)
        await self.ledger.refit()
        await self.ledger.export_records(ids)
        port = self.cfg.port if self.cfg.port is not None else P.port_of(self.cfg.game, 0)
        self._server = await loop.create_server(
            lambda: Connection(self._attach, self.cfg.net), self.cfg.host, port, reuse_address=True
        )
        self._log(logging.INFO, "arena_listen", host=self.cfg.host, port=self.port)
        if self.cfg.tls is not None and self.cfg.tls_port is not None:
            self._tls_server = await loop.create_server(
                lambda: Connection(self._attach, self.cfg.net),
                self.cfg.host,
                self.cfg.tls_port,
                reuse_address=True,
                ssl=self.cfg.tls,
                ssl_handshake_timeout=self.cfg.net.line_timeout or None,
            )
            self._log(logging.INFO, "arena_listen_tls", host=self.cfg.host, port=self.tls_port)
        for kind in self.cfg.anchors:
            name = ANCHOR_PREFIX + kind.replace(":", "-")
            await self.db(
                self.store.ensure_anchor, name, kind, self.cfg.anchor_rating if kind == self.cfg.anchors[0] else None
            )
            self._anchor_tokens[name] = token = secrets.token_hex(4)
            self._anchor_tasks.append(asyncio.ensure_future(run_anchor(self.cfg.game, self.port, name, kind, token)))
        self._rounds = asyncio.ensure_future(self._round_loop())

    async def stop(self) -> None:
        """Stop pairing and listening; games in play end without a result (399,
        ``shutdown``), and every connection is closed."""
        for task in (*self._anchor_tasks, *([self._rounds] if self._rounds else [])):
            task.cancel()
        for server in (self._server, self._tls_server):
            if server is not None:
                server.close()
        for table in list(self.tables):
            table.stop()
        for conn in list(self._visitors):
            conn.close()
        await asyncio.gather(*self._anchor_tasks, *([self._rounds] if self._rounds else []), return_exceptions=True)
        await self.ledger.flush()
        if self._monitor is not None:
            self._monitor.release()
            self._monitor = None
        self._db.shutdown(wait=True)
        self.ledger.close()

    async def flush(self) -> None:
        """Until every finished game is stored and the ratings fitted over it."""
        await self.ledger.flush()

    @property
    def stored(self) -> int:
        """Games stored by this process (tests and the benchmark read it)."""
        return self.ledger.stored

    # Connections.

    def _attach(self, conn: Connection) -> Visitor | None:
        """Admit ``conn`` or refuse it (199) by the game servers' own rules
        (impl/server/admission.py): its group's connection rate, its group's share,
        the places left — players' seats never given up — and the eviction of the
        oldest unseated connection of the biggest group to make one."""
        net, room = self.cfg.net, self._room
        now = asyncio.get_running_loop().time()
        group = address_group(conn.host, net.ipv4_group, net.ipv6_group)
        visitors = list(self._visitors.values())
        if not self._storms.allows(group, now):
            decision = Decision(Verdict.STORM)
        else:
            decision = decide(room, [v.holder() for v in visitors], group)
        self._storms.take(group, now)  # a try refused for room counts too
        refusal = {
            Verdict.STORM: f"Too many connections from {group} at once, try again later",
            Verdict.GROUP_FULL: f"Too many connections from {group} (at most {room.per_group})",
            Verdict.FULL: f"Arena full (at most {room.limit} connections), try again later",
        }.get(decision.verdict)
        if refusal is not None:
            conn.send([P.Refused(199, refusal).to_line(self.vocab)])
            return None
        if decision.evict is not None:
            visitors[decision.evict].evict()
        self._tickets += 1
        visitor = Visitor(self, conn, group, self._tickets, now)
        self._visitors[conn] = visitor
        greeting = P.Greeting(P.SERVER_VERSION_TEXT, self.vocab.title, self.engine.rule_set, self.cfg.opening_plies)
        conn.send([greeting.to_line(self.vocab)])
        timeout = self.cfg.limits.seat_timeout
        if timeout > 0:
            visitor.timer = asyncio.get_running_loop().call_later(
                timeout, visitor.refuse, 199, f"No seat request within {timeout:g} s, goodbye", True
            )
        return visitor

    def forget(self, visitor: Visitor) -> None:
        self._visitors.pop(visitor.conn, None)
        self.waiting.pop(visitor.ticket, None)

    def lobby_line(self, visitor: Visitor, line: str | LineError) -> None:
        """A line of a connection not yet seated: a seat request, a login."""
        if isinstance(line, LineError):
            visitor.refuse(199, line.value, close=line is LineError.SLOW)
            return
        request = P.parse_seat(self.vocab, line, name_max=FIELD_MAX)
        if isinstance(request, P.SeatRefusal):
            visitor.refuse(request.code, request.text)
            return
        if request.seat is P.Seat.OBSERVER:
            visitor.refuse(199, "No observers on an arena's port: watch its games on its web page")
            return
        login = credentials(request.name, self._anchor_tokens)
        if isinstance(login, BadLogin):
            visitor.refuse(199, login.why)
            return
        if isinstance(login, Guest) and not self.cfg.guests:
            visitor.refuse(199, 'Login needed: send "name:password" as your name (docs/arena.md)')
            return
        visitor.seat = request.seat
        if isinstance(login, Guest):
            visitor.guest = login.shown
            self._seated(visitor, None)
            return
        now = time.monotonic()
        keys = (f"name:{login.name}", f"group:{visitor.group}")
        if self.throttle.blocked(keys, now):
            visitor.refuse(199, f"Too many failed logins for {login.name} or from {visitor.group}; try again later")
            return
        if self._logins >= 16:
            visitor.refuse(199, "Too many logins at once, try again later")
            return
        visitor.stage = Stage.LOGIN
        self._logins += 1
        self._pending.add(task := asyncio.ensure_future(self._login(visitor, login, keys)))
        task.add_done_callback(self._pending.discard)

    async def _login(self, visitor: Visitor, login: Credentials, keys: tuple[str, ...]) -> None:
        try:
            token = self._anchor_tokens.get(login.name)
            if token is not None:
                player = await self.db(self.store.player, login.name)
                result = Login.OK if secrets.compare_digest(token, login.password) and player else Login.WRONG
            elif login in self._remembered:
                player = await self.db(self.store.player, login.name)
                result = Login.OK if player is not None else Login.WRONG
            else:
                known = await self.db(self.store.player, login.name)
                now = time.monotonic()
                if known is None and self.registrations.blocked((f"group:{visitor.group}",), now):
                    self._refuse_login(visitor, "Too many new names from your address; try again later")
                    return
                if known is None:
                    self.registrations.failed((f"group:{visitor.group}",), now)
                result, player = await self.db(self.store.login, login.name, login.password)
                if result in (Login.OK, Login.CREATED):
                    self._remembered.add(login)
        except Exception as exc:  # the database failed: refuse, keep serving
            self._log(logging.ERROR, "arena_db_failed", error=first_line(exc))
            self._refuse_login(visitor, "The arena's database is not available; try again later")
            return
        finally:
            self._logins -= 1
        if visitor.stage != Stage.LOGIN:  # it left meanwhile
            return
        if result == Login.WRONG:
            self.throttle.failed(keys, time.monotonic())
            self._log(logging.WARNING, "arena_login_failed", name=login.name, group=visitor.group)
            self._refuse_login(visitor, f"Wrong password for {login.name}")
            return
        if result == Login.ANCHOR:
            self._refuse_login(visitor, f"{login.name} is one of the arena's own players")
            return
        if result == Login.TAKEN and player is not None:
            self._refuse_login(visitor, f"Name {login.name} is taken: {player.name}")
            return
        assert player is not None
        held = sum(
            v.player is not None and v.player.id == player.id and v.stage != Stage.DONE for v in self._visitors.values()
        )
        if held >= self.cfg.per_player:  # this visitor is not counted yet: its player is set below
            self._refuse_login(
                visitor, f"{login.name} already holds {held} connection(s) (at most {self.cfg.per_player})"
            )
            return
        if self.cfg.daily and player.anchor is None:
            day = [t for t in self._started.get(player.id, []) if time.time() - t < 86400]
            self._started[player.id] = day
            if len(day) >= self.cfg.daily:
                self._refuse_login(visitor, f"{login.name} has played its {self.cfg.daily} games of the day")
                return
        if result == Login.CREATED:
            self._log(logging.INFO, "arena_new_player", name=login.name, group=visitor.group)
        self._seated(visitor, player)

    def _refuse_login(self, visitor: Visitor, text: str) -> None:
        visitor.stage = Stage.LOBBY
        visitor.refuse(199, text)

    def _seated(self, visitor: Visitor, player: Player | None) -> None:
        """Logged in: 100/101 now, as a seated player waiting for its opponent, then
        the wait for a round."""
        visitor.player, visitor.stage = player, Stage.WAITING
        visitor.rejected = 0
        if visitor.timer is not None:
            visitor.timer.cancel()
            visitor.timer = None
        t = self.settings.time
        times = None if t is None else (P.secs(t[0]), P.secs(t[1]))
        seated = P.Seated(times, increments=self.settings.increment if t is not None else None)
        visitor.conn.send([seated.to_line(self.vocab)])
        self.waiting[visitor.ticket] = visitor
        wait = self.cfg.limits.wait_timeout
        if wait > 0:
            visitor.timer = asyncio.get_running_loop().call_later(
                wait, visitor.refuse, 199, f"No opponent within {wait:g} s, goodbye", True
            )

    # Rounds.

    async def _round_loop(self) -> None:
        while True:
            await asyncio.sleep(self.cfg.round_every)
            try:
                await self.round()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # a failed round must not end the arena
                self._log(logging.ERROR, "arena_round_failed", error=repr(exc))

    def _rating(self, visitor: Visitor) -> float:
        if visitor.player is None:
            return self.cfg.anchor_rating
        found = self.ledger.ratings.get(visitor.player.id)
        return found[0] if found is not None else self.cfg.anchor_rating

    async def round(self) -> int:
        """Pair the players waiting; start their games.  The number of games."""
        waiting = [v for v in self.waiting.values() if v.stage == Stage.WAITING]
        if len(waiting) < 2:
            return 0
        by_ticket = {v.ticket: v for v in waiting}
        guests = {v.ticket: -v.ticket for v in waiting if v.player is None}  # each guest its own player
        waiters = [
            Waiter(v.ticket, v.player.id if v.player else guests[v.ticket], self._rating(v), v.seat) for v in waiting
        ]
        games, _ = pair(waiters, self.last, self.balance, self.rng)
        if not games:
            return 0
        self.ledger.round_id = await self.db(self.store.begin_round, time.time(), len(games))
        openings = (
            random_openings(self.engine, len(games), self.cfg.opening_plies, self.rng.randrange(2**31))
            if self.cfg.opening_plies
            else ((),) * len(games)
        )
        for (a0, b0), fresh in zip(games, openings, strict=True):
            a, b, opening = self.rematches.sides(a0, b0, tuple(fresh)) if self.cfg.opening_plies else (a0, b0, ())
            first, second = by_ticket[a.ticket], by_ticket[b.ticket]
            if first.stage != Stage.WAITING or second.stage != Stage.WAITING:
                continue  # one left while the round was stored
            for v in (first, second):
                self.waiting.pop(v.ticket, None)
            self.last[a.player], self.last[b.player] = b.player, a.player
            self.balance[a.player] = self.balance.get(a.player, 0) + 1
            self.balance[b.player] = self.balance.get(b.player, 0) - 1
            for v in (first, second):
                if v.player is not None:
                    self._started.setdefault(v.player.id, []).append(time.time())
            self.tables.add(Table(self, first, second, self.ledger.round_id, opening))
        self._log(logging.INFO, "arena_round", round=self.ledger.round_id, games=len(games), waiting=len(self.waiting))
        return len(games)

    # A game's end.

    def finished(self, table: Table, over: GameOver) -> None:
        """A game is over: the ledger stores it, then lets its players know."""
        self.tables.discard(table)
        self.ledger.finished(table, over)

    def _log(self, level: int, what: str, **fields: Any) -> None:
        event(level, what, game=self.cfg.game, **fields)
