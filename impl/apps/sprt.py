"""The sequential probability ratio test (SPRT) of "is player 1 stronger than
player 2?", as engine testers run it: play until the log-likelihood ratio (LLR)
of H1 (elo = elo1) over H0 (elo = elo0) leaves ``(lower, upper)``.

Bounds are Wald's: lower = ln(β / (1 − α)), upper = ln((1 − β) / α) (±2.944 for
α = β = 0.05).  The LLR is the generalised SPRT's normal approximation of
Michel Van den Bergh, "A practical introduction to the SPRT" and fishtest's
``stats/LLRcalc.py`` (``LLR_logistic``), which cutechess-cli's ``Sprt`` also
uses: with per-unit scores x, their mean s and variance var = mean(x²) − s², and
s_i = 1 / (1 + 10^(−elo_i / 400)) the logistic expected score of elo_i,

    LLR = N · (s1 − s0) · (2s − s0 − s1) / (2 · var)

over N units.  Two models, by what a unit is:

* trinomial: a unit is a game, x ∈ {0, ½, 1} (W/D/L counts);
* pentanomial: a unit is an opening pair (the same opening played twice, colours
  reversed), x ∈ {0, ¼, ½, ¾, 1} (the pair's mean score): it removes the
  opening's bias from the variance (fishtest's default).

An empty outcome class counts half a unit in the mean and variance (the
Haldane–Anscombe correction), so that a one-sided result (every game won) has a
positive variance and can decide.  fishtest's ``regularize`` uses 0.001 instead,
harmless in its batches of thousands of games but here, game by game, it would
accept H1 after a single won game (LLR 48 for elo0 = 0, elo1 = 100); with ½ it
takes six (the exact likelihood ratio, N ln(s1/s0), would take twelve).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from enum import StrEnum

EMPTY = 0.5
"""The count an empty outcome class stands for."""


class Model(StrEnum):
    TRINOMIAL = "trinomial"
    PENTANOMIAL = "pentanomial"


class SprtResult(StrEnum):
    H0 = "H0"
    H1 = "H1"
    CONTINUE = "continue"
    INCONCLUSIVE = "inconclusive"


@dataclass(frozen=True)
class Hypotheses:
    """An SPRT's parameters: H0 elo = elo0, H1 elo = elo1, error rates α and β."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    @property
    def lower(self) -> float:
        return math.log(self.beta / (1 - self.alpha))

    @property
    def upper(self) -> float:
        return math.log((1 - self.beta) / self.alpha)


@dataclass(frozen=True)
class Status:
    """Where a test stands: its LLR, bounds, model and verdict."""

    hypotheses: Hypotheses
    llr: float
    model: Model
    verdict: SprtResult

    def line(self) -> str:
        """The progress line's summary, cutechess-style."""
        h = self.hypotheses
        return f"SPRT: llr {self.llr:.3g} ({h.lower:.3f}, {h.upper:.3f}) [{h.elo0:g}, {h.elo1:g}]: {self.verdict}"

    def as_json(self) -> dict[str, object]:
        """``{elo0, elo1, alpha, beta, llr, lower, upper, model, result}``: the
        hypotheses' fields, then where the test stands."""
        h = self.hypotheses
        bounds = {"llr": self.llr, "lower": h.lower, "upper": h.upper}
        return {**asdict(h), **bounds, "model": str(self.model), "result": str(self.verdict)}


def logistic(elo: float) -> float:
    """The expected score of an Elo difference, 1 / (1 + 10^(−elo / 400)), computed
    without overflow for any finite ``elo`` (``10 ** 500`` would raise): the power
    taken is never positive."""
    x = elo * math.log(10) / 400
    if x >= 0:
        return 1 / (1 + math.exp(-x))
    e = math.exp(x)  # underflows to 0 for a hopeless player, never overflows
    return e / (1 + e)


def llr(elo0: float, elo1: float, counts: Sequence[float], values: Sequence[float]) -> float:
    """The normal-approximation LLR of ``counts[i]`` units of score ``values[i]``
    (fishtest's ``LLR_logistic``); 0 with no units."""
    regular = [c if c > 0 else EMPTY for c in counts]
    n = sum(regular)
    if sum(counts) == 0:
        return 0.0
    s = sum(c * x for c, x in zip(regular, values, strict=True)) / n
    var = sum(c * (x - s) ** 2 for c, x in zip(regular, values, strict=True)) / n
    s0, s1 = logistic(elo0), logistic(elo1)
    return sum(counts) * (s1 - s0) * (2 * s - s0 - s1) / (2 * var)


def llr_trinomial(elo0: float, elo1: float, wins: int, draws: int, losses: int) -> float:
    """The LLR of a W/D/L record, a unit per game."""
    return llr(elo0, elo1, (losses, draws, wins), (0.0, 0.5, 1.0))


def pentanomial(pairs: Sequence[tuple[float, float]]) -> tuple[int, int, int, int, int]:
    """Counts of pair scores 0, ¼, ½, ¾, 1 of game pairs (each game's score for the
    tested player: 1, ½ or 0)."""
    counts = [0] * 5
    for a, b in pairs:
        counts[round(2 * (a + b))] += 1
    return counts[0], counts[1], counts[2], counts[3], counts[4]


def llr_pentanomial(elo0: float, elo1: float, pairs: Sequence[tuple[float, float]]) -> float:
    """The LLR of opening pairs (two games of one opening, colours reversed), a
    unit per pair."""
    return llr(elo0, elo1, pentanomial(pairs), (0.0, 0.25, 0.5, 0.75, 1.0))


def decide(hypotheses: Hypotheses, value: float, model: Model, final: bool = False) -> Status:
    """The verdict on an LLR: H0 at or below the lower bound, H1 at or above the
    upper, else continue (or inconclusive if no more games will come)."""
    if value <= hypotheses.lower:
        verdict = SprtResult.H0
    elif value >= hypotheses.upper:
        verdict = SprtResult.H1
    else:
        verdict = SprtResult.INCONCLUSIVE if final else SprtResult.CONTINUE
    return Status(hypotheses, value, model, verdict)


def of_games(hypotheses: Hypotheses, scores: Sequence[float], final: bool = False) -> Status:
    """The test on games, the tested player's score in each (trinomial)."""
    wins, draws = scores.count(1.0), scores.count(0.5)
    value = llr_trinomial(hypotheses.elo0, hypotheses.elo1, wins, draws, len(scores) - wins - draws)
    return decide(hypotheses, value, Model.TRINOMIAL, final)


def of_pairs(hypotheses: Hypotheses, pairs: Sequence[tuple[float, float]], final: bool = False) -> Status:
    """The test on opening pairs (pentanomial)."""
    value = llr_pentanomial(hypotheses.elo0, hypotheses.elo1, pairs)
    return decide(hypotheses, value, Model.PENTANOMIAL, final)


KEYS = ("elo0", "elo1", "alpha", "beta")
MAX_ELO = 2000.0
"""elo0 and elo1 lie within ±MAX_ELO: beyond it every logistic score is 0 or 1 to
within a few parts in 10⁶, and no test between two players means anything."""
MIN_ERROR = 1e-12
"""alpha and beta lie in [MIN_ERROR, 0.5): smaller would need more games than any
run has and only pushes the bounds out; 0.5 or more would accept on a coin toss."""
BOUNDS = f"elo0 < elo1 within ±{MAX_ELO:g}; {MIN_ERROR:g} <= alpha, beta < 0.5"
"""The accepted values in words, for ``--sprt``'s help and its errors."""


def parse(words: Sequence[str]) -> Hypotheses:
    """``elo0=E0 elo1=E1 [alpha=A] [beta=B]`` (the ``--sprt`` option); ValueError
    saying what is wrong."""
    given: dict[str, float] = {}
    for word in words:
        key, sep, text = word.partition("=")
        if not sep or key not in KEYS:
            raise ValueError(f"{word!r} is not one of {', '.join(k + '=X' for k in KEYS)}")
        if key in given:
            raise ValueError(f"{key} given twice")
        try:
            given[key] = float(text)
        except ValueError:
            raise ValueError(f"{key}: {text!r} is not a number") from None
        if not math.isfinite(given[key]):
            raise ValueError(f"{key}: {text!r} is not a finite number")
    for key in ("elo0", "elo1"):
        if key not in given:
            raise ValueError(f"{key}=X is required")
    h = Hypotheses(**given)
    if not -MAX_ELO <= h.elo0 < h.elo1 <= MAX_ELO:
        raise ValueError(f"elo0 must be less than elo1, both within ±{MAX_ELO:g}")
    if not (MIN_ERROR <= h.alpha < 0.5 and MIN_ERROR <= h.beta < 0.5):
        raise ValueError(f"alpha and beta must be at least {MIN_ERROR:g} and below 0.5")
    return h
