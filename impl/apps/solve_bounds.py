"""What a solve's checkpoint proves, read apart from the search that wrote it (issue
#54; docs/tablebases.md, "How far a solve has come"): bounds on the mover's final
margin at the start and after each of its moves, by the proven engine
(impl/engines/gothello.py, not the solver's placement) over the split's plies, from
the checkpoint's answers looked up through the board's symmetries (``canonical``,
Python's).  The order in which the search asked them plays no part: an answer is a
fact about its position and window whoever asked it, so the bounds hold while a solve
is under way, and where they meet, the value is proven.  Followed from the start
while they meet, they give the principal variation as far as it is proven."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from impl.apps.solve_checkpoint import Checkpoint, Damaged
from impl.atomic import why
from impl.cli import UsageError, failed
from impl.engines import gothello_solve as S
from impl.engines.gothello import PASS, ImplGothello
from impl.engines.gothello_certificate import Position, canonical
from impl.engines.gothello_certificate import position as _position
from impl.engines.kernels import GothelloState

Bounds = tuple[int, int]
"""(least, most) the mover's final margin can be: stones on the board, the mover's
less the other's."""
UNKNOWN: Final[Bounds] = (-26, 26)
"""The solver's infinities: a margin lies within ±25."""

POSITIONS: Final = 200_000
"""The positions a report may visit by default (over the exact solve's checkpoint the
split's 4 plies visit about 4,000 in 2.5 s here; 5 plies 110,000 in 22 s; each ply
about 20 times more)."""


class Contradiction(Exception):
    """Two answers of the checkpoint that no single value satisfies."""


class TooLarge(Exception):
    """More positions than ``POSITIONS`` above the answers: fewer plies."""


def answered(leaves: Mapping[str, int]) -> dict[Position, Bounds]:
    """Each answered position's bounds (canonical), from all of its answers: a
    fail-soft answer v to the window (alpha, beta) bounds the value above where
    v ≤ alpha, below where v ≥ beta, and is the value between them."""
    found: dict[Position, Bounds] = {}
    for key, v in leaves.items():
        parsed = Checkpoint.parse(key)
        assert parsed is not None, key  # Checkpoint.load refuses a malformed key
        position, alpha, beta = parsed
        where = canonical(position)
        lo, hi = found.get(where, UNKNOWN)
        if v <= alpha:
            hi = min(hi, v)
        elif v >= beta:
            lo = max(lo, v)
        else:
            lo, hi = max(lo, v), min(hi, v)
        if lo > hi:
            raise Contradiction(f"the answers for {key.rsplit(':', 2)[0]} and its images admit no value")
        found[where] = (lo, hi)
    return found


def state_of(position: Position) -> GothelloState:
    """The proven engine's state of a solver's position, its mover black (the names
    only; a position's value reads neither colour nor any history but its last pass)."""
    mine, theirs, passed = position
    return (mine, theirs, 0, (PASS, None) if passed else None)


@dataclass(frozen=True)
class Move:
    """A move's bounds for the side that makes it, and the line it begins where its
    value is proven."""

    name: str
    bounds: Bounds
    line: tuple[str, ...]


class Proof:
    """The bounds of positions over ``plies`` plies of the proven engine above
    ``known`` (from ``answered``), each position once per ply count."""

    def __init__(self, known: Mapping[Position, Bounds], plies: int, positions: int = POSITIONS) -> None:
        self.known, self.plies, self.positions = known, plies, positions
        self.engine = ImplGothello()
        self.memo: dict[tuple[Position, int], Bounds] = {}

    def over(self, state: GothelloState) -> int | None:
        """The final margin of the side whose turn it would be (the negamax's mover)
        where the game is over, or the board full (only passes remain, which change
        nothing); else None."""
        mine, theirs = state[0].bit_count(), state[1].bit_count()
        if self.engine.is_over(state):  # GothelloGameOver leaves to_move the one who passed last
            return theirs - mine
        return mine - theirs if (state[0] | state[1]) == S.FULL else None

    def bounds(self, state: GothelloState, plies: int | None = None) -> Bounds:
        """The mover's bounds: the answers' for the position, narrowed by its
        children's (negamax: the best of the moves) while plies are left."""
        plies = self.plies if plies is None else plies
        final = self.over(state)
        if final is not None:
            return final, final
        where = canonical(_position(state))
        if (where, plies) in self.memo:
            return self.memo[(where, plies)]
        if len(self.memo) >= self.positions:
            raise TooLarge(
                f"more than {self.positions:,} positions over {self.plies} plies: fewer plies (or a larger --budget)"
            )
        lo, hi = self.known.get(where, UNKNOWN)
        if plies > 0 and lo < hi:
            most = least = -26
            for _, child in self.children(state):
                c_lo, c_hi = self.bounds(child, plies - 1)
                least, most = max(least, -c_hi), max(most, -c_lo)
            if max(lo, least) > min(hi, most):
                raise Contradiction(f"the answers for {where[0]:x}:{where[1]:x}:{where[2]} contradict its children's")
            lo, hi = max(lo, least), min(hi, most)
        self.memo[(where, plies)] = lo, hi
        return lo, hi

    def children(self, state: GothelloState) -> list[tuple[str, GothelloState]]:
        """(move's name, position after it) for every move the proven engine allows."""
        return [(self.engine.format_move(m), self.engine.apply(state, m)[1]) for m in self.engine.legal_moves(state)]

    def moves(self, state: GothelloState, plies: int | None = None) -> list[Move]:
        """The mover's bounds after each of its moves, one move of each set of images
        (the first in the engine's order), the best bounds first; where a move's value
        is proven, the line it begins as far as proven."""
        plies = self.plies if plies is None else plies
        seen: set[Position] = set()
        found = []
        for name, child in self.children(state):
            image = canonical(_position(child))
            if image in seen:
                continue
            seen.add(image)
            lo, hi = self.bounds(child, plies - 1)
            found.append(Move(name, (-hi, -lo), (name, *self.line(child, plies - 1)) if lo == hi else ()))
        return sorted(found, key=lambda m: (-m.bounds[1], -m.bounds[0]))

    def line(self, state: GothelloState, plies: int | None = None) -> list[str]:
        """The principal variation as far as it is proven: while the position's value
        is known, a move (the first in the engine's order) whose value is known and
        keeps it."""
        plies = self.plies if plies is None else plies
        moves: list[str] = []
        while plies > 0 and self.over(state) is None:
            lo, hi = self.bounds(state, plies)
            if lo != hi:
                break
            keeps = [(n, c) for n, c in self.children(state) if self.bounds(c, plies - 1) == (-lo, -lo)]
            if not keeps:
                break
            name, state = keeps[0]
            moves.append(name)
            plies -= 1
        return moves


def shown(bounds: Bounds) -> str:
    """Bounds in words: a value, a range, or one side."""
    lo, hi = bounds
    if lo == hi:
        return f"{lo:+d} exactly"
    if (lo, hi) == UNKNOWN:
        return "unknown"
    if hi == UNKNOWN[1]:
        return f"≥ {lo:+d}"
    if lo == UNKNOWN[0]:
        return f"≤ {hi:+d}"
    return f"{lo:+d} … {hi:+d}"


def verdict(bounds: Bounds, mover: str = "black", other: str = "white") -> str:
    """Who wins, where the mover's bounds say."""
    lo, hi = bounds
    if lo > 0:
        return f"{mover} wins" + (f" by {lo}" if lo == hi else f" by at least {lo}")
    if hi < 0:
        return f"{other} wins" + (f" by {-hi}" if lo == hi else f" by at least {-hi}")
    if lo == hi == 0:
        return "a draw"
    return "not decided yet"


@dataclass(frozen=True)
class Report:
    """What ``report`` found: the start's bounds (black's), each first move's (one of
    each set of images, best first), the proven line, and the answers read."""

    start: Bounds
    moves: tuple[Move, ...]
    line: tuple[str, ...]
    answers: int

    def lines(self, plies: int) -> list[str]:
        out = [
            f"{self.answers:,} answers, the top {plies} {'ply' if plies == 1 else 'plies'} on the proven engine "
            "(apart from the search's order):",
            f"the start, black to move: {shown(self.start)} ({verdict(self.start)})",
            "black's first moves, one of each set of images:",
        ]
        out += [f"  {m.name:<5} {shown(m.bounds):<12} {' '.join(m.line)}".rstrip() for m in self.moves]
        out.append("the principal variation as far as proven: " + (" ".join(self.line) or "(none yet)"))
        return out


def report(leaves: Mapping[str, int], plies: int, root: Position = (0, 0, 0), positions: int = POSITIONS) -> Report:
    """What the answers ``leaves`` prove over ``plies`` plies from ``root`` (the start),
    visiting at most ``positions`` positions (else TooLarge)."""
    proof = Proof(answered(leaves), plies, positions)
    state = state_of(root)  # of the start: the engine's initial state
    start = proof.bounds(state)
    return Report(start, tuple(proof.moves(state)), tuple(proof.line(state)), len(leaves))


def existing(path: Path, command: str) -> Checkpoint:
    """The checkpoint at ``path`` for a command that only reads it (where
    ``Checkpoint.load`` would start a solve afresh): missing, unreadable or not a
    checkpoint is ``command``'s one line and status 2."""
    if not path.exists():
        raise UsageError(f"{command}: {path}: no such checkpoint")
    try:
        return Checkpoint.load(path)
    except Damaged as exc:
        raise UsageError(f"{command}: {exc}") from None
    except OSError as exc:
        raise UsageError(f"{command}: {why(exc)}") from None


def run(path: Path, plies: int, budget: int | None, then: Callable[[Report], int] | None = None) -> int:
    """``referee tablebase solve gothello --bounds``: print what the checkpoint at
    ``path`` proves over ``plies`` plies, visiting at most ``budget`` positions; then
    ``then`` of the report, its status the command's (``--line``:
    impl/apps/solve_line.py)."""
    checkpoint = existing(path, "referee tablebase solve")
    try:
        found = report(checkpoint.leaves, plies, positions=budget or POSITIONS)
    except Contradiction as exc:
        return failed("referee tablebase solve", f"{path}: {exc}")
    except TooLarge as exc:
        return failed("referee tablebase solve", f"--bounds: {exc}")
    print(f"what {path} proves: " + "\n".join(found.lines(plies)), flush=True)
    return 0 if then is None else then(found)
