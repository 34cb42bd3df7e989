"""The refinement proofs' z3 statements of the referees are compared with the spec in
the very step that uses them (proofs.gothello.refinement, proofs.awari.refinement):
the comparisons pass on the statements as written (make verify's bounded steps run
them: ``statement_is_spec_on_witnesses_and_corner`` …, not repeated here) and fail
on a planted misreading (here)."""

from __future__ import annotations

import pytest

from proofs.awari import refinement as AR
from proofs.gothello import refinement as GR
from spec import gothello as G


def test_a_gothello_statement_blind_to_one_capture_direction_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    """Planted: the statement's captures never look down the file letter (to (f − 1, r))."""
    adj = {s: [t for t in ts if t != (s[0] - 1, s[1])] for s, ts in GR.ADJ.items()}
    monkeypatch.setattr(GR, "ADJ", adj)
    monkeypatch.setattr(GR, "_GROWN", {})  # groups grown with the real ADJ must not be reused, nor these kept
    with pytest.raises(AssertionError):
        GR.statement_is_spec_on(GR.witness_cases())


def test_a_gothello_statement_that_captures_before_the_liberty_test_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    """Planted: blocked is judged on the board after the captures (the liberty test reordered)."""
    real = GR.placement

    def reordered(mine: GR.Z, theirs: GR.Z, s: G.SQUARE) -> tuple[GR.Z, GR.Z, GR.Z]:
        _, mine_, theirs_ = real(mine, theirs, s)
        blank = GR.k(GR.FULL) & ~(mine_ | theirs_)
        return GR.no_liberty(GR.grow(GR.k(1 << GR.bit(s)), mine_), blank), mine_, theirs_

    monkeypatch.setattr(GR, "placement", reordered)
    with pytest.raises(AssertionError):
        GR.statement_is_spec_on(GR.witness_cases())


def test_the_awari_statement_is_the_spec_on_the_witnesses() -> None:
    assert AR.statement_is_spec_on_witnesses() > 0


def test_an_awari_statement_with_short_capture_chains_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    """Planted: the statement's capture reads at most two pits of a chain."""
    real = AR.chain
    monkeypatch.setattr(AR, "chain", lambda t, q: real(t, q)[:2])
    monkeypatch.setattr(AR, "_STEPS", {})
    with pytest.raises(AssertionError):
        AR.statement_is_spec_on_witnesses()


def test_the_history_classes_are_derived_from_the_abstraction() -> None:
    """Every length histories() models, each read entry a pass or a placement, the
    longest with an unread tail: the ended game and a pass after a pass among them."""
    classes = GR.history_classes()
    assert len(set(classes)) == len(classes) == 1 + 2 + 4 + 4
    assert {len(h) for h in classes} == {0, 1, 2, 3}
    assert (G.pass_, G.pass_) in classes and (G.pass_,) in classes and () in classes


def test_the_statement_is_the_spec_under_the_ended_history() -> None:
    assert GR.history_class_cases(((G.pass_, G.pass_), False)) > 0


def test_a_spec_whose_move_holds_after_the_end_fails_the_comparison(monkeypatch: pytest.MonkeyPatch) -> None:
    """A spec that lets the game go on after two passes: the statement ends it, refuted."""
    ended = G.GothelloGame(GR._spec_board(0, 0), G.PLAYER.black, (G.pass_, G.pass_))
    monkeypatch.setattr(G, "game_over", lambda g: False)
    with pytest.raises(AssertionError):
        GR.statement_is_spec_on([(ended, GR.bit((1, 1)))])


def test_the_gothello_statement_is_the_spec_on_the_witnesses() -> None:
    """The statement as written ≡ the spec on the 60 witness states (captures every way
    round the placed stone among them): a slip in the statement itself fails here, as
    in the bounded refinement step (proofs/planted.py plants one)."""
    assert GR.statement_is_spec_on(GR.witness_cases()) == len(GR.witness_cases())
