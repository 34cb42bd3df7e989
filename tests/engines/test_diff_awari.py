"""Differential tests: the fast Awari engine (impl/engines/awari.py) against the spec's
referee (spec.awari.referee), on reachable and arbitrary well-formed states, every
action, and whole games played in lock-step."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, event, example, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from impl.engines.spec_engine import SpecAwari
from spec import awari as A
from spec import result as R
from tests.support.awari_states import game
from tests.support.differential import check_observers, check_step
from tests.support.strategies import (
    awari_arbitrary,
    awari_played,
    awari_reachable,
    awari_states,
    impl_engines,
    move_texts,
)

SPEC = SpecAwari()
IMPLS = impl_engines("awari")
N, S = A.PLAYER.north, A.PLAYER.south


def _after(g: A.AwariGame, pit: str) -> A.AwariBoard:
    """The position that sowing ``pit`` leads to, the turn passed."""
    moved, _, _ = A.Sow_Capture_corrected(A.θAwariBoard(g), A.PIT[pit])
    return A.AwariBoard(moved.board, moved.score, A.opponent(g.to_move))


_START = A.InitAwari()
# Pinned states, each exercising one outcome of AwariRef.
GRAND_SLAM = game({"a": 1, "b": 1, "A": 3, "F": 2}, 20, 21, S)  # F takes a and b: north's row emptied
MUST_FEED = game({"A": 1, "F": 1, "c": 0}, 23, 23, S)  # north starves: A is illegal, F feeds
CANNOT_FEED = game({"A": 1}, 23, 24, S)  # north starves and no sowing reaches it
REPEATS = A.game_of(A.θAwariBoard(_START), frozenset({_after(_START, "A")}))  # sowing A repeats a position
WIN_MARGIN = game({"a": 2, "B": 3}, 25, 18, N)  # already over: north has 25
NO_MOVE = game({"A": 5}, 20, 23, N)  # north, to move, has no stones
CAPTURE_TO_25 = game({"a": 1, "b": 3, "F": 1}, 20, 23, S)  # F captures a: south reaches 25
LAPS = game({"A": 30}, 9, 9, S)  # 30 stones sown round the board
FINISHED = game({}, 24, 24, N)  # an emptied board: NoMove on every action
STRANDED = game({"b": 1, "F": 1}, 22, 24, S)  # F empties south's row; north cannot feed it back
PINNED = (GRAND_SLAM, MUST_FEED, CANNOT_FEED, REPEATS, WIN_MARGIN, NO_MOVE, CAPTURE_TO_25, LAPS, FINISHED, STRANDED)


@pytest.mark.parametrize("engine", IMPLS, ids=lambda e: type(e).__module__)
@pytest.mark.parametrize("g", PINNED, ids=lambda g: str(g.board))
def test_pinned_states(engine: Any, g: A.AwariGame) -> None:
    for action in A.PIT:
        check_step(SPEC, engine, g, action)
    check_observers(SPEC, engine, g)


def test_pinned_states_show_their_outcomes() -> None:
    """The pinned states do exercise what their names say (by the spec)."""
    assert A.referee(GRAND_SLAM, A.PIT.F) == (
        R.win(S),
        A.AwariGame(A.EMPTY_BOARD, (23, 25), N, GRAND_SLAM.positions | {A.θAwariBoard(GRAND_SLAM)}),
    )
    assert A.referee(MUST_FEED, A.PIT.A)[0] == R.illegal_move and A.referee(MUST_FEED, A.PIT.F)[0] == R.not_done
    assert A.referee(CANNOT_FEED, A.PIT.B)[0] == R.win(S)
    assert A.referee(REPEATS, A.PIT.A)[0] == R.draw
    assert A.referee(CAPTURE_TO_25, A.PIT.F)[0] == R.win(S)
    assert A.referee(STRANDED, A.PIT.F)[0] == R.draw


@pytest.mark.parametrize("engine", IMPLS, ids=lambda e: type(e).__module__)
@given(g=awari_reachable())
def test_reachable_states_every_action(engine: Any, g: A.AwariGame) -> None:
    for action in A.PIT:
        check_step(SPEC, engine, g, action)


@pytest.mark.parametrize("engine", IMPLS, ids=lambda e: type(e).__module__)
@given(g=st.one_of(awari_arbitrary(), awari_played()))
@example(g=GRAND_SLAM)
@example(g=STRANDED)
def test_arbitrary_states_every_action(engine: Any, g: A.AwariGame) -> None:
    for action in A.PIT:
        check_step(SPEC, engine, g, action)


@pytest.mark.parametrize("engine", IMPLS, ids=lambda e: type(e).__module__)
@given(g=awari_states)
def test_observers(engine: Any, g: A.AwariGame) -> None:
    check_observers(SPEC, engine, g)


@pytest.mark.parametrize("engine", IMPLS, ids=lambda e: type(e).__module__)
@given(text=move_texts)
def test_notation(engine: Any, text: str) -> None:
    assert engine.parse_move(text) == SPEC.parse_move(text)
    for action in A.PIT:
        assert engine.format_move(action) == SPEC.format_move(action)
        assert engine.parse_move(engine.format_move(action)) == action


@pytest.mark.parametrize("engine", IMPLS, ids=lambda e: type(e).__module__)
def test_constants(engine: Any) -> None:
    assert (engine.game, engine.kind, engine.players) == ("awari", "impl", SPEC.players)
    assert engine.to_spec(engine.initial()) == SPEC.initial()


# ─── Whole games in lock-step ──────────────────────────────────────────────────


class AwariLockstep(RuleBasedStateMachine):
    """The spec and every fast engine play the same game, mostly legal moves with
    illegal attempts in between, and must agree after every step; once the game is
    over, a few more actions must all get its final result."""

    def __init__(self) -> None:
        super().__init__()
        self.spec_state = SPEC.initial()
        self.states = [e.initial() for e in IMPLS]
        self.after_end = 0
        self.over = False

    def step(self, action: A.PIT) -> None:
        expected, self.spec_state = SPEC.apply(self.spec_state, action)
        for i, engine in enumerate(IMPLS):
            result, self.states[i] = engine.apply(self.states[i], action)
            assert result == expected, action.name
        self.over = SPEC.is_over(self.spec_state)
        if self.over and not self.after_end:
            event(f"game over: {expected}")

    @rule(kind=st.integers(0, 4), pick=st.integers(0, 11), check=st.integers(0, 19))
    def play(self, kind: int, pick: int, check: int) -> None:
        """A legal move (kind > 0) or any pit; once the game is over, three more
        actions and then nothing.  (One rule without preconditions: hypothesis
        wastes runs on rules it must filter.)"""
        if self.over:
            if self.after_end < 3:
                self.after_end += 1
                self.step(A.PIT(pick))
            return
        legal = IMPLS[0].legal_moves(self.states[0])
        if check == 0:  # the spec's legal_moves costs twelve referee steps: only sometimes
            assert legal == SPEC.legal_moves(self.spec_state)
        self.step(A.PIT(pick) if kind == 0 or not legal else legal[pick % len(legal)])

    @invariant()
    def agree(self) -> None:
        for engine, state in zip(IMPLS, self.states, strict=True):
            assert engine.to_spec(state) == self.spec_state
            assert engine.is_over(state) == self.over


TestAwariLockstep = AwariLockstep.TestCase
TestAwariLockstep.settings = settings(
    settings.default,
    max_examples=max(4, settings().max_examples // 10),  # a whole game takes the spec about a second
    stateful_step_count=500,
    # whole games are long by nature: the smallest run is a whole game too
    suppress_health_check=[*settings().suppress_health_check, HealthCheck.large_base_example],
)
