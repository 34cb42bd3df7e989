"""The checks pass on the built tables, and fail on planted bugs in the kernel."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from impl.engines.tablebase import build, check, kernel, store
from impl.engines.tablebase.index import level_size, unrank
from impl.engines.tablebase.probe import Table
from spec import awari_rules as AR


@pytest.mark.parametrize("rules", ["paper", "abapa", "olympiad-1990", "paper,grand-slam=c", "paper,grand-slam=d"])
def test_the_kernel_equals_the_proven_engine(rules: str) -> None:
    assert check.kernel_vs_engine(AR.parse_rules(rules), 6) == []


def test_the_kernel_equals_the_proven_engine_on_every_board_of_8_stones() -> None:
    assert check.kernel_vs_engine(AR.PAPER, 8) == []


def test_the_python_kernel_equals_the_proven_engine() -> None:
    assert check.kernel_vs_engine(AR.parse_rules("abapa"), 4, use_c=False) == []


@pytest.mark.parametrize("name", ["paper", "olympiad-1990"])
def test_every_entry_satisfies_bellman_on_the_proven_engine(tables: dict[str, Table], name: str) -> None:
    assert check.bellman(tables[name]) == []


@pytest.mark.parametrize("name", ["paper", "olympiad-1990"])
def test_distances_make_progress(tables: dict[str, Table], name: str) -> None:
    assert check.check_distances(tables[name]) == []


def test_the_parallel_pass_finds_a_changed_entry_and_a_changed_distance(tmp_path: Path) -> None:
    """``in_parts`` (the CLI's pass: tasks on 2 worker processes) finds an entry and a
    distance changed on disk — rewritten with their checksum, as a wrong build would
    write them (a checksum that fails is refused before: test_damaged_tables.py) — each
    under its own check, and nothing on the built table."""
    rules = AR.parse_rules("olympiad-1990")
    build.build(tmp_path, rules, 6)
    seen: list[tuple[int, int]] = []
    assert check.in_parts(Table(tmp_path, rules, 6), 2, lambda *p: seen.append(p)) == {
        name: []
        for name in check.CHECKS
        if name != check.BOUNDS  # an uncounted table has no bounds
    }
    boards = sum(level_size(n) for n in range(7))
    assert seen[-1] == (boards, boards) and [d for d, _ in seen] == sorted(d for d, _ in seen)
    table = Table(tmp_path, rules, 6)
    r = next(r for r in range(level_size(6)) if table.at(6, r) > 1 and (table.distance(unrank(r, 6)) or 0) > 1)
    pits = unrank(r, 6)
    for kind, at, new in (("tb", r, table.at(6, r) - 1), ("dist", 2 * r, 0)):
        path = store.level_path(tmp_path, "olympiad-1990", 6, kind)
        saved = path.read_bytes()
        values = bytearray(saved[store.HEADER_SIZE :])
        values[at] = new & 255
        store.write(tmp_path, "olympiad-1990", 6, bytes(values), kind, 2 if kind == "dist" else 1)
        found = check.in_parts(Table(tmp_path, rules, 6), 2)
        path.write_bytes(saved)
        name = "Bellman on the proven engine" if kind == "tb" else "distances make progress"
        assert any(line.startswith(f"{pits}:") for line in found[name]), found


def _check(folder: Path, rules: str, *extra: str) -> subprocess.CompletedProcess[str]:
    """``referee tablebase check`` without the spec's contracts (their cost is the
    spec solve's whole time; the proofs run the spec so too)."""
    env = {**os.environ, "SPEC_CONTRACTS": "0"}
    command = [sys.executable, "-m", "impl.cli", "tablebase", "check", "awari", "--out", str(folder), "--rules", rules]
    return subprocess.run([*command, *extra], env=env, capture_output=True, text=True, timeout=600)


def test_the_spec_solve_and_the_referees_game_agree_under_uncounted(tmp_path: Path) -> None:
    rules = AR.parse_rules("olympiad-1990")
    build.build(tmp_path, rules, 5)
    done = _check(tmp_path, "olympiad-1990", "--stones", "5", "--spec-stones", "5", "--history-stones", "2")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "the spec's solve: ok" in done.stdout and "the referee's game: ok" in done.stdout


def test_under_own_row_the_referees_game_can_differ_by_repetition(tmp_path: Path) -> None:
    """The paper's rules: the spec solve agrees (same game), the referee's game with its
    repetition rule does not everywhere — why an entry is not the referee's value there —
    and lies within the bounds (bounds.py) everywhere; without them the check compares
    the entries and finds the difference."""
    build.build(tmp_path, AR.PAPER, 4)
    done = _check(tmp_path, "paper", "--stones", "4", "--spec-stones", "4", "--history-stones", "2")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "the referee's game within the bounds: ok" in done.stdout
    for path in [*tmp_path.glob("*.hi"), *tmp_path.glob("*.lo")]:
        path.unlink()
    done = _check(tmp_path, "paper", "--stones", "4", "--spec-stones", "4", "--history-stones", "2")
    assert done.returncode == 1
    assert "the spec's solve: ok" in done.stdout and "the referee's game: " in done.stdout
    assert "(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0) stores 23/23: referee 1, table says 0" in done.stderr


# ─── Planted bugs ──────────────────────────────────────────────────────────────

PLANTS = [
    ("paper", kernel.PLANT_CAPTURE),
    ("paper", kernel.PLANT_INDEX),
    ("olympiad-1990", kernel.PLANT_SLAM),
]


@pytest.mark.parametrize(("rules", "bug"), PLANTS)
@pytest.mark.parametrize("use_c", [True, False])
def test_a_planted_bug_fails_the_kernel_check(rules: str, bug: int, use_c: bool) -> None:
    assert check.kernel_vs_engine(AR.parse_rules(rules), 6, bug=bug, use_c=use_c) != []


@pytest.mark.parametrize(("rules", "bug"), PLANTS)
def test_a_planted_bug_fails_the_bellman_check(tmp_path: Path, rules: str, bug: int) -> None:
    ruleset = AR.parse_rules(rules)
    build.build(tmp_path, ruleset, 6, bug=bug)
    assert check.bellman(Table(tmp_path, ruleset, 6)) != []
