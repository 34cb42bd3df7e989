"""The game feed: what the web view learns from the referee, as immutable data.

A process runs servers (``ServerInfo``); each hosts one game at a time, and the
feed reports each game's life as events, in order, per server:

    GameStarted  (MoveMade | ClocksChanged)*  GameOver

``GameStarted``, ``MoveMade`` and ``GameOver`` are the session's events
(impl/server/session.py, the one vocabulary of what happens in a game), each
derived here only by the key of the server it was published on and, where the
board changed, a ``Position`` whose board data (impl/web/views.py ``BoardView``)
is drawn on first use: a game nobody watches never pays for drawing.
``ClocksChanged`` is the feed's own: what a viewer sees of the session's
``DrawOffer`` (a note, and the clocks switched without a move).

Sides are indexed as in the protocol module: 0 for the player who moves first
(south, black), 1 for the second (north, white).  Every event carries the clocks
as read when it happened.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any, Protocol

from impl.engines.port import GameEngine, GameState
from impl.game import PAPER_RULES
from impl.server import session
from impl.server.clock import ClockReading

from .views import BoardView, board_view

__all__ = [
    "ArenaUpdate",
    "BoardView",
    "ClockReading",
    "ClocksChanged",
    "FeedEvent",
    "FeedSink",
    "GameOver",
    "GameStarted",
    "LinkMessage",
    "ListenFailed",
    "Listening",
    "MoveMade",
    "Position",
    "Published",
    "Resync",
    "ServerAdded",
    "ServerInfo",
    "ServerList",
    "StandingsUpdate",
]


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
    rules: str = PAPER_RULES
    """The rule set in force (spec/awari_rules.py's canonical name; Gothello's is ``paper``)."""


@dataclass(frozen=True)
class Position:
    """A state of a game, with the move that led to it (None for the initial
    state).  ``board`` is drawn from the engine's state on first use and then kept."""

    engine: GameEngine
    state: GameState
    move: session.MoveMade | None = None

    @cached_property
    def board(self) -> BoardView:
        return board_view(self.engine, self.state, None if self.move is None else self.move.description)


@dataclass(frozen=True)
class GameStarted(session.GameStarted):
    """The session's ``GameStarted``, on the server ``server``."""

    server: str

    @cached_property
    def position(self) -> Position:
        return Position(self.engine, self.state)


@dataclass(frozen=True)
class MoveMade(session.MoveMade):
    """The session's ``MoveMade``, on the server ``server``."""

    server: str

    @cached_property
    def position(self) -> Position:
        return Position(self.engine, self.after, self)


@dataclass(frozen=True)
class ClocksChanged:
    """The clocks switched without a move: Awari's draw offer and its refusal."""

    server: str
    game_no: int
    clocks: ClockReading | None
    note: str


@dataclass(frozen=True)
class GameOver(session.GameOver):
    """The session's ``GameOver``, on the server ``server``."""

    server: str


FeedEvent = GameStarted | MoveMade | ClocksChanged | GameOver


class FeedSink(Protocol):
    """Where the referee side delivers events."""

    def publish(self, event: FeedEvent) -> None: ...


# ─── The link's messages (impl/web/link.py), each a pickled value ──────────────


@dataclass(frozen=True)
class Published:
    """Referee → web: a feed event, in order."""

    event: FeedEvent


@dataclass(frozen=True)
class ServerList:
    """Referee → web: the servers of the process, as they change."""

    servers: tuple[ServerInfo, ...]


@dataclass(frozen=True)
class ServerAdded:
    """Referee → web: one more server (a tournament's or an arena's game on a private one)."""

    info: ServerInfo


@dataclass(frozen=True)
class Resync:
    """Referee → web: the last games finished and those in progress, each whole."""

    games: tuple[tuple[FeedEvent, ...], ...]


@dataclass(frozen=True)
class StandingsUpdate:
    """Referee → web: a tournament's latest standings (impl/web/tourney.py ``Standings``)."""

    snapshot: object


@dataclass(frozen=True)
class ArenaUpdate:
    """Referee → web: the class arena's standings and pages, as JSON data."""

    data: dict[str, Any]


@dataclass(frozen=True)
class Listening:
    """Web → referee, once: the view listens on ``port``."""

    port: int


@dataclass(frozen=True)
class ListenFailed:
    """Web → referee, once: the view cannot listen, and why."""

    error: str


LinkMessage = Published | ServerList | ServerAdded | Resync | StandingsUpdate | ArenaUpdate | Listening | ListenFailed
"""Everything the link carries, either way."""
