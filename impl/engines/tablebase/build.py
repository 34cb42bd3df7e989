"""Building a table: levels 0 … N, each from those below (a capture lowers the stone
count) and a fixpoint within it (a move that captures nothing stays in the level).

A level already on disk whose header names these rules, this level and this code,
and whose checksum holds, is kept (the build resumes); any other is rebuilt.  The C
kernel solves a level by retrograde analysis (kernel.c): two passes over the boards
find each board's constant options and its predecessors, split into rank ranges
among worker processes (``jobs``) that share the arrays (forked anonymous mappings,
counted atomically); then each margin threshold is one task, its attractors found
breadth first, the entries and distances read off the layers.  kernel.py's
``solve_level`` (a fixpoint of sweeps, the fallback without a compiler) is the same
equations solved another way; the tests compare the two byte for byte."""

from __future__ import annotations

import contextlib
import ctypes
import mmap
import multiprocessing
import signal
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from spec import awari_rules as AR

from . import bounds, ckernel, kernel, store
from .index import level_size
from .rules import MAX_STONES, slam_rule


class Interrupted(Exception):
    """The build was asked to stop (``stop()`` became true): the levels written stay."""


def _checked(results: Iterator[Any], stop: Callable[[], bool]) -> Iterator[Any]:
    """``results`` as they come, ending the build with Interrupted once ``stop()``."""
    for result in results:
        if stop():
            raise Interrupted
        yield result


class NotEnoughMemory(RuntimeError):
    """A level's arrays would not fit in the memory available: said before they are made."""


def available_memory() -> int | None:
    """The bytes Linux says can be allocated without swapping (``MemAvailable``); None
    where it does not say."""
    try:
        with open("/proc/meminfo", encoding="ascii") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


def _afford(n: int, needed: int, what: str) -> None:
    available = available_memory()
    if available is not None and needed > available:
        raise NotEnoughMemory(
            f"level {n} needs about {needed / 2**30:.1f} GiB more for {what}, and {available / 2**30:.1f} GiB is "
            "available: fewer --jobs, or a machine with more memory (the levels written are kept)"
        )


@dataclass(frozen=True)
class LevelReport:
    """How a level was made: kept from disk, or built (its deepest distance — 0 from
    the Python kernel, which has none — and seconds)."""

    n: int
    boards: int
    kept: bool
    layers: int
    seconds: float
    kernel: str

    def line(self) -> str:
        if self.kept:
            return f"level {self.n:2d}: {self.boards:,} boards, kept (valid on disk)"
        rate = self.boards / self.seconds if self.seconds > 0 else float("inf")
        return (
            f"level {self.n:2d}: {self.boards:,} boards, "
            + (f"{self.layers} plies deep, " if self.kernel == "C" else "no distances, ")
            + f"{self.seconds:.2f} s, "
            f"{rate:,.0f} boards/s ({self.kernel})"
        )


def _address(buffer: mmap.mmap, offset: int = 0) -> int:
    return ctypes.addressof(ctypes.c_char.from_buffer(buffer)) + offset


# The level being solved, inherited by forked workers (shared anonymous mappings).
_LEVEL: dict[str, object] = {}


def _mapped(name: str) -> int:
    buffer = _LEVEL[name]
    assert isinstance(buffer, mmap.mmap)
    return _address(buffer)


def _edges(lo: int, hi: int) -> int:
    """Pass 1 over ranks [lo, hi): best constant option, in-level moves, in-degrees."""
    lib = ckernel.load()
    assert lib is not None
    n, gs, bug = _LEVEL["n"], _LEVEL["gs"], _LEVEL["bug"]
    best, outdeg, indeg = _mapped("best"), _mapped("outdeg"), _mapped("offsets")
    return int(lib.tb_edges(n, gs, bug, _LEVEL["lowers"], best, outdeg, indeg, lo, hi))


def _fill(lo: int, hi: int) -> None:
    """Pass 2 over ranks [lo, hi): the predecessor lists."""
    lib = ckernel.load()
    assert lib is not None
    lib.tb_fill(_LEVEL["n"], _LEVEL["gs"], _LEVEL["bug"], _mapped("cursor"), _mapped("preds"), lo, hi)


def _threshold(t: int) -> tuple[int, int, int]:
    """Threshold t's attractors into the shared keys, with this worker's scratch arrays:
    (t, members, deepest layer)."""
    lib = ckernel.load()
    assert lib is not None
    size = _LEVEL["size"]
    assert isinstance(size, int)
    scratch = [mmap.mmap(-1, size), mmap.mmap(-1, size), mmap.mmap(-1, 4 * size)]
    layers = ctypes.c_int()
    members = lib.tb_threshold(
        t,
        size,
        _mapped("best"),
        _mapped("outdeg"),
        _mapped("offsets"),
        _mapped("preds"),
        *(_address(m) for m in scratch),
        _mapped("key"),
        ctypes.byref(layers),
    )
    for m in scratch:
        m.close()
    if members < 0:
        raise RuntimeError(f"level {_LEVEL['n']}: distances beyond 65,535 plies")
    return t, int(members), layers.value


Progress = Callable[[int, int, int, int, float], None]
"""(level, threshold, boards in its attractors, deepest layer, seconds so far): a big
level's progress, threshold by threshold."""
PROGRESS_FROM = 1_000_000
"""Levels of at least this many boards report each threshold."""


@dataclass(frozen=True)
class Solved:
    """A level solved by the C kernel: entries, distances (two bytes a board) and the
    thresholds' deepest layer."""

    values: bytes
    distances: bytes
    layers: int


def _ranges(size: int, jobs: int) -> list[tuple[int, int]]:
    step = -(-size // (8 * jobs))
    return [(lo, min(size, lo + step)) for lo in range(0, size, step)]


def _solve_c(
    n: int,
    gs: int,
    lowers: list[mmap.mmap],
    bug: int,
    jobs: int,
    on_progress: Progress | None = None,
    stop: Callable[[], bool] = lambda: False,
) -> Solved:
    """The level by retrograde analysis (kernel.c): the two passes over the boards split
    among ``jobs`` forked workers, then one task per threshold."""
    lib = ckernel.load()
    assert lib is not None
    size = level_size(n)
    _afford(n, 14 * size, "its boards' options and predecessor offsets")
    pointers = (ctypes.c_void_p * max(n, 1))(*(_address(m, store.HEADER_SIZE) for m in lowers))
    arrays = {
        "best": mmap.mmap(-1, size),
        "outdeg": mmap.mmap(-1, size),
        "offsets": mmap.mmap(-1, 4 * (size + 1)),
        "key": mmap.mmap(-1, 4 * size),
    }
    _LEVEL.update(n=n, gs=gs, bug=bug, size=size, lowers=pointers, **arrays)
    start = time.perf_counter()
    ranges = _ranges(size, jobs)
    try:
        # Workers fork after the arrays they use are mapped: a pool for each pass, the
        # predecessor lists' size known after the first.
        with _pool(jobs, size) as pool:
            edges = sum(_checked(pool(_edges, *zip(*ranges, strict=True)), stop))
        if edges >= 2**32:
            raise RuntimeError(f"level {n}: {edges:,} moves overflow the 32-bit predecessor offsets")
        lib.tb_prefix(_mapped("offsets"), size)
        scratch = 6 * size * _workers(jobs, size)
        _afford(n, 4 * size + 4 * edges + scratch + 6 * size, f"its {edges:,} moves' predecessor lists")
        cursor = mmap.mmap(-1, 4 * (size + 1))
        cursor[:] = arrays["offsets"]
        _LEVEL.update(cursor=cursor, preds=mmap.mmap(-1, max(4 * edges, 1)))
        deepest = 0
        with _pool(jobs, size) as pool:
            list(_checked(pool(_fill, *zip(*ranges, strict=True)), stop))
        del _LEVEL["cursor"]
        cursor.close()  # its workers gone with their pool, its memory is free for the thresholds'
        with _pool(jobs, size) as pool:
            # The low thresholds' attractors are the big ones: first, to balance the workers.
            for t, members, layers in _checked(pool(_threshold, range(1, n + 1)), stop):
                deepest = max(deepest, layers)
                if on_progress is not None and size >= PROGRESS_FROM:
                    on_progress(n, t, members, layers, time.perf_counter() - start)
        values, dist = mmap.mmap(-1, size), mmap.mmap(-1, 2 * size)
        lib.tb_unpack(_mapped("key"), _address(values), _address(dist), size)
        return Solved(values[:], dist[:], deepest)
    finally:
        _LEVEL.clear()


POOL_FROM = 50_000
"""Smaller levels are solved in this process: forking would cost more than it saves."""


def _workers(jobs: int, size: int) -> int:
    return jobs if size >= POOL_FROM else 1


@contextlib.contextmanager
def _pool(jobs: int, size: int) -> Iterator[Callable[..., Iterator[Any]]]:
    """``map`` over forked workers sharing _LEVEL's mappings, or in this process for
    one job or a small level."""
    if _workers(jobs, size) == 1:
        yield map
        return
    with ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("fork"), initializer=_deaf) as pool:
        try:
            yield pool.map
        except BrokenProcessPool:
            raise
        except BaseException:
            # Stopped: cancel the tasks not started; those running end first (a
            # task's time: seconds at level 20).  Killing the workers instead races
            # the pool's own thread (CPython 3.11 raises InvalidStateError there).
            pool.shutdown(wait=True, cancel_futures=True)
            raise


def _deaf() -> None:
    """A worker ignores Ctrl-C: the build's own process asks it to stop (one line),
    and a worker interrupted while idle would print its own traceback."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _solve_python(n: int, gs: int, lowers: list[mmap.mmap], bug: int) -> tuple[bytes, int]:
    def lookup(m: int, r: int) -> int:
        return store.signed(lowers[m][store.HEADER_SIZE + r])

    return bytes(kernel.solve_level(n, gs, lookup, bug)), 0


def build(
    folder: Path,
    rules: AR.AwariRules,
    stones: int,
    jobs: int = 1,
    report: Callable[[LevelReport], None] | None = None,
    bug: int = kernel.NO_BUG,
    use_c: bool = True,
    on_progress: Progress | None = None,
    stop: Callable[[], bool] = lambda: False,
    on_bounds: Callable[[Any], None] | None = None,
) -> list[Path]:
    """Build (or resume) the table of ``rules`` for 0 … ``stones`` stones in ``folder``;
    the level files' paths.  Under an own-row repetition rule, its bounds too
    (bounds.py; ``on_bounds`` gets each level's BoundsReport).  Once ``stop()`` is true
    (a flag a signal handler sets: a KeyboardInterrupt can be lost in a fork's
    callbacks) the build ends with Interrupted within a task's time, the levels
    written kept."""
    gs = slam_rule(rules)
    name = AR.canonical_name(rules)
    if not 0 <= stones <= MAX_STONES:
        raise ValueError(f"--stones must be 0 … {MAX_STONES}")
    lib = ckernel.load() if use_c else None
    paths: list[Path] = []
    lowers: list[mmap.mmap] = []
    for n in range(stones + 1):
        if stop():
            raise Interrupted
        path = store.level_path(folder, name, n)
        try:
            kept = store.open_level(path, name, n)
            if lib is not None:
                store.open_level(store.level_path(folder, name, n, "dist"), name, n, width=2).close()
            lowers.append(kept)
            paths.append(path)
            if report:
                report(LevelReport(n, level_size(n), True, 0, 0.0, ""))
            continue
        except store.TableError:
            pass
        start = time.perf_counter()
        if lib is not None:
            solved = _solve_c(n, gs, lowers, bug, jobs, on_progress, stop)
            values, passes = solved.values, solved.layers
            store.write(folder, name, n, solved.distances, "dist", 2)
        else:
            values, passes = _solve_python(n, gs, lowers, bug)
        seconds = time.perf_counter() - start
        store.write(folder, name, n, values)
        lowers.append(store.open_level(path, name, n))
        paths.append(path)
        if report:
            report(LevelReport(n, level_size(n), False, passes, seconds, "C" if lib is not None else "Python"))
    if bounds.applies(rules):
        build_bounds(folder, rules, stones, on_bounds, bug, lib is not None, stop, jobs)
    return paths


# ─── Bounds (bounds.py) ────────────────────────────────────────────────────────


def _pointers(levels: Sequence[mmap.mmap]) -> ctypes.Array[ctypes.c_void_p]:
    return (ctypes.c_void_p * max(len(levels), 1))(*(_address(m) for m in levels))


def solve_bounds_c(
    n: int,
    gs: int,
    lower_hi: Sequence[mmap.mmap],
    lower_lo: Sequence[mmap.mmap],
    bug: int = kernel.NO_BUG,
    jobs: int = 1,
) -> tuple[bytes, bytes]:
    """``bounds.solve_level`` by the C kernel: the levels below as mappings of bare values (no
    header).  The level is doubled — rank r the ``hi`` side, size + r the ``lo`` side;
    a move from one copy goes to the other — and every margin shifted so that the
    endless line scores 0: hi's side's margins less n, lo's plus n.  The kernel's
    attractors then give each copy's value, shifted back: one task per threshold, on
    ``jobs`` forked workers for a big level (build.py's pool)."""
    lib = ckernel.load()
    assert lib is not None
    size = level_size(n)
    _afford(n, 11 * size, "its bounds' options")
    best_hi, best_lo, outdeg = mmap.mmap(-1, size), mmap.mmap(-1, size), mmap.mmap(-1, size)
    offsets, spare = mmap.mmap(-1, 4 * (size + 1)), mmap.mmap(-1, 4 * (size + 1))
    addr = _address
    edges = lib.tb_edges(n, gs, bug, _pointers(lower_lo), addr(best_hi), addr(outdeg), addr(offsets), 0, size)
    lib.tb_edges(n, gs, bug, _pointers(lower_hi), addr(best_lo), addr(outdeg), addr(spare), 0, size)
    if 2 * edges >= 2**32:
        raise RuntimeError(f"level {n}: {edges:,} moves overflow the bounds' 32-bit predecessor offsets")
    # The predecessor lists once and doubled, the doubled arrays, their copies on the
    # way, the thresholds' scratch per worker (build.py's solve has the same accounting).
    needed = 12 * edges + (32 + 12 * _workers(jobs, 2 * size)) * size
    _afford(n, needed, f"its bounds' doubled level ({edges:,} moves, twice)")
    lib.tb_prefix(addr(offsets), size)
    spare[:] = offsets  # the cursor of the fill
    preds = mmap.mmap(-1, max(4 * edges, 1))
    lib.tb_fill(n, gs, bug, addr(spare), addr(preds), 0, size)
    spare.close()
    buffers = {
        "best": mmap.mmap(-1, 2 * size),
        "outdeg": mmap.mmap(-1, 2 * size),
        "offsets": mmap.mmap(-1, 4 * (2 * size + 1)),
        "preds": mmap.mmap(-1, max(8 * edges, 1)),
    }
    buffers["best"][:] = best_hi[:].translate(bounds.shift(-n)) + best_lo[:].translate(bounds.shift(n))
    buffers["outdeg"][:] = outdeg[:] * 2
    lib.tb_double(size, addr(offsets), addr(preds), addr(buffers["offsets"]), addr(buffers["preds"]))
    for m in (best_hi, best_lo, outdeg, offsets, preds):
        m.close()
    buffers["key"] = mmap.mmap(-1, 4 * 2 * size)
    _LEVEL.update(n=n, size=2 * size, **buffers)
    try:
        with _pool(jobs, 2 * size) as pool:
            list(pool(_threshold, range(1, 2 * n + 1)))
        values, dist = mmap.mmap(-1, 2 * size), mmap.mmap(-1, 4 * size)
        lib.tb_unpack(_mapped("key"), addr(values), addr(dist), 2 * size)
    finally:
        _LEVEL.clear()
    return values[:size].translate(bounds.shift(n)), values[size:].translate(bounds.shift(-n))


def build_bounds(
    folder: Path,
    rules: AR.AwariRules,
    stones: int,
    report: Callable[[bounds.BoundsReport], None] | None = None,
    bug: int = kernel.NO_BUG,
    use_c: bool = True,
    stop: Callable[[], bool] = lambda: False,
    jobs: int = 1,
) -> None:
    """Build (or resume) the bounds (bounds.py) of ``rules`` for 0 … ``stones`` stones in
    ``folder``, beside its table: a level on disk whose header and checksum hold is
    kept.  Level by level (each needs the one below it), a big level's thresholds on
    ``jobs`` workers."""
    name = AR.canonical_name(rules)
    gs = slam_rule(rules)
    lib = ckernel.load() if use_c else None
    lowers: dict[str, list[mmap.mmap]] = {kind: [] for kind in bounds.KINDS}
    for n in range(stones + 1):
        if stop():
            raise Interrupted
        start = time.perf_counter()
        try:
            kept = {kind: store.open_level(store.level_path(folder, name, n, kind), name, n) for kind in bounds.KINDS}
            pair = tuple(kept[kind][store.HEADER_SIZE :] for kind in bounds.KINDS)
            was_kept = True
        except store.TableError:
            pair = _solve_bounds(n, gs, lowers, bug, lib is not None, jobs)
            for kind, values in zip(bounds.KINDS, pair, strict=True):
                store.write(folder, name, n, values, kind)
            was_kept = False
        for kind, values in zip(bounds.KINDS, pair, strict=True):
            bare = mmap.mmap(-1, max(len(values), 1))
            bare[: len(values)] = values
            lowers[kind].append(bare)
        if report:
            hi, lo = pair
            report(
                bounds.BoundsReport(n, level_size(n), bounds.exact_count(hi, lo), was_kept, time.perf_counter() - start)
            )


def _solve_bounds(
    n: int, gs: int, lowers: dict[str, list[mmap.mmap]], bug: int, use_c: bool, jobs: int = 1
) -> tuple[bytes, bytes]:
    """Level n's bounds from the levels below (bare values): the C kernel's, or the sweeps'."""
    if use_c:
        return solve_bounds_c(n, gs, lowers["hi"], lowers["lo"], bug, jobs)

    def lookup(kind: str) -> kernel.Lookup:
        return lambda m, r: store.signed(lowers[kind][m][r])

    return bounds.solve_level(n, gs, lookup("hi"), lookup("lo"), bug)


def print_report(line: LevelReport) -> None:
    print(line.line(), file=sys.stderr, flush=True)


def print_progress(n: int, t: int, members: int, layers: int, seconds: float) -> None:
    print(
        f"level {n:2d}: threshold {t}, {members:,} boards decided within {layers} plies, {seconds:.1f} s",
        file=sys.stderr,
        flush=True,
    )
