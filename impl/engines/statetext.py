"""Spec states written as text, in the notation of proofs/ERRATA.md's witnesses, and
read back: what the checked engine logs and records on a divergence, and what the
spec animator (impl/apps/animate.py) takes and shows.

Awari: the non-empty pits in pit order, the stores ``north/south`` and the side to
move, then optionally how many positions have been seen::

    a1 b1 F2 A4, 20/20, south
    a4 b4 c4 d4 e4 f4 A4 B4 C4 D4 E4 F4, 0/0, south, 3 seen

(``empty`` for a board without stones).  The positions seen are a set of whole
positions: the text gives only their number, so reading it back gives ∅ (a state
with a history is built by stepping, or in code).

Gothello: the stones, ``b`` or ``w`` followed by the squares of that colour, then
the side to move, then optionally the history, most recent action first (the
order of HISTORY)::

    b a2 c3 w a1, black
    b c3, black, history pass c3

(``empty`` for a board without stones; a missing side means black, a missing
history ⟨⟩.)  Reading accepts the stones split over several comma-separated fields
too, as ERRATA.md writes them (``w a1, b a2, black``).
"""

from __future__ import annotations

from spec import awari as A
from spec import gothello as G
from spec.z import Fun

from . import notation


class NotationError(ValueError):
    """The text is not a state in this notation; the message says why."""


# ─── Awari ─────────────────────────────────────────────────────────────────────


def format_awari(g: A.AwariGame) -> str:
    """``a1 b1 F2 A4, 20/20, south`` (``, N seen`` when positions have been seen)."""
    pits = " ".join(f"{p.name}{g.board[p]}" for p in A.PIT if g.board[p]) or "empty"
    seen = f", {len(g.positions)} seen" if g.positions else ""
    return f"{pits}, {g.score[A.PLAYER.north]}/{g.score[A.PLAYER.south]}, {g.to_move.name}{seen}"


def parse_awari(text: str) -> A.AwariGame:
    """An AwariGame (positions ∅) from ``a1 b1 F2 A4, 20/20, south``."""
    fields = [f.strip() for f in text.split(",")]
    if len(fields) != 3:
        raise NotationError("an Awari state is 'PITS, NORTH/SOUTH, SIDE', e.g. 'a1 b1 F2 A4, 20/20, south'")
    pits, stores, side = fields
    board = [0] * 12
    if pits != "empty":
        for word in pits.split():
            pit = notation.parse_pit(word[:1])
            if pit is None or not word[1:].isdigit():
                raise NotationError(f"{word!r} is not a pit and its stones, e.g. 'a4' or 'F12'")
            if board[pit]:
                raise NotationError(f"pit {pit.name} is given twice")
            board[pit] = int(word[1:])
    north, _, south = stores.partition("/")
    if not (north.isdigit() and south.isdigit()):
        raise NotationError(f"{stores!r} is not the stores NORTH/SOUTH, e.g. '20/20'")
    if side not in A.PLAYER.__members__:
        raise NotationError(f"{side!r} is not a side: north or south")
    total = sum(board) + int(north) + int(south)
    if total != 48:
        raise NotationError(f"an AwariBoard holds 48 stones, this one {total}")
    return A.AwariGame(tuple(board), (int(north), int(south)), A.PLAYER[side], frozenset())


# ─── Gothello ──────────────────────────────────────────────────────────────────

_COLOURS = {"b": G.PLAYER.black, "w": G.PLAYER.white}


def format_gothello(g: G.GothelloGame) -> str:
    """``b a2 c3 w a1, black`` (``, history pass c3`` when there is one)."""
    groups = []
    for letter, player in _COLOURS.items():
        squares = sorted(s for (s, v) in g.board if v == G.stone(player))
        if squares:
            groups.append(" ".join([letter, *(notation.format_gothello(G.move(s)) for s in squares)]))
    history = f", history {' '.join(notation.format_gothello(m) for m in g.history)}" if g.history else ""
    return f"{' '.join(groups) or 'empty'}, {g.to_move.name}{history}"


def parse_gothello(text: str) -> G.GothelloGame:
    """A GothelloGame from ``b a2 c3 w a1, black, history pass c3``."""
    cells: dict[G.SQUARE, G.SQUAREVAL] = {}
    to_move = G.PLAYER.black
    history: list[G.MOVE] = []
    for field in (f.strip() for f in text.split(",")):
        words = field.split()
        if not words:
            raise NotationError("an empty field between commas")
        if field in G.PLAYER.__members__:
            to_move = G.PLAYER[field]
        elif words[0] == "history":
            for word in words[1:]:
                action = notation.parse_gothello(word)
                if action is None:
                    raise NotationError(f"{word!r} in the history is not a square or pass")
                history.append(action)
        elif field != "empty":
            _stones(words, cells)
    board = Fun((s, cells.get(s, G.blank)) for s in sorted(G.SQUARES))
    return G.GothelloGame(board, to_move, tuple(history))


def _stones(words: list[str], cells: dict[G.SQUARE, G.SQUAREVAL]) -> None:
    """``b a2 c3 w a1`` into ``cells``: a colour letter, then its squares."""
    colour: G.PLAYER | None = None
    for word in words:
        if word in _COLOURS:
            colour = _COLOURS[word]
            continue
        square = notation.parse_gothello(word)
        if not isinstance(square, G.move):
            raise NotationError(f"{word!r} is not a square a1-e5 (or a colour b, w; the side to move: black, white)")
        if colour is None:
            raise NotationError(f"the colour of {word} is missing: write 'b {word}' or 'w {word}'")
        if square.square in cells:
            raise NotationError(f"square {word} is given twice")
        cells[square.square] = G.stone(colour)


def format_state(state: A.AwariGame | G.GothelloGame) -> str:
    """A spec state of either game in its notation."""
    if isinstance(state, A.AwariGame):
        return format_awari(state)
    return format_gothello(state)
