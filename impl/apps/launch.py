"""Launching a player program: in its sandbox (impl/apps/sandbox.py), its own session
and process group and, where one can be made, its own cgroup; its output read into a
bounded tail and a bounded log; its seat's secret handed over on a descriptor only it
inherits; the whole of it ended with its game, and with the runner.

What ``referee match``, ``referee tournament`` (impl/apps/games.py) and ``referee
compliance`` (impl/apps/compliance.py) share, so that a program is run and ended the
same way whichever command runs it.

**The seat's secret** (``secret``) is never put in the program's arguments or
environment, which any process of the same user can read (``/proc/PID/cmdline``,
``/proc/PID/environ``; ``ps``): it is written into a pipe whose reading end alone the
program inherits, as descriptor ``REFEREE_TOKEN_FD`` (that number is in its
environment), and the runner closes its own end at once.  The program reads one
line from that descriptor (docs/writing-a-player.md, "Proving your seat").
"""

from __future__ import annotations

import atexit
import itertools
import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections import deque
from collections.abc import Sequence
from contextlib import suppress
from pathlib import Path
from typing import BinaryIO

from impl.apps import cgroups, seats
from impl.apps import sandbox as sandboxes
from impl.apps.sandbox import Sandbox
from impl.client.client import TOKEN_FD

TAIL_LINES = 256
"""A program's output kept in memory: its last lines, each cut at TAIL_WIDTH
characters (more goes to ``--logs`` only, within LOG_HEAD and LOG_TAIL)."""
TAIL_WIDTH = 256
SUMMARY = "summary: moves="
KILL_GRACE = 2.0
"""Seconds a program's process group has after SIGTERM before SIGKILL."""
LOG_HEAD = 1 << 20
"""Bytes of a program's output written to its ``--logs`` file as they come."""
LOG_TAIL = 1 << 20
"""Bytes of its last output kept past LOG_HEAD, written to the log when it ends
after one line saying how much was left out between."""
PLACEHOLDERS = ("game", "host", "port", "side", "rules", "token", "python")
"""What a player's command line may ask for, in every command that launches one
(match, tournament, compliance): ``{game} {host} {port} {side} {rules} {token}``
and ``{python}``, this Python (a player line works without an activated virtual
environment).  All but the token and Python are in its environment too
(``environment``)."""
_PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")
_LAUNCHES = itertools.count(1)
"""Numbers the programs launched by this process (their cgroups' names)."""
_LIVE: set[int] = set()
"""The process groups of the programs launched and not yet ended: killed when
this process exits (Ctrl-C), since a new session does not get the terminal's signals."""
_LIMITS: set[cgroups.TaskLimit] = set()
"""The cgroups of the programs launched and not yet ended (killed with them)."""


_ENDED = threading.Event()
"""Set by ``end_all``: a program whose launch was under way then, or came after it
(another game's thread launching its second program), is ended as it starts."""


@atexit.register
def end_all() -> None:
    """SIGKILL to every program this process launched and has not ended, and to any
    launched from now on (``_ENDED``)."""
    _ENDED.set()
    for group in list(_LIVE):
        with suppress(ProcessLookupError, PermissionError):
            os.killpg(group, signal.SIGKILL)
    for limit in list(_LIMITS):  # what left its group, or a sandbox not yet ended
        limit.kill()


class BoundedLog:
    """A program's log file: its first LOG_HEAD bytes as they come, then only its
    last LOG_TAIL bytes, written at ``close`` after a line counting what was left out
    (a program writing without end fills neither the disk nor the runner's memory)."""

    def __init__(self, path: Path, head: int = LOG_HEAD, tail: int = LOG_TAIL) -> None:
        # Readable by the runner's user alone: the other program (nobody, or the same user
        # in another sandbox) must not read this one's output while the run goes on.
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600)
        self._file: BinaryIO = os.fdopen(fd, "wb")
        self._room, self._tail_size = head, tail
        self._tail: deque[bytes] = deque()
        self._held = 0
        self._dropped = 0

    def write(self, chunk: bytes) -> None:
        if self._room > 0:
            now, chunk = chunk[: self._room], chunk[self._room :]
            self._room -= len(now)
            with suppress(OSError):
                self._file.write(now)
        if not chunk:
            return
        self._tail.append(chunk)
        self._held += len(chunk)
        while self._held > self._tail_size:
            extra = self._held - self._tail_size
            first = self._tail[0]
            if len(first) <= extra:
                self._tail.popleft()
                self._held -= len(first)
                self._dropped += len(first)
            else:
                self._tail[0] = first[extra:]
                self._held -= extra
                self._dropped += extra

    def close(self) -> None:
        with suppress(OSError):
            if self._dropped:
                self._file.write(f"\n[referee: {self._dropped:,} bytes of output left out here]\n".encode())
            self._file.writelines(self._tail)
        with suppress(OSError):
            self._file.close()


class Launched:
    """A player program of one game, in its own session and process group (so that
    the whole group, children included, ends with the game); its output read by a
    thread into a bounded tail, and into ``log`` (``BoundedLog``) if given;
    ``secret``, if given, handed over on an inherited descriptor (the module's
    docstring); run in ``cwd`` (default: this process's working directory)."""

    def __init__(
        self,
        argv: list[str],
        env: dict[str, str],
        log: Path | None,
        box: Sandbox = sandboxes.NONE,
        secret: str | None = None,
        cwd: str | None = None,
    ) -> None:
        self.argv = argv
        self.tail: deque[str] = deque(maxlen=TAIL_LINES)
        self.summaries: deque[str] = deque(maxlen=TAIL_LINES)
        self._log = BoundedLog(log) if log is not None else None
        self.out_of_memory = False
        """Whether the kernel killed a process of it at its memory cap (known at ``finish``)."""
        self.limit = cgroups.TaskLimit.make(f"zreferee-{os.getpid()}-{next(_LAUNCHES)}", box.memory)
        if self.limit is not None:
            _LIMITS.add(self.limit)
        cwd = cwd or os.getcwd()
        view = box.view(argv, cwd)  # a root runner's program is nobody: what it must be shown
        kept: tuple[int, ...] = ()
        if secret is not None:
            kept = (_secret_pipe(secret),)
            env = {**env, TOKEN_FD: str(kept[0])}
        try:
            self.proc = subprocess.Popen(
                box.wrap(argv, cwd),
                cwd=cwd,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                env=env,
                pass_fds=kept,
                start_new_session=True,
                # Writes, mounts, the drop to nobody and a prctl (libc loaded before): no lock taken.
                preexec_fn=box.preexec(self.limit, view),
            )
        except OSError:
            if self._log is not None:
                self._log.close()
            self._release()
            raise
        finally:
            for fd in kept:  # the program's copy alone is left
                os.close(fd)
        self.group = self.proc.pid  # a new session's leader leads its process group
        _LIVE.add(self.group)
        if _ENDED.is_set():  # end_all ran before it could see this group: end it here
            with suppress(ProcessLookupError, PermissionError):
                os.killpg(self.group, signal.SIGKILL)
            if self.limit is not None:
                self.limit.kill()
        self._reader = threading.Thread(target=self._read, name=f"output-{self.proc.pid}", daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        with self.proc.stdout as out:
            # Lines of at most 64 KiB: a program writing without newlines stays bounded.
            for raw in iter(lambda: out.readline(65536), b""):
                if self._log is not None:
                    self._log.write(raw)
                line = raw.decode("utf-8", "replace").rstrip("\r\n")
                if SUMMARY in line:
                    self.summaries.append(line[:4096])
                self.tail.append(line[:TAIL_WIDTH])

    def finish(self, grace: float) -> int | None:
        """Wait ``grace`` seconds for the program to end, then end its whole process
        group (SIGTERM, SIGKILL after KILL_GRACE) and its cgroup: its exit status,
        None if it had to be ended."""
        status: int | None
        try:
            status = self.proc.wait(grace)
        except subprocess.TimeoutExpired:
            status = None
        end_group(self.group)
        _LIVE.discard(self.group)
        if status is None:
            self.proc.wait()
        self._release()  # before the reader's join: a child outside the group may hold the pipe
        self._reader.join(KILL_GRACE)
        if self.out_of_memory and self.limit is not None:  # said last, where the exit status is read
            note = f"[referee: killed at its memory cap, {self.limit.memory >> 20} MiB (--program-memory)]"
            self.tail.append(note)
            if self._log is not None:
                self._log.write(f"\n{note}\n".encode())
        if self._log is not None:
            self._log.close()
        return status

    def _release(self) -> None:
        """Kill whatever of the program is left in its cgroup, and remove the cgroup
        (noting first whether the kernel killed it at its memory cap)."""
        if self.limit is not None:
            self.out_of_memory = self.out_of_memory or self.limit.out_of_memory()
            self.limit.remove()
            _LIMITS.discard(self.limit)


def fill(words: Sequence[str], values: dict[str, str]) -> list[str]:
    """A command line's words with the placeholders given in ``values`` replaced (and
    ``{python}``); any other brace left as it is (a shell's ``${VAR}``)."""
    values = {"python": sys.executable, **values}
    return [_PLACEHOLDER.sub(lambda m: values.get(m[1], m[0]), word) for word in words]


def unknown_placeholder(words: Sequence[str]) -> str | None:
    """Why a command line cannot be run as meant: a ``{name}`` that is not one of
    ``PLACEHOLDERS`` (a typo, ``{prot}``, would reach the program as it is), said in
    the same words by every command; None when there is none.  A shell's ``${VAR}``
    is the shell's."""
    for word in words:
        for found in _PLACEHOLDER.finditer(word):
            if found[1] not in PLACEHOLDERS and not word[: found.start()].endswith("$"):
                known = " ".join("{" + name + "}" for name in PLACEHOLDERS)
                return f"unknown placeholder {found[0]} (the placeholders are {known})"
    return None


def environment(values: dict[str, str]) -> dict[str, str]:
    """A launched program's environment: this process's, and each placeholder's value
    as ``REFEREE_<NAME>`` — but the token, which goes on its descriptor (``Launched``)."""
    return {**os.environ, **{f"REFEREE_{k.upper()}": v for k, v in values.items() if k != "token"}}


def _secret_pipe(secret: str) -> int:
    """The reading end of a pipe holding ``secret`` and a newline, its writing end
    closed (the secret is far below a pipe's buffer: the write cannot block)."""
    read, write = os.pipe()
    try:
        os.write(write, secret.encode() + b"\n")
    finally:
        os.close(write)
    return read


def end_group(group: int) -> None:
    """SIGTERM to every process of the group, then SIGKILL to those left after
    KILL_GRACE seconds."""
    try:
        os.killpg(group, signal.SIGTERM)
    except (ProcessLookupError, PermissionError):
        return
    deadline = time.monotonic() + KILL_GRACE
    while time.monotonic() < deadline and _group_alive(group):
        time.sleep(0.02)
    with suppress(ProcessLookupError, PermissionError):
        os.killpg(group, signal.SIGKILL)


def _group_alive(group: int) -> bool:
    """Whether the group has a process that is not a zombie (a zombie is only
    waiting for its parent; SIGKILL changes nothing for it)."""
    if not seats.available():
        try:
            os.killpg(group, 0)
        except (ProcessLookupError, PermissionError):
            return False
        return True
    return any(seats.process_group(pid) == group and not seats.zombie(pid) for pid in seats.pids())
