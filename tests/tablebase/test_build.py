"""Building: the C kernel and the Python one agree, level files are whole, checked
and kept when valid, and rule sets the margin cannot express are refused."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from impl.engines.tablebase import build, ckernel, kernel, store
from impl.engines.tablebase import rules as facts
from impl.engines.tablebase.index import level_size, unrank
from impl.engines.tablebase.probe import Table
from spec import awari_rules as AR
from tests.support import paths

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


def test_the_code_fingerprint_ignores_comments_and_docstrings_not_code() -> None:
    """A comment edited must not make every table on disk other code (hours to rebuild)."""
    c = b"/* the solver */\nint f(int a) { return a + 1; } // one more\n"
    assert store.code_text("kernel.c", c) == store.code_text("kernel.c", b"int f(int a)  {\n return a + 1; }")
    assert store.code_text("kernel.c", c) != store.code_text("kernel.c", c.replace(b"+ 1", b"+ 2"))
    py = b'"""Rules."""\nimport os\n\n\ndef f() -> int:\n    """Doc."""\n    return 1  # why\n'
    assert store.code_text("kernel.py", py) == store.code_text("kernel.py", b"import os\ndef f() -> int:\n  return 1\n")
    assert store.code_text("kernel.py", py) != store.code_text("kernel.py", py.replace(b"return 1", b"return 2"))


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
        store.open_level(damaged, "paper", 3)
    damaged.write_bytes(bytes(raw[:-1]))
    with pytest.raises(store.TableError, match="truncated"):
        store.open_level(damaged, "paper", 3)


def test_a_file_of_other_rules_is_refused(tmp_path: Path) -> None:
    build.build(tmp_path, PAPER, 1)
    with pytest.raises(store.TableError, match="built for"):
        store.open_level(store.level_path(tmp_path, "paper", 1), "abapa", 1)


@pytest.mark.parametrize("rules", ["olympiad-1994", "paper,repetition=draw", "paper,cannot-move=player-loses"])
def test_rules_whose_result_is_not_a_margin_are_refused(tmp_path: Path, rules: str) -> None:
    with pytest.raises(facts.UnsupportedRules):
        build.build(tmp_path, AR.parse_rules(rules), 2)


def test_worker_processes_build_the_same_level(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Level 8 (75,582 boards): its two passes split among 2 forked workers sharing its
    arrays, one task per threshold; the same entries and distances as one process."""
    build.build(tmp_path / "one", PAPER, 8)
    progress: list[tuple[int, int, int, int]] = []
    monkeypatch.setattr(build, "PROGRESS_FROM", 50_000)
    build.build(tmp_path / "two", PAPER, 8, jobs=2, on_progress=lambda n, t, m, k, s: progress.append((n, t, m, k)))
    for kind in ("tb", "dist"):
        one = store.level_path(tmp_path / "one", "paper", 8, kind).read_bytes()
        two = store.level_path(tmp_path / "two", "paper", 8, kind).read_bytes()
        assert one[store.HEADER_SIZE :] == two[store.HEADER_SIZE :]
    assert sorted(t for n, t, _, _ in progress) == list(range(1, 9)) and {n for n, *_ in progress} == {8}
    # threshold t's attractors hold every board whose entry is t or more in size
    table = Table(tmp_path / "one", PAPER, 8)
    members = {t: m for _, t, m, _ in progress}
    for t in range(1, 9):
        assert members[t] >= sum(1 for r in range(level_size(8)) if abs(table.at(8, r)) >= t)


def test_the_retrograde_solver_equals_the_fixpoint_of_sweeps(tmp_path: Path) -> None:
    """kernel.c's attractors against kernel.py's solve_level — the same equations solved
    by Gauss-Seidel sweeps to their least fixpoint — on every board of ≤ 6 stones, and
    the distances against a Jacobi iteration written here (after k steps W, L are the
    margins forced within k plies; a board's distance is the first k at which its side
    ahead reaches its entry)."""
    ruleset = AR.parse_rules("paper,grand-slam=c")
    gs = facts.slam_rule(ruleset)
    build.build(tmp_path, ruleset, 6)
    table = Table(tmp_path, ruleset, 6)
    for n in range(7):
        entries = [table.at(n, r) for r in range(level_size(n))]
        assert bytes(e & 255 for e in entries) == bytes(kernel.solve_level(n, gs, table.at, kernel.NO_BUG))
        assert table.distances is not None
        distances = [table.distance(unrank(r, n)) for r in range(level_size(n))]
        assert distances == _jacobi_distances(n, gs, table.at, entries)


def _jacobi_distances(n: int, gs: int, lookup: Callable[[int, int], int], entries: list[int]) -> list[int]:
    size = level_size(n)
    options = [kernel.options(unrank(r, n), gs) for r in range(size)]
    w, lose, dist = [0] * size, [0] * size, [0] * size
    for k in range(1, 10_000):
        w1, l1 = list(w), list(lose)
        for r, (ended, moves) in enumerate(options):
            values, inside = kernel.split(n, ended, moves, lookup)
            w1[r] = max([w[r], *values, *(lose[c] for c in inside)])
            l1[r] = max(lose[r], 0, min([*(-v for v in values), *(w[c] for c in inside)]))
        for r in range(size):
            e = entries[r]
            if not dist[r] and ((e > 0 and w1[r] >= e) or (e < 0 and l1[r] >= -e)):
                dist[r] = k
        if (w1, l1) == (w, lose):
            return dist
        w, lose = w1, l1
    raise AssertionError("no fixpoint")


def test_a_level_that_would_not_fit_in_memory_is_refused_before_it_is_made(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Said in one line before the arrays are made, the levels below kept on disk."""
    build.build(tmp_path, PAPER, 8)
    monkeypatch.setattr(build, "available_memory", lambda: 10 * level_size(9))
    with pytest.raises(build.NotEnoughMemory, match=r"level 9 needs about .* GiB more .* GiB is available"):
        build.build(tmp_path, PAPER, 9)
    assert sorted(p.name for p in tmp_path.iterdir() if p.suffix == ".tb")[-1] == "awari-paper-08.tb"
    # enough for the options, not for the predecessor lists
    monkeypatch.setattr(build, "available_memory", lambda: 15 * level_size(9))
    with pytest.raises(build.NotEnoughMemory, match="moves' predecessor lists"):
        build.build(tmp_path, PAPER, 9)
    monkeypatch.setattr(build, "available_memory", lambda: None)  # not Linux: nothing to go by
    build.build(tmp_path, PAPER, 9)


def test_the_command_says_an_interrupted_build_resumes(tmp_path: Path) -> None:
    """Ctrl-C during a level (SIGINT to the whole group, as a terminal sends it): one
    line, status 130, no traceback, the levels written kept — also when the signal comes
    during a fork, whose callbacks would swallow a KeyboardInterrupt (the build polls a
    flag its handler sets)."""
    command = [sys.executable, "-m", "impl.cli", "tablebase", "build", "awari", "--stones", "16", "--jobs", "2"]
    env = {**os.environ, "PYTHONPATH": str(paths.ROOT)}
    run = subprocess.Popen(
        [*command, "--out", str(tmp_path)],
        cwd=tmp_path,
        env=env,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    assert run.stderr is not None
    for line in run.stderr:  # level 12 written: interrupt the next (levels 13-16 take some 15 s)
        if line.startswith("level 12:") and "boards," in line:
            break
    os.killpg(run.pid, signal.SIGINT)  # as a terminal's Ctrl-C: the whole group
    rest = run.stderr.read()
    assert run.wait(timeout=60) == 130
    assert "Traceback" not in rest and rest.strip().endswith(
        "referee tablebase: interrupted; the levels written are kept: the same command resumes"
    ), rest
    assert store.open_level(store.level_path(tmp_path, "paper", 12), "paper", 12)
    assert not store.level_path(tmp_path, "paper", 16).exists()


def test_a_worker_killed_mid_level_ends_the_build_in_one_line(tmp_path: Path) -> None:
    """The OOM killer's SIGKILL, say, to a worker: one line, status 1, the levels kept."""
    command = [sys.executable, "-m", "impl.cli", "tablebase", "build", "awari", "--stones", "16", "--jobs", "2"]
    env = {**os.environ, "PYTHONPATH": str(paths.ROOT)}
    run = subprocess.Popen([*command, "--out", str(tmp_path)], cwd=tmp_path, env=env, stderr=subprocess.PIPE, text=True)
    assert run.stderr is not None
    workers: list[int] = []
    for line in run.stderr:  # level 14 written: level 15's workers (about 4 s) are the target
        if line.startswith("level 14:") and "boards," in line:
            for _ in range(200):
                found = Path(f"/proc/{run.pid}/task/{run.pid}/children").read_text().split()
                workers = [
                    int(pid) for pid in found if "multiprocessing" not in Path(f"/proc/{pid}/cmdline").read_text()
                ]
                if workers:
                    break
                time.sleep(0.01)
            break
    assert workers, "no worker process seen"
    os.kill(workers[0], signal.SIGKILL)
    rest = run.stderr.read()
    assert run.wait(timeout=120) == 1
    assert "Traceback" not in rest and rest.strip().splitlines()[-1] == (
        "referee tablebase: a worker process died (killed, or out of memory?); "
        "the levels written are kept: the same command resumes"
    ), rest
    assert store.open_level(store.level_path(tmp_path, "paper", 14), "paper", 14)
