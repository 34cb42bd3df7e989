"""Rules and contracts of spec/awari.py and spec/gothello.py that mutants survived in
the other tests (make mutate, tests/mutation/results/mutation-report.md names each mutant)."""

from __future__ import annotations

import icontract
import pytest

from spec import contracts
from spec.awari import PIT, PLAYER, After, AwariGame, InitAwari, InitAwariBoard, Sow_Capture, Sow_Capture_corrected
from spec.gothello import SQUARES, move
from tests.support.gothello_states import mv

needs_contracts = pytest.mark.skipif(not contracts.ENABLED, reason="SPEC_CONTRACTS=0")


@needs_contracts
@pytest.mark.parametrize("sow_capture", [Sow_Capture_corrected, Sow_Capture])
def test_awari_sow_capture_requires_pre_sow(sow_capture: object) -> None:
    """Sow ⨟ Capture is defined only where Sow is (pre Sow): a pit of the player to
    move, not empty, on a well-formed board.  Its own precondition fires, not only
    Sow's inside it (kills ``and`` → ``or`` in Sow_Capture's precondition)."""
    s = InitAwariBoard()  # south to move: a is north's pit
    assert s.to_move == PLAYER.south
    with pytest.raises(icontract.ViolationError, match="pre Sow"):
        sow_capture(s, PIT.a)  # type: ignore[operator]


def test_awari_after_state_only_when_determined() -> None:
    """An After that leaves a component free describes many after-states, not one:
    asking for the after-state is an error (kills ``and`` → ``or`` in After.state)."""
    g = InitAwari()
    for free in (
        After(board=None, score=g.score, to_move=g.to_move, positions=g.positions),
        After(board=g.board, score=None, to_move=g.to_move, positions=g.positions),
        After(board=g.board, score=g.score, to_move=None, positions=g.positions),
    ):
        with pytest.raises(AssertionError):
            free.state()
    whole = After(board=g.board, score=g.score, to_move=g.to_move, positions=g.positions)
    assert whole.completions() == 1 and whole.state() == AwariGame(g.board, g.score, g.to_move, g.positions)


def test_awari_after_with_too_many_stones_has_no_completion() -> None:
    """AwariBoard's invariant Σ board + Σ score = 48 cannot be met when the fixed
    component already holds more than 48 stones: no after-state, so 0 completions —
    never a negative count (kills ``else 0`` → ``else -1`` in After.completions)."""
    over = (49, *[0] * 11)
    assert After(board=over, score=None, to_move=PLAYER.north, positions=frozenset()).completions() == 0
    assert After(board=over, score=None, to_move=None, positions=frozenset()).completions() == 0
    assert After(board=None, score=(49, 0), to_move=None, positions=frozenset()).completions() == 0
    # At the edge, 48 stones on the board leave exactly one score, (0, 0).
    full = (48, *[0] * 11)
    assert After(board=full, score=None, to_move=PLAYER.north, positions=frozenset()).completions() == 1


def test_gothello_move_shows_the_papers_square_name() -> None:
    """A move is shown in the papers' notation, file letter then rank digit, for every
    square (kills ``return None`` in move.__repr__, which makes repr raise)."""
    assert repr(mv("c4")) == "move(c4)" and repr(move((1, 5))) == "move(a5)"
    for file, rank in SQUARES:
        assert repr(move((file, rank))) == f"move({'abcde'[file - 1]}{rank})"
