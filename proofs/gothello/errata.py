"""The Gothello errata that a theorem about the literal GothelloTurn can meet, each
decided by a z3 predicate stating the erratum's own definition (proofs/ERRATA.md), not
the shape of the failure: a counterexample is put down to an erratum only where that
erratum's predicate holds, and z3 proves that no counterexample lies outside every
predicate its theorem admits — one that does is NEW and fails the run
(tests/proofs/test_gothello_errata.py plants an unknown literal defect and sees it).

A predicate reads the before-state and, where the theorem has one, the failing
after-state; where an erratum is a wrong term of a guard it says "the guard as written
holds here, and the guard with this erratum corrected does not", so that a defect
elsewhere in the same disjunct is not mistaken for it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import z3

from proofs.gothello import encoding as E
from proofs.gothello.encoding import Frame, Post, Pre

Predicate = Callable[[Pre, Post | None], Any]


def _written_blocked_guard(f: Frame) -> Any:
    """GothelloIllegalMoveBlocked's guard as written: #(liberties cboard s) = 0 with the
    one-way adjacency (G1) and the irreflexive group (G2)."""
    return E.liberties_literal(E.group_literal(f.sbit, f.cboard_mine()), f.blank & ~f.sbit) == 0


def _reflexive_group_has_liberty(f: Frame) -> Any:
    """The guard with G2 corrected (group = (neighbor board)* ⦇{s}⦈) does not refuse."""
    reflexive = f.sbit | E.group_literal(f.sbit, f.cboard_mine())
    return E.liberties_literal(reflexive, f.blank & ~f.sbit) != 0


def g1(pre: Pre, post: Post | None) -> Any:
    """G1, `adjoins` is one-way: the written guard refuses, still refuses with G2
    corrected, and accepts with the orthogonal adjacency too (G1 and G2 corrected)."""
    f = Frame.of(pre)
    return z3.And(
        f.on_blank(), _written_blocked_guard(f), z3.Not(_reflexive_group_has_liberty(f)), E.own_liberties(f) != 0
    )


def g2(pre: Pre, post: Post | None) -> Any:
    """G2, `group` uses ⁺: the written guard refuses and accepts once the group is made
    reflexive, over the written adjacency."""
    f = Frame.of(pre)
    return z3.And(f.on_blank(), _written_blocked_guard(f), _reflexive_group_has_liberty(f))


def g3(pre: Pre, post: Post | None) -> Any:
    """G3, captures look at same-coloured neighbours: an opposing group adjoining s is
    left without liberties and the placement recolours nothing (board' = cboard)."""
    assert post is not None, "G3 is about an after-state"
    f = Frame.of(pre)
    blank = f.blank & ~f.sbit
    stranded = z3.Or(
        [z3.And(t & f.theirs != 0, E.liberties(E.group(t, f.theirs), blank) == 0) for t in E.directions(f.sbit)]
    )
    return z3.And(stranded, f.board_is(post, f.cboard_mine(), f.theirs))


def g6(pre: Pre, post: Post | None) -> Any:
    """G6, GothelloPass contradicts its frame: a pass that does not follow a pass."""
    return z3.And(pre.action == E.PASS, pre.hlen != 0, pre.h1 != E.PASS)


def g7(pre: Pre, post: Post | None) -> Any:
    """G7, `history 1` of ⟨⟩: a pass on the empty history."""
    return z3.And(pre.action == E.PASS, pre.hlen == 0)


def g8(pre: Pre, post: Post | None) -> Any:
    """G8, illegal attempts are recorded: an illegal placement whose after-state is the
    before-position with the attempt put at the head of the history — nothing else."""
    assert post is not None, "G8 is about an after-state"
    f = Frame.of(pre)
    return z3.And(z3.Not(f.is_pass), post.result == E.ILLEGAL, f.xi_position(post), f.action_recorded(post))


def g10(pre: Pre, post: Post | None) -> Any:
    """G10, Blocked lacks `board s = blank`: a placement on an occupied square where the
    written Blocked guard holds."""
    f = Frame.of(pre)
    return z3.And(f.occupied(), _written_blocked_guard(f))


PREDICATES: dict[str, Predicate] = {"G1": g1, "G2": g2, "G3": g3, "G6": g6, "G7": g7, "G8": g8, "G10": g10}

DEAD = {"GothelloPass": "G6"}
"""Disjuncts that never hold, and the erratum that kills each (theorem (d))."""
