"""The engines' description of a move (impl/engines/port.py ``MoveDescription``,
``Engine.describe``): the fast engines' (from their packed states) and the spec
adapters' (from the spec's Sow, Capture and captures_corrected) agree on random
play, under the paper's rules and the Awari variants; hand examples pin the
values; the checked engine reports a fast engine that describes wrongly."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from impl.engines.checked_engine import CheckedEngine, Divergence
from impl.engines.gothello import ImplGothello
from impl.engines.port import MoveDescription
from impl.engines.registry import get_engine
from impl.game import Side
from spec import awari as A

ROOT = Path(__file__).resolve().parents[2]
RULES = ("paper", "grand-slam=b", "grand-slam=c", "grand-slam=d", "grand-slam=e")


def _agree(game: str, rules: str, choices: list[int]) -> int:
    """Play ``choices`` (indices into the legal moves) on the fast engine; at every
    ply the fast and the spec descriptions of the move agree.  The plies played."""
    fast: Any = get_engine(game, "impl", rules)
    spec = get_engine(game, "spec", rules)
    state, plies = fast.initial(), 0
    for choice in choices:
        moves = fast.legal_moves(state)
        if not moves:
            break
        move = moves[choice % len(moves)]
        described = fast.describe(state, move)
        assert described == spec.describe(fast.to_spec(state), move), (game, rules, plies)
        assert described.move == fast.format_move(move)
        _, state = fast.apply(state, move)
        plies += 1
    return plies


@settings(max_examples=5, deadline=None)
@given(st.lists(st.integers(0, 25), min_size=20, max_size=40))
def test_fast_and_spec_describe_gothello_alike(choices: list[int]) -> None:
    assert _agree("gothello", "paper", choices) > 0


@settings(max_examples=8, deadline=None)
@given(st.sampled_from(RULES), st.lists(st.integers(0, 5), min_size=30, max_size=80))
def test_fast_and_spec_describe_awari_alike(rules: str, choices: list[int]) -> None:
    assert _agree("awari", rules, choices) > 0


def test_random_play_meets_captures() -> None:
    """The agreement above is not vacuous: random play captures in both games."""
    for game in ("awari", "gothello"):
        engine = get_engine(game, "impl")
        state, captured = engine.initial(), 0
        for i in range(200):
            moves = engine.legal_moves(state)
            if not moves:
                break
            move = moves[(i * 7) % len(moves)]
            captured += bool(engine.describe(state, move).captured)
            _, state = engine.apply(state, move)
        assert captured > 0, game


def _awari(north: tuple[int, ...], south: tuple[int, ...], score: tuple[int, int]) -> A.AwariGame:
    """South to move; ``north`` is a–f, ``south`` A–F; ``score`` is (north, south)."""
    return A.AwariGame(tuple(north) + tuple(south), score, A.PLAYER.south, frozenset())


@pytest.mark.parametrize("kind", ["impl", "spec", "checked"])
def test_an_awari_capture_chain(kind: str) -> None:
    """F's three stones reach a, b, c (1, 2, 1 before): c, b and a hold 2, 3, 2 and
    are taken, walking back down north's row."""
    engine: Any = get_engine("awari", kind)
    state = engine.from_spec(_awari((1, 2, 1, 4, 4, 4), (4, 4, 4, 4, 4, 3), (4, 5)))
    assert engine.describe(state, A.PIT.F) == MoveDescription(Side.FIRST, "F", "F3x7", 3, ("a", "b", "c"), 7, 7)


@pytest.mark.parametrize("kind", ["impl", "spec"])
def test_an_awari_grand_slam(kind: str) -> None:
    """F's two stones make north's only stones 2 and 2: the paper's rules take them
    (then the game ends, north taking south's row); grand slam (b) takes nothing."""
    position = _awari((1, 1, 0, 0, 0, 0), (4, 4, 4, 4, 4, 2), (12, 12))
    paper: Any = get_engine("awari", kind)
    slam = paper.describe(paper.from_spec(position), A.PIT.F)
    assert (slam.captured, slam.taken, slam.gained, slam.notation) == (("a", "b"), 4, 4, "F2x4")
    assert paper.is_over(paper.apply(paper.from_spec(position), A.PIT.F)[1])
    no_capture: Any = get_engine("awari", kind, "grand-slam=b")
    sown = no_capture.describe(no_capture.from_spec(position), A.PIT.F)
    assert (sown.captured, sown.taken, sown.gained, sown.notation) == ((), 0, 0, "F2")


@pytest.mark.parametrize("kind", ["impl", "spec", "checked"])
def test_a_gothello_move_turning_two_groups(kind: str) -> None:
    """Black's b1 takes the last liberty of white's a1 and of white's c1, two groups."""
    engine: Any = get_engine("gothello", kind)
    state = engine.initial()
    for token in ("a2", "a1", "c2", "c1", "d1", "pass", "b2", "pass"):
        _, state = engine.apply(state, engine.parse_move(token))
    move = engine.describe(state, engine.parse_move("b1"))
    assert move == MoveDescription(Side.FIRST, "b1", "b1", 0, ("a1", "c1"), 2, 3)
    passed = engine.describe(state, engine.parse_move("pass"))
    assert passed.passed and (passed.captured, passed.gained) == ((), 0)


@pytest.mark.parametrize("game", ["awari", "gothello"])
@pytest.mark.parametrize("kind", ["impl", "spec", "checked"])
def test_an_illegal_action_has_no_description(game: str, kind: str) -> None:
    engine: Any = get_engine(game, kind)
    state = engine.initial()
    action = engine.parse_move("a" if game == "awari" else "c3")  # north's pit; c3 is then occupied
    if game == "gothello":
        _, state = engine.apply(state, action)
    with pytest.raises(ValueError, match="not a legal move"):
        engine.describe(state, action)


class _Blind(ImplGothello):
    """A fast engine that never sees a capture."""

    def describe(self, state: Any, action: Any) -> MoveDescription:
        right = super().describe(state, action)
        return MoveDescription(right.mover, right.move, right.notation, 0, (), 0, 1)


def test_the_checked_engine_reports_a_wrong_description() -> None:
    found: list[Divergence] = []
    engine = CheckedEngine(_Blind(), get_engine("gothello", "spec"), found.append)
    state = engine.initial()
    for token in ("a2", "a1", "c2", "c1", "d1", "pass", "b2", "pass"):
        _, state = engine.apply(state, engine.parse_move(token))
    assert not found
    move = engine.describe(state, engine.parse_move("b1"))
    assert move.captured == ("a1", "c1")  # the spec's
    assert [(d.check, d.action) for d in found] == [("describe", "b1")]


@pytest.mark.parametrize("path", ["impl/pgn.py", "impl/web/views.py", "impl/web/feed.py", "impl/web/tap.py"])
def test_display_code_asks_the_engine_port(path: str) -> None:
    """PGN and the web view import neither the spec nor an engine's internals: what
    a move did comes from ``describe``, the board from ``cells`` and ``counts``."""
    tree = ast.parse((ROOT / path).read_text())
    imported = {n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    imported |= {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    internals = {"impl.engines.awari", "impl.engines.gothello", "impl.engines.spec_engine"}
    assert not {m for m in imported if m == "spec" or m.startswith("spec.") or m in internals}, path
