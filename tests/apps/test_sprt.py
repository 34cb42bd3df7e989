"""The SPRT (impl/apps/sprt.py): Wald's bounds, the normal-approximation LLR of the
trinomial and pentanomial models against an independent exact computation (the
generalised likelihood ratio by maximum likelihood, fishtest's ``LLR`` by its
secular equation, solved here by bisection), and ``--sprt``'s parsing."""

from __future__ import annotations

import json
import math

import pytest

from impl.apps import sprt
from impl.apps.sprt import Hypotheses, Model, SprtResult


def test_bounds_are_walds() -> None:
    h = Hypotheses(0, 5)
    assert math.isclose(h.upper, math.log(19)) and math.isclose(h.lower, -math.log(19))
    assert f"{h.upper:.3f}" == "2.944"
    skewed = Hypotheses(0, 5, alpha=0.01, beta=0.1)
    assert math.isclose(skewed.lower, math.log(0.1 / 0.99)) and math.isclose(skewed.upper, math.log(0.9 / 0.01))


def _exact_llr(elo0: float, elo1: float, counts: list[int], values: list[float]) -> float:
    """N · Σ p̂ log(p1/p0), p_k the distribution nearest p̂ (maximum likelihood)
    whose mean score is s_k: p_i = p̂_i / (1 + λ (x_i − s_k)), λ solving
    Σ p̂_i (x_i − s_k) / (1 + λ (x_i − s_k)) = 0."""
    n = sum(counts)
    p = [c / n for c in counts]

    def mle(s: float) -> list[float]:
        d = [x - s for x in values]
        low = -1 / max(d) + 1e-12
        high = -1 / min(d) - 1e-12
        for _ in range(200):  # the sum decreases in λ: bisect for its zero
            mid = (low + high) / 2
            if sum(pi * di / (1 + mid * di) for pi, di in zip(p, d, strict=True)) > 0:
                low = mid
            else:
                high = mid
        return [pi / (1 + low * di) for pi, di in zip(p, d, strict=True)]

    p0, p1 = mle(sprt.logistic(elo0)), mle(sprt.logistic(elo1))
    return n * sum(pi * math.log(a / b) for pi, a, b in zip(p, p1, p0, strict=True) if pi > 0)


@pytest.mark.parametrize(
    ("elo0", "elo1", "wins", "draws", "losses", "tolerance"),
    [
        (0, 5, 1200, 1600, 1100, 0.002),
        (0, 10, 300, 500, 250, 0.005),
        (-5, 5, 900, 200, 1000, 0.005),
        # A wide hypothesis gap over few games: the approximation is off by 3 % here.
        (0, 20, 60, 30, 40, 0.04),
    ],
)
def test_the_trinomial_llr_agrees_with_the_exact_likelihood_ratio(
    elo0: float, elo1: float, wins: int, draws: int, losses: int, tolerance: float
) -> None:
    approx = sprt.llr_trinomial(elo0, elo1, wins, draws, losses)
    exact = _exact_llr(elo0, elo1, [losses, draws, wins], [0, 0.5, 1])
    assert math.isclose(approx, exact, rel_tol=tolerance), (approx, exact)


def test_the_trinomial_llr_by_hand() -> None:
    """W 60, D 30, L 40 (N 130): s = 75/130, var = (60 + 7.5)/130 − s², and the
    formula by hand for elo0 = 0, elo1 = 20."""
    s, var = 75 / 130, 67.5 / 130 - (75 / 130) ** 2
    s0, s1 = 0.5, 1 / (1 + 10 ** (-20 / 400))
    expected = 130 * (s1 - s0) * (2 * s - s0 - s1) / (2 * var)
    assert math.isclose(sprt.llr_trinomial(0, 20, 60, 30, 40), expected)
    assert 0.5 < expected < 3  # a plausible size: 58% over 130 games against 0 vs 20 Elo


def test_the_pentanomial_llr_agrees_with_the_exact_likelihood_ratio() -> None:
    # Pair scores 0, ¼, ½, ¾, 1: counts as fishtest lists them (LL, LD+DL, LW+DD+WL, DW+WD, WW).
    pairs = [(0.0, 0.0)] * 40 + [(0.5, 0.0)] * 150 + [(1.0, 0.0)] * 380 + [(1.0, 0.5)] * 170 + [(1.0, 1.0)] * 60
    assert sprt.pentanomial(pairs) == (40, 150, 380, 170, 60)
    approx = sprt.llr_pentanomial(0, 10, pairs)
    exact = _exact_llr(0, 10, [40, 150, 380, 170, 60], [0, 0.25, 0.5, 0.75, 1])
    assert math.isclose(approx, exact, rel_tol=0.005), (approx, exact)
    status = sprt.of_pairs(Hypotheses(0, 10), pairs)
    assert status.model is Model.PENTANOMIAL and status.llr == approx


def test_pairs_see_less_noise_than_their_games() -> None:
    """Opening bias (each opening won by the side that has it) is noise to the
    trinomial model and cancels in the pairs: the same games, a larger LLR."""
    pairs = [(1.0, 0.0)] * 40 + [(1.0, 0.5)] * 20
    games = [score for pair in pairs for score in pair]
    assert sprt.of_pairs(Hypotheses(0, 50), pairs).llr > sprt.of_games(Hypotheses(0, 50), games).llr > 0


def test_verdicts() -> None:
    h = Hypotheses(0, 100)
    assert sprt.of_games(h, []).verdict is SprtResult.CONTINUE and sprt.of_games(h, []).llr == 0
    assert sprt.of_games(h, [], final=True).verdict is SprtResult.INCONCLUSIVE
    # Every game won: the empty classes count half a game, so it decides, but
    # not at once (fishtest's 0.001 would accept H1 after one game).
    assert all(sprt.of_games(h, [1.0] * n).verdict is SprtResult.CONTINUE for n in range(1, 6))
    won = sprt.of_games(h, [1.0] * 6)
    assert won.verdict is SprtResult.H1 and won.llr >= h.upper
    lost = sprt.of_games(h, [0.0, 0.5] * 20)
    assert lost.verdict is SprtResult.H0 and lost.llr <= h.lower
    assert sprt.of_games(h, [1.0, 0.0]).verdict is SprtResult.CONTINUE
    record = won.as_json()
    assert list(record) == ["elo0", "elo1", "alpha", "beta", "llr", "lower", "upper", "model", "result"]  # JSON's order
    assert [record[k] for k in ("elo0", "elo1", "alpha", "beta", "llr")] == [0, 100, 0.05, 0.05, won.llr]
    assert record["lower"] == h.lower and record["upper"] == h.upper
    assert record["result"] == "H1" and record["model"] == "trinomial"
    assert "(-2.944, 2.944)" in won.line()


def test_parse() -> None:
    assert sprt.parse(["elo0=0", "elo1=5"]) == Hypotheses(0, 5, 0.05, 0.05)
    assert sprt.parse(["elo1=10", "elo0=-2", "alpha=0.01", "beta=0.1"]) == Hypotheses(-2, 10, 0.01, 0.1)
    for words, message in (
        (["elo0=0"], "elo1=X is required"),
        (["elo0=5", "elo1=5"], "less than"),
        (["elo0=0", "elo1=5", "alpha=1.5"], "below 0.5"),
        (["elo0=0", "elo1=x"], "not a number"),
        (["elo0=0", "elo1=nan"], "not a finite"),
        (["elo0=0", "elo1=5", "gamma=1"], "is not one of"),
        (["elo0=0", "elo0=1"], "given twice"),
    ):
        with pytest.raises(ValueError, match=message):
            sprt.parse(words)


def test_the_logistic_and_the_llr_never_overflow() -> None:
    """An attacker's elo0=-200000 raised OverflowError in 10 ** 500 after game 1: the
    bounds now refuse it, and the logistic itself takes any finite Elo."""
    assert sprt.logistic(-1e6) == 0.0 and sprt.logistic(1e6) == 1.0
    assert sprt.logistic(0) == 0.5 and sprt.logistic(400) == pytest.approx(10 / 11)
    extreme = Hypotheses(-sprt.MAX_ELO, sprt.MAX_ELO, sprt.MIN_ERROR, sprt.MIN_ERROR)
    for scores in ([1.0], [0.0], [0.5], [1.0, 0.0, 0.5] * 5):
        status = sprt.of_games(extreme, scores)
        assert all(math.isfinite(x) for x in (status.llr, extreme.lower, extreme.upper))
    json.dumps(status.as_json(), allow_nan=False)


@pytest.mark.parametrize(
    "words",
    [
        ["elo0=-200000", "elo1=0"],
        ["elo0=0", "elo1=2001"],
        ["elo0=0", "elo1=5", "alpha=1e-320"],
        ["elo0=0", "elo1=5", "alpha=0"],
        ["elo0=0", "elo1=5", "beta=0.5"],
    ],
)
def test_parse_bounds_what_it_accepts(words: list[str]) -> None:
    with pytest.raises(ValueError, match=r"within ±2000|at least 1e-12 and below 0\.5"):
        sprt.parse(words)
    assert sprt.BOUNDS == "elo0 < elo1 within ±2000; 1e-12 <= alpha, beta < 0.5"
