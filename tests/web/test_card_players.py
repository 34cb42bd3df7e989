"""A tournament's (and the arena's) live mini-board names its players and shows their
clocks (issue #53, item 8): the board alone said north and south.  app.js's
``cardPlayers`` run under Node (skipped without it), with the helpers it calls."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from typing import Any

import pytest

from impl.web.pages import STATIC

NODE = shutil.which("node")


def card_players(game: dict[str, Any], clocks: dict[str, Any] | None) -> list[dict[str, str]]:
    """``cardPlayers(game, clocks)`` as the page's script computes it."""
    assert NODE is not None
    script = (STATIC / "app.js").read_text()
    functions = []
    for name in ("clockText", "who", "clockNow", "cardPlayers"):
        found = re.search(rf"^function {name}\(.*?\) \{{\n.*?^\}}\n", script, re.MULTILINE | re.DOTALL)
        assert found is not None, f"app.js has no {name}"
        functions.append(found[0])
    call = f"console.log(JSON.stringify(cardPlayers({json.dumps(game)}, {json.dumps(clocks)})));"
    done = subprocess.run([NODE, "-e", "\n".join([*functions, call])], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return list(json.loads(done.stdout))


@pytest.mark.skipif(NODE is None, reason="no node to run the page's script")
def test_a_cards_players_are_named_by_their_labels_with_their_clocks() -> None:
    game = {"sides": ["south", "north"], "names": ["prog-a", "prog-b"], "labels": ["alpha", "beta"]}
    standing = {"left": [65.0, 4.25], "running": None, "at": 0}  # stopped: no time passes
    assert card_players(game, standing) == [
        {"side": "south", "name": "alpha", "clock": "1:05.0"},
        {"side": "north", "name": "beta", "clock": "0:04.2"},
    ]


@pytest.mark.skipif(NODE is None, reason="no node to run the page's script")
def test_a_card_without_labels_or_clocks_names_the_programs() -> None:
    game = {"sides": ["black", "white"], "names": ["prog-a", ""], "labels": None}
    assert card_players(game, None) == [
        {"side": "black", "name": "prog-a", "clock": ""},
        {"side": "white", "name": "?", "clock": ""},
    ]
