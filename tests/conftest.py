"""The suite's setup, kept in tests/support/: the hypothesis profile HYPOTHESIS_PROFILE
names (tests/support/profiles.py) and the autouse fixtures (tests/support/fixtures.py);
and the hash seed, fixed here for every runner (tests/support/hashseed.py)."""

from __future__ import annotations

import pytest

from tests.support import hashseed, profiles
from tests.support.fixtures import referee_logger_as_it_was

__all__ = ["pytest_configure", "referee_logger_as_it_was"]

profiles.load()


def pytest_configure(config: pytest.Config) -> None:
    """Run the suite under PYTHONHASHSEED=0 however pytest was started (tests/support/hashseed.py)."""
    hashseed.ensure_seed_0(config)
