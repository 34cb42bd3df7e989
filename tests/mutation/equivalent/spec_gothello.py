"""Survivors of spec/gothello.py judged equivalent: the mutant's stable key → why no test can
tell it from the original (tests/mutation/verdicts.py gathers every file's)."""

from __future__ import annotations

from typing import Final

_MOVE_NEVER_HOLDS = (
    "the literal GothelloMove returns None on every call (erratum G5; tests/spec/test_errata_gothello.py "
    "checks each step): cboard holds the mover's stone at s, so capture_at s is determined, and it is ∅ or "
    "group cboard s × {{stone to_move}}; nothing adjoins a1 as written and neighbor ⊆ adjoins, so no written "
    "group holds a1 and no such value is total.  The first check `not all(v is None or total …)` therefore "
    "returns None whenever it is reached, and the lines after it never run.  {how}"
)
_PASS_NEVER_HOLDS = (
    "the literal GothelloPass returns None on every call (erratum G6): `to_moves` collects the players p with "
    "p = to_move ∧ p = opponent to_move, and opponent has no fixed point (black ↔ white), so `to_moves` is "
    "empty and `if not to_moves: return None` ends every call that gets that far.  {how}"
)

EQUIVALENT: Final[dict[str, str]] = {
    "spec/gothello.py::captures::delete::captured |= cross(group(cboard, t), {stone(to_move)}) → pass#1": (
        "the literal captures (erratum G3) take t among `(neighbor cboard) ⦇{s}⦈`, and neighbor relates only "
        "squares of the same non-blank value: t and its whole group are stones of the mover (s holds the "
        "mover's stone in cboard), so `group × {stone to_move}` recolours the mover's stones to their own "
        "colour and `cboard ⊕ captures` is cboard with or without it; the literal GothelloMove uses captures "
        "only there."
    ),
    "spec/gothello.py::placed_on::const::0 → -1#1": (
        "`squares` lists the s with move? = move s; move is a frozen dataclass equal by its square, so at most "
        "one s qualifies and squares[0] and squares[-1] are the same square whenever the list is not empty."
    ),
    "spec/gothello.py::GothelloMove::cmp-flip::g.board[move_.square] == blank → "
    "g.board[move_.square] != blank#1": _MOVE_NEVER_HOLDS.format(
        how="The mutant lets placements on occupied squares (and not on blank ones) reach that check; cboard "
        "still holds the mover's stone at s, so the check still returns None."
    ),
    "spec/gothello.py::GothelloMove::unary::not all((v is None or is_total_SQUAREVAL(v) for v in determined)) → "
    "all((v is None or is_total_SQUAREVAL(v) for v in determined))#1": _MOVE_NEVER_HOLDS.format(
        how="The mutant returns None where every value is None or total (never), and otherwise goes on to the "
        "second check, `not all(total(captures t))`: captures t is a union of capture_at values at stones, "
        "none holding a1, so never total — that check returns None."
    ),
    "spec/gothello.py::GothelloMove::unary::not all((is_total_SQUAREVAL(captures(cboard, g.to_move, t)) for t "
    "in SQUARES)) → all((is_total_SQUAREVAL(captures(cboard, g.to_move, t)) for t in SQUARES))#1": (
        _MOVE_NEVER_HOLDS.format(how="The mutant changes the second check, which is never reached.")
    ),
    "spec/gothello.py::GothelloMove::return::return GothelloMove_G5(g, move_) → return None#1": (
        _MOVE_NEVER_HOLDS.format(how="The mutant changes the last line, which is never reached.")
    ),
    "spec/gothello.py::GothelloPass::cmp-flip::move_ != pass_ → move_ == pass_#1": _PASS_NEVER_HOLDS.format(
        how="The mutant lets placements, and not passes, get that far: still None."
    ),
    "spec/gothello.py::GothelloPass::cmp-flip::g.history[0] == pass_ → g.history[0] != pass_#1": (
        _PASS_NEVER_HOLDS.format(how="The mutant changes which histories get that far: still None.")
    ),
    "spec/gothello.py::GothelloPass::const::0 → -1#1": _PASS_NEVER_HOLDS.format(
        how="The mutant tests the oldest move instead of history 1, changing which histories get that far: still None."
    ),
    "spec/gothello.py::GothelloPass::delete::to_move_, = to_moves → pass#1": _PASS_NEVER_HOLDS.format(
        how="The mutant deletes a line after it, which never runs."
    ),
    "spec/gothello.py::GothelloPass::delete::undefined = None if g.history else 'history 1 of ⟨⟩' → pass#1": (
        _PASS_NEVER_HOLDS.format(how="The mutant deletes a line after it, which never runs.")
    ),
    "spec/gothello.py::GothelloPass::return::return Outcome('GothelloPass', not_done, GothelloGame(g.board, "
    "to_move_, GothelloAction(g, move_)), undefined) → return None#1": _PASS_NEVER_HOLDS.format(
        how="The mutant changes the last line, which never runs."
    ),
}
