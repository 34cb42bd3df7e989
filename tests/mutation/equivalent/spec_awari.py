"""Survivors of spec/awari.py judged equivalent: the mutant's stable key → why no test can
tell it from the original (tests/mutation/verdicts.py gathers every file's)."""

from __future__ import annotations

from typing import Final

_CACHE_SIZE = (
    "only the capacity of AwariBoard_invariant's lru_cache changes ({size} entries instead of 1 << 16 = 65536); "
    "the function is pure (a predicate of a frozen AwariBoard), so a cache hit or a recomputation returns the "
    "same value: the bound only decides when entries are evicted, and no code reads cache_info() or "
    "cache_parameters()."
)
_SIDE_DOMAIN = (
    "side's postcondition for {who} restricts pit_order to 0 .. 6 instead of 1 .. 6; pit_order = seq(…) is "
    "{{1 ↦ a, …, 12 ↦ F}} (spec.z.seq numbers from 1), so 0 is not in its domain and "
    "(0 .. 6) ◁ pit_order = (1 .. 6) ◁ pit_order: the contract compares side {who} with the same set."
)
_EMPTY_AT_MINUS_ONE = (
    "the guard `left >= 0` becomes `left >= -1`, which differs only at left = -1 (the fixed {what} holds 49 "
    "stones); there the mutant takes the first branch, {value}, which is 0 — the value of the `else 0` branch "
    "the original takes. Every other left takes the same branch in both."
)
_REFUTED = (
    "`refuted` is only read in `if not (refuted and witnessed): raise SpecError`. `normal_move_binding(move)` "
    "depends on `move` alone (it sows `move` from the initial board and is cached), and `opp_stones` counts "
    "one row of it, chosen by g.to_move: over the 12 moves and both rows that count is at least 19 (every pit "
    "but `move` and the last one sown holds ≥ 4 stones; computed for all 24 cases). So `opp_stones(…) {cmp}` is "
    "True on every call, as `> 0` is."
)
_WITNESSED = (
    "`witnessed` is only read in `if not (refuted and witnessed): raise SpecError`. Each term "
    "`opp_stones(normal_move_binding(m))` is at least 19 ({refuted}), so {how} is True on every call, as the "
    "original `any(… > 0 for m ≠ move)` is."
)
_ALL_STARVE = (
    "`fails_to_feed` is a conjunction with `all_starve`, the constant False (the ∀ refuted by the witnesses): "
    "{how}, so `fails_to_feed` is False on every call, as in the original."
)

EQUIVALENT: Final[dict[str, str]] = {
    "spec/awari.py::AwariBoard_invariant::const::1 → 2#1": _CACHE_SIZE.format(size="2 << 16 = 131072"),
    "spec/awari.py::AwariBoard_invariant::const::16 → 15#1": _CACHE_SIZE.format(size="1 << 15 = 32768"),
    "spec/awari.py::side::const::1 → 0#1": _SIDE_DOMAIN.format(who="north"),
    "spec/awari.py::side::const::1 → 0#2": _SIDE_DOMAIN.format(who="south"),
    "spec/awari.py::After.completions::const::0 → -1#2": _EMPTY_AT_MINUS_ONE.format(
        what="board'", value="left + 1 = 0"
    ),
    "spec/awari.py::After.completions::const::0 → -1#4": _EMPTY_AT_MINUS_ONE.format(
        what="score'", value="comb(left + 11, 11) = comb(10, 11) (math.comb is 0 when k > n)"
    ),
    "spec/awari.py::After.completions::const::49 → 50#1": (
        "with every component free the sum runs over t = 0 … 49 instead of 0 … 48; the added term t = 49 is "
        "(48 − 49 + 1) · comb(60, 11) = 0, so the count is unchanged."
    ),
    "spec/awari.py::IllegalMove::cmp-boundary::opp_stones(normal_move_binding(move)) > 0 → "
    "opp_stones(normal_move_binding(move)) >= 0#1": _REFUTED.format(cmp=">= 0"),
    "spec/awari.py::IllegalMove::const::0 → 1#2": _REFUTED.format(cmp="> 1"),
    "spec/awari.py::IllegalMove::const::0 → -1#2": _REFUTED.format(cmp="> -1"),
    "spec/awari.py::IllegalMove::cmp-boundary::opp_stones(normal_move_binding(m)) > 0 → "
    "opp_stones(normal_move_binding(m)) >= 0#1": _WITNESSED.format(
        refuted="over the 12 moves and both rows, as for `refuted`", how="`any(… >= 0 …)`"
    ),
    "spec/awari.py::IllegalMove::const::0 → 1#3": _WITNESSED.format(
        refuted="over the 12 moves and both rows, as for `refuted`", how="`any(… > 1 …)`"
    ),
    "spec/awari.py::IllegalMove::const::0 → -1#3": _WITNESSED.format(
        refuted="over the 12 moves and both rows, as for `refuted`", how="`any(… > -1 …)`"
    ),
    "spec/awari.py::IllegalMove::cmp-flip::m is not move → m is move#1": _WITNESSED.format(
        refuted="over the 12 moves and both rows, as for `refuted`", how="`any` over the one term m = move"
    ),
    "spec/awari.py::IllegalMove::const::True → False#1": _ALL_STARVE.format(
        how="`some_other_feeds` becoming False changes a conjunction already False"
    ),
    "spec/awari.py::IllegalMove::cmp-flip::opp_stones(g.board) == 0 → opp_stones(g.board) != 0#1": _ALL_STARVE.format(
        how="its first conjunct read as `!= 0` cannot make it true"
    ),
    "spec/awari.py::IllegalMove::const::0 → 1#4": _ALL_STARVE.format(
        how="its first conjunct read as `== 1` cannot make it true"
    ),
    "spec/awari.py::IllegalMove::const::0 → -1#4": _ALL_STARVE.format(
        how="its first conjunct read as `== -1` cannot make it true"
    ),
    "spec/awari.py::IllegalMove::bool-op::refuted and witnessed → refuted or witnessed#1": (
        "`refuted` and `witnessed` are both True on every call (see the entries for their comparisons: every "
        "`opp_stones(normal_move_binding(m))` is at least 19), so `refuted or witnessed` equals `refuted and "
        "witnessed` and the SpecError is never raised in either."
    ),
    "spec/awari.py::normal_move_binding::bool-op::m is None or m.after.board is None → "
    "m is None and m.after.board is None#1": (
        "the guard is False in both on every call: the literal NormalMove from the initial board (24 stones on "
        "each row, so opp_stones board > 0 for either player) with `move`'s owner to play always holds (pre Sow "
        "holds: scores 0, the owner's pit, 4 stones) and returns an Outcome whose board' is set. With m not "
        "None, `m is None and …` is False as `m is None or m.after.board is None` is."
    ),
    "spec/awari.py::Status::const::1 → 2#1": (
        "`assert len(ended) <= 2` instead of `<= 1`: ended never holds two outcomes — WinMargin_corrected holds "
        "only if some score ≥ 25, NoMove_corrected (`_no_move_pre`) and CannotFeed only if every score < 25, and "
        "CannotFeed only if `not _no_move_pre(g)` — so both assertions hold on every call."
    ),
    "spec/awari.py::Status::const::0 → -1#1": (
        "`ended[-1] if ended else None`: `assert len(ended) <= 1` has just held, so a non-empty `ended` has one "
        "element and ended[-1] is ended[0]."
    ),
    "spec/awari.py::referee::const::0 → -1#1": (
        "`outcomes[-1].after.completions() != 1` is evaluated only when `len(outcomes) != 1` is False (the `or` "
        "short-circuits otherwise), i.e. when outcomes has one element: outcomes[-1] is outcomes[0]."
    ),
}
