"""The referee protocol of both papers (section 2: Tables 1–9, and Gothello's Table 10),
as an executable model: the connection states, the requests, the responses with their
codes and texts, as data, and the referee as a pure state machine over them.

Bart Massey's *A Networked Awari Referee* and *A Networked Gothello Referee* number their
tables alike: Table 1 the greeting, 2 the seat request, 3 its responses, 4 the
configuration messages, 5 the roles, 6 and 7 the requests in play, 8 their responses to
the mover, 9 the status messages to everyone, (Gothello) 10 the observers' display.
Where the papers are silent this model says what docs/protocol.md decided, and where the
papers and the server part, spec/errata.py records it (its protocol errata).

The machine is ``Referee``: a frozen value.  Its inputs are ``join`` (a connection
opens), ``receive`` (a request line), ``refuse_line`` (a line the framing refused:
too long, not ASCII, too slow), ``leave`` (the connection closed) and the
``timeouts`` (a flag falls, a seat or idle bound expires, the referee aborts); each
returns the possible outcomes — a new ``Referee`` and the lines sent, in order, each
to one connection (``Out``).  More than one outcome means the papers leave a choice
(``player ?`` draws a side).  Seconds on the wire are modelled only as far as
the referee's own clock is not (its stalls and the lines' arrival decide what a
turn costs): they show as ``SECS`` in the expected lines, any number there, and
a mover's time left as ``secs_upto``, a number no greater than its clock could
hold had every turn cost nothing (``remaining``: Fischer increments included).

The rules of the game itself come in through ``Rules``: the model asks it the initial
position, whose turn it is, whether a token names a move and what a move does.  The
spec's own engines, and the fast ones, both fit it (impl/server/transcript.py).

Nothing here imports impl/: the server (impl/server/session.py) is checked against
this model (tests/server/test_protocol_model.py), never the other way round.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Any, Final, Protocol

from .contracts import ensure, require

# ─── The games' words (section 2's port tables, Tables 2, 5, 9, 10) ───────────


@dataclass(frozen=True)
class Words:
    """What differs between the two papers' protocols."""

    game: str
    title: str
    sides: tuple[str, str]
    """First mover first: south/north, black/white."""
    letters: tuple[str, str]
    """Table 10's <to-move> letters."""
    has_pass: bool
    has_draw_offers: bool

    def cap(self, side: int) -> str:
        return self.sides[side].capitalize()


AWARI: Final = Words("awari", "Awari", ("south", "north"), ("s", "n"), False, True)
GOTHELLO: Final = Words("gothello", "Gothello", ("black", "white"), ("b", "w"), True, False)
WORDS: Final = {w.game: w for w in (AWARI, GOTHELLO)}

VERSION: Final = (0, 9, 1)
VERSION_TEXT: Final = "0.9.1"
NAME_MAX: Final = 31
"""Table 2's <optional-name>: at most 31 characters, counted after unescaping."""

FIRST, SECOND = 0, 1


# ─── Connection states, requests, triggers (the papers' cstate; §3) ──────────


class State(Enum):
    """A connection's state: the papers' ``cstate`` (initial | seated | playing |
    done), an observer's seated and playing made one state (errata A23, G29)."""

    INITIAL = "initial"
    SEATED = "seated"
    OBSERVER = "observer"
    PLAYING = "playing"
    DONE = "done"


class Request(Enum):
    """What a line is, in the state of the connection that sent it."""

    BAD_LINE = "bad line"
    SEAT = "seat"
    BAD_SEAT = "bad seat"
    MOVE = "move"
    RESIGN = "resign"
    DRAW_OFFER = "draw?"
    DRAW_ANSWER = "draw/nodraw"
    GARBLED = "garbled"
    SEAT_AGAIN = "seat again"


class Trigger(Enum):
    """A state change no request of the connection makes."""

    START = "game starts"
    END = "game over"
    CLOSE = "closed"


@dataclass(frozen=True)
class Row:
    """One row of the transition table: a request in a state, the codes its sender
    may get (the first line it gets), the states it may then be in, and the paper's
    table the row comes from."""

    state: State
    request: Request
    codes: frozenset[int]
    next: frozenset[State]
    table: str
    refusal: str | None = None
    """The text of the refusal, when the row is a fixed refusal."""


def _row(
    state: State, request: Request, codes: set[int], nxt: set[State], table: str, refusal: str | None = None
) -> Row:
    return Row(state, request, frozenset(codes), frozenset(nxt), table, refusal)


_S = State
_R = Request
NOT_STARTED: Final = "The game has not started"
OBSERVERS_MAY_NOT_ACT: Final = "Observers may not act"
ALREADY_SEATED: Final = "Request not understood (already seated)"
_ACTIONS: Final = (_R.MOVE, _R.RESIGN, _R.DRAW_OFFER, _R.DRAW_ANSWER)
_SEAT_CODES: Final = {100, 101, 191, 192, 193, 198, 199}

ROWS: Final[tuple[Row, ...]] = (
    _row(_S.INITIAL, _R.BAD_LINE, {199}, {_S.INITIAL}, "§2 lines"),
    _row(_S.INITIAL, _R.BAD_SEAT, {198, 199}, {_S.INITIAL}, "Table 3"),
    _row(_S.INITIAL, _R.SEAT, _SEAT_CODES, {_S.INITIAL, _S.SEATED, _S.OBSERVER}, "Tables 2, 3"),
    *(
        r
        for state, refusal in ((_S.SEATED, NOT_STARTED), (_S.OBSERVER, OBSERVERS_MAY_NOT_ACT))
        for r in (
            _row(state, _R.BAD_LINE, {299}, {state}, "§2 lines"),
            _row(state, _R.GARBLED, {299}, {state}, "Table 8"),
            _row(state, _R.SEAT_AGAIN, {299}, {state}, "Table 8", ALREADY_SEATED),
            *(_row(state, kind, {291}, {state}, "Table 8", refusal) for kind in _ACTIONS),
        )
    ),
    _row(_S.PLAYING, _R.BAD_LINE, {299}, {_S.PLAYING}, "§2 lines"),
    _row(_S.PLAYING, _R.GARBLED, {299}, {_S.PLAYING}, "Table 8"),
    _row(_S.PLAYING, _R.SEAT_AGAIN, {299}, {_S.PLAYING}, "Table 8", ALREADY_SEATED),
    _row(_S.PLAYING, _R.MOVE, {200, 201, 202, 203, 207, 291, 299}, {_S.PLAYING, _S.DONE}, "Tables 6, 8"),
    _row(_S.PLAYING, _R.RESIGN, {204}, {_S.DONE}, "Tables 7, 8"),
    _row(_S.PLAYING, _R.DRAW_OFFER, {202, 205, 291}, {_S.PLAYING, _S.DONE}, "Tables 7, 8 (Awari)"),
    _row(_S.PLAYING, _R.DRAW_ANSWER, {202, 203, 206, 291}, {_S.PLAYING, _S.DONE}, "Tables 7, 8 (Awari)"),
)
"""The transition table, state × request (docs/protocol.md §3).  A seated connection's
seat request is SEAT_AGAIN, so (seated, SEAT) is no row; a done connection's lines are
read no more."""

TABLE: Final[dict[tuple[State, Request], Row]] = {(r.state, r.request): r for r in ROWS}

TRIGGERS: Final[dict[Trigger, tuple[frozenset[State], State]]] = {
    Trigger.START: (frozenset({_S.SEATED}), _S.PLAYING),
    Trigger.END: (frozenset({_S.INITIAL, _S.SEATED, _S.OBSERVER, _S.PLAYING}), _S.DONE),
    Trigger.CLOSE: (frozenset({_S.INITIAL, _S.SEATED, _S.OBSERVER, _S.PLAYING}), _S.DONE),
}


# ─── Response codes (Tables 1, 3, 4, 5, 8, 9, 10) ──────────────────────────────


@dataclass(frozen=True)
class Code:
    code: int
    table: str
    to: str
    """requester | all | observers | new connection | mover | …"""
    meaning: str


CODES: Final[tuple[Code, ...]] = (
    Code(0, "Table 1", "new connection", "greeting"),
    Code(100, "Table 3", "requester", "seated"),
    Code(101, "Table 3", "requester", "seated, with time controls"),
    Code(191, "Table 3", "requester", "other player holds requested side"),
    Code(192, "Table 3", "requester", "there are already two players"),
    Code(193, "Table 3", "requester", "cannot observe"),
    Code(198, "Table 3", "requester", "illegal version number"),
    Code(199, "Table 3", "requester", "request not understood (before seating)"),
    Code(200, "Table 8", "mover", "move accepted, continue"),
    Code(201, "Table 8", "mover", "move accepted, you win"),
    Code(202, "Table 8", "mover", "move accepted, you lose; or your time expires"),
    Code(203, "Table 8", "mover", "move accepted, you draw; or draw accepted"),
    Code(204, "Table 8", "resigner", "resignation accepted"),
    Code(205, "Table 8", "offerer", "draw request received (Awari)"),
    Code(206, "Table 8", "refuser", "draw refusal received (Awari)"),
    Code(207, "Table 8", "mover", "move accepted with time controls, continue"),
    Code(291, "Table 8", "requester", "illegal request"),
    Code(299, "Table 8", "requester", "request not understood"),
    *(Code(c, "Table 9", "all", "a move, the game continues") for c in range(311, 319)),
    *(Code(c, "Table 9", "all", "the move that ended the game") for c in range(321, 327)),
    Code(327, "Table 9", "all", "second player resigned"),
    Code(328, "Table 9", "all", "first player resigned"),
    Code(329, "Table 9", "all", "draw accepted (Awari)"),
    *(Code(c, "Table 9", "all", "draw offered / refused (Awari)") for c in range(331, 335)),
    *(Code(c, "Table 4", "per --config-messages", "configuration") for c in range(341, 345)),
    Code(351, "Table 5", "player", "you will play the second side"),
    Code(352, "Table 5", "player", "you will play the first side"),
    Code(353, "Table 5", "observer", "you will observe"),
    Code(361, "Table 9", "all", "the second player's time expired"),
    Code(362, "Table 9", "all", "the first player's time expired"),
    Code(380, "Table 10", "observers", "display, no clocks"),
    Code(381, "Table 10", "observers", "display, clocks"),
    Code(382, "Table 10", "observers", "board lines follow"),
    Code(391, "Table 9", "all", "the first player disconnected"),
    Code(392, "Table 9", "all", "the second player disconnected"),
    Code(399, "Table 9", "all", "unknown problem, game aborted"),
)
BY_CODE: Final[dict[int, Code]] = {c.code: c for c in CODES}


# ─── Small pure functions: versions, names, serials, ellipses, codes ──────────


def parse_version(text: str) -> tuple[int, ...] | None:
    """Table 2's <version>: integers separated by dots, at least two; None if malformed."""
    if not re.fullmatch(r"[0-9]{1,9}(?:\.[0-9]{1,9})+", text):
        return None
    return tuple(int(part) for part in text.split("."))


def version_accepted(version: tuple[int, ...]) -> bool:
    """No greater than ours, component by component, missing components 0 (erratum G13)."""
    width = max(len(version), len(VERSION))
    pad = (0,) * width
    return (version + pad)[:width] <= (VERSION + pad)[:width]


def parse_name(text: str) -> str | None:
    """Table 2's <optional-name>: ``""``-escaped in double quotes, at most NAME_MAX
    characters unescaped; empty text is no name; None if malformed."""
    if not text:
        return ""
    match = re.fullmatch(r'"((?:[^"]|"")*)"', text)
    if match is None:
        return None
    name = match.group(1).replace('""', '"')
    return name if len(name) <= NAME_MAX else None


def quoted(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


@require(lambda plies: plies >= 0)
@ensure(lambda plies, result: result >= 1 and (result - 1) * 2 <= plies <= (result - 1) * 2 + 1)
def serial(plies: int) -> int:
    """The <n> of the next move after ``plies`` moves: the full-move number, both
    players' k-th moves carrying k (Tables 6 and 9; errata A16, G12: the papers say ply)."""
    return plies // 2 + 1


@require(lambda plies: plies >= 0)
def to_move_by_count(plies: int) -> int:
    """The players alternate, the first player first (Table 6)."""
    return plies % 2


def serial_text(n: int, side: int) -> str:
    """``<n>`` before the first player's move, ``<n> ...`` before the second's (Tables 6, 9)."""
    return f"{n} ..." if side else str(n)


@ensure(lambda side, ellipsis, result: result == (ellipsis == (side == SECOND)))
def ellipsis_ok(side: int, ellipsis: bool) -> bool:
    """Table 6: the second player's move carries ``...``, the first player's does not."""
    return ellipsis == (side == SECOND)


def moves_code(side: int, is_pass: bool, timed: bool) -> int:
    """Table 9's 311–318: by mover, pass (Gothello) and time controls."""
    return 311 + side + (4 if is_pass else 0) + (2 if timed else 0)


def ends_code(side: int, winner: int | None) -> int:
    """Table 9's 321–326: by the mover of the last move and the result."""
    if winner is None:
        return 325 + side
    return 321 + 2 * side + (0 if winner == side else 1)


# ─── Request lines (Tables 2, 6, 7) ────────────────────────────────────────────


class Seat(Enum):
    FIRST = 0
    SECOND = 1
    EITHER = 2
    OBSERVER = 3


@dataclass(frozen=True)
class SeatRequest:
    seat: Seat
    name: str


@dataclass(frozen=True)
class Refusal:
    code: int
    text: str


def _word(text: str) -> tuple[str, str]:
    text = text.lstrip(" \t")
    for i, ch in enumerate(text):
        if ch in " \t":
            return text[:i], text[i:].strip(" \t")
    return text, ""


def seat_request(w: Words, line: str) -> SeatRequest | Refusal:
    """Table 2's request, or Table 3's refusal of its form (198, 199)."""
    version, rest = _word(line)
    keyword, rest = _word(rest)
    if keyword not in ("player", "observer"):
        return Refusal(199, "Request not understood")
    parsed = parse_version(version)
    if parsed is None or not version_accepted(parsed):
        return Refusal(198, f"Illegal version number (expected {VERSION_TEXT} or lower, got {version})")
    seat = Seat.OBSERVER
    if keyword == "player":
        side, rest = _word(rest)
        seats = {w.sides[0]: Seat.FIRST, w.sides[1]: Seat.SECOND, "?": Seat.EITHER}
        if side not in seats:
            return Refusal(199, f"Request not understood (side must be {w.sides[1]}, {w.sides[0]} or ?)")
        seat = seats[side]
    name = parse_name(rest)
    if name is None:
        return Refusal(199, f'Request not understood (name must be "..." of at most {NAME_MAX} characters)')
    return SeatRequest(seat, name)


@dataclass(frozen=True)
class Action:
    """Tables 6 and 7: a move ``<n> [...] <m>`` (``serial`` None for a bare ``pass``),
    ``resign``, or Awari's ``draw?``, ``draw``, ``nodraw``."""

    request: Request
    serial: int | None = None
    ellipsis: bool = False
    token: str = ""


def action(w: Words, line: str) -> Action | None:
    """The request in play a line is, by its form only; None: not understood (299)."""
    words = line.split()
    if len(words) == 1:
        word = words[0]
        if word == "resign":
            return Action(_R.RESIGN)
        if word == "draw?" and w.has_draw_offers:
            return Action(_R.DRAW_OFFER)
        if word in ("draw", "nodraw") and w.has_draw_offers:
            return Action(_R.DRAW_ANSWER, token=word)
        if word == "pass" and w.has_pass:
            return Action(_R.MOVE, token="pass")
        return None
    if len(words) in (2, 3) and words[0].isascii() and words[0].isdigit() and len(words[0]) <= 9:
        if len(words) == 2:
            return Action(_R.MOVE, int(words[0]), False, words[1])
        if words[1] == "...":
            return Action(_R.MOVE, int(words[0]), True, words[2])
    return None


def classify(w: Words, state: State, line: str) -> Request:
    """The row a line falls in, in its connection's state."""
    if state is _S.INITIAL:
        return _R.BAD_SEAT if isinstance(seat_request(w, line), Refusal) else _R.SEAT
    act = action(w, line)
    if act is not None:
        return act.request
    return _R.SEAT_AGAIN if isinstance(seat_request(w, line), SeatRequest) else _R.GARBLED


# ─── Response lines ────────────────────────────────────────────────────────────

SECS: Final = "\x00"
"""Stands for a number of seconds in an expected line (not modelled)."""
_UPTO = re.compile("\x02([0-9]+)\x03")
_PLACES = re.compile("\x00|\x02[0-9]+\x03")


def secs_upto(bound: float | None) -> str:
    """Stands for whole seconds no greater than ``bound`` (truncated, as the wire
    sends them); None: any number, ``SECS``."""
    return SECS if bound is None else f"\x02{max(0, int(bound))}\x03"


def remaining(before: float, used: float, increment: float) -> float:
    """A mover's time left once its move is accepted (docs/protocol.md §10): the
    time it had, less the turn's, plus its Fischer increment."""
    return before - used + increment


CLOSE: Final = "\x01close"
"""The server closes the connection (an expected output, not a line)."""


def matches(expected: str, got: str) -> bool:
    """``got`` is ``expected`` with a whole number in place of each ``SECS``, and
    one no greater than its bound in place of each ``secs_upto``."""
    if SECS not in expected and "\x02" not in expected:
        return expected == got
    pattern = "([0-9]+)".join(re.escape(part) for part in _PLACES.split(expected))
    found = re.fullmatch(pattern, got)
    if found is None:
        return False
    bounds = [_UPTO.fullmatch(place) for place in _PLACES.findall(expected)]
    return all(b is None or int(n) <= int(b[1]) for b, n in zip(bounds, found.groups(), strict=True))


def greeting(w: Words, rules: str, opening: int) -> str:
    """Table 1, worded as gthd words it, with our announcements (docs/protocol.md §4)."""
    extra = ("" if rules == "paper" else f" Rules: {rules}") + (f" Opening: {opening}" if opening else "")
    return f"000 {VERSION_TEXT} version {w.title} server says hello!{extra}"


def moved(w: Words, n: int, side: int, move: str, timed: bool, left: str = SECS) -> str:
    """Table 9's 311–318 (``left``: the mover's seconds, ``SECS`` or ``secs_upto``)."""
    clock = f" {left} (secs)" if timed else ""
    code = moves_code(side, move == "pass" and w.has_pass, timed)
    return f"{code} {serial_text(n, side)} {move}{clock} is {w.sides[side]} move, game continues"


def ended(w: Words, n: int, side: int, move: str, winner: int | None) -> str:
    """Table 9's 321–326."""
    how = "draws" if winner is None else "wins" if winner == side else "loses"
    return f"{ends_code(side, winner)} {serial_text(n, side)} {move} and {w.sides[side]} {how}"


def resigned(w: Words, side: int) -> str:
    """327 when the second player resigns, 328 when the first does: named after the winner."""
    return f"{328 - side} {w.cap(1 - side)} wins by resignation"


def flag_fell(w: Words, side: int) -> str:
    return f"{362 - side} {w.cap(1 - side)} wins by {w.cap(side)} time expiring"


def disconnected(w: Words, side: int) -> str:
    return f"{391 + side} {w.cap(side)} disconnected, {w.sides[1 - side]} wins"


# ─── The rules, as the protocol needs them ─────────────────────────────────────


class Verdict(Enum):
    """RESULT ::= win⟨⟨PLAYER⟩⟩ | draw | not_done | illegal_move, as the referee reads it."""

    NOT_DONE = "not_done"
    ILLEGAL = "illegal_move"
    FIRST_WINS = "win first"
    SECOND_WINS = "win second"
    DRAW = "draw"

    @property
    def winner(self) -> int | None:
        return {Verdict.FIRST_WINS: FIRST, Verdict.SECOND_WINS: SECOND}.get(self)


class Rules(Protocol):
    """The game's rules as the referee consults them."""

    def initial(self) -> Any: ...

    def to_move(self, position: Any) -> int: ...

    def parse(self, token: str) -> Any | None: ...

    def apply(self, position: Any, move: Any) -> tuple[Verdict, Any]: ...

    def format(self, move: Any) -> str: ...

    def render(self, position: Any) -> Sequence[str]: ...


# ─── The referee ───────────────────────────────────────────────────────────────


@dataclass(frozen=True)
class Setup:
    """What the server was started with (a transcript's header says it)."""

    game: str
    timed: bool = False
    time: tuple[float, float] | None = None
    """The clocks' seconds, first player's first, if the transcript says them: a
    player's 101 then carries them (truncated, as ``secs``); else any number."""
    increment: tuple[float, float] = (0.0, 0.0)
    """Each side's Fischer increment (``remaining``), announced in 101 when not 0;
    with ``time`` known, a mover's time left is bounded (``Referee.most_left``)."""
    config_messages: str = "all"
    """all | observers | none (docs/protocol.md §6)."""
    rules: str = "paper"
    opening: tuple[str, ...] = ()
    max_observers: int = 64
    max_rejected: int = 64
    seat_timeout: float = 60.0
    wait_timeout: float = 1800.0
    idle_timeout: float = 600.0

    @property
    def words(self) -> Words:
        return WORDS[self.game]


@dataclass(frozen=True)
class Entity:
    """ENTITY ::= player⟨⟨PLAYER⟩⟩ | observer⟨⟨ℕ₁⟩⟩, with its connection."""

    id: int
    state: State = State.INITIAL
    side: int | None = None
    observer: int | None = None
    name: str = ""
    rejected: int = 0
    closed: bool = False
    """The server closed it: nothing more reaches it."""


Out = tuple[int, str]
"""A line to one connection (``CLOSE``: the connection is closed)."""


@dataclass(frozen=True)
class Referee:
    setup: Setup
    rules: Rules = field(compare=False)
    position: Any = field(compare=False)
    entities: tuple[Entity, ...] = ()
    players: tuple[int | None, int | None] = (None, None)
    started: bool = False
    over: bool = False
    plies: int = 0
    offer: int | None = None
    """The side whose draw offer awaits an answer (Awari)."""
    refused: bool = False
    """A draw offer was refused since the last move."""
    waiting: int = FIRST
    """The side the referee waits for (its clock runs)."""
    observers: int = 0
    moves: tuple[int, int] = (0, 0)
    """Each side's accepted moves (not the opening's, which no clock times)."""
    ended_by_move: bool = False
    last: str = ""
    """The row last taken, ``state/request`` (for coverage)."""

    @staticmethod
    def new(setup: Setup, rules: Rules) -> Referee:
        return Referee(setup, rules, rules.initial())

    # ── helpers ──
    @property
    def words(self) -> Words:
        return self.setup.words

    def entity(self, cid: int) -> Entity | None:
        return next((e for e in self.entities if e.id == cid), None)

    def _put(self, ent: Entity) -> Referee:
        return replace(self, entities=tuple(ent if e.id == ent.id else e for e in self.entities))

    def mover(self) -> int:
        return self.rules.to_move(self.position)

    def most_left(self, side: int) -> str:
        """``side``'s time left as announced now: at most its clock had each of its
        turns cost nothing (``remaining`` with nothing used, move after move)."""
        if self.setup.time is None:
            return SECS
        left = self.setup.time[side]
        for _ in range(self.moves[side]):
            left = remaining(left, 0.0, self.setup.increment[side])
        return secs_upto(left)

    def _increments(self, side: int | None) -> str:
        """101's announcement of the increments (our extension): ``side``'s own then
        its opponent's, or an observer's (None) second's then first's; none at 0."""
        inc = self.setup.increment
        if inc == (0.0, 0.0):
            return ""
        own, opp = (inc[side], inc[1 - side]) if side is not None else (inc[1], inc[0])
        return f" Increment: {own:g} {opp:g}"

    def _display(self) -> list[str]:
        """Table 10: 380/381, 382 and the board lines (Awari's: our extension, erratum A20)."""
        n = (self.plies + 1) // 2 if self.over and self.ended_by_move else serial(self.plies)
        letter = "." if self.over else self.words.letters[self.mover()]
        head = f"381 {n} {SECS} {SECS} {letter}" if self.setup.timed else f"380 {n} {letter}"
        board = list(self.rules.render(self.position))
        return [head, f"382 {len(board)} board lines follow", *board]

    def _broadcast(self, lines: list[str]) -> list[Out]:
        """A status to every entity in play; observers also get the display (Table 9, 10)."""
        if not self.started:
            return []
        out: list[Out] = []
        display = None
        for e in self.entities:
            if e.closed:  # the server closed it: nothing more reaches it
                continue
            if e.state is _S.PLAYING:
                out += [(e.id, line) for line in lines]
            elif e.state is _S.OBSERVER:
                display = display if display is not None else self._display()
                out += [(e.id, line) for line in lines + display]
        return out

    def _reject(self, ent: Entity, code: int, text: str) -> tuple[Referee, list[Out]]:
        ent = replace(ent, rejected=ent.rejected + 1)
        model, out = self._put(ent), [(ent.id, f"{code} {text}")]
        if ent.rejected >= self.setup.max_rejected:
            model, more = model._drop(ent.id)
            out += more
        return model, out

    def _drop(self, cid: int) -> tuple[Referee, list[Out]]:
        """The server gives up on a connection: closed, and gone (a player in play loses)."""
        ent = self.entity(cid)
        assert ent is not None
        model = self._put(replace(ent, closed=True))
        model, out = model.leave(cid)
        return model, [(cid, CLOSE), *out]

    def _end(self, winner: int | None, status: list[str]) -> tuple[Referee, list[Out]]:
        """The final status to everyone, observers with the final display; then every
        connection closed (one not seated told why)."""
        model = replace(self, over=True)
        out = model._broadcast(status)
        for e in model.entities:
            if e.closed:
                continue
            if e.state is _S.INITIAL:
                out.append((e.id, "199 The game is over; connect again for the next one"))
            out.append((e.id, CLOSE))
        return replace(model, entities=()), out

    # ── inputs ──
    def join(self, cid: int) -> tuple[Referee, list[Out]]:
        """A connection opens: Table 1's greeting."""
        model = replace(self, entities=(*self.entities, Entity(cid)))
        return model, [(cid, greeting(self.words, self.setup.rules, len(self.setup.opening)))]

    def leave(self, cid: int) -> tuple[Referee, list[Out]]:
        """The connection closed: a player in play loses (391/392, errata A25, G20)."""
        ent = self.entity(cid)
        if ent is None or ent.state is _S.DONE:
            return self, []
        if ent.state is _S.PLAYING and ent.side is not None and not self.over:
            return self._end(1 - ent.side, [disconnected(self.words, ent.side)])
        players = self.players
        if ent.state is _S.SEATED and ent.side is not None:
            players = tuple(None if p == cid else p for p in players)  # type: ignore[assignment]
        return replace(self, entities=tuple(e for e in self.entities if e.id != cid), players=players), []

    def refuse_line(self, cid: int, text: str) -> tuple[Referee, list[Out]]:
        """A line the framing refused (§2 lines): 199 before seating, 299 after."""
        ent = self.entity(cid)
        if ent is None or self.over:
            return self, []
        model = replace(self, last=f"{ent.state.value}/{_R.BAD_LINE.value}")
        return model._reject(ent, 199 if ent.state is _S.INITIAL else 299, text)

    def receive(self, cid: int, line: str) -> list[tuple[Referee, list[Out]]]:
        """A request line: each outcome the papers allow (more than one only for ``player ?``)."""
        ent = self.entity(cid)
        if ent is None or ent.state is _S.DONE or self.over:
            return [(self, [])]
        kind = classify(self.words, ent.state, line)
        row = TABLE[(ent.state, kind)]
        model = replace(self, last=f"{ent.state.value}/{kind.value}")
        if row.refusal is not None:
            return [model._reject(ent, min(row.codes), row.refusal)]
        if kind is _R.BAD_SEAT:
            refusal = seat_request(self.words, line)
            assert isinstance(refusal, Refusal)
            return [model._reject(ent, refusal.code, refusal.text)]
        if kind is _R.GARBLED:
            return [model._reject(ent, 299, "Request not understood")]
        if kind is _R.SEAT:
            request = seat_request(self.words, line)
            assert isinstance(request, SeatRequest)
            return model._seat(ent, request)
        act = action(self.words, line)
        assert act is not None
        handler: dict[Request, Callable[[Entity, Action], tuple[Referee, list[Out]]]] = {
            _R.MOVE: model._move,
            _R.RESIGN: model._resign,
            _R.DRAW_OFFER: model._offer_draw,
            _R.DRAW_ANSWER: model._answer_draw,
        }
        return [handler[kind](ent, act)]

    def timeouts(self) -> list[tuple[str, Referee, list[Out]]]:
        """What time alone may do now: a seat or opponent bound expires, a flag falls
        (with clocks) or the idle bound ends the game (without), or the referee
        aborts the game (399).  Each with its name."""
        found: list[tuple[str, Referee, list[Out]]] = []
        if self.over:
            return found
        for e in self.entities:
            if e.state is _S.INITIAL and self.setup.seat_timeout > 0:
                text = f"199 No seat request within {self.setup.seat_timeout:g} s, goodbye"
                model, out = self._drop(e.id)
                found.append(("seat timeout", model, [(e.id, text), *out]))
            if e.state is _S.SEATED and self.setup.wait_timeout > 0:
                text = f"199 No opponent within {self.setup.wait_timeout:g} s, goodbye"
                model, out = self._drop(e.id)
                found.append(("wait timeout", model, [(e.id, text), *out]))
        if self.started:
            waited = self.waiting
            if self.setup.timed:
                found.append(("flag", *self._flag(waited)))
            elif self.setup.idle_timeout > 0:
                found.append(("idle", *self._end(1 - waited, [disconnected(self.words, waited)])))
            for why in ("the referee failed", "the server is shutting down"):
                found.append(("abort", *self._end(None, [f"399 Unknown problem: {why}, game aborted"])))
        return found

    def _flag(self, side: int) -> tuple[Referee, list[Out]]:
        """``side``'s time ran out: 202 to it, 361/362 to everyone (Table 9)."""
        pid = self.players[side]
        out: list[Out] = [] if pid is None else [(pid, "202 Your time expires, and you lose")]
        model, more = self._end(1 - side, [flag_fell(self.words, side)])
        return model, out + more

    # ── seating (Tables 2–5) ──
    def _seat(self, ent: Entity, request: SeatRequest) -> list[tuple[Referee, list[Out]]]:
        if request.seat is Seat.OBSERVER:
            return [self._observe(ent, request.name)]
        if self.started or None not in self.players:
            return [self._reject(ent, 192, "There are already two players")]
        free = [s for s in (FIRST, SECOND) if self.players[s] is None]
        if request.seat is Seat.EITHER:
            sides = free
        elif request.seat.value in free:
            sides = [request.seat.value]
        else:
            return [self._reject(ent, 191, "Other player holds requested side")]
        return [self._take(ent, side, request.name) for side in sides]

    def _take(self, ent: Entity, side: int, name: str) -> tuple[Referee, list[Out]]:
        seated = replace(ent, state=_S.SEATED, side=side, name=name, rejected=0)
        players = tuple(ent.id if s == side else p for s, p in enumerate(self.players))
        model = replace(self._put(seated), players=players)  # type: ignore[arg-type]
        line = f"101 {self._initial(side)} Request accepted with time controls{self._increments(side)} (you / opp)"
        if not self.setup.timed:
            line = "100 Request accepted"
        out: list[Out] = [(ent.id, line)]
        if None not in model.players:
            model, more = model._start()
            out += more
        return model, out

    def _initial(self, side: int) -> str:
        """Table 3's 101 to a player: its own time, then its opponent's, as set."""
        t = self.setup.time
        return f"{SECS} {SECS}" if t is None else f"{max(0, int(t[side]))} {max(0, int(t[1 - side]))}"

    def _observe(self, ent: Entity, name: str) -> tuple[Referee, list[Out]]:
        count = sum(1 for e in self.entities if e.observer is not None)
        if count >= self.setup.max_observers:
            return self._reject(ent, 193, f"Cannot observe (at most {self.setup.max_observers} observers)")
        number = self.observers + 1
        watcher = replace(ent, state=_S.OBSERVER, observer=number, name=name, rejected=0)
        model = replace(self._put(watcher), observers=number)
        line = (
            f"101 {SECS} {SECS} Request accepted with time controls{self._increments(None)}"
            if self.setup.timed
            else "100 Request accepted"
        )
        out: list[Out] = [(ent.id, line)]
        if model.started:
            out += model._begin_for(watcher)
        return model, out

    def _config(self) -> list[str]:
        """Table 4: 341 (second player), 342 (first), 343 per observer, 344."""
        names = [next((e.name for e in self.entities if e.id == p), "") if p is not None else "" for p in self.players]
        w = self.words
        observers = [e for e in self.entities if e.observer is not None]
        return [
            f"341 {quoted(names[1])} {w.sides[1]} player",
            f"342 {quoted(names[0])} {w.sides[0]} player",
            *(f"343 {e.observer} {quoted(e.name)} observer" for e in observers),
            f"344 {len(observers)} observers",
        ]

    def _begin_for(self, ent: Entity) -> list[Out]:
        """Table 4 (by policy), Table 5's role, an observer's display (Table 10)."""
        policy = self.setup.config_messages
        lines = self._config() if policy == "all" or (policy == "observers" and ent.observer is not None) else []
        if ent.side is None:
            lines += ["353 You will observe", *self._display()]
        else:
            lines.append(f"{352 - ent.side} You will play {self.words.sides[ent.side]}")
        return [(ent.id, line) for line in lines]

    def _start(self) -> tuple[Referee, list[Out]]:
        """The second player is seated: observers then players (second, first) get
        34x and 35x; the opening's moves are broadcast; the first clock starts."""
        model = replace(self, started=True)
        order = sorted(
            (e for e in model.entities if e.state in (_S.SEATED, _S.OBSERVER)),
            key=lambda e: (e.observer is None, -(e.side or 0)),
        )
        out: list[Out] = []
        for e in order:
            out += model._begin_for(e)
            if e.side is not None:
                model = model._put(replace(e, state=_S.PLAYING))
        for token in self.setup.opening:
            side, n = model.mover(), serial(model.plies)
            move = model.rules.parse(token)
            verdict, after = model.rules.apply(model.position, move)
            model = replace(model, position=after, plies=model.plies + 1)
            out += model._broadcast([moved(self.words, n, side, token, self.setup.timed, model.most_left(side))])
            del verdict
        return replace(model, waiting=model.mover()), out

    # ── play (Tables 6–9) ──
    def _move(self, ent: Entity, act: Action) -> tuple[Referee, list[Out]]:
        """A move, checked in docs/protocol.md §7's order; the first failure answers."""
        side = ent.side
        assert side is not None
        if self.offer is not None:
            return self._reject(ent, 291, "A draw offer awaits an answer (draw or nodraw)")
        if side != self.mover():
            return self._reject(ent, 291, "Not your turn")
        n = serial(self.plies)
        if act.serial is not None and act.serial != n:
            return self._reject(ent, 299, f"Illegal serial number (got {act.serial} expected {n})")
        if act.serial is not None and not ellipsis_ok(side, act.ellipsis):
            expected = "expected before" if side else "not allowed before"
            return self._reject(ent, 299, f"Ellipses (...) {expected} {self.words.sides[side]} move")
        move = self.rules.parse(act.token)
        if move is None:
            return self._reject(ent, 299, f"Request not understood (no such move {act.token})")
        verdict, after = self.rules.apply(self.position, move)
        text = self.rules.format(move)
        if verdict is Verdict.ILLEGAL:
            return self._reject(ent, 291, f"Illegal move {text}")
        moves = (self.moves[0] + (side == 0), self.moves[1] + (side == 1))
        model = replace(
            self._put(replace(ent, rejected=0)), position=after, plies=self.plies + 1, refused=False, moves=moves
        )
        if verdict is Verdict.NOT_DONE:
            timed, left = self.setup.timed, model.most_left(side)
            line = (
                f"207 {left} secs remaining after move {text} accepted, continue playing"
                if timed
                else f"200 Move {text} accepted, continue playing"
            )
            out = [(ent.id, line), *model._broadcast([moved(self.words, n, side, text, timed, left)])]
            return replace(model, waiting=1 - side), out
        winner = verdict.winner
        code = 203 if winner is None else 201 if winner == side else 202
        person = {201: "You win", 202: "You lose", 203: "You draw"}[code]
        model = replace(model, ended_by_move=True)
        done, out = model._end(winner, [ended(self.words, n, side, text, winner)])
        return done, [(ent.id, f"{code} Move {text} accepted, {person}"), *out]

    def _resign(self, ent: Entity, act: Action) -> tuple[Referee, list[Out]]:
        """204 to the resigner, 327/328 to everyone: either player, at any time (errata A24, G30)."""
        assert ent.side is not None
        model, out = self._end(1 - ent.side, [resigned(self.words, ent.side)])
        return model, [(ent.id, "204 Resignation accepted"), *out]

    def _offer_draw(self, ent: Entity, act: Action) -> tuple[Referee, list[Out]]:
        """Awari: "a draw may be offered by a player whose turn it is to move; if
        rejected it may not be offered again until the next move" (erratum A19)."""
        side = ent.side
        assert side is not None
        if self.offer is not None:
            return self._reject(ent, 291, "A draw offer is already pending")
        if side != self.mover():
            return self._reject(ent, 291, "Only the player to move may offer a draw")
        if self.refused:
            return self._reject(ent, 291, "Draw refused: offer again after the next move")
        model = replace(self._put(replace(ent, rejected=0)), offer=side, waiting=1 - side)
        return model, [
            (ent.id, "205 Received draw request"),
            *model._broadcast([f"{331 + side} Draw requested by {self.words.sides[side]}"]),
        ]

    def _answer_draw(self, ent: Entity, act: Action) -> tuple[Referee, list[Out]]:
        """Awari: ``draw`` (203, 329) or ``nodraw`` (206, 333/334) to the opponent's offer."""
        side = ent.side
        assert side is not None
        if self.offer is None or self.offer == side:
            return self._reject(ent, 291, "No draw offer to answer")
        model = self._put(replace(ent, rejected=0))
        if act.token == "draw":
            done, out = model._end(None, ["329 Draw accepted"])
            return done, [(ent.id, "203 Draw accepted, You draw"), *out]
        model = replace(model, offer=None, refused=True, waiting=1 - side)
        return model, [
            (ent.id, "206 Received draw refusal"),
            *model._broadcast([f"{333 + side} Draw refused by {self.words.sides[side]}"]),
        ]
