"""The play of one game: the handlers of the connection table's steps
(impl/server/connections.py ``TABLE``, ``Handler``) — seating (Tables 2–5), play
(Tables 6–9) and Awari's draw offers (§8), and the refusals of lines not
understood — and what happens without a request: a connection greeted, time
passing (the flags, the seat and idle bounds), the server stopping.  Each answers
through ``Core``'s outputs; a handler returns the state its connection took."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from impl import protocol as P
from impl.config import ConfigMessages
from impl.engines.port import winner
from impl.game import Side, Termination
from impl.log import enabled
from spec import result as R

from .connections import Handler
from .core import DEBUG, INFO, WARNING, Core
from .events import DrawOffer, GameStarted, ObserverSeated, PlayerSeated
from .states import Conn, Entity, LineError, Trigger


class Play(Core):
    """The handlers of ``TABLE``'s steps and the inputs that are no request, on
    the game's state."""

    def handlers(self) -> dict[Handler, Callable[[Entity, Any], Conn]]:
        """Each ``Handler`` of the table as this game's method."""
        return {
            Handler.REFUSE_LINE: self._refuse_line,
            Handler.REFUSE_SEAT: self._refuse_seat,
            Handler.REFUSE_GARBLED: self._refuse_garbled,
            Handler.SEAT: self._seat,
            Handler.MOVE: self._move,
            Handler.RESIGN: self._resign,
            Handler.OFFER_DRAW: self._offer_draw,
            Handler.ANSWER_DRAW: self._answer_draw,
        }

    # ─── inputs that are no request ────────────────────────────────────────────

    def greet(self, ent: Entity) -> None:
        """A new connection: greeted (Table 1)."""
        self._log(DEBUG, "connect", conn=ent.number, peer=ent.peer.address)
        self._send(ent, P.Greeting(P.SERVER_VERSION_TEXT, self.vocab.title, self.engine.rule_set, len(self.opening)))

    def clock_runs_for(self, ent: Entity) -> bool:
        """Whether ``ent``'s clock is the one running: only then is the arrival
        time of its lines worth reading (impl/server/server.py ``Link``)."""
        clocks = self.clocks
        return clocks is not None and clocks.running is not None and ent.side == clocks.running

    def start_if_seated(self) -> None:
        """A player took a seat: the game starts if it was the last one."""
        if self.started is None and None not in self.players:
            self._start()

    def expire(self, now: float) -> None:
        """Time has passed: a flag may fall, a seat or idle bound may expire."""
        if self.over:
            return
        self.now = now
        for ent in self.conns.in_state(Conn.NEW):
            if 0 < self.limits.seat_timeout <= now - ent.joined:
                self._log(DEBUG, "refused", conn=ent.number, code=199, reason="seat timeout")
                self._send(ent, P.Refused(199, f"No seat request within {self.limits.seat_timeout:g} s, goodbye"))
                self._drop(ent)
        wait = self.limits.wait_timeout
        for ent in self.conns.in_state(Conn.WAITING):
            if 0 < wait <= now - ent.seated:
                self._log(INFO, "wait_timeout", conn=ent.number, seconds=wait)
                self._send(ent, P.Refused(199, f"No opponent within {wait:g} s, goodbye"))
                self._drop(ent)
        if self.started is None or self.over:
            return
        waited = self._waiting_for
        if self.clocks is not None:
            self._flagged(waited)
        elif 0 < self.limits.idle_timeout <= now - self._waiting_since:
            self._log(INFO, "idle", side=self.vocab.sides[waited], seconds=self.limits.idle_timeout)
            self._end(waited.other, Termination.IDLE, [P.Disconnected(waited)])

    def deadline(self) -> float | None:
        """The latest time at which ``expire`` must next be called; None: only
        when another input arrives."""
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

    def stop(self, now: float, termination: Termination = Termination.SHUTDOWN) -> None:
        """The server is stopping: a game in progress is aborted with 399 to everyone
        and recorded (``termination``: ``shutdown``, or ``adjudication`` when a
        match runner ends it, impl/apps/games.py), no result; a game still seating
        has nothing to record and its connections are just closed by the server."""
        if self.started is not None and not self.over:
            self.now = now
            self._log(WARNING, "shutdown", termination=termination.value)
            self._aborted(termination, P.ABORT_REASONS[termination])

    def fail(self, why: str) -> None:
        """The referee failed (``why``): the game, if not over, ends with 399."""
        if not self.over:
            self._abort(why)

    # ─── refusals ──────────────────────────────────────────────────────────────

    def _refuse_line(self, ent: Entity, error: LineError) -> Conn:
        """A line the framing refused (§2): 199 before seating, 299 after."""
        was = ent.conn
        self.reject(ent, 199 if ent.conn is Conn.NEW else 299, error.value)
        return was

    def _refuse_seat(self, ent: Entity, refusal: P.SeatRefusal) -> Conn:
        """A seat request refused by its form (Table 3: 198, 199)."""
        was = ent.conn
        self.reject(ent, refusal.code, refusal.text)
        return was

    def _refuse_garbled(self, ent: Entity, garbled: P.Garbled) -> Conn:
        """A request not understood in play (Table 8: 299)."""
        was = ent.conn
        self.reject(ent, 299, garbled.text)
        return was

    # ─── seating (Tables 2–5) ──────────────────────────────────────────────────

    def _seat(self, ent: Entity, request: P.SeatRequest) -> Conn:
        """A seat request (Tables 2 and 3): seated, observing, or refused."""
        if request.seat is P.Seat.OBSERVER:
            return self._seat_observer(ent, request.name)
        if self.started is not None or None not in self.players:
            self.reject(ent, 192, "There are already two players")
            return Conn.NEW
        free = [s for s in Side if self.players[s] is None]
        if request.seat is P.Seat.EITHER:
            side = self._rng.choice(free)
        elif Side(request.seat.value) in free:
            side = Side(request.seat.value)
        else:
            self.reject(ent, 191, "Other player holds requested side")
            return Conn.NEW
        ent.side, ent.name, ent.rejected, ent.seated = side, request.name, 0, self.now
        self.players[side] = ent
        self._log(INFO, "seat", conn=ent.number, side=self.vocab.sides[side], name=ent.name, version=request.version)
        if self.clocks is None:
            self._send(ent, P.Seated(None))
        else:
            own, opp = self.clocks.initial[side], self.clocks.initial[side.other]
            inc = self.clocks.increment
            self._send(ent, P.Seated((P.secs(own), P.secs(opp)), increments=(inc[side], inc[side.other])))
        self._publish(PlayerSeated(side, ent.name))
        return Conn.WAITING  # the last seat taken starts the game (start_if_seated)

    def _seat_observer(self, ent: Entity, name: str) -> Conn:
        observers = sum(1 for e in self.entities if e.observer is not None)
        if observers >= self.limits.max_observers:
            self.reject(ent, 193, f"Cannot observe (at most {self.limits.max_observers} observers)")
            return Conn.NEW
        self._observers += 1
        ent.observer, ent.name, ent.rejected = self._observers, name, 0
        self._log(INFO, "observe", conn=ent.number, observer=ent.observer, name=name)
        if self.clocks is None:
            self._send(ent, P.Seated(None))
        else:
            second, first = (P.secs(self.clocks.left(s, self.now)) for s in (Side.SECOND, Side.FIRST))
            inc = self.clocks.increment
            self._send(ent, P.Seated((second, first), observer=True, increments=(inc[1], inc[0])))
        self._publish(ObserverSeated(ent.observer, name))
        if self.started is not None:
            self._begin_for(ent)
        return Conn.WATCHING

    def _start(self) -> None:
        """Both players are seated: configuration, roles, and the first clock."""
        self.started = self.now
        seated = [e for e in self.entities if e.conn in (Conn.WAITING, Conn.WATCHING)]
        for ent in sorted(seated, key=lambda e: (e.observer is None, -(e.side or 0))):
            self._begin_for(ent)
        names = self._names()
        self._log(INFO, "start", first=names[0], second=names[1], engine=self.engine.kind)
        vocab, opened = self.vocab, Side(len(self.opening) % 2)  # the plies alternate: the first mover after it
        self._publish(
            GameStarted(
                vocab.game,
                self.settings.server,
                self.game_no,
                vocab.sides,
                names,
                self.settings.time,
                self.engine,
                self.state,
                self._reading(opened),
                self._epoch + self.now,
            )
        )
        if not self._diverged(self.state, lambda: "initial") and self._play_opening():
            self._start_clock(self._mover())

    def _play_opening(self) -> bool:
        """The referee plays the opening's moves (docs/protocol.md "Openings"): for
        each, the 31x status everyone gets for a move (observers with the display),
        and no clock runs.  False if the game ended meanwhile (a divergence)."""
        for token in self.opening:
            serial, side = self._serial(), self._mover()
            move = self.engine.parse_move(token)
            result, after = self.engine.apply(self.state, move)
            ply = f"{P.serial_text(serial, side)} {token}"
            if self._diverged(after, lambda ply=ply: ply):  # type: ignore[misc]
                return False
            if result != R.not_done:  # checked in __init__: the engine changed its mind
                self._abort(f"the opening's move {token} gave {result}")
                return False
            before, self.state = self.state, after
            left = None if self.clocks is None else self.clocks.left(side, self.now)
            self._publish(self._made(serial, side, token, move, before, result, left))
            self._broadcast([P.Moved(serial, side, token, None if left is None else P.secs(left))])
        return True

    def _begin_for(self, ent: Entity) -> None:
        """34x (by the configured policy), the role (35x), and for an observer the
        current state display (38x)."""
        policy = self.settings.config_messages
        lines: list[P.Message | str] = []
        if policy is ConfigMessages.ALL or (policy is ConfigMessages.OBSERVERS and ent.observer is not None):
            lines += self._config_lines()
        lines.append(P.Role(ent.side))
        if ent.side is None:
            lines += self._display()
        else:
            self.conns.trigger(ent, Trigger.START)
        self._send(ent, *lines)

    def _config_lines(self) -> list[P.Message | str]:
        first, second = self.players
        observers = [e for e in self.entities if e.observer is not None]
        return [
            P.PlayerName(Side.SECOND, second.name if second else ""),
            P.PlayerName(Side.FIRST, first.name if first else ""),
            *(P.ObserverName(o.observer, o.name) for o in observers if o.observer is not None),
            P.ObserverCount(len(observers)),
        ]

    # ─── play (Tables 6–9) ─────────────────────────────────────────────────────

    def _move(self, ent: Entity, action: P.Action) -> Conn:
        """A move (Tables 6–9), checked in §7's order; done if it ended the game."""
        side = ent.side
        assert side is not None
        if self.offer is not None:
            self.reject(ent, 291, "A draw offer awaits an answer (draw or nodraw)")
            return Conn.PLAYING
        if side != self._mover():
            self.reject(ent, 291, "Not your turn")
            return Conn.PLAYING
        serial = self._serial()
        if action.serial is not None and action.serial != serial:
            self.reject(ent, 299, f"Illegal serial number (got {action.serial} expected {serial})")
            return Conn.PLAYING
        if action.serial is not None and action.ellipsis != bool(side):
            expected = "expected before" if side else "not allowed before"
            self.reject(ent, 299, f"Ellipses (...) {expected} {self.vocab.sides[side]} move")
            return Conn.PLAYING
        move = self.engine.parse_move(action.token)
        if move is None:
            self.reject(ent, 299, f"Request not understood (no such move {action.token})")
            return Conn.PLAYING
        if self._flagged(side):
            return Conn.DONE
        result, after = self.engine.apply(self.state, move)  # if it raises: 399 (receive)
        text = self.engine.format_move(move)
        if self.checker is not None and self._diverged(after, lambda: f"{P.serial_text(serial, side)} {text}"):
            return Conn.DONE
        if result == R.illegal_move:
            self.reject(ent, 291, f"Illegal move {text}")
            return Conn.PLAYING
        ent.rejected = 0
        before, self.state = self.state, after
        self.refused = False
        if enabled(DEBUG):
            self._log(DEBUG, "move", side=self.vocab.sides[side], serial=serial, move=text)
        left = self._stop_clock(moved=True)
        self._publish(self._made(serial, side, text, move, before, result, left))
        if result == R.not_done:
            secs = None if left is None else P.secs(left)
            self._send(ent, P.Accepted(text, secs))
            self._broadcast([P.Moved(serial, side, text, secs)])
            self._start_clock(side.other)
        else:
            self._ended_by_move = True
            won = winner(self.engine, result)
            code = 203 if won is None else 201 if won == side else 202
            self._send(ent, P.Finished.by_move(code, text))
            self._end(won, Termination.MOVE, [P.Ended(serial, side, text, won)])
            return Conn.DONE
        return Conn.PLAYING

    def _resign(self, ent: Entity, action: P.Action) -> Conn:
        """204 to the resigner, 327/328 to everyone; allowed to either player at any time in play."""
        assert ent.side is not None
        self._send(ent, P.RESIGNATION_ACCEPTED)
        self._end(ent.side.other, Termination.RESIGNATION, [P.Resigned(ent.side)])
        return Conn.DONE

    def _offer_draw(self, ent: Entity, action: P.Action) -> Conn:
        """Awari's draw protocol: ``draw?`` by the player to move (205; 331/332),
        answered by the opponent with ``draw`` (203; 329) or ``nodraw`` (206;
        333/334).  While the offer stands the server waits for the opponent, whose
        clock runs; a refused offer may be repeated only after the next move."""
        side = ent.side
        assert side is not None
        if self.offer is not None:
            self.reject(ent, 291, "A draw offer is already pending")
        elif side != self._mover():
            self.reject(ent, 291, "Only the player to move may offer a draw")
        elif self.refused:
            self.reject(ent, 291, "Draw refused: offer again after the next move")
        elif not self._flagged(side):
            ent.rejected = 0
            self._stop_clock()
            self.offer = side
            self._send(ent, P.DRAW_OFFER_RECEIVED)
            self._log(DEBUG, "draw_offer", side=self.vocab.sides[side])
            self._publish(DrawOffer(self.game_no, side, None, self._reading(side.other)))
            self._broadcast([P.DrawOffered(side)])
            self._start_clock(side.other)
        return Conn.DONE if self.over else Conn.PLAYING  # over: its flag fell

    def _answer_draw(self, ent: Entity, action: P.Action) -> Conn:
        """Awari: ``draw`` (203; 329) or ``nodraw`` (206; 333/334) to the opponent's offer (§8)."""
        side = ent.side
        assert side is not None
        if self.offer is None or self.offer == side:
            self.reject(ent, 291, "No draw offer to answer")
            return Conn.PLAYING
        if self._flagged(side):
            return Conn.DONE
        ent.rejected = 0
        accept = action.kind is P.Kind.DRAW_ACCEPT
        self._publish(DrawOffer(self.game_no, self.offer, accept, self._reading(None if accept else self.offer)))
        if accept:
            self._send(ent, P.Finished.draw_accepted())
            self._end(None, Termination.AGREEMENT, [P.DrawAgreed()])
            return Conn.DONE
        self._stop_clock()
        self.offer, self.refused = None, True
        self._send(ent, P.DRAW_REFUSAL_RECEIVED)
        self._log(DEBUG, "draw_refused", side=self.vocab.sides[side])
        self._broadcast([P.DrawRefused(side)])
        self._start_clock(side.other)
        return Conn.PLAYING
