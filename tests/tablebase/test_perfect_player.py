"""The perfect player, from table positions, never does worse than the table says
against the search player (engine-level games: no server needed)."""

from __future__ import annotations

from pathlib import Path

import pytest

from impl.engines.awari import AwariState, RulesAwari
from impl.engines.tablebase import build
from impl.engines.tablebase.index import boards
from impl.engines.tablebase.probe import Table, move_values
from impl.players import PLAYERS
from impl.players.perfect_player import PerfectPlayer
from impl.players.search_player import SearchPlayer
from spec import awari as A
from spec import awari_rules as AR

RULES = AR.parse_rules("olympiad-1990")


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("perfect")
    build.build(path, RULES, 5)
    return path


def _play(folder: Path, pits: tuple[int, ...]) -> tuple[int, int]:
    """A game from ``pits`` (north to move, stores 0/0) with the perfect player north
    and the search player south: (north's final store difference, table moves)."""
    engine = RulesAwari(RULES)
    perfect = PerfectPlayer(folder, budget=0.02, max_depth=6)
    search = SearchPlayer(budget=0.02, max_depth=6)
    state: AwariState = (_packed(pits[:6]), _packed(pits[6:]), 0, frozenset())
    for _ in range(200):
        if engine.is_over(state):
            break
        player = perfect if state[2] >> 16 == 0 else search
        move = player.think("awari", state, 0.02, engine)
        if isinstance(move, tuple):
            move = move[0]
        _, state = engine.apply(state, A.PIT[move])
    _, state = engine.apply(state, A.PIT.a)  # the ending's stores
    meta = state[2]
    return (meta & 255) - (meta >> 8 & 255), perfect.from_table


def test_the_perfect_player_is_registered() -> None:
    assert PLAYERS["perfect"] is PerfectPlayer


def test_every_table_move_keeps_the_entry(folder: Path) -> None:
    """Where the table is trusted, the perfect player's move is worth the entry."""
    table = Table(folder, RULES, 5)
    player = PerfectPlayer(folder, budget=0.02, max_depth=4)
    engine = RulesAwari(RULES)
    for pits in [b for b in boards(5) if any(b[:6]) and any(b[6:])][::37]:
        state = (_packed(pits[:6]), _packed(pits[6:]), 0, frozenset[tuple[int, int, int]]())
        move = player.think("awari", state, 0.02, engine)
        assert move_values(table, state)[A.PIT[move]] == table.value(pits)
    assert player.from_table > 0


def test_from_table_positions_it_keeps_the_table_value(folder: Path) -> None:
    """The issue's property: from table positions, against the search player, the
    perfect player ends at least at the entry — e.g. from (0,0,0,0,0,1 | 0,0,0,0,0,4),
    worth 5, where the first reply already makes the start reachable again: the
    distances keep its line from repeating."""
    table = Table(folder, RULES, 5)
    assert table.distances is not None
    positions = [b for b in boards(5) if any(b[:6]) and any(b[6:])][::41]
    assert (0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 4) in positions
    for pits in positions:
        margin, from_table = _play(folder, pits)
        assert from_table > 0
        assert margin >= table.value(pits), (pits, margin, table.value(pits))


def _packed(row: tuple[int, ...]) -> int:
    return sum(p << 8 * j for j, p in enumerate(row))
