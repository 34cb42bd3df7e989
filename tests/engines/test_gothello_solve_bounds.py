"""``referee tablebase solve gothello --bounds`` (impl/apps/solve_bounds.py): what a
solve's checkpoint proves, read apart from the search that wrote it — each answer
bounds its position (and its images) by its window; the proven engine's plies above
narrow them; where the checkpoint holds a whole solve the bounds are its value, and
every bound holds the Python solver's value; the committed checkpoints prove what
the solves say; contradictory or malformed answers are refused."""

from __future__ import annotations

import json
import random
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from impl.apps import solve as V
from impl.apps import solve_bounds as B
from impl.engines import gothello_certificate as GC
from impl.engines import gothello_endgame as GE
from impl.engines import gothello_solve as S
from tests.support import paths
from tests.support.terminal import refused, run_referee

needs_c = pytest.mark.skipif(S.load() is None, reason="no C compiler here: the compiled solver is not built")
DATA = paths.ROOT / "data"


def _solved(position: GC.Position) -> int:
    """The mover's margin by the Python solver (no budget)."""
    value = GE.Solver(budget=None).value((position[0], position[1], position[2], None))
    assert value is not None
    return value


def test_an_answer_bounds_its_position_and_its_images_by_its_window() -> None:
    black, white = 1 << 0, 1 << 6  # a1, b2
    mirror = 1 << 4, 1 << 8  # the same under a reflection of the files: a5, b4
    key = V.Checkpoint.key((black, white, 0), -1, 1)
    assert B.answered({key: -3}) == {GC.canonical((black, white, 0)): (-26, -3)}  # failed low: at most −3
    assert B.answered({key: 4}) == {GC.canonical((black, white, 0)): (4, 26)}  # failed high: at least 4
    assert B.answered({key: 0}) == {GC.canonical((black, white, 0)): (0, 0)}  # inside: the value
    both = {key: 4, V.Checkpoint.key((*mirror, 0), 5, 6): 5}  # the image's answer: at most 5
    assert B.answered(both) == {GC.canonical((black, white, 0)): (4, 5)}
    with pytest.raises(B.Contradiction):
        B.answered({key: 4, V.Checkpoint.key((*mirror, 0), 2, 3): 2})  # ≥ 4 and ≤ 2


@pytest.mark.parametrize("empty", [1, 2, 3, 4])
def test_the_games_ends_alone_bound_every_small_position_soundly(empty: int) -> None:
    """No answers: the bounds come from the games that end within the plies, and
    always hold the Python solver's value; most positions this small are decided."""
    rng, exact = random.Random(empty), 0
    for _ in range(12):
        state = GE.sample(rng, empty)
        position = GC.position(state)
        lo, hi = B.Proof({}, 8).bounds(B.state_of(position))
        value = _solved(position)
        assert lo <= value <= hi, (position, lo, hi, value)
        exact += lo == hi
    assert exact >= 6


@needs_c
@pytest.mark.parametrize("seed", [0, 7])
def test_a_whole_split_solve_proves_its_value_and_every_bound_holds(tmp_path: Path, seed: int) -> None:
    state = GE.sample(random.Random(12), 12)
    root = (state[0], state[1], 0)
    want = _solved(root)
    checkpoint = tmp_path / "solve.json"
    assert V.solve(checkpoint, 2, 16, True, seed, say=False, root=root) == want
    leaves = V.Checkpoint.load(checkpoint).leaves
    found = B.report(leaves, 2, root)
    assert found.start == (want, want)
    proof = B.Proof(B.answered(leaves), 2)
    children = dict(proof.children(B.state_of(root)))
    for move in found.moves:
        value = -_solved(GC.position(children[move.name]))
        assert move.bounds[0] <= value <= move.bounds[1], (move, value)
        assert (move.line != ()) == (move.bounds[0] == move.bounds[1])
    assert found.line, "the root's value is proven, so a move keeping it is"
    assert -_solved(GC.position(children[found.line[0]])) == want


def test_the_committed_solves_prove_what_they_say() -> None:
    """The sign solves prove black wins by their first moves (a2, and c3 for the
    independent pass); the exact solve's answers prove black wins by at least 3, and
    after b3 by exactly 3 — bounds only narrow as the solve goes on, so these hold."""
    for name, first in (("gothello-solve.json", "a2"), ("gothello-solve-pass2.json", "c3")):
        found = B.report(V.Checkpoint.load(DATA / name).leaves, 3)
        assert found.start[0] >= 1
        assert next(m for m in found.moves if m.name == first).bounds[0] >= 1
    exact = B.report(V.Checkpoint.load(DATA / "gothello-solve-exact.json").leaves, 4)
    assert exact.start[0] >= 3
    b3 = next(m for m in exact.moves if m.name == "b3")
    assert b3.bounds == (3, 3) and b3.line[0] == "b3" and len(b3.line) >= 2


def _cli(*args: str, cwd: Path) -> tuple[int, str, str]:
    done = run_referee("tablebase", "solve", "gothello", "--bounds", *args, cwd=cwd, timeout=120)
    return done.returncode, done.stdout, done.stderr


def test_bounds_prints_what_the_checkpoint_proves(tmp_path: Path) -> None:
    shutil.copy(DATA / "gothello-solve-exact.json", tmp_path / "e.json")
    status, out, err = _cli("--checkpoint", "e.json", "--deepen", "1", cwd=tmp_path)
    assert (status, err) == (0, "")
    assert "the top 4 plies on the proven engine" in out
    assert re.search(r"^the start, black to move: (≥ \+[3-9]|\+[3-9] exactly) \(black wins by", out, re.M), out
    assert "  b3    +3 exactly   b3 " in out
    assert json.loads((tmp_path / "e.json").read_text()) == json.loads((DATA / "gothello-solve-exact.json").read_text())


def test_bounds_refuses_what_is_not_a_consistent_checkpoint(tmp_path: Path) -> None:
    done = run_referee("tablebase", "solve", "gothello", "--bounds", "--checkpoint", "none.json", cwd=tmp_path)
    assert "none.json: no such checkpoint" in refused(done)
    (tmp_path / "bad.json").write_text(json.dumps({"version": 1, "leaves": {"1:2:0:-1:1": 0, "zz": 0}}))
    done = run_referee("tablebase", "solve", "gothello", "--bounds", "--checkpoint", "bad.json", cwd=tmp_path)
    assert "is not a leaf's position and window" in refused(done)
    black, white = 1 << 0, 1 << 6
    leaves = {V.Checkpoint.key((black, white, 0), -1, 1): 4, V.Checkpoint.key((1 << 4, 1 << 8, 0), 2, 3): 2}
    (tmp_path / "two.json").write_text(json.dumps({"version": 1, "leaves": leaves}))
    status, out, err = _cli("--checkpoint", "two.json", cwd=tmp_path)
    assert (status, out) == (1, "") and len(err.splitlines()) == 1 and "admit no value" in err


def test_a_report_past_its_positions_stops_and_says_so(tmp_path: Path) -> None:
    """Plies over the answers grow ~20-fold each: past ``POSITIONS`` the report stops
    (one line, status 1) rather than run for hours."""
    with pytest.raises(B.TooLarge):
        B.Proof({}, 4, positions=1_000).bounds(B.state_of((0, 0, 0)))
    shutil.copy(DATA / "gothello-solve.json", tmp_path / "s.json")
    status, out, err = _cli("--checkpoint", "s.json", "--split", "6", "--deepen", "6", "--budget", "500", cwd=tmp_path)
    assert (status, out) == (1, "") and len(err.splitlines()) == 1
    assert "more than 500 positions over 12 plies: fewer plies (or a larger --budget)" in err


@needs_c
@pytest.mark.parametrize("empty", [9, 11])
def test_the_line_gone_on_with_keeps_the_value_to_the_games_end(empty: int) -> None:
    """``--line``: each ply one of the Python solver's best moves, the margin kept to the
    game's end; a value that is not the position's has no line."""
    from impl.apps import solve_line as L
    from impl.engines.gothello import ImplGothello

    lib, engine, rng = S.load(), ImplGothello(), random.Random(empty)
    assert lib is not None
    for _ in range(3):
        state = GE.sample(rng, empty)
        python = GE.Solver(budget=None).solve(state)
        assert python is not None
        proof, value = B.Proof({}, 0), python.value
        plies = list(L.extended(S.CSolver(lib, 16), proof, state, value))
        assert plies and [p.value for p in plies] == [value * (-1) ** i for i in range(len(plies))]
        for ply in plies:
            best = GE.Solver(budget=None).solve(state)
            assert best is not None and ply.name in {engine.format_move(m) for m in best.best}, ply
            state = dict(proof.children(state))[ply.name]
        assert proof.over(state) == value * (-1) ** len(plies)
        with pytest.raises(L.Unproven):
            list(L.extended(S.CSolver(lib, 16), proof, GE.sample(random.Random(empty), empty), value + 1))


def test_bounds_line_needs_the_starts_value_proven(tmp_path: Path) -> None:
    """The sign solve proves black wins, not by how much: no line keeps a value not
    known (one line, status 1, after the report)."""
    shutil.copy(DATA / "gothello-solve.json", tmp_path / "s.json")
    status, out, err = _cli("--checkpoint", "s.json", "--line", "--table-bits", "12", cwd=tmp_path)
    assert status == 1 and "the start, black to move: ≥ +1" in out
    assert err.splitlines() == [
        "referee tablebase solve: --line: the start's value is not proven yet, so no line keeps it"
    ]


def test_the_documented_principal_variation_is_a_game_black_wins_by_3_on_the_spec() -> None:
    """docs/tablebases.md's line to the game's end, played on the spec's engine: every
    move legal, the game over after the last, black 3 stones ahead — the solve's margin."""
    from impl.engines.spec_engine import SpecGothello

    page = (paths.ROOT / "docs" / "tablebases.md").read_text(encoding="utf-8")
    found = re.search(r"\*\*The principal variation, to the game's end:\*\* `([^`]+)`", page)
    assert found is not None
    spec = SpecGothello()
    state = spec.initial()
    for name in found.group(1).split():
        move = spec.parse_move(name)
        assert move is not None and not spec.is_over(state) and spec.why_illegal(state, move) is None, name
        state = spec.apply(state, move)[1]
    assert spec.is_over(state)
    black, white = spec.counts(state)
    assert (black, white) == (13, 10) and black - white == 3


@needs_c
def test_bounds_line_interrupted_stops_at_once_in_one_line(tmp_path: Path) -> None:
    """The line's first ply past the answers takes most of a minute: SIGTERM in it ends
    the command within seconds, status 130, one line, no traceback."""
    shutil.copy(DATA / "gothello-solve-exact.json", tmp_path / "e.json")
    argv = [sys.executable, "-m", "impl.cli", "tablebase", "solve", "gothello", "--bounds", "--line"]
    argv += ["--checkpoint", "e.json", "--deepen", "1", "--table-bits", "14"]
    env = {"PYTHONPATH": str(paths.ROOT), "PATH": "/usr/bin:/bin"}
    with subprocess.Popen(
        argv, cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    ) as run:
        try:
            assert run.stdout is not None
            for said in run.stdout:  # the report, then the line's search
                if said.startswith("the principal variation as far as proven"):
                    break
            time.sleep(1)
            run.send_signal(signal.SIGTERM)
            _, err = run.communicate(timeout=60)
        finally:
            run.kill()
    assert run.returncode == 130 and err == "referee tablebase solve: --line: interrupted\n", err
