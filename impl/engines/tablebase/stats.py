"""Per-level statistics of a table (Syzygy's per-table statistics): how many boards
of n stones the side to move wins, draws and loses by the table, its largest margin,
and the longest forced line with one board that needs it — the numbers a reader
checks a table by, and where to look for its hardest positions."""

from __future__ import annotations

import sys
from array import array
from dataclasses import dataclass

from . import bounds, store
from .index import Board, level_size, unrank
from .probe import Table


@dataclass(frozen=True)
class LevelStats:
    """One level's counts: ``wins + draws + losses == boards``."""

    stones: int
    boards: int
    wins: int
    """Boards the side to move wins (margin > 0)."""
    draws: int
    losses: int
    best: int
    """The largest margin the side to move forces on a board of the level."""
    longest: int | None
    """The most plies the side ahead needs to force its margin (None: no distances)."""
    longest_board: Board | None
    """A board that needs them (the first by rank)."""
    exact: int | None = None
    """Under an own-row rule set, the boards whose two bounds agree (bounds.py): the
    referee's value known there; None for a table without bounds."""


def level_stats(table: Table, n: int) -> LevelStats:
    """The statistics of level ``n`` (≤ ``table.stones``), read from the verified level
    in memory: one count per margin value (2n + 1 passes of ``bytes.count``)."""
    size = level_size(n)
    values = table.levels[n][store.HEADER_SIZE : store.HEADER_SIZE + size]
    counts = {m: values.count(bytes([m & 255])) for m in range(-n, n + 1)}
    longest = longest_board = None
    if table.distances is not None:
        distances = array("H")
        distances.frombytes(table.distances[n][store.HEADER_SIZE : store.HEADER_SIZE + 2 * size])
        if sys.byteorder == "big":  # the files are little-endian
            distances.byteswap()
        longest = max(distances, default=0)
        longest_board = unrank(distances.index(longest), n) if size else None
    exact = None
    if table.bounds is not None:
        hi, lo = (table.bounds[kind][n][store.HEADER_SIZE : store.HEADER_SIZE + size] for kind in ("hi", "lo"))
        exact = bounds.exact_count(hi, lo)
    return LevelStats(
        exact=exact,
        stones=n,
        boards=size,
        wins=sum(c for m, c in counts.items() if m > 0),
        draws=counts[0],
        losses=sum(c for m, c in counts.items() if m < 0),
        best=max((m for m, c in counts.items() if c), default=0),
        longest=longest,
        longest_board=longest_board,
    )


def table_stats(table: Table) -> list[LevelStats]:
    """Every level's statistics, 0 … ``table.stones``."""
    return [level_stats(table, n) for n in range(table.stones + 1)]
