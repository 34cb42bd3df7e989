"""Awari's rule sets (spec/awari_rules.py): every dimension and every decision on
pinned states, the fast engine against the spec under every combination of the
three dimensions, and the paper's rule set unchanged."""

from __future__ import annotations

import random
from typing import Any, Final

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from impl.engines.awari import INITIAL, ImplAwari, RulesAwari, engine_for, perft
from impl.engines.registry import get_engine
from impl.engines.spec_engine import SpecAwari
from spec import awari as A
from spec import awari_rules as AR
from spec import result as R
from tests.support.awari_states import game
from tests.support.differential import check_observers, check_step
from tests.support.strategies import awari_arbitrary, awari_played

N, S = A.PLAYER.north, A.PLAYER.south
GS = AR.GrandSlamRule
NAMED = tuple(AR.RULE_SETS.values())


def with_(gs: AR.GrandSlamRule = GS.FORFEIT, rep: str = "own-row", stuck: str = "opponent-takes") -> AR.AwariRules:
    """The rule set with these dimensions (one of ALL_COMBINATIONS)."""
    rules = AR.AwariRules(f"{gs.value}/{rep}/{stuck}", gs, AR.RepetitionRule(rep), AR.CannotMoveRule(stuck))
    assert rules in AR.ALL_COMBINATIONS
    return rules


def both(rules: AR.AwariRules, g: A.AwariGame, pit: str) -> tuple[R.win[A.PLAYER] | R.Constant, A.AwariGame]:
    """The spec's step under ``rules``, after checking the fast engine agrees."""
    expected = AR.referee(rules, g, A.PIT[pit])
    engine = engine_for(rules)
    result, after = engine.apply(engine.from_spec(g), A.PIT[pit])
    assert (result, engine.to_spec(after)) == expected
    return expected


# ─── The named rule sets ──────────────────────────────────────────────────────


def test_named_rule_sets() -> None:
    assert AR.rules_named("paper") is AR.PAPER
    assert [r.name for r in NAMED] == ["paper", "olympiad-1990", "olympiad-1994", "abapa"]
    assert (AR.OLYMPIAD_1990.grand_slam, AR.OLYMPIAD_1990.repetition) == (GS.FORBIDDEN, AR.RepetitionRule.UNCOUNTED)
    assert AR.OLYMPIAD_1994.cannot_move is AR.CannotMoveRule.PLAYER_LOSES
    assert AR.ABAPA.grand_slam is GS.NO_CAPTURE
    assert len(set(AR.ALL_COMBINATIONS)) == 30
    with pytest.raises(AR.RulesError, match=r"unknown Awari rules 'olympiad': .* \(paper, olympiad-1990, "):
        AR.rules_named("olympiad")
    with pytest.raises(ValueError, match="gothello has only the paper's"):
        get_engine("gothello", "impl", "abapa")


def test_paper_rules_are_the_paper_engines() -> None:
    """The default rule set is the paper's AwariRef and the unchanged fast engine."""
    assert type(engine_for(AR.PAPER)) is ImplAwari
    default: object = get_engine("awari")
    assert type(default) is ImplAwari and get_engine("awari").rule_set == AR.PAPER.name
    assert SpecAwari().rules is AR.PAPER


# ─── Grand slam (a)–(e) ───────────────────────────────────────────────────────

SLAM = game({"a": 1, "b": 1, "A": 3, "F": 2}, 20, 21, S)
"""F (2 stones) sows a and b to 2 each: the harvest takes north's whole row.  A feeds."""


def test_grand_slam_e_forfeits() -> None:
    result, after = both(with_(GS.FORFEIT), SLAM, "F")
    assert result == R.win(S) and after.score == (23, 25) and after.board == A.EMPTY_BOARD


def test_grand_slam_a_forbidden_while_another_move_feeds() -> None:
    rules = with_(GS.FORBIDDEN)
    assert both(rules, SLAM, "F") == (R.illegal_move, SLAM)
    assert both(rules, SLAM, "A")[0] == R.not_done
    assert AR.legal_moves(rules, SLAM) == (A.PIT.A,)


FORCED = game({"a": 1, "b": 1, "E": 3, "F": 2}, 24, 17, S)
"""Every sowing of south's is a grand slam; north leads by 7."""


@pytest.mark.parametrize(
    ("stuck", "expected"), [("opponent-takes", R.draw), ("player-loses", R.win(S))], ids=["takes", "loses"]
)
def test_grand_slam_a_forced_then_opponent_cannot_move(stuck: str, expected: Any) -> None:
    """V3: the forced slam captures all four and passes the turn; north cannot move.
    Taking the stones left (E's 3) makes 24–24; losing is losing."""
    rules = with_(GS.FORBIDDEN, stuck=stuck)
    assert AR.legal_moves(rules, FORCED) == (A.PIT.E, A.PIT.F)
    result, after = both(rules, FORCED, "F")
    assert result == expected
    assert after.to_move is N
    if stuck == "opponent-takes":
        assert after.score == (24, 24)
    else:
        assert after.score == (24, 21) and after.board[A.PIT.E] == 3


def test_grand_slam_a_forced_differs_from_e() -> None:
    """Under (e) the same slam forfeits south's E to north: north wins 27–21."""
    assert both(with_(GS.FORFEIT), FORCED, "F")[0] == R.win(N)


def test_grand_slam_b_sows_and_captures_nothing() -> None:
    result, after = both(with_(GS.NO_CAPTURE), SLAM, "F")
    assert result == R.not_done and after.score == (20, 21)
    assert (after.board[A.PIT.a], after.board[A.PIT.b], after.to_move) == (2, 2, N)


def test_grand_slam_c_spares_the_last_pit_sown() -> None:
    """V1: the last pit sown is b; a is captured."""
    result, after = both(with_(GS.SPARE_LAST), SLAM, "F")
    assert result == R.not_done and after.score == (20, 23)
    assert (after.board[A.PIT.a], after.board[A.PIT.b]) == (0, 2)


def test_grand_slam_d_captures_only_the_last_pit_sown() -> None:
    result, after = both(with_(GS.FIRST_ONLY), SLAM, "F")
    assert result == R.not_done and after.score == (20, 23)
    assert (after.board[A.PIT.a], after.board[A.PIT.b]) == (2, 0)


def test_grand_slam_d_single_pit_leaves_opponent_unable_to_move() -> None:
    """A harvest of one pit that is the whole row: (d) takes it, north cannot move."""
    g = game({"a": 1, "F": 1}, 23, 23, S)
    result, after = both(with_(GS.FIRST_ONLY), g, "F")
    assert after.score == (23, 25) and result == R.win(S)


STARVED_LAP = game({"A": 1, "F": 17}, 15, 15, S)
"""North starves; F's 17 stones lap the board and leave 2 in every north pit."""


def test_lap_into_a_starved_row_is_a_grand_slam_under_b() -> None:
    """V2: under (b) the harvest that would re-empty the row is a grand slam: sown,
    nothing captured, north fed.  Under (a) and (e) it fails to feed, and as no
    sowing feeds the game is over (StarvedOut / the paper's CannotFeed)."""
    result, after = both(with_(GS.NO_CAPTURE), STARVED_LAP, "F")
    assert result == R.not_done and after.score == (15, 15) and sum(after.board[:6]) == 12
    assert both(with_(GS.NO_CAPTURE), STARVED_LAP, "A") == (R.illegal_move, STARVED_LAP)
    for gs in (GS.FORBIDDEN, GS.FORFEIT):
        assert AR.game_over(with_(gs), STARVED_LAP)
    assert A.referee(STARVED_LAP, A.PIT.F)[0] == R.win(S)


# ─── Repetition ───────────────────────────────────────────────────────────────

BEFORE = game({"a": 1, "b": 2, "A": 9, "C": 1}, 20, 15, S)
AFTER_C = A.AwariBoard((*BEFORE.board[:8], 0, 1, *BEFORE.board[10:]), (20, 15), N)
REPEATING = A.game_of(A.θAwariBoard(BEFORE), frozenset({AFTER_C}))
"""South's C (1 stone, to D) leads to a position already seen."""


@pytest.mark.parametrize(
    ("rep", "expected", "score"),
    [("own-row", R.win(S), (23, 25)), ("uncounted", R.win(N), (20, 15)), ("draw", R.draw, (20, 15))],
)
def test_repetition(rep: str, expected: Any, score: tuple[int, int]) -> None:
    """Own row: south claims 10 of the 13 left; uncounted: north's 20–15; draw: a draw
    (V5: the board left as it is unless claimed)."""
    assert sum(AFTER_C.board) + sum(AFTER_C.score) == 48
    result, after = both(with_(rep=rep), REPEATING, "C")
    assert (result, after.score) == (expected, score)
    assert (after.board == A.EMPTY_BOARD) == (rep == "own-row")
    assert AR.game_over(with_(rep=rep), after)
    assert both(with_(rep=rep), after, "a")[0] == expected  # and it stays over


# ─── A player who cannot move ─────────────────────────────────────────────────


@pytest.mark.parametrize(
    ("stuck", "expected"), [("opponent-takes", R.draw), ("player-loses", R.win(S))], ids=["takes", "loses"]
)
def test_empty_row(stuck: str, expected: Any) -> None:
    """North to move, its row empty, leading 24–19: taking the 5 left draws."""
    g = game({"A": 5}, 24, 19, N)
    result, after = both(with_(stuck=stuck), g, "a")
    assert result == expected
    assert (after.board == A.EMPTY_BOARD) == (stuck == "opponent-takes")


@pytest.mark.parametrize(
    ("stuck", "expected"), [("opponent-takes", R.draw), ("player-loses", R.win(S))], ids=["takes", "loses"]
)
def test_starved_out(stuck: str, expected: Any) -> None:
    """V4: north starves and south's A cannot reach it: north is the one who cannot move."""
    g = game({"A": 1}, 24, 23, S)
    assert both(with_(stuck=stuck), g, "A")[0] == expected


def test_empty_row_before_repetition() -> None:
    """V6: a repeated position with an empty row ends as an empty row."""
    g = game({"A": 5}, 24, 19, N)
    seen = A.game_of(A.θAwariBoard(g), frozenset({A.θAwariBoard(g)}))
    assert both(with_(rep="draw", stuck="player-loses"), seen, "a")[0] == R.win(S)


# ─── The fast engine against the spec, every combination ──────────────────────


FEW: Final = settings(max_examples=max(10, settings().max_examples // 4))
"""A quarter of the profile's examples: the spec steps twelve actions per example;
the deep test below runs the full profile for each combination."""


@FEW
@given(rules=st.sampled_from(AR.ALL_COMBINATIONS), g=st.one_of(awari_arbitrary(), awari_played()))
def test_every_combination_every_action(rules: AR.AwariRules, g: A.AwariGame) -> None:
    spec, engine = SpecAwari(rules), RulesAwari(rules)
    for action in A.PIT:
        check_step(spec, engine, g, action)
    check_observers(spec, engine, g)


@pytest.mark.deep
@pytest.mark.parametrize("rules", AR.ALL_COMBINATIONS, ids=lambda r: r.name)
@given(g=st.one_of(awari_arbitrary(), awari_played()))
def test_each_combination_every_action(rules: AR.AwariRules, g: A.AwariGame) -> None:
    spec, engine = SpecAwari(rules), RulesAwari(rules)
    for action in A.PIT:
        check_step(spec, engine, g, action)
    check_observers(spec, engine, g)


@FEW
@given(g=st.one_of(awari_arbitrary(), awari_played()))
def test_general_form_with_the_papers_rules_is_the_papers_awariref(g: A.AwariGame) -> None:
    """The paper's AwariRef is the instance PAPER of AwariRefUnder: same results and after-states."""
    for action in A.PIT:
        assert AR.general_referee(AR.PAPER, g, action) == A.referee(g, action)


def _lockstep(rules: AR.AwariRules, seed: int, max_plies: int = 10_000) -> int:
    """One random game in lock-step, spec against the fast engine (to its end or
    ``max_plies``); its length."""
    rng = random.Random(seed)
    spec, engine = SpecAwari(rules), RulesAwari(rules)
    g, state, plies = spec.initial(), engine.initial(), 0
    while not spec.is_over(g) and plies < max_plies:
        legal = engine.legal_moves(state)
        if plies % 7 == 0:  # the spec's legal_moves costs 12 steps: sometimes
            assert legal == spec.legal_moves(g)
        action = rng.choice(legal) if rng.random() < 0.9 else A.PIT(rng.randrange(12))
        expected, g = spec.apply(g, action)
        result, state = engine.apply(state, action)
        assert result == expected and engine.to_spec(state) == g
        plies += 1
    assert engine.is_over(state) == spec.is_over(g)
    return plies


@pytest.mark.parametrize("rules", NAMED, ids=lambda r: r.name)
def test_named_rule_sets_lockstep(rules: AR.AwariRules) -> None:
    """40 plies of a random game (whole games: the deep test below)."""
    assert _lockstep(rules, 1, 40) == 40


@pytest.mark.deep
@pytest.mark.parametrize("rules", NAMED, ids=lambda r: r.name)
@pytest.mark.parametrize("seed", range(2, 12))
def test_named_rule_sets_whole_games_lockstep(rules: AR.AwariRules, seed: int) -> None:
    assert _lockstep(rules, seed) > 0


def test_rules_engine_with_the_papers_rules_is_the_fast_engine() -> None:
    """RulesAwari(PAPER) and the paper's ImplAwari agree on perft to depth 7."""
    general = RulesAwari(AR.PAPER)
    assert [general.perft(INITIAL, d) for d in range(8)] == [perft(INITIAL, d) for d in range(8)]
