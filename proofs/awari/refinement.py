"""impl/engines/awari.py refines spec/awari.py on every state: the engine's own code, run on z3 terms.

    python -m proofs.awari.refinement [--bounded | --deep] [--jobs N] [--scheduler tcp://HOST:PORT | --no-cluster]

The theorems (proofs/README.md, "Refinement" section, says what each covers and why
together they cover every state):

* ``sow_table_is_spec_sow`` — ``_SOW`` ≡ Sow for every pit and stone count 0 … 48,
  exhaustively against spec.awari.Sow;
* ``feeds_is_spec_feeds_on_starved_rows`` — ``_feeds`` ≡ spec.awari.feeds for every
  side, pit and stone count when the opponent's row is empty (the only rows it is
  called on), exhaustively against the spec — the lap-and-capture corner included;
* ``capture_is_spec_capture`` — ``_capture`` (the engine's code on z3 terms) ≡ the
  statement of Capture for every row and every last pit;
* ``statement_capture_is_spec_capture`` — that statement ≡ spec.awari.Capture,
  exhaustively over what Capture reads (side, last pit, which pits hold 2 or 3);
* ``feeds_matches_statement`` — ``_feeds`` on z3 terms ≡ the statement of feeds,
  every row of the mover;
* ``row_sum_is_byte_sum`` — ``_row_sum`` (its 128-bit product) ≡ the sum of the
  row's bytes, for every row whose bytes sum to ≤ 255;
* ``cannot_feed_matches_statement`` — ``_cannot_feed`` on z3 terms ≡ the statement's
  CannotFeed guard, every row of the mover and every opposing row;
* ``winner_matches_statement`` — ``_winner`` on z3 terms ≡ the statement's winner of
  the two scores, for every meta ≥ 0;
* ``keys_are_the_abstraction`` — ``pack``/``unpack`` (to_spec/from_spec) are the
  abstraction function the statements use, on every position;
* ``apply_refines_referee`` / ``legal_moves_refine`` / ``is_over_refines`` — the
  engine's ``apply``, ``legal_moves`` and ``is_over`` on z3 terms, every path,
  ≡ the statement of the corrected referee, for every AwariBoard (12 pits and two
  scores with Σ = 48), both sides, all 12 actions and every set of positions;
  ``apply`` slice by slice (``every_slice``: side, action, stones in the action's
  pit), in 2 processes.  Levels: ``--bounded`` (make verify) one slice and is_over
  for south; the default (make proofs) legal_moves and is_over in full, apply on the
  opponent's pits and one capture slice, and ``statement_is_spec_referee``; ``--deep``
  every slice (CPU-hours);
* ``statement_is_spec_referee`` — the statement of the referee ≡ spec.awari.referee,
  evaluated on concrete states (every board with ≤ 2 stones on it, states near the
  corners, states from play): the statement is trusted beyond that scope (README).

Inside apply, legal_moves and is_over, ``_feeds``, ``_row_sum``, ``_capture``,
``_cannot_feed`` and ``_winner`` are replaced by their contracts (``CONTRACTS``: the
terms their own steps above prove, each precondition obliged at every call), so that
their branches do not multiply paths; everything else — ``apply``, ``_ended``, ``_play``,
``_claimed``, the sowing table — runs as written, on a private copy of
the pure-Python source.

Terms are 64 bits wide (``WIDTH``: every value of the engine fits, and Sym still
obliges each ``+ - * <<`` not to overflow at that width) and the board's cells are
6-bit variables (``CELL``: Σ = 48 bounds each by 48 < 2⁶), so z3 sees that sowing
carries nothing between the bytes of a packed row; together 4–6× faster per slice
than 128-bit terms over 8-bit cells.  The engine's packed rows are ``Row``s: the same
ints held as their six bytes, on which the engine's row arithmetic (sowing's add and
subtract, whole-byte shifts, byte masks, tests for zero) runs byte by byte under a
no-carry obligation per byte, and the statement compares keys byte by byte — so z3
never has to see through a 48-bit add (proofs/README.md §8.1 says
why each choice is so).
"""

from __future__ import annotations

import contextlib
import random
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Final, TypeAlias

import z3

from proofs import symbolic
from proofs.symbolic import Sym, SymBool, explore, load_engine_source, swapped
from proofs.verdict import ProofStep, in_processes, run_steps, scope_arguments
from spec import awari as A
from spec import result as R
from spec.z import apply

Z: TypeAlias = Any
"""A z3 bit-vector term (z3 has no type hints)."""
Goals = Iterable[tuple[z3.BoolRef, str]]

# ─── The engine under proof: a private copy of the pure-Python source ──────────


E: Any = load_engine_source("awari")
"""The engine under proof: impl/engines/awari.py's source, never the mypyc build."""

WIDTH: Final = 64
"""Bits of every term here (proofs/symbolic.py's default is 128): every value the
engine computes fits — rows < 2⁴⁸, meta < 2¹⁷, the statement's sums ≤ 2⁴⁸ — and
Sym's obligations still catch any that would not; half the width halves what z3
bit-blasts.  ``_row_sum``'s product (up to 2⁸⁸) is proven at 128 bits, and stands
inside the composition by its contract."""


def term(x: Sym | int, width: int = WIDTH) -> Z:
    """The z3 term of an int or a Sym, at this proof's width."""
    return symbolic.term(x, width)


def var(name: str, bits: int, width: int = WIDTH) -> Sym:
    """A fresh unsigned variable of ``bits`` bits, at this proof's width."""
    return symbolic.var(name, bits, width)


# ─── The abstraction function (the one place to_spec / from_spec are read) ─────


def k(x: int) -> Z:
    return z3.BitVecVal(x, WIDTH)


def pack_terms(board: Sequence[Z], score: Sequence[Z], to_move: int) -> tuple[Z, Z, Z]:
    """The engine key of an AwariBoard given as terms: from_spec's ``pack``, stated
    (``keys_are_the_abstraction`` proves the engine's pack and unpack are this)."""

    mine, theirs, meta = key_terms(board, score, to_move)
    return pack(mine), pack(theirs), pack(meta)


def key_terms(board: Sequence[Z], score: Sequence[Z], to_move: int) -> Key:
    """``pack_terms`` with each row as its six bytes and meta as its three (``Key``):
    the same key, compared byte by byte."""
    mover, other = (tuple(board[6 * p + j] for j in range(6)) for p in (to_move, 1 - to_move))
    return mover, other, (score[0], score[1], k(to_move))


def ImplState(board: Sequence[Z], score: Sequence[Z], to_move: int, positions: Positions) -> tuple[Any, ...]:
    """The engine's state of an AwariBoard given as terms: its rows and meta as ``Row``s."""
    mine, theirs, meta = key_terms(board, score, to_move)
    return Row(mine), Row(theirs), Row(meta), positions


# ─── Packed rows, byte by byte ─────────────────────────────────────────────────


class Row(Sym):
    """A Python int 0 ≤ x < 2⁸ⁿ held as its n bytes b₀ … bₙ₋₁ (x = Σ b_q·2⁸ᵠ), each a
    term of value < 2⁸: the engine's packed rows (six bytes) and its meta (three:
    north's score, south's, the player to move).  Where the engine adds or subtracts
    them, shifts one by whole bytes, masks a byte, flips the player bit or tests for
    zero, Row does it byte by byte and obliges that no byte carries or borrows — the
    same int as the packed term, so sowing and scoring need no carry reasoning of z3;
    every other operation falls back to Sym's on the packed term ``e`` (exact: n ≤ 6
    bytes fit in 48 bits)."""

    __slots__ = ("b",)

    def __init__(self, b: Sequence[Z]) -> None:  # not Sym.__init__: e is computed from the bytes
        assert len(b) in (3, 6)
        self.b = tuple(b)

    @property
    def e(self) -> Z:
        return pack(self.b)

    def __add__(self, o: Sym | int) -> Sym:
        sums = [a + c for a, c in zip(self.b, row_bytes(o, len(self.b)), strict=True)]
        from proofs.symbolic import _oblige

        _oblige(z3.And(*(x < 256 for x in sums)), "+ carries between a row's bytes")
        return Row(sums)

    __radd__ = __add__

    def __sub__(self, o: Sym | int) -> Sym:
        from proofs.symbolic import _oblige

        pairs = list(zip(self.b, row_bytes(o, len(self.b)), strict=True))
        _oblige(z3.And(*(a >= c for a, c in pairs)), "- borrows between a row's bytes")
        return Row([a - c for a, c in pairs])

    def __rshift__(self, n: Sym | int) -> Sym:
        v = constant(n)
        if v is None or v % 8 or v < 0:
            return Sym(self.e) >> n
        return Row([*self.b[v // 8 :], *[k(0)] * len(self.b)][: len(self.b)])

    def __and__(self, o: Sym | int) -> Sym:
        if constant(o) == 255:
            return Sym(self.b[0])
        return Sym(self.e) & o

    __rand__ = __and__

    def __xor__(self, o: Sym | int) -> Sym:
        v = constant(o)
        if v is None or not 0 <= v < 1 << (8 * len(self.b)):
            return Sym(self.e) ^ o
        return Row([x ^ c if (c := v >> (8 * q) & 255) else x for q, x in enumerate(self.b)])

    __rxor__ = __xor__

    def __bool__(self) -> bool:
        return bool(SymBool(z3.Or(*(x != 0 for x in self.b))))

    def __eq__(self, o: object) -> SymBool:  # type: ignore[override]
        assert isinstance(o, Sym | int)
        return SymBool(z3.And(*(a == c for a, c in zip(self.b, row_bytes(o, len(self.b)), strict=True))))

    def __ne__(self, o: object) -> SymBool:  # type: ignore[override]
        return ~(self == o)

    __hash__ = object.__hash__


class Small(Sym):
    """An int 0 ≤ x < 2⁸ held as its term: what ``_row_sum`` and ``_capture``'s gain
    return.  The engine only shifts it by whole bytes into meta: there it becomes a
    three-byte ``Row`` with x in one byte, so that adding it to meta is byte by byte —
    the same term as the statement's score plus a sum, where an extracted byte of the
    packed shift would leave z3 to prove x < 2⁸ (from Σ = 48) inside every comparison
    of scores."""

    __slots__ = ()

    def __lshift__(self, n: Sym | int) -> Sym:
        v = constant(n)
        if v is None or v not in (0, 8, 16):
            return Sym(self.e) << n
        return Row([self.e if 8 * q == v else k(0) for q in range(3)])


def constant(x: Sym | int) -> int | None:
    """x's value when it is a numeral (as z3 simplifies its term), else None."""
    if isinstance(x, int):
        return x
    v = z3.simplify(x.e)
    return int(v.as_signed_long()) if z3.is_bv_value(v) else None


def row_bytes(x: Sym | int, n: int = 6) -> tuple[Z, ...]:
    """The n bytes of a packed row (n = 6) or meta (n = 3): a Row's own; an int's or
    another Sym's extracted, obliging it to be 0 ≤ x < 2⁸ⁿ (else its bytes would not
    be the int)."""
    if isinstance(x, Row):
        assert len(x.b) == n, (len(x.b), n)
        return x.b
    if isinstance(x, int):
        assert 0 <= x < 1 << (8 * n), x
        return tuple(k(x >> (8 * q) & 255) for q in range(n))
    from proofs.symbolic import _oblige

    _oblige(z3.And(term(x) >= 0, term(x) < (1 << (8 * n))), f"a value outside 0 … 2^{8 * n}")
    return tuple(_byte(x, q) for q in range(n))


def pack(row: Sequence[Z]) -> Z:
    """The packed term of byte terms (a row's six, meta's three)."""
    return total(x << (8 * q) for q, x in enumerate(row))


def same_key(x: Key, y: Key) -> z3.BoolRef:
    """Two keys are equal: byte by byte, rows and meta."""
    return z3.And(*(a == c for a, c in zip((*x[0], *x[1], *x[2]), (*y[0], *y[1], *y[2]), strict=True)))


def engine_key(key: tuple[Any, ...]) -> Key:
    """An engine key (rows, meta) as a Key."""
    mine, theirs, meta = key
    return row_bytes(mine), row_bytes(theirs), row_bytes(meta, 3)


# ─── Sets of positions as predicates ────────────────────────────────────────────

KEY = z3.BitVecSort(WIDTH)
Key: TypeAlias = tuple[tuple[Z, ...], tuple[Z, ...], tuple[Z, ...]]
"""An engine key as terms: the mover's row and the other row as six bytes each, and
meta as its three (north's score, south's, the player to move)."""


@dataclass(frozen=True)
class Positions:
    """A set of engine keys: ``member`` (any predicate: any set) ∪ ``added``.  The
    engine uses positions only through ``key in positions`` and ``positions | {key}``."""

    member: Any  # a z3 function of the key's 15 bytes (any set) or a Python function building the membership term
    added: tuple[Key, ...] = ()

    def holds(self, key: Key) -> z3.BoolRef:
        return z3.Or(self.member(*key[0], *key[1], *key[2]), *(same_key(key, x) for x in self.added))

    def __contains__(self, key: object) -> bool:
        assert isinstance(key, tuple)
        return bool(SymBool(self.holds(engine_key(key))))

    def __or__(self, other: object) -> Positions:
        assert isinstance(other, set | frozenset)
        return Positions(self.member, self.added + tuple(engine_key(key) for key in other))


# ─── The statement of the corrected referee, from spec/awari.py ────────────────
#
# Every term is built from the spec's own data (side, trace, prev) evaluated on
# concrete pits; the clauses follow spec/awari.py's corrected schemas line by line.

PITS = list(A.PIT)
SIDE = [sorted(int(q) for q in A.side(p)) for p in A.PLAYER]
"""Each player's pits as ints (the spec's PIT constants equal no int: free types)."""
TRACE = {int(m): [int(A.trace(m)(i)) for i in range(1, 49)] for m in PITS}
PREV = {int(p): int(apply(A.prev, p)) for p in PITS}
W_NORTH, W_SOUTH, DRAW, NOT_DONE, ILLEGAL = range(5)
CODES: dict[object, int] = {
    R.win(A.PLAYER.north): W_NORTH,
    R.win(A.PLAYER.south): W_SOUTH,
    R.draw: DRAW,
    R.not_done: NOT_DONE,
    R.illegal_move: ILLEGAL,
}


def total(xs: Iterable[Z]) -> Z:
    return sum(xs, k(0))


def stones(board: Sequence[Z], p: int) -> Z:
    """Σ (side p ◁ board)"""
    return total(board[q] for q in SIDE[p])


def sow(board: Sequence[Z], m: int) -> tuple[list[Z], list[z3.BoolRef | bool]]:
    """Sow from pit m: board' (board ⊕ {m ↦ 0} plus #(sown ▷ {p}) at each p, sown =
    (1 .. board m) ◁ trace m) and to_capture = trace m (board m), as one flag a pit."""
    n = board[m]
    sown = [
        (k(0) if q == m else board[q]) + total(z3.If(n >= i + 1, k(1), k(0)) for i in range(48) if TRACE[m][i] == q)
        for q in range(12)
    ]
    to_capture: list[z3.BoolRef | bool] = [
        z3.Or(*ns) if (ns := [n == i + 1 for i in range(48) if TRACE[m][i] == q]) else False for q in range(12)
    ]
    return sown, to_capture


def chain(t: int, q: int) -> list[int]:
    """t, prev t, prev (prev t), … up to q."""
    path = [t]
    while path[-1] != q:
        path.append(PREV[path[-1]])
    return path


def capture(board: Sequence[Z], to_capture: Sequence[z3.BoolRef | bool], mover: int) -> tuple[list[Z], Z]:
    """Capture, corrected: captures = reachable (vul ◁ prev ▷ vul) ({to_capture} ∩ vul),
    vul = dom (board ▷ {2, 3}) ∩ side (opponent to_move).  prev being a function, q is
    reachable from t iff every pit of the prev-chain from t to q is vulnerable.
    (Terms known False — a pit off the opponent's side, a last pit ruled out — are
    left out, which only shortens the terms.)  Returns (board', stones gained)."""
    vul = [z3.Or(board[q] == 2, board[q] == 3) if q in SIDE[1 - mover] else False for q in range(12)]

    def reached(t: int, q: int) -> z3.BoolRef | bool:
        on = [vul[x] for x in chain(t, q)]
        if to_capture[t] is False or any(v is False for v in on):
            return False
        return z3.And(to_capture[t], *on)

    captured = [[r for t in range(12) if (r := reached(t, q)) is not False] for q in range(12)]
    gained = total(z3.If(z3.Or(*c), board[q], k(0)) for q, c in enumerate(captured) if c)
    return [z3.If(z3.Or(*c), k(0), board[q]) if c else board[q] for q, c in enumerate(captured)], gained


def sow_capture(board: Sequence[Z], score: Sequence[Z], mover: int, m: int) -> tuple[list[Z], list[Z]]:
    """Sow ⨟ Capture (corrected) from pit m: (board', score')."""
    sown, to_capture = sow(board, m)
    after, gained = capture(sown, to_capture, mover)
    return after, [score[p] + gained if p == mover else score[p] for p in range(2)]


def _starved(mover: A.PLAYER, move: A.PIT, n: int) -> A.AwariGame:
    """A state where the opponent of ``mover`` has no stones and ``move`` holds n."""
    board = tuple(n if p == move else 0 for p in A.PIT)
    return A.game_of(A.AwariBoard(board, _scores(48 - n), mover), frozenset())


def _scores(rest: int) -> tuple[int, int]:
    """Scores holding ``rest`` ≤ 47 stones, both below 25 (the game goes on)."""
    return min(rest, 24), rest - min(rest, 24)


STARVED_FEEDS: Final[dict[tuple[int, int], frozenset[int]]] = {
    (int(mover), m): frozenset(n for n in range(1, 49) if A.feeds(_starved(mover, A.PIT(m), n), A.PIT(m)))
    for mover in A.PLAYER
    for m in SIDE[mover]
}
"""spec.awari.feeds on a starved row, by side, pit and count: the counts that feed."""


def feeds(board: Sequence[Z], mover: int, m: int) -> z3.BoolRef:
    """feeds m, where the opponent's row is empty (the only place the referee asks):
    spec.awari.feeds reads then only board m (Sow adds to the opponent's row what
    (m, board m) dictates; Capture reads only that row) — ``starved_feeds_reads_one_pit``
    proves it of ``sow_capture``."""
    if m not in SIDE[mover]:
        return z3.BoolVal(False)
    return z3.Or(False, *(board[m] == n for n in sorted(STARVED_FEEDS[mover, m])))


def winner(score: Sequence[Z]) -> Z:
    return z3.If(score[0] > score[1], k(W_NORTH), z3.If(score[1] > score[0], k(W_SOUTH), k(DRAW)))


def meta_winner(meta: Z) -> Z:
    """winner of the scores in a packed meta's bytes 0 (north) and 1 (south)."""
    return winner([meta & 255, (meta >> 8) & 255])


def claim(score: Sequence[Z], board: Sequence[Z]) -> list[Z]:
    """ClaimStones"""
    return [score[p] + stones(board, p) for p in range(2)]


def forfeit(score: Sequence[Z], board: Sequence[Z]) -> list[Z]:
    """ForfeitStones"""
    return [score[p] + stones(board, 1 - p) for p in range(2)]


@dataclass(frozen=True)
class Status:
    """The start-of-turn conditions of a state (WinMargin ∨ NoMove ∨ CannotFeed)."""

    win_margin: z3.BoolRef
    no_move: z3.BoolRef
    cannot_feed: z3.BoolRef

    @property
    def playing(self) -> z3.BoolRef:
        return z3.Not(z3.Or(self.win_margin, self.no_move, self.cannot_feed))


def status(board: Sequence[Z], score: Sequence[Z], mover: int, seen: Callable[[Key], z3.BoolRef]) -> Status:
    """WinMargin, NoMove, CannotFeed (corrected): which holds, given θ ∈ positions."""
    win_margin = z3.Or(score[0] >= 25, score[1] >= 25)
    no_move = z3.And(z3.Not(win_margin), z3.Or(seen(key_terms(board, score, mover)), stones(board, mover) == 0))
    cannot = z3.And(
        z3.Not(win_margin),
        z3.Not(no_move),
        stones(board, 1 - mover) == 0,
        z3.Not(z3.Or(*(feeds(board, mover, m) for m in SIDE[mover]))),
    )
    return Status(win_margin, no_move, cannot)


@dataclass(frozen=True)
class Step:
    """The referee's step as terms: result, after-state, and the keys added to positions."""

    result: Z
    board: list[Z]
    score: list[Z]
    to_move: Z
    added: list[tuple[z3.BoolRef, Key]]


def ite_list(c: z3.BoolRef, a: Sequence[Z], b: Sequence[Z]) -> list[Z]:
    return [z3.If(c, x, y) for x, y in zip(a, b, strict=True)]


def may_sow(board: Sequence[Z], mover: int, m: int) -> z3.BoolRef:
    """The referee's legality of pit m, the game being on (¬ IllegalMove): the
    mover's own non-empty pit, and it feeds an opponent who has no stones."""
    return z3.And(
        z3.BoolVal(m in SIDE[mover]),
        board[m] > 0,
        z3.Or(stones(board, 1 - mover) > 0, feeds(board, mover, m)),
    )


def referee(board: Sequence[Z], score: Sequence[Z], mover: int, m: int, positions: Positions) -> Step:
    """spec.awari.referee (AwariRef corrected: WinMargin ∨ NoMove ∨ CannotFeed ∨
    IllegalMove ∨ GrandSlam ∨ NormalMove ⨟ Status), stated on terms."""
    opp = 1 - mover
    theta = key_terms(board, score, mover)
    st = status(board, score, mover, positions.holds)
    empty = [k(0)] * 12
    a_board, a_score = sow_capture(board, score, mover, m)
    legal = z3.And(st.playing, may_sow(board, mover, m))
    grand_slam = z3.And(legal, stones(board, opp) > 0, stones(a_board, opp) == 0)
    normal = z3.And(legal, stones(a_board, opp) > 0)
    theta2 = key_terms(a_board, a_score, opp)
    st2 = status(
        a_board,
        a_score,
        opp,
        lambda key: z3.Or(positions.holds(key), same_key(key, theta)),
    )
    claimed = claim(score, board)
    claimed2 = claim(a_score, a_board)
    fscore = forfeit(a_score, a_board)
    ended2 = z3.Or(st2.no_move, st2.cannot_feed)

    # The after-state, case by case, from the last case to the first (the cases are disjoint).
    result = z3.If(st2.win_margin, winner(a_score), z3.If(ended2, winner(claimed2), k(NOT_DONE)))
    b = ite_list(ended2, empty, a_board)
    s = ite_list(ended2, claimed2, a_score)
    t = k(opp)
    result = z3.If(grand_slam, winner(fscore), result)
    b, s = ite_list(grand_slam, empty, b), ite_list(grand_slam, fscore, s)
    illegal = z3.And(st.playing, z3.Not(legal))
    result = z3.If(illegal, k(ILLEGAL), result)
    b, s, t = ite_list(illegal, board, b), ite_list(illegal, score, s), z3.If(illegal, k(mover), t)
    claims = z3.Or(st.no_move, st.cannot_feed)
    result = z3.If(claims, winner(claimed), result)
    b, s, t = ite_list(claims, empty, b), ite_list(claims, claimed, s), z3.If(claims, k(mover), t)
    result = z3.If(st.win_margin, winner(score), result)
    b, s, t = ite_list(st.win_margin, board, b), ite_list(st.win_margin, score, s), z3.If(st.win_margin, k(mover), t)
    added = [
        (z3.simplify(z3.Not(illegal)), theta),
        (z3.simplify(z3.And(normal, z3.Not(grand_slam), z3.Or(st2.win_margin, ended2))), theta2),
    ]
    return Step(z3.simplify(result), [z3.simplify(x) for x in b], [z3.simplify(x) for x in s], z3.simplify(t), added)


# ─── Symbolic states ────────────────────────────────────────────────────────────


CELL: Final = 6
"""Bits of each pit and score variable: every one is ≤ 48 < 2⁶ (Σ = 48)."""


@dataclass(frozen=True)
class Board:
    """A symbolic AwariBoard: 12 pits and two scores, Σ = 48."""

    board: list[Z]
    score: list[Z]

    @staticmethod
    def fresh(tag: str) -> Board:
        return Board([var(f"{tag}{p.name}", CELL).e for p in PITS], [var(f"{tag}score{p}", CELL).e for p in range(2)])

    def well_formed(self) -> list[z3.BoolRef]:
        return [total([*self.board, *self.score]) == 48]


def same_state(
    out: tuple[Any, ...], step: Step, positions: Positions, state: tuple[Any, ...], what: str
) -> list[tuple[z3.BoolRef, str]]:
    """The engine's (result, state) ≡ the statement's step, through the abstraction."""
    result, after = out
    mine, theirs, meta, seen = after
    goals: list[tuple[z3.BoolRef, str]] = [(step.result == code_of(result), f"{what}: result")]
    for t in (0, 1):
        key = key_terms(step.board, step.score, t)
        goals.append(
            (
                z3.Implies(step.to_move == t, same_key(engine_key((mine, theirs, meta)), key)),
                f"{what}: after-state",
            )
        )
    assert isinstance(seen, Positions) and seen.member is positions.member
    for x in seen.added:
        goals.append(
            (
                z3.Or(
                    positions.holds(x),
                    *(z3.And(c, same_key(x, y)) for c, y in step.added),
                ),
                f"{what}: positions' ⊆",
            )
        )
    for c, y in step.added:
        goals.append((z3.Implies(c, seen.holds(y)), f"{what}: positions' ⊇"))
    return goals


# ─── Contracts: _feeds, proven below, stands in for itself inside apply ────────


def _byte(x: Sym | int, q: int) -> Z:
    return (term(x) >> (8 * q)) & 255


def feeds_contract(mine: Sym | int, theirs: Sym | int, sh: int) -> SymBool:
    """``_feeds`` where it is called: the opponent's row empty, pit sh non-empty.
    Its value: the statement's feeds for the mover's row (``feeds_matches_statement``)."""
    from proofs.symbolic import _oblige

    assert isinstance(sh, int)
    _oblige(is_empty_row(theirs), "_feeds called on a non-empty opposing row")
    _oblige(bytes_of(mine)[sh // 8] != 0, "_feeds called on an empty pit")
    board = [*bytes_of(mine), *[k(0)] * 6]
    return SymBool(feeds(board, 0, sh // 8))


ROW_BOUND: Final = 1 << 48
"""Every packed row is below 2⁴⁸: six bytes."""


def in_row_range(x: Sym | int) -> z3.BoolRef:
    """0 ≤ x < 2⁴⁸: true of a Row by construction."""
    return z3.BoolVal(True) if isinstance(x, Row) else z3.And(term(x) >= 0, term(x) < ROW_BOUND)


def is_empty_row(x: Sym | int) -> z3.BoolRef:
    """x = 0 (a Row's bytes all 0)."""
    return z3.And(*(b == 0 for b in x.b)) if isinstance(x, Row) else term(x) == 0


def bytes_of(x: Sym | int) -> list[Z]:
    """The six bytes of a packed row, as terms (a Row's own)."""
    return list(x.b) if isinstance(x, Row) else [_byte(x, q) for q in range(6)]


def is_row(x: Sym | int, most: int = 48) -> z3.BoolRef:
    """x is a packed row (0 ≤ x < 2⁴⁸) whose every pit holds at most ``most``."""
    return z3.And(in_row_range(x), *(b <= most for b in bytes_of(x)))


def row_sum_contract(row: Sym | int) -> Sym:
    """``_row_sum`` as ``row_sum_is_byte_sum`` proves it: on a packed row whose bytes
    sum to at most 255, the sum of its six bytes (no wide multiplication on the path)."""
    from proofs.symbolic import _oblige

    _oblige(z3.And(in_row_range(row), total(bytes_of(row)) <= 255), "_row_sum's precondition")
    return Small(total(bytes_of(row)))


def capture_contract(theirs: Sym | int, last: int) -> tuple[Sym, Sym]:
    """``_capture`` as ``capture_is_spec_capture`` proves it: for a packed row (pits
    ≤ 48) and a last pit 0 … 5, the statement's Capture, as terms (no path per walk)."""
    from proofs.symbolic import _oblige

    assert isinstance(last, int) and 0 <= last < 6, f"_capture called on last pit {last}"
    _oblige(is_row(theirs), "_capture's precondition")
    board = [*bytes_of(theirs), *[k(0)] * 6]  # north's row, as capture_is_spec_capture states it
    after, gained = capture(board, [q == last for q in range(12)], A.PLAYER.south)
    _oblige(gained <= 255, "_capture gains more than a byte")
    return Row(after[:6]), Small(gained)


def cannot_feed_statement(mine: Sym | int, theirs: Sym | int) -> z3.BoolRef:
    """CannotFeed's guard past NoMove's, on packed rows: the opponent's row is empty
    and no non-empty pit of the mover feeds it (the statement's feeds)."""
    board = [*bytes_of(mine), *[k(0)] * 6]
    feeding = z3.Or(*(z3.And(board[q] != 0, feeds(board, 0, q)) for q in range(6)))
    return z3.And(is_empty_row(theirs), z3.Not(feeding))


def cannot_feed_contract(mine: Sym | int, theirs: Sym | int) -> SymBool:
    """``_cannot_feed`` as ``cannot_feed_matches_statement`` proves it: for a mover's
    packed row (pits ≤ 48) and any opposing row (0 ≤ theirs < 2⁴⁸)."""
    from proofs.symbolic import _oblige

    _oblige(z3.And(is_row(mine), in_row_range(theirs)), "_cannot_feed's precondition")
    return SymBool(cannot_feed_statement(mine, theirs))


@dataclass(frozen=True)
class SymResult:
    """A result of the engine held as its code in CODES, a term: what the ``_winner``
    contract returns, so that the three verdicts of a score are one path, not three."""

    code: Z


def code_of(result: object) -> Z:
    """The code of a result of the engine: a concrete one's by CODES, a SymResult's term."""
    return result.code if isinstance(result, SymResult) else k(CODES[result])


def winner_contract(meta: Sym | int) -> SymResult:
    """``_winner`` as ``winner_matches_statement`` proves it: for every meta ≥ 0, the
    statement's winner of the scores in its bytes 0 (north) and 1 (south)."""
    from proofs.symbolic import _oblige

    if isinstance(meta, Row):  # its bytes 0 and 1 are the scores; a Row is ≥ 0
        return SymResult(winner(list(meta.b[:2])))
    _oblige(term(meta) >= 0, "_winner's precondition")
    return SymResult(meta_winner(term(meta)))


def by_contracts(*names: str) -> contextlib.AbstractContextManager[None]:
    """Within: the engine's primitives ``names`` (of ``_feeds``, ``_row_sum``,
    ``_capture``, ``_cannot_feed``, ``_winner``) are their proven contracts."""
    contracts: dict[str, Callable[..., Any]] = {
        "_feeds": feeds_contract,
        "_row_sum": row_sum_contract,
        "_capture": capture_contract,
        "_cannot_feed": cannot_feed_contract,
        "_winner": winner_contract,
    }
    return swapped(E, {name: contracts[name] for name in names})


# ─── The theorems ───────────────────────────────────────────────────────────────


def sow_table_is_spec_sow() -> int:
    """For every side, pit of that side and n = 0 … 48, the table row ``_SOW[8j << 3 | n]``
    is spec.awari.Sow's: the stones it adds to each pit of both rows, and the last pit
    sown when it is on the opponent's row.  Sow adds ``#(sown ▷ {p})`` to each pit, a
    function of (move, n) alone, so one board per (move, n) decides it (its other
    stones are kept in the scores)."""
    checked = 0
    for mover in A.PLAYER:
        for j in range(6):
            move = A.PIT(6 * mover + j)
            for n in range(49):
                add_mine, add_theirs, last = E._SOW[j << 6 | n]
                if n == 0:
                    assert (add_mine, add_theirs, last) == (0, 0, -1), (move, n)
                    checked += 1
                    continue
                board = tuple(n if p == move else 0 for p in A.PIT)
                s = A.AwariBoard(board, _scores(48 - n), mover)
                after, to_capture = A.Sow(s, move)
                rows = (E._row(after.board, mover), E._row(after.board, 1 - mover))
                assert rows == (add_mine, add_theirs), (move, n)
                on_theirs = to_capture in A.side(A.opponent(mover))
                assert last == (int(to_capture) - 6 * (1 - mover) if on_theirs else -1), (move, n)
                checked += 1
    return checked


def feeds_is_spec_feeds_on_starved_rows() -> int:
    """For every side, pit and n = 1 … 48, with the opponent's row empty, ``_feeds``
    answers as spec.awari.feeds — every lap of ≥ 12 stones that sows into the empty
    row and captures it empty again included.  On a starved row feeds reads only the
    sown pit's count (Sow is additive, Capture reads the opponent's row), as
    ``feeds_matches_statement`` shows for ``_feeds`` over every row of the mover."""
    checked = 0
    for mover in A.PLAYER:
        for j in range(6):
            move = A.PIT(6 * mover + j)
            for n in range(1, 49):
                assert E._feeds(n << (8 * j), 0, 8 * j) == A.feeds(_starved(mover, move, n), move), (move, n)
                checked += 1
    return checked


def capture_is_spec_capture(lasts: Sequence[int] = tuple(range(6))) -> int:
    """For every opposing row (six pits, any counts ≤ 48) and every last pit 0 … 5 on
    it, ``_capture`` (run on z3 terms, every path) returns the row and the gain of the
    statement's Capture (south moved; north's row is the opponent's)."""
    paths = 0
    b = Board.fresh("c")
    theirs = Sym(pack_terms(b.board, b.score, 1)[1])
    for last in lasts:
        flags: list[z3.BoolRef | bool] = [q == last for q in range(12)]
        board, gain = capture(b.board, flags, A.PLAYER.south)

        def check(out: Any, board: list[Z] = board, gain: Z = gain) -> Goals:
            row, gained = out
            want = total(board[q] << (8 * q) for q in range(6))
            return [(term(row) == want, "row after capture"), (term(gained) == gain, "stones gained")]

        paths += explore([x <= 48 for x in b.board], lambda last=last: E._capture(theirs, last), check)
    return paths


def value(t: Z) -> int:
    v = z3.simplify(t)
    assert z3.is_bv_value(v), v
    return int(v.as_signed_long())


def statement_capture_is_spec_capture() -> int:
    """The statement's ``capture`` ≡ spec.awari.Capture, for both sides, every last
    pit and every set of pits holding 2 or 3 (Capture reads the board only through
    that set and the captured pits' counts): 2 × 12 × 2⁶ boards, each opposing pit 2
    or 3 when vulnerable and 1 or 5 otherwise (Σ kept ≤ 48)."""
    checked = 0
    for mover in A.PLAYER:
        for tc in A.PIT:
            flags: list[z3.BoolRef | bool] = [q == int(tc) for q in range(12)]
            for mask in range(1 << 6):
                vul = {q for i, q in enumerate(SIDE[1 - mover]) if mask >> i & 1}
                board = tuple((2 + p % 2) if int(p) in vul else (1 if p % 2 else 5) for p in A.PIT)
                if sum(board) > 48:
                    board = tuple(x if p in vul else 0 for p, x in enumerate(board))
                s = A.AwariBoard(board, _scores(48 - sum(board)), mover)
                after, _ = A.Capture_corrected(s, tc)
                got, gained = capture([k(x) for x in board], flags, mover)
                assert after.board == tuple(value(x) for x in got), (mover, tc, mask)
                assert after.score[mover] - s.score[mover] == value(gained), (mover, tc, mask)
                checked += 1
    return checked


class SymTable:
    """``_SOW`` indexed by a symbolic ``8j << 3 | n``: the very rows of the table."""

    def __init__(self, rows: tuple[tuple[int, int, int], ...]) -> None:
        self.rows = rows

    def __getitem__(self, index: Sym | int) -> tuple[int, int, int]:
        """The row at a symbolic index, by bisection: each path learns its index's value
        (≤ 9 decisions) and gets that row itself."""
        if isinstance(index, int):
            return self.rows[index]
        from proofs.symbolic import _oblige

        i = term(index)
        _oblige(z3.And(i >= 0, i < len(self.rows)), "_SOW index out of range")
        lo, hi = 0, len(self.rows)
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if SymBool(i < mid):
                hi = mid
            else:
                lo = mid
        _oblige(i == lo, "bisection")
        return self.rows[lo]


TABLE = E._SOW
E._SOW = SymTable(TABLE)  # the proof's copy reads the same rows through If-chains


def feeds_matches_statement() -> int:
    """For every row of the mover (six pits ≤ 48) and every pit j of it holding
    stones, ``_feeds(mine, 0, 8j)`` (run on z3 terms) ≡ the statement's feeds with
    the opponent's row empty."""
    paths = 0
    b = Board.fresh("f")
    mine = Sym(pack_terms(b.board, b.score, 0)[0])
    for j in range(6):
        board = [*b.board[:6], *[k(0)] * 6]
        want = feeds(board, 0, j)

        def check(out: Any, want: z3.BoolRef = want) -> Goals:
            got = out.e if isinstance(out, SymBool) else z3.BoolVal(bool(out))
            return [(got == want, "feeds")]

        paths += explore(
            [*(x <= 48 for x in b.board[:6]), b.board[j] >= 1], lambda j=j: E._feeds(mine, 0, 8 * j), check
        )
    return paths


def row_sum_is_byte_sum() -> int:
    """For every packed row whose six bytes sum to at most 255 (every row of a board:
    Σ ≤ 48), ``_row_sum`` (the engine's code on z3 terms: its product, up to 2⁸⁸, on
    128-bit terms) is the sum of its bytes — what ``row_sum_contract`` returns."""
    row = var("r", 48, 128)
    byte_sum = sum((bytes_of(row)), z3.BitVecVal(0, 128))
    return explore(
        [z3.ULE(byte_sum, 255)],
        lambda: E._row_sum(row),
        lambda out: [(term(out) == byte_sum, "row sum")],
    )


def cannot_feed_matches_statement() -> int:
    """For every row of the mover (six pits ≤ 48) and every opposing row (0 ≤ theirs <
    2⁴⁸), ``_cannot_feed`` (the engine's code on z3 terms, every path; ``_feeds`` by its
    contract) ≡ ``cannot_feed_statement`` — what ``cannot_feed_contract`` returns."""
    mine, theirs = var("m", 48), var("t", 48)
    want = cannot_feed_statement(mine, theirs)

    def check(out: Any) -> Goals:
        got = out.e if isinstance(out, SymBool) else z3.BoolVal(bool(out))
        return [(got == want, "cannot feed")]

    with by_contracts("_feeds"):
        return explore([is_row(mine)], lambda: E._cannot_feed(mine, theirs), check)


def winner_matches_statement() -> int:
    """For every meta ≥ 0 (64-bit terms), ``_winner`` (the engine's code on z3 terms,
    every path) gives the statement's winner of the scores in meta's bytes 0 and 1 —
    what ``winner_contract`` returns."""
    meta = var("w", 63)
    want = meta_winner(term(meta))
    return explore([term(meta) >= 0], lambda: E._winner(meta), lambda out: [(code_of(out) == want, "winner")])


def starved_feeds_reads_one_pit() -> int:
    """For both sides, every pit m of the mover and every board (Σ ≤ 48) whose
    opposing row is empty: the statement's Sow ⨟ Capture leaves the opponent stones
    iff board m ∈ STARVED_FEEDS — so ``feeds`` may read the table (z3, 12 queries)."""
    b = Board.fresh("s")
    for mover in (0, 1):  # ints: STARVED_FEEDS is keyed by int (the PLAYER constants equal no int)
        assumptions = [*b.well_formed(), stones(b.board, 1 - mover) == 0]
        for m in SIDE[mover]:
            after, _ = sow_capture(b.board, b.score, mover, m)
            full = z3.And(b.board[m] > 0, stones(after, 1 - mover) > 0)
            solver = z3.Solver()
            solver.add(*assumptions, full != feeds(b.board, mover, m))
            assert solver.check() == z3.unsat, (mover, m)
    return 12


def keys_are_the_abstraction() -> int:
    """The engine's ``unpack`` (to_spec) of ``pack_terms`` of any AwariBoard is that
    AwariBoard, and its ``pack`` (from_spec) is ``pack_terms``: run on z3 terms, for
    both sides and every board (Σ = 48), so the statements' keys are the engine's."""
    b = Board.fresh("k")
    paths = 0
    for mover in A.PLAYER:
        key = pack_terms(b.board, b.score, mover)

        def check_unpack(out: A.AwariBoard, mover: int = mover) -> Goals:
            yield z3.BoolVal(out.to_move == mover), "to_move"
            for x, y in zip((*out.board, *out.score), (*b.board, *b.score), strict=True):
                yield term(x) == y, "unpack"

        paths += explore(b.well_formed(), lambda key=key: E.unpack(tuple(Sym(x) for x in key)), check_unpack)
        pits: Any = tuple(Sym(x) for x in b.board)  # an AwariBoard of symbolic counts
        scores: Any = tuple(Sym(x) for x in b.score)
        board = A.AwariBoard(pits, scores, A.PLAYER(mover))

        def check_pack(out: tuple[Any, ...], key: tuple[Z, Z, Z] = key) -> Goals:
            return [(term(x) == y, "pack") for x, y in zip(out, key, strict=True)]

        paths += explore(b.well_formed(), lambda board=board: E.pack(board), check_pack)
    return paths


ENGINE = E.ImplAwari()
CONTRACTS: Final = ("_feeds", "_row_sum", "_capture", "_cannot_feed", "_winner")
"""The primitives that stand for themselves by their contracts inside apply,
legal_moves and is_over; each is proven over its whole domain by a step of the same
run (``feeds_matches_statement``, ``row_sum_is_byte_sum``, ``capture_is_spec_capture``,
``cannot_feed_matches_statement``, ``winner_matches_statement``)."""

Slice: TypeAlias = tuple[int, int, int | None]
"""(side to move, action, stones in the action's pit or None for any count)."""


def slice_board(tag: str, m: int, n: int | None) -> Board:
    """A symbolic AwariBoard whose pit m holds n stones (any count when n is None)."""
    b = Board.fresh(tag)
    return b if n is None else Board([k(n) if q == m else x for q, x in enumerate(b.board)], b.score)


def apply_slice(mover: int, m: int, n: int | None) -> int:
    """For every AwariBoard (Σ = 48) with ``mover`` to move and n stones in pit m (any
    count if None), every set of positions: the engine's ``apply(state, m)`` (run on z3
    terms, every path; CONTRACTS by their contracts) gives the statement's result,
    after-state and positions'."""
    b = slice_board("a", m, n)
    positions = Positions(z3.Function("member", *[KEY] * 15, z3.BoolSort()))
    state = ImplState(b.board, b.score, mover, positions)
    step = referee(b.board, b.score, mover, m, positions)
    with by_contracts(*CONTRACTS):
        return explore(
            b.well_formed(),
            lambda: ENGINE.apply(state, A.PIT(m)),
            lambda out: same_state(out, step, positions, state, "apply"),
        )


def every_slice(sides: Sequence[int] = (0, 1)) -> list[Slice]:
    """Slices that together cover every state and action: on the mover's own pits,
    one slice per count 0 … 48 (Σ = 48 bounds every pit); on the opponent's, any count."""
    return [(mover, m, n) for mover in sides for m in range(12) for n in (range(49) if m in SIDE[mover] else (None,))]


def _apply_slice(s: Slice) -> int:
    return apply_slice(*s)


def apply_refines_referee(slices: Sequence[Slice] | None = None, workers: int = 2) -> int:
    """For every AwariBoard (12 pits, two scores, Σ = 48), side to move, set of
    positions and action (all 12 pits) — the union of ``every_slice()`` — the engine's
    ``apply`` (run on z3 terms, every path; CONTRACTS by their contracts) gives the
    statement's result, after-state and positions'.  The slices are independent
    queries, run by ``workers`` processes."""
    return in_processes(_apply_slice, every_slice() if slices is None else list(slices), workers)


def _start_of_turn(tag: str, mover: int) -> tuple[Board, tuple[Any, ...], Status]:
    """A fully symbolic state (every board, every set of positions) with ``mover`` to
    move, as the engine's state, and the statement's start-of-turn status of it."""
    b = Board.fresh(tag)
    positions = Positions(z3.Function("member", *[KEY] * 15, z3.BoolSort()))
    return b, ImplState(b.board, b.score, mover, positions), status(b.board, b.score, mover, positions.holds)


def legal_moves_refine(sides: Sequence[int] = (0, 1)) -> int:
    """For every AwariBoard, side and set of positions, a pit is in the engine's
    ``legal_moves`` (run on z3 terms, every path; CONTRACTS by their contracts) iff
    the game goes on and the statement's referee may sow it (``may_sow``: its
    ``illegal`` case is the negation), for all 12 pits."""
    paths = 0
    with by_contracts(*CONTRACTS):
        for mover in sides:
            b, state, st = _start_of_turn("l", mover)
            legal = [z3.And(st.playing, may_sow(b.board, mover, m)) for m in range(12)]

            def check(out: tuple[A.PIT, ...], legal: list[z3.BoolRef] = legal) -> Goals:
                return [(legal[m] == z3.BoolVal(A.PIT(m) in out), f"legal {A.PIT(m).name}") for m in range(12)]

            paths += explore(b.well_formed(), lambda state=state: ENGINE.legal_moves(state), check)
    return paths


def is_over_refines(sides: Sequence[int] = (0, 1)) -> int:
    """For every AwariBoard, side and set of positions, the engine's ``is_over`` (run
    on z3 terms, every path; CONTRACTS by their contracts) iff a start-of-turn end
    condition of the statement (WinMargin ∨ NoMove ∨ CannotFeed) holds."""
    paths = 0
    with by_contracts(*CONTRACTS):
        for mover in sides:
            b, state, st = _start_of_turn("o", mover)

            def check_over(out: Any, st: Status = st) -> Goals:
                got = out.e if isinstance(out, SymBool) else z3.BoolVal(bool(out))
                return [(z3.Not(st.playing) == got, "is_over")]

            paths += explore(b.well_formed(), lambda state=state: ENGINE.is_over(state), check_over)
    return paths


# ─── The statement against the spec itself ──────────────────────────────────────


_STEPS: dict[tuple[int, int, bool], tuple[Board, Step, Positions]] = {}


def _symbolic_step(mover: int, m: int, seen: bool) -> tuple[Board, Step, Positions]:
    """The statement's referee on a symbolic board, positions ∅ or {θ}: built once
    and evaluated on every concrete state by substitution."""
    if (mover, m, seen) not in _STEPS:
        b = Board.fresh("e")
        theta = key_terms(b.board, b.score, mover)

        def member(*key: Z) -> z3.BoolRef:
            theta_bytes = (*theta[0], *theta[1], *theta[2])
            return z3.And(*(x == y for x, y in zip(key, theta_bytes, strict=True))) if seen else z3.BoolVal(False)

        positions = Positions(member)
        _STEPS[mover, m, seen] = b, referee(b.board, b.score, mover, m, positions), positions
    return _STEPS[mover, m, seen]


def _concrete_step(g: A.AwariGame, move: A.PIT) -> tuple[int, A.AwariGame]:
    """The statement's referee evaluated on a concrete state whose positions are ∅ or {θ}."""
    theta = A.θAwariBoard(g)
    assert g.positions in (frozenset(), frozenset({theta}))
    b, step, _ = _symbolic_step(int(g.to_move), int(move), bool(g.positions))
    # Board.fresh's terms are CELL-bit variables zero-extended: substitute the variables.
    cells = zip((*b.board, *b.score), (*g.board, *g.score), strict=True)
    values = [(x.arg(0), z3.BitVecVal(v, CELL)) for x, v in cells]

    def ev(t: Any) -> int:
        return value(z3.substitute(t, *values))

    added = {
        (ev(pack(key[0])), ev(pack(key[1])), ev(pack(key[2])))
        for c, key in step.added
        if z3.is_true(z3.simplify(z3.substitute(c, *values)))
    }
    keys = {E.pack(p) for p in g.positions} | added
    after = A.AwariGame(
        board=tuple(ev(t) for t in step.board),
        score=tuple(ev(t) for t in step.score),
        to_move=A.PLAYER(ev(step.to_move)),
        positions=frozenset(E.unpack(key) for key in keys),
    )
    return ev(step.result), after


def _corner_states(rng: random.Random, count: int) -> list[A.AwariGame]:
    """States near the rules' corners: starved rows, laps, scores near 25, repetitions."""
    states: list[A.AwariGame] = []
    for _ in range(count):
        mover = rng.choice(list(A.PLAYER))
        board = [0] * 12
        for _ in range(rng.choice([1, 2, 3, 6, 12])):
            board[rng.randrange(12)] += rng.choice([1, 2, 3, 11, 12, 13, 20])
        if rng.random() < 0.5:
            for q in SIDE[1 - mover]:
                board[q] = 0 if rng.random() < 0.7 else rng.choice([1, 2])
        while sum(board) > 48:
            board[rng.randrange(12)] = 0
        rest = 48 - sum(board)
        north = rng.randint(max(0, rest - 24), min(rest, 24)) if rng.random() < 0.8 else rng.randint(0, rest)
        s = A.AwariBoard(tuple(board), (north, rest - north), mover)
        states.append(A.game_of(s, frozenset({s}) if rng.random() < 0.2 else frozenset()))
    return states


def statement_is_spec_referee(stones_on_board: int = 2, corners: int = 300, seed: int = 2026) -> int:
    """The statement ``referee`` ≡ spec.awari.referee (result and whole next state)
    on every board with at most ``stones_on_board`` stones on it (every score split
    summing to the rest, both sides, no positions and the position itself seen) and on
    ``corners`` seeded states near the corners, every action."""
    import itertools

    states: list[A.AwariGame] = []
    for total_on in range(stones_on_board + 1):
        for pits in itertools.combinations_with_replacement(range(12), total_on):
            board = tuple(pits.count(p) for p in range(12))
            rest = 48 - total_on
            for north in (rest // 2, 24 if rest >= 24 else rest, rest - 23 if rest >= 23 else 0):
                for mover in A.PLAYER:
                    s = A.AwariBoard(board, (north, rest - north), mover)
                    states.append(A.game_of(s, frozenset()))
                    states.append(A.game_of(s, frozenset({s})))
    states += _corner_states(random.Random(seed), corners)
    for g in states:
        for move in A.PIT:
            result, after = A.referee(g, move)
            got = _concrete_step(g, move)
            assert got == (CODES[result], after), (g, move, got, result, after)
    return len(states) * 12


def statement_is_spec_on_witnesses() -> int:
    """The statement ``referee`` ≡ spec.awari.referee on proofs/awari/encoding_check.py's
    witnesses: capture chains of every length 1–5 ending at each pit, broken chains,
    laps of 11, 12, 22 and 33 stones, a grand slam, feeding by a lap; positions ∅ and
    the position itself seen."""
    from proofs.awari.encoding_check import witnesses

    checked = 0
    for _, (s, move, _, _) in witnesses():
        for positions in (frozenset(), frozenset({s})):
            g = A.game_of(s, positions)
            result, after = A.referee(g, move)
            got = _concrete_step(g, move)
            assert got == (CODES[result], after), (g, move, got, result, after)
            checked += 1
    return checked


# ─── CLI ────────────────────────────────────────────────────────────────────────


BOUNDED_SLICES: Final[tuple[Slice, ...]] = ((1, 6, 1),)
"""make verify's slice of apply: south sows one stone from A (no capture, so no call of
``_capture``: the start-of-turn and after-move conditions, repetition included, through
the ``_row_sum``, ``_cannot_feed`` and ``_feeds`` contracts)."""


ENGINE_BUG_SLICES: Final[tuple[Slice, ...]] = ((1, 9, 3), (1, 11, 13))
"""make verify's slices through the capture contract, chosen to catch engine bugs cheaply:
south sows 3 from D (last pit north's a: a capture, a win by it, a repetition after
it) and 13 from F (a lap past the origin ending at north's b: a capture chain of two
after a lap).  ≈ 17 s and 19 s in the ledger."""


CAPTURE_SLICES: Final[tuple[Slice, ...]] = ((1, 11, 1),)
"""make proofs' slice of apply through the capture contract: south sows one stone from F
into north's a, which it captures when it then holds 2 or 3."""


def off_side_slices(sides: Sequence[int] = (0, 1)) -> list[Slice]:
    """The slices of the actions on the opponent's row (any count), by side to move."""
    return [s for s in every_slice(sides) if s[2] is None]


def main(argv: list[str] | None = None) -> int:
    deep_scope = "also apply on every own pit and stone count (every_slice; hours, see proofs/README.md §8.4)"
    scope = scope_arguments("proofs.awari.refinement", __doc__, deep_scope, argv)
    bounded, deep = scope.bounded, scope.deep
    steps: list[ProofStep] = [
        ("sow_table_is_spec_sow", sow_table_is_spec_sow),
        ("feeds_is_spec_feeds_on_starved_rows", feeds_is_spec_feeds_on_starved_rows),
        ("statement_capture_is_spec_capture", statement_capture_is_spec_capture),
        ("capture_is_spec_capture", lambda: capture_is_spec_capture((0, 5) if bounded else range(6))),
        ("feeds_matches_statement", feeds_matches_statement),
        ("row_sum_is_byte_sum", row_sum_is_byte_sum),
        ("cannot_feed_matches_statement", cannot_feed_matches_statement),
        ("winner_matches_statement", winner_matches_statement),
        ("keys_are_the_abstraction", keys_are_the_abstraction),
        ("is_over_refines", lambda: is_over_refines((1,) if bounded else (0, 1))),
    ]
    steps.append(("statement_is_spec_on_witnesses", statement_is_spec_on_witnesses))
    if bounded:
        steps += [
            ("statement_is_spec_referee, the empty board, 30 corner states", lambda: statement_is_spec_referee(0, 30)),
            (
                "apply_refines_referee on BOUNDED_SLICES and ENGINE_BUG_SLICES",
                lambda: apply_refines_referee([*BOUNDED_SLICES, *ENGINE_BUG_SLICES], 1),
            ),
        ]
    else:
        steps.insert(5, ("starved_feeds_reads_one_pit", starved_feeds_reads_one_pit))
        steps += [
            ("statement_is_spec_referee", statement_is_spec_referee),
            ("legal_moves_refine", legal_moves_refine),
            (
                "apply_refines_referee, opponent's pits and CAPTURE_SLICES",
                lambda: apply_refines_referee([*off_side_slices(), *CAPTURE_SLICES]),
            ),
        ]
    if deep:
        steps += [
            ("apply_refines_referee, every slice", apply_refines_referee),
        ]
    return run_steps(steps, scope)


if __name__ == "__main__":
    sys.exit(main())
