"""A fork server for the kill-suite: one per scratch copy, so that a mutant's pytest run
does not pay for starting Python, pytest and hypothesis again (about a second a
mutant, more than the first tier's tests themselves).

    python tests/mutation/worker.py        # cwd: the scratch copy; commands on stdin

The worker imports only third-party modules, never the project's, then answers one
JSON command a line, ``{"args": [...], "timeout": seconds}``, by forking a child that
runs ``pytest.main(args)`` — the child imports spec/, impl/ and tests/ fresh from the
scratch copy, so it sees the mutant the controller has just written — and writes back
``{"code": exit status or null on timeout, "out": pytest's output}``.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import signal
import sys
import time

import hypothesis  # noqa: F401  (imported once here, not in every child)
import icontract  # noqa: F401
import pytest


def _child(args: list[str]) -> int:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        code = int(pytest.main(args))
    os.write(3, out.getvalue().encode())
    return code


def run(args: list[str], timeout: float) -> tuple[int | None, str]:
    """pytest ``args`` in a forked child: its exit status (None past ``timeout``) and output."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: its own process group, so a timeout kills what it started
        os.setpgid(0, 0)
        os.close(read)
        os.dup2(write, 3)
        code = 1
        try:
            code = _child(args)
        finally:
            os._exit(code)
    os.close(write)
    deadline = time.monotonic() + timeout
    chunks: list[bytes] = []
    os.set_blocking(read, False)
    status: int | None = None
    while status is None:
        with contextlib.suppress(BlockingIOError):
            while chunk := os.read(read, 1 << 16):
                chunks.append(chunk)
        done, raw = os.waitpid(pid, os.WNOHANG)
        if done:
            status = os.waitstatus_to_exitcode(raw)
        elif time.monotonic() > deadline:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            break
        else:
            time.sleep(0.02)
    with contextlib.suppress(BlockingIOError):
        while chunk := os.read(read, 1 << 16):
            chunks.append(chunk)
    os.close(read)
    return status, b"".join(chunks).decode(errors="replace")


def main() -> int:
    os.nice(10)  # the mutation run yields to interactive work
    for line in sys.stdin:
        command = json.loads(line)
        code, out = run(command["args"], float(command["timeout"]))
        sys.stdout.write(json.dumps({"code": code, "out": out}) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
