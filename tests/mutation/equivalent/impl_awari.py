"""Survivors of impl/awari.py judged equivalent: the mutant's stable key → why no test can
tell it from the original (tests/mutation/verdicts.py gathers every file's)."""

from __future__ import annotations

from typing import Final

EQUIVALENT: Final[dict[str, str]] = {
    "impl/awari.py::_feeds::cmp-boundary::last >= 0 → last > 0#1": (
        "differs only when the feeding test's sowing ends in the starved opponent's pit 0 holding 2 or 3. "
        "The row was empty, so the sowing passed that pit at least twice and so sowed every other pit of the "
        "row at least once; the capture walk starts at pit 0 and stops there (it walks down the row), so "
        "the row keeps stones whether pit 0 is captured or not: `after != 0` either way."
    ),
}
