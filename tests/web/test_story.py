"""The web view tells the whole story (issue #30): every game and record JSON
names the rule set and the engine separately, a finished game its final score
(Awari's stores, Gothello's stones), a replay's frames their clocks (a record's
from its ``[%clk]`` comments); a game, record, server or path it does not have is
a 404 with a readable page, or JSON for the API; ``/tv`` goes to the server
playing.  Real servers and the web view on 127.0.0.1, read over HTTP."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import aiohttp

from impl import pgn
from impl.config import HubLimits
from impl.engines.registry import get_engine
from impl.game import Outcome, Side, Termination
from impl.web.app import WebView
from impl.web.archive import frame_clocks, score_of
from impl.web.pages import missing_page, tv_server
from tests.support.netclient import run, seat_players
from tests.support.webclient import EventStream, Referee, play_one, stream, watched


async def get(http: aiohttp.ClientSession, url: str) -> tuple[int, str, Any]:
    """Status, content type and body (JSON decoded when it is JSON)."""
    async with http.get(url, allow_redirects=False) as response:
        kind = response.content_type
        body = await response.json() if kind == "application/json" else await response.text()
        return response.status, kind, body


async def play_out(port: int, game: str, rules: str, seed: int) -> Referee:
    players = await seat_players(port, game, ("ann", "bob"))
    referee = Referee(game, get_engine(game, "impl", rules), random.Random(seed))
    while not referee.over:
        await play_one(players, referee)
    for client in players:
        await client.close()
    return referee


def final_score(referee: Referee) -> dict[str, int]:
    sides = ("south", "north") if referee.game == "awari" else ("black", "white")
    return dict(zip(sides, referee.engine.counts(referee.state), strict=True))


def test_a_finished_game_under_abapa_names_its_rules_engine_score_and_clocks(tmp_path: Path) -> None:
    """An Awari game under abapa, with clocks, played to its end: the list, the
    game, its frames, the record listing and the record page all say ``abapa`` and
    ``impl`` apart, and the stores the engine ended with; the frames' clocks start
    at the time control, and the record's are its ``[%clk]`` comments, frame by frame."""

    async def scenario() -> None:
        async with watched(["awari"], rules="abapa", time=(300.0, 300.0), record_dir=tmp_path) as (web, servers):
            referee = await play_out(servers["awari"].port, "awari", "abapa", seed=5)
            await servers["awari"].flush()
            score, plies = final_score(referee), len(referee.tokens)
            base = f"http://127.0.0.1:{web.port}"
            async with aiohttp.ClientSession() as http:
                _, _, listing = await get(http, f"{base}/api/servers")
                [server] = listing["servers"]
                assert (server["rules"], server["engine"]) == ("abapa", "impl")
                [done] = listing["finished"]
                assert (done["rules"], done["engine"], done["score"]) == ("abapa", "impl", score)
                _, _, game = await get(http, f"{base}/api/games/awari-0-1")
                assert (game["rules"], game["engine"], game["score"]) == ("abapa", "impl", score)
                _, _, frames = await get(http, f"{base}/api/games/awari-0-1/frames")
                assert len(frames["clocks"]) == len(frames["frames"]) == plies + 1
                assert frames["clocks"][0] == [300.0, 300.0]
                assert all(0 < left <= 300 for pair in frames["clocks"] for left in pair)
                _, _, records = await get(http, f"{base}/api/records")
                [entry] = records["records"]
                assert (entry["rules"], entry["engine"], entry["score"]) == ("abapa", "impl", score)
                status, _, record = await get(http, f"{base}/api/records/{entry['name']}")
                assert status == 200
                assert (record["rules"], record["engine"], record["score"]) == ("abapa", "impl", score)
                written = pgn.parse((tmp_path / entry["name"]).read_text())
                assert written.tag("Rules") == "abapa"
                clocks = record["clocks"]
                assert len(clocks) == plies + 1 and clocks[0] == [300.0, 300.0]
                for index, ply in enumerate(written.plies, 1):  # the mover's clock is the ply's [%clk]
                    assert clocks[index][(index - 1) % 2] == ply.clock
                    assert clocks[index][index % 2] == clocks[index - 1][index % 2]

    run(scenario)


def test_gothello_final_score_is_the_stone_count() -> None:
    async def scenario() -> None:
        async with watched(["gothello"]) as (web, servers):
            referee = await play_out(servers["gothello"].port, "gothello", "paper", seed=7)
            base = f"http://127.0.0.1:{web.port}"
            async with aiohttp.ClientSession() as http:
                _, _, game = await get(http, f"{base}/api/games/gothello-0-1")
                cells = game["board"]["cells"].values()
                stones = {side: sum(1 for c in cells if c == side) for side in ("black", "white")}
                assert game["score"] == stones == final_score(referee)
                assert (game["rules"], game["engine"]) == ("paper", "impl")
                _, _, frames = await get(http, f"{base}/api/games/gothello-0-1/frames")
                assert frames["clocks"] is None  # no time controls

    run(scenario)


def test_a_records_clk_comments_are_its_replay_clocks(tmp_path: Path) -> None:
    """A record written by hand: 60 s each, three plies with their clocks; each
    frame shows the time control until a side has moved, then its last ``[%clk]``."""
    tags = [("Game", "gothello"), ("Black", "ann"), ("White", "bob"), ("Result", "*"), ("TimeControl", "60")]
    tags += [("Engine", "checked"), ("Score", "black 2 white 1"), ("Termination", "resignation")]
    outcome = Outcome(Side.FIRST, Termination.RESIGNATION)
    text = pgn.write(pgn.build("gothello", tags, ["c3", "d4", "b2"], [59.5, 58.2, 50.1], outcome))
    assert "{[%clk 0:00:58.2]}" in text
    (tmp_path / "g.pgn").write_text(text)
    bad = text.replace('[Game "gothello"]\n', '[Game "gothello"]\n[Rules "nonsense"]\n')
    assert bad != text
    (tmp_path / "bad-rules.pgn").write_text(bad)

    async def scenario() -> None:
        async with watched(["gothello"], record_dir=tmp_path) as (web, _):
            base = f"http://127.0.0.1:{web.port}"
            async with aiohttp.ClientSession() as http:
                _, _, record = await get(http, f"{base}/api/records/g.pgn")
                assert record["clocks"] == [[60, 60], [59.5, 60], [59.5, 58.2], [50.1, 58.2]]
                assert (record["rules"], record["engine"]) == ("paper", "checked")
                assert record["score"] == {"black": 2, "white": 1}  # the board's stones after b2
                _, _, listing = await get(http, f"{base}/api/records")
                entries = {r["name"]: r for r in listing["records"]}
                assert entries["g.pgn"]["score"] == {"black": 2, "white": 1}  # the Score tag
                assert "unknown gothello rules 'nonsense'" in entries["bad-rules.pgn"]["flagged"]

    run(scenario)


def test_frame_clocks_and_score_tags() -> None:
    assert frame_clocks((10.0, 20.0), []) == [[10.0, 20.0]]
    assert frame_clocks((10.0, 20.0), [9.0, 18.5]) == [[10.0, 20.0], [9.0, 20.0], [9.0, 18.5]]
    assert frame_clocks(None, [9.0]) is None  # no time control
    assert frame_clocks((10.0, 10.0), [9.0, None]) is None  # a ply without its clock
    assert score_of("awari", "south 25 north 20") == {"south": 25, "north": 20}
    assert score_of("awari", "north 25 south 20") is None
    assert score_of("gothello", "black 3 white x") is None


def test_what_the_view_does_not_have_is_a_readable_404(tmp_path: Path) -> None:
    """Pages answer 404 with HTML saying what is missing (the name escaped); the
    JSON endpoints 404 with ``{"error": …}``; what exists still answers 200."""
    (tmp_path / "notes.txt").write_text("not a record\n")

    async def scenario() -> None:
        async with watched(["gothello"], record_dir=tmp_path) as (web, servers):
            players = await seat_players(servers["gothello"].port, "gothello")
            base = f"http://127.0.0.1:{web.port}"
            async with aiohttp.ClientSession() as http:
                pages = {
                    "/game/nope": "no such game",
                    "/game/%3Cb%3Ex": "no such game",
                    "/record/missing.pgn": "no such record",
                    "/record/..%2Fsecret.pgn": "no such record",
                    "/tv/chess-0": "no such server",
                    "/nowhere": "not found",
                    "/static/nope.js": "not found",
                }
                for path, title in pages.items():
                    status, kind, body = await get(http, base + path)
                    assert (status, kind) == (404, "text/html"), path
                    assert f"<title>zreferee — {title}</title>" in body and 'id="missing"' in body, path
                    assert "<b>" not in body and "<script" not in body
                for path in ("/api/games/nope", "/api/games/nope/frames", "/api/records/missing.pgn"):
                    status, kind, body = await get(http, base + path)
                    assert (status, kind) == (404, "application/json") and body["error"], path
                for path in ("/game/gothello-0-1", "/record/notes.txt", "/tv/gothello-0"):
                    status, kind, _ = await get(http, base + path)
                    assert (status, kind) == (200, "text/html"), path
            for client in players:
                await client.close()
        async with watched(["gothello"]) as (web, _), aiohttp.ClientSession() as http:
            status, kind, body = await get(http, f"http://127.0.0.1:{web.port}/record/any.pgn")
            assert (status, kind) == (404, "text/html") and "keeps no records" in body
            status, kind, body = await get(http, f"http://127.0.0.1:{web.port}/api/records")
            assert (status, kind) == (404, "application/json") and "record directory" in body["error"]

    run(scenario)


def test_tv_goes_to_the_server_playing() -> None:
    """``/tv`` redirects to the first server with a game in progress, else to the
    first server; with none, a 404."""

    async def scenario() -> None:
        async with watched(["awari", "gothello"]) as (web, servers), aiohttp.ClientSession() as http:
            base = f"http://127.0.0.1:{web.port}"
            async with http.get(base + "/tv", allow_redirects=False) as response:
                assert (response.status, response.headers["Location"]) == (302, "/tv/awari-0")
            players = await seat_players(servers["gothello"].port, "gothello")
            async with http.get(base + "/tv", allow_redirects=False) as response:
                assert (response.status, response.headers["Location"]) == (302, "/tv/gothello-0")
            for client in players:
                await client.close()
        empty = WebView("127.0.0.1", 0)
        await empty.start()
        try:
            async with aiohttp.ClientSession() as http, http.get(f"http://127.0.0.1:{empty.port}/tv") as response:
                assert response.status == 404 and "no server" in await response.text()
        finally:
            await empty.stop()

    run(scenario)


def test_tv_server_and_missing_page() -> None:
    assert tv_server([]) is None
    assert tv_server([{"key": "a", "current": None}, {"key": "b", "current": {"id": "b-1"}}]) == "b"
    assert tv_server([{"key": "a", "current": None}, {"key": "b", "current": None}]) == "a"
    page = missing_page("no such game", "No game '<i>' here.")
    assert "&lt;i&gt;" in page and "<i>" not in page and "<script" not in page


async def _then_the_second_game(feed: EventStream, port: int) -> None:
    """Two players take their seats: the server's follower gets the second game's start."""
    players = await seat_players(port, "gothello")
    name, data = await feed.next()
    assert (name, data["id"], data["result"]) == ("snapshot", "gothello-0-2", None)
    for client in players:
        await client.close()


def test_a_server_follower_behind_at_the_end_gets_the_games_end() -> None:
    """A viewer following a server (the TV page's feed) that is behind when the
    game ends is caught up with the finished game's snapshot, result and score
    included (``catch_up=0``: every round catches up), then follows the next game."""

    async def scenario() -> None:
        async with watched(["gothello"], limits=HubLimits(catch_up=0), forever=True) as (web, servers):
            base = f"http://127.0.0.1:{web.port}"
            async with aiohttp.ClientSession() as http, stream(http, f"{base}/events/server/gothello-0") as feed:
                referee = await play_out(servers["gothello"].port, "gothello", "paper", seed=2)
                while True:
                    name, data = await feed.next()
                    if name == "snapshot" and data["result"] is not None:
                        break
                assert data["id"] == "gothello-0-1" and data["score"] == final_score(referee)
                await _then_the_second_game(feed, servers["gothello"].port)

    run(scenario)


def test_a_server_follower_between_games_is_shown_the_last_one() -> None:
    """The TV page opened (or reloaded) between games got only "waiting for a game":
    it is sent the server's last finished game, result included (issue #53), then
    the next game as it starts."""

    async def scenario() -> None:
        async with watched(["gothello"], forever=True) as (web, servers):
            base = f"http://127.0.0.1:{web.port}"
            referee = await play_out(servers["gothello"].port, "gothello", "paper", seed=3)
            async with aiohttp.ClientSession() as http:
                for _ in range(200):  # until the view has the game's end
                    async with http.get(f"{base}/api/servers") as response:
                        if (await response.json())["finished"]:
                            break
                    await asyncio.sleep(0.05)
                async with stream(http, f"{base}/events/server/gothello-0") as feed:
                    name, data = await feed.next()
                    assert (name, data["id"]) == ("snapshot", "gothello-0-1")
                    assert data["result"] is not None and data["score"] == final_score(referee)
                    await _then_the_second_game(feed, servers["gothello"].port)

    run(scenario)
