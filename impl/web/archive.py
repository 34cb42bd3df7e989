"""Finished games from the record directory (``referee serve --record DIR``), read
back and replayed through an engine for the page.

A record is PGN-style (impl/pgn.py; docs/protocol.md, "Game records"); the
older ``Key: value`` records are still read (``Game: …`` header lines, a blank
line, then ``1 c3``, ``1 ... d4``).  The JSON gives a record's tags as the file
writes them (``tags``: name → value, in file order) and, beside them, what the
pages need whatever the format (``record_fields``: the players' names by side,
the result with its plain words, the time control, server, number, end).

Everything here runs off the event loop, in the web view's one records thread
(``Archive``), and is bounded (issue #28: a listing once read 200 MiB on the
loop and stalled every game for 74 s):

* a listing looks at most ``MAX_SCANNED`` directory entries and reads only the
  ``MAX_LISTED`` newest files, each only its first ``HEAD_BYTES`` (the tag
  section; the moves are counted only when the whole file fits), at most
  ``MAX_TAGS`` tags of at most ``MAX_VALUE`` characters each;
* what a file gave is cached by its name, size, modification time and inode, in
  a byte-budgeted LRU (``ByteLRU``): a listing of an unchanged directory reads
  no file;
* a file that is not a record is one flagged entry (its name and why), never an
  error for the whole list;
* only regular files directly in the directory are read, opened relative to it
  with ``O_NOFOLLOW``: a symbolic link, even to a record, is neither listed nor
  served.
"""

from __future__ import annotations

import heapq
import json
import os
import re
import stat
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import islice
from pathlib import Path
from typing import Any

from impl import pgn
from impl.atomic import MissingDirectory, why
from impl.engines.port import GAMES
from impl.engines.registry import get_engine
from impl.game import PAPER_RULES, Outcome, Side, Termination, perfect_play_judge
from impl.protocol import VOCABULARIES

from .feed import BoardView
from .hub import board_json, score_json
from .values import ValuesJob
from .views import replay

SUFFIXES = (".pgn", ".txt")
NAME_BYTES = 255
"""A file name's length limit on Linux, in UTF-8 bytes."""
MAX_SCANNED = 20_000
"""Directory entries looked at per listing; the rest are not listed."""
MAX_LISTED = 200
"""Files listed (the newest by modification time)."""
HEAD_BYTES = 16 * 1024
"""Bytes a listing reads of a file: enough for any record's tags, and for the
whole of all but the longest games."""
MAX_BYTES = 256 * 1024
"""A record page reads at most this; longer files are not records of ours (a
game has at most a few hundred plies, some 30 bytes each)."""
MAX_TAGS = 64
MAX_VALUE = 256
"""Characters of a tag value kept for the list (longer ones are cut, marked …)."""
CACHE_BYTES = 16 << 20
"""Memory for cached list entries and record pages together (their JSON)."""


class RecordError(Exception):
    """A file that is not a record we show; the message says why, briefly."""


@dataclass(frozen=True)
class FileKey:
    """A file as the directory shows it: the cache key (any change is a new key)."""

    name: str
    size: int
    mtime_ns: int
    inode: int


# ─── parsing ───────────────────────────────────────────────────────────────────
#
# A record is impl/pgn.py's ``PgnGame``, the one model records are written from
# and read into.  An older ``Key: value`` record becomes one too: its headers are
# its tags, as written, its lines' last words its plies, and it has no result
# token (its ``Result`` header says it in words), which is how ``shown_tags``
# tells it apart.


def parse_record(name: str, text: str) -> pgn.PgnGame | None:
    """The record in ``text``, every move checked; None if it is not one (no
    ``Game`` header naming a game of ours, or a PGN record pgn.parse refuses)."""
    try:
        return checked_record(name, text)
    except RecordError:
        return None


def checked_record(name: str, text: str) -> pgn.PgnGame:
    """The record in ``text`` (``name``, the file's, for the messages), every move
    of a PGN record checked (pgn.parse); RecordError saying why not."""
    if text.startswith("["):
        try:
            game = pgn.parse(text)
        except (ValueError, LookupError) as exc:  # PgnError, and what pgn.parse lets through (int("x"))
            raise RecordError(_short(exc)) from None
        _legacy_headers(game)  # checks the tags the page reads (the TimeControl: game.time reads it)
        return game
    head, _, body = text.partition("\n\n")
    written = _key_value_headers(head)
    words = [line.split()[-1] for line in body.splitlines() if line.strip()]
    record = pgn.PgnGame(written, tuple(pgn.Ply(w, w) for w in words), "")
    if game_of(record) not in GAMES:
        raise RecordError("no Game header naming awari or gothello")
    return record


def game_of(record: pgn.PgnGame) -> str:
    """The record's game (the older records capitalise it: ``Game: Awari``)."""
    return record.game.lower()


def shown_tags(record: pgn.PgnGame) -> dict[str, str]:
    """The record's tags in the shape the page's fields are read from
    (``record_fields``): the older records' own headers, or a PGN record's tags
    in that shape (``_legacy_headers``)."""
    return dict(record.tags if not record.result else _legacy_headers(record))


def page_plies(record: pgn.PgnGame) -> list[str]:
    """The plies as the page lists them: with their full-move numbers, ``1 c3``,
    ``1 ... d4``."""
    return [f"{i // 2 + 1} {'... ' if i % 2 else ''}{m}" for i, m in enumerate(record.moves)]


def _short(exc: BaseException) -> str:
    text = str(exc) or type(exc).__name__
    return text if len(text) <= 120 else text[:119] + "…"


def _key_value_headers(head: str) -> tuple[tuple[str, str], ...]:
    headers = []
    for line in head.splitlines():
        key, sep, value = line.partition(": ")
        if not sep:
            raise RecordError(f"not a header line: {line[:40]!r}")
        headers.append((key.strip(), value.strip()))
    return tuple(headers)


def _legacy_headers(game: pgn.PgnGame) -> tuple[tuple[str, str], ...]:
    """The tags in the older records' shape: quoted names, the result in words,
    the clocks as ``Time``; the other tags as they are.  RecordError for tags
    that do not describe a game (checked here, as the list reads no moves)."""
    if game.game not in GAMES:
        raise RecordError("no Game tag naming awari or gothello")
    unchecked = game.tag(pgn.UNCHECKED)
    if unchecked and not (unchecked.isascii() and unchecked.isdigit() and int(unchecked) > 0):
        raise RecordError(f"{pgn.UNCHECKED} is not a ply number: {unchecked[:20]!r}")
    try:
        sides, time = game.sides, game.time
        legacy = {
            **{s.capitalize(): _quoted(n) for s, n in zip(sides, game.names, strict=True)},
            "Result": game.outcome.result(sides),
            "Time": "none" if time is None else f"{time[0]:g} {time[1]:g}",
        }
    except (ValueError, LookupError, StopIteration) as exc:  # a name, Result, Termination or TimeControl
        raise RecordError(_short(exc)) from None
    return tuple((k, legacy.pop(k, v)) for k, v in game.tags) + tuple(legacy.items())


def _quoted(name: str) -> str:
    """A name as the older records wrote it (the wire's quoting, protocol.quote_name),
    of any length and script: ``referee match`` records names longer than the
    wire's 31 characters, and a record may hold any."""
    return '"' + name.replace('"', '""') + '"'


_TAG = re.compile(r'\[([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\]\s*$')
_MOVE_TOKEN = re.compile(r"\{[^}]*\}|;[^\n]*|\d+\.(?:\.\.)?|1-0|0-1|1/2-1/2|\*|[^\s{};]+")
_NOT_MOVES = ("1-0", "0-1", "1/2-1/2", "*")


def _cut(value: str) -> str:
    return value if len(value) <= MAX_VALUE else value[: MAX_VALUE - 1] + "…"


def summarize(name: str, head: bytes, complete: bool) -> dict[str, Any]:
    """A list entry from the first bytes of a file (all of it if ``complete``):
    its tags, in the page's shape, and its number of plies (None when the moves
    were not all read).  RecordError for a file whose tags do not make a record.
    The moves are counted, not checked: the record's own page checks them."""
    if not complete:  # the head may end inside a character: keep whole lines
        head = head[: head.rfind(b"\n") + 1]
    try:
        text = head.decode("utf-8")
    except UnicodeDecodeError:
        raise RecordError("not UTF-8 text") from None
    tags_text, sep, body = text.lstrip().partition("\n\n")
    if not sep and not complete:
        raise RecordError(f"no end of the tags in the first {HEAD_BYTES // 1024} KiB")
    lines = tags_text.splitlines()
    if len(lines) > MAX_TAGS:
        raise RecordError(f"more than {MAX_TAGS} tags")
    plies: int | None = None
    tags: list[tuple[str, str]] = []
    if tags_text.startswith("["):
        for line in lines:
            match = _TAG.match(line.strip())
            if match is None:
                raise RecordError(f"not a tag pair: {line[:40]!r}")
            tags.append((match[1], re.sub(r"\\(.)", r"\1", match[2])))
        try:
            result = next((v for k, v in tags if k == "Result"), pgn.ABORTED)
            headers = _legacy_headers(pgn.PgnGame(tuple(tags), (), result))
        except ValueError as exc:
            raise RecordError(_short(exc)) from None
        if complete:
            tokens = _MOVE_TOKEN.findall(body)
            plies = sum(1 for t in tokens if t[0] not in "{;" and not t.endswith(".") and t not in _NOT_MOVES)
    else:
        headers = _key_value_headers(tags_text)
        tags = list(headers)
        if dict(headers).get("Game", "").lower() not in GAMES:
            raise RecordError("no Game header naming awari or gothello")
        if complete:
            plies = sum(1 for line in body.splitlines() if line.strip())
    shown = {k: _cut(v) for k, v in headers}
    game = shown["Game"].lower()
    try:
        rules = pgn.engine_rules(game, dict(headers).get("Rules", ""))
    except pgn.PgnError as exc:
        raise RecordError(_short(exc)) from None
    score = score_of(game, shown.get("Score", ""))
    return {
        "name": name,
        "game": game,
        "rules": rules,
        "engine": shown.get("Engine"),
        "tags": tags_json((k, _cut(v)) for k, v in tags),
        **record_fields(game, shown),
        "plies": plies,
        "score": score,
    }


def tags_json(tags: Iterable[tuple[str, str]]) -> dict[str, str | list[str]]:
    """The tags as written, name → value in file order; a name the file repeats
    (``Divergence``) has the list of its values."""
    out: dict[str, str | list[str]] = {}
    for key, value in tags:
        if key not in out:
            out[key] = value
        else:
            before = out[key]
            out[key] = [*before, value] if isinstance(before, list) else [before, value]
    return out


def _unquoted(name: str) -> str:
    """A name of the older records' shape (``_quoted``) as sent."""
    if len(name) >= 2 and name[0] == name[-1] == '"':
        return name[1:-1].replace('""', '"')
    return name


def outcome_words(sides: tuple[str, str], result: str, termination: str) -> tuple[int | None, str]:
    """The winner's index and the result in plain words (impl.game.Outcome.describe:
    ``south wins on the board``), from a record's ``Result`` in words (``south
    wins``, ``draw``, ``aborted``) and its ``Termination``; the words as given
    when they are not a result of ours."""
    winner = next((i for i, s in enumerate(sides) if result == f"{s} wins"), None)
    try:
        how = Termination(termination or Termination.MOVE.value)
    except ValueError:
        return winner, f"{result} ({termination})"
    if result == "aborted" and not how.aborted:
        return None, f"aborted ({how.value})"
    return winner, Outcome(None if winner is None else Side(winner), how).describe(sides)


def record_fields(game: str, headers: dict[str, str]) -> dict[str, Any]:
    """What the pages show of a record, from its tags in the older records' shape
    (``_legacy_headers``): ``names`` by side (as sent, unquoted), ``sides``,
    ``result`` in the shape of a live game's (hub.over_json: ``result``,
    ``termination``, ``winner``, ``words``, ``ended``), ``time``, ``server`` and
    ``number`` (strings as written, or None)."""
    sides = VOCABULARIES[game].sides
    result, termination = headers.get("Result", ""), headers.get("Termination", "")
    winner, words = outcome_words(sides, result, termination)
    if headers.get("Tablebase") and termination == Termination.ADJUDICATION.value:  # impl/apps/tbadjudge.py
        words = f"adjudicated by {perfect_play_judge(game)}: {headers['Tablebase']}"
    elif headers.get("Adjudication") and termination == Termination.ADJUDICATION.value and result != "aborted":
        # the runner's rule, in the record's words (impl/apps/games.py): "draw by adjudication (still running …)"
        decided = "draw" if winner is None else f"{sides[winner]} wins"
        words = f"{decided} by adjudication ({headers['Adjudication']})"
    time = headers.get("Time", "none")
    parts = time.split()
    return {
        "sides": list(sides),
        "names": [_unquoted(headers.get(s.capitalize(), "")) for s in sides],
        "result": {
            "result": result,
            "termination": termination,
            "winner": winner,
            "words": words,
            "ended": headers.get("Ended"),
        },
        "time": [float(t) for t in parts] if len(parts) == 2 and all(_is_number(t) for t in parts) else None,
        "server": headers.get("Server"),
        "number": headers.get("Number"),
    }


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def score_of(game: str, text: str) -> dict[str, int] | None:
    """The ``Score`` tag (``south 25 north 20``, the session's record: each side
    and its count) by side, as hub.score_json gives a live game's; None for any
    other text."""
    words = text.split()
    sides = VOCABULARIES[game].sides if game in VOCABULARIES else ()
    if len(words) != 4 or (words[0], words[2]) != sides or not all(w.isascii() and w.isdigit() for w in words[1::2]):
        return None
    return {words[0]: int(words[1]), words[2]: int(words[3])}


def frame_clocks(time: tuple[float, float] | None, clocks: Sequence[float | None]) -> list[list[float]] | None:
    """Both clocks at each frame of a replay: the time control's before the first
    ply, then after each ply the mover's ``[%clk]`` and the other's unchanged.
    None without a time control, or when a ply has no clock reading."""
    if time is None or any(c is None for c in clocks):
        return None
    left = [time[0], time[1]]
    frames = [list(left)]
    for index, clock in enumerate(clocks):
        assert clock is not None
        left[index % 2] = clock
        frames.append(list(left))
    return frames


# ─── files ─────────────────────────────────────────────────────────────────────


def listable(name: str) -> bool:
    """A name the directory's records may have: not hidden, ``.pgn`` or ``.txt``,
    of any length the file system allows and any script (the server writes
    players' names into it)."""
    return not name.startswith(".") and name.endswith(SUFFIXES) and "/" not in name and "\0" not in name


def servable(name: str) -> bool:
    """A name a record may be asked for by (its UTF-8 is what the URL carries)."""
    try:
        return listable(name) and len(name.encode("utf-8")) <= NAME_BYTES
    except UnicodeEncodeError:  # bytes that were not UTF-8 in the file name
        return False


def read_file(directory: Path, name: str, limit: int) -> tuple[bytes, int]:
    """At most ``limit`` bytes of the regular file ``name`` directly inside
    ``directory`` and its size.  Opened relative to the directory with
    ``O_NOFOLLOW`` (a symbolic link is refused, ELOOP) and ``O_NONBLOCK`` (a FIFO
    cannot hang the reader); RecordError for anything but a regular file."""
    dir_fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, dir_fd=dir_fd)
    finally:
        os.close(dir_fd)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise RecordError("not a regular file")
        chunks, left = [], limit
        while left > 0 and (chunk := os.read(fd, min(left, 1 << 16))):
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks), info.st_size
    finally:
        os.close(fd)


def scan(directory: Path) -> list[FileKey]:
    """The newest ``MAX_LISTED`` candidate files of the directory (at most
    ``MAX_SCANNED`` entries looked at): regular files only, by ``lstat``, so a
    symbolic link is never listed.  Runs every listing over thousands of
    entries, holding the interpreter lock the loop needs: plain tuples, and keys
    made for the listed files only."""
    found = []
    with os.scandir(directory) as entries:
        for entry in islice(entries, MAX_SCANNED):
            name = entry.name  # a directory entry's name has no "/" nor NUL
            if name.startswith(".") or not name.endswith(SUFFIXES):
                continue
            try:
                info = entry.stat(follow_symlinks=False)
            except OSError:  # gone since the scan saw it
                continue
            if stat.S_ISREG(info.st_mode):
                found.append((info.st_mtime_ns, name, info.st_size, info.st_ino))
    return [FileKey(name, size, mtime, inode) for mtime, name, size, inode in heapq.nlargest(MAX_LISTED, found)]


class ByteLRU:
    """Encoded JSON by key, least recently used dropped first, at most ``budget``
    bytes in all (an item larger than the budget is not kept)."""

    def __init__(self, budget: int) -> None:
        self.budget, self.size = budget, 0
        self._items: OrderedDict[object, bytes] = OrderedDict()

    def get(self, key: object) -> bytes | None:
        data = self._items.get(key)
        if data is not None:
            self._items.move_to_end(key)
        return data

    def put(self, key: object, data: bytes) -> None:
        old = self._items.pop(key, None)
        self.size -= len(old) if old is not None else 0
        if len(data) > self.budget:
            return
        self._items[key] = data
        self.size += len(data)
        while self.size > self.budget:
            _, dropped = self._items.popitem(last=False)
            self.size -= len(dropped)

    def __len__(self) -> int:
        return len(self._items)


def _json(data: Any) -> bytes:
    return json.dumps(data, separators=(",", ":")).encode()


@dataclass(frozen=True)
class Page:
    """A record page's answer: HTTP status and JSON body."""

    status: int
    body: bytes
    job: ValuesJob | None = None
    """An Awari record's values to compute by the table (``--tb``): values.Valuer,
    away from the records thread."""


class Archive:
    """The record directory as the web view shows it.  Not thread-safe: the web
    view calls it from its one records thread only."""

    def __init__(self, directory: Path, cache_bytes: int = CACHE_BYTES, tables: Path | None = None) -> None:
        self.directory = directory
        self.cache = ByteLRU(cache_bytes)
        self._listing: tuple[tuple[FileKey, ...], bytes] | None = None
        self.tables = tables
        """The endgame tables' folder (``--tb``): an Awari record's page gets per-move
        values, computed apart (``Page.job``; impl/web/values.py)."""

    def listing(self) -> bytes:
        """``{"records": [...]}``, newest first: a summary per record, or
        ``{"name", "flagged"}`` for a file that is not one.  Reads only files
        not seen before in their present state; the same bytes as last time if
        the directory has not changed."""
        try:
            keys = tuple(scan(self.directory))
        except FileNotFoundError:
            return _json({"records": [], "error": why(MissingDirectory(self.directory))})
        except OSError as exc:
            return _json({"records": [], "error": why(exc)})
        if self._listing is not None and self._listing[0] == keys:
            return self._listing[1]
        body = b'{"records":[' + b",".join(self._entry(k) for k in keys) + b"]}"
        self._listing = (keys, body)
        return body

    def _entry(self, key: FileKey) -> bytes:
        cached = self.cache.get(("entry", key))
        if cached is None:
            cached = _json(self._summary(key))
            self.cache.put(("entry", key), cached)
        return cached

    def _summary(self, key: FileKey) -> dict[str, Any]:
        if not servable(key.name):
            return {"name": key.name, "flagged": "a name no URL can carry (not UTF-8, or too long)"}
        if key.size > MAX_BYTES:
            return {"name": key.name, "flagged": f"larger than {MAX_BYTES // 1024} KiB: not a record"}
        try:
            head, size = read_file(self.directory, key.name, HEAD_BYTES)
            return summarize(key.name, head, complete=len(head) >= size)
        except RecordError as exc:
            return {"name": key.name, "flagged": str(exc)}
        except OSError as exc:
            return {"name": key.name, "flagged": why(exc)}

    def exists(self, name: str) -> bool:
        """Whether ``name`` is a regular file directly in the directory, as ``page``
        asks (a symbolic link is not): the page's route answers 404 otherwise."""
        if not servable(name):
            return False
        try:
            return stat.S_ISREG(os.lstat(self.directory / name).st_mode)
        except OSError:
            return False

    def page(self, name: str) -> Page:
        """One record: its summary with moves and the board of every ply
        (replayed through an engine); 404 for a name that is not a file of the
        directory (or a symbolic link), 422 for a file that is not a record."""
        if not servable(name):
            return Page(404, _json({"name": name, "error": "no such record"}))
        try:
            info = os.lstat(self.directory / name)
        except OSError:
            return Page(404, _json({"name": name, "error": "no such record"}))
        if not stat.S_ISREG(info.st_mode):
            return Page(404, _json({"name": name, "error": "no such record"}))
        key = ("page", FileKey(name, info.st_size, info.st_mtime_ns, info.st_ino))
        cached = self.cache.get(key)
        if cached is None:
            cached = self._page(name)
            self.cache.put(key, cached)
        if cached.startswith(b'{"flagged"'):
            return Page(422, cached)
        return Page(200, cached, self._job(key, cached))

    def _job(self, key: object, page: bytes) -> ValuesJob | None:
        """What the values of an Awari record's page are computed from, with ``tables``."""
        if self.tables is None:
            return None
        data = json.loads(page)
        return ValuesJob(key, data["rules"], tuple(data["moves"])) if data["game"] == "awari" else None

    def _page(self, name: str) -> bytes:
        try:
            data, size = read_file(self.directory, name, MAX_BYTES + 1)
            if size > MAX_BYTES:
                raise RecordError(f"larger than {MAX_BYTES // 1024} KiB: not a record")
            summarize(name, data, complete=True)  # the tags, as the list checks them: the same reasons
            record = checked_record(name, data.decode("utf-8"))
            try:  # PGN names the papers' rules with an alias (impl/game.py RECORD_ALIASES)
                rules = pgn.engine_rules(game_of(record), record.tag("Rules"))
            except pgn.PgnError as exc:
                raise RecordError(str(exc)) from None
        except RecordError as exc:
            return _json({"flagged": str(exc), "name": name})
        except OSError as exc:
            return _json({"flagged": why(exc), "name": name})
        views = frames(game_of(record), record.moves, rules)
        clocks = [p.clock for p in record.plies][: len(views) - 1]
        return _json(
            {
                **record_json(name, record),
                "rules": rules,
                "engine": record.tag("Engine") or None,
                "score": score_json(views[-1]),
                "frames": [board_json(f) for f in views],
                "clocks": frame_clocks(record.time if record.result else None, clocks),
            }
        )


def record_json(name: str, record: pgn.PgnGame) -> dict[str, Any]:
    """A record's page without its frames: ``tags`` as the file writes them, and
    the fields the page shows (``record_fields``)."""
    game = game_of(record)
    return {
        "name": name,
        "game": game,
        "tags": tags_json(record.tags),
        **record_fields(game, shown_tags(record)),
        "plies": page_plies(record),
        "moves": record.moves,
    }


def frames(game: str, moves: Iterable[str], rules: str = PAPER_RULES) -> list[BoardView]:
    """The boards of a game from its moves, replayed by the fast engine (the spec's
    when the fast one cannot be imported) under the record's rule set."""
    try:
        engine = get_engine(game, "impl", rules)
    except ImportError:
        engine = get_engine(game, "spec", rules)
    return replay(engine, list(moves))
