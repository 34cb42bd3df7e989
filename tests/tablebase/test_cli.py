"""``referee tablebase`` and ``referee analyse`` from the command line: builds,
checks, one-line usage errors, and a recorded game analysed."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from impl import cli, pgn
from impl.engines.awari import RulesAwari
from impl.game import Outcome, Termination
from spec import awari_rules as AR
from tests.support.plies import plies


def test_build_then_check(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = str(tmp_path)
    assert cli.main(["tablebase", "build", "awari", "--stones", "5", "--out", out, "--rules", "abapa"]) == 0
    assert len(list(tmp_path.glob("awari-abapa-*.tb"))) == 6
    assert "boards/s" in capsys.readouterr().err
    argv = ["tablebase", "check", "awari", "--stones", "5", "--out", out, "--rules", "abapa", "--spec-stones", "2"]
    assert cli.main(argv) == 0
    assert "Bellman on the proven engine: ok" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["tablebase", "build", "gothello", "--stones", "3"], "only awari"),
        (["tablebase", "build", "awari", "--stones", "3", "--rules", "olympiad-1994"], "tables cover"),
        (["tablebase", "build", "awari", "--stones", "25"], "more than 24"),
        (["tablebase", "check", "awari", "--stones", "3", "--out", "/nonexistent-tb"], "nonexistent-tb"),
    ],
)
def test_bad_input_is_one_line(argv: list[str], says: str, capsys: pytest.CaptureFixture[str]) -> None:
    try:
        status = cli.main(argv)
    except SystemExit as exc:
        status = int(exc.code or 0)
    err = capsys.readouterr().err
    assert status in (1, 2) and says in err and len(err.strip().splitlines()) == 1
    assert "Traceback" not in err


def _record(tmp_path: Path) -> Path:
    """A random game under olympiad-1990 that gets down to 6 stones on the board."""
    engine = RulesAwari(AR.parse_rules("olympiad-1990"))
    rng = random.Random(0)
    state, moves = engine.initial(), []
    while not engine.is_over(state):
        move = rng.choice(engine.legal_moves(state))
        moves.append(move.name)
        _, state = engine.apply(state, move)
    tags = [("Event", "test"), ("Game", "awari"), ("Rules", "olympiad-1990"), ("Result", "*")]
    record = pgn.record("awari", tags, plies("awari", moves, rules="olympiad-1990"), Outcome(None, Termination.MOVE))
    path = tmp_path / "game.pgn"
    path.write_text(pgn.write(record))
    return path


def test_analyse_a_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tables = tmp_path / "tables"
    assert (
        cli.main(["tablebase", "build", "awari", "--stones", "7", "--out", str(tables), "--rules", "olympiad-1990"])
        == 0
    )
    capsys.readouterr()
    assert cli.main(["analyse", str(_record(tmp_path)), "--tb", str(tables), "--untrusted"]) == 0
    out = capsys.readouterr().out
    assert "olympiad-1990, table of ≤ 7 stones" in out and "before" in out and "blunders:" in out
    # Every ply is accounted for (#54 item 4): the plies before the board is in the table say why.
    assert "\n  plies 1–" in out and ": not covered: outside the table\n" in out
    accounted = 0
    for line in out.splitlines():
        if line.startswith("  plies "):  # plies A–B: …
            first, last = line.split()[1].rstrip(":").split("–")
            accounted += int(last) - int(first) + 1
        elif line.startswith("  ply "):
            accounted += 1
    assert accounted == len(pgn.parse(_record(tmp_path).read_text()).plies)
    assert cli.main(["analyse", str(_record(tmp_path)), "--tb", str(tables / "none")]) == 2
