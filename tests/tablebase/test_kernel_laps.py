"""The kernels against the proven engine where a table's boards go and the exhaustive
check does not (issue #49, item 7a): ``kernel_vs_engine`` compares every board of
≤ 8 stones, where no pit holds 11, so kernel.c's lap shortcut (a pit of 11 stones or
more sows every other pit at once) is never taken there.  ``check.lap_sample`` puts
every count 0 … 24 in every pit, and the C kernel and the Python one must each equal
the engine on it under every grand-slam rule; a lap bug planted in the C kernel
passes the exhaustive check and fails this one."""

from __future__ import annotations

import re

import pytest

from impl.engines.registry import get_engine
from impl.engines.tablebase import check, ckernel, kernel
from spec import awari_rules as AR

SLAMS = {"olympiad-1990": "a", "abapa": "b", "paper,grand-slam=c": "c", "paper,grand-slam=d": "d", "paper": "e"}
"""A rule set for each grand-slam rule the kernels know (kernel.GS_A … GS_E)."""


def test_the_rule_sets_cover_every_grand_slam_rule() -> None:
    assert sorted(AR.parse_rules(name).grand_slam.value for name in SLAMS) == list("abcde")
    assert all(AR.parse_rules(name).grand_slam.value == slam for name, slam in SLAMS.items())


LAPS = {"11": range(11, 12), "12-21": range(12, 22), "22": range(22, 23), "23-24": range(23, 25)}
"""The lap cases: one lap exactly (it ends before the origin), a lap and more, two
laps exactly, two laps and more."""


def _last(pit: int, count: int) -> int:
    """The last pit sown from ``pit`` with ``count`` stones, one by one, the origin
    skipped (spec/awari.py Sow), written here apart from both kernels."""
    q = pit
    for _ in range(count):
        q = (q + 1) % 12
        if q == pit:
            q = (q + 1) % 12
    return q


def test_the_sample_puts_every_count_in_every_pit_and_captures_after_laps() -> None:
    """Seeded (the same boards each run), at most 48 stones a board, every (pit, count)
    of 0 … 24; and for each of the mover's pits and each lap case where the sowing can
    end on the opponent's row, some board where that move captures (the proven
    engine says so): the lap, the last pit and the capture after it all exercised."""
    sample = check.lap_sample()
    assert sample == check.lap_sample() and len(sample) == 12 * 25 * check.LAP_SAMPLE
    assert all(len(pits) == 12 and sum(pits) <= 48 for pits in sample)
    assert {(q, pits[q]) for pits in sample for q in range(12)} == {(q, c) for q in range(12) for c in range(25)}
    engine = get_engine("awari", "impl", AR.PAPER)
    kind = {c: name for name, counts in LAPS.items() for c in counts}
    captured = set()
    for pits in sample:
        _, moves = check.engine_moves(engine, pits)
        captured |= {(pit, kind[pits[pit]]) for pit, taken, _, _ in moves if taken and pits[pit] >= 11}
    possible = {(pit, name) for pit in range(6) for name, c in LAPS.items() if any(_last(pit, n) >= 6 for n in c)}
    assert (0, "11") in possible and (1, "11") not in possible  # one lap from pit b ends on pit a: no capture
    assert captured == possible


@pytest.mark.parametrize("rules", sorted(SLAMS))
@pytest.mark.parametrize("use_c", [True, False], ids=["C", "Python"])
def test_the_kernel_equals_the_proven_engine_on_laps(rules: str, use_c: bool) -> None:
    if use_c and ckernel.load() is None:
        pytest.skip("no C compiler: the C kernel is not built here")
    assert check.kernel_vs_engine_on(AR.parse_rules(rules), check.lap_sample(), use_c=use_c) == []


BOARD = re.compile(r"^\(([\d, ]+)\)(?: pit (\d))?:")


@pytest.mark.parametrize("rules", sorted(SLAMS))
def test_a_planted_lap_bug_passes_the_exhaustive_check_and_fails_this_one(rules: str) -> None:
    """kernel.PLANT_LAP: each lap sows the origin too.  No board of ≤ 6 stones shows
    it; the sample does, and every difference is on a board whose mover holds 11
    stones or more in a pit (in the pit the line names, when it names one)."""
    if ckernel.load() is None:
        pytest.skip("no C compiler: the bug is planted in the C kernel")
    ruleset = AR.parse_rules(rules)
    assert check.kernel_vs_engine(ruleset, 6, bug=kernel.PLANT_LAP) == []
    found = check.kernel_vs_engine_on(ruleset, check.lap_sample(), bug=kernel.PLANT_LAP)
    assert len(found) == check.MAX_DIFFERENCES
    for line in found:
        match = BOARD.match(line)
        assert match is not None, line
        pits = [int(p) for p in match.group(1).split(",")]
        if match.group(2) is not None:
            assert pits[int(match.group(2))] >= 11, line
        else:
            assert max(pits[:6]) >= 11, line
