"""The record of a finished game as a value and its text (format in
docs/protocol.md, "Game records"); the server (impl/server/server.py) writes the
files.  The JSON-lines log is impl/log.py."""

from __future__ import annotations

import socket
from dataclasses import dataclass
from datetime import UTC, datetime

from impl.game import Outcome, Side, Termination, rules_tag
from impl.log import utc
from impl.pgn import OPENING, PgnGame, Ply, player_tags, record, time_control_tags, write


@dataclass(frozen=True)
class GameRecord:
    """What a record file holds, built from the session's events (impl/server/
    session.py ``_record``): ``plies`` are the accepted moves, each its token, its
    movetext (the engine's description of it) and the mover's seconds left after
    it (None without time controls) — impl/pgn.py's ``Ply``, the one model of a
    move that records are written from and read into."""

    game: str
    server: int
    game_no: int
    engine: str
    started: float
    ended: float
    sides: tuple[str, str]
    names: tuple[str, str]
    time: tuple[float, float] | None
    result: str
    termination: Termination
    score: str
    rules: str
    """The rule set's canonical name (the engine's ``rule_set``)."""
    plies: tuple[Ply, ...]
    unchecked: int | None = None
    """The first ply the fast engine diverged at (the checked engine's), None if none."""
    divergences: tuple[str, ...] | None = None
    """Under the checked engine, what it found (a header line each), else None."""
    opening: tuple[str, ...] = ()
    """The moves the referee played first (the first plies), if any."""
    increment: tuple[float, float] = (0.0, 0.0)
    """Each side's Fischer increment, first mover's first."""

    def pgn(self) -> PgnGame:
        """The record as a PGN-style game (impl/pgn.py): the players under PGN's
        ``White`` and ``Black`` (and Awari's ``South`` and ``North``), names as sent."""
        started = datetime.fromtimestamp(self.started, UTC)
        colours, papers = player_tags(self.game, self.names)
        tags = [
            ("Event", f"{self.game.capitalize()} referee server {self.server}"),
            ("Site", socket.gethostname() or "?"),
            ("Date", started.strftime("%Y.%m.%d")),
            ("Round", str(self.game_no)),
            *colours,
            ("Result", "*"),
            *papers,
            ("Game", self.game),
            ("Rules", rules_tag(self.rules)),
            *time_control_tags(self.game, self.time, self.increment),
            ("Termination", self.termination.value),
            ("Server", str(self.server)),
            ("Number", str(self.game_no)),
            ("Engine", self.engine),
            ("Started", utc(self.started)),
            ("Ended", utc(self.ended)),
            ("Score", self.score),
            ("PlyCount", str(len(self.plies))),
        ]
        if self.opening:
            tags.append((OPENING, " ".join(self.opening)))
        if self.divergences is not None:
            tags.append(("Divergences", str(len(self.divergences))))
            tags += [("Divergence", d) for d in self.divergences]
        return record(self.game, tags, self.plies, self.outcome, self.unchecked)

    @property
    def outcome(self) -> Outcome:
        winner = next((Side(i) for i, s in enumerate(self.sides) if self.result == f"{s} wins"), None)
        return Outcome(winner, self.termination)

    def text(self) -> str:
        """The record file's text: PGN-style (impl/pgn.py, docs/protocol.md "Game records")."""
        return write(self.pgn())
