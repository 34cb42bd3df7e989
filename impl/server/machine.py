"""One game on one server, sans I/O: the papers' connection state machine over
every client connected to it (issue #42: h11's shape — a state machine apart from
its I/O, transitions as data, output as values).

Theory of operation.  The machine is driven by five inputs, each carrying the time
``now`` (seconds of a monotonic clock chosen by the caller): ``opened`` (a
connection opened), ``line`` (it sent a line), ``closed`` (it closed), ``elapsed``
(time passed) and ``stopped`` (the server stops).  Each returns the outputs it made,
as values (impl/server/states.py): ``Send`` lines to a connection, ``Close`` a
connection, ``Publish`` an event (the finished game's record, a ``PgnGame``, is the
``GameOver``'s); it never reads a clock, sets a timer, draws a random number or
touches a file.  After any input the caller asks ``deadline()`` — the timer to set —
and calls ``elapsed`` no later than that (the flag of the player to move, the seat
and idle bounds).  Randomness (the side of a ``?`` seat request) comes from the
``rng`` it is given.  impl/server/session.py's ``Session`` is the glue that carries
the outputs out on peers and listeners; impl/server/server.py its asyncio adapter.

Every request is classified by the connection's state (``Conn``) and its kind
(``Req``); ``TABLE`` maps the pair to a ``Step``: the handler (impl/server/play.py)
or the refusal sent, and the states the connection may be in after it.  A handler
returns the state it took, ``_dispatch`` checks it against the table and sets it;
the moves no request of the connection's own makes (the game starts, the game ends,
the connection closes) are the ``TRIGGERS`` (impl/server/states.py), taken through
``_trigger``.  These two are the only places that set a connection's state (h11's
``_state.py`` has the same shape); docs/protocol.md §3's state diagram is generated
from them (impl/server/diagram.py).  The game itself is ``started`` (both players
seated) and ``outcome`` (over).  Every decision the papers leave open is documented
in docs/protocol.md; the table cited for each message is that of the papers'
section 2.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from impl import protocol as P
from impl.game import Termination

from .core import DEBUG, INFO, WARNING
from .play import Play
from .states import Conn, Entity, LineError, Output, Peer, Req, TransitionError, state_names


class Machine(Play):
    """A game from the first connection to the last message: inputs in, outputs out."""

    def opened(self, peer: Peer, now: float) -> tuple[Entity, list[Output]]:
        """A new connection (``peer``: the glue's handle): greet it (Table 1)."""
        self.now = now
        self._connections += 1
        ent = Entity(peer, self._connections, now)
        self.entities.append(ent)
        self._log(DEBUG, "connect", conn=ent.number, peer=peer.address)
        self._send(ent, P.Greeting(P.SERVER_VERSION_TEXT, self.vocab.title, self.engine.rule_set, len(self.opening)))
        return ent, self.take()

    def line(self, ent: Entity, line: str | LineError, now: float, arrived: float | None = None) -> list[Output]:
        """A request line from ``ent`` (empty lines never reach here).  ``arrived``:
        when the line reached the server's host, if known and ``ent``'s clock runs
        (``clock_runs_for``); its clock is charged up to then, not to ``now``
        (impl/server/clock.py: a reply the busy referee had not read yet is not the
        player's time)."""
        if ent.conn is Conn.DONE or self.over:
            return self.take()
        self.now = now
        self._arrived = min(arrived, now) if arrived is not None and self.clock_runs_for(ent) else None
        try:
            self._dispatch(ent, line)
        except Exception as exc:  # a bug here must end this game cleanly, not the server
            if not self.over:
                self._abort(f"internal error on {line!r}: {exc!r}")
        finally:
            self._arrived = None
        return self.take()

    def fail(self, why: str) -> list[Output]:
        """The referee failed (``why``): the game, if not over, ends with 399."""
        if not self.over:
            self._abort(why)
        return self.take()

    def clock_runs_for(self, ent: Entity) -> bool:
        """Whether ``ent``'s clock is the one running: only then is the arrival
        time of its lines worth reading (Link)."""
        clocks = self.clocks
        return clocks is not None and clocks.running is not None and ent.side == clocks.running

    def closed(self, ent: Entity, now: float) -> list[Output]:
        """The connection closed.  A player leaving mid-game loses (391/392)."""
        if ent.conn is not Conn.DONE:
            self.now = now
            self._leave(ent)
        return self.take()

    def elapsed(self, now: float) -> list[Output]:
        """Time has passed: a flag may fall, a seat or idle bound may expire."""
        if self.over:
            return self.take()
        self.now = now
        for ent in [e for e in self.entities if e.conn is Conn.NEW]:
            if 0 < self.limits.seat_timeout <= now - ent.joined:
                self._log(DEBUG, "refused", conn=ent.number, code=199, reason="seat timeout")
                self._send(ent, P.Refused(199, f"No seat request within {self.limits.seat_timeout:g} s, goodbye"))
                self._drop(ent)
        wait = self.limits.wait_timeout
        for ent in [e for e in self.entities if e.conn is Conn.WAITING]:
            if 0 < wait <= now - ent.seated:
                self._log(INFO, "wait_timeout", conn=ent.number, seconds=wait)
                self._send(ent, P.Refused(199, f"No opponent within {wait:g} s, goodbye"))
                self._drop(ent)
        if self.started is None or self.over:
            return self.take()
        waited = self._waiting_for
        if self.clocks is not None:
            self._flagged(waited)
        elif 0 < self.limits.idle_timeout <= now - self._waiting_since:
            self._log(INFO, "idle", side=self.vocab.sides[waited], seconds=self.limits.idle_timeout)
            self._end(waited.other, Termination.IDLE, [P.Disconnected(waited)])
        return self.take()

    def deadline(self) -> float | None:
        """The timer to set: the latest time at which ``elapsed`` (the glue's
        ``tick``) must next be called; None: only when another input arrives."""
        if self.over:
            return None
        best: float | None = None
        if self.started is not None:
            if self.clocks is not None:
                best = self.clocks.deadline()
            elif self.limits.idle_timeout > 0:
                best = self._waiting_since + self.limits.idle_timeout
        seat, wait = self.limits.seat_timeout, self.limits.wait_timeout
        for ent in self.entities:
            if ent.conn is Conn.NEW and seat > 0 and (best is None or ent.joined + seat < best):
                best = ent.joined + seat
            elif ent.conn is Conn.WAITING and wait > 0 and (best is None or ent.seated + wait < best):
                best = ent.seated + wait
        return best

    def stopped(self, now: float, termination: Termination = Termination.SHUTDOWN) -> list[Output]:
        """The server is stopping: a game in progress is aborted with 399 to everyone
        and recorded (``termination``: ``shutdown``, or ``adjudication`` when a
        match runner ends it, impl/apps/games.py), no result; a game still seating
        has nothing to record and its connections are just closed by the server."""
        if self.started is not None and not self.over:
            self.now = now
            self._log(WARNING, "shutdown", termination=termination.value)
            self._aborted(termination, P.ABORT_REASONS[termination])
        return self.take()

    # ─── dispatch: (connection state, request kind) → handler or refusal ───────

    def _dispatch(self, ent: Entity, line: str | LineError) -> None:
        """The one entry for a request: the table's step, the state it returns
        checked against the step's, and set.  A trigger taken meanwhile (too many
        refusals closed the connection, the game ended) has the last word: the
        connection is done.  A player seated in the last free seat starts the game
        (``Trigger.START``)."""
        kind, request = self._classify(ent, line)
        was = ent.conn
        step = TABLE[(was, kind)]
        run = step.run
        if isinstance(run, P.Refused):
            self._reject(ent, run.code, run.text)
            to = was
        else:
            to = run(self, ent, request)
        if to not in step.next:
            raise TransitionError(f"{was.value} --{kind.value}--> {to.value}: TABLE allows {state_names(step.next)}")
        if ent.conn is was and to is not was:
            if to is Conn.DONE:  # done only by a trigger, which also lets the connection go
                raise TransitionError(f"{was.value} --{kind.value}--> done: the game is not over")
            ent.conn = to
        if to is Conn.WAITING and self.started is None and None not in self.players:
            self._start()

    def _classify(self, ent: Entity, line: str | LineError) -> tuple[Req, Any]:
        if isinstance(line, LineError):
            return Req.BAD_LINE, line
        if ent.conn is Conn.NEW:
            seat = P.parse_seat(self.vocab, line)
            return (Req.BAD_SEAT if isinstance(seat, P.SeatRefusal) else Req.SEAT), seat
        action = P.parse_action(self.vocab, line)
        if isinstance(action, P.Garbled):
            if isinstance(P.parse_seat(self.vocab, line), P.SeatRequest):
                return Req.SEAT_AGAIN, action
            return Req.GARBLED, action
        return _KINDS[action.kind], action


_KINDS = {
    P.Kind.MOVE: Req.MOVE,
    P.Kind.RESIGN: Req.RESIGN,
    P.Kind.DRAW_OFFER: Req.DRAW_OFFER,
    P.Kind.DRAW_ACCEPT: Req.DRAW_ANSWER,
    P.Kind.DRAW_REFUSE: Req.DRAW_ANSWER,
}

Handler = Callable[[Machine, Entity, Any], Conn]
"""A request's handler: it answers, and returns the state the connection took."""


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

TABLE: dict[tuple[Conn, Req], Step] = {
    # Not seated: every line is a seat request (Tables 2 and 3).
    (_NEW, Req.BAD_LINE): _stay(_NEW, Play._refuse_line),
    (_NEW, Req.BAD_SEAT): _stay(_NEW, Play._refuse_seat),
    (_NEW, Req.SEAT): _to(Play._seat, _NEW, _WAITING, _WATCHING),
    # Seated, waiting for the opponent: nothing to do yet.
    (_WAITING, Req.BAD_LINE): _stay(_WAITING, Play._refuse_line),
    (_WAITING, Req.GARBLED): _stay(_WAITING, Play._refuse_garbled),
    (_WAITING, Req.SEAT_AGAIN): _stay(_WAITING, _SEATED),
    **{(_WAITING, kind): _stay(_WAITING, _NOT_STARTED) for kind in _ACTIONS},
    # Observers watch.
    (_WATCHING, Req.BAD_LINE): _stay(_WATCHING, Play._refuse_line),
    (_WATCHING, Req.GARBLED): _stay(_WATCHING, Play._refuse_garbled),
    (_WATCHING, Req.SEAT_AGAIN): _stay(_WATCHING, _SEATED),
    **{(_WATCHING, kind): _stay(_WATCHING, _OBSERVER) for kind in _ACTIONS},
    # Players in the game (Tables 6–9); done when the request ended it.
    (_PLAYING, Req.BAD_LINE): _stay(_PLAYING, Play._refuse_line),
    (_PLAYING, Req.GARBLED): _stay(_PLAYING, Play._refuse_garbled),
    (_PLAYING, Req.SEAT_AGAIN): _stay(_PLAYING, _SEATED),
    (_PLAYING, Req.MOVE): _to(Play._move, _PLAYING, _DONE),
    (_PLAYING, Req.RESIGN): _to(Play._resign, _DONE),
    (_PLAYING, Req.DRAW_OFFER): _to(Play._offer_draw, _PLAYING, _DONE),
    (_PLAYING, Req.DRAW_ANSWER): _to(Play._answer_draw, _PLAYING, _DONE),
}
"""(connection state, request kind) → the step: its handler or refusal, and the
states allowed after it.  A seated connection's lines are actions, so (seated,
SEAT) cannot occur (a seat request there is SEAT_AGAIN); a DONE connection's lines
are dropped before the table is consulted."""
