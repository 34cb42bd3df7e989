"""Survivors judged equivalent: the mutant's stable key (tests/mutation/mutator.py) → why
no test can tell it from the original.  Every other survivor is killed by a test in
tests/test_mutants_*.py; docs/mutation-report.md shows which."""

from __future__ import annotations

from typing import Final

EQUIVALENT: Final[dict[str, str]] = {
    "impl/awari.py::_feeds::cmp-boundary::last >= 0 → last > 0#1": (
        "differs only when the feeding test's sowing ends in the starved opponent's pit 0 holding 2 or 3. "
        "The row was empty, so the sowing passed that pit at least twice and so sowed every other pit of the "
        "row at least once; the capture walk starts at pit 0 and stops there (it walks down the row), so "
        "the row keeps stones whether pit 0 is captured or not: `after != 0` either way."
    ),
    "impl/gothello.py::_step::cmp-boundary::placed < 0 → placed <= 0#1": (
        "`_place` returns -1 or `theirs' | mine' << 25`, and mine' holds the stone just placed, so an "
        "accepted placement is at least 1 << 25: `placed` is never 0."
    ),
    "spec/gothello.py::captures::delete::captured |= cross(group(cboard, t), {stone(to_move)}) → pass#1": (
        "the literal captures (erratum G3) take t among `(neighbor cboard) ⦇{s}⦈`, and neighbor relates only "
        "squares of the same non-blank value: t and its whole group are stones of the mover (s holds the "
        "mover's stone in cboard), so `group × {stone to_move}` recolours the mover's stones to their own "
        "colour and `cboard ⊕ captures` is cboard with or without it; the literal GothelloMove uses captures "
        "only there."
    ),
}
