"""Where ``referee tablebase solve gothello`` answers its leaves when it is given workers
(``--jobs J``, ``--scheduler``; issue #54, docs/tablebases.md "Workers"): the task a
worker runs, the runner, and the leaves in flight with their answers as they come.
The walk that decides which leaves to ask, and keeps their answers, is impl/apps/solve.py."""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from typing import Any

from impl import tasks
from impl.engines import gothello_solve as S
from impl.engines.gothello_certificate import Position

LeafTask = tuple[int, int, int, int, int, int]
"""A leaf for a worker: (mine, theirs, passed, alpha, beta, table bits)."""
Answer = tuple[int, int, float]
"""A leaf's answer: the fail-soft value, the nodes and the CPU seconds it took."""


class WorkerFailed(Exception):
    """A worker could not answer a leaf (it died, or its cluster failed it)."""


_SOLVERS: dict[int, S.CSolver] = {}


def _solver(bits: int) -> S.CSolver:
    """This worker process's compiled solver and table (made once, kept for every leaf)."""
    solver = _SOLVERS.get(bits)
    if solver is None:
        lib = S.load()
        if lib is None:
            raise RuntimeError("no C compiler on this worker to build the solver")
        solver = _SOLVERS[bits] = S.CSolver(lib, bits)
    return solver


def answer(task: LeafTask) -> Answer:
    """A worker's answer for one leaf, by its process's own solver and table."""
    mine, theirs, passed, alpha, beta, bits = task
    return _solver(bits).measured((mine, theirs, passed), alpha, beta)


def ready(bits: int) -> int:
    """A worker made ready (its library built, its table allocated): its process id."""
    _solver(bits)
    return os.getpid()


def warm(runner: tasks.Runner, bits: int) -> None:
    """Every worker of ``runner`` started and ready before the first leaf, so that a
    table too large for a worker, or a worker without a compiler, is said at once."""
    for handle in [runner.submit(ready, bits) for _ in range(runner.capacity)]:
        wait(handle)


def wait(handle: Any) -> Any:
    """A task's result, waking every SIGNAL_POLL seconds so that an interrupt is
    handled; a worker's failure (but a table too large: MemoryError) as WorkerFailed."""
    while True:
        try:
            return handle.result(timeout=tasks.SIGNAL_POLL)
        except TimeoutError:
            continue
        except MemoryError:
            raise
        except Exception as exc:  # a worker killed (out of memory?), a cluster's failure
            raise WorkerFailed(f"a worker failed ({type(exc).__name__}: {exc})") from None


@contextmanager
def runner(workers: int, scheduler: str | None) -> Iterator[tasks.Runner | None]:
    """Where the leaves are answered besides the solve's own process: nowhere (None),
    ``workers`` spawned processes, or the Dask cluster at ``scheduler``.  An interrupt kills the
    local workers at once (their running leaves are lost, as the one running in the
    solve's process would be): a pool's orderly end would wait for searches of minutes."""
    if scheduler is not None:
        with tasks.dask(scheduler, 0) as cluster:
            yield cluster
        return
    if workers < 1:
        yield None
        return
    with tasks.processes(workers) as pool:
        try:
            yield pool
        except BaseException:
            for child in multiprocessing.active_children():
                child.kill()
            raise


class Flight:
    """The leaves submitted to a runner, by key, and their answers as they arrive —
    kept until taken by whoever waits on them, or handed on as strays once no one
    does (a leaf answered past a cut: still a valid answer)."""

    def __init__(self, runner: tasks.Runner, bits: int) -> None:
        self.runner, self.bits = runner, bits
        self.pending: dict[str, Any] = {}
        """Leaves submitted and not yet taken nor dropped: their futures."""
        self.arrived: dict[str, Answer] = {}
        """Answers as they arrive (set by the runner's threads; a dict's single writes
        need no lock)."""

    def send(self, key: str, position: Position, alpha: int, beta: int) -> None:
        """Submit the leaf unless it is in flight already."""
        if key in self.pending:
            return
        handle = self.runner.submit(answer, (*position, alpha, beta, self.bits))

        def arrived(done: Any) -> None:
            with suppress(BaseException):  # cancelled, or failed: whoever waits on it says so
                self.arrived[key] = done.result()

        handle.add_done_callback(arrived)
        self.pending[key] = handle

    def take(self, key: str, position: Position, alpha: int, beta: int) -> Answer:
        """The leaf's answer, waiting for it (sent now if it was not)."""
        self.send(key, position, alpha, beta)
        found: Answer = wait(self.pending.pop(key))
        return found

    def drop(self, keys: list[str]) -> None:
        """No one will wait on these: cancelled where not begun; an answer that still
        comes is a stray."""
        for key in keys:
            handle = self.pending.pop(key, None)
            if handle is not None:
                handle.cancel()

    def strays(self) -> list[tuple[str, Answer]]:
        """The answers arrived for leaves no one waits on (taken ones included: the
        caller keeps each key once)."""
        return [(key, self.arrived.pop(key)) for key in [k for k in list(self.arrived) if k not in self.pending]]
