"""The papers' move notation and board displays, shared by every engine.

Awari pits are the letters a–f (north's row) and A–F (south's row), case-significant.
Gothello squares are a letter a–e (the file, first component of SQUARE) and a digit
1–5 (the rank), lowercase as gthd accepts them, or ``pass``.
"""

from __future__ import annotations

from collections.abc import Sequence

from spec import awari as A
from spec import gothello as G

AWARI_PITS: dict[str, A.PIT] = {p.name: p for p in A.PIT}
FILES = "abcde"


def parse_pit(text: str) -> A.PIT | None:
    """``a``–``f`` or ``A``–``F`` as a PIT, else None."""
    return AWARI_PITS.get(text)


def format_pit(pit: A.PIT) -> str:
    return pit.name


def parse_gothello(text: str) -> G.MOVE | None:
    """``pass`` or a square ``[a-e][1-5]`` as a MOVE, else None."""
    if text == "pass":
        return G.pass_
    if len(text) == 2 and text[0] in FILES and text[1] in "12345":
        return G.move((FILES.index(text[0]) + 1, int(text[1])))
    return None


def format_gothello(m: G.MOVE) -> str:
    return square_name(m.square) if isinstance(m, G.move) else "pass"


def awari_movetext(pit: A.PIT, sown: int, gained: int) -> str:
    """The 1994 Olympiad notation of a sowing: the pit, the stones sown, and ``x``
    with what the mover's store gained, if anything (``F4``, ``c7x2``)."""
    return f"{pit.name}{sown}" + (f"x{gained}" if gained else "")


def square_name(square: tuple[int, int]) -> str:
    """A SQUARE (file, rank) as ``a1``–``e5``."""
    file, rank = square
    return f"{FILES[file - 1]}{rank}"


NORTH_ROW = (A.PIT.f, A.PIT.e, A.PIT.d, A.PIT.c, A.PIT.b, A.PIT.a)
SOUTH_ROW = (A.PIT.A, A.PIT.B, A.PIT.C, A.PIT.D, A.PIT.E, A.PIT.F)


def render_awari(board: Sequence[int], score: Sequence[int], to_move: A.PLAYER) -> list[str]:
    """Awari as four lines: north's row read from north's left (f … a) over south's
    row (A … F), each store at its owner's right, and the player to move::

            f   e   d   c   b   a
        [ 0]  4   4   4   4   4   4
              4   4   4   4   4   4 [ 0]
            A   B   C   D   E   F        south to move
    """
    north = "".join(f"{board[p.value]:4d}" for p in NORTH_ROW)
    south = "".join(f"{board[p.value]:4d}" for p in SOUTH_ROW)
    return [
        "       f   e   d   c   b   a",
        f"[{score[A.PLAYER.north.value]:2d}]{north}",
        f"    {south} [{score[A.PLAYER.south.value]:2d}]",
        f"       A   B   C   D   E   F        {to_move.name} to move",
    ]


def awari_illegal(pit: A.PIT, mover: A.PLAYER, stones: int) -> str:
    """Why the referee refuses ``pit`` for ``mover`` when the game goes on
    (IllegalMove's disjuncts, in words): not its pit, an empty pit, or a move that
    leaves the opponent without stones when it could feed them."""
    other = A.PLAYER.north if mover == A.PLAYER.south else A.PLAYER.south
    mine = "ABCDEF" if mover == A.PLAYER.south else "abcdef"
    if pit.name not in mine:
        return f"{pit.name} is {other.name}'s pit: yours are {mine[0]}-{mine[-1]}"
    if stones == 0:
        return f"{pit.name} is empty"
    return f"{pit.name} leaves {other.name} without stones: sow into their empty row"


def gothello_illegal(square: G.MOVE, occupied: bool) -> str:
    """Why the referee refuses a placement when the game goes on
    (GothelloIllegalMoveNonblank / GothelloIllegalMoveBlocked, in words)."""
    where = format_gothello(square)
    if occupied:
        return f"{where} is occupied"
    return f"{where} is illegal: the new stone's group would have no liberty"


GOTHELLO_CELL = {G.blank: ".", G.stone(G.PLAYER.black): "b", G.stone(G.PLAYER.white): "w"}


def render_gothello(cell: dict[tuple[int, int], str]) -> list[str]:
    """The 5 board lines of gthd's 382 display: rank 5 first, file a leftmost,
    ``b``, ``w`` or ``.`` per square."""
    return ["".join(cell[(file, rank)] for file in range(1, 6)) for rank in range(5, 0, -1)]
