"""Building: the C kernel and the Python one agree, level files are whole, checked
and kept when valid, and rule sets the margin cannot express are refused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from impl.engines.tablebase import build, ckernel, store
from impl.engines.tablebase.probe import Table
from spec import awari_rules as AR

PAPER = AR.parse_rules("paper")


@pytest.mark.skipif(ckernel.load() is None, reason="no C compiler")
@pytest.mark.parametrize("rules", ["paper", "abapa", "olympiad-1990", "paper,grand-slam=c", "paper,grand-slam=d"])
def test_c_and_python_kernels_build_the_same_tables(tmp_path: Path, rules: str) -> None:
    ruleset = AR.parse_rules(rules)
    build.build(tmp_path / "c", ruleset, 5)
    build.build(tmp_path / "py", ruleset, 5, use_c=False)
    for n in range(6):
        name = AR.canonical_name(ruleset)
        c = store.level_path(tmp_path / "c", name, n).read_bytes()
        py = store.level_path(tmp_path / "py", name, n).read_bytes()
        assert c[store.HEADER_SIZE :] == py[store.HEADER_SIZE :]


def test_the_small_levels_by_hand(tables: dict[str, Table]) -> None:
    paper = tables["paper"]
    assert paper.value((0,) * 12) == 0
    assert paper.value((0,) * 11 + (1,)) == -1  # nothing to move: the opponent takes its row
    assert paper.value((1,) + (0,) * 11) == 1  # the opponent starves: the mover takes its row
    assert paper.value((0, 0, 0, 0, 0, 1) + (0,) * 6) == -1  # forced to feed, then starved in turn
    assert paper.value((0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0)) == 2  # f into a: 2 captured


def test_the_header_names_what_the_file_holds(tables: dict[str, Table], tmp_path: Path) -> None:
    path = store.write(tmp_path, "paper", 2, bytes(78))
    header = store.read_header(path)
    assert (header.game, header.rules, header.n, header.format, header.boards) == ("awari", "paper", 2, 1, 78)
    assert header.fingerprint == store.fingerprint()
    assert not [p for p in tmp_path.iterdir() if p != path]  # no temporary file left
    raw = path.read_bytes()
    assert raw.startswith(store.MAGIC) and json.loads(raw[5 : raw.index(b"\n")])["sha256"] == header.sha256


def test_a_build_resumes_and_rebuilds_what_is_damaged(tmp_path: Path) -> None:
    reports: list[build.LevelReport] = []
    build.build(tmp_path, PAPER, 4)
    damaged = store.level_path(tmp_path, "paper", 3)
    raw = bytearray(damaged.read_bytes())
    raw[-1] ^= 1
    damaged.write_bytes(bytes(raw))
    build.build(tmp_path, PAPER, 5, report=reports.append)
    assert [r.kept for r in reports] == [True, True, True, False, True, False]
    damaged.write_bytes(bytes(raw))
    with pytest.raises(store.TableError, match="checksum"):
        store.open_level(damaged, "paper", 3, verify=True)
    damaged.write_bytes(bytes(raw[:-1]))
    with pytest.raises(store.TableError, match="truncated"):
        store.open_level(damaged, "paper", 3)


def test_a_file_of_other_rules_is_refused(tmp_path: Path) -> None:
    build.build(tmp_path, PAPER, 1)
    with pytest.raises(store.TableError, match="built for"):
        store.open_level(store.level_path(tmp_path, "paper", 1), "abapa", 1)


@pytest.mark.parametrize("rules", ["olympiad-1994", "paper,repetition=draw", "paper,cannot-move=player-loses"])
def test_rules_whose_result_is_not_a_margin_are_refused(tmp_path: Path, rules: str) -> None:
    with pytest.raises(build.UnsupportedRules):
        build.build(tmp_path, AR.parse_rules(rules), 2)


def test_worker_processes_build_the_same_level(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Level 8 (75,582 boards) is split among 2 forked workers sharing its arrays."""
    build.build(tmp_path / "one", PAPER, 8)
    sweeps: list[tuple[int, int]] = []
    monkeypatch.setattr(build, "SWEEP_REPORT_FROM", 50_000)
    build.build(tmp_path / "two", PAPER, 8, jobs=2, on_sweep=lambda n, s, c, t: sweeps.append((n, c)))
    one = store.level_path(tmp_path / "one", "paper", 8).read_bytes()
    two = store.level_path(tmp_path / "two", "paper", 8).read_bytes()
    assert one[store.HEADER_SIZE :] == two[store.HEADER_SIZE :]
    assert sweeps and {n for n, _ in sweeps} == {8} and sweeps[-1][1] == 0
