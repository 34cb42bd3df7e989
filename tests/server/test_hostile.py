"""A server that one address cannot lock, faults cannot stop, and stalls cannot
charge to a clock (issue #28): the per-address limit, the wait and write bounds,
rate-limited logging, the descriptor budget, and stalls not charged, over real
sockets (127.0.0.x) and real processes."""

from __future__ import annotations

import asyncio
import contextlib
import errno
import io
import json
import logging
import resource
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from impl import log as logs
from impl import pgn
from impl.apps.serve import build_servers
from impl.cli import build_parser
from impl.config import Limits, NetLimits
from impl.server import server as server_module
from impl.server.clock import Clocks, StallLog
from impl.server.server import GameServer, on_loop_error
from tests.support.netclient import Client, fastest_kind, on_server, play_moves, run, seat, seat_players, serving


async def connect_from(host: str, port: int) -> Client:
    """A client whose source address is ``host`` (any 127.0.0.x reaches 127.0.0.1)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(host, 0))
    return Client(reader, writer)


@pytest.fixture
def log() -> Iterator[io.StringIO]:
    """The referee's JSON log lines, with the rate limiter's memory fresh."""
    logger = logging.getLogger(logs.LOGGER)
    saved = logger.handlers[:], logger.level, logger.propagate
    stream = io.StringIO()
    logs.setup_logging("info", stream)
    logs._seen.clear()
    yield stream
    logger.handlers[:], logger.propagate = saved[0], saved[2]
    logger.setLevel(saved[1])
    logs._seen.clear()


def events(stream: io.StringIO, name: str) -> list[dict[str, object]]:
    lines = [json.loads(line) for line in stream.getvalue().splitlines()]
    return [e for e in lines if e["event"] == name]


@on_server("gothello", net=NetLimits(close_grace=1.0, per_address=3, max_connections=8))
async def test_one_address_at_its_limit_leaves_room_for_another(server: GameServer) -> None:
    held = [await connect_from("127.0.0.1", server.port) for _ in range(3)]
    for client in held:
        await client.expect(0)
    extra = await connect_from("127.0.0.1", server.port)
    assert await extra.line() == "199 Too many connections from 127.0.0.1 (at most 3)"
    assert await extra.eof()
    other = await connect_from("127.0.0.2", server.port)
    assert (await other.expect(0)).startswith("000")
    await held[0].close()  # a place freed is the address's again, once the server has seen it close
    for _ in range(100):
        again = await connect_from("127.0.0.1", server.port)
        if (await again.line()).startswith("000"):
            break
        await asyncio.sleep(0.05)
    else:
        raise AssertionError("the place was not freed")


@on_server("gothello", limits=Limits(wait_timeout=0.3))
async def test_a_seated_player_without_an_opponent_is_closed(server: GameServer) -> None:
    lonely, _ = await seat(server.port, "0.9.1 player black", 100)
    assert await lonely.line() == "199 No opponent within 0.3 s, goodbye"
    assert await lonely.eof()
    black, _ = await seat(server.port, "0.9.1 player black", 100)  # the seat is free again
    _white, _ = await seat(server.port, "0.9.1 player white", 100)
    await black.expect(352)


def test_an_observer_that_never_reads_is_dropped_below_the_write_limit() -> None:
    """Its output stays above ``stalled_output`` for ``write_timeout``: it is cut off,
    though far from ``write_limit``, while the game goes on.  (A raw socket: a
    stream reader would read into its own buffer.)"""

    async def scenario() -> None:
        net = NetLimits(
            close_grace=1.0,
            write_limit=10**8,
            stalled_output=1024,
            write_timeout=0.3,
            send_buffer=4096,
            read_rate=0,
            refusal_rate=0,
        )
        async with serving("gothello", limits=Limits(max_rejected=10**6), net=net) as server:
            players = await seat_players(server.port, "gothello")
            loop = asyncio.get_running_loop()
            hog = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            hog.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
            hog.setblocking(False)
            await loop.sock_connect(hog, ("127.0.0.1", server.port))
            sent = 20_000
            await loop.sock_sendall(hog, b"0.9.1 observer\r" + b"xx\r" * sent)  # each refused (299), never read
            await asyncio.sleep(1.0)
            received = 0
            with contextlib.suppress(ConnectionResetError):
                while chunk := await loop.sock_recv(hog, 65536):
                    received += len(chunk)
            hog.close()
            assert received < sent * len("299 Request not understood\r\n")  # cut off, not served to the end
            await play_moves(players, ["c3", "d4"])

    run(scenario)


def test_server_full_is_logged_once_an_interval_per_address(log: io.StringIO, monkeypatch: pytest.MonkeyPatch) -> None:
    async def scenario() -> None:
        net = NetLimits(close_grace=1.0, max_connections=3, reserve=0)
        async with serving("gothello", net=net) as server:  # one each: no group big enough to lose one
            held = [await connect_from(host, server.port) for host in ("127.0.0.1", "127.0.0.4", "127.0.0.3")]
            for client in held:
                await client.expect(0)
            for _ in range(10):
                refused = await connect_from("127.0.0.2", server.port)
                assert await refused.line() == "199 Server full (at most 3 connections), try again later"
                assert await refused.eof()
            assert len(events(log, "server_full")) == 1
            monkeypatch.setattr(logs, "LOG_INTERVAL", 0.0)
            refused = await connect_from("127.0.0.2", server.port)
            await refused.expect(199)

    run(scenario)
    first, second = events(log, "server_full")
    assert first["address"] == "127.0.0.2" and "suppressed" not in first
    assert second["suppressed"] == 9


def test_loop_errors_are_one_json_line_an_interval(log: io.StringIO) -> None:
    """asyncio reports a failing accept (EMFILE) each time it retries: one line,
    the error named, no traceback on stderr."""
    loop = asyncio.new_event_loop()
    try:
        for _ in range(100):
            exc = OSError(errno.EMFILE, "Too many open files")
            on_loop_error(loop, {"message": "socket.accept() out of system resource", "exception": exc})
    finally:
        loop.close()
    (line,) = events(log, "loop_error")
    assert line["error"] == "the process has no file descriptor left"
    assert "Traceback" not in log.getvalue()


def _low_descriptor_limit() -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (128, 128))


def test_the_descriptor_reserve_keeps_the_record(tmp_path: Path) -> None:
    """A process whose descriptor limit cannot be raised (128): connections are
    capped at its share (128 - 64 reserved; the web view is a process of its own),
    so a flood of connections gets 199 and the finished game's record is still
    written."""
    command = [sys.executable, "-m", "impl.cli", "serve", "gothello", "--port", "0", "--host", "127.0.0.1"]
    command += ["--record", str(tmp_path), "--engine", fastest_kind()]
    proc = subprocess.Popen(command, stderr=subprocess.PIPE, text=True, preexec_fn=_low_descriptor_limit)
    try:
        assert proc.stderr is not None
        lines = [json.loads(proc.stderr.readline()) for _ in range(2)]
        capped, listen = lines
        assert capped["event"] == "max_connections" and capped["connections"] == 64
        port = listen["port"]

        async def scenario() -> None:
            players = await seat_players(port, "gothello")
            flood = [await connect_from(f"127.0.0.{2 + i % 4}", port) for i in range(70)]
            replies = [await client.line() for client in flood]
            assert sum(r.startswith("000") for r in replies) == 64 - 2  # all but the players' reserve
            assert all(r.startswith(("000", "199 Server full")) for r in replies)
            await play_moves(players, ["c3"])
            await players[1].send("resign")
            assert await players[1].expect(204)

        run(scenario)
        assert proc.wait(timeout=20) == 0
        stderr = proc.stderr.read()
    finally:
        proc.kill()
    assert "Traceback" not in stderr
    (record,) = tmp_path.iterdir()
    game = pgn.parse(record.read_text())
    assert game.tag("Termination") == "resignation" and game.moves == ["c3"]


def test_a_stall_of_the_server_is_not_charged_to_the_player(tmp_path: Path) -> None:
    """Black has 2 s.  The loop blocks for 2.5 s before black moves, then again
    while black's move is in flight: black answered at once both times, so it is
    not flagged and keeps most of its time."""

    async def scenario() -> None:
        async with serving("gothello", fastest_kind(), time=(2.0, 2.0), record_dir=tmp_path) as server:
            black, white = await seat_players(server.port, "gothello")
            loop = asyncio.get_running_loop()
            loop.call_soon(time.sleep, 2.5)  # the server's turn: nobody can answer meanwhile
            await asyncio.sleep(0.01)
            await black.send("1 c3")
            assert (await black.line()).startswith("207 1 secs remaining after move c3")
            for client in (black, white):
                await client.expect(313)
            await white.send("1 ... d4")
            await white.expect(207)
            for client in (black, white):
                await client.expect(314)
            loop.call_soon(time.sleep, 2.5)  # runs before the server reads the move
            await black.send("2 b2")
            assert (await black.line()).startswith("207 ")
            await black.expect(313)
            await black.send("resign")
            await black.expect(204)

    run(scenario)
    (record,) = tmp_path.iterdir()
    game = pgn.parse(record.read_text())
    assert game.tag("Termination") == "resignation"
    first, _, second = (ply.clock for ply in game.plies)
    assert first is not None and first > 1.0 and second is not None and second > 0.5


def test_a_record_write_short_of_descriptors_is_retried(
    tmp_path: Path, log: io.StringIO, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first write fails with EMFILE (forced): it is tried again, and the
    record is written."""
    write = server_module.write_record
    failures = [OSError(errno.EMFILE, "Too many open files")]

    def flaky(directory: Path, record: pgn.PgnGame, ended: float) -> Path:
        if failures:
            raise failures.pop()
        return write(directory, record, ended)

    monkeypatch.setattr(server_module, "write_record", flaky)
    monkeypatch.setattr(server_module, "RECORD_RETRY", 0.01)

    async def scenario() -> None:
        async with serving("gothello", record_dir=tmp_path) as server:
            black, _white = await seat_players(server.port, "gothello")
            await black.send("resign")
            await black.expect(204)

    run(scenario)
    (retry,) = events(log, "record_retry")
    assert retry["error"] == "the process has no file descriptor left"
    (record,) = tmp_path.iterdir()
    assert pgn.parse(record.read_text()).tag("Termination") == "resignation"


def test_a_failing_record_write_is_one_line_and_the_server_goes_on(tmp_path: Path, log: io.StringIO) -> None:
    """Records go to a path that is a file: each game's write fails, is logged with
    the reason, and the next game is played."""
    blocked = tmp_path / "records"
    blocked.write_text("not a directory\n")

    async def scenario() -> None:
        async with serving("gothello", forever=True, record_dir=blocked) as server:
            for _ in range(2):
                black, _white = await seat_players(server.port, "gothello")
                await black.send("resign")
                await black.expect(204)
                await black.rest()
            await server.flush()
            assert server.games == 2

    run(scenario)
    failed = events(log, "record_failed")
    assert [e["game_no"] for e in failed] == [1, 2]
    assert all(isinstance(e["error"], str) and "Traceback" not in e["error"] for e in failed)


def test_stall_log_counts_the_stalls_within_a_span() -> None:
    log = StallLog(keep=2)
    log.add(1.0, 2.0)
    log.add(5.0, 5.5)
    log.add(4.0, 4.5)  # out of order: ignored (the monitor adds in time order)
    assert log.within(0.0, 10.0) == 1.5
    assert log.within(1.5, 5.25) == 0.75
    assert log.within(2.0, 5.0) == 0.0
    for start in (6.0, 7.0, 8.0):
        log.add(start, start + 0.5)  # beyond 2 * keep: the oldest two are forgotten
    assert log.within(8.0, 9.0) == 0.5 and log.within(0.0, 10.0) == 1.5


def test_a_clock_is_not_charged_its_stalls_and_its_flag_falls_later() -> None:
    log = StallLog()
    clocks = Clocks((10.0, 10.0), log.within)
    clocks.start(0, 100.0)
    log.add(101.0, 104.0)
    assert clocks.deadline() == 113.0
    assert clocks.left(0, 105.0) == 8.0
    assert clocks.stop(106.0) == 7.0
    clocks.start(1, 106.0)
    assert clocks.stop(107.0) == 9.0  # the stall before its turn is not its own


def test_the_serve_options_reach_the_servers() -> None:
    args = build_parser().parse_args(
        ["serve", "all", "--per-address", "5", "--wait-timeout", "7", "--max-connections", "9", "--ipv4-group", "24"]
    )
    servers = build_servers(args)
    assert [s.spec.net.per_address for s in servers] == [5, 5]
    assert [s.spec.net.ipv4_group for s in servers] == [24, 24]
    assert [s.spec.net.max_connections for s in servers] == [9, 9]
    assert [s.settings.limits.wait_timeout for s in servers] == [7.0, 7.0]
