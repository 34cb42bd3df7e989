"""The two checks every differential test makes, for either game: an engine agrees
with the spec's referee on one step, and on everything else it shows of a state."""

from __future__ import annotations

from typing import Any


def check_step(spec: Any, engine: Any, g: Any, action: Any) -> None:
    """One referee step from the spec state ``g``: the same result and the same next
    state (compared as spec states), and from_spec / to_spec round-trip."""
    expected_result, expected_next = spec.apply(g, action)
    state = engine.from_spec(g)
    assert engine.to_spec(state) == g, "from_spec / to_spec round trip"
    result, after = engine.apply(state, action)
    assert result == expected_result, f"{action!r} in {g}"
    assert engine.to_spec(after) == expected_next, f"{action!r} in {g}"


def check_observers(spec: Any, engine: Any, g: Any) -> None:
    """Everything else the engine interface shows of a state."""
    state = engine.from_spec(g)
    assert engine.to_move(state) == spec.to_move(g)
    assert engine.is_over(state) == spec.is_over(g)
    assert engine.legal_moves(state) == spec.legal_moves(g)
    assert engine.counts(state) == spec.counts(g)
    assert engine.render(state) == spec.render(g)
