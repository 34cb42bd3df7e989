"""The principal variation past what a checkpoint proves, to the game's end (issue #54;
docs/tablebases.md, "The principal variation"): from a position whose value v (the
mover's margin) is proven, each ply a move of the proven engine whose position after
it the compiled solver shows is worth at most −v to the other side: the move then
gets the mover at least v, and v being the value, exactly v.
The solver's window on the mover first, (v − 1, v), leaves its best move in the table
to be tried first; the proof of each ply is the child's own window, (−v, −v + 1)."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from impl.apps.solve import best_action, interruptible
from impl.apps.solve_bounds import Proof, Report, state_of
from impl.cli import UsageError, failed
from impl.engines import gothello_solve as S
from impl.engines.gothello_certificate import position
from impl.engines.kernels import GothelloState


class Unproven(Exception):
    """No move keeps the value given: it was not the position's value."""


@dataclass(frozen=True)
class Ply:
    """A move of the line, the mover's margin it keeps, and the solver's cost of it."""

    name: str
    value: int
    nodes: int
    seconds: float


def best_first(solver: S.CSolver, moves: list[tuple[str, GothelloState]], state: GothelloState) -> list[int]:
    """The indices of ``moves`` with the table's best action for ``state`` first."""
    best = best_action(solver, position(state))
    name = None if best is None else S.NAMES[best]
    return sorted(range(len(moves)), key=lambda i: moves[i][0] != name)


def extended(
    solver: S.CSolver, proof: Proof, state: GothelloState, value: int, say: Callable[[Ply], None] = lambda _: None
) -> Iterator[Ply]:
    """The moves from ``state``, whose mover's margin is ``value``, that keep it to the
    game's end, each proven by the child's null window (module docstring); Unproven
    where none keeps it."""
    while proof.over(state) is None:
        _, nodes, seconds = solver.measured(position(state), value - 1, value)  # for the order only
        moves = proof.children(state)
        for i in best_first(solver, moves, state):
            name, child = moves[i]
            end = proof.over(child)
            if end is not None:
                kept = end <= -value  # the game over: the other side's margin is known
            else:
                g, n, s = solver.measured(position(child), -value, 1 - value)
                nodes, seconds, kept = nodes + n, seconds + s, g <= -value
            if kept:
                ply = Ply(name, value, nodes, seconds)
                say(ply)
                yield ply
                state, value = child, -value
                break
        else:
            raise Unproven(f"no move keeps {value:+d} for the side to move")


def run(report: Report, bits: int) -> int:
    """``solve --bounds --line``: the report's proven line from the start gone on with
    to the game's end, by a solver with a table of 2^(bits+1) entries; each ply's cost
    on stderr as it comes."""
    value, most = report.start
    if value != most:
        return failed("referee tablebase solve", "--line: the start's value is not proven yet, so no line keeps it")
    proven = report.line
    lib = S.load()
    if lib is None:
        raise UsageError("referee tablebase solve: no C compiler here to build the solver")
    proof, state = Proof({}, 0), state_of((0, 0, 0))
    for name in proven:
        state = dict(proof.children(state))[name]
    mover = len(proven) % 2
    sides = ("black", "white")

    def said(ply: Ply) -> None:
        nonlocal mover
        print(f"{sides[mover]} {ply.name}: keeps {ply.value:+d}  ({ply.nodes:,} nodes, {ply.seconds:.1f} CPU-s)",
              file=sys.stderr, flush=True)  # fmt: skip
        mover ^= 1

    interruptible()
    try:
        plies = list(extended(S.CSolver(lib, bits), proof, state, value if len(proven) % 2 == 0 else -value, said))
    except Unproven as exc:
        return failed("referee tablebase solve", f"--line: {exc}")
    except KeyboardInterrupt:
        return failed("referee tablebase solve", "--line: interrupted", 130)
    except MemoryError as exc:
        return failed("referee tablebase solve", f"{exc}: a smaller --table-bits")
    names = " ".join((*proven, *(p.name for p in plies)))
    print(f"the principal variation to the game's end ({len(proven)} plies by the answers, "
          f"{len(plies)} by the compiled solver: {sum(p.nodes for p in plies):,} nodes, "
          f"{sum(p.seconds for p in plies):,.1f} CPU-s): {names}")  # fmt: skip
    return 0
