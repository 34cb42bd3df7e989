"""Fischer increments and per-player time controls in ``referee match`` and
``referee tournament`` (``--time SECS+INC``, ``--time-for LABEL SECS[+INC]``):
each game's clocks by who plays first, the run file, the records' tags."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from impl import cli, pgn
from impl.apps import tournament
from impl.apps.tournament.command import config_of
from impl.cli import UsageError
from impl.protocol import TimeControl
from tests.support import paths


def _config(*argv: str) -> tournament.TournamentConfig:
    return config_of(cli.build_parser().parse_args(["tournament", *argv]))


def test_a_players_own_clock_follows_it_to_either_side() -> None:
    config = _config("a=random", "b=random", "c=random", "--game", "awari", "--time", "60+1", "--time-for", "b", "30+2")
    assert config.time == (60.0, 60.0) and config.increment == (1.0, 1.0)
    assert config.time_for == (("b", TimeControl(30.0, 2.0)),)
    clocks = {t.labels: (t.options.time, t.options.increment) for t in tournament.schedule(config)}
    assert clocks[("a", "b")] == ((60.0, 30.0), (1.0, 2.0))
    assert clocks[("b", "a")] == ((30.0, 60.0), (2.0, 1.0))
    assert clocks[("a", "c")] == ((60.0, 60.0), (1.0, 1.0))


def test_every_player_may_have_its_own_clock_without_time() -> None:
    config = _config("a=random", "b=random", "--game", "awari", "--time-for", "a", "10", "--time-for", "b", "20+1")
    assert {t.options.time for t in tournament.schedule(config)} == {(10.0, 20.0), (20.0, 10.0)}


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("--time-for", "z", "10"), "no player labelled 'z'"),
        (("--time", "5", "--time-for", "a", "1", "--time-for", "a", "2"), "'a' given twice"),
        (("--time-for", "a", "10"), "needs --time for the others"),
        (("--time", "5", "--time-for", "a", "0+1"), r"--time-for a: '0\+1' is not SECS or SECS\+INC"),
    ],
)
def test_time_for_refuses_what_it_cannot_use(argv: tuple[str, ...], message: str) -> None:
    with pytest.raises(UsageError, match=message):
        _config("a=random", "b=random", "--game", "awari", *argv)


def test_the_run_file_names_increments_only_when_set() -> None:
    plain = tournament.run_identity(_config("random", "random", "--game", "awari", "--time", "60"))
    assert "increment" not in plain and "time_for" not in plain  # older run files name the same runs
    timed = tournament.run_identity(
        _config("a=random", "b=random", "--game", "awari", "--time", "60+1", "--time-for", "a", "30+2")
    )
    assert timed["increment"] == [1.0, 1.0] and timed["time_for"] == [["a", "30+2"]]


def test_a_match_records_each_sides_time_control(tmp_path: Path) -> None:
    records = tmp_path / "r"
    argv = ["match", "a=random", "b=random", "--game", "gothello", "--games", "2", "--records", str(records), "-q"]
    argv += ["--time", "60+1", "--time-for", "b", "30+2"]
    env = {**os.environ, "PYTHONPATH": str(paths.ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "impl.cli", *argv], capture_output=True, text=True, timeout=300, env=env
    )
    assert done.returncode == 0, done.stdout + done.stderr
    first = pgn.parse((records / "game-0001.pgn").read_text())  # a (black) moves first
    assert (first.tag("BlackTimeControl"), first.tag("WhiteTimeControl")) == ("60+1", "30+2")
    assert first.time == (60.0, 30.0) and first.increment == (1.0, 2.0) and not first.tag("TimeControl")
    second = pgn.parse((records / "game-0002.pgn").read_text())
    assert (second.tag("BlackTimeControl"), second.tag("WhiteTimeControl")) == ("30+2", "60+1")
