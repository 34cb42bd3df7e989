"""The web view's answers that are not its static pages: the readable page of a
404 (a game, a record, a server or a path the view does not have), its JSON twin
for the API, and which server ``/tv`` follows.  Pure functions; impl/web/app.py
routes to them."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

MISSING_PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>zreferee — {title}</title>
<link rel="stylesheet" href="/static/style.css">
</head>
<body data-page="missing">
<header><h1><a href="/">zreferee</a> · {title}</h1></header>
<main>
<p class="missing" id="missing">{detail}</p>
<p><a href="/">the list of servers, games and records</a></p>
</main>
</body>
</html>
"""
"""A 404's page: no script, so nothing can fail in the browser."""


def missing_page(title: str, detail: str) -> str:
    """The HTML of a 404: ``title`` (``no such game``) and one sentence saying
    what was asked for and where to look; both escaped (they quote the URL)."""
    return MISSING_PAGE.format(title=escape(title), detail=escape(detail))


def missing_json(error: str, **about: str) -> str:
    """The JSON of an API 404: ``{"error": …}`` and what was asked for."""
    return json.dumps({"error": error, **about}, separators=(",", ":"))


def tv_server(servers: Sequence[Mapping[str, Any]]) -> str | None:
    """The server ``/tv`` follows, from the list's ``servers`` (hub.Hub.list_json):
    the first with a game in progress, else the first; None without servers."""
    playing = next((s for s in servers if s.get("current")), None)
    chosen = playing or (servers[0] if servers else None)
    return None if chosen is None else str(chosen["key"])
