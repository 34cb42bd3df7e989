"""A clock is charged until the player's reply arrived, not until the referee got
round to reading it (impl/server/clock.py ``arrival_delay``; Session.receive's
``arrived``): the arithmetic alone, then a server whose loop is kept busy by many
short callbacks — none long enough for the stall monitor — while a reply waits."""

from __future__ import annotations

import asyncio
import socket
import sys
import time

import pytest

from impl.server import clock, net, server
from impl.server.clock import StallLog, arrival_delay
from impl.server.session import Event, MoveMade, Session
from tests.server.test_session import seat_both, session
from tests.support.netclient import fastest_kind, run, seat_players, serving

# ─── the arithmetic ─────────────────────────────────────────────────────────────


def test_the_mover_is_charged_until_its_reply_arrived() -> None:
    s, _ = session(time=(10.0, 10.0))
    black, _ = seat_both(s, 5.0)
    s.receive(s.players[0], "1 c3", 8.5, arrived=6.0)  # type: ignore[arg-type]
    assert [m.secs for m in s.made] == [9.0]
    assert black.lines[-2] == "207 9 secs remaining after move c3 accepted, continue playing"
    assert s.deadline() == 18.5  # white's clock starts when the move is handled and sent


def test_an_arrival_is_never_later_than_now_and_only_the_runner_s_counts() -> None:
    s, _ = session(time=(10.0, 10.0))
    seat_both(s, 0.0)
    black, white = s.players
    assert black is not None and white is not None
    s.receive(white, "1 ... d4", 1.0, arrived=0.5)  # not its turn nor its clock: no effect on black's
    s.receive(black, "1 c3", 2.0, arrived=7.0)
    assert [m.secs for m in s.made] == [8.0]


def test_a_reply_that_arrived_in_time_is_not_flagged_when_read_late() -> None:
    s, _ = session(time=(10.0, 10.0))
    seat_both(s, 5.0)
    s.receive(s.players[0], "1 c3", 16.0, arrived=14.0)  # type: ignore[arg-type]
    assert not s.over and [m.secs for m in s.made] == [1.0]
    s.receive(s.players[1], "1 ... d4", 40.0, arrived=30.0)  # type: ignore[arg-type]
    assert s.over  # white's flag fell at 26


def test_stalls_before_the_arrival_are_still_not_charged() -> None:
    log = StallLog()
    clocks = clock.Clocks((10.0, 10.0), log.within)
    clocks.start(0, 100.0)
    log.add(101.0, 103.0)
    log.add(105.0, 106.0)  # after the reply arrived: nothing to subtract, nothing charged
    assert clocks.stop(min(107.0, 104.5)) == 10.0 - (4.5 - 2.0)


def test_the_arrival_delay_is_read_from_a_tcp_socket() -> None:
    assert arrival_delay(None) is None
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as udp:
        assert arrival_delay(udp) is None
    with socket.create_server(("127.0.0.1", 0)) as listener, socket.create_connection(listener.getsockname()) as client:
        accepted, _ = listener.accept()
        with accepted:
            client.sendall(b"1 c3\r")
            accepted.recv(16)
            delay = arrival_delay(accepted)
    if sys.platform.startswith("linux"):
        assert delay is not None and delay >= 0.0
    else:
        assert delay is None


# ─── over a socket, the loop kept busy ──────────────────────────────────────────


async def charged_while_busy(monkeypatch: pytest.MonkeyPatch) -> tuple[float, float]:
    """The seconds black's clock was charged for a move the loop read only after a
    second of short callbacks, and that second (loop time, from before the send)."""
    monkeypatch.setattr(server.LagMonitor, "slack", 1e9)  # no stall seen: only the arrival can help
    async with serving("gothello", fastest_kind(), time=(60.0, 60.0)) as game_server:
        moves: list[MoveMade] = []

        def watch(_: Session, what: Event) -> None:
            if isinstance(what, MoveMade):
                moves.append(what)

        game_server.watchers.append(watch)
        black, _ = await seat_players(game_server.port, "gothello")
        loop = asyncio.get_running_loop()
        sent = loop.time()
        ended: list[float] = []

        def busy() -> None:
            time.sleep(0.01)
            ended.append(loop.time())

        await black.send("1 c3")  # written at once: the socket takes it
        for _ in range(100):  # queued before the server's read, each too short to be a stall
            loop.call_soon(busy)
        await black.expect(207)
        assert moves and moves[0].secs is not None
        return 60.0 - moves[0].secs, ended[-1] - sent


def test_the_time_a_reply_waited_for_a_busy_loop_is_not_charged(monkeypatch: pytest.MonkeyPatch) -> None:
    if not sys.platform.startswith("linux"):
        pytest.skip("the arrival is known on Linux only")
    charged, busy = run(lambda: charged_while_busy(monkeypatch))
    assert charged < busy / 2


def test_without_the_arrival_the_wait_is_charged_as_before(monkeypatch: pytest.MonkeyPatch) -> None:
    """The fallback (another system, an error): charged until the move is handled —
    which shows the test above measures what it claims."""
    monkeypatch.setattr(net, "arrival_delay", lambda sock: None)
    charged, busy = run(lambda: charged_while_busy(monkeypatch))
    assert charged >= busy
