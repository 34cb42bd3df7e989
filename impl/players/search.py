"""Iterative-deepening alpha-beta (negamax) with a transposition table and move
ordering, for any game that gives its positions as ``Rules``; the two games'
rules on the fast engines' internals are in search_awari.py and search_gothello.py.

Values are from the point of view of the player to move.  A game's end is worth
±WIN plus the final margin, so that any win beats any evaluation and a bigger win
beats a smaller one; a draw is 0.
"""

from __future__ import annotations

import time
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

WIN = 1_000_000
"""A won game's value, before the margin is added."""
INFINITY = 10 * WIN
EXACT, LOWER, UPPER = 0, 1, 2
"""Transposition-table bounds: the value is exact, at least, or at most."""

Child = tuple[int, Any, int, int]
"""(move id, the position after it or None if the move ends the game, the move's
value for the mover if it ends the game, an ordering score: higher first)."""


class Rules(Protocol):
    """A game's positions, as the search needs them."""

    def key(self, pos: Any) -> Hashable:
        """The transposition-table key of a position."""
        ...

    def evaluate(self, pos: Any) -> int:
        """A heuristic value for the player to move (|value| < WIN)."""
        ...

    def children(self, pos: Any) -> list[Child]:
        """Every legal move of a position where the game goes on (at least one)."""
        ...


def final_value(margin: int) -> int:
    """The value of a finished game, for a player ahead by ``margin``."""
    if margin > 0:
        return WIN + margin
    if margin < 0:
        return -WIN + margin
    return 0


@dataclass(frozen=True)
class SearchInfo:
    """What one search found, and how fast."""

    move: int
    value: int
    depth: int
    """The deepest iteration that completed."""
    nodes: int
    seconds: float
    solved: bool
    """The value is a proven game result (a win or a loss)."""

    @property
    def nodes_per_second(self) -> float:
        return self.nodes / self.seconds if self.seconds > 0 else 0.0


class _Timeout(Exception):
    """The budget ran out in the middle of an iteration."""


class Searcher:
    """One search at a time over ``rules``, within a time budget."""

    def __init__(self, rules: Rules, max_depth: int = 64) -> None:
        self.rules, self.max_depth = rules, max_depth
        self.tt: dict[Hashable, tuple[int, int, int, int]] = {}
        self.history: dict[int, int] = {}
        self.nodes = 0
        self._deadline = 0.0
        self._timed = False
        self._improved: tuple[int, int] | None = None
        """During an iteration: a root move that beat the first (the previous best)."""

    def search(self, root: Sequence[Child], budget: float, max_depth: int | None = None) -> SearchInfo:
        """The best of the root moves ``root`` (the legal moves of the position),
        deepening one ply at a time until ``budget`` seconds are spent, the result
        is proven, or ``max_depth`` is reached.  The first iteration always completes."""
        start = time.monotonic()
        self.tt.clear()
        self.history.clear()
        self.nodes = 0
        self._deadline = start + budget
        limit = min(max_depth or self.max_depth, self.max_depth)
        moves = sorted(root, key=lambda c: -c[3])
        best, value, depth = moves[0][0], 0, 0
        for d in range(1, limit + 1):
            self._timed = d > 1
            try:
                value, order = self._root(moves, d)
            except _Timeout:
                if self._improved is not None:  # beat the previous best, searched first
                    value, best = self._improved
                break
            best, depth = order[0][0], d
            moves = order
            elapsed = time.monotonic() - start
            if abs(value) >= WIN or len(moves) == 1 or elapsed * 3 > budget:
                break  # proven; forced; or the next iteration would not finish
        seconds = time.monotonic() - start
        return SearchInfo(best, value, depth, self.nodes, seconds, abs(value) >= WIN)

    def _root(self, moves: list[Child], depth: int) -> tuple[int, list[Child]]:
        """One iteration over the root moves, best first; the moves reordered by value."""
        alpha = -INFINITY
        scored = []
        self._improved = None
        for move, child, term, _ in moves:
            value = term if child is None else -self._negamax(child, depth - 1, -INFINITY, -alpha)
            scored.append((value, move, child, term))
            if value > alpha and len(scored) > 1:
                self._improved = (value, move)
            alpha = max(alpha, value)
        # Stable: among equal values the earlier (previously better) move stays first.
        order = sorted(range(len(scored)), key=lambda i: -scored[i][0])
        return scored[order[0]][0], [(scored[i][1], scored[i][2], scored[i][3], 0) for i in order]

    def _negamax(self, pos: Any, depth: int, alpha: int, beta: int) -> int:
        self.nodes += 1
        if self._timed and not self.nodes & 1023 and time.monotonic() > self._deadline:
            raise _Timeout
        if depth == 0:
            return self.rules.evaluate(pos)
        key = self.rules.key(pos)
        entry = self.tt.get(key)
        hint = -1
        if entry is not None:
            e_depth, flag, e_value, hint = entry
            if e_depth >= depth and (
                flag == EXACT or (flag == LOWER and e_value >= beta) or (flag == UPPER and e_value <= alpha)
            ):
                return e_value
        history = self.history
        children = self.rules.children(pos)
        children.sort(key=lambda c: -(INFINITY if c[0] == hint else c[3] + history.get(c[0], 0)))
        alpha0, best, best_move = alpha, -INFINITY, -1
        for move, child, term, _ in children:
            value = term if child is None else -self._negamax(child, depth - 1, -beta, -alpha)
            if value > best:
                best, best_move = value, move
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        history[move] = history.get(move, 0) + depth * depth
                        break
        flag = UPPER if best <= alpha0 else LOWER if best >= beta else EXACT
        self.tt[key] = (depth, flag, best, best_move)
        return best
