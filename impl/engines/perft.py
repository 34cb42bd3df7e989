"""perft, the move-generator benchmark, for both games and both engines.

    python -m impl.engines.perft {awari|gothello} DEPTH [--engine spec|impl|checked] [--divide]

Definition (issue 3).  perft(s, d) counts the sequences of d actions from s in
which every action is accepted by the referee (its result is not illegal_move) and
no action before the last ends the game (its result is not_done):

    perft(s, 0) = 1
    perft(s, d) = Σ { (r, s') = referee(s, a) | a accepted in s } •
                      1                 if d = 1
                      perft(s', d - 1)  if d > 1 and r = not_done
                      0                 otherwise

and perft(s, d) = 0 for d ≥ 1 when the game is over in s (no action is accepted:
``legal_moves`` is empty).  So a game-ending action counts only as the last one, and
terminal positions are not expanded.  In Gothello ``pass`` is an action at every
node (a pass after an accepted pass ends the game).

Repetition: perft follows the referee and nothing else.  The state carries Awari's
``positions`` exactly as the referee records them, so a sowing that repeats a
position ends the game (NoMove) like any other game-ending move; perft itself never
merges transpositions or cuts the tree on a repeated position ("repetition is
ignored" in issue 3's sense).  Since it follows the referee exactly, the spec and
the fast engine must give the same counts.

Two implementations:
* ``perft`` over the engine interface alone: every action of the game is tried
  with ``apply`` and the accepted ones are followed (``legal_moves`` would call the
  referee once more per action).  The spec is measured this way.
* The checked engine (impl/engines/checked_engine.py) walks the same way, every action of
  every node going to the spec and the fast engine; its divergences are logged, and
  counted in the last line of output (the exit status is then 1).
* ``fast_perft``, the fast engines' own (``impl.engines.awari.perft``,
  ``impl.engines.gothello.perft``): the same tree walked over their internals, every move
  to a leaf made in full (no counting of the last ply, no transposition table).
"""

from __future__ import annotations

import argparse
import signal
import time
from collections.abc import Sequence
from typing import Any

from impl.log import setup_logging
from spec import awari as A
from spec import gothello as G
from spec import result as R

from .checked_engine import CheckedEngine
from .port import KINDS, AnyEngine, GameEngine, GameState
from .registry import get_engine

ACTIONS: dict[str, tuple[Any, ...]] = {
    "awari": tuple(A.PIT),
    "gothello": (*(G.move((f, r)) for f in range(1, 6) for r in range(1, 6)), G.pass_),
}
"""Every action of each game, in the order of ``legal_moves``."""


def perft(engine: AnyEngine, state: GameState, depth: int) -> int:
    """perft(state, depth) through the engine interface."""
    if depth == 0:
        return 1
    if engine.is_over(state):
        return 0
    return _perft(engine, ACTIONS[engine.game], state, depth)


def _perft(engine: AnyEngine, actions: Sequence[Any], state: GameState, depth: int) -> int:
    """perft of a state where the game goes on (after not_done it always does)."""
    total = 0
    for action in actions:
        result, after = engine.apply(state, action)
        if result == R.illegal_move:
            continue
        if depth == 1:
            total += 1
        elif result == R.not_done:
            total += _perft(engine, actions, after, depth - 1)
    return total


def fast_perft(game: str, state: GameState, depth: int) -> int:
    """perft(state, depth) by the fast engine's internals (state an impl state)."""
    if game == "awari":
        from . import awari

        return awari.perft(state, depth)
    from . import gothello

    return gothello.perft(state, depth)


def count(game: str, kind: str, depth: int, engine: GameEngine | None = None) -> int:
    """perft(initial, depth) by the spec or the checked engine (generic) or the impl
    (fast); ``engine`` is the one to use, if already made."""
    engine = engine if engine is not None else get_engine(game, kind)
    if kind == "impl":
        return fast_perft(game, engine.initial(), depth)
    return perft(engine, engine.initial(), depth)


def divide(game: str, kind: str, depth: int, engine: GameEngine | None = None) -> list[tuple[str, int]]:
    """perft split by first action: (action in the papers' notation, count below it)."""
    engine = engine if engine is not None else get_engine(game, kind)
    state = engine.initial()
    rows: list[tuple[str, int]] = []
    if depth == 0 or engine.is_over(state):
        return rows
    for action in ACTIONS[game]:
        result, after = engine.apply(state, action)
        if result == R.illegal_move:
            continue
        if depth == 1:
            below = 1
        elif result != R.not_done:
            below = 0
        elif kind == "impl":
            below = fast_perft(game, after, depth - 1)
        else:
            below = perft(engine, after, depth - 1)
        rows.append((engine.format_move(action), below))
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m impl.engines.perft", description="perft for Awari and Gothello")
    parser.add_argument("game", choices=("awari", "gothello"))
    parser.add_argument("depth", type=int)
    parser.add_argument("--engine", choices=KINDS, default="impl")
    parser.add_argument("--divide", action="store_true", help="print the count below each first move")
    args = parser.parse_args(argv)
    if args.depth < 0:
        parser.error("DEPTH must be ≥ 0")
    setup_logging("warning")  # a checked engine's divergences, as JSON lines on stderr
    engine = get_engine(args.game, args.engine)
    start = time.perf_counter()
    if args.divide:
        rows = divide(args.game, args.engine, args.depth, engine)
        for move, below in rows:
            print(f"{move} {below}")
        total = sum(below for _, below in rows) if args.depth > 0 else 1
    else:
        total = count(args.game, args.engine, args.depth, engine)
    seconds = time.perf_counter() - start
    from ._build import build_of

    print(f"perft({args.depth}) = {total}")
    rate = f", {total / seconds:,.0f} leaves/s" if seconds > 0 else ""
    kinds = ("impl", "spec") if args.engine == "checked" else (args.engine,)
    build = ", ".join(build_of(args.game, k) for k in kinds)
    print(f"[{args.game} {args.engine} ({build}): {seconds:.3f} s{rate}]")
    if isinstance(engine, CheckedEngine):
        print(f"divergences: {engine.count}")
        return 1 if engine.count else 0
    return 0


if __name__ == "__main__":
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # `perft … | head`: end as Unix tools do, no traceback
    raise SystemExit(main())
