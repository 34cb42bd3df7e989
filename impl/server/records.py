"""Records of play: one JSON line per event on stderr, and the record of a finished
game as a value and its text (format in docs/protocol.md, "Game records"); the
server (impl/server/server.py) writes the files."""

from __future__ import annotations

import json
import logging
import socket
import sys
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, TextIO

from impl.game import Outcome, Side, Termination
from impl.pgn import DEFAULT_RULES, OPENING, PgnGame, build, time_control, write

LOGGER = "referee"


class JsonLines(logging.Formatter):
    """``{"ts": …, "level": …, "event": …, <fields>}`` on one line."""

    def format(self, record: logging.LogRecord) -> str:
        fields: dict[str, Any] = getattr(record, "fields", {})
        line = {"ts": utc(record.created), "level": record.levelname.lower(), "event": record.getMessage(), **fields}
        return json.dumps(line, separators=(",", ":"), default=str)


def setup_logging(level: str = "info", stream: TextIO | None = None) -> logging.Logger:
    """The ``referee`` logger writing JSON lines to ``stream`` (stderr)."""
    logger = logging.getLogger(LOGGER)
    logger.handlers.clear()
    handler = logging.StreamHandler(stream if stream is not None else sys.stderr)
    handler.setFormatter(JsonLines())
    logger.addHandler(handler)
    logger.setLevel(level.upper())
    logger.propagate = False
    return logger


_LOGGER = logging.getLogger(LOGGER)
_LOGGER.addHandler(logging.NullHandler())  # silent unless set up (serve): no stray lines on stderr


def enabled(level: int) -> bool:
    """Whether an event of ``level`` would be logged (to skip building its fields)."""
    return _LOGGER.isEnabledFor(level)


def event(level: int, what: str, **fields: Any) -> None:
    """Log one event with its fields."""
    if _LOGGER.isEnabledFor(level):
        _LOGGER.log(level, what, extra={"fields": fields})


def utc(timestamp: float) -> str:
    return datetime.fromtimestamp(timestamp, UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


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
        """The record as a PGN-style game (impl/pgn.py)."""
        started = datetime.fromtimestamp(self.started, UTC)
        tags = [
            ("Event", f"{self.game.capitalize()} referee server {self.server}"),
            ("Site", socket.gethostname() or "?"),
            ("Date", started.strftime("%Y.%m.%d")),
            ("Round", str(self.game_no)),
            (self.sides[0].capitalize(), ascii_text(self.names[0])),
            (self.sides[1].capitalize(), ascii_text(self.names[1])),
            ("Result", "*"),
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
            tags += [("Divergence", ascii_text(d)) for d in self.divergences]
        moves = [ply.split()[-1] for ply in self.plies]
        game = build(self.game, tags, moves, self.clocks, self.outcome)
        return game.with_tags(Result=game.result)

    @property
    def outcome(self) -> Outcome:
        winner = next((Side(i) for i, s in enumerate(self.sides) if self.result == f"{s} wins"), None)
        return Outcome(winner, self.termination)

    def text(self) -> str:
        """The record file's text: PGN-style (impl/pgn.py, docs/protocol.md "Game records")."""
        return write(self.pgn())


def ascii_text(text: str) -> str:
    """Records are ASCII: anything else backslash-escaped (an exception's text)."""
    return text.encode("ascii", "backslashreplace").decode("ascii")
