"""The words every part outside spec/ uses for the two sides, for how a game
ended: ``Side``, ``Termination`` and ``Outcome`` (after python-chess's ``Color``,
``Termination`` and ``Outcome``), and for the rule sets: their one table of names.

A side is the first or the second mover (Awari south / north, Gothello black /
white), whatever the spec calls its players: the engine's ``players[side]`` is the
one bridge from a Side to the spec's PLAYER.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum, StrEnum
from typing import Final


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
    rule (``--max-plies``, ``--resign-margin``; impl/apps/terms.py), not the server."""
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


# ─── The rule sets' names: the one table outside spec/ ────────────────────────
#
# A rule set has one canonical name (spec/awari_rules.py ``canonical_name``), parsed
# once where it comes in — the command line (impl/cli.py ``rules_text``), a record's
# ``Rules`` tag (``record_rules``), the greeting's ``Rules:`` (the client) — and then
# carried by the engine that plays it (impl/engines/port.py ``Engine.rule_set``).
# No other module of impl/ spells a rule set's name (tests/test_rules_names.py).

PAPER_RULES: Final = "paper"
"""The papers' rule set (spec/awari_rules.py ``PAPER``): Awari's default and
Gothello's only one."""
ABAPA_RULES: Final = "abapa"
"""The Abapa rules (spec/awari_rules.py ``ABAPA``), the only ones OpenSpiel's
``oware`` plays."""
RECORD_PAPER: Final = "massey"
"""A record's ``Rules`` tag for the papers' rules (impl/pgn.py), as every record
has written it."""
RECORD_ALIASES: Final[dict[str, str]] = {RECORD_PAPER: PAPER_RULES, "": PAPER_RULES}
"""The ``Rules`` tags that are not canonical names, read only where records are
read: ``massey``, and none at all (another program's record)."""


class GameRulesError(ValueError):
    """A rule set other than the papers' for Gothello, which has no other."""


def rules_name(game: str, text: str) -> str:
    """The canonical name of the rule set ``text`` names (spec/awari_rules.py
    ``parse_rules``) for ``game``: RulesError (a ValueError) for a text the parser
    refuses, GameRulesError for another set than the papers' in Gothello — the one
    place that refusal is decided."""
    from spec.awari_rules import canonical

    name = canonical(text)
    if name != PAPER_RULES and game != "awari":
        raise GameRulesError(f"unknown {game} rules {text!r}: {game} has only the paper's")
    return name


def record_rules(game: str, tag: str) -> str:
    """The canonical name of the rule set a record's ``Rules`` tag names (its
    ``RECORD_ALIASES`` or any text ``rules_name`` reads); ValueError as there."""
    return rules_name(game, RECORD_ALIASES.get(tag, tag))


def rules_tag(name: str) -> str:
    """What a record's ``Rules`` tag says for the rule set ``name``."""
    return RECORD_PAPER if name == PAPER_RULES else name


def perfect_play_judge(game: str) -> str:
    """What adjudicates a game of ``game`` by perfect play (impl/apps/tbadjudge.py), in
    the words the match's lines and the web view say it with."""
    return "the exact endgame solver" if game == "gothello" else "the endgame table"
