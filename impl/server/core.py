"""One game's state and what the play's handlers share (impl/server/play.py): its
connections (impl/server/connections.py), the clocks (their arithmetic is
impl/server/clock.py's), the end of the game and its record's facts, and the
outputs, which are values queued in ``outbox`` — lines to a connection, a
connection closed, an event published — never I/O."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from functools import cache
from typing import Any, Required, TypedDict, TypeGuard, Unpack

from impl import protocol as P
from impl.config import OnDivergence
from impl.engines.openings import Opening
from impl.engines.openings import play as play_opening
from impl.engines.port import Checking, GameEngine, GameState, Result, side_to_move
from impl.game import Outcome, Side, Termination
from impl.log import enabled, event
from impl.pgn import PgnGame
from spec import result as R

from .clock import ClockReading, Clocks, Stalls, no_stalls
from .connections import Connections
from .events import Event, GameOver, MoveMade
from .records import ServerRecord
from .states import Chooser, Close, Conn, Entity, Output, Publish, Send, Settings, Trigger

INFO, DEBUG, WARNING = logging.INFO, logging.DEBUG, logging.WARNING


@cache
def _is_checking(kind: type) -> bool:
    # isinstance against a runtime Protocol walks its members: once per engine class.
    return issubclass(kind, Checking)


def _checks(engine: GameEngine) -> TypeGuard[Checking]:
    """Whether ``engine`` is the port's ``Checking`` (asked once per engine class)."""
    return _is_checking(type(engine))


class Setup(TypedDict, total=False):
    """A game's keyword settings, declared once: the session and the play take
    them alike (``**setup``).  ``now``: the time the session opens; ``epoch``: the
    wall-clock time of ``now == 0`` (records carry wall-clock times); ``stalls``:
    the referee's own stall time within a span, not charged to the clocks
    (impl/server/clock.py); ``opening``: the moves the referee plays when the game
    starts (impl/engines/openings.py), ValueError if they are not a valid one."""

    rng: Required[Chooser]
    now: Required[float]
    epoch: float
    game_no: int
    stalls: Stalls
    opening: Sequence[str]


class Core:
    """One game's state and what every handler shares: the connections, the
    clocks, the end and the record, and the outputs (queued as values in
    ``outbox``: ``take`` hands them to the session)."""

    def __init__(self, settings: Settings, engine: GameEngine, **setup: Unpack[Setup]) -> None:
        now, opening = setup["now"], setup.get("opening", ())
        self.settings, self.engine, self.game_no = settings, engine, setup.get("game_no", 1)
        self.opening: Opening = play_opening(engine, opening)[0] if opening else ()
        self.vocab = settings.vocab
        self.limits = settings.limits
        self._rng, self._epoch = setup["rng"], setup.get("epoch", 0.0)
        self.now = now
        """The time of the input being handled."""
        self.outbox: list[Output] = []
        """What the inputs handled so far made the game do, not yet taken."""
        self.conns = Connections()
        """Its connections and their states."""
        self.entities = self.conns.entities
        """The connections not closed yet (``Connections.entities``)."""
        self.players: list[Entity | None] = [None, None]
        self.started: float | None = None
        """When both players were seated (the game began)."""
        self.outcome: Outcome | None = None
        self.source: ServerRecord | None = None
        """The finished game's facts, its record made from them (``record``)."""
        self.state: GameState = engine.initial()
        self.made: list[MoveMade] = []
        """The game's moves as published, the record's plies (its tokens,
        descriptions and clocks: ``_record``)."""
        self.checker: Checking | None = engine if _checks(engine) else None
        """The engine as the port's ``Checking``, if it checks one engine against another."""
        self.divergences: list[str] = []
        """What the checker found, ``<ply>: <divergence>``, for the record."""
        self.unchecked: int | None = None
        """The first ply (1-based) at which the checked engine found the fast one
        diverging, None if none: the record writes it and those after as sent (if
        it was played: an aborted step is not)."""
        stalls = setup.get("stalls", no_stalls)
        self.clocks = Clocks(settings.time, stalls, settings.increment) if settings.time is not None else None
        self.offer: Side | None = None
        """The side whose draw offer awaits an answer."""
        self.refused = False
        """A draw offer was refused since the last move."""
        self._waiting_for, self._waiting_since = Side.FIRST, now
        """The side the server waits for (to move, or to answer a draw offer), and
        since when (its clock, or the idle bound)."""
        self._observers = 0
        self._ended_by_move = False
        self.arrived: float | None = None
        """While a line from the side whose clock runs is handled: when it arrived."""

    @property
    def over(self) -> bool:
        return self.outcome is not None

    def take(self) -> list[Output]:
        """The outputs of the inputs handled since the last ``take``, in order."""
        out, self.outbox = self.outbox, []
        return out

    def leave(self, ent: Entity) -> None:
        """``ent``'s connection closed (nothing if it is done already)."""
        if ent.conn is Conn.DONE:
            return
        self._log(DEBUG, "disconnect", conn=ent.number, state=ent.conn.value)
        if ent.conn is Conn.PLAYING and ent.side is not None and not self.over:
            # It gets the 39x too, if its connection is only half-closed.
            self._end(ent.side.other, Termination.DISCONNECT, [P.Disconnected(ent.side)])
            return
        was = ent.conn
        self.conns.trigger(ent, Trigger.CLOSE)
        self.conns.remove(ent)
        if was is Conn.WAITING and ent.side is not None:
            self.players[ent.side] = None

    def _mover(self) -> Side:
        return side_to_move(self.engine, self.state)

    def _serial(self) -> int:
        """The full-move number of the next ply: both players' n-th moves carry n."""
        return len(self.made) // 2 + 1

    # ─── clocks ────────────────────────────────────────────────────────────────

    def _start_clock(self, side: Side) -> None:
        """The server now waits for ``side``: its clock runs, or its idle bound."""
        self._waiting_for, self._waiting_since = side, self.now
        if self.clocks is not None:
            self.clocks.start(side, self.now)

    def _clock_time(self) -> float:
        """The time the running clock is read at: the arrival of the line being
        handled, if known, else now."""
        return self.now if self.arrived is None else self.arrived

    def _stop_clock(self, moved: bool = False) -> float | None:
        """Stop the running clock: its side's time left, None without clocks."""
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
        """The divergences the checking engine reported with this step (the engine
        has logged them): into the record; with ``--on-divergence abort`` the game
        ends with 399 and True is returned.  ``name_ply`` names the step, called only
        when there is one (the ply's text costs a move's time on the fast path)."""
        found = () if self.checker is None else self.checker.divergences(state)
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
        ended = self._epoch + self.now
        score = self._score()
        self.source = source = self._facts(self.outcome, ended, score)
        self._log(
            INFO,
            "end",
            result=self.outcome.result(self.vocab.sides),
            termination=termination.value,
            score=score,
            plies=len(self.made),
            **({"divergences": len(self.divergences)} if self.checker is not None else {}),
        )
        for ent in list(self.entities):
            if ent.conn is Conn.NEW:  # not seated: told why it is closed
                self._send(ent, P.Refused(199, "The game is over; connect again for the next one"))
            self.conns.trigger(ent, Trigger.END)
            self.outbox.append(Close(ent))
        self.entities.clear()
        self._publish(GameOver(self.game_no, self.outcome, source, self._reading(None), ended))

    def _names(self) -> tuple[str, str]:
        first, second = (p.name if p else "" for p in self.players)
        return first, second

    def _score(self) -> str:
        """The record's ``Score``: each side's stores or stones at the end."""
        sides, counts = self.vocab.sides, self.engine.counts(self.state)
        return f"{sides[0]} {counts[0]} {sides[1]} {counts[1]}"

    def _facts(self, outcome: Outcome, ended: float, score: str) -> ServerRecord:
        """What the record is made of (its plies are the moves' events), kept as the
        game ends; the record is made from it when first asked for."""
        return ServerRecord(
            game=self.vocab.game,
            server=self.settings.server,
            game_no=self.game_no,
            engine=self.engine.kind,
            rules=self.engine.rule_set,
            started=self._epoch + (self.now if self.started is None else self.started),
            ended=ended,
            sides=self.vocab.sides,
            names=self._names(),
            time=self.settings.time,
            increment=self.settings.increment,
            outcome=outcome,
            score=score,
            made=tuple(self.made),
            unchecked=self.unchecked,
            divergences=tuple(self.divergences) if self.checker is not None else None,
            opening=self.opening,
        )

    @property
    def record(self) -> PgnGame | None:
        """The finished game's record (None before the end)."""
        return None if self.source is None else self.source.record

    # ─── output ────────────────────────────────────────────────────────────────

    def _send(self, ent: Entity, *messages: P.Message | str) -> None:
        """Messages (and board lines, which are bare strings) to one connection."""
        if len(messages) == 1 and not isinstance(messages[0], str):  # the usual case, without a list's loop
            self.outbox.append(Send(ent, (messages[0].to_line(self.vocab),)))
        else:
            self.outbox.append(Send(ent, [m if isinstance(m, str) else m.to_line(self.vocab) for m in messages]))

    def _broadcast(self, status: list[P.Message]) -> None:
        """A status message to every entity in play; observers also get the display."""
        if self.started is None:
            return
        lines = [status[0].to_line(self.vocab)] if len(status) == 1 else [m.to_line(self.vocab) for m in status]
        display: list[str] | None = None
        for ent in self.entities:
            if ent.conn is Conn.PLAYING:
                self.outbox.append(Send(ent, lines))
            elif ent.conn is Conn.WATCHING:
                if display is None:
                    display = [m if isinstance(m, str) else m.to_line(self.vocab) for m in self._display()]
                self.outbox.append(Send(ent, [*lines, *display]))

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

    def reject(self, ent: Entity, code: int, text: str) -> None:
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
        self.outbox.append(Close(ent))
        self.leave(ent)

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
        self.outbox.append(Publish(what))

    def _log(self, level: int, what: str, **fields: Any) -> None:
        event(level, what, game=self.vocab.game, server=self.settings.server, game_no=self.game_no, **fields)
