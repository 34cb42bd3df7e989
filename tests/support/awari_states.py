"""Small constructors of Awari states for the rule and errata tests."""

from __future__ import annotations

from spec.awari import PIT, PLAYER, AwariBoard, AwariGame, InitAwari, θAwariBoard


def position(pits: dict[str, int], north: int, south: int, to_move: PLAYER) -> AwariBoard:
    """An AwariBoard from the non-empty pits by name, the stores and the side to move."""
    board = [0] * 12
    for name, n in pits.items():
        board[PIT[name]] = n
    assert sum(board) + north + south == 48, "an AwariBoard holds 48 stones"
    return AwariBoard(tuple(board), (north, south), to_move)


def game(
    pits: dict[str, int],
    north: int,
    south: int,
    to_move: PLAYER,
    positions: frozenset[AwariBoard] = frozenset(),
) -> AwariGame:
    """An AwariGame from the non-empty pits by name, the stores, the side to move and
    the positions seen."""
    p = position(pits, north, south, to_move)
    return AwariGame(p.board, p.score, p.to_move, positions)


def initial_seen() -> AwariGame:
    """The initial position, already recorded as seen."""
    g = InitAwari()
    return AwariGame(g.board, g.score, g.to_move, frozenset({θAwariBoard(g)}))


def scores(rest: int) -> tuple[int, int]:
    """Two scores below 25 holding ``rest`` ≤ 47 stones."""
    return min(rest, 24), rest - min(rest, 24)
