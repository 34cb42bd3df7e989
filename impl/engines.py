"""Engine lookup by game and kind: ``get_engine("gothello", "impl")``.

``FACTORIES`` holds how each (game, kind) of the two implementations is made; the
kind ``checked`` is not a third implementation but the two composed
(impl/checked_engine.py), so it follows whatever ``FACTORIES`` says for ``impl`` and
``spec`` (the tests plant a deliberately wrong fast engine there)."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from functools import partial
from typing import Any

from .engine import GAMES, KINDS


def _spec(game: str) -> Any:
    from . import spec_engine

    return spec_engine.SpecAwari() if game == "awari" else spec_engine.SpecGothello()


def _impl(game: str) -> Any:
    module = importlib.import_module(f"impl.{game}")
    return module.ImplAwari() if game == "awari" else module.ImplGothello()


FACTORIES: dict[tuple[str, str], Callable[[], Any]] = {
    (game, kind): partial(make, game) for game in GAMES for (kind, make) in (("spec", _spec), ("impl", _impl))
}


def get_engine(game: str, kind: str = "impl") -> Any:
    """The engine for ``game`` (awari | gothello) of ``kind`` (spec | impl | checked).

    Typed ``Any`` because the two games' engines have different state and action
    types; each satisfies ``impl.engine.Engine`` for its own (checked in
    tests/test_engine_interface.py)."""
    if game not in GAMES or kind not in KINDS:
        raise ValueError(f"unknown engine {game}/{kind}: games {GAMES}, kinds {KINDS}")
    if kind == "checked":
        from .checked_engine import CheckedEngine

        return CheckedEngine(FACTORIES[game, "impl"](), FACTORIES[game, "spec"]())
    return FACTORIES[game, kind]()
