"""Per-connection read-rate limits (impl/server/net.py): the token bucket on its own
with the time passed in, then over a real socket — a flooder is slowed, not closed,
and a game next to it goes on.  No assertion on durations: the socket tests bound
counts by the budget over a window the test itself measures (longer under load,
never shorter than the server's)."""

from __future__ import annotations

import asyncio
import contextlib
import random

import pytest

from impl.config import Limits, NetLimits
from impl.server.net import TokenBucket
from impl.server.server import GameServer
from tests.support.netclient import Client, on_server, play_random, seat, seat_players

# One engine (the default): the limits are the framing layer's, the same for every engine.


def test_a_full_bucket_allows_its_burst_then_waits_for_the_debt() -> None:
    bucket = TokenBucket.full(rate=10.0, burst=5.0, now=100.0)
    assert bucket.wait(100.0) == 0
    bucket = bucket.take(5, 100.0)
    assert bucket.wait(100.0) == 0  # exactly empty is not in debt
    bucket = bucket.take(3, 100.0)
    assert bucket.wait(100.0) == pytest.approx(0.3)
    assert bucket.wait(100.1) == pytest.approx(0.2)
    assert bucket.wait(100.31) == 0


def test_a_bucket_refills_at_its_rate_up_to_its_burst() -> None:
    bucket = TokenBucket.full(rate=2.0, burst=4.0, now=0.0).take(4, 0.0)
    assert bucket.level_at(1.0) == pytest.approx(2.0)
    assert bucket.level_at(1000.0) == 4.0  # idle time saves no more than the burst
    bucket = bucket.take(10, 1000.0)
    assert bucket.wait(1000.0) == pytest.approx(3.0)


def test_a_bucket_ignores_a_clock_that_goes_back() -> None:
    bucket = TokenBucket.full(rate=1.0, burst=1.0, now=10.0).take(2, 10.0)
    assert bucket.level_at(5.0) == -1.0
    assert bucket.take(0, 5.0).stamp == 10.0
    assert bucket.wait(11.01) == 0


def test_the_default_budgets_exceed_what_a_protocol_client_sends() -> None:
    """A hundred longest lines a second fit the byte rate; a burst of 128 of them
    fits the byte burst; the refusal burst is reached before the garbage bound."""
    limits = NetLimits()
    assert 100 * (limits.max_line + 1) <= limits.read_rate
    assert 128 * (limits.max_line + 1) <= limits.read_burst + 128
    assert limits.refusal_burst < Limits().max_rejected


async def _answered(client: Client, window: float) -> int:
    """Lines the server sends ``client`` within ``window`` seconds."""
    count = 0
    loop = asyncio.get_running_loop()
    end = loop.time() + window
    while (left := end - loop.time()) > 0:
        try:
            await client.line(timeout=left)
        except TimeoutError:
            break
        count += 1
    return count


@on_server(
    "gothello", limits=Limits(max_rejected=10**9), net=NetLimits(close_grace=1.0, refusal_rate=4, refusal_burst=10)
)
async def test_a_garbage_flood_is_answered_at_the_refusal_rate_and_not_closed(server: GameServer) -> None:
    """500 garbage lines at once: only the burst and the rate's share of the window
    are answered, and the connection stays open and keeps being answered."""
    loop = asyncio.get_running_loop()
    flooder = await Client.connect(server.port)
    await flooder.expect(0)
    start = loop.time()
    await flooder.send_raw(b"garbage\r" * 500)
    answered = await _answered(flooder, 1.0)
    bound = 10 + 4 * (loop.time() - start) + 1
    assert 10 <= answered <= bound
    assert all(line.startswith("199 Request not understood") for line in flooder.seen[1:])
    assert await flooder.line()  # slowed, not closed: the next refusal comes


@on_server(
    "gothello",
    limits=Limits(max_rejected=10**9),
    net=NetLimits(close_grace=1.0, read_rate=6000, read_burst=6000, refusal_rate=0),
)
async def test_a_byte_flood_is_read_at_the_byte_rate(server: GameServer) -> None:
    """2 MB of over-long lines (each refused once): within a window the server reads
    at most the burst, the rate's share and one read beyond them (asyncio reads at
    most 256 KiB at a time), so answers far fewer than the 3 400 lines sent."""
    loop = asyncio.get_running_loop()
    flooder = await Client.connect(server.port)
    await flooder.expect(0)
    line = b"x" * 600 + b"\r"
    start = loop.time()
    flooder.writer.write(line * 3400)  # not drained: the server is not to read it all
    answered = await _answered(flooder, 1.0)
    bound = (6000 + 6000 * (loop.time() - start) + 256 * 1024) / len(line) + 1
    assert 1 <= answered <= bound
    assert answered < 3400
    assert all(text.startswith("199 Request not understood (line too long)") for text in flooder.seen[1:])


@on_server("gothello", limits=Limits(max_rejected=10**9))
async def test_a_game_next_to_a_flooder_plays_to_the_end(server: GameServer) -> None:
    """Default limits: an observer floods garbage and reads its refusals while a
    game is played by trial (with its own refused moves, 291, which are not
    rate-limited); the game ends, and the flooder, slowed but not closed, gets the
    game's last status line like any observer."""
    flooder, _ = await seat(server.port, "0.9.1 observer")
    players = await seat_players(server.port, "gothello")
    received = bytearray()

    async def flood() -> None:
        with contextlib.suppress(ConnectionError):
            while True:
                await flooder.send_raw(b"garbage\r" * 64)

    async def drain() -> None:
        with contextlib.suppress(ConnectionError):
            while data := await flooder.reader.read(65536):
                received.extend(data)

    loop = asyncio.get_running_loop()
    start = loop.time()
    flooding, draining = asyncio.ensure_future(flood()), asyncio.ensure_future(drain())
    record = await play_random("gothello", players, random.Random(7))
    await asyncio.wait_for(draining, 10)  # the server closes every connection at the end
    flooding.cancel()
    limits = NetLimits()
    bound = limits.refusal_burst + limits.refusal_rate * (loop.time() - start) + 1
    assert record.status[:2] == "32"
    lines = received.decode("ascii").split("\r\n")
    assert record.status in lines
    assert 0 < sum(line.startswith("299 Request not understood") for line in lines) <= bound
