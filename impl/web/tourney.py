"""The live view of a tournament (``referee tournament … --web PORT``, and ``referee
match … --web PORT``): the web view of impl/web/app.py, with the standings at
``/`` (and ``/tournament``), in a process of its own (``TournamentLink``, the
tournament's side, starts impl/web/child.py with the mode ``tournament`` running a
``TournamentView``):

    /api/tournament     as_json of the standings so far (impl/apps/tournament/outputs.py: the
                        crosstable, Elo ± margin and LOS or openskill ratings, the
                        SPRT), with ``progress`` (played, total, running games),
                        each finished game's ``record`` and each running game's
                        live ``id`` (``/game/{id}``, ``/events/game/{id}``)

Finished games are the tournament's records directory (``/api/records``,
``/record/{name}``).  Games in progress are drawn live when they run in threads
of this process (``--workers 0``, and ``referee match``): each game's private
server (impl/server/local.py) gets a session hook (``hooks``) whose tap reads
the session on the game's own loop, as ``serve --web``'s does, and hands each
feed event to the link (impl/web/link.py: a bounded buffer, never waiting for
the web process).  The standings go to the web process at most every
``STANDINGS_EVERY`` seconds, the latest only.  Games on Dask worker processes or
a remote cluster are shown once finished.

``TournamentView`` can also run in a thread of the tournament's process
(``open``/``close``; the tests use it so); the commands use ``TournamentLink``.
"""

from __future__ import annotations

import asyncio
import os
import threading
import time
import uuid
from collections.abc import Callable
from contextlib import suppress
from dataclasses import replace
from pathlib import Path
from typing import Any, Protocol, cast

from aiohttp import web

from impl import pgn
from impl.server.session import Session

from .app import WebView
from .feed import ArenaUpdate, FeedEvent, ServerAdded, ServerInfo, StandingsUpdate
from .link import ViewConfig, WebLink, frame
from .tap import SessionTap, server_key

STANDINGS_EVERY = 0.5
"""Seconds between two standings sent to the web process (the latest wins)."""


class Standings(Protocol):
    """The tournament at one moment, as the tournament hands it in (impl/apps/
    tournament/live.py ``Snapshot``): this view knows nothing of tournaments but this."""

    def json(self) -> dict[str, Any]:
        """``/api/tournament`` without the live ids (``progress.running`` lists the
        games under way by ``number``)."""
        ...


class _Running(Protocol):
    """A game under way as the tournament's snapshot has it (impl/apps/tournament/schedule.py
    ``Task``): its number and its players' labels, first mover's first."""

    @property
    def number(self) -> int: ...

    @property
    def labels(self) -> tuple[str, str]: ...


VIEWS: dict[str, TournamentView | TournamentLink] = {}
"""The live views of this process by token (``MatchOptions.live``): a Dask worker
process has none, and plays its games unseen."""


def hooks(token: str, number: int) -> tuple[Callable[[Session], None], ...]:
    """The session hooks of game ``number`` for the view ``token``, if this process has it."""
    view = VIEWS.get(token)
    if view is None or view.pid != os.getpid():  # a forked worker: the view's thread is not there
        return ()
    return (view.game_hook(number),)


class _Known:
    """What a tournament's live view (either side of it) is known by: ``hooks`` finds
    it in ``VIEWS`` by its ``token``, and only in the process (``pid``) that made it."""

    def __init__(self, live: bool) -> None:
        self.live = live
        """Whether the games run in this process, so that their boards can be shown."""
        self.token = uuid.uuid4().hex
        self.pid = os.getpid()


class _Handoff:
    """A ``FeedSink`` for a tap on a game's loop: each event goes to the view's
    loop, to be published there; the game's loop never waits for it."""

    def __init__(self, view: TournamentView) -> None:
        self.view = view

    def publish(self, event: FeedEvent) -> None:
        self.view.call(self.view.hub.publish, event)


class TournamentView(WebView, _Known):
    """The web view of one tournament, run by ``open`` in a thread of its own."""

    index = "tournament.html"

    def __init__(self, host: str, port: int, record_dir: Path, live: bool, tables: Path | None = None) -> None:
        super().__init__(host, port, record_dir, tables=tables)
        _Known.__init__(self, live)
        self.snapshot: Standings | None = None
        """The latest, replaced whole by the tournament's thread; read on the view's loop."""
        self._state: tuple[Standings, dict[str, Any]] | None = None
        """The last snapshot's JSON, made in the encoder thread."""
        self._games: dict[str, ServerInfo] = {}
        """Server key → the game's private server; on the view's loop."""
        self._labels: dict[int, tuple[str, str]] = {}
        """Game number → its players' labels in the standings, as seen running."""
        self._loop: asyncio.AbstractEventLoop | None = None
        self._ready = threading.Event()
        self._error: OSError | None = None
        self._closing: asyncio.Event | None = None
        self._thread = threading.Thread(target=self._main, name="tournament-web", daemon=True)

    # ─── life, from the tournament's thread ────────────────────────────────────

    def open(self) -> None:
        """Listen, in a thread of its own; an OSError if the address cannot be had."""
        VIEWS[self.token] = self
        self._thread.start()
        self._ready.wait()
        if self._error is not None:
            del VIEWS[self.token]
            raise self._error

    def close(self) -> None:
        VIEWS.pop(self.token, None)
        if self._closing is not None:
            self.call(self._closing.set)
        self._thread.join(10.0)

    def call(self, function: Callable[..., Any], *args: Any) -> None:
        """Run ``function(*args)`` on the view's loop, soon; nothing once it has closed."""
        loop = self._loop
        if loop is not None:
            with suppress(RuntimeError):  # the loop closed meanwhile
                loop.call_soon_threadsafe(function, *args)

    def _main(self) -> None:
        asyncio.run(self._serve())

    async def _serve(self) -> None:
        self._loop, self._closing = asyncio.get_running_loop(), asyncio.Event()
        try:
            await self.start()
        except OSError as exc:
            self._error = exc
            await self.stop()
            return
        finally:
            self._ready.set()
        try:
            await self._closing.wait()
        finally:
            await self.stop()

    # ─── games, from their own loops ───────────────────────────────────────────

    def game_hook(self, number: int) -> Callable[[Session], None]:
        """The session hook of game ``number``'s private server: its games are
        shown as server ``number``."""

        def hook(session: Session) -> None:
            info = _private_server(session, number)
            self.call(self._games.__setitem__, info.key, info)
            SessionTap(_Handoff(self), info.key).hook(session)

        return hook

    def _describe(self) -> list[ServerInfo]:
        """The games' servers; those of games the hub no longer keeps are forgotten."""
        if len(self._games) > 4 * self.hub.limits.keep_finished:
            kept = {g.begun.server for g in self.hub.games.values()} | set(self.hub.live)
            self._games = {k: v for k, v in self._games.items() if k in kept}
            numbers = {v.server for v in self._games.values()}
            self._labels = {n: v for n, v in self._labels.items() if n in numbers}
        return list(self._games.values())

    def labels(self, key: str) -> tuple[str, str] | None:
        """The labels the standings give the players of game ``key`` (its private
        server's key), read off the snapshot's running games (the program's name
        a player sends is often the same for all: ``search``, ``mine``)."""
        info = self._games.get(key)
        if info is None:
            return None
        running: tuple[_Running, ...] = getattr(self.snapshot, "running", ())
        for task in running:
            if task.number not in self._labels:
                self._labels[task.number] = (str(task.labels[0]), str(task.labels[1]))
        return self._labels.get(info.server)

    def record_of(self, gid: str) -> str | None:
        """A tournament's or match's game ``gid`` (``<game>-<number>-<n>``) has its
        record as ``game-<number>.pgn`` (impl/pgn.py ``record_name``)."""

        key = gid.rpartition("-")[0]
        number = key.rpartition("-")[2]
        if not (number.isascii() and number.isdigit() and len(number) < 10):
            return None
        return pgn.record_name(int(number))

    def fed(self, message: ServerAdded | StandingsUpdate | ArenaUpdate) -> None:
        """A message of the tournament's link (in the web process): a game's
        private server, or the latest standings."""
        if isinstance(message, ServerAdded):
            self._games[message.info.key] = message.info
        elif isinstance(message, StandingsUpdate):
            self.snapshot = cast(Standings, message.snapshot)

    # ─── routes ────────────────────────────────────────────────────────────────

    def app(self) -> web.Application:
        app = super().app()
        app.router.add_get("/tournament", self._page(self.index))
        app.router.add_get("/api/tournament", self.api_tournament)
        return app

    async def api_tournament(self, request: web.Request) -> web.Response:
        """The snapshot's JSON with each running game's live id (None until it starts,
        or when its board cannot be shown)."""
        snapshot, state = self.snapshot, {}
        if snapshot is not None and self._state is not None and self._state[0] is snapshot:
            state = self._state[1]
        elif snapshot is not None:  # the ratings and duplicates: work for a thread, not the loop
            state = await asyncio.get_running_loop().run_in_executor(self._encoder, snapshot.json)
            self._state = (snapshot, state)
        running = [
            {**r, "id": self.hub.live.get(server_key(state["game"], r["number"]))}
            for r in state.get("progress", {}).get("running", [])
        ]
        data = {**state, "live": self.live}
        if state:
            data["progress"] = {**state["progress"], "running": running}
        return await self._json(data)


def _private_server(session: Session, number: int) -> ServerInfo:
    """How game ``number``'s private server is shown (as server ``number``)."""
    vocab = session.vocab
    return ServerInfo(
        server_key(vocab.game, number), vocab.game, vocab.title, number, "127.0.0.1", 0, session.engine.kind,
        session.settings.time, False, vocab.sides, session.engine.rule_set,
    )  # fmt: skip


class TournamentLink(WebLink, _Known):
    """The tournament's side of its live view, which runs in a process of its
    own (a ``TournamentView`` there): the interface the tournament uses
    (``open``, ``close``, ``port``, ``token``, ``snapshot``, ``game_hook``)."""

    mode = "tournament"

    def __init__(self, host: str, port: int, record_dir: Path, live: bool, tables: Path | None = None) -> None:
        super().__init__(host, port, record_dir, tables=tables)
        _Known.__init__(self, live)
        self._snapshot: Standings | None = None
        self._sent: Standings | None = None
        self._sent_at = float("-inf")

    def view_config(self) -> ViewConfig:
        return replace(super().view_config(), live=self.live)

    def open(self) -> None:
        VIEWS[self.token] = self
        try:
            super().open()
        except OSError:
            del VIEWS[self.token]
            raise

    def close(self) -> None:
        VIEWS.pop(self.token, None)
        with self._lock:
            self._sent_at = float("-inf")  # the last standings go before the end
        self._flush_standings()
        super().close()

    @property
    def snapshot(self) -> Standings | None:
        return self._snapshot

    @snapshot.setter
    def snapshot(self, value: Standings | None) -> None:
        """Replaced whole by the tournament's thread; sent by the writer thread."""
        with self._lock:
            self._snapshot = value
            self._lock.notify()

    def _flush_standings(self) -> None:
        data = self._extra()
        if data:
            with self._lock:
                self._buffer += data
                self._lock.notify()

    def _due(self) -> bool:
        return self._snapshot is not self._sent and time.monotonic() - self._sent_at >= STANDINGS_EVERY

    def _extra(self) -> bytes:
        with self._lock:
            if not self._due():
                return b""
            snapshot, self._sent, self._sent_at = self._snapshot, self._snapshot, time.monotonic()
        return frame(StandingsUpdate(snapshot))

    def game_hook(self, number: int) -> Callable[[Session], None]:
        """The session hook of game ``number``'s private server: its games are
        shown as server ``number``."""

        def hook(session: Session) -> None:
            info = _private_server(session, number)
            self.send(ServerAdded(info))
            SessionTap(self, info.key).hook(session)

        return hook
