"""Engine lookup by game and kind: ``get_engine("gothello", "impl")``."""

from __future__ import annotations

import importlib

from .engine import GAMES, KINDS, GameEngine


def get_engine(game: str, kind: str = "impl") -> GameEngine:
    """The engine for ``game`` (awari | gothello) of ``kind`` (spec | impl).  The
    game is chosen at run time, hence the game-erased ``GameEngine``."""
    if game not in GAMES or kind not in KINDS:
        raise ValueError(f"unknown engine {game}/{kind}: games {GAMES}, kinds {KINDS}")
    if kind == "spec":
        from . import spec_engine

        return spec_engine.SpecAwari() if game == "awari" else spec_engine.SpecGothello()
    module = importlib.import_module(f"impl.{game}")
    engine: GameEngine = module.ImplAwari() if game == "awari" else module.ImplGothello()
    return engine
