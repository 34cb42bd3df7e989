"""Where independent proof tasks run: a Dask cluster — an embedded local one by default,
a real one given its scheduler's address — so that more cores, or more machines,
finish a proof in proportion (proofs/README.md, "Proofs on a cluster").

The embedded cluster is the pattern of impl/apps/tournament.py's ``dask_client``:
worker processes (``threads_per_worker=1``: z3's context is per process, and one
proof task at a time keeps a worker's memory that of one proof), every node
listening on 127.0.0.1 only, no dashboard.  A real cluster's workers must have this
repository, at the same commit, importable (PYTHONPATH) and z3 installed.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import re
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, TypeVar

T = TypeVar("T")
R = TypeVar("R")

ADDRESS = re.compile(r"(?:(?:tcp|tls)://)?(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):\d{1,5}")


def scheduler_address(text: str) -> str:
    """A Dask scheduler's address, ``[tcp://|tls://]HOST:PORT`` (an argparse type)."""
    if not ADDRESS.fullmatch(text) or not 0 < int(text.rsplit(":", 1)[1]) <= 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not a scheduler address (tcp://HOST:PORT)")
    return text


def distributed() -> Any:
    """Dask distributed, untyped: its calls are not annotated."""
    return importlib.import_module("distributed")


@contextmanager
def dask_client(scheduler: str | None, workers: int) -> Iterator[Any]:
    """A Dask client of the cluster at ``scheduler``, else of an embedded local cluster
    of ``workers`` processes, one task at a time each, on 127.0.0.1 only."""
    dask = distributed()
    if scheduler is not None:
        with dask.Client(scheduler, timeout="10s") as client:
            yield client
        return
    # A worker stopped with its cluster logs the tasks it drops as warnings: noise here.
    logging.getLogger("distributed").setLevel(logging.ERROR)
    cluster = dask.LocalCluster(
        n_workers=workers,
        threads_per_worker=1,
        processes=True,
        # the proof's memory is counted by z3, not by the nanny: no restarts for it
        memory_limit=0,
        host="127.0.0.1",
        protocol="tcp://",
        # every node runs an HTTP server, on all interfaces unless told otherwise
        dashboard_address="127.0.0.1:0",
        scheduler_kwargs={"dashboard": False},
    )
    with cluster, dask.Client(cluster) as client:
        yield client


def capacity(client: Any) -> int:
    """How many tasks the cluster runs at once: its workers' threads."""
    return max(1, int(sum(client.nthreads().values())))


def call(target: tuple[str, str], task: Any) -> Any:
    """``module.function(task)`` for ``target = (module, function)``: a task a worker
    finds by name, whichever module the caller ran as ``__main__``."""
    module, function = target
    return getattr(importlib.import_module(module), function)(task)


def by_name(run: Callable[[T], R]) -> tuple[str, str]:
    """The (module, function) a worker imports for the module-level function ``run``;
    a ``python -m`` module's own functions are named by its import name."""
    module = run.__module__
    if module == "__main__":
        spec = getattr(sys.modules["__main__"], "__spec__", None)
        if spec is None:
            raise ValueError(f"{run.__qualname__} is in a script, not a module a worker can import")
        module = spec.name
    return module, run.__qualname__


def as_done(
    client: Any, run: Callable[..., R], tasks: Sequence[T], *, keep_going: Callable[[], bool] = lambda: True
) -> Iterator[tuple[T, R | BaseException]]:
    """``run(task)`` for each task on the cluster, as many in flight as it has threads,
    in the order given; each (task, result or the exception it raised) as it
    completes.  Once ``keep_going()`` is false no more are submitted (those running
    finish).  ``run`` is a module-level function, so a worker imports it by name."""
    dask = distributed()
    pending = list(reversed(tasks))
    of: dict[str, T] = {}

    def submit() -> Any:
        task = pending.pop()
        future = client.submit(run, task, pure=False)
        of[future.key] = task
        return future

    started = [submit() for _ in range(min(capacity(client), len(pending)))]
    done = dask.as_completed(started)
    for future in done:
        task = of.pop(future.key)
        try:
            outcome: R | BaseException = future.result()
        except Exception as e:  # the task raised, or its worker died: reported, named, by the caller
            outcome = e
        yield task, outcome
        if pending and keep_going():
            done.add(submit())
