"""Finished games from the record directory (``referee serve --record DIR``), read
back and replayed through an engine for the page.

A record is PGN-style (impl/pgn.py; docs/protocol.md, "Game records"); the
page gets its tags in the shape of the older ``Key: value`` records, which are
still read (``Game: …`` header lines, a blank line, then ``1 c3``, ``1 ... d4``).
Only file names the server writes are served, and only from the directory itself.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from impl import pgn
from impl.engine import GAMES
from impl.engines import get_engine

from .feed import BoardView
from .views import replay

NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,200}\.(?:pgn|txt)")
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
    if text.startswith("["):
        return _from_pgn(name, text)
    head, _, body = text.partition("\n\n")
    headers = []
    for line in head.splitlines():
        key, sep, value = line.partition(": ")
        if not sep:
            return None
        headers.append((key.strip(), value.strip()))
    record = Record(name, tuple(headers), tuple(line.strip() for line in body.splitlines() if line.strip()))
    return record if record.game in GAMES else None


def _from_pgn(name: str, text: str) -> Record | None:
    try:
        game = pgn.parse(text)
    except pgn.PgnError:
        return None
    sides = game.sides
    time = game.time
    legacy = {
        # Quoted as on the wire (Table 2), but any length and script: a record's names are as given.
        **{s.capitalize(): '"' + n.replace('"', '""') + '"' for s, n in zip(sides, game.names, strict=True)},
        "Result": game.outcome.result(sides),
        "Time": "none" if time is None else f"{time[0]:g} {time[1]:g}",
    }
    headers = tuple((k, legacy.pop(k, v)) for k, v in game.tags) + tuple(legacy.items())
    plies = tuple(f"{i // 2 + 1} {'... ' if i % 2 else ''}{m}" for i, m in enumerate(game.moves))
    return Record(name, headers, plies)


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
        return parse_record(name, path.read_text(encoding="utf-8", errors="replace"))
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
