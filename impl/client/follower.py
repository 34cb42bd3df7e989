"""One game's messages followed as a client sees them, sans I/O: feed it each line
the server sends, tell it each request sent, and read its ``View``.

The follower owns the client's half of the protocol (docs/protocol.md): what may
come next (the greeting; after a seat request its answer, §5; the configuration
lines and the role, §6; after a reply to our request the status everyone gets,
§7–§8; an observer's display and board lines after every status, §9), the game as
reported (every status line applied to its own position on the fast engine, so an
impossible report is a ProtocolError), and the clocks.  It never reads a socket or
a clock: ``feed`` takes the time ``now`` of the line's arrival from its caller.
``impl.client.Client`` reads lines from its socket into one, and ``referee watch``
(impl/apps/watch.py) draws from one; the tests feed it transcripts.

An observer that joins a game under way cannot know the moves before it joined:
its follower is then ``late``, has no position (the display is the authority),
and counts the serial from the displays."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from enum import Enum
from typing import Any

from impl import protocol as P
from impl.engines.port import GameEngine, GameState, side_to_move, winner
from impl.engines.registry import get_engine
from impl.game import PAPER_RULES, Outcome, Side, Termination, rules_name
from spec import result as R

from .errors import ProtocolError


class Phase(Enum):
    """Where the connection is, as the client sees it (the server's ``Conn``,
    impl/server/session.py, with the two waits a client has of its own)."""

    GREETING = "greeting"
    """Connected: the greeting (000) comes first."""
    INITIAL = "initial"
    """Greeted: the server says nothing until we ask for a seat."""
    SEATING = "seating"
    """A seat request sent: 100/101 or a 19x comes."""
    SEATED = "seated"
    """Seated: 34x, then our role (351–353)."""
    PLAYING = "playing"
    """A player in the game."""
    OBSERVER = "observer"
    """An observer in the game."""
    DONE = "done"
    """The final status has come: the server closes the connection."""


class Next(Enum):
    """What the next line must be, within the game."""

    ANY = "any message"
    DISPLAY = "the display (380/381)"
    BOARD = "the board (382)"
    BOARD_LINE = "a board line"
    STATUS = "the status after the reply"


@dataclass(frozen=True)
class View:
    """Everything the messages so far say about the game, to this client."""

    game: str
    phase: Phase = Phase.GREETING
    greeting: P.Greeting | None = None
    rules: str = PAPER_RULES
    """The rule set the server announced, canonical (``paper``: none announced)."""
    asked: P.SeatRequest | None = None
    """Our seat request, once sent."""
    started: bool = False
    """Our role has come: the game has begun."""
    side: Side | None = None
    """Our side once the role has come; None for an observer."""
    names: tuple[str, str] = ("", "")
    """The players' names, first player first, from 341/342."""
    observers: tuple[tuple[int, str], ...] = ()
    """343's observers, by number."""
    plies: tuple[str, ...] = ()
    """The moves reported (for a late observer, since it joined)."""
    position: GameState | None = None
    """Our copy of the position; None before the greeting and for a late observer."""
    late: bool = False
    """An observer that joined a game under way."""
    to_move: Side | None = None
    """The side to move; None before the start and once over."""
    offer: Side | None = None
    """The side whose Awari draw offer awaits an answer."""
    offer_refused: bool = False
    """A draw offer was refused since the last move."""
    display: P.DisplayStatus | None = None
    """The last 380/381 (observers)."""
    board: tuple[str, ...] = ()
    """The last 382's board lines (observers; filling while ``next`` is BOARD_LINE)."""
    boards: int = 0
    """How many boards have come: a drawing client draws when it grows."""
    seat_times: tuple[int, int] | None = None
    """101's two numbers as sent."""
    times: tuple[float, float] | None = None
    """Each side's seconds left when last reported, first player first; None without clocks."""
    running: Side | None = None
    """The side whose clock runs (the server waits for it), since ``since``."""
    since: float = 0.0
    result: Outcome | None = None
    final: str = ""
    """The final status line, as sent."""
    pending: P.Action | None = None
    """Our request in play, until its answer and the status after it have come."""
    refused: P.Refused | None = None
    """The refusal of our last request, if it was refused (19x, 29x)."""
    next: Next = Next.ANY
    board_left: int = 0
    message: P.Message | None = None
    """The message of the last line fed; None for a board line."""
    line: str = ""
    """The last line fed, without its terminator."""

    @property
    def over(self) -> bool:
        return self.result is not None

    @property
    def observing(self) -> bool:
        """Seated as an observer (100/101 came for an ``observer`` request)."""
        seated = self.phase not in (Phase.GREETING, Phase.INITIAL, Phase.SEATING)
        return seated and self.asked is not None and self.asked.seat is P.Seat.OBSERVER

    @property
    def serial(self) -> int:
        """The full-move number the next move carries (both players' k-th moves carry k)."""
        if self.late and self.display is not None:
            return self.display.serial
        return len(self.plies) // 2 + 1

    @property
    def my_turn(self) -> bool:
        """We may move or offer a draw: our turn, no offer outstanding, the opening read."""
        opening = self.greeting.opening if self.greeting is not None else 0
        return (
            self.side is not None
            and self.offer is None
            and self.to_move == self.side
            and self.next is Next.ANY
            and len(self.plies) >= opening
        )

    @property
    def must_answer_draw(self) -> bool:
        return self.side is not None and not self.over and self.offer == self.side.other

    def time_left(self, side: Side, now: float) -> float | None:
        """``side``'s seconds left at ``now`` as last reported, counting down while
        its clock runs; None without time controls."""
        if self.times is None:
            return None
        running = now - self.since if self.running == side else 0.0
        return max(0.0, self.times[side] - running)


_DISPLAYED = (P.Role, P.Moved, P.DrawOffered, P.DrawRefused, *P.FINAL)
"""The messages after which an observer gets the state display (§9)."""

_REPLIES: dict[type, tuple[type, ...]] = {
    P.Accepted: (P.Moved,),
    P.Finished: (P.Ended, P.FlagFell, P.DrawAgreed),
    P.Acknowledged: (P.Resigned, P.DrawOffered, P.DrawRefused),
}
"""A reply to the requester, and the status lines that may follow it (§7, §8)."""


class Follower:
    """A client's view of one game, advanced line by line."""

    def __init__(self, game: str, *, rules: str | None = None, engine: str = "impl") -> None:
        """``rules``: the Awari rule set expected (a ProtocolError if the server
        announces another); None: whichever it announces.  ``engine``: the
        engine kind that keeps the position (impl/engines/registry.py)."""
        if game not in P.VOCABULARIES:
            raise ValueError(f"unknown game {game!r}: awari or gothello")
        self.vocab = P.VOCABULARIES[game]
        self._expected_rules = None if rules is None else rules_name(game, rules)
        self._engine_kind = engine
        self.engine: GameEngine = get_engine(game, engine)
        self.view = View(game)
        self._status_after: tuple[type, ...] = ()
        self._reply = ""
        """The statuses that may follow the reply just read, and its name."""

    # ─── our requests ──────────────────────────────────────────────────────────

    def seat(self, request: P.SeatRequest) -> str:
        """We send ``request``: the line to send.  ProtocolError unless greeted and unseated."""
        if self.view.phase is not Phase.INITIAL:
            raise ProtocolError(f"a seat request in the {self.view.phase.value} phase")
        self.view = replace(self.view, phase=Phase.SEATING, asked=request, refused=None)
        return request.to_line(self.vocab)

    def act(self, action: P.Action) -> str:
        """We send ``action`` in play: the line to send."""
        if self.view.phase is not Phase.PLAYING or self.view.pending is not None:
            raise ProtocolError(f"a request in the {self.view.phase.value} phase")
        self.view = replace(self.view, pending=action, refused=None)
        return action.to_line(self.vocab)

    # ─── the server's lines ────────────────────────────────────────────────────

    def feed(self, line: bytes | str, now: float = 0.0) -> View:
        """Apply one line the server sent (its CRLF or LF may be left on), which
        arrived at ``now`` (seconds of the caller's monotonic clock); the view
        after it.  ProtocolError if the protocol does not allow it here."""
        if isinstance(line, bytes):
            try:
                line = line.decode("ascii")
            except UnicodeDecodeError:
                raise ProtocolError("a response line that is not ASCII", repr(line)) from None
        text = line.removesuffix("\n").removesuffix("\r")
        view = self.view
        if view.next is Next.BOARD_LINE:
            done = view.board_left == 1
            if done and (problem := P.board_problem(self.vocab.game, (*view.board, text))) is not None:
                raise ProtocolError(problem, text)
            self.view = replace(
                view,
                line=text,
                message=None,
                board_left=view.board_left - 1,
                board=(*view.board, text),
                next=Next.ANY if done else Next.BOARD_LINE,
                boards=view.boards + done,
            )
            if done:
                self._check_late()
            return self.view
        try:
            msg = P.parse(text)
        except P.ProtocolError as exc:
            raise ProtocolError(exc.problem, exc.line) from None
        self.view = replace(view, line=text, message=msg)
        self._apply(msg, now)
        return self.view

    def _fail(self, problem: str) -> ProtocolError:
        return ProtocolError(problem, self.view.line)

    def _apply(self, msg: P.Message, now: float) -> None:
        view = self.view
        if view.phase is Phase.GREETING:
            self._on_greeting(msg)
            return
        if view.phase is Phase.SEATING:
            self._on_seat_reply(msg)
            return
        if view.phase is Phase.INITIAL:
            raise self._fail(f"unexpected {type(msg).__name__} before a seat request")
        if view.next is Next.DISPLAY and not isinstance(msg, P.DisplayStatus):
            raise self._fail("expected the display (380/381)")
        if view.next is Next.BOARD and not isinstance(msg, P.BoardFollows):
            raise self._fail("expected the board (382)")
        if view.next is Next.STATUS and not isinstance(msg, self._status_after):
            raise self._fail(f"expected the status after {self._reply}")
        handler = _HANDLERS.get(type(msg))
        if handler is None:
            raise self._fail(f"unexpected {type(msg).__name__}")
        handler(self, msg, now)
        if self.view.observing and isinstance(msg, _DISPLAYED):
            self.view = replace(self.view, next=Next.DISPLAY)

    def _on_greeting(self, msg: P.Message) -> None:
        if not isinstance(msg, P.Greeting):
            raise self._fail("expected the greeting 000")
        if msg.title != self.vocab.title:
            raise self._fail(f"this is a {msg.title} server, not {self.vocab.title}")
        try:
            self.engine = get_engine(self.vocab.game, self._engine_kind, msg.rules)
        except ValueError as exc:  # RulesError, or another set than the paper's for Gothello
            raise self._fail(str(exc)) from None
        announced = self.engine.rule_set
        if self._expected_rules is not None and self._expected_rules != announced:
            raise self._fail(f"this server plays the {announced} rules, not {self._expected_rules}")
        self.view = replace(
            self.view, phase=Phase.INITIAL, greeting=msg, rules=announced, position=self.engine.initial()
        )

    def _on_seat_reply(self, msg: P.Message) -> None:
        if isinstance(msg, P.Refused):
            self.view = replace(self.view, phase=Phase.INITIAL, refused=msg)
        elif isinstance(msg, P.Seated):
            self.view = replace(self.view, phase=Phase.SEATED, seat_times=msg.times)
        else:
            raise self._fail("expected 100 or 101")

    # ─── the game as reported ──────────────────────────────────────────────────

    def _on_names(self, msg: P.PlayerName | P.ObserverName, now: float) -> None:
        view = self.view
        if isinstance(msg, P.PlayerName):
            names = list(view.names)
            names[msg.side] = msg.name
            self.view = replace(view, names=(names[0], names[1]))
        else:
            self.view = replace(view, observers=(*view.observers, (msg.number, msg.name)))

    def _on_role(self, msg: P.Role, now: float) -> None:
        view = self.view
        if view.phase is not Phase.SEATED:
            raise self._fail(
                "a second role" if view.phase in (Phase.PLAYING, Phase.OBSERVER) else "a role before seating"
            )
        asked = view.asked
        assert asked is not None
        if msg.side is None:
            if not view.observing:
                raise self._fail("a player told to observe")
        elif view.observing or asked.seat not in (P.Seat.EITHER, P.Seat(msg.side.value)):
            wanted = "?" if asked.seat is P.Seat.EITHER else self.vocab.sides[asked.seat.value]
            raise self._fail(f"asked for {wanted}, told to play {self.vocab.sides[msg.side]}")
        times: tuple[float, float] | None = None
        if view.seat_times is not None:
            a, b = (float(t) for t in view.seat_times)
            # A player's 101 is (own, opponent); an observer's is (second, first).
            times = (b, a) if msg.side in (None, Side.SECOND) else (a, b)
        self.view = replace(
            view,
            phase=Phase.OBSERVER if msg.side is None else Phase.PLAYING,
            side=msg.side,
            started=True,
            to_move=self._mover(view.position),
            times=times,
        )
        self._run(Side.FIRST, now)

    def _mover(self, position: GameState | None) -> Side | None:
        return None if position is None else side_to_move(self.engine, position)

    def _check_ply(self, serial: int, side: Side) -> None:
        view = self.view
        if view.phase not in (Phase.PLAYING, Phase.OBSERVER):
            raise self._fail("a move before the game started")
        if view.late:
            return
        if serial != view.serial or side != view.to_move:
            raise self._fail(f"expected move {view.serial} of {self.vocab.sides[view.to_move or 0]}")

    def _play(self, token: str) -> Any:
        """Apply a move the server accepted to our position; the rules' result."""
        view = self.view
        result: Any = None
        position = view.position
        if not view.late:
            assert position is not None
            action = self.engine.parse_move(token)
            if action is None:
                raise self._fail(f"no such move {token!r}")
            result, position = self.engine.apply(position, action)
            if result == R.illegal_move:
                raise self._fail(f"the server accepted {token}, which the rules refuse")
        self.view = replace(
            view,
            position=position,
            plies=(*view.plies, token),
            offer=None,
            offer_refused=False,
            to_move=self._mover(position) if not view.late else None,
        )
        return result

    def _on_moved(self, msg: P.Moved, now: float) -> None:
        self._check_ply(msg.serial, msg.side)
        if self._play(msg.move) not in (R.not_done, None):
            raise self._fail("the server says the game goes on; the rules say it is over")
        self._reported(msg.side, msg.secs)
        self._run(msg.side.other, now)
        self._answered(msg)

    def _on_ended(self, msg: P.Ended, now: float) -> None:
        self._check_ply(msg.serial, msg.side)
        result = self._play(msg.move)
        if result is not None:
            if result == R.not_done:
                raise self._fail("the server says the game is over; the rules say it goes on")
            if winner(self.engine, result) != msg.winner:
                raise self._fail(f"the rules give {result}")
        self._end(msg.winner, Termination.MOVE, now)

    def _on_offer(self, msg: P.DrawOffered, now: float) -> None:
        view = self.view
        if not self.vocab.has_draw_offers or view.offer is not None or (not view.late and msg.side != view.to_move):
            raise self._fail("a draw offer out of turn")
        self.view = replace(view, offer=msg.side)
        self._run(msg.side.other, now)
        self._answered(msg)

    def _on_refusal(self, msg: P.DrawRefused, now: float) -> None:
        view = self.view
        if view.offer != msg.side.other and not view.late:
            raise self._fail("a refusal with no offer to refuse")
        self.view = replace(view, offer=None, offer_refused=True)
        self._run(msg.side.other, now)
        self._answered(msg)

    def _on_flag(self, msg: P.FlagFell, now: float) -> None:
        self._reported(msg.side, 0)
        self._end(msg.side.other, Termination.TIME, now)

    def _on_display(self, msg: P.DisplayStatus, now: float) -> None:
        view = self.view
        if not view.observing:
            raise self._fail("a display sent to a player")
        if view.late:  # no position of its own: the display says who moves
            view = replace(view, to_move=msg.to_move)
        if msg.times is not None:
            times = (float(msg.times[0]), float(msg.times[1]))
            self.view = replace(view, display=msg, times=times, running=msg.to_move, since=now, next=Next.BOARD)
        else:
            self.view = replace(view, display=msg, next=Next.BOARD)

    def _on_board(self, msg: P.BoardFollows, now: float) -> None:
        if self.view.next is not Next.BOARD:
            raise self._fail("a board without its display")
        if msg.lines == 0 and (problem := P.board_problem(self.vocab.game, ())) is not None:
            raise self._fail(problem)
        self.view = replace(
            self.view,
            next=Next.BOARD_LINE if msg.lines else Next.ANY,
            board=(),
            board_left=msg.lines,
            boards=self.view.boards + (msg.lines == 0),
        )

    def _check_late(self) -> None:
        """An observer's first board: a game under way if it is not the initial position."""
        view = self.view
        if view.boards != 1 or view.position is None or view.display is None:
            return
        initial = view.display.serial == 1 and view.display.to_move is Side.FIRST and not view.plies
        if not initial or list(view.board) != self.engine.render(view.position):
            self.view = replace(view, late=True, position=None, to_move=view.display.to_move)

    def _on_reply(self, msg: P.Accepted | P.Finished | P.Acknowledged, now: float) -> None:
        """Our request's answer (Table 8, §8); 202 ``Your time expires`` also comes unasked."""
        view = self.view
        if view.side is None:
            raise self._fail(f"a player's reply ({type(msg).__name__}) sent to an observer")
        if view.pending is None and not isinstance(msg, P.Finished):
            raise self._fail(f"unexpected {type(msg).__name__}")
        if isinstance(msg, P.Accepted):
            self._reported(view.side, msg.secs)
        self._status_after, self._reply = _REPLIES[type(msg)], type(msg).__name__
        self.view = replace(self.view, next=Next.STATUS)

    def _on_refused(self, msg: P.Refused, now: float) -> None:
        if self.view.pending is None:
            raise self._fail("unexpected Refused")
        self.view = replace(self.view, pending=None, refused=msg)

    def _answered(self, msg: P.Message) -> None:
        """A status line: if it followed our reply, our request is answered."""
        if self.view.next is Next.STATUS:
            self.view = replace(self.view, next=Next.ANY, pending=None)

    def _end(self, won: Side | None, termination: Termination, now: float) -> None:
        self._stop_clock(now)
        msg = self.view.message
        self.view = replace(
            self.view,
            result=Outcome(won, termination),
            final=self.view.line if msg is not None else "",
            phase=Phase.DONE,
            offer=None,
            to_move=None,
            pending=None,
            next=Next.ANY,
        )

    # ─── clocks ────────────────────────────────────────────────────────────────

    def _reported(self, side: Side, secs: int | None) -> None:
        """The server's figure for ``side``'s time left replaces ours; its clock
        stops, so that the time of the turn just reported is not counted twice."""
        view = self.view
        if view.times is None or secs is None:
            return
        times = list(view.times)
        times[side] = float(secs)
        running = None if view.running == side else view.running
        self.view = replace(view, times=(times[0], times[1]), running=running)

    def _run(self, side: Side, now: float) -> None:
        """``side``'s clock runs from ``now`` (the server waits for it)."""
        self._stop_clock(now)
        if self.view.times is not None:
            self.view = replace(self.view, running=side, since=now)

    def _stop_clock(self, now: float) -> None:
        view = self.view
        if view.times is not None and view.running is not None:
            times = list(view.times)
            times[view.running] = view.time_left(view.running, now) or 0.0
            self.view = replace(view, times=(times[0], times[1]), running=None)


def _noted(f: Follower, msg: P.Message, now: float) -> None:
    """Messages with nothing to apply (344: the observers are counted by 343)."""


_HANDLERS: dict[type, Callable[[Follower, Any, float], None]] = {
    P.PlayerName: Follower._on_names,
    P.ObserverName: Follower._on_names,
    P.ObserverCount: _noted,
    P.Role: Follower._on_role,
    P.Moved: Follower._on_moved,
    P.Ended: Follower._on_ended,
    P.Resigned: lambda f, m, now: f._end(m.side.other, Termination.RESIGNATION, now),
    P.DrawAgreed: lambda f, m, now: f._end(None, Termination.AGREEMENT, now),
    P.DrawOffered: Follower._on_offer,
    P.DrawRefused: Follower._on_refusal,
    P.FlagFell: Follower._on_flag,
    P.Disconnected: lambda f, m, now: f._end(m.side.other, Termination.DISCONNECT, now),
    P.Aborted: lambda f, m, now: f._end(None, m.termination, now),
    P.DisplayStatus: Follower._on_display,
    P.BoardFollows: Follower._on_board,
    P.Accepted: Follower._on_reply,
    P.Finished: Follower._on_reply,
    P.Acknowledged: Follower._on_reply,
    P.Refused: Follower._on_refused,
}
"""What each message in the game does to the view.  Greetings and seat replies
are valid only where they are awaited (``_apply``)."""
