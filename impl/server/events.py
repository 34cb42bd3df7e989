"""What listeners (the server, a web view, a tournament) see of a game: the events
the session publishes (impl/server/session.py)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Protocol

from impl.engines.port import GameEngine, GameState, MoveDescription, Result
from impl.game import Outcome, Side, Termination
from impl.pgn import PgnGame

from .clock import ClockReading

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


class RecordSource(Protocol):
    """Where a ``GameOver``'s record comes from: made on first use by the session
    (impl/server/records.py ``ServerRecord``), or ``Written``."""

    @property
    def record(self) -> PgnGame: ...


@dataclass(frozen=True)
class Written:
    """A record already made (a test's, or one slimmed for the web view)."""

    record: PgnGame


@dataclass(frozen=True)
class GameOver:
    game_no: int
    outcome: Outcome
    source: RecordSource
    """The game's record, made when first asked for (``record``)."""
    clocks: ClockReading | None
    ended: float
    """Wall-clock time (seconds since the epoch)."""

    @property
    def record(self) -> PgnGame:
        """The game's record (impl/server/records.py ``server_record``)."""
        return self.source.record

    @property
    def winner(self) -> int | None:
        """The winning side's index, None for a draw or an abort."""
        return None if self.outcome.winner is None else int(self.outcome.winner)

    @property
    def result(self) -> str:
        """``<side> wins``, ``draw`` or ``aborted`` (the record's Result header)."""
        return self.outcome.result(self.record.sides)

    @property
    def termination(self) -> Termination:
        """How it ended (a StrEnum: its JSON is the record's word, ``move``, ``time``, …)."""
        return self.outcome.termination


Event = PlayerSeated | ObserverSeated | GameStarted | MoveMade | DrawOffer | GameOver
Listener = Callable[[Event], None]
