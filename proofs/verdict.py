"""The common ending of every proof step: print each problem, then OK or FAILED, and
return the exit status that make checks; and the command line and step loop the
two refinement runners share."""

from __future__ import annotations

import argparse
import multiprocessing
import time
from collections.abc import Callable, Sequence
from typing import TypeAlias, TypeVar

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


def scope_arguments(module: str, doc: str | None, deep: str, argv: list[str] | None) -> tuple[bool, bool]:
    """The command line of a refinement runner (``python -m module``, described by
    its docstring's first line): ``(bounded, deep)``, at most one set; ``deep`` says
    what the deep level adds."""
    description = doc.splitlines()[0] if doc else None
    parser = argparse.ArgumentParser(prog=f"python -m {module}", description=description)
    level = parser.add_mutually_exclusive_group()
    level.add_argument("--bounded", action="store_true", help="every piece, on a smaller scope (make verify)")
    level.add_argument("--deep", action="store_true", help=deep)
    args = parser.parse_args(argv)
    return args.bounded, args.deep


def run_steps(steps: Sequence[ProofStep], bounded: bool, deep: bool) -> int:
    """Run every step (a failing one does not stop the others), print each with its
    count and time, then the scope's verdict; the exit status."""
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


def in_processes(run: Callable[[T], int], tasks: Sequence[T], jobs: int = 2) -> int:
    """The sum of ``run(task)`` over independent proof tasks, in ``jobs`` processes
    (spawned: each its own z3 context; ``run`` a module-level function); a task that
    raises fails the whole."""
    if jobs <= 1 or len(tasks) <= 1:
        return sum(map(run, tasks))
    with multiprocessing.get_context("spawn").Pool(jobs) as pool:
        return sum(pool.imap_unordered(run, tasks))
