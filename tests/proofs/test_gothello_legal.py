"""The pieces of the proof of impl/engines/gothello.py's ``legal_moves`` (proofs/gothello/refinement.py,
proofs/README.md §8.2): the per-file tables of ``_moves`` give the spec's moves, the
contract of ``_legal_bit`` is the engine's on concrete boards, and the bounded proof
steps run and catch planted bugs."""

from __future__ import annotations

import itertools
import random

import pytest
import z3

from impl.engines import gothello as I
from proofs.gothello import refinement as R
from proofs.gothello.encoding import random_stones
from proofs.symbolic import Refuted, var
from spec import gothello as G

SPEC_ORDER = [G.move(s) for s in sorted(G.SQUARES)]
CORNER = sum(1 << R.bit((f, r)) for f in (1, 2) for r in (1, 2))


def _spec_moves(mask: int) -> tuple[G.MOVE, ...]:
    return (*(m for i, m in enumerate(SPEC_ORDER) if mask >> i & 1), G.pass_)


def _board(rng: random.Random) -> tuple[int, int]:
    """Disjoint stones of the mover and of the other player, of a random density."""
    return random_stones(rng, rng.random())


def test_moves_of_no_square_is_pass() -> None:
    assert I._moves(0) == (G.pass_,)


@pytest.mark.parametrize("square", sorted(G.SQUARES))
def test_moves_of_one_square_is_its_placement_then_pass(square: G.SQUARE) -> None:
    assert I._moves(1 << R.bit(square)) == (G.move(square), G.pass_)


def test_moves_of_several_squares_are_in_the_spec_order() -> None:
    rng = random.Random(10)
    masks = [I._FULL, 0b10101 << 20 | 0b11, 1 << 24 | 1, *(rng.getrandbits(25) for _ in range(200))]
    for mask in masks:
        assert I._moves(mask) == _spec_moves(mask), hex(mask)


@pytest.mark.parametrize("seed", range(3))
def test_legal_bit_is_blank_and_place_accepted(seed: int) -> None:
    """``_legal_bit`` skips ``_place``'s captures: it must still agree with it."""
    rng = random.Random(seed)
    for _ in range(100):
        mine, theirs = _board(rng)
        for i in range(25):
            blank = not (mine | theirs) >> i & 1
            assert I._legal_bit(mine, theirs, i) == int(blank and I._place(mine, theirs, i) >= 0), (mine, theirs, i)
        assert I._legal_mask(mine, theirs) == sum(I._legal_bit(mine, theirs, i) << i for i in range(25))


def test_legal_bit_contract_is_legal_bit() -> None:
    """The contract's term for every square, at the values of a few concrete boards."""
    mine, theirs = var("cmine", 25), var("ctheirs", 25)
    terms = [R.legal_bit_contract(mine, theirs, i).e for i in range(25)]
    rng = random.Random(3)
    for _ in range(6):
        m, t = _board(rng)
        values = [(mine.e.arg(0), z3.BitVecVal(m, 25)), (theirs.e.arg(0), z3.BitVecVal(t, 25))]
        for i, contract in enumerate(terms):
            got = z3.simplify(z3.substitute(contract, *values))
            assert got.as_long() == I._legal_bit(m, t, i), (m, t, i)


def test_the_bounded_steps_hold() -> None:
    assert R.legal_bit_refines([(1, 1)], CORNER) == 4
    assert R.moves_in_spec_order(R.SOME_MASKS, jobs=1) == 1024 + 3 * 32


def test_every_mask_is_in_the_full_step() -> None:
    spans = R.EVERY_MASK
    assert spans[0].start == 0 and spans[-1].stop == 1 << 25
    assert all(a.stop == b.start and a.step == 1 for a, b in itertools.pairwise(spans))


def test_a_legal_bit_that_ignores_blocking_is_refuted(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(R.E, "_legal_bit", lambda mine, theirs, i: 0 if (mine | theirs) >> i & 1 else 1)
    with pytest.raises(Refuted, match="legal bit"):
        R.legal_bit_refines([(1, 1)], CORNER)


def test_a_table_out_of_order_is_refuted(monkeypatch: pytest.MonkeyPatch) -> None:
    table = list(R.E._MOVES_C)
    table[0b00011] = tuple(reversed(table[0b00011]))  # c2 before c1
    monkeypatch.setattr(R.E, "_MOVES_C", tuple(table))
    with pytest.raises(AssertionError, match=hex(0b00011 << 10)):
        R.moves_in_spec_order(R.SOME_MASKS, jobs=1)


@pytest.mark.deep
def test_a_mask_that_skips_a_square_is_refuted(monkeypatch: pytest.MonkeyPatch) -> None:
    """≈ 40 s: once the path's goals fail together, each of its ≈ 50 obligations and
    goals is checked alone, every query over the statement of 25 placements."""

    def skips_a1(mine: int, theirs: int) -> int:
        return sum(R.E._legal_bit(mine, theirs, i) << i for i in range(1, 25))

    monkeypatch.setattr(R.E, "_legal_mask", skips_a1)
    with pytest.raises(Refuted, match="legal 0"):
        R.legal_moves_refine((0,))
