"""Independent tasks, run a few at a time: one ``Runner`` over a thread pool, a process
pool or a Dask cluster, and one loop (``Runner.as_done``) that submits up to a limit,
refills as each completes and yields each result as it finishes (issue #42).

Used by ``referee tournament`` (threads by default, Dask for ``--workers`` or
``--scheduler``) and by the proofs (Dask for the full scope, a process pool for the
bounded one; proofs/README.md, "Proofs on a cluster").

An embedded Dask cluster listens on 127.0.0.1 only, over TLS with a throwaway
certificate authority held in memory: a player program on this machine can reach
its loopback ports (its sandbox shares the network) and, without TLS, could submit a
task — code run outside its sandbox.  A real cluster (``--scheduler``) is the
operator's: its workers must have this repository, at the same commit, importable.
Dask is imported only when a Dask runner is asked for (the cluster extra).
"""

from __future__ import annotations

import argparse
import functools
import importlib
import logging
import multiprocessing
import queue
import re
import sys
import uuid
from collections.abc import Callable, Generator, Iterator, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any, Protocol, TypeVar

T = TypeVar("T")
R = TypeVar("R")

ADDRESS = re.compile(r"(?:(?:tcp|tls)://)?(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):\d{1,5}")


def scheduler_address(text: str) -> str:
    """A Dask scheduler's address, ``[tcp://|tls://]HOST:PORT`` (an argparse type)."""
    if not ADDRESS.fullmatch(text) or not 0 < int(text.rsplit(":", 1)[1]) <= 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not a scheduler address (tcp://HOST:PORT)")
    return text


class _Handle(Protocol):
    """What ``concurrent.futures.Future`` and Dask's ``Future`` both offer."""

    def result(self) -> Any: ...

    def cancel(self) -> Any: ...

    def add_done_callback(self, fn: Callable[[Any], object], /) -> None: ...


class Runner:
    """Where tasks run: ``capacity`` at once by default; ``submit`` a function and its
    one argument, getting a future back.  Made by ``threads``, ``processes`` or ``dask``."""

    def __init__(
        self,
        submit: Callable[[Callable[[Any], Any], Any, str], _Handle],
        capacity: Callable[[], int],
        address: str = "",
        link: str = "",
    ) -> None:
        self._submit = submit
        self._capacity = capacity
        self.address = address
        """The Dask scheduler's address; else empty."""
        self.dashboard_link = link
        """The Dask client's dashboard address (served only if asked for); else empty."""

    def submit(self, run: Callable[[T], R], task: T, key: str = "") -> _Handle:
        """``run(task)`` on the runner, now: a future (``result``, ``cancel``,
        ``add_done_callback``).  For a caller that orders its own tasks (``as_done``
        runs a list); ``run`` a module-level function, as there."""
        return self._submit(run, task, key)

    @property
    def capacity(self) -> int:
        """How many tasks run at once: the pool's workers, the cluster's threads."""
        return max(1, self._capacity())

    def as_done(
        self,
        run: Callable[[T], R],
        tasks: Sequence[T],
        limit: int | None = None,
        *,
        keep_going: Callable[[], bool] = lambda: True,
        started: Callable[[T], None] = lambda task: None,
        key: Callable[[T], str] = lambda task: "",
    ) -> Generator[tuple[T, R | Exception], None, None]:
        """``run(task)`` for each task, in the order given, at most ``limit`` (the
        capacity unless given) in flight; each (task, its result or the exception it
        raised) as it completes — those completing together in the order given.
        ``started(task)`` as each is submitted.  Once ``keep_going()`` is false no more
        are submitted and those running are still yielded.  When the consumer stops
        (or an interrupt comes) those not yet finished are cancelled.  ``key`` names a
        Dask task (its dashboard shows it)."""
        width = max(1, self.capacity if limit is None else limit)
        pending = list(reversed(range(len(tasks))))
        running: dict[int, _Handle] = {}
        finished: queue.SimpleQueue[int] = queue.SimpleQueue()

        def submit() -> None:
            i = pending.pop()
            handle = self._submit(run, tasks[i], key(tasks[i]))
            running[i] = handle
            started(tasks[i])
            handle.add_done_callback(lambda _: finished.put(i))

        try:
            while pending and len(running) < width:
                submit()
            while running:
                done = [_next_done(finished)]
                while not finished.empty():
                    done.append(finished.get())
                for i in sorted(done):
                    outcome: R | Exception
                    try:
                        outcome = running.pop(i).result()
                    except Exception as exc:  # the task raised, or its worker died: the caller reports it
                        outcome = exc
                    yield tasks[i], outcome
                    if pending and keep_going():
                        submit()
        finally:
            for handle in running.values():
                handle.cancel()


SIGNAL_POLL = 0.25
"""Seconds the main thread waits on its tasks at a time.  The kernel may hand a
signal (Ctrl-C, SIGTERM, SIGHUP) to any thread; Python runs its handler in the main
thread, but only once that thread runs again, and a wait without end would never
return to run it (the interrupted run then hung, its games going on)."""


def _next_done(finished: queue.SimpleQueue[int]) -> int:
    """The next finished task's index, waking every SIGNAL_POLL seconds so that a
    signal delivered to another thread is handled."""
    while True:
        try:
            return finished.get(timeout=SIGNAL_POLL)
        except queue.Empty:
            continue


def _on_pool(pool: Executor) -> Callable[[Callable[[Any], Any], Any, str], _Handle]:
    return lambda run, task, key: pool.submit(run, task)


@contextmanager
def threads(jobs: int) -> Iterator[Runner]:
    """``jobs`` threads of this process: for tasks that wait (on games, on subprocesses)."""
    with ThreadPoolExecutor(jobs) as pool:
        try:
            yield Runner(_on_pool(pool), lambda: jobs)
        finally:
            pool.shutdown(cancel_futures=True)


@contextmanager
def processes(jobs: int) -> Iterator[Runner]:
    """``jobs`` spawned processes (each its own interpreter: a z3 context each, no
    inherited locks); ``run`` a module-level function."""
    with ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("spawn")) as pool:
        try:
            yield Runner(_on_pool(pool), lambda: jobs)
        finally:
            pool.shutdown(cancel_futures=True)


def _distributed() -> Any:
    """Dask distributed, untyped: its calls are not annotated."""
    return importlib.import_module("distributed")


def _call(target: tuple[str, str], task: Any) -> Any:
    """``module.function(task)`` for ``target = (module, function)``: a task a worker
    finds by name, whichever module the caller ran as ``__main__``."""
    module, function = target
    return getattr(importlib.import_module(module), function)(task)


def _by_name(run: Callable[[T], R]) -> tuple[str, str]:
    """The (module, function) a worker imports for the module-level function ``run``;
    a ``python -m`` module's own functions are named by its import name."""
    module = run.__module__
    if module == "__main__":
        spec = getattr(sys.modules["__main__"], "__spec__", None)
        if spec is None:
            raise ValueError(f"{run.__qualname__} is in a script, not a module a worker can import")
        module = spec.name
    return module, run.__qualname__


@contextmanager
def dask(
    scheduler: str | None,
    workers: int,
    threads_per_worker: int = 1,
    *,
    memory_limit: str | int = "auto",
    dashboard: bool = False,
) -> Iterator[Runner]:
    """A Dask client: of the cluster at ``scheduler``, else of an embedded local one —
    ``workers`` processes of ``threads_per_worker`` threads, or with 0 workers that
    many threads of this process — whose scheduler, workers and nannies listen on
    127.0.0.1 only over TLS, with a dashboard (on 127.0.0.1) only if ``dashboard``."""
    d = _distributed()
    if scheduler is not None:
        with d.Client(scheduler, timeout="10s") as client:
            yield _on_dask(client)
        return
    # A worker stopped with its cluster logs the tasks it drops as warnings: noise here.
    logging.getLogger("distributed").setLevel(logging.ERROR)
    security = importlib.import_module("distributed.security").Security.temporary()
    # Every node runs an HTTP server, bound to all interfaces unless told otherwise
    # (dashboard_address=None does not disable the scheduler's); tcp even in-process,
    # since an inproc worker's HTTP server cannot take the host.
    cluster = d.LocalCluster(
        n_workers=max(1, workers),
        threads_per_worker=threads_per_worker,
        processes=workers > 0,
        memory_limit=memory_limit,
        host="127.0.0.1",
        protocol="tls://",
        security=security,
        dashboard_address="127.0.0.1:0",
        scheduler_kwargs={"dashboard": dashboard},
    )
    with cluster, d.Client(cluster, security=security) as client:
        yield _on_dask(client)


def _on_dask(client: Any) -> Runner:
    def submit(run: Callable[[Any], Any], task: Any, key: str) -> _Handle:
        # A function of a ``python -m`` module is sent by its import name, which a worker has.
        target = run if getattr(run, "__module__", None) != "__main__" else _named(run)
        named = {"key": f"{key}-{uuid.uuid4().hex}"} if key else {}  # a key reused is a result reused
        handle: _Handle = client.submit(target, task, pure=False, **named)
        return handle

    address, link = str(client.scheduler_info()["address"]), str(client.dashboard_link or "")
    return Runner(submit, lambda: int(sum(client.nthreads().values())), address, link)


def _named(run: Callable[[Any], Any]) -> Callable[[Any], Any]:
    return functools.partial(_call, _by_name(run))
