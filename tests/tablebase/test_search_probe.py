"""The search player probes the endgame tables inside its search (``referee player
search --tb DIR``, impl/players/search_awari.py; issue #54 item 4): a line reaching a
board the table covers ends there, valued as perfect play."""

from __future__ import annotations

import os
import random
import shutil
import tempfile
from pathlib import Path

import pytest

from impl.engines.awari import engine_for
from impl.engines.tablebase import build, probe
from impl.players.search import final_value
from impl.players.search_player import SearchPlayer
from spec import awari_rules as AR
from tests.support.terminal import refused, run_referee

from .conftest import STONES


def _covered_positions(table: probe.Table, count: int) -> list[probe.AwariState]:
    """Positions of seeded random games that the table covers and trusts, the game going on."""
    engine = engine_for(table.rules)
    found: list[probe.AwariState] = []
    for seed in range(400):
        rng, state = random.Random(seed), engine.initial()
        while not engine.is_over(state) and len(found) < count:
            if sum(probe.board_of(state)) <= STONES and probe.trusted(table, state):
                found.append(state)
                break
            state = engine.apply(state, rng.choice(list(engine.legal_moves(state))))[1]
        if len(found) == count:
            break
    assert len(found) == count
    return found


def test_inside_the_table_the_search_plays_perfectly_and_knows_the_value(tables: dict[str, probe.Table]) -> None:
    """Every move from a covered board leads to a covered board (no sowing adds stones),
    so one ply of search with the table is perfect play: its value is the stores'
    difference plus the table's entry, and its move one of the table's best."""
    table = tables["olympiad-1990"]
    engine = engine_for(table.rules)
    player = SearchPlayer(0.05, max_depth=3, tables={"olympiad-1990": table})
    for state in _covered_positions(table, 12):
        token, info = player.think("awari", state, 0.05, engine)
        mine, theirs = probe.stores_of(state)
        assert info.value == final_value(mine - theirs + table.value(probe.board_of(state))), token
        values = {pit.name: value for pit, value in probe.move_values(table, state).items()}
        assert values[token] == max(values.values()), (token, values)
    assert player.probes > 0


def test_without_the_rule_sets_table_the_search_probes_nothing(tables: dict[str, probe.Table]) -> None:
    """Under a rule set with no table in the folder (here olympiad-1990's only), nothing
    is probed: another rule set's entries are not this game's values."""
    paper = engine_for(tables["paper"].rules)
    player = SearchPlayer(0.05, max_depth=3, tables={"olympiad-1990": tables["olympiad-1990"]})
    state = _covered_positions(tables["olympiad-1990"], 1)[0]
    if not paper.is_over(state):
        player.think("awari", state, 0.05, paper)
    assert player.probes == 0


def test_a_sandboxed_player_reads_tables_built_here(tmp_path: Path) -> None:
    """Levels are written as a plain write leaves a file (0644 under umask 022), not
    mkstemp's 0600: a runner started as root runs its programs as nobody, which then
    could not open a table (every game of ``search --tb`` ended with no result)."""
    folder = Path(tempfile.mkdtemp(prefix="tables-"))  # outside pytest's 0700 folders, as a user's would be
    try:
        folder.chmod(0o755)
        build.build(folder, AR.parse_rules("olympiad-1990"), 4)
        umask = os.umask(0)
        os.umask(umask)
        assert {p.stat().st_mode & 0o777 for p in folder.iterdir()} == {0o666 & ~umask}
        done = run_referee("match", f"search --budget 0.02 --tb {folder}", "random --seed 1", "--game", "awari",
                           "--rules", "olympiad-1990", "--games", "2", "--records", "r", cwd=tmp_path)  # fmt: skip
        assert done.returncode == 0 and "2 games, 2 with a result" in done.stdout, done.stdout + done.stderr
    finally:
        shutil.rmtree(folder)


@pytest.mark.parametrize("kind", ["perfect", "search"])
@pytest.mark.parametrize(("where", "words"), [("missing", "is not a folder"), ("empty", "no table in")])
def test_a_tables_folder_that_holds_none_is_one_line(kind: str, where: str, words: str, tmp_path: Path) -> None:
    """A mistyped --tb once played every game without a table, silently."""
    folder = tmp_path / where
    if where == "empty":
        folder.mkdir()
    line = refused(run_referee("player", kind, "awari", "--port", "9", "--tb", str(folder), cwd=tmp_path))
    assert line.startswith("referee player: --tb: ") and words in line, line
