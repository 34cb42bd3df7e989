"""Fixtures every test uses (tests/conftest.py makes them autouse for the whole suite)."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest

from impl.log import LOGGER


@pytest.fixture(autouse=True)
def referee_logger_as_it_was() -> Iterator[None]:
    """A test that runs ``referee serve`` in-process (tests/server/test_rules.py,
    tests/test_usage.py) sets up the ``referee`` logger on the stderr pytest captured
    for that test, which pytest closes afterwards; a later test's server logging there
    would print "Logging error" tracebacks.  Each test leaves the logger as it found it."""
    logger = logging.getLogger(LOGGER)
    handlers, level, propagate = logger.handlers[:], logger.level, logger.propagate
    yield
    logger.handlers[:], logger.level, logger.propagate = handlers, level, propagate
