"""The Gothello endgame solver (impl/engines/gothello_endgame.py): its values and
best moves are a plain minimax's over the spec's own rules, its transposition table
and budget change no answer, and ``adjudicate`` ends won, lost and drawn endgames by
their exact result."""

from __future__ import annotations

import os
import random
import subprocess
import sys

import pytest

from impl.engines import gothello_endgame as GE
from impl.engines.gothello import GothelloState, ImplGothello
from spec import gothello as G

ENGINE = ImplGothello()


def _module(*args: str, prelude: str = "") -> subprocess.CompletedProcess[str]:
    """The module's command line without the spec's contracts (their cost is the
    spec minimax's whole time, as in tests/tablebase/test_checks.py); ``prelude`` runs
    first in the same process (a planted bug)."""
    env = {**os.environ, "SPEC_CONTRACTS": "0"}
    code = f"{prelude}\nimport sys\nfrom impl.engines import gothello_endgame as GE\nsys.exit(GE.main(sys.argv[1:]))"
    return subprocess.run(
        [sys.executable, "-c", code, *args], env=env, capture_output=True, text=True, timeout=600, check=False
    )


def test_values_and_best_moves_are_the_spec_minimaxs() -> None:
    """Sample positions of 1–5 empty points, each also right after a pass: value and
    the exact set of optimal moves as the spec's game tree gives them."""
    done = _module("--check-spec", "5", "--positions", "6")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "the spec's minimax, ≤ 5 empties: ok" in done.stdout


def test_a_planted_rules_bug_fails_the_spec_check() -> None:
    """The solver placing without captures (its ``place`` turning nothing): the
    check against the spec must see it."""
    plant = (
        "from impl.engines import gothello_endgame as GE\n"
        "GE.place = lambda mine, theirs, i: theirs | ((mine | 1 << i) << 25)"
    )
    done = _module("--check-spec", "4", "--positions", "6", prelude=plant)
    assert done.returncode == 1 and "the spec" in done.stdout and "the solver" in done.stdout


def _position(rng: random.Random, empty: int, want: int | None = None) -> GothelloState:
    """A sample position; with ``want`` (1, 0, −1), one whose value has that sign."""
    while True:
        state = GE.sample(rng, empty)
        value = GE.Solver(None).value(state)
        assert value is not None
        if want is None or (value > 0) - (value < 0) == want:
            return state


def _minimax(state: GothelloState) -> int:
    """The mover's margin by a plain minimax over the fast engine's public moves."""
    best = -GE._BOUND
    for m in ENGINE.legal_moves(state):
        _, after = ENGINE.apply(state, m)
        if ENGINE.is_over(after):
            black, white = ENGINE.counts(after)
            value = black - white if state[2] == 0 else white - black
        else:
            value = -_minimax(after)
        best = max(best, value)
    return best


@pytest.mark.parametrize("empty", [6, 7])
def test_the_value_is_a_plain_minimaxs_beyond_the_spec_check(empty: int) -> None:
    rng = random.Random(empty)
    for _ in range(4):
        state = GE.sample(rng, empty)
        assert GE.Solver(None).value(state) == _minimax(state)


def test_a_shared_table_gives_what_a_fresh_solver_gives() -> None:
    """One solver kept along a game (as the analysis keeps it) answers every position
    and every move as a fresh solver does: its table holds bounds, not windows."""
    rng = random.Random(7)
    shared = GE.Solver(None)
    for _ in range(3):
        state = GE.sample(rng, 9)
        while not ENGINE.is_over(state):
            fresh = GE.Solver(None).solve(state)
            mine = shared.solve(state)
            assert fresh is not None and mine is not None and (mine.value, mine.best) == (fresh.value, fresh.best)
            for m in ENGINE.legal_moves(state):
                assert shared.move_value(state, m) == GE.Solver(None).move_value(state, m)
            _, state = ENGINE.apply(state, rng.choice(ENGINE.legal_moves(state)))


def test_the_best_moves_keep_the_value() -> None:
    rng = random.Random(3)
    for _ in range(5):
        state = GE.sample(rng, 8)
        solution = GE.Solver(None).solve(state)
        assert solution is not None and solution.best
        values = {m: GE.Solver(None).move_value(state, m) for m in ENGINE.legal_moves(state)}
        assert max(v for v in values.values() if v is not None) == solution.value
        assert solution.best == tuple(m for m, v in values.items() if v == solution.value)


def test_a_budget_gives_up_rather_than_guess() -> None:
    state = GE.sample(random.Random(1), 11)
    assert GE.Solver(budget=50).solve(state) is None
    assert GE.Solver(budget=50).value(state) is None
    assert GE.adjudicate(state, budget=50) is None
    assert GE.solve(state, budget=None) is not None


def test_out_of_reach_and_over_are_not_solved() -> None:
    state = GE.sample(random.Random(2), 10)
    assert GE.solve(state, within=9) is None and GE.adjudicate(state, within=9) is None
    assert GE.solve(ENGINE.initial()) is None  # 25 empty points: beyond K
    _, passed = ENGINE.apply(state, G.pass_)
    _, over = ENGINE.apply(passed, G.pass_)
    assert ENGINE.is_over(over) and GE.solve(over) is None and GE.adjudicate(over) is None


@pytest.mark.parametrize("want", [1, 0, -1])
def test_adjudication_of_won_drawn_and_lost_endgames(want: int) -> None:
    """The winner and black's final difference from the mover's value, on the engine's
    state and on the spec's GothelloGame alike; the game played out by the best moves
    ends exactly so."""
    state = _position(random.Random(10 + want), 6, want)
    outcome = GE.adjudicate(state)
    assert outcome is not None and outcome == GE.adjudicate(ENGINE.to_spec(state))
    mover = ENGINE.to_move(state)
    expected = None if want == 0 else mover if want > 0 else G.opponent(mover)
    assert outcome.winner == expected
    while not ENGINE.is_over(state):  # both sides play a best move
        solution = GE.solve(state)
        assert solution is not None
        _, state = ENGINE.apply(state, solution.best[0])
    black, white = ENGINE.counts(state)
    assert outcome.difference == black - white


def test_measure_prints_the_table_and_a_labelled_projection(capsys: pytest.CaptureFixture[str]) -> None:
    assert GE.main(["--measure", "--empties", "6", "9", "--positions", "2"]) == 0
    out = capsys.readouterr().out
    assert "| empties | positions |" in out and "| 9 | 2 |" in out and "PROJECTION, not a measurement" in out


def test_bad_options_are_refused() -> None:
    with pytest.raises(SystemExit) as exc:
        GE.main([])
    assert exc.value.code == 2
    with pytest.raises(SystemExit) as exc:
        GE.main(["--measure", "--empties", "9", "3"])
    assert exc.value.code == 2
