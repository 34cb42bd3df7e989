"""The psutil path of impl/apps/seats.py (``BACKEND = PSUTIL``), the one used where
Linux's /proc is not (macOS, Windows, the BSDs), run here on Linux: the same
answers as /proc for real loopback connections, and a whole match in which a
program that takes both seats loses both games by seat theft."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from impl.apps import seats
from impl.apps.games import play_game
from impl.apps.terms import PlayerSpec
from tests.apps.test_programs_hostile import _shared, _thief, _victim

pytest.importorskip("psutil")


@pytest.fixture
def by_psutil(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(seats, "BACKEND", seats.PSUTIL)
    assert seats.available()
    yield


@pytest.fixture
def connection() -> Iterator[tuple[tuple[str, int], int]]:
    """A loopback connection of this process: its client end, and the server's port."""
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        port = server.getsockname()[1]
        with socket.create_connection(("127.0.0.1", port)) as client, server.accept()[0]:
            host, mine = client.getsockname()[:2]
            yield (host, mine), port


def test_psutil_finds_the_process_group_and_the_tree_holding_a_connection(
    by_psutil: None, connection: tuple[tuple[str, int], int]
) -> None:
    client, port = connection
    assert seats.holders(client, port, {0: 1, 1: os.getpgrp()}) == {1}
    assert seats.holders(client, port, {0: 1}) == frozenset()
    assert seats.holders(client, port + 1, {1: os.getpgrp()}) == frozenset()  # another server's
    assert seats.owner(client, port, lambda: {}) == seats.REFEREE  # this process holds it
    assert seats.owner(client, port + 1, lambda: {}) is None
    assert seats.process_group(os.getpid()) == os.getpgrp() and os.getpid() in set(seats.pids())


def test_psutil_and_proc_agree_on_a_child_holding_its_own_connection() -> None:
    """A launched program's connection is its player's, by either path."""
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        port = server.getsockname()[1]
        code = f"import socket, sys, time; s = socket.create_connection(('127.0.0.1', {port})); time.sleep(60)"
        with subprocess.Popen([sys.executable, "-c", code]) as child:
            try:
                accepted, (host, mine) = server.accept()
                with accepted:
                    answers = []
                    for backend in (None, seats.PSUTIL):
                        seats.BACKEND = backend
                        answers.append(seats.owner((host, mine), port, lambda: {1: child.pid}))
            finally:
                seats.BACKEND = None
                child.kill()
    assert answers == [1, 1]


def test_by_psutil_a_program_that_takes_both_seats_loses_by_seat_theft(by_psutil: None, tmp_path: Path) -> None:
    specs = (PlayerSpec.parse(_thief(tmp_path)), PlayerSpec.parse(_victim(tmp_path)))
    outcome = play_game(specs, 1, _shared(tmp_path), 0)
    assert outcome.result is not None and outcome.result.termination == "seat theft"
    assert outcome.winner() == 1 and outcome.culprits == [0] and not outcome.error


def test_a_zombie_or_a_gone_process_is_told_apart_from_a_live_one(by_psutil: None) -> None:
    child = subprocess.Popen(["true"])
    child.wait()
    assert seats.zombie(child.pid) and not seats.zombie(os.getpid())


def test_without_psutil_nor_proc_nothing_is_available(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(seats, "BACKEND", seats.PSUTIL)
    monkeypatch.setattr(seats, "_psutil", lambda: None)
    assert not seats.available()
