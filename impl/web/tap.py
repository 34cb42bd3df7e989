"""The adapter from the referee to the game feed: the one module of the web view
that knows the attributes of impl/server's Session and GameServer.

``SessionTap`` is a ``Settings.listeners`` entry.  The session calls it after each
status change (Session._changed: the game started, a move was accepted, a draw was
offered or refused, the game ended); the tap compares the session with what it
last saw of that server and publishes the difference as feed events.  It only
keeps references to the session's immutable states: drawing happens in the web
view, later, and only if someone watches.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from impl.server.records import event
from impl.server.server import GameServer
from impl.server.session import ABORTED, Phase, Session

from .feed import ClockReading, ClocksChanged, FeedSink, GameOver, GameStarted, MoveMade, Position, ServerInfo


def server_key(game: str, server: int) -> str:
    return f"{game}-{server}"


def describe(server: GameServer) -> ServerInfo | None:
    """The server as the feed describes it; None while it does not listen (its
    port may be chosen by the system, and is gone once it stops)."""
    try:
        port = server.port
    except (AssertionError, AttributeError, IndexError):  # GameServer.port: not started, or closed
        return None
    settings, vocab = server.settings, server.settings.vocab
    return ServerInfo(
        key=server_key(vocab.game, settings.server),
        game=vocab.game,
        title=vocab.title,
        server=settings.server,
        host=server.spec.host,
        port=port,
        engine=server.engine.kind,
        time=settings.time,
        forever=server.spec.forever,
        sides=vocab.sides,
    )


def clocks_of(session: Session) -> ClockReading | None:
    clocks = session.clocks
    if clocks is None:
        return None
    now = session.loop.time()
    return ClockReading(left=(clocks.left(0, now), clocks.left(1, now)), running=clocks.running, taken=now)


class SessionTap:
    """Turns a session's status changes into feed events for ``sink``."""

    def __init__(self, sink: FeedSink) -> None:
        self.sink = sink
        self._seen: dict[str, tuple[int, int, Any]] = {}
        """Server key → (game number, plies seen, the state after the last of them)."""
        self._notes: dict[str, str] = {}
        """Server key → the last draw note reported since the last move."""
        self._over: dict[str, int] = {}
        """Server key → the number of its last game reported over (so that a call
        after the end, or twice for one change, reports nothing more)."""

    def __call__(self, session: Session) -> None:
        try:
            self._changed(session)
        except Exception as exc:  # the web view must never disturb a game
            event(logging.ERROR, "web_feed_failed", error=repr(exc))

    def _changed(self, s: Session) -> None:
        key = server_key(s.vocab.game, s.settings.server)
        if self._over.get(key) == s.game_no:
            return
        engine, clocks = s.engine, clocks_of(s)
        seen = self._seen.get(key)
        started = seen is None or seen[0] != s.game_no
        if started:
            initial = engine.initial()
            names = tuple(p.name if p is not None else "" for p in s.players)
            self.sink.publish(
                GameStarted(
                    key,
                    s.game_no,
                    s.vocab.game,
                    s.vocab.sides,
                    (names[0], names[1]),
                    Position(engine, initial),
                    clocks,
                    time.time(),
                )
            )
            seen = (s.game_no, 0, initial)
        assert seen is not None
        game_no, plies, before = seen
        over = s.phase is Phase.OVER
        if len(s.plies) > plies:  # one accepted move per status change
            ply = s.plies[-1]
            text = ply.split()[-1]
            side = (len(s.plies) - 1) % 2
            to_move = None if over else engine.players.index(engine.to_move(s.state))
            position = Position(engine, s.state, before, engine.parse_move(text))
            self.sink.publish(MoveMade(key, game_no, side, ply, text, position, clocks, to_move))
            self._notes.pop(key, None)
        elif not over and not started:
            offer, note = s.offer, "draw refused" if s.refused else ""
            if offer is not None:
                note = f"draw offered by {s.vocab.sides[offer]}"
            if note and self._notes.get(key) != note:  # no note repeats without a move between
                self._notes[key] = note
                self.sink.publish(ClocksChanged(key, game_no, clocks, note))
        self._seen[key] = (game_no, len(s.plies), s.state)
        if over and s.outcome is not None:
            winner, termination = s.outcome
            if termination in ABORTED:
                result = "aborted"
            else:
                result = "draw" if winner is None else f"{s.vocab.sides[winner]} wins"
            self.sink.publish(GameOver(key, game_no, winner, result, termination, clocks, time.time()))
            del self._seen[key]
            self._over[key] = game_no
