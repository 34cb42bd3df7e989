"""The rule-set well-foundedness run (proofs/awari/exhaustive_rules.py) can fail: planted
overlaps and a planted gap in AwariRefUnder's disjuncts are reported, while the spec's
own disjuncts give nothing on the same states."""

from __future__ import annotations

import pytest

from proofs.awari import exhaustive_rules as E
from spec import awari as A
from spec import awari_rules as R

# One stone at each end of each row; north's f1 sown onto south's A1, alone (a grand
# slam) or beside B1 (a capture): starved rows, captures and sowings that go on.
BOARDS: tuple[A.BOARD, ...] = (
    *(tuple(int(p == q) for p in range(12)) for q in (0, 5, 6, 11)),
    (0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0),
    (0, 0, 0, 0, 0, 1, 1, 1, 0, 0, 0, 0),
)
NORTH_SCORES = (23, 24)


def run(rules: R.AwariRules) -> E.Tally:
    total = E.Tally()
    for board in BOARDS:
        total.merge(E.check_board(rules, board, [(n, 48 - sum(board) - n) for n in NORTH_SCORES]))
    return total


def theorems(t: E.Tally) -> set[tuple[str, str]]:
    return set(t.counts)


@pytest.mark.parametrize("name", sorted(R.RULE_SETS))
def test_the_spec_has_no_finding_on_these_states(name: str) -> None:
    rules = R.RULE_SETS[name]
    t = run(rules)
    assert t.counts == {}
    assert {"StarvedOut", "IllegalMove", "SowUnder", "SowUnder ⨟ WinMargin", "Repetition"} <= t.held


def test_a_repetition_that_ignores_positions_overlaps_starved_out(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ended returns its first end condition, so AwariRefUnder alone shows one outcome;
    evaluating each end condition on its own finds the overlap."""
    rules = R.OLYMPIAD_1994

    def repetition(rules: R.AwariRules, g: A.AwariGame) -> A.Outcome | None:
        if not (all(n < 25 for n in g.score) and any(g.board[p] for p in A.side(g.to_move))):
            return None
        return A.determined("Repetition", A.draw, g)

    monkeypatch.setattr(R, "Repetition", repetition)
    t = run(rules)
    assert ("(a) disjoint", "Repetition ∧ StarvedOut") in theorems(t)
    assert "StarvedOut" not in t.held
    assert "(d) satisfiable: StarvedOut never held in this scope" in E.report(rules, t)


def test_an_illegal_move_that_holds_too_often_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    """IllegalMoveUnder that also refuses a pit of one stone overlaps SowUnder."""
    rules = R.ABAPA
    spec_illegal = R.IllegalMoveUnder

    def illegal(rules: R.AwariRules, g: A.AwariGame, move: A.PIT) -> A.Outcome | None:
        one = move in A.side(g.to_move) and g.board[move] == 1 and R.Ended(rules, g) is None
        return A.determined("IllegalMove", A.illegal_move, g) if one else spec_illegal(rules, g, move)

    monkeypatch.setattr(R, "IllegalMoveUnder", illegal)
    found = {detail for theorem, detail in theorems(run(rules)) if theorem == "(a) disjoint"}
    assert {"IllegalMove ∧ SowUnder", "IllegalMove ∧ SowUnder ⨟ StarvedOut"} <= found


def test_a_gap_and_a_dead_disjunct_are_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    """SowUnder that never ends the game leaves a gap where the sowing would."""
    rules = R.OLYMPIAD_1990
    spec_sow = R.SowUnder

    def sow(rules: R.AwariRules, g: A.AwariGame, move: A.PIT) -> A.Outcome | None:
        o = spec_sow(rules, g, move)
        return o if o is None or o.schema == "SowUnder" else None

    monkeypatch.setattr(R, "SowUnder", sow)
    t = run(rules)
    assert ("(b) total", "none") in theorems(t)
    problems = E.report(rules, t)
    assert "(d) satisfiable: SowUnder ⨟ WinMargin never held in this scope" in problems


def test_a_disjunct_outside_the_rule_set_is_reported() -> None:
    """GrandSlam is no disjunct under (b): its holding would be a finding."""
    t = E.Tally(held=set(E.expected(R.PAPER)))
    assert "(d) GrandSlam held, which expected() says it cannot" in E.report(R.ABAPA, t)
    assert not [p for p in E.report(R.PAPER, t) if p.startswith("(d)")]


def test_expected_disjuncts_per_rule_set() -> None:
    assert "GrandSlam" in E.expected(R.PAPER)
    assert "GrandSlam" not in E.expected(R.ABAPA)
    assert "SowUnder ⨟ CannotMove" in E.expected(R.OLYMPIAD_1990)
    assert "SowUnder ⨟ CannotMove" not in E.expected(R.ABAPA)
    assert "SowUnder ⨟ CannotMove" not in E.expected(R.PAPER)


def test_the_manifest_proves_every_named_rule_set() -> None:
    """A rule set added to RULE_SETS joins the proof steps (proofs/manifest.py)."""
    from proofs import manifest

    assert set(manifest.VARIANTS) == set(R.RULE_SETS) - {"paper"}
    proved = {a for s in manifest.STEPS if s.module == "proofs.awari.exhaustive_rules" for a in s.args}
    assert set(R.RULE_SETS) <= proved
