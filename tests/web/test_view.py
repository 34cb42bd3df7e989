"""The live web view at the HTTP and server-sent-events level, while real games
are played through the servers: the board of every move equals the engine's, a
viewer joining mid-game catches up, the result appears, finished games and
records replay, viewers are read-only, and one that stalls is dropped while the
game goes on.  (The same behaviour in a real browser: tests/web/test_browser.py.)"""

from __future__ import annotations

import asyncio
import json
import random
import signal
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from impl import cli
from impl import protocol as P
from impl.apps import serve as serve_cli
from impl.config import Config, HubLimits
from impl.engines.registry import get_engine
from impl.web import views
from impl.web.archive import page_plies, parse_record, shown_tags
from spec import awari as A
from spec import gothello as G
from spec import result as R
from tests.support.netclient import Client, run, seat, seat_players
from tests.support.webclient import EventStream, Referee, Sink, expected_board, play_one, stream, watched

GAMES = ("awari", "gothello")


def assert_board(board: dict[str, Any], referee: Referee) -> None:
    cells, counts = expected_board(referee.game, referee.state, referee.engine)
    assert board["cells"] == cells
    assert board["counts"] == counts


# ─── board data ────────────────────────────────────────────────────────────────


def test_awari_captures_are_the_specs() -> None:
    """The view's captures (the engine's description) equal Sow_Capture's (the spec,
    contracts on) for every move of two random games."""
    engine: Any = get_engine("awari", "impl")
    rng = random.Random(15)
    checked = captured = 0
    for _ in range(2):
        state = engine.initial()
        while not engine.is_over(state):
            pit = rng.choice(engine.legal_moves(state))
            before = engine.to_spec(state)
            _, _, expected = A.Sow_Capture_corrected(A.θAwariBoard(before), pit)
            move = engine.describe(state, pit)
            _, state = engine.apply(state, pit)
            view = views.board_view(engine, state, move)
            assert view.last == pit.name and set(view.captures) == {p.name for p in expected}
            checked, captured = checked + 1, captured + bool(expected)
    assert checked > 50 and captured > 5


@pytest.mark.parametrize("game", GAMES)
def test_views_draw_the_engines_state(game: str) -> None:
    """The fast engines' boards as drawn equal their full spec states', move after move."""
    engine: Any = get_engine(game, "impl")
    rng, state = random.Random(7), engine.initial()
    while not engine.is_over(state):
        full, view = engine.to_spec(state), views.board_view(engine, state)
        if game == "awari":
            cells: list[tuple[str, int | str]] = [(p.name, full.board[p]) for p in A.PIT]
            counts = [(p.name, full.score[p]) for p in (A.PLAYER.south, A.PLAYER.north)]
        else:
            colour = {G.blank: "", G.stone(G.PLAYER.black): "black", G.stone(G.PLAYER.white): "white"}
            cells = [(f"{'abcde'[f - 1]}{r}", colour[full.board[(f, r)]]) for f in range(1, 6) for r in range(1, 6)]
            counts = [(p.name, G.stones(full.board, p)) for p in G.PLAYER]
        assert (list(view.cells), list(view.counts), view.to_move) == (cells, counts, full.to_move.name)
        _, state = engine.apply(state, rng.choice(engine.legal_moves(state)))


def test_awari_captures_only_for_a_move_that_sows() -> None:
    engine = get_engine("awari", "impl")
    with pytest.raises(ValueError, match="not a legal move"):
        engine.describe(engine.initial(), A.PIT.a)  # north's pit, south to move


def test_gothello_turned_stones_are_marked() -> None:
    """White's a1 loses its last liberty to black's b1 and turns black."""
    engine = get_engine("gothello", "impl")
    state = engine.initial()
    for token in ("a2", "a1"):
        _, state = engine.apply(state, engine.parse_move(token))
    move = engine.parse_move("b1")
    result, after = engine.apply(state, move)
    assert result == R.not_done
    view = views.board_view(engine, after, engine.describe(state, move))
    assert view.last == "b1" and view.captures == ("a1",)
    assert dict(view.cells)["a1"] == "black" and dict(view.counts) == {"black": 3, "white": 0}


def test_replay_stops_at_a_move_it_cannot_read() -> None:
    engine = get_engine("gothello", "impl")
    frames = views.replay(engine, ["c3", "c3", "d4"])  # the second c3 is refused
    assert len(frames) == 2 and frames[1].last == "c3"
    assert len(views.replay(engine, ["c3", "z9"])) == 2


def test_record_parsing() -> None:
    text = 'Game: gothello\nServer: 0\nBlack: "a"\nResult: black wins\n\n1 c3\n1 ... pass\n2 pass\n'
    record = parse_record("x.txt", text)
    assert (
        record is not None and record.moves == ["c3", "pass", "pass"] and shown_tags(record)["Result"] == "black wins"
    )
    assert record.tags == (("Game", "gothello"), ("Server", "0"), ("Black", '"a"'), ("Result", "black wins"))
    assert parse_record("x.txt", "Game: chess\n\n1 e4\n") is None
    assert parse_record("x.txt", "not a header\n\n1 c3\n") is None


def test_pgn_records_are_read_in_the_pages_shape() -> None:
    """A PGN record (impl/pgn.py) reaches the page with the older records' keys:
    quoted names, the result in words, the clocks as ``Time``."""
    text = '[Game "gothello"]\n[Black "a\\"b"]\n[Result "0-1"]\n[TimeControl "300:200"]\n\n1. c3 d4 2. pass 0-1\n'
    record = parse_record("x.pgn", text)
    assert record is not None and record.moves == ["c3", "d4", "pass"]
    assert page_plies(record) == ["1 c3", "1 ... d4", "2 pass"]
    shown = shown_tags(record)
    assert shown["Black"] == '"a""b"' and shown["White"] == '""'
    assert shown["Result"] == "white wins" and shown["Time"] == "300 200"
    assert parse_record("x.pgn", '[Game "gothello"]\n\n1. c3 c3 *\n') is None  # an illegal move


# ─── live games ────────────────────────────────────────────────────────────────


@pytest.mark.parametrize("game", GAMES)
def test_a_game_followed_live_over_server_sent_events(game: str) -> None:
    """A viewer following the server from before the game, one joining mid-game,
    and the list: every move's board equals the engine's, with its ply, the side
    to move and the last move; the late viewer's snapshot holds the moves so far;
    the result appears; the JSON endpoints say the same, and the frames of the
    finished game replay it."""
    vocab = P.VOCABULARIES[game]

    async def scenario() -> None:
        async with watched([game], time=(600.0, 600.0)) as (web, servers):
            base = f"http://127.0.0.1:{web.port}"
            referee = Referee(game, get_engine(game, "impl"), random.Random(game))
            async with (
                aiohttp.ClientSession() as http,
                stream(http, f"{base}/events/server/{game}-0") as follower,
                stream(http, f"{base}/events") as lister,
            ):
                listing = await lister.expect("list")
                assert [s["port"] for s in listing["servers"]] == [servers[game].port]
                assert listing["servers"][0]["current"] is None
                players = await seat_players(servers[game].port, game, ("ann", "bob"))
                snapshot = await follower.expect("snapshot")
                gid = snapshot["id"]
                assert snapshot["names"] == ["ann", "bob"] and snapshot["moves"] == []
                assert_board(snapshot["board"], referee)
                late: EventStream | None = None
                while True:
                    reply, _ = await play_one(players, referee)
                    move = await follower.expect("move")
                    index, token = len(referee.tokens), referee.tokens[-1]
                    assert move["index"] == index and move["move"] == token and move["side"] == (index - 1) % 2
                    serial = (index - 1) // 2 + 1
                    assert move["ply"] == (f"{serial} ... {token}" if move["side"] else f"{serial} {token}")
                    assert_board(move["board"], referee)
                    assert move["board"]["last"] == referee.tokens[-1]
                    if reply[:3] != "207":
                        break
                    assert move["to_move"] == len(referee.tokens) % 2
                    assert move["clocks"]["running"] == move["to_move"]
                    if len(referee.tokens) == 3:
                        late_cm = stream(http, f"{base}/events/game/{gid}")
                        late = await late_cm.__aenter__()
                        caught_up = await late.expect("snapshot")
                        assert [m["move"] for m in caught_up["moves"]] == referee.tokens
                        assert_board(caught_up["board"], referee)
                        listing = await lister.expect("list")
                        assert listing["servers"][0]["current"]["id"] == gid
                    elif late is not None:
                        assert (await late.expect("move"))["board"] == move["board"]
                over = await follower.expect("over")
                winner = None if referee.result == R.draw else referee.engine.players.index(referee.result.player)
                expected = "draw" if winner is None else f"{vocab.sides[winner]} wins"
                assert over["result"]["result"] == expected and over["result"]["termination"] == "move"
                assert late is not None
                assert (await late.expect("move"))["board"] == move["board"]
                assert (await late.expect("over"))["result"] == over["result"]
                with pytest.raises(EOFError):  # a game's stream ends with the game
                    await late.next()
                await late_cm.__aexit__(None, None, None)
                async with http.get(f"{base}/api/games/{gid}") as response:
                    final = await response.json()
                assert final["result"]["result"] == expected and not final["live"]
                assert [m["move"] for m in final["moves"]] == referee.tokens
                assert_board(final["board"], referee)
                async with http.get(f"{base}/api/games/{gid}/frames") as response:
                    frames = (await response.json())["frames"]
                assert len(frames) == len(referee.tokens) + 1 and frames[-1] == final["board"]
                async with http.get(f"{base}/api/servers") as response:
                    listing = await response.json()
                assert [g["id"] for g in listing["finished"]] == [gid]
                for client in players:
                    await client.close()

    run(scenario)


def test_the_tap_reports_each_change_once() -> None:
    """The feed has one event per change; a draw offer and its refusal are noted."""
    sink = Sink[Any]()
    events = sink.events

    async def scenario() -> None:
        async with watched(["awari"]) as (web, servers):
            server = servers["awari"]
            tap = web.tap
            tap.sink = sink
            players = await seat_players(server.port, "awari")
            referee = Referee("awari", get_engine("awari", "impl"), random.Random(1))
            await play_one(players, referee)

            async def until(client: Client, code: str) -> None:
                while not (await client.line()).startswith(code):
                    pass

            await players[1].send("draw?")
            await until(players[0], "332")
            await players[0].send("nodraw")
            await until(players[1], "333")
            await players[1].send("resign")
            await until(players[0], "32")
            kinds = [type(e).__name__ for e in events]
            assert kinds == ["GameStarted", "MoveMade", "ClocksChanged", "ClocksChanged", "GameOver"], kinds
            assert [e.note for e in events[2:4]] == ["draw offered by north", "draw refused"]
            assert events[-1].result == "south wins" and events[-1].termination == "resignation"
            for client in players:
                await client.close()

    run(scenario)


def test_viewers_are_read_only_and_bounded() -> None:
    """Only GET is served; a viewer past the limit gets 503; unknown games 404."""

    async def scenario() -> None:
        limits = HubLimits(max_viewers=2)
        async with watched(["gothello"], limits=limits) as (web, _):
            base = f"http://127.0.0.1:{web.port}"
            async with aiohttp.ClientSession() as http:
                for url in ("/api/servers", "/events", "/events/server/gothello-0"):
                    async with http.post(base + url, data=b"1 c3\r") as response:
                        assert response.status == 405
                async with stream(http, f"{base}/events") as one, stream(http, f"{base}/events") as two:
                    await one.expect("list")
                    await two.expect("list")
                    async with http.get(f"{base}/events") as response:
                        assert response.status == 503
                for url in ("/api/games/gothello-0-9", "/events/game/gothello-0-9", "/events/server/chess-0"):
                    async with http.get(base + url) as response:
                        assert response.status == 404
                async with http.get(f"{base}/api/records") as response:
                    assert response.status == 404  # no record directory

    run(scenario)


def test_a_stalled_viewer_is_dropped_and_the_game_goes_on() -> None:
    """A viewer that never reads its stream is cut off once its connection holds
    more than the write limit; a viewer that reads gets every move; the game
    plays to its end."""

    async def scenario() -> None:
        limits = HubLimits(write_limit=2048, send_buffer=2048)
        async with watched(["awari"], limits=limits, forever=True) as (web, servers):
            stalled = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            stalled.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
            stalled.setblocking(False)
            loop = asyncio.get_running_loop()
            await loop.sock_connect(stalled, ("127.0.0.1", web.port))
            await loop.sock_sendall(stalled, b"GET /events/server/awari-0 HTTP/1.1\r\nHost: x\r\n\r\n")
            base = f"http://127.0.0.1:{web.port}"
            async with aiohttp.ClientSession() as http, stream(http, f"{base}/events/server/awari-0") as reader:
                for game_no in (1, 2):
                    players = await seat_players(servers["awari"].port, "awari")
                    assert (await reader.expect("snapshot"))["game_no"] == game_no
                    referee = Referee("awari", get_engine("awari", "impl"), random.Random(game_no))
                    while not referee.over:
                        await play_one(players, referee)
                        assert (await reader.expect("move"))["index"] == len(referee.tokens)
                    await reader.expect("over")
                    for client in players:
                        await client.close()
                    if web.hub.dropped:
                        break
            assert web.hub.dropped == 1
            stalled.close()

    run(scenario)


def test_finished_games_replay_from_the_record_directory(tmp_path: Path) -> None:
    """A record written by the server lists and replays: its frames end on the
    board the engine reached; names outside the directory's own are refused."""

    async def scenario() -> None:
        async with watched(["gothello"], record_dir=tmp_path) as (web, servers):
            players = await seat_players(servers["gothello"].port, "gothello", ("ann", 'b"o"b'))
            referee = Referee("gothello", get_engine("gothello", "impl"), random.Random(3))
            while not referee.over:
                await play_one(players, referee)
            await servers["gothello"].flush()  # records are written off the loop
            base = f"http://127.0.0.1:{web.port}"
            async with aiohttp.ClientSession() as http:
                async with http.get(f"{base}/api/records") as response:
                    records = (await response.json())["records"]
                assert len(records) == 1 and records[0].get("plies") == len(referee.tokens), records
                name = records[0]["name"]
                async with http.get(f"{base}/api/records/{name}") as response:
                    record = await response.json()
                assert record["moves"] == referee.tokens and records[0]["tags"] == record["tags"]
                assert record["tags"]["White"] == 'b"o"b' and record["names"] == ["ann", 'b"o"b']
                assert len(record["frames"]) == len(referee.tokens) + 1
                assert_board(record["frames"][-1], referee)
                (tmp_path / "notes.txt").write_text("not a record\n")
                for bad in ("..%2Fsecret.txt", "missing.txt", ".hidden.txt"):
                    async with http.get(f"{base}/api/records/{bad}") as response:
                        assert response.status == 404, bad
                async with http.get(f"{base}/api/records/notes.txt") as response:
                    assert response.status == 422 and "not a header" in (await response.json())["flagged"]
                async with http.get(f"{base}/record/{name}") as response:
                    assert response.status == 200 and "app.js" in await response.text()
            for client in players:
                await client.close()

    run(scenario)


# ─── the command ───────────────────────────────────────────────────────────────


def test_serve_with_web_in_a_real_process(tmp_path: Path) -> None:
    """``referee serve gothello --web 0``: the view listens on the address given,
    lists the server and shows its game; SIGTERM stops both."""
    command = [sys.executable, "-m", "impl.cli", "serve", "gothello", "--port", "0", "--host", "127.0.0.1"]
    command += ["--web", "0", "--web-host", "127.0.0.1", "--record", str(tmp_path)]
    proc = subprocess.Popen(command, stderr=subprocess.PIPE, text=True)
    assert proc.stderr is not None
    try:
        lines = [json.loads(proc.stderr.readline()) for _ in range(2)]
        web = next(x for x in lines if x["event"] == "web_listen")
        game = next(x for x in lines if x["event"] == "listen")
        assert web["host"] == "127.0.0.1"

        async def scenario() -> None:
            players = await seat_players(game["port"], "gothello")
            observer, _ = await seat(game["port"], "0.9.1 observer")
            async with aiohttp.ClientSession() as http:
                while True:  # the server and its game reach the web process over a pipe: soon, not at once
                    async with http.get(f"http://127.0.0.1:{web['port']}/api/servers") as response:
                        listing = await response.json()
                    if any(s.get("current") for s in listing["servers"]):
                        break  # run() bounds the wait
                    await asyncio.sleep(0.05)
                assert listing["records"] is True
                [server] = listing["servers"]
                assert server["port"] == game["port"] and server["current"]["names"] == ["", ""]
                async with http.get(f"http://127.0.0.1:{web['port']}/") as response:
                    assert response.status == 200 and "text/html" in response.headers["Content-Type"]
            for client in (*players, observer):
                await client.close()

        run(scenario)
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=20)
    assert proc.returncode in (0, 128 + signal.SIGTERM)


@pytest.mark.parametrize("value", ["70000", "-1", "web"])
def test_a_bad_web_port_is_a_usage_error(value: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        cli.main(["serve", "gothello", "--web", value])
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--web" in err and value in err


def test_web_arguments() -> None:
    args = cli.build_parser().parse_args(["serve", "gothello", "--host", "127.0.0.2", "--web", "0"])
    view = serve_cli.web_view(Config.from_args(args))
    assert view.host == "127.0.0.2"
    [server] = serve_cli.build_servers(args, (view.session_hook,))
    assert server.spec.session_hooks == (view.session_hook,)
    assert serve_cli.web_view(Config.from_args(cli.build_parser().parse_args(["serve", "gothello"]))) is None
