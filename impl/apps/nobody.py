"""A root runner's programs: they run as NOBODY, and are shown, in a mount namespace
of their own, what they need of what nobody could not reach (impl/apps/sandbox.py's
"Never root outside"; issue #49).  ``become_nobody`` and ``View.make`` run in the
child between fork and exec; ``view_of`` decides, in the runner, what to show."""

from __future__ import annotations

import contextlib
import ctypes
import functools
import itertools
import os
import re
import shutil
import stat
import subprocess
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from impl.server.procs import libc

PROBE_TIMEOUT = 10.0
"""Seconds the one trial run of a sandbox may take (``works``)."""
NOBODY = 65534
"""The uid and gid a root runner's programs run as (nobody, nogroup)."""


def under(path: str, directory: str) -> bool:
    path, directory = os.path.normpath(path), os.path.normpath(directory)
    return path == directory or path.startswith(directory.rstrip("/") + "/")


CLONE_NEWNS = 0x00020000
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_REMOUNT = 1, 2, 4, 8, 32
MS_BIND, MS_REC, MS_PRIVATE = 4096, 16384, 1 << 18
"""mount(2)'s flags (linux/mount.h)."""
COVER_OPTIONS = b"mode=0755,size=1m,nr_inodes=4096"
"""A directory replaced for nobody: root's, enterable, too small to matter."""
FAILED_SETUP = 126
"""The exit status of a program whose launch could not be prepared (the reason on its output)."""


def _fail(what: str) -> None:
    """In the child: say why on its output and exit, never running the program."""
    with contextlib.suppress(OSError):
        os.write(2, f"referee: {what}\n".encode())
    os._exit(FAILED_SETUP)


def become_nobody() -> None:
    """In the child: NOBODY's uid and gid, and no supplementary group (or exit)."""
    try:
        os.setgroups([])
        os.setgid(NOBODY)
        os.setuid(NOBODY)
    except OSError as exc:
        _fail(f"cannot become nobody (uid {NOBODY}): {exc.strerror}")


@functools.cache
def drops() -> bool:
    """Whether programs run as NOBODY: this process is root on Linux, and a trial
    child became nobody (a container may lack the uid)."""
    if not sys.platform.startswith("linux") or os.geteuid() != 0:
        return False
    try:
        done = subprocess.run(
            ["/bin/sh", "-c", "exit 0"], preexec_fn=become_nobody, capture_output=True, timeout=PROBE_TIMEOUT
        )
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 0


def runs_as_root() -> bool:
    """Whether programs run as root: this process is root and cannot become nobody."""
    return sys.platform.startswith("linux") and os.geteuid() == 0 and not drops()


def _nobody_may(st: os.stat_result, bit: int) -> bool:
    """Whether NOBODY has permission ``bit`` (4 read, 2 write, 1 search) by the mode."""
    shift = 6 if st.st_uid == NOBODY else 3 if st.st_gid == NOBODY else 0
    return bool(st.st_mode >> shift & bit)


def _blocked(path: str, after: str = "/") -> str | None:
    """The first directory on the way to ``path`` below ``after`` (``path`` itself
    included, if a directory) that nobody cannot enter; None if there is none."""
    parts = Path(path).parts
    for n in range(len(Path(after).parts) + 1, len(parts) + 1):
        step = str(Path(*parts[:n]))
        try:
            st = os.stat(step)
        except OSError:
            return None
        if not stat.S_ISDIR(st.st_mode):
            return None
        if not _nobody_may(st, 1):
            return step
    return None


@dataclass(frozen=True)
class View:
    """The file system a root runner's program sees, made in a mount namespace of its
    own before it becomes nobody: ``steps``, outermost first, each ``(path, cover,
    directory, writable)``: a cover replaces the directory at ``path`` by an empty
    one; any other step binds ``path`` at its own place, inside a cover."""

    steps: tuple[tuple[str, bool, bool, bool], ...]

    def make(self) -> None:
        """In the child, as root: make this view (or exit, saying why)."""
        c = libc()
        if c is None or c.unshare(CLONE_NEWNS) != 0:
            _fail("cannot make a mount namespace to show the program its files")
        try:
            _mount(None, "/", None, MS_REC | MS_PRIVATE)
            # Opened before any cover hides them, and in this namespace (a bind's source must be).
            held = {path: os.open(path, os.O_PATH | os.O_CLOEXEC) for path, cover, _, _ in self.steps if not cover}
            for path, cover, directory, writable in self.steps:
                if cover:
                    os.makedirs(path, exist_ok=True)
                    _mount(b"tmpfs", path, b"tmpfs", MS_NOSUID | MS_NODEV, COVER_OPTIONS)
                    continue
                _place(path, directory)
                _mount(f"/proc/self/fd/{held[path]}", path, None, MS_BIND | MS_REC)
                # No set-user-ID program or device nobody could not reach before becomes usable,
                # and a noexec mount stays one.
                flags = MS_REMOUNT | MS_BIND | MS_NOSUID | MS_NODEV | (0 if writable else MS_RDONLY)
                _mount(None, path, None, flags | (MS_NOEXEC if os.statvfs(path).f_flag & os.ST_NOEXEC else 0))
                os.close(held[path])
        except OSError as exc:
            _fail(f"cannot show the program its files: {exc}")


def _place(path: str, directory: bool) -> None:
    """A directory or an empty file at ``path`` to bind onto (in a cover, made now)."""
    os.makedirs(path if directory else os.path.dirname(path), exist_ok=True)
    if not directory and not os.path.lexists(path):
        os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o644))


def _mount(source: str | bytes | None, target: str, kind: bytes | None, flags: int, data: bytes | None = None) -> None:
    c = libc()
    assert c is not None
    raw = os.fsencode(source) if isinstance(source, str) else source
    if c.mount(raw, os.fsencode(target), kind, flags, data) != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"mount {target}: {os.strerror(err)}")


INNER_PATH = re.compile(r"(?<![\w.~-])/[^\s'\"`;|&<>()$]*")
"""An absolute path inside a word (a ``sh -c`` script's)."""


def needed(argv: list[str], cwd: str) -> list[str]:
    """What a program needs to reach: its working directory, this Python (its
    environment's prefix and its installation's), the referee's sources, the command
    found on PATH, every existing path its command line names, as written and with
    its links followed, and the deepest existing directory of each absolute path
    inside a word (``sh -c 'while [ ! -e /dir/go-$PORT ] ...'``: ``/dir``)."""
    wanted = [cwd, sys.prefix, sys.base_prefix, str(Path(__file__).resolve().parents[2])]
    found = shutil.which(argv[0]) if argv and os.sep not in argv[0] else None
    words = [*argv, *([found] if found else [])]
    for word in words:
        path = Path(cwd, word)
        with contextlib.suppress(OSError, ValueError):
            if path.exists():
                wanted += [os.path.normpath(path), str(path.resolve())]
                continue
        for inner in INNER_PATH.findall(word):
            deepest = Path(inner)
            with contextlib.suppress(OSError, ValueError):
                while not deepest.exists() and deepest != deepest.parent:
                    deepest = deepest.parent
                if deepest != deepest.parent:
                    wanted.append(os.path.normpath(deepest))
    return wanted


def view_of(argv: list[str], cwd: str, shared: tuple[str, ...] = (), writable: bool = False) -> View | None:
    """The view a program launched now needs, None where the runner is not root
    (nothing to hide it from) or nobody reaches all it needs already: the shares
    bound writable, the rest as ``writable`` says."""
    if not drops():
        return None
    covers: set[str] = set()
    shown: dict[str, bool] = {}
    wanted = {os.path.normpath(p) for p in needed(argv, cwd)}
    for path, rw in [*((p, writable) for p in wanted), *((p, True) for p in shared)]:
        path = os.path.normpath(path)
        block = _blocked(path)
        if block is None:
            continue
        covers.add(block)
        if block != path:
            shown[path] = shown.get(path, False) or rw
    kept: dict[str, bool] = {}
    for path in sorted(shown):  # a path inside one shown, with nothing blocked between, comes with it
        if not any(under(path, d) and os.path.isdir(d) and _blocked(path, d) is None for d in kept):
            kept[path] = shown[path]
    if not covers:
        return None
    steps = [(c, True, True, False) for c in covers]
    for path, rw in kept.items():
        steps += _opened(path, rw, kept)
    for path in covers - set(kept):  # a needed directory nobody cannot enter (a 0700 working directory)
        if path in wanted:
            steps += _opened(path, writable, kept)[1:]
    return View(tuple(sorted(set(steps), key=lambda step: (len(Path(step[0]).parts), not step[1], step[0]))))


SHOWN_ENTRIES = 512
"""Entries of a needed directory that nobody cannot enter shown one by one, at most."""


def _closed(path: str) -> bool:
    """Whether ``path`` is a directory that nobody may not enter (its own mode)."""
    with contextlib.suppress(OSError):
        st = os.stat(path)
        return stat.S_ISDIR(st.st_mode) and not _nobody_may(st, 1)
    return False


def _opened(path: str, writable: bool, kept: Iterable[str]) -> list[tuple[str, bool, bool, bool]]:
    """How a shown path is shown: bound at its place — or, for a directory nobody may
    not enter itself (a working directory of mode 0700, as pytest's), a cover in its
    place with its entries (at most SHOWN_ENTRIES) bound into it one by one, so that
    its files are there at the same paths.  An entry on the way to another shown path
    (in ``kept``) is left to that path's own binding, whose way the cover opens."""
    if not _closed(path):
        return [(path, False, os.path.isdir(path), writable)]
    with os.scandir(path) as entries:
        names = sorted(entry.path for entry in itertools.islice(entries, SHOWN_ENTRIES))
    names = [name for name in names if not any(k != name and under(k, name) for k in kept)]
    return [(path, True, True, False), *((name, False, os.path.isdir(name), writable) for name in names)]


def share_refusal(directory: str) -> str:
    """Why the programs cannot write ``directory`` as a ``--sandbox-share``: '' if
    they can (a root runner's programs are nobody: it must be theirs or others')."""
    if not drops():
        return ""
    try:
        st = os.stat(directory)
    except OSError as exc:
        return exc.strerror or "unreadable"
    if _nobody_may(st, 2) and _nobody_may(st, 1):
        return ""
    return f"the programs run as nobody (the runner is root), who cannot write it (chmod o+rwx, or chown {NOBODY})"
