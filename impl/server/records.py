"""Records of play: one JSON line per event on stderr, and optionally one text file
per finished game (format in impl/server/PROTOCOL.md, "Game records")."""

from __future__ import annotations

import json
import logging
import os
import sys
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TextIO

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


def event(level: int, what: str, **fields: Any) -> None:
    """Log one event with its fields."""
    logger = logging.getLogger(LOGGER)
    if logger.isEnabledFor(level):
        logger.log(level, what, extra={"fields": fields})


def utc(timestamp: float) -> str:
    return datetime.fromtimestamp(timestamp, UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


@dataclass(frozen=True)
class GameRecord:
    """What a record file holds; ``plies`` are the moves as the players sent them
    (``1 c3``, ``1 ... d4``)."""

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
    termination: str
    score: str
    plies: tuple[str, ...]
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
            f"Started: {utc(self.started)}",
            f"Ended: {utc(self.ended)}",
            f"{self.sides[0].capitalize()}: {quote(self.names[0])}",
            f"{self.sides[1].capitalize()}: {quote(self.names[1])}",
            f"Time: {time}",
            f"Result: {self.result}",
            f"Termination: {self.termination}",
            f"Score: {self.score}",
            f"Plies: {len(self.plies)}",
        ]
        if self.divergences is not None:
            header.append(f"Divergences: {len(self.divergences)}")
            header += [f"Divergence: {ascii_text(d)}" for d in self.divergences]
        return "\n".join([*header, "", *self.plies]) + "\n"


def ascii_text(text: str) -> str:
    """Records are ASCII: anything else backslash-escaped (an exception's text)."""
    return text.encode("ascii", "backslashreplace").decode("ascii")


def quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def write_record(directory: Path, record: GameRecord) -> Path:
    """Write the record as ``<game>-<server>-<UTC time>-<pid>-<number>.txt``."""
    directory.mkdir(parents=True, exist_ok=True)
    stamp = datetime.fromtimestamp(record.ended, UTC).strftime("%Y%m%dT%H%M%SZ")
    path = directory / f"{record.game}-{record.server}-{stamp}-{os.getpid()}-{record.game_no}.txt"
    path.write_text(record.text(), encoding="ascii")
    return path
