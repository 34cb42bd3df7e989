"""The arena's pages in a real browser (headless Debian chromium through Playwright;
``make test-browser``): the standings, the crosstable and the latest games as the
JSON gives them, a player's page with its rating chart (one point a round), and no
script error.  ``WEB_SCREENSHOTS=DIR`` keeps the screenshots docs/arena.md shows."""

from __future__ import annotations

import asyncio
import os
import signal
from pathlib import Path

import pytest

from tests.arena.test_web import get, start
from tests.support.arenakit import login, play
from tests.support.browser import CHROMIUM, page_at
from tests.support.netclient import run

pytest.importorskip("playwright.async_api", reason="Playwright is not installed (make test-browser)")
pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="no /usr/bin/chromium (make test-browser installs it)")

NAMES = ("ada", "ben", "cleo", "dev", "eli", "fay")


def test_the_arena_pages(tmp_path: Path) -> None:
    shots = Path(os.environ.get("WEB_SCREENSHOTS", tmp_path))
    shots.mkdir(parents=True, exist_ok=True)
    proc, port, base = start(tmp_path, "0")
    try:

        async def rounds() -> int:
            played = 0
            for n in range(4):
                clients = [(await login(port, f"{name}:pw"))[0] for name in NAMES]
                await asyncio.sleep(0.3)
                proc.send_signal(signal.SIGUSR1)
                # Two who met last may be left waiting (never the same pair twice running): let them go.
                tasks = [asyncio.ensure_future(play(c, "gothello", 10 * n + k)) for k, c in enumerate(clients)]
                done, waiting = await asyncio.wait(tasks, timeout=15)
                ended = [t.result() for t in done if not t.exception()]
                played += sum(line.startswith("32") for line in ended) // 2
                for task in waiting:
                    task.cancel()
                for c in clients:
                    await c.close()
            return played

        played = run(rounds)
        assert played >= 9
        data = None
        for _ in range(100):
            status, data = get(base + "/api/arena")
            if status == 200 and len(data.get("games", [])) == played:
                break
            run(lambda: asyncio.sleep(0.2))
        assert data is not None and len(data["games"]) == played

        async def scenario() -> None:
            errors: list[str] = []
            async with page_at(base + "/arena", errors, viewport={"width": 1280, "height": 900}) as page:
                await page.wait_for_selector(f'body[data-games="{played}"]')
                names = await page.eval_on_selector_all(
                    "#standings tbody td:nth-child(2) a", "as => as.map(a => a.textContent)"
                )
                assert names == [r["player"] for r in data["standings"]]
                assert await page.locator("#crosstable tbody tr").count() == len(NAMES)
                assert await page.locator("#games tbody tr").count() == played
                await page.screenshot(path=str(shots / "web-arena.png"), full_page=True)
                await page.click('#standings a:text-is("ada")')
                await page.wait_for_selector("#chart polyline")
                points = int(await page.get_attribute("#chart polyline", "data-points") or 0)
                _, ada = get(base + "/api/arena/players/ada")
                assert points == len(ada["history"]) >= 2
                assert (await page.inner_text("#player-name")) == "ada"
                await page.screenshot(path=str(shots / "web-arena-player.png"), full_page=True)
                assert errors == []

        run(scenario, timeout=120)
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)
