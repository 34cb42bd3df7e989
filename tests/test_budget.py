"""tests/support/budget.py: a test over the time budget is named at the end of the run,
one under it is not (issue #51)."""

from __future__ import annotations

from typing import Literal, cast

import pytest

from tests.support import budget


class Terminal:
    def __init__(self) -> None:
        self.lines: list[str] = []

    def write_sep(self, sep: str, title: str) -> None:
        self.lines.append(title)

    def write_line(self, line: str) -> None:
        self.lines.append(line)


def report(nodeid: str, seconds: float, when: Literal["setup", "call", "teardown"] = "call") -> pytest.TestReport:
    return pytest.TestReport(nodeid, (nodeid, 0, nodeid), {}, "passed", None, when, duration=seconds)


def test_only_calls_over_the_budget_are_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(budget, "_over", [])
    budget.record(report("tests/a.py::slow", budget.BUDGET + 5))
    budget.record(report("tests/a.py::quick", budget.BUDGET - 5))
    budget.record(report("tests/a.py::setup", budget.BUDGET + 9, when="setup"))
    terminal = Terminal()
    budget.summary(cast(pytest.TerminalReporter, terminal))
    assert terminal.lines == [
        f"tests over the {budget.BUDGET:g} s budget (issue #51; slow here, or a loaded machine)",
        f"{budget.BUDGET + 5:7.2f}s tests/a.py::slow",
    ]


def test_nothing_is_said_when_every_test_kept_the_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(budget, "_over", [])
    terminal = Terminal()
    budget.summary(cast(pytest.TerminalReporter, terminal))
    assert terminal.lines == []
