"""The arena's connections and games: a ``Visitor`` from its greeting to its game's
end, the ``Relay`` its game's session writes to, a ``Table`` (one paired game on a
session of its own: the same referee as ``referee serve``), and what a finished
game says of each side (``faults_of``).  They reach their arena (server.py
``Arena``) only through ``Host``."""

from __future__ import annotations

import asyncio
import random
import time
import uuid
from collections.abc import Sequence
from typing import Protocol

from impl import protocol as P
from impl.engines.port import GameEngine
from impl.game import Side, Termination
from impl.server.admission import Holder
from impl.server.clock import Stalls
from impl.server.net import Connection
from impl.server.server import EVICTED, SessionTimer
from impl.server.session import Entity, Event, GameOver, LineError, Session, Settings
from impl.server.transcript import monitor

from .config import ArenaConfig, WebFeed
from .store import Player


class Host(Protocol):
    """What a connection and a game use of their arena."""

    cfg: ArenaConfig
    vocab: P.Vocabulary
    settings: Settings
    engine: GameEngine
    rng: random.Random
    numbered: int
    """Games started by this process: the next game's number."""
    stalls: Stalls
    web: WebFeed | None

    def lobby_line(self, visitor: Visitor, line: str | LineError) -> None: ...

    def forget(self, visitor: Visitor) -> None: ...

    def finished(self, table: Table, over: GameOver) -> None: ...


# ─── One connection ─────────────────────────────────────────────────────────────


class Stage:
    LOBBY = "lobby"
    LOGIN = "login"
    WAITING = "waiting"
    PLAYING = "playing"
    DONE = "done"


def final(line: str) -> bool:
    """Whether ``line`` tells a player its game is over: a final mover's 201–203,
    an ending's 32x, a flag's 36x, a disconnection's or an abort's 39x."""
    code = line[:3]
    return code in ("201", "202", "203") or ("320" <= code <= "329") or ("360" <= code <= "399")


class Relay:
    """A seated connection as its game's session sees it (impl/server/states.py
    ``Peer``): the session's first ``skip`` lines (its greeting and its 100/101,
    sent already by the lobby) are dropped, the refusals counted, and from the
    first line that ends the game on, everything (its close too) is held back
    until ``release``: a player learns a result only once it is stored."""

    def __init__(self, conn: Connection, skip: int = 2) -> None:
        self.conn, self.address, self._skip = conn, conn.address, skip
        self.illegal = 0
        self.garbled = 0
        self._held: list[str] | None = None
        self._close = False

    def send(self, lines: Sequence[str]) -> None:
        if self._skip:
            dropped, lines = lines[: self._skip], lines[self._skip :]
            self._skip -= len(dropped)
        for k, line in enumerate(lines):
            if self._held is None and final(line):
                self._held, lines = list(lines[k:]), lines[:k]
                break
            if line.startswith("291 Illegal move"):
                self.illegal += 1
            elif line.startswith("299"):
                self.garbled += 1
        else:
            if self._held is not None:
                self._held.extend(lines)
                return
        if lines:
            self.conn.send(lines)

    def close(self) -> None:
        if self._held is not None:
            self._close = True
        else:
            self.conn.close()

    def release(self) -> None:
        """Send what was held back, and close if the session closed it."""
        held, self._held = self._held or [], None
        if held:
            self.conn.send(held)
        if self._close:
            self.conn.close()


class Visitor:
    """One connection to the arena, from its greeting to its game's end: the
    ``Target`` its Connection hands lines to."""

    def __init__(self, arena: Host, conn: Connection, group: str, ticket: int, joined: float = 0.0) -> None:
        self.arena, self.conn, self.group, self.ticket = arena, conn, group, ticket
        self.joined = joined
        """When it was admitted (the loop's time): the oldest is evicted first."""
        self.stage = Stage.LOBBY
        self.player: Player | None = None
        self.guest = "guest"
        """The name a guest's games show."""
        self.seat = P.Seat.EITHER
        self.rejected = 0
        self.table: Table | None = None
        self.entity: Entity | None = None
        self.relay: Relay | None = None
        self.timer: asyncio.TimerHandle | None = None

    @property
    def name(self) -> str:
        return self.guest if self.player is None else self.player.name

    def receive(self, line: str | LineError) -> None:
        if self.stage == Stage.PLAYING and self.table is not None and self.entity is not None:
            self.table.receive(self.entity, self.conn, line)
        elif self.stage == Stage.LOBBY:
            self.arena.lobby_line(self, line)
        elif self.stage in (Stage.LOGIN, Stage.WAITING):
            if isinstance(line, LineError):
                self.refuse(299, line.value)
            elif P.parse_seat(self.arena.vocab, line) != P.SeatRefusal(199, "Request not understood"):
                self.refuse(299, "Request not understood (already seated)")
            else:
                self.refuse(291, "The game has not started")

    def holder(self) -> Holder:
        """This connection as admission sees it: a player once seated (logged in and
        waiting, or in a game), never evicted."""
        return Holder(self.group, self.joined, self.stage in (Stage.WAITING, Stage.PLAYING))

    def evict(self) -> None:
        """Closed (199) to make room for another group's newcomer; it stops counting at once."""
        self.arena.forget(self)
        if self.timer is not None:
            self.timer.cancel()
        self.stage = Stage.DONE
        self.conn.send([P.Refused(199, EVICTED).to_line(self.arena.vocab)])
        self.conn.close()

    def refuse(self, code: int, text: str, close: bool = False) -> None:
        self.conn.send([P.Refused(code, text).to_line(self.arena.vocab)])
        self.rejected += 1
        if close or self.rejected >= self.arena.cfg.limits.max_rejected:
            self.stage = Stage.DONE
            self.conn.close()

    def leave(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
        if self.stage == Stage.PLAYING and self.table is not None and self.entity is not None:
            self.table.leave(self.entity)
        self.stage = Stage.DONE
        self.arena.forget(self)


# ─── One game ───────────────────────────────────────────────────────────────────


class Table:
    """One paired game: its session, its timer, its two visitors."""

    def __init__(self, arena: Host, first: Visitor, second: Visitor, round_id: int, opening: tuple[str, ...]) -> None:
        self.arena, self.first, self.second, self.round_id = arena, first, second, round_id
        self.uid = str(uuid.uuid4())
        self.opening = opening
        self.started = time.time()
        loop = asyncio.get_running_loop()
        self._time = loop.time
        now = loop.time()
        arena.numbered += 1
        self.session = Session(
            arena.settings,
            arena.engine,
            rng=arena.rng,
            now=now,
            epoch=time.time() - now,
            game_no=arena.numbered,
            stalls=arena.stalls,
            opening=opening,
        )
        self.session.listeners.append(self._on_event)
        if arena.web is not None:
            arena.web.table_hook(self.session, arena.numbered)
        if arena.cfg.check_protocol:
            monitor(self.session)
        self._timer = SessionTimer(self.session)
        self.over: GameOver | None = None
        vocab = arena.vocab
        for visitor, seat in ((first, P.Seat.FIRST), (second, P.Seat.SECOND)):
            visitor.relay = Relay(visitor.conn)
            visitor.entity = self.session.join(visitor.relay, now)
            visitor.table, visitor.stage = self, Stage.PLAYING
            if visitor.timer is not None:
                visitor.timer.cancel()
            self.session.receive(visitor.entity, P.SeatRequest(seat, visitor.name).to_line(vocab), now)
        self.rearm()

    def receive(self, entity: Entity, conn: Connection, line: str | LineError) -> None:
        session = self.session
        arrived = conn.arrival() if session.clock_runs_for(entity) else None
        session.receive(entity, line, self._time(), arrived)
        self.rearm()

    def leave(self, entity: Entity) -> None:
        self.session.leave(entity, self._time())
        self.rearm()

    def rearm(self) -> None:
        if self.over is None:
            self._timer.rearm()

    def stop(self) -> None:
        self.session.shutdown(self._time())

    def release(self) -> None:
        """The game's last lines to its players; their connections no longer count
        as their names' (a program may connect again before this one has closed)."""
        for visitor in (self.first, self.second):
            visitor.stage = Stage.DONE
            if visitor.relay is not None:
                visitor.relay.release()

    def _on_event(self, what: Event) -> None:
        if isinstance(what, GameOver):
            self.over = what
            self._timer.cancel()
            self.arena.finished(self, what)


# ─── A finished game ─────────────────────────────────────────────────────────────


def score_of(over: GameOver) -> float | None:
    if over.termination.aborted:
        return None
    return 0.5 if over.winner is None else (1.0 if over.winner == 0 else 0.0)


LOST_BY_FAULT = {Termination.TIME, Termination.DISCONNECT, Termination.IDLE}


def faults_of(over: GameOver, relays: tuple[Relay, Relay]) -> tuple[tuple[Side, str, int], ...]:
    """Each side's faults in the game: its refusals (``illegal move``: 291 Illegal
    move, ``garbled``: 299) and the ending it lost by, if a fault of its own."""
    out: list[tuple[Side, str, int]] = []
    for side, relay in zip((Side.FIRST, Side.SECOND), relays, strict=True):
        if relay.illegal:
            out.append((side, "illegal move", relay.illegal))
        if relay.garbled:
            out.append((side, "garbled", relay.garbled))
        if over.termination in LOST_BY_FAULT and over.winner is not None and over.winner != int(side):
            out.append((side, str(over.termination), 1))
    return tuple(out)
