"""The words every part outside spec/ uses for the two sides and for how a game
ended: ``Side``, ``Termination`` and ``Outcome`` (after python-chess's ``Color``,
``Termination`` and ``Outcome``).

A side is the first or the second mover (Awari south / north, Gothello black /
white), whatever the spec calls its players: the engine's ``players[side]`` is the
one bridge from a Side to the spec's PLAYER.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum, StrEnum


class Side(IntEnum):
    """The first mover (south, black) or the second (north, white).  An IntEnum so
    that it indexes the per-side tuples of the protocol (names, codes, clocks)."""

    FIRST = 0
    SECOND = 1

    @property
    def other(self) -> Side:
        return Side.SECOND if self is Side.FIRST else Side.FIRST


class Termination(StrEnum):
    """How a game ended, in the words of the records (docs/protocol.md, "Game
    records") and of the log."""

    MOVE = "move"
    """A move ended it by the rules (32x)."""
    RESIGNATION = "resignation"
    AGREEMENT = "agreement"
    """Awari: a draw offer accepted (329)."""
    TIME = "time"
    """A player's clock ran out (361/362)."""
    DISCONNECT = "disconnect"
    """A player left, or was cut off, during the game (391/392)."""
    IDLE = "idle"
    """Without time controls, the player to move sent nothing for the idle bound (391/392)."""
    ERROR = "error"
    """The referee failed (399); no result."""
    SHUTDOWN = "shutdown"
    """The server stopped during the game (399); no result."""
    DIVERGENCE = "divergence"
    """The checked engine found the fast engine and the spec disagreeing, and the
    server was told to abort on that (``--on-divergence abort``, 399); no result."""
    ADJUDICATION = "adjudication"
    """``referee match``/``tournament``: the runner ended the game by an adjudication
    rule (``--max-plies``, ``--resign-margin``; impl/apps/games.py), not the server."""
    SEAT_THEFT = "seat theft"
    """``referee match``/``tournament``: a program took a seat from a connection
    not its own; it loses by forfeit (impl/apps/match.py, not the server)."""

    @property
    def aborted(self) -> bool:
        """Ended without a result."""
        return self in (Termination.ERROR, Termination.SHUTDOWN, Termination.DIVERGENCE)


_HOW = {
    Termination.MOVE: "on the board",
    Termination.AGREEMENT: "by agreement",
    Termination.TIME: "on time",
    Termination.IDLE: "by the opponent not moving",
}


@dataclass(frozen=True)
class Outcome:
    """The end of a game: the winning side (None for a draw or an aborted game) and
    how it ended."""

    winner: Side | None
    termination: Termination

    def result(self, sides: tuple[str, str]) -> str:
        """The record's ``Result:``: ``south wins``, ``draw`` or ``aborted``."""
        if self.termination.aborted:
            return "aborted"
        return "draw" if self.winner is None else f"{sides[self.winner]} wins"

    def describe(self, sides: tuple[str, str]) -> str:
        """``black wins by resignation``, ``draw by agreement``, ``aborted (…)``."""
        if self.termination is Termination.ERROR:
            return "aborted (the referee failed)"
        if self.termination is Termination.SHUTDOWN:
            return "aborted (the server stopped)"
        if self.termination is Termination.DIVERGENCE:
            return "aborted (the fast engine and the spec disagreed)"
        if self.termination is Termination.ADJUDICATION and self.winner is None:
            return "adjudicated by the match runner (its record has the result)"
        how = _HOW.get(self.termination, f"by {self.termination.value}")
        return f"draw {how}" if self.winner is None else f"{sides[self.winner]} wins {how}"
