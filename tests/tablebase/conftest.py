"""Tables of ≤ 6 stones, built once per session into a temporary folder (seconds)."""

from __future__ import annotations

import pytest

from impl.engines.tablebase import build
from impl.engines.tablebase.probe import Table
from spec import awari_rules as AR

STONES = 6


@pytest.fixture(scope="session")
def tables(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Table]:
    """The paper's and olympiad-1990's tables (own-row and uncounted repetition)."""
    folder = tmp_path_factory.mktemp("tables")
    found = {}
    for name in ("paper", "olympiad-1990"):
        rules = AR.parse_rules(name)
        build.build(folder, rules, STONES)
        found[name] = Table(folder, rules, STONES)
    return found
