"""Pairs of thin adapters, spec and impl, with identical primitive signatures, for
``crosshair diffbehavior`` (proofs/crosshair/diffbehavior.py).  Each pair shares one
validity check, so that both sides return None on an input outside the domain and
the search is only about valid states; each returns plain tuples of ints, compared
with ==.

  sow          spec.awari.Sow                 impl.engines.awari's sowing table _SOW
  capture      spec.awari.Capture             impl.engines.awari._capture (from a vulnerable last pit)
  awari_move   spec referee, via get_engine   ImplAwari.apply (to_spec of the next state)
  group        spec.gothello.group/liberties  impl.engines.gothello._group/_free
  gothello_turn spec referee, via get_engine  ImplGothello.apply (to_spec of the next state)

The impl side is always the pure-Python source (impl.engines._build.load_source), also when
a mypyc build is installed, because crosshair can only trace Python code.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from crosshair import deep_realize

from impl.engines import _build
from impl.engines.registry import get_engine
from spec import awari as A
from spec import gothello as G
from spec.z import Fun

if TYPE_CHECKING:
    from impl.engines import awari as IA
    from impl.engines import gothello as IG
else:  # crosshair traces Python, not a mypyc build: always the pure-Python sources
    IA = _build.load_source("awari")
    IG = _build.load_source("gothello")

Board = tuple[int, ...]

# ─── Awari ─────────────────────────────────────────────────────────────────────


def _awari_ok(board: Board, north: int, south: int) -> bool:
    return (
        len(board) == 12
        and all(n >= 0 for n in board)
        and north >= 0
        and south >= 0
        and sum(board) + north + south == 48
    )


def _sow_ok(board: Board, north: int, south: int, south_to_move: bool, move: int) -> bool:
    """Sow's precondition: scores below 25, a non-empty pit of the mover's."""
    return (
        _awari_ok(board, north, south)
        and north < 25
        and south < 25
        and 0 <= move < 12
        and (move >= 6) == south_to_move
        and board[move] > 0
    )


def _player(south_to_move: bool) -> A.PLAYER:
    return A.PLAYER.south if south_to_move else A.PLAYER.north


def _rows(board: Board, me: int) -> tuple[int, int]:
    """The mover's and the opponent's packed rows (impl.engines.awari's key)."""
    return IA._row(board, me), IA._row(board, me ^ 1)


def _unrows(mine: int, theirs: int, me: int) -> Board:
    rows = (mine, theirs) if me == 0 else (theirs, mine)
    return tuple(rows[p // 6] >> (8 * (p % 6)) & 255 for p in range(12))


def sow_spec(board: Board, north: int, south: int, south_to_move: bool, move: int) -> tuple[Board, int] | None:
    """board' and the last pit sown when it is the opponent's (else -1)."""
    if not _sow_ok(board, north, south, south_to_move, move):
        return None
    board, north, south, south_to_move, move = deep_realize((board, north, south, south_to_move, move))
    after, last = A.Sow(A.AwariBoard(tuple(board), (north, south), _player(south_to_move)), A.PIT(move))
    return after.board, (int(last) if last in A.side(A.opponent(_player(south_to_move))) else -1)


def sow_impl(board: Board, north: int, south: int, south_to_move: bool, move: int) -> tuple[Board, int] | None:
    if not _sow_ok(board, north, south, south_to_move, move):
        return None
    me = int(south_to_move)
    mine, theirs = _rows(board, me)
    sh, n = 8 * (move - 6 * me), board[move]  # the pit's bit offset in the mover's row
    add_mine, add_theirs, last = IA._SOW[sh << 3 | n]
    mine_ = mine - (n << sh) + add_mine
    return _unrows(mine_, theirs + add_theirs, me), (6 * (me ^ 1) + last if last >= 0 else -1)


def capture_spec(board: Board, north: int, south: int, south_to_move: bool, last: int) -> tuple[Board, int, int] | None:
    """Capture (corrected) from the last pit sown: board' and score'."""
    if not (_awari_ok(board, north, south) and 0 <= last < 12):
        return None
    board, north, south, south_to_move, last = deep_realize((board, north, south, south_to_move, last))
    after, _ = A.Capture_corrected(A.AwariBoard(tuple(board), (north, south), _player(south_to_move)), A.PIT(last))
    return after.board, after.score[0], after.score[1]


def capture_impl(board: Board, north: int, south: int, south_to_move: bool, last: int) -> tuple[Board, int, int] | None:
    if not (_awari_ok(board, north, south) and 0 <= last < 12):
        return None
    me = int(south_to_move)
    mine, theirs = _rows(board, me)
    q = last - 6 * (me ^ 1)  # the opponent's pit index, or out of 0..5 on the mover's row
    gained = 0
    if 0 <= q < 6 and board[last] in (2, 3):  # as impl.engines.awari._play: only from a vulnerable pit
        theirs, gained = IA._capture(theirs, q)
    scores = [north, south]
    scores[me] += gained
    return _unrows(mine, theirs, me), scores[0], scores[1]


AwariPosition = tuple[Board, int, int, bool]
"""board, north, south, south to move."""
AwariOutcome = tuple[str, Board, int, int, bool, tuple[AwariPosition, ...]]
"""result, board', north', south', south to move', positions' (sorted): the whole set,
not its size, so that a wrong position recorded in place of the right one differs."""


def _position(p: A.AwariBoard) -> AwariPosition:
    return tuple(p.board), p.score[0], p.score[1], p.to_move == A.PLAYER.south


def _awari_outcome(result: object, g: A.AwariGame) -> AwariOutcome:
    positions = tuple(sorted(_position(p) for p in g.positions))
    return str(result), g.board, g.score[0], g.score[1], g.to_move == A.PLAYER.south, positions


def _awari_game(board: Board, north: int, south: int, south_to_move: bool, seen: bool) -> A.AwariGame:
    s = A.AwariBoard(tuple(board), (north, south), _player(south_to_move))
    return A.game_of(s, frozenset({s}) if seen else frozenset())


def awari_move_spec(
    board: Board, north: int, south: int, south_to_move: bool, seen: bool, move: int
) -> AwariOutcome | None:
    """A whole action on the spec engine; positions ∅ or {θ}."""
    if not (_awari_ok(board, north, south) and 0 <= move < 12):
        return None
    board, north, south, south_to_move, seen, move = deep_realize((board, north, south, south_to_move, seen, move))
    g = _awari_game(board, north, south, south_to_move, seen)
    result, after = get_engine("awari", "spec").apply(g, A.PIT(move))
    return _awari_outcome(result, after)


def awari_move_impl(
    board: Board, north: int, south: int, south_to_move: bool, seen: bool, move: int
) -> AwariOutcome | None:
    if not (_awari_ok(board, north, south) and 0 <= move < 12):
        return None
    engine = IA.ImplAwari()
    state = engine.from_spec(_awari_game(board, north, south, south_to_move, seen))
    result, after = engine.apply(state, A.PIT(move))
    return _awari_outcome(result, engine.to_spec(after))


# ─── Gothello ──────────────────────────────────────────────────────────────────

CELL: tuple[G.SQUAREVAL, ...] = (G.blank, G.stone(G.PLAYER.black), G.stone(G.PLAYER.white))


def _cells_ok(cells: Board) -> bool:
    return len(cells) == 25 and all(c >= 0 for c in cells) and all(c <= 2 for c in cells)


def _square(i: int) -> G.SQUARE:
    return (i // 5 + 1, i % 5 + 1)


def _board(cells: Board) -> G.BOARD:
    return Fun((_square(i), CELL[c]) for i, c in enumerate(cells))


def _bits(squares: frozenset[G.SQUARE]) -> int:
    return sum(1 << (5 * (f - 1) + (r - 1)) for f, r in squares)


def group_spec(cells: Board, s: int) -> tuple[int, bool] | None:
    """The group of the stone at s as a bit-set, and whether it has a liberty."""
    if not (_cells_ok(cells) and 0 <= s < 25 and cells[s] != 0):
        return None
    board = _board(cells)
    return _bits(G.group_corrected(board, _square(s))), len(G.liberties_corrected(board, _square(s))) > 0


def group_impl(cells: Board, s: int) -> tuple[int, bool] | None:
    if not (_cells_ok(cells) and 0 <= s < 25 and cells[s] != 0):
        return None
    stones = sum(1 << i for i, c in enumerate(cells) if c == cells[s])
    blank = sum(1 << i for i, c in enumerate(cells) if c == 0)
    return IG._group(1 << s, stones), IG._free(1 << s, stones, blank)


GothelloOutcome = tuple[str, Board, bool, tuple[int, ...]]
"""result, cells', white to move', history' as action codes."""


def _history_ok(history: tuple[int, ...]) -> bool:
    return len(history) <= 3 and all(h >= 0 for h in history) and all(h <= 25 for h in history)


def _action(code: int) -> G.MOVE:
    return G.pass_ if code == 25 else G.move(_square(code))


def _gothello_game(cells: Board, white: bool, history: tuple[int, ...]) -> G.GothelloGame:
    to_move = G.PLAYER.white if white else G.PLAYER.black
    return G.GothelloGame(_board(cells), to_move, tuple(_action(h) for h in history))


def _gothello_outcome(result: object, g: G.GothelloGame) -> GothelloOutcome:
    cells = tuple(CELL.index(g.board[_square(i)]) for i in range(25))
    return str(result), cells, g.to_move == G.PLAYER.white, tuple(IG.code(m) for m in g.history)


def gothello_turn_spec(cells: Board, white: bool, history: tuple[int, ...], action: int) -> GothelloOutcome | None:
    if not (_cells_ok(cells) and _history_ok(history) and 0 <= action <= 25):
        return None
    result, after = get_engine("gothello", "spec").apply(_gothello_game(cells, white, history), _action(action))
    return _gothello_outcome(result, after)


def gothello_turn_impl(cells: Board, white: bool, history: tuple[int, ...], action: int) -> GothelloOutcome | None:
    if not (_cells_ok(cells) and _history_ok(history) and 0 <= action <= 25):
        return None
    engine = IG.ImplGothello()
    result, after = engine.apply(engine.from_spec(_gothello_game(cells, white, history)), _action(action))
    return _gothello_outcome(result, engine.to_spec(after))


PAIRS = {
    "sow": ("sow_spec", "sow_impl"),
    "capture": ("capture_spec", "capture_impl"),
    "awari_move": ("awari_move_spec", "awari_move_impl"),
    "group": ("group_spec", "group_impl"),
    "gothello_turn": ("gothello_turn_spec", "gothello_turn_impl"),
}
