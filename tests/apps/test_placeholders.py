"""One set of placeholders for every command that launches a player (issue #53, item 6):
``referee match``, ``referee tournament`` and ``referee compliance`` fill the same
names the same way (impl/apps/launch.py ``fill``), refuse the same typo in the same
words, and the same command line passes ``referee compliance`` and plays ``referee
match``."""

from __future__ import annotations

import sys
from pathlib import Path

from impl.apps import compliance
from impl.apps.launch import PLACEHOLDERS
from impl.apps.terms import PlayerSpec
from tests.support.paths import ROOT
from tests.support.terminal import refused, run_referee

EVERY = " ".join("{" + name + "}" for name in PLACEHOLDERS)
PLAYER = f"{{python}} {ROOT / 'examples' / 'first_player.py'} {{game}} {{port}} {{side}} {{host}}"


def test_every_placeholder_is_filled_alike_by_every_command() -> None:
    """Each name of the set, in match's and tournament's PlayerSpec and in compliance's
    command line, gives the same words; a shell's ``${VAR}`` is left to the shell."""
    values = {"game": "awari", "host": "127.0.0.1", "port": "4321", "side": "north", "rules": "paper", "token": "t0k"}
    command = f"prog {EVERY} ${{HOME}}"
    filled = PlayerSpec.parse(command).command(values)
    assert filled == ["prog", "awari", "127.0.0.1", "4321", "north", "paper", "t0k", sys.executable, "${HOME}"]
    assert compliance.command_line(command, "awari", 4321, "north", "t0k") == filled


def test_an_unknown_placeholder_is_refused_alike_by_every_command(tmp_path: Path) -> None:
    """A typo, ``{prot}``, would reach the program as it is: each command refuses it
    in one line naming the set, before running anything."""
    typo = PLAYER.replace("{port}", "{prot}")
    runs = {
        "match": ["match", typo, "random", "--game", "awari"],
        "tournament": ["tournament", typo, "random", "--game", "awari"],
        "compliance": ["compliance", typo, "--game", "awari"],
    }
    said = f"unknown placeholder {{prot}} (the placeholders are {EVERY})"
    for name, argv in runs.items():
        line = refused(run_referee(*argv, cwd=tmp_path))
        assert line.startswith(f"referee {name}: ") and said in line


def test_the_same_command_line_passes_compliance_and_plays_a_match(tmp_path: Path) -> None:
    checked = run_referee("compliance", PLAYER, "--game", "awari", cwd=tmp_path)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    played = run_referee("match", PLAYER, "random", "--game", "awari", "--games", "1", "-q", cwd=tmp_path)
    assert played.returncode == 0, played.stdout + played.stderr
    assert "awari: 1 games, 1 with a result" in played.stdout
