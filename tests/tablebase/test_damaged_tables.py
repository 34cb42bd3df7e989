"""A damaged table decides nothing, and a table file changed under its reader cannot
reach it (issue #49, item 1): every opener reads a level whole into private memory and
checks its sha256 (store.open_level), so a flipped byte is one line and exit status 2
at the start of each command, a damaged table found mid-run leaves the games
unadjudicated, and a level truncated, rewritten or replaced by a FIFO after (or
before) opening neither kills the reader (SIGBUS) nor blocks it."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest

from impl import pgn
from impl.apps import tbadjudge
from impl.apps.games import play_game
from impl.apps.terms import Adjudication, MatchOptions, PlayerSpec
from impl.engines.awari import engine_for
from impl.engines.tablebase import probe, store
from impl.engines.tablebase.index import level_size, unrank
from impl.engines.tablebase.review import table_for
from impl.game import Outcome, Termination
from impl.players.perfect_player import PerfectPlayer
from spec import awari_rules as AR
from tests.support import paths
from tests.support.plies import plies
from tests.support.terminal import refused, run_referee

from .conftest import STONES
from .test_adjudication import _into_table

RULES = AR.parse_rules("olympiad-1990")
NAME = "olympiad-1990"
LEVEL = 5
"""The level damaged: its last byte flipped (a value or a distance)."""
SLOPPY = paths.ROOT / "tests" / "support" / "sloppy_player.py"
QUICK = f"{sys.executable} {SLOPPY} {{game}} {{host}} {{port}} {{side}}"
"""A player that moves at once (its first legal move)."""


def _copy(tables: dict[str, probe.Table], into: Path) -> Path:
    """The session's olympiad-1990 table, copied (the copy is damaged, not the original)."""
    folder = into / "tables"
    shutil.copytree(tables[NAME].folder, folder)
    return folder


def _flip(folder: Path, kind: str = "tb") -> Path:
    """Flip the last byte of level LEVEL's values (``tb``) or distances (``dist``),
    the header left intact: its sha256 no longer holds."""
    path = store.level_path(folder, NAME, LEVEL, kind)
    raw = bytearray(path.read_bytes())
    raw[-1] ^= 0x80
    path.write_bytes(bytes(raw))
    return path


@pytest.fixture
def damaged(tables: dict[str, probe.Table], tmp_path: Path) -> tuple[Path, Path]:
    """(a copy of the table with one value byte flipped, the level file damaged)."""
    folder = _copy(tables, tmp_path)
    return folder, _flip(folder)


def _child(script: str, folder: Path, timeout: float) -> subprocess.CompletedProcess[str]:
    """``script`` run by a Python of its own on ``folder``'s table of ``STONES`` stones:
    what kills it (a SIGBUS, a blocking open) shows as its end, not as pytest's."""
    return subprocess.run(
        [sys.executable, "-c", script, str(folder), str(STONES)],
        env={**os.environ, "PYTHONPATH": str(paths.ROOT)},
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def _names_the_damage(line: str, path: Path) -> None:
    assert str(path) in line and "checksum mismatch" in line, line


# ─── Every opener refuses a flipped byte ───────────────────────────────────────


@pytest.mark.parametrize("kind", ["tb", "dist"])
def test_every_opener_refuses_one_flipped_byte(tables: dict[str, probe.Table], tmp_path: Path, kind: str) -> None:
    folder = _copy(tables, tmp_path)
    path = _flip(folder, kind)
    width = 2 if kind == "dist" else 1
    openers: list[Callable[[], object]] = [
        lambda: store.open_level(path, NAME, LEVEL, width=width),
        lambda: probe.Table(folder, RULES, STONES),
        lambda: probe.Table.found(folder, RULES),
        lambda: probe.Table.every(folder),
        lambda: table_for(folder, NAME),
        lambda: PerfectPlayer(folder),
    ]
    for opener in openers:
        with pytest.raises(store.TableError) as refusal:
            opener()
        _names_the_damage(str(refusal.value), path)


def test_analyse_refuses_a_damaged_table_in_one_line(
    tables: dict[str, probe.Table], damaged: tuple[Path, Path], tmp_path: Path
) -> None:
    folder, path = damaged
    opening, _ = _into_table(tables[NAME])  # a game whose end is in the table
    record = _record(tmp_path, opening)
    line = refused(run_referee("analyse", str(record), "--tb", str(folder), cwd=tmp_path))
    assert line.startswith("referee analyse: ")
    _names_the_damage(line, path)


@pytest.mark.parametrize("command", ["match", "tournament"])
def test_match_and_tournament_refuse_a_damaged_table_before_any_game(
    damaged: tuple[Path, Path], tmp_path: Path, command: str
) -> None:
    folder, path = damaged
    work = tmp_path / "work"
    work.mkdir()
    argv = ["random", "random", "--game", "awari", "--rules", NAME, "--tb", str(folder), "--records", "records"]
    line = refused(run_referee(command, *argv, cwd=work))
    assert line.startswith(f"referee {command}: --tb: ")
    _names_the_damage(line, path)
    assert list(work.iterdir()) == []  # no game played, no record written


@pytest.mark.parametrize("kind", ["perfect", "search"])
def test_a_player_refuses_a_damaged_table_before_it_connects(
    kind: str, damaged: tuple[Path, Path], tmp_path: Path
) -> None:
    """Status 2 (not 1, a connection refused): the table is checked before the port."""
    folder, path = damaged
    line = refused(run_referee("player", kind, "awari", "--port", "9", "--tb", str(folder), cwd=tmp_path))
    assert line.startswith("referee player: --tb: ")
    _names_the_damage(line, path)


# ─── Damaged mid-run: played out, said once ────────────────────────────────────


def test_a_table_found_damaged_mid_run_adjudicates_nothing_and_says_so_once(
    tables: dict[str, probe.Table], damaged: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """As a tournament's worker finds it (the rule carried to it, the table opened at
    its first game): each position unjudged, one line on stderr for the run; the game
    from a line the intact table adjudicates is played out."""
    folder, path = damaged
    opening, state = _into_table(tables[NAME])
    assert tbadjudge.TablebaseRule(tables[NAME].folder.resolve(), STONES, NAME).verdict(state) is not None
    rule = tbadjudge.TablebaseRule(folder.resolve(), STONES, NAME)
    assert rule.verdict(state) is None and rule.verdict(state) is None
    [line] = capsys.readouterr().err.splitlines()
    _names_the_damage(line, path)
    assert "none adjudicated by the table" in line
    options = MatchOptions("awari", 1, rules=NAME, adjudication=Adjudication(tablebase=rule), records=tmp_path)
    quick = PlayerSpec.parse(QUICK)
    outcome = play_game((quick, quick), 1, options, 0, "", opening)
    assert outcome.result is not None and not outcome.tablebase
    assert outcome.result.termination != Termination.ADJUDICATION
    record = (tmp_path / "game-0001.pgn").read_text()
    assert tbadjudge.tag_of(record) == ""
    assert capsys.readouterr().err == ""  # said once: not again for this game's positions


def test_at_the_start_a_damaged_table_still_raises_after_a_mid_run_refusal(damaged: tuple[Path, Path]) -> None:
    folder, _ = damaged
    assert tbadjudge._table(folder, NAME, STONES) is None
    with pytest.raises(store.TableError, match="checksum mismatch"):
        tbadjudge._table(folder, NAME, STONES, at_start=True)


# ─── The file changed under an open table ──────────────────────────────────────

READ_ALL = textwrap.dedent(
    """
    import os, sys
    from pathlib import Path
    from impl.engines.tablebase import probe, store
    from impl.engines.tablebase.index import level_size, unrank
    from spec import awari_rules as AR

    folder, stones = Path(sys.argv[1]), int(sys.argv[2])
    table = probe.Table(folder, AR.parse_rules("olympiad-1990"), stones)
    for n in range(stones + 1):
        for kind in ("tb", "dist"):
            os.truncate(store.level_path(folder, "olympiad-1990", n, kind), 0)
    values = [table.at(n, r) for n in range(stones + 1) for r in range(level_size(n))]
    distances = [table.distance(unrank(r, n)) for n in range(stones + 1) for r in range(level_size(n))]
    print(sum(v * (i % 7 + 1) for i, v in enumerate(values)), sum(d or 0 for d in distances), len(values))
    """
)


def test_levels_truncated_after_opening_do_not_kill_the_reader(tables: dict[str, probe.Table], tmp_path: Path) -> None:
    """Every level and distance file truncated to nothing once the table is open, then
    every entry read: in a child process, so that a SIGBUS (a mapped file's lost
    pages) shows as its exit status, not as pytest's death."""
    folder = _copy(tables, tmp_path)
    table = probe.Table(folder, RULES, STONES)
    values = [table.at(n, r) for n in range(STONES + 1) for r in range(level_size(n))]
    assert table.distances is not None
    distances = [table.distance(unrank(r, n)) or 0 for n in range(STONES + 1) for r in range(level_size(n))]
    done = _child(READ_ALL, folder, timeout=300)
    assert done.returncode == 0, (done.returncode, done.stderr)
    weighted = sum(v * (i % 7 + 1) for i, v in enumerate(values))
    assert done.stdout.split() == [str(weighted), str(sum(distances)), str(len(values))]
    assert store.level_path(folder, NAME, STONES).stat().st_size == 0  # the child did truncate them


def test_a_level_rewritten_in_place_after_opening_is_not_seen(tables: dict[str, probe.Table], tmp_path: Path) -> None:
    """A private copy of the file (the old copy-on-write mapping showed another
    process's writes to pages not yet copied): the entries stay those verified."""
    folder = _copy(tables, tmp_path)
    table = probe.Table(folder, RULES, STONES)
    before = [table.at(LEVEL, r) for r in range(level_size(LEVEL))]
    path = store.level_path(folder, NAME, LEVEL)
    with path.open("r+b") as f:
        f.seek(store.HEADER_SIZE)
        f.write(bytes((v + 1) & 255 for v in before))
    assert [table.at(LEVEL, r) for r in range(level_size(LEVEL))] == before


# ─── Files that are no level ───────────────────────────────────────────────────

OPEN_FIFO = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from impl.engines.tablebase import probe, store
    from spec import awari_rules as AR

    try:
        probe.Table(Path(sys.argv[1]), AR.parse_rules("olympiad-1990"), int(sys.argv[2]))
    except store.TableError as exc:
        print(exc)
    """
)


@pytest.mark.parametrize("kind", ["tb", "dist"])
def test_a_fifo_in_place_of_a_level_is_refused_without_blocking(
    tables: dict[str, probe.Table], tmp_path: Path, kind: str
) -> None:
    """Opened without blocking and refused as no regular file: the child ends (a
    blocking open would wait for a writer until the timeout)."""
    folder = _copy(tables, tmp_path)
    path = store.level_path(folder, NAME, LEVEL, kind)
    path.unlink()
    os.mkfifo(path)
    done = _child(OPEN_FIFO, folder, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"{path}: not a regular file"
    if kind == "tb":
        record = _record(tmp_path, ())
        line = refused(run_referee("analyse", str(record), "--tb", str(folder), cwd=tmp_path, timeout=120))
        assert line == f"referee analyse: {path}: not a regular file"


def test_a_device_or_a_directory_in_place_of_a_level_is_refused(tables: dict[str, probe.Table], tmp_path: Path) -> None:
    folder = _copy(tables, tmp_path)
    path = store.level_path(folder, NAME, LEVEL)
    path.unlink()
    path.symlink_to("/dev/zero")
    with pytest.raises(store.TableError, match="not a regular file"):
        probe.Table(folder, RULES, STONES)
    path.unlink()
    path.mkdir()
    with pytest.raises(store.TableError, match="not a regular file"):
        probe.Table(folder, RULES, STONES)


def test_a_level_longer_or_shorter_than_its_header_says_is_refused(
    tables: dict[str, probe.Table], tmp_path: Path
) -> None:
    folder = _copy(tables, tmp_path)
    path = store.level_path(folder, NAME, LEVEL)
    raw = path.read_bytes()
    path.write_bytes(raw + b"\0")
    with pytest.raises(store.TableError, match="longer than its header says"):
        store.open_level(path, NAME, LEVEL)
    path.write_bytes(raw[:-1])
    with pytest.raises(store.TableError, match="truncated"):
        store.open_level(path, NAME, LEVEL)
    path.write_bytes(raw[:100])
    with pytest.raises(store.TableError, match="not a format-1 table file"):
        store.open_level(path, NAME, LEVEL)


def test_a_header_claiming_a_huge_level_is_refused_before_reading(tmp_path: Path) -> None:
    """The header's size must be this level's (C(n + 11, 11) boards) before anything is
    allocated: a file cannot make its reader map terabytes."""
    header = store.encode(NAME, 0, b"\0").replace(b'"boards": 1,', b'"boards": 99999999999999,', 1)
    path = store.level_path(tmp_path, NAME, 0)
    path.write_bytes(header)
    with pytest.raises(store.TableError, match="built for"):
        store.open_level(path, NAME, 0)


# ─── Helpers ───────────────────────────────────────────────────────────────────


def _record(tmp_path: Path, opening: tuple[str, ...]) -> Path:
    """An olympiad-1990 record of ``opening`` then the first legal move until the end."""
    engine = engine_for(RULES)
    state, moves = engine.initial(), list(opening)
    for token in opening:
        pit = engine.parse_move(token)
        assert pit is not None
        _, state = engine.apply(state, pit)
    while not engine.is_over(state) and len(moves) < 400:
        pit = engine.legal_moves(state)[0]
        moves.append(engine.format_move(pit))
        _, state = engine.apply(state, pit)
    tags = [("Event", "test"), ("Game", "awari"), ("Rules", NAME), ("Result", "*")]
    record = pgn.record("awari", tags, plies("awari", moves, rules=NAME), Outcome(None, Termination.MOVE))
    path = tmp_path / "game.pgn"
    path.write_text(pgn.write(record))
    return path
