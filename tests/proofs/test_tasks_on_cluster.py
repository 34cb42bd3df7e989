"""The refinement runners' independent tasks on Dask (proofs/verdict.py ``in_processes``
inside ``tasks_on``): the Gothello squares give on an embedded cluster of 2 workers
what they give in the process pool; a refuted task fails the step naming the task;
the command line chooses where the tasks run, and make verify's bounded scope keeps
its process pool."""

from __future__ import annotations

import pytest

from proofs import verdict
from proofs.gothello import refinement as GR

SQUARES = [(1, 1), (1, 2), (2, 2)]
CORNER = sum(1 << GR.bit((f, r)) for f in (1, 2) for r in (1, 2))
"""The bounded scope's region: stones within a1–b2."""


def refuted_unless_even(n: int) -> int:
    """A proof task with a planted counterexample: odd numbers."""
    assert n % 2 == 0, f"{n} is odd"
    return n


def test_the_gothello_squares_on_the_cluster_as_in_processes() -> None:
    in_pool = GR.over_squares("legal_bit_refines", SQUARES, CORNER, jobs=2)
    with verdict.tasks_on(None, 2) as runner:
        assert runner.capacity == 2
        on_dask = GR.over_squares("legal_bit_refines", SQUARES, CORNER, jobs=2)
    assert on_dask == in_pool > 0


def test_a_refuted_task_fails_the_step_naming_it() -> None:
    with verdict.tasks_on(None, 2):
        assert verdict.in_processes(refuted_unless_even, [2, 4, 6]) == 12
        with pytest.raises(AssertionError, match=r"^3: 3 is odd$"):
            verdict.in_processes(refuted_unless_even, [2, 3, 4])
    assert not verdict._runners  # closed with its block


@pytest.mark.parametrize(
    ("argv", "on_dask", "jobs", "scheduler"),
    [
        (["--bounded"], False, 2, None),  # make verify: the process pool
        ([], True, 2, None),  # make proofs: the embedded cluster
        (["--deep", "--jobs", "4"], True, 4, None),
        (["--no-cluster"], False, 2, None),
        (["--bounded", "--scheduler", "tcp://10.0.0.5:8786"], True, 2, "tcp://10.0.0.5:8786"),
    ],
)
def test_the_command_line_says_where_tasks_run(
    argv: list[str], on_dask: bool, jobs: int, scheduler: str | None
) -> None:
    scope = verdict.scope_arguments("proofs.gothello.refinement", GR.__doc__, "deep", argv)
    assert (scope.cluster, scope.jobs, scope.scheduler) == (on_dask, jobs, scheduler)


@pytest.mark.parametrize("argv", [["--scheduler", "nowhere"], ["--jobs", "0"], ["--no-cluster", "--scheduler", "h:1"]])
def test_bad_arguments_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        verdict.scope_arguments("proofs.gothello.refinement", GR.__doc__, "deep", argv)
    assert e.value.code == 2 and "Traceback" not in capsys.readouterr().err
