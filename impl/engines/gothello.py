"""Gothello, fast: the rules of spec/gothello.py's corrected ``referee`` on bitboards.

Square (file, rank) is bit ``5 * (file - 1) + (rank - 1)`` of a 25-bit int, so bit
order is the spec's file-then-rank order; ranks are adjacent bits within a file,
files five bits apart.  A state is the tuple ``(mine, theirs, to_move, history)``:
the stones of the player to move and of the other player, that player's PLAYER
value, and the accepted actions as a cons list ``(action, rest)`` most recent first
(0–24 a square, 25 ``pass``), so that an action is recorded in O(1).

* Groups grow by bit-parallel dilation (``_dilate``) within a colour.
* A placement is refused when the placed stone's group has no blank neighbour in
  cboard (GothelloIllegalMoveBlocked); opposing groups next to it without one
  change colour (``captures_corrected``: G3).

Everything observable is the spec's: ``to_spec`` rebuilds the exact GothelloGame,
and tests/engines/test_differential.py checks each step against ``spec.gothello.referee``.
No contracts here: this is the hot path.
"""

from __future__ import annotations

from typing import Final, cast

from impl.game import Side
from spec import gothello as G
from spec import result as R
from spec.z import Fun

from . import notation
from .port import Cells, MoveDescription, Result, gained, not_legal

History = tuple[int, object] | None
"""HISTORY as a cons list: (most recent action, earlier history), or None for ⟨⟩.
The tail is typed ``object`` (read through ``_tail``): mypyc crashes on the
recursive alias ``tuple[int, History] | None``."""

GothelloState = tuple[int, int, int, History]
"""(stones of to_move, stones of the other player, to_move's PLAYER value, history)."""

PASS: Final = 25
"""The action code of ``pass``; squares are 0–24."""
_FULL: Final = (1 << 25) - 1
_RANK1: Final = sum(1 << (5 * f) for f in range(5))
_RANK5: Final = _RANK1 << 4
_NOT_RANK1: Final = _FULL & ~_RANK1
_NOT_RANK5: Final = _FULL & ~_RANK5

_PLAYERS: Final = (G.PLAYER.black, G.PLAYER.white)
_WIN: Final[tuple[Result[G.PLAYER], Result[G.PLAYER]]] = (R.win(G.PLAYER.black), R.win(G.PLAYER.white))
_DRAW: Final[Result[G.PLAYER]] = R.draw
_NOT_DONE: Final[Result[G.PLAYER]] = R.not_done
_ILLEGAL: Final[Result[G.PLAYER]] = R.illegal_move


def _dilate(x: int) -> int:
    """The squares adjoining some square of x (adjoins, corrected: G1), x included."""
    return x | ((x << 1) & _NOT_RANK1) | ((x >> 1) & _NOT_RANK5) | ((x << 5) & _FULL) | (x >> 5)


_NEIGHBOURS: Final = tuple(_dilate(1 << i) & ~(1 << i) for i in range(25))
"""(_ adjoins _) ⦇{s}⦈ per square."""

_SQUARES: Final = tuple((i // 5 + 1, i % 5 + 1) for i in range(25))
_NAMES: Final = tuple(notation.square_name(s) for s in _SQUARES)
_ACTIONS: Final[tuple[G.MOVE, ...]] = (*(G.move(s) for s in _SQUARES), G.pass_)
"""The spec's MOVE of each action code."""


def code(m: G.MOVE) -> int:
    """The action code of a MOVE."""
    if isinstance(m, G.move):
        file, rank = m.square
        return 5 * (file - 1) + (rank - 1)
    return PASS


def _group(seed: int, stones: int) -> int:
    """group: the stones connected to ``seed`` within ``stones`` ((neighbor board)* ⦇{s}⦈)."""
    group = seed
    while True:
        grown = _dilate(group) & stones
        if grown == group:
            return group
        group = grown


def _free(seed: int, stones: int, blank: int) -> bool:
    """The group of ``seed`` within ``stones`` has a liberty (a blank neighbour)."""
    group = seed
    while True:
        around = _dilate(group)
        if around & blank:
            return True
        grown = around & stones
        if grown == group:
            return False
        group = grown


def _place(mine: int, theirs: int, i: int) -> int:
    """GothelloMove at blank square i, or -1 where GothelloIllegalMoveBlocked holds:
    the opposing stones after the captures, packed with the mover's stones after
    as ``theirs' | mine' << 25``."""
    bit = 1 << i
    mine |= bit
    blank = _FULL ^ (mine | theirs)
    near = _NEIGHBOURS[i]
    if not near & blank and not _free(bit, mine, blank):
        return -1
    targets = near & theirs
    while targets:
        t = targets & -targets
        group = _group(t, theirs)
        targets &= ~group
        if not (_dilate(group) & blank):  # capture_at: no liberties in cboard
            theirs ^= group
            mine |= group
    return theirs | (mine << 25)


def _legal_bit(mine: int, theirs: int, i: int) -> int:
    """1 iff the referee accepts a placement at square i: it is blank (no
    GothelloIllegalMoveNonblank) and the placed stone's group has a liberty in cboard
    (no GothelloIllegalMoveBlocked) — ``_place``'s test, without its captures."""
    occupied = mine | theirs
    if occupied >> i & 1:
        return 0
    bit = 1 << i
    blank = _FULL ^ occupied ^ bit
    if _NEIGHBOURS[i] & blank or _free(bit, mine | bit, blank):
        return 1
    return 0


def _legal_mask(mine: int, theirs: int) -> int:
    """The squares where a placement is accepted, as a 25-bit set.  A loop over every
    square rather than over the blank ones: on a symbolic board it is then one path
    (proofs/gothello/refinement.py, ``legal_moves_refine``)."""
    mask = 0
    for i in range(25):
        mask |= _legal_bit(mine, theirs, i) << i
    return mask


def _file_moves(file: int, last: tuple[G.MOVE, ...] = ()) -> tuple[tuple[G.MOVE, ...], ...]:
    """Per 5-bit set of ranks: the placements on those squares of ``file`` (0–4), in
    rank order, then ``last``."""
    return tuple((*(_ACTIONS[5 * file + r] for r in range(5) if ranks >> r & 1), *last) for ranks in range(32))


_MOVES_A: Final = _file_moves(0)
_MOVES_B: Final = _file_moves(1)
_MOVES_C: Final = _file_moves(2)
_MOVES_D: Final = _file_moves(3)
_MOVES_E_PASS: Final = _file_moves(4, (G.pass_,))


def _moves(mask: int) -> tuple[G.MOVE, ...]:
    """The placements on the squares of a 25-bit set in file-then-rank order (the
    spec's ``legal_moves`` order), then ``pass``: five table lookups, one per file."""
    return (
        _MOVES_A[mask & 31]
        + _MOVES_B[mask >> 5 & 31]
        + _MOVES_C[mask >> 10 & 31]
        + _MOVES_D[mask >> 15 & 31]
        + _MOVES_E_PASS[mask >> 20 & 31]
    )


def _tail(history: tuple[int, object]) -> History:
    """The history before its most recent action."""
    return cast(History, history[1])


def _over(history: History) -> bool:
    """game_over: the last two accepted actions were passes."""
    if history is None or history[0] != PASS:
        return False
    earlier = _tail(history)
    return earlier is not None and earlier[0] == PASS


def _count_result(black: int, white: int) -> Result[G.PLAYER]:
    """GothelloGameOver's result: more stones on the board wins."""
    b, w = black.bit_count(), white.bit_count()
    if b > w:
        return _WIN[0]
    if w > b:
        return _WIN[1]
    return _DRAW


def _step(state: GothelloState, action: int) -> tuple[Result[G.PLAYER], GothelloState]:
    """The referee's step for an action code, in a state where the game goes on."""
    mine, theirs, to_move, history = state
    if action == PASS:
        if history is not None and history[0] == PASS:  # GothelloGameOver
            black, white = (mine, theirs) if to_move == 0 else (theirs, mine)
            return _count_result(black, white), (mine, theirs, to_move, (PASS, history))
        return _NOT_DONE, (theirs, mine, to_move ^ 1, (PASS, history))  # GothelloPass
    if (mine | theirs) >> action & 1:
        return _ILLEGAL, state  # GothelloIllegalMoveNonblank
    placed = _place(mine, theirs, action)
    if placed < 0:
        return _ILLEGAL, state  # GothelloIllegalMoveBlocked
    return _NOT_DONE, (placed & _FULL, placed >> 25, to_move ^ 1, (action, history))


INITIAL: Final[GothelloState] = (0, 0, 0, None)


class ImplGothello:
    """Gothello by the fast rules: states are (mine, theirs, to_move, history)."""

    game = "gothello"
    kind = "impl"
    players = (G.PLAYER.black, G.PLAYER.white)

    def initial(self) -> GothelloState:
        return INITIAL

    def to_move(self, state: GothelloState) -> G.PLAYER:
        return _PLAYERS[state[2]]

    def apply(self, state: GothelloState, action: G.MOVE) -> tuple[Result[G.PLAYER], GothelloState]:
        mine, theirs, to_move, history = state
        if _over(history):  # GothelloEnded: the final result again, nothing changes
            return _count_result(*((mine, theirs) if to_move == 0 else (theirs, mine))), state
        return _step(state, code(action))

    def legal_moves(self, state: GothelloState) -> tuple[G.MOVE, ...]:
        mine, theirs, _, history = state
        return () if _over(history) else _moves(_legal_mask(mine, theirs))

    def why_illegal(self, state: GothelloState, action: G.MOVE) -> str | None:
        if _over(state[3]):
            return "the game is over"
        if action in self.legal_moves(state):
            return None
        assert isinstance(action, G.move)  # pass is legal while the game goes on
        mine, theirs, _, _ = state
        return notation.gothello_illegal(action, bool((mine | theirs) >> code(action) & 1))

    def is_over(self, state: GothelloState) -> bool:
        return _over(state[3])

    def counts(self, state: GothelloState) -> tuple[int, int]:
        mine, theirs, to_move, _ = state
        black, white = (mine, theirs) if to_move == 0 else (theirs, mine)
        return black.bit_count(), white.bit_count()

    def parse_move(self, text: str) -> G.MOVE | None:
        return notation.parse_gothello(text)

    def format_move(self, action: G.MOVE) -> str:
        return notation.format_gothello(action)

    def render(self, state: GothelloState) -> list[str]:
        mine, theirs, to_move, _ = state
        black, white = (mine, theirs) if to_move == 0 else (theirs, mine)
        cell = {s: "b" if black >> i & 1 else "w" if white >> i & 1 else "." for i, s in enumerate(_SQUARES)}
        return notation.render_gothello(cell)

    def cells(self, state: GothelloState) -> Cells:
        mine, theirs, to_move, _ = state
        black, white = (mine, theirs) if to_move == 0 else (theirs, mine)
        return tuple(
            (n, "black" if black >> i & 1 else "white" if white >> i & 1 else "") for i, n in enumerate(_NAMES)
        )

    def describe(self, state: GothelloState, action: G.MOVE) -> MoveDescription:
        """The opponent's stones the placement turned: theirs before, the mover's after."""
        result, after = self.apply(state, action)
        if self.is_over(state) or result is _ILLEGAL:
            raise not_legal(self, action)
        _, theirs, to_move, _ = state
        # after[1]: the mover's stones once the opponent is to move (a pass turns none)
        turned = 0 if code(action) == PASS else theirs & after[1]
        captured = tuple(_NAMES[i] for i in range(25) if turned >> i & 1)
        mover, text = Side(to_move), notation.format_gothello(action)
        return MoveDescription(mover, text, text, 0, captured, len(captured), gained(self, state, after, mover))

    def to_spec(self, state: GothelloState) -> G.GothelloGame:
        mine, theirs, to_move, history = state
        black, white = (mine, theirs) if to_move == 0 else (theirs, mine)
        stone = (G.stone(G.PLAYER.black), G.stone(G.PLAYER.white))
        board = Fun(
            (s, stone[0] if black >> i & 1 else stone[1] if white >> i & 1 else G.blank) for i, s in enumerate(_SQUARES)
        )
        actions: list[G.MOVE] = []
        while history is not None:
            actions.append(_ACTIONS[history[0]])
            history = _tail(history)
        return G.GothelloGame(board=board, to_move=_PLAYERS[to_move], history=tuple(actions))

    def from_spec(self, game: G.GothelloGame) -> GothelloState:
        black = sum(1 << i for i, s in enumerate(_SQUARES) if game.board[s] == G.stone(G.PLAYER.black))
        white = sum(1 << i for i, s in enumerate(_SQUARES) if game.board[s] == G.stone(G.PLAYER.white))
        history: History = None
        for m in reversed(game.history):
            history = (code(m), history)
        to_move = int(game.to_move)
        return (black, white, 0, history) if to_move == 0 else (white, black, 1, history)


def perft(state: GothelloState, depth: int) -> int:
    """perft over the fast internals (impl/engines/perft.py defines it): every blank square
    is tried, ``pass`` is a move at every node, and every move to a leaf is played
    in full."""
    if depth == 0:
        return 1
    if _over(state[3]):
        return 0
    return _perft(state, depth)


def _perft(state: GothelloState, depth: int) -> int:
    """perft of a state where the game goes on, depth ≥ 1."""
    mine, theirs, _, _ = state
    blank = _FULL ^ (mine | theirs)
    total = 0
    if depth == 1:  # the leaves: each move made in full, its after-state unused
        for i in range(25):
            if blank >> i & 1 and _step(state, i)[0] is not _ILLEGAL:
                total += 1
        return total + (_step(state, PASS)[0] is not _ILLEGAL)
    for i in range(25):
        if blank >> i & 1:
            result, after = _step(state, i)
            if result is _NOT_DONE:
                total += _perft(after, depth - 1)
    result, after = _step(state, PASS)
    if result is _NOT_DONE:
        total += _perft(after, depth - 1)
    return total
