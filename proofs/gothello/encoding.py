"""GothelloTurn as SMT: every disjunct of spec/gothello.py, literal and corrected, as a
z3 relation between a before-state, an after-state and a result.

State encoding (one bijection with spec/gothello.py's GothelloGame, see
proofs/README.md for the soundness of the history abstraction):

  * a board is two 25-bit vectors (black, white), disjoint; square (file, rank) is bit
    5·(file − 1) + (rank − 1), as in impl/engines/gothello.py.  Every BOARD is one such pair.
  * ``white`` is to_move = white.
  * an action is a 5-bit code: 0–24 a square, 25 ``pass``.
  * HISTORY is abstracted to (hlen, h1, h2): hlen = min(#history, 2), and history 1,
    history 2.  Both readings inspect a history only through these.  Where hlen is
    too small the corresponding hᵢ is unconstrained: that is how the undefined term
    ``history 1`` of ⟨⟩ is modelled (erratum G7).
  * every disjunct sets history' to ``history`` or ``⟨move?⟩ ⁀ history``: an after-
    state's history is (cons, head), cons false meaning history' = history.

Groups and liberties are bounded iterations of a dilation over the bit-vectors; the
bounds are checked to be fixpoints (``closure_bounds_are_fixpoints``).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import z3

N = 25
PASS = 25
FULL = (1 << N) - 1
RANK1 = sum(1 << (5 * f) for f in range(5))
RANK5 = RANK1 << 4
ITERATIONS = 24
"""Closure steps: a connected set of k ≤ 25 squares is reached from one of them in
k − 1 ≤ 24 dilations; the literal (one-way) paths are at most 8 steps long."""


def random_stones(rng: random.Random, density: float) -> tuple[int, int]:
    """Black's and white's stones as N-bit masks: each square taken with probability
    ``density``, by either colour alike (the sampled proofs and tests draw boards so)."""
    black = white = 0
    for i in range(N):
        if rng.random() < density:
            if rng.random() < 0.5:
                black |= 1 << i
            else:
                white |= 1 << i
    return black, white


# Result codes.
NOT_DONE, ILLEGAL, WIN_BLACK, WIN_WHITE, DRAW = range(5)
RESULT_NAMES = ("not_done", "illegal_move", "win black", "win white", "draw")

BV = Any  # z3.BitVecRef (z3 ships no type stubs)
Bool = Any  # z3.BoolRef


def bv(value: int) -> BV:
    return z3.BitVecVal(value, N)


@dataclass(frozen=True)
class Pre:
    """A before-state and an action."""

    black: BV
    white_stones: BV
    white: Bool  # to_move = white
    action: BV  # 5 bits
    hlen: BV  # 2 bits, 0 .. 2
    h1: BV
    h2: BV

    @staticmethod
    def fresh(tag: str = "") -> Pre:
        return Pre(
            z3.BitVec(f"black{tag}", N),
            z3.BitVec(f"white_stones{tag}", N),
            z3.Bool(f"white{tag}"),
            z3.BitVec(f"action{tag}", 5),
            z3.BitVec(f"hlen{tag}", 2),
            z3.BitVec(f"h1{tag}", 5),
            z3.BitVec(f"h2{tag}", 5),
        )

    def wellformed(self) -> Bool:
        """The declarations' types: a BOARD (no square holds two stones), a MOVE, a
        HISTORY of MOVEs."""
        return z3.And(
            self.black & self.white_stones == 0,
            z3.ULE(self.action, PASS),
            z3.ULE(self.hlen, 2),
            z3.ULE(self.h1, PASS),
            z3.ULE(self.h2, PASS),
        )

    def variables(self) -> list[Any]:
        return [self.black, self.white_stones, self.white, self.action, self.hlen, self.h1, self.h2]


@dataclass(frozen=True)
class Post:
    """An after-state and a result."""

    black: BV
    white_stones: BV
    white: Bool
    cons: Bool  # history' = ⟨head⟩ ⁀ history, else history' = history
    head: BV
    result: BV  # 3 bits, a result code

    @staticmethod
    def fresh(tag: str) -> Post:
        return Post(
            z3.BitVec(f"black'{tag}", N),
            z3.BitVec(f"white_stones'{tag}", N),
            z3.Bool(f"white'{tag}"),
            z3.Bool(f"cons'{tag}"),
            z3.BitVec(f"head'{tag}", 5),
            z3.BitVec(f"result{tag}", 3),
        )

    def wellformed(self) -> Bool:
        return z3.And(self.black & self.white_stones == 0, z3.ULE(self.head, PASS), z3.ULE(self.result, 4))

    def variables(self) -> list[Any]:
        return [self.black, self.white_stones, self.white, self.cons, self.head, self.result]

    def differs(self, other: Post) -> Bool:
        """Two different after-states or results (heads compared only when consed)."""
        return z3.Or(
            self.black != other.black,
            self.white_stones != other.white_stones,
            self.white != other.white,
            self.cons != other.cons,
            z3.And(self.cons, other.cons, self.head != other.head),
            self.result != other.result,
        )


# ─── Adjacency, groups, liberties ──────────────────────────────────────────────


def adj(x: BV) -> BV:
    """(_ adjoins _) ⦇x⦈, corrected: the orthogonal neighbours (x itself not included)."""
    return ((x << 1) & bv(FULL & ~RANK1)) | (z3.LShR(x, 1) & bv(FULL & ~RANK5)) | ((x << 5) & bv(FULL)) | z3.LShR(x, 5)


def adj_literal(x: BV) -> BV:
    """(_ adjoins _) ⦇x⦈ as written: only the next square up the file letter
    ((d₁, d) to (d₁ + 1, d): five bits up) or up the rank (one bit up, not past 5)."""
    return ((x << 5) & bv(FULL)) | ((x << 1) & bv(FULL & ~RANK1))


def group(seed: BV, stones: BV, steps: int = ITERATIONS) -> BV:
    """group board s = (neighbor board)* ⦇{s}⦈ for s in ``stones`` (s's colour)."""
    if ABSTRACT is not None:
        return ABSTRACT.group(seed, stones)
    return group_unrolled(seed, stones, steps)


def group_unrolled(seed: BV, stones: BV, steps: int = ITERATIONS) -> BV:
    g = seed
    for _ in range(steps):
        g = g | (adj(g) & stones)
    return g


def group_lemmas(seed: BV, stones: BV, g: BV) -> Bool:
    """What the placement laws need of a group, for a seed of at most one square:
    it holds the seed if the seed is a stone, lies within the stones and the seed,
    and is closed under adjacency within the stones."""
    return z3.And(
        z3.Implies(seed & stones != 0, seed & ~g == 0),
        g & ~(stones | seed) == 0,
        adj(g) & stones & ~g == 0,
    )


class AbstractGroups:
    """Groups as fresh vectors constrained only by ``group_lemmas`` (proved of the
    unrolled closure once, in ``proofs.gothello.theorems.closure_bounds_are_fixpoints``): the placement
    laws are proved for every such set, hence for the group itself."""

    def __init__(self) -> None:
        self.memo: dict[tuple[int, int], BV] = {}
        self.lemmas: list[Bool] = []

    def group(self, seed: BV, stones: BV) -> BV:
        key = (seed.get_id(), stones.get_id())
        if key not in self.memo:
            g = z3.BitVec(f"group{len(self.memo)}", N)
            self.memo[key] = g
            self.lemmas.append(group_lemmas(seed, stones, g))
        return self.memo[key]


ABSTRACT: AbstractGroups | None = None
"""When set, ``group`` returns abstract groups (see AbstractGroups)."""


def group_literal(seed: BV, stones: BV, steps: int = ITERATIONS) -> BV:
    """group board s = (neighbor board)⁺ ⦇{s}⦈, as written: the same-coloured squares
    reached from s in one or more one-way steps (s itself only via a cycle: never)."""
    g = adj_literal(seed) & stones
    for _ in range(steps):
        g = g | (adj_literal(g) & stones)
    return g


def liberties(g: BV, blank: BV) -> BV:
    """group_liberties board ss = adjoining_squares ss ∩ board∼ ⦇{blank}⦈."""
    return adj(g) & ~g & blank


def liberties_literal(g: BV, blank: BV) -> BV:
    return adj_literal(g) & ~g & blank


def popcount(x: BV) -> BV:
    """#x, as a 5-bit vector (#x ≤ 25)."""
    return z3.Sum([z3.ZeroExt(4, z3.Extract(i, i, x)) for i in range(N)])


# ─── The frame ─────────────────────────────────────────────────────────────────


@dataclass(frozen=True)
class Frame:
    """Derived terms of a before-state."""

    pre: Pre
    mine: BV  # stones of to_move
    theirs: BV
    blank: BV
    sbit: BV  # {s} for move? = move s; 0 for pass
    is_pass: Bool

    @staticmethod
    def of(pre: Pre) -> Frame:
        mine = z3.If(pre.white, pre.white_stones, pre.black)
        theirs = z3.If(pre.white, pre.black, pre.white_stones)
        sbit = bv(1) << z3.ZeroExt(N - 5, pre.action)  # 0 when action = 25
        return Frame(pre, mine, theirs, bv(FULL) & ~(pre.black | pre.white_stones), sbit, pre.action == PASS)

    def occupied(self) -> Bool:
        return z3.And(z3.Not(self.is_pass), self.sbit & self.blank == 0)

    def on_blank(self) -> Bool:
        return z3.And(z3.Not(self.is_pass), self.sbit & self.blank != 0)

    def board_is(self, post: Post, mine: BV, theirs: BV) -> Bool:
        """board' given as the to_move player's and the other player's stones."""
        p = self.pre
        return z3.And(post.black == z3.If(p.white, theirs, mine), post.white_stones == z3.If(p.white, mine, theirs))

    def xi_position(self, post: Post) -> Bool:
        """ΞGothelloPosition."""
        return z3.And(
            post.black == self.pre.black, post.white_stones == self.pre.white_stones, post.white == self.pre.white
        )

    def action_recorded(self, post: Post) -> Bool:
        """GothelloAction: history' = ⟨move?⟩ ⁀ history."""
        return z3.And(post.cons, post.head == self.pre.action)

    def xi_game(self, post: Post) -> Bool:
        """ΞGothelloGame."""
        return z3.And(self.xi_position(post), z3.Not(post.cons))

    def count_result(self) -> Any:
        """GothelloGameOver's result from the stones on the board."""
        b, w = popcount(self.pre.black), popcount(self.pre.white_stones)
        return z3.If(
            z3.UGT(b, w),
            z3.BitVecVal(WIN_BLACK, 3),
            z3.If(z3.UGT(w, b), z3.BitVecVal(WIN_WHITE, 3), z3.BitVecVal(DRAW, 3)),
        )

    def game_over(self) -> Bool:
        """#history ≥ 2 ∧ history 1 = pass ∧ history 2 = pass (G9)."""
        p = self.pre
        return z3.And(p.hlen == 2, p.h1 == PASS, p.h2 == PASS)

    def cboard_mine(self) -> BV:
        """cboard = board ⊕ {s ↦ stone to_move}: the mover's stones in cboard."""
        return self.mine | self.sbit


Relation = Callable[[Pre, Post], Bool]


# ─── The literal disjuncts ─────────────────────────────────────────────────────


def recorded_in_place(f: Frame, post: Post, result: Any, *conditions: Bool) -> Bool:
    """The frame the literal Nonblank, Blocked, GothelloPass and GothelloGameOver share:
    the action is recorded, the position is unchanged and ``result`` is the result, then
    ``conditions`` (the conjuncts in that order)."""
    return z3.And(f.action_recorded(post), f.xi_position(post), post.result == result, *conditions)


def nonblank_literal(pre: Pre, post: Post) -> Bool:
    f = Frame.of(pre)
    return recorded_in_place(f, post, ILLEGAL, f.occupied())


def _cboard_literal_liberties(f: Frame) -> BV:
    """liberties cboard s as written, cboard = board ⊕ {s ↦ stone to_move} (s may be
    occupied: Blocked does not say it is blank, G10)."""
    return liberties_literal(group_literal(f.sbit, f.cboard_mine()), f.blank & ~f.sbit)


def blocked_literal(pre: Pre, post: Post) -> Bool:
    f = Frame.of(pre)
    return recorded_in_place(f, post, ILLEGAL, z3.Not(f.is_pass), _cboard_literal_liberties(f) == 0)


def _captures_literal(f: Frame) -> BV:
    """⋃ (capture_at ⦇(neighbor cboard) ⦇{s}⦈⦈) as written: the squares recoloured to the
    mover.  (neighbor cboard) ⦇{s}⦈ are the mover's own stones one step up from s."""
    mine = f.cboard_mine()
    blank = f.blank & ~f.sbit
    captured = bv(0)
    for t in (((f.sbit << 5) & bv(FULL)), ((f.sbit << 1) & bv(FULL & ~RANK1))):
        related = t & mine
        g = group_literal(t, mine)
        captured = captured | z3.If(z3.And(related != 0, liberties_literal(g, blank) == 0), g, bv(0))
    return captured


def move_literal(pre: Pre, post: Post) -> Bool:
    f = Frame.of(pre)
    mine, theirs = f.cboard_mine(), f.theirs
    cap = _captures_literal(f)
    return z3.And(
        post.result == NOT_DONE,
        f.on_blank(),
        _cboard_literal_liberties(f) != 0,
        f.board_is(post, mine | cap, theirs & ~cap),
        post.white == z3.Not(pre.white),
        f.action_recorded(post),
    )


def pass_literal(pre: Pre, post: Post) -> Bool:
    f = Frame.of(pre)
    # history 1 ≠ pass (h1 free when the history is empty: G7)
    return recorded_in_place(f, post, NOT_DONE, f.is_pass, pre.h1 != PASS, post.white == z3.Not(pre.white))


def game_over_literal(pre: Pre, post: Post) -> Bool:
    f = Frame.of(pre)
    return recorded_in_place(f, post, f.count_result(), f.is_pass, pre.h1 == PASS)


LITERAL: dict[str, Relation] = {
    "GothelloIllegalMoveNonblank": nonblank_literal,
    "GothelloIllegalMoveBlocked": blocked_literal,
    "GothelloMove": move_literal,
    "GothelloPass": pass_literal,
    "GothelloGameOver": game_over_literal,
}


# ─── The corrected disjuncts ───────────────────────────────────────────────────


def ended(pre: Pre, post: Post) -> Bool:
    f = Frame.of(pre)
    return z3.And(f.game_over(), f.xi_game(post), post.result == f.count_result())


def nonblank(pre: Pre, post: Post) -> Bool:
    f = Frame.of(pre)
    return z3.And(z3.Not(f.game_over()), f.occupied(), f.xi_game(post), post.result == ILLEGAL)


def own_liberties(f: Frame) -> BV:
    """liberties cboard s, corrected, for a placement on blank s."""
    mine = f.cboard_mine()
    return liberties(group(f.sbit, mine), f.blank & ~f.sbit)


def blocked(pre: Pre, post: Post) -> Bool:
    f = Frame.of(pre)
    return z3.And(z3.Not(f.game_over()), f.on_blank(), own_liberties(f) == 0, f.xi_game(post), post.result == ILLEGAL)


def directions(sbit: BV) -> list[BV]:
    """The up-to-four squares adjoining {s}, one per direction (0 off the board)."""
    return [
        (sbit << 1) & bv(FULL & ~RANK1),
        z3.LShR(sbit, 1) & bv(FULL & ~RANK5),
        (sbit << 5) & bv(FULL),
        z3.LShR(sbit, 5),
    ]


def captures(f: Frame) -> BV:
    """captures s, corrected (G3): ⋃ capture_at over the opposing stones adjoining s,
    capture_at t = group cboard t when it has no liberties in cboard."""
    blank = f.blank & ~f.sbit
    captured = bv(0)
    for t in directions(f.sbit):
        g = group(t, f.theirs)
        captured = captured | z3.If(z3.And(t & f.theirs != 0, liberties(g, blank) == 0), g, bv(0))
    return captured


def turn_taken(f: Frame, post: Post, result: Any, *conditions: Bool) -> Bool:
    """The frame the corrected GothelloMove, GothelloPass and GothelloGameOver share: the
    game goes on before, ``conditions`` hold, the action is recorded and ``result`` is the
    result (the conjuncts in that order)."""
    return z3.And(z3.Not(f.game_over()), *conditions, f.action_recorded(post), post.result == result)


def move(pre: Pre, post: Post) -> Bool:
    f = Frame.of(pre)
    cap = captures(f)
    return turn_taken(
        f,
        post,
        NOT_DONE,
        f.on_blank(),
        own_liberties(f) != 0,
        f.board_is(post, f.cboard_mine() | cap, f.theirs & ~cap),
        post.white == z3.Not(pre.white),
    )


def pass_(pre: Pre, post: Post) -> Bool:
    f = Frame.of(pre)
    return turn_taken(
        f,
        post,
        NOT_DONE,
        f.is_pass,
        z3.Or(pre.hlen == 0, pre.h1 != PASS),
        post.black == pre.black,
        post.white_stones == pre.white_stones,
        post.white == z3.Not(pre.white),
    )


def game_over(pre: Pre, post: Post) -> Bool:
    f = Frame.of(pre)
    return turn_taken(f, post, f.count_result(), f.is_pass, pre.hlen != 0, pre.h1 == PASS, f.xi_position(post))


CORRECTED: dict[str, Relation] = {
    "GothelloEnded": ended,
    "GothelloIllegalMoveNonblank": nonblank,
    "GothelloIllegalMoveBlocked": blocked,
    "GothelloMove": move,
    "GothelloPass": pass_,
    "GothelloGameOver": game_over,
}
