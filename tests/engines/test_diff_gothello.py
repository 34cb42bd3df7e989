"""Differential tests: the fast Gothello engine (impl/engines/gothello.py) against the spec's
referee (spec.gothello.referee), on reachable and arbitrary boards, every action,
and whole games played in lock-step."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, event, example, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from impl.engines.spec_engine import SpecGothello
from spec import gothello as G
from spec import result as R
from tests.support.differential import check_observers, check_step
from tests.support.strategies import (
    SQUARES,
    gothello_arbitrary,
    gothello_game,
    gothello_reachable,
    gothello_states,
    impl_engines,
    move_texts,
)

SPEC = SpecGothello()
IMPLS = impl_engines("gothello")
B, W = G.PLAYER.black, G.PLAYER.white
ACTIONS: tuple[G.MOVE, ...] = (*(G.move(s) for s in SQUARES), G.pass_)


def m(name: str) -> G.MOVE:
    return G.move(("abcde".index(name[0]) + 1, int(name[1])))


# Pinned states (rank 5 first), each exercising one outcome of GothelloTurn.
BLOCKED = gothello_game([".....", ".....", "b....", "wb...", ".wb.."], B)  # a1: no liberty, though it would capture
CAPTURE = gothello_game([".....", ".....", ".....", "b.b..", "w.wb."], B)  # b1 captures a1 and c1
JOINS = gothello_game([".....", ".....", ".....", "bw...", ".b..."], B)  # a1 has no blank neighbour, its group does
ALREADY_DEAD = gothello_game(
    ["wb...", "b....", ".....", ".....", "....."], B, (m("a4"),)
)  # a5 has no liberty; c1 is far
DEAD_NEIGHBOUR = gothello_game(["wb...", ".....", ".....", ".....", "....."], B)  # a4 flips the dead a5
PASSED = gothello_game([".....", ".b...", "..w..", "b....", "....."], W, (G.pass_, m("b4")))  # a pass ends it
FINISHED = gothello_game(["bbw..", ".....", ".....", ".....", "....."], B, (G.pass_, G.pass_))  # the final result again
FULL = gothello_game(["bbbbb", "bbbbb", "wwwww", "wwwww", "wwwww"], W)  # no blank square: only pass
FIRST_PASS = gothello_game([".....", ".....", ".....", ".....", "....."], B)  # pass on an empty history (G7)
PINNED = (BLOCKED, CAPTURE, JOINS, ALREADY_DEAD, DEAD_NEIGHBOUR, PASSED, FINISHED, FULL, FIRST_PASS)


@pytest.mark.parametrize("engine", IMPLS, ids=lambda e: type(e).__module__)
@pytest.mark.parametrize("g", PINNED, ids=lambda g: "/".join(SPEC.render(g)))
def test_pinned_states(engine: Any, g: G.GothelloGame) -> None:
    for action in ACTIONS:
        check_step(SPEC, engine, g, action)
    check_observers(SPEC, engine, g)


def test_pinned_states_show_their_outcomes() -> None:
    """The pinned states do exercise what their names say (by the spec)."""
    assert G.referee(BLOCKED, m("a1")) == (R.illegal_move, BLOCKED)
    assert SPEC.counts(G.referee(CAPTURE, m("b1"))[1]) == (6, 0)
    assert G.referee(JOINS, m("a1"))[0] == R.not_done
    assert SPEC.render(G.referee(DEAD_NEIGHBOUR, m("a4"))[1])[0] == "bb..."
    assert G.referee(ALREADY_DEAD, m("c1"))[1].board[(1, 5)] == G.stone(W)
    assert G.referee(PASSED, G.pass_)[0] == R.win(B)
    assert G.referee(FINISHED, m("e1")) == (G.referee(FINISHED, G.pass_)[0], FINISHED) != (R.illegal_move, FINISHED)
    assert SPEC.legal_moves(FULL) == (G.pass_,)
    assert G.referee(FIRST_PASS, G.pass_)[0] == R.not_done


@pytest.mark.parametrize("engine", IMPLS, ids=lambda e: type(e).__module__)
@given(g=gothello_reachable())
def test_reachable_states_every_action(engine: Any, g: G.GothelloGame) -> None:
    for action in ACTIONS:
        check_step(SPEC, engine, g, action)


@pytest.mark.parametrize("engine", IMPLS, ids=lambda e: type(e).__module__)
@given(g=gothello_arbitrary())
@example(g=BLOCKED)
@example(g=ALREADY_DEAD)
def test_arbitrary_states_every_action(engine: Any, g: G.GothelloGame) -> None:
    for action in ACTIONS:
        check_step(SPEC, engine, g, action)


@pytest.mark.parametrize("engine", IMPLS, ids=lambda e: type(e).__module__)
@given(g=gothello_states)
def test_observers(engine: Any, g: G.GothelloGame) -> None:
    check_observers(SPEC, engine, g)


@pytest.mark.parametrize("engine", IMPLS, ids=lambda e: type(e).__module__)
@given(text=move_texts)
def test_notation(engine: Any, text: str) -> None:
    assert engine.parse_move(text) == SPEC.parse_move(text)
    for action in ACTIONS:
        assert engine.format_move(action) == SPEC.format_move(action)
        assert engine.parse_move(engine.format_move(action)) == action


@pytest.mark.parametrize("engine", IMPLS, ids=lambda e: type(e).__module__)
def test_constants(engine: Any) -> None:
    assert (engine.game, engine.kind, engine.players) == ("gothello", "impl", SPEC.players)
    assert engine.to_spec(engine.initial()) == SPEC.initial()


# ─── Whole games in lock-step ──────────────────────────────────────────────────


class GothelloLockstep(RuleBasedStateMachine):
    """The spec and every fast engine play the same game, mostly legal moves with
    illegal attempts in between, and must agree after every step; once the game is
    over, a few more actions must all be refused."""

    def __init__(self) -> None:
        super().__init__()
        self.spec_state = SPEC.initial()
        self.states = [e.initial() for e in IMPLS]
        self.after_end = 0
        self.over = False

    def step(self, action: G.MOVE) -> None:
        expected, self.spec_state = SPEC.apply(self.spec_state, action)
        for i, engine in enumerate(IMPLS):
            result, self.states[i] = engine.apply(self.states[i], action)
            assert result == expected, repr(action)
        self.over = SPEC.is_over(self.spec_state)
        if self.over and not self.after_end:
            event(f"game over: {expected}")

    @rule(kind=st.integers(0, 4), pick=st.integers(0, 25), check=st.integers(0, 9))
    def play(self, kind: int, pick: int, check: int) -> None:
        """A legal move (kind > 0) or any action; once the game is over, three more
        actions and then nothing.  (One rule without preconditions: hypothesis
        wastes runs on rules it must filter.)"""
        if self.over:
            if self.after_end < 3:
                self.after_end += 1
                self.step(ACTIONS[pick])
            return
        legal = IMPLS[0].legal_moves(self.states[0])
        if check == 0:  # the spec's legal_moves costs 25 referee steps: only sometimes
            assert legal == SPEC.legal_moves(self.spec_state)
        self.step(ACTIONS[pick] if kind == 0 else legal[pick % len(legal)])

    @invariant()
    def agree(self) -> None:
        for engine, state in zip(IMPLS, self.states, strict=True):
            assert engine.to_spec(state) == self.spec_state
            assert engine.is_over(state) == self.over


TestGothelloLockstep = GothelloLockstep.TestCase
TestGothelloLockstep.settings = settings(
    settings.default,
    max_examples=max(8, settings().max_examples // 5),  # whole games on the spec: seconds each
    stateful_step_count=150,
    # whole games are long by nature: the smallest run is a whole game too
    suppress_health_check=[*settings().suppress_health_check, HealthCheck.large_base_example],
)
