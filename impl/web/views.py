"""Board data for drawing, from an engine's state: its cells and counts through the
engine port (``Engine.cells``, ``Engine.counts``), never parsed from the text
display, and the last move's captures from the move's description
(``Engine.describe``, impl/engines/port.py ``MoveDescription``): nothing here
unpacks an engine's state or runs the rules.
"""

from __future__ import annotations

from dataclasses import dataclass

from impl.engines.port import GameEngine, GameState, MoveDescription


@dataclass(frozen=True)
class BoardView:
    """A board as data for drawing.

    Awari: ``cells`` maps each pit letter (``a``–``f`` north's row, ``A``–``F``
    south's) to its stones and ``counts`` each side to its store.  Gothello:
    ``cells`` maps each square ``a1``–``e5`` to ``black``, ``white`` or ``""`` and
    ``counts`` each side to its stones on the board.  ``last`` is the move that led
    here, in the papers' notation, and ``captures`` the pits emptied or the stones
    turned by it."""

    game: str
    cells: tuple[tuple[str, int | str], ...]
    counts: tuple[tuple[str, int], ...]
    to_move: str
    """The side to move by the rules' state (the state is authoritative even once
    the game is over; the feed's own ``to_move`` says None then)."""
    last: str | None = None
    captures: tuple[str, ...] = ()


def board_view(engine: GameEngine, state: GameState, move: MoveDescription | None = None) -> BoardView:
    """The board of ``state``; with the ``move`` that led to it, also that move
    and its captures."""
    counts = engine.counts(state)
    return BoardView(
        game=engine.game,
        cells=engine.cells(state),
        counts=tuple((p.name, n) for p, n in zip(engine.players, counts, strict=True)),
        to_move=engine.to_move(state).name,
        last=None if move is None else move.move,
        captures=() if move is None else move.captured,
    )


def replay(engine: GameEngine, moves: list[str]) -> list[BoardView]:
    """The board before the first move and after each of ``moves`` (the papers'
    notation), replayed through ``engine``.  Stops at the first move the engine
    cannot read or refuses, so a damaged record shows as far as it is valid."""
    state = engine.initial()
    frames = [board_view(engine, state)]
    for text in moves:
        action = engine.parse_move(text)
        if action is None or engine.why_illegal(state, action) is not None:
            break
        move = engine.describe(state, action)
        state = engine.apply(state, action)[1]
        frames.append(board_view(engine, state, move))
    return frames
