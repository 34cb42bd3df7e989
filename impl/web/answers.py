"""The web view's answers other than its data: its pages as responses, its readable
404s (a page's HTML, an API's JSON: impl/web/pages.py), its 429/503 refusals with
``Retry-After``, and the JSON encoding the encoder thread runs."""

from __future__ import annotations

import json
import logging
from typing import Any

from aiohttp import web

from impl.log import event_limited

from .admission import Decision, Verdict
from .feed import BoardView
from .hub import board_json
from .pages import missing_json, missing_page


def html(page: str) -> web.Response:
    return web.Response(text=page, content_type="text/html")


def missing(title: str, detail: str) -> web.HTTPNotFound:
    """A page's 404, readable (pages.missing_page)."""
    return web.HTTPNotFound(text=missing_page(title, detail), content_type="text/html")


def missing_api(error: str, **about: str) -> web.HTTPNotFound:
    """An API's 404, JSON (pages.missing_json)."""
    return web.HTTPNotFound(text=missing_json(error, **about), content_type="application/json")


def refusal(decision: Decision, text: str, client: str) -> web.HTTPException:
    """429 (over the rate, or the record share) or 503 (over the requests in
    progress), with ``Retry-After``; logged at most once per LOG_INTERVAL a client."""
    event_limited(logging.WARNING, "web_client_limited", client, client=client, limit=decision.verdict.value)
    headers = {"Retry-After": str(decision.retry_after)}
    if decision.verdict is Verdict.RATE:
        return web.HTTPTooManyRequests(text=text, headers=headers)
    return web.HTTPServiceUnavailable(text=text, headers=headers)


@web.middleware
async def readable_404(request: web.Request, handler: Any) -> web.StreamResponse:
    """A path no route has (aiohttp's bare 404) gets the readable page too."""
    try:
        response: web.StreamResponse = await handler(request)
    except web.HTTPNotFound as exc:
        if exc.content_type in _OURS:
            raise
        raise missing("not found", f"Nothing at {request.path!r} here.") from None
    return response


_OURS = ("text/html", "application/json")
"""The content types of the view's own 404s (left as they are)."""


def encode(data: Any) -> bytes:
    return json.dumps(data, separators=(",", ":"), default=_board_default).encode()


def _board_default(value: Any) -> Any:
    """Boards become JSON data as they are encoded, in the encoder thread."""
    if isinstance(value, BoardView):
        return board_json(value)
    raise TypeError(f"{type(value).__name__} is not JSON")
