"""Differential tests: each fast engine (impl/engines/awari.py, impl/engines/gothello.py)
against its game's spec referee (spec.awari.referee, spec.gothello.referee), on pinned,
reachable and arbitrary well-formed states, every action, and whole games played in
lock-step.  Every test is parametrised by game; the ids name it (``-k awari``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from impl.engines.spec_engine import SpecAwari, SpecGothello
from spec import awari as A
from spec import gothello as G
from spec import result as R
from tests.support.awari_states import game
from tests.support.differential import check_observers, check_step
from tests.support.strategies import (
    SQUARES,
    awari_arbitrary,
    awari_played,
    awari_reachable,
    awari_states,
    gothello_arbitrary,
    gothello_game,
    gothello_reachable,
    gothello_states,
    impl_engines,
    move_texts,
)

# ─── Awari's pinned states, each exercising one outcome of AwariRef ────────────

N, S = A.PLAYER.north, A.PLAYER.south


def _after(g: A.AwariGame, pit: str) -> A.AwariBoard:
    """The position that sowing ``pit`` leads to, the turn passed."""
    moved, _, _ = A.Sow_Capture_corrected(A.θAwariBoard(g), A.PIT[pit])
    return A.AwariBoard(moved.board, moved.score, A.opponent(g.to_move))


_START = A.InitAwari()
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
AWARI_PINNED = (
    GRAND_SLAM,
    MUST_FEED,
    CANNOT_FEED,
    REPEATS,
    WIN_MARGIN,
    NO_MOVE,
    CAPTURE_TO_25,
    LAPS,
    FINISHED,
    STRANDED,
)


def test_awari_pinned_states_show_their_outcomes() -> None:
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


# ─── Gothello's pinned states (rank 5 first), each exercising one outcome of GothelloTurn

B, W = G.PLAYER.black, G.PLAYER.white
GOTHELLO_SPEC = SpecGothello()


def m(name: str) -> G.MOVE:
    return G.move(("abcde".index(name[0]) + 1, int(name[1])))


BLOCKED = gothello_game([".....", ".....", "b....", "wb...", ".wb.."], B)  # a1: no liberty, though it would capture
CAPTURE = gothello_game([".....", ".....", ".....", "b.b..", "w.wb."], B)  # b1 captures a1 and c1
JOINS = gothello_game([".....", ".....", ".....", "bw...", ".b..."], B)  # a1 has no blank neighbour, its group does
ALREADY_DEAD = gothello_game(
    ["wb...", "b....", ".....", ".....", "....."], B, (m("a4"),)
)  # a5 has no liberty; c1 is far
DEAD_NEIGHBOUR = gothello_game(["wb...", ".....", ".....", ".....", "....."], B)  # a4 flips the dead a5
PASSED = gothello_game([".....", ".b...", "..w..", "b....", "....."], W, (G.pass_, m("b4")))  # a pass ends it
OVER = gothello_game(["bbw..", ".....", ".....", ".....", "....."], B, (G.pass_, G.pass_))  # the final result again
FULL = gothello_game(["bbbbb", "bbbbb", "wwwww", "wwwww", "wwwww"], W)  # no blank square: only pass
FIRST_PASS = gothello_game([".....", ".....", ".....", ".....", "....."], B)  # pass on an empty history (G7)
GOTHELLO_PINNED = (BLOCKED, CAPTURE, JOINS, ALREADY_DEAD, DEAD_NEIGHBOUR, PASSED, OVER, FULL, FIRST_PASS)


def test_gothello_pinned_states_show_their_outcomes() -> None:
    """The pinned states do exercise what their names say (by the spec)."""
    spec = GOTHELLO_SPEC
    assert G.referee(BLOCKED, m("a1")) == (R.illegal_move, BLOCKED)
    assert spec.counts(G.referee(CAPTURE, m("b1"))[1]) == (6, 0)
    assert G.referee(JOINS, m("a1"))[0] == R.not_done
    assert spec.render(G.referee(DEAD_NEIGHBOUR, m("a4"))[1])[0] == "bb..."
    assert G.referee(ALREADY_DEAD, m("c1"))[1].board[(1, 5)] == G.stone(W)
    assert G.referee(PASSED, G.pass_)[0] == R.win(B)
    assert G.referee(OVER, m("e1")) == (G.referee(OVER, G.pass_)[0], OVER) != (R.illegal_move, OVER)
    assert spec.legal_moves(FULL) == (G.pass_,)
    assert G.referee(FIRST_PASS, G.pass_)[0] == R.not_done


# ─── The two games, side by side ───────────────────────────────────────────────


@dataclass(frozen=True)
class Game:
    """What the differential tests need of one game."""

    name: str
    spec: Any
    impls: tuple[Any, ...]
    actions: tuple[Any, ...]
    pinned: tuple[Any, ...]
    reachable: st.SearchStrategy[Any]
    arbitrary: st.SearchStrategy[Any]
    states: st.SearchStrategy[Any]
    spec_check_odds: int
    """1 in this many lock-step moves also asks the spec for its legal moves (a referee
    step per action: twelve for Awari, 26 for Gothello)."""


AWARI = Game(
    "awari",
    SpecAwari(),
    tuple(impl_engines("awari")),
    tuple(A.PIT),
    AWARI_PINNED,
    awari_reachable(),
    st.one_of(awari_arbitrary(), awari_played()),
    awari_states,
    20,
)
GOTHELLO = Game(
    "gothello",
    GOTHELLO_SPEC,
    tuple(impl_engines("gothello")),
    (*(G.move(s) for s in SQUARES), G.pass_),
    GOTHELLO_PINNED,
    gothello_reachable(),
    gothello_arbitrary(),
    gothello_states,
    10,
)
ENGINES = [pytest.param(g, e, id=f"{g.name}-{type(e).__module__}") for g in (AWARI, GOTHELLO) for e in g.impls]


def every_action(g: Game, engine: Any, state: Any) -> None:
    """``engine`` agrees with the spec on one step from ``state`` by each of the game's actions."""
    for action in g.actions:
        check_step(g.spec, engine, state, action)


def _pinned_id(g: Game, state: Any) -> str:
    return str(state.board) if g is AWARI else "/".join(g.spec.render(state))


@pytest.mark.parametrize(
    ("g", "engine", "state"),
    [
        pytest.param(g, e, s, id=f"{g.name}-{type(e).__module__}-{_pinned_id(g, s)}")
        for g in (AWARI, GOTHELLO)
        for e in g.impls
        for s in g.pinned
    ],
)
def test_pinned_states(g: Game, engine: Any, state: Any) -> None:
    every_action(g, engine, state)
    check_observers(g.spec, engine, state)


@pytest.mark.parametrize(("g", "engine"), ENGINES)
@given(data=st.data())
def test_reachable_states_every_action(g: Game, engine: Any, data: st.DataObject) -> None:
    every_action(g, engine, data.draw(g.reachable))


@pytest.mark.parametrize(("g", "engine"), ENGINES)
@given(data=st.data())
def test_arbitrary_states_every_action(g: Game, engine: Any, data: st.DataObject) -> None:
    every_action(g, engine, data.draw(g.arbitrary))


@pytest.mark.parametrize(("g", "engine"), ENGINES)
@given(data=st.data())
def test_observers(g: Game, engine: Any, data: st.DataObject) -> None:
    check_observers(g.spec, engine, data.draw(g.states))


@pytest.mark.parametrize(("g", "engine"), ENGINES)
@given(text=move_texts)
def test_notation(g: Game, engine: Any, text: str) -> None:
    assert engine.parse_move(text) == g.spec.parse_move(text)
    for action in g.actions:
        assert engine.format_move(action) == g.spec.format_move(action)
        assert engine.parse_move(engine.format_move(action)) == action


@pytest.mark.parametrize(("g", "engine"), ENGINES)
def test_constants(g: Game, engine: Any) -> None:
    assert (engine.game, engine.kind, engine.players) == (g.name, "impl", g.spec.players)
    assert engine.to_spec(engine.initial()) == g.spec.initial()


# ─── Whole games in lock-step ──────────────────────────────────────────────────


def lockstep(g: Game) -> type[RuleBasedStateMachine]:
    """The spec and every fast engine play the same game, mostly legal moves with
    illegal attempts in between, and must agree after every step; once the game is
    over, a few more actions must all get its final result (Awari) or be refused
    (Gothello)."""

    class Lockstep(RuleBasedStateMachine):
        def __init__(self) -> None:
            super().__init__()
            self.spec_state = g.spec.initial()
            self.states = [e.initial() for e in g.impls]
            self.after_end = 0
            self.over = False

        def step(self, action: Any) -> None:
            expected, self.spec_state = g.spec.apply(self.spec_state, action)
            for i, engine in enumerate(g.impls):
                result, self.states[i] = engine.apply(self.states[i], action)
                assert result == expected, repr(action)
            self.over = g.spec.is_over(self.spec_state)
            if self.over and not self.after_end:
                event(f"game over: {expected}")

        @rule(
            kind=st.integers(0, 4), pick=st.integers(0, len(g.actions) - 1), check=st.integers(0, g.spec_check_odds - 1)
        )
        def play(self, kind: int, pick: int, check: int) -> None:
            """A legal move (kind > 0) or any action; once the game is over, three more
            actions and then nothing.  (One rule without preconditions: hypothesis
            wastes runs on rules it must filter.)"""
            if self.over:
                if self.after_end < 3:
                    self.after_end += 1
                    self.step(g.actions[pick])
                return
            legal = g.impls[0].legal_moves(self.states[0])
            if check == 0:  # the spec's legal_moves costs a referee step an action: only sometimes
                assert legal == g.spec.legal_moves(self.spec_state)
            self.step(g.actions[pick] if kind == 0 or not legal else legal[pick % len(legal)])

        @invariant()
        def agree(self) -> None:
            for engine, state in zip(g.impls, self.states, strict=True):
                assert engine.to_spec(state) == self.spec_state
                assert engine.is_over(state) == self.over

    Lockstep.__name__ = Lockstep.__qualname__ = f"{g.name.capitalize()}Lockstep"
    return Lockstep


# whole games are long by nature: the smallest run is a whole game too
_LONG = [*settings().suppress_health_check, HealthCheck.large_base_example]
# Awari's whole games on the spec take tens of seconds each: verify-deep plays them
# (150); make verify's bounded refinement slices, the checked engine's whole games
# (tests/engines/test_checked.py) and the exhaustive equivalence cover every step besides.
TestAwariLockstep = pytest.mark.deep(lockstep(AWARI).TestCase)
TestAwariLockstep.settings = settings(
    settings.default,
    max_examples=max(2, settings().max_examples // 10),
    stateful_step_count=500,
    suppress_health_check=_LONG,
)
TestGothelloLockstep = lockstep(GOTHELLO).TestCase
TestGothelloLockstep.settings = settings(
    settings.default,
    max_examples=max(8, settings().max_examples // 5),  # whole games on the spec: seconds each
    stateful_step_count=150,
    suppress_health_check=_LONG,
)
