"""The builder's rules and level solver, in Python: the fallback of the C kernel
(``kernel.c``), and its reference — the two must give the same tables.

These are the builder's own rules, written apart from the proven engine
(impl/engines/awari.py) on purpose: ``check`` compares them with it, board by board,
and recomputes every entry's children with the engine, so a slip here shows there.

**The table's game** (docs/tablebases.md): the rule set's sowing, capture, grand
slam, feeding and end-of-game rules, from stores of 0/0 (no store reaches 25 when
n ≤ 24), except that no position ends the game by repetition; a line that never ends
scores 0.  An entry is the side to move's *margin*: the stones it gains from the n on
the board minus those the opponent gains.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

# The grand-slam rules (a)–(e) of spec/awari_rules.py, numbered by the engine
# (impl/engines/awari.py ``slam_kind``); kernel.c's #defines repeat them for C.
from impl.engines.awari import GS_A, GS_B, GS_C, GS_D, GS_E

from .index import Board, level_size, rank, unrank

NO_BUG: Final = 0
PLANT_CAPTURE: Final = 1
"""A planted bug for the checks' tests: a pit of 4 is captured too."""
PLANT_INDEX: Final = 2
"""A planted bug: a non-capturing child's rank is off by one."""
PLANT_SLAM: Final = 3
"""A planted bug: under (a) a grand slam is taken while another move feeds."""
PLANT_LAP: Final = 4
"""A planted bug of the C kernel's lap shortcut alone (this kernel sows stone by stone):
each lap sows the origin too, which only a pit of 11 stones or more shows."""

Option = tuple[int, int, int, int]
"""A legal move: (pit j of the mover's row, value, child n, child rank).  A move that
ends the game has child n = -1 and value = the mover's final margin; otherwise value is
the stones it captures and (child n, child rank) the board after, seen by its mover."""

Lookup = Callable[[int, int], int]
"""The value of a board of fewer stones: (n, rank) → margin."""


def sow(pits: Sequence[int], j: int) -> tuple[list[int], int]:
    """Sow (spec/awari.py Sow): pit j's stones one by one counter-clockwise, the origin
    skipped.  The board after and the last pit sown (0–11)."""
    after = list(pits)
    n = after[j]
    after[j] = 0
    q = j
    for _ in range(n):
        q = (q + 1) % 12
        if q == j:
            q = (q + 1) % 12
        after[q] += 1
    return after, q


def capture(after: list[int], last: int, gs: int, bug: int = NO_BUG) -> int:
    """Capture (corrected, A1) under grand-slam rule gs, in place: from the last pit
    sown, on the opponent's row, down the row while pits hold 2 or 3; under (b)–(d)
    a harvest that would empty the row is cancelled or cut (CaptureSlamSown,
    CaptureSlamSpareLast, CaptureSlamFirstOnly).  The stones captured."""
    if last < 6:
        return 0
    before = after[6:]
    taken = 0
    q = last
    while q >= 6 and (after[q] in (2, 3) or (bug == PLANT_CAPTURE and after[q] == 4)):
        taken += after[q]
        after[q] = 0
        q -= 1
    if taken and not any(after[6:]) and gs in (GS_B, GS_C, GS_D):
        after[6:] = before
        if gs == GS_B:
            return 0
        if gs == GS_C:
            kept = after[last]
            after[6:] = [0] * 6
            after[last] = kept
            return taken - kept
        kept = after[last]
        after[last] = 0
        return kept
    return taken


def _feeds(pits: Sequence[int], j: int, gs: int, bug: int) -> bool:
    """feeds: sowing pit j, captures made, leaves the opponent a stone."""
    after, last = sow(pits, j)
    capture(after, last, gs, bug)
    return any(after[6:])


def options(pits: Board, gs: int, bug: int = NO_BUG) -> tuple[int | None, list[Option]]:
    """A board's value if the game is over at the start of the mover's turn (Ended:
    CannotMove, StarvedOut, each with "the opponent takes the stones left"), else
    None and its legal moves (IllegalMoveUnder's negation, GrandSlamForfeit, SowUnder)."""
    n = sum(pits)
    mine = pits[:6]
    if not any(mine):
        return -n, []  # CannotMove: the opponent claims its row, all n
    starving = not any(pits[6:])
    moves = [j for j in range(6) if mine[j]]
    feeders = [j for j in moves if _feeds(pits, j, gs, bug)]
    if starving and not feeders:
        return n, []  # StarvedOut: the mover claims its row, all n
    found: list[Option] = []
    for j in moves:
        after, last = sow(pits, j)
        gained = capture(after, last, gs, bug)
        if not any(after[6:]):
            if starving:
                continue  # a failure to feed
            if gs == GS_A and feeders and bug != PLANT_SLAM:
                continue  # (a): a grand slam only when no other move feeds
            if gs == GS_E:  # GrandSlamForfeit: the mover's row goes to the victim
                found.append((j, gained - sum(after[:6]), -1, 0))
                continue
        child = tuple(after[6:] + after[:6])
        m = n - gained
        r = rank(child)
        if bug == PLANT_INDEX and not gained:
            r = (r + 1) % level_size(m)
        found.append((j, gained, m, r))
    return None, found


def split(n: int, ended: int | None, found: list[Option], lower: Lookup) -> tuple[list[int], list[int]]:
    """A board of n stones' options: the margins of those that leave the level (the
    game's end, a move that ends it, a capture: the stones taken less the entry below)
    and the ranks of the boards its moves reach inside the level."""
    terms = [ended] if ended is not None else []
    kids = []
    for _, v, m, cr in found:
        if m < 0:
            terms.append(v)
        elif m < n:
            terms.append(v - lower(m, cr))
        else:
            kids.append(cr)
    return terms, kids


def solve_level(n: int, gs: int, lower: Lookup, bug: int = NO_BUG) -> bytearray:
    """Every board of n stones' margin (a signed byte each, rank order): the least
    fixpoint of W = max(0, terminal margins, L[children]), L = max(0, min(-terminal
    margins, W[children])) over the level's non-capturing moves — W the margin the
    mover forces, L the margin the opponent forces, a line that never ends neither —
    and the margin W - L (docs/tablebases.md, "The solver")."""
    size = level_size(n)
    fixed: list[tuple[int, int]] = []  # (best terminal margin, -worst terminal margin) per board
    children: list[list[int]] = []
    for r in range(size):
        terms, kids = split(n, *options(unrank(r, n), gs, bug), lower)
        fixed.append((max(terms, default=-128), min((-t for t in terms), default=127)))
        children.append(kids)
    w = bytearray(size)
    lo = bytearray(size)
    changed = True
    while changed:
        changed = False
        for r in range(size):
            best, least = fixed[r]
            kids = children[r]
            wr = max(0, best, max((lo[c] for c in kids), default=0))
            lr = max(0, min(least, min((w[c] for c in kids), default=127)))
            if wr > w[r] or lr > lo[r]:
                w[r] = max(w[r], wr)
                lo[r] = max(lo[r], lr)
                changed = True
    return bytearray((w[r] - lo[r]) & 255 for r in range(size))
