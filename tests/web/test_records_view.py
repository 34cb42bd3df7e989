"""A game's page once the game has left memory, and a record's tags as the file
writes them (issue #41), at the HTTP level: a finished game the hub no longer
keeps redirects to its record's page; ``/api/records/{name}`` gives the file's
tags as they are, in order, and the page's fields (names, the result in plain
words) beside them; a tournament's game maps to its ``game-NNNN.pgn``, and its
players to their labels in the standings."""

from __future__ import annotations

import json
import random
import socket
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import aiohttp

from impl import pgn
from impl.config import ClientLimits, Config, HubLimits, WebLimits
from impl.engines.registry import get_engine
from impl.web import archive
from impl.web.child import make_view
from impl.web.feed import ServerInfo
from impl.web.hub import Ended
from impl.web.link import ViewConfig, WebLink, frame, read_message
from impl.web.tourney import TournamentView
from tests.support.netclient import run, seat_players
from tests.support.webclient import Referee, play_one, watched


async def play_game(port: int, seed: int, names: tuple[str, str]) -> Referee:
    players = await seat_players(port, "gothello", names)
    referee = Referee("gothello", get_engine("gothello", "impl"), random.Random(seed))
    while not referee.over:
        await play_one(players, referee)
    for client in players:
        await client.close()
    return referee


def test_a_game_no_longer_kept_redirects_to_its_record(tmp_path: Path) -> None:
    """With one finished game kept, the first of two games is forgotten by the
    hub: its page answers 303 to ``/record/<its file>``, the file the server wrote
    for it, and that page loads; an unknown game is still a 404, and so is a
    forgotten game whose record is gone."""

    async def scenario() -> None:
        limits = HubLimits(keep_finished=1)
        async with watched(["gothello"], record_dir=tmp_path, limits=limits, forever=True) as (web, servers):
            port = servers["gothello"].port
            await play_game(port, 5, ("ann", "bob"))
            await servers["gothello"].flush()
            [first] = [p.name for p in tmp_path.iterdir()]
            await play_game(port, 6, ("cy", "dee"))
            await servers["gothello"].flush()
            assert "gothello-0-1" not in web.hub.games and "gothello-0-2" in web.hub.games
            base = f"http://127.0.0.1:{web.port}"
            async with aiohttp.ClientSession() as http:
                async with http.get(f"{base}/game/gothello-0-1", allow_redirects=False) as response:
                    assert response.status == 303
                    assert response.headers["Location"] == f"/record/{first}"
                async with http.get(f"{base}/game/gothello-0-1") as response:  # followed: the record's page
                    assert response.status == 200 and str(response.url).endswith(f"/record/{first}")
                async with http.get(f"{base}/game/gothello-0-2", allow_redirects=False) as response:
                    assert response.status == 200  # still kept: its own page
                async with http.get(f"{base}/game/gothello-0-9", allow_redirects=False) as response:
                    assert response.status == 404
                (tmp_path / first).unlink()
                async with http.get(f"{base}/game/gothello-0-1", allow_redirects=False) as response:
                    assert response.status == 404

    run(scenario, timeout=120)


def test_a_record_gives_its_tags_as_written(tmp_path: Path) -> None:
    """``/api/records/{name}`` and the listing: ``tags`` are the file's own, in
    the file's order (names unquoted, ``Result`` PGN's token); ``names``,
    ``result.words`` and ``time`` are the page's fields beside them."""

    async def scenario() -> None:
        async with watched(["gothello"], record_dir=tmp_path, time=(300.0, 200.0)) as (web, servers):
            referee = await play_game(servers["gothello"].port, 3, ("ann", 'b"o"b'))
            await servers["gothello"].flush()
            [path] = list(tmp_path.iterdir())
            written = pgn.parse(path.read_text(encoding="utf-8")).tags
            base = f"http://127.0.0.1:{web.port}"
            async with aiohttp.ClientSession() as http:
                async with http.get(f"{base}/api/records/{path.name}") as response:
                    record: dict[str, Any] = await response.json()
                async with http.get(f"{base}/api/records") as response:
                    [entry] = (await response.json())["records"]
            assert list(record["tags"].items()) == list(written)
            assert entry["tags"] == record["tags"]
            assert record["tags"]["Black"] == "ann" and record["tags"]["White"] == 'b"o"b'
            assert record["tags"]["Result"] in ("1-0", "0-1", "1/2-1/2")
            assert record["names"] == entry["names"] == ["ann", 'b"o"b']
            assert record["sides"] == ["black", "white"] and record["time"] == [300.0, 200.0]
            winner = record["result"]["winner"]
            assert record["result"]["termination"] == "move"
            words = "draw on the board" if winner is None else f"{record['sides'][winner]} wins on the board"
            assert record["result"]["words"] == words, referee.result
            assert record["moves"] == referee.tokens

    run(scenario, timeout=120)


def test_an_older_record_gives_its_header_lines_as_written() -> None:
    """A ``Key: value`` record's tags are its header lines as they are."""
    text = 'Game: Awari\nSouth: "x"\nNorth: "y"\nResult: north wins\nTermination: time\nTime: 60 60\n\n1 C\n'
    entry = archive.summarize("old.txt", text.encode(), complete=True)
    assert list(entry["tags"]) == ["Game", "South", "North", "Result", "Termination", "Time"]
    assert entry["tags"]["South"] == '"x"' and entry["names"] == ["x", "y"]
    assert entry["result"]["words"] == "north wins on time" and entry["result"]["winner"] == 1
    assert entry["time"] == [60.0, 60.0]


def test_repeated_tags_keep_every_value() -> None:
    assert archive.tags_json([("A", "1"), ("D", "x"), ("D", "y"), ("D", "z")]) == {"A": "1", "D": ["x", "y", "z"]}


def test_a_tournament_game_maps_to_its_record_and_its_labels(tmp_path: Path) -> None:
    """In a tournament's view (not opened: its methods only), game 3's id names
    ``game-0003.pgn``, and its players are the labels of the running task 3."""
    view = TournamentView("127.0.0.1", 0, tmp_path, live=True)
    assert view.record_of("awari-3-1") == "game-0003.pgn"
    assert view.record_of("awari-x-1") is None
    info = ServerInfo("awari-3", "awari", "Awari", 3, "127.0.0.1", 0, "impl", None, False, ("south", "north"))
    view._games[info.key] = info
    view.snapshot = SimpleNamespace(running=(SimpleNamespace(number=3, labels=("alpha", "beta")),))
    assert view.labels("awari-3") == ("alpha", "beta")
    view.snapshot = None  # the task finished: its labels stay known
    assert view.labels("awari-3") == ("alpha", "beta")
    assert view.labels("awari-4") is None


def test_the_web_process_names_records_by_the_referees_process_id(tmp_path: Path) -> None:
    """In its own process (impl/web/child.py) the view makes record names with the
    referee's process id (``--parent``), the one ``write_record`` puts in them."""
    view = make_view(ViewConfig(record_dir=tmp_path), 4242)
    assert view.referee_pid == 4242
    view.hub.forgotten["gothello-1-7"] = Ended("gothello", 1, 7, 1_700_000_000.0)
    assert view.record_of("gothello-1-7") == "gothello-1-20231114T221320Z-4242-7.pgn"
    assert view.record_of("gothello-1-8") is None


def test_the_serve_configs_web_limits_reach_the_web_process(tmp_path: Path) -> None:
    """``Config.web_limits`` is the one place the view's limits are set: the referee
    tells the web process (impl/web/link.py ``ViewConfig``, pickled through the feed
    as the web process reads it) and its view, its hub and its clients' admission
    take them."""
    limits = WebLimits(record_rate=3.0, clients=ClientLimits(connections=5), hub=HubLimits(max_viewers=7))
    config = Config(web=0, web_limits=limits)
    sent = WebLink(config.web_address, 0, tmp_path, limits=config.web_limits).view_config()
    ours, theirs = socket.socketpair()
    with ours, theirs:
        ours.sendall(frame(sent))
        received = read_message(theirs)
    assert isinstance(received, ViewConfig) and received.limits == limits
    view = make_view(received, 1)
    assert view.web_limits == limits and view.hub.limits.max_viewers == 7
    assert view.admission.limits.connections == 5 and view.library.record_rate == 3.0


def test_a_missing_record_directory_is_named_as_a_directory(tmp_path: Path) -> None:
    """A missing file reads "no such file" since issue #49; the listing's folder is a directory."""
    from impl.web.archive import Archive

    listing = json.loads(Archive(tmp_path / "gone").listing())
    assert listing == {"records": [], "error": f"{tmp_path / 'gone'}: no such directory"}
