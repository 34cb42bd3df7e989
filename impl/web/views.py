"""Board data for drawing, from an engine's state: the state is converted to the
spec's (``Engine.to_spec``: AwariGame, GothelloGame) and read as data, never
parsed from the text display.

Captures are the spec's own: for Awari the ``captures`` of ``Sow_Capture_corrected`` (Sow ⨟
Capture, corrected) from the position before the move; for Gothello the squares
that held the opponent's stones before the move and the mover's after it.
"""

from __future__ import annotations

from typing import Any

from spec import awari as A
from spec import gothello as G
from spec import result as R

from .feed import BoardView

FILES = "abcde"


def board_view(engine: Any, state: Any, before: Any = None, action: Any = None) -> BoardView:
    """The board of ``state``; with the state ``before`` it and the ``action``
    that led to it, also the last move and its captures."""
    after = spec_state(engine, state)
    last = engine.format_move(action) if action is not None else None
    if isinstance(after, A.AwariGame):
        captured = awari_captures(spec_state(engine, before), action) if before is not None else frozenset()
        return awari_view(after, last, tuple(p.name for p in sorted(captured, key=int)))
    assert isinstance(after, G.GothelloGame), type(after)
    turned = gothello_captures(engine.to_spec(before), after) if before is not None else ()
    return gothello_view(after, last, turned)


def spec_state(engine: Any, state: Any) -> Any:
    """The spec's state (``Engine.to_spec``), except that for the fast Awari engine the
    positions seen are left out: they are not drawn, and converting them costs a
    millisecond or more late in a game, on the loop the games share.  The position
    itself is converted as ``ImplAwari.to_spec`` converts it (``impl.engines.awari.unpack``
    of the state's key, its first three components)."""
    if engine.game == "awari" and engine.kind == "impl":
        from impl.engines.awari import unpack

        return A.game_of(unpack(state[:3]), frozenset())
    return engine.to_spec(state)


def awari_view(g: A.AwariGame, last: str | None = None, captures: tuple[str, ...] = ()) -> BoardView:
    """Pits by letter, stores by side (AwariBoard: board, score, to_move)."""
    return BoardView(
        game="awari",
        cells=tuple((p.name, g.board[p]) for p in A.PIT),
        counts=tuple((p.name, g.score[p]) for p in (A.PLAYER.south, A.PLAYER.north)),
        to_move=g.to_move.name,
        last=last,
        captures=captures,
    )


def awari_captures(before: A.AwariGame, pit: A.PIT) -> frozenset[A.PIT]:
    """The pits that Sow ⨟ Capture (corrected: A1) empties when ``pit`` is sown
    from ``before``: sow its stones counter-clockwise (pit order, the origin
    skipped); if the last pit sown is the opponent's and holds 2 or 3, capture it
    and, clockwise, every pit of the opponent's that does, until one does not.
    Checked against ``spec.awari.Sow_Capture_corrected`` in tests/web/test_view.py; the spec
    itself costs milliseconds here, too much for a view drawn during a game.
    None when Sow's precondition fails (the move did not sow)."""
    board, mover = list(before.board), before.to_move
    if any(score >= 25 for score in before.score) or pit not in _SIDE[mover] or board[pit] == 0:
        return frozenset()
    origin = int(pit)
    stones, board[origin], last = board[origin], 0, origin
    while stones:
        last = (last + 1) % 12
        if last != origin:
            board[last] += 1
            stones -= 1
    theirs = _SIDE[A.PLAYER(1 - int(mover))]
    captured = set()
    while A.PIT(last) in theirs and board[last] in (2, 3):
        captured.add(A.PIT(last))
        last = (last - 1) % 12
    return frozenset(captured)


_SIDE = {p: frozenset(A.side(p)) for p in A.PLAYER}


def square_name(square: G.SQUARE) -> str:
    file, rank = square
    return f"{FILES[file - 1]}{rank}"


def _cell(value: G.SQUAREVAL) -> str:
    return value.player.name if isinstance(value, G.stone) else ""


def gothello_view(g: G.GothelloGame, last: str | None = None, captures: tuple[str, ...] = ()) -> BoardView:
    """Squares ``a1``–``e5`` (file then rank) with their stones, stones counted by side."""
    cells = tuple((square_name((f, r)), _cell(g.board[(f, r)])) for f in range(1, 6) for r in range(1, 6))
    counts = tuple((p.name, sum(1 for _, c in cells if c == p.name)) for p in G.PLAYER)
    return BoardView(game="gothello", cells=cells, counts=counts, to_move=g.to_move.name, last=last, captures=captures)


def gothello_captures(before: G.GothelloGame, after: G.GothelloGame) -> tuple[str, ...]:
    """The squares turned by the move from ``before`` to ``after``: the opponent's
    stones that became the mover's."""
    mover, opponent = G.stone(before.to_move), G.stone(G.PLAYER(1 - int(before.to_move)))
    return tuple(
        square_name((f, r))
        for f in range(1, 6)
        for r in range(1, 6)
        if before.board[(f, r)] == opponent and after.board[(f, r)] == mover
    )


def replay(engine: Any, moves: list[str]) -> list[BoardView]:
    """The board before the first move and after each of ``moves`` (the papers'
    notation), replayed through ``engine``.  Stops at the first move the engine
    cannot read or refuses, so a damaged record shows as far as it is valid."""
    state = engine.initial()
    frames = [board_view(engine, state)]
    for text in moves:
        action = engine.parse_move(text)
        if action is None:
            break
        result, after = engine.apply(state, action)
        if result == R.illegal_move:
            break
        frames.append(board_view(engine, after, state, action))
        state = after
    return frames
