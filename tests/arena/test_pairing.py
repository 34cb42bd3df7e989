"""A round's pairings and a login's fields (impl/apps/arena/pairing.py, login.py),
as pure functions: sides that fit, never the same pair twice running, the first
side to whoever has had it less, ratings close together; names and passwords read
from the name field; failed logins counted in a window."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from impl.apps.arena.login import BadLogin, Credentials, Failures, Guest, Throttle, credentials
from impl.apps.arena.pairing import Waiter, compatible, pair
from impl.protocol import Seat

SEATS = st.sampled_from([Seat.FIRST, Seat.SECOND, Seat.EITHER])


@st.composite
def waiting(draw: st.DrawFn) -> list[Waiter]:
    n = draw(st.integers(0, 12))
    players = draw(st.lists(st.integers(1, 8), min_size=n, max_size=n))
    return [Waiter(k, p, draw(st.floats(-500, 500)), draw(SEATS)) for k, p in enumerate(players)]


@given(waiting(), st.dictionaries(st.integers(1, 8), st.integers(1, 8)), st.integers(0, 2**32))
def test_every_game_fits_and_no_one_plays_twice(ws: list[Waiter], last: dict[int, int], seed: int) -> None:
    games, left = pair(ws, last, {}, random.Random(seed))
    tickets = [w.ticket for g in games for w in g] + [w.ticket for w in left]
    assert sorted(tickets) == sorted(w.ticket for w in ws)  # each waiter once: in a game or left
    for first, second in games:
        assert compatible(first, second)
        assert first.seat is not Seat.SECOND and second.seat is not Seat.FIRST
        assert last.get(first.player) != second.player and last.get(second.player) != first.player
    # Nobody left could have played anybody else left.
    for i, a in enumerate(left):
        for b in left[i + 1 :]:
            fresh = last.get(a.player) != b.player and last.get(b.player) != a.player
            assert not (compatible(a, b) and fresh)


def test_the_first_side_goes_to_whoever_had_it_less() -> None:
    a, b = Waiter(1, 10, 0, Seat.EITHER), Waiter(2, 20, 0, Seat.EITHER)
    for seed in range(20):
        [(first, second)], _ = pair([a, b], {}, {10: 3, 20: -1}, random.Random(seed))
        assert (first.player, second.player) == (20, 10)


def test_close_ratings_meet_more_often_than_far_ones() -> None:
    ws = [Waiter(k, k, r, Seat.EITHER) for k, r in enumerate([0, 10, 1000, 1010])]
    close = 0
    for seed in range(200):
        games, _ = pair(ws, {}, {}, random.Random(seed))
        close += sum({f.player, s.player} in ({0, 1}, {2, 3}) for f, s in games)
    assert close > 300  # of 400 games: the random offset (100 Elo) rarely crosses 1000


def test_credentials() -> None:
    assert credentials("") == Guest()
    assert credentials("first-player") == Guest("first-player")
    assert Guest("first-player").shown == "guest-first-player" and Guest().shown == "guest"
    assert len(Guest("x" * 40).shown) == 31
    assert credentials("alice:pa:ss word") == Credentials("alice", "pa:ss word")
    for bad in (
        "anchor-random:pw",
        "Anchor-x:pw",
        "-alice:pw",
        "a" * 25 + ":pw",
        "al ice:pw",
        "alice:",
        "alice:" + "p" * 65,
    ):
        assert isinstance(credentials(bad), BadLogin), bad


def test_failures_are_counted_in_their_window() -> None:
    f = Failures(3, 60.0)
    for t in (0.0, 1.0, 2.0):
        assert not f.blocked(t)
        f = f.failed(t)
    assert f.blocked(3.0) and not f.blocked(60.5)
    throttle = Throttle(limit=2, window=10.0)
    throttle.failed(("name:x", "group:g"), 0.0)
    throttle.failed(("name:x", "group:g"), 1.0)
    assert throttle.blocked(("name:y", "group:g"), 2.0)  # the address group is blocked for every name
    assert not throttle.blocked(("name:y", "group:h"), 2.0)
    assert not throttle.blocked(("name:x", "group:g"), 11.5)
