"""``referee match/tournament --check-protocol``: every line each game's server sends
checked live against the protocol's model (spec/protocol.py), as ``referee serve
--check-protocol`` does (impl/server/transcript.py ``Monitor``).

A divergence is the referee's fault, never a player's: the game and its result stand
(the server is the authority, the model only watches), the record says what
diverged (its ``ProtocolDivergence`` tag, so a resumed run still knows), the
summary lists it against the referee, and the run exits 1.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterable

from impl import pgn
from impl.server.session import Session
from impl.server.transcript import Monitor, monitor

TAG = "ProtocolDivergence"
"""The record's tag: the first line the server sent that the model did not allow."""
KIND = "protocol divergence"
"""The failure's kind in a run's summary."""
CULPRIT = "referee"
"""Who a divergence is charged to in a run's summary."""


def add_argument(p: argparse.ArgumentParser) -> None:
    """``--check-protocol``, for match and tournament."""
    p.add_argument(
        "--check-protocol",
        action="store_true",
        help="check every line the referee sends against the protocol's model (spec/protocol.py); a divergence "
        "is tagged in the game's record, listed in the summary, and makes the run exit 1 (default off)",
    )


def watcher() -> tuple[Callable[[Session], None], list[Monitor]]:
    """A session hook that checks each game's server live, and the list of its monitors."""
    kept: list[Monitor] = []

    def hook(session: Session) -> None:
        kept.append(monitor(session))

    return hook, kept


def divergence(monitors: Iterable[Monitor]) -> str:
    """The first divergence the monitors found, "" if none."""
    return next((m.divergence for m in monitors if m.divergence), "")


def tag_of(record: str) -> str:
    """A game record's ``ProtocolDivergence`` tag, "" if the record has none."""
    return pgn.tag_in(record, TAG)


def report(records: Iterable[tuple[int, str]]) -> tuple[str, list[str]]:
    """``records``' (game number, record) checked: the count line and one line per
    divergence (``game N: …``)."""
    seen = list(records)
    found = [(number, tag_of(text)) for number, text in seen]
    lines = [f"game {number}: {what}" for number, what in found if what]
    head = f"protocol: {len(seen)} games checked against spec/protocol.py, {len(lines)} divergences"
    return head, lines
