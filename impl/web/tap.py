"""The adapter from the referee to the game feed: the one module of the web view
that knows the attributes of impl/server's Session and GameServer.

``SessionTap.hook`` is a ``ServerConfig.session_hooks`` entry: it adds a listener
to each new session.  On each of the session's events that changes what a viewer
sees (the game started, a move was accepted, a draw was offered or answered, the
game ended) the listener notes the position of an accepted move and asks the
event loop to run the tap soon after: the session publishes ``GameStarted`` and
``PlyPlayed`` before it starts the next clock, so the tap reads the session once
it has finished handling the input.  The tap compares the session with what it
last saw of that server and publishes the difference as feed events; a call with
nothing new (several events of one input) publishes nothing.  It keeps only
references to the session's immutable states: drawing happens in the web view,
later, and only if someone watches.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from impl.engines.port import GameState
from impl.log import event
from impl.server.server import GameServer
from impl.server.session import DrawOffer, Event, GameOver, GameStarted, PlyPlayed, Session

from . import feed
from .feed import ClockReading, ClocksChanged, FeedSink, MoveMade, Position, ServerInfo

SHOWN = (GameStarted, PlyPlayed, DrawOffer, GameOver)
"""The session events that change what a viewer sees (seating does not)."""


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
    """Both clocks as read at the session's time (that of the input it last
    handled, on the event loop's clock)."""
    clocks = session.clocks
    if clocks is None:
        return None
    now = session.now
    return ClockReading(left=(clocks.left(0, now), clocks.left(1, now)), running=clocks.running, taken=now)


class SessionTap:
    """Turns a session's status changes into feed events for ``sink``."""

    def __init__(self, sink: FeedSink, key: str | None = None) -> None:
        self.sink = sink
        self.key = key
        """The server key of every session tapped; None: each session's own
        (``server_key``).  A tournament's games all run as server 0 of their own
        private servers, so each gets a tap of its own key (impl/web/tourney.py)."""
        self._seen: dict[str, tuple[int, int, Any]] = {}
        """Server key → (game number, plies seen, the state after the last of them)."""
        self._positions: dict[int, list[GameState]] = {}
        """id(session) → the positions after its plies not yet reported."""
        self._notes: dict[str, str] = {}
        """Server key → the last draw note reported since the last move."""
        self._over: dict[str, int] = {}
        """Server key → the number of its last game reported over (so that a call
        after the end, or twice for one change, reports nothing more)."""

    def hook(self, session: Session) -> None:
        """For ``ServerConfig.session_hooks``: listen to ``session`` (in the running loop)."""
        loop = asyncio.get_running_loop()

        def listener(what: Event) -> None:
            if isinstance(what, PlyPlayed):
                self._positions.setdefault(id(session), []).append(what.state)
            if isinstance(what, SHOWN):
                loop.call_soon(self, session)

        session.listeners.append(listener)

    def __call__(self, session: Session) -> None:
        try:
            self._changed(session)
        except Exception as exc:  # the web view must never disturb a game
            event(logging.ERROR, "web_feed_failed", error=repr(exc))

    def _changed(self, s: Session) -> None:
        key = self.key or server_key(s.vocab.game, s.settings.server)
        positions = self._positions.pop(id(s), [])
        if s.started is None or self._over.get(key) == s.game_no:
            return
        engine, clocks = s.engine, clocks_of(s)
        seen = self._seen.get(key)
        started = seen is None or seen[0] != s.game_no
        if started:
            initial = engine.initial()
            first, second = (p.name if p is not None else "" for p in s.players)
            start = feed.GameStarted(
                key,
                s.game_no,
                s.vocab.game,
                s.vocab.sides,
                (first, second),
                Position(engine, initial),
                clocks,
                time.time(),
            )
            self.sink.publish(start)
            seen = (s.game_no, 0, initial)
        assert seen is not None
        game_no, plies, before = seen
        # The accepted moves since the last call (one, unless a client sent its move
        # before it saw the opponent's, and both were read in one turn of the loop).
        new = s.plies[plies:]
        for number, (ply, after) in enumerate(zip(new, positions, strict=True), plies):
            text = ply.split()[-1]
            last = number == len(s.plies) - 1
            to_move = None if s.over and last else engine.players.index(engine.to_move(after))
            position = Position(engine, after, before, engine.parse_move(text))
            self.sink.publish(MoveMade(key, game_no, number % 2, ply, text, position, clocks, to_move))
            self._notes.pop(key, None)
            before = after
        if not new and not s.over and not started:
            offer, note = s.offer, "draw refused" if s.refused else ""
            if offer is not None:
                note = f"draw offered by {s.vocab.sides[offer]}"
            if note and self._notes.get(key) != note:  # no note repeats without a move between
                self._notes[key] = note
                self.sink.publish(ClocksChanged(key, game_no, clocks, note))
        self._seen[key] = (game_no, len(s.plies), before)
        if s.outcome is not None:
            outcome = s.outcome
            result = outcome.result(s.vocab.sides)
            winner = None if outcome.winner is None else int(outcome.winner)
            self.sink.publish(feed.GameOver(key, game_no, winner, result, outcome.termination, clocks, time.time()))
            del self._seen[key]
            self._notes.pop(key, None)
            self._over[key] = game_no
