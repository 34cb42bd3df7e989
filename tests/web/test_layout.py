"""The web view's layout measured in headless Chromium (Debian's ``chromium``,
driven by Playwright, as tests/web/test_browser.py; skipped where either is
missing, so ``make verify`` skips it): the TV page at a projector's 1280×720,
1024×768 and 1920×1080 shows the names (a tournament's labels where the view has
them), clocks, running counts, the result in plain words and the score with no
part outside the window; the list, a game, a record and the tournament page at a
phone's 390 px are no wider than the window, with the players and links on
screen; a finished game's page marks the winner, counts the stones or stores of
the frame shown and keeps the current move in its list's view.

Each check is a measurement of where the browser put things (bounding boxes,
``scrollWidth``), never a time.  ``WEB_SCREENSHOTS=DIR`` keeps the screenshots in
DIR (``make screenshots`` writes docs/): web-tv.png (1280×720) and
web-tournament-phone.png (390 px); ``LAYOUT_REPORT=FILE`` appends the measured
boxes to FILE as JSON lines."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

import pytest

from spec import result as R
from tests.support.browser import CHROMIUM, chromium, new_page
from tests.support.netclient import Client, run, seat_players
from tests.support.webclient import Referee, play_one, watched

pytest.importorskip("playwright.async_api", reason="Playwright is not installed (make test-browser)")
pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="no /usr/bin/chromium (make test-browser installs it)")

from impl.engines.registry import get_engine  # noqa: E402

TV_SIZES = ((1280, 720), (1024, 768), (1920, 1080))
PHONE = {"width": 390, "height": 844}
WAIT = 20_000
"""Milliseconds a page may take to show what the test waits for (a deadline on a
loaded machine, not a speed claim)."""

MEASURE = """selectors => {
  const box = (e) => {
    if (!e) return null;
    const r = e.getBoundingClientRect();
    return [r.left, r.top, r.right, r.bottom].map((x) => Math.round(x * 10) / 10);
  };
  const boxes = {};
  for (const s of selectors) boxes[s] = box(document.querySelector(s));
  const root = document.documentElement;
  const scrolled = { scrollWidth: root.scrollWidth, scrollHeight: root.scrollHeight };
  return { width: innerWidth, height: innerHeight, ...scrolled, boxes };
}"""
"""The window, the document's scroll size, and each selector's first element's box."""

TV_PARTS = (
    "#board svg",
    "#players .player[data-side] .name",
    "#players .player[data-side]:last-child .name",
    "#clock-0",
    "#clock-1",
    "#count-0",
    "#count-1",
    "#result",
    "#score",
    "#status",
)


def report(what: str, measured: dict[str, Any]) -> None:
    """The measurement, for the record (``LAYOUT_REPORT``) and pytest's ``-s``."""
    line = json.dumps({"page": what, **measured})
    print(line)
    target = os.environ.get("LAYOUT_REPORT")
    if target:
        with open(target, "a", encoding="utf-8") as out:
            out.write(line + "\n")


def inside(measured: dict[str, Any], what: str, height: bool = True) -> None:
    """Every box measured is drawn (not empty) and within the window: its width,
    and with ``height`` its height too; the document is no wider than the window
    (nor, with ``height``, taller)."""
    width, tall = measured["width"], measured["height"]
    assert measured["scrollWidth"] <= width, (what, measured["scrollWidth"], width)
    if height:
        assert measured["scrollHeight"] <= tall, (what, measured["scrollHeight"], tall)
    for selector, box in measured["boxes"].items():
        assert box is not None, (what, selector)
        left, top, right, bottom = box
        assert right > left and bottom > top, (what, selector, box)
        assert left >= 0 and right <= width, (what, selector, box, width)
        if height:
            assert top >= 0 and bottom <= tall, (what, selector, box, tall)


def plain_result(referee: Referee) -> str:
    """impl.game.Outcome.describe's words, capitalised, with the final counts,
    the winner's first: ``Black wins on the board, 14–11``."""
    sides = ("south", "north") if referee.game == "awari" else ("black", "white")
    counts = referee.engine.counts(referee.state)
    if referee.result == R.draw:
        return f"Draw on the board, {counts[0]}–{counts[1]}"
    winner = referee.engine.players.index(referee.result.player)
    return f"{sides[winner].capitalize()} wins on the board, {counts[winner]}–{counts[1 - winner]}"


def winner_side(referee: Referee) -> str | None:
    sides = ("south", "north") if referee.game == "awari" else ("black", "white")
    return None if referee.result == R.draw else sides[referee.engine.players.index(referee.result.player)]


async def play_out(players: tuple[Client, Client], referee: Referee, plies: int | None = None) -> None:
    while not referee.over and (plies is None or len(referee.tokens) < plies):
        await play_one(players, referee)


def test_tv_list_game_and_record_pages_fit_their_screens(tmp_path: Path) -> None:
    """Two TV pages (Awari, Gothello; the Gothello server's players labelled as a
    tournament's view labels them) follow a game each to its end and hold the
    result; at each projector size every part is inside the window.  Then the
    finished game's page (the winner marked, the counts of each frame, the move
    list following the frame) and, at 390 px, the list, a game and a record."""
    shots = Path(os.environ.get("WEB_SCREENSHOTS", tmp_path))
    shots.mkdir(parents=True, exist_ok=True)
    errors: list[str] = []

    async def scenario() -> None:
        records = tmp_path / "records"
        async with (
            watched(["awari", "gothello"], time=(300.0, 300.0), record_dir=records) as (web, servers),
            chromium() as browser,
        ):
            labels = {"gothello-0": ("Team Alpha (search depth 6)", "beta")}
            web.hub._labels = labels.get  # what a tournament's view gives (TournamentView.labels)
            base = f"http://127.0.0.1:{web.port}"
            tv: dict[str, Any] = {}
            for game in ("awari", "gothello"):
                tv[game] = await new_page(browser, errors, viewport={"width": 1280, "height": 720})
                await tv[game].goto(f"{base}/tv/{game}-0?hold=3600")
            referees = {}
            for game, seed, names in (("awari", 3, ("alice", "bob")), ("gothello", 4, ("search", "search"))):
                players = await seat_players(servers[game].port, game, names)
                referees[game] = Referee(game, get_engine(game, "impl"), random.Random(seed))
                await play_out(players, referees[game])
                await tv[game].wait_for_selector("body[data-result]", timeout=WAIT, state="attached")
                for client in players:
                    await client.close()
            for game, page in tv.items():
                assert await page.inner_text("#result") == plain_result(referees[game])
                for width, height in TV_SIZES:
                    await page.set_viewport_size({"width": width, "height": height})
                    measured = await page.evaluate(MEASURE, list(TV_PARTS))
                    report(f"tv {game} {width}x{height}", measured)
                    inside(measured, f"tv {game} {width}x{height}")
            names = await tv["gothello"].eval_on_selector_all("#players .name", "ns => ns.map(n => n.textContent)")
            assert [n.split(" search")[0].removesuffix("winner") for n in names] == list(labels["gothello-0"])
            await tv["gothello"].set_viewport_size({"width": 1280, "height": 720})
            await tv["gothello"].screenshot(path=str(shots / "web-tv.png"))

            await servers["awari"].flush()
            referee = referees["awari"]
            plies = len(referee.tokens)
            page = await new_page(browser, errors, viewport={"width": 1280, "height": 800})
            await page.goto(f"{base}/game/awari-0-1")
            await page.wait_for_selector(f'body[data-frame="{plies}"]', timeout=WAIT)
            assert await page.inner_text("#result") == plain_result(referee)
            winners = await page.eval_on_selector_all(".player.winner", "ps => ps.map(p => p.dataset.side)")
            assert winners == ([w] if (w := winner_side(referee)) else [])
            frames = (await (await page.request.get(f"{base}/api/games/awari-0-1/frames")).json())["frames"]
            await page.keyboard.press("Home")
            for frame in (0, 1, plies // 2, plies):
                if frame:
                    await page.click(f'#moves td.mv[data-index="{frame}"]')
                await page.wait_for_selector(f'body[data-frame="{frame}"]')
                shown = await page.eval_on_selector_all(".player .count", "cs => cs.map(c => Number(c.dataset.count))")
                assert shown == [frames[frame]["counts"]["south"], frames[frame]["counts"]["north"]]
            await page.keyboard.press("Home")
            await page.keyboard.press("End")
            await page.wait_for_selector(f'body[data-frame="{plies}"]')
            box = await page.eval_on_selector(".right", "b => [b.scrollHeight, b.clientHeight]")
            assert box[0] > box[1], "the list is longer than its box: the test means something"
            visible = """() => { const b = document.querySelector('.right').getBoundingClientRect();
                const c = document.querySelector('#moves td.current').getBoundingClientRect();
                return [b.top, b.bottom, c.top, c.bottom]; }"""
            top, bottom, cell_top, cell_bottom = await page.evaluate(visible)
            assert top <= cell_top and cell_bottom <= bottom, (top, bottom, cell_top, cell_bottom)
            await page.keyboard.press("Home")  # the first move: the list back at its top
            await page.keyboard.press("ArrowRight")
            await page.wait_for_selector('body[data-frame="1"]')
            top, bottom, cell_top, cell_bottom = await page.evaluate(visible)
            assert top <= cell_top and cell_bottom <= bottom, (top, bottom, cell_top, cell_bottom)

            [record] = [p.name for p in records.iterdir() if p.name.startswith("awari")]
            phone = await new_page(browser, errors, viewport=PHONE)
            for path, ready, parts in (
                ("/", '#finished tr[data-game="gothello-0-1"]', ["#finished tr td.players", "#finished tr a"]),
                ("/", "#records tr[data-record]", ["#records tr td.players", "#records tr a"]),
                ("/game/gothello-0-1", "body[data-frame]", ["#players", "#result", "#count-1", "#board svg"]),
                (f"/record/{record}", "body[data-frame]", ["#players", "#result", "#count-1", "#moves"]),
            ):
                await phone.goto(base + path)
                await phone.wait_for_selector(ready, timeout=WAIT)
                measured = await phone.evaluate(MEASURE, parts)
                report(f"phone {path}", measured)
                inside(measured, path, height=False)
            assert await phone.inner_text("#result") == plain_result(referee)
            assert errors == []

    run(scenario, timeout=240)


def test_the_tournament_page_fits_a_phone(tmp_path: Path) -> None:
    """A tournament of four players with long labels, some games played, two
    running (their boards need no games here: the view says they run elsewhere):
    at 390 px the page is no wider than the window, and each player's name, games and
    ratings, the crosstable's rows and the finished games' replay links are on screen."""
    pytest.importorskip("openskill")
    from impl.apps.tournament import GameResult, Snapshot, TournamentConfig, schedule
    from impl.web.tourney import TournamentView

    shots = Path(os.environ.get("WEB_SCREENSHOTS", tmp_path))
    shots.mkdir(parents=True, exist_ok=True)
    specs = ("search --depth 6 --book", "random --seed 1", "./examples/raw_player", "mine")
    config = TournamentConfig(specs, "gothello", 2)
    tasks = schedule(config)
    results = tuple(
        GameResult(t.number, t.round, t.players, (1.0, 0.5, 0.0)[t.number % 3], "move", "", f"[Number {t.number}]")
        for t in tasks[:7]
    )
    view = TournamentView("127.0.0.1", 0, tmp_path, live=False)
    view.snapshot = Snapshot(config, results, len(tasks), tuple(tasks[7:9]), None)
    view.open()
    errors: list[str] = []

    async def scenario() -> None:
        async with chromium() as browser:
            page = await new_page(browser, errors, viewport=PHONE)
            await page.goto(f"http://127.0.0.1:{view.port}/")
            await page.wait_for_selector('body[data-played="7"]', timeout=WAIT)
            await page.wait_for_selector("#games tbody tr a")
            parts = ["#standings td.players", "#crosstable tbody tr td.players", "#games tbody tr a", "#running .card"]
            parts.append("#standings tbody tr td:last-child")  # the rating
            parts += ["#standings tbody tr td.games", "#standings tbody tr td.elo"]  # hidden once (issue #53)
            parts += [f"#standings tbody tr:nth-child({i}) td.players" for i in range(1, 5)]
            measured = await page.evaluate(MEASURE, parts)
            report("phone /tournament", measured)
            inside(measured, "tournament", height=False)
            await page.screenshot(path=str(shots / "web-tournament-phone.png"), full_page=True)
            assert errors == []

    try:
        run(scenario, timeout=120)
    finally:
        view.close()
