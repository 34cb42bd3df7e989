"""Hostile and sloppy clients: line terminators, empty, split, over-long and
non-ASCII lines, floods of garbage, clients that never read, random bytes.  The
connection goes on where the tables allow it, and nothing disturbs other games."""

from __future__ import annotations

import asyncio
import random

import pytest

from impl.config import Limits, NetLimits
from impl.server.server import GameServer
from tests.support import netclient
from tests.support.netclient import Client, on_server, play_moves, play_random, run, seat, seat_players, serving

engine_kind = netclient.engine_kind  # autouse fixture: each test runs with every engine kind


async def goes_on(black: Client) -> None:
    """The connection goes on after a refusal: black's first move is accepted."""
    await black.send("1 c3")
    await black.expect(200)


@pytest.mark.parametrize("end", ["\r", "\n", "\r\n", "\r\r", "\n\n\r"])
@on_server("gothello")
async def test_line_terminators_cr_lf_crlf_and_blank_lines(server: GameServer, end: str) -> None:
    """Any of CR, LF, CRLF ends a request; blank lines (gthd's Python client sends
    ``\\r\\r``) are skipped without a reply."""
    black = await Client.greeted(server.port)
    await black.send("0.9.1 player black", end)
    await black.expect(100)
    _white, _ = await seat(server.port, "0.9.1 player white")
    await black.expect(352)
    await black.send("1 c3", end)
    await black.expect(200)
    await black.expect(311)
    await black.send("", end)
    assert await black.quiet(0.2)


@on_server("gothello")
async def test_requests_split_across_packets(server: GameServer) -> None:
    black = await Client.greeted(server.port)
    for byte in b"0.9 player black\r":
        await black.send_raw(bytes([byte]))
        await asyncio.sleep(0)
    await black.expect(100)
    _white, _ = await seat(server.port, "0.9 player white")
    await black.expect(352)
    await black.send_raw(b"1 c")
    await asyncio.sleep(0.05)
    await black.send_raw(b"3\r1")  # and the start of an out-of-turn line
    await black.expect(200)


@pytest.mark.parametrize("size", [513, 100_000])
@on_server("gothello", net=NetLimits(close_grace=1.0, read_rate=10**7, read_burst=10**7))
async def test_overlong_lines_199_before_seating_299_after(server: GameServer, size: str) -> None:
    """One refusal per over-long line however it arrives; the connection goes on.
    (A higher read rate: at the default, 200 kB would take 2 s.)"""
    black = await Client.greeted(server.port)
    await black.send_raw(b"x" * int(size) + b"\r")
    assert await black.line() == "199 Request not understood (line too long)"
    await black.send("0.9 player black")
    await black.expect(100)
    _white, _ = await seat(server.port, "0.9 player white")
    await black.expect(352)
    for chunk in range(0, int(size), 4096):
        await black.send_raw(b"1" * min(4096, int(size) - chunk))
    await black.send_raw(b"\r")
    assert await black.line() == "299 Request not understood (line too long)"
    await goes_on(black)


@on_server("gothello")
async def test_longest_line_is_accepted(server: GameServer) -> None:
    black = await Client.greeted(server.port)
    await black.send("0.9 player black" + " " * (512 - 16))
    await black.expect(100)


@pytest.mark.parametrize("raw", [b"1 c3\xff", b"\x001 c3", "1 c3 é".encode(), b"1\x1bc3", b"\x80"])
@on_server("gothello")
async def test_non_ascii_and_control_bytes_299(server: GameServer, raw: bytes) -> None:
    black, _white = await seat_players(server.port, "gothello")
    await black.send_raw(raw + b"\r")
    assert await black.line() == "299 Request not understood (non-ASCII or control character)"
    await goes_on(black)


@on_server("awari")
async def test_non_ascii_before_seating_199(server: GameServer) -> None:
    client = await Client.greeted(server.port)
    await client.send_raw('0.9 player south "é"\r'.encode())
    assert (await client.line()).startswith("199 Request not understood (non-ASCII")


@on_server("gothello", limits=Limits(max_rejected=5))
async def test_garbage_bound_closes_an_observer(server: GameServer) -> None:
    obs, _ = await seat(server.port, "0.9 observer")
    for _ in range(4):
        await obs.send("garbage")
        await obs.expect(299)
    await obs.send("garbage")
    await obs.expect(299)
    assert await obs.eof()


@on_server("gothello", limits=Limits(max_rejected=3))
async def test_garbage_bound_resets_on_an_accepted_request(server: GameServer) -> None:
    """The bound counts refusals in a row: an accepted request starts it again."""
    black, white = await seat_players(server.port, "gothello")
    for request in ("nonsense", "nonsense", "1 c3", "nonsense", "nonsense"):
        await black.send(request)
        reply = await black.expect(299, 200)
        if reply.startswith("200"):
            await black.expect(311)
    await white.expect(311)
    await white.send("1 ... d4")
    await white.expect(200)
    await black.expect(312)


@on_server("gothello", limits=Limits(max_rejected=3))
async def test_garbage_bound_on_a_player_is_a_disconnect_391(server: GameServer) -> None:
    black, white = await seat_players(server.port, "gothello")
    for _ in range(3):
        await black.send("9 z9")
    assert [(await black.line())[:3] for _ in range(3)] == ["299"] * 3
    assert await black.eof()
    assert await white.line() == "391 Black disconnected, white wins"


def test_a_client_that_never_reads_is_dropped_and_stalls_nobody() -> None:
    """A seated observer floods requests and reads none of the replies: once its
    unsent output passes the write limit it is cut off, while a game goes on.  (No
    read-rate limit: at 20 refusals a second the output would take hours to pile up.)"""

    async def scenario() -> None:
        limits = Limits(max_rejected=10**9)
        net = NetLimits(write_limit=4096, close_grace=1.0, read_rate=0, refusal_rate=0)
        async with serving("gothello", limits=limits, net=net) as server:
            hog = await Client.connect(server.port, rcvbuf=1024)
            await hog.send("0.9 observer")
            players = await seat_players(server.port, "gothello")

            async def flood() -> bool:
                """Until the server cuts the connection (about 4 MB on Linux loopback)."""
                try:
                    for _ in range(20_000):
                        await hog.send_raw(b"garbage\r" * 256)
                except (ConnectionError, OSError):
                    return True
                return False

            flooding = asyncio.ensure_future(flood())
            record = await play_random("gothello", players, random.Random(5))
            assert record.status[:2] == "32"
            assert await flooding

    run(scenario)


def test_random_bytes_never_break_the_server() -> None:
    """Seeded random byte strings from a player and an observer, then a normal game
    on the same server still plays to the end."""
    rng = random.Random(2024)
    words = [b"1", b"...", b"c3", b"pass", b"resign", b"draw?", b"0.9", b"player", b"observer", b'"', b" ", b"\t"]

    async def scenario() -> None:
        async with serving("gothello", forever=True, limits=Limits(max_rejected=10**6)) as server:
            fuzzer = await Client.connect(server.port)
            observer, _ = await seat(server.port, "0.9 observer")
            for _ in range(300):
                if rng.random() < 0.5:
                    junk = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 40)))
                else:
                    junk = b" ".join(rng.choice(words) for _ in range(rng.randrange(1, 5)))
                await fuzzer.send_raw(junk + rng.choice([b"\r", b"\n", b""]))
                await observer.send_raw(junk + b"\r")
            await fuzzer.close()
            players = await seat_players(server.port, "gothello")
            await players[0].send("resign")
            await players[0].expect(204)
            assert server.games >= 1

    run(scenario)


@on_server("awari")
async def test_idle_and_vanishing_connections_are_harmless(server: GameServer) -> None:
    idle = await Client.connect(server.port)
    for _ in range(5):
        gone = await Client.connect(server.port)
        await gone.close()
    players = await seat_players(server.port, "awari")
    await play_moves(players, ["A", "a"])
    assert await idle.line() == "000 0.9.1 version Awari server says hello!"


@on_server("gothello", net=NetLimits(close_grace=1.0, max_connections=3))
async def test_connections_beyond_the_bound_get_199_and_are_closed(server: GameServer) -> None:
    """NetLimits.max_connections: idle sockets cannot pile up without bound; a
    place freed by a closed connection is taken again, and the game goes on.  (The
    players hold 127.0.0.1's share, ``per_address`` at most the bound less one: the
    others come from 127.0.0.2.)"""
    players = await seat_players(server.port, "gothello")
    idle = Client(*await asyncio.open_connection("127.0.0.1", server.port, local_addr=("127.0.0.2", 0)))
    refused = await Client.connect(server.port)
    assert await refused.rest() == ["199 Server full (at most 3 connections), try again later"]
    await idle.close()
    await asyncio.sleep(0.2)
    observer = Client(*await asyncio.open_connection("127.0.0.1", server.port, local_addr=("127.0.0.2", 0)))
    await observer.expect(0)
    await observer.send("0.9.1 observer")
    await observer.expect(100)
    await play_moves(players, ["c3"])
    while await observer.line() != "311 1 c3 is black move, game continues":
        pass  # its role, the display, then the move
