"""impl/apps/games.py's SeatGuard: a program that takes its seat before its launcher
has noted its process group (a starved launcher thread on a busy machine) keeps its
seat; a seat held by the other program is still a theft."""

from __future__ import annotations

import threading
import time
from collections.abc import Mapping

import pytest

from impl.apps import games, seats

HOLDER = {"127.0.0.1:5000": 111, "127.0.0.1:5001": 222}
"""The client address of each connection → the process group holding it."""


@pytest.fixture(autouse=True)
def fake_proc(monkeypatch: pytest.MonkeyPatch) -> None:
    def holders(client: tuple[str, int], port: int, groups: Mapping[int, int]) -> frozenset[int]:
        group = HOLDER[f"{client[0]}:{client[1]}"]
        return frozenset(p for p, g in groups.items() if g == group)

    monkeypatch.setattr(seats, "holders", holders)


def seat_before_launch(guard: games.SeatGuard, side: int, address: str) -> None:
    """Take a seat on another thread, then note both launches, as a starved launcher would."""
    taker = threading.Thread(target=guard.on_seat, args=(side, address))
    taker.start()
    time.sleep(0.2)  # the seat is taken first (were the guard not to wait, its check would run now)
    guard.launched(0, 111)
    guard.launched(1, 222)
    taker.join()


def test_an_own_seat_taken_before_the_launch_is_noted_is_no_theft() -> None:
    guard = games.SeatGuard(first=0, by_proc=True)
    seat_before_launch(guard, 0, "127.0.0.1:5000")  # A's program, on A's seat
    assert guard.thefts == []
    assert guard.seated.is_set()


def test_the_other_programs_seat_taken_before_the_launch_is_still_a_theft() -> None:
    guard = games.SeatGuard(first=0, by_proc=True)
    seat_before_launch(guard, 1, "127.0.0.1:5000")  # A's program, on B's seat
    assert guard.thefts == [games.Theft(1, frozenset({0}))]


def test_a_failed_launch_leaves_the_seat_nobodys(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(games, "LAUNCH_WAIT", 0.01)
    guard = games.SeatGuard(first=0, by_proc=True)
    guard.launched(0, 111)  # B's launch never noted
    guard.on_seat(1, "127.0.0.1:5001")
    assert guard.thefts == [games.Theft(1, frozenset())]
