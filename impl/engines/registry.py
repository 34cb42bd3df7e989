"""Engine lookup by game and kind: ``get_engine("gothello", "impl")``.

``FACTORIES`` holds how each (game, kind) of the two implementations is made; the
kind ``checked`` is not a third implementation but the two composed
(impl/engines/checked_engine.py), so it follows whatever ``FACTORIES`` says for ``impl`` and
``spec`` (the tests plant a deliberately wrong fast engine there)."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any, cast

from impl.game import PAPER_RULES, rules_name

from .port import GAMES, KINDS, Engine, GameEngine

if TYPE_CHECKING:
    from spec.awari_rules import AwariRules


def _spec(game: str) -> Engine[Any, Any, Any]:
    from . import spec_engine

    return spec_engine.SpecAwari() if game == "awari" else spec_engine.SpecGothello()


def _impl(game: str) -> Engine[Any, Any, Any]:
    module = importlib.import_module(f"impl.engines.{game}")
    engine: Engine[Any, Any, Any] = module.ImplAwari() if game == "awari" else module.ImplGothello()
    return engine


FACTORIES: dict[tuple[str, str], Callable[[], Engine[Any, Any, Any]]] = {
    (game, kind): partial(make, game) for game in GAMES for (kind, make) in (("spec", _spec), ("impl", _impl))
}


def _ruled(kind: str, ruleset: AwariRules) -> Engine[Any, Any, Any]:
    """An Awari engine of ``kind`` (spec | impl) under a rule set other than the paper's."""
    from . import awari, spec_engine

    return spec_engine.SpecAwari(ruleset) if kind == "spec" else awari.engine_for(ruleset)


def get_engine(game: str, kind: str = "impl", rules: str | AwariRules = PAPER_RULES) -> GameEngine:
    """The engine for ``game`` (awari | gothello) of ``kind`` (spec | impl | checked),
    under the rule set ``rules`` — an ``AwariRules`` or any text impl/game.py's
    ``rules_name`` reads (its ValueError otherwise: Gothello has only ``paper``) —
    carrying the rule set's canonical name (``rule_set``).  The game is chosen at
    run time, hence the game-erased ``GameEngine``."""
    from spec.awari_rules import PAPER, canonical_name, parse_rules

    if game not in GAMES or kind not in KINDS:
        raise ValueError(f"unknown engine {game}/{kind}: games {GAMES}, kinds {KINDS}")
    ruleset = parse_rules(rules_name(game, rules if isinstance(rules, str) else canonical_name(rules)))

    def make(k: str) -> Engine[Any, Any, Any]:
        return FACTORIES[game, k]() if ruleset == PAPER else _ruled(k, ruleset)

    if kind == "checked":
        from .checked_engine import CheckedEngine

        return _named(CheckedEngine(make("impl"), make("spec")), ruleset.name)
    return _named(make(kind), ruleset.name)


def _named(engine: Engine[Any, Any, Any], name: str) -> GameEngine:
    """``engine``, carrying the name of its rule set: an attribute of the instance,
    so that the engines' own code (which a proof's fingerprint covers) stays as it is."""
    setattr(engine, "rule_set", name)  # noqa: B010 — the engine classes do not declare it
    return cast(GameEngine, engine)
