"""proofs/manifest.py is the one list of proof steps: the Makefile runs it, the README
shows it, and every runnable proof module is in it."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from proofs import manifest
from tests.support import paths

ROOT = paths.ROOT
BEGIN, END = "<!-- manifest table: python -m proofs.manifest --table -->", "<!-- end of manifest table -->"


def test_the_readme_shows_the_manifest_table() -> None:
    text = (ROOT / "proofs" / "README.md").read_text(encoding="utf-8")
    shown = text.split(BEGIN, 1)[1].split(END, 1)[0].strip()
    assert shown == manifest.table()


def test_the_makefile_runs_the_manifest_lists() -> None:
    text = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert "-m proofs.manifest --run bounded" in text
    assert "-m proofs.manifest --run full" in text
    # proofs.planted is no proof step: it runs the manifest's bounded steps on planted bugs
    assert not re.search(r"-m proofs\.(?!manifest|planted)", text), "a proof step run outside the manifest"


def test_every_step_module_exists() -> None:
    for step in manifest.STEPS:
        assert importlib.util.find_spec(step.module) is not None, step.module


def test_every_runnable_proof_module_is_a_step() -> None:
    """A proofs/ module with a command line is run by some step (or is the manifest, or
    the planted-bug runner, which runs the steps)."""
    runnable = {
        ".".join(p.relative_to(ROOT).with_suffix("").parts)
        for p in (ROOT / "proofs").rglob("*.py")
        if 'if __name__ == "__main__":' in p.read_text(encoding="utf-8")
    }
    assert runnable - {"proofs.manifest", "proofs.planted"} == {s.module for s in manifest.STEPS}


def test_the_full_run_covers_every_bounded_module() -> None:
    """make proofs runs every module that make verify runs, at a scope at least as large."""
    assert {s.module for s in manifest.steps("bounded")} <= {s.module for s in manifest.steps("full")}


def test_every_step_states_its_expected_result() -> None:
    for step in manifest.STEPS:
        assert step.expect and all(step.expect), step.command
    commands = [s.command for s in manifest.STEPS]
    assert len(commands) == len(set(commands))  # the figures are keyed by command


def _zen(expect: tuple[str, ...]) -> manifest.Step:
    """A step that runs ``python -m this`` (it prints the Zen of Python)."""
    return manifest.Step("zen", "this", (), manifest.BOUNDED, "the Zen", "nothing", expect=expect)


def test_a_step_fails_unless_its_output_shows_its_expected_result(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Exit status 0 is not enough: a step whose output lacks its expected result (a
    count that shrank, a verdict line that changed) fails the run; a passing run with
    --record writes each step's figures and the whole run's."""
    figures = tmp_path / "measured.json"
    monkeypatch.setattr(manifest, "MEASURED", figures)
    monkeypatch.setattr(manifest, "STEPS", (_zen(("Beautiful is better than ugly.", "Namespaces")),))
    assert manifest.run_steps("bounded", keep_going=False, keep=True) == 0
    data = json.loads(figures.read_text())
    row = data["steps"]["python -m this"]
    assert row["seconds"] >= 0 and row["cpu"] >= 0 and row["load"] >= 0 and row["commit"]
    assert data["runs"]["bounded"]["seconds"] >= 0
    assert "last measured" in manifest.table() and "CPU-s" in manifest.table()
    monkeypatch.setattr(manifest, "STEPS", (_zen(("Beautiful is better than ugly.", "12345 cases")),))
    capsys.readouterr()
    assert manifest.run_steps("bounded", keep_going=False, keep=True) == 1
    out = capsys.readouterr().out
    assert "FAILED: the output lacks the expected result '12345 cases'" in out
    assert json.loads(figures.read_text())["runs"]["bounded"] == data["runs"]["bounded"]  # no whole run recorded


def test_result_lines_are_the_counts_and_verdicts() -> None:
    output = "encoding ≡ spec: 504 cases in 6.1 s\nnoise\n  literal errata found: A1 A2\nOK\n"
    assert manifest.results(output) == ["encoding ≡ spec: 504 cases in 6.1 s", "literal errata found: A1 A2", "OK"]
    assert manifest.missing(_zen(("504 cases", "OK", "600 of 600")), output) == ["600 of 600"]


def test_a_step_starts_only_on_free_cores() -> None:
    """Steps share the run's cores: a two-worker step waits until two are free, a
    one-process step takes one, the longest that fits starts first; a step wider than
    the run takes all of it.  (z3 processes sharing a core spent 1.5× the CPU.)"""

    def step(name: str, cores: int) -> manifest.Step:
        return manifest.Step(name, "this", (), manifest.FULL, "", "", cores=cores)

    wide, narrow, other = step("wide", 2), step("narrow", 1), step("other", 1)
    assert manifest.next_fit([wide, narrow, other], 2, 2) is wide
    assert manifest.next_fit([wide, narrow, other], 1, 2) is narrow
    assert manifest.next_fit([wide], 1, 2) is None
    assert manifest.next_fit([wide], 1, 1) is wide
    assert manifest.next_fit([], 2, 2) is None
    crosshair = [s for s in manifest.STEPS if s.module == "proofs.crosshair.contracts" and "--deep" in s.args]
    assert crosshair and all(s.cores == 1 for s in crosshair)  # --jobs 1: one process each
    slices = [s for s in manifest.STEPS if s.module == "proofs.awari.slices"]
    assert slices and all(s.cores == 2 for s in slices)


def test_steps_of_unknown_length_start_first_and_the_plan_packs_both_cores() -> None:
    """longest_first: by the last figure, else the step's projection, and a step of
    unknown length before all (it may be the longest); plan: the schedule run_steps
    follows (next_fit over longest_first), each step from when its cores are free."""

    def step(name: str, cores: int, projected: float | None = None) -> manifest.Step:
        return manifest.Step(name, "m", (name,), manifest.FULL, "", "", projected=projected, cores=cores)

    a, b, c, d = step("a", 1), step("b", 1, projected=50.0), step("c", 2), step("d", 1)
    known = {
        a.command: manifest.Figure(seconds=100.0, cpu=100.0),
        c.command: manifest.Figure(seconds=30.0, cpu=60.0),
        d.command: manifest.Figure(seconds=40.0, cpu=40.0),
    }
    unknown = step("u", 2)
    assert manifest.longest_first([c, d, b, a, unknown], known) == [unknown, a, b, d, c]
    schedule = {s.name: (start, end) for s, start, end in manifest.plan([a, b, c, d], known, 2)}
    # a and b start at once; d takes b's core at 50; c (two cores) waits for a to end
    assert schedule == {"a": (0.0, 100.0), "b": (0.0, 50.0), "d": (50.0, 90.0), "c": (100.0, 130.0)}
    assert manifest.plan([c], {}, 2)[0][1:] == (0.0, 0.0)  # unknown: 0 here, a lower bound


def test_the_awari_wrapped_crosshair_targets_are_two_steps() -> None:
    """The whole run's critical path was the one Awari-wrapped CrossHair part (3,208 s
    on one core): its targets are two one-core steps now, each with a projection so
    that it is ordered by its length before it has a figure, and none is lost."""
    from proofs.crosshair import contracts

    parts = {s.args[2]: s for s in manifest.STEPS if s.module == "proofs.crosshair.contracts"}
    halves = [parts["awari-sow-capture"], parts["awari-ref"]]
    assert all(s.cores == 1 and s.projected for s in halves)
    split = [t for s in halves for t in contracts.targets(s.args[2], deep=True)]
    assert sorted(split) == sorted(t for t in contracts.WRAPPED_AWARI if t not in contracts.NOT_RUN)


def test_the_full_run_proves_every_slice_of_both_engines_afresh() -> None:
    """Issue #55: make proofs proves apply on all 600 slices for ImplAwari and for
    RulesAwari (the rule set symbolic), each slice in the run itself: --complete, and
    no --cache, so no verdict is read from a verdict cache."""
    full = [s for s in manifest.STEPS if "full" in s.runs and s.module == "proofs.awari.slices"]
    engines = sorted(s.args[s.args.index("--engine") + 1] if "--engine" in s.args else "paper" for s in full)
    assert engines == ["paper", "rules"]
    for s in full:
        assert "--complete" in s.args and "--cache" not in s.args and "--counts" not in s.args
        assert s.expect == ("600 of 600 slices proven",) and not s.contracts


def test_an_interrupted_run_ends_its_steps_and_keeps_what_finished(tmp_path: Path) -> None:
    """SIGTERM (or Ctrl-C) to a run of several steps at once: the running steps end
    with their workers (each step is its own process group), each step that finished
    was shown with its figures when it ended, and --record keeps those that passed —
    no whole-run figure.  (make proofs takes hours: a stopped run loses nothing done.)"""
    figures, pids = tmp_path / "measured.json", tmp_path / "pids"
    script = f"""
import os, sys
from pathlib import Path
from proofs import manifest
quick = manifest.Step("zen", "this", (), manifest.BOUNDED, "the Zen", "nothing", expect=("Namespaces",), cores=1)
slow = manifest.Step(
    "sleeper", "tests.support.sleeper", ({str(pids)!r},), manifest.BOUNDED, "a sleep", "nothing", expect=("never",),
    cores=1,
)
manifest.MEASURED = Path({str(figures)!r})
manifest.STEPS = (quick, slow)
sys.exit(manifest.run_steps("bounded", keep_going=True, jobs=2, keep=True))
"""
    env = {**os.environ, "PYTHONPATH": str(paths.ROOT)}
    run = subprocess.Popen([sys.executable, "-c", script], env=env, stdout=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while not (pids.exists() and len(pids.read_text().split()) == 2) and time.monotonic() < deadline:
        time.sleep(0.1)
    time.sleep(1.0)  # the quick step ends meanwhile
    run.send_signal(signal.SIGTERM)
    out, _ = run.communicate(timeout=60)
    assert run.returncode == 1
    assert "=== zen: python -m this (" in out and "CPU-s" in out
    assert ": interrupted" in out and "stop " in out
    data = json.loads(figures.read_text())
    assert "python -m this" in data["steps"] and "bounded" not in data["runs"]
    for pid in map(int, pids.read_text().split()):  # the sleeping step and its own child
        deadline = time.monotonic() + 10
        while _alive(pid) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not _alive(pid)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as stat:  # a zombie has ended
        return stat.read().split(") ")[1][0] != "Z"


def test_the_commit_stamp_ignores_what_the_run_writes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A run's figures name its commit; the verdict caches the slices step writes are
    not changes to the code proven (a whole run on a clean clone was stamped
    ``+changes`` by its own cache), any other file is."""
    cache = tmp_path / manifest.RUN_WRITES[0]
    cache.parent.mkdir(parents=True)
    cache.write_text("{}\n")
    (tmp_path / "code.py").write_text("x = 1\n")
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"]
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    subprocess.run([*git, "add", "."], cwd=tmp_path, check=True)
    subprocess.run([*git, "commit", "-qm", "c"], cwd=tmp_path, check=True)
    monkeypatch.chdir(tmp_path)
    cache.write_text('{"verdict": "proven"}\n')
    assert not manifest._commit().endswith("+changes")
    (tmp_path / "code.py").write_text("x = 2\n")
    assert manifest._commit().endswith("+changes")
