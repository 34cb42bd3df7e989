"""What a game between two player programs is played on, which ``referee match``,
``referee tournament`` and the run that plays their games (impl/apps/games.py)
share: the players (``PlayerSpec``), the terms (``GameTerms``, ``MatchOptions``),
the runner's adjudication (``Adjudication``) and a game's outcome
(``GameOutcome``)."""

from __future__ import annotations

import shlex
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from impl.apps import launch
from impl.apps.sandbox import Sandbox
from impl.apps.tbadjudge import PerfectPlayRule
from impl.client import Result
from impl.config import DEFAULTS, OnDivergence
from impl.game import PAPER_RULES, Outcome, Side, Termination
from impl.players import PLAYERS

MARGIN_WORDS = "ahead by {margin} or more for {plies} plies"
"""The record's ``Adjudication`` tag of a game won by ``--resign-margin``."""
MAX_PLIES_WORDS = "still running after {plies} plies"
"""The record's ``Adjudication`` tag of a game drawn by ``--max-plies``."""


def adjudication_rule(words: str) -> str:
    """The runner's rule named by a record's ``Adjudication`` tag: ``margin``,
    ``max plies``, or "" (another's words: an older record)."""
    for rule, template in (("margin", MARGIN_WORDS), ("max plies", MAX_PLIES_WORDS)):
        if words.startswith(template.split("{", 1)[0]):
            return rule
    return ""


@dataclass(frozen=True)
class Adjudication:
    """fastchess's and cutechess-cli's adjudication, where it fits these games (all
    off by default): a game still running after ``max_plies`` plies is a draw
    (their ``-maxmoves``, in plies); a side ahead in the count (Awari's stores,
    Gothello's stones) by ``margin`` or more for ``plies`` plies in a row wins
    (their score-based ``-resign``, on the count the papers score by)."""

    max_plies: int | None = None
    margin: int | None = None
    plies: int = 8
    tablebase: PerfectPlayRule | None = None
    """``--tb`` (an Awari game in the table) or ``--tb-empties`` (a Gothello endgame):
    the game ends with perfect play's result (impl/apps/tbadjudge.py)."""

    def verdict(self, played: int, leads: Sequence[int]) -> tuple[Outcome, str] | None:
        """The adjudicated outcome after ``played`` plies, and the rule's words;
        ``leads``: the first mover's lead in the count after each ply so far."""
        if self.margin is not None and len(leads) >= self.plies:
            recent = leads[-self.plies :]
            for side, sign in ((Side.FIRST, 1), (Side.SECOND, -1)):
                if all(sign * lead >= self.margin for lead in recent):
                    words = MARGIN_WORDS.format(margin=self.margin, plies=self.plies)
                    return Outcome(side, Termination.ADJUDICATION), words
        if self.max_plies is not None and played >= self.max_plies:
            return Outcome(None, Termination.ADJUDICATION), MAX_PLIES_WORDS.format(plies=self.max_plies)
        return None


@dataclass(frozen=True)
class PlayerSpec:
    """A player program: its label in the table and its command line template."""

    label: str
    template: tuple[str, ...]

    @classmethod
    def parse(cls, text: str) -> PlayerSpec:
        words = shlex.split(text)
        if not words:
            raise ValueError("an empty player")
        if words[0] in PLAYERS:
            ours = [sys.executable, "-m", "impl.cli", "player", words[0], "{game}"]
            template = [*ours, "--host", "{host}", "--port", "{port}", "--side", "{side}"]
            template += words[1:]
            return cls(text, tuple(template))
        return cls(text, tuple(words))

    def command(self, values: dict[str, str]) -> list[str]:
        """The command line for one game (launch.fill: the placeholders every command shares)."""
        return launch.fill(self.template, values)


@dataclass
class GameOutcome:
    """One game: who played first (0: player A, 1: player B), and how it ended."""

    number: int
    first: int
    result: Result | None = None
    counts: tuple[int, int] = (0, 0)
    error: str = ""
    summaries: dict[int, list[str]] = field(default_factory=dict)
    """Player (0 A, 1 B) → its ``summary:`` log lines."""
    culprits: list[int] = field(default_factory=list)
    """Players (0 A, 1 B) whose program failed a game without a result: it exited
    before the start, or with an error status."""
    record: str = ""
    """The game's record (impl/pgn.py), the players named by their labels; empty if
    the game never began."""
    theft: str = ""
    """Who took whose seat, when a program lost by seat theft."""
    foul: str = ""
    """Suspected foul play (a program killed by a signal the referee did not send):
    the game has no result."""
    adjudicated: str = ""
    """The adjudication rule that ended the game (its result is the runner's)."""
    forfeit: str = ""
    """``--strict``: the protocol warning that lost the game (impl/apps/strict.py)."""
    adjudged: Outcome | None = None
    tablebase: str = ""
    """The table's value, when the table adjudicated the game (the record's ``Tablebase`` tag)."""
    divergence: str = ""
    """``--check-protocol``: the first line the server sent that the protocol's model
    did not allow (impl/apps/protocheck.py); the result stands."""

    def winner(self) -> int | None:
        """The winning player (0 A, 1 B), None for a draw or no result."""
        if self.result is None or self.result.winner is None:
            return None
        return self.first ^ self.result.winner


@dataclass(frozen=True, kw_only=True)
class GameTerms:
    """The terms every game of a run is played on, which ``referee match``'s options and
    ``referee tournament``'s configuration share (each default written here once)."""

    time: tuple[float, float] | None = None
    """Each side's clock in seconds, first mover's first; None: no clocks."""
    increment: tuple[float, float] = (0.0, 0.0)
    """Each side's Fischer increment in seconds, first mover's first."""
    timeout: float = 600.0
    """Seconds a game may take before its players are killed and it is aborted."""
    engine: str = "impl"
    """The referee's rules engine: impl, spec or checked (impl/engines/registry.py)."""
    rules: str = PAPER_RULES
    """The Awari rule set the server plays and announces (spec/awari_rules.py)."""

    def terms(self) -> dict[str, Any]:
        """These terms alone, as the keywords of another ``GameTerms``."""
        return {f.name: getattr(self, f.name) for f in fields(GameTerms)}


@dataclass(frozen=True)
class MatchOptions(GameTerms):
    """How the games of a run are played: the terms, and this process's part (logs,
    records, the live view, the sandbox, adjudication)."""

    game: str
    games: int
    logs: Path | None = None
    jobs: int = 1
    on_divergence: OnDivergence = DEFAULTS.on_divergence
    records: Path | None = None
    """Write each game's record here as ``game-NNNN.pgn``."""
    event: str = "referee match"
    """The records' Event tag."""
    live: str = ""
    """The token of a live web view of this process that shows the games
    (impl/web/tourney.py); a worker process without it plays them unseen."""
    sandbox: Sandbox | None = None
    """Where the programs run (impl/apps/sandbox.py); None: the strongest that
    works here (``--sandbox auto``)."""
    adjudication: Adjudication | None = None
    """The runner's adjudication rules (``--max-plies``, ``--resign-margin``); None: none."""
    strict: bool = False
    """``--strict``: a player's protocol warning forfeits its game (impl/apps/strict.py)."""
    check_protocol: bool = False
    """``--check-protocol``: the server's lines checked against the protocol's model
    (impl/apps/protocheck.py)."""
