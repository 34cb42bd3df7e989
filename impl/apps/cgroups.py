"""A player program's cgroup (``TaskLimit``; issues #38 and #49): its tasks capped at
TASKS_MAX, its memory at ``--program-memory`` without swap, everything in it killed
with its game, and a reaper that ends and removes this process's cgroups however it
ends (``reap_on_exit``).  Made where the runner may (root, cgroup v1 or v2);
impl/apps/sandbox.py says once which bound is missing (``limits_here``)."""

from __future__ import annotations

import contextlib
import functools
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

PROGRAM_MEMORY = 2 << 30
"""A program's memory cap by default (``--program-memory``), its cgroup's memory and
swap together: a program that allocates more is killed by the kernel there."""

TASKS_MAX = 512
"""Processes and threads one program may have at once (its cgroup's ``pids.max``):
a fork bomb stops there, and its opponent and the referee keep theirs."""
REMOVE_WAIT = 5.0
"""Seconds a cgroup's removal waits for its killed processes to be gone."""
CGROUPS = Path("/sys/fs/cgroup")
"""cgroup v2's single hierarchy, or (v1) the directory of one hierarchy per controller."""
CONTROLLERS = ("pids", "memory")


def _own(controller: str) -> str:
    """This process's cgroup in cgroup v1's ``controller`` hierarchy ('/': its root)."""
    with contextlib.suppress(OSError):
        for line in Path("/proc/self/cgroup").read_text().splitlines():
            _, names, path = line.split(":", 2)
            if controller in names.split(","):
                return path
    return "/"


def places(enable: bool = True) -> list[tuple[Path, frozenset[str]]]:
    """Where a program's cgroups go, each with the controllers it has there: cgroup
    v2's root (memory enabled there if it is not yet, when ``enable``), or cgroup v1's
    ``pids`` and ``memory`` hierarchies, below this process's own cgroup in each (so
    that the limits above it still hold)."""
    control = CGROUPS / "cgroup.subtree_control"
    if control.exists():  # v2
        if enable and "memory" not in _words(control) and "memory" in _words(CGROUPS / "cgroup.controllers"):
            with contextlib.suppress(OSError):
                control.write_text("+memory\n")
        found = frozenset(_words(control)) & frozenset(CONTROLLERS)
        return [(CGROUPS, found)] if found else []
    v1 = []
    for controller in CONTROLLERS:
        root = CGROUPS / controller
        if (root / "cgroup.procs").exists():
            v1.append((root / _own(controller).lstrip("/"), frozenset({controller})))
    return v1


def _words(path: Path) -> list[str]:
    try:
        return path.read_text().split()
    except OSError:
        return []


def _cap(path: Path, controller: str, memory: int) -> frozenset[str]:
    """Set ``controller``'s limit in the cgroup at ``path``: what it bounds."""
    if controller == "pids":
        (path / "pids.max").write_text(f"{TASKS_MAX}\n")
        return frozenset({"tasks"})
    if (path / "memory.max").exists():  # v2
        (path / "memory.max").write_text(f"{memory}\n")
        with contextlib.suppress(OSError):
            (path / "memory.swap.max").write_text("0\n")
        return frozenset({"memory"})
    (path / "memory.limit_in_bytes").write_text(f"{memory}\n")  # v1: then memory and swap together
    with contextlib.suppress(OSError):
        (path / "memory.memsw.limit_in_bytes").write_text(f"{memory}\n")
    return frozenset({"memory"})


@dataclass(frozen=True)
class TaskLimit:
    """A program's cgroup (one a hierarchy: two on cgroup v1), its tasks capped at
    TASKS_MAX and its memory at the sandbox's ``memory`` where the controllers are
    there (as root)."""

    path: Path
    """The first of its cgroups: every process of the program is listed there."""
    others: tuple[Path, ...] = ()
    """cgroup v1: the same program's cgroup in the other hierarchies."""
    bounds: frozenset[str] = frozenset()
    """What it bounds: ``tasks``, ``memory``."""
    memory: int = PROGRAM_MEMORY

    @property
    def paths(self) -> tuple[Path, ...]:
        return (self.path, *self.others)

    @classmethod
    def make(cls, name: str, memory: int = PROGRAM_MEMORY) -> TaskLimit | None:
        """The cgroup ``name`` in every hierarchy that takes it, None where there is
        none (not root, no controller: the limits are then missing)."""
        made: list[Path] = []
        bounds: frozenset[str] = frozenset()
        for parent, controllers in places():
            path = parent / name
            try:
                path.mkdir()
                for controller in sorted(controllers):
                    bounds |= _cap(path, controller, memory)
            except OSError:
                with contextlib.suppress(OSError):
                    path.rmdir()
                continue
            made.append(path)
        if not made:
            return None
        reap_on_exit()
        return cls(made[0], tuple(made[1:]), bounds, memory)

    def enter(self) -> None:
        """In the child, before exec: move this process (and so all it starts) in."""
        for path in self.paths:
            with contextlib.suppress(OSError), open(path / "cgroup.procs", "w") as procs:
                procs.write("0")

    def pids(self) -> set[int]:
        """The processes in it."""
        found: set[int] = set()
        for path in self.paths:
            with contextlib.suppress(OSError, ValueError):
                found |= {int(p) for p in (path / "cgroup.procs").read_text().split()}
        return found

    def kill(self) -> int:
        """SIGKILL to every process in it (a program's whole tree, whatever session
        or group its processes moved to); how many there were."""
        pids = self.pids()
        for pid in pids:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        return len(pids)

    def out_of_memory(self) -> bool:
        """Whether the kernel killed a process of it at its memory cap (v2's
        ``memory.events``; v1's ``memory.oom_control``)."""
        for path in self.paths:
            for name in ("memory.events", "memory.oom_control"):
                with contextlib.suppress(OSError, ValueError):
                    for line in (path / name).read_text().splitlines():
                        key, _, value = line.partition(" ")
                        if key == "oom_kill" and int(value) > 0:
                            return True
        return False

    def remove(self, wait: float = REMOVE_WAIT) -> None:
        """Kill what is left in it and remove it, once its processes are gone (a
        cgroup with tasks cannot be removed; SIGKILL's delivery takes a moment)."""
        deadline = time.monotonic() + wait
        while self.kill() and time.monotonic() < deadline:
            time.sleep(0.01)
        for path in self.paths:
            with contextlib.suppress(OSError):
                path.rmdir()


@functools.cache
def limits_here(memory: int = PROGRAM_MEMORY) -> frozenset[str]:
    """What a program's cgroup bounds here (tried once, on a cgroup made and removed)."""
    probe = TaskLimit.make(f"zreferee-{os.getpid()}-probe", memory)
    if probe is None:
        return frozenset()
    probe.remove()
    return probe.bounds


_REAPER: list[subprocess.Popen[bytes]] = []
"""This process's reaper, once it has a cgroup (``reap_on_exit``)."""


def reap_on_exit() -> None:
    """Start, once, a reaper for this process's cgroups: a process in a session of
    its own, deaf to the terminal's and the runner's signals, waiting for the end of a
    pipe only this process holds.  However this process ends (kill -9 included), the
    pipe closes and the reaper kills every process left in its cgroups and removes
    them: a sandbox still being set up when the runner died (bwrap's own
    parent-death signal not yet armed) ends too."""
    if _REAPER:
        return
    code = (
        "import signal,sys\n"
        "for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP): signal.signal(s, signal.SIG_IGN)\n"
        "sys.stdin.buffer.read()\n"
        "from impl.apps.cgroups import reap\n"
        f"reap({[str(parent) for parent, _ in places(enable=False)]!r}, {os.getpid()})\n"
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


def reap(parents: list[str], runner: int) -> None:
    """The reaper's work: kill and remove the runner's cgroups (``zreferee-RUNNER-*``)."""
    paths = [path for parent in parents for path in Path(parent).glob(f"zreferee-{runner}-*")]
    for path in paths:  # every process first: v1 holds one program in several hierarchies
        TaskLimit(path).kill()
    for path in paths:
        TaskLimit(path).remove()
