"""A blocking client for the referee servers of both games, as a player or an
observer (docs/protocol.md).

The client's half of the protocol is its follower (impl/client/follower.py,
sans I/O): the client reads lines from its socket and feeds them to it, and tells
it each request it sends.  Every status line (31x/32x, 327–334, 36x, 39x) is
applied to the follower's own copy of the position on the fast engine, so a
player can ask for ``state``, ``legal_moves()``, ``serial`` and ``my_turn`` at any
time, and an impossible report is a ProtocolError.  It adds the full-move numbers
and the ``...`` itself: callers send bare moves (``c3``, ``F``).

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

import os
import select
import socket
import time
from collections.abc import Callable
from contextlib import suppress
from types import TracebackType

from impl import protocol as P
from impl.engines.port import GameEngine, GameState
from impl.game import Outcome, Side

from .errors import ClientError, ClientTimeout, ConnectionLost, MoveRefused, NotPlaying, ProtocolError, SeatRefused
from .follower import Follower, Next, View

Result = Outcome
"""The end of a game as the client saw it (impl/game.py): the winning side (None
for a draw or an aborted game) and how it ended.  A 399 is ``error``: the client
cannot tell a failed referee from a stopped server."""

MAX_LINE = 64 * 1024
"""Longest response line we accept: far beyond anything the server sends."""


class ConnectFailed(ConnectionLost):
    """No connection could be made to the server."""


REPLY_TIMEOUT = 30.0
"""Seconds a request the server answers at once (the greeting, a seat request) is
waited for at most."""


class Client:
    """One connection to a referee server for ``game`` (awari | gothello)."""

    def __init__(
        self,
        sock: socket.socket,
        game: str,
        *,
        timeout: float | None = None,
        on_message: Callable[[P.Message], None] | None = None,
        rules: str | None = None,
    ) -> None:
        """Wrap a connected socket and read the greeting (Table 1).  ``timeout``:
        the longest wait for any server line (None: no limit, as a person may
        think for long); ``on_message`` sees every message once it is applied.
        ``rules``: the Awari rule set expected (ProtocolError if the server
        announces another); None: whichever the server announces."""
        if game not in P.VOCABULARIES:
            raise ValueError(f"unknown game {game!r}: awari or gothello")
        self.sock, self.game, self.timeout, self.on_message = sock, game, timeout, on_message
        self.vocab = P.VOCABULARIES[game]
        self.sides: tuple[str, str] = self.vocab.sides
        self.follower = Follower(game, rules=rules)
        """The game as the server's lines report it (impl/client/follower.py)."""
        self._buffer = LineBuffer()
        self._eof = False
        self._next(self.timeout if self.timeout is not None else REPLY_TIMEOUT)
        greeting = self.view.greeting
        assert greeting is not None
        self.greeting: P.Greeting = greeting
        self.rules = self.view.rules
        """The rule set the server announced, by its canonical name (``paper`` when it
        announces none; spec/awari_rules.py ``canonical_name``)."""

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
        on_message: Callable[[P.Message], None] | None = None,
        rules: str | None = None,
    ) -> Client:
        """Connect to server number ``server`` of ``game`` on ``host`` (port 29046+n
        for Awari, 29068+n for Gothello), or to ``port`` if given."""
        port = P.port_of(game, server) if port is None else port
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

    # ─── what the game looks like: the follower's view ─────────────────────────

    @property
    def view(self) -> View:
        return self.follower.view

    @property
    def engine(self) -> GameEngine:
        return self.follower.engine

    @property
    def state(self) -> GameState:
        """Our copy of the position.  NotPlaying for an observer that joined a game
        under way: it cannot know the moves before it joined."""
        position = self.view.position
        if position is None:
            raise NotPlaying("joined a game under way: the server's display is the position")
        return position

    @property
    def plies(self) -> list[str]:
        """The accepted moves so far, as tokens (``c3``, ``pass``, ``F``)."""
        return list(self.view.plies)

    @property
    def side(self) -> Side | None:
        """Our side once known (0 first player, 1 second); None for an observer."""
        return self.view.side

    @property
    def observing(self) -> bool:
        return self.view.observing

    @property
    def started(self) -> bool:
        return self.view.started

    @property
    def result(self) -> Result | None:
        return self.view.result

    @property
    def names(self) -> list[str]:
        """The players' names, first player first, from 341/342 when the server sends them."""
        return list(self.view.names)

    @property
    def observers(self) -> dict[int, str]:
        return dict(self.view.observers)

    @property
    def offer(self) -> Side | None:
        """The side whose Awari draw offer awaits an answer."""
        return self.view.offer

    @property
    def offer_refused(self) -> bool:
        """A draw offer was refused since the last move: no new offer until the next move."""
        return self.view.offer_refused

    @property
    def board(self) -> list[str]:
        """The last 382 board lines (observers)."""
        return list(self.view.board)

    @property
    def over(self) -> bool:
        return self.view.over

    @property
    def serial(self) -> int:
        """The full-move number the next move carries (both players' k-th moves carry k)."""
        return self.view.serial

    @property
    def to_move(self) -> Side | None:
        """The side the rules say is to move; None before the start and once over."""
        return self.view.to_move if self.view.started and not self.over else None

    @property
    def my_turn(self) -> bool:
        """We may move (or offer a draw): our turn, no draw offer outstanding, and
        the referee's opening (announced in the greeting) all read."""
        return self.view.my_turn

    @property
    def must_answer_draw(self) -> bool:
        """The opponent offered a draw: answer with ``answer_draw``."""
        return self.view.must_answer_draw

    def legal_moves(self) -> tuple[str, ...]:
        """The moves the rules allow the side to move, in the server's notation."""
        if self.to_move is None or self.view.position is None:
            return ()
        return tuple(self.engine.format_move(m) for m in self.engine.legal_moves(self.view.position))

    def counts(self) -> tuple[int, int]:
        """Stores (Awari) or stones on the board (Gothello), first player first."""
        return self.engine.counts(self.state)

    def render(self) -> list[str]:
        """Our position as the engine draws it (impl/engines/notation.py)."""
        lines: list[str] = self.engine.render(self.state)
        return lines

    @property
    def timed(self) -> bool:
        return self.view.times is not None

    def time_left(self, side: int) -> float | None:
        """``side``'s seconds left now as last reported by the server, counting down
        while its clock runs; None without time controls."""
        return self.view.time_left(Side(side), time.monotonic())

    # ─── seating (Tables 2–5) ──────────────────────────────────────────────────

    def seat(self, side: str = "?", name: str = "") -> None:
        """Ask to play ``side`` (south/north, black/white) or ``?`` for either, as
        ``name`` — or, with none, in a program that ``referee match`` or ``tournament``
        launched, as the seat's token it was handed (``seat_token``).  With ``REFEREE_LOGIN``
        set (``name:password``), that is sent instead: an arena's login (docs/arena.md).
        The game starts when both seats are taken; ``wait()`` reads the role.  SeatRefused
        on 191/192/198/199."""
        seats = {"?": P.Seat.EITHER, self.sides[0]: P.Seat.FIRST, self.sides[1]: P.Seat.SECOND}
        if side not in seats:
            raise ValueError(f"{self.game} sides are {self.sides[0]}, {self.sides[1]} or ?")
        login = os.environ.get(LOGIN, "")
        if login:
            self._seat(P.SeatRequest(seats[side], login, name_max=P.LOGIN_MAX))
            return
        self._seat(P.SeatRequest(seats[side], name or seat_token() or ""))

    def observe(self, name: str = "") -> None:
        """Observe the game (SeatRefused on 193 when there are too many observers)."""
        self._seat(P.SeatRequest(P.Seat.OBSERVER, name))

    def _seat(self, seat: P.SeatRequest) -> None:
        if self.view.asked is not None and self.view.refused is None:
            raise ClientError("already seated")
        request = self.follower.seat(seat)
        self._send(request)
        # A seat request is answered at once (Table 2): a silent server is not waited for.
        msg = self._next(REPLY_TIMEOUT if self.timeout is None else min(self.timeout, REPLY_TIMEOUT))
        refused = self.view.refused
        if refused is not None:
            raise SeatRefused(refused.code, refused.text, request)
        assert isinstance(msg, P.Seated)

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

    def next_message(self, timeout: float | None = None) -> P.Message:
        """Read and apply one message, with an observer's display and board lines
        after it (§9).  ``timeout`` overrides the client's for this read."""
        msg = None
        while msg is None:  # a board line left by an interrupted read is skipped
            msg = self._next(self.timeout if timeout is None else timeout)
        while self.view.next in (Next.DISPLAY, Next.BOARD, Next.BOARD_LINE):
            self._next()
        return msg

    def has_pending(self) -> bool:
        """A complete line is already buffered."""
        return self._buffer.has_line()

    def poll(self) -> list[P.Message]:
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
        self._act(P.Action.move(self.serial, self._player_side(), token))

    def pass_(self) -> None:
        """Gothello: pass."""
        self.move("pass")

    def resign(self) -> None:
        """Resign (204, then 327/328); possible at any time during the game."""
        self._act(P.Action(P.Kind.RESIGN))

    def offer_draw(self) -> None:
        """Awari: offer a draw on our turn (205, 331/332); ``wait()`` then reads the
        answer: 329 ends the game drawn, 333/334 gives us the move again."""
        self._act(P.Action(P.Kind.DRAW_OFFER))

    def answer_draw(self, accept: bool) -> None:
        """Awari: accept (203, 329) or refuse (206, 333/334) the opponent's offer."""
        self._act(P.Action(P.Kind.DRAW_ACCEPT if accept else P.Kind.DRAW_REFUSE))

    def _player_side(self) -> Side:
        if self.side is None:
            raise NotPlaying("observers may not act" if self.observing else "the game has not started")
        return self.side

    def _act(self, action: P.Action) -> None:
        """Send a request in play, and read until the follower has its answer: the
        reply to us and the status everyone gets (§7: 20x then 31x/32x; §8:
        204/205/206 then 32x/33x), a refusal, or the end of the game."""
        self._player_side()
        request = action.to_line(self.vocab)
        if self.over:
            raise NotPlaying(f"the game is over ({self.describe_result()}): cannot send {request!r}")
        self.poll()  # whatever has arrived: the game may have ended meanwhile
        if self.over:
            return
        self._send(self.follower.act(action))
        while self.view.pending is not None:
            self._next()
            refused = self.view.refused
            if refused is not None:
                raise MoveRefused(refused.code, refused.text, request)

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
        return line

    def _next(self, timeout: float | None = None) -> P.Message | None:
        """Read one line and feed it to the follower: its message (None for a board
        line), which ``on_message`` then sees."""
        line = self._line(self.timeout if timeout is None else timeout)
        msg = self.follower.feed(line, time.monotonic()).message
        if msg is not None and self.on_message is not None and not isinstance(msg, P.Greeting):
            self.on_message(msg)
        return msg


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


LOGIN = "REFEREE_LOGIN"
"""The environment variable of an arena login, ``name:password``, sent as the name."""
TOKEN_FD = "REFEREE_TOKEN_FD"
"""The environment variable that names the descriptor a launched program's seat
token is read from (impl/apps/launch.py)."""
_TOKEN: list[str | None] = []


def seat_token() -> str | None:
    """The seat's token that ``referee match`` or ``tournament`` handed this process on
    the descriptor ``REFEREE_TOKEN_FD`` names (one line, read once, the descriptor then
    closed), None when there is none.  Sent as the player's name, it proves the seat
    is this program's (docs/writing-a-player.md)."""
    if not _TOKEN:
        _TOKEN.append(_read_token(os.environ.get(TOKEN_FD, "")))
    return _TOKEN[0]


def _read_token(named: str) -> str | None:
    if not named.isdigit():
        return None
    fd = int(named)
    try:
        raw = os.read(fd, 64)
    except OSError:
        return None
    finally:
        with suppress(OSError):
            os.close(fd)
    token = raw.decode("ascii", "replace").strip()
    return token if token.isalnum() else None
