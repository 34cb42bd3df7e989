"""Web view benchmark (``make bench``): does watching slow a game down?

A server process runs one referee server and, as ``referee serve … --web`` does,
the web view in a process of its own (impl/web/link.py, impl/web/child.py).
This process plays games on it back to back, two
random players over loopback, and times every move's round trip (sending it to
reading its 20x).  A third process holds V viewers on the server's event stream
(``/events/server/<key>``), each reading everything (``reading``), or none of
them ever reading (``stalled``: they must be dropped, the game unharmed).  Runs
alternate between no viewers and V viewers so that drift in the machine's load
shows.  Reported per run: moves timed, move round trip p50 and p99, the viewers
still connected at the end, the events they received and the feed events the
referee dropped for a web process behind (it is resynchronised after).

    python -m bench.web --table viewers [--games gothello awari] [--viewers 200] [--moves 3000] [--rounds 2]

The default table (``--table isolation``, issues #28 and "Isolation") times a
Gothello game's moves quiet, then under each attack on the web view, in one run:
``servers``, SERVER_FLOOD keep-alive connections of one client asking for
``/api/servers`` back to back; ``records``, RECORD_FLOOD connections of one client
keeping the record queue full (``/api/records`` over a record directory of 5,000
real records and 200 hostile 1 MiB files); ``viewers``, 2,000 viewers of the
server's event stream (from many loopback addresses, VIEWERS_PER_ADDRESS each,
as many browsers would be: one address may hold only a few streams).  Each
condition's p50, p99 and max as ratios to the quiet run of the same round.

    python -m bench.web [--quick] [--moves 1000] [--rounds 1] [--records 5000] [--hostile 200]

``--table clock`` (issue #49): Gothello games on a 0.5 s clock a side, quiet and under
the ``servers`` flood, counting the flags that fell (random players move at once: a
flag falls only by the referee's own delay) and the move round trips as ratios.

    python -m bench.web --table clock [--clock-games 40] [--rounds 2]
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import random
import socket
import statistics
import tempfile
import time
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path

from bench.server import percentile, stop_process
from impl.engines.port import GAMES, GameEngine

SIDES = {"awari": ("south", "north"), "gothello": ("black", "white")}
PAUSE = 0.1
"""Seconds between a reading viewer's reads (so the viewers' own process, on the
same cores as the server, costs what 200 browsers elsewhere would not)."""


# ─── the server process ────────────────────────────────────────────────────────


def _serve(game: str, pipe: Connection, record_dir: Path | None = None, clock: float | None = None) -> None:
    """One server of ``game`` (forever) and the web view; report both ports, then
    the viewers dropped when told to stop.  ``clock``: each side's seconds a game."""
    from impl import protocol as P
    from impl.engines.registry import get_engine
    from impl.log import setup_logging
    from impl.server import fdbudget
    from impl.server.server import GameServer, ServerConfig
    from impl.server.session import Settings
    from impl.web.link import WebLink

    setup_logging("error")
    fdbudget.raise_limit()  # as the serve command does: 2,000 viewers need the descriptors

    async def main() -> None:
        web = WebLink("127.0.0.1", 0, record_dir)
        settings = Settings(P.VOCABULARIES[game], 0, time=None if clock is None else (clock, clock))
        spec = ServerConfig(settings, host="127.0.0.1", port=0, forever=True, session_hooks=(web.session_hook,))
        server = GameServer(spec, get_engine(game, "impl"))
        web.attach([server])
        await server.start()
        web.open()
        web.refresh_servers()
        pipe.send((server.port, web.port))
        loop = asyncio.get_running_loop()
        while await loop.run_in_executor(None, pipe.recv) == "dropped?":
            pipe.send(web.dropped)
        await server.stop()
        web.close()

    asyncio.run(main())


# ─── the viewers' process ──────────────────────────────────────────────────────


def _drain(sock: socket.socket) -> tuple[int, bool]:
    """Read what has arrived, without waiting: the events in it, and whether the
    connection is still open."""
    events = 0
    try:
        while data := sock.recv(1 << 20):
            events += data.count(b"event: ")
    except BlockingIOError:
        return events, True
    except OSError:
        return events, False
    return events, False  # end of stream: the server closed it


def _view(port: int, path: str, count: int, reading: bool, pipe: Connection) -> None:
    """``count`` viewers of ``path``, connected one by one; report when all are,
    then, when told to stop, how many are still connected and the events they got.
    Reading viewers are polled every PAUSE seconds, without blocking (so that this
    process, on the cores the server uses, is not woken by every write); stalled
    ones are read only at the end, to find out which the server has cut off."""
    from impl.server import fdbudget

    fdbudget.raise_limit()
    request = f"GET {path} HTTP/1.1\r\nHost: bench\r\nAccept: text/event-stream\r\n\r\n".encode()
    socks = []
    for number in range(count):
        sock = socket.create_connection(("127.0.0.1", port), source_address=(viewer_address(number), 0))
        sock.sendall(request)
        sock.setblocking(False)
        socks.append(sock)
    pipe.send("ready")
    events, open_ = 0, set(socks)
    while not pipe.poll(PAUSE):
        if reading:
            for sock in list(open_):
                got, alive = _drain(sock)
                events += got
                if not alive:
                    open_.discard(sock)
    pipe.recv()
    for sock in list(open_):
        got, alive = _drain(sock)
        events += got if reading else 0
        if not alive:
            open_.discard(sock)
    pipe.send((len(open_), events))
    for sock in socks:
        sock.close()


VIEWERS_PER_ADDRESS = 8
"""Viewers connecting from one loopback address (under a client's stream cap, admission.ClientLimits)."""


def viewer_address(number: int) -> str:
    """The loopback address viewer ``number`` connects from (127.1.0.0/16 is this machine's)."""
    index = number // VIEWERS_PER_ADDRESS
    return f"127.1.{index // 250}.{index % 250 + 1}"


# ─── the players ───────────────────────────────────────────────────────────────


async def _line(reader: asyncio.StreamReader) -> str:
    raw = await reader.readline()
    if not raw:
        raise EOFError
    return raw.decode("ascii").rstrip("\r\n")


async def _seated(port: int, game: str) -> list[tuple[asyncio.StreamReader, asyncio.StreamWriter]]:
    """Both players of a game seated, once each has read its role (35x)."""
    conns = []
    for name in SIDES[game]:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        await _line(reader)
        writer.write(f"0.9.1 player {name}\r".encode())
        conns.append((reader, writer))
    for reader, _ in conns:
        while not (await _line(reader)).startswith("35"):
            pass
    return conns


async def _game(port: int, game: str, engine: GameEngine, rng: random.Random, rtts: list[float], pace: float) -> None:
    """One game of random legal moves, ``pace`` seconds apart; the round trip of each."""
    conns = await _seated(port, game)
    state, ply = engine.initial(), 0
    while not engine.is_over(state):
        move = rng.choice(engine.legal_moves(state))
        side = ply % 2
        (reader, writer), (other, _) = conns[side], conns[1 - side]
        text = engine.format_move(move)
        writer.write(f"{ply // 2 + 1}{' ...' if side else ''} {text}\r".encode())
        sent = time.perf_counter()
        reply = await _line(reader)
        rtts.append(time.perf_counter() - sent)
        assert reply[0] == "2", reply
        await _line(reader)
        await _line(other)
        _, state = engine.apply(state, move)
        ply += 1
        if pace:
            await asyncio.sleep(pace)
    for _, writer in conns:
        writer.close()


async def _play(port: int, game: str, moves: int, seed: int, pace: float = 0.0) -> list[float]:
    from impl.engines.registry import get_engine

    engine, rng, rtts = get_engine(game, "impl"), random.Random(seed), list[float]()
    while len(rtts) < moves:
        await _game(port, game, engine, rng, rtts, pace)
    return rtts


# ─── a run and the table ───────────────────────────────────────────────────────


@dataclass(frozen=True)
class Row:
    game: str
    viewers: int
    mode: str
    moves: int
    p50_ms: float
    p99_ms: float
    connected: int
    events: int
    dropped: int


def run_one(game: str, viewers: int, mode: str, moves: int, seed: int, pace: float = 0.0) -> Row:
    context = multiprocessing.get_context("spawn")
    server_pipe, theirs = context.Pipe()
    server = context.Process(target=_serve, args=(game, theirs), daemon=True)
    server.start()
    view_proc, view_pipe = None, None
    try:
        game_port, web_port = server_pipe.recv()
        if viewers:
            view_pipe, theirs = context.Pipe()
            path = f"/events/server/{game}-0"
            view_proc = context.Process(
                target=_view, args=(web_port, path, viewers, mode == "reading", theirs), daemon=True
            )
            view_proc.start()
            assert view_pipe.recv() == "ready"
        rtts = sorted(asyncio.run(_play(game_port, game, moves, seed, pace)))
        connected = events = 0
        if view_pipe is not None:
            time.sleep(0.5)  # the last events on their way
            view_pipe.send("stop")
            connected, events = view_pipe.recv()
        server_pipe.send("dropped?")
        dropped = server_pipe.recv()
    finally:
        server_pipe.send("stop")
        for proc in (server, view_proc):
            stop_process(proc, 10)
    p50 = statistics.median(rtts)
    p99 = percentile(rtts, 0.99)
    return Row(game, viewers, mode if viewers else "—", len(rtts), p50 * 1e3, p99 * 1e3, connected, events, dropped)


# ─── the hostile table (issue #28) ─────────────────────────────────────────────

SERVER_FLOOD = 300
"""Keep-alive connections of one client asking for /api/servers, each again as soon as answered."""
RECORD_FLOOD = 64
"""Connections of one client asking for /api/records, each again as soon as answered."""
HOSTILE_BYTES = (1 << 20) - 4096
"""A hostile file: valid tags, then a comment to just under 1 MiB (what once was read whole)."""


def record_directory(directory: Path, records: int, hostile: int, seed: int = 1) -> None:
    """``records`` real records (50 random Gothello games of the fast engine,
    written as the server writes PGN, under distinct names) and ``hostile`` files
    of just under 1 MiB, their modification times interleaved."""
    from impl import pgn
    from impl.engines.registry import get_engine
    from impl.game import Outcome, Side, Termination

    engine = get_engine("gothello", "impl")
    rng, texts = random.Random(seed), []
    for number in range(50):
        state, moves = engine.initial(), list[str]()
        while not engine.is_over(state) and len(moves) < 60:
            move = rng.choice(engine.legal_moves(state))
            moves.append(engine.format_move(move))
            _, state = engine.apply(state, move)
        tags = [("Event", "bench"), ("Game", "gothello"), ("Number", str(number)), ("Black", "a"), ("White", "b")]
        tags += [("Result", "1-0"), ("Termination", "resignation")]
        texts.append(pgn.write(pgn.build("gothello", tags, moves, None, Outcome(Side.FIRST, Termination.RESIGNATION))))
    start = time.time() - records - hostile
    for n in range(records):
        path = directory / f"gothello-0-{n:05d}.pgn"
        path.write_text(texts[n % len(texts)])
        os.utime(path, (start + n, start + n))
    padding = "{" + "x" * (HOSTILE_BYTES - len(texts[0]) - 8) + "} 1-0\n"
    for n in range(hostile):
        path = directory / f"hostile-{n:03d}.pgn"
        path.write_text(texts[0].replace("1-0\n", padding))
        at = start + records - 2 * hostile + 2 * n + 0.5  # among the newest: listed, flagged
        os.utime(path, (at, at))


def _hammer(port: int, path: str, connections: int, pipe: Connection) -> None:
    """One client (one address) asking for ``path`` on ``connections`` keep-alive
    connections back to back until told to stop; report the answers by status."""
    import aiohttp

    async def main() -> dict[int | str, int]:
        statuses: dict[int | str, int] = {}
        stop = asyncio.Event()

        async def client(http: aiohttp.ClientSession) -> None:
            while not stop.is_set():
                try:
                    async with http.get(f"http://127.0.0.1:{port}{path}") as response:
                        await response.read()
                        statuses[response.status] = statuses.get(response.status, 0) + 1
                except (aiohttp.ClientError, OSError):
                    statuses["error"] = statuses.get("error", 0) + 1
                    await asyncio.sleep(0.01)

        async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=connections)) as http:
            tasks = [asyncio.create_task(client(http)) for _ in range(connections)]
            while sum(statuses.values()) < 2 * connections:  # the flood in full swing before the game is timed
                await asyncio.sleep(0.01)
            pipe.send("ready")
            await asyncio.get_running_loop().run_in_executor(None, pipe.recv)
            stop.set()
            await asyncio.gather(*tasks)
        return statuses

    pipe.send(asyncio.run(main()))


FLOODS = {"servers": ("/api/servers", SERVER_FLOOD), "records": ("/api/records", RECORD_FLOOD)}
"""The flooding conditions: the path asked for and the flooding client's connections."""


@dataclass(frozen=True)
class Timed:
    condition: str
    moves: int
    p50_ms: float
    p99_ms: float
    max_ms: float
    note: str


def run_hostile(game: str, condition: str, moves: int, seed: int, record_dir: Path, viewers: int) -> Timed:
    """One server process with the web view over ``record_dir``, and the game's
    moves timed while the condition holds: ``quiet``, ``servers`` (the list of
    servers flooded), ``records`` (the record list flooded) or ``viewers``
    (``viewers`` reading streams)."""
    context = multiprocessing.get_context("spawn")
    server_pipe, theirs = context.Pipe()
    server = context.Process(target=_serve, args=(game, theirs, record_dir), daemon=True)
    server.start()
    other, pipe = None, None
    note = ""
    try:
        game_port, web_port = server_pipe.recv()
        if condition != "quiet":
            pipe, theirs = context.Pipe()
            if condition in FLOODS:
                path, connections = FLOODS[condition]
                other = context.Process(target=_hammer, args=(web_port, path, connections, theirs), daemon=True)
            else:
                path = f"/events/server/{game}-0"
                other = context.Process(target=_view, args=(web_port, path, viewers, True, theirs), daemon=True)
            other.start()
            assert pipe.recv() == "ready"
        rtts = sorted(asyncio.run(_play(game_port, game, moves, seed)))
        if pipe is not None:
            time.sleep(0.5)  # the last events on their way to the viewers
            pipe.send("stop")
            got = pipe.recv()
            if condition in FLOODS:
                note = ", ".join(f"{count} {status}" for status, count in sorted(got.items(), key=str))
            else:
                note = f"{got[0]} of {viewers} viewers connected at the end, {got[1]} events"
    finally:
        server_pipe.send("stop")
        for proc in (server, other):
            stop_process(proc, 10)
    p99 = percentile(rtts, 0.99)
    return Timed(condition, len(rtts), statistics.median(rtts) * 1e3, p99 * 1e3, rtts[-1] * 1e3, note)


def hostile_table(moves: int, rounds: int, records: int, hostile: int, viewers: int) -> None:
    print(
        f"Gothello move round trips, the web view in its own process; servers: {SERVER_FLOOD} keep-alive connections "
        f"of one client on /api/servers; records: {RECORD_FLOOD} of one client on /api/records over {records:,} "
        f"records and {hostile} hostile 1 MiB files; viewers: {viewers:,} event streams. "
        "Ratios are to the quiet run of the same round; the note counts the flooder's answers by status."
    )
    print()
    print("| round | condition | moves | p50 ratio | p99 ratio | max ratio | note |")
    print("|---:|---|---:|---:|---:|---:|---|")
    with tempfile.TemporaryDirectory(prefix="web-bench-") as tmp:
        directory = Path(tmp)
        record_directory(directory, records, hostile)
        for round_no in range(rounds):
            quiet: Timed | None = None
            for condition in ("quiet", *FLOODS, "viewers"):
                row = run_hostile("gothello", condition, moves, round_no, directory, viewers)
                quiet = quiet or row
                ratios = (row.p50_ms / quiet.p50_ms, row.p99_ms / quiet.p99_ms, row.max_ms / quiet.max_ms)
                print(
                    f"| {round_no + 1} | {row.condition} | {row.moves} "
                    f"| {ratios[0]:.2f} | {ratios[1]:.2f} | {ratios[2]:.2f} | {row.note} |",
                    flush=True,
                )


# ─── the clock table (issue #49) ───────────────────────────────────────────────

CLOCK = 0.5
"""Each side's seconds a game in the clock table: random players move at once, so only
the referee's own delays (a starved loop, a hammered web view) can make a flag fall."""


async def _clocked_game(port: int, game: str, engine: GameEngine, rng: random.Random, rtts: list[float]) -> bool:
    """One game of random legal moves on a clock; whether a flag fell (``202 Your time expires``)."""
    conns = await _seated(port, game)
    try:
        state, ply = engine.initial(), 0
        while not engine.is_over(state):
            move = rng.choice(engine.legal_moves(state))
            side = ply % 2
            (reader, writer), (other, _) = conns[side], conns[1 - side]
            writer.write(f"{ply // 2 + 1}{' ...' if side else ''} {engine.format_move(move)}\r".encode())
            sent = time.perf_counter()
            reply = await _line(reader)
            rtts.append(time.perf_counter() - sent)
            if "time expires" in reply:
                return True
            if reply[:3] in ("201", "202", "203") or reply[0] != "2":
                return False
            for stream in (reader, other):
                if "time expires" in await _line(stream):
                    return True
            _, state = engine.apply(state, move)
            ply += 1
        return False
    except EOFError:
        return False
    finally:
        for _, writer in conns:
            writer.close()


async def _clocked(port: int, game: str, games: int, seed: int) -> tuple[list[float], int]:
    from impl.engines.registry import get_engine

    engine, rng, rtts = get_engine(game, "impl"), random.Random(seed), list[float]()
    flags = 0
    for _ in range(games):
        flags += await _clocked_game(port, game, engine, rng, rtts)
    return sorted(rtts), flags


def clock_table(games: int, rounds: int) -> None:
    """Gothello games on a CLOCK-second clock, quiet and while one client hammers
    ``/api/servers`` (SERVER_FLOOD connections): the flags that fell, and the move
    round trips as ratios to the quiet run of the same round."""
    print(
        f"Gothello games on a {CLOCK:g} s clock a side, random players moving at once; servers: {SERVER_FLOOD} "
        "keep-alive connections of one client on /api/servers. Ratios are to the quiet run of the same round."
    )
    print()
    print("| round | condition | games | flags fallen | moves | p50 ratio | p99 ratio | max ratio |")
    print("|---:|---|---:|---:|---:|---:|---:|---:|")
    context = multiprocessing.get_context("spawn")
    for round_no in range(rounds):
        quiet: list[float] | None = None
        for condition in ("quiet", "servers"):
            server_pipe, theirs = context.Pipe()
            server = context.Process(target=_serve, args=("gothello", theirs, None, CLOCK), daemon=True)
            server.start()
            other = None
            try:
                game_port, web_port = server_pipe.recv()
                if condition == "servers":
                    pipe, theirs = context.Pipe()
                    args = (web_port, "/api/servers", SERVER_FLOOD, theirs)
                    other = context.Process(target=_hammer, args=args, daemon=True)
                    other.start()
                    assert pipe.recv() == "ready"
                rtts, flags = asyncio.run(_clocked(game_port, "gothello", games, round_no))
                if other is not None:
                    pipe.send("stop")
                    pipe.recv()
            finally:
                server_pipe.send("stop")
                for proc in (server, other):
                    stop_process(proc, 10)
            quiet = quiet or rtts
            base = (statistics.median(quiet), percentile(quiet, 0.99), quiet[-1])
            now = (statistics.median(rtts), percentile(rtts, 0.99), rtts[-1])
            ratios = " | ".join(f"{n / b:.2f}" for n, b in zip(now, base, strict=True))
            print(f"| {round_no + 1} | {condition} | {games} | {flags} | {len(rtts)} | {ratios} |", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.web", description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--table", choices=["isolation", "viewers", "clock"], default="isolation", help="(default isolation)"
    )
    parser.add_argument("--clock-games", type=int, default=40, metavar="N", help="clock: games a run (default 40)")
    parser.add_argument("--quick", action="store_true", help="hostile: fewer moves, records and viewers, one round")
    parser.add_argument("--records", type=int, default=5000, help="hostile: real records (default 5000)")
    parser.add_argument("--hostile", type=int, default=200, help="hostile: 1 MiB files (default 200)")
    parser.add_argument("--games", nargs="+", default=list(GAMES), choices=list(GAMES))
    parser.add_argument("--viewers", type=int, default=None, metavar="V", help="(default 2000 isolation, 200 viewers)")
    parser.add_argument("--moves", type=int, default=None, metavar="N", help="moves a run (1000, 3000)")
    parser.add_argument("--rounds", type=int, default=None, help="runs of each kind (default 1; viewers: 2)")
    parser.add_argument("--modes", nargs="+", default=["reading", "stalled"], choices=["reading", "stalled"])
    parser.add_argument(
        "--pace", type=float, default=0.0, metavar="SECS", help="pause between moves (default 0: as fast as they go)"
    )
    args = parser.parse_args(argv)
    if args.table == "clock":
        clock_table(args.clock_games, args.rounds or 2)
        return 0
    if args.table == "isolation":
        if args.quick:
            hostile_table(args.moves or 300, 1, min(args.records, 500), min(args.hostile, 20), args.viewers or 500)
        else:
            hostile_table(args.moves or 1000, args.rounds or 1, args.records, args.hostile, args.viewers or 2000)
        return 0
    args.rounds = args.rounds or 2
    args.viewers = args.viewers or 200
    args.moves = args.moves or 3000
    print(
        "| game | viewers | viewers' mode | moves timed | move RTT p50 (ms) | p99 (ms) "
        "| viewers connected at the end | events received | feed events dropped |"
    )
    print("|---|---:|---|---:|---:|---:|---:|---:|---:|")
    for game in args.games:
        for round_no in range(args.rounds):
            for viewers, mode in [(0, "—"), *((args.viewers, m) for m in args.modes)]:
                row = run_one(game, viewers, mode, args.moves, round_no, args.pace)
                print(
                    f"| {row.game} | {row.viewers} | {row.mode} | {row.moves} | {row.p50_ms:.2f} | {row.p99_ms:.2f} "
                    f"| {row.connected} | {row.events} | {row.dropped} |",
                    flush=True,
                )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
