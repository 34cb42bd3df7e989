"""``referee watch`` reads the game through the client's follower
(impl/client/follower.py): a server that breaks the protocol ends the watch with
one line saying why and status 1, never a traceback."""

from __future__ import annotations

import socket
import subprocess
import sys
import threading
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def serve_once(lines: list[bytes]) -> tuple[int, threading.Thread]:
    """A one-connection server on 127.0.0.1 that greets, reads the seat request,
    sends ``lines`` and closes."""
    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]

    def run() -> None:
        with listener, listener.accept()[0] as conn:
            conn.sendall(b"000 0.9.1 version Gothello server says hello!\r\n")
            conn.makefile("rb").readline()
            conn.sendall(b"".join(lines))

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return port, thread


def watch(port: int) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "impl.cli", "watch", "gothello", "--port", str(port), "--no-colour"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )


def test_a_status_without_the_observers_display_ends_the_watch_saying_why() -> None:
    port, thread = serve_once(
        [b"100 Request accepted\r\n", b"353 You will observe\r\n", b"311 1 c3 is black move, game continues\r\n"]
    )
    done = watch(port)
    thread.join(10)
    assert done.returncode == 1
    assert "(protocol violation: expected the display (380/381) (got '311 1 c3 is black move" in done.stdout
    assert "Traceback" not in done.stderr


def test_a_refused_seat_ends_the_watch_with_the_refusal() -> None:
    port, thread = serve_once([b"193 Cannot observe (at most 64 observers)\r\n"])
    done = watch(port)
    thread.join(10)
    assert done.returncode == 1 and "(refused: 193 Cannot observe (at most 64 observers))" in done.stdout


SEATED = [b"100 Request accepted\r\n", b"353 You will observe\r\n", b"380 1 b\r\n"]


@pytest.mark.parametrize(
    "board",
    [
        [b"382 5 board lines follow\r\n", *[b"...\r\n"] * 5],  # short ranks
        [b"382 5 board lines follow\r\n", *[b"..........\r\n"] * 5],  # long ranks
        [b"382 5 board lines follow\r\n", *[b"\r\n"] * 5],  # empty ranks
        [b"382 3 board lines follow\r\n", *[b".....\r\n"] * 3],  # too few
        [b"382 5 board lines follow\r\n", *[b"zzzzz\r\n"] * 5],  # not stones
        [b"382 0 board lines follow\r\n"],  # none
    ],
)
def test_a_malformed_board_ends_the_watch_saying_why(board: list[bytes]) -> None:
    """Each of these was a KeyError or IndexError traceback in the board's drawing."""
    port, thread = serve_once([*SEATED, *board])
    done = watch(port)
    thread.join(10)
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    assert "(protocol violation: a Gothello board is 5 lines of 5 of b, w and ." in done.stdout
