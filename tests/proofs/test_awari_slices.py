"""Apply's slices and their verdict cache (proofs/awari/slices.py): what counts as proven
for the code as it is, and how a slice that runs out of time or fails is recorded."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from proofs.awari import slices as L
from proofs.awari.refinement import Slice


def _record(s: Slice, verdict: str, fp: str) -> dict[str, Any]:
    mover, m, n = s
    return {"mover": mover, "pit": m, "n": n, "verdict": verdict, "paths": 1, "seconds": 2.0, "fingerprint": fp}


def test_every_slice_once() -> None:
    slices = L.every_slice()
    assert len(slices) == len(set(slices)) == 600
    assert L.name((1, 8, 12)) == "south sows 12 from C" and L.name((0, 6, None)) == "north sows any count from A"


def test_the_fingerprint_is_of_the_modules_the_proof_runs(tmp_path: Path) -> None:
    """The proof's sources are the engine and the repository's modules it imports, by
    module name; changing the code of any of them changes the fingerprint, so every
    slice is due again (tests/proofs/test_fingerprint.py: and only the code)."""
    found = L.sources()
    assert {"impl.engines.awari", "spec.awari", "proofs.awari.refinement", "proofs.symbolic", "impl"} <= set(found)
    assert all(not name.startswith(".") for name in found)
    names = ["impl.engines.awari", "spec"]
    (tmp_path / "impl/engines").mkdir(parents=True)
    (tmp_path / "spec").mkdir()
    (tmp_path / "impl/engines/awari.py").write_text("x = 1\n")
    (tmp_path / "spec/__init__.py").write_text("y = 2\n")
    before = L.fingerprint(names, tmp_path)
    assert L.fingerprint(names, tmp_path) == before
    (tmp_path / "spec/__init__.py").write_text("y = 3\n")
    assert L.fingerprint(names, tmp_path) != before


def test_only_slices_proven_under_this_fingerprint_count(tmp_path: Path) -> None:
    a, b, c = (1, 6, 1), (1, 8, 12), (0, 6, None)
    records = [_record(a, "proven", "old"), _record(b, "proven", "now"), _record(c, "timeout", "now")]
    cache = tmp_path / "verdict-cache.jsonl"
    cache.write_text("".join(json.dumps(r) + "\n" for r in records))
    read = L.read_cache(cache)
    assert L.judged(read, "now", "proven") == {b} and L.judged(read, "now", "timeout") == {c}
    text = L.status(read, "now")
    assert text.startswith("fingerprint now: 1 of 600 slices proven")
    assert "timeout: 1 (north sows any count from A)" in text and "not run: 598" in text
    # the last verdict of a slice is the one read: a later run that timed out on b
    again = [*read, _record(b, "timeout", "now")]
    assert L.judged(again, "now", "proven") == set() and L.judged(again, "now", "timeout") == {b, c}


def test_a_slice_out_of_time_is_recorded_as_such() -> None:
    r = L.run_one((1, 8, 10), timeout=0.5)
    assert (r["verdict"], r["paths"]) == ("timeout", None)


def _fake_runs(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, run: Any) -> None:
    """main() on the thread path, with ``run`` for run_one, the cache in tmp_path and
    the fingerprint "fp"."""
    monkeypatch.setattr(L, "CACHE", tmp_path / "verdict-cache.jsonl")
    monkeypatch.setattr(L, "sources", lambda: ["spec.awari"])
    monkeypatch.setattr(L, "_worker_fingerprint", lambda modules, reads: "fp")
    monkeypatch.setattr(L, "run_one", run)


def test_a_sample_of_counts_runs_those_slices_alone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """--counts runs the own-pit slices of the given stone counts, and their verdicts go
    to the cache under the current fingerprint."""
    ran: list[Slice] = []

    def fake_run(s: Slice, timeout: float, engine: str = "paper") -> dict[str, Any]:
        ran.append(s)
        return {"mover": s[0], "pit": s[1], "n": s[2], "verdict": "proven", "paths": 1, "seconds": 0.1, "detail": ""}

    _fake_runs(monkeypatch, tmp_path, fake_run)
    assert L.main(["--no-cluster", "--jobs", "2", "--counts", "20", "40"]) == 0
    assert sorted(ran) == sorted(s for s in L.every_slice() if s[2] in (20, 40)) and len(ran) == 24
    assert L.judged(L.read_cache(), "fp", "proven") == set(ran)
    assert L.main(["--no-cluster", "--cache", "--counts", "20", "--complete"]) == 1  # proven so far: 24 of 600
    assert len(ran) == 24  # nothing due again at count 20 with the cache read


def test_hand_written_proven_lines_change_nothing_make_proofs_reports(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """make proofs' slice step proves every slice itself: a cache of 600 "proven" lines
    for the current fingerprint, written by hand, makes it neither skip a slice nor
    pass; read with --cache (development) it would.  That both slice steps of make
    proofs run with --complete and without --cache is tests/proofs/test_manifest.py's
    ``test_the_full_run_proves_every_slice_of_both_engines_afresh``."""
    ran: list[Slice] = []

    def refuted(s: Slice, timeout: float, engine: str = "paper") -> dict[str, Any]:  # a planted bug: every slice fails
        ran.append(s)
        return {"mover": s[0], "pit": s[1], "n": s[2], "verdict": "failed", "paths": 1, "seconds": 0.1, "detail": "x"}

    _fake_runs(monkeypatch, tmp_path, refuted)
    L.CACHE.write_text("".join(json.dumps(_record(s, "proven", "fp")) + "\n" for s in L.every_slice()))
    assert L.main(["--no-cluster", "--cache", "--complete"]) == 0 and ran == []  # the cache alone would pass
    assert L.main(["--no-cluster", "--counts", "1", "--complete"]) == 1 and len(ran) == 12
    assert L.main(["--no-cluster", "--fresh", "--counts", "1", "--complete"]) == 1 and len(ran) == 24


def test_a_proven_slice_records_its_provers_cpu_seconds(monkeypatch: pytest.MonkeyPatch) -> None:
    """The prover prints the functions it ran, its paths, then its own CPU seconds: all
    are kept, so a projection does not depend on how loaded the machine was, and the
    verdict's fingerprint covers what the proof read."""
    import subprocess

    def done(*args: Any, **kwargs: Any) -> subprocess.CompletedProcess[str]:
        return subprocess.CompletedProcess(
            args, 0, stdout="spec.awari:Sow,impl.engines.awari:apply\n13\n41.5\n", stderr=""
        )

    monkeypatch.setattr(subprocess, "run", done)
    r = L.run_one((1, 8, 10), timeout=60)
    assert (r["verdict"], r["paths"], r["cpu"]) == ("proven", 13, 41.5)
    assert r["reads"] == ["impl.engines.awari:apply", "spec.awari:Sow"]


def test_makespan_deals_each_task_to_the_first_free_worker() -> None:
    assert L.makespan([3, 1, 1, 1], 1) == 6
    assert L.makespan([3, 1, 1, 1], 2) == 3  # 3 on one worker, the three 1s on the other
    assert L.makespan([1, 1, 1, 3], 2) == 4  # the long task last waits for a free worker
    assert L.makespan([5], 8) == 5


def test_the_projection_reads_cpu_seconds_and_says_it_is_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """--projection: the step's wall time on W workers from the cached slices' CPU
    seconds (wall seconds only where no row has CPU), never run as a proof."""
    _fake_runs(monkeypatch, tmp_path, lambda s, t, e="paper": pytest.fail("--projection proves nothing"))
    rows = [{**_record(s, "proven", "fp"), "seconds": 9.0, "cpu": 2.0} for s in L.every_slice()]
    L.CACHE.write_text("".join(json.dumps(r) + "\n" for r in rows[:300]))
    assert L.main(["--projection", "1"]) == 0 and "| 1 | 600 s |" in capsys.readouterr().out  # only what is cached
    L.CACHE.write_text("".join(json.dumps(r) + "\n" for r in rows))
    assert L.main(["--projection", "1", "2", "4"]) == 0
    out = capsys.readouterr().out
    assert "600 of 600 slices cached as proven, 1200 s in all" in out and "projected, not measured: 600 slices" in out
    assert "| 1 | 1200 s | 1200 s | 1200 s | 1.00 |" in out and "| 4 | 300 s | 300 s | 300 s | 4.00 |" in out
    L.CACHE.write_text("".join(json.dumps({**r, "cpu": None} if r["n"] != 0 else r) + "\n" for r in rows))
    assert L.main(["--projection", "2"]) == 0  # 12 rows of n = 0 by CPU (2 s), the other 588 by wall (9 s)
    out = capsys.readouterr().out
    assert "| 2 | 2658 s |" in out and "12 slices by their prover's CPU seconds" in out


def test_a_projection_on_no_worker_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        L.main(["--projection", "0"])
    assert e.value.code == 2 and "must be positive" in capsys.readouterr().err
