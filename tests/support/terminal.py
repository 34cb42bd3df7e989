"""A command on a pseudo-terminal, driven as a person would type (the tests of
``referee client``, ``play``, ``watch``, ``replay``, ``spec`` and the tournament's
terminal in tests/apps/), and the ``referee`` command line."""

from __future__ import annotations

import os
import pty
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.support.paths import ROOT

TIMEOUT = 15.0


class Pty:
    """A command on a pseudo-terminal: type lines, wait for text."""

    def __init__(self, argv: list[str], sigint_ignored: bool = False) -> None:
        master, slave = pty.openpty()
        # A shell's background job starts with SIGINT ignored; the child inherits that.
        ignore = (lambda: signal.signal(signal.SIGINT, signal.SIG_IGN)) if sigint_ignored else None
        self.proc = subprocess.Popen(
            argv, stdin=slave, stdout=slave, stderr=slave, start_new_session=True, preexec_fn=ignore
        )
        # Our copy of the slave stays open until kill(), as a terminal's session keeps
        # it open: were the command's exit the last close of the slave, the master
        # could report EIO (hang-up) before the command's last lines reached it (a
        # precaution for the messages written just before exit; not seen here).
        self.slave = slave
        self.master = master
        self.output = ""
        self.seen = 0

    def _read(self, timeout: float) -> bool:
        if not select.select([self.master], [], [], timeout)[0]:
            return False
        try:
            data = os.read(self.master, 65536)
        except OSError:  # EIO: the command has exited and its terminal is gone
            return False
        self.output += data.decode("utf-8", "replace").replace("\r\n", "\n")
        return bool(data)

    def expect(self, text: str, timeout: float = TIMEOUT) -> str:
        """Wait for ``text`` after what was matched before; the output up to it."""
        deadline = time.monotonic() + timeout
        while text not in self.output[self.seen :]:
            left = deadline - time.monotonic()
            ended = self.proc.poll() is not None
            # Once the command has ended, what it wrote is already on its way: a read
            # that brings nothing within a short while means there is no more.
            if left <= 0 or (not self._read(min(left, 1.0 if ended else 0.25)) and ended):
                status = "running" if not ended else f"exit status {self.proc.returncode}"
                raise AssertionError(f"{text!r} not in output ({status}):\n{self.output[self.seen :]}")
        end = self.output.index(text, self.seen) + len(text)
        chunk, self.seen = self.output[self.seen : end], end
        return chunk

    def type(self, line: str) -> None:
        os.write(self.master, (line + "\n").encode())

    def end_of_input(self) -> None:
        """Ctrl-D at the start of a line: the command reads end of input."""
        os.write(self.master, b"\x04")

    def finish(self) -> int:
        """The exit status, once the command has ended by itself."""
        return self.proc.wait(TIMEOUT)

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        for fd in (self.master, self.slave):
            if fd >= 0:
                os.close(fd)
        self.master = self.slave = -1


def referee(*args: str) -> list[str]:
    return [sys.executable, "-m", "impl.cli", *args]


def run_referee(*args: str, cwd: Path, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """``referee ARGS`` run to its end in ``cwd``, this checkout importable."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        referee(*args), env=env, cwd=cwd, capture_output=True, text=True, timeout=timeout, check=False
    )


def refused(done: subprocess.CompletedProcess[str]) -> str:
    """The one line a command refused with (exit status 2, nothing on standard output,
    one line on standard error): the CLI's promise for bad input, checked here once."""
    assert done.returncode == 2, done.stderr
    assert done.stdout == "", done.stdout
    [line] = done.stderr.splitlines()
    return line
