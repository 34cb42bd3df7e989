"""The referee's log: one JSON line per event on stderr (docs/protocol.md, "Logs").

Silent until ``setup_logging`` (``referee serve``, the benchmarks, perft): a library
user sees no stray lines.  Every layer logs through here, so that none takes its
logging from another (the server's records, the CLI)."""

from __future__ import annotations

import json
import logging
import sys
import time
import traceback
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, TextIO

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
