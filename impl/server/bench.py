"""Server benchmark (``make bench``): concurrent random games over loopback.

For each engine kind, game and concurrency C, a server process hosts C servers
(``forever``, ephemeral ports) and this process runs C pairs of players that play
random games by trial (a refused move is followed by another), back to back, until
about N games are played in all (at least one per pair).  Reported: games per
second of wall time (connecting and seating included), and the round trip of each
accepted move — from sending it to reading its 20x — at p50 and p99.  Players and
server share the machine's cores.

The spec engine referees through the executable Z, orders of magnitude slower
than impl: its runs stop at 100 concurrent games (``SPEC_MAX``).

    python -m impl.server.bench [--kinds impl spec] [--concurrency 1 10 100 1000] [--games-impl N]
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import random
import statistics
import time
from dataclasses import dataclass, field
from multiprocessing.connection import Connection

from impl import protocol as P
from impl.engine import GAMES
from impl.game import Side

SPEC_MAX = 100
CONCURRENCY = (1, 10, 100, 1000)


# ─── the server process ────────────────────────────────────────────────────────


def _serve(game: str, kind: str, count: int, pipe: Connection) -> None:
    """Host ``count`` servers of ``game`` until told to stop; report their ports."""
    from impl.engines import get_engine

    from .records import setup_logging
    from .server import GameServer, ServerConfig
    from .session import Settings

    setup_logging("error")

    async def main() -> None:
        engine = get_engine(game, kind)
        servers = [
            GameServer(ServerConfig(Settings(P.VOCABULARIES[game], n), host="127.0.0.1", port=0, forever=True), engine)
            for n in range(count)
        ]
        for server in servers:
            await server.start()
        pipe.send([server.port for server in servers])
        await asyncio.get_running_loop().run_in_executor(None, pipe.recv)

    asyncio.run(main())


# ─── the players ───────────────────────────────────────────────────────────────


@dataclass
class Stats:
    games: int = 0
    rtts: list[float] = field(default_factory=list)


class Player:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer

    @classmethod
    async def seat(cls, port: int, vocab: P.Vocabulary, seat: P.Seat) -> Player:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        player = cls(reader, writer)
        await player.line()  # 000
        writer.write(f"{P.SeatRequest(seat).to_line(vocab)}\r".encode())
        reply = await player.line()
        assert P.parse(reply) == P.Seated(None), reply
        return player

    async def line(self) -> str:
        raw = await self.reader.readline()
        if not raw:
            raise EOFError
        return raw.decode("ascii").rstrip("\r\n")

    async def role(self) -> None:
        """Read up to the 35x."""
        while not isinstance(P.parse(await self.line()), P.Role):
            pass

    def close(self) -> None:
        self.writer.close()


def candidates(game: str, side: int, occupied: set[str], rng: random.Random) -> list[str]:
    """Moves worth trying, in random order: Awari, one's own pits; Gothello, empty
    squares then pass.  The server's 291 tells which are illegal."""
    if game == "awari":
        pits = list("ABCDEF" if side == 0 else "abcdef")
        rng.shuffle(pits)
        return pits
    squares = [f"{f}{r}" for f in "abcde" for r in "12345" if f"{f}{r}" not in occupied]
    rng.shuffle(squares)
    return [*squares, "pass"]


async def _one_game(port: int, game: str, rng: random.Random, stats: Stats) -> None:
    vocab = P.VOCABULARIES[game]
    players = (await Player.seat(port, vocab, P.Seat.FIRST), await Player.seat(port, vocab, P.Seat.SECOND))
    try:
        for p in players:
            await p.role()
        occupied: set[str] = set()
        side, serial = Side.FIRST, 1
        while True:
            mover, other = players[side], players[side.other]
            for token in candidates(game, side, occupied, rng):
                mover.writer.write(f"{P.Action.move(serial, side, token).to_line(vocab)}\r".encode())
                sent = time.perf_counter()
                reply = P.parse(await mover.line())
                if not isinstance(reply, P.Refused):
                    break
            stats.rtts.append(time.perf_counter() - sent)
            await mover.line()
            await other.line()
            if token != "pass":
                occupied.add(token)
            if not isinstance(reply, P.Accepted):
                stats.games += 1
                return
            side = side.other
            if side is Side.FIRST:
                serial += 1
    finally:
        for p in players:
            p.close()


async def _slot(port: int, game: str, seed: int, games: int, stats: Stats) -> None:
    rng = random.Random(seed)
    for _ in range(games):
        await _one_game(port, game, rng, stats)


async def _drive(ports: list[int], game: str, games: int) -> tuple[Stats, float]:
    """Every slot plays ``games`` games back to back; the wall time of the lot."""
    stats = Stats()
    start = time.perf_counter()
    await asyncio.gather(*(_slot(port, game, i, games, stats) for i, port in enumerate(ports)))
    return stats, time.perf_counter() - start


# ─── a run and the table ───────────────────────────────────────────────────────


@dataclass(frozen=True)
class Row:
    kind: str
    game: str
    concurrency: int
    games: int
    games_per_s: float
    moves: int
    p50_ms: float
    p99_ms: float


def run_one(game: str, kind: str, concurrency: int, total: int) -> Row:
    """``concurrency`` slots playing about ``total`` games in all (at least one each)."""
    context = multiprocessing.get_context("spawn")
    ours, theirs = context.Pipe()
    proc = context.Process(target=_serve, args=(game, kind, concurrency, theirs), daemon=True)
    proc.start()
    try:
        ports = ours.recv()
        stats, elapsed = asyncio.run(_drive(ports, game, max(1, total // concurrency)))
    finally:
        ours.send("stop")
        proc.join(timeout=10)
        if proc.is_alive():
            proc.kill()
    rtts = sorted(stats.rtts)
    p50 = statistics.median(rtts) if rtts else float("nan")
    p99 = rtts[min(len(rtts) - 1, int(0.99 * len(rtts)))] if rtts else float("nan")
    return Row(kind, game, concurrency, stats.games, stats.games / elapsed, len(rtts), p50 * 1e3, p99 * 1e3)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m impl.server.bench", description=__doc__.split("\n\n")[0])
    parser.add_argument("--kinds", nargs="+", default=["impl", "spec"], choices=["impl", "spec"])
    parser.add_argument("--games", nargs="+", default=list(GAMES), choices=list(GAMES))
    parser.add_argument("--concurrency", type=int, nargs="+", default=list(CONCURRENCY))
    parser.add_argument("--games-impl", type=int, default=400, metavar="N", help="games per impl run (default 400)")
    parser.add_argument("--games-spec", type=int, default=20, metavar="N", help="games per spec run (default 20)")
    args = parser.parse_args(argv)
    print("| engine | game | concurrent games | games played | games/s | moves timed | move RTT p50 (ms) | p99 (ms) |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for kind in args.kinds:
        for game in args.games:
            for concurrency in args.concurrency:
                if kind == "spec" and concurrency > SPEC_MAX:
                    print(f"| {kind} | {game} | {concurrency} | not run (spec capped at {SPEC_MAX}) | | | | |")
                    continue
                total = args.games_impl if kind == "impl" else args.games_spec
                row = run_one(game, kind, concurrency, total)
                print(
                    f"| {row.kind} | {row.game} | {row.concurrency} | {row.games} | {row.games_per_s:.1f} "
                    f"| {row.moves} | {row.p50_ms:.2f} | {row.p99_ms:.2f} |",
                    flush=True,
                )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
