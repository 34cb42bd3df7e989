"""Survivors of impl/engines/awari.py judged equivalent: the mutant's stable key → why no test can
tell it from the original (tests/mutation/verdicts.py gathers every file's)."""

from __future__ import annotations

from typing import Final

_SOWN_PIT = (
    "a sown pit holds 1 … 48 stones: a pit holds at most the game's 48 (Σ board + Σ score = 48, AwariBoard), "
    "and every caller of a sowing (`apply`, `legal_moves`, `_cannot_feed`, `_any_feeds_r`, `_perft`, "
    "`_perft_r`, impl/players/search_awari.py) skips a pit unless `mine >> sh & 255` is non-zero"
)
_STARVED = (
    "`_feeds` runs only on a starved opponent (theirs == 0: `_cannot_feed` returns before it when theirs is "
    "non-zero, and `legal_moves` calls it only as `theirs or _feeds(...)`)"
)
_NEVER_READ = (
    "only the rows of `_SOW` for n = 0 and n = 49 … 63 keep the default, and no sowing reads them: "
    + _SOWN_PIT
    + ". Every row read is the one the loop writes. (The bounded refinement proof, proofs/awari/refinement.py "
    "sow_table_is_spec_sow, still asserts the n = 0 rows (0, 0, -1): an internal table, not behaviour.)"
)
_LAST_OWN = (
    "the table's `last` for a sowing that ends on the mover's own row becomes {value} instead of -1; every "
    "reader of `last` (`_feeds`, `_play`, `_sown_r`, `_play_r`) only asks `last >= 0`, false for both. (The "
    "bounded refinement proof sow_table_is_spec_sow asserts -1 itself: an internal table, not behaviour.)"
)
_TAG = (
    "PLAYING, REFUSED and ENDED are only tags: every use (`_play`, `_play_r`, `apply`, `RulesAwari.play`, "
    "`_perft`, `_perft_r`, impl/players/search_awari.py, which reads them from the module) compares an "
    "outcome with `==`/`!=` against the same names; {values} are still three distinct ints, and no code "
    "orders them or tests their truth."
)
_ENDED_POSITIVE = (
    "`_ended` returns -1 or the after-meta, which is never 0: under WinMargin it is the meta itself with a "
    "score ≥ 25; under NoMove and CannotFeed `_claimed` adds both rows to the scores, so the scores hold all "
    "48 stones. So `{expr}` holds exactly when `>= 0` does."
)
_ROW_TOP = (
    "j = 6 ({where}) reads `mine >> 48 & 255`, and a packed row of six pits of ≤ 48 stones is below 2⁴⁸: "
    "the byte is 0, so the pit counts as empty, as it is skipped in the original."
)
_SOWN_R_ROW = (
    "`_sown_r`'s {what} is never read: its one caller in the engine, `_feeds_r`, reads only the opponent's row "
    "after (`[1] != 0`); the hot path `_play_r` inlines its own copy. (tests/engines/test_crosscheck_openspiel.py, "
    "in make verify-deep only, reads them to label which end a move met for its tally of rare cases.)"
)
_FAST_PATH = (
    "`_play_r`'s early PLAYING return is a shortcut: whenever its condition holds (both rows hold stones, the "
    "key is unseen, the mover's score < 25 — the other score is unchanged and was < 25, the game being on), "
    "`_ended_r` on the same position answers None (no WinMargin, CannotMove, Repetition or StarvedOut), and "
    "`ended is None` returns the identical PLAYING tuple two lines later. The mutant ({how}) only makes the "
    "condition stricter, sending more positions down that path: the same result."
)
_BIT0 = (
    "c is only tested as `c == 2 or c == 3`; for a byte x, `x & 254` is 2 exactly when x is 2 or 3 and is "
    "never 3, so the test answers the same for every row."
)

EQUIVALENT: Final[dict[str, str]] = {
    "impl/engines/awari.py::<module>::const::0 → -1#1": _TAG.format(values="-1, 1 and 2"),
    "impl/engines/awari.py::<module>::const::2 → 3#1": _TAG.format(values="0, 1 and 3"),
    "impl/engines/awari.py::_sow_table::const::0 → 1#1": _NEVER_READ,
    "impl/engines/awari.py::_sow_table::const::0 → -1#1": _NEVER_READ,
    "impl/engines/awari.py::_sow_table::const::0 → 1#2": _NEVER_READ,
    "impl/engines/awari.py::_sow_table::const::0 → -1#2": _NEVER_READ,
    "impl/engines/awari.py::_sow_table::unary::-1 → 1#1": _NEVER_READ,
    "impl/engines/awari.py::_sow_table::const::1 → 2#1": _NEVER_READ,
    "impl/engines/awari.py::_sow_table::const::1 → 0#1": _NEVER_READ,
    "impl/engines/awari.py::_sow_table::const::6 → 7#1": (
        "the table grows from 6 << 6 to 7 << 6 rows; the rows added (j = 6) are never read, as `sh` is 8j for "
        "j = 0 … 5, and no code reads the table's length."
    ),
    "impl/engines/awari.py::_sow_table::const::6 → 7#2": (
        "the table grows from 6 << 6 to 6 << 7 rows; only rows 8j << 3 | n below 6 << 6 are read (j = 0 … 5, "
        "n ≤ 48), and no code reads the table's length."
    ),
    "impl/engines/awari.py::_sow_table::const::49 → 50#1": (
        "the loop also writes the rows n = 49, which stay inside their pit's 64 rows and are never read: a "
        "sown pit holds at most 48 stones."
    ),
    "impl/engines/awari.py::_sow_table::const::12 → 13#2": (
        "the step that skips the origin runs only when q == j ≤ 5, so q + 1 ≤ 6 and (q + 1) % 13 == (q + 1) % 12: "
        "the table is identical."
    ),
    "impl/engines/awari.py::_sow_table::const::12 → 11#2": (
        "the step that skips the origin runs only when q == j ≤ 5, so q + 1 ≤ 6 and (q + 1) % 11 == (q + 1) % 12: "
        "the table is identical."
    ),
    "impl/engines/awari.py::_sow_table::const::6 → 5#7": (
        "`q - 6 if q >= 5 else -1` differs from the original only at q = 5, where it gives 5 - 6 = -1, the "
        "original's value: the table is identical."
    ),
    "impl/engines/awari.py::_sow_table::const::1 → 2#7": _LAST_OWN.format(value="-2"),
    "impl/engines/awari.py::_feeds::cmp-boundary::last >= 0 → last > 0#1": (
        "differs only when the feeding test's sowing ends in the starved opponent's pit 0 holding 2 or 3. "
        "The row was empty, so the sowing passed that pit at least twice and so sowed every other pit of the "
        "row at least once; the capture walk starts at pit 0 and stops there (it walks down the row), so "
        "the row keeps stones whether pit 0 is captured or not: `after != 0` either way."
    ),
    "impl/engines/awari.py::_feeds::const::0 → 1#1": (
        "`last >= 1` is `last > 0`: it differs only when the feeding test's sowing ends in the opponent's pit 0 "
        "holding 2 or 3. " + _STARVED + ", so the sowing passed that pit at least twice and so sowed every "
        "other pit of the row at least once; the capture walk starts at pit 0 and stops there, so the row keeps "
        "stones whether pit 0 is captured or not: `after != 0` either way."
    ),
    "impl/engines/awari.py::_feeds::arith::last << 3 → last >> 3#1": (
        "for last = 0 … 5, `last >> 3` is 0, so the mutant tests the count of the opponent's pit 0 instead of "
        "the last pit's. "
        + _STARVED
        + ", so `after` is the sowing alone: the row's pits are sown in order 0 … 5, lap after lap, so pits "
        "0 … last hold one stone more than pits last + 1 … 5, and pit 0 holds as many as the last pit. The test "
        "and the capture are the same."
    ),
    "impl/engines/awari.py::_feeds::const::255 → 254#2": _BIT0,
    "impl/engines/awari.py::_cannot_feed::return::return False → return None#1": (
        "`_cannot_feed`'s result is only tested for truth (`_ended`: in an `or` inside an `if`; `_play`: in "
        "`not mine_ and _cannot_feed(...)` inside an `if`), where None and False are alike."
    ),
    "impl/engines/awari.py::_cannot_feed::arith::mine >> sh & 255 → mine >> sh | 255#1": (
        "the guard becomes always true, so `_feeds` also runs on the mover's empty pits: there n = 0, the "
        "table's row is (0, 0, -1), so `after` = theirs = 0 (the starved row) and `_feeds` is False, as the "
        "skipped pit contributed in the original."
    ),
    "impl/engines/awari.py::_ended::const::1 → 2#1": (
        "`_ended`'s 'the game goes on' becomes -2 instead of -1; every caller (`apply`, `legal_moves`, "
        "`is_over`, `perft`) only asks `_ended(...) >= 0`, false for both."
    ),
    "impl/engines/awari.py::_play::const::255 → 254#2": _BIT0,
    "impl/engines/awari.py::ImplAwari.apply::cmp-boundary::ended >= 0 → ended > 0#1": _ENDED_POSITIVE.format(
        expr="ended > 0"
    ),
    "impl/engines/awari.py::ImplAwari.apply::const::0 → 1#1": _ENDED_POSITIVE.format(expr="ended >= 1"),
    "impl/engines/awari.py::ImplAwari.apply::cmp-boundary::0 <= j < 6 → 0 <= j <= 6#1": _ROW_TOP.format(
        where="north naming south's pit A"
    ),
    "impl/engines/awari.py::ImplAwari.apply::const::6 → 7#2": _ROW_TOP.format(where="north naming south's pit A"),
    "impl/engines/awari.py::ImplAwari.legal_moves::cmp-boundary::_ended(mine, theirs, meta, positions) >= 0 → "
    "_ended(mine, theirs, meta, positions) > 0#1": _ENDED_POSITIVE.format(expr="> 0"),
    "impl/engines/awari.py::ImplAwari.legal_moves::const::0 → 1#1": _ENDED_POSITIVE.format(expr=">= 1"),
    "impl/engines/awari.py::ImplAwari.legal_moves::const::6 → 7#2": _ROW_TOP.format(where="the extra pass of the loop"),
    "impl/engines/awari.py::ImplAwari.is_over::cmp-boundary::_ended(*state) >= 0 → _ended(*state) > 0#1": (
        _ENDED_POSITIVE.format(expr="> 0")
    ),
    "impl/engines/awari.py::ImplAwari.is_over::const::0 → 1#1": _ENDED_POSITIVE.format(expr=">= 1"),
    "impl/engines/awari.py::perft::cmp-boundary::_ended(mine, theirs, meta, positions) >= 0 → "
    "_ended(mine, theirs, meta, positions) > 0#1": _ENDED_POSITIVE.format(expr="> 0"),
    "impl/engines/awari.py::perft::const::0 → 1#2": _ENDED_POSITIVE.format(expr=">= 1"),
    "impl/engines/awari.py::_sown_r::arith::mine - (n << sh) + add_mine → mine - (n << sh) - add_mine#1": (
        _SOWN_R_ROW.format(what="mover's row after (mine')")
    ),
    "impl/engines/awari.py::_sown_r::arith::mine - (n << sh) → mine + (n << sh)#1": _SOWN_R_ROW.format(
        what="mover's row after (mine')"
    ),
    "impl/engines/awari.py::_sown_r::arith::n << sh → n >> sh#1": _SOWN_R_ROW.format(what="mover's row after (mine')"),
    "impl/engines/awari.py::_sown_r::const::0 → 1#2": _SOWN_R_ROW.format(what="gain"),
    "impl/engines/awari.py::_sown_r::const::0 → -1#2": _SOWN_R_ROW.format(what="gain"),
    "impl/engines/awari.py::_sown_r::arith::last << 3 → last >> 3#1": (
        "for last = 0 … 5, `last >> 3` is 0: the mutant tests the opponent's pit 0 for 2 or 3 instead of the last "
        "pit, and only `[1] != 0` of the result is read (`_feeds_r`). A sowing whose last stone lands on the "
        "opponent's row sows their pit 0 first, so pit 0 holds ≥ 1 after it. If the original's capture empties "
        "the row, it took pit 0, so pit 0 holds 2 or 3 and the mutant makes the same `_capture_r` call. "
        "Otherwise the original leaves stones, and so does the mutant: it leaves the row as sown (pit 0 ≥ 1), "
        "or makes the original's own call, or (last pit not 2 or 3) a walk that stops at once and keeps the row."
    ),
    "impl/engines/awari.py::_sown_r::const::255 → 254#2": _BIT0,
    "impl/engines/awari.py::RulesAwari.apply::cmp-boundary::0 <= j < 6 → 0 <= j <= 6#1": _ROW_TOP.format(
        where="north naming south's pit A"
    ),
    "impl/engines/awari.py::RulesAwari.apply::const::6 → 7#2": _ROW_TOP.format(where="north naming south's pit A"),
    "impl/engines/awari.py::RulesAwari.legal_moves::const::6 → 7#2": _ROW_TOP.format(
        where="the extra pass of the loop"
    ),
    "impl/engines/awari.py::_play_r::const::255 → 254#2": _BIT0,
    "impl/engines/awari.py::_play_r::bool-op::not gained or meta_ >> (me << 3) & 255 < 25 → "
    "not gained and meta_ >> (me << 3) & 255 < 25#1": _FAST_PATH.format(
        how="with no gain the mover's score is < 25 anyway; with a gain it never takes the shortcut"
    ),
    "impl/engines/awari.py::_play_r::arith::meta_ >> (me << 3) & 255 → meta_ >> (me << 3) | 255#1": _FAST_PATH.format(
        how="`x | 255` ≥ 255, so after a gain it never takes the shortcut"
    ),
    "impl/engines/awari.py::_play_r::const::25 → 24#1": _FAST_PATH.format(
        how="a score of 24 after a gain takes the long way"
    ),
}
