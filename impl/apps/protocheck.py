"""``referee match/tournament --check-protocol``: every line each game's server sends
checked live against the protocol's model (spec/protocol.py), as ``referee serve
--check-protocol`` does (impl/server/transcript.py ``Monitor``).

Every game checked says so in its record (``[ProtocolCheck "ok"]``), or says what
diverged (``[ProtocolCheck "line 9: connection 2 got …; the model allowed …"]``), so
a resumed run knows which games were checked and how.  A divergence is the
referee's fault, never a player's: the game and its result stand (the server is the
authority, the model only watches), the summary lists it against the referee, and
the run exits 1.
"""

from __future__ import annotations

from collections.abc import Iterable

from impl import pgn
from impl.server.transcript import Monitor

TAG = "ProtocolCheck"
"""The record's tag: ``OK``, or the first line the server sent that the model did not allow."""
OK = "ok"
KIND = "protocol divergence"
"""The failure's kind in a run's summary."""
CULPRIT = "referee"
"""Who a divergence is charged to in a run's summary."""


FLAG = "--check-protocol"
HELP = (
    "check every line the referee sends against the protocol's model (spec/protocol.py); a divergence "
    "is tagged in the game's record, listed in the summary, and makes the run exit 1 (default off)"
)
"""The switch match and tournament take (impl/apps/tournament/command.py ``add_game_arguments``)."""


def divergence(monitors: Iterable[Monitor]) -> str:
    """The first divergence the monitors found, "" if none."""
    return next((m.divergence for m in monitors if m.divergence), "")


def tag_of(record: str) -> str:
    """A game record's divergence: its ``ProtocolCheck`` tag unless ``ok``; "" if it
    has none (not checked, or checked without a divergence)."""
    return _diverged(pgn.tag_in(record, TAG))


def _diverged(tag: str) -> str:
    """The divergence a ``ProtocolCheck`` tag's value states, "" for ``ok`` or none."""
    return "" if tag == OK else tag


def report(records: Iterable[tuple[int, str]]) -> tuple[str, list[str]]:
    """A run's (game number, record) pairs: the count line and one line per
    divergence (``game N: …``).  Games played without the check (before a resume
    with it) are counted apart."""
    seen = list(records)
    tags = [(number, pgn.tag_in(text, TAG)) for number, text in seen]  # each record parsed once
    done = [(number, _diverged(found)) for number, found in tags if found]
    lines = [f"game {number}: {what}" for number, what in done if what]
    of = "" if len(done) == len(seen) else f" of {len(seen)}"
    head = f"protocol: {len(done)}{of} games checked against spec/protocol.py, {len(lines)} divergences"
    return head, lines
