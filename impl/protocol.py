"""The wire protocol of both referees, for the server and the client alike: every
request and response as a frozen dataclass with its parser and ``to_line``, the
code tables, the port numbers and name quoting.  Nothing else in impl/ formats or
parses a protocol line.  docs/protocol.md is the reference; the tables cited are
those of section 2 of Bart Massey's *A Networked Awari Referee* and *A Networked
Gothello Referee*, which number their tables alike.

What differs between the two games (side words, the letters of the display, the
port base, ``pass`` and draw offers) is a ``Vocabulary``; a message's ``to_line``
takes it, and the response parser ``parse`` needs none (the codes carry the
sides), so that ``parse(m.to_line(v)) == m`` for every response ``m`` and
``parse_seat(v, r.to_line(v)) == r`` / ``parse_action(v, a.to_line(v)) == a`` for
requests (tests/test_protocol.py).  Sides are ``impl.game.Side``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum

from .game import PAPER_RULES, Side, Termination

SERVER_VERSION = (0, 9, 1)
SERVER_VERSION_TEXT = "0.9.1"
CLIENT_VERSION = SERVER_VERSION_TEXT
"""The version our client sends in seat requests."""
NAME_MAX = 31
LOGIN_MAX = 100
"""An arena's name field, ``name:password`` (docs/arena.md): longer than a name."""
"""Longest name, counted after unescaping ``""`` (Table 2's <optional-name>)."""


@dataclass(frozen=True)
class Vocabulary:
    """What differs between the two games' protocols."""

    game: str
    title: str
    sides: tuple[str, str]
    """Side names, first mover first."""
    letters: tuple[str, str]
    """The <to-move> letters of the 380/381 display."""
    port_base: int
    has_pass: bool
    has_draw_offers: bool

    def cap(self, side: Side) -> str:
        return self.sides[side].capitalize()


AWARI = Vocabulary("awari", "Awari", ("south", "north"), ("s", "n"), 29046, False, True)
GOTHELLO = Vocabulary("gothello", "Gothello", ("black", "white"), ("b", "w"), 29068, True, False)
VOCABULARIES = {v.game: v for v in (AWARI, GOTHELLO)}


def port_of(game: str, server: int) -> int:
    """Awari listens on 29046 + n, Gothello on 29068 + n (the papers' section 2)."""
    return VOCABULARIES[game].port_base + server


class ProtocolError(Exception):
    """A line that is not one of the protocol's responses."""

    def __init__(self, problem: str, line: str = "") -> None:
        super().__init__(f"protocol violation: {problem}" + (f" (got {line!r})" if line else ""))
        self.problem, self.line = problem, line


# ─── Versions (Tables 1 and 2) ─────────────────────────────────────────────────

_VERSION = re.compile(r"[0-9]{1,9}(?:\.[0-9]{1,9})+")


def parse_version(text: str) -> tuple[int, ...] | None:
    """``<int>.<int>[.<int>…]`` as a tuple, or None when malformed."""
    if not _VERSION.fullmatch(text):
        return None
    return tuple(int(part) for part in text.split("."))


def version_accepted(version: tuple[int, ...]) -> bool:
    """The client's version is no greater than ours, compared numerically component
    by component, missing components counting as 0 (so 0.9 = 0.9.0 ≤ 0.9.1 < 0.10)."""
    width = max(len(version), len(SERVER_VERSION))
    pad = (0,) * width
    return (version + pad)[:width] <= (SERVER_VERSION + pad)[:width]


# ─── Names ─────────────────────────────────────────────────────────────────────

_QUOTED = re.compile(r'"((?:[^"]|"")*)"')


def parse_name(text: str, limit: int = NAME_MAX) -> str | None:
    """The optional name: ``""``-escaped inside double quotes, at most ``limit``
    characters once unescaped.  Empty text is the empty name; None if malformed."""
    if not text:
        return ""
    match = _QUOTED.fullmatch(text)
    if match is None:
        return None
    name = match.group(1).replace('""', '"')
    return name if len(name) <= limit else None


def quote_name(name: str, limit: int = NAME_MAX) -> str:
    """A name as the wire carries it (Table 2, 341–343): double-quoted, ``"``
    doubled.  ValueError for a name no request could carry (``limit``: an arena's
    login field is longer, docs/arena.md)."""
    if len(name) > limit or not all(" " <= ch <= "~" or ch == "\t" for ch in name):
        raise ValueError(f"names are at most {limit} printable ASCII characters: {name!r}")
    return '"' + name.replace('"', '""') + '"'


def _unquote(text: str, line: str) -> str:
    match = _QUOTED.match(text)
    if match is None:
        raise ProtocolError("expected a quoted name", line)
    return match.group(1).replace('""', '"')


def serial_text(serial: int, side: Side) -> str:
    """``<n>`` for the first player, ``<n> ...`` for the second (Tables 6 and 9)."""
    return f"{serial} ..." if side else str(serial)


def secs(seconds: float) -> int:
    """Whole seconds as sent on the wire: truncated, never negative."""
    return max(0, int(seconds))


_TIME_CONTROL = re.compile(r"(\d{1,9}(?:\.\d{1,6})?)(?:\+(\d{1,9}(?:\.\d{1,6})?))?")


@dataclass(frozen=True)
class TimeControl:
    """One side's clock: ``seconds`` for the game, and ``increment`` seconds added
    after each of its accepted moves (Fischer; docs/protocol.md §10).  Written as
    PGN's ``TimeControl`` writes one period: ``300``, or ``300+2``."""

    seconds: float
    increment: float = 0.0

    def __str__(self) -> str:
        return f"{self.seconds:g}+{self.increment:g}" if self.increment else f"{self.seconds:g}"

    @classmethod
    def parse(cls, text: str) -> TimeControl:
        """``SECS`` or ``SECS+INC``; ValueError unless SECS > 0 and INC >= 0."""
        match = _TIME_CONTROL.fullmatch(text.strip())
        if match is None or float(match[1]) <= 0:
            raise ValueError(f"{text!r} is not SECS or SECS+INC (seconds > 0, increment >= 0)")
        return cls(float(match[1]), float(match[2] or 0))


# ─── Requests: seats (Table 2; refusals Table 3) ───────────────────────────────


class Seat(Enum):
    FIRST = 0
    SECOND = 1
    EITHER = 2
    OBSERVER = 3


@dataclass(frozen=True)
class SeatRequest:
    """``<version> player <side>|? [<name>]`` or ``<version> observer [<name>]``."""

    seat: Seat
    name: str = ""
    version: str = CLIENT_VERSION
    name_max: int = NAME_MAX
    """The name field's length: the papers' 31, or an arena login's (docs/arena.md)."""

    def to_line(self, v: Vocabulary) -> str:
        words = {Seat.FIRST: "player " + v.sides[0], Seat.SECOND: "player " + v.sides[1], Seat.EITHER: "player ?"}
        what = words.get(self.seat, "observer")
        return f"{self.version} {what}" + (f" {quote_name(self.name, self.name_max)}" if self.name else "")


@dataclass(frozen=True)
class SeatRefusal:
    """A seat request the server refuses, with its 19x."""

    code: int
    text: str


def _split_word(text: str) -> tuple[str, str]:
    """The first space/tab separated word and the rest (gthd splits on those two)."""
    text = text.lstrip(" \t")
    for i, ch in enumerate(text):
        if ch in " \t":
            return text[:i], text[i:].strip(" \t")
    return text, ""


def parse_seat(v: Vocabulary, line: str, name_max: int = NAME_MAX) -> SeatRequest | SeatRefusal:
    """A seat request.  A line whose second word is ``player`` or ``observer`` has
    its version checked first (198); anything else not understood is 199.
    ``name_max``: the name field's length (an arena's login is longer: docs/arena.md)."""
    version, rest = _split_word(line)
    keyword, rest = _split_word(rest)
    if keyword not in ("player", "observer"):
        return SeatRefusal(199, "Request not understood")
    parsed = parse_version(version)
    if parsed is None or not version_accepted(parsed):
        return SeatRefusal(198, f"Illegal version number (expected {SERVER_VERSION_TEXT} or lower, got {version})")
    if keyword == "observer":
        seat = Seat.OBSERVER
    else:
        side, rest = _split_word(rest)
        seats = {v.sides[0]: Seat.FIRST, v.sides[1]: Seat.SECOND, "?": Seat.EITHER}
        if side not in seats:
            return SeatRefusal(199, f"Request not understood (side must be {v.sides[1]}, {v.sides[0]} or ?)")
        seat = seats[side]
    name = parse_name(rest, name_max)
    if name is None:
        return SeatRefusal(199, f'Request not understood (name must be "..." of at most {name_max} characters)')
    return SeatRequest(seat, name, version)


# ─── Requests: actions (Tables 6 and 7) ────────────────────────────────────────


class Kind(Enum):
    MOVE = "move"
    RESIGN = "resign"
    DRAW_OFFER = "draw?"
    DRAW_ACCEPT = "draw"
    DRAW_REFUSE = "nodraw"

    __hash__ = object.__hash__  # members are singletons: the C identity hash is cheaper than Enum's


@dataclass(frozen=True)
class Action:
    """A request during play.  For MOVE: ``serial`` is None for a bare ``pass``;
    ``ellipsis`` is the second player's ``...``."""

    kind: Kind
    serial: int | None = None
    ellipsis: bool = False
    token: str = ""

    @staticmethod
    def move(serial: int, side: Side, token: str) -> Action:
        """``<n> <move>`` for the first player, ``<n> ... <move>`` for the second;
        ``<n>`` is the full-move number."""
        return Action(Kind.MOVE, serial, bool(side), token)

    def to_line(self, v: Vocabulary) -> str:
        if self.kind is not Kind.MOVE:
            return str(self.kind.value)
        if self.serial is None:
            return self.token
        return f"{self.serial} ... {self.token}" if self.ellipsis else f"{self.serial} {self.token}"


@dataclass(frozen=True)
class Garbled:
    """A line during play that is no request (299)."""

    text: str


_WORDS = {"resign": Kind.RESIGN, "draw?": Kind.DRAW_OFFER, "draw": Kind.DRAW_ACCEPT, "nodraw": Kind.DRAW_REFUSE}


def parse_action(v: Vocabulary, line: str) -> Action | Garbled:
    """``<n> <move>``, ``<n> ... <move>``, ``pass`` (Gothello), ``resign``, and for
    Awari ``draw?``, ``draw``, ``nodraw``.  The move token is checked later, by the
    engine; only the shape is checked here."""
    words = line.split()
    if len(words) == 1:
        kind = _WORDS.get(words[0])
        if kind is not None and (kind is Kind.RESIGN or v.has_draw_offers):
            return Action(kind)
        if words[0] == "pass" and v.has_pass:
            return Action(Kind.MOVE, token="pass")
        return Garbled("Request not understood")
    if len(words) in (2, 3) and words[0].isascii() and words[0].isdigit() and len(words[0]) <= 9:
        if len(words) == 2:
            return Action(Kind.MOVE, int(words[0]), False, words[1])
        if words[1] == "...":
            return Action(Kind.MOVE, int(words[0]), True, words[2])
    return Garbled("Request not understood")


# ─── Response codes (Tables 5, 8 and 9), indexed by Side ───────────────────────

ROLE = (352, 351)
CONFIG = (342, 341)
RESIGNS = (328, 327)
"""Named after the side that resigned: 328 when the first player resigns."""
DRAW_OFFERED = (331, 332)
DRAW_REFUSED = (333, 334)
FLAG_FELL = (362, 361)
"""Named after the side whose time ran out: 362 when the first player's does."""
DISCONNECTED = (391, 392)
_ENDS = {321: (0, 0), 322: (0, 1), 323: (1, 1), 324: (1, 0), 325: (0, None), 326: (1, None)}
"""32x → (the mover, the winner)."""
_ENDS_CODE = {value: code for code, value in _ENDS.items()}
_PERSON = {201: "You win", 202: "You lose", 203: "You draw"}


def moves_code(side: Side, is_pass: bool, timed: bool) -> int:
    """31x: 311/312 moves, 313/314 with time, 315/316 passes, 317/318 with time."""
    return 311 + side + (4 if is_pass else 0) + (2 if timed else 0)


def ends_code(side: Side, winner: Side | None) -> int:
    """32x: 321/322/325 for the first player's move, 323/324/326 for the second's."""
    return _ENDS_CODE[(side, winner)]


def _side(value: int | None) -> Side | None:
    return None if value is None else Side(value)


# ─── Responses ─────────────────────────────────────────────────────────────────


@dataclass(frozen=True)
class Greeting:
    """000 (Table 1), worded as gthd words it."""

    version: str
    title: str
    """``Awari`` or ``Gothello``: which game the server referees."""
    rules: str = PAPER_RULES
    """The rule set (spec/awari_rules.py), announced in the free text after the
    greeting as ``Rules: NAME`` unless it is the paper's: the greeting of a server
    playing the papers' rules is the papers' line, unchanged."""
    opening: int = 0
    """The plies of the opening the referee plays when the game starts (our
    extension, docs/protocol.md "Openings"), announced as ``Opening: N`` when
    there is one: a client then knows that N status lines come before a turn."""

    def to_line(self, v: Vocabulary) -> str:
        rules = "" if self.rules == PAPER_RULES else f" Rules: {self.rules}"
        opening = f" Opening: {self.opening}" if self.opening else ""
        return f"000 {self.version} version {self.title} server says hello!{rules}{opening}"


@dataclass(frozen=True)
class Seated:
    """100 / 101 (Table 3).  ``times``: for a player its own then its opponent's
    seconds; for an ``observer`` the second player's then the first's (its 101
    lacks gthd's ``(you / opp)``, the only thing that tells the two apart)."""

    times: tuple[int, int] | None
    observer: bool = False
    increments: tuple[float, float] | None = None
    """Fischer increments in the order of ``times`` (our extension, docs/protocol.md
    §10), announced in the free text as ``Increment: 2 2`` before gthd's ``(you /
    opp)``; None without one, so that the line is then the papers'."""

    def __post_init__(self) -> None:
        if self.times is None:  # a 100 is the same line for players and observers
            object.__setattr__(self, "observer", False)
        if self.times is None or self.increments == (0.0, 0.0):
            object.__setattr__(self, "increments", None)

    def to_line(self, v: Vocabulary) -> str:
        if self.times is None:
            return "100 Request accepted"
        inc = "" if self.increments is None else " Increment: {:g} {:g}".format(*self.increments)
        suffix = "" if self.observer else " (you / opp)"
        return f"101 {self.times[0]} {self.times[1]} Request accepted with time controls{inc}{suffix}"


@dataclass(frozen=True)
class Refused:
    """19x (seat refused) or 291/299 (request refused): the connection stays open."""

    code: int
    text: str

    def to_line(self, v: Vocabulary) -> str:
        return f"{self.code} {self.text}"


@dataclass(frozen=True)
class Accepted:
    """200 / 207 (Table 8): the mover's move was accepted and the game goes on;
    ``secs`` is its time left (207)."""

    move: str
    secs: int | None

    def to_line(self, v: Vocabulary) -> str:
        if self.secs is None:
            return f"200 Move {self.move} accepted, continue playing"
        return f"207 {self.secs} secs remaining after move {self.move} accepted, continue playing"


@dataclass(frozen=True)
class Finished:
    """201 / 202 / 203 to the mover (Table 8) — or 202 ``Your time expires`` and
    203 ``Draw accepted``; ``move`` is None for those two."""

    code: int
    move: str | None
    text: str

    @staticmethod
    def by_move(code: int, move: str) -> Finished:
        return Finished(code, move, f"Move {move} accepted, {_PERSON[code]}")

    @staticmethod
    def time_expired() -> Finished:
        return Finished(202, None, "Your time expires, and you lose")

    @staticmethod
    def draw_accepted() -> Finished:
        return Finished(203, None, "Draw accepted, You draw")

    def to_line(self, v: Vocabulary) -> str:
        return f"{self.code} {self.text}"


@dataclass(frozen=True)
class Acknowledged:
    """204 resignation, 205 draw offer, 206 draw refusal received."""

    code: int
    text: str

    def to_line(self, v: Vocabulary) -> str:
        return f"{self.code} {self.text}"


RESIGNATION_ACCEPTED = Acknowledged(204, "Resignation accepted")
DRAW_OFFER_RECEIVED = Acknowledged(205, "Received draw request")
DRAW_REFUSAL_RECEIVED = Acknowledged(206, "Received draw refusal")


@dataclass(frozen=True)
class Moved:
    """311–318 (Table 9): ``side`` moved ``move`` as its ``serial``-th move; the game
    goes on.  ``secs``: the mover's time left, with time controls."""

    serial: int
    side: Side
    move: str
    secs: int | None

    def to_line(self, v: Vocabulary) -> str:
        code = moves_code(self.side, self.move == "pass", self.secs is not None)
        where = f"{serial_text(self.serial, self.side)} {self.move}"
        clock = "" if self.secs is None else f" {self.secs} (secs)"
        return f"{code} {where}{clock} is {v.sides[self.side]} move, game continues"


@dataclass(frozen=True)
class Ended:
    """321–326 (Table 9): ``side``'s move ended the game; ``winner`` is None for a draw."""

    serial: int
    side: Side
    move: str
    winner: Side | None

    def to_line(self, v: Vocabulary) -> str:
        code = ends_code(self.side, self.winner)
        how = "draws" if self.winner is None else "wins" if self.winner == self.side else "loses"
        return f"{code} {serial_text(self.serial, self.side)} {self.move} and {v.sides[self.side]} {how}"


@dataclass(frozen=True)
class Resigned:
    """327 / 328: ``side`` resigned (327 when the second player did)."""

    side: Side

    def to_line(self, v: Vocabulary) -> str:
        return f"{RESIGNS[self.side]} {v.cap(self.side.other)} wins by resignation"


@dataclass(frozen=True)
class DrawAgreed:
    """329: the Awari draw offer was accepted."""

    def to_line(self, v: Vocabulary) -> str:
        return "329 Draw accepted"


@dataclass(frozen=True)
class DrawOffered:
    """331 / 332: ``side`` offers a draw (Awari)."""

    side: Side

    def to_line(self, v: Vocabulary) -> str:
        return f"{DRAW_OFFERED[self.side]} Draw requested by {v.sides[self.side]}"


@dataclass(frozen=True)
class DrawRefused:
    """333 / 334: ``side`` refused the draw offer."""

    side: Side

    def to_line(self, v: Vocabulary) -> str:
        return f"{DRAW_REFUSED[self.side]} Draw refused by {v.sides[self.side]}"


@dataclass(frozen=True)
class PlayerName:
    """341 / 342 (Table 4)."""

    side: Side
    name: str

    def to_line(self, v: Vocabulary) -> str:
        return f"{CONFIG[self.side]} {quote_name(self.name)} {v.sides[self.side]} player"


@dataclass(frozen=True)
class ObserverName:
    """343 (Table 4)."""

    number: int
    name: str

    def to_line(self, v: Vocabulary) -> str:
        return f"343 {self.number} {quote_name(self.name)} observer"


@dataclass(frozen=True)
class ObserverCount:
    """344 (Table 4)."""

    count: int

    def to_line(self, v: Vocabulary) -> str:
        return f"344 {self.count} observers"


@dataclass(frozen=True)
class Role:
    """351 / 352 / 353 (Table 5): the side to play, or None to observe."""

    side: Side | None

    def to_line(self, v: Vocabulary) -> str:
        if self.side is None:
            return "353 You will observe"
        return f"{ROLE[self.side]} You will play {v.sides[self.side]}"


@dataclass(frozen=True)
class FlagFell:
    """361 / 362: ``side``'s time ran out (362 when the first player's did)."""

    side: Side

    def to_line(self, v: Vocabulary) -> str:
        return f"{FLAG_FELL[self.side]} {v.cap(self.side.other)} wins by {v.cap(self.side)} time expiring"


@dataclass(frozen=True)
class Disconnected:
    """391 / 392: ``side`` left during the game, or was cut off, and loses."""

    side: Side

    def to_line(self, v: Vocabulary) -> str:
        return f"{DISCONNECTED[self.side]} {v.cap(self.side)} disconnected, {v.sides[self.side.other]} wins"


_BOARD_NUMBERS = re.compile(r"\d+")


def board_problem(game: str, lines: tuple[str, ...]) -> str | None:
    """What is wrong with a 382 board (Table 10) as this referee draws it, None if
    nothing: Gothello's five ranks of five ``b``/``w``/``.``, rank 5 first; Awari's
    four lines, north's store and pits (seven numbers) then south's pits and store."""
    if game == "gothello":
        if len(lines) != 5 or any(len(row) != 5 or set(row) - set("bw.") for row in lines):
            return "a Gothello board is 5 lines of 5 of b, w and ."
        return None
    if len(lines) != 4 or any(len(_BOARD_NUMBERS.findall(lines[i])) != 7 for i in (1, 2)):
        return "an Awari board is 4 lines, the second and third with a store and six pits"
    return None


@dataclass(frozen=True)
class Aborted:
    """399: the referee failed or stopped; the game has no result."""

    text: str

    @staticmethod
    def because(reason: str) -> Aborted:
        return Aborted(f"Unknown problem: {reason}, game aborted")

    @property
    def termination(self) -> Termination:
        """Why, as this referee's own reasons say (``ABORT_REASONS``); any other
        399 (another server's) is the referee failing."""
        return next((t for t, reason in ABORT_REASONS.items() if self == Aborted.because(reason)), Termination.ERROR)

    def to_line(self, v: Vocabulary) -> str:
        return f"399 {self.text}"


ABORT_REASONS = {
    Termination.SHUTDOWN: "the server is shutting down",
    Termination.DIVERGENCE: "the fast engine and the spec disagree",
    Termination.ADJUDICATION: "the match runner adjudicated the game",
}
"""The reasons a 399 of this referee gives for ending a game it did not fail."""


@dataclass(frozen=True)
class DisplayStatus:
    """380 / 381 (Table 10): the number of the next move, the clocks (first
    player's first) and the side to move, None once the game is over."""

    serial: int
    times: tuple[int, int] | None
    to_move: Side | None

    def to_line(self, v: Vocabulary) -> str:
        letter = "." if self.to_move is None else v.letters[self.to_move]
        if self.times is None:
            return f"380 {self.serial} {letter}"
        return f"381 {self.serial} {self.times[0]} {self.times[1]} {letter}"


@dataclass(frozen=True)
class BoardFollows:
    """382: ``lines`` board lines without a code follow."""

    lines: int

    def to_line(self, v: Vocabulary) -> str:
        return f"382 {self.lines} board lines follow"


Message = (
    Greeting
    | Seated
    | Refused
    | Accepted
    | Finished
    | Acknowledged
    | Moved
    | Ended
    | Resigned
    | DrawAgreed
    | DrawOffered
    | DrawRefused
    | PlayerName
    | ObserverName
    | ObserverCount
    | Role
    | FlagFell
    | Disconnected
    | Aborted
    | DisplayStatus
    | BoardFollows
)
"""Every response line but the board lines after 382."""

FINAL = (Ended, Resigned, DrawAgreed, FlagFell, Disconnected, Aborted)
"""The status messages after which the server closes the connection."""

_TO_MOVE = {"b": Side.FIRST, "s": Side.FIRST, "w": Side.SECOND, "n": Side.SECOND, ".": None, "*": None}
"""380/381's <to-move>: ``.`` once the game is over (gthd sent ``*``)."""


def _int(word: str, line: str) -> int:
    if not word.isascii() or not word.isdigit():
        raise ProtocolError(f"expected a number, got {word!r}", line)
    return int(word)


def _serial_move(words: list[str], side: int, line: str) -> tuple[int, str, list[str]]:
    """``<n> <m> …`` (first player) or ``<n> ... <m> …`` (second): n, m, the rest."""
    dots = 1 if side else 0
    if len(words) < 2 + dots or (side and words[1] != "..."):
        raise ProtocolError("expected <n> [...] <move>", line)
    return _int(words[0], line), words[1 + dots], words[2 + dots :]


def _moved(code: int, words: list[str], line: str) -> Moved:
    side, timed = Side((code - 311) % 2), code in (313, 314, 317, 318)
    serial, move, rest = _serial_move(words, side, line)
    seconds = _int(rest[0], line) if timed and rest else None
    if timed and seconds is None:
        raise ProtocolError("expected the mover's seconds", line)
    return Moved(serial, side, move, seconds)


def _display(code: int, words: list[str], line: str) -> DisplayStatus:
    want = 2 if code == 380 else 4
    if len(words) < want:
        raise ProtocolError("expected <n> [<secs> <secs>] <to-move>", line)
    times = (_int(words[1], line), _int(words[2], line)) if code == 381 else None
    letter = words[want - 1]
    if letter not in _TO_MOVE:
        raise ProtocolError(f"unknown side to move {letter!r}", line)
    return DisplayStatus(_int(words[0], line), times, _TO_MOVE[letter])


def _seated(code: int, words: list[str], rest: str, line: str) -> Seated:
    if code == 100:
        return Seated(None)
    if len(words) < 2:
        raise ProtocolError("expected two times", line)
    times = (_int(words[0], line), _int(words[1], line))
    increments = None
    if "Increment:" in words[:-2]:
        at = words.index("Increment:")
        try:
            increments = (float(words[at + 1]), float(words[at + 2]))
        except ValueError:
            raise ProtocolError("expected two increments after Increment:", line) from None
    return Seated(times, not rest.endswith("(you / opp)"), increments)


def _finished(code: int, words: list[str], text: str) -> Finished:
    move = words[1] if len(words) > 1 and words[0] == "Move" else None
    return Finished(code, move, text)


def _accepted(code: int, words: list[str], line: str) -> Accepted:
    if code == 200:  # 200 Move <m> accepted, …
        if len(words) < 2:
            raise ProtocolError("expected the move", line)
        return Accepted(words[1], None)
    # 207 <secs> secs remaining after move <m> accepted, …
    if len(words) < 6 or words[4] != "move":
        raise ProtocolError("expected <secs> secs remaining after move <m>", line)
    return Accepted(words[5], _int(words[0], line))


def _config(code: int, words: list[str], rest: str, line: str) -> Message:
    if code in (341, 342):
        return PlayerName(Side.SECOND if code == 341 else Side.FIRST, _unquote(rest, line))
    if code == 343:
        number, _, quoted = rest.partition(" ")
        return ObserverName(_int(number, line), _unquote(quoted, line))
    return ObserverCount(_int(words[0], line) if words else 0)


_SIMPLE: dict[int, Message] = {
    327: Resigned(Side.SECOND),
    328: Resigned(Side.FIRST),
    329: DrawAgreed(),
    331: DrawOffered(Side.FIRST),
    332: DrawOffered(Side.SECOND),
    333: DrawRefused(Side.FIRST),
    334: DrawRefused(Side.SECOND),
    351: Role(Side.SECOND),
    352: Role(Side.FIRST),
    353: Role(None),
    361: FlagFell(Side.SECOND),
    362: FlagFell(Side.FIRST),
    391: Disconnected(Side.FIRST),
    392: Disconnected(Side.SECOND),
}


def parse(line: str) -> Message:
    """One response line (without its CRLF) as a message; ProtocolError when it is
    not a line of the protocol.  Lenient about the free text after the arguments,
    as gthd's client libraries are."""
    if len(line) < 3 or not line[:3].isdigit() or (len(line) > 3 and line[3] != " "):
        raise ProtocolError("expected a 3-digit code and a space", line)
    code, rest = int(line[:3]), line[4:]
    words = rest.split()
    if code == 0:
        if len(words) < 3:
            raise ProtocolError("expected <version> version <title> …", line)
        rules = words[words.index("Rules:") + 1] if "Rules:" in words[:-1] else PAPER_RULES
        opening = _int(words[words.index("Opening:") + 1], line) if "Opening:" in words[:-1] else 0
        return Greeting(words[0], words[2], rules, opening)
    if code in (100, 101):
        return _seated(code, words, rest, line)
    if 190 <= code <= 199 or code in (291, 299):
        return Refused(code, rest)
    if code in (200, 207):
        return _accepted(code, words, line)
    if code in (201, 202, 203):
        return _finished(code, words, rest)
    if code in (204, 205, 206):
        return Acknowledged(code, rest)
    if 311 <= code <= 318:
        return _moved(code, words, line)
    if code in _ENDS:
        side, winner = _ENDS[code]
        serial, move, _ = _serial_move(words, side, line)
        return Ended(serial, Side(side), move, _side(winner))
    if code in _SIMPLE:
        return _SIMPLE[code]
    if 341 <= code <= 344:
        return _config(code, words, rest, line)
    if code in (380, 381):
        return _display(code, words, line)
    if code == 382:
        return BoardFollows(_int(words[0], line) if words else 5)  # gthd's bare 382: 5 lines
    if code == 399:
        return Aborted(rest)
    raise ProtocolError(f"unknown response code {code:03d}", line)
