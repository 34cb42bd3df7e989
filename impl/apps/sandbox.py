"""Where a player program of ``referee match``, ``referee tournament`` and ``referee
compliance`` runs: a sandbox that keeps it from seeing, signalling or tracing its
opponent and the referee, that ends, children and all, with its game and with the
runner, and that bounds its processes and memory (issues #38 and #49).

Three kinds, the strongest available chosen by ``--sandbox auto`` (the default):

``bwrap``
    bubblewrap (https://github.com/containers/bubblewrap), the sandbox Flatpak
    runs its applications in: a tool made for exactly this, unprivileged, a
    single small binary (Debian's ``bubblewrap``).  The program gets its own
    user namespace (running as ``nobody`` inside, with no capability outside it),
    its own PID namespace with a fresh ``/proc`` (no other process of the
    machine is visible, so none can be named to ``kill`` or ``ptrace``), its own
    IPC and UTS namespaces, a new session (no terminal to inject into), a
    read-only view of the file system with a private ``/tmp`` (also ``HOME`` and
    ``TMPDIR``) of at most TMP_SIZE bytes (bwrap 0.8's ``--size``) and ``/dev``.
    ``--die-with-parent``: bwrap and everything inside it are killed when the
    thread that launched it ends, so a runner that is killed (``kill -9``
    included) leaves nothing running.  The network is shared: the program must
    reach the game's server on 127.0.0.1.
``unshare``
    util-linux ``unshare --user --pid --fork --kill-child --mount-proc``, on
    every Linux: the user and PID namespaces and the fresh ``/proc`` as above,
    and the program's whole namespace killed when ``unshare`` is.  Not
    protected: the file system is shared and writable as the program's user sees
    it (one program can read or change the other's files, and ``/tmp`` is
    common); the terminal session is shared.
``none``
    the program in its own session and process group (the only kind where there
    is neither: macOS, Windows, or a kernel without user namespaces).  Not
    protected: a program can see, signal or trace its opponent (the runner then
    flags a program killed by a signal it did not send as suspected foul play,
    impl/apps/games.py), and a child that leaves its process group outlives the
    game where no cgroup holds it (PR_SET_PDEATHSIG ends only the program itself
    with the runner, on Linux).

**Never root outside.**  A user namespace maps its ``nobody`` to the user who made
it: a runner running as root would run its programs as root to the file system
(``/etc/shadow`` readable; bwrap run by root keeps its capabilities over files, and
unshare maps root to root).  So when the runner is root, each program's process
becomes NOBODY (uid and gid 65534, no supplementary groups) before bwrap, unshare
or the program itself is started, whatever the kind (``preexec``).  What nobody
could not reach of what the program needs — its command's files, its working
directory, this Python, the referee's sources, ``--sandbox-share`` directories, say
a script in pytest's ``/tmp/pytest-of-root`` (mode 0700) or a Python under
``/root`` — is shown to it alone (``View``): in a mount namespace of its own, the
first directory on the way that nobody cannot enter is replaced by an empty one,
holding only those paths, bound at their own places (read-only but for the shares).
The files themselves must still be readable by others (mode ``o+r``).  Where root
cannot become nobody (a container without the uid), the run says so.

Which process holds a connection is found through /proc the same way for all
three (impl/apps/seats.py): within a PID namespace every descendant of the
sandbox, one that called ``setsid`` or was orphaned included, stays below it.

Whatever the kind, a program gets a cgroup of its own where the runner may make one
(impl/apps/cgroups.py ``TaskLimit``: root, cgroup v1 or v2): its tasks capped at
TASKS_MAX, its memory at ``--program-memory`` (PROGRAM_MEMORY by default) without
swap, and everything in it killed with its game.  Where a bound cannot be applied, the run says which, once
(``describe``).
"""

from __future__ import annotations

import argparse
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
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from impl.apps.cgroups import PROGRAM_MEMORY, TaskLimit, limits_here
from impl.server.procs import die_with_parent, libc

KINDS = ("auto", "bwrap", "unshare", "none")
"""The choices of ``--sandbox``."""
PROBE_TIMEOUT = 10.0
"""Seconds the one trial run of a sandbox may take (``works``)."""
NOBODY = 65534
"""The uid and gid a root runner's programs run as (nobody, nogroup)."""
TMP_SIZE = 256 << 20
"""Bytes of a bwrap sandbox's private ``/tmp`` (its pages also count in the memory cap)."""
MIN_MEMORY = 32 << 20
"""The least ``--program-memory`` taken: a Python player needs some 20 MB to start."""


@dataclass(frozen=True)
class Sandbox:
    """A kind of sandbox and the tool that makes it (its path; empty for ``none``)."""

    kind: str
    tool: str = ""
    shared: tuple[str, ...] = ()
    """Directories the programs may write to (``--sandbox-share``), the same for
    both: the rest of the file system is read-only in a ``bwrap`` sandbox."""
    memory: int = PROGRAM_MEMORY
    """Each program's memory cap in bytes (its cgroup's, where there is one)."""
    tmp_size: int = TMP_SIZE
    """Bytes of a bwrap sandbox's ``/tmp``; 0 where bwrap is older than 0.8 (unbounded)."""

    @property
    def isolates(self) -> bool:
        """Whether the program is in a PID namespace of its own: it can name (signal,
        trace) no process outside, and every process it starts stays below it."""
        return self.kind != "none"

    def wrap(self, argv: list[str], cwd: str) -> list[str]:
        """The command line that runs ``argv`` in this sandbox, in directory ``cwd``."""
        if self.kind == "bwrap":
            shown = [word for path in visible(argv, cwd) for word in ("--ro-bind", path, path)]
            options = bwrap_options(cwd, self.tmp_size)
            return [self.tool, *options, *shown, *_shares(self.shared), "--", *argv]
        if self.kind == "unshare":
            return [self.tool, *UNSHARE_OPTIONS, "--", *argv]
        return list(argv)

    def view(self, argv: list[str], cwd: str) -> View | None:
        """What a root runner's program must be shown (``view_of``): read-only in a
        bwrap sandbox, whose file system is; elsewhere as writable as its modes say."""
        return view_of(argv, cwd, self.shared, writable=self.kind != "bwrap")

    def preexec(self, limit: TaskLimit | None = None, view: View | None = None) -> Callable[[], None] | None:
        """What the child runs before the program: it enters its cgroup (``limit``),
        gets its view of the file system (``view``), becomes NOBODY if the runner is
        root, and takes SIGKILL for when the launching thread ends (PR_SET_PDEATHSIG,
        last: a change of credentials clears it)."""
        # From the fork on, not from when bwrap or unshare gets to it: a runner killed
        # in between would leave the sandbox running.  (Neither tool is set-user-ID
        # here, so the signal survives the exec.)
        dies = libc() is not None  # loaded here, before the fork
        drop = drops()
        runner = os.getpid()

        def prepare() -> None:
            if limit is not None:
                limit.enter()
            if view is not None:
                view.make()
                # The working directory again by its path, through the new view: the
                # inherited one is the directory under any cover, which nobody may not enter.
                os.chdir(os.getcwd())
            if drop:
                become_nobody()
            if dies:
                die_with_parent(runner, 1)

        return prepare if limit is not None or dies or drop or view is not None else None


NONE = Sandbox("none")
"""No sandbox: the program in its own session and process group only."""
UNSHARE_OPTIONS = ("--user", "--map-current-user", "--pid", "--fork", "--kill-child", "--mount-proc")


def bwrap_options(cwd: str, tmp_size: int = TMP_SIZE) -> list[str]:
    """bubblewrap's options (see the module's docstring for what each keeps out)."""
    size = ["--size", str(tmp_size)] if tmp_size else []
    return [
        *("--unshare-user", "--uid", str(NOBODY), "--gid", str(NOBODY)),
        *("--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try"),
        *("--die-with-parent", "--new-session"),
        *("--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", *size, "--tmpfs", "/tmp"),
        *("--setenv", "HOME", "/tmp", "--setenv", "TMPDIR", "/tmp"),
        *("--chdir", cwd),
    ]


PRIVATE = ("/tmp",)
"""Directories a bwrap sandbox replaces with an empty one of its own."""


def visible(argv: list[str], cwd: str) -> list[str]:
    """What a program needs to see of the directories the sandbox makes private
    (``/tmp``), shown read-only at the same paths: the working directory, this
    Python's prefix and the referee's own sources (for our players and for a
    command line that runs ``{python}``), and every existing path the command
    line names (a file's directory)."""
    wanted = [cwd, sys.prefix, str(Path(__file__).resolve().parents[2])]
    for word in argv:
        path = Path(cwd, word)
        with contextlib.suppress(OSError, ValueError):
            if path.exists():
                wanted.append(str(path.resolve() if path.is_dir() else path.resolve().parent))
    inside = {os.path.normpath(w) for w in wanted if any(_under(w, p) for p in PRIVATE)}
    return _outermost(inside)


def _outermost(paths: Iterable[str]) -> list[str]:
    """The outermost of nested paths only: binding one inside another would hide it."""
    found = set(paths)
    return sorted(p for p in found if not any(q != p and _under(p, q) for q in found))


def _under(path: str, directory: str) -> bool:
    path, directory = os.path.normpath(path), os.path.normpath(directory)
    return path == directory or path.startswith(directory.rstrip("/") + "/")


def _shares(shared: tuple[str, ...]) -> list[str]:
    return [word for path in shared for word in ("--bind", path, path)]


# ─── a root runner's programs: nobody, and what nobody must see ────────────────

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
        if not any(_under(path, d) and os.path.isdir(d) and _blocked(path, d) is None for d in kept):
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
    names = [name for name in names if not any(k != name and _under(k, name) for k in kept)]
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


# ─── the kinds ─────────────────────────────────────────────────────────────────


def candidate(kind: str) -> Sandbox | None:
    """The sandbox of ``kind`` if its tool is installed (not yet tried)."""
    if kind == "none":
        return NONE
    if not sys.platform.startswith("linux"):
        return None
    tool = shutil.which(kind)
    if tool is None:
        return None
    return Sandbox(kind, tool, tmp_size=TMP_SIZE if kind != "bwrap" or _sizes_tmpfs(tool) else 0)


@functools.cache
def _sizes_tmpfs(tool: str) -> bool:
    """Whether this bwrap takes ``--size`` (0.8 and later)."""
    try:
        out = subprocess.run([tool, "--version"], capture_output=True, text=True, timeout=PROBE_TIMEOUT).stdout
    except (OSError, subprocess.SubprocessError):
        return False
    found = re.search(r"(\d+)\.(\d+)", out)
    return found is not None and (int(found[1]), int(found[2])) >= (0, 8)


@functools.cache
def works(sandbox: Sandbox) -> bool:
    """Whether ``sandbox`` runs a program here, as the programs will run (nobody, for a
    root runner): tried once a process (a kernel may forbid unprivileged user
    namespaces; a container may lack /proc)."""
    if not sandbox.isolates:
        return True
    try:
        done = subprocess.run(
            sandbox.wrap(["/bin/sh", "-c", "exit 0"], "/"),
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=PROBE_TIMEOUT,
            check=False,
            preexec_fn=sandbox.preexec(),
        )
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 0


class Unavailable(Exception):
    """The sandbox asked for cannot run here (the message says why)."""


def choose(asked: str) -> Sandbox:
    """The sandbox ``--sandbox`` asks for: ``auto`` the strongest that works here."""
    if asked == "auto":
        for kind in ("bwrap", "unshare"):
            found = candidate(kind)
            if found is not None and works(found):
                return found
        return NONE
    found = candidate(asked)
    if found is None:
        raise Unavailable(f"--sandbox {asked}: {asked} is not installed here (try --sandbox auto)")
    if not works(found):
        raise Unavailable(f"--sandbox {asked}: {asked} cannot run a program here (user namespaces refused?)")
    return found


UNITS = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}


def memory_size(text: str) -> int:
    """``--program-memory``: bytes, or a number of K, M, G or T (binary: 2G is 2 GiB)."""
    found = re.fullmatch(r"\s*(\d+)\s*([KMGT]?)i?B?\s*", text, re.IGNORECASE)
    if found is None or int(found[1]) * UNITS[found[2].upper()] < MIN_MEMORY:
        raise argparse.ArgumentTypeError(f"{text!r} is not a size of at least {MIN_MEMORY >> 20}M (e.g. 512M, 2G)")
    return int(found[1]) * UNITS[found[2].upper()]


def describe(sandbox: Sandbox) -> str:
    """One line for the user saying what is not bounded here, '' if everything is."""
    gaps = []
    if runs_as_root():
        gaps.append(f"they run as root (this process cannot become nobody, uid {NOBODY})")
    bounds = limits_here(sandbox.memory)
    missing = [what for what in ("tasks", "memory") if what not in bounds]
    if missing:
        why = "no cgroup this process may make" if not bounds else "no memory controller here"
        gaps.append(f"no {' or '.join(missing)} limit ({why})")
    if sandbox.kind == "bwrap" and not sandbox.tmp_size:
        gaps.append("their /tmp is unbounded (bwrap older than 0.8 has no --size)")
    if sandbox.kind == "none":
        where = "unsandboxed (no bwrap or unshare works here): they can signal each other"
    elif gaps:
        where = f"in {sandbox.kind} sandboxes"
    else:
        return ""
    return f"programs run {where}" + "".join(f"; {gap}" for gap in gaps)
