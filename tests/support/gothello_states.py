"""Small constructors of Gothello states for the rule and errata tests."""

from __future__ import annotations

from spec.gothello import (
    BOARD,
    HISTORY,
    PLAYER,
    SQUARE,
    SQUARES,
    SQUAREVAL,
    GothelloGame,
    blank,
    move,
    pass_,
    stone,
)
from spec.z import Fun

CELL: dict[str, SQUAREVAL] = {"b": stone(PLAYER.black), "w": stone(PLAYER.white), ".": blank}


def sq(name: str) -> SQUARE:
    """``c3`` as the SQUARE (3, 3): file letter first."""
    return ("abcde".index(name[0]) + 1, int(name[1]))


def mv(name: str) -> move:
    return move(sq(name))


def board(stones: dict[str, str] | None = None, fill: str = ".") -> BOARD:
    """A board with the named squares set (``{"a1": "w"}``), the rest ``fill``."""
    named = {sq(k): CELL[v] for k, v in (stones or {}).items()}
    return Fun((s, named.get(s, CELL[fill])) for s in SQUARES)


def game(
    stones: dict[str, str] | None = None, to_move: PLAYER = PLAYER.black, history: HISTORY = (), fill: str = "."
) -> GothelloGame:
    return GothelloGame(board(stones, fill), to_move, history)


PASS = pass_
