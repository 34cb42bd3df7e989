"""The corrected AwariRef as SMT: each disjunct of spec/awari.py as a guard on the
before-state and an assignment of every after-state component, over every board
(any 12 naturals with Σ board + Σ score = 48), for one side to move at a time.

Encoding (faithful to spec/awari.py, cross-checked by tests/proofs/test_awari_encoding.py):
  * board: 12 z3 Ints, indexed by PIT's value; scores (north, south); ``me`` the side
    to move (0 north, 1 south) is a Python int: every query is made for both.
  * positions enter the corrected schemas only through θAwariBoard ∈ positions and,
    after a sowing, θ' ∈ positions ∪ {θ} for the position θ' it leads to, θ' ≠ θ
    (the side to move differs): two Booleans ``rep`` and ``rep_next``.  positions'
    is positions ∪ S, S ⊆ {θ, θ'}: two Booleans ``add`` and ``add_next``.
  * Sow from pit j with n stones: the pit at trace position k (1 ≤ k ≤ 11, pit
    (j + k) mod 12, the origin skipped) gets n div 11 stones plus one if
    k ≤ n mod 11; the last pit sown is at trace position (n − 1) mod 11 + 1.
  * Capture (corrected, A1): a pit p of the opponent's row is taken when the last
    pit sown t is in the same row, t ≥ p, and every pit p .. t holds 2 or 3.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import z3

NOT_DONE, ILLEGAL, WIN_NORTH, WIN_SOUTH, DRAW = range(5)
RESULT_NAMES = ("not_done", "illegal_move", "win north", "win south", "draw")

Int = Any  # z3.ArithRef
Bool = Any  # z3.BoolRef
Board = list[Any]


def side(player: int) -> range:
    """side north = a .. f (0–5), side south = A .. F (6–11)."""
    return range(6 * player, 6 * player + 6)


def total(board: Board, pits: range | list[int]) -> Int:
    return z3.Sum([board[p] for p in pits])


@dataclass(frozen=True)
class Pre:
    """A before-state for the side ``me`` to move, and an action."""

    me: int
    board: Board
    score: tuple[Int, Int]
    rep: Bool  # θAwariBoard ∈ positions
    rep_next: Bool  # θ' ∈ positions, θ' the position this action's sowing leads to
    move: Int

    @staticmethod
    def fresh(me: int, tag: str = "") -> Pre:
        return Pre(
            me,
            [z3.Int(f"pit{p}{tag}") for p in range(12)],
            (z3.Int(f"north{tag}"), z3.Int(f"south{tag}")),
            z3.Bool(f"rep{tag}"),
            z3.Bool(f"rep_next{tag}"),
            z3.Int(f"move{tag}"),
        )

    def wellformed(self) -> Bool:
        """AwariBoard (Σ board + Σ score = 48, naturals) and move : PIT."""
        return z3.And(
            *[x >= 0 for x in self.board],
            self.score[0] >= 0,
            self.score[1] >= 0,
            z3.Sum(self.board) + self.score[0] + self.score[1] == 48,
            self.move >= 0,
            self.move <= 11,
        )


@dataclass(frozen=True)
class After:
    """An after-state and a result, every component a term of the before-state."""

    board: Board
    score: tuple[Int, Int]
    to_move: int
    add: Bool  # θ ∈ positions'
    add_next: Bool  # θ' ∈ positions'
    result: Int


@dataclass(frozen=True)
class Disjunct:
    guard: Bool
    after: After


# ─── Sow and Capture ──────────────────────────────────────────────────────────


def sow_from(board: Board, j: int) -> tuple[Board, Int]:
    """Sow from the concrete pit j: (board', the last pit sown).  Needs board j > 0."""
    n = board[j]
    laps, rest = n / 11, n % 11
    trace = [(j + k) % 12 for k in range(1, 12)]
    after = list(board)
    after[j] = z3.IntVal(0)
    for k, p in enumerate(trace, start=1):
        after[p] = board[p] + laps + z3.If(k <= rest, 1, 0)
    k_last = (n - 1) % 11 + 1
    last = z3.Sum([z3.If(k_last == k, p, 0) for k, p in enumerate(trace, start=1)])
    return after, last


def capture(board: Board, score: tuple[Int, Int], me: int, last: Int) -> tuple[Board, tuple[Int, Int]]:
    """Capture, corrected, after a sowing by ``me`` that ended in ``last``."""
    opp = list(side(1 - me))
    vul = {q: z3.Or(board[q] == 2, board[q] == 3) for q in opp}
    taken = {p: z3.Or([z3.And(last == t, *[vul[q] for q in range(p, t + 1)]) for t in opp if t >= p]) for p in opp}
    after = [z3.If(taken[p], 0, board[p]) if p in taken else board[p] for p in range(12)]
    gained = z3.Sum([z3.If(taken[p], board[p], 0) for p in opp])
    scores = list(score)
    scores[me] = scores[me] + gained
    return after, (scores[0], scores[1])


def sow_capture(board: Board, score: tuple[Int, Int], me: int, move: Int) -> tuple[Board, tuple[Int, Int]]:
    """Sow ⨟ Capture from a symbolic pit of ``me``'s row (only meaningful there)."""
    cases = [sown_and_captured(board, score, me, j) for j in side(me)]
    pits = list(side(me))

    def pick(terms: list[Int]) -> Int:
        """The term of the case ``move`` selects."""
        term = terms[-1]
        for j, t in zip(pits[:-1], terms[:-1], strict=True):
            term = z3.If(move == j, t, term)
        return term

    board_ = [pick([c[0][p] for c in cases]) for p in range(12)]
    return board_, (pick([c[1][0] for c in cases]), pick([c[1][1] for c in cases]))


def sown_and_captured(board: Board, score: tuple[Int, Int], me: int, j: int) -> tuple[Board, tuple[Int, Int]]:
    """Sow ⨟ Capture from ``me``'s concrete pit j."""
    sown, last = sow_from(board, j)
    return capture(sown, score, me, last)


def feeds_from(board: Board, score: tuple[Int, Int], me: int, j: int) -> Bool:
    """feeds: ``me``'s concrete pit j may be sown and leaves the opponent stones
    (scores below 25: Sow's precondition)."""
    after, _ = sown_and_captured(board, score, me, j)
    return z3.And(below_25(score), board[j] > 0, total(after, side(1 - me)) > 0)


# ─── The corrected disjuncts ──────────────────────────────────────────────────


def below_25(score: tuple[Int, Int]) -> Bool:
    return z3.And(score[0] < 25, score[1] < 25)


def winner(score: tuple[Int, Int]) -> Int:
    return z3.If(score[0] > score[1], WIN_NORTH, z3.If(score[1] > score[0], WIN_SOUTH, DRAW))


def claim(score: tuple[Int, Int], board: Board) -> tuple[Int, Int]:
    """ClaimStones: each player adds their own row."""
    return score[0] + total(board, side(0)), score[1] + total(board, side(1))


def forfeit(score: tuple[Int, Int], board: Board) -> tuple[Int, Int]:
    """ForfeitStones: each player receives the opponent's row."""
    return score[0] + total(board, side(1)), score[1] + total(board, side(0))


EMPTY: Board = [z3.IntVal(0)] * 12


def no_move_pre(board: Board, score: tuple[Int, Int], me: int, rep: Bool) -> Bool:
    return z3.And(below_25(score), z3.Or(rep, total(board, side(me)) == 0))


def cannot_feed_pre(board: Board, score: tuple[Int, Int], me: int) -> Bool:
    return z3.And(total(board, side(1 - me)) == 0, *[z3.Not(feeds_from(board, score, me, j)) for j in side(me)])


def playing(pre: Pre) -> Bool:
    b, sc, me = pre.board, pre.score, pre.me
    return z3.And(below_25(sc), z3.Not(no_move_pre(b, sc, me, pre.rep)), z3.Not(cannot_feed_pre(b, sc, me)))


def sow_pre(pre: Pre) -> Bool:
    own = z3.Or([pre.move == j for j in side(pre.me)])
    return z3.And(below_25(pre.score), own, z3.Or([z3.And(pre.move == j, pre.board[j] > 0) for j in side(pre.me)]))


def feeds(pre: Pre) -> Bool:
    """feeds g move, for the symbolic move."""
    return z3.Or([z3.And(pre.move == j, feeds_from(pre.board, pre.score, pre.me, j)) for j in side(pre.me)])


def ended(pre: Pre, board: Board, score: tuple[Int, Int]) -> After:
    """The after-state of NoMove / CannotFeed: every stone claimed, the turn kept."""
    claimed = claim(score, board)
    return After(EMPTY, claimed, pre.me, z3.BoolVal(True), z3.BoolVal(False), winner(claimed))


def win_margin(pre: Pre) -> Disjunct:
    b, sc = pre.board, pre.score
    after = After(b, sc, pre.me, z3.BoolVal(True), z3.BoolVal(False), winner(sc))
    return Disjunct(z3.Or(sc[0] >= 25, sc[1] >= 25), after)


def no_move(pre: Pre) -> Disjunct:
    return Disjunct(no_move_pre(pre.board, pre.score, pre.me, pre.rep), ended(pre, pre.board, pre.score))


def cannot_feed(pre: Pre) -> Disjunct:
    b, sc, me = pre.board, pre.score, pre.me
    guard = z3.And(below_25(sc), z3.Not(no_move_pre(b, sc, me, pre.rep)), cannot_feed_pre(b, sc, me))
    return Disjunct(guard, ended(pre, b, sc))


def illegal_move(pre: Pre) -> Disjunct:
    b = pre.board
    own_nonempty = z3.Or([z3.And(pre.move == j, b[j] > 0) for j in side(pre.me)])
    starving = z3.And(total(b, side(1 - pre.me)) == 0, z3.Not(feeds(pre)))
    guard = z3.And(playing(pre), z3.Or(z3.Not(own_nonempty), starving))
    return Disjunct(guard, After(b, pre.score, pre.me, z3.BoolVal(False), z3.BoolVal(False), z3.IntVal(ILLEGAL)))


def grand_slam(pre: Pre) -> Disjunct:
    board_, score_ = sow_capture(pre.board, pre.score, pre.me, pre.move)
    opp = side(1 - pre.me)
    guard = z3.And(playing(pre), sow_pre(pre), total(pre.board, opp) > 0, total(board_, opp) == 0)
    forfeited = forfeit(score_, board_)
    return Disjunct(guard, After(EMPTY, forfeited, 1 - pre.me, z3.BoolVal(True), z3.BoolVal(False), winner(forfeited)))


def normal_move_cases(pre: Pre) -> dict[str, Disjunct]:
    """NormalMove ⨟ Status: the move, then the start-of-turn conditions on the new
    position (its mover is the opponent, ``them``)."""
    me, them = pre.me, 1 - pre.me
    board_, score_ = sow_capture(pre.board, pre.score, me, pre.move)
    guard = z3.And(playing(pre), sow_pre(pre), total(board_, side(them)) > 0)
    wins = z3.Or(score_[0] >= 25, score_[1] >= 25)
    no_move_ = no_move_pre(board_, score_, them, pre.rep_next)
    cannot_feed_ = z3.And(below_25(score_), z3.Not(no_move_), cannot_feed_pre(board_, score_, them))
    true, false = z3.BoolVal(True), z3.BoolVal(False)
    claimed = claim(score_, board_)
    finished = After(EMPTY, claimed, them, true, true, winner(claimed))
    return {
        "NormalMove": Disjunct(
            z3.And(guard, z3.Not(wins), z3.Not(no_move_), z3.Not(cannot_feed_)),
            After(board_, score_, them, true, false, z3.IntVal(NOT_DONE)),
        ),
        "NormalMove ⨟ WinMargin": Disjunct(
            z3.And(guard, wins), After(board_, score_, them, true, true, winner(score_))
        ),
        "NormalMove ⨟ NoMove": Disjunct(z3.And(guard, no_move_), finished),
        "NormalMove ⨟ CannotFeed": Disjunct(z3.And(guard, cannot_feed_), finished),
    }


def disjuncts(pre: Pre) -> dict[str, Disjunct]:
    """The corrected AwariRef ≙ WinMargin ∨ NoMove ∨ CannotFeed ∨ IllegalMove ∨ GrandSlam
    ∨ NormalMove, NormalMove split by the condition Status finds after it."""
    return {
        "WinMargin": win_margin(pre),
        "NoMove": no_move(pre),
        "CannotFeed": cannot_feed(pre),
        "IllegalMove": illegal_move(pre),
        "GrandSlam": grand_slam(pre),
        **normal_move_cases(pre),
    }
