"""Boards ranked by the combinatorial number system.

A board is the twelve pits seen from the side to move: ``pits[0:6]`` its own row
(pit j of the row: north a–f, south A–F, as impl/engines/awari.py's packed rows),
``pits[6:12]`` the opponent's.  A board of n stones is a composition of n into 12
parts; the 11 bars between the parts sit at ``c_k = p_0 + … + p_(k-1) + k - 1``
(k = 1 … 11) among n + 11 places, and the board's rank is ``Σ C(c_k, k)`` — a
bijection onto ``range(C(n + 11, 11))`` (Knuth, *The Art of Computer Programming*
7.2.1.3, the combinatorial number system).
"""

from __future__ import annotations

from functools import cache
from math import comb

PITS = 12
Board = tuple[int, ...]
"""Twelve pit counts, the mover's row first."""


@cache
def level_size(n: int) -> int:
    """The boards of n stones: C(n + 11, 11)."""
    return comb(n + PITS - 1, PITS - 1)


def rank(pits: Board) -> int:
    """The rank of a board among the boards of its stone count."""
    r = 0
    c = -1
    for k in range(1, PITS):
        c += pits[k - 1] + 1
        r += comb(c, k)
    return r


def unrank(r: int, n: int) -> Board:
    """The board of n stones of rank r (``rank``'s inverse)."""
    bars = [0] * PITS
    for k in range(PITS - 1, 0, -1):
        c = k - 1
        while comb(c + 1, k) <= r:
            c += 1
        bars[k] = c
        r -= comb(c, k)
    pits = []
    prev = -1
    for k in range(1, PITS):
        pits.append(bars[k] - prev - 1)
        prev = bars[k]
    pits.append(n + PITS - 2 - prev)
    return tuple(pits)


def boards(n: int) -> list[Board]:
    """Every board of n stones, in rank order."""
    return [unrank(r, n) for r in range(level_size(n))]


def mirror(pits: Board) -> Board:
    """The board seen from the other side: the rows swapped."""
    return pits[6:] + pits[:6]
