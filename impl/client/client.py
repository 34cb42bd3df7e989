"""A blocking client for the referee servers of both games, as a player or an
observer (docs/protocol.md).

The client follows the game as the server reports it: every status line it reads
(31x/32x, 327–334, 36x, 39x), parsed by impl/protocol.py, is applied to its
own copy of the position on the fast engine, so a player can ask for ``state``, ``legal_moves()``, ``serial`` and
``my_turn`` at any time, and an impossible report is a ProtocolError.  It adds the
full-move numbers and the ``...`` itself: callers send bare moves (``c3``, ``F``).

A player's loop (docs/writing-a-player.md has a complete program)::

    with Client.connect("awari", port=port) as client:
        client.seat("?")
        client.wait()                          # until our turn, a draw offer, or the end
        while not client.over:
            if client.must_answer_draw:        # Awari: an offer is answered before any move
                client.answer_draw(False)
            else:
                client.move(choose(client))    # MoveRefused on 291/299
            client.wait()
        print(client.describe_result())
"""

from __future__ import annotations

import select
import socket
import time
from collections.abc import Callable
from contextlib import suppress
from types import TracebackType
from typing import Any

from impl import protocol as W
from impl.engines.port import GameEngine, GameState, side_to_move, winner
from impl.engines.registry import get_engine
from impl.game import Outcome, Side, Termination
from spec import result as R
from spec.awari_rules import canonical

from .errors import ClientError, ClientTimeout, ConnectionLost, MoveRefused, NotPlaying, ProtocolError, SeatRefused

Result = Outcome
"""The end of a game as the client saw it (impl/game.py): the winning side (None
for a draw or an aborted game) and how it ended.  A 399 is ``error``: the client
cannot tell a failed referee from a stopped server."""

MAX_LINE = 64 * 1024
"""Longest response line we accept: far beyond anything the server sends."""


class ConnectFailed(ConnectionLost):
    """No connection could be made to the server."""


_REPLIES: dict[type, tuple[type, ...]] = {
    W.Accepted: (W.Moved,),
    W.Finished: (W.Ended, W.FlagFell, W.DrawAgreed),
    W.Acknowledged: (W.Resigned, W.DrawOffered, W.DrawRefused),
}
"""A reply to the requester, and the status lines that may follow it (§7, §8)."""


class Client:
    """One connection to a referee server for ``game`` (awari | gothello)."""

    def __init__(
        self,
        sock: socket.socket,
        game: str,
        *,
        timeout: float | None = None,
        on_message: Callable[[W.Message], None] | None = None,
        rules: str | None = None,
    ) -> None:
        """Wrap a connected socket and read the greeting (Table 1).  ``timeout``:
        the longest wait for any server line (None: no limit, as a person may
        think for long); ``on_message`` sees every message once it is applied.
        ``rules``: the Awari rule set expected (ProtocolError if the server
        announces another); None: whichever the server announces."""
        if game not in W.VOCABULARIES:
            raise ValueError(f"unknown game {game!r}: awari or gothello")
        self.sock, self.game, self.timeout, self.on_message = sock, game, timeout, on_message
        self.vocab = W.VOCABULARIES[game]
        self.sides: tuple[str, str] = self.vocab.sides
        self.plies: list[str] = []
        """The accepted moves so far, as tokens (``c3``, ``pass``, ``F``)."""
        self.side: Side | None = None
        """Our side once known (0 first player, 1 second); None for an observer."""
        self.observing = False
        self.started = False
        self.result: Result | None = None
        self.names = ["", ""]
        """The players' names, first player first, from 341/342 when the server sends them."""
        self.observers: dict[int, str] = {}
        self.offer: Side | None = None
        """The side whose Awari draw offer awaits an answer."""
        self.offer_refused = False
        """A draw offer was refused since the last move: no new offer until the next move."""
        self.board: list[str] = []
        """The last 382 board lines (observers)."""
        self._seat_times: tuple[int, int] | None = None
        self._times: list[float] | None = None
        self._running: int | None = None
        self._since = 0.0
        self._buffer = LineBuffer()
        self._eof = False
        self._asked: str | None = None
        self._seated = False
        self._last = ""
        self.greeting = self._expect_greeting()
        try:
            announced = canonical(self.greeting.rules)
            self.engine: GameEngine = get_engine(game, "impl", announced)
        except ValueError as exc:  # RulesError, or another set than the paper's for Gothello
            raise ProtocolError(str(exc), self._last) from None
        self.rules = announced
        """The rule set the server announced, by its canonical name (``paper`` when it
        announces none; spec/awari_rules.py ``canonical_name``)."""
        if rules is not None and canonical(rules) != self.rules:
            raise ProtocolError(f"this server plays the {self.rules} rules, not {rules}", self._last)
        self.state: GameState = self.engine.initial()

    @classmethod
    def connect(
        cls,
        game: str,
        host: str = "127.0.0.1",
        server: int = 0,
        port: int | None = None,
        *,
        timeout: float | None = None,
        connect_timeout: float = 10.0,
        on_message: Callable[[W.Message], None] | None = None,
        rules: str | None = None,
    ) -> Client:
        """Connect to server number ``server`` of ``game`` on ``host`` (port 29046+n
        for Awari, 29068+n for Gothello), or to ``port`` if given."""
        port = W.port_of(game, server) if port is None else port
        try:
            sock = socket.create_connection((host, port), timeout=connect_timeout)
        except OSError as exc:
            raise ConnectFailed(f"cannot connect to the {game} server at {host}:{port}: {exc}") from exc
        try:
            return cls(sock, game, timeout=timeout, on_message=on_message, rules=rules)
        except BaseException:
            sock.close()
            raise

    def __enter__(self) -> Client:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.close()

    def close(self) -> None:
        """Close the connection (a player leaving mid-game loses by disconnect)."""
        self.sock.close()

    def fileno(self) -> int:
        """For select(); check ``has_pending()`` first: lines may already be buffered."""
        return self.sock.fileno()

    # ─── what the game looks like ──────────────────────────────────────────────

    @property
    def over(self) -> bool:
        return self.result is not None

    @property
    def serial(self) -> int:
        """The full-move number the next move carries (both players' k-th moves carry k)."""
        return len(self.plies) // 2 + 1

    @property
    def to_move(self) -> Side | None:
        """The side the rules say is to move; None before the start and once over."""
        if not self.started or self.over:
            return None
        return side_to_move(self.engine, self.state)

    @property
    def my_turn(self) -> bool:
        """We may move (or offer a draw): our turn, no draw offer outstanding, and
        the referee's opening (announced in the greeting) all read."""
        return (
            self.side is not None
            and self.offer is None
            and self.to_move == self.side
            and len(self.plies) >= self.greeting.opening
        )

    @property
    def must_answer_draw(self) -> bool:
        """The opponent offered a draw: answer with ``answer_draw``."""
        return self.side is not None and not self.over and self.offer == self.side.other

    def legal_moves(self) -> tuple[str, ...]:
        """The moves the rules allow the side to move, in the server's notation."""
        if self.to_move is None:
            return ()
        return tuple(self.engine.format_move(m) for m in self.engine.legal_moves(self.state))

    def counts(self) -> tuple[int, int]:
        """Stores (Awari) or stones on the board (Gothello), first player first."""
        return self.engine.counts(self.state)

    def render(self) -> list[str]:
        """Our position as the engine draws it (impl/engines/notation.py)."""
        lines: list[str] = self.engine.render(self.state)
        return lines

    @property
    def timed(self) -> bool:
        return self._times is not None

    def time_left(self, side: int) -> float | None:
        """``side``'s seconds left now as last reported by the server, counting down
        while its clock runs; None without time controls."""
        if self._times is None:
            return None
        running = time.monotonic() - self._since if self._running == side else 0.0
        return max(0.0, self._times[side] - running)

    # ─── seating (Tables 2–5) ──────────────────────────────────────────────────

    def seat(self, side: str = "?", name: str = "") -> None:
        """Ask to play ``side`` (south/north, black/white) or ``?`` for either.  The
        game starts when both seats are taken; ``wait()`` reads the role.
        SeatRefused on 191/192/198/199."""
        seats = {"?": W.Seat.EITHER, self.sides[0]: W.Seat.FIRST, self.sides[1]: W.Seat.SECOND}
        if side not in seats:
            raise ValueError(f"{self.game} sides are {self.sides[0]}, {self.sides[1]} or ?")
        self._asked = side
        self._seat(W.SeatRequest(seats[side], name))

    def observe(self, name: str = "") -> None:
        """Observe the game (SeatRefused on 193 when there are too many observers)."""
        self._seat(W.SeatRequest(W.Seat.OBSERVER, name))
        self.observing = True

    def _seat(self, seat: W.SeatRequest) -> None:
        if self._seated:
            raise ClientError("already seated")
        request = seat.to_line(self.vocab)
        self._send(request)
        msg = self._read()
        if isinstance(msg, W.Refused):
            raise SeatRefused(msg.code, msg.text, request)
        if not isinstance(msg, W.Seated):
            raise ProtocolError("expected 100 or 101", self._last)
        self._seat_times, self._seated = msg.times, True
        self._notify(msg)

    # ─── waiting ───────────────────────────────────────────────────────────────

    def wait(self) -> None:
        """Read the server until we may act: our turn to move, a draw offer to answer,
        or the end of the game.  An observer reads to the end of the game."""
        while not self.over and not self.my_turn and not self.must_answer_draw:
            self.next_message()

    def wait_started(self) -> None:
        """Read the server until the game has started (our role, 351–353)."""
        while not self.started and not self.over:
            self.next_message()

    def next_message(self, timeout: float | None = None) -> W.Message:
        """Read and apply one message (with its board lines after 382).  ``timeout``
        overrides the client's for this read."""
        msg = self._read(self.timeout if timeout is None else timeout)
        self._apply(msg)
        if self.observing and isinstance(msg, _DISPLAYED):
            self._display()
        return msg

    def _display(self) -> None:
        """Table 10: an observer gets 380/381, 382 and the board after every status."""
        status = self._read()
        if not isinstance(status, W.DisplayStatus):
            raise ProtocolError("expected the display (380/381)", self._last)
        self._apply(status)
        board = self._read()
        if not isinstance(board, W.BoardFollows):
            raise ProtocolError("expected the board (382)", self._last)
        self._apply(board)

    def has_pending(self) -> bool:
        """A complete line is already buffered."""
        return self._buffer.has_line()

    def poll(self) -> list[W.Message]:
        """Apply every message that has already arrived, without waiting for more."""
        messages = []
        while not self._eof and select.select([self.sock], [], [], 0)[0]:
            self._receive()
        while self._buffer.has_line():
            messages.append(self.next_message())
        if self._eof and not self.over:
            raise ConnectionLost("the server closed the connection before the game was over")
        return messages

    # ─── requests during play (Tables 6 and 7, §8) ─────────────────────────────

    def move(self, token: str) -> None:
        """Play ``token`` (``c3``, ``pass``, ``F``) as our next move; it returns once
        the server has reported it to everyone.  MoveRefused with the server's text
        when refused (291/299): nothing changed, try again.  If the game ended
        before the move reached the server (the opponent resigned or left, our flag
        fell), ``over`` is set and nothing is sent."""
        self._act(W.Action.move(self.serial, self._player_side(), token))

    def pass_(self) -> None:
        """Gothello: pass."""
        self.move("pass")

    def resign(self) -> None:
        """Resign (204, then 327/328); possible at any time during the game."""
        self._act(W.Action(W.Kind.RESIGN))

    def offer_draw(self) -> None:
        """Awari: offer a draw on our turn (205, 331/332); ``wait()`` then reads the
        answer: 329 ends the game drawn, 333/334 gives us the move again."""
        self._act(W.Action(W.Kind.DRAW_OFFER))

    def answer_draw(self, accept: bool) -> None:
        """Awari: accept (203, 329) or refuse (206, 333/334) the opponent's offer."""
        self._act(W.Action(W.Kind.DRAW_ACCEPT if accept else W.Kind.DRAW_REFUSE))

    def _player_side(self) -> Side:
        if self.side is None:
            raise NotPlaying("observers may not act" if self.observing else "the game has not started")
        return self.side

    def _act(self, action: W.Action) -> None:
        """Send a request in play, and read the server's reply to us, then the status
        line it sends everyone (§7: 20x then 31x/32x; §8: 204/205/206 then 32x/33x)."""
        self._player_side()
        request = action.to_line(self.vocab)
        if self.over:
            raise NotPlaying(f"the game is over ({self.describe_result()}): cannot send {request!r}")
        self.poll()  # whatever has arrived: the game may have ended meanwhile
        if self.over:
            return
        self._send(request)
        while not self.over:
            msg = self._read()
            if isinstance(msg, W.Refused):
                self._notify(msg)
                raise MoveRefused(msg.code, msg.text, request)
            followers = _REPLIES.get(type(msg))
            if followers is None:
                self._apply(msg)  # a status that crossed our request (the game ended)
                continue
            self._apply(msg)
            status = self._read()
            if not isinstance(status, followers):
                raise ProtocolError(f"expected the status after {type(msg).__name__}", self._last)
            self._apply(status)
            return

    def describe_result(self) -> str:
        return "not over" if self.result is None else self.result.describe(self.sides)

    # ─── reading ───────────────────────────────────────────────────────────────

    def _send(self, line: str) -> None:
        try:
            self.sock.sendall((line + "\r\n").encode("ascii"))
        except OSError as exc:
            # The server may have ended the game and closed: read what it said.
            with suppress(ConnectionLost):
                self.poll()
            if not self.over:
                raise ConnectionLost(f"cannot send {line!r}: {exc}") from exc

    def _receive(self, timeout: float | None = None) -> None:
        """One recv into the buffer (TimeoutError after ``timeout``); EOF is remembered."""
        self.sock.settimeout(timeout)
        try:
            data = self.sock.recv(65536)
        except TimeoutError:
            raise
        except OSError as exc:
            data = b""
            if not self.over:
                self._eof = True
                raise ConnectionLost(f"connection to the server failed: {exc}") from exc
        if not data:
            self._eof = True
        self._buffer.feed(data)

    def _line(self, timeout: float | None) -> str:
        deadline = None if timeout is None else time.monotonic() + timeout
        while not self._buffer.has_line():
            if self._eof:
                raise ConnectionLost("the server closed the connection" + ("" if self.over else " mid-game"))
            try:
                self._receive(None if deadline is None else max(0.0, deadline - time.monotonic()))
            except TimeoutError:
                raise ClientTimeout(f"no response from the server within {timeout:g} s") from None
        line = self._buffer.pop()
        assert line is not None
        self._last = line
        return line

    def _read(self, timeout: float | None = None) -> W.Message:
        """The next message; after 382 its board lines are read too."""
        line = self._line(self.timeout if timeout is None else timeout)
        try:
            msg = W.parse(line)
        except W.ProtocolError as exc:
            raise ProtocolError(exc.problem, exc.line) from None
        if isinstance(msg, W.BoardFollows):
            self.board = [self._line(self.timeout) for _ in range(msg.lines)]
        return msg

    def _expect_greeting(self) -> W.Greeting:
        msg = self._read(self.timeout if self.timeout is not None else 30.0)
        if not isinstance(msg, W.Greeting):
            raise ProtocolError("expected the greeting 000", self._last)
        if msg.title != self.vocab.title:
            raise ProtocolError(f"this is a {msg.title} server, not {self.vocab.title}", self._last)
        return msg

    def _notify(self, msg: W.Message) -> None:
        if self.on_message is not None:
            self.on_message(msg)

    # ─── applying the server's reports ─────────────────────────────────────────

    def _apply(self, msg: W.Message) -> None:
        handler = _HANDLERS.get(type(msg))
        if handler is None:
            raise ProtocolError(f"unexpected {type(msg).__name__}", self._last)
        handler(self, msg)
        self._notify(msg)

    def _on_role(self, msg: W.Role) -> None:
        if self.started:
            raise ProtocolError("a second role", self._last)
        if msg.side is None:
            if not self.observing:
                raise ProtocolError("a player told to observe", self._last)
        elif self.observing or self._asked not in ("?", self.sides[msg.side]):
            raise ProtocolError(f"asked for {self._asked}, told to play {self.sides[msg.side]}", self._last)
        self.side, self.started = msg.side, True
        if self._seat_times is not None:
            a, b = self._seat_times
            # A player's 101 is (own, opponent); an observer's is (second, first).
            self._times = [float(b), float(a)] if msg.side in (None, Side.SECOND) else [float(a), float(b)]
            self._run(Side.FIRST)

    def _check_ply(self, serial: int, side: Side) -> None:
        if not self.started:
            raise ProtocolError("a move before the game started", self._last)
        if serial != self.serial or side != self.to_move:
            raise ProtocolError(
                f"expected move {self.serial} of {self.sides[self.to_move or 0]}",
                self._last,
            )

    def _play(self, token: str) -> Any:
        """Apply a move the server accepted to our position; the rules' result."""
        action = self.engine.parse_move(token)
        if action is None:
            raise ProtocolError(f"no such move {token!r}", self._last)
        result, after = self.engine.apply(self.state, action)
        if result == R.illegal_move:
            raise ProtocolError(f"the server accepted {token}, which the rules refuse", self._last)
        self.state = after
        self.plies.append(token)
        self.offer, self.offer_refused = None, False
        return result

    def _on_moved(self, msg: W.Moved) -> None:
        self._check_ply(msg.serial, msg.side)
        if self._play(msg.move) != R.not_done:
            raise ProtocolError("the server says the game goes on; the rules say it is over", self._last)
        self._reported(msg.side, msg.secs)
        self._run(msg.side.other)

    def _on_ended(self, msg: W.Ended) -> None:
        self._check_ply(msg.serial, msg.side)
        result = self._play(msg.move)
        if result == R.not_done:
            raise ProtocolError("the server says the game is over; the rules say it goes on", self._last)
        if winner(self.engine, result) != msg.winner:
            raise ProtocolError(f"the rules give {result}", self._last)
        self._end(msg.winner, Termination.MOVE)

    def _end(self, winner: Side | None, termination: Termination) -> None:
        self.result = Result(winner, termination)
        self._stop_clock()
        self.offer = None

    def _on_offer(self, msg: W.DrawOffered) -> None:
        if self.game != "awari" or msg.side != self.to_move or self.offer is not None:
            raise ProtocolError("a draw offer out of turn", self._last)
        self.offer = msg.side
        self._run(msg.side.other)

    def _on_refusal(self, msg: W.DrawRefused) -> None:
        if self.offer != msg.side.other:
            raise ProtocolError("a refusal with no offer to refuse", self._last)
        self.offer, self.offer_refused = None, True
        self._run(msg.side.other)

    def _on_flag(self, msg: W.FlagFell) -> None:
        self._reported(msg.side, 0)
        self._end(msg.side.other, Termination.TIME)

    def _on_display(self, msg: W.DisplayStatus) -> None:
        if msg.times is not None:
            self._times = [float(msg.times[0]), float(msg.times[1])]
            self._since, self._running = time.monotonic(), msg.to_move

    def _on_accepted(self, msg: W.Accepted) -> None:
        if self.side is not None:
            self._reported(self.side, msg.secs)

    def _on_finished(self, msg: W.Finished) -> None:
        """201–203 to the mover come before the status that ends the game; 202
        ``Your time expires`` may also come while we think (the flag timer)."""
        if self.side is None:
            raise ProtocolError("a player's result sent to an observer", self._last)

    def _on_seen(self, msg: W.Message) -> None:
        """Messages with nothing to apply: our own replies, board lines read already."""

    def _reported(self, side: Side, secs: int | None) -> None:
        """The server's figure for ``side``'s time left replaces ours; its clock
        stops, so that the time of the turn just reported is not counted twice."""
        if self._times is None or secs is None:
            return
        if self._running == side:
            self._running = None
        self._times[side] = float(secs)

    def _run(self, side: Side) -> None:
        """``side``'s clock runs from now (the server waits for it)."""
        self._stop_clock()
        self._running, self._since = side, time.monotonic()

    def _stop_clock(self) -> None:
        if self._times is not None and self._running is not None:
            self._times[self._running] = self.time_left(self._running) or 0.0
        self._running = None


_DISPLAYED = (W.Role, W.Moved, W.DrawOffered, W.DrawRefused, *W.FINAL)
"""The messages after which an observer gets the state display (§9)."""

_HANDLERS: dict[type, Callable[[Client, Any], None]] = {
    W.PlayerName: lambda c, m: c.names.__setitem__(m.side, m.name),
    W.ObserverName: lambda c, m: c.observers.__setitem__(m.number, m.name),
    W.ObserverCount: Client._on_seen,
    W.Role: Client._on_role,
    W.Moved: Client._on_moved,
    W.Ended: Client._on_ended,
    W.Resigned: lambda c, m: c._end(m.side.other, Termination.RESIGNATION),
    W.DrawAgreed: lambda c, m: c._end(None, Termination.AGREEMENT),
    W.DrawOffered: Client._on_offer,
    W.DrawRefused: Client._on_refusal,
    W.FlagFell: Client._on_flag,
    W.Disconnected: lambda c, m: c._end(m.side.other, Termination.DISCONNECT),
    W.Aborted: lambda c, m: c._end(None, Termination.ERROR),
    W.DisplayStatus: Client._on_display,
    W.BoardFollows: Client._on_seen,
    W.Accepted: Client._on_accepted,
    W.Finished: Client._on_finished,
    W.Acknowledged: Client._on_seen,
}
"""What each message does to the client's view of the game.  Greetings, seat
replies and refusals are only valid as direct answers, read where they are asked."""


class LineBuffer:
    """Received bytes → response lines.  Lines end with CRLF (a bare LF is taken
    too); they must be ASCII."""

    def __init__(self) -> None:
        self._data = bytearray()

    def feed(self, data: bytes) -> None:
        self._data += data
        if len(self._data) > MAX_LINE and b"\n" not in self._data:
            raise ProtocolError(f"a response line longer than {MAX_LINE} bytes", self._data[:80].decode("latin-1"))

    def has_line(self) -> bool:
        return b"\n" in self._data

    def pop(self) -> str | None:
        """The next complete line without its terminator, or None."""
        end = self._data.find(b"\n")
        if end < 0:
            return None
        raw = bytes(self._data[:end]).removesuffix(b"\r")
        del self._data[: end + 1]
        try:
            return raw.decode("ascii")
        except UnicodeDecodeError:
            raise ProtocolError("a response line that is not ASCII", raw.decode("latin-1")) from None
