"""Records of play: one JSON line per event on stderr, and the record of a finished
game as a value and its text (format in docs/protocol.md, "Game records"); the
server (impl/server/server.py) writes the files."""

from __future__ import annotations

import json
import logging
import socket
import sys
import time
import traceback
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, TextIO

from impl.game import Outcome, Side, Termination
from impl.pgn import DEFAULT_RULES, OPENING, PgnGame, build, player_tags, time_control, write

LOGGER = "referee"


class JsonLines(logging.Formatter):
    """``{"ts": …, "level": …, "event": …, <fields>}`` on one line; an exception's
    traceback is the field ``traceback``, never lines of its own."""

    def format(self, record: logging.LogRecord) -> str:
        fields: dict[str, Any] = getattr(record, "fields", {})
        line = {"ts": utc(record.created), "level": record.levelname.lower(), "event": record.getMessage(), **fields}
        if record.exc_info and record.exc_info[1] is not None:
            line["traceback"] = "".join(traceback.format_exception(record.exc_info[1]))
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


LOG_INTERVAL = 10.0
"""Seconds between two lines of a rate-limited event with the same key."""
_MAX_KEYS = 4096
"""Keys remembered at once: a flood from many addresses cannot grow the table without bound."""


@dataclass
class _Seen:
    last: float
    suppressed: int = 0


_seen: dict[tuple[str, str], _Seen] = {}


def event_limited(level: int, what: str, key: str, **fields: Any) -> None:
    """Log ``what`` at most once per ``LOG_INTERVAL`` per ``key`` (e.g. ``server_full``
    per address); the next line logged says how many were ``suppressed`` since."""
    if not _LOGGER.isEnabledFor(level):
        return
    now = time.monotonic()
    seen = _seen.get((what, key))
    if seen is not None and now - seen.last < LOG_INTERVAL:
        seen.suppressed += 1
        return
    if seen is None and key != "*" and len(_seen) >= _MAX_KEYS:  # forget the keys quiet for an interval
        for old in [k for k, v in _seen.items() if now - v.last >= LOG_INTERVAL]:
            del _seen[old]
        if len(_seen) >= _MAX_KEYS:  # still full: the new keys share one line
            event_limited(level, what, "*", **fields)
            return
    suppressed = seen.suppressed if seen is not None else 0
    _seen[(what, key)] = _Seen(now)
    event(level, what, **fields, **({"suppressed": suppressed} if suppressed else {}))


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
