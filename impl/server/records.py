"""The record of a finished game: the server's facts as one ``impl.pgn.PgnGame``
(format in docs/protocol.md, "Game records"), the one record model the server
writes, the runners judge and the web view and the tools read back.  The session
keeps the facts when the game ends (``ServerRecord``) and the record is made from
them on first use: a game nobody records or shows never pays for it, and the
server writes it in a thread (impl/server/server.py).  The JSON-lines log is
impl/log.py."""

from __future__ import annotations

import socket
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache, cached_property

from impl.game import Outcome, rules_tag
from impl.log import utc
from impl.pgn import OPENING, PgnGame, Ply, player_tags, record, time_control_tags

from .events import MoveMade

DIVERGENCE = "Divergence"
"""A tag of its own per divergence the checked engine found (``Divergences`` counts them)."""


def server_record(
    game: str,
    server: int,
    game_no: int,
    engine: str,
    started: float,
    ended: float,
    sides: tuple[str, str],
    names: tuple[str, str],
    time: tuple[float, float] | None,
    outcome: Outcome,
    score: str,
    rules: str,
    plies: tuple[Ply, ...],
    unchecked: int | None = None,
    divergences: tuple[str, ...] | None = None,
    opening: tuple[str, ...] = (),
    increment: tuple[float, float] = (0.0, 0.0),
) -> PgnGame:
    """The record of a game the server played: the players under PGN's ``White``
    and ``Black`` (and Awari's ``South`` and ``North``), names as sent; ``result``
    how it ended; ``plies`` the
    accepted moves, each its token, its movetext (the engine's description) and
    the mover's seconds left after it; ``unchecked`` the first ply the fast engine
    diverged at and ``divergences`` what the checked engine found (None: not
    checked); ``rules`` the engine's ``rule_set``."""
    begun = datetime.fromtimestamp(started, UTC)
    colours, papers = player_tags(game, names)
    tags = [
        ("Event", f"{game.capitalize()} referee server {server}"),
        ("Site", site()),
        ("Date", begun.strftime("%Y.%m.%d")),
        ("Round", str(game_no)),
        *colours,
        ("Result", "*"),
        *papers,
        ("Game", game),
        ("Rules", rules_tag(rules)),
        *time_control_tags(game, time, increment),
        ("Termination", outcome.termination.value),
        ("Server", str(server)),
        ("Number", str(game_no)),
        ("Engine", engine),
        ("Started", utc(started)),
        ("Ended", utc(ended)),
        ("Score", score),
        ("PlyCount", str(len(plies))),
    ]
    if opening:
        tags.append((OPENING, " ".join(opening)))
    if divergences is not None:
        tags.append(("Divergences", str(len(divergences))))
        tags += [(DIVERGENCE, d) for d in divergences]
    return record(game, tags, plies, outcome, unchecked)


@cache
def site() -> str:
    """The record's ``Site``: this host's name, asked once a process."""
    return socket.gethostname() or "?"


@dataclass(frozen=True)
class ServerRecord:
    """A finished game's facts as the session has them when it ends; ``record``
    is made from them on first use (and once: the server's file and the web view
    share it).  ``made``: the moves' events, whose descriptions are the movetext;
    from the ``unchecked`` ply on, the token as sent (which the fast engine may
    not describe)."""

    game: str
    server: int
    game_no: int
    engine: str
    rules: str
    started: float
    ended: float
    sides: tuple[str, str]
    names: tuple[str, str]
    time: tuple[float, float] | None
    increment: tuple[float, float]
    outcome: Outcome
    score: str
    made: Sequence[MoveMade]
    unchecked: int | None
    divergences: tuple[str, ...] | None
    opening: tuple[str, ...]

    @cached_property
    def record(self) -> PgnGame:
        made = self.made
        last = len(made) if self.unchecked is None else self.unchecked - 1
        plies = tuple(Ply(m.move, m.description.notation if i < last else m.move, m.secs) for i, m in enumerate(made))
        return server_record(
            game=self.game,
            server=self.server,
            game_no=self.game_no,
            engine=self.engine,
            rules=self.rules,
            started=self.started,
            ended=self.ended,
            sides=self.sides,
            names=self.names,
            time=self.time,
            increment=self.increment,
            outcome=self.outcome,
            score=self.score,
            plies=plies,
            unchecked=self.unchecked if self.unchecked is not None and self.unchecked <= len(made) else None,
            divergences=self.divergences,
            opening=self.opening,
        )
