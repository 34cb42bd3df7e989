"""``referee tournament`` (impl/apps/tournament/) and its ratings (impl/apps/ratings.py):
the schedule, Elo with margin and LOS, openskill for many players, a real
tournament on an embedded Dask cluster with a command-line player, its records
replayed move for move, resuming, failures reported by name, the SPRT stopping
the games, duplicates named, ``--pgnout``, and (deep) four players on a local
cluster of two worker processes."""

from __future__ import annotations

import argparse
import importlib
import io
import json
import math
import os
import re
import shlex
import signal
import subprocess
import sys
import tomllib
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("distributed")
pytest.importorskip("openskill")

from impl import cli, pgn
from impl.apps import sprt, tournament
from impl.apps.ratings import elo, skills
from impl.apps.tournament import (
    GAUNTLET,
    GameResult,
    TournamentConfig,
    first_pairs,
    first_scores,
    live,
    schedule,
    summarise,
)
from impl.apps.tournament import command as tournament_command
from impl.game import Outcome, Side, Termination
from tests.support import paths
from tests.support.plies import plies

PYTHON = shlex.quote(sys.executable)
CLI_PLAYER = f"cli={PYTHON} -m impl.cli player random {{game}} --host {{host}} --port {{port}} --side {{side}} --seed 5"


def test_match_and_tournament_name_their_records_after_the_command() -> None:
    """--records and --event, shared: by default a new directory ``COMMAND-<time>``
    (as the help says) and the Event tag ``referee COMMAND``."""
    parser = cli.build_parser()
    for command, note in (("tournament", ""), ("match", ", as the tournament's")):
        args = parser.parse_args([command, "random", "random", "--game", "awari"])
        assert args.event == f"referee {command}"
        assert re.fullmatch(rf"{command}-\d{{8}}T\d{{6}}", str(tournament.records_directory(args, command)))
        given = parser.parse_args([command, "random", "random", "--game", "awari", "--records", "r", "--event", "E"])
        assert tournament.records_directory(given, command) == Path("r") and given.event == "E"
        sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices[command]
        records = next(a for a in sub._actions if a.dest == "records")
        assert records.help == f"the records directory{note} (default: a new one, {command}-<time>)"


def test_a_round_robin_plays_every_pair_with_sides_alternating() -> None:
    tasks = schedule(TournamentConfig(("a", "b", "c", "d"), "awari", 3))
    assert len(tasks) == 6 * 3 and [t.number for t in tasks] == list(range(1, 19))
    pairs = {frozenset(t.players) for t in tasks}
    assert len(pairs) == 6
    first = tasks[:3]
    assert [t.players for t in first] == [(0, 1), (1, 0), (0, 1)] and [t.round for t in first] == ["1.1", "1.2", "1.3"]
    gauntlet = schedule(TournamentConfig(("a", "b", "c"), "awari", 2, GAUNTLET))
    assert [t.players for t in gauntlet] == [(0, 1), (1, 0), (0, 2), (2, 0)]


def test_players_are_named_by_label_or_spec_made_distinct() -> None:
    config = TournamentConfig(("random", "random", "x", "fast=search --budget=0.1", "search --budget=0.1"), "awari", 1)
    assert config.labels == ["random", "random (2)", "x", "fast", "search --budget=0.1"]
    assert config.specs[3:] == ["search --budget=0.1", "search --budget=0.1"]


def test_an_unlabelled_command_is_named_by_its_program() -> None:
    """Without LABEL=, a command line's player is its script's or binary's name (issue
    #53), made distinct; the command line stays its spec."""
    first = "{python} examples/first_player.py {game} {port} {side}"
    players = (first, first, "./raw_player {game} {port}", "python3 -u -m pkg.bot", "node bot.js", "env X=1 ./c")
    config = TournamentConfig(players, "awari", 1)
    assert config.labels == ["first_player", "first_player (2)", "raw_player", "pkg.bot", "bot", "c"]
    assert config.specs[:2] == [first, first]


def test_elo_margin_and_los() -> None:
    even = elo(10, 0, 10)
    assert even.difference == 0 and even.los == 0.5 and even.margin is not None and even.margin > 100
    ahead = elo(60, 0, 40)  # 60%: 400 log10(1.5) ≈ 70.4 Elo
    assert math.isclose(ahead.difference, 70.437, abs_tol=0.01)
    assert ahead.margin is not None and 60 < ahead.margin < 75 and 0.97 < ahead.los < 0.99
    more = elo(600, 0, 400)
    assert more.margin is not None and more.margin < ahead.margin / 3  # shrinks as 1/sqrt(games)
    assert elo(5, 0, 0).margin is None and elo(5, 0, 0).difference == math.inf and elo(0, 0, 0).margin is None
    assert elo(3, 4, 3).los == 0.5


def test_openskill_ranks_the_stronger_player_higher() -> None:
    games = [(0, 1, 1.0), (1, 2, 1.0), (0, 2, 1.0)] * 5 + [(1, 0, 0.5)]
    a, b, c = skills(3, games)
    assert a.mu > b.mu > c.mu and all(s.sigma < 8.33 for s in (a, b, c))


def test_failures_are_reported_by_name() -> None:
    config = TournamentConfig(("good", "bad", "slow"), "gothello", 1)
    results = [
        GameResult(1, "1.1", (0, 1), None, "no result", "B exited with 3 before the game started", culprits=(1,)),
        GameResult(2, "2.1", (0, 2), 1.0, "time"),
        GameResult(3, "3.1", (1, 2), 0.5, "move"),
    ]
    summary = summarise(config, results, 3)
    assert [(f.game, f.player, f.kind) for f in summary.failures] == [(1, "bad", "no result"), (2, "slow", "time")]
    assert summary.endings == {"move": 1, "no result": 1, "time": 1}
    assert summary.standings[0].label == "good"


def test_a_terminal_shows_the_standings_once() -> None:
    """On a terminal the live standings give way to the bar alone when the games are
    done: the final tables that follow were printed under the last live ones."""
    from rich.console import Console

    config = TournamentConfig(("a", "b", "c"), "awari", 2)
    tasks, results = schedule(config), dict[int, GameResult]()
    out = io.StringIO()
    console = Console(file=out, force_terminal=True, width=120, markup=False, highlight=False)
    with live.progress(console, config, tasks, results, quiet=False) as (started, finished):
        for task in tasks:
            started(task)
            results[task.number] = GameResult(task.number, task.round, task.players, 1.0, "move")
            finished(task, results[task.number])
    last_frame = out.getvalue().rsplit("\x1b[2K", 1)[1]  # what stays: after the last erased line
    assert f"{len(tasks)}/{len(tasks)}" in last_frame and "Standings" not in last_frame


def test_the_crosstables_title_is_whole_beside_a_narrow_table() -> None:
    """Two players' crosstable is narrower than its title, which wrapped mid-phrase."""
    from rich.console import Console

    config = TournamentConfig(("a", "b"), "awari", 2)
    summary = summarise(config, [_stubbed(1, (0, 1)), _stubbed(2, (1, 0))], 2)
    console = Console(width=200, record=True, markup=False)
    for renderable in tournament.tables(summary):
        console.print(renderable)
    assert "Crosstable (row's score against column / games)" in console.export_text().splitlines()


def _tournament(tmp_path: Path, *extra: str) -> int:
    argv = ["tournament", "random --seed 1", "random --seed 2", CLI_PLAYER, "--game", "gothello", "--games", "1"]
    argv += ["--records", str(tmp_path / "records"), "--jobs", "2", "--json", str(tmp_path / "r.json")]
    return cli.main([*argv, "--csv", str(tmp_path / "r.csv"), *extra])


def test_a_tournament_with_a_command_line_player_records_resumes_and_reports(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _tournament(tmp_path) == 0
    out = capsys.readouterr().out
    assert "Started game 1 of 3" in out and out.count("Finished game") == 3
    assert "Standings after 3 of 3 games" in out and "Crosstable" in out and "Failures: none" in out
    results = json.loads((tmp_path / "r.json").read_text())
    assert results["played"] == results["total"] == 3
    assert sum(p["score"] for p in results["standings"]) == 3 and all(p["games"] == 2 for p in results["standings"])
    assert all("mu" in p and p["margin"] > 0 for p in results["standings"])
    assert (tmp_path / "r.csv").read_text().splitlines()[0].startswith("rank,player,games")
    records = sorted((tmp_path / "records").glob("game-*.pgn"))
    assert len(records) == 3
    for path, game in zip(records, results["games"], strict=True):  # each record replays and agrees
        record = pgn.parse(path.read_text())
        assert record.names == (game["first"], game["second"]) and record.tag("Round") == game["round"]
        assert record.tag("Event") == "referee tournament" and record.outcome.termination == game["termination"]
    # Interrupted before game 3 was recorded: a second run plays that one only.
    before = records[0].read_text()
    records[2].unlink()
    assert _tournament(tmp_path) == 0
    out = capsys.readouterr().out
    assert "Resuming from" in out and "2 of 3 games recorded" in out
    assert "Started game 3 of 3" in out and "Started game 1 of 3" not in out
    assert records[0].read_text() == before and len(list((tmp_path / "records").glob("game-*.pgn"))) == 3


def test_a_player_that_cannot_play_is_named_in_the_failures(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    broken = f"{PYTHON} -c 'raise SystemExit(3)'"
    argv = ["tournament", "random", broken, "--game", "awari", "--games", "1", "--records", str(tmp_path), "-q"]
    assert cli.main([*argv, "--timeout", "20", "--json", str(tmp_path / "r.json")]) == 1
    failures = json.loads((tmp_path / "r.json").read_text())["failures"]
    assert [(f["player"], f["kind"]) for f in failures] == [(broken, "no result")]
    assert "exited with 3" in failures[0]["detail"]
    assert "Failures: " + broken in capsys.readouterr().out


@pytest.mark.deep
def test_an_interrupted_tournament_resumes_from_its_records(tmp_path: Path) -> None:
    """Ctrl-C while game 2 is being played: status 130, game 1's record kept; run
    again, only game 2 is played."""
    argv = [sys.executable, "-m", "impl.cli", "tournament", "random --seed 1", "random --seed 2", "--game"]
    argv += ["gothello", "--games", "2", "--jobs", "1", "--records", str(tmp_path)]
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    assert proc.stdout is not None
    for line in proc.stdout:
        if line.startswith("Finished game 1 of 2"):
            break
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert err.strip().splitlines()[-1] == f"interrupted: 1 of 2 games recorded in {tmp_path}; run again to resume"
    assert sorted(p.name for p in tmp_path.glob("game-*.pgn")) == ["game-0001.pgn"]
    again = subprocess.run(argv, capture_output=True, text=True, timeout=120, check=True).stdout
    assert "1 of 2 games recorded" in again and "Started game 2 of 2" in again and "Started game 1 " not in again
    assert "Standings after 2 of 2 games" in again


@pytest.mark.deep
def test_four_players_on_a_two_worker_local_cluster(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The issue's tournament: random, search at two budgets and a command-line
    player, on a local Dask cluster of two worker processes."""
    players = ["random", "search --budget 0.01", "search --budget 0.05", CLI_PLAYER]
    labels = ["random", "search --budget 0.01", "search --budget 0.05", "cli"]
    argv = ["tournament", *players, "--game", "awari", "--games", "2", "--records", str(tmp_path / "records")]
    assert cli.main([*argv, "--workers", "2", "--jobs", "2", "--json", str(tmp_path / "r.json")]) == 0
    results = json.loads((tmp_path / "r.json").read_text())
    assert results["played"] == 12 and not results["failures"]
    assert {p["player"] for p in results["standings"]} == set(labels)
    for path in (tmp_path / "records").glob("game-*.pgn"):
        assert pgn.parse(path.read_text()).tag("Game") == "awari"


def test_on_a_terminal_the_progress_is_live(tmp_path: Path) -> None:
    """On a terminal: a progress bar with the running standings, redrawn."""
    from tests.support.terminal import Pty, referee

    argv = ["tournament", "random --seed 1", "random --seed 2", "--game", "gothello", "--games", "1"]
    session = Pty(referee(*argv, "--records", str(tmp_path), "--jobs", "1"))
    try:
        session.expect("games (")
        session.expect("1/1")
        session.expect("Standings after 1 of 1 games")
        assert session.finish() == 0
        assert "Started game" not in session.output  # the line-per-game log is for pipes
    finally:
        session.kill()


def test_on_a_terminal_the_sprt_is_live(tmp_path: Path) -> None:
    """The live view shows the SPRT as it stands (``continue``: only it can say
    so, the final report after the last game says ``inconclusive``)."""
    from tests.support.terminal import Pty, referee

    argv = ["tournament", "random --seed 1", "random --seed 2", "--game", "gothello", "--games", "1"]
    session = Pty(referee(*argv, "--records", str(tmp_path), "--jobs", "1", "--sprt", "elo0=0", "elo1=5"))
    try:
        session.expect("(-2.944, 2.944) [0, 5]: continue")
        session.expect("[0, 5]: inconclusive", timeout=120)
        assert session.finish() == 0
    finally:
        session.kill()


@pytest.mark.deep
def test_a_tournament_on_a_scheduler_given_by_address(tmp_path: Path) -> None:
    """``--scheduler ADDRESS``: the games run on a cluster started elsewhere (here a
    local one with a worker process, reached over TCP)."""
    distributed: Any = importlib.import_module("distributed")  # untyped

    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=True, dashboard_address=None) as cluster:
        argv = ["tournament", "random --seed 1", "random --seed 2", "--game", "gothello", "--games", "2", "-q"]
        argv += [
            "--records",
            str(tmp_path),
            "--scheduler",
            cluster.scheduler_address,
            "--json",
            str(tmp_path / "r.json"),
        ]
        assert cli.main(argv) == 0
    results = json.loads((tmp_path / "r.json").read_text())
    assert results["played"] == 2 and results["elo"]["los"] is not None
    assert len(list(tmp_path.glob("game-*.pgn"))) == 2


def test_a_tournament_under_a_rule_set_plays_and_records_it(tmp_path: Path) -> None:
    """``--rules``: every game's server plays the set, and every record names it."""
    argv = ["tournament", "random --seed 1", "random --seed 2", "--game", "awari", "--games", "2", "--rules", "abapa"]
    assert cli.main([*argv, "--records", str(tmp_path), "--jobs", "2"]) == 0
    records = sorted(tmp_path.glob("game-*.pgn"))
    assert len(records) == 2
    assert all(pgn.parse(path.read_text()).tag("Rules") == "abapa" for path in records)
    assert json.loads((tmp_path / "tournament.json").read_text())["rules"] == "abapa"


def test_an_sprt_stops_the_tournament_and_duplicates_are_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """On Dask: a stronger program (search, depth 3) against random, both
    deterministic: H1 accepted after five won games of the 12 allowed; the LLR in
    every progress line and in the JSON; the games of each colour are the same
    game, and the report says which; ``--pgnout`` has every game."""
    argv = ["tournament", "strong=search --budget 10 --depth 3", "random --seed 1", "--game", "awari"]
    argv += ["--games", "12", "--jobs", "1", "--records", str(tmp_path / "r"), "--json", str(tmp_path / "r.json")]
    argv += ["--pgnout", str(tmp_path / "all.pgn"), "--sprt", "elo0=0", "elo1=200", "alpha=0.05"]
    assert cli.main(argv) == 0
    out = capsys.readouterr().out
    progress = [line for line in out.splitlines() if line.startswith("Finished game")]
    assert len(progress) == 5 and all("SPRT: llr " in line for line in progress)
    assert all(re.search(r"\): (\S.* wins|draw|no result) \{", line) for line in progress), progress
    assert progress[-1].endswith("SPRT: llr 3.6 (-2.944, 2.944) [0, 200]: H1")
    assert progress[-2].endswith("SPRT: llr 2.23 (-2.944, 2.944) [0, 200]: continue")
    assert "Standings after 5 of 12 games" in out
    assert "Duplicates: 3 of 5 games repeat earlier games move for move: #3 = #1, #4 = #2, #5 = #1" in out
    results = json.loads((tmp_path / "r.json").read_text())
    assert results["sprt"]["result"] == "H1" and results["sprt"]["model"] == "trinomial"
    assert [d["same_as"] for d in results["duplicates"]] == [1, 2, 1]
    assert results["elo"]["distinct"]["los"] < results["elo"]["los"]  # two games say less than five
    records = sorted((tmp_path / "r").glob("game-*.pgn"))
    assert len(records) == 5
    assert (tmp_path / "all.pgn").read_text() == "".join(p.read_text() for p in records)


def _stubbed(number: int, players: tuple[int, int]) -> GameResult:
    """Game ``number`` won by player 0."""
    return GameResult(number, f"1.{number}", players, 1.0 if players[0] == 0 else 0.0, "move")


@pytest.mark.parametrize("local", [True, False])
def test_once_the_sprt_decides_no_game_starts_and_those_running_count(
    local: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two games at once, every game won by the first player: H1 is accepted at
    the sixth result (elo1 = 100), when game 7 is already running; it finishes
    and counts, and game 8 never starts (threads here, or the embedded Dask)."""
    monkeypatch.setattr(tournament.play, "run_task", lambda task: _stubbed(task.number, task.players))
    config = TournamentConfig(("a", "b"), "awari", 20)
    tasks = schedule(config)
    results: dict[int, GameResult] = {}
    started: list[int] = []
    where = tournament.play.Where(jobs=2, local=local)
    hypotheses = sprt.Hypotheses(0, 100)
    tournament.execute(
        config, tasks, results, tmp_path, where, lambda t: started.append(t.number), lambda t, r: None, hypotheses
    )
    assert sorted(started) == sorted(results) == list(range(1, 8))
    summary = summarise(config, list(results.values()), 20, hypotheses=hypotheses)
    assert summary.sprt is not None and summary.sprt.verdict is sprt.SprtResult.H1
    early = summarise(config, [results[n] for n in range(1, 6)], 5, hypotheses=hypotheses).sprt
    assert early is not None and early.verdict is sprt.SprtResult.INCONCLUSIVE  # no more games to come


def test_pairs_for_the_pentanomial_model() -> None:
    """Games 2k−1 and 2k are a pair, scored for the first player whichever colour."""
    results = [_stubbed(1, (0, 1)), _stubbed(2, (1, 0)), GameResult(3, "", (0, 1), 0.5, "move"), _stubbed(5, (0, 1))]
    results.append(GameResult(4, "", (1, 0), 1.0, "move"))
    assert first_pairs(results) == [(1.0, 1.0), (0.5, 0.0)]  # game 5's pair is incomplete
    assert first_scores(results) == [1.0, 1.0, 0.5, 0.0, 1.0]


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["c=random", "--game", "awari", "--sprt", "elo0=0", "elo1=5"], "--sprt needs exactly two players, not 3"),
        (["--game", "awari", "--sprt", "elo0=5", "elo1=0"], "--sprt: elo0 must be less than elo1, both within ±2000"),
        # Found by an attacker: an OverflowError after game 1, and Infinity in the JSON.
        (
            ["--game", "awari", "--sprt", "elo0=-200000", "elo1=0"],
            "--sprt: elo0 must be less than elo1, both within ±2000",
        ),
        (
            ["--game", "awari", "--sprt", "elo0=0", "elo1=5", "alpha=1e-320"],
            "--sprt: alpha and beta must be at least 1e-12 and below 0.5",
        ),
        (
            ["--game", "awari", "--sprt", "elo0=0", "elo1=5", "beta=0.5"],
            "--sprt: alpha and beta must be at least 1e-12 and below 0.5",
        ),
    ],
)
def test_a_bad_sprt_is_one_line_and_status_2(extra: list[str], message: str) -> None:
    argv = [sys.executable, "-m", "impl.cli", "tournament", "a=random", "b=random", *extra]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and done.stderr.strip().splitlines() == [f"referee tournament: {message}"]


def _record(moves: list[str]) -> str:
    colours, sides = pgn.player_tags("awari", ("x", "y"))
    tags = [("Game", "awari"), *colours, *sides]
    return pgn.write(pgn.record("awari", tags, plies("awari", moves), Outcome(Side.FIRST, Termination.RESIGNATION)))


def test_a_duplicate_is_the_same_players_colours_and_moves() -> None:
    same, other = _record(["B", "b", "A", "f"]), _record(["B", "b", "A", "a"])
    results = [
        GameResult(1, "1.1", (0, 1), 1.0, "resignation", record=same),
        GameResult(2, "1.2", (1, 0), 1.0, "resignation", record=same),  # colours reversed
        GameResult(3, "2.1", (0, 2), 1.0, "resignation", record=same),  # another opponent
        GameResult(4, "1.3", (0, 1), 1.0, "resignation", record=other),  # other moves
        GameResult(5, "1.4", (0, 1), None, "no result", record=same),  # no result: not counted
        GameResult(6, "1.5", (0, 1), 1.0, "resignation", record=same),
        GameResult(7, "1.6", (1, 0), 1.0, "resignation", record=same),
    ]
    summary = summarise(TournamentConfig(("a", "b", "c"), "awari", 6), results, 7)
    assert summary.duplicates == [(6, 1), (7, 2)]
    assert tournament.notes(summary) == [
        "Duplicates: 2 of 6 games repeat earlier games move for move: #6 = #1, #7 = #2 (the ratings count them)"
    ]
    assert summarise(TournamentConfig(("a", "b", "c"), "awari", 6), results, 7, rate=False).duplicates == []


def test_sprt_takes_opening_pairs_when_each_opening_is_played_twice() -> None:
    """With ``--repeat`` the SPRT is the pentanomial on pairs (games 2k−1, 2k share an
    opening, colours reversed), as fishtest; otherwise the trinomial on games."""
    h = sprt.Hypotheses(0, 100)
    results = [_stubbed(1, (0, 1)), _stubbed(2, (1, 0)), _stubbed(3, (0, 1)), _stubbed(4, (1, 0))]
    plain = TournamentConfig(("a", "b"), "awari", 4)
    paired = replace(plain, openings=(("F",), ("E",)), repeat=True)
    assert tournament.sprt_status(plain, h, results).model is sprt.Model.TRINOMIAL
    status = tournament.sprt_status(paired, h, results)
    assert status.model is sprt.Model.PENTANOMIAL
    assert status.llr == sprt.of_pairs(h, [(1.0, 1.0), (1.0, 1.0)]).llr


def test_a_local_tournament_needs_no_dask(tmp_path: Path) -> None:
    """Threads here by default: with dask and distributed unimportable it still runs;
    only --workers asks for them, by the cluster extra (one line, status 2)."""
    blocked = "import sys; sys.modules['distributed'] = sys.modules['dask'] = None; from impl.cli import main; "
    argv = ["tournament", "a=random --seed 1", "b=random --seed 2", "c=random --seed 3", "--game", "awari"]
    argv += ["--games", "2", "--jobs", "2", "-q"]
    env = {**os.environ, "PYTHONPATH": str(paths.ROOT)}

    def run(*extra: str) -> subprocess.CompletedProcess[str]:
        code = blocked + f"sys.exit(main({[*argv, *extra]!r}))"
        return subprocess.run([sys.executable, "-c", code], env=env, cwd=tmp_path, capture_output=True, text=True)

    done = run("--records", str(tmp_path / "r"))
    assert done.returncode == 0, done.stderr
    assert len(list((tmp_path / "r").glob("game-*.pgn"))) == 6
    refused = run("--records", str(tmp_path / "w"), "--workers", "1")
    assert refused.returncode == 2 and "--workers and --scheduler need the cluster extra" in refused.stderr


def test_the_local_tournaments_extra_is_rich_and_openskill_only() -> None:
    """Without --workers or --scheduler the hint names the tournament extra, which
    brings neither Dask nor cryptography (issue #53: it asked for both)."""
    extras = tomllib.loads((paths.ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    wanted = {re.split(r"[<>=\[]", r)[0] for r in extras["optional-dependencies"]["tournament"]}
    assert wanted == {"rich", "openskill"}
    assert "tournament extra" in tournament_command.missing_extra(local=True)
    assert "cluster extra" in tournament_command.missing_extra(local=False)


def test_four_players_standings_have_score_percent_and_elo_by_likelihood() -> None:
    """The standings: ``score %`` (points per game) and ``Elo ± 95%`` (ratings.py
    ``bradley_terry``) beside openskill's; the CSV and JSON carry both."""
    config = TournamentConfig(("a", "b", "c", "d"), "awari", 4)
    scores = {0: 1.0, 1: 0.5, 2: 0.0, 3: 1.0}
    results = [GameResult(t.number, t.round, t.players, scores[t.number % 4], "move") for t in schedule(config)]
    summary = summarise(config, results, len(results))
    assert summary.ratings is not None and summary.skills is not None and summary.pentanomial is None
    assert abs(sum(summary.ratings.elo)) < 1e-6
    from rich.console import Console

    console = Console(width=200, record=True)
    console.print(tournament.tables(summary)[0])
    text = console.export_text()
    assert "score %" in text and "Elo ± 95%" in text and "rating (mu ± 2σ)" in text
    first = summary.standings[0]
    assert f"{first.score_pct:.1f}" in text and f"{summary.ratings.elo[first.player]:+.1f} ± " in text
    rows = tournament.as_csv(summary).splitlines()
    assert rows[0] == "rank,player,games,wins,draws,losses,score,mu,sigma,score_pct,elo,elo_margin"
    cells = rows[1].split(",")
    assert float(cells[9]) == round(first.score_pct, 2) and float(cells[10]) == round(
        summary.ratings.elo[first.player], 1
    )
    document = tournament.as_json(config, summary, results)
    assert document["ratings"] == {"model": "bradley-terry", "anchor": "mean", "prior": summary.ratings.prior}
    entry = document["standings"][0]
    assert entry["score_pct"] == first.score_pct and entry["elo_margin"] == summary.ratings.margin[first.player]


def test_two_players_notes_have_the_likelihood_elo_and_the_pentanomial() -> None:
    config = TournamentConfig(("a", "b"), "gothello", 6)
    scores = [1.0, 0.0, 0.5, 0.5, 1.0, 1.0]  # the first mover's: a, a, draw, draw, a, b win
    results = [
        GameResult(t.number, t.round, t.players, s, "move") for t, s in zip(schedule(config), scores, strict=True)
    ]
    summary = summarise(config, results, 6)
    assert summary.pentanomial == (0, 0, 2, 0, 1)  # pairs (1, 1), (½, ½), (1, 0) for a: 2, 1, 1 points
    notes = tournament.notes(summary)
    assert notes[-1] == "Ptnml(0-2): [0, 0, 2, 0, 1]"
    assert summary.ratings is not None and summary.elo is not None
    assert round(summary.ratings.difference(0, 1)[0], 6) == round(summary.elo.difference, 6)
    assert notes[1].startswith("Elo by maximum likelihood (Bradley–Terry, mean 0, 95%): a +")


def test_an_anchor_player_is_rated_zero(capsys: pytest.CaptureFixture[str]) -> None:
    """``--anchor LABEL``: that player's Elo is 0 with no margin; differences are as
    with the mean at 0; a label that is no player's is one line and status 2."""
    config = TournamentConfig(("a", "b", "c"), "awari", 2)
    scores = [1.0, 0.0, 0.5, 1.0, 0.0, 0.5]
    results = [
        GameResult(t.number, t.round, t.players, s, "move") for t, s in zip(schedule(config), scores, strict=True)
    ]
    mean, anchored = summarise(config, results, 6), summarise(config, results, 6, anchor=1)
    assert mean.ratings is not None and anchored.ratings is not None
    assert anchored.ratings.elo[1] == 0 and anchored.ratings.margin[1] == 0
    assert math.isclose(anchored.ratings.elo[0], mean.ratings.elo[0] - mean.ratings.elo[1])
    assert tournament.as_json(config, anchored, results)["ratings"]["anchor"] == "b"
    argv = ["tournament", "a=random", "b=random", "--game", "awari", "--anchor", "z", "-q"]
    assert cli.main(argv) == 2
    assert capsys.readouterr().err == "referee tournament: --anchor: 'z' is not a player's label (a, b)\n"
