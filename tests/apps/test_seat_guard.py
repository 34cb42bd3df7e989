"""impl/apps/games.py's SeatGuard: a program that connects before its launcher has
noted its launch (a starved launcher thread on a busy machine) keeps its seat; a
seat taken through the other program's connection is still a theft; a connection
of nobody's is refused; without /proc, a seat taken before the first launch is
noted is still the first program's (the order of launches)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping

import pytest

from impl.apps import seats

HOLDER = {"127.0.0.1:5000": 111, "127.0.0.1:5001": 222, "127.0.0.1:5002": 333, "127.0.0.1:5003": -1}
"""The client address of each connection → the pid of the tree holding it (-1: the runner)."""


@pytest.fixture(autouse=True)
def fake_proc(monkeypatch: pytest.MonkeyPatch) -> None:
    def owner(client: tuple[str, int], port: int, roots: Callable[[], Mapping[int, int]]) -> int | None:
        pid = HOLDER[f"{client[0]}:{client[1]}"]
        if pid == -1:
            return seats.REFEREE
        return next((p for p, root in roots().items() if root == pid), None)

    monkeypatch.setattr(seats, "owner", owner)
    monkeypatch.setattr(seats, "holders", lambda client, port, groups: frozenset())


def connect_and_seat_before_launch(guard: seats.SeatGuard, side: int, address: str) -> None:
    """Connect and take a seat on another thread, then note both launches, as a starved launcher would."""

    def take() -> None:
        guard.owner_of(address)
        guard.on_seat(side, address)

    taker = threading.Thread(target=take)
    taker.start()
    time.sleep(0.2)  # the connection comes first (were the guard not to wait, its check would run now)
    guard.launched(0, 111)
    guard.launched(1, 222)
    taker.join()


def test_an_own_seat_taken_before_the_launch_is_noted_is_no_theft() -> None:
    guard = seats.SeatGuard(first=0, by_proc=True)
    connect_and_seat_before_launch(guard, 0, "127.0.0.1:5000")  # A's program, on A's seat
    assert guard.thefts == []
    assert guard.seated.is_set()


def test_the_other_programs_seat_taken_before_the_launch_is_still_a_theft() -> None:
    guard = seats.SeatGuard(first=0, by_proc=True)
    connect_and_seat_before_launch(guard, 1, "127.0.0.1:5000")  # A's program, on B's seat
    assert guard.thefts == [seats.Theft(1, frozenset({0}))]


def test_connections_are_owned_by_program_runner_or_nobody() -> None:
    guard = seats.SeatGuard(first=0, by_proc=True)
    guard.launched(0, 111)
    guard.launched(1, 222)
    assert guard.owner_of("127.0.0.1:5000") == "A"
    assert guard.owner_of("127.0.0.1:5001") == "B"
    assert guard.owner_of("127.0.0.1:5003") == "referee"
    assert guard.owner_of("127.0.0.1:5002") is None and guard.refused == 1
    assert guard.owner_of("not an address") is None and guard.refused == 2


def test_the_observer_is_admitted_before_any_launch() -> None:
    """The runner's observer connects before the programs exist: it must not wait for them."""
    guard = seats.SeatGuard(first=0, by_proc=True)
    assert guard.owner_of("127.0.0.1:5003") == "referee"


def test_a_failed_launch_leaves_the_connection_nobodys(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(seats, "LAUNCH_WAIT", 0.01)
    guard = seats.SeatGuard(first=0, by_proc=True)
    guard.launched(0, 111)  # B's launch never noted
    assert guard.owner_of("127.0.0.1:5001") is None


def test_without_proc_a_seat_before_the_first_launch_is_noted_is_the_first_programs() -> None:
    """The order of launches: the first program's seat, taken before its launcher
    thread noted the launch, is its own (this was a flaky theft of nobody's)."""
    guard = seats.SeatGuard(first=0, by_proc=False)
    taker = threading.Thread(target=guard.on_seat, args=(1, "127.0.0.1:5000"))
    taker.start()
    time.sleep(0.2)
    guard.launched(0, 111)
    taker.join()
    assert guard.thefts == [seats.Theft(1, frozenset({0}))]  # B's seat, taken by A's program: theft by A


def test_a_seat_proven_by_its_token_is_its_programs_without_proc() -> None:
    """The token (the player's name in its seat request) proves the seat without
    /proc and before any launch is noted; the other seat's token is a theft by
    the program it was given to."""
    guard = seats.SeatGuard(first=1, by_proc=False)
    guard.on_seat(0, "127.0.0.1:5000", guard.tokens[1])  # B moves first: side 0 is B's
    assert guard.thefts == []
    guard.on_seat(1, "127.0.0.1:5001", guard.tokens[1])  # A's seat, with B's token
    assert guard.thefts == [seats.Theft(1, frozenset({1}))]


def test_the_process_holding_a_connection_outweighs_a_stolen_token() -> None:
    """Issue #49: under --sandbox none a program could read its opponent's token from
    /proc/PID/environ; a token presented through the other program's connection is theft."""
    guard = seats.SeatGuard(first=0, by_proc=True)
    guard.owners["127.0.0.1:5003"] = 1  # B's process tree holds this connection
    guard.on_seat(0, "127.0.0.1:5003", guard.tokens[0])  # A's seat, with A's token
    assert guard.thefts == [seats.Theft(0, frozenset({1}))]


def test_a_token_speaks_for_a_connection_proc_did_not_place_and_tokens_differ() -> None:
    guard = seats.SeatGuard(first=0, by_proc=True)
    guard.on_seat(0, "127.0.0.1:5002", guard.tokens[0])  # nobody's connection by /proc, but A's token
    assert guard.thefts == []
    assert guard.tokens[0] != guard.tokens[1] and len(guard.tokens[0]) == 2 * seats.TOKEN_BYTES
