"""The web view's tap (impl/web/tap.py) builds the feed from the session's events
alone: synthetic events, with no session and no server, give the expected feed;
and a real (sans-IO) session's events carry what the feed shows — the states, the
move's description, the clocks as they run once the input is handled."""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from types import SimpleNamespace
from typing import Any

from impl import protocol as P
from impl.engines.registry import get_engine
from impl.game import Outcome, Side, Termination
from impl.pgn import Ply
from impl.server.clock import ClockReading
from impl.server.records import server_record
from impl.server.session import (
    DrawOffer,
    Event,
    GameOver,
    GameStarted,
    MoveMade,
    PlayerSeated,
    Session,
    Settings,
    Written,
)
from impl.web import feed
from impl.web.tap import GameTap, SessionTap
from spec import result as R
from tests.support.webclient import Sink

ENGINE = get_engine("awari", "impl")
SIDES = ("south", "north")


def _clocks(running: int | None, taken: float) -> ClockReading:
    return ClockReading((60.0, 55.0), running, taken)


def _events() -> list[Event]:
    """A short Awari game as a session would publish it: seated, started, F then a,
    a draw offered and refused, north's win by resignation."""
    start = ENGINE.initial()
    f = ENGINE.parse_move("F")
    _, after_f = ENGINE.apply(start, f)
    a = ENGINE.parse_move("a")
    _, after_a = ENGINE.apply(after_f, a)
    record = server_record(
        "awari",
        3,
        7,
        "impl",
        1000.0,
        1010.0,
        SIDES,
        ("ann", "bob"),
        (60.0, 60.0),
        Outcome(Side.SECOND, Termination.RESIGNATION),
        "south 0 north 0",
        "paper",
        (Ply("F", "F4", 60.0), Ply("a", "a5", 59.0)),
    )
    return [
        PlayerSeated(Side.FIRST, "ann"),
        PlayerSeated(Side.SECOND, "bob"),
        GameStarted("awari", 3, 7, SIDES, ("ann", "bob"), (60.0, 60.0), ENGINE, start, _clocks(0, 1.0), 1000.0),
        MoveMade(
            7, 1, Side.FIRST, "1 F", "F", ENGINE, f, start, after_f, R.not_done, Side.SECOND, 60.0, _clocks(1, 2.0)
        ),
        MoveMade(
            7,
            1,
            Side.SECOND,
            "1 ... a",
            "a",
            ENGINE,
            a,
            after_f,
            after_a,
            R.not_done,
            Side.FIRST,
            55.0,
            _clocks(0, 3.0),
        ),
        DrawOffer(7, Side.FIRST, None, _clocks(1, 4.0)),
        DrawOffer(7, Side.FIRST, False, _clocks(0, 5.0)),
        GameOver(7, Outcome(Side.SECOND, Termination.RESIGNATION), Written(record), _clocks(None, 6.0), 1010.0),
    ]


def test_the_feed_from_synthetic_events_with_no_session() -> None:
    """A listener with only a ``listeners`` list to join: the tap reads nothing else."""
    sink = Sink[feed.FeedEvent]()
    fake = SimpleNamespace(listeners=[])
    SessionTap(sink).hook(fake)  # type: ignore[arg-type]
    (listen,) = fake.listeners
    for what in _events():
        listen(what)
    got = sink.events
    assert [type(e).__name__ for e in got] == [
        "GameStarted",
        "MoveMade",
        "MoveMade",
        "ClocksChanged",
        "ClocksChanged",
        "GameOver",
    ]
    assert {e.server for e in got} == {"awari-3"} and {e.game_no for e in got} == {7}
    started, first, second, offered, refused, over = got
    assert isinstance(started, feed.GameStarted) and started.names == ("ann", "bob") and started.started == 1000.0
    assert started.position.board.cells == ENGINE.cells(ENGINE.initial()) and started.position.board.last is None
    assert isinstance(first, feed.MoveMade) and (first.ply, first.move, first.side, first.to_move) == (
        "1 F",
        "F",
        0,
        1,
    )
    assert first.position.board.last == "F" and first.clocks == _clocks(1, 2.0)
    assert isinstance(second, feed.MoveMade) and second.position.board.to_move == "south"
    assert isinstance(offered, feed.ClocksChanged) and offered.note == "draw offered by south"
    assert isinstance(refused, feed.ClocksChanged) and refused.note == "draw refused"
    assert isinstance(over, feed.GameOver) and (over.winner, over.result, over.termination, over.ended) == (
        1,
        "north wins",
        Termination.RESIGNATION,
        1010.0,
    )


def test_the_feed_event_is_the_sessions_tagged() -> None:
    """One vocabulary: each feed event of a session event is that event (a subclass
    with the same fields) on its server's key; a tap's own key overrides it."""
    events = _events()
    tap = GameTap("tournament-12")
    fed = [tap.feed(e) for e in events]
    assert fed[0] is None and fed[1] is None  # seating shows nothing
    for what, shown in zip(events, fed, strict=True):
        if isinstance(what, GameStarted | MoveMade | GameOver):
            assert isinstance(shown, type(what)) and shown.server == "tournament-12"
            assert all(getattr(shown, k) == v for k, v in vars(what).items())


def test_an_accepted_draw_shows_only_the_end() -> None:
    tap = GameTap()
    start, *_ = (e for e in _events() if isinstance(e, GameStarted))
    assert tap.feed(start) is not None
    assert tap.feed(DrawOffer(7, Side.FIRST, True, None)) is None


def test_events_before_the_game_starts_show_nothing() -> None:
    tap = GameTap()
    assert tap.feed(DrawOffer(7, Side.FIRST, None, None)) is None


class _Peer:
    def __init__(self) -> None:
        self.address, self.lines = "test", list[str]()

    def send(self, lines: Sequence[str]) -> None:
        self.lines.extend(lines)

    def close(self) -> None:
        pass


def test_a_sessions_events_carry_what_the_feed_shows() -> None:
    """Gothello with clocks: black's b1 turns a1 and c1.  Each MoveMade carries the
    states before and after, its description and the clocks with the next mover's
    running; GameOver carries the stopped clocks and the record's result."""
    engine = get_engine("gothello")
    s = Session(Settings(P.GOTHELLO, time=(100.0, 100.0)), engine, rng=random.Random(1), now=0.0, epoch=500.0)
    events: list[Any] = []
    s.listeners.append(events.append)
    black, white = s.join(_Peer(), 0.0), s.join(_Peer(), 0.0)
    s.receive(black, "0.9.1 player black", 0.0)
    s.receive(white, "0.9.1 player white", 1.0)
    now = 1.0
    for i, token in enumerate(("a2", "a1", "c2", "c1", "d1", "pass", "b2", "pass", "b1")):
        now += 1.0
        ent = black if i % 2 == 0 else white
        s.receive(ent, f"{i // 2 + 1}{' ...' if i % 2 else ''} {token}", now)
    s.receive(white, "resign", now + 0.5)
    started = next(e for e in events if isinstance(e, GameStarted))
    assert started.clocks == ClockReading((100.0, 100.0), 0, 1.0) and started.started == 501.0
    moves = [e for e in events if isinstance(e, MoveMade)]
    assert len(moves) == 9
    for earlier, later in itertools.pairwise(moves):
        assert later.before is earlier.after
    last = moves[-1]
    assert (last.ply, last.side, last.to_move, last.result) == ("5 b1", Side.FIRST, Side.SECOND, R.not_done)
    assert last.description.captured == ("a1", "c1") and last.description.gained == 3
    assert last.clocks is not None and last.clocks.running == Side.SECOND and last.clocks.taken == now
    assert last.clocks.left[0] == last.secs
    over = events[-1]
    assert isinstance(over, GameOver) and over.result == "black wins" and over.winner == 0
    assert over.clocks is not None and over.clocks.running is None
