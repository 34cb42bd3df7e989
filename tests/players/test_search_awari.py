"""The Awari search's moves (impl/players/search_awari.py) are the engine's, under
the paper's rules and under other rule sets: each child the position the engine's
``apply`` reaches, each finished game valued in its result's direction."""

from __future__ import annotations

import random

import pytest

from impl.engines import awari as E
from impl.players.search import WIN
from impl.players.search_awari import root
from spec import awari as A
from spec import awari_rules as AR
from spec import result as R

RULE_SETS = ["paper", "abapa", "olympiad-1990", "olympiad-1994", "grand-slam=e"]


def _positions(engine: E.ImplAwari | E.RulesAwari, seed: int, count: int) -> list[E.AwariState]:
    """States of random games, the last ones near the end (where games finish)."""
    rng = random.Random(seed)
    states: list[E.AwariState] = []
    state = engine.initial()
    while len(states) < count:
        moves = engine.legal_moves(state)
        if engine.is_over(state) or not moves:
            state = engine.initial()
            continue
        states.append(state)
        state = engine.apply(state, rng.choice(moves))[1]
    return states


@pytest.mark.parametrize("rules", RULE_SETS)
def test_the_searchs_children_are_the_engines_moves(rules: str) -> None:
    engine = E.engine_for(AR.parse_rules(rules))
    for state in _positions(engine, len(rules), 400):
        _, children = root(state, engine)
        legal = {pit: engine.apply(state, pit) for pit in engine.legal_moves(state)}
        assert {A.PIT(6 * E.mover(state) + E._SHIFTS.index(c[0])) for c in children} == set(legal)
        me = E.player_to_move(state)
        for shift, after, value, _ in children:
            result, reached = legal[A.PIT(6 * E.mover(state) + E._SHIFTS.index(shift))]
            if after is not None:
                assert result == R.not_done and after == reached[:3]
            elif result == R.win(me):
                assert value > WIN
            elif result == R.draw:
                assert value == 0
            else:
                assert value < -WIN
