"""A reader that stops early (`referee show … | head`, `perft … | head`) gets no traceback
on stderr: the command ends with SIGPIPE's status, as Unix tools do."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RECORD = ROOT / "tests" / "data" / "records-v1" / "awari-first.pgn"


def _into_closed_pipe(argv: list[str]) -> subprocess.CompletedProcess[bytes]:
    read, write = os.pipe()
    os.close(read)
    try:
        # the timeout bounds a hang, not the command's speed
        return subprocess.run(argv, stdout=write, stderr=subprocess.PIPE, timeout=600)
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


def test_a_listing_run_in_process_leaves_sigpipe_as_it_found_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The listings end by SIGPIPE only while they print: called in-process (as tests
    do), they restore the handler, so a later write to a closed socket in the same
    process raises EPIPE instead of killing it — a pytest worker died so, in a server
    robustness test that ran after `--status` had been called in the same worker."""
    from proofs import manifest
    from proofs.awari import slices

    monkeypatch.setattr(slices, "CACHE", tmp_path / "verdict-cache.jsonl")
    before = signal.getsignal(signal.SIGPIPE)
    assert before is not signal.SIG_DFL  # Python's default for the interpreter: ignored
    assert manifest.main(["--list", "bounded"]) == 0 and manifest.main(["--table"]) == 0
    assert slices.main(["--status"]) == 0 and slices.main(["--projection", "2"]) == 0
    assert signal.getsignal(signal.SIGPIPE) is before and "0 of 600" in capsys.readouterr().out
    left, right = socket.socketpair()
    right.close()
    with left, pytest.raises(BrokenPipeError):
        for _ in range(64):  # the first send may be buffered before the peer's close is seen
            left.sendall(b"x" * 65536)
