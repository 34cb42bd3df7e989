"""The web view's side of the feed: the games of the process, live and recently
finished, and the viewers following them.

Viewers are read-only and bounded, and never delay a game:

* publishing an event records it and appends an entry to its server's channel,
  in constant time whatever the number of viewers; the entry is encoded (board
  data, JSON) once, later, for all the viewers of that channel;
* every ``interval`` seconds, each viewer gets whatever came since its last
  write, in one write; at most ``batch`` viewers are written to per turn of the
  event loop, so a game's next request waits for a few writes, not for every
  viewer;
* a viewer's queue is the channel's entries it has not been sent, then its
  connection's unsent output: past ``write_limit`` bytes there, it is dropped (its
  connection aborted) and the game goes on;
* the list of servers goes to its viewers at most every ``list_interval`` seconds.
"""

from __future__ import annotations

import asyncio
import json
from collections import OrderedDict, deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from impl.config import HubLimits
from impl.log import utc

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


class Ended(NamedTuple):
    """A finished game the hub no longer keeps: what names its record file
    (impl/server/server.py ``write_record``: game, server, end time, game number)."""

    game: str
    server: int
    game_no: int
    ended: float


Write = Callable[[bytes], bool]
"""Hands bytes to a viewer's connection at once (never waiting); False once the
connection holds more unsent output than its limit, or has closed."""


class Entry:
    """A message of a channel, encoded on first use (``make``).  ``followers_only``:
    a new game's snapshot, for the viewers following the server; ``last``: the end
    of a game, after which the game's own viewers are done."""

    __slots__ = ("_data", "followers_only", "last", "make")

    def __init__(self, make: Callable[[], bytes], followers_only: bool = False, last: bool = False) -> None:
        self.make, self.followers_only, self.last = make, followers_only, last
        self._data: bytes | None = None

    @property
    def data(self) -> bytes:
        if self._data is None:
            self._data = self.make()
        return self._data


class Viewer:
    """One connected viewer, at ``cursor`` in its channel."""

    def __init__(self, write: Write, channel: Channel, game_no: int | None, cursor: int) -> None:
        self.write, self.channel, self.game_no, self.cursor = write, channel, game_no, cursor
        self.done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        """Set when the stream ends: its game is over, the hub is closing, or the
        viewer was dropped."""
        self.dropped = False
        self.stale = False
        """Its channel lost events (Hub.resync): it gets a snapshot next."""

    def end(self) -> None:
        if not self.done.done():
            self.done.set_result(None)


class Channel:
    """The entries of one server's games (or of the list) not yet sent to all
    its viewers; ``base`` is the absolute index of ``entries[0]``."""

    def __init__(self, key: str | None) -> None:
        self.key = key
        self.entries: list[Entry] = []
        self.base = 0
        self.viewers: dict[Viewer, None] = {}

    @property
    def end(self) -> int:
        return self.base + len(self.entries)

    def pending(self, viewer: Viewer, most: int) -> tuple[bytes | None, bool]:
        """What ``viewer`` has not been sent, and whether its stream ends with it;
        its cursor moves past it.  None if that is more than ``most`` messages.
        The list's viewers get only the latest list."""
        entries = self.entries[viewer.cursor - self.base :]
        viewer.cursor = self.end
        if self.key is None:
            return (entries[-1].data if entries else b""), False
        if viewer.game_no is not None:
            ends = next((i for i, e in enumerate(entries) if e.last), len(entries) - 1)
            entries = [e for e in entries[: ends + 1] if not e.followers_only]
        if len(entries) > most:
            return None, False
        last = viewer.game_no is not None and bool(entries) and entries[-1].last
        return b"".join(e.data for e in entries), last

    def trim(self) -> None:
        """Forget the entries every viewer has been sent."""
        low = min((v.cursor for v in self.viewers), default=self.end)
        del self.entries[: low - self.base]
        self.base = low


def chunk(data: bytes) -> bytes:
    """``data`` as one chunk of HTTP/1.1's chunked transfer coding, the framing of
    the streams' bodies: a message is framed once and written as is to each viewer."""
    return b"%x\r\n%s\r\n" % (len(data), data)


def sse(name: str, data: Any) -> bytes:
    """One server-sent event, framed (``chunk``)."""
    return chunk(f"event: {name}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n".encode())


PING = chunk(b": ping\n\n")


# ─── games ─────────────────────────────────────────────────────────────────────


@dataclass
class Game:
    """A game as the hub keeps it."""

    id: str
    begun: GameStarted
    """How it began: its server, number, game, sides, names, first position and
    clocks, and when."""
    position: Position
    """The latest."""
    clocks: ClockReading | None
    to_move: int | None = 0
    moves: list[MoveMade] = field(default_factory=list)
    note: str = ""
    over: GameOver | None = None
    info: ServerInfo | None = None
    """Its server, as it was when the game started (a one-game server is gone once
    the game ends, and its rule set and engine with it)."""


def _identity_json(game: Game, labels: tuple[str, str] | None = None) -> dict[str, Any]:
    """What names a game in a snapshot and in the list: the same for its whole
    life (``labels``: the players as a tournament's standings name them, once known)."""
    begun = game.begun
    return {
        "id": game.id,
        "server": begun.server,
        "game": begun.game,
        "game_no": begun.game_no,
        "sides": list(begun.sides),
        "names": list(begun.names),
        "labels": list(labels) if labels else None,
        "started": utc(begun.started),
    }


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


def score_json(view: BoardView) -> dict[str, int]:
    """The score by side: Awari's stores, Gothello's stones on the board (the
    counts AwariBoard's ``score`` and the Gothello board give, BoardView.counts)."""
    return dict(view.counts)


def over_json(over: GameOver | None, sides: tuple[str, str]) -> dict[str, Any] | None:
    """The result: the record's words (``result``, ``termination``), the winner's
    index and the plain words of impl.game.Outcome.describe (``words``: ``south
    wins on the board``)."""
    if over is None:
        return None
    return {
        "result": over.result,
        "termination": over.termination,
        "winner": over.winner,
        "words": over.outcome.describe(sides),
        "ended": utc(over.ended),
    }


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
        labels: Callable[[str], tuple[str, str] | None] = lambda key: None,
    ) -> None:
        self._servers = servers
        self._labels = labels
        """Server key → the players' labels (a tournament's standings), if it has them."""
        self.limits = limits or HubLimits()
        self.records = records
        """Whether a record directory is served (the list page links to it)."""
        self.games: dict[str, Game] = {}
        self.live: dict[str, str] = {}
        """Server key → id of its game in progress."""
        self.finished: deque[str] = deque()
        """Ids of the finished games kept, newest first."""
        self.forgotten: OrderedDict[str, Ended] = OrderedDict()
        """Finished games no longer kept, by id, oldest first (at most
        ``HubLimits.keep_forgotten``): how each ended, which names its record file
        (the web view redirects their pages to their records)."""
        self._channels: dict[str, Channel] = {}
        self._list = Channel(None)
        self._list_due = False
        self._tick: asyncio.TimerHandle | None = None
        self._round: deque[Viewer] = deque()
        """Viewers still to be written to in this round."""
        self._snapshots: dict[str, bytes] = {}
        """Game id → its snapshot, made in this round (Hub._catch_up)."""
        self.dropped = 0
        """Viewers dropped for falling behind, since the start."""

    # ─── the feed ──────────────────────────────────────────────────────────────

    def servers(self) -> list[ServerInfo]:
        return sorted(self._servers(), key=lambda s: (s.game, s.server))

    def publish(self, event: FeedEvent) -> None:
        """Record the event, and queue it for the viewers of its server."""
        key = event.server
        gid = game_id(key, event.game_no)
        plies = 0
        if isinstance(event, GameStarted):
            game = Game(gid, event, event.position, event.clocks, info=self._info(key))
            self.games[gid] = game
            self.live[key] = gid
        else:
            game_or_none = self.games.get(gid)
            if game_or_none is None:
                return
            game = game_or_none
            plies = self._apply(game, event)
        channel = self._channels.get(key)
        if channel is not None and channel.viewers:
            channel.entries.append(self._entry(game, event, plies))
            self._schedule()
        if self._list.viewers:
            self._list_due = True
            self._schedule()

    def _apply(self, game: Game, event: MoveMade | ClocksChanged | GameOver) -> int:
        """The game after ``event``; the moves made so far."""
        game.clocks = event.clocks
        if isinstance(event, MoveMade):
            game.moves.append(event)
            game.position, game.to_move, game.note = event.position, event.to_move, ""
        elif isinstance(event, ClocksChanged):
            game.note = event.note
        else:
            game.over, game.to_move = event, None
            self._finish(game)
        return len(game.moves)

    def resync(self, games: Sequence[Sequence[FeedEvent]]) -> None:
        """The games as the referee has them, each from its start, the last
        finished first (oldest first), then those in progress, after the feed lost
        events (the web process fell behind: impl/web/link.py).  A game the hub
        thought in progress that the referee no longer has is forgotten; every
        viewer of a server gets a snapshot next (a viewer of a forgotten game, its
        stream's end)."""
        live: dict[str, str] = {}
        for events in games:
            begun = events[0]
            if not isinstance(begun, GameStarted):
                continue
            gid = game_id(begun.server, begun.game_no)
            known = self.games.get(gid)
            if known is not None and known.over is not None:
                continue  # its end was not lost
            game = self.games[gid] = Game(gid, begun, begun.position, begun.clocks, info=self._info(begun.server))
            if not isinstance(events[-1], GameOver):
                live[begun.server] = gid
            elif known is not None:
                self.live[begun.server] = gid  # ended meanwhile: _finish moves it to the finished
            for later in events[1:]:
                if not isinstance(later, GameStarted):
                    self._apply(game, later)
        for key, gid in list(self.live.items()):
            if live.get(key) != gid:
                del self.live[key]
                self.games.pop(gid, None)
        self.live.update(live)
        for channel in self._channels.values():
            for viewer in channel.viewers:
                viewer.stale = True
        if any(c.viewers for c in self._channels.values()):
            self._schedule()
        if self._list.viewers:
            self._list_due = True
            self._schedule()

    def _finish(self, game: Game) -> None:
        if self.live.get(game.begun.server) == game.id:
            del self.live[game.begun.server]
        self.finished.appendleft(game.id)
        while len(self.finished) > self.limits.keep_finished:
            gone = self.games.pop(self.finished.pop(), None)
            if gone is not None and gone.over is not None:
                over, server = gone.over, int(gone.over.record.tag("Server"))
                self.forgotten[gone.id] = Ended(over.record.game, server, over.game_no, over.ended)
                self.forgotten.move_to_end(gone.id)
                while len(self.forgotten) > self.limits.keep_forgotten:
                    self.forgotten.popitem(last=False)

    def _entry(self, game: Game, event: FeedEvent, plies: int) -> Entry:
        """The event as its game's viewers get it; ``plies`` counts the moves up to
        it.  Encoded when first sent (everything it reads is immutable), with the
        clocks as they are then."""

        def now() -> float:
            return asyncio.get_running_loop().time()

        def clocks_now(event: MoveMade | ClocksChanged | GameOver) -> dict[str, Any]:
            return {"clocks": clocks_json(event.clocks, now())}

        if isinstance(event, GameStarted):
            return Entry(lambda: sse("snapshot", self.game_json(game, now(), start=True)), followers_only=True)
        if isinstance(event, MoveMade):
            position, number = event.position, full_moves(plies, event.to_move)
            body = {"id": game.id, **move_json(event), "index": plies, "to_move": event.to_move, "number": number}
            return Entry(lambda: sse("move", {**body, "board": board_json(position.board), **clocks_now(event)}))
        if isinstance(event, ClocksChanged):
            return Entry(lambda: sse("clock", {"id": game.id, "note": event.note, **clocks_now(event)}))
        assert isinstance(event, GameOver)
        final, result = game.position, over_json(event, game.begun.sides)
        body = {"id": game.id, "result": result}

        def over() -> bytes:
            board = final.board
            return sse("over", {**body, "board": board_json(board), "score": score_json(board), **clocks_now(event)})

        return Entry(over, last=True)

    # ─── snapshots (the JSON endpoints and the first message of a stream) ──────

    def game_json(self, game: Game, now: float, start: bool = False) -> dict[str, Any]:
        """The game now, or as it ``start``-ed."""
        info = game.info or self._info(game.begun.server)
        moves, position, clocks, to_move = game.moves, game.position, game.clocks, game.to_move
        over, note = game.over, game.note
        if start:
            moves, position, clocks, to_move, over, note = [], game.begun.position, game.begun.clocks, 0, None, ""
        return {
            **_identity_json(game, self._labels(game.begun.server)),
            "server_no": info.server if info else None,
            "port": info.port if info else None,
            "rules": info.rules if info else None,
            "engine": info.engine if info else None,
            "time": list(info.time) if info and info.time else None,
            "moves": [move_json(m) for m in moves],
            "number": full_moves(len(moves), to_move),
            "to_move": to_move,
            "board": board_json(position.board),
            "clocks": clocks_json(clocks, now),
            "note": note,
            "result": over_json(over, game.begun.sides),
            "score": score_json(position.board) if over is not None else None,
            "live": over is None,
        }

    def _info(self, key: str) -> ServerInfo | None:
        return next((s for s in self._servers() if s.key == key), None)

    def game_summary(self, game: Game, now: float, server: ServerInfo | None) -> dict[str, Any]:
        """A line of the list; ``server``: the game's server now, if it is still there."""
        info = game.info or server
        return {
            **_identity_json(game, self._labels(game.begun.server)),
            "rules": info.rules if info else None,
            "engine": info.engine if info else None,
            "plies": len(game.moves),
            "number": full_moves(len(game.moves), game.to_move),
            "to_move": game.to_move,
            "clocks": clocks_json(game.clocks, now) if game.over is None else None,
            "result": over_json(game.over, game.begun.sides),
            "score": score_json(game.position.board) if game.over is not None else None,
        }

    def list_json(self, now: float) -> dict[str, Any]:
        servers: list[dict[str, Any]] = []
        infos = {s.key: s for s in self.servers()}
        for info in infos.values():
            gid = self.live.get(info.key)
            current = self.game_summary(self.games[gid], now, info) if gid in self.games else None
            servers.append(
                {
                    "key": info.key,
                    "game": info.game,
                    "title": info.title,
                    "server": info.server,
                    "host": info.host,
                    "port": info.port,
                    "rules": info.rules,
                    "engine": info.engine,
                    "time": list(info.time) if info.time else None,
                    "forever": info.forever,
                    "sides": list(info.sides),
                    "current": current,
                }
            )
        finished = [
            self.game_summary(game, now, infos.get(game.begun.server))
            for game in (self.games[gid] for gid in self.finished if gid in self.games)
        ]
        return {"servers": servers, "finished": finished, "records": self.records}

    # ─── viewers ───────────────────────────────────────────────────────────────

    def _all_viewers(self) -> list[Viewer]:
        return [*self._list.viewers, *(v for c in self._channels.values() for v in c.viewers)]

    def can_watch(self) -> bool:
        return len(self._all_viewers()) < self.limits.max_viewers

    def watch(self, write: Write, server: str | None, game_no: int | None = None) -> Viewer | None:
        """A new viewer of the list (``server`` None), of one game, or of every game
        of a server (``game_no`` None), sent at once the current snapshot (a server's
        last finished game when none is playing).  None
        when the hub is full or there is no such game."""
        if not self.can_watch():
            return None
        now = asyncio.get_running_loop().time()
        if server is None:
            viewer = Viewer(write, self._list, None, self._list.end)
            self._list.viewers[viewer] = None
            write(sse("list", self.list_json(now)))
            return viewer
        gid = game_id(server, game_no) if game_no is not None else self.live.get(server) or self._last_of(server)
        game = self.games.get(gid) if gid is not None else None
        if game_no is not None and game is None:
            return None
        channel = self._channels.setdefault(server, Channel(server))
        viewer = Viewer(write, channel, game_no, channel.end)
        if game is not None:
            write(sse("snapshot", self.game_json(game, now)))
            if game_no is not None and game.over is not None:
                viewer.end()  # nothing more will come: the snapshot is all
                return viewer
        channel.viewers[viewer] = None
        return viewer

    def _last_of(self, server: str) -> str | None:
        """The newest finished game of ``server`` kept: what a server's viewer (the TV
        page) is shown between games, rather than nothing (issue #53)."""
        kept = (gid for gid in self.finished if gid in self.games)
        return next((gid for gid in kept if self.games[gid].begun.server == server), None)

    def drop(self, viewer: Viewer) -> None:
        """A viewer that does not keep up: its stream ends at once (and the
        connection's handler aborts it)."""
        if not viewer.dropped:
            viewer.dropped = True
            self.dropped += 1
        self.unwatch(viewer)

    def unwatch(self, viewer: Viewer) -> None:
        viewer.end()
        viewer.channel.viewers.pop(viewer, None)

    def ping(self) -> None:
        """A comment line to every viewer, so that dead connections are noticed."""
        for viewer in self._all_viewers():
            if not viewer.write(PING):
                self.drop(viewer)

    def close(self) -> None:
        """Every viewer ends (the process is stopping)."""
        for viewer in self._all_viewers():
            self.unwatch(viewer)
        self._round.clear()

    # ─── delivery ──────────────────────────────────────────────────────────────

    def _schedule(self) -> None:
        if self._tick is None and not self._round:
            loop = asyncio.get_running_loop()
            self._tick = loop.call_later(self.limits.interval, self._start_round)

    def _catch_up(self, viewer: Viewer) -> tuple[bytes, bool]:
        """A snapshot of the viewer's game (following a server: of its game in
        progress), made once a round; whether the stream ends with it."""
        key = viewer.channel.key
        assert key is not None
        gid = game_id(key, viewer.game_no) if viewer.game_no is not None else self.live.get(key) or self._latest(key)
        game = self.games.get(gid) if gid is not None else None
        if game is None:  # following a server that has had no game kept; or the game is forgotten
            return b"", viewer.game_no is not None
        data = self._snapshots.get(game.id)
        if data is None:
            data = self._snapshots[game.id] = sse("snapshot", self.game_json(game, asyncio.get_running_loop().time()))
        return data, viewer.game_no is not None and game.over is not None

    def _latest(self, key: str) -> str | None:
        """The id of the server's last finished game kept: a follower that fell
        behind as the game ended gets its end (its snapshot, with the result)."""
        return next((gid for gid in self.finished if self.games[gid].begun.server == key), None)

    def _start_round(self) -> None:
        """Every viewer behind its channel gets what it has not been sent."""
        self._tick = None
        self._snapshots.clear()
        if self._list_due and self._list.viewers:
            self._list_due = False
            self._list.entries.append(Entry(lambda: sse("list", self.list_json(asyncio.get_running_loop().time()))))
        for channel in [self._list, *self._channels.values()]:
            self._round.extend(v for v in channel.viewers if v.cursor < channel.end or v.stale)
        self._write_batch()

    def _write_batch(self) -> None:
        """Write to the next ``batch`` viewers of the round; the rest on the next
        turn of the loop."""
        for _ in range(min(self.limits.batch, len(self._round))):
            viewer = self._round.popleft()
            if viewer.done.done():
                continue
            if viewer.stale:
                viewer.stale, viewer.cursor, data = False, viewer.channel.end, None
            else:
                data, last = viewer.channel.pending(viewer, self.limits.catch_up)
            if data is None:
                data, last = self._catch_up(viewer)
            if data and not viewer.write(data):
                self.drop(viewer)
            elif last:
                self.unwatch(viewer)
        if self._round:
            asyncio.get_running_loop().call_soon(self._write_batch)
            return
        for channel in [self._list, *self._channels.values()]:
            channel.trim()
            if any(v.cursor < channel.end for v in channel.viewers):
                self._schedule()
        if self._list_due:
            self._schedule()
