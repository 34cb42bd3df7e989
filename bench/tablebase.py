"""The tablebase benchmark (``make bench``): boards solved per second by the C kernel
(retrograde) and the Python one (sweeps), one process each, their ratio, the build of
every level to ``--stones`` on ``--jobs`` workers, and a probe's time.

    python -m bench.tablebase [--stones N] [--jobs J] [--quick]

Every figure comes from this run, on this machine (docs/tablebases.md, "Speed").
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from pathlib import Path

from bench.engines import machine
from impl.engines.tablebase import build, ckernel
from impl.engines.tablebase.index import level_size, unrank
from impl.engines.tablebase.probe import Table
from spec import awari_rules as AR

RULES = AR.parse_rules("olympiad-1990")


def _levels(folder: Path, stones: int, jobs: int, use_c: bool) -> dict[int, float]:
    """Each level's seconds, built from nothing in ``folder``."""
    seconds: dict[int, float] = {}
    build.build(folder, RULES, stones, jobs, report=lambda r: seconds.__setitem__(r.n, r.seconds), use_c=use_c)
    return seconds


def _probe(folder: Path, stones: int, count: int) -> float:
    """Seconds a lookup (``Table.value``) of a random board of ≤ ``stones`` stones."""
    table = Table(folder, RULES, stones)
    rng = random.Random(7)
    boards = [unrank(rng.randrange(level_size(n)), n) for n in (rng.randint(0, stones) for _ in range(count))]
    start = time.perf_counter()
    for pits in boards:
        table.value(pits)
    return (time.perf_counter() - start) / count


def heading(title: str) -> bool:
    """The title and the machine, and a blank line; False (said in one line instead)
    without a C compiler: the tables' benchmarks measure the C kernel's tables."""
    if ckernel.load() is None:
        print("no C compiler: the C kernel and its tables cannot be measured")
        return False
    print(title)
    print(f"Machine: {machine()}")
    print()
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.tablebase", description="tablebase benchmark")
    parser.add_argument("--stones", type=int, default=16, help="the C kernel's build, levels 0 … N (default 16)")
    parser.add_argument("--python-stones", type=int, default=8, help="the Python kernel's, 0 … N (default 8)")
    parser.add_argument("--jobs", type=int, default=2, help="workers of the whole build (default 2)")
    parser.add_argument("--quick", action="store_true", help="≤ 10 and ≤ 6 stones: a smoke test")
    args = parser.parse_args(argv)
    stones, py_stones = (10, 6) if args.quick else (args.stones, args.python_stones)
    title = f"Tablebase benchmark: {AR.canonical_name(RULES)}, levels built from nothing, values and distances (C)"
    if not heading(title):
        return 1
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        c = _levels(root / "c", stones, 1, True)
        py = _levels(root / "py", py_stones, 1, False)
        print("| level | boards | C kernel, 1 process | boards/s | Python kernel, 1 process | boards/s | C / Python |")
        print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
        for n in range(max(4, py_stones - 2), stones + 1):
            size = level_size(n)
            row = f"| {n} | {size:,} | {c[n]:.3f} s | {size / c[n]:,.0f} |"
            if n in py:
                row += f" {py[n]:.2f} s | {size / py[n]:,.0f} | {py[n] / c[n]:,.0f}x |"
            else:
                row += " — | — | — |"
            print(row, flush=True)
        start = time.perf_counter()
        whole = _levels(root / "jobs", stones, args.jobs, True)
        wall = time.perf_counter() - start
        one = sum(c.values())
        print()
        print(
            f"levels 0 … {stones} ({sum(level_size(n) for n in range(stones + 1)):,} boards): "
            f"{one:.1f} s on 1 process, {wall:.1f} s on {args.jobs} ({one / wall:.2f}x; the levels' own "
            f"{sum(whole.values()):.1f} s)"
        )
        lookup = _probe(root / "c", stones, 100_000)
        print(f"a lookup (Table.value, random boards of ≤ {stones} stones): {lookup * 1e6:.2f} µs")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
