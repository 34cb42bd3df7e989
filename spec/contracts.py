"""The spec's contract decorators: icontract's, with one switch.

Contracts are on by default and throughout the tests.  ``SPEC_CONTRACTS=0`` in the
environment turns them off at import time; only the benchmarks do that, to time the
spec's rules rather than its checks.  crosshair must never run with them off: it
would find nothing to check (proofs/README.md says how that is guarded).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any, TypeVar

import icontract

F = TypeVar("F", bound=Callable[..., Any])

ENABLED: bool = os.environ.get("SPEC_CONTRACTS", "1") != "0"


def require(condition: Callable[..., Any], description: str | None = None) -> Callable[[F], F]:
    """A precondition: the schema's predicate on the before-state and inputs."""
    decorator: Callable[[F], F] = icontract.require(condition, description, enabled=ENABLED)
    return decorator


def ensure(condition: Callable[..., Any], description: str | None = None) -> Callable[[F], F]:
    """A postcondition: the schema's predicate on the after-state and outputs."""
    decorator: Callable[[F], F] = icontract.ensure(condition, description, enabled=ENABLED)
    return decorator
