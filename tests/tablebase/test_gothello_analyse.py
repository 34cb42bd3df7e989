"""``referee analyse`` on Gothello records: per ply the exact values where the solver
reaches, "outside the solver's reach" elsewhere (no invented values), and blunders."""

from __future__ import annotations

import itertools
import random
import re
from pathlib import Path

import pytest

from impl import cli, pgn
from impl.apps.analyse import GothelloReport, analyse_gothello
from impl.engines import gothello_endgame as GE
from impl.engines.gothello import ImplGothello
from impl.game import Outcome, Side, Termination
from tests.support import paths
from tests.support.plies import plies


def _record(tmp_path: Path, seed: int) -> Path:
    """A game of random moves through the engine (a pass one time in ten where a
    placement is legal), written as PGN with its real result."""
    engine = ImplGothello()
    rng = random.Random(seed)
    state, moves = engine.initial(), []
    while not engine.is_over(state):
        legal = engine.legal_moves(state)
        move = rng.choice(legal[:-1] if len(legal) > 1 and rng.random() < 0.9 else legal)
        moves.append(engine.format_move(move))
        _, state = engine.apply(state, move)
    black, white = engine.counts(state)
    winner = Side.FIRST if black > white else Side.SECOND if white > black else None
    tags = [("Event", "test"), ("Game", "gothello"), ("Result", "*")]
    path = tmp_path / f"gothello-{seed}.pgn"
    path.write_text(pgn.write(pgn.build("gothello", tags, moves, None, Outcome(winner, Termination.MOVE))))
    return path


def _reports(path: Path, within: int, budget: int | None) -> list[GothelloReport]:
    return analyse_gothello(pgn.parse(path.read_text()), within, budget)


def test_values_where_solved_and_consistent_from_ply_to_ply(tmp_path: Path) -> None:
    reports = _reports(_record(tmp_path, 1), 10, None)
    engine = ImplGothello()
    solved = [r for r in reports if r.before is not None]
    assert solved and all(r.reach == "more than 10 empty points" for r in reports if r.before is None)
    for r in reports:
        assert (r.before is None) == (r.played is None) == (r.best == ())
        if r.before is not None:
            assert r.played is not None and r.played <= r.before and r.best
            assert (r.move in r.best) == (r.loss == 0)
    # the value after a move is the next mover's value before, negated (both exact)
    for r, nxt in itertools.pairwise(solved):
        if nxt.ply == r.ply + 1:
            assert r.played is not None and nxt.before == -r.played
    # the last ply ends the game: its value is the final count's margin for the mover
    record = pgn.parse(_record(tmp_path, 1).read_text())
    state = engine.initial()
    for ply in record.plies:
        move = engine.parse_move(ply.move)
        assert move is not None
        mover = engine.to_move(state)
        _, state = engine.apply(state, move)
    black, white = engine.counts(state)
    assert reports[-1].played == (black - white if mover == engine.players[0] else white - black)


def test_a_budget_marks_positions_out_of_reach_and_invents_nothing(tmp_path: Path) -> None:
    reports = _reports(_record(tmp_path, 2), 12, 30)
    assert any(r.reach == "more than 30 nodes" for r in reports)
    for r in reports:
        if r.reach:
            assert r.before is None and r.loss == 0 and "outside the solver's reach" in r.line()


def test_the_command_prints_values_reach_and_blunders(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _record(tmp_path, 1)
    assert cli.main(["analyse", str(path), "--empties", "10"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{path}: gothello, solver of ≤ 10 empty points, before them a solve's answers\n")
    assert "outside the solver's reach (more than 10 empty points)" in out
    assert "before " in out and "(best " in out and "\n  blunders: " in out
    reports = _reports(path, 10, GE.BUDGET)
    for r in reports:
        if r.before is not None:
            assert "  " + r.line() + "\n" in out


def _line_record(tmp_path: Path, moves: list[str]) -> Path:
    path = tmp_path / "line.pgn"
    tags = [("Event", "test"), ("Game", "gothello"), ("Result", "*")]
    path.write_text(pgn.write(pgn.build("gothello", tags, moves, None, Outcome(Side.FIRST, Termination.MOVE))))
    return path


def _documented_line() -> list[str]:
    page = (paths.ROOT / "docs" / "tablebases.md").read_text(encoding="utf-8")
    found = re.search(r"\*\*The principal variation, to the game's end:\*\* `([^`]+)`", page)
    assert found is not None
    return found.group(1).split()


def test_the_first_plies_are_valued_by_the_committed_solves_answers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The documented line: its first four plies, past the solver's reach, are valued
    by the exact solve's answers (docs/tablebases.md, "The margin") — each keeps +3
    and is among the best — and agree with the solver where it takes over (ply 13)."""
    assert cli.main(["analyse", str(_line_record(tmp_path, _documented_line()))]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1:5] == [
        "  ply   1 black b3: before +3, after +3 (best b3 c2 c4 d3)",
        "  ply   2 white c3: before -3, after -3 (best c3)",
        "  ply   3 black c2: before +3, after +3 (best c2 c4)",
        "  ply   4 white a4: before -3, after -3 (best a4 d1)",
    ]
    assert out[5] == f"  plies 5–12: not covered: outside the solver's reach (more than {GE.K} empty points)"
    assert out[6].startswith("  ply  13 black b5: before +3, after +3") and out[-1] == "  blunders: none"


def test_a_first_move_the_answers_only_bound_is_not_valued(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """a1 is worth at most +3 by the answers, not a value: the ply is not covered (no
    invented value); ``--checkpoint`` names the answers, and a missing one is one line."""
    record = str(_line_record(tmp_path, ["a1", "b3"]))
    assert cli.main(["analyse", record]) == 0
    assert "plies 1–2: not covered: outside the solver's reach" in capsys.readouterr().out
    assert cli.main(["analyse", record, "--checkpoint", str(tmp_path / "none.json")]) == 2
    err = capsys.readouterr().err
    assert "none.json: no such checkpoint" in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["--empties", "26"], "not a number of empty points"),
        (["--budget", "0"], "not a number of nodes"),
    ],
)
def test_bad_options_are_one_line(
    tmp_path: Path, argv: list[str], says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exc:
        cli.main(["analyse", str(_record(tmp_path, 3)), *argv])
    assert exc.value.code == 2 and says in capsys.readouterr().err


def test_an_awari_record_still_needs_a_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tags = [("Event", "test"), ("Game", "awari"), ("Result", "*")]
    path = tmp_path / "awari.pgn"
    record = pgn.record("awari", tags, plies("awari", ["A", "f"]), Outcome(None, Termination.ERROR))
    path.write_text(pgn.write(record))
    assert cli.main(["analyse", str(path)]) == 2
    err = capsys.readouterr().err
    assert "needs --tb DIR" in err and len(err.strip().splitlines()) == 1
