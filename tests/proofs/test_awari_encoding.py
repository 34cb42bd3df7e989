"""The z3 encoding of the corrected AwariRef (proofs/awari/encoding.py) agrees with
spec/awari.py on concrete states: the disjunct whose guard holds is the one the spec
reports, with the same after-state, positions and result."""

from __future__ import annotations

import random
from typing import Any

import pytest
import z3

from proofs.awari import encoding as E
from proofs.awari.encoding import Pre
from proofs.awari.encoding_check import RESULTS
from proofs.awari.exhaustive import successor
from proofs.awari.theorems import game_of
from spec import awari as A
from tests.support.profiles import seeds


def random_case(rng: random.Random) -> tuple[A.AwariBoard, A.PIT, bool, bool]:
    """A state (often near the end: few stones, high scores), an action, rep, rep_next."""
    k = rng.choice((rng.randint(0, 48), rng.randint(0, 10), rng.randint(0, 4)))
    board = [0] * 12
    pits = rng.sample(range(12), rng.randint(1, 12))
    for _ in range(k):
        board[rng.choice(pits)] += 1
    north = rng.choice((rng.randint(0, 48 - k), min(48 - k, rng.randint(18, 26))))
    s = A.AwariBoard(tuple(board), (north, 48 - k - north), rng.choice(tuple(A.PLAYER)))
    return s, rng.choice(tuple(A.PIT)), rng.random() < 0.2, rng.random() < 0.2


def value(term: Any) -> Any:
    return z3.simplify(term)


def check(s: A.AwariBoard, move: A.PIT, rep: bool, rep_next: bool) -> None:
    g0 = A.game_of(s, frozenset())
    positions = set()
    if rep:
        positions.add(s)
    nxt = successor(g0, move)
    if rep_next and nxt is not None:
        positions.add(nxt)
    g = A.game_of(s, frozenset(positions))
    (outcome,) = A.AwariRef_corrected(g, move)
    after = outcome.after.state()

    # The encoding applied to constants: every term is ground, and simplifies to a value.
    pre = Pre(
        int(s.to_move),
        [z3.IntVal(v) for v in s.board],
        (z3.IntVal(s.score[0]), z3.IntVal(s.score[1])),
        z3.BoolVal(rep),
        z3.BoolVal(rep_next and nxt is not None),
        z3.IntVal(int(move)),
    )
    disjuncts = E.disjuncts(pre)
    holding = [n for n, d in disjuncts.items() if z3.is_true(value(d.guard))]
    assert holding == [outcome.schema], (g, move)
    d = disjuncts[outcome.schema]
    assert tuple(value(x).as_long() for x in d.after.board) == after.board
    assert tuple(value(x).as_long() for x in d.after.score) == after.score
    assert d.after.to_move == int(after.to_move)
    assert value(d.after.result).as_long() == RESULTS[outcome.result]
    # positions' = positions ∪ S, S ⊆ {θ, θ'}: the encoding says which of the two are in it.
    theta = A.θAwariBoard(g)
    assert z3.is_true(value(z3.Or(d.after.add, pre.rep))) == (theta in after.positions)
    if nxt is not None:
        assert z3.is_true(value(z3.Or(d.after.add_next, pre.rep_next))) == (nxt in after.positions)
    assert after.positions <= g.positions | {theta} | ({nxt} if nxt else set())


@pytest.mark.parametrize("seed", seeds(10, verify=4))
def test_the_encoding_agrees_with_the_spec(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(6):
        check(*random_case(rng))


@pytest.mark.parametrize("me", [0, 1])
def test_a_z3_witness_of_every_disjunct_agrees_with_the_spec(me: int) -> None:
    """Each disjunct's guard is met by some model, and the spec agrees on it: the
    random cases above need not reach every disjunct (a grand slam is rare)."""
    pre = Pre.fresh(me)
    for name, d in E.disjuncts(pre).items():
        solver = z3.Solver()
        solver.add(pre.wellformed(), d.guard)
        assert solver.check() == z3.sat, name
        g, move = game_of(solver.model(), pre)
        rep = A.θAwariBoard(g) in g.positions
        s = A.θAwariBoard(g)
        nxt = successor(A.game_of(s, frozenset()), move)
        check(s, move, rep, nxt is not None and nxt in g.positions)


def test_the_chain_witnesses_capture_whole_chains() -> None:
    """proofs/awari/encoding_check.py's chain witnesses capture a chain of the length
    they name (on the spec), so they exercise the chain in the encoding's capture."""
    from proofs.awari.encoding_check import witnesses

    chains = [(name, case) for name, case in witnesses() if name.startswith("chain of")]
    assert len(chains) == sum(6 - length + 1 for length in range(1, 6))
    for name, (s, move, _, _) in chains:
        length = int(name.split()[2])
        (outcome,) = A.AwariRef_corrected(A.game_of(s, frozenset()), move)
        after = outcome.after.state()
        assert outcome.schema == "NormalMove", name
        taken = [p for p in range(6) if s.board[p] > 0 and after.board[p] == 0]
        assert len(taken) == length, (name, s, after.board)
        assert after.score[1] - s.score[1] == sum(s.board[p] + 1 for p in taken), name


def test_the_encodings_state_predicate_is_awariboards() -> None:
    """The step's check of AwariBoard's predicate finds nothing on the real spec, and
    finds a weakened predicate (Σ ≤ 48, proofs/planted.py's awari-invariant-weakened) and
    a strengthened one (no score of 0 allowed) on its edge cases."""
    from proofs.awari import encoding_check

    assert encoding_check.invariant_problems() == []

    def weakened(s: A.AwariBoard) -> bool:
        return A.is_BOARD(s.board) and A.is_SCORE(s.score) and sum(s.board) + sum(s.score) <= 48

    def strengthened(s: A.AwariBoard) -> bool:
        return real(s) and 0 not in s.score

    real = A.AwariBoard_invariant
    for wrong in (weakened, strengthened):
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(A, "AwariBoard_invariant", wrong)
            assert encoding_check.invariant_problems()
