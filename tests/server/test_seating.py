"""Greeting and seating over sockets (Tables 1–5): 000, 100, 191, 192, 193, 198,
199, the configuration messages 341–344 and the roles 351–353."""

from __future__ import annotations

import pytest

from impl import protocol as P
from impl.config import ConfigMessages, Limits
from impl.server.server import GameServer
from tests.support import netclient
from tests.support.netclient import Client, on_server, read_display, role, run, seat, seat_players, serving

engine_kind = netclient.engine_kind  # autouse fixture: each test runs with every engine kind


GAMES = ("awari", "gothello")


@pytest.mark.parametrize(("game", "title"), [("awari", "Awari"), ("gothello", "Gothello")])
def test_greeting_000(game: str, title: str) -> None:
    """Table 1, worded exactly as gthd words it."""

    async def scenario() -> None:
        async with serving(game) as server:
            client = await Client.connect(server.port)
            assert await client.line() == f"000 0.9.1 version {title} server says hello!"

    run(scenario)


@pytest.mark.parametrize("version", ["0.9", "0.9.0", "0.9.1", "0.9.1.0", "0.8", "0.1.99", "00.9"])
@on_server("gothello")
async def test_versions_up_to_ours_are_accepted_100(server: GameServer, version: str) -> None:
    _, reply = await seat(server.port, f"{version} player white", 100)
    assert reply == "100 Request accepted"


@pytest.mark.parametrize("version", ["0.9.2", "0.10", "1.0", "0.9.1.1", "0.9a", "1", "v0.9", "0..9", "-0.9", "."])
@on_server("awari")
async def test_greater_or_malformed_versions_get_198_and_may_retry(server: GameServer, version: str) -> None:
    client, reply = await seat(server.port, f"{version} player south", 198)
    assert reply.startswith(f"198 Illegal version number (expected 0.9.1 or lower, got {version})")
    await client.send("0.9 player south")
    await client.expect(100)


@pytest.mark.parametrize(
    ("game", "line"),
    [
        ("gothello", "hello"),
        ("gothello", "0.9"),
        ("gothello", "0.9 player"),
        ("gothello", "0.9 player green"),
        ("gothello", "0.9 player north"),
        ("awari", "0.9 player white"),
        ("gothello", "0.9 player White"),
        ("gothello", "0.9 player white bob"),
        ("gothello", '0.9 player white "bob'),
        ("gothello", '0.9 player white "bob" "al"'),
        ("gothello", '0.9 observer "' + "x" * 32 + '"'),
        ("gothello", "player white"),
        ("gothello", "1 c3"),
    ],
)
def test_garbled_seat_requests_get_199_and_may_retry(game: str, line: str) -> None:
    async def scenario() -> None:
        async with serving(game) as server:
            client, reply = await seat(server.port, line, 199)
            assert reply.startswith("199 Request not understood")
            await client.send(f"0.9 player {P.VOCABULARIES[game].sides[0]}")
            await client.expect(100)

    run(scenario)


def test_names_up_to_31_characters_with_escaped_quotes() -> None:
    """The 31-character bound counts the name unescaped; names come back quoted in 341–343."""
    longest = '"' + "q" * 29 + '""x"'  # 29 + 1 + 1 = 31 characters

    async def scenario() -> None:
        async with serving("gothello", config=ConfigMessages.ALL) as server:
            obs, _ = await seat(server.port, f"0.9 observer {longest}")
            white, _ = await seat(server.port, '0.9 player white """"')
            black, _ = await seat(server.port, "0.9 player black")
            assert await white.line() == '341 """" white player'
            assert await white.line() == '342 "" black player'
            assert await white.line() == f"343 1 {longest} observer"
            assert await black.line() == '341 """" white player'
            assert [(await obs.line())[:3] for _ in range(4)] == ["341", "342", "343", "344"]

    run(scenario)


@on_server("gothello")
async def test_requested_side_taken_191_then_other_side(server: GameServer) -> None:
    _holder, _ = await seat(server.port, "0.9 player white")
    client, reply = await seat(server.port, "0.9 player white", 191)
    assert reply == "191 Other player holds requested side"
    await client.send("0.9 player black")
    await client.expect(100)
    assert await client.line() == "352 You will play black"


@on_server("awari")
async def test_both_seats_taken_192_for_any_player_request(server: GameServer) -> None:
    players = await seat_players(server.port, "awari")
    assert players
    for request in ("0.9 player south", "0.9 player north", "0.9 player ?"):
        _, reply = await seat(server.port, request, 192)
        assert reply == "192 There are already two players"


@on_server("gothello", limits=Limits(max_observers=2))
async def test_observer_cap_193(server: GameServer) -> None:
    """Observers beyond the cap get 193; a freed place can be taken again."""
    first, _ = await seat(server.port, "0.9 observer")
    _second, _ = await seat(server.port, "0.9 observer")
    client, reply = await seat(server.port, "0.9 observer", 193)
    assert reply == "193 Cannot observe (at most 2 observers)"
    await first.close()
    await client.quiet(0.1)
    await client.send("0.9 observer")
    await client.expect(100)


@on_server("awari")
async def test_either_side_gets_the_free_side(server: GameServer) -> None:
    north, _ = await seat(server.port, "0.9 player north")
    either, _ = await seat(server.port, "0.9 player ?")
    assert await role(either) == "352 You will play south"
    assert await role(north) == "351 You will play north"


def test_both_either_sides_are_drawn_at_random() -> None:
    """Two ``player ?`` get opposite sides, and each side happens (30 trials)."""
    seen = set()

    async def scenario() -> None:
        for _ in range(30):
            async with serving("gothello") as server:
                a, _ = await seat(server.port, "0.9 player ?")
                b, _ = await seat(server.port, "0.9 player ?")
                roles = {await a.line(), await b.line()}
                assert roles == {"351 You will play white", "352 You will play black"}
                seen.add(a.seen[-1])

    run(scenario)
    assert seen == {"351 You will play white", "352 You will play black"}


@pytest.mark.parametrize("game", GAMES)
def test_roles_351_352_353(game: str) -> None:
    sides = P.VOCABULARIES[game].sides

    async def scenario() -> None:
        async with serving(game, config=ConfigMessages.NONE) as server:
            obs, _ = await seat(server.port, "0.9 observer")
            second, _ = await seat(server.port, f"0.9 player {sides[1]}")
            first, _ = await seat(server.port, f"0.9 player {sides[0]}")
            assert await second.line() == f"351 You will play {sides[1]}"
            assert await first.line() == f"352 You will play {sides[0]}"
            assert await obs.line() == "353 You will observe"

    run(scenario)


@on_server("gothello", config=ConfigMessages.OBSERVERS)
async def test_config_messages_to_observers_only(server: GameServer) -> None:
    """Gothello's default policy: players get their role right after 100, as gthd's
    client libraries require; observers get 341–344 before 353."""
    obs, _ = await seat(server.port, '0.9 observer "o"')
    white, _ = await seat(server.port, '0.9 player white "w"')
    black, _ = await seat(server.port, "0.9 player black")
    assert await white.line() == "351 You will play white"
    assert await black.line() == "352 You will play black"
    assert [await obs.line() for _ in range(5)] == [
        '341 "w" white player',
        '342 "" black player',
        '343 1 "o" observer',
        "344 1 observers",
        "353 You will observe",
    ]


@on_server("awari", config=ConfigMessages.NONE)
async def test_config_messages_none(server: GameServer) -> None:
    obs, _ = await seat(server.port, "0.9 observer")
    players = await seat_players(server.port, "awari")
    assert await obs.line() == "353 You will observe"
    assert players


@on_server("gothello")
async def test_observer_joining_mid_game_gets_role_and_current_state(server: GameServer) -> None:
    black, _white = await seat_players(server.port, "gothello")
    await black.send("1 c3")
    await black.expect(200)
    await black.expect(311)
    obs, _ = await seat(server.port, '0.9 observer "late"')
    assert [await obs.line() for _ in range(5)] == [
        '341 "" white player',
        '342 "" black player',
        '343 1 "late" observer',
        "344 1 observers",
        "353 You will observe",
    ]
    assert await read_display(obs) == [
        "380 1 w",
        "382 5 board lines follow",
        ".....",
        ".....",
        "..b..",
        ".....",
        ".....",
    ]


@on_server("gothello")
async def test_disconnect_before_the_game_frees_the_seat(server: GameServer) -> None:
    white, _ = await seat(server.port, "0.9 player white")
    await white.close()
    obs, _ = await seat(server.port, "0.9 observer")  # the server has seen the close by now
    again, _ = await seat(server.port, "0.9 player white")
    _black, _ = await seat(server.port, "0.9 player black")
    assert await again.line() == "351 You will play white"
    assert [(await obs.line())[:3] for _ in range(5)] == ["341", "342", "343", "344", "353"]


@on_server("gothello")
async def test_requests_before_the_game_starts_291_299(server: GameServer) -> None:
    black, _ = await seat(server.port, "0.9 player black")
    await black.send("1 c3")
    assert await black.line() == "291 The game has not started"
    await black.send("0.9 player white")
    await black.expect(299)
    await black.send("resign")
    await black.expect(291)
