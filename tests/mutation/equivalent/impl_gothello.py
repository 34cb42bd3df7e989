"""Survivors of impl/engines/gothello.py judged equivalent: the mutant's stable key → why no test can
tell it from the original (tests/mutation/verdicts.py gathers every file's)."""

from __future__ import annotations

from typing import Final

EQUIVALENT: Final[dict[str, str]] = {
    "impl/engines/gothello.py::<module>::const::5 → 6#2": (
        "`_RANK1` over range(6) also holds bit 25, so `_RANK5` also holds bit 29; both lie outside "
        "`_FULL` (bits 0–24), so `_NOT_RANK1 = _FULL & ~_RANK1` and `_NOT_RANK5` are the same sets, and "
        "`_RANK1`/`_RANK5` are read nowhere else (impl/ and proofs/ included)."
    ),
    "impl/engines/gothello.py::<module>::const::25 → 26#3": (
        "`_NEIGHBOURS` gains a 26th entry, index 25, that nothing reads: `_legal_bit` runs over "
        "range(25), and `_place` is reached from `_step` only for an action ≠ PASS = 25 (the search "
        "player calls it on blank squares 0–24); an index ≥ 26 raises IndexError in both."
    ),
    "impl/engines/gothello.py::_file_moves::const::5 → 6#2": (
        "the rank loop also runs r = 5, whose test `ranks >> 5 & 1` is 0 for every `ranks` in range(32), "
        "so no element is added (and `_ACTIONS[5 * file + 5]` is never evaluated): the tables are equal."
    ),
    "impl/engines/gothello.py::_file_moves::const::32 → 33#1": (
        "each table gains a 33rd entry (ranks = 32: no rank bit among 0–4, so just `last`) that nothing "
        "reads: `_moves` indexes the tables with `mask >> k & 31` ≤ 31, and the proofs and tests read "
        "them only through `_moves` or by an index < 32."
    ),
    "impl/engines/gothello.py::_step::cmp-boundary::placed < 0 → placed <= 0#1": (
        "`_place` returns -1 or `theirs' | mine' << 25`, and mine' holds the stone just placed, so an "
        "accepted placement is at least 1 << 25: `placed` is never 0."
    ),
    "impl/engines/gothello.py::_step::const::0 → 1#3": (
        "`placed < 1` for `placed < 0`: `_place` returns -1 or an accepted placement ≥ 1 << 25 (mine' "
        "holds the stone just placed), so `placed` is never 0 and both tests agree."
    ),
    "impl/engines/gothello.py::_perft::arith::_FULL ^ (mine | theirs) → _FULL | (mine | theirs)#1": (
        "`blank` becomes `_FULL` (the stones lie within it), so both loops also try the occupied squares; "
        "`_step` refuses each (GothelloIllegalMoveNonblank: `_ILLEGAL`, the state unchanged), which the leaf "
        "loop does not count and the inner loop does not follow (`result is _NOT_DONE` is false): the same "
        "total, more slowly."
    ),
    "impl/engines/gothello.py::_perft::arith::mine | theirs → mine & theirs#1": (
        "the two players' stones are disjoint in every state (from_spec reads one value a square; `_step` "
        "keeps them apart), so `blank` becomes `_FULL ^ 0 = _FULL`: as `_FULL | (mine | theirs)`, the "
        "occupied squares are tried, refused by `_step` as nonblank, and neither counted nor followed."
    ),
    "impl/engines/gothello.py::_perft::const::25 → 26#1": (
        "the leaf loop also runs i = 25, where `blank >> 25 & 1` is 0 (`blank` ⊆ `_FULL`, bits 0–24), so "
        "nothing is counted for it and `_step` is not called."
    ),
    "impl/engines/gothello.py::_perft::const::25 → 26#2": (
        "the inner loop also runs i = 25, where `blank >> 25 & 1` is 0 (`blank` ⊆ `_FULL`, bits 0–24), so "
        "nothing is stepped or followed for it."
    ),
    "impl/engines/gothello.py::_perft::arith::blank >> i & 1 → blank >> i | 1#1": (
        "the leaf loop's guard is always true, so it also steps the occupied squares; `_step` refuses each "
        "as nonblank (`_ILLEGAL`), so the `is not _ILLEGAL` test leaves them uncounted: the same total."
    ),
    "impl/engines/gothello.py::_perft::arith::blank >> i & 1 → blank >> i | 1#2": (
        "the inner loop's guard is always true, so it also steps the occupied squares; `_step` refuses each "
        "as nonblank (`_ILLEGAL`), and only a `_NOT_DONE` result is followed: the same total."
    ),
    "impl/engines/gothello.py::_perft::const::0 → 1#3": (
        "`_step(state, PASS)[1] is not _ILLEGAL` (the after-state, a tuple) is always true, and so is the "
        "original `[0] is not _ILLEGAL`: `_perft` runs only while the game goes on, where a pass is "
        "GothelloPass (`_NOT_DONE`) or GothelloGameOver (a count result), never refused."
    ),
    "impl/engines/gothello.py::_perft::const::0 → -1#3": (
        "`[-1]` of the 2-tuple `_step` returns is `[1]`, the after-state, never `_ILLEGAL`: always true, as "
        "the original test is (a pass while the game goes on is never refused: GothelloPass or "
        "GothelloGameOver)."
    ),
}
