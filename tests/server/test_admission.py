"""Admission of connections (impl/server/admission.py; docs/protocol.md §2): address
groups, the players' reserve, eviction of the biggest group's oldest unseated
connection, and the per-group connection rate — the rules alone, then over real
sockets from several loopback addresses (all of 127/8 reaches 127.0.0.1 on Linux)."""

from __future__ import annotations

import asyncio
import random
import socket

import pytest

from impl import protocol as P
from impl.config import NetLimits
from impl.engines.registry import get_engine
from impl.server.admission import Decision, Holder, Room, StormGuard, Verdict, address_group, decide
from impl.server.server import EVICTED, GameServer, ServerConfig
from impl.server.session import Settings
from tests.support.netclient import Client, fastest_kind, play_moves, play_random, role, run, serving

# ─── the rules alone ────────────────────────────────────────────────────────────


@pytest.mark.parametrize(
    ("host", "bits", "group"),
    [
        ("127.0.0.1", 32, "127.0.0.1"),
        ("203.0.113.77", 24, "203.0.113.0/24"),
        ("203.0.113.77", 0, "0.0.0.0/0"),
        ("::ffff:203.0.113.77", 32, "203.0.113.77"),  # IPv4-mapped: counted as the IPv4 address
        ("::ffff:203.0.113.77", 16, "203.0.0.0/16"),
        ("2001:db8:1:2:aaaa:bbbb:cccc:dddd", 32, "2001:db8:1:2::/64"),
        ("2001:db8:1:2::1", 32, "2001:db8:1:2::/64"),  # the same host's /64: one group
        ("2001:db8:1:3::1", 32, "2001:db8:1:3::/64"),
        ("fe80::1%eth0", 32, "fe80::/64"),
        ("::1", 32, "::/64"),
        ("?", 32, "?"),  # no IP address: its own group
    ],
)
def test_addresses_are_grouped_by_prefix(host: str, bits: int, group: str) -> None:
    assert address_group(host, bits) == group


def test_the_ipv6_prefix_is_a_setting_too() -> None:
    assert address_group("2001:db8:1:2::1", ipv6_bits=48) == "2001:db8:1::/48"
    assert address_group("2001:db8:1:2::1", ipv6_bits=128) == "2001:db8:1:2::1"


def idle(group: str, joined: float) -> Holder:
    return Holder(group, joined, player=False)


def test_a_newcomer_is_admitted_while_there_is_room_for_it() -> None:
    room = Room.of(limit=10, per_address=4, reserve=2)
    assert decide(room, [idle("a", 0.0)] * 3, "b") == Decision(Verdict.ADMIT)
    assert decide(room, [idle("a", 0.0)] * 4, "a") == Decision(Verdict.GROUP_FULL)


def test_the_last_places_are_for_players_only() -> None:
    """Eight unseated of ten with a reserve of two: a newcomer finds no place
    without evicting, though two are free; players do not count against it."""
    room = Room.of(limit=10, per_address=10, reserve=2)
    holders = [idle(g, float(i)) for i, g in enumerate("aabbccdd")]
    assert decide(room, holders, "d").verdict is Verdict.FULL  # no group holds two more than d's
    players = [Holder("p", 0.0, player=True)] * 2
    assert decide(room, [*players, *holders[:7]], "e") == Decision(Verdict.ADMIT)


def test_the_oldest_unseated_of_the_biggest_group_is_evicted() -> None:
    room = Room.of(limit=6, per_address=6, reserve=0)
    holders = [
        Holder("big", 1.0, player=True),  # a seated player: never evicted
        Holder("big", 2.0, player=False, observer=True),
        idle("big", 4.0),
        idle("big", 3.0),
        idle("small", 0.0),
        idle("small", 0.5),
    ]
    assert decide(room, holders, "new") == Decision(Verdict.EVICT, 3)  # unseated before observers, oldest first
    assert decide(room, holders, "small").verdict is Verdict.EVICT  # big holds 4, small 2: two more
    assert decide(room, holders, "big").verdict is Verdict.FULL  # its own group is the biggest


def test_eviction_does_not_swap_two_groups_back_and_forth() -> None:
    room = Room.of(limit=4, per_address=4, reserve=0)
    holders = [idle("a", 0.0), idle("a", 1.0), idle("b", 2.0), idle("c", 3.0)]
    assert decide(room, holders, "b").verdict is Verdict.FULL  # a would only trade places with b
    assert decide(room, holders, "d") == Decision(Verdict.EVICT, 0)


def test_players_and_observers_go_last() -> None:
    room = Room.of(limit=4, per_address=4, reserve=0)
    players = [Holder("a", 0.0, player=True), Holder("a", 1.0, player=True), Holder("a", 2.0, player=True)]
    watcher = Holder("a", 3.0, player=False, observer=True)
    assert decide(room, [*players, watcher], "b") == Decision(Verdict.EVICT, 3)
    assert decide(room, [*players, Holder("a", 3.0, player=True)], "b").verdict is Verdict.FULL


def test_a_group_at_its_share_is_refused_even_when_it_could_evict() -> None:
    room = Room.of(limit=4, per_address=2, reserve=0)
    holders = [idle("a", 0.0), idle("a", 1.0), idle("b", 2.0), idle("b", 3.0)]
    assert decide(room, holders, "a").verdict is Verdict.FULL


def test_the_share_and_reserve_fit_the_limit() -> None:
    assert Room.of(limit=3, per_address=64, reserve=2) == Room(3, 2, 2)
    assert Room.of(limit=1, per_address=64, reserve=2) == Room(1, 1, 0)


def test_the_connection_rate_is_a_token_bucket_per_group() -> None:
    guard = StormGuard(rate=1.0, burst=3.0)
    for _ in range(3):
        assert guard.allows("a", 10.0)
        guard.take("a", 10.0)
    assert not guard.allows("a", 10.0)
    assert guard.allows("b", 10.0)
    assert guard.allows("a", 11.0)
    assert StormGuard(rate=0.0, burst=0.0).allows("a", 0.0)


def test_groups_refilled_are_forgotten_beyond_the_bound() -> None:
    guard = StormGuard(rate=1.0, burst=2.0, keep=2)
    for group in "abc":
        guard.take(group, 0.0)
    guard.take("d", 5.0)
    assert list(guard.groups()) == ["d"]


# ─── over sockets ───────────────────────────────────────────────────────────────


async def connect_from(host: str, port: int) -> Client:
    """A client whose source address is ``host`` (any 127.0.0.x reaches 127.0.0.1)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(host, 0))
    return Client(reader, writer)


async def seat_from(host: str, port: int, request: str) -> Client:
    client = await connect_from(host, port)
    await client.expect(0)
    await client.send(request)
    await client.expect(100)
    return client


async def hold(host: str, port: int, n: int) -> list[Client]:
    held = [await connect_from(host, port) for _ in range(n)]
    for client in held:
        await client.expect(0)
    return held


def test_five_addresses_at_their_limit_leave_a_sixth_to_play() -> None:
    """Five addresses hold every place connections without a seat may take; a
    sixth connects (the oldest connection of a biggest group makes way, told why),
    takes both seats, and plays a game to its end; a seventh arriving during the
    game evicts the holders, never a player."""

    async def scenario() -> None:
        net = NetLimits(close_grace=1.0, max_connections=22, per_address=4, reserve=2)
        async with serving("gothello", fastest_kind(), net=net) as server:
            held = {f"127.0.0.{n}": await hold(f"127.0.0.{n}", server.port, 4) for n in range(1, 6)}
            first = await seat_from("127.0.0.6", server.port, "0.9.1 player black")
            evicted = held["127.0.0.5"][0]  # the biggest groups tie: the greatest name's oldest goes
            assert await evicted.rest() == [f"199 {EVICTED}"]
            second = await seat_from("127.0.0.6", server.port, "0.9.1 player white")
            players = (first, second)
            for client in players:
                assert (await role(client)).startswith("35")
            for _ in range(3):
                late = await connect_from("127.0.0.7", server.port)
                await late.expect(0)
            game = await play_random("gothello", players, random.Random(6))
            assert game.status.startswith("32")

    run(scenario)


def test_a_seated_player_is_never_evicted() -> None:
    async def scenario() -> None:
        net = NetLimits(close_grace=1.0, max_connections=4, per_address=3, reserve=0)
        async with serving("gothello", fastest_kind(), net=net) as server:
            black = await seat_from("127.0.0.1", server.port, "0.9.1 player black")
            white = await seat_from("127.0.0.1", server.port, "0.9.1 player white")
            (spare,) = await hold("127.0.0.1", server.port, 1)
            kept = await hold("127.0.0.2", server.port, 1)  # kept: a client dropped is closed
            kept += await hold("127.0.0.3", server.port, 1)  # 127.0.0.1's spare makes way
            assert await spare.rest() == [f"199 {EVICTED}"]
            refused = await connect_from("127.0.0.4", server.port)  # 127.0.0.1 holds only players now
            assert await refused.rest() == ["199 Server full (at most 4 connections), try again later"]
            players = (black, white)
            for client in players:
                await role(client)
            await play_moves(players, ["c3", "d4"])
            assert len(kept) == 2

    run(scenario)


def test_a_reconnection_storm_is_refused_at_once() -> None:
    async def scenario() -> None:
        net = NetLimits(close_grace=1.0, accept_rate=0.01, accept_burst=3)
        async with serving("gothello", fastest_kind(), net=net) as server:
            for client in await hold("127.0.0.2", server.port, 3):
                await client.close()
            stormer = await connect_from("127.0.0.2", server.port)
            assert await stormer.rest() == ["199 Too many connections from 127.0.0.2 at once, try again later"]
            await hold("127.0.0.3", server.port, 1)  # another group is not slowed

    run(scenario)


def test_ipv4_addresses_share_a_group_by_prefix() -> None:
    async def scenario() -> None:
        net = NetLimits(close_grace=1.0, per_address=2, ipv4_group=24)
        async with serving("gothello", fastest_kind(), net=net) as server:
            kept = await hold("127.0.0.1", server.port, 1)  # kept: a client dropped is closed
            kept += await hold("127.0.0.2", server.port, 1)
            third = await connect_from("127.0.0.3", server.port)
            assert await third.rest() == ["199 Too many connections from 127.0.0.0/24 (at most 2)"]
            await hold("127.0.1.3", server.port, 1)  # another /24
            assert len(kept) == 2

    run(scenario)


def _ipv6_loopback() -> bool:
    try:
        with socket.socket(socket.AF_INET6) as probe:
            probe.bind(("::1", 0))
    except OSError:
        return False
    return True


@pytest.mark.skipif(not _ipv6_loopback(), reason="no IPv6 loopback")
def test_ipv6_connections_are_counted_by_their_64() -> None:
    """Only ::1 here: its group, ::/64, named in the refusal (the grouping of other
    IPv6 addresses: test_addresses_are_grouped_by_prefix)."""

    async def scenario() -> None:
        net = NetLimits(close_grace=1.0, per_address=1)
        spec = ServerConfig(Settings(P.GOTHELLO, 0), host="::1", port=0, net=net)
        server = GameServer(spec, get_engine("gothello", fastest_kind()))
        await server.start()
        try:
            first = Client(*await asyncio.open_connection("::1", server.port))
            await first.expect(0)
            second = Client(*await asyncio.open_connection("::1", server.port))
            assert await second.rest() == ["199 Too many connections from ::/64 (at most 1)"]
        finally:
            await server.stop()

    run(scenario)
