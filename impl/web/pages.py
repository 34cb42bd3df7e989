"""The web view's pages, each rendered once from static/layout.html around its body
(static/index.html, game.html, tournament.html, tv.html, arena.html); the readable page of a
404 (a game, a record, a server or a path the view does not have), its JSON twin
for the API, and which server ``/tv`` follows.  Pure functions; impl/web/app.py
routes to them."""

from __future__ import annotations

import json
import re
import string
from collections.abc import Mapping, Sequence
from html import escape
from pathlib import Path
from typing import Any, Final

STATIC: Final = Path(__file__).parent / "static"
LAYOUT: Final = string.Template((STATIC / "layout.html").read_text(encoding="utf-8"))
"""Every page's head (static/layout.html): ``$title``, ``$script`` and ``$body``."""
SCRIPT: Final = '<script src="/static/app.js" defer></script>\n'
_TITLE = re.compile(r"<!-- title: (.*) -->")
STATUS_END: Final = '<p class="status"><span id="conn" class="muted"></span></p>\n</main>\n</body>\n'
"""The list pages' end (index, tournament, arena), written once: the connection's
status under the tables.  A page's ``<!-- end: status -->`` line stands for it."""


def render(title: str, body: str, script: str = SCRIPT) -> str:
    """A whole page: the layout around ``body`` (its ``<body>`` element)."""
    return LAYOUT.substitute(title=title, script=script, body=body)


def _page(name: str) -> str:
    """static/NAME, a page's body whose first line is ``<!-- title: … -->``, in the layout."""
    first, _, body = (STATIC / name).read_text(encoding="utf-8").partition("\n")
    title = _TITLE.fullmatch(first)
    if title is None:
        raise ValueError(f"static/{name}: the first line must be <!-- title: … -->")
    return render(title.group(1), body.replace("<!-- end: status -->\n", STATUS_END))


PAGES: Final = {name: _page(name) for name in ("index.html", "game.html", "tournament.html", "tv.html", "arena.html")}
"""The pages, rendered once at import: serving one reads no file on the event loop."""

MISSING_BODY = """<body data-page="missing">
<header><h1><a href="/">zreferee</a> · {title}</h1></header>
<main>
<p class="missing" id="missing">{detail}</p>
<p><a href="/">the list of servers, games and records</a></p>
</main>
</body>
"""
"""A 404's page: no script, so nothing can fail in the browser."""


def missing_page(title: str, detail: str) -> str:
    """The HTML of a 404: ``title`` (``no such game``) and one sentence saying
    what was asked for and where to look; both escaped (they quote the URL)."""
    return render(escape(title), MISSING_BODY.format(title=escape(title), detail=escape(detail)), script="")


def missing_json(error: str, **about: str) -> str:
    """The JSON of an API 404: ``{"error": …}`` and what was asked for."""
    return json.dumps({"error": error, **about}, separators=(",", ":"))


def tv_server(servers: Sequence[Mapping[str, Any]]) -> str | None:
    """The server ``/tv`` follows, from the list's ``servers`` (hub.Hub.list_json):
    the first with a game in progress, else the first; None without servers."""
    playing = next((s for s in servers if s.get("current")), None)
    chosen = playing or (servers[0] if servers else None)
    return None if chosen is None else str(chosen["key"])
