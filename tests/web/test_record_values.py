"""A record with table values answers at once and never holds another viewer's record
(issue #53, item 4): the values are computed apart (impl/web/values.py), once; the
page says they are on their way until they are there, and says it is busy beyond
``MAX_PENDING`` records waiting.  HTTP level, real sockets; nothing is timed (the
values' computation waits on an Event the test releases)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from impl.config import WebLimits
from impl.engines.tablebase import build
from impl.web import values
from impl.web.app import WebView
from impl.web.values import Valuer
from spec import awari_rules as AR
from tests.support.netclient import run
from tests.tablebase.test_replay_values import random_record
from tests.web.test_hostile import client_from, get_json, record_text, until

UNTIL = 10.0
"""Seconds the blocked computation waits for the test at most (a deadline, not a bound measured)."""


class Blocked:
    """A values computation that waits for ``release``: a record whose values take long."""

    def __init__(self) -> None:
        self.started, self.release = threading.Event(), threading.Event()
        self.calls: list[str] = []

    def __call__(self, tables: Path, rules: str, moves: Sequence[str]) -> dict[str, Any]:
        self.calls.append(rules)
        self.started.set()
        self.release.wait(UNTIL)
        return {"table": {"rules": rules, "stones": 6}, "values": [], "blunders": []}


def records(folder: Path) -> None:
    """Two Awari records the table covers the end of (``game.pgn``, ``late.pgn``) and a Gothello one."""
    random_record(folder, "olympiad-1990")
    (folder / "game.pgn").rename(folder / "late.pgn")
    random_record(folder, "olympiad-1990", seed=1)
    (folder / "other.pgn").write_text(record_text())


def test_a_slow_record_holds_no_other_viewer(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """While a table-covered record's values are being computed, another viewer's
    record is answered; the first viewer gets the board and replay at once, the
    values said to be coming; asked again once computed, they are there, computed
    once.  A further record beyond MAX_PENDING waiting says the values are busy."""
    records(tmp_path)
    blocked = Blocked()
    monkeypatch.setattr(values, "MAX_PENDING", 1)

    async def scenario() -> None:
        web = WebView("127.0.0.1", 0, tmp_path, WebLimits(), tables=tmp_path)
        assert web.library.valuer is not None
        web.library.valuer = Valuer(tmp_path, start=lambda: ThreadPoolExecutor(1), wait=0.05, compute=blocked)
        await web.start()
        base = f"http://127.0.0.1:{web.port}/api/records"
        first, second = client_from("127.0.0.2"), client_from("127.0.0.3")
        try:
            slow = asyncio.create_task(get_json(first, f"{base}/game.pgn"))
            await until(blocked.started.is_set)
            status, other = await get_json(second, f"{base}/other.pgn")  # the values still not computed
            assert status == 200 and other["game"] == "gothello" and not blocked.release.is_set()
            status, page = await slow
            assert status == 200 and page["frames"] and page["table"] == {"pending": values.PENDING}
            status, late = await get_json(second, f"{base}/late.pgn")
            assert status == 200 and late["frames"] and late["table"] == {"busy": values.BUSY}
            blocked.release.set()
            await until(lambda: not web.library.valuer._running)  # type: ignore[union-attr]
            status, page = await get_json(first, f"{base}/game.pgn")
            assert status == 200 and page["table"] == {"rules": "olympiad-1990", "stones": 6} and page["values"] == []
            assert blocked.calls == ["olympiad-1990"]  # once, though asked for twice
        finally:
            blocked.release.set()
            for http in (first, second):
                await http.close()
            await web.stop()

    run(scenario)


def test_the_values_process_values_a_record(tmp_path: Path) -> None:
    """The default: the values come from a process of their own, with the table's
    values of each ply, once the page has waited for them."""
    build.build(tmp_path, AR.parse_rules("olympiad-1990"), 6)
    folder = tmp_path / "records"
    random_record(folder, "olympiad-1990")

    async def scenario() -> None:
        web = WebView("127.0.0.1", 0, folder, WebLimits(), tables=tmp_path)
        assert web.library.valuer is not None
        web.library.valuer.wait = UNTIL * 3  # the process's start, and the game's 153 plies
        await web.start()
        try:
            async with aiohttp.ClientSession() as http:
                status, page = await get_json(http, f"http://127.0.0.1:{web.port}/api/records/game.pgn")
            assert status == 200 and page["table"] == {"rules": "olympiad-1990", "stones": 6}
            assert len(page["values"]) == len(page["moves"]) and any("before" in v for v in page["values"])
        finally:
            await web.stop()

    run(scenario, timeout=120)
