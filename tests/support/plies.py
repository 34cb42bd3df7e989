"""Records' plies for tests that have only a game's tokens: each move described by
the fast engine as it is played, as a session's ``MoveMade`` events describe it
(impl/server/session.py).  A test may replay a game; the record writer
(impl/pgn.py ``record``) never does."""

from __future__ import annotations

from collections.abc import Sequence

from impl.engines.registry import get_engine
from impl.game import PAPER_RULES
from impl.pgn import Ply


def plies(
    game: str, moves: Sequence[str], clocks: Sequence[float] | None = None, rules: str = PAPER_RULES
) -> tuple[Ply, ...]:
    """``moves`` (legal, in order) with their movetext and the movers' ``clocks``."""
    engine = get_engine(game, "impl", rules)
    state, out = engine.initial(), []
    times: Sequence[float | None] = [None] * len(moves) if clocks is None else clocks
    for move, clock in zip(moves, times, strict=True):
        action = engine.parse_move(move)
        out.append(Ply(move, engine.describe(state, action).notation, clock))
        state = engine.apply(state, action)[1]
    return tuple(out)
