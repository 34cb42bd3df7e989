"""Flood benchmark (``make bench``): one hostile client floods a server at full
speed while a game is played on it; the game's move round trips are compared with
those of the same games on a quiet server.

Floods, each from one unseated connection that reconnects whenever the server
closes it: ``empty`` (bare CRs), ``garbage`` (short junk lines, each refused) and
``long`` (10 MB lines).  The server, the flooder and the players each run in a
process of their own.

    python -m impl.server.flood [--game gothello] [--games N]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import multiprocessing
import random
import statistics
from typing import Any

from .bench import Stats, _one_game, _serve

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
    while not stop.is_set():
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
        except OSError:
            await asyncio.sleep(0.01)
            continue
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


async def _games(port: int, game: str, games: int) -> Stats:
    stats, rng = Stats(), random.Random(1)
    for _ in range(games):
        await _one_game(port, game, rng, stats)
    return stats


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
        if flooder is not None:
            flooder.join(timeout=2)  # a flooder the server is not reading is waiting in a drain
            if flooder.is_alive():
                flooder.kill()
        ours.send("stop")
        proc.join(timeout=10)
        if proc.is_alive():
            proc.kill()
    rtts = sorted(stats.rtts)
    p99 = rtts[min(len(rtts) - 1, int(0.99 * len(rtts)))]
    return statistics.median(rtts) * 1e3, p99 * 1e3, len(rtts), int(sent.value)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m impl.server.flood", description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="gothello", choices=["awari", "gothello"])
    parser.add_argument("--games", type=int, default=20, metavar="N", help="games per run (default 20)")
    args = parser.parse_args(argv)
    print("| flood | moves timed | MB flooded | move RTT p50 (ms) | p99 (ms) |")
    print("|---|---:|---:|---:|---:|")
    for flood in (None, *FLOODS):
        p50, p99, moves, sent = run(args.game, args.games, flood)
        print(f"| {flood or 'none'} | {moves} | {sent / 1e6:.0f} | {p50:.2f} | {p99:.2f} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
