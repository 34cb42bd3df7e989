"""The game feed: what the web view learns from the referee, as immutable data.

A process runs servers (``ServerInfo``); each hosts one game at a time, and the
feed reports each game's life as events, in order, per server:

    GameStarted  (MoveMade | ClocksChanged)*  GameOver

Sides are indexed as in the protocol module: 0 for the player who moves first
(south, black), 1 for the second (north, white).  Every event carries the clocks
as read when it happened and, where the board changed, a ``Position`` whose board
data (``BoardView``) is computed on first use: a game nobody watches never pays
for drawing.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any, Protocol

from impl.game import Termination

from .views import BoardView as BoardView  # drawn by views; re-exported for the feed's users
from .views import board_view


@dataclass(frozen=True)
class ServerInfo:
    """One game server of the process."""

    key: str
    """``<game>-<server number>``: unique within a process."""
    game: str
    title: str
    server: int
    host: str
    port: int
    engine: str
    """The rules behind the referee: ``impl`` (fast engines) or ``spec`` (the executable Z)."""
    time: tuple[float, float] | None
    """Seconds for the first and the second player, or None without time controls."""
    forever: bool
    sides: tuple[str, str]


@dataclass(frozen=True)
class ClockReading:
    """Both clocks as read at ``taken`` (the event loop's monotonic time)."""

    left: tuple[float, float]
    running: int | None
    taken: float

    def at(self, now: float) -> tuple[float, float]:
        """The time left on each clock at ``now``, counting the running one down."""
        if self.running is None:
            return self.left
        left = list(self.left)
        left[self.running] -= now - self.taken
        return (left[0], left[1])


@dataclass(frozen=True)
class Position:
    """A state of a game, with the state and the action that led to it (None for
    the initial state).  ``board`` is drawn from the engine's state on first use
    and then kept."""

    engine: Any
    state: Any
    before: Any = None
    action: Any = None

    @cached_property
    def board(self) -> BoardView:
        return board_view(self.engine, self.state, self.before, self.action)


@dataclass(frozen=True)
class GameStarted:
    server: str
    game_no: int
    game: str
    sides: tuple[str, str]
    names: tuple[str, str]
    position: Position
    clocks: ClockReading | None
    started: float
    """Wall-clock time (seconds since the epoch)."""


@dataclass(frozen=True)
class MoveMade:
    server: str
    game_no: int
    side: int
    ply: str
    """As the player sent it: ``1 c3``, ``1 ... d4``."""
    move: str
    """The papers' notation: ``c3``, ``pass``, ``F``."""
    position: Position
    clocks: ClockReading | None
    to_move: int | None
    """The side to move next; None if the move ended the game."""


@dataclass(frozen=True)
class ClocksChanged:
    """The clocks switched without a move: Awari's draw offer and its refusal."""

    server: str
    game_no: int
    clocks: ClockReading | None
    note: str


@dataclass(frozen=True)
class GameOver:
    server: str
    game_no: int
    winner: int | None
    result: str
    """``<side> wins``, ``draw`` or ``aborted`` (as in the record's Result header)."""
    termination: Termination
    """How it ended (a StrEnum: its JSON is the record's word, ``move``, ``time``, …)."""
    clocks: ClockReading | None
    ended: float


FeedEvent = GameStarted | MoveMade | ClocksChanged | GameOver


class FeedSink(Protocol):
    """Where the referee side delivers events."""

    def publish(self, event: FeedEvent) -> None: ...
