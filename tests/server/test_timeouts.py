"""The seat and idle bounds over real sockets (issue: one bad client cannot stall a
server), with small bounds so that the tests stay quick."""

from __future__ import annotations

from pathlib import Path

from impl import pgn
from impl.config import Limits, NetLimits
from impl.server.server import GameServer
from tests.support.netclient import Client, on_server, run, seat_players, serving


@on_server("gothello", limits=Limits(seat_timeout=0.3))
async def test_a_connection_that_does_not_sit_down_is_closed(server: GameServer) -> None:
    idle = await Client.connect(server.port)
    await idle.expect(0)
    assert (await idle.expect(199, timeout=2.0)).startswith("199 No seat request within 0.3 s")
    assert await idle.eof()


def test_an_idle_player_loses_and_the_record_says_why(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with serving("gothello", limits=Limits(idle_timeout=0.4), record_dir=tmp_path) as server:
            black, white = await seat_players(server.port, "gothello")
            for client in (black, white):
                assert await client.expect(391, timeout=2.0) == "391 Black disconnected, white wins"
                assert await client.eof()

    run(scenario)
    (record,) = tmp_path.iterdir()
    game = pgn.parse(record.read_text())
    assert game.tag("Termination") == "idle" and game.result == "1-0"  # White won (PGN)


@on_server("gothello", net=NetLimits(close_grace=1.0, line_timeout=0.3))
async def test_a_line_that_never_ends_is_refused_and_closed(server: GameServer) -> None:
    slow = await Client.connect(server.port)
    await slow.expect(0)
    await slow.send_raw(b"0.9.1 pla")
    line = await slow.expect(199, timeout=2.0)
    assert line == "199 Request not understood (line not completed in time), goodbye"
    assert await slow.eof()


def test_runs_of_empty_lines_count_as_refusals() -> None:
    async def scenario() -> None:
        limits = NetLimits(close_grace=1.0, max_empty=8)
        async with serving("gothello", net=limits, limits=Limits(max_rejected=3)) as server:
            flood = await Client.connect(server.port)
            await flood.expect(0)
            await flood.send_raw(b"\r" * 7)
            assert await flood.quiet(0.2)
            await flood.send_raw(b"\r\n" * 20)
            for _ in range(3):
                assert await flood.expect(199) == "199 Request not understood (empty lines)"
            assert await flood.eof()  # the third refusal in a row closes it

    run(scenario)
