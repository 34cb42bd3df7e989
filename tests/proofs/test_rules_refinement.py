"""proofs/awari/rules_refinement.py: the capture and feeds statements against the
engine on concrete rows, the rule numbers, and a planted engine bug that the composed
proof refutes; proofs/awari/slices.py --engine rules proves through its own prover
and cache.  The statement of AwariRefUnder against the spec on concrete rule sets
and states is make verify's bounded step ``statement_is_spec_referee_under`` (the
four named sets on the witnesses, all 30 on 10 corner states), not repeated here."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import z3

from impl.engines import awari as I
from proofs.awari import refinement as P
from proofs.awari import rules_refinement as R
from proofs.awari import slices as L
from proofs.symbolic import Refuted, swapped


def test_the_engines_numbers_are_the_statements() -> None:
    assert R.rules_are_the_engines_numbers() == 30
    assert R.rotation_is_a_symmetry() == 576


def _value(t: z3.ExprRef) -> int:
    return P.value(t)


@pytest.mark.parametrize("seed", range(3))
def test_capture_statement_is_the_engines_capture(seed: int) -> None:
    """capture_r_statement on concrete rows ≡ _capture_r, under every grand-slam rule."""
    rng = random.Random(seed)
    for _ in range(60):
        pits = [rng.choice([0, 1, 2, 3, 3, 2, 5]) for _ in range(6)]
        theirs = sum(c << (8 * q) for q, c in enumerate(pits))
        last = rng.randrange(6)
        for gs in range(5):
            row, gained = R.capture_r_statement(P.Row([P.k(c) for c in pits]), last, P.k(gs))
            want_row, want_gain = I._capture_r(theirs, last, gs)
            assert _value(P.pack(row)) == want_row and _value(gained) == want_gain, (pits, last, gs)


@pytest.mark.parametrize("seed", [0, pytest.param(1, marks=pytest.mark.deep), pytest.param(2, marks=pytest.mark.deep)])
def test_feeds_statement_is_the_engines_feeds(seed: int) -> None:
    """feeds_view on concrete boards (Σ ≤ 48) ≡ _feeds_r, under every grand-slam rule."""
    rng = random.Random(seed)
    for _ in range(40):
        board = [0] * 12
        for _ in range(rng.randint(1, 48)):
            board[rng.randrange(12)] += 1
        mine = sum(c << (8 * q) for q, c in enumerate(board[:6]))
        theirs = sum(c << (8 * q) for q, c in enumerate(board[6:]))
        for j in (j for j in range(6) if board[j]):
            for gs in range(5):
                got = z3.simplify(R.feeds_view([P.k(c) for c in board], j, P.k(gs)))
                assert z3.is_true(got) == I._feeds_r(mine, theirs, 8 * j, gs), (board, j, gs)


def test_a_planted_bug_in_the_rules_engine_is_refuted() -> None:
    """RulesAwari's repetition under 'uncounted' made a draw: the slice where north
    sows one stone from a (its after-move end conditions) refutes it."""
    real = P.E._ended_r

    def swapped_repetition(mine: object, theirs: object, meta: object, repeated: object, *rules: object) -> object:
        gs, rep, stuck = rules
        ended = real(mine, theirs, meta, repeated, gs, rep, stuck)
        if ended is not None and repeated and rep == R.REP_UNCOUNTED:
            return (P.E._DRAW, *ended[1:])
        return ended

    with swapped(P.E, {"_ended_r": swapped_repetition}), pytest.raises(Refuted, match="result"):
        R.apply_slice_under(0, 0, 1)


def test_the_rules_slices_have_their_own_prover_and_cache(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(L, "_engine", "rules")
    assert L.cache_path() == L.RULES_CACHE != L.CACHE
    assert "proofs.awari.rules_refinement" in L.sources()
    r = L.run_one((0, 0, 1), 600.0, "rules")
    assert (r["verdict"], r["paths"]) == ("proven", 14), r
    assert "impl.engines.awari:_play_r" in r["reads"]
