"""Hypothesis profiles, chosen explicitly by HYPOTHESIS_PROFILE (never implicitly:
with CI=true hypothesis would otherwise load its own built-in ``ci`` profile).

  ci        bounded, for ``make verify`` (the default); derandomized, so that a given
            change to the code is caught on every run or on none (the examples are
            a fixed function of each test), and no example database is read
            or written
  thorough  for ``make verify-deep``
The example database lives in .hypothesis/, which git ignores.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings

from impl.log import LOGGER

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
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture(autouse=True)
def _referee_logger_as_it_was() -> Iterator[None]:
    """A test that runs ``referee serve`` in-process (tests/test_server_rules.py,
    tests/test_usage.py) sets up the
    ``referee`` logger on the stderr pytest captured for that test, which pytest
    closes afterwards; a later test's server logging there would print "Logging
    error" tracebacks.  Each test leaves the logger as it found it."""
    logger = logging.getLogger(LOGGER)
    handlers, level, propagate = logger.handlers[:], logger.level, logger.propagate
    yield
    logger.handlers[:], logger.level, logger.propagate = handlers, level, propagate
