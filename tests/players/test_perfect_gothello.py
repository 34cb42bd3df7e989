"""The perfect player's Gothello (impl/players/perfect_gothello.py): the solved opening
is the certified top of the committed solve, and below it the compiled solver's move
keeps the position's value by the Python solver (impl/engines/gothello_endgame.py)."""

from __future__ import annotations

import random

import pytest

from impl.apps import solve as V
from impl.engines import gothello_endgame as GE
from impl.engines import gothello_solve as S
from impl.engines.gothello import ImplGothello
from impl.engines.kernels import GothelloState
from impl.engines.notation import parse_gothello
from impl.players import perfect_gothello as P
from impl.players.perfect_player import PerfectPlayer
from tests.support import paths

needs_c = pytest.mark.skipif(S.load() is None, reason="no C compiler here: the compiled solver is not built")
ENGINE = ImplGothello()


def _play(*names: str) -> GothelloState:
    state = ENGINE.initial()
    for name in names:
        move = parse_gothello(name)
        assert move is not None
        state = ENGINE.apply(state, move)[1]
    return state


def test_the_opening_is_the_certified_top_of_the_committed_solve() -> None:
    checkpoint = V.Checkpoint.load(paths.ROOT / "data" / "gothello-solve.json")
    assert dict(V.certify_top(checkpoint, V.NAMES.index(P.FIRST))) == P.ANSWERS
    assert P.NAMES == V.NAMES


def test_the_book_is_followed_only_while_the_game_follows_it() -> None:
    assert P.book(ENGINE.initial()) == "a2"
    assert P.book(_play("a2", "c3")) == "a4"
    assert P.book(_play("a2", "pass")) == "pass"
    assert P.book(_play("a1", "c3")) is None  # black left the book
    assert P.book(_play("a2", "c3", "a4", "e5")) is None  # below it


def _value(state: GothelloState) -> int:
    value = GE.Solver(budget=None).value(state)
    assert value is not None
    return value


@needs_c
@pytest.mark.parametrize("empty", [4, 7, 10])
def test_the_solvers_move_keeps_the_value(empty: int) -> None:
    """On sampled positions the mover does not lose, the move chosen keeps a win a
    win and a draw a draw; on a lost one there is no perfect move to make."""
    perfect = P.GothelloPerfect(bits=16)
    rng = random.Random(empty)
    seen = set()
    for _ in range(12):
        state = GE.sample(rng, empty)
        value = _value(state)
        seen.add((value > 0) - (value < 0))
        chosen = perfect.move(state, seconds=60.0)
        if value < 0:
            assert chosen is None
            continue
        move = parse_gothello(chosen or "")
        assert move is not None and move in ENGINE.legal_moves(state)
        _, after = ENGINE.apply(state, move)
        after_value = -_value(after) if not ENGINE.is_over(after) else value
        assert (after_value > 0) == (value > 0) and after_value >= 0
    assert 1 in seen


@needs_c
def test_out_of_budget_the_perfect_player_searches() -> None:
    """A position the solver cannot finish in the move's nodes: no solved move, and the
    perfect player's move is the search player's."""
    state = _play("a2", "c3", "a4", "e5")
    assert P.GothelloPerfect(bits=16).move(state, seconds=1e-6) is None
    player = PerfectPlayer(budget=0.05)
    move = parse_gothello(player.think("gothello", state, 0.05, ENGINE))
    assert move in ENGINE.legal_moves(state) and player.from_table == 0
    assert player.think("gothello", ENGINE.initial(), 0.05, ENGINE) == "a2" and player.from_table == 1
