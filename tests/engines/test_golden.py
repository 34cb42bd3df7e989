"""The golden corpora (tests/support/golden.py, tests/data/golden-*.txt): every pinned state's
answers — legal moves, the end, and every action's result and next state — from the
fast engines and from the spec, against the digests written from the spec.

The engines answer every case (a fraction of a second); the spec, contracts on,
answers ``SPEC_CASES`` cases spread over the corpus here and every case under ``deep``.  These are
the first tests the mutation tester (tests/mutation/) runs: a change of behaviour
anywhere in a rule shows on some pinned state."""

from __future__ import annotations

import pytest

from tests.support import golden

SPEC_CASES = 30
"""Cases of the paper's rules the spec answers in make verify (with contracts on); all under deep."""


@pytest.mark.parametrize("game", ["awari", "gothello"])
def test_engines_answer_as_the_corpus(game: str) -> None:
    """impl/engines/awari.py (every rule set) and impl/engines/gothello.py on every pinned state."""
    bad = list(golden.mismatches(game, "impl", golden.read(game)))
    assert not bad, f"{len(bad)} cases differ, the first:\n" + "\n".join(bad[:3])


def spread(cases: list[golden.Case]) -> list[golden.Case]:
    """``SPEC_CASES`` cases spread evenly over the paper's rules, and a sixth as many over
    the other rule sets (whose general referee is five times slower)."""
    paper = [c for c in cases if c.rules in ("paper", "-")]
    other = [c for c in cases if c.rules not in ("paper", "-")]
    out = paper[:: max(1, len(paper) // SPEC_CASES)]
    return out + other[:: max(1, len(other) // (SPEC_CASES // 6))] if other else out


@pytest.mark.parametrize("game", ["awari", "gothello"])
def test_spec_answers_as_the_corpus(game: str) -> None:
    """The spec on ``SPEC_CASES`` cases spread evenly over the corpus."""
    bad = list(golden.mismatches(game, "spec", spread(golden.read(game))))
    assert not bad, f"{len(bad)} cases differ, the first:\n" + "\n".join(bad[:3])


@pytest.mark.deep
@pytest.mark.parametrize("game", ["awari", "gothello"])
def test_spec_answers_as_the_corpus_everywhere(game: str) -> None:
    bad = list(golden.mismatches(game, "spec", golden.read(game)))
    assert not bad, f"{len(bad)} cases differ, the first:\n" + "\n".join(bad[:3])


def test_the_corpus_reaches_the_corners() -> None:
    """The corpus holds what it promises: every rule set, laps into a starved row
    that the feeding test refuses, grand slams, repeated positions, ended games."""
    awari = golden.read("awari")
    from spec import awari_rules as AR

    named = {c.rules for c in awari}
    assert {r.name for r in AR.ALL_COMBINATIONS if r.name in named} | {"paper"} == named
    assert len(named) == 30  # the paper's rules and the 29 other combinations
    assert any(c.seen != "-" and c.seen.split(",")[0] == c.state.split(",")[0] for c in awari)
    gothello = golden.read("gothello")
    assert any("history pass pass" in c.state for c in gothello)
    assert any(sum(len(w) == 2 for w in c.state.split(",")[0].split()) == 25 for c in gothello)  # full


def test_outcome_text_names_every_action() -> None:
    """The digest covers all 12 pits / 26 Gothello actions and the legal moves."""
    case = golden.read("awari")[0]
    engine = golden.ENGINES["awari"]["impl"](case.rules)
    text = golden.outcome_text("awari", engine, golden.game_of("awari", case))
    assert text.count(" -> ") == 12 and text.startswith("legal ")
    g = golden.read("gothello")[0]
    text = golden.outcome_text("gothello", golden.ENGINES["gothello"]["impl"]("-"), golden.game_of("gothello", g))
    assert text.count(" -> ") == 26


def test_write_usage_error() -> None:
    assert golden.main([]) == 2
    assert golden.main(["--write", "chess"]) == 2
