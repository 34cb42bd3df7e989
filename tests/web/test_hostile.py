"""The web view under hostile viewers and a hostile record directory (issue #28):
a listing that blocks never stalls a game; bad, huge, oddly named and linked
files neither break the list nor leave the directory; a repeated listing reads
nothing; connections beyond the cap get 503, and idle or never-ending requests
are closed.  Real sockets on 127.0.0.1, a real game beside the view; nothing is
timed (a blocked reader waits on an Event, released by the test)."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import random
import resource
import signal
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import quote

import aiohttp
import pytest

from impl import pgn
from impl.config import HubLimits, WebLimits
from impl.engines.registry import get_engine
from impl.game import Outcome, Side, Termination
from impl.server import fdbudget
from impl.web import answers, archive
from impl.web.app import WebView
from tests.support.netclient import run, seat_players
from tests.support.webclient import Referee, play_one, stream, watched

TAGS = [("Game", "gothello"), ("Black", "ann"), ("White", "bob"), ("Result", "1-0"), ("Termination", "resignation")]
UNTIL = 10.0
"""Seconds a test waits for something that must happen (a deadline, not a bound measured)."""


def record_text(*extra: tuple[str, str], moves: tuple[str, ...] = ("c3", "d4", "b2")) -> str:
    game = pgn.build("gothello", [*TAGS, *extra], list(moves), None, Outcome(Side.FIRST, Termination.RESIGNATION))
    return pgn.write(game)


def padded(text: str, filler: str) -> str:
    """``text`` with a comment of ``filler`` before its result token (whichever it is)."""
    body, token = text.rstrip("\n").rsplit(" ", 1)
    return f"{body} {{{filler}}} {token}\n"


def counting_reads(monkeypatch: pytest.MonkeyPatch, before: Callable[[str], None] = lambda name: None) -> list[str]:
    """The names archive.read_file is called with, from now on (``before`` runs first, in the records thread)."""
    reads: list[str] = []
    real = archive.read_file

    def read_file(directory: Path, name: str, limit: int) -> tuple[bytes, int]:
        reads.append(name)
        before(name)
        return real(directory, name, limit)

    monkeypatch.setattr(archive, "read_file", read_file)
    return reads


async def get_json(http: aiohttp.ClientSession, url: str) -> tuple[int, Any]:
    async with http.get(url) as response:
        return response.status, await response.json()


async def until(condition: Callable[[], bool]) -> None:
    """Wait for ``condition`` (the event loop turning meanwhile)."""
    async with asyncio.timeout(UNTIL):
        while not condition():
            await asyncio.sleep(0.01)


# ─── the loop is never blocked ─────────────────────────────────────────────────


def test_a_blocked_listing_never_stalls_a_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The record reader blocks (on an Event) inside a listing: a game on the same
    process and loop still gets its moves answered and its viewer its events; the
    listing completes once released."""
    (tmp_path / "old.pgn").write_text(record_text())
    entered, release = threading.Event(), threading.Event()

    def block(name: str) -> None:
        entered.set()
        assert release.wait(UNTIL)

    reads = counting_reads(monkeypatch, block)

    async def scenario() -> None:
        async with watched(["gothello"], record_dir=tmp_path, time=(600.0, 600.0)) as (web, servers):
            base = f"http://127.0.0.1:{web.port}"
            async with aiohttp.ClientSession() as http, stream(http, f"{base}/events/server/gothello-0") as viewer:
                listing = asyncio.create_task(get_json(http, f"{base}/api/records"))
                await until(entered.is_set)
                another = asyncio.create_task(get_json(http, f"{base}/api/records"))
                players = await seat_players(servers["gothello"].port, "gothello")
                await viewer.expect("snapshot")
                referee = Referee("gothello", get_engine("gothello", "impl"), random.Random(5))
                for _ in range(4):
                    reply, _ = await play_one(players, referee)
                    assert reply.startswith("20")
                    assert (await viewer.expect("move"))["index"] == len(referee.tokens)
                async with http.get(f"{base}/api/games/gothello-0-1") as response:
                    assert [m["move"] for m in (await response.json())["moves"]] == referee.tokens
                assert not listing.done()  # still blocked, and the game went on
                release.set()
                status, body = await listing
                assert status == 200 and [r["name"] for r in body["records"]] == ["old.pgn"]
                assert await another == (status, body) and reads == ["old.pgn"]  # one scan for both
                for client in players:
                    await client.close()

    run(scenario)


def test_a_blocked_encode_never_stalls_a_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """A game's JSON and frames are encoded off the loop: with the encoder
    blocked (on an Event), the game's next move is answered; once released, the
    frames arrive, one board per position."""
    entered, release = threading.Event(), threading.Event()
    real = answers.encode

    def encode(data: Any) -> bytes:
        entered.set()
        assert release.wait(UNTIL)
        return real(data)

    monkeypatch.setattr(answers, "encode", encode)

    async def scenario() -> None:
        async with watched(["awari"]) as (web, servers):
            base = f"http://127.0.0.1:{web.port}"
            players = await seat_players(servers["awari"].port, "awari")
            referee = Referee("awari", get_engine("awari", "impl"), random.Random(9))
            await play_one(players, referee)
            async with aiohttp.ClientSession() as http:
                await until(lambda: "awari-0-1" in web.hub.games and bool(web.hub.games["awari-0-1"].moves))
                frames = asyncio.create_task(get_json(http, f"{base}/api/games/awari-0-1/frames"))
                await until(entered.is_set)
                reply, _ = await play_one(players, referee)
                assert reply.startswith("20") and not frames.done()
                release.set()
                status, body = await frames
                assert status == 200 and len(body["frames"]) >= 2 and "cells" in body["frames"][0]
            for client in players:
                await client.close()

    run(scenario)


# ─── a hostile record directory ────────────────────────────────────────────────

LONG = "match-" + "unlabelled-player-" * 3 + "vs-x.pgn"
SCRIPT = "партия-été-碁-ゲーム.pgn"


def hostile_directory(directory: Path) -> None:
    (directory / "good.pgn").write_text(record_text())
    (directory / LONG).write_text(record_text())
    (directory / SCRIPT).write_text(record_text())
    names = record_text().replace('"ann"', '"' + "unlabelled-" * 4 + '"').replace('"bob"', '"Åsa 碁"')
    (directory / "names.pgn").write_text(names)  # longer than the wire's 31 characters; not ASCII
    (directory / "unchecked.pgn").write_text(record_text(("Unchecked", "x")))
    (directory / "garbage.pgn").write_bytes(bytes(range(256)) * 8)
    (directory / "illegal.pgn").write_text(record_text().replace("2. d4 b2", "2. d4 c3"))  # tags fine, a move not
    huge = padded(record_text(), "x" * (1 << 20))
    (directory / "huge.pgn").write_text(huge)  # 1 MiB: never read whole
    (directory / "notes.txt").write_text("not a record\n")


def test_hostile_files_are_flagged_and_good_ones_listed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The list answers 200: every good record with its tags, every bad file one
    entry with a reason; a long or non-ASCII name opens by its URL; a bad record's
    page answers 422 with the reason; the 1 MiB file is not read at all."""
    hostile_directory(tmp_path)
    reads = counting_reads(monkeypatch)

    async def scenario() -> None:
        async with watched(["gothello"], record_dir=tmp_path) as (web, _):
            base = f"http://127.0.0.1:{web.port}"
            async with aiohttp.ClientSession() as http:
                status, body = await get_json(http, f"{base}/api/records")
                assert status == 200
                entries = {r["name"]: r for r in body["records"]}
                assert set(entries) == {p.name for p in tmp_path.iterdir()}
                for name in ("good.pgn", LONG, SCRIPT, "illegal.pgn"):
                    assert entries[name]["tags"]["Black"] == "ann" and entries[name]["plies"] == 3, name
                assert entries["names.pgn"]["tags"]["Black"] == "unlabelled-" * 4
                assert entries["names.pgn"]["tags"]["White"] == "Åsa 碁"
                status, page = await get_json(http, f"{base}/api/records/names.pgn")
                assert status == 200 and page["tags"]["White"] == "Åsa 碁" and len(page["frames"]) == 4
                flagged = {name: r["flagged"] for name, r in entries.items() if "flagged" in r}
                assert set(flagged) == {"unchecked.pgn", "garbage.pgn", "huge.pgn", "notes.txt"}
                assert "Unchecked" in flagged["unchecked.pgn"] and "UTF-8" in flagged["garbage.pgn"]
                assert "larger than" in flagged["huge.pgn"] and "huge.pgn" not in reads
                for name in (LONG, SCRIPT):
                    status, record = await get_json(http, f"{base}/api/records/{quote(name)}")
                    assert status == 200 and record["name"] == name and record["moves"] == ["c3", "d4", "b2"]
                    assert len(record["frames"]) == 4
                    async with http.get(f"{base}/record/{quote(name)}") as response:
                        assert response.status == 200
                for name, reason in (("illegal.pgn", "c3"), ("unchecked.pgn", "Unchecked"), ("huge.pgn", "larger")):
                    status, page = await get_json(http, f"{base}/api/records/{name}")
                    assert status == 422 and reason in page["flagged"], (name, page)

    run(scenario)


def test_a_symlink_out_of_the_directory_is_refused(tmp_path: Path) -> None:
    """A link to a record outside the directory is neither listed nor served,
    nor is a link inside it: only the directory's own regular files are read."""
    records, outside = tmp_path / "records", tmp_path / "outside"
    records.mkdir()
    outside.mkdir()
    (outside / "secret.pgn").write_text(record_text(("Event", "secret")))
    (records / "good.pgn").write_text(record_text())
    (records / "link.pgn").symlink_to(outside / "secret.pgn")
    (records / "inner.pgn").symlink_to(records / "good.pgn")

    async def scenario() -> None:
        async with watched(["gothello"], record_dir=records) as (web, _):
            base = f"http://127.0.0.1:{web.port}"
            async with aiohttp.ClientSession() as http:
                status, body = await get_json(http, f"{base}/api/records")
                assert status == 200 and [r["name"] for r in body["records"]] == ["good.pgn"]
                for name in ("link.pgn", "inner.pgn", "..%2Foutside%2Fsecret.pgn"):
                    async with http.get(f"{base}/api/records/{name}") as response:
                        assert response.status == 404, name
                        assert "headers" not in await response.text()

    run(scenario)


def test_a_symlink_is_refused_by_the_reader_itself(tmp_path: Path) -> None:
    """Swapped in after the directory was listed (a race), a link still cannot
    be opened: read_file opens with O_NOFOLLOW, relative to the directory."""
    (tmp_path / "secret.txt").write_text("secret")
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "x.pgn").symlink_to(tmp_path / "secret.txt")
    with pytest.raises(OSError):
        archive.read_file(tmp_path / "d", "x.pgn", 100)


def test_a_repeated_listing_reads_no_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Cached by name, size, mtime and inode: a second listing of an unchanged
    directory reads nothing, a changed file is read again (and only it); a
    record page is read once."""
    hostile_directory(tmp_path)
    reads = counting_reads(monkeypatch)

    async def scenario() -> None:
        async with watched(["gothello"], record_dir=tmp_path, web_limits=WebLimits(list_age=0.0)) as (web, _):
            base = f"http://127.0.0.1:{web.port}"
            async with aiohttp.ClientSession() as http:
                first = await get_json(http, f"{base}/api/records")
                assert len(reads) == len(list(tmp_path.iterdir())) - 1  # all but the huge one
                reads.clear()
                assert await get_json(http, f"{base}/api/records") == first
                assert reads == []
                (tmp_path / "good.pgn").write_text(record_text(("Event", "changed")))
                status, body = await get_json(http, f"{base}/api/records")
                assert status == 200 and reads == ["good.pgn"]
                assert {r["name"]: r for r in body["records"]}["good.pgn"]["tags"]["Event"] == "changed"
                reads.clear()
                for _ in range(2):
                    assert (await get_json(http, f"{base}/api/records/good.pgn"))[0] == 200
                assert reads == ["good.pgn"]

    run(scenario)


def test_a_long_head_is_cut_at_a_line_not_inside_a_character() -> None:
    """The list reads HEAD_BYTES of a longer file: a character the cut splits
    does not make the file "not UTF-8"."""
    text = padded(record_text(("Event", "x")), "é" * archive.HEAD_BYTES)
    head = text.encode()[: archive.HEAD_BYTES]
    assert head[-1] >= 0x80  # the cut falls inside an é
    entry = archive.summarize("x.pgn", head, complete=False)
    assert entry["tags"]["Black"] == "ann" and entry["plies"] is None


def client_from(address: str) -> aiohttp.ClientSession:
    """A client whose connections come from ``address`` (127.0.0.0/8 is all this
    machine's): a client of its own for the view's per-client admission."""
    return aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=(address, 0)))


def test_record_requests_are_answered_in_turn(tmp_path: Path) -> None:
    """At a rate of one record request every 5 s, of three clients asking at once
    the first is answered and the others wait their turn (the loop serving a game
    meanwhile is the blocked-listing test's); a fourth client, whose turn would be
    more than 10 s away, gets 503 at once."""
    (tmp_path / "good.pgn").write_text(record_text())

    async def scenario() -> None:
        limits = WebLimits(record_rate=0.2)
        async with watched(["gothello"], record_dir=tmp_path, web_limits=limits) as (web, _):
            base = f"http://127.0.0.1:{web.port}"
            clients = [client_from(f"127.0.0.{n}") for n in (2, 3, 4, 5)]
            try:
                asked = [asyncio.create_task(get_json(http, f"{base}/api/records")) for http in clients[:3]]
                done, waiting = await asyncio.wait(asked, return_when=asyncio.FIRST_COMPLETED)
                assert len(done) == 1 and len(waiting) == 2
                assert (await done.pop())[0] == 200
                assert not any(task.done() for task in waiting)
                async with clients[3].get(f"{base}/api/records") as response:
                    assert response.status == 503 and response.headers["Retry-After"] == "5"
                assert not any(task.done() for task in waiting)
                for task in waiting:
                    task.cancel()
                await asyncio.gather(*waiting, return_exceptions=True)
            finally:
                for http in clients:
                    await http.close()

    run(scenario)


def test_a_client_has_one_place_in_the_record_queue(tmp_path: Path) -> None:
    """One client's record requests are answered one at a time: while its first
    waits for its turn, its next ones wait behind it (not in the shared queue),
    and past ``ClientLimits.records`` it gets 429; another client asking meanwhile
    is answered before the greedy client's second."""
    (tmp_path / "good.pgn").write_text(record_text())

    async def scenario() -> None:
        limits = WebLimits(record_rate=1.0)
        async with watched(["gothello"], record_dir=tmp_path, web_limits=limits) as (web, _):
            base = f"http://127.0.0.1:{web.port}"
            greedy, other, first = client_from("127.0.0.2"), client_from("127.0.0.3"), client_from("127.0.0.4")
            try:
                assert (await get_json(first, f"{base}/api/records"))[0] == 200  # the next turn is a second away
                share = limits.clients.records
                asked = [asyncio.create_task(get_json(greedy, f"{base}/api/records")) for _ in range(share)]
                await until(lambda: getattr(web.admission.clients.get("127.0.0.2"), "records", 0) == share)
                async with greedy.get(f"{base}/api/records") as response:
                    assert response.status == 429 and "Retry-After" in response.headers
                fair = asyncio.create_task(get_json(other, f"{base}/api/records"))
                done, _ = await asyncio.wait(asked, return_when=asyncio.FIRST_COMPLETED)
                assert len(done) == 1 and not fair.done()  # the greedy client's first turn
                waiting = [fair, *(task for task in asked if task not in done)]
                done, _ = await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
                assert fair in done and (await fair)[0] == 200  # then the other client's, before its second
                for task in asked:
                    task.cancel()
                await asyncio.gather(*asked, return_exceptions=True)
            finally:
                for http in (greedy, other, first):
                    await http.close()

    run(scenario)


def test_the_cache_keeps_to_its_byte_budget() -> None:
    cache = archive.ByteLRU(10)
    for key in range(5):
        cache.put(key, b"abcd")
    assert cache.size <= 10 and len(cache) == 2 and cache.get(4) == b"abcd" and cache.get(0) is None
    cache.put("big", b"x" * 11)
    assert cache.get("big") is None and cache.size <= 10


def test_listing_is_bounded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Only the newest MAX_LISTED files are read, each only its head."""
    monkeypatch.setattr(archive, "MAX_LISTED", 3)
    limits: list[int] = []
    real = archive.read_file

    def read_file(directory: Path, name: str, limit: int) -> tuple[bytes, int]:
        limits.append(limit)
        return real(directory, name, limit)

    monkeypatch.setattr(archive, "read_file", read_file)
    for n in range(6):
        path = tmp_path / f"r{n}.pgn"
        path.write_text(record_text())
        os.utime(path, ns=(n * 10**9, n * 10**9))
    body = archive.Archive(tmp_path).listing()
    assert [r["name"] for r in json.loads(body)["records"]] == ["r5.pgn", "r4.pgn", "r3.pgn"]
    assert limits == [archive.HEAD_BYTES] * 3


# ─── connections ───────────────────────────────────────────────────────────────


async def idle_connection(port: int, source: str | None = None) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A connection from ``source`` (an address of 127.0.0.0/8: a client of its own), sending nothing."""
    return await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0) if source else None)


def test_connections_over_the_cap_get_503(caplog: pytest.LogCaptureFixture) -> None:
    """With a cap of 2, two idle connections fill it: the third gets 503 with
    Retry-After, logged once as an event and without a traceback; once one
    closes, a request is served again."""

    async def scenario() -> None:
        async with watched(["gothello"], web_limits=WebLimits(max_connections=2)) as (web, _):
            assert web.gate.max_connections == 2
            idle = [await idle_connection(web.port) for _ in range(2)]
            await until(lambda: web.gate.connections == 2)
            async with aiohttp.ClientSession() as http:
                async with http.get(f"http://127.0.0.1:{web.port}/api/servers") as response:
                    assert response.status == 503 and response.headers["Retry-After"] == "5"
                    assert "too many" in await response.text()
                idle[0][1].close()
                await until(lambda: web.gate.connections == 1)
                async with http.get(f"http://127.0.0.1:{web.port}/api/servers") as response:
                    assert response.status == 200
            for _, writer in idle[1:]:
                writer.close()
            assert web.gate.refused == 1

    with caplog.at_level(logging.INFO):
        run(scenario)
    assert [r.getMessage() for r in caplog.records].count("web_refused") == 1
    assert not any(r.exc_info for r in caplog.records)


def test_the_default_cap_is_the_descriptor_budget() -> None:
    async def scenario() -> int:
        view = WebView("127.0.0.1", 0)
        await view.start()
        try:
            return view.gate.max_connections
        finally:
            await view.stop()

    assert run(scenario) == fdbudget.budget().web


def test_idle_and_slow_connections_are_closed() -> None:
    """A connection that sends nothing, and one whose request's headers never
    end (a header line trickled now and then), are closed after the idle
    timeout; a stream open for longer is not."""

    async def scenario() -> None:
        limits = WebLimits(idle_timeout=0.3)
        async with watched(["gothello"], web_limits=limits) as (web, _):
            base = f"http://127.0.0.1:{web.port}"
            async with aiohttp.ClientSession() as http, stream(http, f"{base}/events") as lister:
                await lister.expect("list")
                silent, _ = await idle_connection(web.port)
                slow_reader, slow = await idle_connection(web.port)
                slow.write(b"GET /api/servers HTTP/1.1\r\nHost: x\r\n")

                async def trickle() -> None:
                    for n in range(1000):
                        if slow.is_closing():
                            return
                        slow.write(b"X-%d: y\r\n" % n)
                        await asyncio.sleep(0.05)

                trickler = asyncio.create_task(trickle())
                async with asyncio.timeout(UNTIL):
                    assert await silent.read() == b""
                    assert await slow_reader.read() == b""  # closed without an answer
                trickler.cancel()
                web.hub.ping()  # the stream outlived the timeout: it still gets a ping
                assert await asyncio.wait_for(lister.response.content.readline(), UNTIL) == b": ping\n"

    run(scenario)


def test_viewers_over_the_cap_get_503() -> None:
    async def scenario() -> None:
        async with watched(["gothello"], limits=HubLimits(max_viewers=1)) as (web, _):
            base = f"http://127.0.0.1:{web.port}"
            async with aiohttp.ClientSession() as http, stream(http, f"{base}/events") as one:
                await one.expect("list")
                async with http.get(f"{base}/events/server/gothello-0") as response:
                    assert response.status == 503 and response.headers["Retry-After"] == "5"

    run(scenario)


def test_a_real_process_at_its_descriptor_limit(tmp_path: Path) -> None:
    """``referee serve --web`` at a hard limit of 200 descriptors: its web cap is
    the budget's share (68); connections past it get 503 while the others are
    held open, malformed and over-long requests get 400, and stderr holds only
    JSON event lines, no traceback; a game still plays and its record is written."""
    limit = 200
    cap = fdbudget.budget(limit).web
    command = [sys.executable, "-m", "impl.cli", "serve", "gothello", "--port", "0", "--host", "127.0.0.1"]
    command += ["--web", "0", "--record", str(tmp_path)]

    def limited() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (limit, limit))

    proc = subprocess.Popen(command, stderr=subprocess.PIPE, text=True, preexec_fn=limited)
    assert proc.stderr is not None
    try:
        lines: list[dict[str, Any]] = []
        while not {"web_listen", "listen"} <= {x["event"] for x in lines} and len(lines) < 10:
            lines.append(json.loads(proc.stderr.readline()))  # a budget warning may come first
        web = next(x for x in lines if x["event"] == "web_listen")
        game = next(x for x in lines if x["event"] == "listen")
        assert web["max_connections"] == cap

        async def scenario() -> None:
            base = f"http://127.0.0.1:{web['port']}"
            # from many clients: one client's own cap (ClientLimits.connections) is lower
            held = [await idle_connection(web["port"], f"127.0.1.{n % 16 + 1}") for n in range(cap)]
            async with aiohttp.ClientSession() as http:
                for _ in range(3):
                    async with http.get(f"{base}/api/servers") as response:
                        assert response.status == 503
                for _, writer in held:
                    writer.close()
                async with asyncio.timeout(UNTIL):
                    while True:  # the server notices the closes in its own time
                        async with http.get(f"{base}/api/servers") as response:
                            if response.status == 200:
                                break
                for request in (b"GARBAGE\r\n\r\n", b"GET / HTTP/1.1\r\nX: " + b"y" * 20000 + b"\r\n\r\n"):
                    reader, writer = await idle_connection(web["port"])
                    writer.write(request)
                    assert b" 400 " in (await reader.read()).split(b"\r\n")[0]
                    writer.close()
            players = await seat_players(game["port"], "gothello")
            await players[0].send("resign")
            for client in players:
                while not (await client.line()).startswith("32"):
                    pass
                await client.close()
            async with asyncio.timeout(UNTIL):
                while not list(tmp_path.iterdir()):
                    await asyncio.sleep(0.05)

        run(scenario)
    finally:
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=20)
    assert "Traceback" not in err
    events = [json.loads(line)["event"] for line in err.splitlines()]
    assert "web_refused" in events and "web_error" in events


def test_head_of_a_stream_is_its_headers_only_and_odd_ids_are_404() -> None:
    """HEAD /events sent body bytes after its headers; a game id ending in a
    non-ASCII digit ("²", which str.isdigit accepts) was a 500."""

    async def scenario() -> None:
        async with watched(["gothello"]) as (web, _):
            reader, writer = await asyncio.open_connection("127.0.0.1", web.port)
            writer.write(b"HEAD /events HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            await writer.drain()
            answer = await asyncio.wait_for(reader.read(), 30)
            writer.close()
            head, _, body = answer.partition(b"\r\n\r\n")
            assert head.startswith(b"HTTP/1.1 200") and body == b"", answer
            base = f"http://127.0.0.1:{web.port}"
            async with aiohttp.ClientSession() as http:
                for path in ("/events/game/gothello-17-%C2%B2", "/api/games/gothello-17-%C2%B2"):
                    async with http.get(base + path) as response:
                        assert response.status == 404, path

    run(scenario)
