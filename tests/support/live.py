"""``referee match`` and ``referee tournament`` with their live view (``--web 0``) as
the web view's tests run them (tests/web/test_tourney.py, tests/web/test_browser.py):
a player held at gates, and the command running until its view's address is known."""

from __future__ import annotations

import shlex
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.support.paths import GATED_PLAYER

HANG_GUARD = 240.0
"""Seconds the command is given to end once the test is done with it (a hang guard)."""


def gated_player(label: str, gates: Path, free: int | None = None) -> str:
    """The player ``LABEL=COMMAND`` of tests/support/gated_player.py, held at the files in
    ``gates`` after its first ``free`` moves, with the match runner's placeholders."""
    command = f"{label}={shlex.quote(sys.executable)} {shlex.quote(str(GATED_PLAYER))}"
    command += f" {{game}} {{host}} {{port}} {{side}} {shlex.quote(str(gates))}"
    return command + ("" if free is None else f" {free}")


def gates_at(tmp_path: Path) -> Path:
    """An empty folder for gated players' gates, shared into their sandboxes
    (``--sandbox-share``): writable by all, for nobody writes it when the tests run as root."""
    gates = tmp_path / "gates"
    gates.mkdir()
    gates.chmod(0o777)
    return gates


def viewed_run(*words: str, records: Path, gates: Path, quiet: bool = True) -> list[str]:
    """``referee WORDS… --records R --web 0 [-q] --sandbox-share GATES``: a run with its live view."""
    argv = [sys.executable, "-m", "impl.cli", *words, "--records", str(records), "--web", "0"]
    return argv + ["-q"] * quiet + ["--sandbox-share", str(gates)]


@contextmanager
def live_view(argv: list[str], wait: float = HANG_GUARD) -> Iterator[tuple[subprocess.Popen[str], str, str]]:
    """The command, its view's address and the line ``… live view at URL …`` it was read
    from; on the way out the command is given ``wait`` seconds to end, then killed."""
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        for line in proc.stdout:
            if "live view at " in line:
                yield proc, line.split("live view at ", 1)[1].split()[0], line
                break
        else:
            pytest.fail(f"no live view line: {proc.wait()} {proc.stderr.read() if proc.stderr else ''}")
        proc.communicate(timeout=wait)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
