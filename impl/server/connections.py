"""A game's connections and their states, apart from everything else the game is
(h11's ``ConnectionState``: the states and the table that moves them, as an
object that knows nothing else).

Every request is classified by the connection's state (``Conn``) and its kind
(``Req``, ``classify``); ``TABLE`` maps the pair to a ``Step``: the handler that
answers it (a ``Handler``, carried out by the play, impl/server/play.py) or the
refusal sent, and the states the connection may be in after it.  The states the
handler took are checked against the step and set by ``Connections.settle``; the
moves no request of the connection's own makes (the game starts, the game ends,
the connection closes) are the ``TRIGGERS`` (impl/server/states.py), taken through
``Connections.trigger``.  These two are the only places that set a connection's
state; docs/protocol.md §3's state diagram is generated from the tables
(impl/server/diagram.py).  Pure: no clock, no log, no I/O — a ``TransitionError``
is raised for the session to end the game with (a bug, never the client's doing).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

from impl import protocol as P

from .states import TRIGGERS, Conn, Entity, LineError, Peer, Req, TransitionError, Trigger, state_names


class Handler(Enum):
    """What answers a request the table does not refuse outright: one of the
    play's handlers (impl/server/play.py, the method of the same name)."""

    REFUSE_LINE = "refuse_line"
    REFUSE_SEAT = "refuse_seat"
    REFUSE_GARBLED = "refuse_garbled"
    SEAT = "seat"
    MOVE = "move"
    RESIGN = "resign"
    OFFER_DRAW = "offer_draw"
    ANSWER_DRAW = "answer_draw"

    __hash__ = object.__hash__


@dataclass(frozen=True)
class Step:
    """One entry of ``TABLE``: the handler, or the refusal sent (the connection
    stays), and the states the connection may be in after it."""

    run: Handler | P.Refused
    next: frozenset[Conn]


def _stay(state: Conn, run: Handler | P.Refused) -> Step:
    return Step(run, frozenset({state}))


def _to(run: Handler, *states: Conn) -> Step:
    return Step(run, frozenset(states))


_NOT_STARTED = P.Refused(291, "The game has not started")
_OBSERVER = P.Refused(291, "Observers may not act")
_ACTIONS = (Req.MOVE, Req.RESIGN, Req.DRAW_OFFER, Req.DRAW_ANSWER)
_SEATED = P.Refused(299, "Request not understood (already seated)")
_NEW, _WAITING, _WATCHING, _PLAYING, _DONE = Conn
H = Handler

TABLE: dict[tuple[Conn, Req], Step] = {
    # Not seated: every line is a seat request (Tables 2 and 3).
    (_NEW, Req.BAD_LINE): _stay(_NEW, H.REFUSE_LINE),
    (_NEW, Req.BAD_SEAT): _stay(_NEW, H.REFUSE_SEAT),
    (_NEW, Req.SEAT): _to(H.SEAT, _NEW, _WAITING, _WATCHING),
    # Seated, waiting for the opponent: nothing to do yet.
    (_WAITING, Req.BAD_LINE): _stay(_WAITING, H.REFUSE_LINE),
    (_WAITING, Req.GARBLED): _stay(_WAITING, H.REFUSE_GARBLED),
    (_WAITING, Req.SEAT_AGAIN): _stay(_WAITING, _SEATED),
    **{(_WAITING, kind): _stay(_WAITING, _NOT_STARTED) for kind in _ACTIONS},
    # Observers watch.
    (_WATCHING, Req.BAD_LINE): _stay(_WATCHING, H.REFUSE_LINE),
    (_WATCHING, Req.GARBLED): _stay(_WATCHING, H.REFUSE_GARBLED),
    (_WATCHING, Req.SEAT_AGAIN): _stay(_WATCHING, _SEATED),
    **{(_WATCHING, kind): _stay(_WATCHING, _OBSERVER) for kind in _ACTIONS},
    # Players in the game (Tables 6–9); done when the request ended it.
    (_PLAYING, Req.BAD_LINE): _stay(_PLAYING, H.REFUSE_LINE),
    (_PLAYING, Req.GARBLED): _stay(_PLAYING, H.REFUSE_GARBLED),
    (_PLAYING, Req.SEAT_AGAIN): _stay(_PLAYING, _SEATED),
    (_PLAYING, Req.MOVE): _to(H.MOVE, _PLAYING, _DONE),
    (_PLAYING, Req.RESIGN): _to(H.RESIGN, _DONE),
    (_PLAYING, Req.DRAW_OFFER): _to(H.OFFER_DRAW, _PLAYING, _DONE),
    (_PLAYING, Req.DRAW_ANSWER): _to(H.ANSWER_DRAW, _PLAYING, _DONE),
}
"""(connection state, request kind) → the step: its handler or refusal, and the
states allowed after it.  A seated connection's lines are actions, so (seated,
SEAT) cannot occur (a seat request there is SEAT_AGAIN); a DONE connection's lines
are dropped before the table is consulted."""

_KINDS = {
    P.Kind.MOVE: Req.MOVE,
    P.Kind.RESIGN: Req.RESIGN,
    P.Kind.DRAW_OFFER: Req.DRAW_OFFER,
    P.Kind.DRAW_ACCEPT: Req.DRAW_ANSWER,
    P.Kind.DRAW_REFUSE: Req.DRAW_ANSWER,
}


def classify(vocab: P.Vocabulary, conn: Conn, line: str | LineError) -> tuple[Req, Any]:
    """A request line's kind in state ``conn``, with what its parse made of it:
    a seat request before seating, an action after (§2's grammar)."""
    if isinstance(line, LineError):
        return Req.BAD_LINE, line
    if conn is Conn.NEW:
        seat = P.parse_seat(vocab, line)
        return (Req.BAD_SEAT if isinstance(seat, P.SeatRefusal) else Req.SEAT), seat
    action = P.parse_action(vocab, line)
    if isinstance(action, P.Garbled):
        if isinstance(P.parse_seat(vocab, line), P.SeatRequest):
            return Req.SEAT_AGAIN, action
        return Req.GARBLED, action
    return _KINDS[action.kind], action


class Connections:
    """The connections of one game, in the order they opened, and their states."""

    def __init__(self) -> None:
        self.entities: list[Entity] = []
        """Those not closed yet (a closed one leaves the list)."""
        self.opened = 0
        """Connections opened so far: the next one's number is this plus one."""

    def open(self, peer: Peer, now: float) -> Entity:
        """A new connection, in state ``initial``."""
        self.opened += 1
        ent = Entity(peer, self.opened, now)
        self.entities.append(ent)
        return ent

    def settle(self, ent: Entity, was: Conn, kind: Req, step: Step, to: Conn) -> None:
        """``ent``'s request of ``kind`` in state ``was`` was answered by ``step``,
        whose handler says the connection is now in ``to``: checked against the
        step and set.  A trigger taken meanwhile (too many refusals closed the
        connection, the game ended) has the last word; ``done`` is reached only by
        a trigger, which also lets the connection go."""
        if to not in step.next:
            raise TransitionError(f"{was.value} --{kind.value}--> {to.value}: TABLE allows {state_names(step.next)}")
        if ent.conn is was and to is not was:
            if to is Conn.DONE:
                raise TransitionError(f"{was.value} --{kind.value}--> done: the game is not over")
            ent.conn = to

    def trigger(self, ent: Entity, trigger: Trigger) -> None:
        """Move ``ent`` by ``trigger``, as ``TRIGGERS`` allows."""
        sources, to = TRIGGERS[trigger]
        if ent.conn not in sources:
            raise TransitionError(
                f"{ent.conn.value} --{trigger.value}--> {to.value}: TRIGGERS allow {state_names(sources)}"
            )
        ent.conn = to

    def remove(self, ent: Entity) -> None:
        """``ent`` closed: it leaves the list."""
        self.entities.remove(ent)

    def in_state(self, conn: Conn) -> list[Entity]:
        """The connections in state ``conn``, in the order they opened."""
        return [e for e in self.entities if e.conn is conn]
