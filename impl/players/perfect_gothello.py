"""The perfect player's Gothello (issue #54; docs/tablebases.md, "Gothello solved"): as
black from the start, the certified opening (the committed certificate's book: the
winning first move and an answer to every reply, to its last ply); below it, the
compiled solver's move that keeps the position's value — within the move's budget of
nodes, or, where our last move kept a win or a draw, within what the caller allows
for keeping it (perfect_player.py: ``--keep``).  Elsewhere (a position the solver
cannot finish in time, or a lost one, where every move loses) it has no move, and the
perfect player searches."""

from __future__ import annotations

from functools import cache
from typing import Final

from impl.engines import gothello_solve as S
from impl.engines.gothello_certificate import COMMITTED, Certificate, Damaged
from impl.engines.kernels import GothelloState, code
from impl.engines.notation import parse_gothello
from spec import gothello as G


@cache
def _certificate() -> Certificate | None:
    """The committed certificate (its book: black's move at every position of its
    plies), or None if it cannot be read: the solver then plays from the first move."""
    try:
        return Certificate.load(COMMITTED)
    except (Damaged, OSError):
        return None


NODES_PER_SECOND: Final = 2_000_000
"""The solver's pace assumed for a budget in seconds (3–4 M a second measured on one
core here; less, so that a budget is kept on a slower machine)."""


NAMES: Final = S.NAMES


def _names(state: GothelloState) -> list[str]:
    """The game's moves from the start, by name."""
    moves: list[str] = []
    history: object = state[3]
    while isinstance(history, tuple):
        moves.append(NAMES[history[0]])
        history = history[1]
    return moves[::-1]


def _book(played: list[str]) -> str | None:
    cert = _certificate()
    if cert is None or cert.opening:
        return None
    return cert.first if not played else cert.book.get(" ".join(played))


def book(state: GothelloState) -> str | None:
    """The solve's opening move for this state, if the game has followed it."""
    return _book(_names(state))


class GothelloPerfect:
    """The solver's moves (one table for the game, kept between moves)."""

    def __init__(self, bits: int = S.BITS) -> None:
        lib = S.load()
        self.solver = None if lib is None else S.CSolver(lib, bits)
        self.kept: list[str] | None = None
        """The game's moves up to our last one, when that one kept the value of a
        position not lost (the book's, or the solver's): the position after any reply
        is then won (or drawn) for us, and solving it is worth more than a move's budget."""

    def move(self, state: GothelloState, seconds: float, keeping: float | None = None) -> str | None:
        """A move keeping the value of ``state`` (black's win, a draw), by the book or by
        the solver; None if there is none to be had.  The solver's budget is ``seconds``
        of nodes, or ``keeping`` (None: no bound) where our last move kept the value:
        past the book, black's first solve needs a few hundred million nodes
        (docs/tablebases.md), far beyond a move's share, and would otherwise be left to
        the search, which may give the win away."""
        played = _names(state)
        opening = _book(played)
        if opening is not None:
            self.kept = [*played, opening]
            return opening
        ours = self.kept is not None and len(played) == len(self.kept) + 1 and played[:-1] == self.kept
        self.kept = None
        if self.solver is None:
            return None
        allowed = keeping if ours else seconds
        self.solver.budget = None if allowed is None else max(1, int(allowed * NODES_PER_SECOND))
        sign = self.solver.search(state[0], state[1], S.passed(state), -1, 1)
        if sign is None or sign < 0:
            return None  # out of budget, or lost: every move loses, the search picks one
        target = min(sign, 1)
        for move in _ordered(self.solver, state):
            after = self.solver.move_value(state, move, target - 1, target)
            if after is None:
                return None
            if after >= target:
                self.kept = [*played, NAMES[code(move)]]
                return NAMES[code(move)]
        raise AssertionError(f"no move keeps the value {target:+d}")


def _ordered(solver: S.CSolver, state: GothelloState) -> list[G.MOVE]:
    """The legal moves by the solver's placement, placements first (a pass rarely
    keeps a win), then the pass (always legal while the game goes on)."""
    mine, theirs = state[0], state[1]
    codes = [i for i in range(25) if not (mine | theirs) >> i & 1 and S.after_placing(solver.lib, mine, theirs, i)]
    moves = [parse_gothello(NAMES[i]) for i in [*codes, S.PASS]]
    return [m for m in moves if m is not None]
