"""Records of play: one JSON line per event on stderr, and the record of a finished
game as a value and its text (format in docs/protocol.md, "Game records"); the
server (impl/server/server.py) writes the files."""

from __future__ import annotations

import json
import logging
import sys
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, TextIO

from impl.game import Termination
from impl.protocol import quote_name

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
    rules: str
    """The rule set's name (``paper`` unless the server was started with ``--rules``)."""
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

    def text(self) -> str:
        """Header lines ``Key: value``, a blank line, then one ply per line."""
        time = "none" if self.time is None else f"{self.time[0]:g} {self.time[1]:g}"
        header = [
            f"Game: {self.game}",
            f"Server: {self.server}",
            f"Number: {self.game_no}",
            f"Engine: {self.engine}",
            f"Rules: {self.rules}",
            f"Started: {utc(self.started)}",
            f"Ended: {utc(self.ended)}",
            f"{self.sides[0].capitalize()}: {quote_name(self.names[0])}",
            f"{self.sides[1].capitalize()}: {quote_name(self.names[1])}",
            f"Time: {time}",
            f"Result: {self.result}",
            f"Termination: {self.termination.value}",
            f"Score: {self.score}",
            f"Plies: {len(self.plies)}",
        ]
        if self.clocks is not None:
            header.append("Clocks: " + " ".join(f"{secs:.1f}" for secs in self.clocks))
        if self.divergences is not None:
            header.append(f"Divergences: {len(self.divergences)}")
            header += [f"Divergence: {ascii_text(d)}" for d in self.divergences]
        return "\n".join([*header, "", *self.plies]) + "\n"


def ascii_text(text: str) -> str:
    """Records are ASCII: anything else backslash-escaped (an exception's text)."""
    return text.encode("ascii", "backslashreplace").decode("ascii")
