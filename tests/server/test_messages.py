"""What the server says in the corners a real user met: a repeated seat request,
a client turned away when the game ends, a player that half-closes its
connection, a library user who never set up logging, an organiser reading why a
request was refused, and what a record holds and when there is none."""

from __future__ import annotations

import asyncio
import logging
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

import pytest

from impl import pgn
from impl.log import LOGGER
from impl.server.server import GameServer
from tests.support.netclient import Client, on_server, play_moves, run, seat, seat_players, serving


@on_server("gothello")
async def test_a_repeated_seat_request_is_refused_in_words(server: GameServer) -> None:
    black, _ = await seat(server.port, "0.9.1 player black")
    await black.send("0.9.1 player black")
    assert await black.expect(299) == "299 Request not understood (already seated)"


@on_server("gothello")
async def test_a_client_not_seated_is_told_when_the_game_ends(server: GameServer) -> None:
    _, white = await seat_players(server.port, "gothello")
    late = await Client.connect(server.port)
    await late.expect(0)
    await white.send("resign")
    assert await late.expect(199) == "199 The game is over; connect again for the next one"
    assert await late.eof()


@on_server("gothello")
async def test_a_half_closed_player_gets_the_39x(server: GameServer) -> None:
    black, white = await seat_players(server.port, "gothello")
    await play_moves((black, white), ["c3"])
    white.writer.write_eof()
    assert await white.expect(392) == "392 White disconnected, black wins"
    assert await white.eof()
    assert await black.expect(392) == "392 White disconnected, black wins"


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
    assert seen == ["PlayerSeated", "PlayerSeated", "GameStarted", "MoveMade", "GameOver"]


def test_a_refused_request_is_logged_at_debug_with_its_reason(caplog: pytest.LogCaptureFixture) -> None:
    """An organiser running at ``--log-level debug`` sees why a client was refused."""

    async def scenario() -> None:
        async with serving("gothello") as server:
            black, _white = await seat_players(server.port, "gothello")
            await black.send("1 zz")
            await black.expect(299)

    with caplog.at_level(logging.DEBUG, logger=LOGGER):
        run(scenario)
    refused = [r for r in caplog.records if r.getMessage() == "refused"]
    assert [(r.levelno, r.fields["code"], r.fields["reason"]) for r in refused] == [  # type: ignore[attr-defined]
        (logging.DEBUG, 299, "Request not understood (no such move zz)")
    ]


def test_records_a_started_game_with_its_clocks_and_nothing_for_connections_alone(tmp_path: Path) -> None:
    """Connections that come and go without sitting down make no record; a game's
    record starts when both are seated and lists the mover's clock after each ply."""

    async def scenario() -> float:
        async with serving("gothello", time=(60.0, 60.0), forever=True, record_dir=tmp_path) as server:
            for _ in range(3):
                idle = await Client.connect(server.port)
                await idle.expect(0)
                await idle.close()
            await asyncio.sleep(0.2)
            assert list(tmp_path.iterdir()) == []
            before = time.time()
            players = await seat_players(server.port, "gothello")
            await play_moves(players, ["c3", "pass", "pass"])
            await asyncio.sleep(0.2)
            return before

    before = run(scenario)
    (record,) = tmp_path.iterdir()
    game = pgn.parse(record.read_text())
    clocks = [ply.clock for ply in game.plies]
    assert len(clocks) == 3 and all(secs is not None and 55.0 < secs <= 60.0 for secs in clocks)
    started = datetime.strptime(game.tag("Started"), "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC).timestamp()
    assert started >= before - 0.01  # when the players sat down, not when the server began
