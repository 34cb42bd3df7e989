"""make verify's time budget for one test (issue #51): a test whose call took longer
than ``BUDGET`` seconds is named at the end of the run, beside pytest's
``--durations`` list.  Named, not failed: no test asserts a wall-clock bound, and on a
loaded machine any test may run long; the list is where a slow test is noticed."""

from __future__ import annotations

import pytest

BUDGET = 25.0
"""Seconds a test's call may take on an idle 2-core machine under ``make verify``
(``-n 2``).  The slowest since #51 take 17–21 s: a program losing by the idle rule
(10 s of it a timer), a program that does not exit, the spec answering the Awari corpus."""

_over: list[tuple[float, str]] = []


def record(report: pytest.TestReport) -> None:
    if report.when == "call" and report.duration > BUDGET:
        _over.append((report.duration, report.nodeid))


def summary(terminal: pytest.TerminalReporter) -> None:
    if not _over:
        return
    terminal.write_sep("-", f"tests over the {BUDGET:g} s budget (issue #51; slow here, or a loaded machine)")
    for seconds, nodeid in sorted(_over, reverse=True):
        terminal.write_line(f"{seconds:7.2f}s {nodeid}")
