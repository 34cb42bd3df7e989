"""The web view in a real browser: headless Chromium (Debian's ``chromium``, driven
by Playwright; no browser of Playwright's own) loads the list and a game page
while real games are played through the servers, and after every move the board
it shows equals the engine's; the result appears at the end.  A tournament's page
(``referee tournament … --web``) shows its standings and a running game's board.

Runs where Playwright and /usr/bin/chromium are installed: ``make test-browser``
(and ``make verify-deep``) install both first.  Elsewhere it is skipped, as
docs/web.md says.  ``WEB_SCREENSHOTS=DIR`` keeps the screenshots in DIR (``make
screenshots`` writes docs/); otherwise they go to the test's temporary directory.
"""

from __future__ import annotations

import asyncio
import os
import random
import re
from pathlib import Path
from typing import Any

import pytest

from impl import protocol as P
from impl.engines.registry import get_engine
from spec import result as R
from tests.support.browser import CHROMIUM, chromium, new_page, page_at
from tests.support.live import gated_player, gates_at, live_view, viewed_run
from tests.support.netclient import Client, run, seat_players
from tests.support.webclient import Referee, expected_board, play_one, watched

pytest.importorskip("playwright.async_api", reason="Playwright is not installed (make test-browser)")
pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="no /usr/bin/chromium (make test-browser installs it)")

READ_BOARD = """board => [...board.querySelectorAll('[data-pit], [data-square], .store')].map(e => [
    e.dataset.pit || e.dataset.square || e.dataset.side,
    e.dataset.pit !== undefined || e.classList.contains('store')
        ? e.querySelector('.count').textContent
        : (e.querySelector('.stone') ? e.querySelector('.stone').classList[1] : ''),
])"""
"""What the page shows: for each pit and store its number, for each square the
colour of the stone drawn there."""


async def shown_board(page: Any) -> tuple[dict[str, Any], dict[str, int]]:
    pairs = await page.eval_on_selector("#board", READ_BOARD)
    cells: dict[str, Any] = {}
    counts: dict[str, int] = {}
    for name, value in pairs:
        if name in ("north", "south"):
            counts[name] = int(value)
        else:
            cells[name] = int(value) if len(name) == 1 else value
    return cells, counts


async def check_move(page: Any, referee: Referee) -> None:
    """The page has drawn the latest move: its board, and the moves so far."""
    await page.wait_for_selector(f'body[data-plies="{len(referee.tokens)}"]', timeout=10_000)
    cells, counts = await shown_board(page)
    expected_cells, expected_counts = expected_board(referee.game, referee.state, referee.engine)
    assert cells == expected_cells, referee.tokens
    if referee.game == "awari":
        assert counts == expected_counts
    assert await page.eval_on_selector("#board", "b => b.dataset.last") == referee.tokens[-1]
    assert await page.eval_on_selector_all("#moves td.mv", "tds => tds.map(t => t.textContent)") == referee.tokens


def result_text(referee: Referee) -> str:
    if referee.result == R.draw:
        return "draw"
    side = referee.engine.players.index(referee.result.player)
    return f"{P.VOCABULARIES[referee.game].sides[side]} wins"


def test_list_and_game_pages_follow_real_games(tmp_path: Path) -> None:
    """An Awari game followed to its end on its page, board checked after every
    move; then a Gothello game, with the list page showing it in progress and the
    finished Awari game, and its page followed to the end too."""
    shots = Path(os.environ.get("WEB_SCREENSHOTS", tmp_path))
    shots.mkdir(parents=True, exist_ok=True)

    async def follow(page: Any, players: tuple[Client, Client], referee: Referee, pause_from: int = 0) -> None:
        """Play to the end, or from ``pause_from`` plies on, until a move captures
        (for the screenshot), checking the page after every move."""
        while not referee.over:
            await play_one(players, referee)
            await check_move(page, referee)
            plies = len(referee.tokens)
            if pause_from and plies >= pause_from and (await page.query_selector("#board .captured") or plies > 30):
                return
        await page.wait_for_selector("#result:not([hidden])", timeout=10_000)
        words = result_text(referee).replace(" wins", " wins on the board").replace("draw", "draw on the board")
        # "Black wins on the board, 14–11": impl.game.Outcome.describe's words and the counts
        assert (await page.inner_text("#result")).startswith(words.capitalize() + ", ")

    async def scenario() -> None:
        async with (
            watched(["awari", "gothello"], time=(300.0, 300.0), record_dir=tmp_path / "records") as (web, servers),
            chromium() as browser,
        ):
            context = await browser.new_context(viewport={"width": 1100, "height": 640})
            errors: list[str] = []
            base = f"http://127.0.0.1:{web.port}"
            listing, game_page = await new_page(context, errors), await new_page(context, errors)
            await listing.goto(base + "/")
            await listing.wait_for_selector('tr[data-server="awari-0"] >> text=waiting for players')
            assert await listing.inner_text('tr[data-server="gothello-0"] td:nth-child(3)') == str(
                servers["gothello"].port
            )

            awari = await seat_players(servers["awari"].port, "awari", ("alice", "bob"))
            await listing.wait_for_selector('tr[data-game="awari-0-1"] >> text=alice (south) – bob (north)')
            await listing.click('tr[data-game="awari-0-1"] a.watch')  # the link on the list leads to the game
            await listing.wait_for_url(base + "/game/awari-0-1")
            await game_page.goto(base + "/game/awari-0-1")
            referee = Referee("awari", get_engine("awari", "impl"), random.Random(2))
            await follow(game_page, awari, referee)
            await game_page.screenshot(path=str(shots / "web-awari.png"))

            gothello = await seat_players(servers["gothello"].port, "gothello", ("carol", "dave"))
            referee = Referee("gothello", get_engine("gothello", "impl"), random.Random(4))
            await listing.goto(base + "/")
            await listing.wait_for_selector('tr[data-game="gothello-0-1"]')
            await game_page.goto(base + "/game/gothello-0-1")
            await follow(game_page, gothello, referee, pause_from=8)
            number = len(referee.tokens) // 2 + 1
            await listing.wait_for_selector(f'tr[data-game="gothello-0-1"] td:nth-child(8) >> text="{number}"')
            await listing.wait_for_selector('#finished tr[data-game="awari-0-1"]')
            await listing.wait_for_selector("#records tr[data-record] >> text=alice (south) – bob (north)")
            await listing.screenshot(path=str(shots / "web-list.png"))
            await game_page.screenshot(path=str(shots / "web-gothello.png"))
            late = await context.new_page()  # joins the game in progress
            await late.goto(base + "/game/gothello-0-1")
            await check_move(late, referee)
            await follow(game_page, gothello, referee)
            await check_move(late, referee)
            await late.wait_for_selector("#result:not([hidden])", timeout=10_000)
            assert errors == []
            for client in (*awari, *gothello):
                await client.close()

    run(scenario, timeout=240)


def test_the_tournament_page_shows_standings_and_a_live_board(tmp_path: Path) -> None:
    """``referee tournament … --web 0`` of three players, two games per pairing,
    one at a time; the third player (tests/support/gated_player.py) holds its first game
    after six moves.  The page then shows two games played, the standings as the
    API gives them, the crosstable, and the running game's board as the referee
    has it, its players named with their clocks ticking; once released, the
    tournament ends."""
    shots = Path(os.environ.get("WEB_SCREENSHOTS", tmp_path))
    shots.mkdir(parents=True, exist_ok=True)
    gates = gates_at(tmp_path)
    gated = gated_player("c", gates, free=6)
    argv = viewed_run("tournament", "a=random --seed 1", "b=random --seed 2", gated, "--game", "awari", "--games", "2",
                   "--time", "300", "--jobs", "1", records=tmp_path / "r", gates=gates)  # fmt: skip

    async def scenario(base: str) -> None:
        errors: list[str] = []
        async with page_at(base, errors, viewport={"width": 1280, "height": 900}) as page:
            await page.wait_for_selector('body[data-played="2"]', timeout=60_000)
            running: dict[str, Any] = {}
            while not running.get("id"):  # game 3 is listed as it starts, its board once seated
                state = await (await page.request.get(base + "api/tournament")).json()
                [running] = state["progress"]["running"]
                await asyncio.sleep(0.05)
            assert running["number"] == 3
            game: dict[str, Any] = {}
            while len(game.get("moves", [])) < 13:  # a's seventh move, then c waits (the page polls too)
                game = await (await page.request.get(base + f"api/games/{running['id']}")).json()
                await asyncio.sleep(0.05)
            await page.wait_for_selector(
                f'.card[data-game="{running["id"]}"] .board[data-last="{game["moves"][-1]["move"]}"]'
            )
            names = await page.eval_on_selector_all(
                "#standings tbody td:nth-child(2)", "tds => tds.map(t => t.textContent)"
            )
            assert names == [p["player"] for p in state["standings"]]
            assert await page.locator("#crosstable tbody tr").count() == 3
            assert await page.locator("#games tbody tr a").count() == 2  # the finished games' replays
            pairs = await page.eval_on_selector(f'.card[data-game="{running["id"]}"] .board', READ_BOARD)
            shown = {name: int(value) for name, value in pairs}
            expected = {**game["board"]["cells"], **game["board"]["counts"]}
            assert shown == expected
            await check_card_players(page, running, game)
            await page.screenshot(path=str(shots / "web-tournament.png"), full_page=True)
            await page.click(f'.card[data-game="{running["id"]}"] a.watch')  # the running game's own page
            await page.wait_for_selector(f'body[data-plies="{len(game["moves"])}"]')
            assert (await page.inner_text("#subtitle")).startswith("tournament game 3 · rules: paper · engine: impl")
            shown = await page.eval_on_selector_all("#players .name", "ns => ns.map(n => n.firstChild.textContent)")
            assert shown == [running["first"], running["second"]]  # the standings' labels, not the programs' names
            assert errors == []

    with live_view(argv) as (proc, base, _):
        run(lambda: scenario(base), timeout=240)
        for n in range(1, 5):
            (gates / f"go-{n}").touch()
    assert proc.returncode == 0


CLOCK = re.compile(r"\d+:\d\d\.\d")


async def check_card_players(page: Any, running: dict[str, Any], game: dict[str, Any]) -> None:
    """A running game's card names its players by the standings' names, each with
    its side, and shows their clocks, the mover's ticking down (issue #53, item 8)."""
    card = f'.card[data-game="{running["id"]}"]'
    read = "ss => ss.map(s => [s.querySelector('.name').textContent, s.querySelector('.clock').textContent])"
    shown = await page.eval_on_selector_all(f"{card} .sides .side", read)
    sides = game["sides"]
    assert [name for name, _ in shown] == [f"{running['first']} ({sides[0]})", f"{running['second']} ({sides[1]})"]
    assert game["clocks"] and all(CLOCK.fullmatch(clock) for _, clock in shown), shown
    mover = game["clocks"]["running"]
    assert mover in (0, 1), game["clocks"]
    before = shown[mover][1]
    await page.wait_for_function(
        "([sel, i, before]) => document.querySelectorAll(sel)[i].textContent !== before",
        arg=[f"{card} .sides .side .clock", mover, before],
        timeout=5_000,
    )


def test_the_match_page_shows_the_elo_difference_and_the_sprt(tmp_path: Path) -> None:
    """``referee match … --sprt … --web 0``: after the first game (the second held
    by tests/support/gated_player.py) the page shows the Elo line and the SPRT's state as
    the API gives them, and the running game."""
    gates = gates_at(tmp_path)
    (gates / "go-1").touch()
    gated = gated_player("gated", gates)
    argv = viewed_run("match", gated, "random --seed 2", "--game", "gothello", "--games", "2", "--sprt", "elo0=0",
                   "elo1=100", records=tmp_path / "r", gates=gates)  # fmt: skip

    async def scenario(base: str) -> None:
        errors: list[str] = []
        async with page_at(base, errors, viewport={"width": 1100, "height": 800}) as page:
            await page.wait_for_selector('body[data-played="1"]', timeout=60_000)
            await page.wait_for_selector('.card[data-number="2"]')
            state = await (await page.request.get(base + "api/tournament")).json()
            assert state["progress"]["played"] == 1
            assert (await page.inner_text("#elo")).startswith("Elo gated − random --seed 2: ")
            assert await page.inner_text("#sprt") == state["sprt"]["line"]
            assert await page.locator("#standings tbody tr").count() == 2
            assert errors == []

    with live_view(argv) as (proc, base, _):  # the line comes after the match's A = / B = lines
        run(lambda: scenario(base), timeout=240)
        (gates / "go-2").touch()
    assert proc.returncode == 0
