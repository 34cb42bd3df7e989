"""What a move captured, as ``referee replay`` / ``show`` and the terminal client
say it: from the engine's description of the move (``Engine.describe``), not from
comparing boards."""

from __future__ import annotations

from impl import pgn
from impl.apps import boardview
from impl.apps.replay import frames
from impl.apps.terminal_view import capture_note
from impl.engines.port import MoveDescription
from impl.engines.registry import get_engine
from impl.game import Outcome, Side, Termination


def _game_with_captures(game: str) -> tuple[list[str], list[MoveDescription]]:
    """A deterministic game (the legal moves taken in a fixed stride) and what each
    of its moves did."""
    engine = get_engine(game, "impl")
    state, moves, described = engine.initial(), list[str](), list[MoveDescription]()
    for i in range(60):
        legal = engine.legal_moves(state)
        if not legal:
            break
        action = legal[(i * 5) % len(legal)]
        described.append(engine.describe(state, action))
        moves.append(engine.format_move(action))
        _, state = engine.apply(state, action)
    return moves, described


def test_replay_marks_each_capture_as_the_engine_describes_it() -> None:
    for game in ("awari", "gothello"):
        moves, described = _game_with_captures(game)
        assert any(d.captured for d in described), game
        plies = [pgn.Ply(m, d.notation) for m, d in zip(moves, described, strict=True)]
        record = pgn.record(game, [("Game", game)], plies, Outcome(None, Termination.ERROR))
        for frame in frames(record):
            if frame.ply == 0:
                continue
            move = described[frame.ply - 1]
            note = f"last move {move.notation}" + (f", captured {' '.join(move.captured)}" if move.captured else "")
            assert note in frame.lines, (game, frame.ply, frame.lines)


def test_marks_of_a_description() -> None:
    move = MoveDescription(Side.FIRST, "F", "F3x7", 3, ("a", "b", "c"), 7, 7)
    assert boardview.marks_of(move) == boardview.Marks("F", ("a", "b", "c"), "F3x7")


def test_the_terminal_says_what_a_move_captured() -> None:
    sowing = MoveDescription(Side.FIRST, "F", "F3x7", 3, ("a", "b", "c"), 7, 7)
    assert capture_note("awari", sowing) == " (captures 7 from a b c)"
    placing = MoveDescription(Side.FIRST, "b1", "b1", 0, ("a1", "c1"), 2, 3)
    assert capture_note("gothello", placing) == " (turns a1 c1)"
    assert capture_note("gothello", MoveDescription(Side.SECOND, "pass", "pass", 0, (), 0, 0)) == ""
