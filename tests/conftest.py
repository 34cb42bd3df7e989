"""The suite's setup, kept in tests/support/: the hypothesis profile HYPOTHESIS_PROFILE
names (tests/support/profiles.py) and the autouse fixtures (tests/support/fixtures.py);
the hash seed, fixed here for every runner (tests/support/hashseed.py); the tests
over one test's time budget, named at the end (tests/support/budget.py)."""

from __future__ import annotations

import pytest

from tests.support import budget, hashseed, profiles
from tests.support.fixtures import referee_logger_as_it_was

__all__ = ["pytest_configure", "pytest_runtest_logreport", "pytest_terminal_summary", "referee_logger_as_it_was"]

profiles.load()


def pytest_configure(config: pytest.Config) -> None:
    """Run the suite under PYTHONHASHSEED=0 however pytest was started (tests/support/hashseed.py)."""
    hashseed.ensure_seed_0(config)


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    budget.record(report)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    budget.summary(terminalreporter)
