"""The wire vocabulary of both referees: versions, names, seat requests, actions
and the response lines, as pure functions (no I/O).  impl/server/PROTOCOL.md is
the reference for client authors; the tables cited below are those of the papers'
section 2 (seed 000 for Awari, seed 001 for Gothello), which number them alike.

Sides are indexed 0 for the player who moves first (south, black) and 1 for the
second (north, white), the order of ``Engine.players``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum

SERVER_VERSION = (0, 9, 1)
SERVER_VERSION_TEXT = "0.9.1"
NAME_MAX = 31
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


AWARI = Vocabulary("awari", "Awari", ("south", "north"), ("s", "n"), 29046, False, True)
GOTHELLO = Vocabulary("gothello", "Gothello", ("black", "white"), ("b", "w"), 29068, True, False)
VOCABULARIES = {v.game: v for v in (AWARI, GOTHELLO)}


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


def parse_name(text: str) -> str | None:
    """The optional name: ``""``-escaped inside double quotes, at most NAME_MAX
    characters once unescaped.  Empty text is the empty name; None if malformed."""
    if not text:
        return ""
    match = _QUOTED.fullmatch(text)
    if match is None:
        return None
    name = match.group(1).replace('""', '"')
    return name if len(name) <= NAME_MAX else None


def quote_name(name: str) -> str:
    """A name as sent in 341–343: always quoted, quotes doubled."""
    return '"' + name.replace('"', '""') + '"'


# ─── Seat requests (Table 2; responses Table 3) ────────────────────────────────


class Seat(Enum):
    FIRST = 0
    SECOND = 1
    EITHER = 2
    OBSERVER = 3


@dataclass(frozen=True)
class SeatRequest:
    seat: Seat
    name: str
    version: str


@dataclass(frozen=True)
class SeatRefusal:
    code: int
    text: str


def _split_word(text: str) -> tuple[str, str]:
    """The first space/tab separated word and the rest (gthd splits on those two)."""
    text = text.lstrip(" \t")
    for i, ch in enumerate(text):
        if ch in " \t":
            return text[:i], text[i:].strip(" \t")
    return text, ""


def parse_seat(vocab: Vocabulary, line: str) -> SeatRequest | SeatRefusal:
    """``<version> player <side>|? [<name>]`` or ``<version> observer [<name>]``.
    A line whose second word is ``player`` or ``observer`` has its version checked
    first (198); anything else not understood is 199."""
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
        seats = {vocab.sides[0]: Seat.FIRST, vocab.sides[1]: Seat.SECOND, "?": Seat.EITHER}
        if side not in seats:
            return SeatRefusal(199, f"Request not understood (side must be {vocab.sides[1]}, {vocab.sides[0]} or ?)")
        seat = seats[side]
    name = parse_name(rest)
    if name is None:
        return SeatRefusal(199, f'Request not understood (name must be "..." of at most {NAME_MAX} characters)')
    return SeatRequest(seat, name, version)


# ─── Actions (Tables 6 and 7) ──────────────────────────────────────────────────


class Kind(Enum):
    MOVE = "move"
    RESIGN = "resign"
    DRAW_OFFER = "draw?"
    DRAW_ACCEPT = "draw"
    DRAW_REFUSE = "nodraw"


@dataclass(frozen=True)
class Action:
    """A request during play.  For MOVE: ``serial`` is None for a bare ``pass``."""

    kind: Kind
    serial: int | None = None
    ellipsis: bool = False
    token: str = ""


@dataclass(frozen=True)
class Garbled:
    text: str


_WORDS = {"resign": Kind.RESIGN, "draw?": Kind.DRAW_OFFER, "draw": Kind.DRAW_ACCEPT, "nodraw": Kind.DRAW_REFUSE}


def parse_action(vocab: Vocabulary, line: str) -> Action | Garbled:
    """``<n> <move>``, ``<n> ... <move>``, ``pass`` (Gothello), ``resign``, and for
    Awari ``draw?``, ``draw``, ``nodraw``.  The move token is checked later, by the
    engine; only the shape is checked here."""
    words = line.split()
    if len(words) == 1:
        kind = _WORDS.get(words[0])
        if kind is not None and (kind is Kind.RESIGN or vocab.has_draw_offers):
            return Action(kind)
        if words[0] == "pass" and vocab.has_pass:
            return Action(Kind.MOVE, token="pass")
        return Garbled("Request not understood")
    if len(words) in (2, 3) and words[0].isascii() and words[0].isdigit() and len(words[0]) <= 9:
        if len(words) == 2:
            return Action(Kind.MOVE, int(words[0]), False, words[1])
        if words[1] == "...":
            return Action(Kind.MOVE, int(words[0]), True, words[2])
    return Garbled("Request not understood")


# ─── Response codes (Tables 5, 8 and 9), indexed by side ───────────────────────

ROLE = (352, 351)
CONFIG = (342, 341)
RESIGNS = (328, 327)
"""Named after the side that resigned: 328 when the first player resigns."""
DRAW_OFFERED = (331, 332)
DRAW_REFUSED = (333, 334)
FLAG_FELL = (362, 361)
"""Named after the side whose time ran out: 362 when the first player's does."""
DISCONNECTED = (391, 392)


def moves_code(side: int, is_pass: bool, timed: bool) -> int:
    """31x: 311/312 moves, 313/314 with time, 315/316 passes, 317/318 with time."""
    return 311 + side + (4 if is_pass else 0) + (2 if timed else 0)


class Outcome(Enum):
    """How a game-ending move ended the game, for the mover."""

    WIN = "wins"
    LOSS = "loses"
    DRAW = "draws"


_ENDS = {
    (0, Outcome.WIN): 321,
    (0, Outcome.LOSS): 322,
    (1, Outcome.WIN): 323,
    (1, Outcome.LOSS): 324,
    (0, Outcome.DRAW): 325,
    (1, Outcome.DRAW): 326,
}


def ends_code(side: int, outcome: Outcome) -> int:
    """32x: 321/322/325 for the first player's move, 323/324/326 for the second's."""
    return _ENDS[(side, outcome)]


RESULT_CODE = {Outcome.WIN: 201, Outcome.LOSS: 202, Outcome.DRAW: 203}
RESULT_TEXT = {Outcome.WIN: "You win", Outcome.LOSS: "You lose", Outcome.DRAW: "You draw"}


def serial_text(serial: int, side: int) -> str:
    """``<n>`` for the first player, ``<n> ...`` for the second (Tables 6 and 9)."""
    return f"{serial} ..." if side else str(serial)


def greeting(vocab: Vocabulary) -> str:
    """Table 1, worded as gthd words it."""
    return f"000 {SERVER_VERSION_TEXT} version {vocab.title} server says hello!"


def secs(seconds: float) -> int:
    """Whole seconds as sent on the wire: truncated, never negative."""
    return max(0, int(seconds))
