"""Regression guard (issue #51): this checkout against an earlier commit, measured
interleaved in the same run, so that a noisy machine moves both sides alike and the
ratios (new/old) stay readable where absolute figures do not.

The earlier commit is checked out in a temporary git worktree; each side runs from
its own tree (``PYTHONPATH``), pure Python (no mypyc build is used on either side).
Each round measures, for both sides in turn (the order alternating between rounds):

* **server CPU a move**: ``referee serve GAME --forever`` hosting C servers in one
  process (the stable command line both commits share), C concurrent random games
  played against it by this process's load generator (bench/server.py's players,
  each game from an address of its own); the server process's CPU seconds (psutil)
  over the load, divided by the moves played;
* **start-up**: ``referee --version``, its CPU seconds (the children's rusage);
* **perft**: the fast engine's own perft from the initial position, CPU seconds.

Printed: a table of each measure's median per side, the ratio new/old per round,
their median and spread (min–max over rounds).  No assertion: the figures are the
reader's, as in every ``make bench`` table.

    python -m bench.compare BASE [--rounds 4] [--game gothello] [--concurrency 16] [--games 200]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import resource
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from bench.server import Stats, _one_game

HERE = Path(__file__).resolve().parents[1]
FIRST_SERVER = 700
"""Server numbers from here (ports 29746+ / 29768+): clear of ``make serve``'s."""
PERFT_DEPTH = {"gothello": 4, "awari": 6}


def _env(tree: Path) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(tree), "PYTHONDONTWRITEBYTECODE": "1"}


def _ports(game: str, count: int) -> list[int]:
    base = {"awari": 29046, "gothello": 29068}[game]
    return [base + FIRST_SERVER + n for n in range(count)]


def _listening(port: int) -> bool:
    with socket.socket() as probe:
        probe.settimeout(0.2)
        return probe.connect_ex(("127.0.0.1", port)) == 0


async def _load(ports: list[int], game: str, games: int) -> Stats:
    stats = Stats()

    async def slot(i: int, port: int) -> None:
        rng = random.Random(i)
        for _ in range(games):
            await _one_game(port, game, rng, stats, source=f"127.0.0.{10 + i}")

    await asyncio.gather(*(slot(i, port) for i, port in enumerate(ports)))
    return stats


def server_cpu_per_move(tree: Path, game: str, concurrency: int, games: int) -> float:
    """Microseconds of server CPU a move (``referee serve`` from ``tree``)."""
    import psutil

    ports = _ports(game, concurrency)
    numbers = [str(FIRST_SERVER + n) for n in range(concurrency)]
    command = [sys.executable, "-m", "impl.cli", "serve", game, "--forever", "--host", "127.0.0.1", "--quiet"]
    command += ["--per-address", "64", "--server", *numbers]
    server = subprocess.Popen(command, cwd=tree, env=_env(tree), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while not all(_listening(p) for p in ports[-1:]):
            if server.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"{tree}: the server did not start ({' '.join(command)})")
            time.sleep(0.1)
        process = psutil.Process(server.pid)
        before = sum(process.cpu_times()[:2])
        stats = asyncio.run(_load(ports, game, max(1, games // concurrency)))
        spent = sum(process.cpu_times()[:2]) - before
    finally:
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
    return float(1e6 * spent / max(1, len(stats.rtts)))


def _child_cpu(command: list[str], tree: Path) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, cwd=tree, env=_env(tree), check=True, capture_output=True, timeout=600)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def startup_cpu(tree: Path, runs: int = 5) -> float:
    """Milliseconds of CPU of ``referee --version`` (the median of ``runs``)."""
    command = [sys.executable, "-m", "impl.cli", "--version"]
    return 1e3 * statistics.median(_child_cpu(command, tree) for _ in range(runs))


def perft_cpu(tree: Path, game: str) -> float:
    """Seconds of CPU of the fast engine's perft at a fixed depth."""
    depth = PERFT_DEPTH[game]
    code = f"from impl.engines import {game} as E\nE.perft(E.INITIAL, {depth})"
    return _child_cpu([sys.executable, "-c", code], tree)


def worktree(base: str) -> Path:
    """``base`` checked out in a temporary worktree (removed by ``remove``)."""
    where = Path(tempfile.mkdtemp(prefix="zreferee-base-"))
    subprocess.run(["git", "worktree", "add", "--detach", str(where), base], cwd=HERE, check=True, capture_output=True)
    return where


def remove(tree: Path) -> None:
    subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=HERE, capture_output=True)
    shutil.rmtree(tree, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.compare", description=__doc__.split("\n\n")[0])
    parser.add_argument("base", help="the earlier commit (a hash, tag or branch)")
    parser.add_argument("--rounds", type=int, default=4, help="rounds, each side first in half of them (default 4)")
    parser.add_argument("--game", default="gothello", choices=["awari", "gothello"])
    parser.add_argument("--concurrency", type=int, default=16, help="concurrent games (default 16)")
    parser.add_argument("--games", type=int, default=200, help="games a side a round (default 200)")
    args = parser.parse_args(argv)
    try:
        old = worktree(args.base)
    except subprocess.CalledProcessError as exc:
        print(f"bench.compare: cannot check out {args.base}: {exc.stderr.decode().strip()}", file=sys.stderr)
        return 2
    measures: dict[str, Callable[[Path], float]] = {
        f"server CPU a move (µs), {args.concurrency} games": lambda t: server_cpu_per_move(
            t, args.game, args.concurrency, args.games
        ),
        "referee --version CPU (ms)": startup_cpu,
        f"{args.game} perft {PERFT_DEPTH[args.game]} CPU (s)": lambda t: perft_cpu(t, args.game),
    }
    figures: dict[str, dict[str, list[float]]] = {name: {"new": [], "old": []} for name in measures}
    try:
        for round_ in range(args.rounds):
            order = (("new", HERE), ("old", old)) if round_ % 2 == 0 else (("old", old), ("new", HERE))
            for name, measure in measures.items():
                for side, tree in order:
                    figures[name][side].append(measure(tree))
            print(f"round {round_ + 1} of {args.rounds} done", file=sys.stderr, flush=True)
    finally:
        remove(old)
    print(f"\nThis checkout (new) against {args.base} (old), {args.rounds} interleaved rounds:\n")
    print("| measure | new (median) | old (median) | new/old (median) | spread over rounds |")
    print("|---|---:|---:|---:|---|")
    for name, sides in figures.items():
        ratios = [n / o for n, o in zip(sides["new"], sides["old"], strict=True) if o > 0]
        spread = f"{min(ratios):.2f}–{max(ratios):.2f}" if ratios else "n/a"
        median = f"{statistics.median(ratios):.2f}" if ratios else "n/a"
        print(
            f"| {name} | {statistics.median(sides['new']):.3g} | {statistics.median(sides['old']):.3g} "
            f"| {median} | {spread} |"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
