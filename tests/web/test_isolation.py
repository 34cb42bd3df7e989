"""The web view in a process of its own (issue "Isolation"), over real processes
and sockets: ``referee serve --web 0`` prints the web process's port; the games'
moves reach it; a flood of any route family from one client leaves another
client answered; killing the web process leaves a game playable to its end;
killing the referee (SIGKILL) ends the web process.  Nothing is timed: every
wait is a deadline for what must happen (UNTIL)."""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import signal
import socket
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import aiohttp
import pytest

from impl.engines.registry import get_engine
from tests.support.netclient import run, seat_players
from tests.support.webclient import Referee, play_one
from tests.web.test_hostile import record_text

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc for the web process")

UNTIL = 20.0
"""Seconds a test waits for something that must happen (a deadline, not a bound measured)."""
FLOODERS = 64
"""Connections of the flooding client, each asking again as soon as answered."""
FLOODER, OTHER = "127.0.0.2", "127.0.0.3"
"""The two clients' addresses (127.0.0.0/8 is all this machine's)."""


@dataclass
class Running:
    proc: subprocess.Popen[str]
    game_port: int
    web_port: int
    web_pid: int
    stderr: Path

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.web_port}"

    def events(self) -> list[str]:
        return [json.loads(line)["event"] for line in self.stderr.read_text().splitlines() if line.startswith("{")]


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie, dead but not yet reaped, does not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def until(condition: Callable[[], object], what: str) -> None:
    deadline = time.monotonic() + UNTIL
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


@contextmanager
def referee(tmp_path: Path, game: str = "gothello") -> Iterator[Running]:
    """``referee serve GAME --forever --web 0`` over a record directory, its ports as printed."""
    records, stderr = tmp_path / "records", tmp_path / "stderr.log"
    records.mkdir(exist_ok=True)
    command = [sys.executable, "-m", "impl.cli", "serve", game, "--port", "0", "--host", "127.0.0.1", "--forever"]
    command += ["--web", "0", "--record", str(records)]
    with stderr.open("w") as err:
        proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=err, text=True, start_new_session=True)
    assert proc.stdout is not None
    try:
        game_line, web_line = proc.stdout.readline(), proc.stdout.readline()
        found_game = re.search(r":(\d+) ", game_line)
        found_web = re.match(r"Web view: http://127\.0\.0\.1:(\d+)/$", web_line.strip())
        assert found_game and found_web, (game_line, web_line, stderr.read_text())
        children = Path(f"/proc/{proc.pid}/task/{proc.pid}/children").read_text().split()
        assert len(children) == 1
        yield Running(proc, int(found_game[1]), int(found_web[1]), int(children[0]), stderr)
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=30)


def test_the_web_process_is_a_niced_child_showing_the_games(tmp_path: Path) -> None:
    with referee(tmp_path) as ref:
        assert os.getpriority(os.PRIO_PROCESS, ref.web_pid) > os.getpriority(os.PRIO_PROCESS, ref.proc.pid)

        async def scenario() -> None:
            players = await seat_players(ref.game_port, "gothello")
            game = Referee("gothello", get_engine("gothello", "impl"), random.Random(1))
            for _ in range(3):
                await play_one(players, game)
            async with aiohttp.ClientSession() as http, asyncio.timeout(UNTIL):
                while True:
                    async with http.get(f"{ref.base}/api/games/gothello-0-1") as response:
                        if response.status == 200 and len((await response.json())["moves"]) == 3:
                            break
                    await asyncio.sleep(0.05)
            for client in players:
                await client.close()

        run(scenario)


def test_a_game_outlives_its_web_process(tmp_path: Path) -> None:
    """The web process killed mid-game: the game is played to its end, its
    record written, and the referee says once that the web view is gone."""
    with referee(tmp_path) as ref:

        async def scenario() -> None:
            players = await seat_players(ref.game_port, "gothello")
            game = Referee("gothello", get_engine("gothello", "impl"), random.Random(2))
            await play_one(players, game)
            os.kill(ref.web_pid, signal.SIGKILL)
            while not game.over:
                await play_one(players, game)
            for client in players:
                await client.close()

        run(scenario)
        until(lambda: list((tmp_path / "records").iterdir()), "the record is written")
        until(lambda: "web_process_exited" in ref.events(), "the web process's end is logged")
        assert ref.proc.poll() is None  # the referee serves on
    assert ref.events().count("web_process_exited") == 1


def test_the_web_process_dies_with_the_referee(tmp_path: Path) -> None:
    with referee(tmp_path) as ref:
        assert alive(ref.web_pid)
        ref.proc.kill()
        ref.proc.wait()
        until(lambda: not alive(ref.web_pid), "the web process ends with the referee")


def test_ctrl_c_ends_both(tmp_path: Path) -> None:
    """SIGINT to the whole process group, as a terminal's Ctrl-C: the referee stops
    (130), and the web process, which ignores it, ends with the referee's feed."""
    with referee(tmp_path) as ref:
        os.killpg(ref.proc.pid, signal.SIGINT)
        assert ref.proc.wait(UNTIL) == 128 + signal.SIGINT
        until(lambda: not alive(ref.web_pid), "the web process ends with the referee")
    assert "web_process_exited" not in ref.events()


FAMILIES = {
    "servers": ["/api/servers"],
    "games": ["/api/games/gothello-0-1", "/api/games/gothello-0-1/frames"],
    "pages": ["/", "/game/gothello-0-1", "/tv/gothello-0", "/record/old.pgn"],
    "static": ["/static/app.js", "/static/style.css"],
    "records": ["/api/records", "/api/records/old.pgn"],
    "events": ["/events", "/events/server/gothello-0", "/events/game/gothello-0-1"],
}


async def flood(base: str, paths: list[str], stop: asyncio.Event, tally: Counter[int | str]) -> None:
    """FLOODERS connections from FLOODER asking for ``paths`` back to back (an
    event stream answered is held open) until ``stop``."""
    connector = aiohttp.TCPConnector(local_addr=(FLOODER, 0), limit=FLOODERS)
    async with aiohttp.ClientSession(connector=connector) as http:

        async def one(path: str) -> None:
            while not stop.is_set():
                try:
                    async with http.get(base + path) as response:
                        tally[response.status] += 1
                        if path.startswith("/events") and response.status == 200:
                            await stop.wait()
                        else:
                            await response.read()
                except (aiohttp.ClientError, OSError):
                    tally["error"] += 1

        await asyncio.gather(*(one(paths[n % len(paths)]) for n in range(FLOODERS)))


async def answered(http: aiohttp.ClientSession, url: str) -> int:
    """The status of one request (an event stream: once its first event has come)."""
    async with http.get(url) as response:
        if url.split("/")[3] == "events" and response.status == 200:
            assert (await response.content.readline()).startswith(b"event: ")
        else:
            await response.read()
        return response.status


@pytest.mark.parametrize("family", list(FAMILIES))
def test_a_flood_from_one_client_leaves_another_answered(tmp_path: Path, family: str) -> None:
    (tmp_path / "records").mkdir()
    (tmp_path / "records" / "old.pgn").write_text(record_text())
    with referee(tmp_path) as ref:

        async def scenario() -> None:
            players = await seat_players(ref.game_port, "gothello")
            game = Referee("gothello", get_engine("gothello", "impl"), random.Random(3))
            await play_one(players, game)
            stop, tally = asyncio.Event(), Counter[int | str]()
            flooding = asyncio.create_task(flood(ref.base, FAMILIES[family], stop, tally))
            async with asyncio.timeout(UNTIL):
                while tally.total() < FLOODERS:  # the flood is on
                    await asyncio.sleep(0.02)
            connector = aiohttp.TCPConnector(local_addr=(OTHER, 0))
            async with aiohttp.ClientSession(connector=connector) as http, asyncio.timeout(UNTIL):
                for path in [*FAMILIES[family], "/api/servers"]:
                    assert await answered(http, ref.base + path) == 200, path
            await play_one(players, game)  # and the game goes on
            stop.set()
            await flooding
            assert tally[429] + tally[503] > 0, tally  # the flooder was held to its share
            for client in players:
                await client.close()

        run(scenario)


def test_a_web_process_behind_is_resynchronised(tmp_path: Path) -> None:
    """The web process stopped (SIGSTOP) while a game is played to its end (26
    plies): the moves are all answered, the link drops events past its small
    buffer, and once the web process runs again it is sent the game whole and
    shows every move and the result.  The drop does not depend on timing: the
    socket at the kernel's least send buffer holds under 4.5 KiB, the writer's hand
    and the buffer 1 KiB each, and the game publishes about 11 KiB (450 bytes a
    ply); at 4 KiB a loaded writer's larger writes fit 12 KiB, the whole game."""
    from impl import protocol as P
    from impl.server.server import GameServer, ServerConfig
    from impl.server.session import Settings
    from impl.web.link import WebLink

    link = WebLink("127.0.0.1", 0, None, buffer_limit=1024)
    spec = ServerConfig(
        Settings(P.VOCABULARIES["gothello"], 0), host="127.0.0.1", port=0, session_hooks=(link.session_hook,)
    )
    server = GameServer(spec, get_engine("gothello", "impl"))

    async def scenario() -> None:
        link.attach([server])
        await server.start()
        link.open()
        assert link._sock is not None and link.process is not None
        link._sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 1)  # the kernel's least
        assert link._sock.getsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF) <= 4608
        try:
            players = await seat_players(server.port, "gothello")
            game = Referee("gothello", get_engine("gothello", "impl"), random.Random(4))
            os.kill(link.process.pid, signal.SIGSTOP)
            try:
                while not game.over and len(game.tokens) < 50:
                    await play_one(players, game)
            finally:
                os.kill(link.process.pid, signal.SIGCONT)
            assert link.dropped > 0 and not link.dead
            seen: tuple[int, list[str]] = (0, [])
            over = False
            async with aiohttp.ClientSession() as http:
                try:
                    async with asyncio.timeout(UNTIL):
                        while seen[1] != game.tokens:
                            async with http.get(f"http://127.0.0.1:{link.port}/api/games/gothello-0-1") as response:
                                body = await response.json() if response.status == 200 else {}
                                seen = (response.status, [m["move"] for m in body.get("moves", [])])
                                over = body.get("result") is not None
                            await asyncio.sleep(0.05)
                except TimeoutError:
                    raise AssertionError((seen, game.tokens, link.dropped, link.resyncs)) from None
            assert link.resyncs >= 1 and game.over and over
            for client in players:
                await client.close()
        finally:
            await server.stop()
            link.close()

    run(scenario)
