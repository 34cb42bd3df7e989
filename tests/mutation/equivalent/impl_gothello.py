"""Survivors of impl/gothello.py judged equivalent: the mutant's stable key → why no test can
tell it from the original (tests/mutation/verdicts.py gathers every file's)."""

from __future__ import annotations

from typing import Final

EQUIVALENT: Final[dict[str, str]] = {
    "impl/gothello.py::_step::cmp-boundary::placed < 0 → placed <= 0#1": (
        "`_place` returns -1 or `theirs' | mine' << 25`, and mine' holds the stone just placed, so an "
        "accepted placement is at least 1 << 25: `placed` is never 0."
    ),
}
