"""Survivors of spec/gothello.py judged equivalent: the mutant's stable key → why no test can
tell it from the original (tests/mutation/verdicts.py gathers every file's)."""

from __future__ import annotations

from typing import Final

EQUIVALENT: Final[dict[str, str]] = {
    "spec/gothello.py::captures::delete::captured |= cross(group(cboard, t), {stone(to_move)}) → pass#1": (
        "the literal captures (erratum G3) take t among `(neighbor cboard) ⦇{s}⦈`, and neighbor relates only "
        "squares of the same non-blank value: t and its whole group are stones of the mover (s holds the "
        "mover's stone in cboard), so `group × {stone to_move}` recolours the mover's stones to their own "
        "colour and `cboard ⊕ captures` is cboard with or without it; the literal GothelloMove uses captures "
        "only there."
    ),
}
