"""The web view's side of the feed: the games of the process, live and recently
finished, and the viewers following them.

Viewers are read-only and bounded.  Each has a queue of at most ``queue_limit``
messages; publishing never waits on a viewer: a message that finds the queue
full drops that viewer (its connection is aborted) and the game goes on.  Events
are recorded at once (references only) and fanned out on the next turn of the
event loop, after the referee has written its own responses; each message is
encoded once for all its viewers.  The list of servers is sent to list viewers
at most every ``list_interval`` seconds, however many games move.
"""

from __future__ import annotations

import asyncio
import json
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from impl.server.records import utc

from .feed import (
    BoardView,
    ClockReading,
    ClocksChanged,
    FeedEvent,
    GameOver,
    GameStarted,
    MoveMade,
    Position,
    ServerInfo,
)


@dataclass(frozen=True)
class HubLimits:
    queue_limit: int = 64
    """Messages a viewer may have waiting; one more drops it."""
    max_viewers: int = 2000
    """Viewers at once, over all streams; more are refused (503)."""
    keep_finished: int = 20
    """Finished games kept in memory for the list and for replay."""
    list_interval: float = 0.5
    """Seconds between two updates of the server list to its viewers."""
    write_limit: int = 64 * 1024
    """Bytes a viewer's connection may leave unsent; more drops it."""
    send_buffer: int = 64 * 1024
    """The kernel's send buffer per viewer (SO_SNDBUF), fixed so that a stalled
    viewer is found out within a bounded amount of output."""
    batch: int = 16
    """Viewers served per turn of the event loop: a game's next request waits for
    at most this many viewers' writes, however many watch."""


class Viewer:
    """One connected viewer: a bounded queue of encoded messages."""

    def __init__(self, limit: int, server: str | None, game_no: int | None) -> None:
        self.limit, self.server, self.game_no = limit, server, game_no
        self._queue: deque[bytes] = deque()
        self._wake = asyncio.Event()
        self.closed = False
        """Ended at once: what is queued is discarded."""
        self.ending = False
        """Ends once what is queued has been taken."""
        self.dropped = False
        self.on_drop: Callable[[], None] | None = None
        """Set by the connection's handler: abort it (a stalled write must not linger)."""

    def offer(self, message: bytes) -> bool:
        """Queue a message; False if the queue is full (the hub then drops it)."""
        if self.closed:
            return True
        if len(self._queue) >= self.limit:
            return False
        self._queue.append(message)
        self._wake.set()
        return True

    def close(self) -> None:
        self.closed = True
        self._queue.clear()
        self._wake.set()

    def end(self) -> None:
        self.ending = True
        self._wake.set()

    async def next(self) -> bytes | None:
        """The next message; None once closed, or ended and drained."""
        while not self._queue:
            if self.closed or self.ending:
                return None
            self._wake.clear()
            await self._wake.wait()
        return None if self.closed else self._queue.popleft()


def sse(name: str, data: Any) -> bytes:
    """One server-sent event."""
    return f"event: {name}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n".encode()


PING = b": ping\n\n"


# ─── games ─────────────────────────────────────────────────────────────────────


@dataclass
class Game:
    """A game as the hub keeps it."""

    id: str
    server: str
    game_no: int
    game: str
    sides: tuple[str, str]
    names: tuple[str, str]
    started: float
    position: Position
    """The latest."""
    start: Position
    clocks: ClockReading | None
    to_move: int | None = 0
    moves: list[MoveMade] = field(default_factory=list)
    note: str = ""
    over: GameOver | None = None


def game_id(server: str, game_no: int) -> str:
    return f"{server}-{game_no}"


def board_json(view: BoardView) -> dict[str, Any]:
    return {
        "game": view.game,
        "cells": dict(view.cells),
        "counts": dict(view.counts),
        "to_move": view.to_move,
        "last": view.last,
        "captures": list(view.captures),
    }


def clocks_json(clocks: ClockReading | None, now: float) -> dict[str, Any] | None:
    if clocks is None:
        return None
    left = clocks.at(now)
    return {"left": [round(left[0], 2), round(left[1], 2)], "running": clocks.running}


def move_json(move: MoveMade) -> dict[str, Any]:
    return {"ply": move.ply, "move": move.move, "side": move.side}


def over_json(over: GameOver | None) -> dict[str, Any] | None:
    if over is None:
        return None
    return {"result": over.result, "termination": over.termination, "winner": over.winner, "ended": utc(over.ended)}


def full_moves(plies: int, to_move: int | None) -> int:
    """The full-move number of the next ply (of the last one once over)."""
    return plies // 2 + 1 if to_move is not None else (plies + 1) // 2


class Hub:
    """Games and viewers of one process; a ``FeedSink``."""

    def __init__(
        self,
        servers: Callable[[], Sequence[ServerInfo]] = tuple,
        limits: HubLimits | None = None,
        records: bool = False,
    ) -> None:
        self._servers = servers
        self.limits = limits or HubLimits()
        self.records = records
        """Whether a record directory is served (the list page links to it)."""
        self.games: dict[str, Game] = {}
        self.live: dict[str, str] = {}
        """Server key → id of its game in progress."""
        self.finished: deque[str] = deque()
        """Ids of the finished games kept, newest first."""
        self._game_viewers: dict[str, set[Viewer]] = {}
        """Server key → its viewers (of one game, or following the server)."""
        self._list_viewers: set[Viewer] = set()
        self._list_pending = False
        self._deliveries: deque[tuple[Viewer, bytes]] = deque()
        """Messages on their way to viewers, in order (so each viewer gets its own in order)."""
        self._delivering = False
        self.dropped = 0
        """Viewers dropped for falling behind, since the start."""

    # ─── the feed ──────────────────────────────────────────────────────────────

    def servers(self) -> list[ServerInfo]:
        return sorted(self._servers(), key=lambda s: (s.game, s.server))

    def publish(self, event: FeedEvent) -> None:
        """Record the event at once; fan it out on the next turn of the loop."""
        key = event.server
        gid = game_id(key, event.game_no)
        if isinstance(event, GameStarted):
            game = Game(
                gid,
                key,
                event.game_no,
                event.game,
                event.sides,
                event.names,
                event.started,
                event.position,
                event.position,
                event.clocks,
            )
            self.games[gid] = game
            self.live[key] = gid
        else:
            game_or_none = self.games.get(gid)
            if game_or_none is None:
                return
            game = game_or_none
            game.clocks = event.clocks
            if isinstance(event, MoveMade):
                game.moves.append(event)
                game.position, game.to_move, game.note = event.position, event.to_move, ""
            elif isinstance(event, ClocksChanged):
                game.note = event.note
            else:
                game.over, game.to_move = event, None
                self._finish(game)
        if self._game_viewers.get(key):
            asyncio.get_running_loop().call_soon(self._fan_out, game, event, len(game.moves))
        self._list_changed()

    def _finish(self, game: Game) -> None:
        if self.live.get(game.server) == game.id:
            del self.live[game.server]
        self.finished.appendleft(game.id)
        while len(self.finished) > self.limits.keep_finished:
            self.games.pop(self.finished.pop(), None)

    def _fan_out(self, game: Game, event: FeedEvent, plies: int) -> None:
        viewers = self._game_viewers.get(game.server)
        if not viewers:
            return
        now = asyncio.get_running_loop().time()
        message, snapshot = self._message(game, event, plies, now), None
        for viewer in list(viewers):
            if viewer.game_no is None and isinstance(event, GameStarted):
                snapshot = snapshot or sse("snapshot", self.game_json(game, now))
                self._deliveries.append((viewer, snapshot))
            elif viewer.game_no is None or viewer.game_no == game.game_no:
                self._deliveries.append((viewer, message))
                if viewer.game_no is not None and isinstance(event, GameOver):
                    viewers.discard(viewer)  # the last message of its stream
                    self._deliveries.append((viewer, b""))
        self._kick()

    def _kick(self) -> None:
        """Deliver what waits, starting on the next turn of the loop."""
        if self._deliveries and not self._delivering:
            self._delivering = True
            asyncio.get_running_loop().call_soon(self._deliver)

    def _deliver(self) -> None:
        """Queue the next batch of messages with their viewers; the rest on the
        next turn of the loop.  An empty message ends a viewer's stream."""
        self._delivering = False
        for _ in range(min(self.limits.batch, len(self._deliveries))):
            viewer, message = self._deliveries.popleft()
            if not message:
                viewer.end()
                continue
            if not viewer.offer(message):
                self.drop(viewer)
        self._kick()

    def _message(self, game: Game, event: FeedEvent, plies: int, now: float) -> bytes:
        """The event as sent to the viewers of its game; ``plies`` counts the moves
        made up to it."""
        head = {"id": game.id, "clocks": clocks_json(event.clocks, now)}
        if isinstance(event, MoveMade):
            body = {**move_json(event), "index": plies, "board": board_json(event.position.board)}
            number = full_moves(plies, event.to_move)
            return sse("move", {**head, **body, "to_move": event.to_move, "number": number})
        if isinstance(event, ClocksChanged):
            return sse("clock", {**head, "note": event.note})
        if isinstance(event, GameOver):
            return sse("over", {**head, "result": over_json(event), "board": board_json(game.position.board)})
        return sse("started", {**head})

    # ─── snapshots (the JSON endpoints and the first message of a stream) ──────

    def game_json(self, game: Game, now: float) -> dict[str, Any]:
        info = self._info(game.server)
        return {
            "id": game.id,
            "server": game.server,
            "server_no": info.server if info else None,
            "port": info.port if info else None,
            "engine": info.engine if info else None,
            "time": list(info.time) if info and info.time else None,
            "game": game.game,
            "game_no": game.game_no,
            "sides": list(game.sides),
            "names": list(game.names),
            "started": utc(game.started),
            "moves": [move_json(m) for m in game.moves],
            "number": full_moves(len(game.moves), game.to_move),
            "to_move": game.to_move,
            "board": board_json(game.position.board),
            "clocks": clocks_json(game.clocks, now),
            "note": game.note,
            "result": over_json(game.over),
            "live": game.over is None,
        }

    def _info(self, key: str) -> ServerInfo | None:
        return next((s for s in self._servers() if s.key == key), None)

    def game_summary(self, game: Game, now: float) -> dict[str, Any]:
        return {
            "id": game.id,
            "server": game.server,
            "game": game.game,
            "game_no": game.game_no,
            "sides": list(game.sides),
            "names": list(game.names),
            "plies": len(game.moves),
            "number": full_moves(len(game.moves), game.to_move),
            "to_move": game.to_move,
            "clocks": clocks_json(game.clocks, now) if game.over is None else None,
            "started": utc(game.started),
            "result": over_json(game.over),
        }

    def list_json(self, now: float) -> dict[str, Any]:
        servers = []
        for info in self.servers():
            gid = self.live.get(info.key)
            current = self.game_summary(self.games[gid], now) if gid in self.games else None
            servers.append(
                {
                    "key": info.key,
                    "game": info.game,
                    "title": info.title,
                    "server": info.server,
                    "host": info.host,
                    "port": info.port,
                    "engine": info.engine,
                    "time": list(info.time) if info.time else None,
                    "forever": info.forever,
                    "sides": list(info.sides),
                    "current": current,
                }
            )
        finished = [self.game_summary(self.games[gid], now) for gid in self.finished if gid in self.games]
        return {"servers": servers, "finished": finished, "records": self.records}

    # ─── viewers ───────────────────────────────────────────────────────────────

    def _viewer_count(self) -> int:
        return len(self._list_viewers) + sum(len(v) for v in self._game_viewers.values())

    def watch(self, server: str | None, game_no: int | None = None) -> Viewer | None:
        """A new viewer of the list (``server`` None), of one game, or of every game
        of a server (``game_no`` None), its first message already queued: the
        current snapshot.  None when the hub is full or there is nothing to watch."""
        if self._viewer_count() >= self.limits.max_viewers:
            return None
        now = asyncio.get_running_loop().time()
        viewer = Viewer(self.limits.queue_limit, server, game_no)
        if server is None:
            self._list_viewers.add(viewer)
            viewer.offer(sse("list", self.list_json(now)))
            return viewer
        gid = game_id(server, game_no) if game_no is not None else self.live.get(server)
        game = self.games.get(gid) if gid is not None else None
        if game_no is not None and game is None:
            return None
        if game is not None:
            viewer.offer(sse("snapshot", self.game_json(game, now)))
            if game_no is not None and game.over is not None:
                viewer.end()  # nothing more will come: the snapshot is all
                return viewer
        self._game_viewers.setdefault(server, set()).add(viewer)
        return viewer

    def drop(self, viewer: Viewer) -> None:
        """A viewer that does not keep up: ended at once, its connection aborted."""
        if not viewer.dropped:
            viewer.dropped = True
            self.dropped += 1
            if viewer.on_drop is not None:
                viewer.on_drop()
        self.unwatch(viewer)

    def unwatch(self, viewer: Viewer) -> None:
        viewer.close()
        self._list_viewers.discard(viewer)
        if viewer.server is not None:
            viewers = self._game_viewers.get(viewer.server)
            if viewers is not None:
                viewers.discard(viewer)

    def _all_viewers(self) -> list[Viewer]:
        return [*self._list_viewers, *(v for vs in self._game_viewers.values() for v in vs)]

    def ping(self) -> None:
        """A comment line to every viewer, so that dead connections are noticed."""
        self._deliveries.extend((viewer, PING) for viewer in self._all_viewers())
        self._kick()

    def close(self) -> None:
        """Every viewer ends (the process is stopping)."""
        self._deliveries.clear()
        for viewer in self._all_viewers():
            self.unwatch(viewer)

    def _list_changed(self) -> None:
        if self._list_viewers and not self._list_pending:
            self._list_pending = True
            asyncio.get_running_loop().call_later(self.limits.list_interval, self._send_list)

    def _send_list(self) -> None:
        self._list_pending = False
        if self._list_viewers:
            message = sse("list", self.list_json(asyncio.get_running_loop().time()))
            self._deliveries.extend((viewer, message) for viewer in self._list_viewers)
            self._kick()
