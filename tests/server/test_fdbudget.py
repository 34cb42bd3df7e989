"""impl/server/fdbudget.py: the soft limit raised, and caps that always leave a reserve."""

from __future__ import annotations

import resource

from impl.server import fdbudget


def test_budget_keeps_a_reserve() -> None:
    b = fdbudget.budget(1024)
    assert b.game + b.web + fdbudget.RESERVE == 1024
    assert b.game > 0 and b.web > 0


def test_raise_limit_reaches_the_hard_limit() -> None:
    new = fdbudget.raise_limit()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    assert new == soft
    assert hard == resource.RLIM_INFINITY or soft == min(hard, fdbudget.CEILING)
    assert fdbudget.budget().limit == new
