"""Server benchmark (``make bench``): concurrent random games over loopback.

For each engine kind, game and concurrency C, a server process hosts C servers
(``forever``, ephemeral ports) and this process runs C pairs of players that play
random games by trial (a refused move is followed by another), back to back, until
about N games are played in all (at least one per pair).  Reported: games per
second of wall time (connecting and seating included), and the round trip of each
accepted move — from sending it to reading its 20x — at p50 and p99.  Players and
server share the machine's cores.

The spec engine referees through the executable Z, orders of magnitude slower
than impl, and the checked engine runs both (impl/engines/checked_engine.py): their runs
stop at 100 concurrent games (``SLOW_MAX``).  Both are timed with the spec's
contracts on and off (``--contracts``; SPEC_CONTRACTS in the server process).

Players move as fast as they can by default: the server is saturated, and at many
concurrent games the round trip is mostly queueing behind the other games' moves.
``--think MS`` makes each player wait MS milliseconds before each move instead, the
load of a tournament between programs that think.  With the same pause everywhere and
every game started at once, the games move in lock-step waves; ``--jitter F`` draws
each pause from MS × [1 − F, 1 + F] and ``--ramp S`` starts each pair within the first
S seconds, as players who think for different times and arrive over a while do.
``--load-loop`` runs the players on uvloop too, so that their own loop's delays (part
of every round trip they time) stay small.

    python -m bench.server [--kinds impl spec checked] [--contracts on off]
        [--concurrency 1 10 100 1000] [--games-impl N] [--games-slow N] [--think MS]
        [--jitter F] [--ramp S] [--drivers K] [--loop L] [--load-loop L]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import multiprocessing
import os
import random
import statistics
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

from impl import protocol as P
from impl.config import NetLimits
from impl.engines.port import GAMES, KINDS
from impl.game import Side
from impl.server import loops
from impl.server.loops import LOOPS

SLOW = ("spec", "checked")
"""The kinds that run the spec, capped at SLOW_MAX concurrent games."""
SLOW_MAX = 100
CONCURRENCY = (1, 10, 100, 1000)


# ─── the server process ────────────────────────────────────────────────────────


def stop_process(process: Any, seconds: float) -> None:
    """``process`` (a multiprocessing process, or None) joined within ``seconds``, else killed."""
    if process is None:
        return
    process.join(timeout=seconds)
    if process.is_alive():
        process.kill()


def percentile(ordered: list[float], q: float) -> float:
    """The ``q`` quantile of the sorted, non-empty ``ordered``: its value at index ⌊q·n⌋ (the last at most)."""
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


Streams = tuple[asyncio.StreamReader, asyncio.StreamWriter]


async def reconnecting(
    port: int, going: Callable[[], bool], pause: float, source: str | None = None
) -> AsyncIterator[Streams]:
    """A new connection to the server on ``port`` each time the caller is done with
    the last, while ``going()``; one refused is tried again after ``pause`` seconds.
    From the address ``source`` (127.0.0.x) if given.  The caller closes each."""
    local = (source, 0) if source is not None else None
    while going():
        try:
            streams = await asyncio.open_connection("127.0.0.1", port, local_addr=local)
        except OSError:
            await asyncio.sleep(pause)
            continue
        yield streams


def _cpu() -> float:
    """This process's CPU seconds (user and system)."""
    t = os.times()
    return t.user + t.system


def _serve(
    game: str, kind: str, count: int, pipe: Connection, accept_rate: float | None = None, loop: str = "auto"
) -> None:
    """Host ``count`` servers of ``game`` until told to stop; report their ports.
    ``accept_rate``: each address group's connection tries a second (NetLimits; 0:
    no bound, as for games played back to back from one address), None: the default.
    ``loop``: the event loop, as ``referee serve --loop`` takes it."""
    from impl.engines.registry import get_engine
    from impl.log import setup_logging
    from impl.server.server import GameServer, ServerConfig
    from impl.server.session import Settings

    setup_logging("error")

    net = NetLimits() if accept_rate is None else NetLimits(accept_rate=accept_rate)

    async def main() -> None:
        engine = get_engine(game, kind)
        servers = [
            GameServer(
                ServerConfig(Settings(P.VOCABULARIES[game], n), host="127.0.0.1", port=0, forever=True, net=net),
                engine,
            )
            for n in range(count)
        ]
        for server in servers:
            await server.start()
        loops.settle_heap()  # as referee serve does once it listens
        pipe.send([server.port for server in servers])
        listening = _cpu()
        await asyncio.get_running_loop().run_in_executor(None, pipe.recv)
        with contextlib.suppress(OSError):  # a caller that does not ask has closed its end
            pipe.send(_cpu() - listening)

    loops.run(main(), loops.loop_name(loop))


# ─── the players ───────────────────────────────────────────────────────────────


@dataclass
class Stats:
    games: int = 0
    rtts: list[float] = field(default_factory=list)


class Player:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer

    @classmethod
    async def seat(cls, port: int, vocab: P.Vocabulary, seat: P.Seat, source: str | None = None) -> Player:
        """Seated from the address ``source`` (127.0.0.x), by default the system's choice."""
        local = (source, 0) if source is not None else None
        reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=local)
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


@dataclass(frozen=True)
class Pace:
    """How the players think: ``think`` seconds before each move, each pause drawn from
    think × [1 − jitter, 1 + jitter]; each pair's first game starts within ``ramp`` seconds."""

    think: float = 0.0
    jitter: float = 0.0
    ramp: float = 0.0

    def pause(self, rng: random.Random) -> float:
        return self.think * rng.uniform(1 - self.jitter, 1 + self.jitter) if self.jitter else self.think


async def _one_game(
    port: int, game: str, rng: random.Random, stats: Stats, pace: Pace = Pace(), source: str | None = None
) -> None:
    vocab = P.VOCABULARIES[game]
    players = (
        await Player.seat(port, vocab, P.Seat.FIRST, source),
        await Player.seat(port, vocab, P.Seat.SECOND, source),
    )
    try:
        for p in players:
            await p.role()
        occupied: set[str] = set()
        side, serial = Side.FIRST, 1
        while True:
            mover, other = players[side], players[side.other]
            if pace.think:
                await asyncio.sleep(pace.pause(rng))
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


async def _slot(port: int, game: str, seed: int, games: int, stats: Stats, pace: Pace) -> None:
    rng = random.Random(seed)
    if pace.ramp:
        await asyncio.sleep(rng.uniform(0, pace.ramp))
    for _ in range(games):
        await _one_game(port, game, rng, stats, pace)


async def _drive(ports: list[int], game: str, games: int, pace: Pace = Pace(), first: int = 0) -> tuple[Stats, float]:
    """Every slot plays ``games`` games back to back (the slots' seeds from ``first``);
    the wall time of the lot."""
    stats = Stats()
    start = time.perf_counter()
    await asyncio.gather(*(_slot(port, game, first + i, games, stats, pace) for i, port in enumerate(ports)))
    return stats, time.perf_counter() - start


# ─── a run and the table ───────────────────────────────────────────────────────


@dataclass(frozen=True)
class Row:
    kind: str
    contracts: str
    game: str
    concurrency: int
    games: int
    games_per_s: float
    moves: int
    p50_ms: float
    p99_ms: float
    server_cpu: float = float("nan")
    """The server process's CPU seconds from listening to the load's end."""
    load_cpu: float = float("nan")
    """The players' CPU seconds (every load process)."""


def _driver(ports: list[int], first: int, game: str, games: int, pace: Pace, load_loop: str, pipe: Connection) -> None:
    """One load process: the slots of ``ports`` (seeds from ``first``) play on ``load_loop``;
    it sends back its games, round trips, wall seconds and CPU seconds."""
    stats, elapsed = loops.run(_drive(ports, game, games, pace, first), loops.loop_name(load_loop))
    pipe.send((stats.games, stats.rtts, elapsed, _cpu()))


def run_one(
    game: str,
    kind: str,
    concurrency: int,
    total: int,
    contracts: bool = True,
    pace: Pace = Pace(),
    drivers: int = 1,
    loop: str = "auto",
    load_loop: str = "asyncio",
) -> Row:
    """``concurrency`` slots playing about ``total`` games in all (at least one each),
    the server process running the spec with its contracts on or off, on ``loop``, the
    players on ``load_loop``.
    ``drivers`` > 1: the slots are shared among that many load processes, so that
    the players are not the bottleneck; the row then says the server's and the
    players' CPU."""
    context = multiprocessing.get_context("spawn")
    ours, theirs = context.Pipe()
    proc = context.Process(target=_serve, args=(game, kind, concurrency, theirs, 0.0, loop), daemon=True)
    saved = os.environ.get("SPEC_CONTRACTS")
    os.environ["SPEC_CONTRACTS"] = "1" if contracts else "0"  # read by spec/contracts.py as the child imports it
    try:
        proc.start()
    finally:
        if saved is None:
            del os.environ["SPEC_CONTRACTS"]
        else:
            os.environ["SPEC_CONTRACTS"] = saved
    server_cpu = load_cpu = float("nan")
    try:
        ports = ours.recv()
        each = max(1, total // concurrency)
        if drivers <= 1:
            before = _cpu()
            stats, elapsed = loops.run(_drive(ports, game, each, pace), loops.loop_name(load_loop))
            load_cpu = _cpu() - before
        else:
            stats, elapsed, load_cpu = _drive_apart(context, ports, game, each, pace, drivers, load_loop)
    finally:
        ours.send("stop")
        if ours.poll(10):
            server_cpu = ours.recv()
        stop_process(proc, 10)
    rtts = sorted(stats.rtts)
    p50 = statistics.median(rtts) if rtts else float("nan")
    p99 = percentile(rtts, 0.99) if rtts else float("nan")
    label = "n/a" if kind == "impl" else "on" if contracts else "off"
    return Row(
        kind, label, game, concurrency, stats.games, stats.games / elapsed, len(rtts), p50 * 1e3, p99 * 1e3,
        server_cpu, load_cpu,
    )  # fmt: skip


def _drive_apart(
    context: Any, ports: list[int], game: str, games: int, pace: Pace, drivers: int, load_loop: str
) -> tuple[Stats, float, float]:
    """The slots shared among ``drivers`` processes: their stats together, the wall
    time of the slowest and their CPU seconds in all."""
    pipes, procs = [], []
    for d in range(drivers):
        ours, theirs = context.Pipe()
        share = ports[d::drivers]
        procs.append(context.Process(target=_driver, args=(share, d * 100_000, game, games, pace, load_loop, theirs)))
        pipes.append(ours)
    for p in procs:
        p.start()
    stats, elapsed, cpu = Stats(), 0.0, 0.0
    for ours in pipes:
        played, rtts, seconds, spent = ours.recv()
        stats.games += played
        stats.rtts.extend(rtts)
        elapsed, cpu = max(elapsed, seconds), cpu + spent
    for p in procs:
        stop_process(p, 10)
    return stats, elapsed, cpu


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.server", description=__doc__.split("\n\n")[0])
    parser.add_argument("--kinds", nargs="+", default=list(KINDS), choices=KINDS)
    parser.add_argument("--contracts", nargs="+", default=["on", "off"], choices=["on", "off"])
    parser.add_argument("--games", nargs="+", default=list(GAMES), choices=list(GAMES))
    parser.add_argument("--concurrency", type=int, nargs="+", default=list(CONCURRENCY))
    parser.add_argument("--games-impl", type=int, default=400, metavar="N", help="games per impl run (default 400)")
    parser.add_argument(
        "--games-slow", type=int, default=20, metavar="N", help="games per spec or checked run (default 20)"
    )
    parser.add_argument("--think", type=float, default=0.0, metavar="MS", help="each player's pause before a move")
    parser.add_argument(
        "--drivers", type=int, default=1, metavar="K", help="load processes sharing the players (default 1)"
    )
    parser.add_argument(
        "--jitter", type=float, default=0.0, metavar="F", help="each pause drawn from MS × [1 − F, 1 + F] (default 0)"
    )
    parser.add_argument(
        "--ramp", type=float, default=0.0, metavar="S", help="start each pair within the first S seconds (default 0)"
    )
    parser.add_argument("--loop", default="auto", choices=LOOPS, help="the server's event loop (default auto)")
    parser.add_argument(
        "--load-loop", default="asyncio", choices=LOOPS, help="the players' event loop (default asyncio)"
    )
    args = parser.parse_args(argv)
    print(
        "| engine | contracts | game | concurrent games | games played | games/s | moves timed "
        "| move RTT p50 (ms) | p99 (ms) | server CPU a move (µs) | players' CPU (s) |"
    )
    print("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for kind in args.kinds:
        for contracts in ["on"] if kind == "impl" else args.contracts:  # impl runs no contract
            for game in args.games:
                for concurrency in args.concurrency:
                    _row(args, kind, contracts == "on", game, concurrency)
    return 0


def _row(args: argparse.Namespace, kind: str, contracts: bool, game: str, concurrency: int) -> None:
    if kind in SLOW and concurrency > SLOW_MAX:
        label = "on" if contracts else "off"
        print(f"| {kind} | {label} | {game} | {concurrency} | not run ({kind} capped at {SLOW_MAX}) | | | | | | |")
        return
    total = args.games_impl if kind == "impl" else args.games_slow
    pace = Pace(args.think / 1e3, args.jitter, args.ramp)
    row = run_one(game, kind, concurrency, total, contracts, pace, args.drivers, args.loop, args.load_loop)
    per_move = 1e6 * row.server_cpu / max(1, row.moves)
    print(
        f"| {row.kind} | {row.contracts} | {row.game} | {row.concurrency} | {row.games} | {row.games_per_s:.1f} "
        f"| {row.moves} | {row.p50_ms:.2f} | {row.p99_ms:.2f} | {per_move:.0f} | {row.load_cpu:.1f} |",
        flush=True,
    )


if __name__ == "__main__":
    raise SystemExit(main())
