"""Flood benchmark (``make bench``): one hostile client floods a server at full
speed while a game is played on it; the game's move round trips are compared with
those of the same games on a quiet server.

Floods, each from one unseated connection that reconnects whenever the server
closes it: ``empty`` (bare CRs), ``garbage`` (short junk lines, each refused) and
``long`` (10 MB lines).  The server, the flooder and the players each run in a
process of their own.

Then a lockout attempt (``hold``): five addresses (127.0.0.1–5) each open as many
connections as the server lets them and keep them, reconnecting at once whenever
one is refused or closed (evicted), while the game is played from a sixth
(127.0.0.6) and a client from a seventh (127.0.0.7) connects every 50 ms: the move
round trips are compared with a quiet run's, the sixth address's games played to
their end are counted, and the seventh's greetings counted and timed.

    python -m bench.flood [--game gothello] [--games N]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import multiprocessing
import random
import statistics
import time
from dataclasses import dataclass, field
from typing import Any

from bench.server import Stats, _one_game, _serve, percentile, reconnecting, stop_process

FLOODS: dict[str, bytes] = {
    "empty": b"\r" * 65536,
    "garbage": b"xyzzy plugh\r" * 5000,
    "long": b"x" * (10 * 1024 * 1024) + b"\r",
}

_PIECE = 1 << 16


def _flood_process(port: int, flood: str, stop: Any, started: Any, sent: Any) -> None:
    """Flood until ``stop`` (a multiprocessing Event) is set; ``started`` is set at
    the first write, ``sent`` (a shared Value) counts the bytes the socket took."""
    asyncio.run(_flood(port, FLOODS[flood], stop, started, sent))


async def _flood(port: int, data: bytes, stop: Any, started: Any, sent: Any) -> None:
    """Write ``data`` over and over, reconnecting when closed.  The server reads a
    flooder at its read rate (NetLimits), so a drain may wait long: ``started``, not
    ``sent``, says the flood is under way."""
    async for reader, writer in reconnecting(port, lambda: not stop.is_set(), 0.01):
        try:
            while not stop.is_set() and not reader.at_eof():
                for at in range(0, len(data), _PIECE):  # the bytes taken are counted as they go
                    writer.write(data[at : at + _PIECE])
                    started.set()
                    await writer.drain()
                    sent.value += len(data[at : at + _PIECE])
        except (ConnectionError, OSError):
            pass
        finally:
            writer.close()
            with contextlib.suppress(ConnectionError, OSError):
                await writer.wait_closed()


async def _games(port: int, game: str, games: int, source: str | None = None) -> Stats:
    stats, rng = Stats(), random.Random(1)
    for _ in range(games):
        await _one_game(port, game, rng, stats, source=source)
    return stats


HOLDING = tuple(f"127.0.0.{n}" for n in range(1, 6))
"""The five addresses that hold the server (all of 127/8 is loopback on Linux)."""
PLAYING = "127.0.0.6"
"""The sixth address, which plays the timed game."""
PROBING = "127.0.0.7"
HOLDERS = 80
"""Connections each holding address keeps trying to hold at once: more than its
share (``per_address``, 64), so that some always retry."""


def _hold_process(port: int, stop: Any, held: Any) -> None:
    asyncio.run(_hold(port, stop, held))


async def _hold(port: int, stop: Any, held: Any) -> None:
    """``HOLDERS`` loops from each of the ``HOLDING`` addresses, each connecting,
    keeping a greeted connection until the server closes it (``held`` counts them),
    and connecting again at once — after a refusal too."""

    async def one(source: str) -> None:
        async for reader, writer in reconnecting(port, lambda: not stop.is_set(), 0.01, source):
            try:
                greeted = (await reader.readline()).startswith(b"000")
                held.value += greeted
                while not stop.is_set():
                    try:
                        data: bytes = await asyncio.wait_for(reader.read(4096), 0.5)
                    except TimeoutError:
                        continue
                    if not data:
                        break
                held.value -= greeted
            except (ConnectionError, OSError):
                pass
            finally:
                writer.close()

    tasks = [asyncio.ensure_future(one(source)) for source in HOLDING for _ in range(HOLDERS)]
    while not stop.is_set():
        await asyncio.sleep(0.05)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


@dataclass
class Probe:
    greeted: list[float] = field(default_factory=list)
    """Seconds from connecting to the greeting, for each greeted try."""
    refused: int = 0


async def _probe(port: int, probe: Probe, done: asyncio.Event) -> None:
    """Connect from ``PROBING`` every 50 ms until ``done``: greeted or refused."""
    while not done.is_set():
        start = time.perf_counter()
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(PROBING, 0))
            first = await reader.readline()
            writer.close()
        except OSError:
            first = b""
        if first.startswith(b"000"):
            probe.greeted.append(time.perf_counter() - start)
        else:
            probe.refused += 1
        await asyncio.sleep(0.05)


@dataclass
class Played:
    stats: Stats
    tried: int
    """Games the sixth address began; ``stats.games`` of them were played to the end."""


async def _games_probed(port: int, game: str, games: int) -> tuple[Played, Probe]:
    """``games`` games from ``PLAYING``, each counted as played or not (refused,
    closed), while ``PROBING`` connects every 50 ms."""
    probe, done = Probe(), asyncio.Event()
    prober = asyncio.ensure_future(_probe(port, probe, done))
    stats, rng = Stats(), random.Random(1)
    try:
        for _ in range(games):
            with contextlib.suppress(AssertionError, EOFError, ConnectionError, OSError):
                await _one_game(port, game, rng, stats, source=PLAYING)
    finally:
        done.set()
        await prober
    return Played(stats, games), probe


def run_hold(game: str, games: int, hold: bool) -> tuple[list[float], Played, Probe, int]:
    """The move round trips (s), the sixth address's games, the seventh's tries,
    and the connections the five addresses held, quiet (``hold`` False) or while
    they hold all they can."""
    context = multiprocessing.get_context("spawn")
    ours, theirs = context.Pipe()
    proc = context.Process(target=_serve, args=(game, "impl", 1, theirs), daemon=True)
    proc.start()
    stop, held = context.Event(), context.Value("q", 0)
    holder = None
    most = 0
    try:
        (port,) = ours.recv()
        if hold:
            holder = context.Process(target=_hold_process, args=(port, stop, held), daemon=True)
            holder.start()
            for _ in range(300):  # until they hold what they can (the count stops rising)
                before = held.value
                time.sleep(0.1)
                if held.value and held.value == before:
                    break
            most = int(held.value)
        played, probe = asyncio.run(_games_probed(port, game, games))
    finally:
        stop.set()
        stop_process(holder, 5)
        ours.send("stop")
        stop_process(proc, 10)
    return sorted(played.stats.rtts) or [float("nan")], played, probe, most


def hold_table(game: str, games: int) -> None:
    """The lockout table: five addresses hold every place they can, reconnecting
    at once; a sixth plays, a seventh connects every 50 ms.  Round trips as ratios
    to a quiet run's (no assertion: the figures are for the reader)."""
    quiet, quiet_played, quiet_probe, _ = run_hold(game, games, False)
    held, played, probe, most = run_hold(game, games, True)
    q50, q99, qmax = statistics.median(quiet), percentile(quiet, 0.99), quiet[-1]
    h50, h99, hmax = statistics.median(held), percentile(held, 0.99), held[-1]
    print()
    print(
        f"| run | held by {HOLDING[0]}-5 | moves timed | RTT p50 (ms) | p99 (ms) | max (ms) "
        f"| games {PLAYING} played | {PROBING} greeted | greeting p50 (ms) | max (ms) |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    runs = (("quiet", quiet, quiet_played, quiet_probe, 0), ("five hold", held, played, probe, most))
    for name, rtts, pl, pr, n in runs:
        tries = len(pr.greeted) + pr.refused
        greet = sorted(pr.greeted) or [float("nan")]
        print(
            f"| {name} | {n} | {len(pl.stats.rtts)} | {statistics.median(rtts) * 1e3:.2f} "
            f"| {percentile(rtts, 0.99) * 1e3:.2f} | {rtts[-1] * 1e3:.2f} | {pl.stats.games}/{pl.tried} "
            f"| {len(pr.greeted)}/{tries} | {statistics.median(greet) * 1e3:.2f} | {greet[-1] * 1e3:.2f} |"
        )
    print(f"\nfive hold / quiet: p50 x{h50 / q50:.2f}, p99 x{h99 / q99:.2f}, max x{hmax / qmax:.2f}", flush=True)


def run(game: str, games: int, flood: str | None) -> tuple[float, float, int, int]:
    """p50 and p99 of the move round trip (ms), moves timed, bytes flooded."""
    context = multiprocessing.get_context("spawn")
    ours, theirs = context.Pipe()
    proc = context.Process(target=_serve, args=(game, "impl", 1, theirs), daemon=True)
    proc.start()
    stop, started, sent = context.Event(), context.Event(), context.Value("q", 0)
    flooder = None
    try:
        (port,) = ours.recv()
        if flood is not None:
            args = (port, flood, stop, started, sent)
            flooder = context.Process(target=_flood_process, args=args, daemon=True)
            flooder.start()
            started.wait(30)  # the flood is under way first
        stats = asyncio.run(_games(port, game, games))
    finally:
        stop.set()
        stop_process(flooder, 2)  # a flooder the server is not reading is waiting in a drain
        ours.send("stop")
        stop_process(proc, 10)
    rtts = sorted(stats.rtts)
    p99 = percentile(rtts, 0.99)
    return statistics.median(rtts) * 1e3, p99 * 1e3, len(rtts), int(sent.value)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.flood", description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="gothello", choices=["awari", "gothello"])
    parser.add_argument("--games", type=int, default=20, metavar="N", help="games per run (default 20)")
    parser.add_argument("--hold-only", action="store_true", help="only the lockout table (five addresses hold)")
    args = parser.parse_args(argv)
    if args.hold_only:
        hold_table(args.game, args.games)
        return 0
    print("| flood | moves timed | MB flooded | move RTT p50 (ms) | p99 (ms) |")
    print("|---|---:|---:|---:|---:|")
    for flood in (None, *FLOODS):
        p50, p99, moves, sent = run(args.game, args.games, flood)
        print(f"| {flood or 'none'} | {moves} | {sent / 1e6:.0f} | {p50:.2f} | {p99:.2f} |", flush=True)
    hold_table(args.game, args.games)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
