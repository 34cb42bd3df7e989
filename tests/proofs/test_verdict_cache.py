"""The verdict cache of apply's slices (proofs/awari/slices.py): compacted on every
write, headed by what it is, and read by --status, which says what is cached for
the code as it is — and that it is a cache, not the proof."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from proofs.awari import slices as L
from proofs.awari.refinement import Slice


def _record(s: Slice, verdict: str, fp: str, commit: str = "c0ffee" * 7) -> dict[str, Any]:
    mover, m, n = s
    return {
        "mover": mover,
        "pit": m,
        "n": n,
        "verdict": verdict,
        "paths": 1,
        "seconds": 2.0,
        "fingerprint": fp,
        "commit": commit,
    }


A, B, C = (1, 6, 1), (1, 8, 12), (0, 6, None)


def test_a_write_keeps_the_last_verdict_of_each_slice_for_this_code(tmp_path: Path) -> None:
    cache = tmp_path / "verdict-cache.jsonl"
    records = [
        _record(A, "proven", "old"),
        _record(B, "timeout", "now"),
        _record(B, "proven", "now"),
        _record(C, "failed", "now"),
    ]
    L.write_cache(records, "now", cache)
    lines = [json.loads(line) for line in cache.read_text().splitlines()]
    assert lines[0] == L.ABOUT and "rebuild" in lines[0]["about"] and "--cache" in lines[0]["about"]
    assert [(L.key(r), r["verdict"]) for r in lines[1:]] == [((0, 6, None), "failed"), ((1, 8, 12), "proven")]
    assert L.read_cache(cache) == lines[1:]  # the header is not a verdict
    assert not list(tmp_path.glob(".*.tmp"))  # written atomically: no temporary file left


def test_status_says_what_is_cached_for_this_code_and_what_is_stale(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(L, "CACHE", L.ROOT / "proofs" / "awari" / "verdict-cache.jsonl")
    text = L.cache_status([_record(A, "proven", "old"), _record(B, "proven", "now", "ab" * 20 + "+changes")], "now")
    first, *rest = text.splitlines()
    assert first == "fingerprint now: 1 of 600 slices cached as proven for this code (2 s)"
    assert "  proven at: abababababab+changes" in rest
    assert "  stale: 1 slices cached for other code (dropped at the next write)" in rest
    assert rest[-1].endswith("is a cache, not a proof: `python -m proofs.awari.slices` proves every slice")
    assert "proofs/awari/verdict-cache.jsonl" in rest[-1]


def test_the_status_command_reads_the_cache_and_proves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(L, "CACHE", tmp_path / "verdict-cache.jsonl")
    monkeypatch.setattr(L, "sources", lambda: ["spec.awari"])
    monkeypatch.setattr(L, "_worker_fingerprint", lambda modules, reads: "fp")
    monkeypatch.setattr(L, "run_one", lambda s, t: pytest.fail("--status proved a slice"))
    L.write_cache([_record(s, "proven", "fp") for s in L.every_slice()], "fp")
    assert L.main(["--status"]) == 0
    assert capsys.readouterr().out.startswith("fingerprint fp: 600 of 600 slices cached as proven for this code")


def test_retry_without_the_cache_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        L.main(["--retry"])
    assert e.value.code == 2 and "--retry is for --cache" in capsys.readouterr().err


def test_a_corrupt_line_is_skipped_with_one_warning(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A merge-conflict marker, a cut line, a row without a verdict's fields, a line
    nested past the parser: skipped and counted on one stderr line, never a traceback."""
    cache = tmp_path / "verdict-cache.jsonl"
    good = _record(A, "proven", "now")
    lines = [
        json.dumps(L.ABOUT),
        "<<<<<<< HEAD",
        json.dumps(good),
        '{"mover": 1, "pit": 6, "n": 1, "verdict": "pro',
        json.dumps({"verdict": "proven"}),
        json.dumps({**good, "seconds": "2"}),
        "[" * 3000,
        "=======",
    ]
    cache.write_text("\n".join(lines) + "\n")
    assert L.read_cache(cache) == [good]
    assert capsys.readouterr().err == f"verdict cache {cache}: skipped 6 corrupt line(s) of 8\n"
    L.write_cache(L.read_cache(cache), "now", cache)  # the next write drops them
    capsys.readouterr()
    assert L.read_cache(cache) == [good] and capsys.readouterr().err == ""


def test_a_corrupt_or_unwritable_cache_stops_no_proof(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """make proofs' slice step (no --cache) proves what it is given whatever the cache
    holds, and goes on when the cache cannot be written (here it is a directory)."""
    monkeypatch.setattr(L, "CACHE", tmp_path / "verdict-cache.jsonl")
    monkeypatch.setattr(L, "sources", lambda: ["spec.awari"])
    monkeypatch.setattr(L, "_worker_fingerprint", lambda modules, reads: "fp")

    def proven(s: Slice, timeout: float, engine: str = "paper") -> dict[str, Any]:
        return {"mover": s[0], "pit": s[1], "n": s[2], "verdict": "proven", "paths": 1, "seconds": 0.1, "detail": ""}

    monkeypatch.setattr(L, "run_one", proven)
    L.CACHE.write_text("<<<<<<< HEAD\n" + json.dumps(_record(A, "failed", "fp")) + "\n>>>>>>> other\n")
    assert L.main(["--no-cluster", "--counts", "20"]) == 0
    err = capsys.readouterr().err.splitlines()
    assert err == [f"verdict cache {L.CACHE}: skipped 2 corrupt line(s) of 3"]
    L.CACHE.unlink()
    L.CACHE.mkdir()
    assert L.main(["--no-cluster", "--counts", "20"]) == 0
    unreadable, unwritten = capsys.readouterr().err.splitlines()  # each said once, not per slice
    assert unreadable.startswith(f"verdict cache {L.CACHE}: unreadable") and "read as empty" in unreadable
    assert unwritten.startswith(f"verdict cache {L.CACHE}: not written") and "goes on" in unwritten
