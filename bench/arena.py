"""Arena benchmark (``make bench``; issue #52): simulated players on a real
``referee arena`` process — each logs in, waits for a round, plays its game with
random legal moves after a think time, and connects again, as a class's programs
do.  Two runs in the same invocation, interleaved: a quiet arena (``--quiet``
players, 4 by default) and a loaded one (``--players``, 100 by default).  Printed:
games stored per hour, move round trips (p50, p99, as the player measures them:
its move sent to its 20x read), the arena process's CPU per game (psutil), the
load generator's own CPU (it must not be the bottleneck), and the loaded run's
ratios to the quiet one.  No assertion: the figures are the reader's.

With ``--postgresql`` (a PostgreSQL server started for the run, as the tests
start one), ``--arenas K`` arena processes share one database, each on its own
port with its share of the players.

    python -m bench.arena [--players 100] [--quiet 4] [--seconds 60] [--round 2] [--think 0.05]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import resource
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import psutil

from bench.server import reconnecting
from impl.engines.registry import get_engine
from impl.game import Side

HERE = Path(__file__).resolve().parents[1]


@dataclass
class Tally:
    games: int = 0
    moves: list[float] = field(default_factory=list)
    refused: int = 0
    last: float = 0.0
    """When the last game ended (time.monotonic)."""


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def _line(reader: asyncio.StreamReader) -> str:
    raw = await asyncio.wait_for(reader.readline(), 600)
    if not raw:
        raise EOFError
    return raw.decode().rstrip("\r\n")


async def player(port: int, name: str, until: float, think: float, tally: Tally, seed: int) -> None:
    """One simulated program: log in, play, connect again until ``until``."""
    engine, rng = get_engine("gothello"), random.Random(seed)
    async for reader, writer in reconnecting(port, lambda: time.monotonic() < until, 0.2):
        try:
            await _line(reader)
            writer.write(f'0.9.1 player ? "{name}:pw"\r'.encode())
            if not (await _line(reader)).startswith("10"):
                tally.refused += 1
                await asyncio.sleep(0.5)
                continue
            role = await _line(reader)
            me = Side.SECOND if role.startswith("351") else Side.FIRST
            state, plies = engine.initial(), 0
            while True:
                if int(engine.to_move(state)) == int(me):
                    await asyncio.sleep(think * rng.random() * 2)
                    move = engine.format_move(rng.choice(engine.legal_moves(state)))
                    serial = plies // 2 + 1
                    sent = time.perf_counter()
                    writer.write((f"{serial} ... {move}\r" if me is Side.SECOND else f"{serial} {move}\r").encode())
                    await _line(reader)
                    tally.moves.append(time.perf_counter() - sent)
                status = await _line(reader)
                if status[:2] in ("32", "36", "39"):
                    tally.games += 1
                    tally.last = time.monotonic()
                    break
                words = status.split()
                token = words[3] if words[2] == "..." else words[2]
                state = engine.apply(state, engine.parse_move(token))[1]
                plies += 1
        except (TimeoutError, EOFError, OSError):
            await asyncio.sleep(0.2)
        finally:
            writer.close()


@contextlib.contextmanager
def arenas(db: str, count: int, round_every: float, folder: Path) -> Iterator[list[tuple[psutil.Process, int]]]:
    env = {**os.environ, "PYTHONPATH": str(HERE)}
    procs: list[subprocess.Popen[str]] = []
    try:
        found = []
        for _ in range(count):
            argv = [sys.executable, "-m", "impl.cli", "arena", "gothello", "--db", db, "--port", "0", "--round",
                    str(round_every), "--no-anchors", "--log-level", "error", "--new-names", "1000",
                    "--per-address", "1000", "--max-connections", "1001"]  # fmt: skip
            proc = subprocess.Popen(argv, env=env, cwd=folder, stdout=subprocess.PIPE, text=True)
            procs.append(proc)
            assert proc.stdout is not None
            port = int(proc.stdout.readline().split("port ")[1].split(";")[0])
            found.append((psutil.Process(proc.pid), port))
        yield found
    finally:
        for proc in procs:
            proc.send_signal(signal.SIGTERM)
        for proc in procs:
            proc.wait(60)


@dataclass
class Run:
    players: int
    seconds: float
    games: int
    stored: int
    moves: list[float]
    arena_cpu: float
    load_cpu: float

    @property
    def per_hour(self) -> float:
        return 3600 * self.stored / self.seconds

    @property
    def cpu_per_game(self) -> float:
        return self.arena_cpu / max(1, self.stored)


def one_run(players: int, seconds: float, round_every: float, think: float, db: str | None, count: int) -> Run:
    with tempfile.TemporaryDirectory(prefix="bench-arena-") as tmp:
        folder = Path(tmp)
        url = db or str(folder / "arena.db")
        with arenas(url, count, round_every, folder) as procs:
            tally = Tally()
            before = [_cpu(p) for p, _ in procs]
            load_before = resource.getrusage(resource.RUSAGE_SELF)
            start = time.monotonic()

            async def all_players() -> None:
                until = start + seconds
                tasks = [
                    asyncio.ensure_future(player(procs[n % count][1], f"p{n}", until, think, tally, n))
                    for n in range(players)
                ]
                # Past the end, the games under way are played out; a player still waiting for one is stopped.
                await asyncio.wait(tasks, timeout=seconds + 30)
                for task in tasks:
                    task.cancel()
                await asyncio.gather(*tasks, return_exceptions=True)

            asyncio.run(all_players())
            elapsed = max(1e-9, (tally.last or time.monotonic()) - start)  # to the last game's end
            after = [_cpu(p) for p, _ in procs]
            load_after = resource.getrusage(resource.RUSAGE_SELF)
        stored = _stored(url)
    cpu = sum(a - b for a, b in zip(after, before, strict=True))
    load = load_after.ru_utime + load_after.ru_stime - load_before.ru_utime - load_before.ru_stime
    return Run(players, elapsed, tally.games, stored, tally.moves, cpu, load)


def _cpu(process: psutil.Process) -> float:
    """CPU seconds of an arena and of its children alive (the ratings' fitter)."""
    total = 0.0
    for p in (process, *process.children(recursive=True)):
        with contextlib.suppress(psutil.Error):
            times = p.cpu_times()
            total += times.user + times.system
    return total


def _stored(url: str) -> int:
    if "://" in url:
        import sqlalchemy as sa

        engine = sa.create_engine(url)
        with engine.connect() as conn:
            found = int(conn.exec_driver_sql("select count(*) from games").scalar_one())
        engine.dispose()
        return found
    with contextlib.closing(sqlite3.connect(url)) as conn:
        return int(conn.execute("select count(*) from games").fetchone()[0])


def row(label: str, run: Run) -> str:
    ms = [1000 * m for m in run.moves]
    return (
        f"| {label} | {run.players} | {run.stored} | {run.per_hour:,.0f} | {percentile(ms, 0.5):.2f} | "
        f"{percentile(ms, 0.99):.2f} | {1000 * run.cpu_per_game:.1f} | {run.arena_cpu / run.seconds:.2f} | "
        f"{run.load_cpu / run.seconds:.2f} |"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.arena", description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=100)
    parser.add_argument("--quiet", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--round", type=float, default=2.0)
    parser.add_argument("--think", type=float, default=0.05, help="a player's mean seconds a move")
    parser.add_argument("--rounds", type=int, default=2, help="quiet and loaded runs, interleaved")
    parser.add_argument("--postgresql", action="store_true", help="a PostgreSQL server for the run (tests/support)")
    parser.add_argument("--arenas", type=int, default=1, help="arena processes sharing the database")
    args = parser.parse_args(argv)
    db = None
    stack = contextlib.ExitStack()
    if args.postgresql:
        from bench.postgres import postgres

        db = stack.enter_context(postgres()).url
    with stack:
        print(f"Arena: {args.players} players against {args.quiet}, {args.seconds:g} s a run, a round every "
              f"{args.round:g} s, {args.think:g} s mean think, {args.arenas} arena process(es) on "
              f"{'PostgreSQL' if db else 'SQLite'}; {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.2f}")  # fmt: skip
        print()
        print("| run | players | games stored | games/hour | move p50 ms | move p99 ms | arena CPU ms/game "
              "| arena CPU (cores) | load generator CPU (cores) |")  # fmt: skip
        print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
        quiet: list[Run] = []
        loaded: list[Run] = []
        for n in range(args.rounds):
            for kind in ("quiet", "loaded") if n % 2 == 0 else ("loaded", "quiet"):
                players = args.quiet if kind == "quiet" else args.players
                if db is not None:
                    _clear(db)
                run = one_run(players, args.seconds, args.round, args.think, db, args.arenas)
                (quiet if kind == "quiet" else loaded).append(run)
                print(row(f"{kind} {n + 1}", run), flush=True)
        ratio = statistics.median(
            percentile(b.moves, 0.99) / percentile(a.moves, 0.99) for a, b in zip(quiet, loaded, strict=True)
        )
        cpu = statistics.median(b.cpu_per_game / a.cpu_per_game for a, b in zip(quiet, loaded, strict=True))
        print()
        print(f"loaded / quiet, median over rounds: move p99 ×{ratio:.2f}, arena CPU a game ×{cpu:.2f}; "
              f"games an hour loaded: {statistics.median(r.per_hour for r in loaded):,.0f}")  # fmt: skip
    return 0


def _clear(url: str) -> None:
    import sqlalchemy as sa

    engine = sa.create_engine(url)
    with engine.begin() as conn:
        for table in ("ratings", "faults", "games", "rounds", "players", "alembic_version"):
            conn.exec_driver_sql(f"DROP TABLE IF EXISTS {table} CASCADE")
    engine.dispose()


if __name__ == "__main__":
    raise SystemExit(main())
