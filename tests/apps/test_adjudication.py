"""Adjudication by the match runner (impl/apps/games.py ``Adjudication``, issue #41):
fastchess's and cutechess-cli's draw-by-length and resign-by-score, on the count
the papers score by; off by default; the record says so (``Termination
"adjudication"``, an ``Adjudication`` tag), and the players hear a 399 that says why."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from impl import pgn
from impl.apps.games import play_game
from impl.apps.terms import Adjudication, MatchOptions, PlayerSpec, adjudication_rule
from impl.apps.tournament import GameResult
from impl.apps.tournament.config import TournamentConfig, settings
from impl.apps.tournament.summary import ending
from impl.game import Outcome, Side, Termination
from impl.web.archive import record_fields
from tests.support import paths
from tests.support.terminal import refused

ADJUDGED = Termination.ADJUDICATION


def test_a_lead_held_for_the_plies_wins_and_a_long_game_is_drawn() -> None:
    rules = Adjudication(max_plies=40, margin=5, plies=3)
    assert rules.verdict(3, [5, 6, 5]) == (Outcome(Side.FIRST, ADJUDGED), "ahead by 5 or more for 3 plies")
    assert rules.verdict(4, [0, -5, -7, -5])[0] == Outcome(Side.SECOND, ADJUDGED)  # type: ignore[index]
    assert rules.verdict(3, [5, 4, 5]) is None  # not held
    assert rules.verdict(2, [9, 9]) is None  # not yet for long enough
    assert rules.verdict(40, [0] * 40) == (Outcome(None, ADJUDGED), "still running after 40 plies")
    assert Adjudication().verdict(500, [48] * 500) is None  # off by default


def test_a_match_adjudicated_by_length_records_draws_the_tools_read(tmp_path: Path) -> None:
    options = MatchOptions("gothello", 1, adjudication=Adjudication(max_plies=6), records=tmp_path)
    outcome = play_game((PlayerSpec.parse("random"), PlayerSpec.parse("random --seed 2")), 1, options, 0)
    assert outcome.result == Outcome(None, ADJUDGED) and outcome.adjudicated == "still running after 6 plies"
    record = pgn.parse((tmp_path / "game-0001.pgn").read_text())
    assert record.tag("Termination") == "adjudication" and record.result == "1/2-1/2"
    # ended at the position judged: no move of the (fast) players after the sixth
    assert record.tag("Adjudication") == "still running after 6 plies" and len(record.moves) == 6


def test_resign_adjudication_through_the_command(tmp_path: Path) -> None:
    argv = [sys.executable, "-m", "impl.cli", "match", "random", "search --budget 0.01", "--game", "awari"]
    argv += ["--games", "2", "--resign-margin", "6:4", "--records", str(tmp_path / "r")]
    argv += ["--json", str(tmp_path / "r.json"), "-q"]
    env = {**os.environ, "PYTHONPATH": str(paths.ROOT)}
    done = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    for record in sorted((tmp_path / "r").glob("game-*.pgn")):
        game = pgn.parse(record.read_text())
        if game.tag("Termination") == "adjudication":
            assert game.tag("Adjudication") == "ahead by 6 or more for 4 plies"
            assert game.outcome.winner is not None
    out = json.loads((tmp_path / "r.json").read_text())
    assert out["failures"] == []
    for entry in out["games"]:  # each ending named by its rule (issue #53)
        adjudicated = entry["termination"] == "adjudication"
        assert entry["ending"] == ("adjudication (margin)" if adjudicated else entry["termination"])
    assert all(k in ("move", "adjudication (margin)") for k in out["endings"]), out["endings"]


def _result(termination: str, **tags: str) -> GameResult:
    record = '[Game "awari"]\n' + "".join(f'[{k} "{v}"]\n' for k, v in tags.items()) + "\n*\n"
    return GameResult(1, "1", (0, 1), 0.5, termination, "", record)


def test_each_adjudication_is_named_by_its_rule() -> None:
    """Endings lumped ``--resign-margin`` with ``--max-plies`` (issue #53): each is
    named by the rule that made it, as the record says."""
    cases = {
        "adjudication (max plies)": _result("adjudication", Adjudication="still running after 6 plies"),
        "adjudication (margin)": _result("adjudication", Adjudication="ahead by 6 or more for 4 plies"),
        "adjudication (tablebase)": _result("adjudication", Tablebase="draw (olympiad-1990, exact)"),
        "adjudication (strict)": _result("adjudication", ProtocolWarning="a warning"),
        "adjudication": _result("adjudication"),  # an older record: no rule named
        "time": _result("time"),
    }
    assert {ending(r): name for name, r in cases.items()} == {name: name for name in cases}
    assert adjudication_rule("still running after 9 plies") == "max plies" and adjudication_rule("x") == ""


@pytest.mark.parametrize("value", ["0", "x", "6:0", "49", "6:a"])
def test_a_bad_resign_margin_is_one_line_and_status_2(value: str, tmp_path: Path) -> None:
    """Refused before anything is made: no records directory appears."""
    argv = [sys.executable, "-m", "impl.cli", "match", "random", "random", "--game", "awari", "--resign-margin", value]
    env = {**os.environ, "PYTHONPATH": str(paths.ROOT)}
    done = subprocess.run(argv, env=env, cwd=tmp_path, capture_output=True, text=True, timeout=60, check=False)
    assert "--resign-margin is M or M:PLIES" in refused(done)
    assert list(tmp_path.iterdir()) == []


def test_a_record_page_says_which_rule_adjudicated() -> None:
    """The record's words, not "its record has the result" (issue #53)."""
    headers = [
        {"Result": result, "Termination": "adjudication", "Adjudication": why}
        for result, why in (("draw", "still running after 6 plies"), ("north wins", "ahead by 5 or more for 3 plies"))
    ]
    assert [record_fields("awari", h)["result"]["words"] for h in headers] == [
        "draw by adjudication (still running after 6 plies)",
        "north wins by adjudication (ahead by 5 or more for 3 plies)",
    ]


def test_the_runs_settings_are_said_at_its_start(tmp_path: Path) -> None:
    """cutechess-cli's settings summary (issue #53): game and rules, clocks, openings,
    adjudication, before the first game."""
    book = tmp_path / "book.txt"
    book.write_text("A\n")
    argv = [sys.executable, "-m", "impl.cli", "match", "random", "random", "--game", "awari", "--games", "2"]
    argv += ["--time", "30+0.5", "--openings", str(book), "--max-plies", "4", "--resign-margin", "6:4"]
    argv += ["--records", str(tmp_path / "r"), "--json", str(tmp_path / "r.json")]
    env = {**os.environ, "PYTHONPATH": str(paths.ROOT)}
    done = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    start = lines.index(next(line for line in lines if line.startswith("Settings: ")))
    settings = [
        "Settings: awari, rules paper, engine impl; round-robin of 2 players, 2 games per pairing",
        "Time: 30+0.5 s a side; a game at most 600 s",
        "Openings: 1, each twice, colours reversed",
        "Adjudication: a draw after 4 plies (--max-plies); a win ahead by 6 or more for 4 plies (--resign-margin)",
    ]
    assert lines[start : start + 4] == settings
    assert start < next(i for i, line in enumerate(lines) if line.startswith("Finished game"))
    assert json.loads((tmp_path / "r.json").read_text())["settings"] == settings  # kept in the JSON too
    # Each game's line names the rule that adjudicated it, as its record does.
    finished = [line for line in lines if line.startswith("Finished game")]
    assert finished and all("{adjudicated (" in line for line in finished), finished


def test_settings_without_clocks_openings_or_adjudication() -> None:
    config = TournamentConfig(("a", "b", "c"), "gothello", 4, time=(10.0, 20.0), increment=(0.0, 1.0))
    assert settings(config, None, 2) == [
        "Settings: gothello, engine impl; round-robin of 3 players, 4 games per pairing, 2 at once",
        "Time: black 10 s, white 20+1 s; a game at most 600 s",
        "Openings: none (every game from the start)",
        "Adjudication: none",
    ]
    assert settings(TournamentConfig(("a", "b"), "awari", 2))[1] == "Time: no clock; a game at most 600 s"
