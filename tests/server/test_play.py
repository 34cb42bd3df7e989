"""Play over sockets (Tables 6–9): 200, 291 and 299 with retries, serials and
ellipses, passes (315/316), resignation (204, 327/328), Awari's draw protocol
(205, 206, 203, 329, 331–334), disconnects (391/392) and a failing engine (399)."""

from __future__ import annotations

from typing import Any

import pytest

from impl import protocol as P
from impl.engines.registry import get_engine
from impl.server.server import GameServer
from tests.support import netclient
from tests.support.netclient import on_server, play_moves, read_display, run, seat, seat_players, serving, watch

engine_kind = netclient.engine_kind  # autouse fixture: each test runs with every engine kind


@on_server("gothello")
async def test_moves_200_then_311_312_to_everyone(server: GameServer) -> None:
    """The mover gets 200 then the same 31x line as the opponent and observers."""
    obs, _ = await seat(server.port, "0.9 observer")
    black, white = await seat_players(server.port, "gothello")
    assert [(await obs.line())[:3] for _ in range(5)] == ["341", "342", "343", "344", "353"]
    await read_display(obs)
    assert await black.ask("1 c3") == "200 Move c3 accepted, continue playing"
    assert await black.line() == "311 1 c3 is black move, game continues"
    assert await white.line() == "311 1 c3 is black move, game continues"
    assert await obs.line() == "311 1 c3 is black move, game continues"
    assert await read_display(obs) == [
        "380 1 w",
        "382 5 board lines follow",
        *[".....", ".....", "..b..", ".....", "....."],
    ]
    assert await white.ask("1 ... d4") == "200 Move d4 accepted, continue playing"
    assert await white.line() == "312 1 ... d4 is white move, game continues"
    assert await black.line() == "312 1 ... d4 is white move, game continues"
    assert await obs.line() == "312 1 ... d4 is white move, game continues"
    assert (await read_display(obs))[0] == "380 2 b"


@on_server("gothello")
async def test_passes_315_316_with_serials_and_bare_pass(server: GameServer) -> None:
    """Passes count as moves; ``<n> pass`` and a bare ``pass`` are both accepted."""
    black, white = await seat_players(server.port, "gothello")
    (_, first), (_, second) = await play_moves((black, white), ["pass", "c3"])
    assert first == "315 1 pass is black move, game continues"
    assert second == "312 1 ... c3 is white move, game continues"
    await black.send("pass")  # bare
    assert await black.line() == "200 Move pass accepted, continue playing"
    assert await black.line() == "315 2 pass is black move, game continues"
    assert await white.line() == "315 2 pass is black move, game continues"
    assert await white.ask("2 ... pass") == "201 Move pass accepted, You win"
    assert await white.line() == "323 2 ... pass and white wins"
    assert await black.line() == "323 2 ... pass and white wins"


@on_server("awari")
async def test_awari_serials_are_full_move_numbers(server: GameServer) -> None:
    """As in Gothello: south ``1 F``, north ``1 ... a``, both with the same number."""
    south, north = await seat_players(server.port, "awari")
    statuses = [status for _, status in await play_moves((south, north), ["F", "a", "E"])]
    assert [s.split(" is ")[0] for s in statuses] == ["311 1 F", "312 1 ... a", "311 2 E"]
    assert await north.ask("3 ... b") == "299 Illegal serial number (got 3 expected 2)"


@on_server("gothello")
async def test_pass_316_by_white(server: GameServer) -> None:
    players = await seat_players(server.port, "gothello")
    (_, _status), (_, status2) = await play_moves(players, ["c3", "pass"])
    assert status2 == "316 1 ... pass is white move, game continues"


@pytest.mark.parametrize(
    ("game", "moves", "bad", "reply"),
    [
        ("gothello", [], "1 c9", "299 Request not understood (no such move c9)"),
        ("gothello", [], "1 C3", "299 Request not understood (no such move C3)"),
        ("gothello", [], "2 c3", "299 Illegal serial number (got 2 expected 1)"),
        ("gothello", [], "0 c3", "299 Illegal serial number (got 0 expected 1)"),
        ("gothello", [], "1 ... c3", "299 Ellipses (...) not allowed before black move"),
        ("gothello", ["c3"], "1 d4", "299 Ellipses (...) expected before white move"),
        ("gothello", ["c3"], "2 ... d4", "299 Illegal serial number (got 2 expected 1)"),
        ("gothello", ["c3"], "1 ... c3", "291 Illegal move c3"),
        ("gothello", ["c3"], "1 .. d4", "299 Request not understood"),
        ("gothello", [], "1 c3 d4", "299 Request not understood"),
        ("gothello", [], "c3", "299 Request not understood"),
        ("gothello", [], "draw?", "299 Request not understood"),
        ("gothello", [], "x c3", "299 Request not understood"),
        ("awari", [], "1 a", "291 Illegal move a"),
        ("awari", [], "1 pass", "299 Request not understood (no such move pass)"),
        ("awari", [], "pass", "299 Request not understood"),
        ("awari", [], "1 G", "299 Request not understood (no such move G)"),
        ("awari", [], "1 A4", "299 Request not understood (no such move A4)"),
        ("awari", ["A"], "1 ... A", "291 Illegal move A"),
    ],
)
def test_refused_moves_291_299_and_retry(game: str, moves: list[str], bad: str, reply: str) -> None:
    """A refused request changes nothing: the same player then moves normally."""

    async def scenario() -> None:
        async with serving(game) as server:
            players = await seat_players(server.port, game)
            await play_moves(players, moves)
            side = len(moves) % 2
            assert await players[side].ask(bad) == reply
            good = {"gothello": ["e5", "a1"], "awari": ["F", "f"]}[game][side]
            await players[side].send(f"{len(moves) // 2 + 1}{' ...' if side else ''} {good}")
            await players[side].expect(200)

    run(scenario)


@on_server("awari")
async def test_out_of_turn_and_observer_requests_291(server: GameServer) -> None:
    obs, _ = await seat(server.port, "0.9 observer")
    _south, north = await seat_players(server.port, "awari")
    await watch(obs)
    assert await north.ask("1 ... a") == "291 Not your turn"
    assert await obs.ask("1 A") == "291 Observers may not act"
    assert await obs.ask("resign") == "291 Observers may not act"
    assert await obs.ask("gibberish") == "299 Request not understood"


@pytest.mark.parametrize(
    ("game", "resigner", "code"), [("gothello", 1, 327), ("gothello", 0, 328), ("awari", 1, 327), ("awari", 0, 328)]
)
def test_resign_204_327_328_at_any_time(game: str, resigner: int, code: int) -> None:
    """Either player may resign, also out of turn: 204 to the resigner, then
    327/328 (named after the side that resigned) to everyone."""
    sides = P.VOCABULARIES[game].sides

    async def scenario() -> None:
        async with serving(game) as server:
            obs, _ = await seat(server.port, "0.9 observer")
            players = await seat_players(server.port, game)
            await watch(obs)
            assert await players[resigner].ask("resign") == "204 Resignation accepted"
            status = f"{code} {sides[1 - resigner].capitalize()} wins by resignation"
            for client in players:
                assert await client.line() == status
            rest = await obs.rest()
            assert rest[-8 if game == "gothello" else -7] == status
            assert all([await c.eof() for c in players])

    run(scenario)


async def _draw_setup(server: Any) -> tuple[Any, Any, Any]:
    obs, _ = await seat(server.port, "0.9 observer")
    south, north = await seat_players(server.port, "awari")
    await watch(obs)
    return south, north, obs


@on_server("awari")
async def test_draw_offer_refused_then_accepted(server: GameServer) -> None:
    """``draw?`` by the player to move: 205 to it, 331/332 to all; ``nodraw``: 206,
    333/334; no new offer before the next move (291); ``draw``: 203, 329, game over."""
    south, north, obs = await _draw_setup(server)
    assert await south.ask("draw?") == "205 Received draw request"
    for client in (south, north, obs):
        assert await client.line() == "331 Draw requested by south"
    await read_display(obs)
    assert await north.ask("nodraw") == "206 Received draw refusal"
    for client in (south, north, obs):
        assert await client.line() == "334 Draw refused by north"
    await read_display(obs)
    assert await south.ask("draw?") == "291 Draw refused: offer again after the next move"
    await play_moves((south, north), ["C"], (obs,))
    await north.send("draw?")
    await north.expect(205)
    for client in (north, south, obs):
        assert await client.line() == "332 Draw requested by north"
    await read_display(obs)
    assert await south.ask("draw") == "203 Draw accepted, You draw"
    for client in (south, north, obs):
        assert await client.line() == "329 Draw accepted"
    assert (await read_display(obs))[0] == "380 1 ."
    assert all([await c.eof() for c in (south, north, obs)])


@on_server("awari")
async def test_draw_refused_by_south_333_and_misuse_291(server: GameServer) -> None:
    south, north, obs = await _draw_setup(server)
    assert await north.ask("draw?") == "291 Only the player to move may offer a draw"
    assert await south.ask("draw") == "291 No draw offer to answer"
    await play_moves((south, north), ["C"], (obs,))
    await north.send("draw?")
    await north.expect(205)
    await north.line()
    await south.line()
    assert await north.ask("draw?") == "291 A draw offer is already pending"
    assert await north.ask("draw") == "291 No draw offer to answer"
    assert await north.ask("1 ... a") == "291 A draw offer awaits an answer (draw or nodraw)"
    assert await south.ask("2 A") == "291 A draw offer awaits an answer (draw or nodraw)"
    await south.send("nodraw")
    await south.expect(206)
    assert await south.line() == "333 Draw refused by south"
    assert await north.line() == "333 Draw refused by south"
    await north.send("1 ... a")
    await north.expect(200)


@on_server("awari")
async def test_resign_while_a_draw_offer_is_pending(server: GameServer) -> None:
    south, north, _obs = await _draw_setup(server)
    await south.send("draw?")
    await south.expect(205)
    await south.line()
    await north.line()
    await south.send("resign")
    await south.expect(204)
    assert await north.line() == "328 North wins by resignation"


@pytest.mark.parametrize(
    ("game", "leaver", "code"), [("gothello", 0, 391), ("gothello", 1, 392), ("awari", 0, 391), ("awari", 1, 392)]
)
def test_player_disconnect_391_392_loses(game: str, leaver: int, code: int) -> None:
    """A player leaving mid-game (on its turn or not) loses; the others get 391/392,
    and the game ends cleanly: every connection is closed."""
    sides = P.VOCABULARIES[game].sides

    async def scenario() -> None:
        async with serving(game) as server:
            obs, _ = await seat(server.port, "0.9 observer")
            players = await seat_players(server.port, game)
            await players[leaver].close()
            other = players[1 - leaver]
            status = f"{code} {sides[leaver].capitalize()} disconnected, {sides[1 - leaver]} wins"
            assert await other.line() == status
            lines = await obs.rest()
            assert status in lines
            assert lines[lines.index(status) + 1].endswith(" .")
            assert await other.eof()
            await server.wait()

    run(scenario)


@on_server("gothello")
async def test_observer_disconnect_is_harmless(server: GameServer) -> None:
    obs, _ = await seat(server.port, "0.9 observer")
    players = await seat_players(server.port, "gothello")
    await obs.close()
    await play_moves(players, ["c3", "d4", "pass"])


class BrokenEngine:
    """The spec engine, except that its second accepted move raises."""

    def __init__(self) -> None:
        self.inner = get_engine("gothello", "spec")
        self.calls = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def apply(self, state: Any, action: Any) -> Any:
        self.calls += 1
        if self.calls == 2:
            raise RuntimeError("planted failure")
        return self.inner.apply(state, action)


def test_engine_failure_399_aborts_the_game() -> None:
    async def scenario() -> None:  # not on_server: each run needs a fresh BrokenEngine
        async with serving("gothello", engine=BrokenEngine()) as server:
            obs, _ = await seat(server.port, "0.9 observer")
            players = await seat_players(server.port, "gothello")
            await play_moves(players, ["c3"])
            await players[1].send("1 ... d4")
            expected = "399 Unknown problem: the referee failed, game aborted"
            assert await players[1].line() == expected
            assert await players[0].line() == expected
            assert expected in await obs.rest()
            await server.wait()
            assert server.games == 1

    run(scenario)
