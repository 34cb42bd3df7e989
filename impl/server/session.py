"""One game on one server, sans I/O: the papers' connection state machine over
every client connected to it.

Theory of operation.  The session is driven by four inputs, each carrying the
time ``now`` (seconds of a monotonic clock chosen by the caller): ``join`` (a
connection opened), ``receive`` (it sent a line), ``leave`` (it closed) and
``tick`` (time passed).  It answers only through ``Peer.send`` / ``Peer.close``
and through the events it publishes to its ``listeners``; it never reads a clock,
sets a timer, draws a random number or touches a file.  After any input the
caller asks ``deadline()`` and calls ``tick`` no later than that (the flag of the
player to move, the seat and idle bounds).  Randomness (the side of a ``?`` seat
request) comes from the ``rng`` it is given.  The finished game comes out as a
value, the ``GameRecord`` of the ``GameOver`` event, for the adapter
(impl/server/server.py) to write.

Every request is classified by the connection's state (``Conn``) and its kind
(``Req``); ``TABLE`` maps the pair to a ``Step``: the handler or the refusal sent,
and the states the connection may be in after it.  A handler returns the state it
took, ``_dispatch`` checks it against the table and sets it; the moves no request
of the connection's own makes (the game starts, the game ends, the connection
closes) are the ``TRIGGERS``, taken through ``_trigger``.  These two are the only
places that set a connection's state (h11's ``_state.py`` has the same shape);
docs/protocol.md §3's state diagram is generated from them (impl/server/diagram.py).
The game itself is ``started`` (both players seated) and ``outcome`` (over).  Every decision
the papers leave open is documented in docs/protocol.md; the table cited for each
message is that of the papers' section 2.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from enum import Enum
from functools import cached_property
from typing import Any, Protocol, TypeVar

from impl import protocol as P
from impl.config import DEFAULTS, Config, ConfigMessages, Limits, OnDivergence
from impl.engines.checked_engine import divergences
from impl.engines.openings import Opening
from impl.engines.openings import play as play_opening
from impl.engines.port import GameEngine, GameState, MoveDescription, Result, side_to_move, winner
from impl.game import Outcome, Side, Termination
from impl.log import enabled, event
from impl.pgn import Ply
from spec import result as R

from .clock import ClockReading, Clocks, Stalls, no_stalls
from .records import GameRecord

INFO, DEBUG, WARNING = logging.INFO, logging.DEBUG, logging.WARNING
T = TypeVar("T")


class Peer(Protocol):
    """A connection as the session sees it."""

    address: str

    def send(self, lines: Sequence[str]) -> None: ...

    def close(self) -> None: ...


class Chooser(Protocol):
    """Where the session's randomness comes from (``random.Random`` is one)."""

    def choice(self, seq: Sequence[T]) -> T: ...


class LineError(Enum):
    """A line the framing layer refused; answered 199 before seating, 299 after."""

    TOO_LONG = "Request not understood (line too long)"
    NOT_ASCII = "Request not understood (non-ASCII or control character)"
    EMPTY = "Request not understood (empty lines)"
    SLOW = "Request not understood (line not completed in time), goodbye"


class Conn(Enum):
    """A connection's state, five of them: the papers' ``cstate`` (initial | seated |
    playing | done), with an observer's seated and playing made one state,
    ``observer`` (it may join before or during the game, and acts the same in both)."""

    NEW = "initial"
    """Greeted, not seated: its lines are seat requests."""
    WAITING = "seated"
    """A player seated before the game started."""
    WATCHING = "observer"
    """An observer, before or during the game."""
    PLAYING = "playing"
    """A player in the game."""
    DONE = "done"
    """Gone: its lines are ignored."""

    __hash__ = object.__hash__  # members are singletons: the C identity hash keeps TABLE lookups cheap


class Req(Enum):
    """What a request line is, in the connection's state."""

    BAD_LINE = "bad line"
    SEAT = "seat"
    BAD_SEAT = "bad seat"
    MOVE = "move"
    RESIGN = "resign"
    DRAW_OFFER = "draw?"
    DRAW_ANSWER = "draw/nodraw"
    GARBLED = "garbled"
    SEAT_AGAIN = "seat again"

    __hash__ = object.__hash__


class Trigger(Enum):
    """What moves a connection to another state without a request of its own."""

    START = "game starts"
    """The second player is seated: both players go from seated to playing."""
    END = "game over"
    """The final status has been sent: every connection is closed."""
    CLOSE = "closed"
    """The connection closed, or the server closed it (a timeout, too many refusals)."""

    __hash__ = object.__hash__


class TransitionError(RuntimeError):
    """A connection state change that ``TABLE`` or ``TRIGGERS`` does not allow: a bug
    in the session, never the client's doing (``receive`` ends the game with 399)."""


@dataclass(eq=False)
class Entity:
    """ENTITY ::= player⟨⟨PLAYER⟩⟩ | observer⟨⟨ℕ₁⟩⟩, with its connection state."""

    peer: Peer
    number: int
    joined: float
    conn: Conn = Conn.NEW
    side: Side | None = None
    observer: int | None = None
    name: str = ""
    rejected: int = 0
    seated: float = 0.0
    """When it took a player's seat (the wait for an opponent starts)."""


@dataclass(frozen=True)
class Settings:
    """One game's session settings, derived from the configuration (``of``)."""

    vocab: P.Vocabulary
    server: int = 0
    time: tuple[float, float] | None = DEFAULTS.time
    """Seconds for the first and the second player, or no time controls."""
    config_messages: ConfigMessages = ConfigMessages.ALL
    limits: Limits = DEFAULTS.limits
    on_divergence: OnDivergence = DEFAULTS.on_divergence
    increment: tuple[float, float] = DEFAULTS.increment
    """Fischer increments, first player's first (impl/server/clock.py ``moved``)."""

    @classmethod
    def of(cls, config: Config, game: str, server: int = 0) -> Settings:
        """Game ``game``'s server ``server`` as ``config`` (impl/config.py) says."""
        return cls(
            P.VOCABULARIES[game],
            server,
            config.time,
            config.messages_for(game),
            config.limits,
            on_divergence=config.on_divergence,
            increment=config.increment,
        )


# ─── Events: what listeners (the server, a web view, a tournament) see ─────────
#
# The one vocabulary of what happens in a game (the web view's feed publishes
# these same events, tagged with its server: impl/web/feed.py).  Each carries all
# a listener needs — the action, the states before and after, the clocks, the
# result — so that no listener reads the session.  A ``ClockReading`` is taken as
# the input that caused the event is done: its ``running`` clock is the one that
# runs next.


@dataclass(frozen=True)
class PlayerSeated:
    side: Side
    name: str


@dataclass(frozen=True)
class ObserverSeated:
    number: int
    name: str


@dataclass(frozen=True)
class GameStarted:
    """Both players are seated; published before the opening's moves."""

    game: str
    server_no: int
    """The server's number (``Settings.server``)."""
    game_no: int
    sides: tuple[str, str]
    names: tuple[str, str]
    """First mover first."""
    time: tuple[float, float] | None
    engine: GameEngine
    """The engine the game is played by: its states are those of ``state`` and of
    the ``MoveMade`` events that follow."""
    state: GameState
    """The initial position."""
    clocks: ClockReading | None
    started: float
    """Wall-clock time (seconds since the epoch)."""


@dataclass(frozen=True)
class MoveMade:
    """An accepted move (the referee's opening moves included)."""

    game_no: int
    serial: int
    side: Side
    ply: str
    """With its full-move number, as recorded: ``1 c3``, ``1 ... d4``."""
    move: str
    """The papers' notation: ``c3``, ``pass``, ``F``."""
    engine: GameEngine
    action: Any
    before: GameState
    after: GameState
    result: Result[Any]
    """The rules' result: ``not_done``, or the final one if the move ended the game."""
    to_move: Side | None
    """The side to move next; None if the move ended the game."""
    secs: float | None
    """The mover's time left, with time controls."""
    clocks: ClockReading | None

    @cached_property
    def description(self) -> MoveDescription:
        """What the move did (``Engine.describe``): worked out on first use, so a
        game nobody shows never pays for it."""
        return self.engine.describe(self.before, self.action)


@dataclass(frozen=True)
class DrawOffer:
    game_no: int
    side: Side
    """The side that offered."""
    accepted: bool | None
    """None when offered, then True or False when answered."""
    clocks: ClockReading | None


@dataclass(frozen=True)
class GameOver:
    game_no: int
    outcome: Outcome
    record: GameRecord
    clocks: ClockReading | None

    @property
    def winner(self) -> int | None:
        """The winning side's index, None for a draw or an abort."""
        return None if self.outcome.winner is None else int(self.outcome.winner)

    @property
    def result(self) -> str:
        """``<side> wins``, ``draw`` or ``aborted`` (the record's Result header)."""
        return self.record.result

    @property
    def termination(self) -> Termination:
        """How it ended (a StrEnum: its JSON is the record's word, ``move``, ``time``, …)."""
        return self.record.termination

    @property
    def ended(self) -> float:
        """Wall-clock time (seconds since the epoch)."""
        return self.record.ended


Event = PlayerSeated | ObserverSeated | GameStarted | MoveMade | DrawOffer | GameOver
Listener = Callable[[Event], None]


class Session:
    """A game from the first connection to the last message."""

    def __init__(
        self,
        settings: Settings,
        engine: GameEngine,
        *,
        rng: Chooser,
        now: float,
        epoch: float = 0.0,
        game_no: int = 1,
        stalls: Stalls = no_stalls,
        opening: Sequence[str] = (),
    ) -> None:
        """``now``: the time the session opens; ``epoch``: the wall-clock time of
        ``now == 0`` (records carry wall-clock times); ``stalls``: the referee's own
        stall time within a span, not charged to the clocks (impl/server/clock.py);
        ``opening``: the moves the referee plays when the game starts
        (impl/engines/openings.py), ValueError if they are not a valid opening."""
        self.settings, self.engine, self.game_no = settings, engine, game_no
        self.opening: Opening = play_opening(engine, opening)[0] if opening else ()
        self.vocab = settings.vocab
        self.limits = settings.limits
        self._rng, self._epoch = rng, epoch
        self.now = now
        """The time of the input being handled."""
        self.listeners: list[Listener] = []
        self.entities: list[Entity] = []
        self.players: list[Entity | None] = [None, None]
        self.started: float | None = None
        """When both players were seated (the game began)."""
        self.outcome: Outcome | None = None
        self.record: GameRecord | None = None
        self.state: GameState = engine.initial()
        self.made: list[MoveMade] = []
        """The game's moves as published, the record's plies (its tokens,
        descriptions and clocks: ``_record``)."""
        self.divergences: list[str] = []
        """What the checked engine found, ``<ply>: <divergence>``, for the record."""
        self.unchecked: int | None = None
        """The first ply (1-based) at which the checked engine found the fast one
        diverging, None if none: the record writes it and those after as sent (if
        it was played: an aborted step is not)."""
        self.clocks = Clocks(settings.time, stalls, settings.increment) if settings.time is not None else None
        self.offer: Side | None = None
        """The side whose draw offer awaits an answer."""
        self.refused = False
        """A draw offer was refused since the last move."""
        self._waiting_for, self._waiting_since = Side.FIRST, now
        """The side the server waits for (to move, or to answer a draw offer), and
        since when (its clock, or the idle bound)."""
        self._connections = 0
        self._observers = 0
        self._ended_by_move = False
        self._arrived: float | None = None
        """While a line from the side whose clock runs is handled: when it arrived."""

    @property
    def over(self) -> bool:
        return self.outcome is not None

    # ─── inputs ────────────────────────────────────────────────────────────────

    def join(self, peer: Peer, now: float) -> Entity:
        """A new connection: greet it (Table 1)."""
        self.now = now
        self._connections += 1
        ent = Entity(peer, self._connections, now)
        self.entities.append(ent)
        self._log(DEBUG, "connect", conn=ent.number, peer=peer.address)
        self._send(ent, P.Greeting(P.SERVER_VERSION_TEXT, self.vocab.title, self.engine.rule_set, len(self.opening)))
        return ent

    def receive(self, ent: Entity, line: str | LineError, now: float, arrived: float | None = None) -> None:
        """A request line from ``ent`` (empty lines never reach here).  ``arrived``:
        when the line reached the server's host, if known and ``ent``'s clock runs
        (``clock_runs_for``); its clock is charged up to then, not to ``now``
        (impl/server/clock.py: a reply the busy referee had not read yet is not the
        player's time)."""
        if ent.conn is Conn.DONE or self.over:
            return
        self.now = now
        self._arrived = min(arrived, now) if arrived is not None and self.clock_runs_for(ent) else None
        try:
            self._dispatch(ent, line)
        except Exception as exc:  # a bug here must end this game cleanly, not the server
            if not self.over:
                self._abort(f"internal error on {line!r}: {exc!r}")
        finally:
            self._arrived = None

    def clock_runs_for(self, ent: Entity) -> bool:
        """Whether ``ent``'s clock is the one running: only then is the arrival
        time of its lines worth reading (Link)."""
        clocks = self.clocks
        return clocks is not None and clocks.running is not None and ent.side == clocks.running

    def leave(self, ent: Entity, now: float) -> None:
        """The connection closed.  A player leaving mid-game loses (391/392)."""
        if ent.conn is Conn.DONE:
            return
        self.now = now
        self._log(DEBUG, "disconnect", conn=ent.number, state=ent.conn.value)
        if ent.conn is Conn.PLAYING and ent.side is not None and not self.over:
            # It gets the 39x too, if its connection is only half-closed.
            self._end(ent.side.other, Termination.DISCONNECT, [P.Disconnected(ent.side)])
            return
        was = ent.conn
        self._trigger(ent, Trigger.CLOSE)
        self.entities.remove(ent)
        if was is Conn.WAITING and ent.side is not None:
            self.players[ent.side] = None

    def tick(self, now: float) -> None:
        """Time has passed: a flag may fall, a seat or idle bound may expire."""
        if self.over:
            return
        self.now = now
        for ent in [e for e in self.entities if e.conn is Conn.NEW]:
            if 0 < self.limits.seat_timeout <= now - ent.joined:
                self._log(DEBUG, "refused", conn=ent.number, code=199, reason="seat timeout")
                self._send(ent, P.Refused(199, f"No seat request within {self.limits.seat_timeout:g} s, goodbye"))
                self._drop(ent)
        wait = self.limits.wait_timeout
        for ent in [e for e in self.entities if e.conn is Conn.WAITING]:
            if 0 < wait <= now - ent.seated:
                self._log(INFO, "wait_timeout", conn=ent.number, seconds=wait)
                self._send(ent, P.Refused(199, f"No opponent within {wait:g} s, goodbye"))
                self._drop(ent)
        if self.started is None or self.over:
            return
        waited = self._waiting_for
        if self.clocks is not None:
            self._flagged(waited)
        elif 0 < self.limits.idle_timeout <= now - self._waiting_since:
            self._log(INFO, "idle", side=self.vocab.sides[waited], seconds=self.limits.idle_timeout)
            self._end(waited.other, Termination.IDLE, [P.Disconnected(waited)])

    def deadline(self) -> float | None:
        """The latest time at which ``tick`` must next be called; None: only when
        another input arrives."""
        if self.over:
            return None
        best: float | None = None
        if self.started is not None:
            if self.clocks is not None:
                best = self.clocks.deadline()
            elif self.limits.idle_timeout > 0:
                best = self._waiting_since + self.limits.idle_timeout
        seat, wait = self.limits.seat_timeout, self.limits.wait_timeout
        for ent in self.entities:
            if ent.conn is Conn.NEW and seat > 0 and (best is None or ent.joined + seat < best):
                best = ent.joined + seat
            elif ent.conn is Conn.WAITING and wait > 0 and (best is None or ent.seated + wait < best):
                best = ent.seated + wait
        return best

    def shutdown(self, now: float, termination: Termination = Termination.SHUTDOWN) -> None:
        """The server is stopping: a game in progress is aborted with 399 to everyone
        and recorded (``termination``: ``shutdown``, or ``adjudication`` when a
        match runner ends it, impl/apps/games.py), no result; a game still seating
        has nothing to record and its connections are just closed by the server."""
        if self.started is not None and not self.over:
            self.now = now
            self._log(WARNING, "shutdown", termination=termination.value)
            self._aborted(termination, P.ABORT_REASONS[termination])

    # ─── dispatch: (connection state, request kind) → handler or refusal ───────

    def _dispatch(self, ent: Entity, line: str | LineError) -> None:
        """The one entry for a request: the table's step, the state it returns
        checked against the step's, and set.  A trigger taken meanwhile (too many
        refusals closed the connection, the game ended) has the last word: the
        connection is done.  A player seated in the last free seat starts the game
        (``Trigger.START``)."""
        kind, request = self._classify(ent, line)
        was = ent.conn
        step = TABLE[(was, kind)]
        run = step.run
        if isinstance(run, P.Refused):
            self._reject(ent, run.code, run.text)
            to = was
        else:
            to = run(self, ent, request)
        if to not in step.next:
            raise TransitionError(f"{was.value} --{kind.value}--> {to.value}: TABLE allows {_names(step.next)}")
        if ent.conn is was and to is not was:
            if to is Conn.DONE:  # done only by a trigger, which also lets the connection go
                raise TransitionError(f"{was.value} --{kind.value}--> done: the game is not over")
            ent.conn = to
        if to is Conn.WAITING and self.started is None and None not in self.players:
            self._start()

    def _trigger(self, ent: Entity, trigger: Trigger) -> None:
        """Move ``ent`` by ``trigger``, as ``TRIGGERS`` allows."""
        sources, to = TRIGGERS[trigger]
        if ent.conn not in sources:
            raise TransitionError(f"{ent.conn.value} --{trigger.value}--> {to.value}: TRIGGERS allow {_names(sources)}")
        ent.conn = to

    def _classify(self, ent: Entity, line: str | LineError) -> tuple[Req, Any]:
        if isinstance(line, LineError):
            return Req.BAD_LINE, line
        if ent.conn is Conn.NEW:
            seat = P.parse_seat(self.vocab, line)
            return (Req.BAD_SEAT if isinstance(seat, P.SeatRefusal) else Req.SEAT), seat
        action = P.parse_action(self.vocab, line)
        if isinstance(action, P.Garbled):
            if isinstance(P.parse_seat(self.vocab, line), P.SeatRequest):
                return Req.SEAT_AGAIN, action
            return Req.GARBLED, action
        return _KINDS[action.kind], action

    def _refuse_line(self, ent: Entity, error: LineError) -> Conn:
        """A line the framing refused (§2): 199 before seating, 299 after."""
        was = ent.conn
        self._reject(ent, 199 if ent.conn is Conn.NEW else 299, error.value)
        return was

    def _refuse_seat(self, ent: Entity, refusal: P.SeatRefusal) -> Conn:
        """A seat request refused by its form (Table 3: 198, 199)."""
        was = ent.conn
        self._reject(ent, refusal.code, refusal.text)
        return was

    def _refuse_garbled(self, ent: Entity, garbled: P.Garbled) -> Conn:
        """A request not understood in play (Table 8: 299)."""
        was = ent.conn
        self._reject(ent, 299, garbled.text)
        return was

    # ─── seating (Tables 2–5) ──────────────────────────────────────────────────

    def _seat(self, ent: Entity, request: P.SeatRequest) -> Conn:
        """A seat request (Tables 2 and 3): seated, observing, or refused."""
        if request.seat is P.Seat.OBSERVER:
            return self._seat_observer(ent, request.name)
        if self.started is not None or None not in self.players:
            self._reject(ent, 192, "There are already two players")
            return Conn.NEW
        free = [s for s in Side if self.players[s] is None]
        if request.seat is P.Seat.EITHER:
            side = self._rng.choice(free)
        elif Side(request.seat.value) in free:
            side = Side(request.seat.value)
        else:
            self._reject(ent, 191, "Other player holds requested side")
            return Conn.NEW
        ent.side, ent.name, ent.rejected, ent.seated = side, request.name, 0, self.now
        self.players[side] = ent
        self._log(INFO, "seat", conn=ent.number, side=self.vocab.sides[side], name=ent.name, version=request.version)
        if self.clocks is None:
            self._send(ent, P.Seated(None))
        else:
            own, opp = self.clocks.initial[side], self.clocks.initial[side.other]
            inc = self.clocks.increment
            self._send(ent, P.Seated((P.secs(own), P.secs(opp)), increments=(inc[side], inc[side.other])))
        self._publish(PlayerSeated(side, ent.name))
        return Conn.WAITING  # the last seat taken starts the game (_dispatch)

    def _seat_observer(self, ent: Entity, name: str) -> Conn:
        observers = sum(1 for e in self.entities if e.observer is not None)
        if observers >= self.limits.max_observers:
            self._reject(ent, 193, f"Cannot observe (at most {self.limits.max_observers} observers)")
            return Conn.NEW
        self._observers += 1
        ent.observer, ent.name, ent.rejected = self._observers, name, 0
        self._log(INFO, "observe", conn=ent.number, observer=ent.observer, name=name)
        if self.clocks is None:
            self._send(ent, P.Seated(None))
        else:
            second, first = (P.secs(self.clocks.left(s, self.now)) for s in (Side.SECOND, Side.FIRST))
            inc = self.clocks.increment
            self._send(ent, P.Seated((second, first), observer=True, increments=(inc[1], inc[0])))
        self._publish(ObserverSeated(ent.observer, name))
        if self.started is not None:
            self._begin_for(ent)
        return Conn.WATCHING

    def _start(self) -> None:
        """Both players are seated: configuration, roles, and the first clock."""
        self.started = self.now
        seated = [e for e in self.entities if e.conn in (Conn.WAITING, Conn.WATCHING)]
        for ent in sorted(seated, key=lambda e: (e.observer is None, -(e.side or 0))):
            self._begin_for(ent)
        names = self._names()
        self._log(INFO, "start", first=names[0], second=names[1], engine=self.engine.kind)
        vocab, opened = self.vocab, Side(len(self.opening) % 2)  # the plies alternate: the first mover after it
        self._publish(
            GameStarted(
                vocab.game,
                self.settings.server,
                self.game_no,
                vocab.sides,
                names,
                self.settings.time,
                self.engine,
                self.state,
                self._reading(opened),
                self._epoch + self.now,
            )
        )
        if not self._diverged(self.state, lambda: "initial") and self._play_opening():
            self._start_clock(self._mover())

    def _play_opening(self) -> bool:
        """The referee plays the opening's moves (docs/protocol.md "Openings"): for
        each, the 31x status everyone gets for a move (observers with the display),
        and no clock runs.  False if the game ended meanwhile (a divergence)."""
        for token in self.opening:
            serial, side = self._serial(), self._mover()
            move = self.engine.parse_move(token)
            result, after = self.engine.apply(self.state, move)
            ply = f"{P.serial_text(serial, side)} {token}"
            if self._diverged(after, lambda ply=ply: ply):  # type: ignore[misc]
                return False
            if result != R.not_done:  # checked in __init__: the engine changed its mind
                self._abort(f"the opening's move {token} gave {result}")
                return False
            before, self.state = self.state, after
            left = None if self.clocks is None else self.clocks.left(side, self.now)
            self._publish(self._made(serial, side, token, move, before, result, left))
            self._broadcast([P.Moved(serial, side, token, None if left is None else P.secs(left))])
        return True

    def _begin_for(self, ent: Entity) -> None:
        """34x (by the configured policy), the role (35x), and for an observer the
        current state display (38x)."""
        policy = self.settings.config_messages
        lines: list[P.Message | str] = []
        if policy is ConfigMessages.ALL or (policy is ConfigMessages.OBSERVERS and ent.observer is not None):
            lines += self._config_lines()
        lines.append(P.Role(ent.side))
        if ent.side is None:
            lines += self._display()
        else:
            self._trigger(ent, Trigger.START)
        self._send(ent, *lines)

    def _config_lines(self) -> list[P.Message | str]:
        first, second = self.players
        observers = [e for e in self.entities if e.observer is not None]
        return [
            P.PlayerName(Side.SECOND, second.name if second else ""),
            P.PlayerName(Side.FIRST, first.name if first else ""),
            *(P.ObserverName(o.observer, o.name) for o in observers if o.observer is not None),
            P.ObserverCount(len(observers)),
        ]

    # ─── play (Tables 6–9) ─────────────────────────────────────────────────────

    def _mover(self) -> Side:
        return side_to_move(self.engine, self.state)

    def _serial(self) -> int:
        """The full-move number of the next ply: both players' n-th moves carry n."""
        return len(self.made) // 2 + 1

    def _move(self, ent: Entity, action: P.Action) -> Conn:
        """A move (Tables 6–9), checked in §7's order; done if it ended the game."""
        side = ent.side
        assert side is not None
        if self.offer is not None:
            self._reject(ent, 291, "A draw offer awaits an answer (draw or nodraw)")
            return Conn.PLAYING
        if side != self._mover():
            self._reject(ent, 291, "Not your turn")
            return Conn.PLAYING
        serial = self._serial()
        if action.serial is not None and action.serial != serial:
            self._reject(ent, 299, f"Illegal serial number (got {action.serial} expected {serial})")
            return Conn.PLAYING
        if action.serial is not None and action.ellipsis != bool(side):
            expected = "expected before" if side else "not allowed before"
            self._reject(ent, 299, f"Ellipses (...) {expected} {self.vocab.sides[side]} move")
            return Conn.PLAYING
        move = self.engine.parse_move(action.token)
        if move is None:
            self._reject(ent, 299, f"Request not understood (no such move {action.token})")
            return Conn.PLAYING
        if self._flagged(side):
            return Conn.DONE
        result, after = self.engine.apply(self.state, move)  # if it raises: 399 (receive)
        text = self.engine.format_move(move)
        if self._diverged(after, lambda: f"{P.serial_text(serial, side)} {text}"):
            return Conn.DONE
        if result == R.illegal_move:
            self._reject(ent, 291, f"Illegal move {text}")
            return Conn.PLAYING
        ent.rejected = 0
        before, self.state = self.state, after
        self.refused = False
        if enabled(DEBUG):
            self._log(DEBUG, "move", side=self.vocab.sides[side], serial=serial, move=text)
        left = self._stop_clock(moved=True)
        self._publish(self._made(serial, side, text, move, before, result, left))
        if result == R.not_done:
            secs = None if left is None else P.secs(left)
            self._send(ent, P.Accepted(text, secs))
            self._broadcast([P.Moved(serial, side, text, secs)])
            self._start_clock(side.other)
        else:
            self._ended_by_move = True
            won = winner(self.engine, result)
            code = 203 if won is None else 201 if won == side else 202
            self._send(ent, P.Finished.by_move(code, text))
            self._end(won, Termination.MOVE, [P.Ended(serial, side, text, won)])
            return Conn.DONE
        return Conn.PLAYING

    def _resign(self, ent: Entity, action: P.Action) -> Conn:
        """204 to the resigner, 327/328 to everyone; allowed to either player at any time in play."""
        assert ent.side is not None
        self._send(ent, P.RESIGNATION_ACCEPTED)
        self._end(ent.side.other, Termination.RESIGNATION, [P.Resigned(ent.side)])
        return Conn.DONE

    def _offer_draw(self, ent: Entity, action: P.Action) -> Conn:
        """Awari's draw protocol: ``draw?`` by the player to move (205; 331/332),
        answered by the opponent with ``draw`` (203; 329) or ``nodraw`` (206;
        333/334).  While the offer stands the server waits for the opponent, whose
        clock runs; a refused offer may be repeated only after the next move."""
        side = ent.side
        assert side is not None
        if self.offer is not None:
            self._reject(ent, 291, "A draw offer is already pending")
        elif side != self._mover():
            self._reject(ent, 291, "Only the player to move may offer a draw")
        elif self.refused:
            self._reject(ent, 291, "Draw refused: offer again after the next move")
        elif not self._flagged(side):
            ent.rejected = 0
            self._stop_clock()
            self.offer = side
            self._send(ent, P.DRAW_OFFER_RECEIVED)
            self._log(DEBUG, "draw_offer", side=self.vocab.sides[side])
            self._publish(DrawOffer(self.game_no, side, None, self._reading(side.other)))
            self._broadcast([P.DrawOffered(side)])
            self._start_clock(side.other)
        return Conn.DONE if self.over else Conn.PLAYING  # over: its flag fell

    def _answer_draw(self, ent: Entity, action: P.Action) -> Conn:
        """Awari: ``draw`` (203; 329) or ``nodraw`` (206; 333/334) to the opponent's offer (§8)."""
        side = ent.side
        assert side is not None
        if self.offer is None or self.offer == side:
            self._reject(ent, 291, "No draw offer to answer")
            return Conn.PLAYING
        if self._flagged(side):
            return Conn.DONE
        ent.rejected = 0
        accept = action.kind is P.Kind.DRAW_ACCEPT
        self._publish(DrawOffer(self.game_no, self.offer, accept, self._reading(None if accept else self.offer)))
        if accept:
            self._send(ent, P.Finished.draw_accepted())
            self._end(None, Termination.AGREEMENT, [P.DrawAgreed()])
            return Conn.DONE
        self._stop_clock()
        self.offer, self.refused = None, True
        self._send(ent, P.DRAW_REFUSAL_RECEIVED)
        self._log(DEBUG, "draw_refused", side=self.vocab.sides[side])
        self._broadcast([P.DrawRefused(side)])
        self._start_clock(side.other)
        return Conn.PLAYING

    # ─── clocks ────────────────────────────────────────────────────────────────

    def _start_clock(self, side: Side) -> None:
        """The server now waits for ``side``: its clock runs, or its idle bound."""
        self._waiting_for, self._waiting_since = side, self.now
        if self.clocks is not None:
            self.clocks.start(side, self.now)

    def _clock_time(self) -> float:
        """The time the running clock is read at: the arrival of the line being
        handled, if known, else now."""
        return self.now if self._arrived is None else self._arrived

    def _stop_clock(self, moved: bool = False) -> float | None:
        """Stop the running clock: its side's time left (with its increment if it
        ``moved``), None without clocks."""
        if self.clocks is None or self.clocks.running is None:
            return None
        return (self.clocks.moved if moved else self.clocks.stop)(self._clock_time())

    def _flagged(self, side: Side) -> bool:
        """If ``side``'s time ran out, end the game on time (202 to it, 361/362 to all)."""
        if self.clocks is None or self.clocks.running != side or self.clocks.left(side, self._clock_time()) > 0:
            return False
        player = self.players[side]
        if player is not None:
            self._send(player, P.Finished.time_expired())
        self._end(side.other, Termination.TIME, [P.FlagFell(side)])
        return True

    # ─── the end ───────────────────────────────────────────────────────────────

    def _abort(self, why: str) -> None:
        """399 to everyone and no result: the referee failed (the engine, or a bug)."""
        self._log(logging.ERROR, "internal_error", error=why)
        self._aborted(Termination.ERROR, "the referee failed")

    def _diverged(self, state: GameState, name_ply: Callable[[], str]) -> bool:
        """The divergences the checked engine attached to this step (the engine has
        logged them): into the record; with ``--on-divergence abort`` the game ends
        with 399 and True is returned.  ``name_ply`` names the step, called only
        when there is one (the ply's text costs a move's time on the fast path)."""
        found = divergences(state)
        if not found:
            return False
        ply = name_ply()
        self.divergences += [f"{ply}: {d}" for d in found]
        if self.unchecked is None:  # this step's ply is the next one
            self.unchecked = len(self.made) + 1
        if self.settings.on_divergence is OnDivergence.CONTINUE:
            return False
        self._log(logging.ERROR, "divergence_abort", ply=ply, found=len(found))
        self._aborted(Termination.DIVERGENCE, P.ABORT_REASONS[Termination.DIVERGENCE])
        return True

    def _aborted(self, termination: Termination, reason: str) -> None:
        """End without a result: 399 to everyone, the record says ``aborted``."""
        self._end(None, termination, [P.Aborted.because(reason)])

    def _end(self, won: Side | None, termination: Termination, status: list[P.Message]) -> None:
        """The game is over: the final status to everyone (observers with the final
        display), the record, and every connection closed."""
        self._stop_clock()
        self.outcome = Outcome(won, termination)
        self._broadcast(status)
        self.record = self._record(self.outcome)
        record = self.record
        self._log(
            INFO,
            "end",
            result=record.result,
            termination=termination.value,
            score=record.score,
            plies=len(self.made),
            **({"divergences": len(self.divergences)} if self.engine.kind == "checked" else {}),
        )
        for ent in list(self.entities):
            if ent.conn is Conn.NEW:  # not seated: told why it is closed
                self._send(ent, P.Refused(199, "The game is over; connect again for the next one"))
            self._trigger(ent, Trigger.END)
            ent.peer.close()
        self.entities.clear()
        self._publish(GameOver(self.game_no, self.outcome, record, self._reading(None)))

    def _names(self) -> tuple[str, str]:
        first, second = (p.name if p else "" for p in self.players)
        return first, second

    def _record(self, outcome: Outcome) -> GameRecord:
        sides = self.vocab.sides
        counts = self.engine.counts(self.state)
        return GameRecord(
            game=self.vocab.game,
            server=self.settings.server,
            game_no=self.game_no,
            engine=self.engine.kind,
            rules=self.engine.rule_set,
            started=self._epoch + (self.now if self.started is None else self.started),
            ended=self._epoch + self.now,
            sides=sides,
            names=self._names(),
            time=self.settings.time,
            increment=self.settings.increment,
            result=outcome.result(sides),
            termination=outcome.termination,
            score=f"{sides[0]} {counts[0]} {sides[1]} {counts[1]}",
            plies=tuple(self._plies()),
            unchecked=self.unchecked if self.unchecked is not None and self.unchecked <= len(self.made) else None,
            divergences=tuple(self.divergences) if self.engine.kind == "checked" else None,
            opening=self.opening,
        )

    def _plies(self) -> Iterator[Ply]:
        """The record's plies from the moves' events: the token, the movetext (the
        engine's description; from the ``unchecked`` ply on, the token as sent, which
        the fast engine may not describe) and the mover's clock."""
        last = len(self.made) if self.unchecked is None else self.unchecked - 1
        for i, made in enumerate(self.made):
            yield Ply(made.move, made.description.notation if i < last else made.move, made.secs)

    # ─── output ────────────────────────────────────────────────────────────────

    def _send(self, ent: Entity, *messages: P.Message | str) -> None:
        """Messages (and board lines, which are bare strings) to one connection."""
        if len(messages) == 1 and not isinstance(messages[0], str):  # the usual case, without a list's loop
            ent.peer.send((messages[0].to_line(self.vocab),))
        else:
            ent.peer.send([m if isinstance(m, str) else m.to_line(self.vocab) for m in messages])

    def _broadcast(self, status: list[P.Message]) -> None:
        """A status message to every entity in play; observers also get the display."""
        if self.started is None:
            return
        lines = [status[0].to_line(self.vocab)] if len(status) == 1 else [m.to_line(self.vocab) for m in status]
        display: list[str] | None = None
        for ent in self.entities:
            if ent.conn is Conn.PLAYING:
                ent.peer.send(lines)
            elif ent.conn is Conn.WATCHING:
                if display is None:
                    display = [m if isinstance(m, str) else m.to_line(self.vocab) for m in self._display()]
                ent.peer.send([*lines, *display])

    def _display(self) -> list[P.Message | str]:
        """Table 10: 380 (381 with clocks: first player's time first) and 382 with
        the board lines that follow it (Gothello: gthd's 5 lines; Awari: the 4
        lines of the engine's display, our extension)."""
        serial = (len(self.made) + 1) // 2 if self.over and self._ended_by_move else self._serial()
        to_move = None if self.over else self._mover()
        times = None
        if self.clocks is not None:
            first, second = (P.secs(self.clocks.left(s, self.now)) for s in Side)
            times = (first, second)
        board: list[str] = self.engine.render(self.state)
        return [P.DisplayStatus(serial, times, to_move), P.BoardFollows(len(board)), *board]

    def _reject(self, ent: Entity, code: int, text: str) -> None:
        """A 19x/29x refusal; the connection continues unless it keeps being refused."""
        ent.rejected += 1
        if enabled(DEBUG):
            self._log(DEBUG, "refused", conn=ent.number, code=code, reason=text)
        self._send(ent, P.Refused(code, text))
        if ent.rejected >= self.limits.max_rejected:
            self._log(WARNING, "too_many_rejections", conn=ent.number, peer=ent.peer.address)
            self._drop(ent)

    def _drop(self, ent: Entity) -> None:
        """Close a connection the server gives up on; a player in the game loses."""
        ent.peer.close()
        self.leave(ent, self.now)

    def _made(
        self,
        serial: int,
        side: Side,
        text: str,
        action: Any,
        before: GameState,
        result: Result[Any],
        left: float | None,
    ) -> MoveMade:
        """The event of a move just made: ``self.state`` is the position after it."""
        going_on = result == R.not_done
        to_move = side.other if going_on else None
        ply = f"{P.serial_text(serial, side)} {text}"
        return MoveMade(
            self.game_no,
            serial,
            side,
            ply,
            text,
            self.engine,
            action,
            before,
            self.state,
            result,
            to_move,
            left,
            self._reading(to_move),
        )

    def _reading(self, running: Side | None) -> ClockReading | None:
        """Both clocks now, ``running`` the one that runs once this input is handled."""
        return None if self.clocks is None else self.clocks.reading(self.now, running)

    def _publish(self, what: Event) -> None:
        if isinstance(what, MoveMade):
            self.made.append(what)
        for listener in tuple(self.listeners):  # a listener may remove itself
            listener(what)

    def _log(self, level: int, what: str, **fields: Any) -> None:
        event(level, what, game=self.vocab.game, server=self.settings.server, game_no=self.game_no, **fields)


_KINDS = {
    P.Kind.MOVE: Req.MOVE,
    P.Kind.RESIGN: Req.RESIGN,
    P.Kind.DRAW_OFFER: Req.DRAW_OFFER,
    P.Kind.DRAW_ACCEPT: Req.DRAW_ANSWER,
    P.Kind.DRAW_REFUSE: Req.DRAW_ANSWER,
}

Handler = Callable[[Session, Entity, Any], Conn]
"""A request's handler: it answers, and returns the state the connection took."""


@dataclass(frozen=True)
class Step:
    """One entry of ``TABLE``: the handler, or the refusal sent (the connection
    stays), and the states the connection may be in after it."""

    run: Handler | P.Refused
    next: frozenset[Conn]


def _names(states: frozenset[Conn]) -> str:
    return ", ".join(sorted(c.value for c in states))


def _stay(state: Conn, run: Handler | P.Refused) -> Step:
    return Step(run, frozenset({state}))


def _to(run: Handler, *states: Conn) -> Step:
    return Step(run, frozenset(states))


_NOT_STARTED = P.Refused(291, "The game has not started")
_OBSERVER = P.Refused(291, "Observers may not act")
_ACTIONS = (Req.MOVE, Req.RESIGN, Req.DRAW_OFFER, Req.DRAW_ANSWER)
_SEATED = P.Refused(299, "Request not understood (already seated)")
_NEW, _WAITING, _WATCHING, _PLAYING, _DONE = Conn

TABLE: dict[tuple[Conn, Req], Step] = {
    # Not seated: every line is a seat request (Tables 2 and 3).
    (_NEW, Req.BAD_LINE): _stay(_NEW, Session._refuse_line),
    (_NEW, Req.BAD_SEAT): _stay(_NEW, Session._refuse_seat),
    (_NEW, Req.SEAT): _to(Session._seat, _NEW, _WAITING, _WATCHING),
    # Seated, waiting for the opponent: nothing to do yet.
    (_WAITING, Req.BAD_LINE): _stay(_WAITING, Session._refuse_line),
    (_WAITING, Req.GARBLED): _stay(_WAITING, Session._refuse_garbled),
    (_WAITING, Req.SEAT_AGAIN): _stay(_WAITING, _SEATED),
    **{(_WAITING, kind): _stay(_WAITING, _NOT_STARTED) for kind in _ACTIONS},
    # Observers watch.
    (_WATCHING, Req.BAD_LINE): _stay(_WATCHING, Session._refuse_line),
    (_WATCHING, Req.GARBLED): _stay(_WATCHING, Session._refuse_garbled),
    (_WATCHING, Req.SEAT_AGAIN): _stay(_WATCHING, _SEATED),
    **{(_WATCHING, kind): _stay(_WATCHING, _OBSERVER) for kind in _ACTIONS},
    # Players in the game (Tables 6–9); done when the request ended it.
    (_PLAYING, Req.BAD_LINE): _stay(_PLAYING, Session._refuse_line),
    (_PLAYING, Req.GARBLED): _stay(_PLAYING, Session._refuse_garbled),
    (_PLAYING, Req.SEAT_AGAIN): _stay(_PLAYING, _SEATED),
    (_PLAYING, Req.MOVE): _to(Session._move, _PLAYING, _DONE),
    (_PLAYING, Req.RESIGN): _to(Session._resign, _DONE),
    (_PLAYING, Req.DRAW_OFFER): _to(Session._offer_draw, _PLAYING, _DONE),
    (_PLAYING, Req.DRAW_ANSWER): _to(Session._answer_draw, _PLAYING, _DONE),
}
"""(connection state, request kind) → the step: its handler or refusal, and the
states allowed after it.  A seated connection's lines are actions, so (seated,
SEAT) cannot occur (a seat request there is SEAT_AGAIN); a DONE connection's lines
are dropped before the table is consulted."""

TRIGGERS: dict[Trigger, tuple[frozenset[Conn], Conn]] = {
    Trigger.START: (frozenset({_WAITING}), _PLAYING),
    Trigger.END: (frozenset({_NEW, _WAITING, _WATCHING, _PLAYING}), _DONE),
    Trigger.CLOSE: (frozenset({_NEW, _WAITING, _WATCHING, _PLAYING}), _DONE),
}
"""The moves no request of the connection makes: trigger → (the states it may
leave, the state it enters)."""
