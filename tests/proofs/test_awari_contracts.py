"""The contracts that stand for impl/engines/awari.py's primitives inside the composition
proof (proofs/awari/refinement.py) agree with the primitives on concrete rows, and
the composition's slices cover every state and action."""

from __future__ import annotations

import random

import pytest
import z3

from impl.engines import awari as I
from proofs import symbolic
from proofs.awari import refinement as R
from proofs.symbolic import WIDTH, Refuted, Sym, SymBool, explore, var


def _int(x: Sym | int) -> int:
    return R.value(x.e) if isinstance(x, Sym) else x


def _bool(x: SymBool | bool) -> bool:
    return z3.is_true(z3.simplify(x.e)) if isinstance(x, SymBool) else x


def _row(rng: random.Random, budget: int = 48) -> int:
    """A packed row of six pits holding at most ``budget`` stones in all."""
    pits = [0] * 6
    for _ in range(rng.randint(0, budget)):
        pits[rng.randrange(6)] += 1
    return sum(c << (8 * q) for q, c in enumerate(pits))


@pytest.mark.parametrize("seed", range(4))
def test_row_sum_contract_is_row_sum(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(100):
        row = _row(rng)
        assert _int(R.row_sum_contract(row)) == I._row_sum(row)


@pytest.mark.parametrize("seed", range(4))
def test_capture_contract_is_capture(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(100):
        theirs = sum(rng.choice([0, 1, 2, 2, 3, 3, 4, 7]) << (8 * q) for q in range(6))
        last = rng.randrange(6)
        row, gained = R.capture_contract(theirs, last)
        assert (_int(row), _int(gained)) == I._capture(theirs, last)


@pytest.mark.parametrize("seed", range(4))
def test_cannot_feed_contract_is_cannot_feed(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(60):
        mine = _row(rng, rng.choice([3, 12, 48]))
        theirs = 0 if rng.random() < 0.8 else _row(rng, 5)
        assert _bool(R.cannot_feed_contract(mine, theirs)) == I._cannot_feed(mine, theirs)


def test_winner_contract_is_winner() -> None:
    """On every pair of scores (and both movers' meta): the contract's verdict is the
    engine's, and a refuted _winner (ties to north) is caught by its proof."""
    for north in range(49):
        for south in range(49 - north):
            for me in (0, 1):
                meta = north | south << 8 | me << 16
                assert R.value(R.winner_contract(meta).code) == R.CODES[I._winner(meta)]
    assert R.winner_matches_statement() == 3


def test_a_wrong_winner_is_refuted(monkeypatch: pytest.MonkeyPatch) -> None:
    def ties_to_north(meta: int) -> object:
        north, south = meta & 255, meta >> 8 & 255
        return I._WIN[0] if north >= south else I._WIN[1]

    monkeypatch.setattr(R.E, "_winner", ties_to_north)
    with pytest.raises(Refuted, match="winner"):
        R.winner_matches_statement()


def test_the_slices_cover_every_action_and_count() -> None:
    slices = R.every_slice()
    assert len(slices) == len(set(slices)) == 2 * (6 * 49 + 6)
    for mover in (0, 1):
        for m in range(12):
            mine = [n for side, pit, n in slices if (side, pit) == (mover, m)]
            assert mine == (list(range(49)) if m in R.SIDE[mover] else [None])
    assert set(R.BOUNDED_SLICES) <= set(slices)


def test_every_board_fits_the_cell_variables() -> None:
    """Board.fresh's pit and score variables have CELL bits: every AwariBoard's
    cells (each ≤ Σ = 48) are among their values, so no board is left out."""
    assert 1 << R.CELL > 48
    b = R.Board.fresh("t")
    assert all(x.arg(0).size() == R.CELL for x in (*b.board, *b.score))


def test_a_narrow_width_keeps_the_overflow_obligations() -> None:
    """The proof's 64-bit terms stay exact: a shift past 2⁶³ is refuted, not wrapped."""
    x = R.var("x", 48)
    assert x.e.size() == R.WIDTH == 64
    assert explore([], lambda: x << 15, lambda out: []) == 1
    with pytest.raises(Refuted, match="<< overflows"):
        explore([], lambda: x << 16, lambda out: [])


def test_row_sum_product_needs_its_128_bit_proof() -> None:
    """_row_sum's product (up to 2⁸⁸) overflows 64-bit terms: on those the engine's
    code is refuted, which is why row_sum_is_byte_sum runs at 128 bits and the
    composition uses its contract."""
    with pytest.raises(Refuted, match=r"\* overflows"):
        explore([], lambda: R.E._row_sum(R.var("r", 48)), lambda out: [])
    assert R.row_sum_is_byte_sum() == 1


def test_mixing_widths_is_refused() -> None:
    with pytest.raises(AssertionError, match="different widths"):
        _ = R.var("a", 8) + var("b", 8, 128)


def _as_row(x: int) -> R.Row:
    return R.Row([R.k(x >> (8 * q) & 255) for q in range(6)])


@pytest.mark.parametrize("seed", range(4))
def test_a_row_computes_as_the_packed_int(seed: int) -> None:
    """Row, the byte-by-byte form of a packed row, gives the int the engine computes
    for every operation the engine applies to rows (and the packed term for others)."""
    rng = random.Random(seed)
    for _ in range(100):
        a, b = _row(rng), _row(rng)
        if any((a >> s & 255) + (b >> s & 255) > 255 for s in range(0, 48, 8)):
            continue
        row = _as_row(a)
        assert _int(row) == a and _int(row + b) == _int(b + row) == a + b and _int(row + _as_row(b)) == a + b
        assert _int((row + b) - b) == a and _int(row - Sym(R.k(a))) == 0
        for s in range(0, 56, 8):
            assert _int(row >> s) == a >> s and _int(row >> s & 255) == a >> s & 255
        assert _int(row >> 3) == a >> 3 and _int(row & 7) == a & 7  # not whole bytes: the packed term's
        assert R.constant(row) == a
        assert _bool(row == a) and _bool(row != a + 1) and _bool(row == _as_row(a))
        assert R.row_bytes(a) == tuple(R.k(a >> (8 * q) & 255) for q in range(6))


@pytest.mark.parametrize("seed", range(4))
def test_meta_as_a_row_computes_as_the_int(seed: int) -> None:
    """meta (score north | score south << 8 | to_move << 16) held as a three-byte Row
    gives the int the engine computes for what it does to meta: read a score, flip the
    player, add a capture or a claim to a score, compare, and reads its key."""
    rng = random.Random(seed)
    for _ in range(100):
        north, south, me = rng.randrange(49), rng.randrange(49), rng.randrange(2)
        meta = north | south << 8 | me << 16
        row = R.Row([R.k(north), R.k(south), R.k(me)])
        gained = rng.randrange(49 - max(north, south))
        assert _int(row) == meta and _int(row & 255) == north and _int(row >> 8 & 255) == south
        assert _int(row >> 16) == me and _int(row ^ I._TO_MOVE) == meta ^ I._TO_MOVE
        assert _int(row + (gained << 8 * me)) == meta + (gained << 8 * me)
        assert _int(row + Sym(R.k(gained << 8))) == meta + (gained << 8)
        assert _bool(row == meta) and _bool((row ^ I._TO_MOVE) != meta)
        assert R.row_bytes(row, 3) == row.b and R.engine_key((0, 0, row))[2] == row.b
        assert R.value(R.winner_contract(row).code) == R.CODES[I._winner(meta)]


def test_a_row_refuses_to_carry_or_borrow() -> None:
    """A byte that could pass 255 or drop below 0 is refuted, not wrapped into the next."""
    cells = [R.var(f"c{q}", 8).e for q in range(6)]
    row = R.Row(cells)
    assert explore([cells[0] < 255], lambda: row + 1, lambda out: []) == 1
    with pytest.raises(Refuted, match="carries"):
        explore([], lambda: row + 1, lambda out: [])
    assert explore([cells[1] >= 2], lambda: row - (2 << 8), lambda out: []) == 1
    with pytest.raises(Refuted, match="borrows"):
        explore([], lambda: row - (2 << 8), lambda out: [])
    with pytest.raises(Refuted, match="outside"):
        explore([], lambda: row - R.var("big", 60), lambda out: [])


@pytest.mark.parametrize("seed", range(3))
def test_a_small_shifted_into_meta_computes_as_the_int(seed: int) -> None:
    """A row sum or a capture's gain (Small, < 2⁸) shifted by a whole byte is a
    three-byte Row with the value in that byte: added to meta, the int the engine
    computes (a claim, a forfeit, a gain), with no extracted byte of a packed term."""
    rng = random.Random(seed)
    for _ in range(100):
        north, south, me, x = rng.randrange(49), rng.randrange(49), rng.randrange(2), rng.randrange(49)
        meta = north | south << 8 | me << 16
        row = R.Row([R.k(north), R.k(south), R.k(me)])
        for shift in (0, 8):
            shifted = R.Small(R.k(x)) << shift
            assert isinstance(shifted, R.Row) and _int(Sym(shifted.b[shift // 8])) == x
            assert _int(row + shifted) == meta + (x << shift)
        assert _int(R.Small(R.k(x)) << 24) == x << 24  # past meta: the packed term, as Sym


def test_the_row_sum_and_gain_contracts_give_smalls() -> None:
    """What the engine shifts into meta comes out of the contracts as a Small, and
    the capture contract obliges its gain to fit a byte."""
    cells = [R.var(f"g{q}", 6).e for q in range(6)]
    row = R.Row(cells)
    assert isinstance(R.row_sum_contract(row), R.Small)
    pits = [c <= 48 for c in cells]
    assert explore(pits, lambda: R.capture_contract(row, 5), lambda out: [(out[1].e <= 18, "three a pit at most")]) == 1
    big = [R.var(f"h{q}", 8).e for q in range(6)]
    with pytest.raises(Refuted, match="_capture's precondition"):
        explore([], lambda: R.capture_contract(R.Row(big), 5), lambda out: [])


def test_the_explorer_asks_z3_by_the_querys_logic() -> None:
    """Bit-vectors alone to z3.Solver(), an uninterpreted function to the SMT core."""
    x = z3.BitVec("x", 8)
    member = z3.Function("member", z3.BitVecSort(8), z3.BoolSort())

    def pure(*query: z3.BoolRef) -> bool:
        goal = z3.Goal()
        goal.add(*query)
        return bool(symbolic._PURE_BV(goal))

    assert pure(x > 3) and not pure(member(x), x > 3)
    assert symbolic._solver_for([x > 3]).check(x > 3) == z3.sat
    assert symbolic._solver_for([member(x)]).check(member(x), z3.Not(member(x))) == z3.unsat


@pytest.mark.parametrize("solver", symbolic.SOLVERS)
def test_every_way_of_asking_z3_gives_the_same_verdicts(monkeypatch: pytest.MonkeyPatch, solver: str) -> None:
    """A slice with the positions' uninterpreted function proven, its paths counted the
    same, and a wrong statement refuted, whichever way the explorer asks (the
    preprocessing's models included: the explorer checks each kept one)."""
    monkeypatch.setattr(symbolic, "SOLVER", solver)
    assert R.apply_slice(0, 0, 1) == 7
    member = z3.Function("seen", z3.BitVecSort(WIDTH), z3.BoolSort())
    x = var("x", 8)
    with pytest.raises(Refuted):
        explore([member(x.e)], lambda: x + 1, lambda out: [(z3.Not(member(out.e)), "seen after")])
