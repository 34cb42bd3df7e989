"""The arena's web pages (impl/web/arena.py; docs/arena.md, "Web"): the standings,
a player's page and their JSON, from a real ``referee arena --web`` whose pages run
in a process of their own; and the broadcast delay, which holds a game's moves back
from the web process until they are ``--delay`` seconds old."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from impl.web.arena import Delayed
from tests.support.arenakit import login, play
from tests.support.netclient import run
from tests.support.paths import ROOT
from tests.support.terminal import referee
from tests.support.webclient import Sink


def get(url: str) -> tuple[int, Any]:
    try:
        with urllib.request.urlopen(url, timeout=10) as answer:
            body = answer.read()
            kind = answer.headers.get_content_type()
            return answer.status, json.loads(body) if kind == "application/json" else body.decode()
    except urllib.error.HTTPError as exc:
        return exc.code, None


def start(tmp_path: Path, delay: str) -> tuple[subprocess.Popen[str], int, str]:
    argv = referee(
        "arena", "gothello", "--db", str(tmp_path / "arena.db"), "--port", "0", "--record", str(tmp_path / "rec"),
        "--no-anchors", "--web", "0", "--web-host", "127.0.0.1", "--delay", delay, "--round", "3600",
        "--log-level", "warning",
    )  # fmt: skip
    proc = subprocess.Popen(
        argv, cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(ROOT)}, stdout=subprocess.PIPE, text=True
    )
    assert proc.stdout is not None
    lines = [proc.stdout.readline() for _ in range(6)]
    port = int(lines[0].split("port ")[1].split(";")[0])
    web = next(line for line in lines if line.startswith("Web pages:")).split("//")[1].rstrip("\n")
    return proc, port, "http://" + web.removesuffix("/arena")


def test_the_standings_and_a_players_page(tmp_path: Path) -> None:
    proc, port, base = start(tmp_path, "0")
    try:

        async def games() -> None:
            for _ in range(2):
                clients = [(await login(port, name))[0] for name in ("ann:pw", "ben:pw", "cid:pw", "dot:pw")]
                await asyncio.sleep(0.3)
                proc.send_signal(signal.SIGUSR1)  # a round now (docs/arena.md)
                await asyncio.gather(*(play(c, "gothello", n) for n, c in enumerate(clients)))

        run(games)
        data: Any = None
        for _ in range(50):
            status, data = get(base + "/api/arena")
            if status == 200 and len(data.get("games", [])) == 4:
                break
            run(lambda: asyncio.sleep(0.2))
        assert [g["number"] for g in data["games"]] == [1, 2, 3, 4]
        assert sorted(r["player"] for r in data["standings"]) == ["ann", "ben", "cid", "dot"]
        assert all(r["games"] == 2 and r["elo"] is not None for r in data["standings"])
        status, page = get(base + "/arena")
        assert status == 200 and 'data-page="arena"' in page
        status, ann = get(base + "/api/arena/players/ann")
        assert status == 200 and len(ann["games"]) == 2 and ann["history"]
        assert get(base + "/arena/player/ann")[0] == 200
        assert get(base + "/arena/player/nobody")[0] == 404
        assert get(base + "/api/arena/players/nobody")[0] == 404
        assert get(base + "/api/records/" + data["games"][0]["record"])[0] == 200
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)


def test_a_game_in_progress_reaches_the_web_only_after_the_delay(tmp_path: Path) -> None:
    proc, port, base = start(tmp_path, "3600")
    try:

        async def game() -> list[str]:
            a, _ = await login(port, "eve:pw", "black")
            b, _ = await login(port, "fay:pw", "white")
            await asyncio.sleep(0.3)
            proc.send_signal(signal.SIGUSR1)
            assert await a.line() == "352 You will play black"
            # The game's server reaches the web process over its link, in its own time:
            # waited for (up to 10 s), never assumed to have arrived with the 352 ...
            servers: list[dict[str, object]] = []
            for _ in range(100):
                servers = get(base + "/api/servers")[1]["servers"]
                if servers:
                    break
                await asyncio.sleep(0.1)
            assert servers != []
            assert all(s.get("current") is None for s in servers), servers  # ... but not its game, nor its moves
            await a.send("1 c3")
            await a.line()
            await asyncio.sleep(0.5)
            assert get(base + "/api/arena")[1].get("live", []) == []
            await a.close()
            await b.close()
            return []

        run(game)
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)


def test_delayed_hands_events_on_only_after_the_delay() -> None:
    got = Sink[object]()

    async def main() -> None:
        sink = Delayed(got, 0.3)
        sink.publish("e1")  # type: ignore[arg-type]
        await asyncio.sleep(0.1)
        assert got.events == []
        await asyncio.sleep(0.4)
        assert got.events == ["e1"]

    asyncio.run(main())
