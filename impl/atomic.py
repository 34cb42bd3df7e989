"""Writes that matter, made atomic: game records, ``tournament.json``, results.

The data goes to a temporary file in the target's directory, is flushed and
fsynced, and only then takes the target's name (``os.replace``, or ``os.link``
when an existing file must never be overwritten).  A reader therefore sees the
old file or the whole new one, never a part; a full disk leaves the old file
and no 0-byte one.  ``why`` names an ``OSError`` as what it is (disk full,
read-only file system, …) for the one line a command prints.
"""

from __future__ import annotations

import contextlib
import errno
import os
import tempfile
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
    errno.ENOENT: "no such directory",
    errno.EIO: "an input/output error",
}


def why(exc: OSError) -> str:
    """``exc`` in plain words, with the path it concerns when it names one."""
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
    written stays as it was).  Any ``OSError`` leaves no temporary file behind.
    """
    raw = data.encode(encoding) if isinstance(data, str) else data
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
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
