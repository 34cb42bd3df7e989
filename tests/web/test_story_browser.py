"""The web view's whole story in headless Chromium (Debian's ``chromium``, driven
by Playwright, as tests/web/test_browser.py): a finished game's page shows the rule
set and the engine apart, the final score, and in replay the clocks of each frame
(a record's from its ``[%clk]`` comments), with Home and End; a record valued by
an endgame table marks its blunders and graphs the values under the replay, and a
record whose values are still being computed gets them when the page asks again;
at a phone's width (390 px) no page scrolls sideways; a missing game or record is a
readable page and no script error; the TV page follows one server from game to game.

``WEB_SCREENSHOTS=DIR`` keeps the screenshots in DIR (``make screenshots`` writes
docs/): web-finished.png, web-phone.png, web-replay-values.png (web-tv.png is tests/web/test_layout.py's,
at 1280×720)."""

from __future__ import annotations

import asyncio
import os
import random
import threading
from collections.abc import AsyncIterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from impl import pgn
from impl.engines.registry import get_engine
from tests.support.browser import CHROMIUM, CHROMIUM_ARGS
from tests.support.netclient import Client, run, seat_players
from tests.support.webclient import Referee, play_one, watched

playwright = pytest.importorskip("playwright.async_api", reason="Playwright is not installed (make test-browser)")
pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="no /usr/bin/chromium (make test-browser installs it)")

PHONE = {"width": 390, "height": 844}
WAIT = 15_000
"""Milliseconds a page may take to show what the test waits for (a deadline on a
loaded machine, not a speed claim)."""


def shots_dir(tmp_path: Path) -> Path:
    shots = Path(os.environ.get("WEB_SCREENSHOTS", tmp_path))
    shots.mkdir(parents=True, exist_ok=True)
    return shots


@asynccontextmanager
async def chromium(errors: list[str]) -> AsyncIterator[Any]:
    """A headless Chromium; its pages' uncaught errors and console errors go to
    ``errors`` (a 404's own "Failed to load resource" line is not one)."""
    async with playwright.async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)

        def console(message: Any) -> None:
            if message.type == "error" and "Failed to load resource" not in message.text:
                errors.append(message.text)

        async def page(**options: Any) -> Any:
            made = await browser.new_page(**options)
            made.on("pageerror", lambda e: errors.append(str(e)))
            made.on("console", console)
            return made

        try:
            yield page
        finally:
            await browser.close()


async def play_out(players: tuple[Client, Client], referee: Referee, plies: int | None = None) -> None:
    while not referee.over and (plies is None or len(referee.tokens) < plies):
        await play_one(players, referee)


def score_text(referee: Referee) -> str:
    sides = ("south", "north") if referee.game == "awari" else ("black", "white")
    counts = referee.engine.counts(referee.state)
    what = "stores" if referee.game == "awari" else "stones"
    return f"{what}: {sides[0]} {counts[0]} – {sides[1]} {counts[1]}"


def clock_text(seconds: float) -> str:
    """As app.js's clockText: m:ss.t, tenths truncated."""
    tenths = int(max(0.0, seconds) * 10 + 1e-6)
    return f"{tenths // 600}:{tenths % 600 // 10:02d}.{tenths % 10}"


async def clocks_shown(page: Any) -> list[str]:
    return [await page.inner_text(f"#clock-{i}") for i in (0, 1)]


def test_a_finished_game_shows_rules_engine_score_and_each_frames_clocks(tmp_path: Path) -> None:
    """An Awari game under abapa with clocks, played to its end: its page and its
    record's page name ``abapa`` and ``impl`` apart and the final stores; Home shows
    the first frame with the time control on both clocks, End the last; in the
    record's replay each frame shows the clocks its ``[%clk]`` comments give."""
    shots = shots_dir(tmp_path)
    errors: list[str] = []

    async def scenario() -> None:
        records = tmp_path / "records"
        async with (
            watched(["awari"], rules="abapa", time=(300.0, 300.0), record_dir=records, forever=True) as (web, servers),
            chromium(errors) as new_page,
        ):
            players = await seat_players(servers["awari"].port, "awari", ("alice", "bob"))
            referee = Referee("awari", get_engine("awari", "impl", "abapa"), random.Random(11))
            await play_out(players, referee)
            await servers["awari"].flush()
            plies = len(referee.tokens)
            base = f"http://127.0.0.1:{web.port}"
            page = await new_page(viewport={"width": 1100, "height": 760})
            await page.goto(base + "/game/awari-0-1")
            await page.wait_for_selector(f'body[data-frame="{plies}"]', timeout=WAIT)
            subtitle = await page.inner_text("#subtitle")
            assert "rules: abapa · engine: impl · time: 300 s / 300 s" in subtitle, subtitle
            assert await page.inner_text("#score") == score_text(referee)
            await page.keyboard.press("Home")
            await page.wait_for_selector('body[data-frame="0"]')
            assert await clocks_shown(page) == ["5:00.0", "5:00.0"]
            await page.keyboard.press("ArrowRight")
            await page.wait_for_selector('body[data-frame="1"]')
            frames = await (await page.request.get(base + "/api/games/awari-0-1/frames")).json()
            assert await clocks_shown(page) == [clock_text(t) for t in frames["clocks"][1]]
            await page.keyboard.press("End")
            await page.wait_for_selector(f'body[data-frame="{plies}"]')
            await page.screenshot(path=str(shots / "web-finished.png"), full_page=True)

            [name] = [p.name for p in records.iterdir()]
            written = pgn.parse((records / name).read_text())
            await page.goto(f"{base}/record/{name}")
            await page.wait_for_selector(f'body[data-frame="{plies}"]', timeout=WAIT)
            assert "rules: abapa · engine: impl" in await page.inner_text("#subtitle")
            assert await page.inner_text("#score") == score_text(referee)
            await page.keyboard.press("Home")
            for index in (1, 2, 3):
                await page.keyboard.press("ArrowRight")
                await page.wait_for_selector(f'body[data-frame="{index}"]')
                mover = written.plies[index - 1].clock
                assert mover is not None
                assert (await clocks_shown(page))[(index - 1) % 2] == clock_text(mover)
            for client in players:
                await client.close()

    run(scenario, timeout=240)
    assert errors == []


def test_at_a_phones_width_no_page_scrolls_sideways(tmp_path: Path) -> None:
    """390 px wide: the list, a finished Awari game (board, moves, replay) and a
    Gothello game in progress fit: the document is no wider than the window.  The
    list's finished game and record show their rule set, engine and final score."""
    shots = shots_dir(tmp_path)
    errors: list[str] = []

    async def scenario() -> None:
        async with (
            watched(["awari", "gothello"], time=(300.0, 300.0), record_dir=tmp_path / "r") as (web, servers),
            chromium(errors) as new_page,
        ):
            awari = await seat_players(servers["awari"].port, "awari", ("alice", "bob"))
            finished = Referee("awari", get_engine("awari", "impl"), random.Random(3))
            await play_out(awari, finished)
            await servers["awari"].flush()
            gothello = await seat_players(servers["gothello"].port, "gothello", ("carol", "dave"))
            await play_out(gothello, Referee("gothello", get_engine("gothello", "impl"), random.Random(4)), plies=8)
            base = f"http://127.0.0.1:{web.port}"
            page = await new_page(viewport=PHONE)
            for path, ready in (
                ("/game/awari-0-1", "body[data-frame]"),
                ("/game/gothello-0-1", 'body[data-plies="8"]'),
                ("/", 'tr[data-game="gothello-0-1"]'),
            ):
                await page.goto(base + path)
                await page.wait_for_selector(ready, timeout=WAIT)
                width = await page.evaluate("document.documentElement.scrollWidth")
                assert width <= PHONE["width"], (path, width)
                board = await page.query_selector("#board svg")
                if board is not None:
                    box = await board.bounding_box()
                    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], path
                if path == "/game/awari-0-1":
                    await page.screenshot(path=str(shots / "web-phone.png"))  # the first screen: the board
            for row in ('#finished tr[data-game="awari-0-1"]', "#records tr[data-record]"):  # the list's lines
                await page.wait_for_selector(row, timeout=WAIT)
                cells = [await page.inner_text(f"{row} td.{name}") for name in ("rules", "engine", "score")]
                assert cells == ["paper", "impl", score_text(finished).split(": ", 1)[1]], row
            for client in (*awari, *gothello):
                await client.close()

    run(scenario, timeout=240)
    assert errors == []


def test_a_missing_game_or_record_is_a_readable_page(tmp_path: Path) -> None:
    errors: list[str] = []

    async def scenario() -> None:
        async with watched(["gothello"], record_dir=tmp_path) as (web, _), chromium(errors) as new_page:
            page = await new_page(viewport={"width": 800, "height": 600})
            base = f"http://127.0.0.1:{web.port}"
            for path, says in (("/game/nope", "No game 'nope' here"), ("/record/gone.pgn", "No record 'gone.pgn'")):
                response = await page.goto(base + path)
                assert response is not None and response.status == 404
                assert says in await page.inner_text("#missing")
                assert await page.title() in ("zreferee — no such game", "zreferee — no such record")
                await page.click("a[href='/']")  # the way back
                await page.wait_for_selector("#servers")

    run(scenario, timeout=120)
    assert errors == []


def test_the_tv_page_follows_a_server_from_game_to_game(tmp_path: Path) -> None:
    """``/tv`` (held one second at each result): the first game drawn live, its
    result and stone count, then the second game of the same server."""
    errors: list[str] = []

    async def scenario() -> None:
        async with (
            watched(["gothello"], time=(600.0, 600.0), forever=True) as (web, servers),
            chromium(errors) as new_page,
        ):
            page = await new_page(viewport={"width": 1280, "height": 800})
            base = f"http://127.0.0.1:{web.port}"
            await page.goto(base + "/tv?hold=1")
            await page.wait_for_url(base + "/tv/gothello-0?hold=1")
            port = servers["gothello"].port
            first = await seat_players(port, "gothello", ("carol", "dave"))
            referee = Referee("gothello", get_engine("gothello", "impl"), random.Random(8))
            await page.wait_for_selector('body[data-game="gothello-0-1"]', timeout=WAIT)
            await play_out(first, referee, plies=6)
            await page.wait_for_selector('body[data-plies="6"]', timeout=WAIT)
            await play_out(first, referee)
            await page.wait_for_selector("body[data-result]", timeout=WAIT, state="attached")
            assert await page.inner_text("#score") == score_text(referee)
            for client in first:
                await client.close()
            second = await seat_players(port, "gothello", ("erin", "frank"))
            await page.wait_for_selector('body[data-game="gothello-0-2"]', timeout=WAIT)
            referee = Referee("gothello", get_engine("gothello", "impl"), random.Random(9))
            await play_out(second, referee, plies=7)
            await page.wait_for_selector('body[data-plies="7"]:not([data-result])', timeout=WAIT)
            assert "erin" in await page.inner_text("#players")
            for client in second:
                await client.close()

    run(scenario, timeout=240)
    assert errors == []


def test_a_records_replay_values_each_move_by_the_endgame_table(tmp_path: Path) -> None:
    """The replay of an Awari record with ``--tb`` (a table of ≤ 6 stones built here):
    the first plies are outside the table and say so; a blunder's cell is marked, and
    showing it gives the mover's value before and after and the best move
    (web-replay-values.png)."""
    from impl.engines.tablebase import build
    from impl.web.tourney import TournamentView
    from spec import awari_rules as AR
    from tests.tablebase.test_replay_values import random_record

    shots = shots_dir(tmp_path)
    tables, records = tmp_path / "tables", tmp_path / "records"
    build.build(tables, AR.parse_rules("olympiad-1990"), 6)
    name, _ = random_record(records, "olympiad-1990", seed=17)  # two blunders in the table
    view = TournamentView("127.0.0.1", 0, records, live=False, tables=tables)
    view.open()
    errors: list[str] = []

    async def scenario() -> None:
        async with chromium(errors) as new_page:
            page = await new_page(viewport={"width": 1100, "height": 820})
            base = f"http://127.0.0.1:{view.port}"
            data = await record_values(page, f"{base}/api/records/{name}")
            assert data["blunders"], "the random game has no blunder in the table"
            await page.goto(f"{base}/record/{name}")
            await page.wait_for_selector("#values:not([hidden])", timeout=WAIT)
            await page.wait_for_selector("#value-graph:not([hidden])", timeout=WAIT)
            assert len(await page.query_selector_all("#moves td.blunder")) == len(data["blunders"])
            await check_graph(page, data)
            await page.keyboard.press("Home")
            await page.keyboard.press("ArrowRight")
            await page.wait_for_selector('body[data-frame="1"]')
            assert "outside the table" in await page.inner_text("#value")
            ply = data["blunders"][-1]
            await page.click(f'#moves td.mv[data-index="{ply}"]')
            await page.wait_for_selector(f'body[data-frame="{ply}"]')
            shown = data["values"][ply - 1]
            text = await page.inner_text("#value")
            assert f"ply {ply}, {shown['side']} {shown['move']}:" in text and "blunder: gave away" in text, text
            assert f"best {shown['best']}" in text and "blunders: ply" in await page.inner_text("#blunders")
            frame = await page.eval_on_selector("#value-graph .frame", "l => Number(l.getAttribute('x1'))")
            assert frame == pytest.approx(graph_x(ply, len(data["values"])))  # the frame shown, marked
            first = data["blunders"][0]
            box = await page.locator("#value-graph").bounding_box()
            assert box is not None
            x = graph_x(first, len(data["values"])) * box["width"] / GRAPH_W
            await page.click("#value-graph", position={"x": x, "y": box["height"] / 2})  # the graph's ply shown
            await page.wait_for_selector(f'body[data-frame="{first}"]')
            await page.click(f'#moves td.mv[data-index="{ply}"]')
            await page.wait_for_selector(f'body[data-frame="{ply}"]')
            await page.screenshot(path=str(shots / "web-replay-values.png"), full_page=True)

    try:
        run(scenario, timeout=120)
    finally:
        view.close()
    assert errors == []


GRAPH_W, GRAPH_PAD = 560, 10
"""app.js's drawValueGraph: the graph's viewBox width and its margin."""


def graph_x(ply: int, plies: int) -> float:
    """Where drawValueGraph puts ``ply`` across the graph, in its viewBox's units."""
    return GRAPH_PAD + (GRAPH_W - 2 * GRAPH_PAD) * ply / plies


async def record_values(page: Any, url: str) -> dict[str, Any]:
    """The record's page as the API gives it once its values are computed (asked again
    while ``table.pending``, as the page does)."""
    for _ in range(120):
        data: dict[str, Any] = await (await page.request.get(url)).json()
        if "values" in data:
            return data
        assert "pending" in data["table"], data["table"]
        await asyncio.sleep(0.5)
    raise AssertionError(f"no values for {url}")


async def check_graph(page: Any, data: dict[str, Any]) -> None:
    """The value graph under the replay is drawn, inside the window: a point for each
    ply the table values, a dot for each blunder, the zero line and the frame's line."""
    graph = page.locator("#value-graph")
    assert await graph.is_visible()
    box = await graph.bounding_box()
    width = await page.evaluate("innerWidth")
    assert (
        box is not None
        and box["width"] > 200
        and box["height"] > 30
        and 0 <= box["x"] <= box["x"] + box["width"] <= width
    )
    covered = sum("why" not in v for v in data["values"])
    assert int(await graph.get_attribute("data-points") or 0) == covered > 0
    drawn = await page.eval_on_selector_all(
        "#value-graph > *", "es => es.map(e => e.tagName + '.' + e.getAttribute('class'))"
    )
    assert drawn.count("circle.blunder") == len(data["blunders"])
    assert "line.zero" in drawn and "line.frame" in drawn
    assert drawn.count("polyline.line") + drawn.count("circle.point") >= 1


def test_a_pending_records_values_arrive_when_the_page_asks_again(tmp_path: Path) -> None:
    """A record whose values are not computed when its page is asked for: the page
    shows the board and the replay at once and says the values are coming
    (``table.pending``); once computed, the page's next ask brings them, with the
    blunders marked and the graph drawn, without a reload."""

    from impl.engines.tablebase import build
    from impl.web import values
    from impl.web.tourney import TournamentView
    from spec import awari_rules as AR
    from tests.tablebase.test_replay_values import random_record

    tables, records = tmp_path / "tables", tmp_path / "records"
    build.build(tables, AR.parse_rules("olympiad-1990"), 6)
    name, moves = random_record(records, "olympiad-1990", seed=17)
    release = threading.Event()
    asked: list[str] = []

    def held(folder: Path, rules: str, plies: Sequence[str]) -> dict[str, Any]:
        release.wait(60)
        return values.table_values(folder, rules, plies)

    view = TournamentView("127.0.0.1", 0, records, live=False, tables=tables)
    assert view.library.valuer is not None
    view.library.valuer = values.Valuer(tables, start=lambda: ThreadPoolExecutor(1), wait=0.05, compute=held)
    view.open()
    errors: list[str] = []

    async def scenario() -> None:
        async with chromium(errors) as new_page:
            page = await new_page(viewport={"width": 1100, "height": 820})
            page.on("request", lambda r: asked.append(r.url) if f"/api/records/{name}" in r.url else None)
            base = f"http://127.0.0.1:{view.port}"
            await page.goto(f"{base}/record/{name}")
            await page.wait_for_selector(f'body[data-frame="{len(moves)}"]', timeout=WAIT)  # the replay at once
            assert await page.inner_text("#value") == values.PENDING
            assert await page.locator("#value-graph").is_hidden()
            assert not await page.query_selector_all("#moves td.blunder")
            await page.keyboard.press("Home")
            await page.wait_for_selector('body[data-frame="0"]')
            release.set()
            await page.wait_for_selector("#value-graph:not([hidden])", timeout=WAIT)
            assert len(asked) >= 2  # the page asked again
            data = await record_values(page, f"{base}/api/records/{name}")
            assert len(await page.query_selector_all("#moves td.blunder")) == len(data["blunders"]) > 0
            await check_graph(page, data)
            assert await page.inner_text("#value") == "the start: pick a move"  # the frame shown, still the start

    try:
        run(scenario, timeout=120)
    finally:
        release.set()
        view.close()
    assert errors == []
