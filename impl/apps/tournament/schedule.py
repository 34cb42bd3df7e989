"""The games of a tournament: each one a ``Task`` (who plays whom, first mover first, with
which opening), and each finished one a ``GameResult``."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from impl.apps.terms import MatchOptions
from impl.apps.tournament.config import GAUNTLET, TournamentConfig
from impl.engines.openings import Opening, nth_opening


@dataclass(frozen=True)
class Task:
    """One game: its number, its round (``pairing.game``), the players by index,
    first mover first, and how to play it."""

    number: int
    round: str
    players: tuple[int, int]
    specs: tuple[str, str]
    labels: tuple[str, str]
    options: MatchOptions
    opening: Opening = ()
    """The moves the referee plays first."""


@dataclass(frozen=True)
class GameResult:
    number: int
    round: str
    players: tuple[int, int]
    """First mover, second mover."""
    score: float | None
    """The first mover's score (1, 0.5, 0); None: no result."""
    termination: str
    """A Termination value, or ``no result``."""
    error: str = ""
    record: str = field(default="", repr=False)
    culprits: tuple[int, ...] = ()
    """The players whose programs failed a game without a result."""
    summaries: tuple[tuple[int, str], ...] = ()
    """(player, line): the players' ``summary: moves=…`` log lines (impl/apps/match.py)."""
    counts: tuple[int, int] | None = None
    """Stores or stones at the end, first side first (None: not known, as on resuming)."""

    @property
    def loser(self) -> int | None:
        if self.score is None or self.score == 0.5:
            return None
        return self.players[1] if self.score == 1 else self.players[0]


def schedule(config: TournamentConfig) -> list[Task]:
    """Every game: each pairing's games in turn, the pairing's first player
    moving first in its odd-numbered games.  With openings, each pairing plays
    them in order: with ``repeat`` its games 2k-1 and 2k play opening k, colours
    reversed (a pair), else game k plays opening k; the list wraps around."""
    n = len(config.players)
    pairs = (
        [(0, j) for j in range(1, n)]
        if config.mode == GAUNTLET
        else [(i, j) for i in range(n) for j in range(i + 1, n)]
    )
    options = MatchOptions(config.game, 1, event=config.event, **config.terms())
    labels = config.labels
    tasks: list[Task] = []
    for p, (i, j) in enumerate(pairs):
        for g in range(config.games):
            first, second = (i, j) if g % 2 == 0 else (j, i)
            clocks, increment = config.clocks(first, second)  # a player's own, on either side
            tasks.append(
                Task(
                    len(tasks) + 1,
                    f"{p + 1}.{g + 1}",
                    (first, second),
                    (config.specs[first], config.specs[second]),
                    (labels[first], labels[second]),
                    replace(options, time=clocks, increment=increment),
                    opening_of(config, g),
                )
            )
    return tasks


def opening_of(config: TournamentConfig, game: int) -> Opening:
    """The opening of a pairing's ``game``-th game (from 0)."""
    return nth_opening(config.openings, config.repeat, game)


def result_text(score: float | None, labels: Sequence[str]) -> str:
    """A game's result in words, by the players' labels (first mover's first): no
    score token, whose order PGN (White first) and the papers (first mover first)
    would read differently in Gothello."""
    if score is None:
        return "no result"
    return "draw" if score == 0.5 else f"{labels[0] if score == 1.0 else labels[1]} wins"


def score_of(winner: int | None) -> float:
    return 0.5 if winner is None else 1.0 - winner
