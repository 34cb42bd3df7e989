"""Rules that mutants of impl/engines/awari.py survived in the other tests (make mutate,
tests/mutation/results/mutation-report.md names each mutant), each pinned on a few states where the
spec's referee and every fast engine — ImplAwari, and RulesAwari under the paper's
rule set or another — must answer alike."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from impl.engines import perft as P
from impl.engines.awari import RulesAwari
from impl.engines.spec_engine import SpecAwari
from spec import awari as A
from spec import awari_rules as AR
from tests.support.awari_states import game
from tests.support.strategies import impl_engines

N, S = A.PLAYER.north, A.PLAYER.south


def engines(rules: AR.AwariRules) -> list[Any]:
    """The fast engines that play ``rules``: for the paper's, ImplAwari (each build)
    and RulesAwari, which plays the paper's rules too on its own code."""
    ruled = RulesAwari(rules)
    return [*impl_engines("awari"), ruled] if rules == AR.PAPER else [ruled]


def agree(g: A.AwariGame, actions: Sequence[A.PIT] = tuple(A.PIT), rules: AR.AwariRules = AR.PAPER) -> None:
    """Every fast engine for ``rules`` shows ``g`` as the spec does (to_move, is_over,
    legal_moves, counts, render) and takes the spec's step on each of ``actions``
    (tests/support/differential.py's checks, the spec asked once)."""
    spec = SpecAwari(rules)
    seen = (spec.to_move(g), spec.is_over(g), spec.legal_moves(g), spec.counts(g), spec.render(g))
    steps = [spec.apply(g, action) for action in actions]
    for engine in engines(rules):
        state = engine.from_spec(g)
        assert engine.to_spec(state) == g, "from_spec / to_spec round trip"
        shown = (engine.to_move(state), engine.is_over(state), engine.legal_moves(state))
        assert (*shown, engine.counts(state), engine.render(state)) == seen, (engine, g)
        for action, (result, after) in zip(actions, steps, strict=True):
            step = engine.apply(state, action)
            assert (step[0], engine.to_spec(step[1])) == (result, after), (engine, g, action)


# ─── Sow: every count a pit can hold ──────────────────────────────────────────


@pytest.mark.parametrize(("mover", "pit"), [(S, "A"), (N, "f")])
def test_all_48_stones_sown_from_one_pit(mover: A.PLAYER, pit: str) -> None:
    """Sow with all 48 stones in the mover's one pit: four laps of the eleven other
    pits (the origin skipped) and four stones more, so the move is a NormalMove
    (kills the sowing table stopping at 47 stones: ``range(1, 49)`` → ``range(1, 48)``)."""
    agree(game({pit: 48}, 0, 0, mover), [A.PIT[pit]])


# ─── WinMargin: a score of 25 ─────────────────────────────────────────────────


@pytest.mark.parametrize("mover", [S, N])
@pytest.mark.parametrize(("north", "south"), [(25, 0), (0, 25), (25, 10), (10, 25)])
def test_a_score_of_exactly_25_has_ended_the_game(mover: A.PLAYER, north: int, south: int) -> None:
    """WinMargin: a player holding 25 stones, more than half of the 48, has won, whoever
    is to move and whatever the board (kills ``>= 25`` → ``> 25`` for either score)."""
    left = 48 - north - south
    agree(game({"C": left - left // 2, "c": left // 2}, north, south, mover), [A.PIT.C, A.PIT.c])


# ─── The engine interface ─────────────────────────────────────────────────────


@pytest.mark.parametrize(
    "g",
    [A.InitAwari(), game({"A": 1, "F": 1}, 23, 23, S), game({"C": 12, "c": 11}, 25, 0, N)],
    ids=["initial", "starved", "over"],
)
def test_why_illegal_explains_as_the_spec(g: A.AwariGame) -> None:
    """``why_illegal`` says why the referee refuses an action (the game over, the other
    player's pit, an empty pit, a pit that leaves a starved row empty) and answers None
    for a legal one, as the spec engine's does."""
    spec, actions = SpecAwari(), [A.PIT.a, A.PIT.A, A.PIT.B, A.PIT.F]
    reasons = [spec.why_illegal(g, action) for action in actions]
    assert reasons.count(None) == len(set(actions) & set(spec.legal_moves(g)))
    for engine in engines(AR.PAPER):
        assert [engine.why_illegal(engine.from_spec(g), action) for action in actions] == reasons, engine


# ─── Other rule sets (spec/awari_rules.py) ────────────────────────────────────


def with_(
    gs: AR.GrandSlamRule = AR.GrandSlamRule.FORFEIT,
    stuck: AR.CannotMoveRule = AR.CannotMoveRule.OPPONENT_TAKES,
) -> AR.AwariRules:
    """The rule set of ALL_COMBINATIONS with these dimensions and the paper's repetition rule."""
    (rules,) = (
        r
        for r in AR.ALL_COMBINATIONS
        if (r.grand_slam, r.repetition, r.cannot_move) == (gs, AR.RepetitionRule.OWN_ROW, stuck)
    )
    return rules


@pytest.mark.parametrize("rules", AR.RULE_SETS.values(), ids=AR.RULE_SETS.keys())
def test_an_engine_names_its_rule_set(rules: AR.AwariRules) -> None:
    """The fast engine for a rule set, like the spec's, keeps the rule set it plays."""
    engine = RulesAwari(rules)
    assert (engine.rules, SpecAwari(rules).rules) == (rules, rules)


SOWINGS = {
    # South may sow F, whose last stone makes north's only stones 2 (a grand slam), or E, which feeds.
    "slam-or-feed": game({"a": 1, "E": 1, "F": 1}, 22, 23, S),
    # The same for north, whose sowing from f runs on into south's A.
    "slam-or-feed-north": game({"A": 1, "e": 1, "f": 1}, 23, 22, N),
    # South's only move is the grand slam.
    "forced-slam": game({"a": 1, "F": 1}, 23, 23, S),
    # North has no stones: A leaves them none (a failure to feed), F feeds them.
    "starved": game({"A": 1, "F": 1}, 23, 23, S),
    # F sows a and b, captures b's 2 and stops at a's 1.
    "capture-past-pit-0": game({"b": 1, "c": 4, "F": 2}, 20, 21, S),
    # F empties south's row; north can feed them (f), so the game goes on.
    "last-stones-sown": game({"f": 1, "F": 1}, 23, 23, S),
}


@pytest.mark.parametrize("g", SOWINGS.values(), ids=SOWINGS.keys())
@pytest.mark.parametrize("gs", AR.GrandSlamRule, ids=lambda gs: gs.value)
def test_sowing_and_capture_under_each_grand_slam_rule(gs: AR.GrandSlamRule, g: A.AwariGame) -> None:
    """IllegalMoveUnder: a sowing that leaves a starved opponent no stones is refused
    under every rule; a grand slam is refused under (a) while another sowing feeds and
    is legal under (b)–(e), where it captures as the rule says (CaptureSlamSown,
    CaptureSlamSpareLast, CaptureSlamFirstOnly, GrandSlamForfeit).  A capture that
    leaves stones, and a sowing that empties the mover's row when the opponent can
    feed it, are NormalMoves under every rule."""
    agree(g, [A.PIT.A, A.PIT.E, A.PIT.F, A.PIT.e, A.PIT.f], with_(gs))


@pytest.mark.parametrize("mover", [S, N])
@pytest.mark.parametrize("target", [25, 32])
@pytest.mark.parametrize("rules", [AR.PAPER, AR.ABAPA], ids=["paper", "abapa"])
def test_a_capture_to_25_or_more_ends_the_game(rules: AR.AwariRules, target: int, mover: A.PLAYER) -> None:
    """WinMargin after a capture: the mover's last stone makes the opponent's pits 2,
    3 and 3 (8 stones), which the mover takes, reaching ``target`` ≥ 25 while both
    rows keep stones (the opponent's d, the mover's spare pit)."""
    theirs, spare, sown = ("abcd", "E", "F") if mover == S else ("ABCD", "e", "f")
    pits = dict(zip(theirs, (1, 2, 2, 1), strict=True)) | {spare: 1, sown: 3}
    mover_score, other_score = target - 8, 48 - 10 - (target - 8)  # 10 stones on the board
    north, south = (other_score, mover_score) if mover == S else (mover_score, other_score)
    agree(game(pits, north, south, mover), [A.PIT[sown]], rules)


@pytest.mark.parametrize("stuck", AR.CannotMoveRule, ids=lambda c: c.value)
@pytest.mark.parametrize("mover", [S, N])
def test_a_player_without_stones_under_each_rule(mover: A.PLAYER, stuck: AR.CannotMoveRule) -> None:
    """CannotMove: the player to move has no stones; the opponent takes the stones
    left, or the player loses (1994 Olympiad) — whichever side it is."""
    opponents_pit = "c" if mover == S else "C"
    agree(game({opponents_pit: 4}, 22, 22, mover), [A.PIT.c, A.PIT.C], with_(stuck=stuck))


# ─── perft on the fast internals ──────────────────────────────────────────────


def _repeating() -> A.AwariGame:
    """South to move with few stones, one of whose moves (A) leads back to a position
    already seen: that move ends the game by repetition (NoMove)."""
    g = game({"A": 1, "C": 2, "a": 1, "d": 2}, 21, 21, S)
    child = A.referee(g, A.PIT.A)[1]
    return A.AwariGame(g.board, g.score, g.to_move, frozenset({A.θAwariBoard(child)}))


PERFT_STATES = {
    "repeating": _repeating(),
    "starved": SOWINGS["starved"],
    "few-stones": game({"A": 1, "B": 1, "D": 2, "b": 1, "e": 1}, 21, 21, S),
    "over": game({"C": 12, "c": 11}, 25, 0, N),
}


@pytest.mark.parametrize("g", PERFT_STATES.values(), ids=PERFT_STATES.keys())
@pytest.mark.parametrize("rules", [AR.PAPER, AR.OLYMPIAD_1994], ids=["paper", "olympiad-1994"])
def test_fast_perft_counts_as_the_spec(rules: AR.AwariRules, g: A.AwariGame) -> None:
    """perft to depth 0 … 2 by the fast engines' own walks (``perft`` of impl/engines/awari.py
    and ``RulesAwari.perft``) counts the spec's leaves (impl/engines/perft.py's ``perft`` over
    the spec's referee): refused sowings are no move, an ended game has no child, a
    repeated position ends the game, and pits of 1 stone and empty pits count as the
    rules say."""
    spec, ruled = SpecAwari(rules), RulesAwari(rules)
    state = ruled.from_spec(g)  # ImplAwari's states are the same
    for depth in range(3):
        expected = P.perft(spec, g, depth)
        assert ruled.perft(state, depth) == expected, depth
        if rules == AR.PAPER:
            assert P.fast_perft("awari", state, depth) == expected, depth
