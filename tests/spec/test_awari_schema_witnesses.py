"""Schemas, helpers and contracts of spec/awari.py that mutants survived in the rule and
corpus tests (make mutate; tests/mutation/results/mutation-report.md names each mutant).

Each test pins a sentence of section 1 of Bart Massey's *A Networked Awari Referee:
Specification*, or a contract that must fire on a wrong input or a wrong result."""

from __future__ import annotations

import dataclasses
from math import comb

import icontract
import pytest

import spec.awari
from spec import contracts
from spec.awari import (
    PIT,
    PLAYER,
    After,
    AwariBoard,
    AwariGame,
    AwariGame_invariant,
    AwariRef,
    AwariRef_corrected,
    Capture,
    ClaimStones,
    ForfeitStones,
    GrandSlam,
    IllegalMove,
    InitAwari,
    InitAwariBoard,
    Outcome,
    Positions,
    Sow,
    Sow_Capture,
    Sow_Capture_corrected,
    determined,
    draw,
    feeds,
    game_of,
    illegal_move,
    is_BOARD,
    is_SCORE,
    not_done,
    pre_GrandSlam,
    pre_GrandSlam_corrected,
    pre_IllegalMove,
    pre_NormalMove_corrected,
    referee,
    score_graph,
    to_SCORE,
    trace,
    θAwariBoard,
)
from tests.support.contract_firing import contracts_of

needs_contracts = pytest.mark.skipif(not contracts.ENABLED, reason="SPEC_CONTRACTS=0")


def test_board_and_score_declarations() -> None:
    """board : PIT → ℕ and score : PLAYER → ℕ: twelve naturals and two naturals; a
    negative count or a wrong length is not a BOARD / SCORE; a SCORE relation reads back
    as its pair (to_SCORE)."""
    assert is_BOARD((4,) * 12) and is_BOARD((0,) * 12)
    assert not is_BOARD((4,) * 13) and not is_BOARD((4,) * 11)
    assert not is_BOARD((-1, 5, *(4,) * 10))
    assert is_SCORE((0, 0)) and is_SCORE((25, 23))
    assert not is_SCORE((0, 0, 0)) and not is_SCORE((-1, 1))
    for score in ((0, 0), (3, 5), (24, 24)):
        assert to_SCORE(score_graph(score)) == score


def test_trace_is_indexed_from_one() -> None:
    """trace p = (λ n : ℕ₁ • (iter n (next_skip p)) p): the first pit sown from p is
    the next one, and index 0 is outside ℕ₁."""
    assert trace(PIT.F)(1) == PIT.a and trace(PIT.a)(11) == PIT.F and trace(PIT.a)(12) == PIT.b
    with pytest.raises(AssertionError, match="ℕ₁"):
        trace(PIT.a)(0)


@needs_contracts
def test_sow_requires_a_stone_in_the_pit() -> None:
    """Sow: board move > 0 — an empty pit of the mover cannot be sown."""
    sown, last = Sow(InitAwariBoard(), PIT.F)
    assert last == PIT.d and sown.board[PIT.F] == 0 and sown.to_move == PLAYER.south
    with pytest.raises(icontract.ViolationError, match="board move > 0"):
        Sow(sown, PIT.F)


def test_sow_capture_as_written_takes_the_last_pit() -> None:
    """Sow ⨟ Capture as written: captures = reachable (vul ◁ prev ▷ vul) {to_capture},
    and r* is reflexive, so the last pit sown is taken whatever it holds (erratum A1);
    corrected, nothing is taken from a pit of 5."""
    s = InitAwariBoard()  # south sows F: a, b, c, d get 5; d is last
    sown = AwariBoard((5, 5, 5, 5, *(4,) * 7, 0), (0, 0), PLAYER.south)
    assert Sow(s, PIT.F) == (sown, PIT.d)
    taken = AwariBoard((5, 5, 5, 0, *(4,) * 7, 0), (0, 5), PLAYER.south)
    assert Capture(sown, PIT.d) == (taken, frozenset({PIT.d}))
    assert Sow_Capture(s, PIT.F) == (taken, PIT.d, frozenset({PIT.d}))
    assert Sow_Capture_corrected(s, PIT.F) == (sown, PIT.d, frozenset())


@needs_contracts
def test_capture_contract_pins_the_opponents_score() -> None:
    """Capture: score' (opponent to_move) = score (opponent to_move) — a result that
    credits the mover rightly but changes the opponent's score is rejected."""
    sown = AwariBoard((5, 5, 5, 5, *(4,) * 7, 0), (0, 0), PLAYER.south)
    right, captures = Capture(sown, PIT.d)
    (contract,) = [
        c for c in contracts_of(spec.awari) if c.function == "Capture" and c.description.startswith("score' to_move")
    ]
    assert contract.holds({"s": sown, "result": (right, captures)}) is True
    wrong = AwariBoard(right.board, (1, right.score[PLAYER.south]), right.to_move)
    assert contract.holds({"s": sown, "result": (wrong, captures)}) is False


@needs_contracts
@pytest.mark.parametrize("stones", [ClaimStones, ForfeitStones])
def test_end_scoring_requires_a_score_and_a_board(stones: object) -> None:
    """ClaimStones / ForfeitStones declare score : SCORE and board : BOARD: either one
    ill-formed is refused, even when the other is well-formed."""
    board = (4,) * 12
    assert stones((0, 0), board) == (24, 24)  # type: ignore[operator]
    with pytest.raises(icontract.ViolationError, match="score : SCORE; board : BOARD"):
        stones((0, 0), (-1, 49, *(0,) * 10))  # type: ignore[operator]
    with pytest.raises(icontract.ViolationError, match="score : SCORE; board : BOARD"):
        stones((-1, 1), board)  # type: ignore[operator]


def test_game_states_are_values() -> None:
    """Positions, AwariBoard ∧ Positions and the referee's outcomes are Z bindings:
    immutable values, equal by their components, usable as set members."""
    p = Positions(frozenset({InitAwariBoard()}))
    g = InitAwari()
    assert {p, Positions(frozenset({InitAwariBoard()}))} == {p}
    assert {g, InitAwari()} == {g}
    with pytest.raises(dataclasses.FrozenInstanceError):
        p.positions = frozenset()  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        g.to_move = PLAYER.north  # type: ignore[misc]
    o = determined("NoMove", draw, g)
    assert o == Outcome("NoMove", draw, After(g.board, g.score, g.to_move, g.positions))
    assert {o, determined("NoMove", draw, InitAwari())} == {o}
    with pytest.raises(dataclasses.FrozenInstanceError):
        o.after.to_move = None  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        o.schema = "WinMargin"  # type: ignore[misc]


def test_game_invariant_covers_every_recorded_position() -> None:
    """AwariBoard ∧ Positions: the current binding and every recorded one satisfy
    Σ board + Σ score = 48."""
    ok = InitAwariBoard()
    short = AwariBoard((4,) * 11 + (3,), (0, 0), PLAYER.south)  # 47 stones
    assert AwariGame_invariant(game_of(ok, frozenset({ok})))
    assert not AwariGame_invariant(game_of(short, frozenset()))
    assert not AwariGame_invariant(game_of(ok, frozenset({short})))


def test_after_completions_count_the_free_components() -> None:
    """After.completions: the after-states AwariBoard' ∧ Positions' allows. With score'
    free, the pairs summing to 48 − Σ board'; with board' free, the 12-tuples of naturals
    summing to 48 − Σ score'; to_move' free doubles the count; none when the fixed part
    holds more than 48 stones or, fully fixed, not exactly 48; with both free, the
    14-tuples of naturals (12 pits, 2 stores) summing to 48."""
    none: frozenset[AwariBoard] = frozenset()
    board40 = (4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 0, 0)
    for to_move, ways in ((PLAYER.north, 1), (None, 2)):
        assert After(board40, None, to_move, none).completions() == ways * 9
        assert After((48, *(0,) * 11), None, to_move, none).completions() == ways * 1
        assert After((49, *(0,) * 11), None, to_move, none).completions() == 0
        assert After(None, (10, 6), to_move, none).completions() == ways * comb(43, 11)
        assert After(None, (48, 0), to_move, none).completions() == ways * 1
        assert After(None, (49, 0), to_move, none).completions() == 0
        assert After(board40, (4, 4), to_move, none).completions() == ways
        assert After(board40, (4, 3), to_move, none).completions() == 0
        # Nothing fixed: 14 naturals (12 pits, 2 stores) summing to 48.
        assert After(None, None, to_move, none).completions() == ways * comb(48 + 13, 13)
    g: AwariGame = InitAwari()
    assert After(g.board, g.score, g.to_move, g.positions).completions() == 1


@needs_contracts
def test_after_state_contract_rejects_an_ill_formed_after_state() -> None:
    """Each corrected disjunct ensures θAwariGame' is determined and satisfies
    AwariBoard' ∧ Positions': an after-state of 48 stones with a negative pit, or one
    recording a position of 47 stones, or one leaving to_move' free, is rejected."""
    g = InitAwari()
    seen = g.positions | {θAwariBoard(g)}
    negative = (-1, 9, *(4,) * 10)  # 48 stones, one pit negative
    short = AwariBoard((4,) * 11 + (3,), (0, 0), PLAYER.south)  # 47 stones
    wrongs = (
        After(negative, g.score, g.to_move, seen),
        After(g.board, g.score, g.to_move, seen | {short}),
        After(g.board, g.score, None, seen),
    )
    found = [c for c in contracts_of(spec.awari) if c.description == "θAwariGame' determined, AwariBoard' ∧ Positions'"]
    assert {c.function for c in found} >= {"WinMargin_corrected", "NoMove_corrected", "NormalMove_corrected"}
    for contract in found:
        assert contract.holds({"result": Outcome("NormalMove", not_done, After(g.board, g.score, g.to_move, seen))})
        for after in wrongs:
            assert contract.holds({"result": Outcome("NormalMove", not_done, after)}) is False, (contract, after)


def test_grand_slam_of_a_single_stone() -> None:
    """GrandSlam, corrected: opp_stones board > 0 ∧ opp_stones (Sow ⨟ Capture).board' = 0.
    One stone in the opponent's row is enough: sowing one stone onto it makes 2, which
    is captured, and the row is empty — a grand slam, not a normal move."""
    board = (1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 1)  # north holds a = 1; south E = 2, F = 1
    g = AwariGame(board, (22, 22), PLAYER.south, frozenset())
    assert pre_GrandSlam_corrected(g, PIT.F) and not pre_NormalMove_corrected(g, PIT.F)
    (outcome,) = AwariRef_corrected(g, PIT.F)
    assert outcome.schema == "GrandSlam"
    assert referee(g, PIT.F)[1] == outcome.after.state()
    assert pre_GrandSlam(g, PIT.F) and GrandSlam(g, PIT.F) is not None  # as written, too


@needs_contracts
def test_normal_move_contract_pins_the_whole_after_state() -> None:
    """NormalMove, corrected: when the new position ends nothing, the outcome is
    NormalMove's own — schema NormalMove, result not_done *and* the after-state moved
    to; a right name and result over a wrong after-state is rejected."""
    g = InitAwari()
    (right,) = AwariRef_corrected(g, PIT.F)
    assert right.schema == "NormalMove" and right.result == not_done
    (contract,) = [
        c
        for c in contracts_of(spec.awari)
        if c.function == "NormalMove_corrected" and c.description == "NormalMove ⨟ Status"
    ]
    assert contract.holds({"g": g, "move": PIT.F, "result": right})
    after = right.after
    stale = After(after.board, after.score, g.to_move, after.positions)  # the turn not passed
    assert contract.holds({"g": g, "move": PIT.F, "result": Outcome("NormalMove", not_done, stale)}) is False


def test_illegal_move_as_written() -> None:
    """IllegalMove as written: ∀ p • score p < 25;  ∃ p : side to_move • board p > 0;
    move ∉ side to_move ∨ board move = 0.  One stone in a pit counts; a player with an
    empty row makes no IllegalMove (NoMove holds instead)."""
    singles = AwariGame((4,) * 6 + (0, 1, 1, 1, 1, 1), (9, 10), PLAYER.south, frozenset())
    for move in (PIT.a, PIT.A):  # the opponent's pit; the mover's empty pit
        assert pre_IllegalMove(singles, move)
        outcome = IllegalMove(singles, move)
        assert outcome is not None and outcome.result == illegal_move
    assert IllegalMove(singles, PIT.B) is None and not pre_IllegalMove(singles, PIT.B)
    one = AwariGame((4,) * 6 + (0,) * 5 + (1,), (11, 12), PLAYER.south, frozenset())  # a single stone, on F
    assert pre_IllegalMove(one, PIT.A) and IllegalMove(one, PIT.A) is not None
    empty = AwariGame((4,) * 6 + (0,) * 6, (12, 12), PLAYER.south, frozenset())
    assert IllegalMove(empty, PIT.a) is None and not pre_IllegalMove(empty, PIT.a)
    assert [o.schema for o in AwariRef(empty, PIT.a)] == ["NoMove"]


def test_feeds_is_a_predicate() -> None:
    """feeds: move ∈ side to_move ∧ board move > 0 ∧ opp_stones (Sow ⨟ Capture).board' > 0
    — a truth value, False (not merely falsy) for a pit that cannot be sown."""
    g = InitAwari()
    assert feeds(g, PIT.F) is True
    assert feeds(g, PIT.a) is False  # north's pit, south to move


@pytest.mark.parametrize("outcomes", ["none", "two", "loose"])
def test_referee_refuses_anything_but_one_determined_outcome(outcomes: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The referee answers only when AwariRef_corrected gives exactly one outcome with a
    determined after-state (proofs/ show it always does); otherwise it raises SpecError,
    naming the schemas' answer, rather than pick one or fail somewhere inside."""
    g = InitAwari()
    one = determined("NormalMove", not_done, g)
    loose = Outcome("NormalMove", not_done, After(None, g.score, g.to_move, g.positions))
    answer = {"none": (), "two": (one, one), "loose": (loose,)}[outcomes]
    monkeypatch.setattr(spec.awari, "AwariRef_corrected", lambda _g, _m: answer)
    with pytest.raises(spec.awari.SpecError, match="AwariRef gave"):
        referee(g, PIT.F)


def test_the_memoised_powers_of_next_skip_are_iters() -> None:
    """_iter_next_skip unfolds iter's recursion on its memoised powers: each power up
    to a full lap of 48 stones is iter n (next_skip p) as spec.z computes it."""
    from spec.z import iter_

    A = spec.awari
    for p in A.PIT:
        for n in range(49):
            assert A._iter_next_skip(n, p) == iter_(n, A.next_skip(p), A.PITS)
