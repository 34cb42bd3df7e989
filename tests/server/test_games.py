"""Whole games over real sockets, first message to last, for both games and every
engine kind: random games checked against the rules, the six ways a move can end
a game (321–326), game after game, several servers at once, and a soak."""

from __future__ import annotations

import asyncio
import gc
import random
import weakref
from pathlib import Path

import pytest

from impl import pgn
from impl import protocol as P
from impl.config import CONFIG_MESSAGES, Limits, NetLimits
from impl.engines.registry import get_engine
from impl.game import Side
from impl.server.server import GameServer, ServerConfig
from impl.server.session import Session, Settings
from spec import result as R
from tests.support import netclient
from tests.support.netclient import on_server, play_moves, play_random, read_display, run, seat, seat_players, serving

engine_kind = netclient.engine_kind  # autouse fixture: each test runs with every engine kind


GAMES = ("awari", "gothello")
OPENING = {"awari": "C", "gothello": "c3"}


def replay(game: str, kind: str, tokens: list[str]) -> tuple[object, list[str]]:
    """The result of the last move by the rules, and the final board display."""
    engine = get_engine(game, kind)
    state = engine.initial()
    result: object = R.not_done
    for token in tokens:
        result, state = engine.apply(state, engine.parse_move(token))
        assert result != R.illegal_move, token
    return result, engine.render(state)


@pytest.mark.parametrize("game", GAMES)
def test_complete_random_game(game: str) -> None:
    """Greeting to close: an observer before the game and one joining mid-game,
    named players, config and roles, every ply answered 20x then 31x, the final
    20x and 32x agreeing with the rules, the final display, and every connection
    closed by the server, which then stops (one game per server by default)."""
    vocab = P.VOCABULARIES[game]

    async def scenario() -> None:
        kind = netclient.current_kind()
        async with serving(game) as server:
            early, _ = await seat(server.port, '0.9 observer "early"')
            players = await seat_players(server.port, game, ("alice", 'b"o"b'))
            assert [await early.line() for _ in range(5)] == [
                f'341 "b""o""b" {vocab.sides[1]} player',
                f'342 "alice" {vocab.sides[0]} player',
                '343 1 "early" observer',
                "344 1 observers",
                "353 You will observe",
            ]
            assert (await read_display(early))[0] == f"380 1 {vocab.letters[0]}"
            await play_moves(players, [OPENING[game]], (early,))
            late, _ = await seat(server.port, '0.9.1 observer "late"')
            assert [(await late.line())[:3] for _ in range(6)] == ["341", "342", "343", "343", "344", "353"]
            assert (await read_display(late))[0] == f"380 1 {vocab.letters[1]}"
            record = await play_random(game, players, random.Random(game + kind), (early, late), (OPENING[game],))
            tokens = [OPENING[game]] + [p.split()[-1] for p in record.plies]
            result, board = replay(game, kind, tokens)
            mover = (len(tokens) - 1) % 2
            if result == R.draw:
                assert record.final[mover].startswith("203")
            else:
                assert isinstance(result, R.win)
                winner = get_engine(game, kind).players.index(result.player)
                assert record.final[mover].startswith("201" if winner == mover else "202")
            for observer in (early, late):
                assert observer.seen[-3 - len(board)] == record.status
                assert observer.seen[-2 - len(board)] == f"380 {len(tokens) // 2 + len(tokens) % 2} ."
                assert observer.seen[-len(board) :] == board
            for client in (*players, early, late):
                assert await client.eof()
            await server.wait()
            assert server.games == 1

    run(scenario)


# Shortest games found by random search, one per way a move ends the game; the
# code is the 32x everyone gets and the mover's 20x follows from it.
ENDINGS = {
    "gothello": {
        321: "c3 pass pass",
        322: "pass c3 pass d3 e5 pass pass",
        323: "pass c3 pass pass",
        324: "c3 pass e5 d1 pass pass",
        325: "pass d4 c3 pass pass",
        326: "pass pass",
    },
    "awari": {
        321: "AbFeDcEcFdFbCbDaEaDfF",
        322: "EbBaCeDcAdDeCfE",
        323: "CfEdDfBdEeEaAcFf",
        324: "CfEcDfFfAeBaFc",
        325: "AdBbCeAfFbDaBcCeBdDeAcDdBeDfE",
        326: "BeDdCfAbEbDfFa",
    },
}
MOVER_RESULT = {321: 201, 322: 202, 323: 201, 324: 202, 325: 203, 326: 203}


@pytest.mark.parametrize(("game", "code"), [(g, c) for g in GAMES for c in sorted(ENDINGS[g])])
def test_game_ending_move(game: str, code: int) -> None:
    """Each of 321–326: the mover gets 201/202/203, everyone the 32x with the
    final move's full-move number, then the server closes every connection."""
    script = ENDINGS[game][code]
    tokens = script.split() if game == "gothello" else list(script)
    vocab = P.VOCABULARIES[game]

    async def scenario() -> None:
        async with serving(game) as server:
            players = await seat_players(server.port, game)
            results = await play_moves(players, tokens)
            for reply, status in results[:-1]:
                assert reply.startswith("200") and status[:2] == "31"
            reply, status = results[-1]
            side, serial = (len(tokens) - 1) % 2, (len(tokens) + 1) // 2
            assert int(reply[:3]) == MOVER_RESULT[code]
            outcome = {201: "wins", 202: "loses", 203: "draws"}[MOVER_RESULT[code]]
            assert (
                status == f"{code} {P.serial_text(serial, Side(side))} {tokens[-1]} and {vocab.sides[side]} {outcome}"
            )
            for client in players:
                assert await client.eof()

    run(scenario)


@pytest.mark.parametrize("game", GAMES)
def test_forever_hosts_game_after_game(game: str) -> None:
    """With ``forever`` a server starts a new game as soon as one ends; players of
    the next game are seated afresh on the same port."""

    async def scenario() -> None:
        async with serving(game, forever=True) as server:
            for n in (1, 2, 3):
                first, second = await seat_players(server.port, game)
                await second.send("resign")
                await second.expect(204)
                await first.line()
                assert await first.eof() and server.games == n

    run(scenario)


@pytest.mark.parametrize("game", GAMES)
def test_a_finished_game_is_freed_without_the_cyclic_collector(game: str) -> None:
    """A game played to its end and its connections closed leaves nothing the cyclic
    collector must free: its session is gone by reference counting alone.  (A closure
    over the session in its own listeners made every game a cycle; thousands of them
    made the collector's full passes the long tail of the move round trip.)"""
    sessions: list[weakref.ReferenceType[Session]] = []
    settings = Settings(P.VOCABULARIES[game], 0, None, CONFIG_MESSAGES[game], Limits())
    spec = ServerConfig(
        settings, host="127.0.0.1", port=0, forever=True, net=NetLimits(close_grace=1.0),
        session_hooks=(lambda session: sessions.append(weakref.ref(session)),),
    )  # fmt: skip

    async def scenario() -> None:
        server = GameServer(spec, get_engine(game, "impl"))
        await server.start()
        try:
            first, second = await seat_players(server.port, game)
            await second.send("resign")
            await second.expect(204)
            for client in (first, second):  # read to the end: the server closes both
                while await asyncio.wait_for(client.reader.read(4096), 10):
                    pass
            for _ in range(1000):  # until the server has seen both connections close (10 s at most)
                if sessions[0]() is None:
                    break
                await asyncio.sleep(0.01)
            assert server.games == 1 and len(sessions) == 2  # the next game's session waits
            assert sessions[0]() is None
        finally:
            await server.stop()

    was = gc.isenabled()
    gc.disable()
    try:
        run(scenario)
    finally:
        if was:
            gc.enable()


@on_server("gothello")
async def test_one_game_server_stops_listening(server: GameServer) -> None:
    """By default the server plays one game, then stops listening and its wait() returns."""
    port = server.port
    first, _second = await seat_players(port, "gothello")
    await first.send("resign")
    await server.wait()
    with pytest.raises(OSError):
        await asyncio.open_connection("127.0.0.1", port)


def test_several_servers_in_one_process() -> None:
    """Games on different servers of one process are independent."""

    async def scenario() -> None:
        async with serving("awari") as a, serving("gothello") as g1, serving("gothello") as g2:
            pa = await seat_players(a.port, "awari")
            p1 = await seat_players(g1.port, "gothello")
            p2 = await seat_players(g2.port, "gothello")
            await play_moves(p1, ["c3", "d4"])
            await play_moves(p2, ["pass", "pass"])
            await play_moves(pa, ["A", "a"])
            assert g2.games == 1 and g1.games == 0 and a.games == 0
            await p1[0].send("2 pass")
            assert (await p1[0].line()).startswith("200")

    run(scenario)


SOAK = {"impl": 200, "spec": 12, "checked": 12}
"""Concurrent games per game kind (how long they take is bench/server.py's)."""


def test_soak_many_concurrent_games(tmp_path: Path) -> None:
    """Many random games at once on one process (half Awari, half Gothello, each on
    its own server), all finishing correctly, each recorded with its plies."""
    count = SOAK[netclient.current_kind()]
    games = [GAMES[i % 2] for i in range(count)]

    async def one(i: int, game: str) -> int:
        async with serving(game, record_dir=tmp_path / str(i)) as server:
            players = await seat_players(server.port, game)
            record = await play_random(game, players, random.Random(i))
            assert record.status[:2] == "32"
            for client in players:
                assert await client.eof()
            return len(record.plies)

    async def scenario() -> list[int]:
        return await asyncio.gather(*(one(i, g) for i, g in enumerate(games)))

    plies = run(scenario, timeout=3600)  # a hang guard, not a bound on speed
    assert all(p > 0 for p in plies)
    for i, (game, count) in enumerate(zip(games, plies, strict=True)):
        (path,) = (tmp_path / str(i)).iterdir()
        written = pgn.parse(path.read_text())
        assert written.game == game and len(written.plies) == count and written.tag("Termination") == "move"
