"""Survivors of impl/gothello.py judged equivalent: the mutant's stable key → why no test can
tell it from the original (tests/mutation/verdicts.py gathers every file's)."""

from __future__ import annotations

from typing import Final

EQUIVALENT: Final[dict[str, str]] = {
    "impl/gothello.py::<module>::const::5 → 6#2": (
        "`_RANK1` over range(6) also holds bit 25, so `_RANK5` also holds bit 29; both lie outside "
        "`_FULL` (bits 0–24), so `_NOT_RANK1 = _FULL & ~_RANK1` and `_NOT_RANK5` are the same sets, and "
        "`_RANK1`/`_RANK5` are read nowhere else (impl/ and proofs/ included)."
    ),
    "impl/gothello.py::<module>::const::25 → 26#3": (
        "`_NEIGHBOURS` gains a 26th entry, index 25, that nothing reads: `_legal_bit` runs over "
        "range(25), and `_place` is reached from `_step` only for an action ≠ PASS = 25 (the search "
        "player calls it on blank squares 0–24); an index ≥ 26 raises IndexError in both."
    ),
    "impl/gothello.py::_place::const::1 → 2#2": (
        "`_place` returns -2 instead of -1 for a blocked placement; its callers only ask `placed < 0` "
        "(`_step`) or `placed >= 0` (impl/players/search_gothello.py), true resp. false for both."
    ),
    "impl/gothello.py::_file_moves::const::5 → 6#2": (
        "the rank loop also runs r = 5, whose test `ranks >> 5 & 1` is 0 for every `ranks` in range(32), "
        "so no element is added (and `_ACTIONS[5 * file + 5]` is never evaluated): the tables are equal."
    ),
    "impl/gothello.py::_file_moves::const::32 → 33#1": (
        "each table gains a 33rd entry (ranks = 32: no rank bit among 0–4, so just `last`) that nothing "
        "reads: `_moves` indexes the tables with `mask >> k & 31` ≤ 31, and the proofs and tests read "
        "them only through `_moves` or by an index < 32."
    ),
    "impl/gothello.py::_step::cmp-boundary::placed < 0 → placed <= 0#1": (
        "`_place` returns -1 or `theirs' | mine' << 25`, and mine' holds the stone just placed, so an "
        "accepted placement is at least 1 << 25: `placed` is never 0."
    ),
    "impl/gothello.py::_step::const::0 → 1#3": (
        "`placed < 1` for `placed < 0`: `_place` returns -1 or an accepted placement ≥ 1 << 25 (mine' "
        "holds the stone just placed), so `placed` is never 0 and both tests agree."
    ),
}
