"""The client library (impl/client/) against our real server, for both games:
seating and its refusals, whole games with an observer, refused moves with the
server's text, resignation, Awari draws, clocks and flag fall, disconnection."""

from __future__ import annotations

import random
import time

import pytest

from impl import protocol as P
from impl.client import MoveRefused, NotPlaying, Result, SeatRefused
from impl.config import ConfigMessages, Limits
from impl.game import Side, Termination
from tests.support.clientkit import connect, play_out, players, server

GAMES = ("awari", "gothello")


@pytest.mark.parametrize("game", GAMES)
def test_random_game_with_an_observer(game: str) -> None:
    """Both players and an observer follow the whole game on their own engine copy,
    and agree with each other and with the observer's displays."""
    seen: list[P.Message] = []
    with server(game) as local:
        observer = connect(game, local.port, on_message=seen.append)
        observer.observe("watcher")
        first, second = players(game, local.port, ("ann", 'b"o"b'))
        observer.wait_started()
        assert observer.names == ["ann", 'b"o"b']
        assert observer.observers == {1: "watcher"}
        rng = random.Random(game)
        plies = play_out((first, second), lambda c: rng.choice(c.legal_moves()), (observer,))
        for client in (first, second, observer):
            assert client.result == first.result and client.plies == first.plies
        assert first.result is not None and first.result.termination == "move"
        assert len(first.plies) == plies
        assert observer.board == first.render()  # the final display is the client's position
        assert sum(isinstance(m, P.DisplayStatus) for m in seen) == plies + 1
        assert isinstance(seen[-2], P.DisplayStatus) and seen[-2].to_move is None
        with pytest.raises(NotPlaying):
            first.move(first.legal_moves()[0] if first.legal_moves() else "pass")


def test_either_side_and_gothello_configuration_messages() -> None:
    """``?`` gets the side left free; with --config-messages all, Gothello players
    get 341–344 before their role and learn the names."""
    with server("gothello", config_messages=ConfigMessages.ALL) as local:
        white = connect("gothello", local.port)
        white.seat("white", "w")
        anyone = connect("gothello", local.port)
        anyone.seat("?", "any")
        anyone.wait_started()
        white.wait_started()
        assert (anyone.side, white.side) == (0, 1)
        assert anyone.names == white.names == ["any", "w"]
        assert anyone.my_turn and not white.my_turn


def test_seat_refusals() -> None:
    with server("awari", limits=Limits(max_observers=0)) as local:
        south = connect("awari", local.port)
        south.seat("south")
        other = connect("awari", local.port)
        with pytest.raises(SeatRefused) as refused:
            other.seat("south")
        assert refused.value.code == 191 and refused.value.text == "Other player holds requested side"
        with pytest.raises(SeatRefused) as refused:
            other.observe()
        assert refused.value.code == 193
        other.seat("north")  # the connection stays open after a refusal
        third = connect("awari", local.port)
        with pytest.raises(SeatRefused, match="192 There are already two players"):
            third.seat("?")
        with pytest.raises(ValueError, match="awari sides are south, north"):
            third.seat("black")


def test_move_refusals_carry_the_servers_text() -> None:
    with server("gothello") as local:
        black, white = players("gothello", local.port)
        with pytest.raises(MoveRefused, match="291 Not your turn"):
            white.move("d4")
        with pytest.raises(MoveRefused) as refused:
            black.move("zz")
        assert (refused.value.code, refused.value.text) == (299, "Request not understood (no such move zz)")
        black.move("c3")
        white.wait()
        with pytest.raises(MoveRefused, match="291 Illegal move c3"):
            white.move("c3")
        white.move("d4")  # nothing changed: the same serial number is right
        black.wait()
        assert black.plies == white.plies == ["c3", "d4"]
    with server("awari") as local:
        south, _north = players("awari", local.port)
        with pytest.raises(MoveRefused, match="291 Illegal move a"):
            south.move("a")


@pytest.mark.parametrize("game", GAMES)
def test_resignation_by_the_player_not_to_move(game: str) -> None:
    with server(game) as local:
        first, second = players(game, local.port)
        second.resign()
        assert second.result == Result(Side.FIRST, Termination.RESIGNATION)
        first.next_message()  # our turn: wait() would not read
        assert first.result == Result(Side.FIRST, Termination.RESIGNATION)
        assert first.describe_result().endswith("wins by resignation")
        with pytest.raises(NotPlaying):
            second.resign()


def test_awari_draw_offers_refused_then_accepted() -> None:
    with server("awari") as local:
        south, north = players("awari", local.port)
        south.offer_draw()
        assert south.offer == 0 and not south.my_turn
        north.wait()
        assert north.must_answer_draw
        with pytest.raises(MoveRefused, match="A draw offer awaits an answer"):
            north.move("a")
        north.answer_draw(False)
        south.wait()
        assert south.my_turn and south.offer_refused
        with pytest.raises(MoveRefused, match="291 Draw refused: offer again after the next move"):
            south.offer_draw()
        south.move("C")
        north.wait()
        north.offer_draw()
        south.wait()
        south.answer_draw(True)
        north.wait()
        assert south.result == north.result == Result(None, Termination.AGREEMENT)


def test_gothello_has_no_draw_offers() -> None:
    with server("gothello") as local:
        black, _ = players("gothello", local.port)
        with pytest.raises(MoveRefused, match="299 Request not understood"):
            black.offer_draw()


def test_clocks_from_101_207_31x_and_381() -> None:
    with server("gothello", time=(30.0, 20.0)) as local:
        observer = connect("gothello", local.port)
        observer.observe()
        black, white = players("gothello", local.port)
        observer.wait_started()
        assert black.timed and white.timed and observer.timed
        for client in (black, white, observer):
            left = (client.time_left(0) or 0, client.time_left(1) or 0)
            assert 28 < left[0] <= 30 and 19 < left[1] <= 20, left
        black.move("c3")
        white.wait()
        observer.next_message()
        for client in (black, white, observer):
            assert 28 <= (client.time_left(0) or 0) <= 30  # the clock stopped at the move
        time.sleep(0.3)
        assert (white.time_left(1) or 0) < 19.8  # white's runs while it thinks


def test_flag_fall_before_a_late_move() -> None:
    """The first player's clock runs out: its late move is not sent, both learn the
    result (202 then 362 to it, 362 to the opponent)."""
    with server("awari", time=(0.4, 30.0)) as local:
        south, north = players("awari", local.port)
        time.sleep(0.8)
        south.move("C")
        assert south.result == Result(Side.SECOND, Termination.TIME)
        assert south.plies == []
        north.wait()
        assert north.result == Result(Side.SECOND, Termination.TIME)
        assert north.time_left(0) == 0


def test_disconnection_ends_the_game() -> None:
    with server("gothello") as local:
        black, white = players("gothello", local.port)
        black.move("c3")
        white.close()
        black.wait()
        assert black.result == Result(Side.FIRST, Termination.DISCONNECT)


def test_a_server_stopped_mid_game_is_reported_as_such_with_no_result() -> None:
    """Not "the referee failed", not a draw: the 399 names the server stopping."""
    with server("awari") as local:
        south, north = players("awari", local.port)
        south.move("F")
        local.stop()
        for client in (south, north):
            while not client.over:
                client.next_message(timeout=10)
            assert client.result == Result(None, Termination.SHUTDOWN)
            assert client.describe_result() == "aborted (the server stopped)"


def test_an_unknown_399_is_the_referee_failing() -> None:
    assert P.Aborted("Unknown problem: a bad day, game aborted").termination is Termination.ERROR
    for termination, reason in P.ABORT_REASONS.items():  # each of this referee's reasons names its termination
        assert P.Aborted.because(reason).termination is termination
    assert set(P.ABORT_REASONS) == {Termination.SHUTDOWN, Termination.DIVERGENCE, Termination.ADJUDICATION}


def test_ports_by_server_number() -> None:
    assert P.port_of("awari", 3) == 29049 and P.port_of("gothello", 0) == 29068


def test_clocks_agree_with_the_servers_figures_after_a_slow_move() -> None:
    """A move made after a real delay: the client's time left is the server's 207
    figure (whole seconds, truncated), not that figure less the delay again."""
    reported: list[P.Message] = []
    with server("gothello", time=(10.0, 10.0)) as local:
        black, white = players("gothello", local.port)
        black.on_message = reported.append
        time.sleep(1.5)
        black.move("c3")
        accepted = next(m for m in reported if isinstance(m, P.Accepted))
        assert accepted.secs == 8  # 10 - 1.5, truncated
        assert black.time_left(Side.FIRST) == 8.0  # stopped, and not 6.5
        white.wait()
        assert (white.time_left(Side.FIRST) or 0) == 8.0
        time.sleep(0.5)
        assert 9.3 < (black.time_left(Side.SECOND) or 0) < 9.6  # white's clock runs from the 313
