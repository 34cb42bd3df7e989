"""The match runner (impl/apps/match.py): games between player programs through servers
it starts itself, sides alternating, the score table; our players by name, any
command line through placeholders or the environment, and players that fail;
``referee match`` as a two-player tournament (labels, records directory, Elo,
duplicates, ``--sprt``, ``--pgnout``)."""

from __future__ import annotations

import errno
import json
import os
import re
import shlex
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

from impl import atomic, cli, pgn
from impl.apps import tournament
from impl.apps.games import play_game
from impl.apps.match import score_table
from impl.apps.terms import GameOutcome, MatchOptions, PlayerSpec
from impl.apps.tournament import GameResult

PYTHON = shlex.quote(sys.executable)


def run_match(specs: tuple[PlayerSpec, PlayerSpec], options: MatchOptions) -> list[GameOutcome]:
    """``options.games`` games one after the other, player A first in the odd-numbered ones."""
    for directory in (options.logs, options.records):
        if directory is not None:
            directory.mkdir(parents=True, exist_ok=True)
    return [play_game(specs, n, options, (n - 1) % 2) for n in range(1, options.games + 1)]


def table(outcomes: Sequence[GameOutcome], specs: tuple[PlayerSpec, PlayerSpec], game: str) -> list[str]:
    """The score table of ``outcomes``, players 0 (A) and 1 (B)."""
    results = []
    for o in outcomes:
        players = (o.first, 1 - o.first)
        summaries = tuple((p, line) for p, lines in sorted(o.summaries.items()) for line in lines)
        if o.result is None or o.error:
            results.append(GameResult(o.number, "", players, None, "no result", o.error, o.record, (), summaries))
            continue
        score = 0.5 if o.result.winner is None else 1.0 - o.result.winner
        results.append(GameResult(o.number, "", players, score, o.result.termination.value, "", o.record,
                                  summaries=summaries, counts=o.counts))  # fmt: skip
    return score_table(results, (specs[0].label, specs[1].label), game)


def test_player_specs() -> None:
    ours = PlayerSpec.parse("search --budget 0.1")
    command = ours.command({"game": "awari", "host": "h", "port": "7", "side": "north", "token": "t0"})
    options = ["--host", "h", "--port", "7", "--side", "north", "--budget", "0.1"]  # the token: on its descriptor
    assert command[1:] == ["-m", "impl.cli", "player", "search", "awari", *options]
    theirs = PlayerSpec.parse("./bot --connect {host}:{port} --as '{side} side'")
    values = {"game": "gothello", "host": "h", "port": "7", "side": "white"}
    assert theirs.command(values) == ["./bot", "--connect", "h:7", "--as", "white side"]


def test_random_against_random_alternating_sides(tmp_path: Path) -> None:
    specs = (PlayerSpec.parse("random --seed 1"), PlayerSpec.parse("random --seed 2"))
    outcomes = run_match(specs, MatchOptions("gothello", 2, logs=tmp_path, records=tmp_path / "records"))
    assert [o.first for o in outcomes] == [0, 1]
    for o in outcomes:  # the records name the players by label, by the side each took
        game = pgn.parse((tmp_path / "records" / f"game-{o.number:04d}.pgn").read_text())
        assert pgn.write(game) == o.record
        assert game.names == (specs[o.first].label, specs[1 - o.first].label)
        assert game.outcome == o.result and game.tag("Event") == "referee match"
    assert all(o.result is not None and o.result.termination == "move" and not o.error for o in outcomes)
    assert len(list(tmp_path.glob("game000[12]-[AB]-*.log"))) == 4
    lines = table(outcomes, specs, "gothello")
    assert lines[0] == "gothello: 2 games, 2 with a result"
    columns = [line[28:].split() for line in lines[2:4]]  # after the label: games, won, drawn, lost, score
    assert [c[0] for c in columns] == ["2", "2"]
    assert sum(float(c[4]) for c in columns) == 2 and lines[4] == "endings: move 2"


def test_referee_match_with_command_line_players(tmp_path: Path) -> None:
    """Player A by placeholders and named by its program, player B by the environment and a label; search
    stats, Elo and LOS in the table; the records in a tournament's directory."""
    # Seeded, and depth-bound rather than time-bound: the same games every run.
    a = f"{PYTHON} -m impl.cli player search {{game}} --port {{port}} --side {{side}} --budget 10 --depth 4"
    env = '"$REFEREE_GAME" --port "$REFEREE_PORT" --side "$REFEREE_SIDE"'
    b = f"rnd=sh -c 'exec {PYTHON} -m impl.cli player random {env} --seed 3'"
    command = [sys.executable, "-m", "impl.cli", "match", a, b, "--game", "awari", "--games", "2", "--logs", "logs"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout.splitlines()
    label = "impl.cli"  # A has no label: its program's name, said once with its command line
    assert out[:2] == [f"A = {label}: {a}", "B = rnd"]
    assert out[2].startswith("Settings: awari") and out[5] == "Adjudication: none"  # the settings summary
    out = out[:2] + out[6:]
    # Each game: our line, then cutechess-cli's two (a tool that reads them finds them).
    assert out[2].startswith("game   1: A (south) vs B (north): south wins ") and out[5].startswith(
        "game   2: A (north) vs B (south): north wins "
    )
    assert all(re.fullmatch(r"\d+-\d+", out[i].split()[-1]) for i in (2, 5))  # the stores at the end
    assert out[3] == f"Finished game 1 ({label} vs rnd): 1-0 {{south wins on the board}}"
    assert out[4] == f"Score of {label} vs rnd: 1 - 0 - 0  [1.000] 1"
    assert out[6] == f"Finished game 2 (rnd vs {label}): 0-1 {{north wins on the board}}"
    assert out[7] == f"Score of {label} vs rnd: 2 - 0 - 0  [1.000] 2"
    assert out[8:10] == ["Elo difference: inf +/- nan, LOS: 92.1 %, DrawRatio: 0.0 %", "Finished match"]
    assert out[10] == "awari: 2 games, 2 with a result"
    assert "win % score %" in out[11]  # won per game, and points per game
    assert out[12].split()[-6:] == ["100.0", "100.0", "1-0-0", "(100%)", "1-0-0", "(100%)"]  # won both, one per side
    assert out[13].startswith("B rnd ")
    assert out[-5].startswith("A search: ") and "nodes/s, depth median" in out[-5]
    assert out[-4] == f"Elo difference {label} − rnd: +inf n/a (95%), LOS 92.1%"
    # Both won: no maximum of the likelihood, so BayesElo's virtual draws.
    assert out[-3].startswith("Elo by maximum likelihood (Bradley–Terry, mean 0, 95%; one virtual draw each")
    assert out[-2] == "Ptnml(0-2): [0, 0, 0, 0, 1]"  # games 1 and 2, one pair: two points of two
    # The records directory is claimed by match.json: by default a new one, here in the working directory.
    (records,) = tmp_path.glob("match-*")
    assert out[-1] == f"records: {records.name}"
    assert sorted(p.name for p in records.iterdir()) == ["game-0001.pgn", "game-0002.pgn", "match.json"]
    assert pgn.parse((records / "game-0002.pgn").read_text()).names == ("rnd", label)
    # --logs: A is PLAYER_A in either colour (north in game 2), its output kept.
    logs = sorted(p.name for p in (tmp_path / "logs").iterdir())
    assert logs == ["game0001-A-south.log", "game0001-B-north.log", "game0002-A-north.log", "game0002-B-south.log"]
    assert "summary: moves=" in (tmp_path / "logs" / "game0002-A-north.log").read_text()


def test_referee_match_runs_an_sprt_to_its_decision(tmp_path: Path) -> None:
    """``--sprt``: a stronger program (search, depth 3) against random stops once H1
    is accepted (five games won for elo1 = 200), of the 12 allowed; the JSON and
    ``--pgnout`` have what was played; run again, nothing more is played."""
    strong = "strong=search --budget 10 --depth 3"
    command = [sys.executable, "-m", "impl.cli", "match", strong, "random --seed 1", "--game", "awari", "-q"]
    command += ["--games", "12", "--records", str(tmp_path / "r"), "--json", str(tmp_path / "r.json")]
    command += ["--pgnout", str(tmp_path / "all.pgn"), "--sprt", "elo0=0", "elo1=200"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    results = json.loads((tmp_path / "r.json").read_text())
    assert results["played"] == 5 and results["total"] == 12
    test = results["sprt"]
    assert test["result"] == "H1" and test["llr"] >= test["upper"] and test["model"] == "trinomial"
    assert (test["elo0"], test["elo1"], test["alpha"], test["beta"]) == (0, 200, 0.05, 0.05)
    assert "SPRT: llr 3.6 (-2.944, 2.944) [0, 200]: H1" in done.stdout
    # Both programs are deterministic: the games of each colour are the same game.
    duplicates = "Duplicates: 3 of 5 games repeat earlier games move for move: #3 = #1, #4 = #2, #5 = #1"
    distinct = "LOS 98.7% over all 5 games; +inf n/a (95%), LOS 92.1% over the 2 distinct ones"
    assert duplicates in done.stdout and distinct in done.stdout
    assert results["duplicates"] == [{"game": 3, "same_as": 1}, {"game": 4, "same_as": 2}, {"game": 5, "same_as": 1}]
    records = sorted((tmp_path / "r").glob("game-*.pgn"))
    assert len(records) == 5
    assert (tmp_path / "all.pgn").read_text() == "".join(p.read_text() for p in records)
    again = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert again.returncode == 0 and "Resuming from" in again.stdout and "5 of 12 games recorded" in again.stdout
    assert len(list((tmp_path / "r").glob("game-*.pgn"))) == 5


def test_a_player_that_fails_to_start_aborts_its_game() -> None:
    specs = (PlayerSpec.parse("random"), PlayerSpec.parse(f"{PYTHON} -c 'import sys; sys.exit(3)'"))
    outcomes = run_match(specs, MatchOptions("awari", 1, timeout=30))
    assert outcomes[0].result is None
    assert outcomes[0].error.startswith("player B exited with 3 before the game started")
    assert outcomes[0].culprits == [1] and outcomes[0].record == ""  # never began: no record
    assert table(outcomes, specs, "awari")[-1] == "endings: no result 1"


def test_an_output_that_cannot_be_written_is_one_line_and_status_1(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The games are played and recorded; ``--pgnout`` failing when written (here a
    full disk: a directory is refused before the first game) is one line, and the
    JSON before it is written."""

    def full(path: Path, text: str) -> None:
        if path.name == "all.pgn":
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real(path, text)

    real = atomic.write_output
    monkeypatch.setattr(tournament.outputs, "write_output", full)
    argv = ["match", "random --seed 1", "random --seed 2", "--game", "gothello", "--games", "1", "-q"]
    argv += [
        "--records",
        str(tmp_path / "r"),
        "--json",
        str(tmp_path / "r.json"),
        "--pgnout",
        str(tmp_path / "all.pgn"),
    ]
    assert cli.main(argv) == 1
    err = capsys.readouterr().err.splitlines()
    assert err == [f"referee match: cannot write {str(tmp_path / 'all.pgn')!r}: the disk is full"], err
    assert json.loads((tmp_path / "r.json").read_text())["played"] == 1
    assert len(list((tmp_path / "r").glob("game-*.pgn"))) == 1


def test_match_and_tournament_help_name_the_shared_options() -> None:
    for command in ("match", "tournament"):
        done = subprocess.run([sys.executable, "-m", "impl.cli", command, "--help"], capture_output=True, text=True)
        assert done.returncode == 0 and not done.stderr, done.stderr
        assert all(option in done.stdout for option in ("--sprt KEY=X", "--pgnout FILE", "--json FILE", "--records"))


def test_cutechess_and_fastchess_lines() -> None:
    """``Finished game`` names the players by PGN colour (Gothello's first mover is
    Black) with the record's result token; ``Score of``; the per-game SPRT line."""
    from impl.apps import sprt
    from impl.apps.match import elo_line, finished_line, score_line, sprt_line
    from impl.apps.ratings import elo

    won = tournament.GameResult(3, "1.3", (1, 0), 1.0, "move")  # B moved first and won
    assert finished_line(won, ("A", "B"), "gothello") == "Finished game 3 (A vs B): 0-1 {black wins on the board}"
    assert finished_line(won, ("A", "B"), "awari") == "Finished game 3 (B vs A): 1-0 {south wins on the board}"
    drawn = tournament.GameResult(4, "1.4", (0, 1), 0.5, "move")
    assert finished_line(drawn, ("A", "B"), "awari").endswith(": 1/2-1/2 {draw on the board}")
    none = tournament.GameResult(5, "1.5", (0, 1), None, "no result", "crashed")
    assert finished_line(none, ("A", "B"), "awari") == "Finished game 5 (A vs B): * {No result}"
    assert score_line(("A", "B"), 7, 2, 3) == "Score of A vs B: 7 - 3 - 2  [0.667] 12"
    status = sprt.of_games(sprt.Hypotheses(0, 5), [1.0] * 7 + [0.5] * 2 + [0.0] * 3)
    line = sprt_line(7, 2, 3, status)
    assert line.startswith("Games: 12, W-L-D: 7-3-2, Points: 8 (66.67 %), DrawRatio: 16.67 %, LLR: ")
    assert line.endswith(f"LLR: {status.llr:.2f} (-2.94, 2.94) [0.00, 5.00]")
    assert elo_line(elo(6, 0, 4), 0, 10) == "Elo difference: 70.4 +/- 269.5, LOS: 73.6 %, DrawRatio: 0.0 %"


def test_a_finished_match_is_extended_with_more_games(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Run again with a larger ``--games``: only the new games are played, all are
    reported, the run file says the new count; fewer games, or any other field
    changed, is refused in one line (status 2); with ``--random-openings`` the
    openings drawn for more games begin with those already played."""
    records = tmp_path / "r"
    base = ["match", "random --seed 1", "random --seed 2", "--game", "gothello", "--records", str(records)]
    openings = ["--random-openings", "2"]
    assert cli.main([*base, *openings, "--games", "2"]) == 0
    first = (records / "game-0001.pgn").read_text()
    capsys.readouterr()
    assert cli.main([*base, *openings, "--games", "4", "--json", str(tmp_path / "r.json")]) == 0
    out = capsys.readouterr().out
    assert "Extending" in out and "from 2 to 4 games" in out and "2 of 4 games recorded" in out
    assert "game   1:" not in out and "game   3:" in out and "Score of random --seed 1 vs random --seed 2:" in out
    assert (records / "game-0001.pgn").read_text() == first  # not played again
    assert json.loads((records / "match.json").read_text())["games"] == 4
    document = json.loads((tmp_path / "r.json").read_text())
    assert document["played"] == document["total"] == 4 and len(document["games"]) == 4
    assert sum(p["score"] for p in document["standings"]) == 4
    for argv, says in (
        ([*base, *openings, "--games", "2"], "holds a run of 4 games per pairing: --games must be at least 4"),
        ([*base, *openings, "--games", "6", "--time", "30"], "holds another match's games (match.json differs)"),
        ([*base, "--games", "6"], "holds another match's games (match.json differs)"),
    ):
        assert cli.main(argv) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and says in err, err
    assert json.loads((records / "match.json").read_text())["games"] == 4


def test_a_tournament_of_more_pairings_cannot_grow() -> None:
    """With several pairings each game's number would move: refused, saying why."""
    old = tournament.TournamentConfig(("a", "b", "c"), "awari", 2)
    identity = json.loads(json.dumps(tournament.run_identity(old)))
    with pytest.raises(cli.UsageError, match="--games can grow only with one pairing"):
        tournament.extension(identity, tournament.TournamentConfig(("a", "b", "c"), "awari", 4), "x")
    assert tournament.extension(identity, tournament.TournamentConfig(("a", "b", "d"), "awari", 4), "x") is None
    two = json.loads(json.dumps(tournament.run_identity(tournament.TournamentConfig(("a", "b"), "awari", 2))))
    assert tournament.extension(two, tournament.TournamentConfig(("a", "b"), "awari", 5), "x") == 2
    # Openings: the games played keep theirs (a longer list that begins with them), else not this run.
    book = (("a1",), ("b1",))
    opened = json.loads(
        json.dumps(tournament.run_identity(tournament.TournamentConfig(("a", "b"), "awari", 4, openings=book)))
    )
    longer = tournament.TournamentConfig(("a", "b"), "awari", 8, openings=(*book, ("c1",), ("d1",)))
    assert tournament.extension(opened, longer, "x") == 4
    shuffled = tournament.TournamentConfig(("a", "b"), "awari", 8, openings=(("b1",), ("a1",), ("c1",), ("d1",)))
    assert tournament.extension(opened, shuffled, "x") is None
