"""proofs.equivalence --all-rules: RulesAwari itself against the spec under every
combination the server accepts, and the lap boards under rule sets that take every value
of every dimension."""

from __future__ import annotations

import pytest

from impl.engines import awari as AW
from proofs import equivalence as E
from spec import awari_rules as AR

GRAND_SLAM = (0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0)
"""The stone of pit 5 sown into pit 6's one: a capture of the opponent's last stone, for
the side whose row pit 5 ends (and one stone each for the other side)."""


def test_the_lap_rule_sets_take_every_value_of_every_dimension() -> None:
    chosen = E.lap_rule_sets()
    assert set(AR.RULE_SETS.values()) <= set(chosen) <= set(AR.ALL_COMBINATIONS)
    assert {r.grand_slam for r in chosen} == set(AR.GrandSlamRule)
    assert {r.repetition for r in chosen} == set(AR.RepetitionRule)
    assert {r.cannot_move for r in chosen} == set(AR.CannotMoveRule)


def test_every_combination_runs_on_rules_awari_with_no_difference() -> None:
    cases, diffs = E.every_rule_set(GRAND_SLAM, band=True, lap=False)
    assert diffs == [] and cases > 0
    assert all(isinstance(E.awari_engines(r, True)[1], AW.RulesAwari) for r in (AR.PAPER, AR.ABAPA))


def test_a_rules_awari_slam_that_takes_the_last_pit_differs(monkeypatch: pytest.MonkeyPatch) -> None:
    """abapa's grand slam played as (d), in RulesAwari only: a difference under abapa
    on the grand-slam board, none under the paper's rules (not rule (b))."""
    capture = AW._capture_r
    monkeypatch.setattr(
        AW, "_capture_r", lambda theirs, last, gs: capture(theirs, last, AW.GS_D if gs == AW.GS_B else gs)
    )
    _, diffs = E.awari_board(GRAND_SLAM, AR.ABAPA, True, True)
    assert diffs, "the planted grand slam went unnoticed under abapa"
    assert E.awari_board(GRAND_SLAM, AR.PAPER, True, True)[1] == []
