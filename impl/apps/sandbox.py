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
holding only those paths, bound at their own places (read-only but for the shares;
impl/apps/nobody.py).
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
import functools
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from impl.apps.cgroups import PROGRAM_MEMORY, TaskLimit, limits_here
from impl.apps.nobody import (
    NOBODY,
    PROBE_TIMEOUT,
    View,
    become_nobody,
    drops,
    runs_as_root,
    under,
    view_of,
)
from impl.server.procs import die_with_parent, libc

KINDS = ("auto", "bwrap", "unshare", "none")
"""The choices of ``--sandbox``."""
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
    inside = {os.path.normpath(w) for w in wanted if any(under(w, p) for p in PRIVATE)}
    return _outermost(inside)


def _outermost(paths: Iterable[str]) -> list[str]:
    """The outermost of nested paths only: binding one inside another would hide it."""
    found = set(paths)
    return sorted(p for p in found if not any(q != p and under(p, q) for q in found))


def _shares(shared: tuple[str, ...]) -> list[str]:
    return [word for path in shared for word in ("--bind", path, path)]


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
