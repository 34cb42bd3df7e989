"""Rules that mutants of impl/gothello.py survived in the other tests (make mutate,
docs/mutation-report.md names each mutant), stated for the spec's referee and every
fast engine alike."""

from __future__ import annotations

from typing import Any

import pytest

from impl.spec_engine import SpecGothello
from spec import result as R
from spec.gothello import PLAYER, pass_

from .gothello_states import game
from .strategies import impl_engines

ENGINES: list[Any] = [SpecGothello(), *impl_engines("gothello")]


def _two_passes(engine: Any, stones: dict[str, str]) -> Any:
    """Black passes, then white: the game's result (GothelloGameOver)."""
    state = engine.from_spec(game(stones, PLAYER.black))
    first, state = engine.apply(state, pass_)
    assert first == R.not_done
    result, state = engine.apply(state, pass_)
    assert engine.is_over(state)
    return result


@pytest.mark.parametrize("engine", ENGINES, ids=lambda e: f"{e.kind}")
@pytest.mark.parametrize(
    "stones",
    [{}, {"a1": "b", "e5": "w"}, {"a1": "b", "a2": "b", "c3": "w", "e5": "w"}],
    ids=["empty", "one-each", "two-each"],
)
def test_two_passes_with_equal_counts_draw(engine: Any, stones: dict[str, str]) -> None:
    """Two passes in succession end the game; with as many black stones as white ones
    on the board neither player has more, so it is a draw (kills ``b > w`` → ``b >= w``
    in ``_count_result``)."""
    assert _two_passes(engine, stones) == R.draw


@pytest.mark.parametrize("engine", ENGINES, ids=lambda e: f"{e.kind}")
def test_two_passes_one_stone_ahead_wins(engine: Any) -> None:
    """One stone more is enough to win, for either colour."""
    assert _two_passes(engine, {"a1": "b", "a2": "b", "e5": "w"}) == R.win(PLAYER.black)
    assert _two_passes(engine, {"a1": "b", "d5": "w", "e5": "w"}) == R.win(PLAYER.white)
