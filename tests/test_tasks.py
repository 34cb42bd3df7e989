"""The one task runner (impl/tasks.py): over threads, spawned processes and an embedded
Dask cluster alike — every task's result or exception, no more than the limit in
flight, the refill stopped by ``keep_going``, the rest cancelled when the consumer
stops; the embedded cluster on TLS over loopback; scheduler addresses."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager

import pytest

from impl import tasks
from tests.support import paths

RUNNERS: dict[str, Callable[[], AbstractContextManager[tasks.Runner]]] = {
    "threads": lambda: tasks.threads(2),
    "processes": lambda: tasks.processes(2),
    "dask": lambda: tasks.dask(None, 2),
}


@pytest.fixture(scope="module", params=sorted(RUNNERS))
def runner(request: pytest.FixtureRequest) -> Iterator[tasks.Runner]:
    """Each kind once for the module: starting a cluster is the cost."""
    with RUNNERS[request.param]() as r:
        yield r


def square(n: int) -> int:
    """A task; fails on 13 (module-level: a process or a worker imports it by name)."""
    if n == 13:
        raise ValueError("unlucky")
    return n * n


def test_every_task_gives_its_result_or_its_exception(runner: tasks.Runner) -> None:
    assert runner.capacity == 2
    got = dict(runner.as_done(square, [1, 13, 3, 4]))
    assert {n: r for n, r in got.items() if n != 13} == {1: 1, 3: 9, 4: 16}
    assert isinstance(got[13], ValueError) and str(got[13]) == "unlucky"


def test_one_at_a_time_keeps_the_order_given(runner: tasks.Runner) -> None:
    started: list[int] = []
    got = list(runner.as_done(square, [5, 2, 7, 1], limit=1, started=started.append))
    assert got == [(5, 25), (2, 4), (7, 49), (1, 1)] and started == [5, 2, 7, 1]


def test_no_refill_once_keep_going_is_false(runner: tasks.Runner) -> None:
    """Those in flight still finish and are yielded; none is submitted after."""
    started: list[int] = []
    got = list(runner.as_done(square, [4, 5, 6, 7], keep_going=lambda: False, started=started.append))
    assert sorted(got) == [(4, 16), (5, 25)] and started == [4, 5]


def test_refills_up_to_the_limit_as_tasks_finish() -> None:
    """Threads show what is in flight: never more than the limit, and always the limit
    while tasks remain."""
    lock, now, peak = threading.Lock(), [0], [0]

    def slow(n: int) -> int:
        with lock:
            now[0] += 1
            peak[0] = max(peak[0], now[0])
        time.sleep(0.01)
        with lock:
            now[0] -= 1
        return n

    with tasks.threads(4) as r:
        got = sorted(n for n, _ in r.as_done(slow, list(range(12)), limit=3))
    assert got == list(range(12)) and peak[0] == 3


def test_the_rest_is_cancelled_when_the_consumer_stops() -> None:
    """A consumer that stops after the first result leaves the queued tasks unrun."""
    release, ran = threading.Event(), []

    def task(n: int) -> int:
        ran.append(n)
        release.wait(5)
        return n

    with tasks.threads(1) as r:
        results = r.as_done(task, [1, 2, 3], limit=3)
        release.set()
        assert next(results) == (1, 1)
        results.close()
    assert ran == [1]


def test_an_interrupt_cancels_the_rest() -> None:
    """An interrupt is no task's outcome: it goes through, and the queued tasks never run."""
    release, ran = threading.Event(), []

    def task(n: int) -> int:
        ran.append(n)
        if n == 0:
            raise KeyboardInterrupt  # as if Ctrl-C came while the consumer waited
        release.wait(5)
        return n

    with tasks.threads(1) as r:
        with pytest.raises(KeyboardInterrupt):
            list(r.as_done(task, [0, 1, 2, 3], limit=4))
        release.set()
    assert ran in ([0], [0, 1])  # 1 may have started before the interrupt reached the loop


SIGNALLED_ELSEWHERE = """
import signal, threading, time
from impl import tasks

go, idents = threading.Event(), []


def stop(signum, frame):
    raise KeyboardInterrupt


def game(n):
    idents.append(threading.get_ident())
    go.wait(120)  # a game that goes on until the run ends it
    return n


def kick():
    while not idents:
        time.sleep(0.01)
    time.sleep(0.2)
    signal.pthread_kill(idents[0], signal.SIGUSR1)  # the kernel's choice: a task's thread, not the main one


signal.signal(signal.SIGUSR1, stop)
threading.Thread(target=kick, daemon=True).start()
with tasks.threads(2) as runner:
    try:
        for _ in runner.as_done(game, [1, 2]):
            pass
    except KeyboardInterrupt:
        print("interrupted")
    finally:
        go.set()
"""


def test_a_signal_delivered_to_another_thread_still_interrupts_the_run() -> None:
    """SIGTERM or SIGHUP may reach any thread; its handler runs in the main thread,
    which must not sleep through it in as_done (``referee match`` then hung with its
    games going on: the intermittent sandbox test's cause).  The signal here goes to a
    task's thread on purpose; the 60 s bound only stops a hang."""
    done = subprocess.run(
        [sys.executable, "-c", SIGNALLED_ELSEWHERE],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": str(paths.ROOT)},
    )
    assert done.stdout.strip() == "interrupted", done.stderr


def test_the_embedded_cluster_speaks_tls_on_loopback() -> None:
    with tasks.dask(None, 0, 2) as r:
        assert r.capacity == 2 and r.address.startswith("tls://127.0.0.1:")
        assert list(r.as_done(square, [3], key=lambda n: f"square-{n}")) == [(3, 9)]


@pytest.mark.parametrize("text", ["tcp://10.0.0.5:8786", "sched.example:8786", "[::1]:8786", "tls://h:1"])
def test_scheduler_addresses(text: str) -> None:
    assert tasks.scheduler_address(text) == text


@pytest.mark.parametrize("text", ["tcp://host", "host:0", "host:99999", "http://host:80"])
def test_bad_scheduler_addresses(text: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError):
        tasks.scheduler_address(text)
