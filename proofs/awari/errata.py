"""The Awari errata that a theorem about the literal AwariRef can meet, each decided by a
predicate stating the erratum's own definition (proofs/ERRATA.md), not the shape of the
failure: a failure of a theorem is put down to an erratum only when that erratum's
predicate holds at the failing state.  A failure that no erratum explains is NEW and
fails the run, so the classification can fail (tests/proofs/test_awari_errata.py plants
an unknown literal defect and sees it reported as NEW).

Each predicate reads the state and the disjuncts involved through the spec's own terms
(``Sow_Capture``, ``Sow_Capture_corrected``, ``feeds``, positions), never through which
theorem failed, so it stays right when a literal reading in spec/awari.py is made more
literal.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from spec import awari as A


@dataclass(frozen=True)
class Failure:
    """A counterexample to a theorem about the literal AwariRef: the state, the action,
    and the outcomes involved (both of an overlap; the one that fails otherwise; none
    for a gap)."""

    theorem: str
    game: A.AwariGame
    move: A.PIT
    outcomes: tuple[A.Outcome, ...]

    @property
    def schemas(self) -> frozenset[str]:
        return frozenset(o.schema for o in self.outcomes)


Predicate = Callable[[Failure], bool]


def opp_stones(g: A.AwariGame, board: A.BOARD) -> int:
    return sum(board[p] for p in A.side(A.opponent(g.to_move)))


def sowable(g: A.AwariGame, move: A.PIT) -> bool:
    return A._sow_pre(A.θAwariBoard(g), move)


def feeds_literally(g: A.AwariGame, move: A.PIT) -> bool:
    """``move`` can be sown and leaves the opponent stones under the literal capture."""
    if not sowable(g, move):
        return False
    after, _, _ = A.Sow_Capture(A.θAwariBoard(g), move)
    return opp_stones(g, after.board) > 0


def starving(g: A.AwariGame) -> bool:
    """The opponent's row is empty (the case the feeding rule is about)."""
    return opp_stones(g, g.board) == 0


# ─── One predicate per erratum ────────────────────────────────────────────────


def a1(f: Failure) -> bool:
    """A1, `reachable` is reflexive: the literal capture takes the last pit sown whatever
    it holds — here it takes every stone the move fed, which the corrected capture
    leaves."""
    return sowable(f.game, f.move) and A.feeds(f.game, f.move) and not feeds_literally(f.game, f.move)


def a2(f: Failure) -> bool:
    """A2, no schema passes the turn: a sowing disjunct (its frame from Sow and Capture)
    leaves the same player to move."""
    return any(o.schema in ("NormalMove", "GrandSlam") and o.after.to_move == f.game.to_move for o in f.outcomes)


def _slam_pair(f: Failure) -> tuple[int, int] | None:
    """For NormalMove ∧ GrandSlam: the opponent's stones before and after Sow ⨟ Capture."""
    if f.schemas != {"NormalMove", "GrandSlam"} or not sowable(f.game, f.move):
        return None
    after, _, _ = A.Sow_Capture(A.θAwariBoard(f.game), f.move)
    return opp_stones(f.game, f.game.board), opp_stones(f.game, after.board)


def a3(f: Failure) -> bool:
    """A3, GrandSlam's guard is vacuous: GrandSlam holds though the opponent keeps stones
    after Sow ⨟ Capture (the guard reads the board after ForfeitStones, always empty)."""
    pair = _slam_pair(f)
    return pair is not None and pair[0] > 0 and pair[1] > 0


def a4(f: Failure) -> bool:
    """A4, a grand slam is also a NormalMove: Sow ⨟ Capture empties a non-empty opposing
    row, and NormalMove does not exclude it."""
    pair = _slam_pair(f)
    return pair is not None and pair[0] > 0 and pair[1] == 0


def a5(f: Failure) -> bool:
    """A5, IllegalMove does not keep the state: its board', score' or to_move' is free."""
    return any(
        o.schema == "IllegalMove" and None in (o.after.board, o.after.score, o.after.to_move) for o in f.outcomes
    )


def a6(f: Failure) -> bool:
    """A6, WinMargin fixes only the score: board' or to_move' free, score' = score."""
    return any(
        o.schema == "WinMargin" and o.after.score == f.game.score and None in (o.after.board, o.after.to_move)
        for o in f.outcomes
    )


def a7(f: Failure) -> bool:
    """A7, NoMove leaves the turn free: to_move' free, while board' is determined — given,
    or forced empty because score' claims all 48 stones."""
    return any(
        o.schema == "NoMove"
        and o.after.to_move is None
        and (o.after.board is not None or (o.after.score is not None and sum(o.after.score) == 48))
        for o in f.outcomes
    )


def a8(f: Failure) -> bool:
    """A8, the starving opponent cannot be fed: the opponent's row is empty and no move of
    the player to move feeds it (under the literal capture)."""
    return starving(f.game) and not any(feeds_literally(f.game, m) for m in A.side(f.game.to_move))


def a9(f: Failure) -> bool:
    """A9, an illegal attempt is recorded: IllegalMove's positions' adds θAwariBoard."""
    theta = A.θAwariBoard(f.game)
    return theta not in f.game.positions and any(
        o.schema == "IllegalMove" and o.after.positions == f.game.positions | {theta} for o in f.outcomes
    )


def a12(f: Failure) -> bool:
    """A12, a repeated position is also a move: NoMove holds by repetition (θAwariBoard ∈
    positions while the mover has stones), which the other disjunct does not exclude."""
    g = f.game
    mover_has_stones = any(g.board[p] for p in A.side(g.to_move))
    return "NoMove" in f.schemas and len(f.schemas) == 2 and A.θAwariBoard(g) in g.positions and mover_has_stones


def a15(f: Failure) -> bool:
    """A15, IllegalMove's feeding clause quantifies over every state: the opponent starves,
    this move does not feed it, another move would — the move the clause should call
    illegal."""
    g = f.game
    others = [m for m in A.side(g.to_move) if m != f.move]
    return starving(g) and not feeds_literally(g, f.move) and any(feeds_literally(g, m) for m in others)


PREDICATES: dict[str, Predicate] = {
    "A1": a1,
    "A2": a2,
    "A3": a3,
    "A4": a4,
    "A5": a5,
    "A6": a6,
    "A7": a7,
    "A8": a8,
    "A9": a9,
    "A12": a12,
    "A15": a15,
}

EXPLAINS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "(a) disjoint": (("A3", "A4", "A12"), ()),
    "(b) total": (("A8", "A15"), ("A1",)),
    "(c) deterministic": (("A5", "A6", "A7"), ()),
    "(ii) illegal changes nothing": (("A5", "A9"), ()),
    "(iii) the turn passes": (("A2",), ()),
}
"""For each theorem: the errata that can explain a failure of it, and companions that
join the label when they hold too (A1 turns a feeding move into a gap only with A8 or
A15).  A failure of another theorem, or one that none explains, is NEW."""

DEAD_CLAUSE = "A15"
"""IllegalMove's feeding clause never holds (theorem (d))."""


def classify(f: Failure) -> str:
    """The errata that explain ``f`` ("A1+A8", …), or "NEW"."""
    principal, companions = EXPLAINS.get(f.theorem, ((), ()))
    held = [e for e in principal if PREDICATES[e](f)]
    if not held:
        return "NEW"
    return "+".join([e for e in companions if PREDICATES[e](f)] + held)
