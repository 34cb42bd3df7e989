"""What workers buy the Gothello solve (``referee tablebase solve --jobs``): the same
exact solve of sample positions (``--empties`` empty points, the split and deepening
of the start's exact solve) with its leaves answered here (``--jobs 1``, one table)
and with ``--jobs J`` (J − 1 worker processes ahead, a table each), each from a
fresh checkpoint: the wall
time, the solver's nodes and CPU, the leaves asked, and the ratio of the walls, all
measured in this run (docs/tablebases.md, "Workers").  Run it on an idle machine:
the ratio is that of the cores free.

    python -m bench.solve_workers [--empties N] [--positions P] [--jobs J] [--quick]"""

from __future__ import annotations

import argparse
import contextlib
import io
import random
import tempfile
import time
from pathlib import Path

from bench.engines import machine
from impl.apps import solve as V
from impl.engines import gothello_endgame as GE
from impl.engines import gothello_solve as S
from impl.engines.gothello_certificate import Position


def one(root: Position, jobs: int, bits: int, folder: Path) -> tuple[float, int, float, int]:
    """(wall seconds, nodes, CPU seconds, leaves) of the exact solve of ``root``."""
    path = folder / f"{root[0]:x}-{root[1]:x}-{jobs}.json"
    start = time.perf_counter()
    with contextlib.redirect_stdout(io.StringIO()):
        V.solve(path, 2, bits, True, 7, say=False, root=root, deepen=1, jobs=jobs)
    wall = time.perf_counter() - start
    checkpoint = V.Checkpoint.load(path)
    return wall, checkpoint.nodes, checkpoint.seconds, len(checkpoint.leaves)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.solve_workers", description="solve workers benchmark")
    parser.add_argument("--empties", type=int, default=17, help="empty points of each position (default 17)")
    parser.add_argument("--positions", type=int, default=3, help="sample positions (default 3)")
    parser.add_argument("--jobs", type=int, default=2, help="--jobs J (default 2: this process and one worker)")
    parser.add_argument("--bits", type=int, default=22, help="each table's --table-bits (default 22)")
    parser.add_argument("--quick", action="store_true", help="12 empty points, one position: a smoke test")
    args = parser.parse_args(argv)
    if S.load() is None:
        print("no C compiler: the compiled solver cannot be measured")
        return 1
    empties, positions = (12, 1) if args.quick else (args.empties, args.positions)
    print(f"The Gothello solve with --jobs 1 and --jobs {args.jobs}: {positions} positions of {empties} empty")
    print(f"points, exact, split 2, --deepen 1, tables of 2^{args.bits + 1} entries")
    print(f"Machine: {machine()}")
    print()
    print("| position | value | --jobs 1: wall | nodes | leaves | --jobs J: wall | nodes | CPU | leaves | wall ratio |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    walls = [0.0, 0.0]
    with tempfile.TemporaryDirectory() as scratch:
        for k in range(positions):
            state = GE.sample(random.Random(1000 + k), empties)
            root = (state[0], state[1], 0)
            here = one(root, 1, args.bits, Path(scratch))
            there = one(root, args.jobs, args.bits, Path(scratch))
            value = V.Checkpoint.load(Path(scratch) / f"{root[0]:x}-{root[1]:x}-1.json").result.get("value")
            walls = [walls[0] + here[0], walls[1] + there[0]]
            print(
                f"| {k + 1} | {value} | {here[0]:.1f} s | {here[1]:,} | {here[3]:,} | {there[0]:.1f} s | "
                f"{there[1]:,} | {there[2]:.1f} s | {there[3]:,} | {here[0] / there[0]:.2f} |",
                flush=True,
            )
    print()
    ratio = walls[0] / walls[1]
    print(f"All: {walls[0]:.1f} s with --jobs 1, {walls[1]:.1f} s with --jobs {args.jobs}: {ratio:.2f}× the speed")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
