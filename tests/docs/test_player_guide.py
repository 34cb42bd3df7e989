"""docs/writing-a-player.md and the client library's example loop, run as written:
the Python player against an opponent that offers draws, the engine examples as
doctests, the match command, and the raw-socket C player where a compiler exists."""

from __future__ import annotations

import doctest
import importlib.util
import json
import os
import random
import re
import shlex
import shutil
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

import impl.client.client as client_module
from impl.cli import main
from impl.client import Client
from impl.config import Config
from impl.game import Termination
from impl.players.base import play
from impl.players.random_player import RandomPlayer
from impl.server.local import LocalServer
from tests.support import paths

ROOT = paths.ROOT
GUIDE = ROOT / "docs" / "writing-a-player.md"
EXAMPLES = ROOT / "examples"
NORMAL_ENDS = {Termination.MOVE, Termination.AGREEMENT}


def blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", GUIDE.read_text(encoding="utf-8"), flags=re.S)


def first_player() -> ModuleType:
    spec = importlib.util.spec_from_file_location("first_player", EXAMPLES / "first_player.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_guide_shows_the_program_as_it_is() -> None:
    (shown,) = blocks("python")
    assert shown == (EXAMPLES / "first_player.py").read_text(encoding="utf-8")


def test_the_guide_engine_examples_run() -> None:
    failed, tried = doctest.testfile(str(GUIDE), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert tried >= 8 and failed == 0


def draw_offerer(port: int, seed: int) -> Termination:
    """An Awari opponent that offers a draw on each of its first three turns
    (refused: the offerer moves again), and otherwise plays random moves."""
    rng, offered = random.Random(seed), set[int]()
    with Client.connect("awari", port=port, timeout=60) as them:
        them.seat("?")
        them.wait()
        while not them.over:
            if them.must_answer_draw:
                them.answer_draw(False)
            elif len(offered) < 3 and them.serial not in offered:  # once a turn: refused, it moves
                offered.add(them.serial)
                them.offer_draw()
            else:
                them.move(rng.choice(them.legal_moves()))
            them.wait()
        assert them.result is not None
        return them.result.termination


def against(game: str, opponent: Callable[[int], Termination], player: Callable[[int], str]) -> tuple[str, Termination]:
    with LocalServer(Config.local(game)) as local:
        said: list[str] = []
        thread = threading.Thread(target=lambda: said.append(player(local.port)))
        thread.start()
        termination = opponent(local.port)
        thread.join(timeout=60)
    assert said, "the player did not finish"
    return said[0], termination


@pytest.mark.parametrize("seed", [1, 2])
def test_first_player_answers_draw_offers_and_plays_to_the_end(seed: int) -> None:
    said, how = against("awari", lambda port: draw_offerer(port, seed), lambda port: first_player().play("awari", port))
    assert how in NORMAL_ENDS
    assert "wins" in said or "draw" in said


def random_opponent(game: str, seed: int) -> Callable[[int], Termination]:
    def opponent(port: int) -> Termination:
        with Client.connect(game, port=port, timeout=60) as them:
            them.seat("?")
            return play(them, RandomPlayer(seed)).termination

    return opponent


def test_first_player_plays_gothello() -> None:
    said, how = against("gothello", random_opponent("gothello", 3), lambda port: first_player().play("gothello", port))
    assert how is Termination.MOVE
    assert "wins" in said or "draw" in said


def test_the_client_docstring_loop_survives_a_draw_offer() -> None:
    (loop,) = re.findall(r"::\n\n((?:    .*\n|\n)+)", client_module.__doc__ or "")
    code = "\n".join(line[4:] for line in loop.splitlines())

    def run(port: int) -> str:
        printed: list[str] = []
        names = {"Client": Client, "port": port, "choose": lambda c: c.legal_moves()[0], "print": printed.append}
        exec(compile(code, "client docstring", "exec"), names)
        return printed[0]

    said, how = against("awari", lambda port: draw_offerer(port, 5), run)
    assert how in NORMAL_ENDS and said


def test_the_guide_match_command_runs(tmp_path: Path) -> None:
    (commands,) = [b for b in blocks("sh") if "referee match" in b]
    line = next(c for c in commands.splitlines() if c.startswith("referee match"))
    words = [w.replace("python examples/", f"{shlex.quote(sys.executable)} {EXAMPLES}/", 1) for w in shlex.split(line)]
    argv = [sys.executable, "-m", "impl.cli", *words[1:]]
    argv[argv.index("--games") + 1] = "2"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(argv, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "first_player" in done.stdout


def test_the_guide_report_card_is_what_compliance_prints_now(capsys: pytest.CaptureFixture[str]) -> None:
    """The card shown under the guide's compliance command is that command's output
    today (its first ``text`` block): all PASS, so a change to the example or to the
    checker that the card no longer shows fails here."""
    (commands,) = [b for b in blocks("sh") if "referee compliance" in b]
    words = shlex.split(commands.strip())
    assert words[:2] == ["referee", "compliance"]
    command = words[2].replace("python examples/", f"{shlex.quote(sys.executable)} {EXAMPLES}/", 1)
    status = main(["compliance", command, *words[3:]])
    printed = capsys.readouterr().out
    shown = blocks("text")[0]
    assert printed == shown and status == 0


def first_against_random(game: str, games: int, random: str, tmp_path: Path) -> dict[str, float]:
    """The guide's first player against ``random`` (a player spec) over ``games``
    games, sides alternating: each player's score."""
    player = f"first={{python}} {EXAMPLES}/first_player.py {{game}} {{port}} {{side}} {{host}}"
    argv = [sys.executable, "-m", "impl.cli", "match", player, random, "--game", game, "--games", str(games)]
    argv += ["--jobs", "2", "--records", str(tmp_path / "r"), "--json", str(tmp_path / "r.json"), "-q"]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(argv, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=900, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    return {p["player"]: p["score"] for p in json.loads((tmp_path / "r.json").read_text())["standings"]}


@pytest.mark.parametrize("game", ["awari", "gothello"])
def test_the_first_player_beats_a_seeded_random_player(game: str, tmp_path: Path) -> None:
    """The model answer a student copies wins, as a regression test: both players are
    deterministic here (the random one seeded), so these 8 games always end alike —
    the first player wins them all."""
    scores = first_against_random(game, 8, "random --seed 5", tmp_path)
    assert scores["first"] == 8.0 and sum(scores.values()) == 8.0, scores


@pytest.mark.deep
@pytest.mark.parametrize("game", ["awari", "gothello"])
def test_the_first_player_beats_random_over_40_games(game: str, tmp_path: Path) -> None:
    """The statistic behind the seeded test: over 40 games against an unseeded random
    player, sides alternating, its score is more than random's (measured: 40-0 at
    Awari, 36-2-2 at Gothello)."""
    scores = first_against_random(game, 40, "random", tmp_path)
    assert scores["first"] > scores["random"] and scores["first"] + scores["random"] == 40, scores


@pytest.mark.skipif(shutil.which("cc") is None, reason="no C compiler on this machine")
@pytest.mark.parametrize("game", ["awari", "gothello"])
def test_raw_c_player_plays_a_whole_game(game: str, tmp_path: Path) -> None:
    binary = tmp_path / "raw_player"
    subprocess.run(["cc", "-O2", "-Wall", "-Werror", "-o", binary, EXAMPLES / "raw_player.c"], check=True)
    for seed in (1, 2):

        def raw(port: int, seed: int = seed) -> str:
            done = subprocess.run(
                [binary, game, str(port), "?", str(seed)], capture_output=True, text=True, timeout=120, check=False
            )
            assert done.returncode == 0, done.stderr
            return done.stdout

        said, how = against(game, random_opponent(game, seed), raw)
        assert how is Termination.MOVE
        assert re.match(r"32[1-6] ", said), said


@pytest.mark.skipif(shutil.which("cc") is None, reason="no C compiler on this machine")
def test_raw_c_player_plays_a_match_without_forfeits(tmp_path: Path) -> None:
    """Given its side (and its token), it takes that seat: four games, each with a
    result on the board, none a seat theft (it once sent `player ?` and lost 3 of 4)."""
    binary = tmp_path / "raw_player"
    subprocess.run(["cc", "-O2", "-Wall", "-Werror", "-o", binary, EXAMPLES / "raw_player.c"], check=True)
    argv = [sys.executable, "-m", "impl.cli", "match", f"{binary} {{game}} {{port}} {{side}}", "random"]
    argv += ["--game", "gothello", "--games", "4", "--records", str(tmp_path / "r"), "--json", str(tmp_path / "r.json")]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([*argv, "-q"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "endings: move 4" in done.stdout and not json.loads((tmp_path / "r.json").read_text())["failures"]
