"""One game on one server: the papers' connection state machine (``cstate`` with
states initial, seated, playing, done) over every entity connected to it.

Driven by three events from the network layer (``join``, ``receive``, ``leave``)
and by the flag timer; it talks back only through ``Peer.send`` / ``Peer.close``
and uses the rules only through the Engine interface.  Every decision the papers
leave open is documented in impl/server/PROTOCOL.md; the table cited for each
message is that of the papers' section 2.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any, Protocol

from spec import result as R

from . import protocol as P
from .clock import Clocks
from .records import GameRecord, event, write_record

INFO, DEBUG, WARNING = logging.INFO, logging.DEBUG, logging.WARNING


class Peer(Protocol):
    """A connection as the session sees it."""

    address: str

    def send(self, lines: Sequence[str]) -> None: ...

    def close(self) -> None: ...


class LineError(Enum):
    """A line the framing layer refused; answered 199 before seating, 299 after."""

    TOO_LONG = "Request not understood (line too long)"
    NOT_ASCII = "Request not understood (non-ASCII or control character)"


class State(Enum):
    """STATE ::= initial | seated | playing | done"""

    INITIAL = "initial"
    SEATED = "seated"
    PLAYING = "playing"
    DONE = "done"


ABORTED = frozenset({"error", "shutdown"})
"""The terminations of a game ended by Session._aborted, without a result."""


class Phase(Enum):
    SEATING = "seating"
    PLAYING = "playing"
    OVER = "over"


class ConfigMessages(Enum):
    """Who receives the configuration messages 341–344 (Table 4)."""

    ALL = "all"
    OBSERVERS = "observers"
    NONE = "none"


@dataclass(eq=False)
class Entity:
    """ENTITY ::= player⟨⟨PLAYER⟩⟩ | observer⟨⟨ℕ₁⟩⟩, with its connection state."""

    peer: Peer
    number: int
    state: State = State.INITIAL
    side: int | None = None
    observer: int | None = None
    name: str = ""
    rejected: int = 0


@dataclass(frozen=True)
class Limits:
    max_observers: int = 64
    """More observers get 193."""
    max_rejected: int = 64
    """A connection whose requests are refused this many times in a row is closed."""


@dataclass(frozen=True)
class Settings:
    vocab: P.Vocabulary
    server: int = 0
    time: tuple[float, float] | None = None
    """Seconds for the first and the second player, or no time controls."""
    config_messages: ConfigMessages = ConfigMessages.ALL
    limits: Limits = field(default_factory=Limits)
    record_dir: Path | None = None
    listeners: tuple[Callable[[Session], None], ...] = ()
    """Called after each status change (Session._changed); they must not raise."""


class Session:
    """A game from the first connection to the last message."""

    def __init__(
        self,
        settings: Settings,
        engine: Any,
        loop: asyncio.AbstractEventLoop,
        game_no: int = 1,
        on_over: Callable[[Session], None] | None = None,
    ) -> None:
        self.settings, self.engine, self.loop, self.game_no = settings, engine, loop, game_no
        self.vocab = settings.vocab
        self._on_over = on_over
        self.entities: list[Entity] = []
        self.players: list[Entity | None] = [None, None]
        self.phase = Phase.SEATING
        self.state = engine.initial()
        self.plies: list[str] = []
        self.clocks = Clocks(settings.time) if settings.time is not None else None
        self._flag_timer: asyncio.TimerHandle | None = None
        self.offer: int | None = None
        """The side whose draw offer awaits an answer."""
        self.refused = False
        """A draw offer was refused since the last move."""
        self._connections = 0
        self._observers = 0
        self._started = time.time()
        self._ended_by_move = False
        self.outcome: tuple[int | None, str] | None = None
        """(winning side or None for a draw or an abort, termination) once over."""

    # ─── events ────────────────────────────────────────────────────────────────

    def join(self, peer: Peer) -> Entity:
        """A new connection: greet it (Table 1)."""
        self._connections += 1
        ent = Entity(peer, self._connections)
        self.entities.append(ent)
        self._log(DEBUG, "connect", conn=ent.number, peer=peer.address)
        peer.send([P.greeting(self.vocab)])
        return ent

    def receive(self, ent: Entity, line: str | LineError) -> None:
        """A request line from ``ent`` (empty lines never reach here)."""
        if ent.state is State.DONE or self.phase is Phase.OVER:
            return
        try:
            self._receive(ent, line)
        except Exception as exc:  # a bug here must end this game cleanly, not the server
            if self.outcome is None:
                self._abort(f"internal error on {line!r}: {exc!r}")

    def _receive(self, ent: Entity, line: str | LineError) -> None:
        if isinstance(line, LineError):
            self._reject(ent, 199 if ent.state is State.INITIAL else 299, line.value)
        elif ent.state is State.INITIAL:
            self._seat(ent, P.parse_seat(self.vocab, line))
        else:
            self._act(ent, P.parse_action(self.vocab, line))

    def leave(self, ent: Entity) -> None:
        """The connection closed.  A player leaving mid-game loses (391/392)."""
        if ent.state is State.DONE:
            return
        was = ent.state
        ent.state = State.DONE
        self.entities.remove(ent)
        self._log(DEBUG, "disconnect", conn=ent.number, state=was.value)
        if ent.side is None or self.phase is Phase.OVER:
            return
        if self.phase is Phase.SEATING:
            self.players[ent.side] = None
            return
        side = ent.side
        self._end(
            1 - side,
            "disconnect",
            [f"{P.DISCONNECTED[side]} {self._cap(side)} disconnected, {self.vocab.sides[1 - side]} wins"],
        )

    # ─── seating (Tables 2–5) ──────────────────────────────────────────────────

    def _seat(self, ent: Entity, request: P.SeatRequest | P.SeatRefusal) -> None:
        if isinstance(request, P.SeatRefusal):
            self._reject(ent, request.code, request.text)
            return
        if request.seat is P.Seat.OBSERVER:
            self._seat_observer(ent, request.name)
            return
        if self.phase is not Phase.SEATING or None not in self.players:
            self._reject(ent, 192, "There are already two players")
            return
        free = [s for s in (0, 1) if self.players[s] is None]
        if request.seat is P.Seat.EITHER:
            side = random.choice(free)
        elif request.seat.value in free:
            side = request.seat.value
        else:
            self._reject(ent, 191, "Other player holds requested side")
            return
        ent.side, ent.name, ent.state, ent.rejected = side, request.name, State.SEATED, 0
        self.players[side] = ent
        self._log(INFO, "seat", conn=ent.number, side=self.vocab.sides[side], name=ent.name, version=request.version)
        if self.clocks is None:
            ent.peer.send(["100 Request accepted"])
        else:
            own, opp = self.clocks.initial[side], self.clocks.initial[1 - side]
            ent.peer.send([f"101 {P.secs(own)} {P.secs(opp)} Request accepted with time controls (you / opp)"])
        if None not in self.players:
            self._start()

    def _seat_observer(self, ent: Entity, name: str) -> None:
        observers = sum(1 for e in self.entities if e.observer is not None)
        if observers >= self.settings.limits.max_observers:
            self._reject(ent, 193, f"Cannot observe (at most {self.settings.limits.max_observers} observers)")
            return
        self._observers += 1
        ent.observer, ent.name, ent.rejected = self._observers, name, 0
        self._log(INFO, "observe", conn=ent.number, observer=ent.observer, name=name)
        if self.clocks is None:
            ent.peer.send(["100 Request accepted"])
        else:
            now = self.loop.time()
            second, first = (P.secs(self.clocks.left(s, now)) for s in (1, 0))
            ent.peer.send([f"101 {second} {first} Request accepted with time controls"])
        ent.state = State.SEATED
        if self.phase is Phase.PLAYING:
            self._begin_for(ent)

    def _start(self) -> None:
        """Both players are seated: configuration, roles, and the first clock."""
        self.phase = Phase.PLAYING
        seated = [e for e in self.entities if e.state is State.SEATED]
        for ent in sorted(seated, key=lambda e: (e.observer is None, -(e.side or 0))):
            self._begin_for(ent)
        names = tuple(p.name if p else "" for p in self.players)
        self._log(INFO, "start", first=names[0], second=names[1], engine=self.engine.kind)
        self._start_clock(0, self.loop.time())
        self._changed()  # listener hook: started

    def _begin_for(self, ent: Entity) -> None:
        """34x (by the configured policy), the role (35x), and for an observer the
        current state display (38x)."""
        policy = self.settings.config_messages
        lines = []
        if policy is ConfigMessages.ALL or (policy is ConfigMessages.OBSERVERS and ent.observer is not None):
            lines += self._config_lines()
        if ent.side is None:
            lines += ["353 You will observe", *self._display()]
        else:
            lines.append(f"{P.ROLE[ent.side]} You will play {self.vocab.sides[ent.side]}")
        ent.state = State.PLAYING
        ent.peer.send(lines)

    def _config_lines(self) -> list[str]:
        first, second = self.players
        observers = [e for e in self.entities if e.observer is not None and e.state is not State.INITIAL]
        return [
            f"{P.CONFIG[1]} {P.quote_name(second.name if second else '')} {self.vocab.sides[1]} player",
            f"{P.CONFIG[0]} {P.quote_name(first.name if first else '')} {self.vocab.sides[0]} player",
            *(f"343 {o.observer} {P.quote_name(o.name)} observer" for o in observers),
            f"344 {len(observers)} observers",
        ]

    # ─── play (Tables 6–9) ─────────────────────────────────────────────────────

    def _act(self, ent: Entity, action: P.Action | P.Garbled) -> None:
        if isinstance(action, P.Garbled):
            self._reject(ent, 299, action.text)
        elif ent.side is None:
            self._reject(ent, 291, "Observers may not act")
        elif self.phase is not Phase.PLAYING:
            self._reject(ent, 291, "The game has not started")
        elif action.kind is P.Kind.RESIGN:
            self._resign(ent, ent.side)
        elif action.kind is P.Kind.MOVE:
            self._move(ent, ent.side, action)
        else:
            self._draw(ent, ent.side, action.kind)

    def _mover(self) -> int:
        side: int = self.engine.players.index(self.engine.to_move(self.state))
        return side

    def _serial(self) -> int:
        """The full-move number of the next ply: both players' n-th moves carry n."""
        return len(self.plies) // 2 + 1

    def _move(self, ent: Entity, side: int, action: P.Action) -> None:
        if self.offer is not None:
            self._reject(ent, 291, "A draw offer awaits an answer (draw or nodraw)")
            return
        if side != self._mover():
            self._reject(ent, 291, "Not your turn")
            return
        serial = self._serial()
        if action.serial is not None and action.serial != serial:
            self._reject(ent, 299, f"Illegal serial number (got {action.serial} expected {serial})")
            return
        if action.serial is not None and action.ellipsis != bool(side):
            expected = "expected before" if side else "not allowed before"
            self._reject(ent, 299, f"Ellipses (...) {expected} {self.vocab.sides[side]} move")
            return
        move = self.engine.parse_move(action.token)
        if move is None:
            self._reject(ent, 299, f"Request not understood (no such move {action.token})")
            return
        now = self.loop.time()
        if self._flagged(side, now):
            return
        result, after = self.engine.apply(self.state, move)  # if it raises: 399 (receive)
        text = self.engine.format_move(move)
        if result == R.illegal_move:
            self._reject(ent, 291, f"Illegal move {text}")
            return
        ent.rejected = 0
        self.state = after
        self.plies.append(f"{P.serial_text(serial, side)} {text}")
        self.refused = False
        self._log(DEBUG, "move", side=self.vocab.sides[side], serial=serial, move=text)
        if result == R.not_done:
            self._continue(ent, side, serial, text, now)
        else:
            self._ended_by_move = True
            winner = None if result == R.draw else self.engine.players.index(result.player)
            outcome = P.Outcome.DRAW if winner is None else P.Outcome.WIN if winner == side else P.Outcome.LOSS
            ent.peer.send([f"{P.RESULT_CODE[outcome]} Move {text} accepted, {P.RESULT_TEXT[outcome]}"])
            status = f"{P.ends_code(side, outcome)} {P.serial_text(serial, side)} {text} and {self.vocab.sides[side]}"
            self._end(winner, "move", [f"{status} {outcome.value}"], now)

    def _continue(self, ent: Entity, side: int, serial: int, text: str, now: float) -> None:
        """Table 8's 200/207 to the mover, then Table 9's 31x to everyone, the mover included."""
        is_pass = text == "pass"
        code = P.moves_code(side, is_pass, self.clocks is not None)
        where = f"{P.serial_text(serial, side)} {text}"
        if self.clocks is None:
            ent.peer.send([f"200 Move {text} accepted, continue playing"])
            status = f"{code} {where} is {self.vocab.sides[side]} move, game continues"
        else:
            left = P.secs(self._stop_clock(now))
            ent.peer.send([f"207 {left} secs remaining after move {text} accepted, continue playing"])
            status = f"{code} {where} {left} (secs) is {self.vocab.sides[side]} move, game continues"
        self._broadcast([status])
        self._start_clock(1 - side, self.loop.time())
        self._changed()  # listener hook: a move accepted, the game goes on

    def _resign(self, ent: Entity, side: int) -> None:
        """204 to the resigner, 327/328 to everyone; allowed to either player at any time in play."""
        ent.peer.send(["204 Resignation accepted"])
        winner = self._cap(1 - side)
        self._end(1 - side, "resignation", [f"{P.RESIGNS[side]} {winner} wins by resignation"])

    def _draw(self, ent: Entity, side: int, kind: P.Kind) -> None:
        """Awari's draw protocol: ``draw?`` by the player to move (205; 331/332),
        answered by the opponent with ``draw`` (203; 329) or ``nodraw`` (206;
        333/334).  While the offer stands the server waits for the opponent, whose
        clock runs; a refused offer may be repeated only after the next move."""
        now = self.loop.time()
        if kind is P.Kind.DRAW_OFFER:
            if self.offer is not None:
                self._reject(ent, 291, "A draw offer is already pending")
            elif side != self._mover():
                self._reject(ent, 291, "Only the player to move may offer a draw")
            elif self.refused:
                self._reject(ent, 291, "Draw refused: offer again after the next move")
            elif not self._flagged(side, now):
                ent.rejected = 0
                self._stop_clock(now)
                self.offer = side
                ent.peer.send(["205 Received draw request"])
                self._log(DEBUG, "draw_offer", side=self.vocab.sides[side])
                self._broadcast([f"{P.DRAW_OFFERED[side]} Draw requested by {self.vocab.sides[side]}"])
                self._start_clock(1 - side, self.loop.time())
                self._changed()  # listener hook: draw offered
            return
        if self.offer is None or self.offer == side:
            self._reject(ent, 291, "No draw offer to answer")
            return
        if self._flagged(side, now):
            return
        ent.rejected = 0
        if kind is P.Kind.DRAW_ACCEPT:
            ent.peer.send(["203 Draw accepted, You draw"])
            self._end(None, "agreement", ["329 Draw accepted"], now)
            return
        self._stop_clock(now)
        self.offer, self.refused = None, True
        ent.peer.send(["206 Received draw refusal"])
        self._log(DEBUG, "draw_refused", side=self.vocab.sides[side])
        self._broadcast([f"{P.DRAW_REFUSED[side]} Draw refused by {self.vocab.sides[side]}"])
        self._start_clock(1 - side, self.loop.time())
        self._changed()  # listener hook: draw refused

    # ─── clocks ────────────────────────────────────────────────────────────────

    def _start_clock(self, side: int, now: float) -> None:
        if self.clocks is None:
            return
        self.clocks.start(side, now)
        self._flag_timer = self.loop.call_later(max(0.0, self.clocks.left(side, now)), self._on_flag_timer, side)

    def _stop_clock(self, now: float) -> float:
        if self.clocks is None:
            return 0.0
        if self._flag_timer is not None:
            self._flag_timer.cancel()
            self._flag_timer = None
        return self.clocks.stop(now)

    def _on_flag_timer(self, side: int) -> None:
        self._flag_timer = None
        if self.phase is not Phase.PLAYING or self.clocks is None or self.clocks.running != side:
            return
        now = self.loop.time()
        left = self.clocks.left(side, now)
        if left > 0:  # the loop may run a timer a little early
            self._flag_timer = self.loop.call_later(left, self._on_flag_timer, side)
            return
        self._flagged(side, now)

    def _flagged(self, side: int, now: float) -> bool:
        """If ``side``'s time ran out, end the game on time (202 to it, 361/362 to all)."""
        if self.clocks is None or self.clocks.running != side or self.clocks.left(side, now) > 0:
            return False
        player = self.players[side]
        if player is not None:
            player.peer.send(["202 Your time expires, and you lose"])
        winner, loser = self._cap(1 - side), self._cap(side)
        self._end(1 - side, "time", [f"{P.FLAG_FELL[side]} {winner} wins by {loser} time expiring"], now)
        return True

    # ─── the end ───────────────────────────────────────────────────────────────

    def _abort(self, why: str) -> None:
        """399 to everyone and no result: the referee failed (the engine, or a bug)."""
        self._log(logging.ERROR, "internal_error", error=why)
        self._aborted("error", "the referee failed")

    def shutdown(self) -> None:
        """The server is stopping: a game in progress is aborted with 399 to everyone
        and recorded (termination ``shutdown``, no result); a game still seating has
        nothing to record and its connections are just closed by the server."""
        if self.phase is Phase.PLAYING:
            self._log(logging.WARNING, "shutdown")
            self._aborted("shutdown", "the server is shutting down")

    def _aborted(self, termination: str, reason: str) -> None:
        """End without a result: 399 to everyone, the record says ``aborted``."""
        self._end(None, termination, [f"399 Unknown problem: {reason}, game aborted"])

    def _end(self, winner: int | None, termination: str, status: list[str], now: float | None = None) -> None:
        """The game is over: the final status to everyone (observers with the final
        display), the record, and every connection closed."""
        if self.clocks is not None and self.clocks.running is not None:
            self._stop_clock(self.loop.time() if now is None else now)
        self.phase = Phase.OVER
        self.outcome = (winner, termination)
        self._broadcast(status)
        record = self._record(winner, termination)
        self._log(INFO, "end", result=record.result, termination=termination, score=record.score, plies=len(self.plies))
        if self.settings.record_dir is not None:
            try:
                path = write_record(self.settings.record_dir, record)
                self._log(DEBUG, "record", path=str(path))
            except OSError as exc:
                self._log(WARNING, "record_failed", error=repr(exc))
        for ent in list(self.entities):
            ent.state = State.DONE
            ent.peer.close()
        self.entities.clear()
        self._changed()  # listener hook: over
        if self._on_over is not None:
            self._on_over(self)

    def _record(self, winner: int | None, termination: str) -> GameRecord:
        sides = self.vocab.sides
        result = "draw" if winner is None else f"{sides[winner]} wins"
        result = "aborted" if termination in ABORTED else result
        counts = self.engine.counts(self.state)
        score = " ".join(f"{sides[s]} {counts[int(p)]}" for s, p in enumerate(self.engine.players))
        names = tuple(p.name if p else "" for p in self.players)
        return GameRecord(
            game=self.vocab.game,
            server=self.settings.server,
            game_no=self.game_no,
            engine=self.engine.kind,
            started=self._started,
            ended=time.time(),
            sides=sides,
            names=(names[0], names[1]),
            time=self.settings.time,
            result=result,
            termination=termination,
            score=score,
            plies=tuple(self.plies),
        )

    # ─── listeners (the live web view: impl/web/tap.py) ────────────────────────

    def _changed(self) -> None:
        """The game's status changed — it started, a move was accepted, a draw was
        offered or refused, or it ended: each of Settings.listeners reads the
        session (state, plies, clocks, phase, outcome).  Called at five places,
        each marked ``listener hook``."""
        for listener in self.settings.listeners:
            listener(self)

    # ─── output ────────────────────────────────────────────────────────────────

    def _broadcast(self, status: list[str]) -> None:
        """A status message to every entity in play; observers also get the display."""
        display: list[str] | None = None
        for ent in self.entities:
            if ent.state is not State.PLAYING:
                continue
            if ent.observer is None:
                ent.peer.send(status)
            else:
                display = display if display is not None else self._display()
                ent.peer.send([*status, *display])

    def _display(self) -> list[str]:
        """Table 10: 380 (381 with clocks: first player's time first) and 382 with
        the board lines that follow it (Gothello: gthd's 5 lines; Awari: the 4
        lines of the engine's display, our extension)."""
        over = self.phase is Phase.OVER
        serial = (len(self.plies) + 1) // 2 if over and self._ended_by_move else self._serial()
        to_move = "." if over else self.vocab.letters[self._mover()]
        if self.clocks is None:
            status = f"380 {serial} {to_move}"
        else:
            now = self.loop.time()
            first, second = (P.secs(self.clocks.left(s, now)) for s in (0, 1))
            status = f"381 {serial} {first} {second} {to_move}"
        board: list[str] = self.engine.render(self.state)
        return [status, f"382 {len(board)} board lines follow", *board]

    def _reject(self, ent: Entity, code: int, text: str) -> None:
        """A 19x/29x refusal; the connection continues unless it keeps being refused."""
        ent.rejected += 1
        ent.peer.send([f"{code} {text}"])
        if ent.rejected >= self.settings.limits.max_rejected:
            self._log(WARNING, "too_many_rejections", conn=ent.number, peer=ent.peer.address)
            ent.peer.close()
            self.leave(ent)

    def _cap(self, side: int) -> str:
        return self.vocab.sides[side].capitalize()

    def _log(self, level: int, what: str, **fields: Any) -> None:
        event(level, what, game=self.vocab.game, server=self.settings.server, game_no=self.game_no, **fields)
