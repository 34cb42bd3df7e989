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


# ─── Bradley–Terry Elo by maximum likelihood (as Ordo and BayesElo) ─────────────

Z95 = 1.959964
"""The 95% two-sided normal quantile."""
UNIT = 400 / math.log(10)
"""Elo points per natural-log unit of odds: P(i beats j) = 1 / (1 + 10^((r_j − r_i)/400))."""
PRIOR_DRAWS = 1.0
"""Virtual draws each player gets against a pool player rated at the mean when
the maximum-likelihood estimate does not exist (BayesElo's remedy, its ``prior``)."""


@dataclass(frozen=True)
class Ratings:
    """Every player's Elo (mean 0, or the anchor's 0), its 95% margin and the
    covariance in Elo² (for the margin of a difference); ``prior``: whether the
    virtual draws were needed (a player, or a group, won or lost every game)."""

    elo: tuple[float, ...]
    margin: tuple[float, ...]
    covariance: tuple[tuple[float, ...], ...]
    prior: bool
    anchor: int | None = None
    """The player rated 0, the others relative to it; None: the mean of those who
    played is 0 (also when the anchor asked for played no game: it anchors nothing)."""

    def difference(self, i: int, j: int) -> tuple[float, float]:
        """Player i's Elo over j's and its 95% margin (from the covariance)."""
        c = self.covariance
        variance = max(0.0, c[i][i] + c[j][j] - 2 * c[i][j])
        return self.elo[i] - self.elo[j], Z95 * math.sqrt(variance)


Tally = dict[tuple[int, int], tuple[float, float]]
"""(i, j) with i < j: i's points against j and the games they played."""


def tally(games: Sequence[tuple[int, int, float]]) -> Tally:
    """Games ``(first, second, score of first)`` summed per pair; a draw is half a
    point to each (draws as half points, as Ordo and BayesElo's default)."""
    out: Tally = {}
    for a, b, score in games:
        i, j, points = (a, b, score) if a < b else (b, a, 1 - score)
        s, n = out.get((i, j), (0.0, 0.0))
        out[(i, j)] = (s + points, n + 1)
    return out


def estimable(players: int, pairs: Tally) -> bool:
    """Whether the maximum-likelihood ratings exist (Zermelo/Ford's condition): the
    graph with an edge i → j when i scored against j is strongly connected, so no
    group of players won (or lost) every game against the rest."""
    beats: list[set[int]] = [set() for _ in range(players)]
    for (i, j), (s, n) in pairs.items():
        if s > 0:
            beats[i].add(j)
        if s < n:
            beats[j].add(i)
    beaten: list[set[int]] = [set() for _ in range(players)]
    for i, out in enumerate(beats):
        for j in out:
            beaten[j].add(i)

    def reaches_all(edges: list[set[int]]) -> bool:
        seen, todo = {0}, [0]
        while todo:
            for j in edges[todo.pop()] - seen:
                seen.add(j)
                todo.append(j)
        return len(seen) == players

    return players <= 1 or (reaches_all(beats) and reaches_all(beaten))


def _eliminate(matrix: list[list[float]], right: list[list[float]]) -> list[list[float]]:
    """X with matrix · X = right (Gauss–Jordan elimination with partial pivoting;
    ``right`` holds one column per row of X's columns): O(n³) for any number of them."""
    n = len(matrix)
    a = [[*row, *extra] for row, extra in zip(matrix, right, strict=True)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        for r in range(n):
            if r != col and a[r][col] != 0:
                f = a[r][col] / a[col][col]
                a[r] = [x - f * y for x, y in zip(a[r], a[col], strict=True)]
    return [[x / a[r][r] for x in a[r][n:]] for r in range(n)]


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """x with matrix · x = vector."""
    return [row[0] for row in _eliminate(matrix, [[v] for v in vector])]


def _inverse(matrix: list[list[float]]) -> list[list[float]]:
    n = len(matrix)
    return _eliminate(matrix, [[1.0 if r == c else 0.0 for c in range(n)] for r in range(n)])


def _p(x: float) -> float:
    """The logistic function, without overflow."""
    if x >= 0:
        return 1 / (1 + math.exp(-x))
    e = math.exp(x)
    return e / (1 + e)


def bradley_terry(players: int, games: Sequence[tuple[int, int, float]], anchor: int | None = None) -> Ratings:
    """Elo of ``players`` from games ``(first, second, score of first)`` by maximum
    likelihood of the Bradley–Terry model, draws counting half a win and half a
    loss (Ordo's and BayesElo's model, without a first-move advantage): Newton's
    method on the log-likelihood, which is concave, with step halving.

    Ratings are anchored at mean 0, or at 0 for player ``anchor``.  Margins are
    1.96 standard errors from the observed information (the inverse of the
    log-likelihood's negated Hessian, taken in the anchored coordinates).  When
    the estimate does not exist (``estimable``: someone won or lost every game),
    each player gets ``PRIOR_DRAWS`` virtual draws against a virtual pool player
    fixed at the mean, as BayesElo's prior does; ``prior`` says so.  A player
    without games is rated 0 with margin 0 and a covariance of 0 with everyone.

    An ``anchor`` without games anchors nothing: no game relates it to the others.
    The ratings are then anchored at the mean, as without one, and ``anchor`` in the
    result is None; the anchor is rated as any player without games.  (Anchored at
    it, they were anchored at the first player who played, rated 0 ± 0 as if it were
    the anchor: issue #49.)"""
    pairs = tally(games)
    playing = sorted({p for pair in pairs for p in pair})
    if anchor not in playing:
        anchor = None
    prior = not estimable(len(playing), {(playing.index(i), playing.index(j)): v for (i, j), v in pairs.items()})
    # Free parameters: the players who played, all but the first when there is no
    # virtual player (the likelihood only sees differences); the virtual one is 0.
    free = playing if prior else playing[1:]
    index = {p: k for k, p in enumerate(free)}
    r = [0.0] * players

    def gradient_and_information() -> tuple[list[float], list[list[float]], float]:
        m = len(free)
        grad, info, loglik = [0.0] * m, [[0.0] * m for _ in range(m)], 0.0
        terms = [(i, j, s, n, r[i] - r[j]) for (i, j), (s, n) in pairs.items()]
        if prior:
            terms += [(i, -1, PRIOR_DRAWS / 2, PRIOR_DRAWS, r[i]) for i in playing]
        for i, j, s, n, x in terms:
            p = _p(x)
            loglik += s * math.log(max(p, 1e-300)) + (n - s) * math.log(max(1 - p, 1e-300))
            g, w = s - n * p, n * p * (1 - p)
            for k, sign in ((index.get(i), 1.0), (index.get(j), -1.0)):
                if k is not None:
                    grad[k] += sign * g
                    info[k][k] += w
            a, b = index.get(i), index.get(j)
            if a is not None and b is not None:
                info[a][b] -= w
                info[b][a] -= w
        return grad, info, loglik

    for _ in range(100):
        grad, info, loglik = gradient_and_information() if free else ([], [], 0.0)
        if not free or max(abs(g) for g in grad) < 1e-10:
            break
        step = _solve(info, grad)
        before, scale = r[:], 1.0
        while True:  # Newton's step, halved until the likelihood does not fall
            for p, k in index.items():
                r[p] = before[p] + scale * step[k]
            if gradient_and_information()[2] >= loglik - 1e-12 or scale < 1e-6:
                break
            scale /= 2
    # Covariance of the free parameters (the reference fixed at 0), then of the
    # anchored ratings: a linear map of the differences.
    _, info, _ = gradient_and_information() if free else ([], [], 0.0)
    reduced = _inverse(info) if free else []
    full = [[0.0] * players for _ in range(players)]
    for p, k in index.items():
        for q, l in index.items():
            full[p][q] = reduced[k][l] * UNIT**2
    # anchored = M · r with M = I − 1·eᵀ (e: the weights of the anchor: the mean
    # of the players who played, or the anchor alone).
    weights = [0.0] * players
    if anchor is not None:
        weights[anchor] = 1.0
    else:
        for p in playing:
            weights[p] = 1 / len(playing)
    shift = sum(w * x for w, x in zip(weights, r, strict=True))
    elo_ = [(x - shift) * UNIT if p in playing or p == anchor else 0.0 for p, x in enumerate(r)]
    cw = [sum(full[p][q] * weights[q] for q in range(players)) for p in range(players)]
    wcw = sum(weights[p] * cw[p] for p in range(players))
    played = set(playing) | ({anchor} if anchor is not None else set())
    cov = tuple(
        tuple((full[p][q] - cw[p] - cw[q] + wcw) if p in played and q in played else 0.0 for q in range(players))
        for p in range(players)
    )
    margin = tuple(Z95 * math.sqrt(max(0.0, cov[p][p])) for p in range(players))
    return Ratings(tuple(elo_), margin, cov, prior, anchor)
