"""A game page's and the TV's header carry the game's own number (issue #53, item 5):
a match's or tournament's game runs alone on a private server, so its session's
number was 1 for every game; the run numbers it as its server and its record
(``game-NNNN.pgn``).  app.js's ``gameNumber`` run under Node (skipped without it)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess

import pytest

from impl.web.pages import STATIC

NODE = shutil.which("node")


def game_numbers(games: list[dict[str, object]]) -> list[object]:
    """``gameNumber`` of each game, as the page's script computes it."""
    assert NODE is not None
    script = (STATIC / "app.js").read_text()
    found = re.search(r"^function gameNumber\(g\) \{\n.*?^\}\n", script, re.MULTILINE | re.DOTALL)
    assert found is not None, "app.js has no gameNumber"
    program = f"{found[0]}\nconsole.log(JSON.stringify({json.dumps(games)}.map(gameNumber)));"
    done = subprocess.run([NODE, "-e", program], capture_output=True, text=True, timeout=60, check=True)
    return list(json.loads(done.stdout))


@pytest.mark.skipif(NODE is None, reason="no node to run the page's script")
def test_a_runs_game_is_numbered_by_the_run_and_a_servers_by_its_session() -> None:
    games: list[dict[str, object]] = [
        {"game_no": 1, "server_no": 7, "port": 0},  # a tournament's game 7, live (tourney.py: server 7)
        {"game_no": 1, "server_no": 7, "port": None},  # on the TV, where a run's game has no port
        {"game_no": "1", "server_no": "0", "port": None, "record": "game-0012.pgn"},  # a run's record
        {"game_no": 3, "server_no": 0, "port": 4321},  # a server's third game
        {"game_no": "5", "server_no": "0", "port": None, "record": "awari-0-2026-1-5.pgn"},  # a server's record
    ]
    assert game_numbers(games) == [7, 7, "12", 3, "5"]
