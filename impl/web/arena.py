"""The class arena's web view (``referee arena … --web PORT``; docs/arena.md, "Web"):
the web view of impl/web/app.py in a process of its own, with the arena's pages:

    /, /arena               the standings (rating ± 95%, games, score, faults), the
                            crosstable, the games in progress, the latest games
    /arena/player/{name}    one player: its rating after each round (a chart), its
                            games, its faults, its validation game's verdict
    /api/arena              the standings page's JSON (without the players' pages)
    /api/arena/players/{name}   one player's

The arena (impl/apps/arena/) hands this view plain JSON (``ArenaLink.standings``),
so the view knows nothing of the database.  Its games in progress are shown live
like a tournament's, each as a server of its own, **behind a broadcast delay**:
every event of a game reaches the web process ``delay`` seconds after it happened
(``Delayed``), so an onlooker cannot feed a player the moves (CGOS's remedy)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from aiohttp import web

from impl.config import WebLimits
from impl.server.session import Session

from .answers import html, missing, missing_api
from .app import WebView
from .feed import ArenaUpdate, FeedEvent, FeedSink, ServerAdded, ServerInfo, StandingsUpdate
from .link import WebLink
from .pages import PAGES
from .tap import SessionTap, server_key
from .tourney import _private_server


class Delayed:
    """A ``FeedSink`` that hands each event on ``delay`` seconds later (the loop's timer)."""

    def __init__(self, sink: FeedSink, delay: float) -> None:
        self.sink, self.delay = sink, delay

    def publish(self, event: FeedEvent) -> None:
        if self.delay <= 0:
            self.sink.publish(event)
        else:
            asyncio.get_running_loop().call_later(self.delay, self.sink.publish, event)


class ArenaView(WebView):
    """The arena's pages; its games' servers and its standings are fed (``fed``)."""

    index = "arena.html"

    def __init__(self, host: str, port: int, record_dir: Path | None, limits: WebLimits | None = None) -> None:
        super().__init__(host, port, record_dir, limits)
        self.standings: dict[str, Any] = {}
        self._games: dict[str, ServerInfo] = {}

    def fed(self, message: ServerAdded | StandingsUpdate | ArenaUpdate) -> None:
        """A message of the arena's link: a game's private server, or the arena's JSON."""
        if isinstance(message, ServerAdded):
            self._games[message.info.key] = message.info
        elif isinstance(message, ArenaUpdate):
            self.standings = message.data

    def _describe(self) -> list[ServerInfo]:
        if len(self._games) > 4 * self.hub.limits.keep_finished:
            kept = {g.begun.server for g in self.hub.games.values()} | set(self.hub.live)
            self._games = {k: v for k, v in self._games.items() if k in kept}
        return list(self._games.values())

    def record_of(self, gid: str) -> str | None:
        return None  # the standings link each finished game to its record

    def app(self) -> web.Application:
        app = super().app()
        app.router.add_get("/arena", self._page(self.index))
        app.router.add_get("/arena/player/{name}", self.page_player)
        app.router.add_get("/api/arena", self.api_arena)
        app.router.add_get("/api/arena/players/{name}", self.api_player)
        return app

    async def page_player(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        if name not in self.standings.get("players", {}):
            raise missing("no such player", f"No player {name!r} in this arena: /arena lists them.")
        return html(PAGES[self.index])

    async def api_arena(self, request: web.Request) -> web.Response:
        data = {k: v for k, v in self.standings.items() if k != "players"}
        live = [
            {"id": gid, "server": key} for key, gid in self.hub.live.items() if gid is not None and key in self._games
        ]
        return await self._json({**data, "live": live})

    async def api_player(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        page = self.standings.get("players", {}).get(name)
        if page is None:
            raise missing_api("no such player", name=name)
        row = next((r for r in self.standings.get("standings", []) if r["player"] == name), None)
        return await self._json({"player": name, "title": self.standings.get("title"), "row": row, **page})


class ArenaLink(WebLink):
    """The arena's side of its web view: ``table_hook`` for each game's session
    (shown ``delay`` seconds late), ``standings`` after each stored game."""

    mode = "arena"

    def __init__(
        self, host: str, port: int, record_dir: Path | None, delay: float, limits: WebLimits | None = None
    ) -> None:
        super().__init__(host, port, record_dir, limits=limits)
        self.delay = delay

    def table_hook(self, session: Session, number: int) -> None:
        info = _private_server(session, number)
        self.send(ServerAdded(info))
        SessionTap(Delayed(self, self.delay), info.key).hook(session)

    def standings(self, data: dict[str, Any]) -> None:
        self.send(ArenaUpdate(data))


__all__ = ["ArenaLink", "ArenaView", "Delayed", "server_key"]
