"""The common ending of every proof step: print each problem, then OK or FAILED, and
return the exit status that make checks; and the command line and step loop the
two refinement runners share."""

from __future__ import annotations

import argparse
import contextlib
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TypeAlias, TypeVar

from impl import tasks as runners

T = TypeVar("T")


def verdict(problems: Sequence[str], label: str = "FAILED:", footer: str = "") -> int:
    """Print the problems (each under label), an optional footer line, and the
    verdict; 0 when there are none, 1 otherwise."""
    for p in problems:
        print(label, p)
    if footer:
        print(footer)
    print("OK" if not problems else f"FAILED: {len(problems)} problem(s)")
    return 1 if problems else 0


# ─── the refinement runners (proofs/awari/refinement.py, proofs/gothello/refinement.py) ──

ProofStep: TypeAlias = tuple[str, Callable[[], int]]
"""A named check; it returns how many cases or paths it covered and raises
AssertionError on a counterexample."""


@dataclass(frozen=True)
class Scope:
    """A refinement runner's command line: the scope, and where its independent tasks run."""

    bounded: bool
    deep: bool
    jobs: int
    """Worker processes: of the embedded Dask cluster, or of the process pool."""
    scheduler: str | None
    """A Dask scheduler's address: a real cluster instead of the embedded one."""
    cluster: bool
    """Whether tasks run on Dask: the full and deep scopes, or any given --scheduler; the
    bounded scope (make verify) keeps its process pool, which starts faster."""


def scope_arguments(module: str, doc: str | None, deep: str, argv: list[str] | None) -> Scope:
    """The command line of a refinement runner (``python -m module``, described by
    its docstring's first line): at most one of ``--bounded`` and ``--deep`` (``deep``
    says what the deep level adds), ``--jobs``, ``--scheduler``, ``--no-cluster``."""
    description = doc.splitlines()[0] if doc else None
    parser = argparse.ArgumentParser(prog=f"python -m {module}", description=description)
    level = parser.add_mutually_exclusive_group()
    level.add_argument("--bounded", action="store_true", help="every piece, on a smaller scope (make verify)")
    level.add_argument("--deep", action="store_true", help=deep)
    parser.add_argument("--jobs", type=int, default=2, help="worker processes for the independent tasks (default 2)")
    where = parser.add_mutually_exclusive_group()
    where.add_argument(
        "--scheduler", type=runners.scheduler_address, help="a Dask scheduler (tcp://HOST:PORT) for the tasks"
    )
    where.add_argument("--no-cluster", action="store_true", help="a process pool here, not Dask")
    args = parser.parse_args(argv)
    if args.jobs < 1:
        parser.error("--jobs must be positive")
    on_dask = args.scheduler is not None or not (args.bounded or args.no_cluster)
    return Scope(args.bounded, args.deep, args.jobs, args.scheduler, on_dask)


def run_steps(steps: Sequence[ProofStep], scope: Scope) -> int:
    """Run every step (a failing one does not stop the others), print each with its
    count and time, then the scope's verdict; the exit status.  The steps' independent
    tasks (``in_processes``) run on Dask when ``scope.cluster``."""
    with tasks_on(scope.scheduler, scope.jobs) if scope.cluster else contextlib.nullcontext():
        return _run_steps(steps, scope.bounded, scope.deep)


def _run_steps(steps: Sequence[ProofStep], bounded: bool, deep: bool) -> int:
    failed = 0
    for name, run in steps:
        start = time.perf_counter()
        try:
            count = run()
        except AssertionError as e:
            failed += 1
            print(f"FAIL {name}: {e}", flush=True)
            continue
        print(f"ok   {name}: {count} cases/paths, {time.perf_counter() - start:.1f} s", flush=True)
    scope = "bounded" if bounded else "deep" if deep else "full"
    print(f"{scope} scope —", "FAILED" if failed else "all hold")
    return 1 if failed else 0


_runners: list[runners.Runner] = []
"""The Dask runner of ``tasks_on``, while one is open."""


@contextlib.contextmanager
def tasks_on(scheduler: str | None, workers: int) -> Iterator[runners.Runner]:
    """Within it, ``in_processes`` sends its tasks to a Dask cluster: the one at
    ``scheduler``, else an embedded one of ``workers`` processes (impl/tasks.py), one
    task at a time each (z3's context is per process, and one proof at a time keeps a
    worker's memory that of one proof), with no memory limit (z3 counts it, not the
    nanny: no restarts for it)."""
    with runners.dask(scheduler, workers, 1, memory_limit=0) as runner:
        _runners.append(runner)
        try:
            yield runner
        finally:
            _runners.pop()


def in_processes(run: Callable[[T], int], tasks: Sequence[T], jobs: int = 2) -> int:
    """The sum of ``run(task)`` over independent proof tasks: on the Dask cluster of
    ``tasks_on`` when one is open, else in ``jobs`` spawned processes (each its own z3
    context); ``run`` a module-level function.  A task that raises fails the whole;
    an AssertionError (a refutation) is raised again naming its task."""
    if len(tasks) <= 1 or (not _runners and jobs <= 1):
        return sum(map(run, tasks))
    with contextlib.nullcontext(_runners[-1]) if _runners else runners.processes(jobs) as runner:
        total = 0
        for task, outcome in runner.as_done(run, tasks):
            if isinstance(outcome, AssertionError):
                raise AssertionError(f"{task!r}: {outcome}") from outcome
            if isinstance(outcome, Exception):
                raise outcome
            total += outcome
        return total
