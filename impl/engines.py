"""Engine lookup by game and kind: ``get_engine("gothello", "impl")``."""

from __future__ import annotations

import importlib
from typing import Any

from .engine import GAMES, KINDS


def get_engine(game: str, kind: str = "impl") -> Any:
    """The engine for ``game`` (awari | gothello) of ``kind`` (spec | impl).

    Typed ``Any`` because the two games' engines have different state and action
    types; each satisfies ``impl.engine.Engine`` for its own (checked in
    tests/test_engine_interface.py)."""
    if game not in GAMES or kind not in KINDS:
        raise ValueError(f"unknown engine {game}/{kind}: games {GAMES}, kinds {KINDS}")
    if kind == "spec":
        from . import spec_engine

        return spec_engine.SpecAwari() if game == "awari" else spec_engine.SpecGothello()
    module = importlib.import_module(f"impl.{game}")
    return module.ImplAwari() if game == "awari" else module.ImplGothello()
