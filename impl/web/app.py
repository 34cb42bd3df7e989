"""The web view's HTTP server: aiohttp, in the web view's own process
(impl/web/child.py, fed by the referee over impl/web/link.py; ``WebView.serve``
still runs it beside servers in one loop, as the in-process tests do).  The view
is cut by role: the connections (impl/web/gate.py), the record routes and their
queue (impl/web/library.py), the live streams (impl/web/streams.py), the answers
(impl/web/answers.py); here the pages, the game API and their wiring.

Pages (plain HTML and one small script, impl/web/static/):

    /                       every server of the process, its game, the last finished games, the records
    /game/{id}              one game, drawn live; replayable once finished (a game
                            no longer kept: 303 to its record, when the directory has it)
    /record/{name}          a finished game from the record directory, replayable (library.py)
    /tv/{key}               one server's games in turn, in large type for a projector
    /tv                     redirects to /tv/{key} of the first server playing (else the first)

A game, record or server the view does not have (and any other path) is a 404
with a readable page (impl/web/pages.py); the JSON endpoints' 404s are JSON
``{"error": …}``.  Every game and record JSON names the rule set (``rules``,
spec/awari_rules.py's canonical name) and the engine (``engine``: impl, spec or
checked) separately, and once over its final ``score`` by side (Awari's stores,
Gothello's stones); a replay's frames come with both clocks at each
(``clocks``: the live game's readings, or the record's ``[%clk]`` comments).

JSON (the same data the pages draw):

    /api/servers            the list
    /api/games/{id}         one game: players, moves, board, clocks, result
    /api/games/{id}/frames  the board before the first move and after each
    /api/records            the record files, newest first (library.py)
    /api/records/{name}     one record: its tags as written, the fields shown, moves and frames

Live updates are server-sent events (streams.py): ``/events``,
``/events/game/{id}``, ``/events/server/{key}``.  Viewers only ever GET; nothing
they send reaches a game.

Every route is admitted per client (an IPv4 address or an IPv6 /64:
impl/web/admission.py, ``WebLimits.clients``): its connections (503), requests in
progress (503), request rate (429) and its one place at a time in the record
queue, each refusal with ``Retry-After``.

Nothing a viewer asks for runs long on the view's loop, and no number of
viewers can take the descriptors a game or a record needs (issue #28): records
are read in one records thread (library.py); JSON of a game or its frames is
encoded in one encoder thread; at most ``WebLimits.max_connections`` connections
at once (gate.py), a connection with no request in progress for
``WebLimits.idle_timeout`` seconds (idle, or a request whose headers never end)
closed.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import suppress
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from aiohttp import web

from impl.config import WebLimits
from impl.log import event
from impl.server import fdbudget
from impl.server.net import listening_port
from impl.server.server import GameServer, serve
from impl.server.session import Session

from . import answers
from .admission import Admission
from .answers import html, missing, missing_api, readable_404, refusal
from .feed import ServerInfo
from .gate import CLIENT, Gate, quiet_aiohttp
from .hub import Game, Hub
from .library import Library
from .pages import PAGES, STATIC, tv_server
from .streams import Streams
from .tap import SessionTap, describe

STATIC_FILES = frozenset({"app.js", "style.css"})
"""What /static/ serves: the script and the style sheet (the pages are rendered from static/ by pages.py)."""
PING_INTERVAL = 15.0
"""Seconds between keep-alive comments on every stream (a dead viewer is noticed)."""


class WebView:
    """The web view of the servers of one process."""

    index = "index.html"
    """The page at ``/`` (a tournament's view shows its standings there)."""

    def __init__(
        self,
        host: str,
        port: int,
        record_dir: Path | None = None,
        limits: WebLimits | None = None,
        tables: Path | None = None,
    ) -> None:
        self.host, self.requested_port, self.record_dir = host, port, record_dir
        self.web_limits = limits or WebLimits()
        self.game_servers: list[GameServer] = []
        self.hub = Hub(self._describe, self.web_limits.hub, records=record_dir is not None, labels=self.labels)
        self.tap = SessionTap(self.hub)
        self.admission = Admission(self.web_limits.clients)
        self.gate = Gate(self.admission, self.web_limits.max_connections or 1)
        wl = self.web_limits
        self.library = Library(record_dir, self.admission, wl.record_rate, wl.list_age, tables)
        self.streams = Streams(self.hub)
        self._known: dict[int, ServerInfo] = {}
        self._runner: web.AppRunner | None = None
        self._listener: asyncio.Server | None = None
        self._pinger: asyncio.Task[None] | None = None
        self._encoder = ThreadPoolExecutor(1, thread_name_prefix="web-encode")
        self.referee_pid = os.getpid()
        """The process that writes the records (its id is in their names): this
        one, or the referee's when the view runs in a process of its own (child.py)."""

    def session_hook(self, session: Session) -> None:
        """For ``ServerConfig.session_hooks`` of every server this view shows."""
        self.tap.hook(session)

    def labels(self, key: str) -> tuple[str, str] | None:
        """The players of server ``key``'s game as a tournament's standings name
        them (TournamentView); None here: a server's players have their names."""
        return None

    def attach(self, servers: Sequence[GameServer]) -> None:
        self.game_servers = list(servers)

    def _describe(self) -> list[ServerInfo]:
        """Every server that has listened (a one-game server that stopped is still
        shown, with its last game)."""
        for server in self.game_servers:
            info = describe(server)
            if info is not None:
                self._known[id(server)] = info
        return [self._known[id(s)] for s in self.game_servers if id(s) in self._known]

    @property
    def port(self) -> int:
        return listening_port(self._listener)

    # ─── life ──────────────────────────────────────────────────────────────────

    async def start(self) -> None:
        quiet_aiohttp()
        # Sized when serving starts: after the serve command has raised the soft limit.
        self.gate.max_connections = self.web_limits.max_connections or fdbudget.budget().web
        self._runner = web.AppRunner(
            self.app(),
            handler_cancellation=True,
            access_log=None,
            shutdown_timeout=1.0,
            keepalive_timeout=self.web_limits.idle_timeout,
        )
        await self._runner.setup()
        self.gate.server = self._runner.server
        loop, port = asyncio.get_running_loop(), self.requested_port
        self._listener = await loop.create_server(self.gate.connection, self.host, port, reuse_address=True)
        self._pinger = asyncio.create_task(self._ping())
        event(logging.INFO, "web_listen", host=self.host, port=self.port, max_connections=self.gate.max_connections)

    async def stop(self) -> None:
        if self._pinger is not None:
            self._pinger.cancel()
            with suppress(asyncio.CancelledError):
                await self._pinger
        self.hub.close()
        if self._listener is not None:
            self._listener.close()
        self.gate.close()
        if self._runner is not None:
            await self._runner.cleanup()
        self.library.close()
        self._encoder.shutdown(wait=False, cancel_futures=True)

    async def serve(self, servers: Sequence[GameServer], on_ready: Callable[[], None] | None = None) -> int | None:
        """impl.server.server.serve, with this view beside the servers."""
        self.attach(servers)
        await self.start()
        try:
            return await serve(servers, on_ready)
        finally:
            await self.stop()

    async def _ping(self) -> None:
        while True:
            await asyncio.sleep(PING_INTERVAL)
            self.hub.ping()

    # ─── routes ────────────────────────────────────────────────────────────────

    def app(self) -> web.Application:
        app = web.Application()
        app.add_routes(
            [
                web.get("/", self._page(self.index)),
                web.get("/game/{id}", self.page_game),
                web.get("/tv", self.page_tv_any),
                web.get("/tv/{key}", self.page_tv),
                web.get("/api/servers", self.api_servers),
                web.get("/api/games/{id}", self.api_game),
                web.get("/api/games/{id}/frames", self.api_frames),
                *self.library.routes(),
                *self.streams.routes(),
                web.get("/favicon.ico", self._no_icon),
                web.get("/static/{name}", self._static),
            ]
        )
        app.middlewares.append(self._admit)
        app.middlewares.append(readable_404)
        return app

    @web.middleware
    async def _admit(self, request: web.Request, handler: Any) -> web.StreamResponse:
        """Every request counts against its client's rate and requests in
        progress (admission.Admission.begin): over them, 429 or 503 with ``Retry-After``.
        Its client is its connection's (gate.Gate.client: the run's programs', or its address's)."""
        key = request[CLIENT] = self.gate.client(request.transport, request.remote)
        decision = self.admission.begin(key, self._now())
        if not decision.admitted:
            raise refusal(decision, "too many requests from your address", key)
        try:
            response: web.StreamResponse = await handler(request)
            return response
        finally:
            self.admission.end(key)
            self.library.done(request)

    @staticmethod
    def _page(name: str) -> Any:
        async def page(request: web.Request) -> web.Response:
            return html(PAGES[name])

        return page

    async def page_game(self, request: web.Request) -> web.StreamResponse:
        """The game's page; a finished game no longer kept in memory redirects
        (303) to its record's page when the record directory has it."""
        gid = request.match_info["id"]
        if gid in self.hub.games:
            return html(PAGES["game.html"])
        await self.library.redirect(request, self.record_of(gid))
        raise missing("no such game", f"No game {gid!r} here: only those in progress and the last finished.")

    def record_of(self, gid: str) -> str | None:
        """The name of the record file of game ``gid``, a finished game the hub no
        longer keeps (hub.Hub.forgotten), as ``referee serve --record`` writes it
        (impl/server/server.py ``write_record``: the game, its server, its end in
        UTC, the referee's process id, its number); None if the hub does not
        remember the game.  A name, not a file: the caller looks for it."""
        ended = self.hub.forgotten.get(gid)
        if ended is None:
            return None
        stamp = datetime.fromtimestamp(ended.ended, UTC).strftime("%Y%m%dT%H%M%SZ")
        return f"{ended.game}-{ended.server}-{stamp}-{self.referee_pid}-{ended.game_no}.pgn"

    async def page_tv(self, request: web.Request) -> web.StreamResponse:
        key = request.match_info["key"]
        if key not in {s.key for s in self.hub.servers()}:
            raise missing("no such server", f"No server {key!r} here: / lists the servers.")
        return html(PAGES["tv.html"])

    async def page_tv_any(self, request: web.Request) -> web.Response:
        key = tv_server(self.hub.list_json(self._now())["servers"])
        if key is None:
            raise missing("no server", "This process runs no server yet.")
        query = f"?{request.query_string}" if request.query_string else ""  # ?hold=SECONDS
        raise web.HTTPFound(f"/tv/{key}{query}")

    @staticmethod
    async def _static(request: web.Request) -> web.FileResponse:
        """A file of static/ (the few the pages load, named in STATIC_FILES)."""
        name = request.match_info["name"]
        if name not in STATIC_FILES:
            raise missing("not found", f"No file {name!r} here.")
        return web.FileResponse(STATIC / name)

    @staticmethod
    async def _no_icon(request: web.Request) -> web.Response:
        return web.Response(status=204)

    def _now(self) -> float:
        return asyncio.get_running_loop().time()

    async def _json(self, data: Any, status: int = 200) -> web.Response:
        """``data`` encoded in the encoder thread: a long game's moves or frames
        are a large encode."""
        body = await asyncio.get_running_loop().run_in_executor(self._encoder, answers.encode, data)
        return web.Response(body=body, status=status, content_type="application/json")

    async def api_servers(self, request: web.Request) -> web.Response:
        return web.json_response(self.hub.list_json(self._now()))

    def _game(self, request: web.Request) -> Game:
        gid = request.match_info["id"]
        game = self.hub.games.get(gid)
        if game is None:
            raise missing_api("no such game (finished games are kept: the last few, and the records)", id=gid)
        return game

    async def api_game(self, request: web.Request) -> web.Response:
        return await self._json(self.hub.game_json(self._game(request), self._now()))

    async def api_frames(self, request: web.Request) -> web.Response:
        game = self._game(request)
        boards = [game.begun.position.board, *(m.position.board for m in game.moves)]  # immutable: read off the loop
        readings = [game.begun.clocks, *(m.clocks for m in game.moves)]  # as read after each move
        clocks = [[round(t, 2) for t in c.left] for c in readings if c is not None]
        shown = clocks if len(clocks) == len(boards) else None  # None without time controls
        return await self._json({"id": game.id, "frames": boards, "clocks": shown})
