"""Executable specification of Gothello: section 1 of *A Networked Gothello Referee:
Specification* (Bart Massey, 2003), schema by schema, in the paper's order.

Read it beside the paper (or docs/z-schemas.md §2, the schemas as we read them).  Each definition
carries the paper's name and quotes its Z in the docstring.

Representation
  * SQUARE == DIGIT × DIGIT is a pair (file, rank): the letter a–e of ``c3`` is the
    first component, the digit the second, as in the original server gthd; the paper
    does not say (erratum G22).
  * A BOARD (``SQUARE → SQUAREVAL``) is a ``spec.z.Fun``: it is its set of pairs, so
    every relational operator applies to it, and ``board[s]`` is ``board s``.
  * SQUAREVAL and MOVE are free types: ``stone(p)`` and ``blank``; ``move(s)`` and
    ``pass_`` (``pass`` is a Python keyword).
  * HISTORY == seq MOVE is a tuple, most recent action first, so ``history 1`` is
    ``history[0]``.
  * An input ``move?`` is the parameter ``move_``.  Schemas are pure functions from
    the before-state to an ``Outcome``; Ξ means the after-state equals the before.

Literal and corrected readings
  A definition under the paper's name is the schema exactly as written.  Where that
  is wrong, its repaired reading, the one the referee uses, is ``NAME_corrected``;
  ``GothelloMove_G5`` / ``GothelloTurn_G5`` are the schemas as written with only G5
  repaired.  Every repair is an erratum registered in spec/errata.py and argued in
  proofs/ERRATA.md, with a witness test in tests/spec/test_errata_gothello.py.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Final

from spec import result as R
from spec.contracts import ensure, require
from spec.z import (
    FreeType,
    Fun,
    Rel,
    card,
    closure,
    cross,
    dom,
    image,
    inverse,
    is_function,
    override,
    rres,
    rtclosure,
    upto,
)

# ─── Players, squares, boards ──────────────────────────────────────────────────


class PLAYER(FreeType):
    """PLAYER ::= black | white"""

    black = 0
    white = 1


@ensure(lambda p, result: result != p)
def opponent(p: PLAYER) -> PLAYER:
    """opponent : PLAYER ⤖ PLAYER
    opponent white = black
    opponent black = white
    """
    return {PLAYER.white: PLAYER.black, PLAYER.black: PLAYER.white}[p]


DIGIT: Final = upto(1, 5)
"""DIGIT == 1 .. 5"""

SQUARE = tuple[int, int]
"""SQUARE == DIGIT × DIGIT, as (file, rank)."""

SQUARES: Final[frozenset[SQUARE]] = cross(DIGIT, DIGIT)
"""The carrier set SQUARE."""


@dataclass(frozen=True)
class stone:
    """SQUAREVAL's constructor stone⟨⟨PLAYER⟩⟩."""

    player: PLAYER

    def __repr__(self) -> str:
        return f"stone({self.player.name})"


class Blank(Enum):
    """SQUAREVAL's constant blank."""

    blank = "blank"

    def __repr__(self) -> str:
        return "blank"


blank: Final = Blank.blank

SQUAREVAL = stone | Blank
"""SQUAREVAL ::= stone⟨⟨PLAYER⟩⟩ | blank"""

BOARD = Fun[SQUARE, SQUAREVAL]
"""BOARD == SQUARE → SQUAREVAL"""


def is_BOARD(board: BOARD) -> bool:
    """board : SQUARE → SQUAREVAL — a total function on SQUARE (Fun is functional)."""
    return frozenset(s for (s, _) in board) == SQUARES


@dataclass(frozen=True)
class GothelloPosition:
    """┌─ GothelloPosition ──
    │ board : BOARD
    │ to_move : PLAYER
    └─────────────────────
    """

    board: BOARD
    to_move: PLAYER


@ensure(lambda result: is_BOARD(result.board))
@ensure(lambda result: result.board == cross(SQUARES, {blank}), "board' = SQUARE × {blank}")
@ensure(lambda result: result.to_move is PLAYER.black, "to_move' = black")
def InitGothelloPosition() -> GothelloPosition:
    """┌─ InitGothelloPosition ──
    │ GothelloPosition'
    ├─────────────────────────
    │ board' = SQUARE × {blank}
    │ to_move' = black
    └─────────────────────────
    """
    return GothelloPosition(board=Fun((s, blank) for s in SQUARES), to_move=PLAYER.black)


# ─── Adjacency, groups, liberties ──────────────────────────────────────────────

adjoins: Final[Rel[SQUARE, SQUARE]] = frozenset(
    ((d1, d), (d2, d)) for d in DIGIT for d1 in DIGIT for d2 in DIGIT if d2 == d1 + 1
) | frozenset(((d, d1), (d, d2)) for d in DIGIT for d1 in DIGIT for d2 in DIGIT if d2 == d1 + 1)
"""relation (_ adjoins _)
_ adjoins _ : SQUARE ↔ SQUARE
(_ adjoins _) = {d, d₁, d₂ : DIGIT | d₂ = d₁ + 1 • ((d₁, d), (d₂, d))}
              ∪ {d, d₁, d₂ : DIGIT | d₂ = d₁ + 1 • ((d, d₁), (d, d₂))}

As written it relates a square only to the next one up a file or rank: a1 adjoins
a2, but a2 does not adjoin a1 (erratum G1).
"""

adjoins_corrected: Final[Rel[SQUARE, SQUARE]] = adjoins | inverse(adjoins)
"""(_ adjoins _), corrected (G1): orthogonal adjacency, the written relation with its
inverse, so that every square adjoins its two to four orthogonal neighbours."""


def _neighbor(board: BOARD, adjacency: Rel[SQUARE, SQUARE]) -> Rel[SQUARE, SQUARE]:
    return frozenset((s1, s2) for (s1, s2) in adjacency if board[s1] != blank and board[s1] == board[s2])


def neighbor(board: BOARD) -> Rel[SQUARE, SQUARE]:
    """neighbor : BOARD → (SQUARE ↔ SQUARE)
    ∀ board : BOARD • neighbor board =
        {s₁, s₂ : SQUARE | s₁ adjoins s₂ ∧ board s₁ ≠ blank ∧ board s₁ = board s₂}

    As written, over the written, one-way adjacency (G1).
    """
    return _neighbor(board, adjoins)


def neighbor_corrected(board: BOARD) -> Rel[SQUARE, SQUARE]:
    """neighbor, corrected (G1): the same definition over ``adjoins_corrected`` —
    adjacent stones of the same colour, a symmetric relation."""
    return _neighbor(board, adjoins_corrected)


def _stone_at(board: BOARD, s: SQUARE) -> bool:
    return is_BOARD(board) and s in SQUARES and board[s] != blank


@require(lambda board, s: _stone_at(board, s), "board s ≠ blank")
def group(board: BOARD, s: SQUARE) -> frozenset[SQUARE]:
    """group : BOARD → SQUARE → ℙ SQUARE
    ∀ board : BOARD; s : SQUARE | board s ≠ blank •
        group board s = (neighbor board)⁺ ⦇{s}⦈

    As written, with the written adjacency: r⁺ is not reflexive, so a stone with no
    same-coloured neighbour has an empty group (G2), and with the one-way adjacency
    of G1 no stone is ever in its own group.
    """
    return image(closure(neighbor(board)), {s})


_ADJACENT: Final[dict[SQUARE, frozenset[SQUARE]]] = {s: image(adjoins_corrected, {s}) for s in SQUARES}
"""(_ adjoins _) ⦇{s}⦈ for each square, corrected adjacency (G1)."""


@require(lambda board, s: _stone_at(board, s), "board s ≠ blank")
@ensure(lambda s, result: s in result, "s ∈ group board s")
@ensure(
    lambda board, s, result: result == image(rtclosure(neighbor_corrected(board), SQUARES), {s}),
    "(neighbor board)* ⦇{s}⦈",
)
def group_corrected(board: BOARD, s: SQUARE) -> frozenset[SQUARE]:
    """group, corrected (G1, G2): the reflexive-transitive closure over the
    symmetric adjacency — the maximal set of mutual neighbours containing s:

        group board s = (neighbor board)* ⦇{s}⦈

    The body floods from s; the contract states the closure.
    """
    found, frontier = {s}, [s]
    while frontier:
        for u in _ADJACENT[frontier.pop()]:
            if u not in found and board[u] == board[s]:
                found.add(u)
                frontier.append(u)
    return frozenset(found)


def adjoining_squares(ss: frozenset[SQUARE]) -> frozenset[SQUARE]:
    """adjoining_squares : ℙ SQUARE → ℙ SQUARE
    ∀ ss : ℙ SQUARE • adjoining_squares ss = (_ adjoins _) ⦇ss⦈ \\ ss

    As written, over the written, one-way adjacency (G1): only the squares above.
    """
    return image(adjoins, ss) - ss


def adjoining_squares_corrected(ss: frozenset[SQUARE]) -> frozenset[SQUARE]:
    """adjoining_squares, corrected (G1): over ``adjoins_corrected``."""
    return image(adjoins_corrected, ss) - ss


def group_liberties(board: BOARD, ss: frozenset[SQUARE]) -> frozenset[SQUARE]:
    """group_liberties : BOARD → ℙ SQUARE → ℙ SQUARE
    ∀ board : BOARD; ss : ℙ SQUARE •
        group_liberties board ss = adjoining_squares ss ∩ board∼ ⦇{blank}⦈

    As written, with the written adjoining_squares (G1).
    """
    return adjoining_squares(ss) & image(inverse(board), {blank})


def group_liberties_corrected(board: BOARD, ss: frozenset[SQUARE]) -> frozenset[SQUARE]:
    """group_liberties, corrected (G1): with the corrected adjoining_squares."""
    return adjoining_squares_corrected(ss) & image(inverse(board), {blank})


@require(lambda board, s: _stone_at(board, s), "s ∈ dom (group board)")
def liberties(board: BOARD, s: SQUARE) -> frozenset[SQUARE]:
    """liberties : BOARD → SQUARE → ℙ SQUARE
    ∀ board : BOARD • liberties board = (group_liberties board) ∘ (group board)

    As written (G1, G2): a lone stone has no liberties.
    """
    return group_liberties(board, group(board, s))


@require(lambda board, s: _stone_at(board, s), "s ∈ dom (group board)")
@ensure(
    lambda board, s, result: result == group_liberties_corrected(board, group_corrected(board, s)),
    "(group_liberties board) ∘ (group board)",
)
def liberties_corrected(board: BOARD, s: SQUARE) -> frozenset[SQUARE]:
    """liberties board = (group_liberties board) ∘ (group board), over the corrected
    adjacency and groups (G1, G2): the blank squares bordering s's group."""
    return frozenset(u for t in group_corrected(board, s) for u in _ADJACENT[t] if board[u] == blank)


def stones(board: BOARD, p: PLAYER) -> int:
    """#(board ▷ {stone p}), as GothelloGameOver counts them."""
    return card(rres(board, {stone(p)}))


# ─── Results, moves, history, the game ─────────────────────────────────────────

RESULT = R.win[PLAYER] | R.Constant
"""RESULT ::= win⟨⟨PLAYER⟩⟩ | draw | not_done | illegal_move"""
win = R.win
draw: Final = R.draw
not_done: Final = R.not_done
illegal_move: Final = R.illegal_move


@dataclass(frozen=True)
class move:
    """MOVE's constructor move⟨⟨SQUARE⟩⟩."""

    square: SQUARE

    def __repr__(self) -> str:
        return f"move({'abcde'[self.square[0] - 1]}{self.square[1]})"


class Pass(Enum):
    """MOVE's constant pass."""

    pass_ = "pass"

    def __repr__(self) -> str:
        return "pass"


pass_: Final = Pass.pass_

MOVE = move | Pass
"""MOVE ::= move⟨⟨SQUARE⟩⟩ | pass"""

HISTORY = tuple[MOVE, ...]
"""HISTORY == seq MOVE, most recent first (GothelloAction prepends)."""


@dataclass(frozen=True)
class GothelloGame:
    """┌─ GothelloGame ──────
    │ GothelloPosition
    │ history : HISTORY
    └─────────────────────
    Components flattened, as in Z schema inclusion."""

    board: BOARD
    to_move: PLAYER
    history: HISTORY


def GothelloGame_invariant(g: GothelloGame) -> bool:
    """The declarations' types: board is a BOARD."""
    return is_BOARD(g.board)


@ensure(lambda result: GothelloGame_invariant(result))
def InitGothelloGame() -> GothelloGame:
    """┌─ InitGothelloGame ──
    │ InitGothelloPosition
    │ history' : HISTORY
    ├─────────────────────
    │ history' = ∅
    └─────────────────────
    """
    p = InitGothelloPosition()
    return GothelloGame(board=p.board, to_move=p.to_move, history=())


def GothelloAction(g: GothelloGame, move_: MOVE) -> HISTORY:
    """┌─ GothelloAction ──────────
    │ ΔGothelloGame
    │ move? : MOVE
    │ result! : RESULT
    ├───────────────────────────
    │ history' = ⟨move?⟩ ⁀ history
    └───────────────────────────
    The frame of every GothelloTurn disjunct: returns history'.
    """
    return (move_, *g.history)


@dataclass(frozen=True)
class Outcome:
    """One disjunct of GothelloTurn that holds, its result and its after-state.
    ``undefined`` says why, when the disjunct holds only under one value of a term
    that the schema leaves undefined (e.g. ``history 1`` of an empty history)."""

    schema: str
    result: RESULT
    after: GothelloGame
    undefined: str | None = None


def _is_game(g: GothelloGame) -> bool:
    return GothelloGame_invariant(g)


def _cboard(g: GothelloGame, s: SQUARE) -> BOARD:
    """cboard = board ⊕ {s ↦ stone to_move}"""
    return Fun(override(g.board, frozenset({(s, stone(g.to_move))})))


def _count_result(board: BOARD) -> RESULT:
    """GothelloGameOver's result:  if black_stones > white_stones then win black
    else if white_stones > black_stones then win white else draw"""
    black_stones, white_stones = stones(board, PLAYER.black), stones(board, PLAYER.white)
    if black_stones > white_stones:
        return win(PLAYER.black)
    if white_stones > black_stones:
        return win(PLAYER.white)
    return draw


# ─── The disjuncts' preconditions and after-state equations ───────────────────
#
# Each GothelloTurn disjunct's contract says that it holds exactly when its
# precondition (``pre_…``) holds, and that its outcome satisfies the schema's
# equations, in the paper's vocabulary, apart from the bodies that compute them.


def ended(g: GothelloGame) -> bool:
    """#history ≥ 2 ∧ history 1 = pass ∧ history 2 = pass  (GothelloEnded's guard, G9)"""
    return len(g.history) >= 2 and g.history[0] == pass_ and g.history[1] == pass_


def placed_on(move_: MOVE, g: GothelloGame, blank_: bool) -> SQUARE | None:
    """The s of ``∃ s : SQUARE • move? = move s ∧ board s = blank`` (or ``≠ blank``), if any."""
    squares = [s for s in SQUARES if move_ == move(s) and (g.board[s] == blank) == blank_]
    return squares[0] if squares else None


def cboard_liberties(g: GothelloGame, s: SQUARE, liberties_: Callable[[BOARD, SQUARE], frozenset[SQUARE]]) -> int:
    """#(liberties cboard s) with cboard = board ⊕ {s ↦ stone to_move}"""
    return card(liberties_(Fun(override(g.board, frozenset({(s, stone(g.to_move))}))), s))


def pre_GothelloEnded(g: GothelloGame, move_: MOVE) -> bool:
    """pre GothelloEnded:  #history ≥ 2 ∧ history 1 = pass ∧ history 2 = pass"""
    return ended(g)


def pre_GothelloIllegalMoveNonblank_corrected(g: GothelloGame, move_: MOVE) -> bool:
    """pre GothelloIllegalMoveNonblank, corrected:  the game is on;  ∃ s : SQUARE • move? = move s ∧ board s ≠ blank"""
    return not ended(g) and placed_on(move_, g, blank_=False) is not None


def pre_GothelloIllegalMoveBlocked_corrected(g: GothelloGame, move_: MOVE) -> bool:
    """pre GothelloIllegalMoveBlocked, corrected:  the game is on;  ∃ s : SQUARE • move? = move s ∧
    board s = blank ∧ #(liberties (board ⊕ {s ↦ stone to_move}) s) = 0"""
    s = placed_on(move_, g, blank_=True)
    return not ended(g) and s is not None and cboard_liberties(g, s, liberties_corrected) == 0


def pre_GothelloMove_corrected(g: GothelloGame, move_: MOVE) -> bool:
    """pre GothelloMove, corrected:  the game is on;  ∃ s : SQUARE • move? = move s ∧ board s = blank ∧
    #(liberties (board ⊕ {s ↦ stone to_move}) s) > 0"""
    s = placed_on(move_, g, blank_=True)
    return not ended(g) and s is not None and cboard_liberties(g, s, liberties_corrected) > 0


def pre_GothelloPass_corrected(g: GothelloGame, move_: MOVE) -> bool:
    """pre GothelloPass, corrected:  the game is on;  move? = pass;  history = ⟨⟩ ∨ history 1 ≠ pass"""
    return not ended(g) and move_ == pass_ and (g.history == () or g.history[0] != pass_)


def pre_GothelloGameOver_corrected(g: GothelloGame, move_: MOVE) -> bool:
    """pre GothelloGameOver, corrected:  the game is on;  move? = pass;  history ≠ ⟨⟩ ∧ history 1 = pass"""
    return not ended(g) and move_ == pass_ and g.history != () and g.history[0] == pass_


def xi_game(g: GothelloGame, o: Outcome | None) -> bool:
    """ΞGothelloGame:  θGothelloGame' = θGothelloGame"""
    return o is None or o.after == g


def recorded(g: GothelloGame, move_: MOVE, o: Outcome | None) -> bool:
    """GothelloAction:  history' = ⟨move?⟩ ⁀ history"""
    return o is None or o.after.history == (move_, *g.history)


def counted(o: Outcome | None) -> bool:
    """result! = if black_stones > white_stones then win black else if white_stones > black_stones
    then win white else draw;  black_stones = #(board ▷ {stone black});  white_stones = #(board ▷ {stone white})"""
    if o is None:
        return True
    black_stones, white_stones = (
        card(rres(o.after.board, {stone(PLAYER.black)})),
        card(rres(o.after.board, {stone(PLAYER.white)})),
    )
    expected = (
        win(PLAYER.black) if black_stones > white_stones else win(PLAYER.white) if white_stones > black_stones else draw
    )
    return o.result == expected


def moved_board(g: GothelloGame, move_: MOVE, o: Outcome) -> bool:
    """board' = cboard ⊕ (captures s), cboard = board ⊕ {s ↦ stone to_move}"""
    assert isinstance(move_, move)
    s = move_.square
    cboard = Fun(override(g.board, frozenset({(s, stone(g.to_move))})))
    return o.after.board == override(cboard, captures_corrected(cboard, g.to_move, s))


# ─── GothelloTurn's disjuncts, as written ──────────────────────────────────────


@require(lambda g: _is_game(g))
@ensure(
    lambda g, move_, result: (result is not None) == (placed_on(move_, g, blank_=False) is not None),
    "∃ s : SQUARE • move? = move s ∧ board s ≠ blank",
)
@ensure(
    lambda g, result: result is None or (result.after.board == g.board and result.after.to_move == g.to_move),
    "ΞGothelloPosition",
)
@ensure(lambda g, move_, result: recorded(g, move_, result), "GothelloAction")
def GothelloIllegalMoveNonblank(g: GothelloGame, move_: MOVE) -> Outcome | None:
    """┌─ GothelloIllegalMoveNonblank ──
    │ GothelloAction
    │ ΞGothelloPosition
    ├────────────────────────────────
    │ result! = illegal_move
    │ ∃ s : SQUARE • move? = move s ∧ board s ≠ blank
    └────────────────────────────────
    As written the illegal attempt is recorded in the history (G8).
    """
    if not (isinstance(move_, move) and g.board[move_.square] != blank):
        return None
    return Outcome(
        "GothelloIllegalMoveNonblank", illegal_move, GothelloGame(g.board, g.to_move, GothelloAction(g, move_))
    )


@require(lambda g: _is_game(g))
@ensure(
    lambda g, move_, result: (
        (result is not None) == (isinstance(move_, move) and cboard_liberties(g, move_.square, liberties) == 0)
    ),
    "∃ s : SQUARE; cboard : BOARD • move? = move s ∧ cboard = board ⊕ {s ↦ stone to_move} ∧ #(liberties cboard s) = 0",
)
@ensure(
    lambda g, result: result is None or (result.after.board == g.board and result.after.to_move == g.to_move),
    "ΞGothelloPosition",
)
@ensure(lambda g, move_, result: recorded(g, move_, result), "GothelloAction")
def GothelloIllegalMoveBlocked(g: GothelloGame, move_: MOVE) -> Outcome | None:
    """┌─ GothelloIllegalMoveBlocked ──
    │ GothelloAction
    │ ΞGothelloPosition
    ├───────────────────────────────
    │ result! = illegal_move
    │ ∃ s : SQUARE; cboard : BOARD •
    │     move? = move s ∧ cboard = board ⊕ {s ↦ stone to_move} ∧
    │     #(liberties cboard s) = 0
    └───────────────────────────────
    As written: liberties as written (G1, G2), no ``board s = blank`` (G10), and the
    attempt is recorded (G8).
    """
    if not isinstance(move_, move):
        return None
    s = move_.square
    if card(liberties(_cboard(g, s), s)) != 0:
        return None
    return Outcome(
        "GothelloIllegalMoveBlocked", illegal_move, GothelloGame(g.board, g.to_move, GothelloAction(g, move_))
    )


def capture_at(cboard: BOARD, to_move: PLAYER, s: SQUARE) -> Rel[SQUARE, SQUAREVAL] | None:
    """GothelloMove's capture_at at one square, as written:

        ∀ s : SQUARE • capture_at s = if #(liberties cboard s) = 0
                                      then (group cboard s) × {stone to_move} else ∅

    The ∀ ranges over every square.  At a stone the value is determined; at a blank
    square it is not: group is declared total but its axiom constrains it only where
    ``board s ≠ blank``, so ``group cboard s``, hence ``liberties cboard s`` and
    ``capture_at s``, may be anything there (G4, G28).  None stands for that loose value.
    """
    if cboard[s] == blank:
        return None
    if card(liberties(cboard, s)) == 0:
        return cross(group(cboard, s), {stone(to_move)})
    return frozenset()


def captures(cboard: BOARD, to_move: PLAYER, s: SQUARE) -> Rel[SQUARE, SQUAREVAL]:
    """GothelloMove's captures at one square, as written:

        ∀ s : SQUARE • captures s = ⋃ (capture_at ⦇(neighbor cboard) ⦇{s}⦈⦈)

    ``(neighbor cboard) ⦇{s}⦈`` are the stones of s's *own* colour next to s, so no
    opposing group is ever captured (G3).  They are stones, so capture_at is
    determined at each of them.
    """
    captured: Rel[SQUARE, SQUAREVAL] = frozenset()
    for t in image(neighbor(cboard), {s}):
        value = capture_at(cboard, to_move, t)
        assert value is not None, "neighbor relates stones only"
        captured |= value
    return captured


def is_total_SQUAREVAL(r: Rel[SQUARE, SQUAREVAL]) -> bool:
    """r ∈ SQUARE → SQUAREVAL: a total function on SQUARE (the declared type of the
    values of capture_at and captures)."""
    return is_function(r) and dom(r) == SQUARES


@require(lambda g: _is_game(g))
@ensure(lambda result: result is None, "no binding satisfies GothelloMove as written (G5)")
def GothelloMove(g: GothelloGame, move_: MOVE) -> Outcome | None:
    """┌─ GothelloMove ─────────────────────────────────────────────
    │ GothelloAction
    │ cboard : BOARD
    │ capture_at, captures : SQUARE → SQUARE → SQUAREVAL
    ├────────────────────────────────────────────────────────────
    │ result! = not_done
    │ ∀ s : SQUARE • capture_at s = if #(liberties cboard s) = 0
    │                  then (group cboard s) × {stone to_move} else ∅
    │ ∀ s : SQUARE • captures s = ⋃ (capture_at ⦇(neighbor cboard) ⦇{s}⦈⦈)
    │ ∃ s : SQUARE • move? = move s ∧ board s = blank ∧
    │     cboard = board ⊕ {s ↦ stone to_move} ∧
    │     #(liberties cboard s) > 0 ∧
    │     board' = cboard ⊕ (captures s)
    │ to_move' = opponent to_move
    └────────────────────────────────────────────────────────────
    As written (G1–G5): the declarations make every value of capture_at and captures
    a *total* function SQUARE → SQUAREVAL, and the ∀s constrain them at every square.
    At a stone t of cboard, capture_at t is ∅ or ``group cboard t × {…}``; the written
    group never contains a1 (nothing adjoins a1 as written, G1), so neither is total.
    cboard holds at least the placed stone, so no binding satisfies the schema: as
    written GothelloMove never holds (G5).  The rest of the predicate is
    GothelloMove_G5, evaluated should the declared type ever admit a binding.
    """
    if not (isinstance(move_, move) and g.board[move_.square] == blank):
        return None
    cboard = _cboard(g, move_.square)
    determined = (capture_at(cboard, g.to_move, t) for t in SQUARES)
    if not all(v is None or is_total_SQUAREVAL(v) for v in determined):
        return None  # capture_at : SQUARE → SQUARE → SQUAREVAL has no value here (G5)
    if not all(is_total_SQUAREVAL(captures(cboard, g.to_move, t)) for t in SQUARES):
        return None  # captures likewise
    return GothelloMove_G5(g, move_)


@require(lambda g: _is_game(g))
@ensure(
    lambda g, move_, result: (
        (result is not None)
        == (
            isinstance(move_, move)
            and g.board[move_.square] == blank
            and cboard_liberties(g, move_.square, liberties) > 0
        )
    ),
    "∃ s : SQUARE • move? = move s ∧ board s = blank ∧ … ∧ #(liberties cboard s) > 0",
)
@ensure(
    lambda g, move_, result: (
        result is None
        or result.after.board
        == override(_cboard(g, move_.square), captures(_cboard(g, move_.square), g.to_move, move_.square))
    ),
    "board' = cboard ⊕ (captures s), captures as written",
)
@ensure(lambda g, move_, result: recorded(g, move_, result), "GothelloAction")
def GothelloMove_G5(g: GothelloGame, move_: MOVE) -> Outcome | None:
    """GothelloMove as written but for capture_at's and captures' declared type, read as
    SQUARE → SQUARE ⇸ SQUAREVAL (G5's resolution alone).  As written the schema never
    holds (G5), which would hide every other defect of it: this is the layer under G5
    on which the literal errata G1–G4 show, and the one proofs/ analyse as "literal".
    """
    if not (isinstance(move_, move) and g.board[move_.square] == blank):
        return None
    s = move_.square
    cboard = _cboard(g, s)
    if not card(liberties(cboard, s)) > 0:
        return None
    board_ = Fun(override(cboard, captures(cboard, g.to_move, s)))
    return Outcome("GothelloMove", not_done, GothelloGame(board_, opponent(g.to_move), GothelloAction(g, move_)))


@require(lambda g: _is_game(g))
@ensure(lambda result: result is None, "ΞGothelloPosition ∧ to_move' = opponent to_move is unsatisfiable (G6)")
def GothelloPass(g: GothelloGame, move_: MOVE) -> Outcome | None:
    """┌─ GothelloPass ──────────
    │ GothelloAction
    │ ΞGothelloPosition
    ├─────────────────────────
    │ result! = not_done
    │ move? = pass
    │ history 1 ≠ pass
    │ to_move' = opponent to_move
    └─────────────────────────
    ΞGothelloPosition says to_move' = to_move, the last line to_move' = opponent
    to_move: no after-state satisfies both, so the schema never holds (G6).
    """
    if move_ != pass_:
        return None
    if g.history and g.history[0] == pass_:
        return None
    # ΞGothelloPosition fixes board' = board and to_move' = to_move; the last line asks
    # to_move' = opponent to_move.  The after-states satisfying every line:
    to_moves = [p for p in PLAYER if p == g.to_move and p == opponent(g.to_move)]
    if not to_moves:
        return None
    (to_move_,) = to_moves
    undefined = None if g.history else "history 1 of ⟨⟩"
    return Outcome("GothelloPass", not_done, GothelloGame(g.board, to_move_, GothelloAction(g, move_)), undefined)


@require(lambda g: _is_game(g))
@ensure(
    lambda g, move_, result: (result is not None) == (move_ == pass_ and (g.history == () or g.history[0] == pass_)),
    "move? = pass;  history 1 = pass  (or undefined, on ⟨⟩: G7)",
)
@ensure(
    lambda g, result: result is None or (result.after.board, result.after.to_move) == (g.board, g.to_move),
    "ΞGothelloPosition",
)
@ensure(lambda g, move_, result: recorded(g, move_, result), "GothelloAction")
@ensure(lambda result: counted(result), "result! = the stone count's verdict")
def GothelloGameOver(g: GothelloGame, move_: MOVE) -> Outcome | None:
    """┌─ GothelloGameOver ────────────────────────────────────
    │ GothelloAction
    │ ΞGothelloPosition
    │ black_stones, white_stones : ℕ
    ├───────────────────────────────────────────────────────
    │ result! = if black_stones > white_stones then win black
    │           else if white_stones > black_stones then win white else draw
    │ move? = pass
    │ history 1 = pass
    │ black_stones = #(board ▷ {stone black})
    │ white_stones = #(board ▷ {stone white})
    └───────────────────────────────────────────────────────
    On an empty history ``history 1`` is undefined (G7): the schema then holds if
    that undefined term denotes pass, and the outcome says so.
    """
    if move_ != pass_:
        return None
    after = GothelloGame(g.board, g.to_move, GothelloAction(g, move_))
    if not g.history:
        return Outcome("GothelloGameOver", _count_result(g.board), after, undefined="history 1 of ⟨⟩")
    if g.history[0] != pass_:
        return None
    return Outcome("GothelloGameOver", _count_result(g.board), after)


def GothelloTurn(g: GothelloGame, move_: MOVE) -> tuple[Outcome, ...]:
    """GothelloTurn ≙ GothelloIllegalMoveNonblank ∨ GothelloIllegalMoveBlocked ∨
                   GothelloMove ∨ GothelloPass ∨ GothelloGameOver,
    as written: every disjunct that holds, with its outcome."""
    disjuncts = (
        GothelloIllegalMoveNonblank,
        GothelloIllegalMoveBlocked,
        GothelloMove,
        GothelloPass,
        GothelloGameOver,
    )
    return tuple(o for d in disjuncts if (o := d(g, move_)) is not None)


def GothelloTurn_G5(g: GothelloGame, move_: MOVE) -> tuple[Outcome, ...]:
    """GothelloTurn as written with GothelloMove_G5 for GothelloMove: the literal
    disjunction on the layer under G5 (literally GothelloMove never holds, so every
    accepted placement would be a gap).  proofs/ check this reading's theorems."""
    disjuncts = (
        GothelloIllegalMoveNonblank,
        GothelloIllegalMoveBlocked,
        GothelloMove_G5,
        GothelloPass,
        GothelloGameOver,
    )
    return tuple(o for d in disjuncts if (o := d(g, move_)) is not None)


# ─── GothelloTurn's disjuncts, corrected ───────────────────────────────────────


def game_over(g: GothelloGame) -> bool:
    """The game has ended: the last two actions were passes (G9).  Illegal attempts
    are not recorded (G8), so these are two accepted passes in succession."""
    return len(g.history) >= 2 and g.history[0] == pass_ and g.history[1] == pass_


@require(lambda g: _is_game(g))
@ensure(lambda g, move_, result: (result is not None) == pre_GothelloEnded(g, move_), "pre GothelloEnded")
@ensure(lambda g, result: xi_game(g, result), "ΞGothelloGame")
@ensure(lambda result: counted(result), "result! = the stone count's verdict")
def GothelloEnded(g: GothelloGame, move_: MOVE) -> Outcome | None:
    """GothelloEnded (new, G9): after the game is over every action is answered with
    the final result and changes nothing — as Awari's WinMargin and NoMove answer
    every action once the game is over (one game-over semantics, G26).

    ΞGothelloGame;  #history ≥ 2 ∧ history 1 = pass ∧ history 2 = pass
    result! = if black_stones > white_stones then win black
              else if white_stones > black_stones then win white else draw
    """
    if not game_over(g):
        return None
    return Outcome("GothelloEnded", _count_result(g.board), g)


@require(lambda g: _is_game(g))
@ensure(
    lambda g, move_, result: (result is not None) == pre_GothelloIllegalMoveNonblank_corrected(g, move_),
    "pre GothelloIllegalMoveNonblank",
)
@ensure(lambda g, result: xi_game(g, result), "ΞGothelloGame")
@ensure(lambda result: result is None or result.result == illegal_move, "result! = illegal_move")
def GothelloIllegalMoveNonblank_corrected(g: GothelloGame, move_: MOVE) -> Outcome | None:
    """GothelloIllegalMoveNonblank, corrected: ΞGothelloGame — the attempt is not
    recorded (G8) — and only while the game is on (G9)."""
    if game_over(g) or not (isinstance(move_, move) and g.board[move_.square] != blank):
        return None
    return Outcome("GothelloIllegalMoveNonblank", illegal_move, g)


@require(lambda g: _is_game(g))
@ensure(
    lambda g, move_, result: (result is not None) == pre_GothelloIllegalMoveBlocked_corrected(g, move_),
    "pre GothelloIllegalMoveBlocked",
)
@ensure(lambda g, result: xi_game(g, result), "ΞGothelloGame")
@ensure(lambda result: result is None or result.result == illegal_move, "result! = illegal_move")
def GothelloIllegalMoveBlocked_corrected(g: GothelloGame, move_: MOVE) -> Outcome | None:
    """GothelloIllegalMoveBlocked, corrected: ``board s = blank`` (G10), liberties
    corrected (G1, G2), ΞGothelloGame (G8), only while the game is on (G9).

        ∃ s : SQUARE; cboard : BOARD • move? = move s ∧ board s = blank ∧
            cboard = board ⊕ {s ↦ stone to_move} ∧ #(liberties cboard s) = 0

    The liberties are judged on cboard, before any capture.
    """
    if game_over(g) or not (isinstance(move_, move) and g.board[move_.square] == blank):
        return None
    s = move_.square
    if card(liberties_corrected(_cboard(g, s), s)) != 0:
        return None
    return Outcome("GothelloIllegalMoveBlocked", illegal_move, g)


@require(lambda cboard, s: _stone_at(cboard, s), "capture_at is used at stones only")
@ensure(
    lambda cboard, to_move, s, result: (
        result
        == (
            cross(group_corrected(cboard, s), {stone(to_move)})
            if card(liberties_corrected(cboard, s)) == 0
            else frozenset()
        )
    ),
    "capture_at s = if #(liberties cboard s) = 0 then (group cboard s) × {stone to_move} else ∅",
)
def capture_at_corrected(cboard: BOARD, to_move: PLAYER, s: SQUARE) -> Rel[SQUARE, SQUAREVAL]:
    """capture_at s = if #(liberties cboard s) = 0 then (group cboard s) × {stone to_move} else ∅

    A partial function SQUARE ⇸ SQUAREVAL (G5), defined at stones only (G4)."""
    if liberties_corrected(cboard, s):
        return frozenset()
    return frozenset((t, stone(to_move)) for t in group_corrected(cboard, s))


@ensure(
    lambda cboard, to_move, s, result: (
        result
        == frozenset().union(
            *(
                capture_at_corrected(cboard, to_move, t)
                for t in image(adjoins_corrected, {s}) & image(inverse(cboard), {stone(opponent(to_move))})
            )
        )
    ),
    "captures s = ⋃ (capture_at ⦇(_ adjoins _) ⦇{s}⦈ ∩ cboard∼ ⦇{stone (opponent to_move)}⦈⦈)",
)
def captures_corrected(cboard: BOARD, to_move: PLAYER, s: SQUARE) -> Rel[SQUARE, SQUAREVAL]:
    """captures, corrected (G3): the groups of opposing stones adjoining s that have
    no liberties in cboard change to the mover's colour —

        captures s = ⋃ (capture_at ⦇(_ adjoins _) ⦇{s}⦈ ∩ cboard∼ ⦇{stone (opponent to_move)}⦈⦈)
    """
    captured: Rel[SQUARE, SQUAREVAL] = frozenset()
    for t in _ADJACENT[s]:
        if cboard[t] == stone(opponent(to_move)):
            captured |= capture_at_corrected(cboard, to_move, t)
    return captured


def _move_post(g: GothelloGame, move_: MOVE, result: Outcome | None) -> bool:
    """GothelloMove's frame: to_move' = opponent to_move; history' = ⟨move?⟩ ⁀ history;
    board' a BOARD."""
    if result is None:
        return True
    a = result.after
    return is_BOARD(a.board) and a.to_move == opponent(g.to_move) and a.history == GothelloAction(g, move_)


@require(lambda g: _is_game(g))
@ensure(lambda g, move_, result: (result is not None) == pre_GothelloMove_corrected(g, move_), "pre GothelloMove")
@ensure(lambda g, move_, result: _move_post(g, move_, result), "to_move' = opponent to_move; GothelloAction")
@ensure(lambda g, move_, result: result is None or moved_board(g, move_, result), "board' = cboard ⊕ (captures s)")
@ensure(lambda result: result is None or result.result == not_done, "result! = not_done")
def GothelloMove_corrected(g: GothelloGame, move_: MOVE) -> Outcome | None:
    """GothelloMove, corrected: captures as in ``captures_corrected`` (G3, G4, G5), liberties
    corrected (G1, G2), only while the game is on (G9).  Otherwise as written:

        ∃ s : SQUARE • move? = move s ∧ board s = blank ∧
            cboard = board ⊕ {s ↦ stone to_move} ∧ #(liberties cboard s) > 0 ∧
            board' = cboard ⊕ (captures s)
        to_move' = opponent to_move;  result! = not_done
    """
    if game_over(g) or not (isinstance(move_, move) and g.board[move_.square] == blank):
        return None
    s = move_.square
    cboard = _cboard(g, s)
    if not card(liberties_corrected(cboard, s)) > 0:
        return None
    board_ = Fun(override(cboard, captures_corrected(cboard, g.to_move, s)))
    return Outcome("GothelloMove", not_done, GothelloGame(board_, opponent(g.to_move), GothelloAction(g, move_)))


@require(lambda g: _is_game(g))
@ensure(lambda g, move_, result: (result is not None) == pre_GothelloPass_corrected(g, move_), "pre GothelloPass")
@ensure(lambda g, move_, result: _move_post(g, move_, result), "to_move' = opponent to_move; GothelloAction")
@ensure(lambda g, result: result is None or result.after.board == g.board, "board' = board")
@ensure(lambda result: result is None or result.result == not_done, "result! = not_done")
def GothelloPass_corrected(g: GothelloGame, move_: MOVE) -> Outcome | None:
    """GothelloPass, corrected: board' = board in place of ΞGothelloPosition (G6);
    a pass on the first action is a GothelloPass (G7); only while the game is on (G9).

        move? = pass;  history = ⟨⟩ ∨ history 1 ≠ pass
        board' = board;  to_move' = opponent to_move;  result! = not_done
    """
    if game_over(g) or move_ != pass_ or (g.history and g.history[0] == pass_):
        return None
    return Outcome("GothelloPass", not_done, GothelloGame(g.board, opponent(g.to_move), GothelloAction(g, move_)))


@require(lambda g: _is_game(g))
@ensure(
    lambda g, move_, result: (result is not None) == pre_GothelloGameOver_corrected(g, move_), "pre GothelloGameOver"
)
@ensure(
    lambda g, result: result is None or (result.after.board, result.after.to_move) == (g.board, g.to_move),
    "ΞGothelloPosition",
)
@ensure(lambda g, move_, result: recorded(g, move_, result), "GothelloAction")
@ensure(lambda result: counted(result), "result! = the stone count's verdict")
def GothelloGameOver_corrected(g: GothelloGame, move_: MOVE) -> Outcome | None:
    """GothelloGameOver, corrected: ``history ≠ ⟨⟩`` guards ``history 1`` (G7); only
    while the game is on (G9).  Otherwise as written: a pass right after an accepted
    pass ends the game, and the player with more stones on the board wins."""
    if game_over(g) or move_ != pass_ or not (g.history and g.history[0] == pass_):
        return None
    return Outcome(
        "GothelloGameOver", _count_result(g.board), GothelloGame(g.board, g.to_move, GothelloAction(g, move_))
    )


def GothelloTurn_corrected(g: GothelloGame, move_: MOVE) -> tuple[Outcome, ...]:
    """GothelloTurn, corrected (G9, G26; its disjuncts cite the rest):

        GothelloTurn ≙ GothelloEnded ∨ GothelloIllegalMoveNonblank ∨
                       GothelloIllegalMoveBlocked ∨ GothelloMove ∨ GothelloPass ∨ GothelloGameOver

    (each disjunct ``_corrected``, GothelloEnded new): every disjunct that holds, with
    its outcome.  Exactly one holds in every state
    (proofs/)."""
    disjuncts = (
        GothelloEnded,
        GothelloIllegalMoveNonblank_corrected,
        GothelloIllegalMoveBlocked_corrected,
        GothelloMove_corrected,
        GothelloPass_corrected,
        GothelloGameOver_corrected,
    )
    return tuple(o for d in disjuncts if (o := d(g, move_)) is not None)


class SpecError(AssertionError):
    """The corrected GothelloTurn did not give exactly one outcome."""


@require(lambda g: _is_game(g))
@ensure(lambda result: GothelloGame_invariant(result[1]))
def referee(g: GothelloGame, move_: MOVE) -> tuple[RESULT, GothelloGame]:
    """The referee's step: the single outcome of ``GothelloTurn_corrected``."""
    outcomes = GothelloTurn_corrected(g, move_)
    if len(outcomes) != 1:
        raise SpecError(f"GothelloTurn gave {outcomes!r} for {move_!r} in {g!r}")
    (outcome,) = outcomes
    return outcome.result, outcome.after


def legal_moves(g: GothelloGame) -> tuple[MOVE, ...]:
    """The actions the referee accepts: placements in file-then-rank order, then pass."""
    if game_over(g):
        return ()
    candidates: list[MOVE] = [move(s) for s in sorted(SQUARES)]
    return (*(m for m in candidates if referee(g, m)[0] != illegal_move), pass_)
