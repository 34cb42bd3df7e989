"""The match runner (impl/match.py): games between player programs through servers
it starts itself, sides alternating, the score table; our players by name, any
command line through placeholders or the environment, and players that fail."""

from __future__ import annotations

import shlex
import subprocess
import sys
from pathlib import Path

from impl import pgn
from impl.match import MatchOptions, PlayerSpec, run_match, table

PYTHON = shlex.quote(sys.executable)


def test_player_specs() -> None:
    ours = PlayerSpec.parse("search --budget 0.1")
    command = ours.command({"game": "awari", "host": "h", "port": "7", "side": "north"})
    options = ["--host", "h", "--port", "7", "--side", "north", "--budget", "0.1"]
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


def test_referee_match_with_command_line_players() -> None:
    """Player A by placeholders, player B by the environment; search stats in the table."""
    # Seeded, and depth-bound rather than time-bound: the same games every run.
    a = f"{PYTHON} -m impl.cli player search {{game}} --port {{port}} --side {{side}} --budget 10 --depth 4"
    env = '"$REFEREE_GAME" --port "$REFEREE_PORT" --side "$REFEREE_SIDE"'
    b = f"sh -c 'exec {PYTHON} -m impl.cli player random {env} --seed 3'"
    command = [sys.executable, "-m", "impl.cli", "match", a, b, "--game", "awari", "--games", "2"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout.splitlines()
    assert out[2].startswith("game   1: A (south) vs B (north): ") and out[3].startswith(
        "game   2: A (north) vs B (south)"
    )
    assert out[4] == "awari: 2 games, 2 with a result"
    assert out[6].split()[-4:] == ["1-0-0", "(100%)", "1-0-0", "(100%)"]  # search won both, one per side
    assert out[-1].startswith("A search: ") and "nodes/s, depth median" in out[-1]


def test_a_player_that_fails_to_start_aborts_its_game() -> None:
    specs = (PlayerSpec.parse("random"), PlayerSpec.parse(f"{PYTHON} -c 'import sys; sys.exit(3)'"))
    outcomes = run_match(specs, MatchOptions("awari", 1, timeout=30))
    assert outcomes[0].result is None
    assert outcomes[0].error.startswith("player B exited with 3 before the game started")
    assert outcomes[0].culprits == [1] and outcomes[0].record == ""  # never began: no record
    assert table(outcomes, specs, "awari")[-1] == "endings: no result 1"
