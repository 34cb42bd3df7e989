"""The adapter from the referee to the game feed: the one module of the web view
that knows impl/server (its GameServer, to describe it, and its Session, to listen).

``SessionTap.hook`` is a ``ServerConfig.session_hooks`` entry: it adds a listener
to each new session.  The session's events carry everything shown (the action,
the states before and after, the clocks, the result: impl/server/session.py), so
the listener reads nothing of the session: it tags each event that changes what
a viewer sees with the server's key (``feed.GameStarted``, ``feed.MoveMade``,
``feed.GameOver``), makes a draw offer or its refusal a ``ClocksChanged`` note,
and publishes it at once.  It keeps only references to the events' immutable
states: drawing happens in the web view, later, and only if someone watches.
"""

from __future__ import annotations

import logging
from dataclasses import fields
from typing import Any

from impl.log import event
from impl.server.server import GameServer
from impl.server.session import DrawOffer, Event, GameOver, GameStarted, Listener, MoveMade, Session

from . import feed
from .feed import ClocksChanged, FeedEvent, FeedSink, ServerInfo


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
        rules=server.engine.rule_set,
    )


def _tagged(kind: type[Any], what: Event, key: str) -> Any:
    """The session's event ``what`` as the feed's ``kind`` (its subclass), on ``key``."""
    return kind(**{f.name: getattr(what, f.name) for f in fields(what)}, server=key)


class GameTap:
    """The feed events of one session's game, from its events alone."""

    def __init__(self, key: str | None = None) -> None:
        self.key = key
        """The server key; None: the one the game's ``GameStarted`` names."""
        self.sides = ("", "")

    def feed(self, what: Event) -> FeedEvent | None:
        """The feed event for ``what``; None if a viewer sees no change (seating,
        an accepted draw offer: the ``GameOver`` that follows shows it)."""
        if isinstance(what, GameStarted):
            self.key = self.key or server_key(what.game, what.server_no)
            self.sides = what.sides
            started: feed.GameStarted = _tagged(feed.GameStarted, what, self.key)
            return started
        if self.key is None:  # the game has not started: nothing is shown yet
            return None
        if isinstance(what, MoveMade):
            made: feed.MoveMade = _tagged(feed.MoveMade, what, self.key)
            return made
        if isinstance(what, GameOver):
            over: feed.GameOver = _tagged(feed.GameOver, what, self.key)
            return over
        if isinstance(what, DrawOffer) and not what.accepted:
            note = "draw refused" if what.accepted is False else f"draw offered by {self.sides[what.side]}"
            return ClocksChanged(self.key, what.game_no, what.clocks, note)
        return None


class SessionTap:
    """Turns sessions' events into feed events for ``sink``."""

    def __init__(self, sink: FeedSink, key: str | None = None) -> None:
        self.sink = sink
        self.key = key
        """The server key of every session tapped; None: each session's own
        (``server_key``).  A tournament's games all run as server 0 of their own
        private servers, so each gets a tap of its own key (impl/web/tourney.py)."""

    def hook(self, session: Session) -> None:
        """For ``ServerConfig.session_hooks``: listen to ``session``'s events."""
        session.listeners.append(self.listener())

    def listener(self) -> Listener:
        """A session listener publishing its game's feed events to the sink."""
        game = GameTap(self.key)

        def listen(what: Event) -> None:
            try:
                found = game.feed(what)
                if found is not None:
                    self.sink.publish(found)
            except Exception as exc:  # the web view must never disturb a game
                event(logging.ERROR, "web_feed_failed", error=repr(exc))

        return listen
