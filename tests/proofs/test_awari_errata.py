"""The classification of literal failures (proofs/awari/errata.py) can fail: a planted
literal defect that is no erratum of the paper is reported as NEW, while the paper's
own literal schemas leave nothing unclassified on the same states."""

from __future__ import annotations

import pytest

from proofs.awari import errata
from proofs.awari.exhaustive import Tally, check_board
from spec import awari as A

# One stone on the board, on each side and at each end of a row: the literal gaps,
# overlaps and free after-states all occur here.
BOARDS: tuple[A.BOARD, ...] = tuple(tuple(int(p == q) for p in range(12)) for q in (0, 5, 6, 11))


def labels(t: Tally) -> set[str]:
    return {label for (reading, _, label) in t.counts if reading == "literal"}


def run(boards: tuple[A.BOARD, ...]) -> Tally:
    total = Tally()
    for board in boards:
        total.merge(check_board((board, False)))
    return total


def planted_no_move(g: A.AwariGame, move: A.PIT) -> A.Outcome | None:
    """NoMove with a planted defect: it holds when the mover has at most one
    stone (≤ 1 for = 0), with no repetition — no erratum of the paper says that."""
    if not (A._scores_below_25(A.θAwariBoard(g)) and sum(g.board[p] for p in A.side(g.to_move)) <= 1):
        return None
    positions_, _ = A.AwariMove(g)
    score_ = A.ClaimStones(g.score, g.board)
    return A.Outcome("NoMove", A.winner(score_), A.After(None, score_, None, positions_))


def test_the_papers_literal_failures_are_all_classified() -> None:
    found = labels(run(BOARDS))
    assert "NEW" not in found
    assert {"A1+A8", "A8", "A12", "A5", "A6", "A7", "A5+A9"} <= found


def test_a_planted_literal_defect_is_reported_as_new(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(A, "NoMove", planted_no_move)
    t = run(BOARDS)
    new = [key for key in t.counts if key[0] == "literal" and key[2] == "NEW"]
    assert ("literal", "(a) disjoint", "NEW") in new, sorted(t.counts)


def test_a12_needs_a_repetition() -> None:
    """The overlap NormalMove ∧ NoMove without θAwariBoard ∈ positions is not A12."""
    g = A.AwariGame(BOARDS[3], (23, 24), A.PLAYER.south, frozenset())
    normal = A.Outcome("NormalMove", A.not_done, A.After(g.board, g.score, g.to_move, g.positions))
    no_move = A.Outcome("NoMove", A.draw, A.After(None, (24, 24), None, g.positions))
    f = errata.Failure("(a) disjoint", g, A.PIT(11), (normal, no_move))
    assert errata.classify(f) == "NEW"
    seen = A.AwariGame(g.board, g.score, g.to_move, frozenset({A.θAwariBoard(g)}))
    assert errata.classify(errata.Failure("(a) disjoint", seen, A.PIT(11), (normal, no_move))) == "A12"


def test_a_gap_with_a_fed_opponent_is_new() -> None:
    """A gap is put down to A8 or A15 only where the opponent starves."""
    g = A.AwariGame((1,) * 12, (18, 18), A.PLAYER.south, frozenset())
    assert errata.classify(errata.Failure("(b) total", g, A.PIT(6), ())) == "NEW"
