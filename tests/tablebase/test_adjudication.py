"""Adjudication by the endgame table in ``referee match`` and ``tournament`` (``--tb``,
impl/apps/tbadjudge.py; issue #39 item 5): a game whose board enters the table where
its entry is exact ends with the table's result, and the record, the match's lines
and the tournament's endings say so; elsewhere, and under a rule set whose entries
are not the referee's values, nothing is adjudicated."""

from __future__ import annotations

import asyncio
import json
import random
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from impl import pgn
from impl.apps import games
from impl.apps.games import play_game
from impl.apps.tbadjudge import GothelloEndgameRule, TablebaseRule
from impl.apps.terms import Adjudication, MatchOptions, PlayerSpec
from impl.engines import gothello_endgame as GE
from impl.engines.awari import engine_for
from impl.engines.gothello import ImplGothello
from impl.engines.kernels import GothelloState
from impl.engines.tablebase import probe
from impl.game import Side, Termination
from impl.web.archive import Archive
from spec import awari as A
from tests.support import paths
from tests.support.terminal import refused, run_referee

from .conftest import STONES

SLOPPY = paths.ROOT / "tests" / "support" / "sloppy_player.py"
THINKER = f"{sys.executable} {SLOPPY} {{game}} {{host}} {{port}} {{side}} slow"
"""A player that thinks 0.3 s a move, as real programs do: the table's probe (tens of
milliseconds, off the referee's loop) answers before it moves on."""


def _random_line(engine: Any, judged: Callable[[Any], bool]) -> tuple[tuple[str, ...], Any]:
    """A line of random legal moves from the start, none ending the game, to the first
    position ``judged`` (seeded: the same line each run)."""
    for seed in range(200):
        rng = random.Random(seed)
        state, moves = engine.initial(), list[str]()
        while not engine.is_over(state):
            if judged(state):
                return tuple(moves), state
            move = rng.choice(list(engine.legal_moves(state)))
            moves.append(engine.format_move(move))
            state = engine.apply(state, move)[1]
    raise AssertionError("no random game reached a position judged")


def _into_table(table: probe.Table) -> tuple[tuple[str, ...], probe.AwariState]:
    """A random line to the first position whose entry ``adjudicate`` uses."""
    return _random_line(engine_for(table.rules), lambda state: probe.adjudicate(state, table) is not None)


@pytest.fixture(scope="module")
def uncounted(tables: dict[str, probe.Table]) -> probe.Table:
    return tables["olympiad-1990"]


def test_the_verdict_is_the_tables_and_names_its_value(uncounted: probe.Table) -> None:
    _, state = _into_table(uncounted)
    found = probe.adjudicate(state, uncounted)
    assert found is not None
    rule = TablebaseRule(uncounted.folder, STONES, "olympiad-1990")
    verdict = rule.verdict(state)
    assert verdict is not None
    outcome, words, value = verdict
    side = {A.PLAYER.south: Side.FIRST, A.PLAYER.north: Side.SECOND, None: None}[found.winner]
    assert outcome.winner == side and outcome.termination == Termination.ADJUDICATION
    assert words == f"in the table of ≤ {STONES} stones"
    stones = sum(probe.board_of(state))
    entry = uncounted.value(probe.board_of(state))
    assert f"{stones} stones on the board, table value {entry:+d} (olympiad-1990, exact)" in value
    result = "a draw" if found.winner is None else f"{found.winner.name} wins by {abs(found.difference)}"
    assert value.startswith(result)
    # A table of fewer stones than the board holds decides nothing.
    assert TablebaseRule(uncounted.folder, stones - 1, "olympiad-1990").verdict(state) is None


def _adjudicated(options: MatchOptions, opening: tuple[str, ...], records: Path) -> pgn.PgnGame:
    """The game the 0.3 s/move player plays from ``opening``: ended by adjudication,
    its record in ``records`` saying so."""
    thinker = PlayerSpec.parse(THINKER)
    outcome = play_game((thinker, thinker), 1, options, 0, "", opening)
    assert outcome.result is not None and outcome.result.termination == Termination.ADJUDICATION
    record = pgn.parse((records / "game-0001.pgn").read_text())
    assert record.tag("Termination") == "adjudication"
    return record


def test_a_game_entering_the_table_is_adjudicated_and_recorded(uncounted: probe.Table, tmp_path: Path) -> None:
    opening, state = _into_table(uncounted)
    found = probe.adjudicate(state, uncounted)
    assert found is not None
    rule = TablebaseRule(uncounted.folder, STONES, "olympiad-1990")
    options = MatchOptions(
        "awari", 1, rules="olympiad-1990", adjudication=Adjudication(tablebase=rule), records=tmp_path
    )
    record = _adjudicated(options, opening, tmp_path)
    assert record.tag("Adjudication") == f"in the table of ≤ {STONES} stones"
    verdict = rule.verdict(state)
    assert verdict is not None and record.tag("Tablebase") == verdict[2]
    assert record.outcome.winner == verdict[0].winner
    assert tuple(record.moves) == opening  # ended at the position judged, the opening's last
    # The web view's page of the record says so.
    page = json.loads(Archive(tmp_path).page("game-0001.pgn").body)
    assert page["result"]["words"] == f"adjudicated by the endgame table: {verdict[2]}"


def _referee(*argv: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return run_referee(*argv, cwd=cwd)


def test_match_and_tournament_adjudicate_by_the_table(uncounted: probe.Table, tmp_path: Path) -> None:
    opening, _ = _into_table(uncounted)
    book = tmp_path / "book.txt"
    book.write_text(" ".join(opening) + "\n")
    tb = ["--rules", "olympiad-1990", "--tb", str(uncounted.folder), "--tb-stones", str(STONES)]
    done = _referee("match", f"a={THINKER}", f"b={THINKER}", "--game", "awari", "--games", "2", "--openings", str(book),
                    "--records", "m", *tb, cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Traceback" not in done.stderr, done.stderr  # once, a probe answering after its game's loop closed
    assert done.stdout.count("adjudicated by the endgame table: ") == 2, done.stdout
    records = sorted((tmp_path / "m").glob("game-*.pgn"))
    assert len(records) == 2
    for path in records:
        record = pgn.parse(path.read_text())
        assert record.tag("Termination") == "adjudication" and record.tag("Tablebase")
    done = _referee("tournament", f"a={THINKER}", f"b={THINKER}", "--game", "awari", "--games", "2", "--jobs", "1",
                    "--openings", str(book), "--records", "t", *tb, cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    assert "adjudication (tablebase) 2" in done.stdout, done.stdout
    for path in sorted((tmp_path / "t").glob("game-*.pgn")):
        assert pgn.parse(path.read_text()).tag("Tablebase")


@pytest.mark.parametrize(
    ("extra", "words"),
    [
        (["--rules", "abapa", "--tb", "{tb}"], "no abapa table"),
        (["--rules", "olympiad-1990", "--tb-stones", "4"], "--tb-stones needs --tb"),
        (["--rules", "olympiad-1990", "--tb", "{tb}", "--tb-stones", "9"], "--tb: "),
        (["--rules", "olympiad-1990", "--tb", "nowhere"], "no olympiad-1990 table"),
    ],
)
def test_a_table_that_cannot_adjudicate_is_refused_in_one_line(
    uncounted: probe.Table, tmp_path: Path, extra: list[str], words: str
) -> None:
    """Refused before anything is made: no records directory appears."""
    argv = [word.replace("{tb}", str(uncounted.folder)) for word in extra]
    line = refused(_referee("match", "random", "random", "--game", "awari", *argv, cwd=tmp_path))
    assert line.startswith("referee match: ") and words in line
    assert list(tmp_path.iterdir()) == []


def test_gothello_has_no_table(tmp_path: Path, uncounted: probe.Table) -> None:
    line = refused(_referee("tournament", "random", "random", "--game", "gothello", "--tb", str(uncounted.folder),
                            cwd=tmp_path))  # fmt: skip
    assert "tables are Awari's; Gothello is adjudicated by --tb-empties K" in line


# ─── Gothello: the exact endgame solver (--tb-empties) ─────────────────────────

EMPTIES = 7
"""Solved in milliseconds: the test's games end at once."""


def _into_endgame(empties: int) -> tuple[tuple[str, ...], GothelloState]:
    """A random line (passes where forced) to the first position of at most ``empties``
    empty points the solver decides."""
    return _random_line(ImplGothello(), lambda state: GE.adjudicate(state, empties) is not None)


def test_a_gothello_endgame_is_adjudicated_by_the_solver(tmp_path: Path) -> None:
    opening, state = _into_endgame(EMPTIES)
    rule = GothelloEndgameRule(EMPTIES)
    verdict = rule.verdict(state)
    assert verdict is not None
    solved = GE.solve(state, EMPTIES)
    assert solved is not None  # the verdict is the solver's value, from black's side
    black = solved.value if state[2] == 0 else -solved.value
    assert verdict[0].winner == (Side.FIRST if black > 0 else Side.SECOND if black < 0 else None)
    assert f"black's final difference {black:+d}" in verdict[2]
    assert GothelloEndgameRule(GE.empties(state) - 1).verdict(state) is None  # beyond its reach: nothing
    options = MatchOptions("gothello", 1, adjudication=Adjudication(tablebase=rule), records=tmp_path)
    record = _adjudicated(options, opening, tmp_path)
    assert record.tag("Adjudication") == f"solved exactly at ≤ {EMPTIES} empty points"
    assert record.tag("Tablebase") == verdict[2] and "(solved exactly)" in verdict[2]
    assert record.outcome.winner == verdict[0].winner
    assert tuple(record.moves) == opening
    page = json.loads(Archive(tmp_path).page("game-0001.pgn").body)
    assert page["result"]["words"] == f"adjudicated by the exact endgame solver: {verdict[2]}"


def test_match_adjudicates_gothello_by_the_solver(tmp_path: Path) -> None:
    opening, _ = _into_endgame(EMPTIES)
    book = tmp_path / "book.txt"
    book.write_text(" ".join(opening) + "\n")
    done = _referee("match", f"a={THINKER}", f"b={THINKER}", "--game", "gothello", "--games", "2", "--openings",
                    str(book), "--records", "m", "--tb-empties", str(EMPTIES), cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.count("adjudicated by the exact endgame solver: ") == 2, done.stdout
    for path in sorted((tmp_path / "m").glob("game-*.pgn")):
        assert pgn.parse(path.read_text()).tag("Termination") == "adjudication"


@pytest.mark.parametrize(
    ("game", "extra", "words"),
    [
        ("awari", ["--tb-empties", "8"], "--tb-empties adjudicates Gothello"),
        ("gothello", ["--tb-empties", "0"], "not a number of empty points"),
        ("gothello", ["--tb-empties", "26"], "not a number of empty points"),
        ("gothello", ["--tb-empties", "8", "--tb", "x"], "Gothello is adjudicated by --tb-empties K alone"),
    ],
)
def test_the_solvers_adjudication_is_refused_where_it_cannot_apply(
    tmp_path: Path, game: str, extra: list[str], words: str
) -> None:
    line = refused(_referee("match", "random", "random", "--game", game, *extra, cwd=tmp_path))
    assert words in line
    assert list(tmp_path.iterdir()) == []


def test_a_probe_answering_after_its_games_loop_closed_is_dropped() -> None:
    """The answer of a probe still running when its game ended goes nowhere, quietly
    (it was ``RuntimeError: Event loop is closed`` at the end of every --tb match)."""
    loop = asyncio.new_event_loop()
    loop.close()
    games.deliver(loop, print, "never")  # no exception
    told: list[int] = []
    open_loop = asyncio.new_event_loop()
    try:
        games.deliver(open_loop, told.append, 7)
        open_loop.run_until_complete(asyncio.sleep(0))
    finally:
        open_loop.close()
    assert told == [7]


def test_no_player_outruns_the_table_every_game_entering_it_is_adjudicated(
    uncounted: probe.Table, tmp_path: Path
) -> None:
    """Two random players, which answer at once: each game ends at the first position
    the table judges, never a move later (issue #54: while the probe ran, the session
    holds the reply, Session.hold), and a game that never enters it is not adjudicated.
    The protocol's model and ``--strict`` watch every line: a held line is transcribed
    when it is handled, and the runner's ending of the game is no protocol divergence
    (it once was one in every adjudicated game: the papers have no such message)."""
    tb = ["--rules", "olympiad-1990", "--tb", str(uncounted.folder), "--tb-stones", str(STONES)]
    done = _referee("match", "random --seed 1", "random --seed 2", "--game", "awari", "--games", "8", "--jobs",
                    "2", "--records", "m", "--strict", "--check-protocol", *tb, cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stdout + done.stderr
    rule = TablebaseRule(uncounted.folder, STONES, "olympiad-1990")
    engine = engine_for(uncounted.rules)
    adjudicated = 0
    for path in sorted((tmp_path / "m").glob("game-*.pgn")):
        record = pgn.parse(path.read_text())
        state, first = engine.initial(), None
        for ply, token in enumerate(record.moves):
            if first is None and rule.verdict(state) is not None:
                first = ply
            move = engine.parse_move(token)
            assert move is not None
            state = engine.apply(state, move)[1]
        if first is None and not engine.is_over(state) and rule.verdict(state) is not None:
            first = len(record.moves)
        ended = record.tag("Termination")
        assert record.tag("ProtocolCheck") == "ok" and not record.tag("ProtocolWarning"), path.name
        assert (ended == "adjudication") == (first is not None), (path.name, ended, first)
        assert first is None or len(record.moves) == first, (path.name, first, len(record.moves))
        adjudicated += first is not None
    assert adjudicated >= 4, adjudicated  # seeded players: the same games each run
