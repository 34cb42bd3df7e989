"""Level files: one per stone count, ``awari-<rules>-<n>.tb``.

A file is a 512-byte header — ``ZRTB`` and a version byte, then one line of JSON
(game, rules, n, format, boards, sha256 of the values, the fingerprint of the code
that built them, bytes a board, the kind: the file's suffix) padded with spaces — then
the values: one signed byte per board, the side to move's margin, in rank order
(index.py).  A ``.dist`` file beside it, in the same format, holds each board's
distance (two bytes, little-endian): the plies within which the side ahead forces its
margin (build.py, ``distances``); under an own-row rule set ``.hi`` and ``.lo`` files
hold its bounds (bounds.py).  Written atomically (a temporary
file in the same folder, fsynced, then ``os.replace``); read whole into private memory
and checked against the header's sha256 before any entry is used (issue #49, item 1:
a damaged table must not judge, and a file changed later must not reach its reader).
"""

from __future__ import annotations

import ast
import hashlib
import json
import mmap
import os
import re
import stat
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from impl.atomic import write_atomic

from .index import level_size

MAGIC = b"ZRTB"
FORMAT = 1
HEADER_SIZE = 512
_CODE = ("index.py", "kernel.py", "kernel.c", "bounds.py")


class TableError(ValueError):
    """A level file that is missing, damaged or of other rules or code."""


_C_COMMENT = re.compile(rb"/\*.*?\*/|//[^\n]*", re.DOTALL)


def code_text(name: str, source: bytes) -> bytes:
    """The code of a source without its comments and layout: a Python module's syntax
    tree without docstrings, a C file's tokens without comments.  So a comment or a
    docstring edited never makes every table on disk "other code" (hours of
    building each)."""
    if not name.endswith(".py"):
        return b" ".join(_C_COMMENT.sub(b" ", source).split())
    tree = ast.parse(source)
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and _docstring(body[0]):
            node.body = body[1:]  # type: ignore[attr-defined]
    return ast.dump(tree, include_attributes=False).encode()


def _docstring(statement: ast.stmt) -> bool:
    return (
        isinstance(statement, ast.Expr)
        and isinstance(statement.value, ast.Constant)
        and isinstance(statement.value.value, str)
    )


@cache
def fingerprint() -> str:
    """sha256 (first 16 hex digits) of the builder's rules and solver, comments and
    docstrings aside (``code_text``): a table built by other code is rebuilt, not
    trusted."""
    h = hashlib.sha256()
    for name in _CODE:
        h.update(code_text(name, (Path(__file__).parent / name).read_bytes()))
    return h.hexdigest()[:16]


@dataclass(frozen=True)
class Header:
    """A level file's header."""

    game: str
    rules: str
    n: int
    format: int
    boards: int
    sha256: str
    fingerprint: str
    width: int = 1
    """Bytes a board: 1 for the margins (``.tb``), 2 for the distances (``.dist``)."""
    kind: str = "tb"
    """What the values are, the file's suffix: ``tb``, ``dist``, or a bound (``hi``,
    ``lo``: bounds.py) — so that a level's files renamed into each other's places are
    refused, not read as the other's values."""


def signed(v: int) -> int:
    """A stored byte (0–255) as the signed margin it holds."""
    return v - 256 if v > 127 else v


def level_path(folder: Path, rules: str, n: int, kind: str = "tb") -> Path:
    """Where level n of a rule set's table lives (the rule set's canonical name, with
    its commas and equals signs made file-name safe)."""
    safe = rules.replace(",", "+").replace("=", "-")
    return folder / f"awari-{safe}-{n:02d}.{kind}"


def encode(rules: str, n: int, values: bytes, width: int = 1, kind: str = "tb") -> bytes:
    """A level file's bytes."""
    if len(values) != level_size(n) * width:
        raise TableError(f"level {n} has {level_size(n)} boards, not {len(values) // width}")
    digest = hashlib.sha256(values).hexdigest()
    header = Header("awari", rules, n, FORMAT, level_size(n), digest, fingerprint(), width, kind)
    text = MAGIC + bytes([FORMAT]) + json.dumps(header.__dict__, sort_keys=True).encode() + b"\n"
    if len(text) > HEADER_SIZE:
        raise TableError("header too long")
    return text.ljust(HEADER_SIZE, b" ") + values


def write(folder: Path, rules: str, n: int, values: bytes, kind: str = "tb", width: int = 1) -> Path:
    """Write level n atomically (impl/atomic.py: a same-folder temporary file, fsynced,
    renamed; never over what is not a regular file), readable as a plain write leaves
    a file: a sandboxed player, run as another user, reads the tables too."""
    path = level_path(folder, rules, n, kind)
    folder.mkdir(parents=True, exist_ok=True)
    write_atomic(path, encode(rules, n, values, width, kind))
    return path


def _open_regular(path: Path) -> int:
    """A read-only descriptor of ``path``, refused unless it is a regular file: opened
    without blocking (a FIFO in a level's place would wait for a writer forever)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as exc:
        raise TableError(f"{path}: {exc.strerror}") from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise TableError(f"{path}: not a regular file")
    return fd


def _read_into(fd: int, view: memoryview, path: Path) -> None:
    """Fill ``view`` from ``fd``'s current offset (TableError if the file ends first)."""
    done = 0
    while done < len(view):
        try:
            got = os.readv(fd, [view[done:]])
        except OSError as exc:
            raise TableError(f"{path}: {exc.strerror}") from None
        if got == 0:
            raise TableError(f"{path}: truncated")
        done += got


def _head(fd: int, path: Path) -> tuple[bytes, Header]:
    """The header's bytes at ``fd``'s start, and what they say."""
    head = bytearray(HEADER_SIZE)
    try:
        _read_into(fd, memoryview(head), path)
    except TableError:
        raise TableError(f"{path}: not a format-{FORMAT} table file") from None
    if not head.startswith(MAGIC) or head[4] != FORMAT:
        raise TableError(f"{path}: not a format-{FORMAT} table file")
    try:
        fields = json.loads(head[5:].decode())
        return bytes(head), Header(**fields)
    except (ValueError, TypeError) as exc:
        raise TableError(f"{path}: a damaged header ({exc})") from None


def read_header(path: Path) -> Header:
    """A level file's header (TableError if it is not one)."""
    fd = _open_regular(path)
    try:
        return _head(fd, path)[1]
    finally:
        os.close(fd)


def open_level(path: Path, rules: str, n: int, width: int = 1) -> mmap.mmap:
    """Level n's file, header included, read into an anonymous mapping (writable, so
    that ctypes can take its address, and shared with forked workers), after checking
    that the header names this game, rule set, level, size and code and that the values'
    sha256 is the header's.  No mapping of the file remains: a file truncated or
    rewritten afterwards cannot reach the reader (a truncated file mapped raises SIGBUS
    on the next read of a lost page).  TableError says what is wrong, naming the file."""
    fd = _open_regular(path)
    try:
        head, header = _head(fd, path)
        expected = ("awari", rules, n, level_size(n), fingerprint(), width, path.suffix[1:])
        found = (header.game, header.rules, header.n, header.boards, header.fingerprint, header.width, header.kind)
        if found != expected:
            raise TableError(f"{path}: built for {found}, not {expected}")
        size = HEADER_SIZE + header.boards * width
        actual = os.fstat(fd).st_size
        if actual != size:
            raise TableError(f"{path}: {'truncated' if actual < size else 'longer than its header says'}")
        m = mmap.mmap(-1, size)  # on an error below, freed with the traceback (its views may outlive close)
        m[:HEADER_SIZE] = head
        with memoryview(m) as view:
            _read_into(fd, view[HEADER_SIZE:], path)
            digest = hashlib.sha256(view[HEADER_SIZE:]).hexdigest()
        if digest != header.sha256:
            m.close()
            raise TableError(f"{path}: checksum mismatch (the values are not those the header's sha256 names)")
        return m
    finally:
        os.close(fd)
