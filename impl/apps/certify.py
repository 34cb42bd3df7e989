"""``referee tablebase certify gothello``: black's win checked deeper than the solve's
split (issue #54; docs/tablebases.md, "Gothello solved"): a certificate
(impl/engines/gothello_certificate.py) built with the compiled solver.

At each of black's positions the moves are tried in the order the solver's table
suggests (its best move first, then the greedy margin's), and the first whose
position the solver shows white loses is black's.  Positions are keyed by their least
image under the board's eight symmetries (written apart from the solver), so an image
of a leaf already shown lost costs nothing.  The file is written atomically after
every leaf searched: the same command resumes an interrupted build; then ``check``
follows it on the spec's engine."""

from __future__ import annotations

import ctypes
import sys
from pathlib import Path

from impl.engines import gothello_solve as S
from impl.engines.gothello import ImplGothello
from impl.engines.gothello_certificate import (
    Certificate,
    Checked,
    Damaged,
    Position,
    Uncertified,
    check,
    key,
    position,
    root,
)
from impl.engines.kernels import GothelloState
from spec import gothello as G

_IMPL = ImplGothello()

__all__ = ["Builder", "Damaged", "Uncertified", "run"]


class Builder:
    """Makes a certificate with the compiled solver (module docstring), walking the
    proven engine (impl/engines/gothello.py, fast; ``check`` then follows the result
    on the spec's)."""

    def __init__(self, solver: S.CSolver, cert: Certificate, say: bool = True) -> None:
        self.solver, self.cert, self.say = solver, cert, say
        spec_root, self.opening = root(cert)
        self.start = _IMPL.from_spec(spec_root)
        self.searched = 0

    def white_loses(self, state: GothelloState) -> bool:
        """White, to move in ``state``, loses: the game over with black ahead, or the
        solver's null window (−1, 0) fails low (the leaf's answer kept)."""
        if _IMPL.is_over(state):
            return _black_ahead(state)
        where = position(state)
        k = key(where)
        known = self.cert.lost.get(k)
        if known is None:
            self.cert.lost[k] = known = value = self.search(where, -1, 0)
            self.cert.save()
            self.searched += 1
            if self.say:
                print(f"leaf {len(self.cert.lost)}: {value:+d}  (total {self.cert.nodes:,} nodes, "
                      f"{self.cert.seconds / 60:.1f} CPU-min)", file=sys.stderr, flush=True)  # fmt: skip
        return known <= -1

    def candidates(self, state: GothelloState, played: str) -> list[G.MOVE]:
        """Black's legal moves: the book's first, then those whose position (or an image
        of it) is already shown lost, then the solver table's best, then by the greedy
        margin (the fewest white stones after the move first)."""
        lo, hi, best = ctypes.c_int(), ctypes.c_int(), ctypes.c_int()
        mine, theirs, passed = position(state)
        hint = None
        if self.solver.lib.gs_entry(mine, theirs, passed, ctypes.byref(lo), ctypes.byref(hi), ctypes.byref(best)):
            hint = S.NAMES[best.value] if best.value >= 0 else None
        booked = self.cert.book.get(played)

        def order(move: G.MOVE) -> tuple[int, int]:
            name = _IMPL.format_move(move)
            if name == booked:
                return (0, 0)
            after = _IMPL.apply(state, move)[1]
            if self.known_lost(after):
                return (1, 0)  # free
            if name == hint:
                return (2, 0)
            black, white = _IMPL.counts(after)
            return (3, white - black)

        return sorted(_IMPL.legal_moves(state), key=order)

    def free(self, state: GothelloState, played: str) -> bool:
        """Black has a move here whose answer costs no search: the book's, or one to a
        position (or an image of one) already shown lost."""
        booked = self.cert.book.get(played)
        return any(
            _IMPL.format_move(move) == booked or self.known_lost(_IMPL.apply(state, move)[1])
            for move in _IMPL.legal_moves(state)
        )

    def known_lost(self, after: GothelloState) -> bool:
        """White, to move in ``after``, is already shown lost there (or at an image of it)."""
        return not _IMPL.is_over(after) and self.cert.lost.get(key(position(after)), 0) <= -1

    def search(self, where: Position, alpha: int, beta: int) -> int:
        """The compiled solver's fail-soft answer, its nodes and CPU time counted."""
        value, nodes, seconds = self.solver.measured(where, alpha, beta)
        self.cert.nodes += nodes
        self.cert.seconds += seconds
        return value

    def black(self, state: GothelloState, played: tuple[str, ...]) -> None:
        """Black's move after ``played``: the first candidate after which white loses.
        Where none is free, the position itself is searched first (black wins: a null
        window above 0), so that the table's best move, tried first, is a winning one."""
        line = " ".join(played)
        if not self.free(state, line) and self.search(position(state), 0, 1) < 1:
            raise Uncertified(f"after {line}: the solver does not show black wins")
        for move in self.candidates(state, line):
            _, after = _IMPL.apply(state, move)
            if not self.white_loses(after):
                continue
            name = _IMPL.format_move(move)
            self.cert.book[line] = name
            if not _IMPL.is_over(after) and len(played) - len(self.opening) + 1 < self.cert.plies:
                self.white(after, (*played, name))
            return
        raise Uncertified(f"after {line}: no move of black's is shown to win")

    def white(self, state: GothelloState, played: tuple[str, ...]) -> None:
        for reply in _IMPL.legal_moves(state):
            _, after = _IMPL.apply(state, reply)
            name = _IMPL.format_move(reply)
            if _IMPL.is_over(after):
                if not _black_ahead(after):
                    raise Uncertified(f"after {' '.join(played)} {name}: black is not ahead")
                continue
            self.black(after, (*played, name))

    def build(self) -> None:
        """Every reply to the first move (the solve's: not searched again here), on down."""
        first = _IMPL.parse_move(self.cert.first)
        if first is None or first not in _IMPL.legal_moves(self.start):
            raise Uncertified(f"{self.cert.first} is not a legal first move")
        after = _IMPL.apply(self.start, first)[1]
        if self.cert.plies == 1 or _IMPL.is_over(after):
            if not self.white_loses(after):
                raise Uncertified(f"{self.cert.first} is not shown to win")
        else:
            self.white(after, (*self.opening, self.cert.first))
        self.cert.save()


def _black_ahead(state: GothelloState) -> bool:
    black, white = _IMPL.counts(state)
    return black > white


def run(path: Path, first: str, plies: int, bits: int, say: bool = True) -> Checked:
    """Build (or resume) the certificate at ``path`` with the compiled solver, then
    check it on the spec's engine; print both.  Without a compiler, check only."""
    cert = Certificate.load(path, first, plies)
    if (cert.first, cert.plies) != (first, plies):  # a file there, of another certificate
        raise Damaged(
            f"{path}: a certificate of {cert.first} to ply {cert.plies}, not of {first} to ply {plies} "
            "(--first, --plies)"
        )
    lib = S.load()
    if lib is not None:
        builder = Builder(S.CSolver(lib, bits), cert, say)
        builder.build()
        print(f"leaves searched now: {builder.searched:,}; in all {cert.nodes:,} nodes, {cert.seconds:,.0f} CPU-s")
    elif say:
        print("no C compiler here: the certificate is checked, not built", file=sys.stderr)
    checked = check(cert)
    print(
        f"certified on the spec's engine: black {cert.first}, then every reply of white's answered to ply "
        f"{cert.plies} — {checked.black:,} positions of black's, {checked.white:,} replies of white's, "
        f"{checked.leaves:,} leaves the solver shows white loses, {checked.over:,} games over with black ahead"
    )
    return checked
