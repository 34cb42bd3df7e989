"""The web view's HTTP server: aiohttp, in the web view's own process
(impl/web/child.py, fed by the referee over impl/web/link.py; ``WebView.serve``
still runs it beside servers in one loop, as the in-process tests do).

Pages (plain HTML and one small script, impl/web/static/):

    /                       every server of the process, its game, the last finished games, the records
    /game/{id}              one game, drawn live; replayable once finished (a game
                            no longer kept: 303 to its record, when the directory has it)
    /record/{name}          a finished game from the record directory, replayable
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
    /api/records            the record files, newest first
    /api/records/{name}     one record: its tags as written, the fields shown, moves and frames

Live updates are server-sent events (text/event-stream), one-way by construction:

    /events                 the list, at most every HubLimits.list_interval seconds
    /events/game/{id}       one game: a snapshot, then move / clock / over
    /events/server/{key}    every game of one server in turn (a snapshot at each start)

Viewers only ever GET; nothing they send reaches a game.

Every route is admitted per client (an IPv4 address or an IPv6 /64:
impl/web/admission.py, ``WebLimits.clients``): its connections (503), requests in
progress (503), request rate (429) and its one place at a time in the record
queue, each refusal with ``Retry-After``.

Nothing a viewer asks for runs long on the view's loop, and no number of
viewers can take the descriptors a game or a record needs (issue #28):

* record listings and pages are read in one records thread (``archive.Archive``:
  bounded reads, a cache keyed by each file's state); concurrent listings share
  one scan, and a listing younger than ``WebLimits.list_age`` is answered again;
  at most ``WebLimits.record_rate`` record requests are answered a second;
* JSON of a game or its frames is encoded in one encoder thread;
* at most ``WebLimits.max_connections`` connections at once (HTTP and streams
  together; by default ``fdbudget.budget().web``), more are answered ``503`` with
  ``Retry-After`` and closed; a connection with no request in progress for
  ``WebLimits.idle_timeout`` seconds (idle, or a request whose headers never
  end) is closed.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import socket
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import suppress
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import quote

from aiohttp import web
from aiohttp.web_protocol import RequestHandler

from impl.log import event, event_limited
from impl.server import fdbudget
from impl.server.net import listening_port
from impl.server.server import GameServer, serve
from impl.server.session import Session

from .admission import Admission, ClientLimits, Decision, Verdict, group
from .archive import Archive
from .feed import BoardView, ServerInfo
from .hub import Game, Hub, HubLimits, board_json, game_id
from .pages import PAGES, STATIC, missing_json, missing_page, tv_server
from .tap import SessionTap, describe

STATIC_FILES = frozenset({"app.js", "style.css"})
"""What /static/ serves: the script and the style sheet (the pages are rendered from static/ by pages.py)."""
PING_INTERVAL = 15.0
"""Seconds between keep-alive comments on every stream (a dead viewer is noticed)."""
RETRY_AFTER = "5"
"""Seconds a refused client is told to wait (503's ``Retry-After``)."""
_BUSY = b"too many web connections; retry later\n"
REFUSED = (
    b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n"
    b"Retry-After: %s\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s"
) % (RETRY_AFTER.encode(), len(_BUSY), _BUSY)
"""The whole answer to a connection over the cap."""
REFUSE_WAIT = 1.0
"""Seconds a refused connection is given to send its request before the answer
(closing with a request unread would reset the connection, losing the 503)."""
MAX_REFUSING = 64
"""Refused connections waiting for their request at once; more are closed at once."""
RECORD_WAIT = 10.0
"""Seconds a record request may wait for its turn (WebLimits.record_rate)."""
LOG_EVERY = 10.0
"""Seconds between two log lines about refused connections, or about aiohttp's errors
(each with the count since the last)."""


@dataclass(frozen=True)
class WebLimits:
    max_connections: int | None = None
    """Web connections at once, pages, API calls and streams together; None:
    ``fdbudget.budget().web`` when the view starts."""
    idle_timeout: float = 15.0
    """Seconds a connection may go without a request in progress: one that sends
    nothing, or whose request's headers never end (slowloris), is then closed."""
    record_rate: float = 20.0
    """Record listings and pages answered per second at most, all clients
    together; the others wait their turn.  Serving a listing costs the loop
    (parsing the request, writing tens of KB): clients asking back to back
    would otherwise take a share of the loop the games need."""
    list_age: float = 5.0
    """Seconds a record listing is answered again without a scan (a scan of
    thousands of entries holds the interpreter lock the loop needs for tens of
    milliseconds; the list page asks every 5 s)."""
    clients: ClientLimits = field(default_factory=ClientLimits)
    """What one client (an address group, impl/web/admission.py) may take: its
    connections, requests in progress, request rate and record requests."""


class _ErrorLines(logging.Handler):
    """aiohttp's own error log (a malformed request, a header line too long, a
    client gone mid-answer) as the referee's JSON event lines, without
    tracebacks, at most one line per LOG_EVERY seconds with the count since;
    never to stderr through logging's last resort."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self._last, self._count = float("-inf"), 0

    def emit(self, record: logging.LogRecord) -> None:
        self._count += 1
        if record.created - self._last < LOG_EVERY:
            return
        exc = record.exc_info[1] if record.exc_info else None
        error = " ".join(str(exc).split())[:160] if exc is not None else ""
        event(
            max(record.levelno, logging.INFO),
            "web_error",
            message=record.getMessage()[:160],
            error=error,
            kind=type(exc).__name__ if exc is not None else "",
            since_last=self._count,
        )
        self._last, self._count = record.created, 0


def _quiet_aiohttp() -> None:
    """Once per process: aiohttp's server log goes to ``_ErrorLines`` only."""
    logger = logging.getLogger("aiohttp.server")
    if not any(isinstance(h, _ErrorLines) for h in logger.handlers):
        logger.addHandler(_ErrorLines())
        logger.propagate = False


class _Refuse(asyncio.Protocol):
    """A connection over the cap: read its request's head (bounded in bytes and
    time), answer 503 and close."""

    def __init__(self, done: Callable[[], None], wait: bool) -> None:
        self._done, self._wait = done, wait
        self._transport: asyncio.Transport | None = None
        self._timer: asyncio.TimerHandle | None = None
        self._tail, self._read = b"", 0

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self._transport = transport
        if self._wait:
            self._timer = asyncio.get_running_loop().call_later(REFUSE_WAIT, self._answer)
        else:
            self._answer()

    def data_received(self, data: bytes) -> None:
        seen = self._tail + data
        self._read += len(data)
        if b"\r\n\r\n" in seen or b"\n\n" in seen or self._read >= 4096:
            self._answer()
        self._tail = seen[-3:]

    def eof_received(self) -> bool:
        self._answer()
        return False

    def _answer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        if self._transport is not None and not self._transport.is_closing():
            self._transport.write(REFUSED)
            self._transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self._done()


class _Admitted(asyncio.Protocol):
    """aiohttp's protocol of a connection, once its client (address group) is
    under its connection cap (admission.Admission.connect); over it, a ``_Refuse``
    answers 503 instead.  Everything else is aiohttp's."""

    def __init__(self, view: WebView, inner: asyncio.Protocol) -> None:
        self._view, self._inner = view, inner
        self._group: str | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        peer = transport.get_extra_info("peername")
        key = group(peer[0] if isinstance(peer, tuple) and peer else None)
        if self._view.admission.connect(key, self._view._now()).admitted:
            self._group = key
        else:
            self._inner = self._view.refusal()
        self._inner.connection_made(transport)

    def data_received(self, data: bytes) -> None:
        self._inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self._inner.eof_received()

    def pause_writing(self) -> None:
        self._inner.pause_writing()

    def resume_writing(self) -> None:
        self._inner.resume_writing()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._group is not None:
            self._view.admission.disconnect(self._group)
            self._group = None
        self._inner.connection_lost(exc)


class WebView:
    """The web view of the servers of one process."""

    index = "index.html"
    """The page at ``/`` (a tournament's view shows its standings there)."""

    def __init__(
        self,
        host: str,
        port: int,
        record_dir: Path | None = None,
        limits: HubLimits | None = None,
        web_limits: WebLimits | None = None,
        tables: Path | None = None,
    ) -> None:
        self.host, self.requested_port, self.record_dir = host, port, record_dir
        self.web_limits = web_limits or WebLimits()
        self.max_connections = self.web_limits.max_connections or 1
        self.game_servers: list[GameServer] = []
        self.hub = Hub(self._describe, limits, records=record_dir is not None, labels=self.labels)
        self.tap = SessionTap(self.hub)
        self._known: dict[int, ServerInfo] = {}
        self._runner: web.AppRunner | None = None
        self._listener: asyncio.Server | None = None
        self._pinger: asyncio.Task[None] | None = None
        self.archive = Archive(record_dir, tables=tables) if record_dir is not None else None
        self._records_thread = ThreadPoolExecutor(1, thread_name_prefix="web-records")
        self._encoder = ThreadPoolExecutor(1, thread_name_prefix="web-encode")
        self._listing: tuple[float, bytes] | None = None
        self._scan: asyncio.Future[bytes] | None = None
        self._next_record = float("-inf")
        """When the next record request may be answered (WebLimits.record_rate)."""
        self._fresh = 0
        """Connections accepted in this turn of the loop, not yet in the server's count."""
        self._refusing = 0
        self.refused = 0
        """Connections refused for the cap, since the start."""
        self._logged: tuple[float, int] = (float("-inf"), 0)
        self.admission = Admission(self.web_limits.clients)
        self._record_locks: dict[str, asyncio.Lock] = {}
        """Address group → its turn in the record queue (one request of a client at a time)."""
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
        _quiet_aiohttp()
        # Sized when serving starts: after the serve command has raised the soft limit.
        self.max_connections = self.web_limits.max_connections or fdbudget.budget().web
        self._runner = web.AppRunner(
            self.app(),
            handler_cancellation=True,
            access_log=None,
            shutdown_timeout=1.0,
            keepalive_timeout=self.web_limits.idle_timeout,
        )
        await self._runner.setup()
        loop = asyncio.get_running_loop()
        self._listener = await loop.create_server(self._connection, self.host, self.requested_port, reuse_address=True)
        self._pinger = asyncio.create_task(self._ping())
        event(logging.INFO, "web_listen", host=self.host, port=self.port, max_connections=self.max_connections)

    async def stop(self) -> None:
        if self._pinger is not None:
            self._pinger.cancel()
            with suppress(asyncio.CancelledError):
                await self._pinger
        self.hub.close()
        if self._listener is not None:
            self._listener.close()
        if self._runner is not None:
            await self._runner.cleanup()
        for pool in (self._records_thread, self._encoder):
            pool.shutdown(wait=False, cancel_futures=True)

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

    # ─── connections ───────────────────────────────────────────────────────────

    @property
    def connections(self) -> int:
        """Web connections open now (the server's, and those accepted in this
        turn of the loop that it will count on the next)."""
        assert self._runner is not None and self._runner.server is not None
        return len(self._runner.server.connections) + self._fresh

    def _connection(self) -> asyncio.BaseProtocol:
        """The protocol of a new connection: aiohttp's, or a 503 over the cap."""
        assert self._runner is not None and self._runner.server is not None
        if self.connections < self.max_connections:
            if not self._fresh:
                asyncio.get_running_loop().call_soon(self._settle)
            self._fresh += 1
            handler: RequestHandler = self._runner.server()
            return _Admitted(self, handler)
        return self.refusal()

    def refusal(self) -> _Refuse:
        """The protocol of a refused connection (over the view's cap, or its client's)."""
        self.refused += 1
        self._log_refused()
        wait = self._refusing < MAX_REFUSING
        self._refusing += 1
        return _Refuse(self._refuse_done, wait)

    def _settle(self) -> None:
        # Runs before the connection_made callbacks of the connections accepted
        # this turn, which add them to the server's own count.
        self._fresh = 0

    def _refuse_done(self) -> None:
        self._refusing -= 1

    def _log_refused(self) -> None:
        now = asyncio.get_running_loop().time()
        last, count = self._logged
        if now - last >= LOG_EVERY:
            event(logging.WARNING, "web_refused", cap=self.max_connections, since_last=self.refused - count)
            self._logged = (now, self.refused)

    # ─── routes ────────────────────────────────────────────────────────────────

    def app(self) -> web.Application:
        app = web.Application()
        app.add_routes(
            [
                web.get("/", self._page(self.index)),
                web.get("/game/{id}", self.page_game),
                web.get("/record/{name}", self.page_record),
                web.get("/tv", self.page_tv_any),
                web.get("/tv/{key}", self.page_tv),
                web.get("/api/servers", self.api_servers),
                web.get("/api/games/{id}", self.api_game),
                web.get("/api/games/{id}/frames", self.api_frames),
                web.get("/api/records", self.api_records),
                web.get("/api/records/{name}", self.api_record),
                web.get("/events", self.events_list),
                web.get("/events/game/{id}", self.events_game),
                web.get("/events/server/{key}", self.events_server),
                web.get("/favicon.ico", self._no_icon),
                web.get("/static/{name}", self._static),
            ]
        )
        app.middlewares.append(self._admit)
        app.middlewares.append(_readable_404)
        return app

    @web.middleware
    async def _admit(self, request: web.Request, handler: Any) -> web.StreamResponse:
        """Every request counts against its client's rate and requests in
        progress (admission.Admission.begin): over them, 429 or 503 with ``Retry-After``."""
        key = group(request.remote)
        decision = self.admission.begin(key, self._now())
        if not decision.admitted:
            raise _refusal(decision, "too many requests from your address", key)
        try:
            response: web.StreamResponse = await handler(request)
            return response
        finally:
            self.admission.end(key)
            if _RECORD_KEY in request:
                self._record_done(request)

    def _record_done(self, request: web.Request) -> None:
        """The client's record share back, and the next of its record requests let in."""
        key = request[_RECORD_KEY]
        self.admission.end_record(key)
        if _RECORD_LOCK in request:
            request[_RECORD_LOCK].release()
        if key not in self.admission.clients or not self.admission.clients[key].records:
            self._record_locks.pop(key, None)

    @staticmethod
    def _page(name: str) -> Any:
        async def page(request: web.Request) -> web.Response:
            return _html(PAGES[name])

        return page

    async def page_game(self, request: web.Request) -> web.StreamResponse:
        """The game's page; a finished game no longer kept in memory redirects
        (303) to its record's page when the record directory has it."""
        gid = request.match_info["id"]
        if gid in self.hub.games:
            return _html(PAGES["game.html"])
        name, archive = self.record_of(gid), self.archive
        if name is not None and archive is not None:
            await self._record_turn(request)
            if await asyncio.get_running_loop().run_in_executor(self._records_thread, archive.exists, name):
                raise web.HTTPSeeOther(f"/record/{quote(name, safe='')}")
        raise _missing("no such game", f"No game {gid!r} here: only those in progress and the last finished.")

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

    async def page_record(self, request: web.Request) -> web.StreamResponse:
        """The record's page, if the record directory has the file (looked up in
        the records thread, a file system call may be slow; in turn with the other
        record requests, WebLimits.record_rate)."""
        name, archive = request.match_info["name"], self.archive
        if archive is None:
            raise _missing("no such record", "This referee keeps no records (referee serve --record DIR).")
        await self._record_turn(request)
        found = await asyncio.get_running_loop().run_in_executor(self._records_thread, archive.exists, name)
        if not found:
            raise _missing("no such record", f"No record {name!r} in the record directory.")
        return _html(PAGES["game.html"])

    async def page_tv(self, request: web.Request) -> web.StreamResponse:
        key = request.match_info["key"]
        if key not in {s.key for s in self.hub.servers()}:
            raise _missing("no such server", f"No server {key!r} here: / lists the servers.")
        return _html(PAGES["tv.html"])

    async def page_tv_any(self, request: web.Request) -> web.Response:
        key = tv_server(self.hub.list_json(self._now())["servers"])
        if key is None:
            raise _missing("no server", "This process runs no server yet.")
        query = f"?{request.query_string}" if request.query_string else ""  # ?hold=SECONDS
        raise web.HTTPFound(f"/tv/{key}{query}")

    @staticmethod
    async def _static(request: web.Request) -> web.FileResponse:
        """A file of static/ (the few the pages load, named in STATIC_FILES)."""
        name = request.match_info["name"]
        if name not in STATIC_FILES:
            raise _missing("not found", f"No file {name!r} here.")
        return web.FileResponse(STATIC / name)

    @staticmethod
    async def _no_icon(request: web.Request) -> web.Response:
        return web.Response(status=204)

    def _now(self) -> float:
        return asyncio.get_running_loop().time()

    async def _json(self, data: Any, status: int = 200) -> web.Response:
        """``data`` encoded in the encoder thread: a long game's moves or frames
        are a large encode."""
        body = await asyncio.get_running_loop().run_in_executor(self._encoder, _encode, data)
        return web.Response(body=body, status=status, content_type="application/json")

    async def api_servers(self, request: web.Request) -> web.Response:
        return web.json_response(self.hub.list_json(self._now()))

    def _game(self, request: web.Request) -> Game:
        gid = request.match_info["id"]
        game = self.hub.games.get(gid)
        if game is None:
            raise _missing_api("no such game (finished games are kept: the last few, and the records)", id=gid)
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

    def _archive(self) -> Archive:
        if self.archive is None:
            raise _missing_api("no record directory (referee serve --record DIR)")
        return self.archive

    async def _record_turn(self, request: web.Request) -> None:
        """Wait for this request's turn: record requests are answered at most
        ``record_rate`` a second, in the order they came; 503 when the turn is
        more than RECORD_WAIT seconds away (many clients asking at once).  A
        client takes one place in the queue at a time (its share, 429 beyond:
        admission.Admission.begin_record), held until the request is answered."""
        now = self._now()
        key = group(request.remote)
        decision = self.admission.begin_record(key, now)
        if not decision.admitted:
            raise _refusal(decision, "too many record requests from your address", key)
        request[_RECORD_KEY] = key
        share = self._record_locks.setdefault(key, asyncio.Lock())
        await share.acquire()  # held until answered (_admit): the client's others wait here
        request[_RECORD_LOCK] = share
        now = self._now()
        turn = max(now, self._next_record)
        if turn - now > RECORD_WAIT:
            raise web.HTTPServiceUnavailable(text="too many record requests", headers={"Retry-After": RETRY_AFTER})
        self._next_record = turn + 1.0 / self.web_limits.record_rate
        if turn > now:
            await asyncio.sleep(turn - now)

    async def api_records(self, request: web.Request) -> web.Response:
        """The record directory's listing (archive.Archive.listing), scanned in the
        records thread; requests while a scan runs wait for that one."""
        archive = self._archive()
        await self._record_turn(request)
        now = self._now()
        if self._listing is not None and now - self._listing[0] < self.web_limits.list_age:
            body = self._listing[1]
        else:
            if self._scan is None or self._scan.done():
                loop = asyncio.get_running_loop()
                self._scan = scan = asyncio.ensure_future(loop.run_in_executor(self._records_thread, archive.listing))
                scan.add_done_callback(self._scanned)
            body = await asyncio.shield(self._scan)
        return web.Response(body=body, content_type="application/json")

    def _scanned(self, scan: asyncio.Future[bytes]) -> None:
        if not scan.cancelled() and scan.exception() is None:
            self._listing = (self._now(), scan.result())

    async def api_record(self, request: web.Request) -> web.Response:
        """One record (archive.Archive.page), read and replayed in the records thread."""
        archive, name = self._archive(), request.match_info["name"]
        await self._record_turn(request)
        page = await asyncio.get_running_loop().run_in_executor(self._records_thread, archive.page, name)
        return web.Response(body=page.body, status=page.status, content_type="application/json")

    # ─── streams ───────────────────────────────────────────────────────────────

    async def events_list(self, request: web.Request) -> web.StreamResponse:
        return await self._stream(request, None, None)

    async def events_game(self, request: web.Request) -> web.StreamResponse:
        key, _, number = request.match_info["id"].rpartition("-")
        # ASCII digits only: "²".isdigit() holds, and int("²") raises (a 500 it was).
        if not (number.isascii() and number.isdigit()) or game_id(key, int(number)) not in self.hub.games:
            raise _missing_api("no such game", id=request.match_info["id"])
        return await self._stream(request, key, int(number))

    async def events_server(self, request: web.Request) -> web.StreamResponse:
        key = request.match_info["key"]
        if key not in {s.key for s in self.hub.servers()}:
            raise _missing_api("no such server", key=key)
        return await self._stream(request, key, None)

    async def _stream(self, request: web.Request, server: str | None, game_no: int | None) -> web.StreamResponse:
        """A viewer's stream: the headers, then whatever the hub writes (already
        framed as chunks, hub.sse) until the stream ends, the viewer goes away, or
        the hub drops it for not keeping up.  Nothing the viewer sends is read."""
        transport = request.transport
        if not self.hub.can_watch() or transport is None:
            raise web.HTTPServiceUnavailable(text="too many viewers; retry", headers={"Retry-After": RETRY_AFTER})
        sock = transport.get_extra_info("socket")
        if sock is not None:
            with suppress(OSError):
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, self.hub.limits.send_buffer)
        response = web.StreamResponse(
            headers={"Content-Type": "text/event-stream", "Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
        )
        await response.prepare(request)  # a StreamResponse sends its headers here
        if request.method == "HEAD":  # the headers only: the hub writes to the transport itself
            await response.write_eof()
            return response
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


_RECORD_KEY = web.RequestKey("record_share", str)
"""Set on a request counted in its client's record share, to give it back when answered."""
_RECORD_LOCK = web.RequestKey("record_turn", asyncio.Lock)
"""Set on a request holding its client's turn in the record queue."""


def _refusal(decision: Decision, text: str, client: str) -> web.HTTPException:
    """429 (over the rate, or the record share) or 503 (over the requests in
    progress), with ``Retry-After``; logged at most once per LOG_INTERVAL a client."""
    event_limited(logging.WARNING, "web_client_limited", client, client=client, limit=decision.verdict.value)
    headers = {"Retry-After": str(decision.retry_after)}
    if decision.verdict is Verdict.RATE:
        return web.HTTPTooManyRequests(text=text, headers=headers)
    return web.HTTPServiceUnavailable(text=text, headers=headers)


def _html(page: str) -> web.Response:
    return web.Response(text=page, content_type="text/html")


def _missing(title: str, detail: str) -> web.HTTPNotFound:
    """A page's 404, readable (pages.missing_page)."""
    return web.HTTPNotFound(text=missing_page(title, detail), content_type="text/html")


def _missing_api(error: str, **about: str) -> web.HTTPNotFound:
    """An API's 404, JSON (pages.missing_json)."""
    return web.HTTPNotFound(text=missing_json(error, **about), content_type="application/json")


@web.middleware
async def _readable_404(request: web.Request, handler: Any) -> web.StreamResponse:
    """A path no route has (aiohttp's bare 404) gets the readable page too."""
    try:
        response: web.StreamResponse = await handler(request)
    except web.HTTPNotFound as exc:
        if exc.content_type in _OURS:
            raise
        raise _missing("not found", f"Nothing at {request.path!r} here.") from None
    return response


_OURS = ("text/html", "application/json")
"""The content types of the view's own 404s (left as they are)."""


def _encode(data: Any) -> bytes:
    return json.dumps(data, separators=(",", ":"), default=_board_default).encode()


def _board_default(value: Any) -> Any:
    """Boards become JSON data as they are encoded, in the encoder thread."""
    if isinstance(value, BoardView):
        return board_json(value)
    raise TypeError(f"{type(value).__name__} is not JSON")
