"""The wire, in one place and without I/O: the request lines a client sends and the
response lines it reads, as impl/server/PROTOCOL.md defines them (the papers'
section 2, Tables 1–10).

Sides are indexed as in the server: 0 for the player who moves first (south,
black), 1 for the second (north, white).  ``parse`` turns one response line into
one typed message; ``LineBuffer`` turns received bytes into lines.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .errors import ProtocolError

CLIENT_VERSION = "0.9.1"
"""The version we send in seat requests (PROTOCOL.md §5)."""

PORT_BASE = {"awari": 29046, "gothello": 29068}
SIDES = {"awari": ("south", "north"), "gothello": ("black", "white")}
TITLES = {"awari": "Awari", "gothello": "Gothello"}
LETTERS = {"awari": ("s", "n"), "gothello": ("b", "w")}
MAX_LINE = 64 * 1024
"""Longest response line we accept: far beyond anything the server sends."""


def port_of(game: str, server: int) -> int:
    """Awari listens on 29046 + n, Gothello on 29068 + n (PROTOCOL.md §1)."""
    return PORT_BASE[game] + server


# ─── Requests (Tables 2, 6 and 7) ──────────────────────────────────────────────


def quote_name(name: str) -> str:
    """A name as the seat request carries it: double-quoted, ``"`` doubled."""
    if len(name) > 31 or not all(" " <= ch <= "~" for ch in name):
        raise ValueError(f"names are at most 31 printable ASCII characters: {name!r}")
    return '"' + name.replace('"', '""') + '"'


def seat_request(side: str, name: str = "") -> str:
    """``<version> player <side>|? [<name>]`` (Table 2)."""
    return f"{CLIENT_VERSION} player {side}" + (f" {quote_name(name)}" if name else "")


def observe_request(name: str = "") -> str:
    """``<version> observer [<name>]`` (Table 2)."""
    return f"{CLIENT_VERSION} observer" + (f" {quote_name(name)}" if name else "")


def move_request(serial: int, side: int, token: str) -> str:
    """``<n> <move>`` for the first player, ``<n> ... <move>`` for the second; ``<n>``
    is the full-move number (PROTOCOL.md §7)."""
    return f"{serial} ... {token}" if side else f"{serial} {token}"


# ─── Responses ─────────────────────────────────────────────────────────────────


@dataclass(frozen=True)
class Greeting:
    """000 (Table 1)."""

    version: str
    title: str
    """``Awari`` or ``Gothello``: which game the server referees."""


@dataclass(frozen=True)
class Seated:
    """100 / 101 (Table 3).  ``times``: for a player its own then its opponent's
    seconds; for an observer the second player's then the first's."""

    times: tuple[int, int] | None


@dataclass(frozen=True)
class Refused:
    """19x (seat refused) or 291/299 (request refused): the connection stays open."""

    code: int
    text: str


@dataclass(frozen=True)
class Accepted:
    """200 / 207 (Table 8): our move was accepted and the game goes on; ``secs`` is
    our time left (207)."""

    move: str
    secs: int | None


@dataclass(frozen=True)
class Finished:
    """201 / 202 / 203 to the mover (Table 8) — or 202 ``Your time expires`` and
    203 ``Draw accepted``; ``move`` is None for those two."""

    code: int
    move: str | None
    text: str


@dataclass(frozen=True)
class Acknowledged:
    """204 resignation, 205 draw offer, 206 draw refusal received."""

    code: int
    text: str


@dataclass(frozen=True)
class Moved:
    """311–318 (Table 9): ``side`` moved ``move`` as its ``serial``-th move; the game
    goes on.  ``secs``: the mover's time left, with time controls."""

    serial: int
    side: int
    move: str
    secs: int | None


@dataclass(frozen=True)
class Ended:
    """321–326 (Table 9): ``side``'s move ended the game; ``winner`` is None for a draw."""

    serial: int
    side: int
    move: str
    winner: int | None


@dataclass(frozen=True)
class Resigned:
    """327 / 328: ``side`` resigned (327 when the second player did)."""

    side: int


@dataclass(frozen=True)
class DrawAgreed:
    """329: the Awari draw offer was accepted."""


@dataclass(frozen=True)
class DrawOffered:
    """331 / 332: ``side`` offers a draw (Awari)."""

    side: int


@dataclass(frozen=True)
class DrawRefused:
    """333 / 334: ``side`` refused the draw offer."""

    side: int


@dataclass(frozen=True)
class PlayerName:
    """341 / 342 (Table 4)."""

    side: int
    name: str


@dataclass(frozen=True)
class ObserverName:
    """343 (Table 4)."""

    number: int
    name: str


@dataclass(frozen=True)
class ObserverCount:
    """344 (Table 4)."""

    count: int


@dataclass(frozen=True)
class Role:
    """351 / 352 / 353 (Table 5): the side we play, or None when we observe."""

    side: int | None


@dataclass(frozen=True)
class FlagFell:
    """361 / 362: ``side``'s time ran out (362 when the first player's did)."""

    side: int


@dataclass(frozen=True)
class Disconnected:
    """391 / 392: ``side`` left during the game and loses."""

    side: int


@dataclass(frozen=True)
class Aborted:
    """399: the referee failed; the game has no result."""

    text: str


@dataclass(frozen=True)
class DisplayStatus:
    """380 / 381 (Table 10): the number of the next move, the clocks (first
    player's first) and the side to move, None once the game is over."""

    serial: int
    times: tuple[int, int] | None
    to_move: int | None


@dataclass(frozen=True)
class BoardFollows:
    """382: ``lines`` board lines without a code follow."""

    lines: int


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

FINAL = (Ended, Resigned, DrawAgreed, FlagFell, Disconnected, Aborted)
"""The status messages after which the server closes the connection (§8)."""

_QUOTED = re.compile(r'"((?:[^"]|"")*)"')
_ENDS = {321: (0, 0), 322: (0, 1), 323: (1, 1), 324: (1, 0), 325: (0, None), 326: (1, None)}
"""32x → (the mover, the winner)."""
_TO_MOVE = {"b": 0, "s": 0, "w": 1, "n": 1, ".": None, "*": None}
"""380/381's <to-move>: ``.`` once the game is over (gthd sent ``*``)."""


def _int(word: str, line: str) -> int:
    if not word.isascii() or not word.isdigit():
        raise ProtocolError(f"expected a number, got {word!r}", line)
    return int(word)


def _name(text: str, line: str) -> str:
    match = _QUOTED.match(text)
    if match is None:
        raise ProtocolError("expected a quoted name", line)
    return match.group(1).replace('""', '"')


def _serial_move(words: list[str], side: int, line: str) -> tuple[int, str, list[str]]:
    """``<n> <m> …`` (first player) or ``<n> ... <m> …`` (second): n, m, the rest."""
    dots = 1 if side else 0
    if len(words) < 2 + dots or (side and words[1] != "..."):
        raise ProtocolError("expected <n> [...] <move>", line)
    return _int(words[0], line), words[1 + dots], words[2 + dots :]


def _moved(code: int, words: list[str], line: str) -> Moved:
    side, timed = (code - 311) % 2, code in (313, 314, 317, 318)
    serial, move, rest = _serial_move(words, side, line)
    secs = _int(rest[0], line) if timed and rest else None
    if timed and secs is None:
        raise ProtocolError("expected the mover's seconds", line)
    return Moved(serial, side, move, secs)


def _display(code: int, words: list[str], line: str) -> DisplayStatus:
    want = 2 if code == 380 else 4
    if len(words) < want:
        raise ProtocolError("expected <n> [<secs> <secs>] <to-move>", line)
    times = (_int(words[1], line), _int(words[2], line)) if code == 381 else None
    letter = words[want - 1]
    if letter not in _TO_MOVE:
        raise ProtocolError(f"unknown side to move {letter!r}", line)
    return DisplayStatus(_int(words[0], line), times, _TO_MOVE[letter])


def _seated(code: int, words: list[str], line: str) -> Seated:
    if code == 100:
        return Seated(None)
    if len(words) < 2:
        raise ProtocolError("expected two times", line)
    return Seated((_int(words[0], line), _int(words[1], line)))


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
        return PlayerName(1 if code == 341 else 0, _name(rest, line))
    if code == 343:
        number, _, quoted = rest.partition(" ")
        return ObserverName(_int(number, line), _name(quoted, line))
    return ObserverCount(_int(words[0], line) if words else 0)


def parse(line: str) -> Message:
    """One response line (without its CRLF) as a message; ProtocolError when it is
    not a line of the protocol."""
    if len(line) < 3 or not line[:3].isdigit() or (len(line) > 3 and line[3] != " "):
        raise ProtocolError("expected a 3-digit code and a space", line)
    code, rest = int(line[:3]), line[4:]
    words = rest.split()
    if code == 0:
        if len(words) < 3:
            raise ProtocolError("expected <version> version <title> …", line)
        return Greeting(words[0], words[2])
    if code in (100, 101):
        return _seated(code, words, line)
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
        return Ended(serial, side, move, winner)
    simple: dict[int, Message] = {
        327: Resigned(1),
        328: Resigned(0),
        329: DrawAgreed(),
        331: DrawOffered(0),
        332: DrawOffered(1),
        333: DrawRefused(0),
        334: DrawRefused(1),
        351: Role(1),
        352: Role(0),
        353: Role(None),
        361: FlagFell(1),
        362: FlagFell(0),
        391: Disconnected(0),
        392: Disconnected(1),
    }
    if code in simple:
        return simple[code]
    if 341 <= code <= 344:
        return _config(code, words, rest, line)
    if code in (380, 381):
        return _display(code, words, line)
    if code == 382:
        return BoardFollows(_int(words[0], line) if words else 5)  # gthd's bare 382: 5 lines
    if code == 399:
        return Aborted(rest)
    raise ProtocolError(f"unknown response code {code:03d}", line)


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
