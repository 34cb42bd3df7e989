"""A reader that stops early (`referee show … | head`, `perft … | head`) gets no traceback
on stderr: the command ends with SIGPIPE's status, as Unix tools do."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RECORD = ROOT / "tests" / "data" / "records-v1" / "awari-first.pgn"


def _into_closed_pipe(argv: list[str]) -> subprocess.CompletedProcess[bytes]:
    read, write = os.pipe()
    os.close(read)
    try:
        return subprocess.run(argv, stdout=write, stderr=subprocess.PIPE, timeout=120)
    finally:
        os.close(write)


def test_a_referee_command_into_a_closed_pipe_ends_quietly() -> None:
    done = _into_closed_pipe([sys.executable, "-m", "impl.cli", "show", str(RECORD)])
    assert (done.returncode, done.stderr) == (128 + signal.SIGPIPE, b"")


def test_perft_into_a_closed_pipe_ends_quietly() -> None:
    done = _into_closed_pipe([sys.executable, "-m", "impl.engines.perft", "awari", "2", "--divide"])
    assert done.returncode == -signal.SIGPIPE and done.stderr == b""


def test_the_proof_listings_into_a_closed_pipe_end_quietly() -> None:
    for argv in (["proofs.manifest", "--list", "full"], ["proofs.awari.slices", "--status"]):
        done = _into_closed_pipe([sys.executable, "-m", *argv])
        assert done.returncode == -signal.SIGPIPE and done.stderr == b"", argv
