"""Executable specification of Awari: section 1 of *A Networked Awari Referee:
Specification* (Bart Massey, 2000), schema by schema, in the paper's order.

Read it beside the paper (or docs/z-schemas.md §1, the schemas as we read them).  Each definition
carries the paper's name and quotes its Z in the docstring.

Representation
  * PLAYER and PIT are enumerations.  A PIT's value is its place in ``pit_order``
    less one, so a BOARD (``PIT → ℕ``) is a 12-tuple indexed by PIT and
    ``board[p]`` *is* the application ``board p``; ``graph(board)`` is the same
    function as a relation, for the relational operators.  SCORE likewise.
  * A Δ schema is a pure function from the before-state (its arguments) to the
    after-state (its result); arguments are immutable, so they are the OLD values.
    Schema preconditions are ``@require``; after-state predicates ``@ensure``.
  * Schema composition ``S ⨟ T`` is written as a function that runs S and hands
    its after-state to T (``Sow_Capture``).  Schema disjunction is a function that
    returns *every* disjunct whose predicate holds, with its outcome (``AwariRef``),
    so overlaps and gaps can be seen; ``referee`` then takes the single outcome of
    ``AwariRef_corrected``.

Literal and corrected readings
  A definition under the paper's name is the schema exactly as written.  Where that
  is wrong, partial or nondeterministic, the repaired reading that the referee uses
  is ``NAME_corrected`` (its guard ``pre_NAME_corrected``).  Every repair is an erratum registered
  in spec/errata.py and argued in proofs/ERRATA.md, with a witness test in
  tests/spec/test_errata_awari.py.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, lru_cache
from math import comb
from typing import Final

from spec import result as R
from spec.contracts import ensure, require
from spec.z import (
    FreeType,
    Rel,
    apply,
    card,
    comp,
    cross,
    dom,
    dres,
    fn,
    inverse,
    iter_,
    override,
    ran,
    rres,
    rtclosure,
    seq,
    sigma,
    upto,
)

# ─── Players and pits ──────────────────────────────────────────────────────────


class PLAYER(FreeType):
    """PLAYER ::= north | south"""

    north = 0
    south = 1


@ensure(lambda p, result: result != p)
def opponent(p: PLAYER) -> PLAYER:
    """opponent : PLAYER ⤖ PLAYER
    opponent north = south
    opponent south = north
    """
    return {PLAYER.north: PLAYER.south, PLAYER.south: PLAYER.north}[p]


class PIT(FreeType):
    """PIT ::= a | b | c | d | e | f | A | B | C | D | E | F

    Named counter-clockwise from the north-east corner: north's row a–f, then
    south's row A–F.  The value of a pit is its index in pit_order, less one.
    """

    a = 0
    b = 1
    c = 2
    d = 3
    e = 4
    f = 5
    A = 6
    B = 7
    C = 8
    D = 9
    E = 10
    F = 11


PITS: Final = frozenset(PIT)
"""The carrier set PIT, for the operators that need it (id, r*)."""

pit_order: Final[Rel[int, PIT]] = seq(*PIT)
"""pit_order : seq PIT;  pit_order = ⟨a, b, c, d, e, f, A, B, C, D, E, F⟩"""

next: Final[Rel[PIT, PIT]] = fn(lambda p: apply(pit_order, apply(inverse(pit_order), p) % 12 + 1), PIT)
"""next : PIT ⤖ PIT;  ∀ p : PIT • next p = pit_order (((pit_order∼) p) mod 12 + 1)

(The paper's name; it shadows Python's builtin ``next`` in this module only.)
"""

prev: Final[Rel[PIT, PIT]] = inverse(next)
"""prev : PIT ⤖ PIT;  prev = next∼"""

Σ: Final = sigma
"""[X] Σ : (X ↔ ℕ) → ℕ — the sum over the range of a relation (spec.z.sigma; erratum A13)."""

# ─── The board ─────────────────────────────────────────────────────────────────

BOARD = tuple[int, ...]
"""BOARD == PIT → ℕ, as a 12-tuple indexed by PIT."""

SCORE = tuple[int, ...]
"""SCORE == PLAYER → ℕ, as a pair indexed by PLAYER (north, south)."""


def graph(board: BOARD) -> Rel[PIT, int]:
    """A BOARD as the relation it is: {p : PIT • p ↦ board p}."""
    return fn(lambda p: board[p], PIT)


def score_graph(score: SCORE) -> Rel[PLAYER, int]:
    """A SCORE as the relation it is: {p : PLAYER • p ↦ score p}."""
    return fn(lambda p: score[p], PLAYER)


def to_BOARD(r: Rel[PIT, int]) -> BOARD:
    """The tuple form of a total function PIT → ℕ given as a relation."""
    return tuple(apply(r, p) for p in PIT)


def to_SCORE(r: Rel[PLAYER, int]) -> SCORE:
    """The tuple form of a total function PLAYER → ℕ given as a relation."""
    return tuple(apply(r, p) for p in PLAYER)


def is_BOARD(board: BOARD) -> bool:
    """board : PIT → ℕ"""
    return len(board) == 12 and all(n >= 0 for n in board)


def is_SCORE(score: SCORE) -> bool:
    """score : PLAYER → ℕ"""
    return len(score) == 2 and all(n >= 0 for n in score)


@dataclass(frozen=True)
class AwariBoard:
    """┌─ AwariBoard ──────────
    │ board : BOARD
    │ score : SCORE
    │ to_move : PLAYER
    ├───────────────────────
    │ Σ board + Σ score = 48
    └───────────────────────

    The schema's predicate is ``AwariBoard_invariant``: every operation requires it
    of its before-state and ensures it of its after-state.  (It is not a class
    invariant: crosshair decides contracts on pure functions over tuples and runs
    away on classes with invariants — docs/toolchain.md.)
    """

    board: BOARD
    score: SCORE
    to_move: PLAYER


@lru_cache(maxsize=1 << 16)
def AwariBoard_invariant(s: AwariBoard) -> bool:
    """The predicate of AwariBoard, with its declarations' types: Σ board + Σ score = 48.

    Memoised: every contract of every schema asks it of every recorded position."""
    return is_BOARD(s.board) and is_SCORE(s.score) and Σ(graph(s.board)) + Σ(score_graph(s.score)) == 48


@ensure(lambda result: AwariBoard_invariant(result), "AwariBoard'")
@ensure(lambda result: graph(result.board) == cross(PITS, {4}), "board' = PIT × {4}")
@ensure(lambda result: score_graph(result.score) == cross(frozenset(PLAYER), {0}), "score' = PLAYER × {0}")
@ensure(lambda result: result.to_move is PLAYER.south, "to_move' = south")
def InitAwariBoard() -> AwariBoard:
    """┌─ InitAwariBoard ─────
    │ AwariBoard'
    ├──────────────────────
    │ board' = PIT × {4}
    │ score' = PLAYER × {0}
    │ to_move' = south
    └──────────────────────
    """
    return AwariBoard(board=(4,) * 12, score=(0, 0), to_move=PLAYER.south)


@cache
@ensure(lambda result: card(result) == 6)
@ensure(lambda p, result: p is not PLAYER.north or result == ran(dres(upto(1, 6), pit_order)), "side north")
@ensure(lambda p, result: p is not PLAYER.south or result == PITS - ran(dres(upto(1, 6), pit_order)), "side south")
def side(p: PLAYER) -> frozenset[PIT]:
    """side : PLAYER ↣ ℙ PIT
    side north = ran ((1 .. 6) ◁ pit_order)
    side south = PIT \\ (side north)

    North's row is the first six pits of pit_order, whose values are 0 … 5.
    """
    return frozenset(q for q in PIT if (q.value < 6) == (p is PLAYER.north))


# ─── Sowing ────────────────────────────────────────────────────────────────────


@cache
@ensure(
    lambda p, result: result == override(next, frozenset({(apply(prev, p), apply(next, p))})),
    "next ⊕ {prev p ↦ next p}",
)
def next_skip(p: PIT) -> Rel[PIT, PIT]:
    """next_skip : PIT → PIT → PIT
    ∀ p : PIT • next_skip p = next ⊕ {prev p ↦ next p}

    Sowing from p, the step after ``prev p`` jumps over p.
    """
    return frozenset((q, apply(next, apply(next, q)) if apply(next, q) == p else apply(next, q)) for q in PIT)


@cache
def _iter_next_skip(n: int, p: PIT) -> Rel[PIT, PIT]:
    """iter n (next_skip p), memoised: otherwise every sowing would recompute it.  By
    iter's own recursion, iter (n + 1) r = r ⨟ iter n r, on the memoised iter n r, so
    that the first 48 powers cost 48 compositions rather than 1,176."""
    if n == 0:
        return iter_(0, next_skip(p), PITS)
    return comp(next_skip(p), _iter_next_skip(n - 1, p))


def trace(p: PIT) -> Callable[[int], PIT]:
    """trace : PIT → seq PIT
    ∀ p : PIT • trace p = (λ n : ℕ₁ • (iter n (next_skip p)) p)

    The infinite sequence of pits sown from p.  It is a function ℕ₁ → PIT, not a
    (finite) ``seq`` as declared (erratum A14); only finite prefixes are ever used.
    """

    def trace_p(n: int) -> PIT:
        assert n >= 1, "trace p is indexed by ℕ₁"
        return apply(_iter_next_skip(n, p), p)

    return trace_p


def _scores_below_25(s: AwariBoard) -> bool:
    """∀ p : PLAYER • score p < 25"""
    return all(s.score[p] < 25 for p in PLAYER)


def _sow_pre(s: AwariBoard, move: PIT) -> bool:
    """The precondition of Sow."""
    return _scores_below_25(s) and move in side(s.to_move) and s.board[move] > 0


@require(lambda s: AwariBoard_invariant(s), "AwariBoard")
@require(lambda s: _scores_below_25(s), "∀ p : PLAYER • score p < 25")
@require(lambda s, move: move in side(s.to_move), "move ∈ side to_move")
@require(lambda s, move: s.board[move] > 0, "board move > 0")
@ensure(lambda result: AwariBoard_invariant(result[0]), "AwariBoard'")
@ensure(lambda s, move, result: result[1] == trace(move)(s.board[move]), "to_capture = (trace move) (board move)")
@ensure(lambda s, move, result: result[0].board == sown_board(s.board, move), "board' = let emptied … • λ p • …")
@ensure(lambda s, result: result[0].score == s.score, "score' = score")
@ensure(lambda s, result: result[0].to_move == s.to_move, "to_move' = to_move")
def Sow(s: AwariBoard, move: PIT) -> tuple[AwariBoard, PIT]:
    """┌─ Sow ─────────────────────────────────────────────
    │ ΔAwariBoard
    │ move : PIT
    │ to_capture : PIT
    ├───────────────────────────────────────────────────
    │ ∀ p : PLAYER • score p < 25
    │ move ∈ side to_move
    │ board move > 0
    │ to_capture = (trace move) (board move)
    │ board' = let emptied == board ⊕ {move ↦ 0};
    │              sown == (1 .. board move) ◁ (trace move)
    │          • (λ p : PIT • emptied p + #(sown ▷ {p}))
    │ score' = score
    │ to_move' = to_move
    └───────────────────────────────────────────────────

    Returns (θAwariBoard', to_capture).  The body sows stone by stone; the contract
    states the schema's equations.
    """
    board = list(s.board)
    board[move] = 0
    pit = move
    for _ in range(s.board[move]):
        pit = apply(next_skip(move), pit)
        board[pit] += 1
    return AwariBoard(board=tuple(board), score=s.score, to_move=s.to_move), pit


def sown_board(board: BOARD, move: PIT) -> BOARD:
    """Sow's board', as the schema defines it:
    board' = let emptied == board ⊕ {move ↦ 0}; sown == (1 .. board move) ◁ (trace move)
             • (λ p : PIT • emptied p + #(sown ▷ {p}))"""
    emptied = override(graph(board), frozenset({(move, 0)}))
    sown = fn(trace(move), upto(1, board[move]))
    return to_BOARD(fn(lambda p: apply(emptied, p) + card(rres(sown, {p})), PIT))


# ─── Capturing ─────────────────────────────────────────────────────────────────


def reachable(r: Rel[PIT, PIT], xs: frozenset[PIT]) -> frozenset[PIT]:
    """[X] reachable : (X ↔ X) → ℙ X → ℙ X
    ∀ r : X ↔ X; xs : ℙ X • reachable r xs = ran (xs ◁ r*)

    Used only with X = PIT.  ``r*`` contains ``id PIT``, so ``xs ⊆ reachable r xs``
    whatever r is (erratum A1).
    """
    return ran(dres(xs, rtclosure(r, PITS)))


def vulnerable(s: AwariBoard) -> frozenset[PIT]:
    """Capture's  vul == dom (board ▷ {2, 3}) ∩ side (opponent to_move)"""
    return dom(rres(graph(s.board), {2, 3})) & side(opponent(s.to_move))


def _harvest(vul: frozenset[PIT]) -> Rel[PIT, PIT]:
    """vul ◁ prev ▷ vul: one clockwise step between vulnerable pits."""
    return rres(dres(vul, prev), vul)


def _captured(s: AwariBoard, captures: frozenset[PIT]) -> AwariBoard:
    """Capture's after-state, given the set of captured pits, computed pit by pit."""
    board, score = list(s.board), list(s.score)
    for p in captures:
        score[s.to_move] += board[p]
        board[p] = 0
    return AwariBoard(board=tuple(board), score=tuple(score), to_move=s.to_move)


def _harvested(s: AwariBoard, start: PIT) -> frozenset[PIT]:
    """The pits taken walking clockwise (prev) from ``start`` while each next one is
    vulnerable: ``start`` and the chain of vulnerable pits before it."""
    vul = vulnerable(s)
    taken, p = {start}, start
    while p in vul and (q := apply(prev, p)) in vul and q not in taken:
        taken.add(q)
        p = q
    return frozenset(taken)


# Capture's equations, stated over its after-state and ``captures``:


def _board_after_capture(s: AwariBoard, result: tuple[AwariBoard, frozenset[PIT]]) -> bool:
    """board' = board ⊕ (captures × {0})"""
    after, captures = result
    return graph(after.board) == override(graph(s.board), cross(captures, {0}))


def _score_after_capture(s: AwariBoard, result: tuple[AwariBoard, frozenset[PIT]]) -> bool:
    """score' to_move = score to_move + Σ (captures ◁ board);  score' (opponent to_move) = score (opponent to_move)"""
    after, captures = result
    them = opponent(s.to_move)
    gained = Σ(dres(captures, graph(s.board)))
    return after.score[s.to_move] == s.score[s.to_move] + gained and after.score[them] == s.score[them]


@require(lambda s: AwariBoard_invariant(s), "AwariBoard")
@ensure(lambda result: AwariBoard_invariant(result[0]), "AwariBoard'")
@ensure(
    lambda s, to_capture, result: result[1] == reachable(_harvest(vulnerable(s)), frozenset({to_capture})),
    "captures = let vul == … • reachable (vul ◁ prev ▷ vul) {to_capture}",
)
@ensure(lambda s, result: _board_after_capture(s, result), "board' = board ⊕ (captures × {0})")
@ensure(lambda s, result: _score_after_capture(s, result), "score' to_move = …; score' (opponent to_move) = …")
@ensure(lambda s, result: result[0].to_move == s.to_move, "to_move' = to_move")
def Capture(s: AwariBoard, to_capture: PIT) -> tuple[AwariBoard, frozenset[PIT]]:
    """┌─ Capture ────────────────────────────────────────────────────
    │ ΔAwariBoard
    │ to_capture : PIT
    │ captures : ℙ PIT
    ├──────────────────────────────────────────────────────────────
    │ captures = let vul == dom (board ▷ {2, 3}) ∩ side (opponent to_move)
    │            • reachable (vul ◁ prev ▷ vul) {to_capture}
    │ board' = board ⊕ (captures × {0})
    │ score' to_move = score to_move + Σ (captures ◁ board)
    │ score' (opponent to_move) = score (opponent to_move)
    │ to_move' = to_move
    └──────────────────────────────────────────────────────────────

    As written: since r* is reflexive on PIT, ``to_capture ∈ captures`` always, so the
    last pit sown is captured whatever it holds and whoever owns it (erratum A1).
    Returns (θAwariBoard', captures).  The body walks the pits; the contract states
    the schema.
    """
    captures = _harvested(s, to_capture)
    return _captured(s, captures), captures


@require(lambda s: AwariBoard_invariant(s), "AwariBoard")
@ensure(lambda result: AwariBoard_invariant(result[0]), "AwariBoard'")
@ensure(
    lambda s, to_capture, result: (
        result[1] == reachable(_harvest(vulnerable(s)), frozenset({to_capture}) & vulnerable(s))
    ),
    "captures = let vul == … • reachable (vul ◁ prev ▷ vul) ({to_capture} ∩ vul)",
)
@ensure(lambda s, result: _board_after_capture(s, result), "board' = board ⊕ (captures × {0})")
@ensure(lambda s, result: _score_after_capture(s, result), "score' to_move = …; score' (opponent to_move) = …")
@ensure(lambda s, result: result[0].to_move == s.to_move, "to_move' = to_move")
def Capture_corrected(s: AwariBoard, to_capture: PIT) -> tuple[AwariBoard, frozenset[PIT]]:
    """Capture, corrected (A1): the harvest starts only if the last pit sown is
    vulnerable — on the opponent's side and holding 2 or 3 —

        captures = let vul == … • reachable (vul ◁ prev ▷ vul) ({to_capture} ∩ vul)

    and the other predicates are as written.  Returns (θAwariBoard', captures).
    """
    captures = _harvested(s, to_capture) if to_capture in vulnerable(s) else frozenset()
    return _captured(s, captures), captures


@require(lambda s, move: AwariBoard_invariant(s) and _sow_pre(s, move), "pre Sow")
@ensure(lambda result: AwariBoard_invariant(result[0]), "AwariBoard'")
def Sow_Capture_corrected(s: AwariBoard, move: PIT) -> tuple[AwariBoard, PIT, frozenset[PIT]]:
    """Sow ⨟ Capture with Capture corrected (A1): Capture's before-state is Sow's
    after-state, and the two share ``to_capture``.  Returns (θAwariBoard', to_capture,
    captures)."""
    sown, to_capture = Sow(s, move)
    captured, captures = Capture_corrected(sown, to_capture)
    return captured, to_capture, captures


@require(lambda s, move: AwariBoard_invariant(s) and _sow_pre(s, move), "pre Sow")
@ensure(lambda result: AwariBoard_invariant(result[0]), "AwariBoard'")
def Sow_Capture(s: AwariBoard, move: PIT) -> tuple[AwariBoard, PIT, frozenset[PIT]]:
    """Sow ⨟ Capture as written: Capture's before-state is Sow's after-state, and the
    two share ``to_capture``; Capture takes the last pit sown whatever it holds (A1).
    Returns (θAwariBoard', to_capture, captures)."""
    sown, to_capture = Sow(s, move)
    captured, captures = Capture(sown, to_capture)
    return captured, to_capture, captures


# ─── Results and end-of-game scoring ───────────────────────────────────────────

RESULT = R.win[PLAYER] | R.Constant
"""RESULT ::= win⟨⟨PLAYER⟩⟩ | draw | not_done | illegal_move"""
win = R.win
draw: Final = R.draw
not_done: Final = R.not_done
illegal_move: Final = R.illegal_move


def winner(s: SCORE) -> RESULT:
    """winner : SCORE → RESULT
    ∀ s : SCORE • winner s = if s north > s south then win north
                             else if s south > s north then win south else draw
    """
    if s[PLAYER.north] > s[PLAYER.south]:
        return win(PLAYER.north)
    if s[PLAYER.south] > s[PLAYER.north]:
        return win(PLAYER.south)
    return draw


@require(lambda score, board: is_SCORE(score) and is_BOARD(board), "score : SCORE; board : BOARD")
@ensure(
    lambda score, board, result: all(result[p] == score[p] + Σ(dres(side(p), graph(board))) for p in PLAYER),
    "∀ p : PLAYER • score' p = score p + Σ (side p ◁ board)",
)
def ClaimStones(score: SCORE, board: BOARD) -> SCORE:
    """┌─ ClaimStones ─────────
    │ score, score' : SCORE
    │ board : BOARD
    ├───────────────────────
    │ ∀ p : PLAYER • score' p = score p + Σ (side p ◁ board)
    └───────────────────────
    Each player adds the stones on their own row.  Returns score'.
    """
    return tuple(score[p] + sum(board[q] for q in side(p)) for p in PLAYER)


@require(lambda score, board: is_SCORE(score) and is_BOARD(board), "score : SCORE; board : BOARD")
@ensure(
    lambda score, board, result: all(result[p] == score[p] + Σ(dres(side(opponent(p)), graph(board))) for p in PLAYER),
    "∀ p : PLAYER • score' p = score p + Σ (side (opponent p) ◁ board)",
)
def ForfeitStones(score: SCORE, board: BOARD) -> SCORE:
    """┌─ ForfeitStones ───────
    │ score, score' : SCORE
    │ board : BOARD
    ├───────────────────────
    │ ∀ p : PLAYER • score' p = score p + Σ (side (opponent p) ◁ board)
    └───────────────────────
    Each player receives the stones left on the *opponent's* row.  Returns score'.
    """
    return tuple(score[p] + sum(board[q] for q in side(opponent(p))) for p in PLAYER)


# ─── Positions and the game state ──────────────────────────────────────────────


@dataclass(frozen=True)
class Positions:
    """┌─ Positions ─────────────
    │ positions : ℙ AwariBoard
    └─────────────────────────
    """

    positions: frozenset[AwariBoard]


@dataclass(frozen=True)
class AwariGame:
    """AwariBoard ∧ Positions: the state on which AwariRef operates (the paper
    leaves this conjunction unnamed).  Components are flattened, as in Z schema
    inclusion."""

    board: BOARD
    score: SCORE
    to_move: PLAYER
    positions: frozenset[AwariBoard]


def θAwariBoard(g: AwariGame) -> AwariBoard:
    """θAwariBoard: the binding of AwariBoard's components in the current state."""
    return AwariBoard(board=g.board, score=g.score, to_move=g.to_move)


def AwariGame_invariant(g: AwariGame) -> bool:
    """AwariBoard ∧ Positions: the current binding and every recorded one are AwariBoards."""
    return AwariBoard_invariant(θAwariBoard(g)) and all(AwariBoard_invariant(p) for p in g.positions)


def game_of(s: AwariBoard, positions: frozenset[AwariBoard]) -> AwariGame:
    """The AwariGame whose θAwariBoard is s."""
    return AwariGame(board=s.board, score=s.score, to_move=s.to_move, positions=positions)


@ensure(lambda result: AwariGame_invariant(result))
def InitAwari() -> AwariGame:
    """┌─ InitAwari ──────
    │ InitAwariBoard
    │ Positions'
    ├──────────────────
    │ positions' = ∅
    └──────────────────
    """
    return game_of(InitAwariBoard(), frozenset())


def AwariMove(g: AwariGame) -> tuple[frozenset[AwariBoard], Callable[[BOARD], int]]:
    """┌─ AwariMove ─────────────────────────────────────
    │ ΔAwariBoard
    │ ΔPositions
    │ opp_stones : BOARD → ℕ
    │ result : RESULT
    ├─────────────────────────────────────────────────
    │ positions' = positions ∪ {θAwariBoard}
    │ ∀ b : BOARD • opp_stones b = Σ ((side (opponent to_move)) ◁ b)
    └─────────────────────────────────────────────────

    The frame of every AwariRef disjunct: returns (positions', opp_stones).  It
    declares no ``move``, though IllegalMove uses one (erratum A10: ``move : PIT`` is
    taken as the action's input throughout).
    """

    def opp_stones(b: BOARD) -> int:
        return Σ(dres(side(opponent(g.to_move)), graph(b)))

    return g.positions | {θAwariBoard(g)}, opp_stones


# ─── Outcomes ──────────────────────────────────────────────────────────────────


@dataclass(frozen=True)
class After:
    """An after-state as far as a schema determines it.  ``None`` marks a component
    the schema leaves free: any value allowed by AwariBoard' will do."""

    board: BOARD | None
    score: SCORE | None
    to_move: PLAYER | None
    positions: frozenset[AwariBoard]

    def completions(self) -> int:
        """How many after-states AwariBoard ∧ Positions satisfy this description:
        1 exactly when the schema is deterministic here."""
        to_moves = 1 if self.to_move is not None else len(PLAYER)
        if self.board is not None and self.score is not None:
            return to_moves if sum(self.board) + sum(self.score) == 48 else 0
        if self.board is not None:  # score' free: pairs summing to 48 − Σ board'
            left = 48 - sum(self.board)
            return to_moves * (left + 1 if left >= 0 else 0)
        if self.score is not None:  # board' free: 12 naturals summing to 48 − Σ score'
            left = 48 - sum(self.score)
            return to_moves * (comb(left + 11, 11) if left >= 0 else 0)
        return to_moves * sum((48 - t + 1) * comb(t + 11, 11) for t in range(49))

    def state(self) -> AwariGame:
        """The after-state, when the schema determines every component."""
        assert self.board is not None and self.score is not None and self.to_move is not None
        return AwariGame(board=self.board, score=self.score, to_move=self.to_move, positions=self.positions)


@dataclass(frozen=True)
class Outcome:
    """One disjunct of AwariRef that holds, its result, and its after-state."""

    schema: str
    result: RESULT
    after: After


def determined(schema: str, result: RESULT, g: AwariGame) -> Outcome:
    """An outcome whose after-state is fully determined."""
    return Outcome(schema, result, After(g.board, g.score, g.to_move, g.positions))


class SpecError(AssertionError):
    """A schema could not be evaluated as the spec expects (see the message)."""


EMPTY_BOARD: Final[BOARD] = to_BOARD(cross(PITS, {0}))


def _is_game(g: AwariGame) -> bool:
    return AwariGame_invariant(g)


def _after_ok(outcome: Outcome | None) -> bool:
    """The after-state is determined (one binding) and satisfies AwariBoard' ∧ Positions'."""
    if outcome is None:
        return True
    return outcome.after.completions() == 1 and AwariGame_invariant(outcome.after.state())


# ─── The disjuncts' preconditions and after-state equations ───────────────────
#
# Each AwariRef disjunct's contract says that it holds exactly when its precondition
# (``pre_…``) holds, and that its outcome satisfies the schema's equations.  They are
# written here in the paper's vocabulary, apart from the bodies that compute them.


def opp_stones(g: AwariGame, b: BOARD) -> int:
    """AwariMove's  opp_stones b = Σ ((side (opponent to_move)) ◁ b)"""
    return Σ(dres(side(opponent(g.to_move)), graph(b)))


def own_stones(g: AwariGame) -> int:
    """Σ (side to_move ◁ board)"""
    return Σ(dres(side(g.to_move), graph(g.board)))


def scores_below_25(g: AwariGame) -> bool:
    """∀ p : PLAYER • score p < 25"""
    return all(apply(score_graph(g.score), p) < 25 for p in PLAYER)


def pre_Sow(g: AwariGame, move: PIT) -> bool:
    """pre Sow:  ∀ p : PLAYER • score p < 25;  move ∈ side to_move;  board move > 0"""
    return scores_below_25(g) and move in side(g.to_move) and apply(graph(g.board), move) > 0


def sow_capture_board_corrected(g: AwariGame, move: PIT) -> BOARD:
    """(Sow ⨟ Capture).board': the board after sowing ``move`` and capturing."""
    return Sow_Capture_corrected(θAwariBoard(g), move)[0].board


def pre_WinMargin(g: AwariGame, move: PIT) -> bool:
    """pre WinMargin:  ∃ p : PLAYER • score p ≥ 25"""
    return not scores_below_25(g)


def pre_NoMove(g: AwariGame, move: PIT) -> bool:
    """pre NoMove:  ∀ p : PLAYER • score p < 25;  θAwariBoard ∈ positions ∨ Σ (side to_move ◁ board) = 0"""
    return scores_below_25(g) and (θAwariBoard(g) in g.positions or own_stones(g) == 0)


def pre_CannotFeed(g: AwariGame, move: PIT) -> bool:
    """pre CannotFeed:  ∀ p • score p < 25;  θAwariBoard ∉ positions;  Σ (side to_move ◁ board) > 0;
    opp_stones board = 0;  ¬ ∃ m : side to_move • opp_stones (Sow ⨟ Capture)[m].board' > 0"""
    return (
        scores_below_25(g)
        and θAwariBoard(g) not in g.positions
        and own_stones(g) > 0
        and opp_stones(g, g.board) == 0
        and not any(pre_Sow(g, m) and opp_stones(g, sow_capture_board_corrected(g, m)) > 0 for m in side(g.to_move))
    )


def game_on(g: AwariGame) -> bool:
    """¬ pre WinMargin ∧ ¬ pre NoMove ∧ ¬ pre CannotFeed: the player to move may move."""
    return not (pre_WinMargin(g, PIT.a) or pre_NoMove(g, PIT.a) or pre_CannotFeed(g, PIT.a))


def pre_IllegalMove_corrected(g: AwariGame, move: PIT) -> bool:
    """pre IllegalMove, corrected:  the game is on;  move ∉ side to_move ∨ board move = 0 ∨
    (opp_stones board = 0 ∧ opp_stones (Sow ⨟ Capture).board' = 0)"""
    return game_on(g) and (
        not pre_Sow(g, move)
        or (opp_stones(g, g.board) == 0 and opp_stones(g, sow_capture_board_corrected(g, move)) == 0)
    )


def pre_GrandSlam_corrected(g: AwariGame, move: PIT) -> bool:
    """pre GrandSlam, corrected:  the game is on;  pre Sow;  opp_stones board > 0;
    opp_stones (Sow ⨟ Capture).board' = 0"""
    return (
        game_on(g)
        and pre_Sow(g, move)
        and opp_stones(g, g.board) > 0
        and opp_stones(g, sow_capture_board_corrected(g, move)) == 0
    )


def pre_NormalMove_corrected(g: AwariGame, move: PIT) -> bool:
    """pre NormalMove, corrected:  the game is on;  pre Sow;  opp_stones (Sow ⨟ Capture).board' > 0"""
    return game_on(g) and pre_Sow(g, move) and opp_stones(g, sow_capture_board_corrected(g, move)) > 0


def forfeited_corrected(g: AwariGame, move: PIT) -> SCORE:
    """(Sow ⨟ Capture ⨟ ForfeitStones).score':
    ∀ p : PLAYER • score' p = score p + Σ (side (opponent p) ◁ board), over Sow ⨟ Capture's after-state"""
    captured = Sow_Capture_corrected(θAwariBoard(g), move)[0]
    return tuple(captured.score[p] + Σ(dres(side(opponent(p)), graph(captured.board))) for p in PLAYER)


def normal_move_then_status(g: AwariGame, move: PIT, o: Outcome) -> bool:
    """NormalMove ≙ AwariMove ∧ (Sow ⨟ Capture) ∧ to_move' = opponent to_move ∧ result = not_done,
    followed by Status: the outcome is NormalMove's own, or, if the new position ends
    the game, that end condition's outcome on it."""
    captured = Sow_Capture_corrected(θAwariBoard(g), move)[0]
    moved = AwariGame(captured.board, captured.score, opponent(g.to_move), g.positions | {θAwariBoard(g)})
    ended = Status(moved, move)
    if ended is None:
        return o.schema == "NormalMove" and o.result == not_done and o.after.state() == moved
    return (o.schema, o.result, o.after) == ("NormalMove ⨟ " + ended.schema, ended.result, ended.after)


def pre_NormalMove(g: AwariGame, move: PIT) -> bool:
    """pre NormalMove, as written:  pre Sow;  opp_stones board = 0 ⇒ opp_stones board' > 0
    (board' of Sow ⨟ Capture as written, A1)"""
    return pre_Sow(g, move) and (
        opp_stones(g, g.board) != 0 or opp_stones(g, Sow_Capture(θAwariBoard(g), move)[0].board) > 0
    )


def pre_GrandSlam(g: AwariGame, move: PIT) -> bool:
    """pre GrandSlam, as written:  pre Sow;  opp_stones board > 0  (opp_stones board' = 0 always holds, A3)"""
    return pre_Sow(g, move) and opp_stones(g, g.board) > 0


def pre_IllegalMove(g: AwariGame, move: PIT) -> bool:
    """pre IllegalMove, as written:  ∀ p • score p < 25;  ∃ p : side to_move • board p > 0;
    move ∉ side to_move ∨ board move = 0  (the feeding disjunct is false in every state, A15)"""
    return (
        scores_below_25(g) and own_stones(g) > 0 and (move not in side(g.to_move) or apply(graph(g.board), move) == 0)
    )


def literal_sow_capture(g: AwariGame, move: PIT, o: Outcome) -> bool:
    """(Sow ⨟ Capture)'s after-state, as written (A1, A2: to_move' = to_move)."""
    captured = Sow_Capture(θAwariBoard(g), move)[0]
    return (o.after.board, o.after.score, o.after.to_move) == (captured.board, captured.score, captured.to_move)


def forfeited(g: AwariGame, move: PIT) -> SCORE:
    """(Sow ⨟ Capture ⨟ ForfeitStones).score', Capture as written."""
    captured = Sow_Capture(θAwariBoard(g), move)[0]
    return tuple(captured.score[p] + Σ(dres(side(opponent(p)), graph(captured.board))) for p in PLAYER)


def positions_recorded(g: AwariGame, o: Outcome | None) -> bool:
    """AwariMove:  positions' = positions ∪ {θAwariBoard}"""
    return o is None or o.after.positions == g.positions | {θAwariBoard(g)}


def result_is_winner(o: Outcome | None) -> bool:
    """result = winner score'"""
    return o is None or (o.after.score is not None and o.result == winner(o.after.score))


def claims_stones(g: AwariGame, o: Outcome | None) -> bool:
    """ClaimStones:  ∀ p : PLAYER • score' p = score p + Σ (side p ◁ board)"""
    return o is None or (
        o.after.score is not None
        and all(o.after.score[p] == g.score[p] + Σ(dres(side(p), graph(g.board))) for p in PLAYER)
    )


def board_emptied(o: Outcome | None) -> bool:
    """board' = PIT × {0}"""
    return o is None or (o.after.board is not None and graph(o.after.board) == cross(PITS, {0}))


# ─── AwariRef's disjuncts, as written ──────────────────────────────────────────


@require(lambda g: _is_game(g))
@ensure(lambda g, move, result: (result is not None) == pre_WinMargin(g, move), "pre WinMargin")
@ensure(lambda g, result: result is None or result.after.score == g.score, "score' = score")
@ensure(lambda g, result: positions_recorded(g, result), "positions' = positions ∪ {θAwariBoard}")
@ensure(lambda result: result_is_winner(result), "result = winner score'")
def WinMargin(g: AwariGame, move: PIT) -> Outcome | None:
    """┌─ WinMargin ──────────────
    │ AwariMove
    ├──────────────────────────
    │ ∃ p : PLAYER • score p ≥ 25
    │ score' = score
    │ result = winner score'
    └──────────────────────────

    As written board' and to_move' are free (A6).
    """
    positions_, _ = AwariMove(g)
    if not any(g.score[p] >= 25 for p in PLAYER):
        return None
    return Outcome("WinMargin", winner(g.score), After(None, g.score, None, positions_))


def _no_move_pre(g: AwariGame) -> bool:
    """NoMove's guard:  ∀ p • score p < 25;  θAwariBoard ∈ positions ∨ Σ (side to_move ◁ board) = 0"""
    s = θAwariBoard(g)
    return _scores_below_25(s) and (s in g.positions or Σ(dres(side(g.to_move), graph(g.board))) == 0)


@require(lambda g: _is_game(g))
@ensure(lambda g, move, result: (result is not None) == pre_NoMove(g, move), "pre NoMove")
@ensure(lambda g, result: claims_stones(g, result), "ClaimStones")
@ensure(lambda g, result: positions_recorded(g, result), "positions' = positions ∪ {θAwariBoard}")
@ensure(lambda result: result_is_winner(result), "result = winner score'")
def NoMove(g: AwariGame, move: PIT) -> Outcome | None:
    """┌─ NoMove ──────────────────────────────────────
    │ AwariMove
    │ ClaimStones
    ├───────────────────────────────────────────────
    │ ∀ p : PLAYER • score p < 25
    │ θAwariBoard ∈ positions ∨ Σ (side to_move ◁ board) = 0
    │ result = winner score'
    └───────────────────────────────────────────────

    board' is forced empty by AwariBoard' (ClaimStones scores every stone); to_move'
    is free (A7).
    """
    positions_, _ = AwariMove(g)
    if not _no_move_pre(g):
        return None
    score_ = ClaimStones(g.score, g.board)
    return Outcome("NoMove", winner(score_), After(None, score_, None, positions_))


@require(lambda g: _is_game(g))
@ensure(lambda g, move, result: (result is not None) == pre_NormalMove(g, move), "pre NormalMove, as written")
@ensure(lambda g, move, result: result is None or literal_sow_capture(g, move, result), "Sow ⨟ Capture")
@ensure(lambda g, result: positions_recorded(g, result), "positions' = positions ∪ {θAwariBoard}")
@ensure(lambda result: result is None or result.result == not_done, "result = not_done")
def NormalMove(g: AwariGame, move: PIT) -> Outcome | None:
    """┌─ NormalMove ──────────────────────────────────────────────
    │ AwariMove
    │ Sow ⨟ Capture
    ├───────────────────────────────────────────────────────────
    │ ∀ b : BOARD • opp_stones board = 0 ⇒ opp_stones board' > 0
    │ result = not_done
    └───────────────────────────────────────────────────────────

    As written: Capture takes the last pit whatever it holds (A1), the turn never
    passes (A2), a grand slam is a NormalMove too (A4), and ``∀ b`` binds nothing
    (A18).
    """
    positions_, opp_stones = AwariMove(g)
    s = θAwariBoard(g)
    if not _sow_pre(s, move):
        return None
    after, _, _ = Sow_Capture(s, move)
    if opp_stones(g.board) == 0 and not opp_stones(after.board) > 0:
        return None
    return Outcome("NormalMove", not_done, After(after.board, after.score, after.to_move, positions_))


@require(lambda g: _is_game(g))
@ensure(lambda g, move, result: (result is not None) == pre_GrandSlam(g, move), "pre GrandSlam, as written")
@ensure(lambda g, move, result: result is None or result.after.score == forfeited(g, move), "… ⨟ ForfeitStones")
@ensure(lambda result: board_emptied(result), "board' forced empty by AwariBoard'")
@ensure(lambda g, result: positions_recorded(g, result), "positions' = positions ∪ {θAwariBoard}")
@ensure(lambda result: result_is_winner(result), "result = winner score'")
def GrandSlam(g: AwariGame, move: PIT) -> Outcome | None:
    """┌─ GrandSlam ──────────────────────────────────
    │ AwariMove
    │ Sow ⨟ Capture ⨟ ForfeitStones
    ├──────────────────────────────────────────────
    │ opp_stones board > 0
    │ opp_stones board' = 0
    │ result = winner score'
    └──────────────────────────────────────────────

    ForfeitStones has no board', so the composite leaves board' to AwariBoard',
    which forces it empty (every stone is scored): ``opp_stones board' = 0`` always
    holds, and every sowing against a non-empty row is a "grand slam" (A3).
    """
    positions_, opp_stones = AwariMove(g)
    s = θAwariBoard(g)
    if not _sow_pre(s, move) or not opp_stones(g.board) > 0:
        return None
    captured, _, _ = Sow_Capture(s, move)
    score_ = ForfeitStones(captured.score, captured.board)
    # board' is constrained only by AwariBoard': Σ board' = 48 − Σ score' = 0.
    assert sum(score_) == 48
    board_ = EMPTY_BOARD
    if opp_stones(board_) != 0:
        return None
    return Outcome("GrandSlam", winner(score_), After(board_, score_, captured.to_move, positions_))


@cache
def normal_move_binding(move: PIT) -> BOARD:
    """board' of one binding of the literal NormalMove with ``m.move = move``: sowing
    ``move`` from the initial board, its owner to play.  Every pit but ``move`` and the
    last one sown (A1) then holds stones, on both rows: whoever ``opp_stones`` counts
    for, ``opp_stones m.board' > 0``.  IllegalMove decides its quantifiers with
    these witnesses."""
    owner = PLAYER.north if move in side(PLAYER.north) else PLAYER.south
    start = game_of(AwariBoard(InitAwariBoard().board, (0, 0), owner), frozenset())
    m = NormalMove(start, move)
    if m is None or m.after.board is None:
        raise SpecError(f"no NormalMove binding from the initial board for {move.name}")
    return m.after.board


@require(lambda g: _is_game(g))
@ensure(lambda g, move, result: (result is not None) == pre_IllegalMove(g, move), "pre IllegalMove, as written")
@ensure(lambda g, result: positions_recorded(g, result), "positions' = positions ∪ {θAwariBoard}")
@ensure(lambda result: result is None or result.result == illegal_move, "result = illegal_move")
def IllegalMove(g: AwariGame, move: PIT) -> Outcome | None:
    """┌─ IllegalMove ──────────────────────────────────────────────────────
    │ AwariMove
    ├────────────────────────────────────────────────────────────────────
    │ ∀ p : PLAYER • score p < 25
    │ ∃ p : side to_move • board p > 0
    │ move ∉ side to_move ∨ board move = 0 ∨
    │   ( opp_stones board = 0 ∧
    │     (∀ m : NormalMove | m.move = move • opp_stones m.board' = 0) ∧
    │     (∃ m : NormalMove | m.move ≠ move • opp_stones m.board' > 0) )
    │ result = illegal_move
    └────────────────────────────────────────────────────────────────────

    The quantifiers range over *all* bindings of NormalMove, from any state (A15), so
    they are decided by witnesses (``normal_move_binding``): the binding with
    ``m.move = move`` feeds, which refutes the ∀; one with ``m.move ≠ move`` feeds,
    which proves the ∃.  The feeding disjunct is therefore false in every state.  The
    after-state is free but for positions' (A5); ``move`` is undeclared in AwariMove
    (A10): it is this schema's input.
    """
    positions_, opp_stones = AwariMove(g)
    if not (_scores_below_25(θAwariBoard(g)) and any(g.board[p] > 0 for p in side(g.to_move))):
        return None
    # ∀ m : NormalMove | m.move = move • opp_stones m.board' = 0 is false if a binding
    # feeds; ∃ m : NormalMove | m.move ≠ move • opp_stones m.board' > 0 is true if one does.
    refuted = opp_stones(normal_move_binding(move)) > 0
    witnessed = any(opp_stones(normal_move_binding(m)) > 0 for m in PIT if m is not move)
    if not (refuted and witnessed):
        raise SpecError(f"IllegalMove: no witness decides the quantifiers for {move.name}")
    all_starve, some_other_feeds = False, True  # decided by the witnesses above
    fails_to_feed = opp_stones(g.board) == 0 and all_starve and some_other_feeds
    if not (move not in side(g.to_move) or g.board[move] == 0 or fails_to_feed):
        return None
    return Outcome("IllegalMove", illegal_move, After(None, None, None, positions_))


def AwariRef(g: AwariGame, move: PIT) -> tuple[Outcome, ...]:
    """AwariRef ≙ NormalMove ∨ WinMargin ∨ NoMove ∨ GrandSlam ∨ IllegalMove, as written:
    every disjunct that holds for this state and move, with its outcome."""
    disjuncts = (NormalMove, WinMargin, NoMove, GrandSlam, IllegalMove)
    return tuple(o for d in disjuncts if (o := d(g, move)) is not None)


# ─── AwariRef's disjuncts, corrected ───────────────────────────────────────────
#
# The referee evaluates the paper's start-of-turn schemas (WinMargin, NoMove and the
# new CannotFeed) on every state: on a state where the game is already over they
# answer every action with the final result; right after an accepted move they
# decide whether that move ended the game (A11).


def _playing(g: AwariGame) -> bool:
    """None of the start-of-turn end conditions holds: the player to move may move."""
    return _scores_below_25(θAwariBoard(g)) and not _no_move_pre(g) and not _cannot_feed_pre(g)


def feeds(g: AwariGame, move: PIT) -> bool:
    """``move`` may be sown and leaves the opponent some stones:
    move ∈ side to_move ∧ board move > 0 ∧ opp_stones (Sow ⨟ Capture).board' > 0"""
    s = θAwariBoard(g)
    if not _sow_pre(s, move):
        return False
    _, opp_stones = AwariMove(g)
    after, _, _ = Sow_Capture_corrected(s, move)
    return opp_stones(after.board) > 0


def _cannot_feed_pre(g: AwariGame) -> bool:
    """CannotFeed's guard (beyond ∀ p • score p < 25 and not NoMove): the opponent's
    row is empty and no move of the player to move puts a stone in it."""
    _, opp_stones = AwariMove(g)
    return opp_stones(g.board) == 0 and not any(feeds(g, m) for m in side(g.to_move))


@require(lambda g: _is_game(g))
@ensure(lambda g, move, result: (result is not None) == pre_WinMargin(g, move), "pre WinMargin")
@ensure(lambda result: _after_ok(result), "θAwariGame' determined, AwariBoard' ∧ Positions'")
@ensure(
    lambda g, result: (
        result is None
        or (result.after.board, result.after.score, result.after.to_move) == (g.board, g.score, g.to_move)
    ),
    "ΞAwariBoard",
)
@ensure(lambda g, result: positions_recorded(g, result), "positions' = positions ∪ {θAwariBoard}")
@ensure(lambda result: result_is_winner(result), "result = winner score'")
def WinMargin_corrected(g: AwariGame, move: PIT) -> Outcome | None:
    """WinMargin, corrected (A6): ΞAwariBoard — nothing but positions changes.

    ∃ p : PLAYER • score p ≥ 25;  θAwariBoard' = θAwariBoard;  result = winner score'
    """
    positions_, _ = AwariMove(g)
    if not any(g.score[p] >= 25 for p in PLAYER):
        return None
    return Outcome("WinMargin", winner(g.score), After(g.board, g.score, g.to_move, positions_))


@require(lambda g: _is_game(g))
@ensure(lambda g, move, result: (result is not None) == pre_NoMove(g, move), "pre NoMove")
@ensure(lambda result: _after_ok(result), "θAwariGame' determined, AwariBoard' ∧ Positions'")
@ensure(lambda g, result: claims_stones(g, result), "ClaimStones")
@ensure(lambda result: board_emptied(result), "board' = PIT × {0}")
@ensure(lambda g, result: result is None or result.after.to_move == g.to_move, "to_move' = to_move")
@ensure(lambda g, result: positions_recorded(g, result), "positions' = positions ∪ {θAwariBoard}")
@ensure(lambda result: result_is_winner(result), "result = winner score'")
def NoMove_corrected(g: AwariGame, move: PIT) -> Outcome | None:
    """NoMove, corrected (A7): to_move' = to_move; board' = PIT × {0} (as AwariBoard'
    forces).  Otherwise as written: the game ends, each player claiming their row."""
    positions_, _ = AwariMove(g)
    if not _no_move_pre(g):
        return None
    score_ = ClaimStones(g.score, g.board)
    return Outcome("NoMove", winner(score_), After(EMPTY_BOARD, score_, g.to_move, positions_))


@require(lambda g: _is_game(g))
@ensure(lambda g, move, result: (result is not None) == pre_CannotFeed(g, move), "pre CannotFeed")
@ensure(lambda result: _after_ok(result), "θAwariGame' determined, AwariBoard' ∧ Positions'")
@ensure(lambda g, result: claims_stones(g, result), "ClaimStones")
@ensure(lambda result: board_emptied(result), "board' = PIT × {0}")
@ensure(lambda g, result: result is None or result.after.to_move == g.to_move, "to_move' = to_move")
@ensure(lambda g, result: positions_recorded(g, result), "positions' = positions ∪ {θAwariBoard}")
@ensure(lambda result: result_is_winner(result), "result = winner score'")
def CannotFeed(g: AwariGame, move: PIT) -> Outcome | None:
    """CannotFeed (new, A8): the opponent has no stones and no move can give them any.
    The paper's disjuncts leave this case uncovered; the rule "a player must leave
    the opponent with a legal move … if it is possible" and the rule for a player
    unable to move end the game, and as in NoMove each player claims their own row.

        ∀ p : PLAYER • score p < 25;  θAwariBoard ∉ positions;  Σ (side to_move ◁ board) > 0
        opp_stones board = 0;  ¬ ∃ m : side to_move • feeds m
        ClaimStones;  board' = PIT × {0};  to_move' = to_move;  result = winner score'
    """
    positions_, _ = AwariMove(g)
    if not (_scores_below_25(θAwariBoard(g)) and not _no_move_pre(g) and _cannot_feed_pre(g)):
        return None
    score_ = ClaimStones(g.score, g.board)
    return Outcome("CannotFeed", winner(score_), After(EMPTY_BOARD, score_, g.to_move, positions_))


@require(lambda g: _is_game(g))
@ensure(lambda g, move, result: (result is not None) == pre_IllegalMove_corrected(g, move), "pre IllegalMove")
@ensure(lambda g, result: result is None or result.after.state() == g, "ΞAwariGame")
@ensure(lambda result: result is None or result.result == illegal_move, "result = illegal_move")
def IllegalMove_corrected(g: AwariGame, move: PIT) -> Outcome | None:
    """IllegalMove, corrected:
    * ΞAwariBoard ∧ ΞPositions: nothing changes, and the position is not recorded
      (A5, A9);
    * only while the game is on: also θAwariBoard ∉ positions and the opponent can
      be fed if starving (A12, A8);
    * the feeding clause quantifies over the current state's sowings (A15):

      move ∉ side to_move ∨ board move = 0 ∨ (opp_stones board = 0 ∧ ¬ feeds move)
    """
    _, opp_stones = AwariMove(g)
    if not _playing(g):
        return None
    if not (move not in side(g.to_move) or g.board[move] == 0 or (opp_stones(g.board) == 0 and not feeds(g, move))):
        return None
    return determined("IllegalMove", illegal_move, g)


@require(lambda g: _is_game(g))
@ensure(lambda g, move, result: (result is not None) == pre_GrandSlam_corrected(g, move), "pre GrandSlam")
@ensure(lambda result: _after_ok(result), "θAwariGame' determined, AwariBoard' ∧ Positions'")
@ensure(
    lambda g, move, result: result is None or result.after.score == forfeited_corrected(g, move),
    "Sow ⨟ Capture ⨟ ForfeitStones",
)
@ensure(lambda result: board_emptied(result), "board' = PIT × {0}")
@ensure(lambda g, result: result is None or result.after.to_move == opponent(g.to_move), "to_move' = opponent to_move")
@ensure(lambda g, result: positions_recorded(g, result), "positions' = positions ∪ {θAwariBoard}")
@ensure(lambda result: result_is_winner(result), "result = winner score'")
def GrandSlam_corrected(g: AwariGame, move: PIT) -> Outcome | None:
    """GrandSlam, corrected (A3): the guard is on the board after Capture, before
    ForfeitStones; the move passes the turn (A2); only while the game is on (A12).

        Sow ⨟ Capture ⨟ ForfeitStones
        opp_stones board > 0;  opp_stones (Sow ⨟ Capture).board' = 0
        board' = PIT × {0};  to_move' = opponent to_move;  result = winner score'
    """
    positions_, opp_stones = AwariMove(g)
    s = θAwariBoard(g)
    if not (_playing(g) and _sow_pre(s, move) and opp_stones(g.board) > 0):
        return None
    captured, _, _ = Sow_Capture_corrected(s, move)
    if opp_stones(captured.board) != 0:
        return None
    score_ = ForfeitStones(captured.score, captured.board)
    return Outcome("GrandSlam", winner(score_), After(EMPTY_BOARD, score_, opponent(g.to_move), positions_))


def Status(g: AwariGame, move: PIT) -> Outcome | None:
    """WinMargin ∨ NoMove ∨ CannotFeed: the start-of-turn end conditions, or None
    when the game goes on.  The three are disjoint (proofs/)."""
    ended = [o for d in (WinMargin_corrected, NoMove_corrected, CannotFeed) if (o := d(g, move)) is not None]
    assert len(ended) <= 1, "the start-of-turn conditions overlap"
    return ended[0] if ended else None


@require(lambda g: _is_game(g))
@ensure(lambda g, move, result: (result is not None) == pre_NormalMove_corrected(g, move), "pre NormalMove")
@ensure(lambda result: _after_ok(result), "θAwariGame' determined, AwariBoard' ∧ Positions'")
@ensure(lambda g, move, result: result is None or normal_move_then_status(g, move, result), "NormalMove ⨟ Status")
def NormalMove_corrected(g: AwariGame, move: PIT) -> Outcome | None:
    """NormalMove, corrected, followed by the start-of-turn conditions (A2, A4, A11, A12):

        NormalMove ≙ AwariMove ∧ (Sow ⨟ Capture) ∧ θAwariBoard ∉ positions ∧
                     opp_stones board' > 0 ∧         — it feeds, and is no grand slam
                     to_move' = opponent to_move ∧ result = not_done

    then ``NormalMove ⨟ Status``: if the new position ends the game (WinMargin, a
    repetition or an empty row under NoMove, or CannotFeed), this move is reported
    with that result and that after-state; otherwise the result is not_done.
    """
    positions_, opp_stones = AwariMove(g)
    s = θAwariBoard(g)
    if not (_playing(g) and _sow_pre(s, move)):
        return None
    after, _, _ = Sow_Capture_corrected(s, move)
    if opp_stones(after.board) == 0:  # a failure to feed, or a grand slam
        return None
    moved = AwariGame(board=after.board, score=after.score, to_move=opponent(g.to_move), positions=positions_)
    ended = Status(moved, move)
    if ended is None:
        return determined("NormalMove", not_done, moved)
    return Outcome("NormalMove ⨟ " + ended.schema, ended.result, ended.after)


def AwariRef_corrected(g: AwariGame, move: PIT) -> tuple[Outcome, ...]:
    """AwariRef, corrected (A8, A11; its disjuncts cite the rest):

        AwariRef ≙ WinMargin ∨ NoMove ∨ CannotFeed ∨ IllegalMove ∨ GrandSlam ∨ NormalMove

    (each disjunct ``_corrected``, CannotFeed new): every disjunct that holds for this
    state and move, with its outcome.  Exactly one holds, with a determined
    after-state, in every state (proofs/)."""
    disjuncts = (
        WinMargin_corrected,
        NoMove_corrected,
        CannotFeed,
        IllegalMove_corrected,
        GrandSlam_corrected,
        NormalMove_corrected,
    )
    return tuple(o for d in disjuncts if (o := d(g, move)) is not None)


@require(lambda g: _is_game(g))
@ensure(lambda result: AwariGame_invariant(result[1]))
def referee(g: AwariGame, move: PIT) -> tuple[RESULT, AwariGame]:
    """The referee's step: the single outcome of ``AwariRef_corrected``."""
    outcomes = AwariRef_corrected(g, move)
    if len(outcomes) != 1 or outcomes[0].after.completions() != 1:
        raise SpecError(f"AwariRef gave {outcomes!r} for {move.name} in {g!r}")
    (outcome,) = outcomes
    return outcome.result, outcome.after.state()


def game_over(g: AwariGame) -> bool:
    """The game is over: a start-of-turn end condition holds."""
    return not _playing(g)


def legal_moves(g: AwariGame) -> tuple[PIT, ...]:
    """The pits whose sowing the referee accepts, in pit_order."""
    return tuple(m for m in PIT if referee(g, m)[0] != illegal_move) if not game_over(g) else ()
