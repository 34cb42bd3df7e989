"""The suite's setup, kept in tests/support/: the hypothesis profile HYPOTHESIS_PROFILE
names (tests/support/profiles.py) and the autouse fixtures (tests/support/fixtures.py)."""

from __future__ import annotations

from tests.support import profiles
from tests.support.fixtures import referee_logger_as_it_was

__all__ = ["referee_logger_as_it_was"]

profiles.load()
