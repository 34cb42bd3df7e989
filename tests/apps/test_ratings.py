"""Bradley–Terry Elo by maximum likelihood (impl/apps/ratings.py ``bradley_terry``):
symmetric results, small cases by hand, agreement with the two-player formula,
four players, anchoring, and BayesElo's prior when someone won every game."""

from __future__ import annotations

import math

from impl.apps.ratings import UNIT, Z95, bradley_terry, elo, estimable, tally


def test_symmetric_results_are_zero_with_a_margin() -> None:
    games = [(0, 1, 1.0), (1, 0, 1.0), (0, 1, 0.5), (1, 0, 0.5)]
    r = bradley_terry(2, games)
    assert r.elo == (0.0, 0.0) and not r.prior
    # By hand: 4 games at p = ½, information 4 · ¼ = 1 on the difference; each
    # player (mean 0) is half of it: SE ½ in log-odds.
    assert math.isclose(r.margin[0], Z95 * UNIT / 2) and r.margin[0] == r.margin[1]


def test_two_players_agree_with_the_score_formula() -> None:
    """The difference is exactly cutechess-cli's ``elo_of(score)``; its margin
    (observed information, delta method) is within 2 % of cutechess's (the score's
    interval mapped through the logistic) over a hundred games without draws."""
    for wins, draws, losses in ((60, 0, 40), (6, 0, 4), (30, 20, 10), (1, 8, 1)):
        games = [(0, 1, 1.0)] * wins + [(1, 0, 0.5)] * draws + [(1, 0, 1.0)] * losses
        r = bradley_terry(2, games)
        difference, margin = r.difference(0, 1)
        assert round(difference, 6) == round(elo(wins, draws, losses).difference, 6)
        assert math.isclose(margin, r.margin[0] + r.margin[1])
    by_formula = elo(60, 0, 40).margin
    assert by_formula is not None and math.isclose(
        bradley_terry(2, [(0, 1, 1.0)] * 60 + [(0, 1, 0.0)] * 40).difference(0, 1)[1], by_formula, rel_tol=0.02
    )


def test_a_small_case_by_hand() -> None:
    """6 won, 4 lost: r = 400 log10(1.5) ≈ 70.4; the difference's SE is
    1 / √(10 · 0.6 · 0.4) log-odds units."""
    r = bradley_terry(2, [(0, 1, 1.0)] * 6 + [(0, 1, 0.0)] * 4)
    difference, margin = r.difference(0, 1)
    assert math.isclose(difference, 400 * math.log10(1.5))
    assert math.isclose(margin, Z95 * UNIT / math.sqrt(2.4))
    assert math.isclose(r.elo[0], -r.elo[1])


def test_four_players_in_a_cycle_with_draws_are_equal() -> None:
    """A beats B beats C beats D beats A, the diagonals drawn: all 0; anchored at A,
    A's margin is 0 and the others' the same."""
    games = [(0, 1, 1.0), (1, 2, 1.0), (2, 3, 1.0), (3, 0, 1.0), (0, 2, 0.5), (1, 3, 0.5)] * 3
    centred = bradley_terry(4, games)
    assert all(abs(x) < 1e-9 for x in centred.elo) and len(set(round(m, 9) for m in centred.margin)) == 1
    anchored = bradley_terry(4, games, anchor=0)
    assert anchored.margin[0] == 0 and anchored.margin[1] > centred.margin[1]
    # A difference does not depend on the anchor.
    assert math.isclose(centred.difference(1, 2)[1], anchored.difference(1, 2)[1])


def test_four_players_are_ordered_by_strength_and_consistent() -> None:
    """A transitive round robin (0 > 1 > 2 > 3, with upsets): ratings in order, mean 0,
    and at the maximum the expected score of each player equals its actual score."""
    games = []
    for i in range(4):
        for j in range(i + 1, 4):
            wins = 6 + 2 * (j - i)  # of 12: the stronger wins more the farther apart
            games += [(i, j, 1.0)] * wins + [(j, i, 1.0)] * (12 - wins - 2) + [(i, j, 0.5)] * 2
    r = bradley_terry(4, games)
    assert list(r.elo) == sorted(r.elo, reverse=True) and abs(sum(r.elo)) < 1e-6 and not r.prior
    for i in range(4):
        actual = sum(s if a == i else 1 - s for a, b, s in games if i in (a, b))
        expected = sum(
            1 / (1 + 10 ** ((r.elo[b if a == i else a] - r.elo[i]) / 400)) for a, b, _ in games if i in (a, b)
        )
        assert math.isclose(actual, expected, rel_tol=1e-8)


def test_all_won_needs_the_prior() -> None:
    """5 of 5 won: no maximum; one virtual draw each against the pool gives a finite
    rating, positive for the winner, with a finite margin."""
    assert not estimable(2, tally([(0, 1, 1.0)] * 5)) and estimable(2, tally([(0, 1, 1.0), (0, 1, 0.5)]))
    r = bradley_terry(2, [(0, 1, 1.0)] * 5)
    assert r.prior and r.elo[0] > 100 and math.isclose(r.elo[0], -r.elo[1]) and math.isfinite(r.margin[0])
    # A player who lost every game among others who did not.
    games = [(0, 1, 1.0), (1, 0, 1.0), (0, 2, 1.0), (1, 2, 1.0)]
    three = bradley_terry(3, games)
    assert three.prior and three.elo[2] < min(three.elo[:2]) and all(math.isfinite(m) for m in three.margin)


def test_a_player_without_games_is_zero() -> None:
    r = bradley_terry(3, [(0, 1, 1.0), (1, 0, 1.0)])
    assert r.elo[2] == 0 and r.margin[2] == 0
    assert bradley_terry(2, []).elo == (0.0, 0.0)
