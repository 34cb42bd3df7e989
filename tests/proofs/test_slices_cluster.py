"""Apply's slices as tasks on a Dask cluster (proofs/awari/slices.py, impl/tasks.py):
an embedded cluster of 2 worker processes on 127.0.0.1 gives the verdicts the thread
pool gives; a task that fails is reported with its slice named; a worker whose code
is not the caller's proves nothing for it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from impl import tasks as runners
from proofs.awari import slices as L
from proofs.awari.refinement import Slice

SAMPLE: tuple[Slice, ...] = ((0, 0, 48), (1, 6, 48), (1, 11, 47))
"""Three of the cheapest slices (≈ 1 s each, idle): few stones left elsewhere."""


@pytest.fixture(scope="module")
def client() -> Iterator[runners.Runner]:
    """One embedded cluster of 2 workers for the module's tests: starting one is the cost."""
    with runners.dask(None, 2, memory_limit=0) as c:
        yield c


def _verdicts(records: list[dict[str, Any]]) -> dict[Slice, tuple[str, int | None]]:
    return {L.key(r): (r["verdict"], r["paths"]) for r in records}


def test_the_cluster_and_the_thread_pool_give_the_same_verdicts(client: runners.Runner) -> None:
    modules = tuple(L.sources())
    tasks = [(s, 600.0, modules, "paper") for s in SAMPLE]
    assert client.capacity == 2
    on_dask = list(L.records(client, tasks, lambda: True))
    with runners.threads(2) as here:
        in_threads = list(L.records(here, tasks, lambda: True))
    assert sorted(map(L.key, on_dask)) == sorted(SAMPLE)
    assert _verdicts(on_dask) == _verdicts(in_threads), [r["detail"] for r in [*on_dask, *in_threads]]
    assert {v for v, _ in _verdicts(on_dask).values()} == {"proven"}
    for r in on_dask:  # each worker hashed its own copy of the code, and the functions the proof ran
        assert r["reads"] and r["fingerprint"] == L.fingerprint(modules, reads=r["reads"])


def test_a_failing_task_is_reported_with_its_slice_named(client: runners.Runner) -> None:
    """A task that raises on its worker (here: a module the worker does not have) is an
    error record of that slice, and the others go on."""
    good, bad = (0, 0, 48), (1, 6, 48)
    tasks = [(bad, 600.0, ("no.such.module",), "paper"), (good, 600.0, ("spec.awari",), "paper")]
    records = {L.key(r): r for r in L.records(client, tasks, lambda: True)}
    assert records[bad]["verdict"] == "error" and "FileNotFoundError" in records[bad]["detail"]
    assert records[bad]["slice"] == "south sows 48 from A"
    assert records[good]["verdict"] == "proven"


def test_a_worker_at_other_code_proves_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(L, "CACHE", tmp_path / "verdict-cache.jsonl")
    monkeypatch.setattr(L, "sources", lambda: ["spec.awari"])
    monkeypatch.setattr(L, "_worker_fingerprint", lambda modules, reads: "here")
    monkeypatch.setattr(
        L,
        "prove",
        lambda task: {
            **{"mover": task[0][0], "pit": task[0][1], "n": task[0][2], "verdict": "proven", "paths": 1},
            **{"seconds": 0, "fingerprint": "there"},
        },
    )
    assert L.main(["--no-cluster", "--counts", "48"]) == 1
    (r, *_) = L.read_cache()
    assert r["verdict"] == "error" and "fingerprint there, not here" in r["detail"]
