"""The record of a finished game, made once when it ends: the server's facts as one
``impl.pgn.PgnGame`` (format in docs/protocol.md, "Game records"), the one record
model the server writes, the runners judge and the web view and the tools read
back.  The server (impl/server/server.py) writes the files; the JSON-lines log is
impl/log.py."""

from __future__ import annotations

import socket
from datetime import UTC, datetime

from impl.game import Outcome, Side, Termination, rules_tag
from impl.log import utc
from impl.pgn import OPENING, PgnGame, Ply, player_tags, record, time_control_tags

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
    result: str,
    termination: Termination,
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
    in the papers' words (``south wins``, ``draw``, ``aborted``); ``plies`` the
    accepted moves, each its token, its movetext (the engine's description) and
    the mover's seconds left after it; ``unchecked`` the first ply the fast engine
    diverged at and ``divergences`` what the checked engine found (None: not
    checked); ``rules`` the engine's ``rule_set``."""
    begun = datetime.fromtimestamp(started, UTC)
    colours, papers = player_tags(game, names)
    tags = [
        ("Event", f"{game.capitalize()} referee server {server}"),
        ("Site", socket.gethostname() or "?"),
        ("Date", begun.strftime("%Y.%m.%d")),
        ("Round", str(game_no)),
        *colours,
        ("Result", "*"),
        *papers,
        ("Game", game),
        ("Rules", rules_tag(rules)),
        *time_control_tags(game, time, increment),
        ("Termination", termination.value),
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
    winner = next((Side(i) for i, s in enumerate(sides) if result == f"{s} wins"), None)
    return record(game, tags, plies, Outcome(winner, termination), unchecked)
