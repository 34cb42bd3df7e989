"""The record of a finished game as a value and its text (format in
docs/protocol.md, "Game records"); the server (impl/server/server.py) writes the
files.  The JSON-lines log is impl/log.py."""

from __future__ import annotations

import socket
from dataclasses import dataclass
from datetime import UTC, datetime

from impl.game import Outcome, Side, Termination
from impl.log import utc
from impl.pgn import DEFAULT_RULES, OPENING, PgnGame, build, player_tags, time_control, write


@dataclass(frozen=True)
class GameRecord:
    """What a record file holds; ``plies`` are the accepted moves with their
    full-move numbers (``1 c3``, ``1 ... d4``), normalised; ``clocks`` the mover's
    seconds left after each ply, with time controls."""

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
    plies: tuple[str, ...]
    clocks: tuple[float, ...] | None = None
    divergences: tuple[str, ...] | None = None
    """Under the checked engine, what it found (a header line each), else None."""

    rules: str | None = None
    """The rule set's name, None for the paper's (impl/pgn.py's DEFAULT_RULES)."""
    opening: tuple[str, ...] = ()
    """The moves the referee played first (the first plies), if any."""

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
            ("Rules", self.rules or DEFAULT_RULES),
            ("TimeControl", time_control(self.time)),
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
        moves = [ply.split()[-1] for ply in self.plies]
        return build(self.game, tags, moves, self.clocks, self.outcome)

    @property
    def outcome(self) -> Outcome:
        winner = next((Side(i) for i, s in enumerate(self.sides) if self.result == f"{s} wins"), None)
        return Outcome(winner, self.termination)

    def text(self) -> str:
        """The record file's text: PGN-style (impl/pgn.py, docs/protocol.md "Game records")."""
        return write(self.pgn())
