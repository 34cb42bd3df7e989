"""All four engines satisfy the engine interface (impl/engines/port.py): statically, by
the assignments below that mypy --strict checks, and at run time."""

from __future__ import annotations

from typing import Any

import pytest

from impl.engines import _build
from impl.engines.awari import AwariState, ImplAwari
from impl.engines.gothello import GothelloState, ImplGothello
from impl.engines.port import GAMES, KINDS, Engine, Refinement
from impl.engines.registry import get_engine
from impl.engines.spec_engine import SpecAwari, SpecGothello
from spec import awari as A
from spec import gothello as G

SPEC_AWARI: Engine[A.AwariGame, A.PIT, A.PLAYER] = SpecAwari()
IMPL_AWARI: Engine[AwariState, A.PIT, A.PLAYER] = ImplAwari()
SPEC_GOTHELLO: Engine[G.GothelloGame, G.MOVE, G.PLAYER] = SpecGothello()
IMPL_GOTHELLO: Engine[GothelloState, G.MOVE, G.PLAYER] = ImplGothello()
SPEC_AWARI_REFINES: Refinement[A.AwariGame, A.AwariGame] = SpecAwari()
IMPL_AWARI_REFINES: Refinement[AwariState, A.AwariGame] = ImplAwari()
SPEC_GOTHELLO_REFINES: Refinement[G.GothelloGame, G.GothelloGame] = SpecGothello()
IMPL_GOTHELLO_REFINES: Refinement[GothelloState, G.GothelloGame] = ImplGothello()

MEMBERS = [
    "game",
    "kind",
    "players",
    "initial",
    "to_move",
    "apply",
    "legal_moves",
    "why_illegal",
    "is_over",
    "counts",
    "parse_move",
    "format_move",
    "render",
    "cells",
    "describe",
    "to_spec",
    "from_spec",
]


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("kind", KINDS)
def test_registry_gives_each_engine(game: str, kind: str) -> None:
    engine: Any = get_engine(game, kind)
    assert (engine.game, engine.kind) == (game, kind)
    for name in MEMBERS:
        assert hasattr(engine, name), name
    spec = get_engine(game, "spec")
    assert engine.players == spec.players
    assert engine.to_spec(engine.initial()) == spec.initial()
    assert engine.to_move(engine.initial()) == engine.players[0]
    assert engine.from_spec(engine.to_spec(engine.initial())) == engine.initial()


def test_registry_refuses_unknown_engines() -> None:
    with pytest.raises(ValueError):
        get_engine("chess", "impl")
    with pytest.raises(ValueError):
        get_engine("awari", "fast")


def test_compiled_build_is_current() -> None:
    """A mypyc build of the fast engines (python -m impl.engines._build) shadows the sources:
    it must have been built from the sources as they are now."""
    assert _build.stale() == [], "the compiled engines are stale: run `python -m impl.engines._build` (or --clean)"
    for game in ("awari", "gothello"):
        assert _build.build_of(game) in ("mypyc", "python")
        pure = _build.load_source(game)
        assert str(pure.__file__).endswith(f"{game}.py")
