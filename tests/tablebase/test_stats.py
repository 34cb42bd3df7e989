"""Per-level statistics of a table (impl/engines/tablebase/stats.py, ``referee
tablebase stats``): the counts equal those of every entry read one by one, the
longest line is the deepest distance, and its board needs it."""

from __future__ import annotations

from pathlib import Path

import pytest

from impl import cli
from impl.engines.tablebase import stats
from impl.engines.tablebase.index import boards
from impl.engines.tablebase.probe import Table

from .conftest import STONES


@pytest.mark.parametrize("name", ["paper", "olympiad-1990"])
def test_the_counts_are_every_entry_read_one_by_one(tables: dict[str, Table], name: str) -> None:
    table = tables[name]
    for level in stats.table_stats(table):
        n = level.stones
        values = [table.value(b) for b in boards(n)]
        assert (level.boards, level.wins, level.draws, level.losses) == (
            len(values),
            sum(v > 0 for v in values),
            sum(v == 0 for v in values),
            sum(v < 0 for v in values),
        )
        assert level.best == max(values)
        distances = [table.distance(b) or 0 for b in boards(n)]
        assert level.longest == max(distances)
        assert level.longest_board is not None and table.distance(level.longest_board) == level.longest
        exact = [table.exact(b) is not None for b in boards(n)] if table.bounds is not None else None
        assert level.exact == (None if exact is None else sum(exact))


def test_the_command_prints_a_line_a_level(tables: dict[str, Table], capsys: pytest.CaptureFixture[str]) -> None:
    folder = tables["paper"].folder
    assert cli.main(["tablebase", "stats", "awari", "--out", str(folder)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"paper tables of 0 … {STONES} stones in {folder}; counts for the side to move"
    assert len(lines) == 2 + STONES + 1
    assert lines[1].split()[5] == "exact"  # the paper's bounds: the boards whose value they fix
    assert lines[3].split()[:6] == ["1", "12", "5", "0", "7", "12"]  # one stone: the mover wins 5 of 12
    assert "e.g. " in lines[-1]


def test_a_folder_without_the_table_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["tablebase", "stats", "awari", "--out", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert err.strip() == f"referee tablebase: {tmp_path}: no paper table" and "Traceback" not in err
