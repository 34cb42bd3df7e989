"""``referee match/tournament --strict``: a protocol warning forfeits the game.

The server tolerates much from a player (docs/protocol.md §2, §7): a line it does
not understand, a wrong serial number, missing or surplus ellipses, a request out
of turn or while a draw offer waits, a seat request refused by its form — each
refused with a 19x/29x and ignored, the player free to try again — and gthd's
bare ``pass``, accepted.  Strict judging reads the game's transcript
(impl/server/transcript.py, recorded by a session hook) once the game is over:
the first such line a player sent makes it lose (``first_warning``).  A move the
rules refuse (``291 Illegal move``) is no warning: the papers let the player
choose again, and a player that knows no rules (examples/raw_player.c) relies on
it.  Lines the framing layer skips (empty lines, a bare CR) never reach the
session and are not judged.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass

from impl.protocol import ROLE

TAG = "ProtocolWarning"
"""The record's tag that says which warning lost the game."""
KIND = "protocol warning"
"""The failure's kind in a run's summary."""
RULES_REFUSAL = "291 Illegal move"
"""The one refusal that is no protocol warning: the rules refused a well-formed move."""
BARE_PASS = "accepted, but a bare pass has no number (gthd's leniency): '<n> pass' or '<n> ... pass'"


@dataclass(frozen=True)
class ProtocolWarning:
    """A line a player sent that the server refused or tolerated."""

    side: int
    """The sender's side (0: the first mover)."""
    line: str
    """What it sent (for a line the framing refused, that refusal's words)."""
    answer: str
    """What the server answered, or why the line was only tolerated."""

    def describe(self, sides: tuple[str, str]) -> str:
        return f"{sides[self.side]} sent {self.line!r}: {self.answer}"


def first_warning(lines: Iterable[str]) -> ProtocolWarning | None:
    """The first protocol warning of a player in a transcript's lines, None if none.
    A player is a connection the server told its side (351/352); a refusal (19x
    before seating, 29x after) answers the line its connection sent last."""
    found: list[tuple[int, str, str]] = []
    sides: dict[int, int] = {}
    last: dict[int, str] = {}
    for text in lines:
        entry = json.loads(text)
        conn, direction, line = entry.get("c"), entry.get("d"), entry.get("line", "")
        if direction == "in":
            last[conn] = line
            if line.split() == ["pass"]:
                found.append((conn, line, BARE_PASS))
        elif direction == "bad":
            last[conn] = f"<a line the server could not read: {line}>"
            # its refusal follows as an "out" line
        elif direction == "out":
            code = line[:3]
            if code.isdigit() and int(code) in ROLE:
                sides.setdefault(conn, ROLE.index(int(code)))
            elif code[:2] in ("19", "29") and not line.startswith(RULES_REFUSAL):
                found.append((conn, last.get(conn, ""), line))
    for conn, line, answer in found:
        if conn in sides:
            return ProtocolWarning(sides[conn], line, answer)
    return None


FLAG = "--strict"
HELP = (
    "a player's protocol warning (a line the server refused, other than an illegal move, or only "
    "tolerated) loses it the game (default off)"
)
"""The switch match and tournament take (impl/apps/tournament/command.py ``add_game_arguments``)."""
