"""Tables for each named rule set (issue #39, item 2): ``referee tablebase build``
says what an entry of the rule set's table means — the referee's exact value where
``probe.trusted`` holds (repetition uncounted: olympiad-1990), or the table's game's
value only (own row: paper, abapa) — and refuses in one line a rule set whose result
is not a matter of the stones (olympiad-1994: a repetition is a draw, a player who
cannot move loses), where no entry can be exact."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from impl import cli
from impl.engines.awari import engine_for
from impl.engines.tablebase import probe
from impl.engines.tablebase import rules as facts
from spec import awari_rules as AR
from tests.support import paths
from tests.support.terminal import refused


@pytest.mark.parametrize(
    ("rules", "exact"), [("olympiad-1990", True), ("paper", False), ("abapa", False)]
)  # fmt: skip
def test_a_named_rule_sets_build_says_what_an_entry_means(
    rules: str, exact: bool, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["tablebase", "build", "awari", "--stones", "4", "--rules", rules, "--out", str(tmp_path)]) == 0
    said = capsys.readouterr().out.splitlines()[1]
    assert said == f"{rules}: {facts.meaning(AR.parse_rules(rules))}"
    assert ("the referee's exact value" in said) == exact and ("the bounds built with it" in said) != exact
    # South to move, a stone on its last pit and one on north's first, stores 23/23:
    # south captures both at once, so the value is exact under every rule set — under
    # own-row repetition by the bounds (the chase that is not: test_bounds.py).
    table = probe.Table(tmp_path, AR.parse_rules(rules), 4)
    state = (0x010000000000, 0x000000000001, 23 | 23 << 8 | 1 << 16, frozenset[tuple[int, int, int]]())
    assert not engine_for(table.rules).is_over(state)
    assert probe.trusted(table, state) and (table.bounds is None) == exact
    assert probe.adjudicate(state, table) is not None


@pytest.mark.parametrize(
    ("rules", "why"),
    [
        ("olympiad-1994", "a repetition is a draw and a player who cannot move loses"),
        ("paper,repetition=draw", "a repetition is a draw,"),
        ("olympiad-1990,cannot-move=player-loses", "a player who cannot move loses,"),
    ],
)
def test_a_rule_set_whose_result_is_not_the_stones_is_refused_in_one_line(rules: str, why: str, tmp_path: Path) -> None:
    argv = [sys.executable, "-m", "impl.cli", "tablebase", "build", "awari", "--stones", "3", "--rules", rules]
    env = {**os.environ, "PYTHONPATH": str(paths.ROOT)}
    done = subprocess.run([*argv, "--out", "t"], env=env, cwd=tmp_path, capture_output=True, text=True, timeout=60)
    line = refused(done)
    assert line.startswith(f"referee tablebase: rules {AR.canonical_name(AR.parse_rules(rules))}: {why}")
    assert "no entry can be exact" in line
    assert list(tmp_path.iterdir()) == []  # nothing built
