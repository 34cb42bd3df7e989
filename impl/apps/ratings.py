"""Ratings from a tournament's results.

* Two players: the Elo difference from the score fraction, with its 95% error
  margin and the likelihood of superiority (LOS), as cutechess-cli and fishtest
  report them: a pair's results are all one number, and this is the measure
  engine testers read.
* More players: openskill's Plackett-Luce model (a Bayesian skill rating in the
  TrueSkill family, for games between any of many players): each player's mean
  ``mu`` and uncertainty ``sigma``, shown as ``mu ± 2 sigma`` (about 95%).  Elo
  difference per pair would ignore the transitive information of a round robin.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Elo:
    """The first player's Elo difference over the second, its 95% margin (None
    when it cannot be estimated: no games, all won or all lost) and the LOS."""

    difference: float
    margin: float | None
    los: float


def elo_of(score: float) -> float:
    """The Elo difference that expects this score fraction (0 < score < 1)."""
    return -400.0 * math.log10(1.0 / score - 1.0)


def elo(wins: int, draws: int, losses: int) -> Elo:
    """Elo difference, 95% error margin and LOS from a pair's W-D-L (the
    formulas of cutechess-cli's ``EloCalculator``: the per-game score's standard
    deviation, 1.96 standard errors either side)."""
    games = wins + draws + losses
    los = 0.5 if wins == losses else 0.5 * (1.0 + math.erf((wins - losses) / math.sqrt(2.0 * (wins + losses))))
    if games == 0:
        return Elo(0.0, None, 0.5)
    score = (wins + draws / 2) / games
    if score in (0.0, 1.0):
        return Elo(math.copysign(math.inf, score - 0.5), None, los)
    w, d, ell = wins / games, draws / games, losses / games
    deviation = math.sqrt(w * (1 - score) ** 2 + d * (0.5 - score) ** 2 + ell * score**2)
    spread = 1.959964 * deviation / math.sqrt(games)
    low, high = max(score - spread, 1e-9), min(score + spread, 1 - 1e-9)
    return Elo(elo_of(score), (elo_of(high) - elo_of(low)) / 2, los)


@dataclass(frozen=True)
class Skill:
    mu: float
    sigma: float

    @property
    def margin(self) -> float:
        return 2 * self.sigma


def skills(players: int, games: Sequence[tuple[int, int, float]]) -> list[Skill]:
    """Openskill ratings of ``players`` from games ``(first, second, score of
    first)`` (1, 0.5 or 0), rated in the order given."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings = [model.rating() for _ in range(players)]
    for a, b, score in games:
        ranks = [1.0, 1.0] if score == 0.5 else ([1.0, 2.0] if score == 1 else [2.0, 1.0])
        [[ra], [rb]] = model.rate([[ratings[a]], [ratings[b]]], ranks=ranks)
        ratings[a], ratings[b] = ra, rb
    return [Skill(r.mu, r.sigma) for r in ratings]
