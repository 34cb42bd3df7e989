"""Gothello positions for the search (search.py), on the fast engine's bitboards
(impl/engines/kernels.py): a position is ``(mine, theirs, passed)``, the stones of the
player to move and of the other player, and whether the last move was a pass (so
that passing now ends the game).  A move is a square's bit index, or PASS."""

from __future__ import annotations

from impl.engines import kernels as K
from impl.engines.notation import FILES

from .search import Child, final_value

Position = tuple[int, int, bool]
PASS = K.PASS
_FULL = K.FULL
_dilate, _place = K.dilate, K.place

STONE_WEIGHT = 4
"""A stone on the board, against one liberty (a blank square next to a group)."""


class GothelloSearch:
    """The search's view of Gothello."""

    def key(self, pos: Position) -> Position:
        return pos

    def evaluate(self, pos: Position) -> int:
        """The stone difference, weighted (stones decide the game), plus the liberty
        difference (groups short of liberties are captured: they change colour)."""
        mine, theirs, _ = pos
        blank = _FULL ^ (mine | theirs)
        liberties = (_dilate(mine) & blank).bit_count() - (_dilate(theirs) & blank).bit_count()
        return STONE_WEIGHT * (mine.bit_count() - theirs.bit_count()) + liberties

    def children(self, pos: Position) -> list[Child]:
        """Every placement the rules allow, the most stones gained first, then pass
        (which ends the game after the opponent's pass)."""
        mine, theirs, passed = pos
        count = mine.bit_count()
        out: list[Child] = []
        blank = _FULL ^ (mine | theirs)
        while blank:
            low = blank & -blank
            blank ^= low
            i = low.bit_length() - 1
            placed = _place(mine, theirs, i)
            if placed >= 0:  # theirs' | mine' << 25; the opponent moves next
                mine_ = placed >> 25
                out.append((i, (placed & _FULL, mine_, False), 0, mine_.bit_count() - count))
        if passed:
            value = final_value(count - theirs.bit_count())
            out.append((PASS, None, value, value))
        else:
            out.append((PASS, (theirs, mine, True), 0, -1))
        return out


def root(state: K.GothelloState) -> tuple[GothelloSearch, list[Child]]:
    """The rules and the legal moves of a game's state (where the game goes on)."""
    mine, theirs, _, history = state
    rules = GothelloSearch()
    return rules, rules.children((mine, theirs, history is not None and history[0] == PASS))


def token(state: K.GothelloState, move: int) -> str:
    """``a1``–``e5`` or ``pass``."""
    return "pass" if move == PASS else f"{FILES[move // 5]}{move % 5 + 1}"


def max_plies(state: K.GothelloState) -> int:
    """No game lasts longer: a placement fills a square for good, and two passes in a
    row end the game."""
    blank = _FULL ^ (state[0] | state[1])
    return 2 * blank.bit_count() + 2
