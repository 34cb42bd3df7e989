"""The engine benchmark (``make bench``): perft counts and leaves per second for both
games and both engines, and the impl/spec speed ratios.

    python -m bench.engines [--runs N] [--quick]

Rows, each timed in a fresh single-threaded process (median of N runs):
* spec, contracts on: the generic perft over the spec's ``referee`` (impl/engines/perft.py);
* spec, contracts off: the same with SPEC_CONTRACTS=0, which must be set before
  spec is imported, hence the subprocesses;
* impl: the fast engine's own perft (every leaf move made in full), in the build
  that ``impl.<game>`` imports (mypyc or pure Python: ``python -m impl.engines._build``);
  when that is the mypyc build, the pure-Python source is timed too;
* impl via interface: the generic perft over the fast engine (the cost of the
  Engine interface itself).

Depths are fixed per row so the counts can be checked against tests/engines/test_perft.py;
leaves per second are compared across rows of different depths.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
"""The checkout, where ``python -m bench.engines`` finds this package."""

# (game, row) → depth, full run and --quick
DEPTHS: dict[tuple[str, str], tuple[int, int]] = {
    ("awari", "spec"): (4, 2),
    ("awari", "impl"): (9, 5),
    ("awari", "interface"): (7, 4),
    ("gothello", "spec"): (3, 1),
    ("gothello", "impl"): (5, 3),
    ("gothello", "interface"): (4, 2),
}


@dataclass(frozen=True)
class Row:
    game: str
    engine: str
    build: str
    depth: int
    count: int
    seconds: float

    @property
    def rate(self) -> float:
        return self.count / self.seconds if self.seconds > 0 else float("inf")


def _worker(game: str, how: str, depth: int, runs: int) -> dict[str, object]:
    """Time perft in this process: how is spec | impl | source | interface."""
    from impl.engines import _build
    from impl.engines import perft as P
    from impl.engines.registry import get_engine

    if how == "spec":
        engine = get_engine(game, "spec")
        build = _build.build_of(game, "spec")

        def run() -> int:
            return P.perft(engine, engine.initial(), depth)
    elif how == "interface":
        engine = get_engine(game, "impl")
        build = _build.build_of(game)

        def run() -> int:
            return P.perft(engine, engine.initial(), depth)
    else:
        module = _build.load_source(game) if how == "source" else __import__(f"impl.engines.{game}", fromlist=["perft"])
        build = "python" if how == "source" else _build.build_of(game)

        def run() -> int:
            return int(module.perft(module.INITIAL, depth))

    times = []
    count = 0
    for _ in range(runs):
        start = time.perf_counter()
        count = run()
        times.append(time.perf_counter() - start)
    return {"count": count, "seconds": statistics.median(times), "build": build}


def measure(game: str, how: str, depth: int, runs: int, contracts: bool = True) -> Row:
    """One row, timed in a fresh single-threaded process (so on one core)."""
    env = dict(os.environ, SPEC_CONTRACTS="1" if contracts else "0")
    command = [sys.executable, "-m", "bench.engines", "--worker", game, how, str(depth), str(runs)]
    data = json.loads(subprocess.run(command, env=env, cwd=ROOT, check=True, capture_output=True, text=True).stdout)
    engine = {"spec": "spec", "impl": "impl", "source": "impl", "interface": "impl via interface"}[how]
    return Row(game, engine, str(data["build"]), depth, int(data["count"]), float(data["seconds"]))


def machine() -> str:
    """The machine the figures come from."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    return f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}, {platform.system()}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.engines", description="perft benchmark")
    parser.add_argument("--runs", type=int, default=3, help="runs per row (the median is reported)")
    parser.add_argument("--quick", action="store_true", help="small depths, one run: a smoke test")
    parser.add_argument("--worker", nargs=4, metavar=("GAME", "HOW", "DEPTH", "RUNS"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        game, how, depth, runs = args.worker
        print(json.dumps(_worker(game, how, int(depth), int(runs))))
        return 0

    from impl.engines import _build

    runs = 1 if args.quick else args.runs
    pick = 1 if args.quick else 0
    print(f"Engine benchmark: perft leaves per second, median of {runs} run(s), one process (one core) per row")
    print(f"Machine: {machine()}")
    print()
    print("| game | engine | build | depth | perft | seconds | leaves/s |")
    print("| --- | --- | --- | ---: | ---: | ---: | ---: |")
    ratios: list[str] = []
    for game in ("awari", "gothello"):
        rows = [
            measure(game, "spec", DEPTHS[game, "spec"][pick], runs, contracts=True),
            measure(game, "spec", DEPTHS[game, "spec"][pick], runs, contracts=False),
            measure(game, "impl", DEPTHS[game, "impl"][pick], runs),
        ]
        if _build.compiled(game):
            rows.append(measure(game, "source", DEPTHS[game, "impl"][pick], runs))
        rows.append(measure(game, "interface", DEPTHS[game, "interface"][pick], runs))
        for r in rows:
            print(
                f"| {r.game} | {r.engine} | {r.build} | {r.depth} | {r.count:,} | {r.seconds:.3f} | {r.rate:,.0f} |",
                flush=True,
            )
        spec_on, spec_off = rows[0].rate, rows[1].rate
        for r in rows[2:]:
            if r.engine == "impl":
                ratios.append(
                    f"{game}: impl ({r.build}) is {r.rate / spec_on:,.0f}x the spec with contracts, "
                    f"{r.rate / spec_off:,.0f}x without"
                )
    print()
    for line in ratios:
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
