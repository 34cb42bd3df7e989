"""Writes that matter, made atomic: game records, ``tournament.json``, results.

The data goes to a temporary file in the target's directory, is flushed and
fsynced, and only then takes the target's name (``os.replace``, or ``os.link``
when an existing file must never be overwritten).  A reader therefore sees the
old file or the whole new one, never a part; a full disk leaves the old file
and no 0-byte one.  ``why`` names an ``OSError`` as what it is (disk full,
read-only file system, …) for the one line a command prints.

What is not a regular file is never replaced.  The one rule for a file the user
names (``--json``, ``--csv``, ``--pgnout``; ``output_of``, ``write_output``), also
in docs/tournaments.md:

* a missing path or a regular file is written atomically; a symbolic link is
  followed, so its target is written and the link kept (a link to nothing is
  refused: where it points is not a place the user chose to create a file);
* a character device or a FIFO (``/dev/null``, ``/dev/stderr``, a named pipe), and
  a link under ``/dev`` or ``/proc`` to a regular file (``/dev/stdout`` redirected
  to a file: the shell's file, not a name to rename over) is written plainly —
  opened for appending, never created, truncated or replaced; a FIFO waits for
  its reader;
* anything else (a directory, a socket, a block device, a missing name under
  ``/dev`` or ``/proc``) is refused, and so is a target whose directory cannot be
  written (a probe file is made there).

Commands check their targets with ``output_of`` before the first game and write
with ``write_output``, which applies the rule again (the path may have changed).
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
from dataclasses import dataclass
from pathlib import Path

_WHY = {
    errno.ENOSPC: "the disk is full",
    errno.EDQUOT: "the disk quota is exhausted",
    errno.EROFS: "the file system is read-only",
    errno.EACCES: "permission denied",
    errno.EPERM: "permission denied",
    errno.EMFILE: "the process has no file descriptor left",
    errno.ENFILE: "the system has no file descriptor left",
    errno.EEXIST: "the file already exists",
    errno.ENOENT: "no such file",
    errno.EIO: "an input/output error",
}
"""An errno in words.  ENOENT is a missing file: where a directory is missing, the
code that knows it raises ``MissingDirectory`` instead (issue #49)."""


class MissingDirectory(FileNotFoundError):
    """The directory a file was to be made in does not exist."""

    def __init__(self, directory: Path) -> None:
        super().__init__(errno.ENOENT, "no such directory", str(directory))


def why(exc: OSError) -> str:
    """``exc`` in plain words, with the path it concerns when it names one."""
    if isinstance(exc, MissingDirectory):
        what = "no such directory"
    else:
        what = _WHY.get(exc.errno or 0, exc.strerror or str(exc))
    return f"{exc.filename}: {what}" if exc.filename else what


def _umask() -> int:
    """The process's umask, read once at import (setting it to read it back is not
    thread-safe later, when servers and tournaments write from threads)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


_NEW_FILE_MODE = 0o666 & ~_umask()
"""What ``open(path, "w")`` would give a new file: mkstemp's own 0600 would hide records
and results from the web view, a group of organisers or a web server reading them."""


def _mode_for(path: Path) -> int:
    """An existing file keeps its permissions; a new one gets ``_NEW_FILE_MODE``."""
    try:
        return os.stat(path).st_mode & 0o777  # not set-id or sticky bits: a record is data
    except OSError:
        return _NEW_FILE_MODE


def write_atomic(path: Path, data: str | bytes, *, encoding: str = "utf-8", overwrite: bool = True) -> None:
    """Write ``data`` to ``path`` atomically, with the permissions a plain write would
    leave (the old file's, or the umask's for a new file).

    With ``overwrite=False`` an existing ``path`` is never replaced: the call
    raises ``FileExistsError`` and the file keeps its content (a record once
    written stays as it was).  With ``overwrite`` a symbolic link's target is
    written (the link stays) and what is not a regular file is never replaced:
    ``NotRegular``.  Any ``OSError`` leaves no temporary file behind.
    """
    raw = data.encode(encoding) if isinstance(data, str) else data
    path = _regular_or_missing(path) if overwrite else path
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except FileNotFoundError:
        raise MissingDirectory(path.parent) from None
    try:
        with os.fdopen(fd, "wb") as out:
            os.fchmod(out.fileno(), _mode_for(path) if overwrite else _NEW_FILE_MODE)
            out.write(raw)
            out.flush()
            os.fsync(out.fileno())
        if overwrite:
            os.replace(tmp, path)
        else:
            os.link(tmp, path)  # fails with EEXIST rather than replace
            os.unlink(tmp)
        _sync_dir(path.parent)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def remove_stale(directory: Path, name_glob: str) -> int:
    """Remove the temporary files ``write_atomic`` left for names matching
    ``name_glob`` (``.NAME.*.tmp``: a writer killed mid-write); regular files only,
    never a link.  How many.  The caller must be the only writer of those names."""
    removed = 0
    for tmp in directory.glob(f".{name_glob}.*.tmp"):
        with contextlib.suppress(OSError):
            if stat.S_ISREG(tmp.lstat().st_mode):
                tmp.unlink()
                removed += 1
    return removed


def _sync_dir(directory: Path) -> None:
    """The rename itself survives a power cut only once the directory is synced."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


# ─── files the user names: the one rule ───────────────────────────────────────

STREAM_ROOTS = (Path("/dev"), Path("/proc"))
"""Names there stand for streams (``/dev/stdout``, ``/dev/fd/3``), whatever they lead to."""


class NotRegular(OSError):
    """A path that is not a regular file where one would be replaced."""

    def __init__(self, path: Path, kind: str) -> None:
        super().__init__(errno.EINVAL, f"is {kind}, not a regular file", str(path))


def kind_of(mode: int) -> str:
    """A file type in words, for the one line a refusal prints."""
    kinds = (
        (stat.S_ISDIR, "a directory"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISSOCK, "a socket"),
        (stat.S_ISLNK, "a symbolic link"),
        (stat.S_ISREG, "a regular file"),
    )
    return next((name for test, name in kinds if test(mode)), "not a file")


def _regular_or_missing(path: Path) -> Path:
    """Where an atomic write of ``path`` goes: ``path`` itself if missing, the file
    a symbolic link leads to if it is one (so that the link is kept); NotRegular
    if that exists and is not a regular file."""
    try:
        mode = os.stat(path).st_mode  # follows links
    except FileNotFoundError:
        if os.path.islink(path):
            raise NotRegular(path, "a symbolic link to nothing") from None
        return path
    if not stat.S_ISREG(mode):
        raise NotRegular(path, kind_of(mode))
    return Path(os.path.realpath(path)) if os.path.islink(path) else path


@dataclass(frozen=True)
class Output:
    """Where and how a file the user names is written (the module's rule)."""

    path: Path
    """The path to write: the one given, or a symbolic link's target."""
    plain: bool
    """Written plainly (a stream: appended to, never created or replaced), else atomically."""


def _is_stream_name(path: Path) -> bool:
    """A link under /dev or /proc (``/dev/stdout``, ``/dev/fd/3``): an open stream of
    this process by another name, even when it leads to a regular file."""
    return os.path.islink(path) and _under_streams(path)


def _under_streams(path: Path) -> bool:
    absolute = Path(os.path.abspath(path))
    return any(absolute.is_relative_to(root) for root in STREAM_ROOTS)


def output_of(path: Path) -> Output:
    """How ``path`` is written under the module's rule; an ``OSError`` (``why``
    says it) if it cannot be: not a kind of file that may be written, no such
    directory, or a directory where no file can be made (checked by a probe)."""
    try:
        mode: int | None = os.stat(path).st_mode
    except FileNotFoundError:
        mode = None
    if mode is None and _under_streams(path):  # a misspelt /dev/nul is not a file to create in /dev
        raise OSError(errno.ENODEV, "no such device", str(path))
    if mode is not None and (stat.S_ISCHR(mode) or stat.S_ISFIFO(mode) or _is_stream_name(path)):
        if not (stat.S_ISREG(mode) or stat.S_ISCHR(mode) or stat.S_ISFIFO(mode)):
            raise NotRegular(path, kind_of(mode))
        return Output(path, plain=True)
    target = _regular_or_missing(path)
    probe_writable(target.parent)
    return Output(target, plain=False)


def probe_writable(directory: Path) -> None:
    """Write and remove a probe file in ``directory``: whether files can be made
    there, known now rather than when the first result is written; ``OSError``."""
    try:
        fd, probe = tempfile.mkstemp(prefix=".probe-", dir=directory)
    except FileNotFoundError:
        raise MissingDirectory(directory) from None
    except OSError as exc:  # named by the directory, not by the probe's random name
        raise OSError(exc.errno, exc.strerror, str(directory)) from None
    os.close(fd)
    os.unlink(probe)


def write_output(path: Path, text: str, encoding: str = "utf-8") -> None:
    """Write ``text`` to the file the user named ``path``, by the module's rule
    (``output_of``, applied again now); ``OSError`` if it cannot be."""
    out = output_of(path)
    if not out.plain:
        write_atomic(out.path, text, encoding=encoding)
        return
    # No O_CREAT, no O_TRUNC: a stream is written, never made or emptied (/dev/stdout
    # redirected to a file keeps what was printed before).
    fd = os.open(out.path, os.O_WRONLY | os.O_APPEND)
    with os.fdopen(fd, "w", encoding=encoding) as stream:
        stream.write(text)


def read_bounded(path: Path, limit: int) -> bytes:
    """The bytes of the regular file at ``path``, at most ``limit`` of them.  What is
    not a regular file (a FIFO, a device such as ``/dev/zero``, a directory) is
    refused before it is read (``NotRegular``), and a larger file by its size, or
    after ``limit`` + 1 bytes if it grew (``TooLarge``): neither a read that never
    ends nor one that fills memory."""
    mode = os.stat(path).st_mode
    if not stat.S_ISREG(mode):
        raise NotRegular(path, kind_of(mode))
    # O_NONBLOCK: had the path become a FIFO since the stat, the open would wait for a writer.
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    with os.fdopen(fd, "rb") as stream:
        status = os.fstat(stream.fileno())
        if not stat.S_ISREG(status.st_mode):
            raise NotRegular(path, kind_of(status.st_mode))
        if status.st_size > limit:  # a sparse file of terabytes is refused unread (issue #49)
            raise TooLarge(path, limit)
        data = stream.read(limit + 1)
    if len(data) > limit:
        raise TooLarge(path, limit)
    return data


class TooLarge(OSError):
    """A file larger than a reader takes."""

    def __init__(self, path: Path, limit: int) -> None:
        super().__init__(errno.EFBIG, f"is larger than {limit:,} bytes", str(path))
