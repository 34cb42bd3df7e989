"""One game on one server, sans I/O: the papers' connection state machine over every
client connected to it (h11's shape: the connections' states apart, transitions as
data, output as values).

Theory of operation.  A session composes two objects: the game's play
(impl/server/play.py ``Play``: the position, the clocks, the handlers, the outputs)
and, held by it, its connections' states (impl/server/connections.py
``Connections``, with the ``TABLE`` that moves them).  It is driven by five inputs,
each carrying the time ``now`` (seconds of a monotonic clock chosen by the caller):
``join`` (a connection opened), ``receive`` (it sent a line), ``leave`` (it closed),
``tick`` (time passed) and ``shutdown`` (the server stops).  Each input is handled
by the play, which queues its outputs as values (impl/server/states.py): ``Send``
lines to a connection, ``Close`` a connection, ``Publish`` an event; the session
then carries them out, in order, on the peers they name (the ``Peer`` protocol:
impl/server/net.py's connections, or a test's) and on its ``listeners``.  The
session never reads a clock, sets a timer, draws a random number or touches a
file: after any input its caller asks ``deadline()`` — the timer to set — and
calls ``tick`` no later than that (the flag of the player to move, the seat and
idle bounds); randomness (the side of a ``?`` seat request) comes from the ``rng``
it is given.  impl/server/server.py is its asyncio adapter.

A received line goes: ``classify`` (its kind in the connection's state), the
table's ``Step``, the play's handler (or the step's refusal), the state it
returns settled by ``Connections.settle``.  Every decision the papers leave open
is documented in docs/protocol.md; the table cited for each message is that of
the papers' section 2.  The names of the session's vocabulary (states.py), table
(connections.py) and events (events.py) are importable from here too."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Unpack

from impl import protocol as P
from impl.engines.port import GameEngine, GameState
from impl.game import Outcome, Termination
from impl.pgn import PgnGame

from .clock import Clocks
from .connections import TABLE, Connections, Handler, Step, classify
from .core import Setup
from .events import (
    DrawOffer,
    Event,
    GameOver,
    GameStarted,
    Listener,
    MoveMade,
    ObserverSeated,
    PlayerSeated,
    Written,
)
from .play import Play
from .states import (
    TRIGGERS,
    Chooser,
    Close,
    Conn,
    Entity,
    LineError,
    Output,
    Peer,
    Req,
    Send,
    Settings,
    TransitionError,
    Trigger,
)

__all__ = [
    "TABLE",
    "TRIGGERS",
    "Chooser",
    "Conn",
    "Connections",
    "DrawOffer",
    "Entity",
    "Event",
    "GameOver",
    "GameStarted",
    "Handler",
    "LineError",
    "Listener",
    "MoveMade",
    "ObserverSeated",
    "Peer",
    "PlayerSeated",
    "Req",
    "Session",
    "Settings",
    "Setup",
    "Step",
    "TransitionError",
    "Trigger",
    "Written",
]


class Session:
    """A game from the first connection to the last message: the play and its
    connections composed, each input's outputs carried out on the peers they name
    and on ``listeners``."""

    def __init__(self, settings: Settings, engine: GameEngine, **setup: Unpack[Setup]) -> None:
        """The play's settings (impl/server/core.py ``Setup``), with no listener yet."""
        self.game = Play(settings, engine, **setup)
        self.conns: Connections = self.game.conns
        self.listeners: list[Listener] = []
        self.handlers: dict[Handler, Callable[[Entity, Any], Conn]] = self.game.handlers()
        """The table's handlers, as this game's methods."""
        self.held: list[tuple[Entity, str | LineError | None, float]] | None = None
        """While ``hold`` is in force: the lines (None: a departure) that came, each with
        its arrival, to be handled on ``release``."""
        self.resumed: Callable[[], None] = lambda: None
        """Called after ``release``: the caller's timer is set again (``deadline``)."""

    # ─── inputs ────────────────────────────────────────────────────────────────

    def join(self, peer: Peer, now: float) -> Entity:
        """A new connection: greeted."""
        game = self.game
        game.now = now
        ent = self.conns.open(peer, now)
        game.greet(ent)
        self._carry(game.take())
        return ent

    def receive(self, ent: Entity, line: str | LineError, now: float, arrived: float | None = None) -> None:
        """A request line from ``ent`` (empty lines never reach here).  ``arrived``:
        when the line reached the server's host, if known and ``ent``'s clock runs
        (``clock_runs_for``); its clock is charged up to then, not to ``now``
        (impl/server/clock.py: a reply the busy referee had not read yet is not the
        player's time).  Kept for later while held (``hold``), else ``handle``d."""
        if self.held is not None and ent.conn is not Conn.DONE and self.game.outcome is None:
            self.held.append((ent, line, now if arrived is None else min(arrived, now)))
        else:
            self.handle(ent, line, now, arrived)

    def handle(self, ent: Entity, line: str | LineError, now: float, arrived: float | None = None) -> None:
        """``receive``'s line handled now (what a transcript notes: impl/server/transcript.py).
        A bug in the play, or a listener failing on its events, ends the game as the
        referee's failure (399), never the server."""
        game = self.game
        if ent.conn is Conn.DONE or game.outcome is not None:
            return
        game.now = now
        game.arrived = min(arrived, now) if arrived is not None and game.clock_runs_for(ent) else None
        try:
            self._dispatch(ent, line)
        except Exception as exc:
            game.fail(f"internal error on {line!r}: {exc!r}")
        finally:
            game.arrived = None
        try:
            self._carry(game.take())
        except Exception as exc:
            game.fail(f"internal error on {line!r}: {exc!r}")
            self._carry(game.take())

    def leave(self, ent: Entity, now: float) -> None:
        """The connection closed: kept for later while held (``hold``), else ``depart``."""
        if self.held is not None:
            self.held.append((ent, None, now))
        else:
            self.depart(ent, now)

    def depart(self, ent: Entity, now: float) -> None:
        """``leave`` handled now.  A player leaving mid-game loses (391/392)."""
        if ent.conn is not Conn.DONE:
            self.game.now = now
            self.game.leave(ent)
        self._carry(self.game.take())

    def tick(self, now: float) -> None:
        """Time has passed (``Play.expire``); nothing while held (``hold``)."""
        if self.held is not None:
            return
        self.game.expire(now)
        self._carry(self.game.take())

    def shutdown(self, now: float, termination: Termination = Termination.SHUTDOWN) -> None:
        """The server is stopping (``Play.stop``)."""
        self.game.stop(now, termination)
        self._carry(self.game.take())

    def deadline(self) -> float | None:
        """The timer to set: the latest time at which ``tick`` must next be
        called; None: only when another input arrives (or, while held, ``release``)."""
        return None if self.held is not None else self.game.deadline()

    def hold(self) -> None:
        """Hold every line and departure until ``release``, each kept with its arrival:
        what judges the position just made (a table's probe, impl/apps/tbadjudge.py)
        answers before any later move is handled, and no clock is charged for the wait
        — a line is the player's time up to its arrival, the flag of the player to
        move is looked at again after the release.  The position's move itself was
        relayed: the opponent thinks while it is judged."""
        if self.held is None:
            self.held = []

    def release(self, now: float) -> None:
        """Handle what was held, in the order it came, at ``now`` (the game may have
        ended meanwhile: then nothing is), and let the caller set its timer."""
        held, self.held = self.held or [], None
        for ent, line, arrived in held:
            if self.held is not None:  # a listener held the game again: the rest waits with it
                self.held.append((ent, line, arrived))
            elif line is None:
                self.depart(ent, now)
            else:
                self.handle(ent, line, now, arrived)
        self.resumed()

    def clock_runs_for(self, ent: Entity) -> bool:
        """Whether ``ent``'s clock is the one running (``Play.clock_runs_for``)."""
        return self.game.clock_runs_for(ent)

    # ─── a line: the table's step, its handler, the state settled ──────────────

    def _dispatch(self, ent: Entity, line: str | LineError) -> None:
        game = self.game
        was = ent.conn
        kind, request = classify(game.vocab, was, line)
        step = TABLE[(was, kind)]
        run = step.run
        if isinstance(run, P.Refused):
            game.reject(ent, run.code, run.text)
            to = was
        else:
            to = self.handlers[run](ent, request)
        self.conns.settle(ent, was, kind, step, to)
        if to is Conn.WAITING:
            game.start_if_seated()

    def _carry(self, outputs: Iterable[Output]) -> None:
        for out in outputs:
            if isinstance(out, Send):
                out.to.peer.send(out.lines)
            elif isinstance(out, Close):
                out.to.peer.close()
            else:
                for listener in tuple(self.listeners):  # a listener may remove itself
                    listener(out.event)

    # ─── what listeners and callers read of the game ───────────────────────────

    @property
    def settings(self) -> Settings:
        return self.game.settings

    @property
    def vocab(self) -> P.Vocabulary:
        return self.game.vocab

    @property
    def engine(self) -> GameEngine:
        return self.game.engine

    @property
    def game_no(self) -> int:
        return self.game.game_no

    @property
    def opening(self) -> tuple[str, ...]:
        """The moves the referee plays at the start."""
        return self.game.opening

    @property
    def now(self) -> float:
        """The time of the last input handled."""
        return self.game.now

    @property
    def entities(self) -> list[Entity]:
        """The connections not closed yet."""
        return self.conns.entities

    @property
    def players(self) -> list[Entity | None]:
        """The seated players, first mover first (None: a free seat)."""
        return self.game.players

    @property
    def started(self) -> float | None:
        """When both players were seated."""
        return self.game.started

    @property
    def state(self) -> GameState:
        """The position now."""
        return self.game.state

    @property
    def made(self) -> list[MoveMade]:
        """The moves made, as published."""
        return self.game.made

    @property
    def clocks(self) -> Clocks | None:
        return self.game.clocks

    @property
    def outcome(self) -> Outcome | None:
        return self.game.outcome

    @property
    def over(self) -> bool:
        return self.game.outcome is not None

    @property
    def record(self) -> PgnGame | None:
        """The finished game's record (None before the end)."""
        return self.game.record
