"""``referee compliance``: players against referees scripted by the protocol's model.

Our random player passes every behaviour, as both sides of both games; the example
player of docs/writing-a-player.md passes all but the retry after a refused move
(it leaves on MoveRefused, as the guide's short loop does); a deliberately broken
player (tests/support/broken_player.py: no ellipses, no answer to a draw offer) is
caught, behaviour by behaviour."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from impl.cli import main

ROOT = Path(__file__).resolve().parents[2]
PYTHON = sys.executable


def card(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, list[str]]:
    status = main(["compliance", *argv, "--timeout", "5"])
    return status, capsys.readouterr().out.splitlines()


@pytest.mark.parametrize("game", ["awari", "gothello"])
def test_our_random_player_complies(game: str, capsys: pytest.CaptureFixture[str]) -> None:
    status, lines = card(
        capsys, f"{PYTHON} -m impl.cli player random {game} --port {{port}} --side {{side}} --quiet", "--game", game
    )
    assert [line for line in lines if not line.startswith("PASS")] == [f"{len(lines) - 1}/{len(lines) - 1} passed"]
    assert status == 0
    assert any("ellipses (...) as" in line for line in lines)
    assert any("illegal move refused, another sent" in line for line in lines)
    assert (game == "awari") == any("draw offer answered" in line for line in lines)


def test_the_example_player_complies_but_for_the_retry(capsys: pytest.CaptureFixture[str]) -> None:
    example = ROOT / "examples" / "first_player.py"
    status, lines = card(capsys, f"{PYTHON} {example} awari {{port}} {{side}} {{host}}", "--game", "awari")
    failed = {line.split(":")[0] for line in lines if line.startswith("FAIL")}
    assert failed == {"FAIL  illegal move refused"}
    assert status == 1


def test_a_broken_player_is_caught(capsys: pytest.CaptureFixture[str]) -> None:
    status, lines = card(
        capsys, f"{PYTHON} -m tests.support.broken_player awari {{host}} {{port}} {{side}}", "--game", "awari"
    )
    assert status == 1
    assert "FAIL  second player: serials and ellipses (...) as north: expected '<n> ... <move>', got '1 a'" in lines
    assert "FAIL  second player: ellipses: sent '1 a', refused '299 Ellipses (...) expected before north move'" in lines
    assert "FAIL  draw offer: draw offer answered: expected 'draw' or 'nodraw' after 331/332, got 'nothing'" in lines
    assert "PASS  first player: serials as south" in lines


def test_a_command_that_cannot_run(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compliance", "/nonexistent/player {port}", "--game", "gothello"]) == 2
    assert main(["compliance", "player {nope}", "--game", "gothello"]) == 2
    err = capsys.readouterr().err
    assert "cannot run /nonexistent/player" in err and "bad command" in err
