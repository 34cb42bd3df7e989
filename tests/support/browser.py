"""Headless Chromium for the web view's browser tests (tests/web/test_browser.py):
Debian's ``chromium``, driven by Playwright, which never downloads a browser of its own."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
"""Headless Chromium here: no sandbox as root, and no calls to Google's services,
which this network refuses."""


@asynccontextmanager
async def chromium() -> AsyncIterator[Any]:
    """A launched headless browser, closed on the way out."""
    from playwright.async_api import async_playwright

    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
        try:
            yield browser
        finally:
            await browser.close()


async def new_page(owner: Any, errors: list[str], **options: Any) -> Any:
    """A new page of ``owner`` (a browser or a context) whose script errors are
    appended to ``errors``, which a test asserts empty at its end."""
    page = await owner.new_page(**options)
    page.on("pageerror", lambda e: errors.append(str(e)))
    return page


@asynccontextmanager
async def page_at(url: str, errors: list[str], **options: Any) -> AsyncIterator[Any]:
    """A page of its own browser, opened at ``url`` (``new_page``'s ``errors``)."""
    async with chromium() as browser:
        page = await new_page(browser, errors, **options)
        await page.goto(url)
        yield page
