"""Apply's slices as tasks on a Dask cluster (proofs/awari/slices.py, proofs/cluster.py):
an embedded cluster of 2 worker processes on 127.0.0.1 gives the verdicts the thread
pool gives; a task that fails is reported with its slice named; a worker whose code
is not the caller's proves nothing for it."""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from proofs import cluster
from proofs.awari import slices as L
from proofs.awari.refinement import Slice

SAMPLE: tuple[Slice, ...] = ((0, 0, 48), (1, 6, 48), (1, 11, 47))
"""Three of the cheapest slices (≈ 1 s each, idle): few stones left elsewhere."""


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    """One embedded cluster of 2 workers for the module's tests: starting one is the cost."""
    with cluster.dask_client(None, 2) as c:
        yield c


def _verdicts(records: list[dict[str, Any]]) -> dict[Slice, tuple[str, int | None]]:
    return {L.key(r): (r["verdict"], r["paths"]) for r in records}


def test_the_cluster_and_the_thread_pool_give_the_same_verdicts(client: Any) -> None:
    modules = tuple(L.sources())
    tasks = [(s, 600.0, modules) for s in SAMPLE]
    assert cluster.capacity(client) == 2
    assert all(address.startswith("tcp://127.0.0.1:") for address in client.nthreads())
    on_dask = list(L.on_cluster(client, tasks, lambda: True))
    in_threads = list(L.in_threads(2, tasks, lambda: True))
    assert sorted(map(L.key, on_dask)) == sorted(SAMPLE)
    assert _verdicts(on_dask) == _verdicts(in_threads), [r["detail"] for r in [*on_dask, *in_threads]]
    assert {v for v, _ in _verdicts(on_dask).values()} == {"proven"}
    for r in on_dask:  # each worker hashed its own copy of the code, and the functions the proof ran
        assert r["reads"] and r["fingerprint"] == L.fingerprint(modules, reads=r["reads"])


def test_a_failing_task_is_reported_with_its_slice_named(client: Any) -> None:
    """A task that raises on its worker (here: a module the worker does not have) is an
    error record of that slice, and the others go on."""
    good, bad = (0, 0, 48), (1, 6, 48)
    tasks = [(bad, 600.0, ("no.such.module",)), (good, 600.0, ("spec.awari",))]
    records = {L.key(r): r for r in L.on_cluster(client, tasks, lambda: True)}
    assert records[bad]["verdict"] == "error" and "FileNotFoundError" in records[bad]["detail"]
    assert records[bad]["slice"] == "south sows 48 from A"
    assert records[good]["verdict"] == "proven"


def test_as_done_yields_each_result_or_exception_and_stops_submitting(client: Any) -> None:
    got = dict(cluster.as_done(client, int, ["1", "x", "3"]))
    assert got["1"] == 1 and got["3"] == 3 and isinstance(got["x"], ValueError)
    first = list(cluster.as_done(client, int, ["4", "5", "6", "7"], keep_going=lambda: False))
    assert sorted(first) == [("4", 4), ("5", 5)]  # two worker threads: two in flight, none submitted after


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


@pytest.mark.parametrize("text", ["tcp://10.0.0.5:8786", "sched.example:8786", "[::1]:8786"])
def test_scheduler_addresses(text: str) -> None:
    assert cluster.scheduler_address(text) == text


@pytest.mark.parametrize("text", ["tcp://host", "host:0", "host:99999", "http://host:80"])
def test_bad_scheduler_addresses(text: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError):
        cluster.scheduler_address(text)
