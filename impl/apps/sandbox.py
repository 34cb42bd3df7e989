"""Where a player program of ``referee match`` and ``referee tournament`` runs:
a sandbox that keeps it from seeing, signalling or tracing its opponent and the
referee, and that ends, children and all, with its game and with the runner.

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
    ``TMPDIR``) and ``/dev``.  ``--die-with-parent``: bwrap and everything
    inside it are killed when the thread that launched it ends, so a runner
    that is killed (``kill -9`` included) leaves nothing running.  The network
    is shared: the program must reach the game's server on 127.0.0.1.
``unshare``
    util-linux ``unshare --user --pid --fork --kill-child --mount-proc``, on
    every Linux: the user and PID namespaces and the fresh ``/proc`` as above,
    and the program's whole namespace killed when ``unshare`` is.  Not
    protected: the file system is shared and writable as the runner's user sees
    it (one program can read or change the other's files, and ``/tmp`` is
    common); the terminal session is shared.
``none``
    the program in its own session and process group, as the runner's user
    (the only kind where there is neither: macOS, Windows, or a kernel without
    unprivileged user namespaces).  Not protected: a program can see, signal or
    trace its opponent and the referee (the runner then flags a program killed
    by a signal it did not send as suspected foul play, impl/apps/games.py), and
    a child that leaves its process group outlives the game (PR_SET_PDEATHSIG
    ends only the program itself with the runner, on Linux).

Which process holds a connection is found through /proc the same way for all
three (impl/apps/seats.py): within a PID namespace every descendant of the
sandbox, one that called ``setsid`` or was orphaned included, stays below it.
"""

from __future__ import annotations

import contextlib
import functools
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from impl.cli import die_with_parent, libc

KINDS = ("auto", "bwrap", "unshare", "none")
"""The choices of ``--sandbox``."""
PROBE_TIMEOUT = 10.0
"""Seconds the one trial run of a sandbox may take (``works``)."""


@dataclass(frozen=True)
class Sandbox:
    """A kind of sandbox and the tool that makes it (its path; empty for ``none``)."""

    kind: str
    tool: str = ""
    shared: tuple[str, ...] = ()
    """Directories the programs may write to (``--sandbox-share``), the same for
    both: the rest of the file system is read-only in a ``bwrap`` sandbox."""

    @property
    def isolates(self) -> bool:
        """Whether the program is in a PID namespace of its own: it can name (signal,
        trace) no process outside, and every process it starts stays below it."""
        return self.kind != "none"

    def wrap(self, argv: list[str], cwd: str) -> list[str]:
        """The command line that runs ``argv`` in this sandbox, in directory ``cwd``."""
        if self.kind == "bwrap":
            shown = [word for path in visible(argv, cwd) for word in ("--ro-bind", path, path)]
            return [self.tool, *bwrap_options(cwd), *shown, *_shares(self.shared), "--", *argv]
        if self.kind == "unshare":
            return [self.tool, *UNSHARE_OPTIONS, "--", *argv]
        return list(argv)

    def preexec(self, limit: TaskLimit | None = None) -> Callable[[], None] | None:
        """What the child runs before the program: it enters its cgroup (``limit``)
        and takes SIGKILL for when the launching thread ends (PR_SET_PDEATHSIG)."""
        # From the fork on, not from when bwrap or unshare gets to it: a runner killed
        # in between would leave the sandbox running.  (Neither tool is set-user-ID
        # here, so the signal survives the exec.)
        dies = libc() is not None  # loaded here, before the fork
        runner = os.getpid()

        def prepare() -> None:
            if limit is not None:
                limit.enter()
            if dies:
                die_with_parent(runner, 1)

        return prepare if limit is not None or dies else None


NONE = Sandbox("none")
"""No sandbox: the program in its own session and process group only."""
UNSHARE_OPTIONS = ("--user", "--map-current-user", "--pid", "--fork", "--kill-child", "--mount-proc")


def bwrap_options(cwd: str) -> list[str]:
    """bubblewrap's options (see the module's docstring for what each keeps out)."""
    return [
        *("--unshare-user", "--uid", "65534", "--gid", "65534"),
        *("--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try"),
        *("--die-with-parent", "--new-session"),
        *("--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp"),
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
    # The outermost of nested paths only: binding one inside another would hide it.
    return sorted(p for p in inside if not any(q != p and _under(p, q) for q in inside))


def _under(path: str, directory: str) -> bool:
    path, directory = os.path.normpath(path), os.path.normpath(directory)
    return path == directory or path.startswith(directory.rstrip("/") + "/")


def _shares(shared: tuple[str, ...]) -> list[str]:
    return [word for path in shared for word in ("--bind", path, path)]


def candidate(kind: str) -> Sandbox | None:
    """The sandbox of ``kind`` if its tool is installed (not yet tried)."""
    if kind == "none":
        return NONE
    if not sys.platform.startswith("linux"):
        return None
    tool = shutil.which(kind)
    return Sandbox(kind, tool) if tool is not None else None


@functools.cache
def works(sandbox: Sandbox) -> bool:
    """Whether ``sandbox`` runs a program here: tried once a process (a kernel
    may forbid unprivileged user namespaces; a container may lack /proc)."""
    if not sandbox.isolates:
        return True
    try:
        done = subprocess.run(
            sandbox.wrap(["/bin/sh", "-c", "exit 0"], "/"),
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=PROBE_TIMEOUT,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
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


TASKS_MAX = 512
"""Processes and threads one program may have at once (its cgroup's ``pids.max``):
a fork bomb stops there, and its opponent and the referee keep theirs."""
REMOVE_WAIT = 5.0
"""Seconds a cgroup's removal waits for its killed processes to be gone."""
CGROUP_ROOTS = (Path("/sys/fs/cgroup/pids"), Path("/sys/fs/cgroup"))
"""Where a pids controller may be mounted: cgroup v1's own hierarchy, or v2's."""


@dataclass(frozen=True)
class TaskLimit:
    """A cgroup of its own for one program, its tasks capped at ``TASKS_MAX``
    (where this process may make one: as root, with a pids controller)."""

    path: Path

    @classmethod
    def make(cls, name: str) -> TaskLimit | None:
        """The cgroup ``name`` under the first pids hierarchy that takes it, None
        where there is none (not root, no controller: the limit is then missing)."""
        for root in CGROUP_ROOTS:
            v1 = root.name == "pids" and (root / "cgroup.procs").exists()
            if not v1 and not _v2_pids(root):
                continue
            path = root / name
            try:
                path.mkdir()
                (path / "pids.max").write_text(f"{TASKS_MAX}\n")
            except OSError:
                with contextlib.suppress(OSError):
                    path.rmdir()
                continue
            reap_on_exit(root)
            return cls(path)
        return None

    def enter(self) -> None:
        """In the child, before exec: move this process (and so all it starts) in."""
        with contextlib.suppress(OSError), open(self.path / "cgroup.procs", "w") as procs:
            procs.write("0")

    def kill(self) -> int:
        """SIGKILL to every process in it (a program's whole tree, whatever session
        or group its processes moved to); how many there were."""
        try:
            pids = [int(p) for p in (self.path / "cgroup.procs").read_text().split()]
        except (OSError, ValueError):
            return 0
        for pid in pids:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        return len(pids)

    def remove(self, wait: float = REMOVE_WAIT) -> None:
        """Kill what is left in it and remove it, once its processes are gone (a
        cgroup with tasks cannot be removed; SIGKILL's delivery takes a moment)."""
        deadline = time.monotonic() + wait
        while self.kill() and time.monotonic() < deadline:
            time.sleep(0.01)
        with contextlib.suppress(OSError):
            self.path.rmdir()


_REAPER: list[subprocess.Popen[bytes]] = []
"""This process's reaper, once it has a cgroup (``reap_on_exit``)."""


def reap_on_exit(root: Path) -> None:
    """Start, once, a reaper for this process's cgroups under ``root``: a process in a
    session of its own, deaf to the terminal's and the runner's signals, waiting
    for the end of a pipe only this process holds.  However this process ends
    (kill -9 included), the pipe closes and the reaper kills every process left in
    its cgroups and removes them: a sandbox still being set up when the runner
    died (bwrap's own parent-death signal not yet armed) ends too."""
    if _REAPER:
        return
    code = (
        "import signal,sys\n"
        "for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP): signal.signal(s, signal.SIG_IGN)\n"
        "sys.stdin.buffer.read()\n"
        "from impl.apps.sandbox import reap\n"
        f"reap({str(root)!r}, {os.getpid()})\n"
    )
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    _REAPER.append(
        subprocess.Popen(
            [sys.executable, "-c", code],
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
            env=env,
        )
    )


def reap(root: str, runner: int) -> None:
    """The reaper's work: kill and remove the runner's cgroups (``zreferee-RUNNER-*``)."""
    for path in Path(root).glob(f"zreferee-{runner}-*"):
        TaskLimit(path).remove()


def _v2_pids(root: Path) -> bool:
    try:
        return "pids" in (root / "cgroup.subtree_control").read_text().split()
    except OSError:
        return False


def describe(sandbox: Sandbox) -> str:
    """One line for the user: what the programs run in."""
    if sandbox.kind == "none":
        return "programs run unsandboxed (no bwrap or unshare works here): they can signal each other"
    return f"programs run in {sandbox.kind} sandboxes"
