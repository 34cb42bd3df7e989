"""Exact values under an own-row repetition rule (``paper``, ``abapa``): two tables of
bounds whose agreement makes an entry the referee's value (docs/tablebases.md,
"Exact values under the papers' rule").

Under these rule sets a repetition ends the game giving each side the stones of its
own row at the repeated position, so the mover's share of the n stones on the board
there is between -n and n, and which it is depends on the line (the history).  Two
games without a history bracket the referee's:

* ``hi``: the table's game with every line that never ends scored +n for the side to
  move at the board being valued (the level's stones all its own), -n for its
  opponent;
* ``lo``: the same with the line scored -n for that side.

They are solved together (the mover's best line in ``hi`` meets the opponent's
``lo``): hi(b) = max over moves of (captured - lo(child)), lo(b) = max over moves of
(captured - hi(child)), the level's boards starting at hi = n, lo = -n, the levels
below already bounded — the greatest and least fixpoints, the values of the games
where the endless line goes to that side.  For a position entered with nothing of its
history able to come again (after a capture, at the start, or where ``probe.may_repeat``
finds no earlier position reachable), lo(b) <= the referee's value <= hi(b): the side
that plays lo's strategy (each move chosen where lo first reached its value, so a play
by it repeats only if the opponent could loop for ever, which lo scores -n) gets at
least lo in the referee's game, and symmetrically for hi.  Where hi(b) == lo(b) the
entry is exact, whatever the line that repeats would have given.

``solve_level`` is the reference, a fixpoint of sweeps; build.py's ``solve_bounds_c`` solves the
same equations with the C kernel's attractors (kernel.c ``tb_threshold``) on the
level doubled — a board once as the ``hi`` side, once as the ``lo`` side, each move
from one copy to the other — with the margins shifted by n so that the endless line
scores 0 (the kernel's own game): the tests compare the two byte for byte."""

from __future__ import annotations

import sys
from dataclasses import dataclass

from spec import awari_rules as AR

from . import kernel
from .index import level_size, unrank

KINDS = ("hi", "lo")
"""The files of a level's bounds, beside its ``.tb``: ``awari-<rules>-<n>.hi`` and ``.lo``."""

NO_OPTION = -128
"""kernel.c's mark of a board with no constant option (below every margin)."""


def applies(rules: AR.AwariRules) -> bool:
    """The rule set gives each side its own row at a repetition: its entries are bounded here."""
    return rules.repetition == AR.RepetitionRule.OWN_ROW


def solve_level(
    n: int, gs: int, lower_hi: kernel.Lookup, lower_lo: kernel.Lookup, bug: int = kernel.NO_BUG
) -> tuple[bytes, bytes]:
    """Level n's (hi, lo), a signed byte a board in rank order, by sweeps from hi = n,
    lo = -n until nothing changes (each sweep only lowers hi and raises lo)."""
    size = level_size(n)
    fixed_hi: list[int] = []
    fixed_lo: list[int] = []
    children: list[list[int]] = []
    for r in range(size):
        ended, found = kernel.options(unrank(r, n), gs, bug)
        terms_hi, kids = kernel.split(n, ended, found, lower_lo)  # below, the opponent's side of hi is lo
        terms_lo, _ = kernel.split(n, ended, found, lower_hi)
        fixed_hi.append(max(terms_hi, default=NO_OPTION))
        fixed_lo.append(max(terms_lo, default=NO_OPTION))
        children.append(kids)
    hi = [n] * size
    lo = [-n] * size
    changed = True
    while changed:
        changed = False
        for r in range(size):
            kids = children[r]
            h = max(fixed_hi[r], max((-lo[c] for c in kids), default=NO_OPTION))
            low = max(fixed_lo[r], max((-hi[c] for c in kids), default=NO_OPTION))
            if h != hi[r] or low != lo[r]:
                hi[r], lo[r] = h, low
                changed = True
    return bytes(v & 255 for v in hi), bytes(v & 255 for v in lo)


def shift(by: int) -> bytes:
    """A ``bytes.translate`` table adding ``by`` to each signed byte but NO_OPTION."""
    return bytes(v & 255 if v == NO_OPTION else (v + by) & 255 for v in (u - 256 if u > 127 else u for u in range(256)))


@dataclass(frozen=True)
class BoundsReport:
    """A level's bounds: its boards, how many are exact (hi == lo), kept from disk or
    built, and the seconds."""

    n: int
    boards: int
    exact: int
    kept: bool
    seconds: float

    def line(self) -> str:
        share = 100 * self.exact / self.boards if self.boards else 100.0
        how = "kept (valid on disk)" if self.kept else f"{self.seconds:.2f} s"
        return f"level {self.n:2d} bounds: {self.exact:,} of {self.boards:,} boards exact ({share:.1f}%), {how}"


def exact_count(hi: bytes, lo: bytes) -> int:
    """The boards whose two bounds agree (hi - lo is 0 exactly there, and hi >= lo)."""
    return sum(1 for a, b in zip(hi, lo, strict=True) if a == b)


def print_report(line: BoundsReport) -> None:
    print(line.line(), file=sys.stderr, flush=True)
