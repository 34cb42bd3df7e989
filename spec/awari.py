"""Executable specification of Awari: section 1 of *A Networked Awari Referee:
Specification* (Bart Massey, 2000; seed 000), schema by schema, in the paper's order.

Read it beside the paper (or ../shared/notes/z-schemas.md §1.1).  Each definition
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
    so overlaps and gaps can be seen; ``referee`` then takes the single outcome.

Literal and corrected readings
  Where a schema as written is wrong, partial or nondeterministic, the literal
  reading is kept under the suffix ``_literal`` and the unsuffixed name is the
  corrected schema that the referee uses.  Every difference is an erratum in
  proofs/ERRATA.md (A1 … A18) with a witness test in tests/test_errata_awari.py.
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
    away on classes with invariants — ../shared/notes/toolchain.md.)
    """

    board: BOARD
    score: SCORE
    to_move: PLAYER


@lru_cache(maxsize=1 << 16)
def AwariBoard_invariant(s: AwariBoard) -> bool:
    """The predicate of AwariBoard, with its declarations' types: Σ board + Σ score = 48.

    Memoised: every contract of every schema asks it of every recorded position."""
    return is_BOARD(s.board) and is_SCORE(s.score) and Σ(graph(s.board)) + Σ(score_graph(s.score)) == 48


@ensure(lambda result: AwariBoard_invariant(result))
def InitAwariBoard() -> AwariBoard:
    """┌─ InitAwariBoard ─────
    │ AwariBoard'
    ├──────────────────────
    │ board' = PIT × {4}
    │ score' = PLAYER × {0}
    │ to_move' = south
    └──────────────────────
    """
    return AwariBoard(
        board=to_BOARD(cross(PITS, {4})),
        score=to_SCORE(cross(frozenset(PLAYER), {0})),
        to_move=PLAYER.south,
    )


@cache
@ensure(lambda result: card(result) == 6)
def side(p: PLAYER) -> frozenset[PIT]:
    """side : PLAYER ↣ ℙ PIT
    side north = ran ((1 .. 6) ◁ pit_order)
    side south = PIT \\ (side north)
    """
    north = ran(dres(upto(1, 6), pit_order))
    return north if p is PLAYER.north else PITS - north


# ─── Sowing ────────────────────────────────────────────────────────────────────


@cache
def next_skip(p: PIT) -> Rel[PIT, PIT]:
    """next_skip : PIT → PIT → PIT
    ∀ p : PIT • next_skip p = next ⊕ {prev p ↦ next p}

    Sowing from p, the step after ``prev p`` jumps over p.
    """
    return override(next, frozenset({(apply(prev, p), apply(next, p))}))


@cache
def _iter_next_skip(n: int, p: PIT) -> Rel[PIT, PIT]:
    """iter n (next_skip p), memoised: otherwise every sowing would recompute it."""
    return iter_(n, next_skip(p), PITS)


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

    Returns (θAwariBoard', to_capture).
    """
    n = s.board[move]
    emptied = override(graph(s.board), frozenset({(move, 0)}))
    sown = fn(trace(move), upto(1, n))  # (1 .. board move) ◁ (trace move)
    board_ = to_BOARD(fn(lambda p: apply(emptied, p) + card(rres(sown, {p})), PIT))
    to_capture = trace(move)(n)
    return AwariBoard(board=board_, score=s.score, to_move=s.to_move), to_capture


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
    """Capture's after-state, given the set of captured pits:
    board' = board ⊕ (captures × {0})
    score' to_move = score to_move + Σ (captures ◁ board)
    score' (opponent to_move) = score (opponent to_move)
    to_move' = to_move
    """
    gained = Σ(dres(captures, graph(s.board)))
    score_ = override(score_graph(s.score), frozenset({(s.to_move, s.score[s.to_move] + gained)}))
    return AwariBoard(
        board=to_BOARD(override(graph(s.board), cross(captures, {0}))),
        score=to_SCORE(score_),
        to_move=s.to_move,
    )


def _capture_post(s: AwariBoard, result: tuple[AwariBoard, frozenset[PIT]]) -> bool:
    """Capture's after-state predicates that are not definitions: AwariBoard',
    score' (opponent to_move) = score (opponent to_move), to_move' = to_move."""
    after, _ = result
    them = opponent(s.to_move)
    return AwariBoard_invariant(after) and after.score[them] == s.score[them] and after.to_move == s.to_move


@require(lambda s: AwariBoard_invariant(s), "AwariBoard")
@ensure(lambda s, result: _capture_post(s, result))
def Capture_literal(s: AwariBoard, to_capture: PIT) -> tuple[AwariBoard, frozenset[PIT]]:
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
    Returns (θAwariBoard', captures).
    """
    vul = vulnerable(s)
    captures = reachable(_harvest(vul), frozenset({to_capture}))
    return _captured(s, captures), captures


@require(lambda s: AwariBoard_invariant(s), "AwariBoard")
@ensure(lambda s, result: _capture_post(s, result))
@ensure(lambda s, result: result[1] <= vulnerable(s), "captures ⊆ vul")
def Capture(s: AwariBoard, to_capture: PIT) -> tuple[AwariBoard, frozenset[PIT]]:
    """Capture, corrected (A1): the harvest starts only if the last pit sown is
    vulnerable — on the opponent's side and holding 2 or 3 —

        captures = let vul == … • reachable (vul ◁ prev ▷ vul) ({to_capture} ∩ vul)

    and the other predicates are as written.  Returns (θAwariBoard', captures).
    """
    vul = vulnerable(s)
    captures = reachable(_harvest(vul), frozenset({to_capture}) & vul)
    return _captured(s, captures), captures


@require(lambda s, move: AwariBoard_invariant(s) and _sow_pre(s, move), "pre Sow")
@ensure(lambda result: AwariBoard_invariant(result[0]), "AwariBoard'")
def Sow_Capture(s: AwariBoard, move: PIT) -> tuple[AwariBoard, PIT, frozenset[PIT]]:
    """Sow ⨟ Capture: Capture's before-state is Sow's after-state, and the two share
    ``to_capture``.  Returns (θAwariBoard', to_capture, captures)."""
    sown, to_capture = Sow(s, move)
    captured, captures = Capture(sown, to_capture)
    return captured, to_capture, captures


@require(lambda s, move: AwariBoard_invariant(s) and _sow_pre(s, move), "pre Sow")
@ensure(lambda result: AwariBoard_invariant(result[0]), "AwariBoard'")
def Sow_Capture_literal(s: AwariBoard, move: PIT) -> tuple[AwariBoard, PIT, frozenset[PIT]]:
    """Sow ⨟ Capture, with Capture as written (A1)."""
    sown, to_capture = Sow(s, move)
    captured, captures = Capture_literal(sown, to_capture)
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
@ensure(lambda score, board, result: sum(result) == sum(score) + sum(board), "no stone is lost")
def ClaimStones(score: SCORE, board: BOARD) -> SCORE:
    """┌─ ClaimStones ─────────
    │ score, score' : SCORE
    │ board : BOARD
    ├───────────────────────
    │ ∀ p : PLAYER • score' p = score p + Σ (side p ◁ board)
    └───────────────────────
    Each player adds the stones on their own row.  Returns score'.
    """
    return to_SCORE(fn(lambda p: score[p] + Σ(dres(side(p), graph(board))), PLAYER))


@require(lambda score, board: is_SCORE(score) and is_BOARD(board), "score : SCORE; board : BOARD")
@ensure(lambda score, board, result: sum(result) == sum(score) + sum(board), "no stone is lost")
def ForfeitStones(score: SCORE, board: BOARD) -> SCORE:
    """┌─ ForfeitStones ───────
    │ score, score' : SCORE
    │ board : BOARD
    ├───────────────────────
    │ ∀ p : PLAYER • score' p = score p + Σ (side (opponent p) ◁ board)
    └───────────────────────
    Each player receives the stones left on the *opponent's* row.  Returns score'.
    """
    return to_SCORE(fn(lambda p: score[p] + Σ(dres(side(opponent(p)), graph(board))), PLAYER))


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
    """A determined after-state satisfies AwariBoard ∧ Positions."""
    if outcome is None or outcome.after.completions() != 1:
        return True
    return AwariGame_invariant(outcome.after.state())


# ─── AwariRef's disjuncts, as written ──────────────────────────────────────────


@require(lambda g: _is_game(g))
def WinMargin_literal(g: AwariGame, move: PIT) -> Outcome | None:
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
def NoMove_literal(g: AwariGame, move: PIT) -> Outcome | None:
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
def NormalMove_literal(g: AwariGame, move: PIT) -> Outcome | None:
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
    after, _, _ = Sow_Capture_literal(s, move)
    if opp_stones(g.board) == 0 and not opp_stones(after.board) > 0:
        return None
    return Outcome("NormalMove", not_done, After(after.board, after.score, after.to_move, positions_))


@require(lambda g: _is_game(g))
def GrandSlam_literal(g: AwariGame, move: PIT) -> Outcome | None:
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
    captured, _, _ = Sow_Capture_literal(s, move)
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
    for, ``opp_stones m.board' > 0``.  IllegalMove_literal decides its quantifiers with
    these witnesses."""
    owner = PLAYER.north if move in side(PLAYER.north) else PLAYER.south
    start = game_of(AwariBoard(InitAwariBoard().board, (0, 0), owner), frozenset())
    m = NormalMove_literal(start, move)
    if m is None or m.after.board is None:
        raise SpecError(f"no NormalMove binding from the initial board for {move.name}")
    return m.after.board


@require(lambda g: _is_game(g))
def IllegalMove_literal(g: AwariGame, move: PIT) -> Outcome | None:
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
        raise SpecError(f"IllegalMove_literal: no witness decides the quantifiers for {move.name}")
    all_starve, some_other_feeds = False, True  # decided by the witnesses above
    fails_to_feed = opp_stones(g.board) == 0 and all_starve and some_other_feeds
    if not (move not in side(g.to_move) or g.board[move] == 0 or fails_to_feed):
        return None
    return Outcome("IllegalMove", illegal_move, After(None, None, None, positions_))


def AwariRef_literal(g: AwariGame, move: PIT) -> tuple[Outcome, ...]:
    """AwariRef ≙ NormalMove ∨ WinMargin ∨ NoMove ∨ GrandSlam ∨ IllegalMove, as written:
    every disjunct that holds for this state and move, with its outcome."""
    disjuncts = (NormalMove_literal, WinMargin_literal, NoMove_literal, GrandSlam_literal, IllegalMove_literal)
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
    after, _, _ = Sow_Capture(s, move)
    return opp_stones(after.board) > 0


def _cannot_feed_pre(g: AwariGame) -> bool:
    """CannotFeed's guard (beyond ∀ p • score p < 25 and not NoMove): the opponent's
    row is empty and no move of the player to move puts a stone in it."""
    _, opp_stones = AwariMove(g)
    return opp_stones(g.board) == 0 and not any(feeds(g, m) for m in side(g.to_move))


@require(lambda g: _is_game(g))
@ensure(lambda result: _after_ok(result))
@ensure(lambda g, result: result is None or result.after.board == g.board, "ΞAwariBoard")
def WinMargin(g: AwariGame, move: PIT) -> Outcome | None:
    """WinMargin, corrected (A6): ΞAwariBoard — nothing but positions changes.

    ∃ p : PLAYER • score p ≥ 25;  θAwariBoard' = θAwariBoard;  result = winner score'
    """
    positions_, _ = AwariMove(g)
    if not any(g.score[p] >= 25 for p in PLAYER):
        return None
    return Outcome("WinMargin", winner(g.score), After(g.board, g.score, g.to_move, positions_))


@require(lambda g: _is_game(g))
@ensure(lambda result: _after_ok(result))
def NoMove(g: AwariGame, move: PIT) -> Outcome | None:
    """NoMove, corrected (A7): to_move' = to_move; board' = PIT × {0} (as AwariBoard'
    forces).  Otherwise as written: the game ends, each player claiming their row."""
    positions_, _ = AwariMove(g)
    if not _no_move_pre(g):
        return None
    score_ = ClaimStones(g.score, g.board)
    return Outcome("NoMove", winner(score_), After(EMPTY_BOARD, score_, g.to_move, positions_))


@require(lambda g: _is_game(g))
@ensure(lambda result: _after_ok(result))
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
@ensure(lambda g, result: result is None or result.after.state() == g, "ΞAwariGame")
def IllegalMove(g: AwariGame, move: PIT) -> Outcome | None:
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
@ensure(lambda result: _after_ok(result))
def GrandSlam(g: AwariGame, move: PIT) -> Outcome | None:
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
    captured, _, _ = Sow_Capture(s, move)
    if opp_stones(captured.board) != 0:
        return None
    score_ = ForfeitStones(captured.score, captured.board)
    return Outcome("GrandSlam", winner(score_), After(EMPTY_BOARD, score_, opponent(g.to_move), positions_))


def Status(g: AwariGame, move: PIT) -> Outcome | None:
    """WinMargin ∨ NoMove ∨ CannotFeed: the start-of-turn end conditions, or None
    when the game goes on.  The three are disjoint (proofs/)."""
    ended = [o for d in (WinMargin, NoMove, CannotFeed) if (o := d(g, move)) is not None]
    assert len(ended) <= 1, "the start-of-turn conditions overlap"
    return ended[0] if ended else None


@require(lambda g: _is_game(g))
@ensure(lambda result: _after_ok(result))
def NormalMove(g: AwariGame, move: PIT) -> Outcome | None:
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
    after, _, _ = Sow_Capture(s, move)
    if opp_stones(after.board) == 0:  # a failure to feed, or a grand slam
        return None
    moved = AwariGame(board=after.board, score=after.score, to_move=opponent(g.to_move), positions=positions_)
    ended = Status(moved, move)
    if ended is None:
        return determined("NormalMove", not_done, moved)
    return Outcome("NormalMove ⨟ " + ended.schema, ended.result, ended.after)


def AwariRef(g: AwariGame, move: PIT) -> tuple[Outcome, ...]:
    """AwariRef, corrected:

        AwariRef ≙ WinMargin ∨ NoMove ∨ CannotFeed ∨ IllegalMove ∨ GrandSlam ∨ NormalMove

    every disjunct that holds for this state and move, with its outcome.  Exactly one
    holds, with a determined after-state, in every state (proofs/)."""
    disjuncts = (WinMargin, NoMove, CannotFeed, IllegalMove, GrandSlam, NormalMove)
    return tuple(o for d in disjuncts if (o := d(g, move)) is not None)


@require(lambda g: _is_game(g))
@ensure(lambda result: AwariGame_invariant(result[1]))
def referee(g: AwariGame, move: PIT) -> tuple[RESULT, AwariGame]:
    """The referee's step: the single outcome of the corrected AwariRef."""
    outcomes = AwariRef(g, move)
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
