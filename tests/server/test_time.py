"""Time controls over sockets with tiny clocks: 101, 207, 313/314, 317/318, the
observers' 381, flag fall (361/362, found by a timer) and clocks that run only
while the server waits for their player."""

from __future__ import annotations

import asyncio

from impl.server.clock import Clocks
from impl.server.server import GameServer
from tests.support import netclient
from tests.support.netclient import on_server, play_moves, read_display, role, seat, seat_players, watch

engine_kind = netclient.engine_kind  # autouse fixture: each test runs with every engine kind


@on_server("gothello", time=(30.0, 20.0))
async def test_101_own_then_opponent_time_observers_second_then_first(server: GameServer) -> None:
    _observer, obs = await seat(server.port, "0.9 observer")
    _first, black = await seat(server.port, "0.9 player black")
    _second, white = await seat(server.port, "0.9 player white")
    assert black == "101 30 20 Request accepted with time controls (you / opp)"
    assert white == "101 20 30 Request accepted with time controls (you / opp)"
    assert obs == "101 20 30 Request accepted with time controls"


@on_server("gothello", time=(5.0, 9.0))
async def test_207_313_314_381_carry_the_movers_time(server: GameServer) -> None:
    obs, _ = await seat(server.port, "0.9 observer")
    black, white = await seat_players(server.port, "gothello")
    assert (await watch(obs))[0] == "381 1 5 9 b"
    await asyncio.sleep(1.1)
    await black.send("1 c3")
    assert await black.line() == "207 3 secs remaining after move c3 accepted, continue playing"
    status = "313 1 c3 3 (secs) is black move, game continues"
    assert await black.line() == status
    assert await white.line() == status
    assert await obs.line() == status
    assert (await read_display(obs))[0] == "381 1 3 9 w"
    await white.send("1 ... d4")
    assert (await white.line()).startswith("207 8 secs remaining after move d4")
    assert await white.line() == "314 1 ... d4 8 (secs) is white move, game continues"


def test_the_increment_is_added_when_a_move_is_accepted_and_only_then() -> None:
    """``moved``: before - used + increment (spec/protocol.py ``remaining``); a clock
    stopped otherwise (a draw offer, the end) gains nothing."""
    clocks = Clocks((30.0, 20.0), increment=(2.0, 1.0))
    clocks.start(0, 10.0)
    assert clocks.moved(13.0) == 29.0 and clocks.running is None
    clocks.start(1, 13.0)
    assert clocks.deadline() == 33.0
    assert clocks.stop(18.0) == 15.0  # a draw offer: no increment
    assert clocks.left(1, 99.0) == 15.0 and clocks.left(0, 99.0) == 29.0


@on_server("gothello", time=(30.0, 20.0), increment=(100.0, 50.0))
async def test_a_fischer_increment_is_added_once_the_move_is_accepted(server: GameServer) -> None:
    """The mover's clock gains its increment after its move is accepted, before the
    opponent's starts: the 207 and 313 it is told include it; 101 announces the
    increments in its free text (own then opponent's; an observer's second's first)."""
    obs, seated = await seat(server.port, "0.9 observer")
    assert seated == "101 20 30 Request accepted with time controls Increment: 50 100"
    black, seated = await seat(server.port, "0.9 player black")
    assert seated == "101 30 20 Request accepted with time controls Increment: 100 50 (you / opp)"
    white, seated = await seat(server.port, "0.9 player white")
    assert seated == "101 20 30 Request accepted with time controls Increment: 50 100 (you / opp)"
    assert (await watch(obs))[0] == "381 1 30 20 b"
    await role(black), await role(white)
    await black.send("1 c3")
    accepted = await black.line()
    assert accepted.endswith(" secs remaining after move c3 accepted, continue playing")
    left = int(accepted.split()[1])
    assert 30 < left <= 130  # grew by the increment, less the turn's time
    status = await black.line()
    assert status == f"313 1 c3 {left} (secs) is black move, game continues"
    assert await obs.line() == status
    assert (await read_display(obs))[0] == f"381 1 {left} 20 w"


@on_server("gothello", time=(60.0, 60.0))
async def test_317_318_timed_passes(server: GameServer) -> None:
    players = await seat_players(server.port, "gothello")
    statuses = [status for _, status in await play_moves(players, ["pass", "c3", "d4", "pass"])]
    # Whole seconds, truncated: 59, or 60 where the move came in the loop turn the
    # clock started or was last read in (once, on a loaded machine).
    assert statuses[0] in {f"317 1 pass {s} (secs) is black move, game continues" for s in (59, 60)}
    assert statuses[1] in {f"314 1 ... c3 {s} (secs) is white move, game continues" for s in (59, 60)}
    assert statuses[3] in {f"318 2 ... pass {s} (secs) is white move, game continues" for s in (59, 60)}


@on_server("awari", time=(0.3, 5.0))
async def test_flag_fall_362_first_player_silent(server: GameServer) -> None:
    """Nobody sends anything: the timer ends the game.  The flagged player gets 202
    then the status; the status is named after the side whose time ran out."""
    obs, _ = await seat(server.port, "0.9 observer")
    south, north = await seat_players(server.port, "awari")
    await watch(obs)
    assert await south.line() == "202 Your time expires, and you lose"
    assert await south.line() == "362 North wins by South time expiring"
    assert await north.line() == "362 North wins by South time expiring"
    assert await obs.line() == "362 North wins by South time expiring"
    assert (await read_display(obs))[0] == "381 1 0 5 ."
    for client in (south, north, obs):
        assert await client.eof()


@on_server("gothello", time=(5.0, 0.3))
async def test_flag_fall_361_second_player_silent(server: GameServer) -> None:
    black, white = await seat_players(server.port, "gothello")
    await play_moves((black, white), ["c3"])
    assert await white.line() == "202 Your time expires, and you lose"
    assert await white.line() == "361 Black wins by White time expiring"
    assert await black.line() == "361 Black wins by White time expiring"


@on_server("gothello", time=(1.5, 1.5))
async def test_clocks_run_only_while_waiting_for_their_player(server: GameServer) -> None:
    """Each player uses 0.9 s of a 1.5 s clock per move: two moves each would flag,
    one each does not, whatever the opponent spends."""
    black, white = await seat_players(server.port, "gothello")
    await asyncio.sleep(0.9)
    await play_moves((black, white), ["c3"])
    await asyncio.sleep(0.9)
    await white.send("1 ... d4")
    assert (await white.line()).startswith("207 0 secs remaining")
    await white.line()
    await black.line()
    assert await black.line(timeout=3) == "202 Your time expires, and you lose"
    assert await white.line() == "362 White wins by Black time expiring"


@on_server("awari", time=(1.0, 5.0))
async def test_draw_offer_runs_the_answerers_clock_only(server: GameServer) -> None:
    south, north = await seat_players(server.port, "awari")
    await south.send("draw?")
    await south.expect(205)
    await south.line()
    await north.line()
    await asyncio.sleep(1.3)  # longer than south's whole clock
    await north.send("nodraw")
    await north.expect(206)
    await north.line()
    await south.line()
    await south.send("1 A")
    assert (await south.line()).startswith("207 0 secs")


@on_server("gothello", time=(10.0, 4.0))
async def test_late_observer_gets_current_times(server: GameServer) -> None:
    _black, _white = await seat_players(server.port, "gothello")
    await asyncio.sleep(1.1)
    obs, reply = await seat(server.port, "0.9 observer")
    assert reply == "101 4 8 Request accepted with time controls"
    assert await role(obs) == "353 You will observe"
    assert (await read_display(obs))[0] == "381 1 8 4 b"
