"""What the server says in the corners a real user met: a repeated seat request,
a client turned away when the game ends, a player that half-closes its
connection, and a library user who never set up logging."""

from __future__ import annotations

import subprocess
import sys

from .netclient import Client, play_moves, run, seat, seat_players, serving


def test_a_repeated_seat_request_is_refused_in_words() -> None:
    async def scenario() -> None:
        async with serving("gothello") as server:
            black, _ = await seat(server.port, "0.9.1 player black")
            await black.send("0.9.1 player black")
            assert await black.expect(299) == "299 Request not understood (already seated)"

    run(scenario)


def test_a_client_not_seated_is_told_when_the_game_ends() -> None:
    async def scenario() -> None:
        async with serving("gothello") as server:
            _, white = await seat_players(server.port, "gothello")
            late = await Client.connect(server.port)
            await late.expect(0)
            await white.send("resign")
            assert await late.expect(199) == "199 The game is over; connect again for the next one"
            assert await late.eof()

    run(scenario)


def test_a_half_closed_player_gets_the_39x() -> None:
    async def scenario() -> None:
        async with serving("gothello") as server:
            black, white = await seat_players(server.port, "gothello")
            await play_moves((black, white), ["c3"])
            white.writer.write_eof()
            assert await white.expect(392) == "392 White disconnected, black wins"
            assert await white.eof()
            assert await black.expect(392) == "392 White disconnected, black wins"

    run(scenario)


def test_the_server_logs_nothing_unless_asked() -> None:
    """In another program (referee match, a library user) the server's warnings do
    not reach stderr through logging's last resort."""
    code = "import logging, impl.server; logging.getLogger('referee').warning('too_many_rejections')"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert done.stderr == ""


def test_watchers_see_every_event_of_a_game() -> None:
    """The seam for a web view or a tournament: GameServer.watchers."""
    seen: list[str] = []

    async def scenario() -> None:
        async with serving("gothello") as server:
            server.watchers.append(lambda session, event: seen.append(type(event).__name__))
            black, white = await seat_players(server.port, "gothello")
            await play_moves((black, white), ["c3"])
            await white.send("resign")
            await white.expect(204)

    run(scenario)
    assert seen == ["PlayerSeated", "PlayerSeated", "GameStarted", "PlyPlayed", "GameOver"]
