"""The server's departures from the papers' message tables, each an erratum of
spec/errata.py (proofs/ERRATA.md, "Protocol errata") with its witness here, over a
real socket: 399 from the Awari server (A26), 202 unasked on a flag fall (A27, G31),
the cap of 64 observers (A28, G32), the seat and wait timeouts (A29, G33) and the
idle timeout (A30, G34), all stated in docs/protocol.md; and the seat and wait bounds
at 0, which disable them, across a real tick of the server's timer (issue #49)."""

from __future__ import annotations

from pathlib import Path

import pytest

from impl import pgn
from impl.config import DEFAULTS, Limits, NetLimits
from impl.server.server import GameServer
from tests.support.netclient import Client, on_server, play_moves, run, seat, seat_players, serving

GAMES = ("awari", "gothello")


@pytest.mark.parametrize("game", GAMES)
def test_399_aborts_a_game_when_the_server_stops(game: str) -> None:
    """The Awari paper's tables have no 399; the server sends it to everyone (in either
    game) when a game is aborted — here by the server stopping mid-game."""

    async def scenario() -> None:
        async with serving(game) as server:
            first, second = await seat_players(server.port, game)
            await server.stop()
            expected = "399 Unknown problem: the server is shutting down, game aborted"
            for client in (first, second):
                assert await client.line() == expected
                assert await client.eof()

    run(scenario)


@pytest.mark.parametrize("game", GAMES)
def test_202_comes_unasked_when_a_flag_falls(game: str) -> None:
    """The papers' 202 answers a move ("move accepted, you lose"); the player whose
    time runs out gets it having sent nothing, then the 36x status."""

    async def scenario() -> None:
        async with serving(game, time=(0.3, 60.0)) as server:
            first, second = await seat_players(server.port, game)
            assert await first.line() == "202 Your time expires, and you lose"
            status = await first.line()
            assert status.startswith("362 ") and await second.line() == status
            assert first.seen.count("202 Your time expires, and you lose") == 1

    run(scenario)


@pytest.mark.parametrize("game", GAMES)
def test_the_65th_observer_gets_193_at_the_default_cap(game: str) -> None:
    """Table 3's 193 gives no bound; ours is 64 observers (``Limits()``, the default of
    ``--max-observers``), gthd's 65.  One address may hold 64 connections, so the
    test allows it 66 to reach the cap."""
    assert Limits().max_observers == DEFAULTS.limits.max_observers == 64

    async def scenario() -> None:
        async with serving(game, net=NetLimits(close_grace=1.0, per_address=66)) as server:
            watching = [(await seat(server.port, "0.9 observer", 100))[0] for _ in range(64)]
            extra, reply = await seat(server.port, "0.9 observer", 193)
            assert reply == "193 Cannot observe (at most 64 observers)"
            await watching[0].close()
            await extra.quiet(0.1)
            await extra.send("0.9 observer")
            await extra.expect(100)

    run(scenario)


@pytest.mark.parametrize("game", GAMES)
def test_a_connection_that_does_not_sit_and_a_player_without_opponent_are_closed(game: str) -> None:
    """No paper bounds how long a connection may stay unseated or a seated player wait:
    ours close them with 199 (defaults 60 s and 1800 s; small bounds here)."""
    assert (DEFAULTS.limits.seat_timeout, DEFAULTS.limits.wait_timeout) == (60.0, 1800.0)

    async def scenario() -> None:
        async with serving(game, limits=Limits(seat_timeout=0.3, wait_timeout=0.5)) as server:
            idle = await Client.greeted(server.port)
            first, _ = await seat(server.port, f"0.9.1 player {_first_side(game)}")
            assert await idle.expect(199, timeout=5.0) == "199 No seat request within 0.3 s, goodbye"
            assert await idle.eof()
            assert await first.expect(199, timeout=5.0) == "199 No opponent within 0.5 s, goodbye"
            assert await first.eof()

    run(scenario)


@pytest.mark.parametrize("game", GAMES)
def test_a_silent_player_loses_on_the_idle_timeout(game: str, tmp_path: Path) -> None:
    """Without clocks the papers let a player think forever; ours loses after the idle
    bound (default 600 s) as if it had disconnected: 391/392, termination ``idle``."""
    assert DEFAULTS.limits.idle_timeout == 600.0

    async def scenario() -> None:
        async with serving(game, limits=Limits(idle_timeout=0.4), record_dir=tmp_path) as server:
            first, second = await seat_players(server.port, game)
            for client in (first, second):
                assert (await client.expect(391, timeout=5.0)).startswith("391 ")
                assert await client.eof()

    run(scenario)
    (record,) = tmp_path.iterdir()
    assert pgn.parse(record.read_bytes()).tag("Termination") == "idle"


def _first_side(game: str) -> str:
    return "south" if game == "awari" else "black"


# ─── a bound of 0 disables it, across a real tick ─────────────────────────────


@on_server("gothello", limits=Limits(seat_timeout=0, wait_timeout=0.3))
async def test_seat_timeout_0_keeps_an_unseated_connection_across_a_tick(server: GameServer) -> None:
    """The wait bound's timer fires (the waiting player gets its 199) while a
    connection that never sat down stays: ``--seat-timeout 0`` is no bound, not an
    immediate one.  It can still sit down after the tick."""
    loiterer = await Client.greeted(server.port)
    waiting, _ = await seat(server.port, "0.9.1 player black")
    assert await waiting.expect(199, timeout=5.0) == "199 No opponent within 0.3 s, goodbye"
    assert await loiterer.quiet(0.3)
    await loiterer.send("0.9.1 player white")
    await loiterer.expect(100)


@on_server("gothello", limits=Limits(seat_timeout=0.3, wait_timeout=0))
async def test_wait_timeout_0_keeps_a_seated_player_across_a_tick(server: GameServer) -> None:
    """The seat bound's timer fires (the unseated connection gets its 199) while the
    seated player waiting for an opponent stays, and its game starts when one comes."""
    waiting, _ = await seat(server.port, "0.9.1 player black")
    loiterer = await Client.greeted(server.port)
    assert await loiterer.expect(199, timeout=5.0) == "199 No seat request within 0.3 s, goodbye"
    assert await waiting.quiet(0.3)
    opponent, _ = await seat(server.port, "0.9.1 player white")
    assert await waiting.line() == "352 You will play black"
    assert await opponent.line() == "351 You will play white"
    await play_moves((waiting, opponent), ["c3"])


def test_the_command_line_takes_0_as_no_bound() -> None:
    """``referee serve --seat-timeout 0 --wait-timeout 0 --idle-timeout 0`` gives the
    limits the tests above run with (impl/config.py ``Config.from_args``)."""
    from impl.cli import build_parser
    from impl.config import Config

    args = build_parser().parse_args(
        ["serve", "gothello", "--seat-timeout", "0", "--wait-timeout", "0", "--idle-timeout", "0"]
    )
    limits = Config.from_args(args).limits
    assert (limits.seat_timeout, limits.wait_timeout, limits.idle_timeout) == (0, 0, 0)
