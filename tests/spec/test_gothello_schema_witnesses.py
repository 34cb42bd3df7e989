"""Schemas, helpers and contracts of spec/gothello.py that mutants survived in the rule,
errata and corpus tests (make mutate; tests/mutation/results/mutation-report.md names each mutant).

Most pin the literal layer — the written capture_at, captures and liberties, and
GothelloTurn on the layer under erratum G5 (GothelloMove_G5), which proofs/ analyse
as the "literal" reading — sentence by sentence, as Bart Massey's *A Networked
Gothello Referee: Specification* writes them."""

from __future__ import annotations

import dataclasses

import pytest

from spec import contracts
from spec import gothello as S
from spec.gothello import PLAYER, SQUARES, GothelloTurn_G5, InitGothelloGame, blank, pass_, stone
from spec.z import Fun, cross
from tests.support.contract_firing import contracts_of
from tests.support.gothello_states import game, mv, sq

B = PLAYER.black
needs_contracts = pytest.mark.skipif(not contracts.ENABLED, reason="SPEC_CONTRACTS=0")

# Black a2 and a3 under white a4 and b3.  As written (G1, G2) group a2 = {a3} — only
# the squares reached upwards, a2 itself not included — and its liberties, the blank
# squares above {a3}, are none: a4 and b3 are white.
WALLED = {"a2": "b", "a3": "b", "a4": "w", "b3": "w"}


def schemas(outcomes: tuple[S.Outcome, ...]) -> list[str]:
    return [o.schema for o in outcomes]


def test_gothello_states_are_values() -> None:
    """GothelloPosition, GothelloGame, the move constructor and the referee's outcomes
    are Z values: immutable, equal by their components, usable as set members."""
    p = S.InitGothelloPosition()
    g = InitGothelloGame()
    (o,) = S.GothelloTurn_corrected(g, mv("c3"))
    for value, field in ((p, "to_move"), (g, "history"), (mv("c3"), "square"), (o, "schema")):
        assert len({value, dataclasses.replace(value)}) == 1
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(value, field, None)


def test_capture_at_as_written() -> None:
    """capture_at s = if #(liberties cboard s) = 0 then (group cboard s) × {stone to_move}
    else ∅ — at a stone; at a blank square the value is loose (G28), marked None."""
    walled = game(WALLED).board
    assert S.liberties(walled, sq("a2")) == frozenset()
    assert S.capture_at(walled, B, sq("a2")) == frozenset({(sq("a3"), stone(B))})
    assert S.capture_at(walled, PLAYER.white, sq("a2")) == frozenset({(sq("a3"), stone(PLAYER.white))})
    free = game({"a2": "b", "a3": "b"}).board
    assert S.liberties(free, sq("a2")) == {sq("a4"), sq("b3")}
    assert S.capture_at(free, B, sq("a2")) == frozenset()
    assert S.capture_at(free, B, sq("c3")) is None


def test_captures_as_written_collect_the_movers_own_groups() -> None:
    """captures s = ⋃ (capture_at ⦇(neighbor cboard) ⦇{s}⦈⦈): black a1 placed below the
    walled a2 — its written neighbour — captures a2's written group {a3}, a black stone,
    "re-coloured" black (G3: the mover's own groups, never the opponent's)."""
    cboard = S._cboard(game(WALLED), sq("a1"))
    assert S.captures(cboard, B, sq("a1")) == {(sq("a3"), stone(B))}
    assert S.captures(cboard, B, sq("a4")) == frozenset()  # a4's written neighbours: none white


def test_is_total_SQUAREVAL() -> None:
    """r ∈ SQUARE → SQUAREVAL: functional, and defined at every square."""
    assert S.is_total_SQUAREVAL(cross(SQUARES, {blank}))
    assert not S.is_total_SQUAREVAL(cross(SQUARES - {sq("a1")}, {blank}))
    assert not S.is_total_SQUAREVAL(cross(SQUARES, {blank}) | {(sq("a1"), stone(B))})


def test_move_under_G5_holds_exactly_on_a_blank_square_with_written_liberties() -> None:
    """GothelloMove_G5: ∃ s • move? = move s ∧ board s = blank ∧ #(liberties cboard s) > 0
    ∧ board' = cboard ⊕ (captures s) ∧ to_move' = opponent to_move."""
    g = game(WALLED)
    # black a1: written group {a2, a3}, whose written liberties are {b2}: exactly one
    assert S.liberties(S._cboard(g, sq("a1")), sq("a1")) == {sq("b2")}
    o = S.GothelloMove_G5(g, mv("a1"))
    assert o is not None and (o.schema, o.result) == ("GothelloMove", S.not_done)
    assert o.after == S.GothelloGame(Fun(S._cboard(g, sq("a1"))), PLAYER.white, (mv("a1"),))
    assert S.GothelloMove_G5(InitGothelloGame(), mv("c3")) is None  # a lone stone: no written liberty (G2)
    assert S.GothelloMove_G5(g, mv("a2")) is None  # not blank
    assert S.GothelloMove_G5(g, pass_) is None


def test_turn_under_G5_gives_every_disjunct_that_holds() -> None:
    """GothelloTurn ≙ IllegalMoveNonblank ∨ IllegalMoveBlocked ∨ GothelloMove ∨ GothelloPass
    ∨ GothelloGameOver, with GothelloMove_G5: the written disjuncts overlap (G10) and
    leave gaps (G6)."""
    g = game(WALLED)
    assert schemas(GothelloTurn_G5(g, mv("a1"))) == ["GothelloMove"]
    assert schemas(GothelloTurn_G5(g, mv("c3"))) == ["GothelloIllegalMoveBlocked"]
    # a4 holds white, and a black stone there has no black stone above it: its written
    # group and liberties are empty, so both illegal-move schemas hold
    assert schemas(GothelloTurn_G5(g, mv("a4"))) == ["GothelloIllegalMoveNonblank", "GothelloIllegalMoveBlocked"]
    # white a1 under black b1: a black stone there has group {b1}, liberties {b2, c1}
    assert schemas(GothelloTurn_G5(game({"a1": "w", "b1": "b"}), mv("a1"))) == ["GothelloIllegalMoveNonblank"]
    assert schemas(GothelloTurn_G5(InitGothelloGame(), pass_)) == ["GothelloGameOver"]
    assert GothelloTurn_G5(game(WALLED, history=(mv("a2"),)), pass_) == ()  # G6
    # GothelloMove_G5 in place of the literal GothelloMove, which never holds (G5)
    assert schemas(S.GothelloTurn(g, mv("a1"))) == []


@needs_contracts
@pytest.mark.parametrize("disjunct", ["GothelloIllegalMoveNonblank", "GothelloIllegalMoveBlocked"])
def test_illegal_moves_keep_board_and_player(disjunct: str) -> None:
    """ΞGothelloPosition in both illegal-move schemas: board' = board *and* to_move' =
    to_move.  An outcome that keeps only one of them violates the contract."""
    (frame,) = (c for c in contracts_of(S) if c.function == disjunct and c.description == "ΞGothelloPosition")
    g = game(WALLED)
    right = getattr(S, disjunct)(g, mv("a4"))
    assert right is not None and frame.holds({"g": g, "result": right})
    flipped = S.GothelloGame(g.board, PLAYER.white, right.after.history)
    placed = S.GothelloGame(Fun(S._cboard(g, sq("c3"))), B, right.after.history)
    for wrong in (flipped, placed):
        assert frame.holds({"g": g, "result": dataclasses.replace(right, after=wrong)}) is False
