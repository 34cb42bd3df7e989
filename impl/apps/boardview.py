"""A position for the terminal with the last move and its captures marked, from
the display lines both the engines (``render``) and the server's observers' 382
display draw (docs/protocol.md §9): ``referee replay``, ``show`` and ``watch``.

What a move captured comes from the engine's description of it (``marks_of``:
impl/engines/port.py ``MoveDescription``) wherever there is a position to ask.
Only ``referee watch`` has none (an observer has the server's display, not the
moves before it joined): for it alone ``marks`` compares two displays.

The mark is ANSI colour on a terminal (the move in reverse video, captured or
changed pits and stones in bold red) and, always, a line naming them, so that
the same view reads in a log or a pipe.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

from impl.engines.notation import FILES, NORTH_ROW, SOUTH_ROW
from impl.engines.port import MoveDescription

MOVE, CAPTURE, RESET = "\x1b[7m", "\x1b[1;31m", "\x1b[0m"
_NUMBER = re.compile(r"\d+")


@dataclass(frozen=True)
class Marks:
    """What to mark: the last move's square or pit, and those it captured."""

    move: str | None = None
    captured: tuple[str, ...] = ()
    label: str = ""
    """The move as the note names it (``c7x2``); the move itself if empty."""


def marks_of(move: MoveDescription) -> Marks:
    """The marks of a move as its engine describes it, named by its movetext."""
    return Marks(move.move, move.captured, move.notation)


def clock(seconds: float) -> str:
    """m:ss, rounded up: a clock shows 0:00 only once it has run out."""
    whole = math.ceil(max(0.0, seconds))
    return f"{whole // 60}:{whole % 60:02d}"


# ─── Awari ─────────────────────────────────────────────────────────────────────


def awari_pits(lines: Sequence[str]) -> dict[str, int]:
    """Pit letter → stones, ``north``/``south`` → store, from render_awari's lines."""
    north = [int(n) for n in _NUMBER.findall(lines[1])]
    south = [int(n) for n in _NUMBER.findall(lines[2])]
    pits = {p.name: n for p, n in zip(NORTH_ROW, north[1:], strict=True)}
    pits |= {p.name: n for p, n in zip(SOUTH_ROW, south[:-1], strict=True)}
    return pits | {"north": north[0], "south": south[-1]}


SOWING = "ABCDEFabcdef"
"""The pits in sowing order (anticlockwise, as both rows are drawn)."""


def awari_marks(before: Sequence[str], after: Sequence[str], move: str) -> Marks:
    """The move's pit, and the opponent's pits it captured: sown into, and empty
    after the move (a sowing of 12 or more skips its own pit)."""
    old, new = awari_pits(before), awari_pits(after)
    sown = set()
    stones, at = old.get(move, 0), SOWING.index(move)
    while stones:
        at = (at + 1) % 12
        if SOWING[at] != move:
            sown.add(SOWING[at])
            stones -= 1
    theirs = "abcdef" if move.isupper() else "ABCDEF"
    return Marks(move, tuple(p for p in theirs if p in sown and new[p] == 0))


def awari_view(lines: Sequence[str], marks: Marks, colour: bool) -> list[str]:
    pits = awari_pits(lines)

    def cell(p: str) -> str:
        text = f"{pits[p]:4d}"
        if not colour:
            return text
        if p == marks.move:
            return f"{MOVE}{text}{RESET}"
        if p in marks.captured:
            return f"{CAPTURE}{text}{RESET}"
        return text

    north = "".join(cell(p.name) for p in NORTH_ROW)
    south = "".join(cell(p.name) for p in SOUTH_ROW)
    return [lines[0], f"[{pits['north']:2d}]{north}", f"    {south} [{pits['south']:2d}]", lines[3]]


# ─── Gothello ──────────────────────────────────────────────────────────────────


def gothello_cells(lines: Sequence[str]) -> dict[str, str]:
    """Square → ``b``, ``w`` or ``.`` from the 5 display lines (rank 5 first)."""
    return {f"{FILES[f]}{5 - r}": ch for r, row in enumerate(lines) for f, ch in enumerate(row)}


def gothello_marks(before: Sequence[str], after: Sequence[str], move: str) -> Marks:
    """The placed stone, and the other squares it changed (captures)."""
    old, new = gothello_cells(before), gothello_cells(after)
    if move == "pass":
        return Marks(move)
    return Marks(move, tuple(s for s in new if s != move and old[s] != new[s]))


def gothello_view(lines: Sequence[str], marks: Marks, colour: bool) -> list[str]:
    cells = gothello_cells(lines)
    files = "    " + " ".join(FILES)

    def cell(square: str) -> str:
        ch = cells[square]
        if colour and square == marks.move:
            return f"{MOVE}{ch}{RESET}"
        if colour and square in marks.captured:
            return f"{CAPTURE}{ch}{RESET}"
        return ch

    rows = [f" {rank}  {' '.join(cell(f'{f}{rank}') for f in FILES)}  {rank}" for rank in range(5, 0, -1)]
    return [files, *rows, files]


# ─── either ────────────────────────────────────────────────────────────────────


def marks(game: str, before: Sequence[str] | None, after: Sequence[str], move: str | None, label: str = "") -> Marks:
    """The marks of ``move`` found by comparing the displays before and after it:
    for an observer, who has no position (``referee watch``)."""
    if move is None or before is None:
        return Marks()
    found = awari_marks(before, after, move) if game == "awari" else gothello_marks(before, after, move)
    return Marks(found.move, found.captured, label)


def view(game: str, lines: Sequence[str], mark: Marks, colour: bool) -> list[str]:
    """The board with ``mark``, and a line naming the last move and its captures."""
    board = awari_view(lines, mark, colour) if game == "awari" else gothello_view(lines, mark, colour)
    if mark.move is None:
        return board
    note = f"last move {mark.label or mark.move}" + (f", captured {' '.join(mark.captured)}" if mark.captured else "")
    return [*board, note]
