"""The sans-IO session (impl/server/session.py) driven directly: no event loop, no
sockets, time given exactly.  The clocks, the seat and idle bounds, the injected
randomness and the events that listeners see."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence

from impl import protocol as P
from impl.config import Limits
from impl.engines.registry import get_engine
from impl.game import Outcome, Side, Termination
from impl.log import utc
from impl.server import transcript
from impl.server.session import (
    TABLE,
    Conn,
    Event,
    GameOver,
    GameStarted,
    MoveMade,
    Req,
    Session,
    Settings,
)


class FakePeer:
    def __init__(self, address: str = "test") -> None:
        self.address, self.lines, self.closed = address, list[str](), False

    def send(self, lines: Sequence[str]) -> None:
        self.lines.extend(lines)

    def close(self) -> None:
        self.closed = True


def session(time: tuple[float, float] | None = None, **limits: float) -> tuple[Session, list[Event]]:
    s = Session(
        Settings(P.GOTHELLO, time=time, limits=Limits(**limits)),  # type: ignore[arg-type]
        get_engine("gothello"),
        rng=random.Random(1),
        now=0.0,
        epoch=1000.0,
    )
    events: list[Event] = []
    s.listeners.append(events.append)
    return s, events


def seat_both(s: Session, now: float) -> tuple[FakePeer, FakePeer]:
    black, white = FakePeer(), FakePeer()
    b, w = s.join(black, now), s.join(white, now)
    s.receive(b, "0.9.1 player black", now)
    s.receive(w, "0.9.1 player white", now)
    return black, white


def test_a_game_with_clocks_runs_on_the_time_it_is_given() -> None:
    s, events = session(time=(10.0, 10.0))
    black, white = seat_both(s, 5.0)
    assert s.started == 5.0 and s.deadline() == 15.0
    s.receive(s.players[0], "1 c3", 8.5)  # type: ignore[arg-type]
    assert black.lines[-2:] == [
        "207 6 secs remaining after move c3 accepted, continue playing",
        "313 1 c3 6 (secs) is black move, game continues",
    ]
    assert s.deadline() == 18.5  # white's ten seconds from 8.5
    s.tick(18.4)
    assert not s.over
    s.tick(18.5)
    assert s.outcome == Outcome(Side.FIRST, Termination.TIME)
    assert white.lines[-2:] == ["202 Your time expires, and you lose", "361 Black wins by White time expiring"]
    over = events[-1]
    assert isinstance(over, GameOver) and over.record.tag("Started") == utc(1005.0) and over.ended == 1018.5
    assert tuple(p.clock for p in over.record.plies) == (6.5,)
    assert [type(e) for e in events].count(GameStarted) == 1
    assert any(isinstance(e, MoveMade) and e.move == "c3" for e in events)


def test_a_connection_that_never_sits_down_is_sent_away() -> None:
    s, _ = session(seat_timeout=30.0)
    idle = FakePeer()
    s.join(idle, 2.0)
    assert s.deadline() == 32.0
    s.tick(31.9)
    assert not idle.closed
    s.tick(32.0)
    assert idle.closed and idle.lines[-1] == "199 No seat request within 30 s, goodbye"
    assert s.entities == [] and not s.over


def test_a_player_that_never_moves_loses_without_clocks() -> None:
    s, events = session(idle_timeout=60.0)
    black, white = seat_both(s, 0.0)
    s.receive(s.players[0], "1 c3", 10.0)  # type: ignore[arg-type]
    assert s.deadline() == 70.0
    s.tick(70.0)
    assert s.outcome == Outcome(Side.FIRST, Termination.IDLE)
    assert black.lines[-1] == "392 White disconnected, black wins" and black.closed and white.closed
    assert isinstance(events[-1], GameOver) and events[-1].termination is Termination.IDLE


def test_zero_disables_the_bounds() -> None:
    s, _ = session(seat_timeout=0, idle_timeout=0)
    s.join(FakePeer(), 0.0)
    assert s.deadline() is None
    seat_both(s, 0.0)
    assert s.deadline() is None


def test_the_random_side_comes_from_the_injected_rng() -> None:
    chosen = set()
    for seed in range(8):
        s = Session(Settings(P.AWARI), get_engine("awari"), rng=random.Random(seed), now=0.0)
        s.receive(s.join(FakePeer(), 0.0), "0.9.1 player ?", 0.0)
        chosen.add(next(i for i, p in enumerate(s.players) if p is not None))
    assert chosen == {0, 1}


def test_the_table_answers_every_request_a_connection_can_make() -> None:
    """A connection not seated sends seat requests; a seated one, actions."""
    seat_kinds = {Req.BAD_LINE, Req.SEAT, Req.BAD_SEAT}
    for conn in Conn:
        if conn is Conn.DONE:
            continue
        kinds = seat_kinds if conn is Conn.NEW else set(Req) - {Req.SEAT, Req.BAD_SEAT}
        assert {req for (c, req) in TABLE if c is conn} == kinds, conn


def test_held_lines_wait_for_the_release_and_are_charged_only_to_their_arrival() -> None:
    """``hold`` (an adjudicator's probe, impl/apps/games.py): white's reply at 9.0 is
    handled at the release, 12.0, but white's clock is charged to 9.0; no flag falls
    and no timer is asked for while held; the release asks for it again."""
    s, _ = session(time=(10.0, 10.0))
    black, white = seat_both(s, 0.0)
    resumed: list[float | None] = []
    s.resumed = lambda: resumed.append(s.deadline())
    s.receive(s.players[0], "1 c3", 2.0)  # type: ignore[arg-type]
    s.hold()
    assert s.deadline() is None
    s.receive(s.players[1], "1 ... d3", 12.5, arrived=9.0)  # type: ignore[arg-type]
    s.tick(12.5)  # white's ten seconds from 2.0 are gone by now, but its reply came at 9.0
    assert not s.over and not any("d3" in line for line in black.lines)
    s.release(12.5)
    assert any(line.startswith("314 1 ... d3") for line in black.lines), black.lines
    assert not s.over and resumed == [s.deadline()] and s.deadline() is not None
    assert any("3 secs remaining after move d3" in line for line in white.lines), white.lines


def test_a_departure_held_is_handled_in_its_order() -> None:
    s, events = session()
    seat_both(s, 0.0)
    s.hold()
    s.leave(s.players[1], 3.0)  # type: ignore[arg-type]
    assert not s.over
    s.release(4.0)
    assert s.outcome == Outcome(Side.FIRST, Termination.DISCONNECT)
    assert isinstance(events[-1], GameOver)


def test_a_game_ended_while_held_handles_nothing_held() -> None:
    s, _ = session()
    black, _ = seat_both(s, 0.0)
    s.hold()
    s.receive(s.players[0], "1 c3", 1.0)  # type: ignore[arg-type]
    s.shutdown(2.0, Termination.ADJUDICATION)
    s.release(2.0)
    assert s.outcome is not None and s.outcome.termination is Termination.ADJUDICATION
    assert not any("c3" in line for line in black.lines)


def _transcribed_after_c3() -> tuple[Session, transcript.Transcript, FakePeer, FakePeer]:
    """A transcribed session: both seated, black has played c3."""
    s, _ = session()
    taken = transcript.record(s)
    black, white = FakePeer(), FakePeer()
    b, w = s.join(black, 0.0), s.join(white, 0.0)
    s.receive(b, "0.9.1 player black", 0.0)
    s.receive(w, "0.9.1 player white", 0.0)
    s.receive(b, "1 c3", 1.0)
    return s, taken, black, white


def test_a_held_line_is_transcribed_once_when_it_is_handled() -> None:
    """The transcript (what ``--check-protocol`` and ``--strict`` read) notes a held
    line at its release, once, just before its answers: noted at its arrival (and
    again when handled), the protocol's model read a line the server had not
    answered, then the same line twice."""
    s, taken, _, _ = _transcribed_after_c3()
    s.hold()
    s.receive(s.players[1], "1 ... d3", 2.0)  # type: ignore[arg-type]
    assert '"1 ... d3"' not in "".join(taken.lines)
    s.release(3.0)
    entries = [json.loads(line) for line in taken.lines[1:]]
    held = [n for n, e in enumerate(entries) if e.get("line") == "1 ... d3"]
    assert len(held) == 1 and entries[held[0]]["t"] == 3.0
    assert entries[held[0] + 1]["d"] == "out" and "d3" in entries[held[0] + 1]["line"]


def test_a_game_the_server_ends_itself_is_no_protocol_divergence() -> None:
    """A runner's adjudication (or a shutdown) ends the game with 399, which the papers'
    protocol has no place for: the transcript says ``stop`` first, and the model's
    check ends there (every adjudicated game of ``--check-protocol --tb`` once
    diverged).  Without the ``stop`` line the 399 is a divergence."""
    s, taken, _, white = _transcribed_after_c3()
    s.shutdown(2.0, Termination.ADJUDICATION)
    assert any(line.startswith("399 ") for line in white.lines)
    assert [json.loads(line).get("d") for line in taken.lines].count("stop") == 1
    assert transcript.check_lines(taken.lines).ok
    unstopped = [line for line in taken.lines if '"stop"' not in line]
    assert not transcript.check_lines(unstopped).ok
