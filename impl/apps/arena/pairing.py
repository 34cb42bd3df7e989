"""A round's pairings (docs/arena.md, "Rounds"): the players waiting, sorted by
rating with a random offset (CGOS's way: close ratings meet, not always the same
ones), each paired with the nearest one after it that can take the other side and
is not the opponent it met last (never the same pair twice running: a player
whose only match is its last opponent waits for the next round).  Sides: a player who
asked for one gets it; between two who asked for either, the one who has played
the first side less often takes it.  Pure: the randomness is passed in."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from impl.protocol import Seat

SPREAD = 100.0
"""The random offset's standard deviation, in Elo."""


@dataclass(frozen=True)
class Waiter:
    """One connection waiting for a game: ``ticket`` is the arena's handle for it."""

    ticket: int
    player: int
    rating: float
    seat: Seat


def compatible(a: Waiter, b: Waiter) -> bool:
    """Whether ``a`` and ``b`` can play each other: two players, sides that fit."""
    return a.player != b.player and not (a.seat is b.seat and a.seat is not Seat.EITHER)


def sides(a: Waiter, b: Waiter, balance: Mapping[int, int], rng: random.Random) -> tuple[Waiter, Waiter]:
    """(first, second) of a compatible pair.  ``balance``: each player's games as
    the first side less those as the second."""
    if a.seat is Seat.FIRST or b.seat is Seat.SECOND:
        return a, b
    if b.seat is Seat.FIRST or a.seat is Seat.SECOND:
        return b, a
    da, db = balance.get(a.player, 0), balance.get(b.player, 0)
    if da == db:
        return (a, b) if rng.random() < 0.5 else (b, a)
    return (a, b) if da < db else (b, a)


def pair(
    waiting: Sequence[Waiter],
    last: Mapping[int, int],
    balance: Mapping[int, int],
    rng: random.Random,
    spread: float = SPREAD,
) -> tuple[list[tuple[Waiter, Waiter]], list[Waiter]]:
    """The round's games as (first, second) and those left waiting.  ``last``: each
    player's latest opponent, never paired with it again at once."""
    order = sorted(waiting, key=lambda w: (w.rating + rng.gauss(0.0, spread), w.ticket))
    free = list(order)
    games: list[tuple[Waiter, Waiter]] = []
    left: list[Waiter] = []
    while free:
        a = free.pop(0)
        fits = [
            b for b in free if compatible(a, b) and last.get(a.player) != b.player and last.get(b.player) != a.player
        ]
        choice = fits[0] if fits else None
        if choice is None:
            left.append(a)
            continue
        free.remove(choice)
        games.append(sides(a, choice, balance, rng))
    return games, left


class Rematches:
    """Each pair's opening and who moved first on it, until they play it reversed
    (GGS's synchro-rand, one game after the other); at most ``limit`` pairs, the
    oldest forgotten first."""

    def __init__(self, limit: int = 10_000) -> None:
        self.pending: dict[frozenset[int], tuple[tuple[str, ...], int]] = {}
        self._limit = limit

    def sides(self, a: Waiter, b: Waiter, fresh: tuple[str, ...]) -> tuple[Waiter, Waiter, tuple[str, ...]]:
        """The sides and the opening of a pair's game: a pair that met before on an
        opening meets again on the same one with the colours reversed, where both
        asked for either side; otherwise ``fresh``, remembered for their next meeting."""
        key = frozenset((a.player, b.player))
        pending = self.pending.get(key)
        if pending is not None:
            opening, was_first = pending
            if was_first == a.player and a.seat is Seat.EITHER and b.seat is Seat.EITHER:
                a, b = b, a
            if was_first != a.player:
                del self.pending[key]
                return a, b, opening
            return a, b, fresh  # the sides asked for keep the colours: the opening waits
        if len(self.pending) >= self._limit:
            self.pending.pop(next(iter(self.pending)))
        self.pending[key] = (fresh, a.player)
        return a, b, fresh
