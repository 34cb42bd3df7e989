"""``referee replay`` and ``referee show`` (impl/apps/replay.py): a record written by a
real match plays back move for move, checked by the engine, with clocks and the
result; one position by ply; a pty session stepping with Enter; bad files."""

from __future__ import annotations

from pathlib import Path

import pytest

from impl import cli, pgn
from impl.apps.games import play_game
from impl.apps.terms import MatchOptions, PlayerSpec
from impl.engines.registry import get_engine
from tests.support.terminal import Pty, referee


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A timed Awari game between two of our players, recorded by the match runner."""
    directory = tmp_path_factory.mktemp("records")
    specs = (PlayerSpec.parse("random --seed 4"), PlayerSpec.parse("random --seed 9"))
    outcome = play_game(specs, 1, MatchOptions("awari", 1, time=(120.0, 120.0), records=directory), 0)
    assert outcome.result is not None and not outcome.error
    return directory / "game-0001.pgn"


def test_replay_prints_every_position_the_engine_reaches(record: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = pgn.parse(record.read_text())
    assert cli.main(["replay", str(record), "--auto"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("referee match, round 1: start\n")
    assert out.count("\nply ") == len(game.plies)
    engine = get_engine("awari", "impl")
    state = engine.initial()
    for ply in game.plies:
        _, state = engine.apply(state, engine.parse_move(ply.move))
    assert "\n".join(engine.render(state)[1:3]) in out.split("\nply ")[-1]  # the final board
    assert "clocks: south " in out and out.rstrip().splitlines()[-1].startswith(f"result {game.result}: ")
    assert "random --seed 4 (south) vs random --seed 9 (north)" in out
    assert any("captured" in line for line in out.splitlines()) == any("x" in p.san for p in game.plies)


def test_show_prints_one_position(record: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["show", str(record), "--ply", "0"]) == 0
    start = capsys.readouterr().out
    assert "[ 0]   4   4   4   4   4   4" in start and "last move" not in start
    first = pgn.parse(record.read_text()).plies[0]
    assert cli.main(["show", str(record), "--ply", "1"]) == 0
    assert f"ply 1: 1. {first.san}\n" in capsys.readouterr().out
    assert cli.main(["show", str(record)]) == 0
    assert "result " in capsys.readouterr().out


def test_replay_steps_on_enter_in_a_terminal(record: Path) -> None:
    session = Pty(referee("replay", str(record)))
    try:
        session.expect("[Enter: next move, q: quit]")
        session.type("")
        session.expect("ply 1: ")
        session.type("")
        session.expect("ply 2: ")
        session.type("q")
        assert session.finish() == 0
        assert "ply 3:" not in session.output
    finally:
        session.kill()


def test_a_record_with_an_illegal_move_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.pgn"
    bad.write_text('[Game "gothello"]\n\n1. c3 c3 *\n')
    assert cli.main(["replay", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err == f"referee replay: {bad}: ply 2: 'c3' is not a legal move here\n"


def test_a_divergent_record_replays_up_to_its_unchecked_ply(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A checked-engine game that followed the spec past a move the fast engine
    refuses: replayed up to it, and said so."""
    path = tmp_path / "d.pgn"
    path.write_text('[Game "gothello"]\n[Termination "resignation"]\n[Unchecked "2"]\n\n1. c3 c3 1-0\n')
    assert cli.main(["replay", str(path), "--auto"]) == 0
    out = capsys.readouterr().out
    assert "ply 1: 1. c3" in out and "ply 2:" not in out
    assert "ply 2 on: moves the fast engine refuses" in out and "result 1-0: black wins by resignation" in out
    assert cli.main(["show", str(path), "--ply", "2"]) == 2
