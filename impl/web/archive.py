"""Finished games from the record directory (``referee serve --record DIR``), read
back and replayed through an engine for the page.

A record is ``Key: value`` header lines, a blank line, then one ply per line as
the player sent it (``1 c3``, ``1 ... d4``); impl/server/PROTOCOL.md, "Game
records", is the format.  Only file names the server writes are served, and only
from the directory itself.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from impl.engine import GAMES
from impl.engines import get_engine

from .feed import BoardView
from .views import replay

NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,200}\.txt")
MAX_BYTES = 1 << 20
"""Longer files are not records of ours (a game has at most a few hundred plies)."""
MAX_LISTED = 200


@dataclass(frozen=True)
class Record:
    name: str
    headers: tuple[tuple[str, str], ...]
    plies: tuple[str, ...]

    def header(self, key: str, default: str = "") -> str:
        return next((v for k, v in self.headers if k == key), default)

    @property
    def game(self) -> str:
        return self.header("Game").lower()

    @property
    def moves(self) -> list[str]:
        """The moves in the papers' notation: the last word of each ply."""
        return [ply.split()[-1] for ply in self.plies if ply.split()]


def parse_record(name: str, text: str) -> Record | None:
    """The record in ``text``; None if it is not one (no ``Game`` header naming a
    game of ours)."""
    head, _, body = text.partition("\n\n")
    headers = []
    for line in head.splitlines():
        key, sep, value = line.partition(": ")
        if not sep:
            return None
        headers.append((key.strip(), value.strip()))
    record = Record(name, tuple(headers), tuple(line.strip() for line in body.splitlines() if line.strip()))
    return record if record.game in GAMES else None


def record_path(directory: Path, name: str) -> Path | None:
    """The file ``name`` directly inside ``directory``, if the name is one the
    server writes and the file exists."""
    if not NAME.fullmatch(name):
        return None
    path = directory / name
    return path if path.is_file() else None


def read_record(directory: Path, name: str) -> Record | None:
    path = record_path(directory, name)
    if path is None or path.stat().st_size > MAX_BYTES:
        return None
    try:
        return parse_record(name, path.read_text(encoding="ascii", errors="replace"))
    except OSError:
        return None


def list_records(directory: Path) -> list[Record]:
    """The newest records first, at most MAX_LISTED of them."""
    try:
        files = [p for p in directory.iterdir() if NAME.fullmatch(p.name) and p.is_file()]
    except OSError:
        return []
    files.sort(key=lambda p: p.stat().st_mtime, reverse=True)
    records = (read_record(directory, p.name) for p in files[:MAX_LISTED])
    return [r for r in records if r is not None]


def frames(game: str, moves: list[str], rules: str = "paper") -> list[BoardView]:
    """The boards of a game from its moves, replayed by the fast engine (the spec's
    when the fast one cannot be imported) under the record's rule set."""
    try:
        engine: Any = get_engine(game, "impl", rules)
    except ImportError:
        engine = get_engine(game, "spec", rules)
    return replay(engine, moves)
