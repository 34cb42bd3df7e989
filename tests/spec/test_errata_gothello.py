"""Witnesses of the Gothello errata (spec/errata.py, proofs/ERRATA.md: G1–G10, G22, G26–G28): each test runs
the literal reading of a schema on the erratum's witness and shows the problem, then
what the corrected reading, which the referee uses, does instead."""

from __future__ import annotations

import random

import icontract
import pytest

from spec import gothello as S
from spec.gothello import PLAYER, GothelloTurn, GothelloTurn_corrected, InitGothelloGame, pass_
from spec.z import Fun, closure, cross, dom, image, inverse
from tests.support.gothello_states import board, game, mv, sq


def schemas(outcomes: tuple[S.Outcome, ...]) -> list[str]:
    return [o.schema for o in outcomes]


def test_G1_adjoins_is_one_way() -> None:
    """G1 — (_ adjoins _) relates a square only to the next one up its file or rank:
    a1 adjoins a2, but not a2 a1.  So e5 adjoins nothing, and a stone on e5 can never
    have a liberty: the literal turn refuses e5 on the empty board, even with a
    reflexive group."""
    assert (sq("a1"), sq("a2")) in S.adjoins and (sq("a2"), sq("a1")) not in S.adjoins
    assert image(S.adjoins, {sq("e5")}) == frozenset()
    assert S.adjoining_squares(frozenset({sq("e5")})) == frozenset()
    assert schemas(GothelloTurn(InitGothelloGame(), mv("e5"))) == ["GothelloIllegalMoveBlocked"]
    assert S.adjoins_corrected == S.adjoins | frozenset((b, a) for (a, b) in S.adjoins)


def test_G2_a_lone_stone_has_an_empty_group() -> None:
    """G2 — group board s = (neighbor board)⁺ ⦇{s}⦈: ⁺ is not reflexive, so a stone with
    no same-coloured neighbour has group ∅ and no liberties — even over the symmetric
    adjacency — and literally no first move is legal."""
    b = board({"c3": "b"})
    assert S.group(b, sq("c3")) == frozenset()
    assert image(closure(S.neighbor_corrected(b)), {sq("c3")}) == frozenset()
    for s in S.SQUARES:
        assert schemas(GothelloTurn(InitGothelloGame(), S.move(s))) == ["GothelloIllegalMoveBlocked"]
    assert S.group_corrected(b, sq("c3")) == {sq("c3")} and len(S.liberties_corrected(b, sq("c3"))) == 4


def test_G3_captures_look_at_same_coloured_neighbours() -> None:
    """G3 — captures s = ⋃ (capture_at ⦇(neighbor cboard) ⦇{s}⦈⦈): neighbor relates s to
    stones of its *own* colour, so the opposing groups are never examined.  White a1 is
    left without liberties by black b1, yet the formula (even over corrected groups and
    liberties) captures nothing."""
    g = game({"a1": "w", "a2": "b"})
    cboard = S._cboard(g, sq("b1"))
    related = image(S.neighbor_corrected(cboard), {sq("b1")})
    assert all(cboard[t] == S.stone(PLAYER.black) for t in related)
    as_written = frozenset().union(*(S.capture_at_corrected(cboard, PLAYER.black, t) for t in related))
    assert as_written == frozenset()
    assert S.captures_corrected(cboard, PLAYER.black, sq("b1")) == {(sq("a1"), S.stone(PLAYER.black))}
    (moved,) = GothelloTurn_corrected(g, mv("b1"))
    assert moved.after.board[sq("a1")] == S.stone(PLAYER.black)


def test_G4_capture_at_applies_liberties_at_blank_squares() -> None:
    """G4 — ``∀ s : SQUARE • capture_at s = if #(liberties cboard s) = 0 …`` applies
    liberties, defined only where ``board s ≠ blank``, to every square."""
    with pytest.raises(icontract.ViolationError):
        S.liberties_corrected(board(), sq("c3"))
    with pytest.raises(icontract.ViolationError):
        S.capture_at_corrected(board(), PLAYER.black, sq("c3"))


def test_G5_capture_at_is_not_a_total_function() -> None:
    """G5 — capture_at, captures : SQUARE → SQUARE → SQUAREVAL (total), yet their values
    are ∅ or a group's squares only: partial functions (⇸)."""
    cboard = S._cboard(game({"a1": "w", "a2": "b"}), sq("b1"))
    for value in (
        S.capture_at_corrected(cboard, PLAYER.black, sq("b1")),
        S.captures_corrected(cboard, PLAYER.black, sq("b1")),
    ):
        assert dom(value) != S.SQUARES


def test_G5_so_the_literal_move_never_holds() -> None:
    """G5 — with the declared total types GothelloMove has no binding.  The argument,
    step by step: as written nothing adjoins a1; neighbor ⊆ adjoins and ran r⁺ = ran r,
    so no written group holds a1; so at a stone t, capture_at t (∅ or a group × {…})
    is never total; cboard holds the placed stone.  Then the literal schema itself, on
    every placement of a sample of states, has no outcome."""
    assert all(b != sq("a1") for (_, b) in S.adjoins)
    rng = random.Random(5)
    for _ in range(40):
        g = game(
            {f"{'abcde'[rng.randrange(5)]}{rng.randrange(1, 6)}": rng.choice("bw") for _ in range(rng.randrange(12))}
        )
        for s in S.SQUARES:
            if g.board[s] != S.blank:
                assert sq("a1") not in S.group(g.board, s)
                value = S.capture_at(g.board, PLAYER.black, s)
                assert value is not None and not S.is_total_SQUAREVAL(value)
            else:
                assert S.GothelloMove(g, S.move(s)) is None
    assert S.GothelloMove(InitGothelloGame(), mv("c3")) is None
    # With only the type read as ⇸ (GothelloMove_G5) the rest of the schema holds
    # where the written liberties allow it: black a1 beside black b1.
    beside = game({"b1": "b"})
    assert S.GothelloMove_G5(beside, mv("a1")) is not None and S.GothelloMove(beside, mv("a1")) is None
    assert schemas(GothelloTurn_corrected(InitGothelloGame(), mv("c3"))) == ["GothelloMove"]


def test_G6_pass_contradicts_its_own_frame() -> None:
    """G6 — GothelloPass has ΞGothelloPosition (to_move' = to_move) and to_move' =
    opponent to_move: it never holds, so white's pass after black's c3 is covered by
    no disjunct."""
    (opened,) = GothelloTurn_corrected(InitGothelloGame(), mv("c3"))
    assert S.GothelloPass(opened.after, pass_) is None
    assert GothelloTurn(opened.after, pass_) == ()
    (passed,) = GothelloTurn_corrected(opened.after, pass_)
    assert passed.schema == "GothelloPass" and passed.after.to_move == PLAYER.black


def test_G7_history_1_of_the_empty_history() -> None:
    """G7 — a pass as the first action: ``history 1`` is undefined, so GothelloPass and
    GothelloGameOver are undetermined; literally black's first pass may end the game
    (drawn, 0–0)."""
    (over,) = GothelloTurn(InitGothelloGame(), pass_)
    assert over.schema == "GothelloGameOver" and over.undefined and over.result == S.draw
    (passed,) = GothelloTurn_corrected(InitGothelloGame(), pass_)
    assert passed.schema == "GothelloPass" and passed.result == S.not_done


def test_G8_illegal_attempts_break_a_pair_of_passes() -> None:
    """G8 — GothelloAction records every action, illegal ones too: black c3, white pass,
    black's illegal c3, black pass — literally the last two actions are not both passes,
    so the game does not end."""
    g = game({"c3": "b"}, PLAYER.black, (pass_, mv("c3")))
    illegal = S.GothelloIllegalMoveNonblank(g, mv("c3"))
    assert illegal is not None and illegal.after.history[0] == mv("c3")
    assert S.GothelloGameOver(illegal.after, pass_) is None
    (refused,) = GothelloTurn_corrected(g, mv("c3"))
    assert refused.after == g
    (over,) = GothelloTurn_corrected(refused.after, pass_)
    assert over.schema == "GothelloGameOver" and over.result == S.win(PLAYER.black)


def test_G9_nothing_ends_the_game() -> None:
    """G9 — no schema stops play after GothelloGameOver: a third pass ends the game
    again, and a placement is judged as if the game were on."""
    done = game({"c3": "b"}, PLAYER.black, (pass_, pass_, mv("c3")))
    (again,) = GothelloTurn(done, pass_)
    assert again.schema == "GothelloGameOver" and len(again.after.history) == 4
    assert schemas(GothelloTurn(done, mv("d4"))) == ["GothelloIllegalMoveBlocked"]  # judged, not refused
    for action in (pass_, mv("c3"), mv("d4")):
        (refused,) = GothelloTurn_corrected(done, action)
        assert refused.schema == "GothelloEnded" and refused.after == done


def test_G26_after_the_end_both_games_answer_the_final_result() -> None:
    """G26 — Awari's WinMargin answers every action on a finished game with the final
    result; Gothello's schemas are silent (G9).  Both games now answer every action
    after the end with the final result and leave the position as it is (Awari's
    AwariMove still adds it to positions)."""
    from spec import awari as A
    from tests.support.awari_states import game as awari_game

    won = awari_game({"a": 10, "A": 10}, 3, 25, A.PLAYER.north)
    for pit in A.PIT:
        result, after = A.referee(won, pit)
        assert result == A.win(A.PLAYER.south) and A.θAwariBoard(after) == A.θAwariBoard(won)
    done = game({"c3": "b"}, PLAYER.black, (pass_, pass_, mv("c3")))
    for action in (pass_, mv("c3"), mv("d4")):
        assert S.referee(done, action) == (S.win(PLAYER.black), done)


def test_G27_a_captured_lone_stone_is_not_recoloured() -> None:
    """G27 (layered) — repair adjacency (G1) and the choice of captured groups (G3) but
    keep group as written (⁺): white a1, alone, has group ∅ and so no liberty — it
    counts as captured — yet ``∅ × {stone black}`` recolours nothing.  With G2's
    reflexive group it turns black."""
    g = game({"a1": "w", "a2": "b"})
    cboard = S._cboard(g, sq("b1"))
    opposing = image(S.adjoins_corrected, {sq("b1")}) & image(inverse(cboard), {S.stone(PLAYER.white)})
    assert opposing == {sq("a1")}
    written_group = image(closure(S.neighbor_corrected(cboard)), {sq("a1")})
    assert written_group == frozenset() and S.group_liberties_corrected(cboard, written_group) == frozenset()
    assert cross(written_group, {S.stone(PLAYER.black)}) == frozenset()  # captured, not recoloured
    assert S.capture_at_corrected(cboard, PLAYER.black, sq("a1")) == {(sq("a1"), S.stone(PLAYER.black))}


def test_G28_capture_at_is_loose_at_blank_squares() -> None:
    """G28 (layered) — group is constrained only at stones, so at a blank square t of
    cboard ``group cboard t`` may be ∅ or SQUARE: capture_at t is then ∅ or SQUARE ×
    {stone to_move}.  Both values satisfy GothelloMove's ∀ (with G5's ⇸), giving two
    bindings for one before-state and input, with the same board'."""
    cboard = S._cboard(InitGothelloGame(), sq("c3"))
    t = sq("a1")
    assert cboard[t] == S.blank
    values = set()
    for group_t in (frozenset(), S.SQUARES):  # two values the axiom of group allows at t
        libs = S.group_liberties_corrected(cboard, group_t)
        values.add(cross(group_t, {S.stone(PLAYER.black)}) if len(libs) == 0 else frozenset())
    assert values == {frozenset(), cross(S.SQUARES, {S.stone(PLAYER.black)})}
    assert S.capture_at(cboard, PLAYER.black, t) is None  # the spec marks the value loose
    assert S.captures_corrected(cboard, PLAYER.black, sq("c3")) == frozenset()  # board' does not depend on it


def test_G10_blocked_overlaps_nonblank() -> None:
    """G10 — GothelloIllegalMoveBlocked lacks ``board s = blank``: on a full board a
    placement is both Nonblank and Blocked (the paper claims the five are disjoint)."""
    full = game(fill="b")
    assert schemas(GothelloTurn(full, mv("a1"))) == [
        "GothelloIllegalMoveNonblank",
        "GothelloIllegalMoveBlocked",
    ]
    assert schemas(GothelloTurn_corrected(full, mv("a1"))) == ["GothelloIllegalMoveNonblank"]


def transpose(g: S.GothelloGame) -> S.GothelloGame:
    def t(m: S.MOVE) -> S.MOVE:
        return S.move((m.square[1], m.square[0])) if isinstance(m, S.move) else m

    return S.GothelloGame(Fun(((r, f), v) for ((f, r), v) in g.board), g.to_move, tuple(t(m) for m in g.history))


def test_G22_the_schemas_do_not_say_which_coordinate_is_the_file() -> None:
    """G22 — SQUARE == DIGIT × DIGIT; nothing in the Z says whether ``c2`` is (3, 2) or
    (2, 3): the rules commute with transposing the board, so both readings give the same
    game.  We follow gthd: the letter is the first component."""
    rng = random.Random(22)
    g = InitGothelloGame()
    for _ in range(40):
        action = rng.choice(S.legal_moves(g))
        result, after = S.referee(g, action)
        mirrored = S.referee(transpose(g), transpose(S.GothelloGame(g.board, g.to_move, (action,))).history[0])
        assert mirrored == (result, transpose(after))
        g = after
        if S.game_over(g):
            break
