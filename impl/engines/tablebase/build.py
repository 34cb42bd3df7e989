"""Building a table: levels 0 … N, each from those below (a capture lowers the stone
count) and a fixpoint within it (a move that captures nothing stays in the level).

A level already on disk whose header names these rules, this level and this code,
and whose checksum holds, is kept (the build resumes); any other is rebuilt.  The C
kernel's sweeps over a level are split into rank ranges, run by worker processes
(``jobs``) that share the level's two working arrays (a forked anonymous mapping:
both only ever grow, so a worker reading another's half-finished range still moves
toward the same fixpoint — kernel.py, ``solve_level``)."""

from __future__ import annotations

import ctypes
import mmap
import multiprocessing
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from spec import awari_rules as AR

from . import ckernel, kernel, store
from .index import level_size

MAX_STONES = 24
"""From stores of 0/0 no store reaches 25 on a board of at most 24 stones."""


class UnsupportedRules(ValueError):
    """A rule set whose result is not a function of the stones: the table's margin
    cannot give it (docs/tablebases.md, "Rule sets")."""


def slam_rule(rules: AR.AwariRules) -> int:
    """The grand-slam rule's index (kernel.GS_A … GS_E), after refusing a rule set
    the tables do not cover: a repetition scored as a draw, or a player who cannot
    move losing whatever the stores say."""
    if rules.repetition == AR.RepetitionRule.DRAW or rules.cannot_move != AR.CannotMoveRule.OPPONENT_TAKES:
        why = [
            *(["a repetition is a draw"] if rules.repetition == AR.RepetitionRule.DRAW else []),
            *(["a player who cannot move loses"] if rules.cannot_move != AR.CannotMoveRule.OPPONENT_TAKES else []),
        ]
        raise UnsupportedRules(
            f"rules {AR.canonical_name(rules)}: {' and '.join(why)}, so the result is not a matter of the stones "
            "and no entry can be exact; tables cover repetition=own-row|uncounted with cannot-move=opponent-takes"
        )
    return "abcde".index(rules.grand_slam.value)


def meaning(rules: AR.AwariRules) -> str:
    """What an entry of a rule set's table is (docs/tablebases.md, "Repetition")."""
    if rules.repetition == AR.RepetitionRule.UNCOUNTED:
        return (
            "an entry is the referee's exact value wherever no earlier position can come again (probe.trusted): "
            "it adjudicates and advises there"
        )
    return (
        "an entry is the value of the table's game (a line that never ends scores 0), not the referee's: "
        "a repetition gives each side its own row; shown by analyse --untrusted, never used to adjudicate"
    )


@dataclass(frozen=True)
class LevelReport:
    """How a level was made: kept from disk, or built (sweeps, seconds)."""

    n: int
    boards: int
    kept: bool
    sweeps: int
    seconds: float
    kernel: str

    def line(self) -> str:
        if self.kept:
            return f"level {self.n:2d}: {self.boards:,} boards, kept (valid on disk)"
        rate = self.boards / self.seconds if self.seconds > 0 else float("inf")
        return (
            f"level {self.n:2d}: {self.boards:,} boards, {self.sweeps} sweeps, {self.seconds:.2f} s, "
            f"{rate:,.0f} boards/s ({self.kernel})"
        )


def _address(buffer: mmap.mmap, offset: int = 0) -> int:
    return ctypes.addressof(ctypes.c_char.from_buffer(buffer)) + offset


# The level being solved, inherited by forked workers.
_LEVEL: dict[str, object] = {}


def _sweep(lo: int, hi: int, backward: bool = False) -> int:
    """One sweep of the current level's ranks [lo, hi) by the C kernel (from hi down
    if ``backward``: measured, alternating directions doubles the sweeps); the changes."""
    lib = ckernel.load()
    assert lib is not None
    n, gs, bug = _LEVEL["n"], _LEVEL["gs"], _LEVEL["bug"]
    w, lose, lowers = _LEVEL["w"], _LEVEL["l"], _LEVEL["lowers"]
    assert isinstance(w, mmap.mmap) and isinstance(lose, mmap.mmap)
    return int(lib.tb_sweep(n, gs, bug, _address(w), _address(lose), lowers, lo, hi, int(backward)))


SweepReport = Callable[[int, int, int, float], None]
"""(level, sweep, changes, seconds so far): a big level's progress, sweep by sweep."""
SWEEP_REPORT_FROM = 1_000_000
"""Levels of at least this many boards report each sweep."""


def _solve_c(
    n: int, gs: int, lowers: list[mmap.mmap], bug: int, jobs: int, on_sweep: SweepReport | None = None
) -> tuple[bytes, int]:
    size = level_size(n)
    w, lose = mmap.mmap(-1, size), mmap.mmap(-1, size)
    pointers = (ctypes.c_void_p * max(n, 1))(*(_address(m, store.HEADER_SIZE) for m in lowers))
    _LEVEL.update(n=n, gs=gs, bug=bug, w=w, l=lose, lowers=pointers)
    sweeps = 0
    start = time.perf_counter()

    def done(changes: int) -> bool:
        if on_sweep is not None and size >= SWEEP_REPORT_FROM:
            on_sweep(n, sweeps, changes, time.perf_counter() - start)
        return changes == 0

    try:
        if jobs <= 1 or size < 50_000:
            while True:
                sweeps += 1
                if done(_sweep(0, size)):
                    break
        else:
            step = -(-size // (4 * jobs))
            ranges = [(lo, min(size, lo + step)) for lo in range(0, size, step)]
            with ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("fork")) as pool:
                while True:
                    sweeps += 1
                    if done(sum(pool.map(_sweep, *zip(*ranges, strict=True)))):
                        break
        values = _difference(w, lose)
    finally:
        _LEVEL.clear()
    return values, sweeps


def distances(n: int, gs: int, lowers: list[mmap.mmap], values: bytes) -> bytes:
    """Each board's distance (two bytes, little-endian): the fewest plies within which
    the side ahead forces its margin — the first step of Jacobi iteration of the
    level's equations whose W (L) reaches the entry — and 0 where the entry is 0.
    Along a line where the side ahead always moves to a board of smaller distance and
    the same value, no position repeats (docs/tablebases.md, "The perfect player")."""
    lib = ckernel.load()
    assert lib is not None
    size = level_size(n)
    pointers = (ctypes.c_void_p * max(n, 1))(*(_address(m, store.HEADER_SIZE) for m in lowers))
    arrays = [mmap.mmap(-1, size) for _ in range(4)]
    entry = mmap.mmap(-1, size)
    entry[:] = values
    rank = mmap.mmap(-1, 2 * size)
    step = 0
    while True:
        step += 1
        w0, l0, w1, l1 = arrays
        changes = lib.tb_jacobi(n, gs, _address(w0), _address(l0), _address(w1), _address(l1), pointers, 0, size)
        lib.tb_ranks(_address(entry), _address(w1), _address(l1), _address(rank), step, size)
        arrays = [w1, l1, w0, l0]
        if changes == 0:
            break
        if step >= 65_535:
            raise RuntimeError(f"level {n}: distances beyond 65,535 plies")
    return rank[:]


def _difference(w: mmap.mmap, lose: mmap.mmap) -> bytes:
    """The margins W - L, byte by byte (mod 256), by the C kernel."""
    lib = ckernel.load()
    assert lib is not None
    out = mmap.mmap(-1, len(w))
    lib.tb_margins(_address(w), _address(lose), _address(out), len(w))
    return out[:]


def _solve_python(n: int, gs: int, lowers: list[mmap.mmap], bug: int) -> tuple[bytes, int]:
    def lookup(m: int, r: int) -> int:
        v = lowers[m][store.HEADER_SIZE + r]
        return v - 256 if v > 127 else v

    return bytes(kernel.solve_level(n, gs, lookup, bug)), 0


def build(
    folder: Path,
    rules: AR.AwariRules,
    stones: int,
    jobs: int = 1,
    report: Callable[[LevelReport], None] | None = None,
    bug: int = kernel.NO_BUG,
    use_c: bool = True,
    on_sweep: SweepReport | None = None,
) -> list[Path]:
    """Build (or resume) the table of ``rules`` for 0 … ``stones`` stones in ``folder``;
    the level files' paths."""
    gs = slam_rule(rules)
    name = AR.canonical_name(rules)
    if not 0 <= stones <= MAX_STONES:
        raise ValueError(f"--stones must be 0 … {MAX_STONES}")
    lib = ckernel.load() if use_c else None
    paths: list[Path] = []
    lowers: list[mmap.mmap] = []
    for n in range(stones + 1):
        path = store.level_path(folder, name, n)
        try:
            kept = store.open_level(path, name, n, verify=True)
            if lib is not None:
                store.open_level(store.level_path(folder, name, n, "dist"), name, n, verify=True, width=2).close()
            lowers.append(kept)
            paths.append(path)
            if report:
                report(LevelReport(n, level_size(n), True, 0, 0.0, ""))
            continue
        except store.TableError:
            pass
        start = time.perf_counter()
        if lib is not None:
            values, sweeps = _solve_c(n, gs, lowers, bug, jobs, on_sweep)
        else:
            values, sweeps = _solve_python(n, gs, lowers, bug)
        if lib is not None and bug == kernel.NO_BUG:
            store.write(folder, name, n, distances(n, gs, lowers, values), "dist", 2)
        seconds = time.perf_counter() - start
        store.write(folder, name, n, values)
        lowers.append(store.open_level(path, name, n))
        paths.append(path)
        if report:
            report(LevelReport(n, level_size(n), False, sweeps, seconds, "C" if lib is not None else "Python"))
    return paths


def print_report(line: LevelReport) -> None:
    print(line.line(), file=sys.stderr, flush=True)


def print_sweep(n: int, sweep: int, changes: int, seconds: float) -> None:
    print(f"level {n:2d}: sweep {sweep}, {changes:,} entries raised, {seconds:.1f} s", file=sys.stderr, flush=True)
