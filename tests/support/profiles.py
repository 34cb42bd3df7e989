"""Hypothesis profiles, chosen explicitly by HYPOTHESIS_PROFILE (never implicitly:
with CI=true hypothesis would otherwise load its own built-in ``ci`` profile).

  ci        bounded, for ``make verify`` (the default); derandomized, so that a given
            change to the code is caught on every run or on none (the examples are
            a fixed function of each test), and no example database is read
            or written
  thorough  for ``make verify-deep``
The example database lives in .hypothesis/, which git ignores.  tests/conftest.py
calls ``load`` before any test module is imported.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

_SLOW_OK = [HealthCheck.too_slow, HealthCheck.data_too_large]

settings.register_profile(
    "ci",
    max_examples=40,
    deadline=None,
    suppress_health_check=_SLOW_OK,
    print_blob=True,
    derandomize=True,
    database=None,
)
settings.register_profile("thorough", max_examples=1500, deadline=None, suppress_health_check=_SLOW_OK, print_blob=True)


def load() -> None:
    """Select the profile HYPOTHESIS_PROFILE names (``ci`` when unset)."""
    settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def seeds(count: int, verify: int) -> list[object]:
    """Seeds 0 … count − 1 as parameters, those from ``verify`` on marked ``deep``: make
    verify runs the first ``verify`` (a fixed set, so a regression is caught on every
    run or on none), verify-deep all of them (issue #51: the test command's budget)."""
    return [n if n < verify else pytest.param(n, marks=pytest.mark.deep) for n in range(count)]
