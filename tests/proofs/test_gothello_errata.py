"""The classification of literal failures (proofs/gothello/errata.py) can fail: a planted
literal defect that is no erratum of the paper is reported as NEW, while the paper's own
literal disjunct, checked the same way, is put down to its erratum."""

from __future__ import annotations

from typing import Any

import z3

from proofs.gothello import encoding as E
from proofs.gothello import theorems as T
from proofs.gothello.encoding import Frame, Post, Pre

NONBLANK, BLOCKED = "GothelloIllegalMoveNonblank", "GothelloIllegalMoveBlocked"


def nonblank_passes_the_turn(pre: Pre, post: Post) -> Any:
    """Literal Nonblank with a planted defect: the illegal attempt passes the turn."""
    f = Frame.of(pre)
    kept = z3.And(post.black == pre.black, post.white_stones == pre.white_stones, post.white == z3.Not(pre.white))
    return z3.And(f.action_recorded(post), kept, post.result == E.ILLEGAL, f.occupied())


def nonblank_on_any_square(pre: Pre, post: Post) -> Any:
    """Literal Nonblank with a planted defect: it holds on blank squares too."""
    f = Frame.of(pre)
    return z3.And(f.action_recorded(post), f.xi_position(post), post.result == E.ILLEGAL, z3.Not(f.is_pass))


def labels(report: T.Report) -> set[str]:
    return {e for f in report.findings for e in f.errata}


def test_the_papers_illegal_attempt_is_g8() -> None:
    report = T.Report("literal")
    T.illegal_changes_nothing(report, {NONBLANK: E.LITERAL[NONBLANK]}, T.LITERAL_ILLEGAL)
    assert labels(report) == {"G8"} and not report.problems


def test_a_planted_illegal_attempt_that_passes_the_turn_is_new() -> None:
    report = T.Report("literal")
    T.illegal_changes_nothing(report, {NONBLANK: nonblank_passes_the_turn}, T.LITERAL_ILLEGAL)
    assert "NEW" in labels(report) and report.problems


def test_a_planted_overlap_on_a_blank_square_is_new() -> None:
    """G10 is Blocked's missing `board s = blank`: an overlap on a blank square is not it."""
    report = T.Report("literal")
    rels = {NONBLANK: nonblank_on_any_square, BLOCKED: E.LITERAL[BLOCKED]}
    T.disjuncts_are_disjoint(report, rels, T.LITERAL_OVERLAPS)
    assert "NEW" in labels(report) and report.problems
