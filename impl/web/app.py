"""The web view's HTTP server: aiohttp, in the referee's own event loop.

Pages (plain HTML and one small script, impl/web/static/):

    /                       every server of the process, its game, the last finished games, the records
    /game/{id}              one game, drawn live; replayable once finished
    /record/{name}          a finished game from the record directory, replayable

JSON (the same data the pages draw):

    /api/servers            the list
    /api/games/{id}         one game: players, moves, board, clocks, result
    /api/games/{id}/frames  the board before the first move and after each
    /api/records            the record files, newest first
    /api/records/{name}     one record: its headers, moves and frames

Live updates are server-sent events (text/event-stream), one-way by construction:

    /events                 the list, at most every HubLimits.list_interval seconds
    /events/game/{id}       one game: a snapshot, then move / clock / over
    /events/server/{key}    every game of one server in turn (a snapshot at each start)

Viewers only ever GET; nothing they send reaches a game.
"""

from __future__ import annotations

import asyncio
import logging
import socket
from collections import OrderedDict
from collections.abc import Sequence
from contextlib import suppress
from pathlib import Path
from typing import Any

from aiohttp import web

from impl.pgn import PgnError, engine_rules
from impl.server.records import event
from impl.server.server import GameServer, serve
from impl.server.session import Session

from . import archive
from .feed import ServerInfo
from .hub import Game, Hub, HubLimits, board_json, game_id
from .tap import SessionTap, describe

STATIC = Path(__file__).parent / "static"
PING_INTERVAL = 15.0
"""Seconds between keep-alive comments on every stream (a dead viewer is noticed)."""
RECORD_CACHE = 32
"""Replayed records kept (by name and modification time)."""
RECORD_LIST_AGE = 2.0


class WebView:
    """The web view of the servers of one process."""

    def __init__(self, host: str, port: int, record_dir: Path | None = None, limits: HubLimits | None = None) -> None:
        self.host, self.requested_port, self.record_dir = host, port, record_dir
        self.game_servers: list[GameServer] = []
        self.hub = Hub(self._describe, limits, records=record_dir is not None)
        self.tap = SessionTap(self.hub)
        self._known: dict[int, ServerInfo] = {}
        self._runner: web.AppRunner | None = None
        self._pinger: asyncio.Task[None] | None = None
        self._records: OrderedDict[tuple[str, float], dict[str, Any]] = OrderedDict()
        self._listing: tuple[float, dict[str, Any]] | None = None

    def session_hook(self, session: Session) -> None:
        """For ``ServerConfig.session_hooks`` of every server this view shows."""
        self.tap.hook(session)

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
        assert self._runner is not None, "not started"
        address = self._runner.addresses[0]
        port: int = address[1]
        return port

    # ─── life ──────────────────────────────────────────────────────────────────

    async def start(self) -> None:
        self._runner = web.AppRunner(self.app(), handler_cancellation=True, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.requested_port, reuse_address=True)
        await site.start()
        self._pinger = asyncio.create_task(self._ping())
        event(logging.INFO, "web_listen", host=self.host, port=self.port)

    async def stop(self) -> None:
        if self._pinger is not None:
            self._pinger.cancel()
            with suppress(asyncio.CancelledError):
                await self._pinger
        self.hub.close()
        if self._runner is not None:
            await self._runner.cleanup()

    async def serve(self, servers: Sequence[GameServer]) -> int | None:
        """impl.server.server.serve, with this view beside the servers."""
        self.attach(servers)
        await self.start()
        try:
            return await serve(servers)
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
                web.get("/", self._page("index.html")),
                web.get("/game/{id}", self._page("game.html")),
                web.get("/record/{name}", self._page("game.html")),
                web.get("/api/servers", self.api_servers),
                web.get("/api/games/{id}", self.api_game),
                web.get("/api/games/{id}/frames", self.api_frames),
                web.get("/api/records", self.api_records),
                web.get("/api/records/{name}", self.api_record),
                web.get("/events", self.events_list),
                web.get("/events/game/{id}", self.events_game),
                web.get("/events/server/{key}", self.events_server),
                web.get("/favicon.ico", self._no_icon),
                web.static("/static", STATIC),
            ]
        )
        return app

    @staticmethod
    def _page(name: str) -> Any:
        async def page(request: web.Request) -> web.FileResponse:
            return web.FileResponse(STATIC / name)

        return page

    @staticmethod
    async def _no_icon(request: web.Request) -> web.Response:
        return web.Response(status=204)

    def _now(self) -> float:
        return asyncio.get_running_loop().time()

    async def api_servers(self, request: web.Request) -> web.Response:
        return web.json_response(self.hub.list_json(self._now()))

    def _game(self, request: web.Request) -> Game:
        game = self.hub.games.get(request.match_info["id"])
        if game is None:
            raise web.HTTPNotFound(text="no such game (finished games are kept: the last few, and the records)")
        return game

    async def api_game(self, request: web.Request) -> web.Response:
        return web.json_response(self.hub.game_json(self._game(request), self._now()))

    async def api_frames(self, request: web.Request) -> web.Response:
        game = self._game(request)
        positions = [game.begun.position, *(m.position for m in game.moves)]
        return web.json_response({"id": game.id, "frames": [board_json(p.board) for p in positions]})

    def _record_dir(self) -> Path:
        if self.record_dir is None:
            raise web.HTTPNotFound(text="no record directory (referee serve --record DIR)")
        return self.record_dir

    async def api_records(self, request: web.Request) -> web.Response:
        """The listing is read at most every RECORD_LIST_AGE seconds: it reads the
        files, on the loop the games share."""
        now = self._now()
        if self._listing is None or now - self._listing[0] > RECORD_LIST_AGE:
            records = archive.list_records(self._record_dir())
            self._listing = (now, {"records": [record_summary(r) for r in records]})
        return web.json_response(self._listing[1])

    async def api_record(self, request: web.Request) -> web.Response:
        directory, name = self._record_dir(), request.match_info["name"]
        path = archive.record_path(directory, name)
        if path is None:
            raise web.HTTPNotFound(text="no such record")
        key = (name, path.stat().st_mtime)
        cached = self._records.get(key)
        if cached is None:
            record = archive.read_record(directory, name)
            if record is None:
                raise web.HTTPNotFound(text="not a record")
            try:  # PGN names the papers' rules "massey"
                rules = engine_rules(record.game, record.header("Rules"))
            except PgnError as exc:
                raise web.HTTPNotFound(text=str(exc)) from None
            frames = archive.frames(record.game, record.moves, rules)
            cached = {**record_summary(record), "frames": [board_json(f) for f in frames]}
            self._records[key] = cached
            while len(self._records) > RECORD_CACHE:
                self._records.popitem(last=False)
        return web.json_response(cached)

    # ─── streams ───────────────────────────────────────────────────────────────

    async def events_list(self, request: web.Request) -> web.StreamResponse:
        return await self._stream(request, None, None)

    async def events_game(self, request: web.Request) -> web.StreamResponse:
        key, _, number = request.match_info["id"].rpartition("-")
        if not number.isdigit() or game_id(key, int(number)) not in self.hub.games:
            raise web.HTTPNotFound(text="no such game")
        return await self._stream(request, key, int(number))

    async def events_server(self, request: web.Request) -> web.StreamResponse:
        key = request.match_info["key"]
        if key not in {s.key for s in self.hub.servers()}:
            raise web.HTTPNotFound(text="no such server")
        return await self._stream(request, key, None)

    async def _stream(self, request: web.Request, server: str | None, game_no: int | None) -> web.StreamResponse:
        """A viewer's stream: the headers, then whatever the hub writes (already
        framed as chunks, hub.sse) until the stream ends, the viewer goes away, or
        the hub drops it for not keeping up.  Nothing the viewer sends is read."""
        transport = request.transport
        if not self.hub.can_watch() or transport is None:
            raise web.HTTPServiceUnavailable(text="too many viewers")
        sock = transport.get_extra_info("socket")
        if sock is not None:
            with suppress(OSError):
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, self.hub.limits.send_buffer)
        response = web.StreamResponse(
            headers={"Content-Type": "text/event-stream", "Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
        )
        await response.prepare(request)  # a StreamResponse sends its headers here
        limit = self.hub.limits.write_limit

        def write(message: bytes) -> bool:
            if transport.is_closing():
                return False
            transport.write(message)
            return transport.get_write_buffer_size() <= limit

        viewer = self.hub.watch(write, server, game_no)
        if viewer is None:  # the game went between the check and now
            await response.write_eof()
            return response
        try:
            await viewer.done
        finally:
            self.hub.unwatch(viewer)
        if viewer.dropped or transport.is_closing():
            transport.abort()
        else:
            await response.write_eof()
        return response


def record_summary(record: archive.Record) -> dict[str, Any]:
    return {
        "name": record.name,
        "game": record.game,
        "headers": dict(record.headers),
        "plies": list(record.plies),
        "moves": record.moves,
    }
