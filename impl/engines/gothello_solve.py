"""The Gothello solver compiled (issue #54; ``gothello_solve.c``, built at first use by
impl/engines/ccompile.py): the search of gothello_endgame.Solver — the same key, the
same values, the same move order — in C, with a transposition table keyed by the
least image of a position under the board's eight symmetries, fast enough to solve
the 5×5 game from its start (impl/apps/solve.py; docs/tablebases.md, "Gothello
solved").  Without a compiler (or with ``ZREFEREE_GOTHELLO_SOLVER=python``) ``load``
gives None and callers use gothello_endgame.Solver.

Checked against the Python solver and the spec's minimax (tests/engines/
test_gothello_solve.py), and its placement against the proven engine's on sampled
positions; planted bugs (``gs_bug``) show that the checks catch a wrong kernel."""

from __future__ import annotations

import ctypes
import threading
import time
from contextlib import suppress
from functools import cache
from pathlib import Path
from typing import Final

from spec import gothello as G

from .ccompile import Signatures, library
from .gothello import ImplGothello
from .gothello_endgame import Solution, empties, passed
from .kernels import FULL, PASS, GothelloState, code, over
from .notation import square_name

SOURCE = Path(__file__).with_name("gothello_solve.c")
BITS: Final = 20
"""The table's size by default: 2^(BITS+1) entries of 16 bytes (32 MiB)."""
OUT: Final = -127
"""``gs_search``'s answer when its budget runs out."""
NAMES: Final = (*(square_name((i // 5 + 1, i % 5 + 1)) for i in range(25)), "pass")
"""The protocol's names by action code (impl/engines/kernels.py: squares 0–24, then pass)."""
BUGS: Final = {1: "a stone without a liberty is placed", 2: "a group touching the new stone only is captured"}
BUGS_SYM: Final = 3
"""The planted bug that turns the symmetries off: not a wrong value, only a slower search."""
_ENGINE: Final = ImplGothello()
ABORT_WAIT: Final = 5.0
"""Seconds an aborted search is waited for (it stops at its next node)."""


_u32, _i32, _u64 = ctypes.c_uint32, ctypes.c_int, ctypes.c_uint64
_p32, _pi = ctypes.POINTER(_u32), ctypes.POINTER(_i32)
SIGNATURES: Final[Signatures] = {
    "gs_init": ([_i32], _i32),
    "gs_bug": ([_i32], None),
    "gs_nodes": ([], _u64),
    "gs_abort": ([], None),
    "gs_arm": ([], None),
    "gs_search": ([_u32, _u32, _i32, _i32, _i32, _u64], _i32),
    "gs_place": ([_u32, _u32, _i32, _p32, _p32], _i32),
    "gs_entry": ([_u32, _u32, _i32, _pi, _pi, _pi], _i32),
    "gs_image": ([_i32, _u32], _u32),
}
"""gothello_solve.c's functions, as ctypes calls them."""


@cache
def load() -> ctypes.CDLL | None:
    """The compiled solver; None without a compiler or when turned off."""
    return library(SOURCE, "gothello-solve", "ZREFEREE_GOTHELLO_SOLVER", SIGNATURES)


class CSolver:
    """gothello_endgame.Solver's interface over the compiled search.  One table per
    process (the C library's): a new CSolver empties it.  ``budget``: nodes per call
    (None: no bound)."""

    def __init__(self, lib: ctypes.CDLL, bits: int = BITS, budget: int | None = None, bug: int = 0) -> None:
        self.lib = lib
        self.budget = budget
        lib.gs_bug(bug)
        if lib.gs_init(bits):
            raise MemoryError(f"no memory for a table of 2^{bits + 1} entries")
        self._start = 0

    @property
    def nodes(self) -> int:
        """Nodes visited by the last call."""
        return int(self.lib.gs_nodes()) - self._start

    def search(self, mine: int, theirs: int, passed_: int, alpha: int, beta: int) -> int | None:
        """The mover's margin if in (alpha, beta), else a bound on that side (fail-soft);
        None if the budget runs out."""
        value = int(self.lib.gs_search(mine, theirs, passed_, alpha, beta, self.budget or 0))
        return None if value == OUT else value

    def search_interruptible(self, mine: int, theirs: int, passed_: int, alpha: int, beta: int) -> int | None:
        """``search`` in a thread of its own, so that this one takes Ctrl-C (and SIGTERM
        made one) at once: the search is then aborted and KeyboardInterrupt raised."""
        found: list[int | None] = []
        self.lib.gs_arm()  # before the thread: an interrupt from now on stops its search, begun or not
        # A daemon: were it left running (an interrupt inside start()), the exit would not wait for it.
        worker = threading.Thread(target=lambda: found.append(self.search(mine, theirs, passed_, alpha, beta)))
        worker.daemon = True
        try:
            worker.start()
            while worker.is_alive():
                worker.join(0.2)
        except BaseException:
            self.lib.gs_abort()
            with suppress(RuntimeError):  # interrupted before the thread was started: nothing to join
                worker.join(ABORT_WAIT)
            raise
        return found[0]

    def measured(self, where: tuple[int, int, int], alpha: int, beta: int) -> tuple[int, int, float]:
        """``search_interruptible`` of a position (mine, theirs, passed) by a solver
        without a budget: its answer, the nodes it visited and the CPU seconds it took
        (a long solve's accounting: the split's leaves, the certificate's)."""
        before, start = int(self.lib.gs_nodes()), time.process_time()
        value = self.search_interruptible(where[0], where[1], where[2], alpha, beta)
        assert value is not None, "measured: a solver without a budget"
        return value, int(self.lib.gs_nodes()) - before, time.process_time() - start

    def _begin(self) -> None:
        self._start = int(self.lib.gs_nodes())

    def value(self, state: GothelloState) -> int | None:
        """The mover's margin under perfect play; None if the game is over or the budget runs out."""
        if over(state[3]):
            return None
        self._begin()
        return self.search(state[0], state[1], passed(state), -26, 26)

    def move_value(self, state: GothelloState, move: G.MOVE, alpha: int = -26, beta: int = 26) -> int | None:
        """The mover's margin after ``move`` (a legal move) and perfect play on."""
        mine, theirs = state[0], state[1]
        action = code(move)
        if action == PASS:
            if passed(state):
                return mine.bit_count() - theirs.bit_count()
            after = self.search(theirs, mine, 1, -beta, -alpha)
        else:
            placed = after_placing(self.lib, mine, theirs, action)
            assert placed is not None, "not a legal move"
            after = self.search(placed[1], placed[0], 0, -beta, -alpha)
        return None if after is None else -after

    def solve(self, state: GothelloState) -> Solution | None:
        """The value and every move that keeps it (gothello_endgame.Solver.solve)."""
        if over(state[3]):
            return None
        self._begin()
        value = self.search(state[0], state[1], passed(state), -26, 26)
        if value is None:
            return None
        best = []
        for m in _ENGINE.legal_moves(state):
            after = self.move_value(state, m, value - 1, value)
            if after is None:
                return None
            if after >= value:
                best.append(m)
        return Solution(value, tuple(best), self.nodes)


def after_placing(lib: ctypes.CDLL, mine: int, theirs: int, square: int) -> tuple[int, int] | None:
    """The C kernel's placement: (the mover's stones, the other's) after it, None if refused."""
    out_mine, out_theirs = ctypes.c_uint32(), ctypes.c_uint32()
    if not lib.gs_place(mine, theirs, square, ctypes.byref(out_mine), ctypes.byref(out_theirs)):
        return None
    return out_mine.value, out_theirs.value


def image(lib: ctypes.CDLL, symmetry: int, board: int) -> int:
    """A board's image under one of the eight symmetries (0: the identity)."""
    return int(lib.gs_image(symmetry, board & FULL))


def solver(bits: int = BITS, budget: int | None = None) -> CSolver | None:
    """A compiled solver, or None where it cannot be built."""
    lib = load()
    return None if lib is None else CSolver(lib, bits, budget)


__all__ = ["BITS", "FULL", "NAMES", "PASS", "CSolver", "after_placing", "empties", "image", "load", "passed", "solver"]
