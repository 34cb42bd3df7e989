"""Engine lookup by game and kind: ``get_engine("gothello", "impl")``.

``FACTORIES`` holds how each (game, kind) of the two implementations is made; the
kind ``checked`` is not a third implementation but the two composed
(impl/engines/checked_engine.py), so it follows whatever ``FACTORIES`` says for ``impl`` and
``spec`` (the tests plant a deliberately wrong fast engine there)."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

from .port import GAMES, KINDS, GameEngine

if TYPE_CHECKING:
    from spec.awari_rules import AwariRules


def _spec(game: str) -> GameEngine:
    from . import spec_engine

    return spec_engine.SpecAwari() if game == "awari" else spec_engine.SpecGothello()


def _impl(game: str) -> GameEngine:
    module = importlib.import_module(f"impl.engines.{game}")
    engine: GameEngine = module.ImplAwari() if game == "awari" else module.ImplGothello()
    return engine


FACTORIES: dict[tuple[str, str], Callable[[], GameEngine]] = {
    (game, kind): partial(make, game) for game in GAMES for (kind, make) in (("spec", _spec), ("impl", _impl))
}


def _ruled(kind: str, ruleset: AwariRules) -> GameEngine:
    """An Awari engine of ``kind`` (spec | impl) under a rule set other than the paper's."""
    from . import awari, spec_engine

    return spec_engine.SpecAwari(ruleset) if kind == "spec" else awari.engine_for(ruleset)


def get_engine(game: str, kind: str = "impl", rules: str | AwariRules = "paper") -> GameEngine:
    """The engine for ``game`` (awari | gothello) of ``kind`` (spec | impl | checked),
    under the rule set ``rules`` — an ``AwariRules`` or any text spec/awari_rules.py's
    ``parse_rules`` reads (RulesError, a ValueError, otherwise); Gothello has only
    ``paper``.  The game is chosen at run time, hence the game-erased ``GameEngine``."""
    from spec.awari_rules import PAPER, parse_rules

    if game not in GAMES or kind not in KINDS:
        raise ValueError(f"unknown engine {game}/{kind}: games {GAMES}, kinds {KINDS}")
    ruleset = parse_rules(rules) if isinstance(rules, str) else rules
    if ruleset != PAPER and game != "awari":
        raise ValueError(f"unknown {game} rules {ruleset.name!r}: {game} has only the paper's")

    def make(k: str) -> GameEngine:
        return FACTORIES[game, k]() if ruleset == PAPER else _ruled(k, ruleset)

    if kind == "checked":
        from .checked_engine import CheckedEngine

        return CheckedEngine(make("impl"), make("spec"))
    return make(kind)


def rules_name(text: str) -> str:
    """The canonical name of the Awari rule set ``text`` names (spec/awari_rules.py
    ``canonical``); RulesError, a ValueError, for a text its parser refuses.  The
    one place outside the engines that need a rule set's name ask."""
    from spec.awari_rules import canonical

    return canonical(text)
