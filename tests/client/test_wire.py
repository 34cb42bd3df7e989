"""The client library's wire (impl/protocol.py, as the client reads it) line by line, and its errors
against scripted fake servers: what our own server never sends."""

from __future__ import annotations

import socket
import time
from collections.abc import Callable

import pytest

from impl import protocol as P
from impl.client import Client, ClientTimeout, ConnectFailed, ConnectionLost, LineBuffer, ProtocolError, Result
from impl.game import Side, Termination
from tests.support.clientkit import FakeServer, send

PARSED: list[tuple[str, P.Message]] = [
    ("000 0.9.1 version Gothello server says hello!", P.Greeting("0.9.1", "Gothello")),
    ("100 Request accepted", P.Seated(None)),
    ("101 30 20 Request accepted with time controls (you / opp)", P.Seated((30, 20))),
    ("191 Other player holds requested side", P.Refused(191, "Other player holds requested side")),
    ("299 Illegal serial number (got 2 expected 1)", P.Refused(299, "Illegal serial number (got 2 expected 1)")),
    ("200 Move c3 accepted, continue playing", P.Accepted("c3", None)),
    ("207 3 secs remaining after move F accepted, continue playing", P.Accepted("F", 3)),
    ("201 Move pass accepted, You win", P.Finished(201, "pass", "Move pass accepted, You win")),
    ("202 Your time expires, and you lose", P.Finished(202, None, "Your time expires, and you lose")),
    ("203 Draw accepted, You draw", P.Finished(203, None, "Draw accepted, You draw")),
    ("204 Resignation accepted", P.Acknowledged(204, "Resignation accepted")),
    ("311 1 c3 is black move, game continues", P.Moved(1, Side.FIRST, "c3", None)),
    ("312 1 ... d4 is white move, game continues", P.Moved(1, Side.SECOND, "d4", None)),
    ("313 1 C 3 (secs) is south move, game continues", P.Moved(1, Side.FIRST, "C", 3)),
    ("314 2 ... a 8 (secs) is north move, game continues", P.Moved(2, Side.SECOND, "a", 8)),
    ("315 3 pass is black move, game continues", P.Moved(3, Side.FIRST, "pass", None)),
    ("318 2 ... pass 59 (secs) is white move, game continues", P.Moved(2, Side.SECOND, "pass", 59)),
    ("321 9 F and south wins", P.Ended(9, Side.FIRST, "F", Side.FIRST)),
    ("322 9 F and south loses", P.Ended(9, Side.FIRST, "F", Side.SECOND)),
    ("324 14 ... pass and white loses", P.Ended(14, Side.SECOND, "pass", Side.FIRST)),
    ("326 14 ... pass and white draws", P.Ended(14, Side.SECOND, "pass", None)),
    ("327 Black wins by resignation", P.Resigned(Side.SECOND)),
    ("328 North wins by resignation", P.Resigned(Side.FIRST)),
    ("329 Draw accepted", P.DrawAgreed()),
    ("332 Draw requested by north", P.DrawOffered(Side.SECOND)),
    ("333 Draw refused by south", P.DrawRefused(Side.FIRST)),
    ('341 "b""o""b" white player', P.PlayerName(Side.SECOND, 'b"o"b')),
    ('342 "" south player', P.PlayerName(Side.FIRST, "")),
    ('343 2 "eve" observer', P.ObserverName(2, "eve")),
    ("344 2 observers", P.ObserverCount(2)),
    ("351 You will play white", P.Role(Side.SECOND)),
    ("352 You will play south", P.Role(Side.FIRST)),
    ("353 You will observe", P.Role(None)),
    ("361 Black wins by White time expiring", P.FlagFell(Side.SECOND)),
    ("362 North wins by South time expiring", P.FlagFell(Side.FIRST)),
    ("380 1 b", P.DisplayStatus(1, None, Side.FIRST)),
    ("381 4 12 30 n", P.DisplayStatus(4, (12, 30), Side.SECOND)),
    ("380 7 .", P.DisplayStatus(7, None, None)),
    ("382 5 board lines follow", P.BoardFollows(5)),
    ("391 Black disconnected, white wins", P.Disconnected(Side.FIRST)),
    ("392 North disconnected, south wins", P.Disconnected(Side.SECOND)),
    (
        "399 Unknown problem: the referee failed, game aborted",
        P.Aborted("Unknown problem: the referee failed, game aborted"),
    ),
]


@pytest.mark.parametrize(("line", "message"), PARSED)
def test_parse(line: str, message: P.Message) -> None:
    assert P.parse(line) == message


@pytest.mark.parametrize(
    "line",
    ["", "12", "1234 x", "abc def", "311 x c3 is black move", "312 1 d4 is white", "381 1 b", "380 1 q", "500 x"],
)
def test_parse_refuses_what_is_not_the_protocol(line: str) -> None:
    with pytest.raises(P.ProtocolError):
        P.parse(line)


def test_requests() -> None:
    assert P.SeatRequest(P.Seat.FIRST).to_line(P.GOTHELLO) == "0.9.1 player black"
    assert P.SeatRequest(P.Seat.EITHER, 'b"o"b').to_line(P.GOTHELLO) == '0.9.1 player ? "b""o""b"'
    assert P.SeatRequest(P.Seat.OBSERVER, "eve").to_line(P.GOTHELLO) == '0.9.1 observer "eve"'
    assert P.Action.move(3, Side.FIRST, "c3").to_line(P.GOTHELLO) == "3 c3"
    assert P.Action.move(3, Side.SECOND, "pass").to_line(P.GOTHELLO) == "3 ... pass"
    with pytest.raises(ValueError):
        P.quote_name("x" * 32)


def test_line_buffer() -> None:
    buffer = LineBuffer()
    buffer.feed(b"000 a\r\n100 b")
    assert buffer.pop() == "000 a" and buffer.pop() is None
    buffer.feed(b"\n\xff\r\n")
    assert buffer.pop() == "100 b"
    with pytest.raises(ProtocolError, match="not ASCII"):
        buffer.pop()


def fake(script: Callable[[socket.socket, Callable[[], str]], None]) -> FakeServer:
    return FakeServer(script)


SEATS = {
    "black": P.Seat.FIRST,
    "south": P.Seat.FIRST,
    "white": P.Seat.SECOND,
    "north": P.Seat.SECOND,
    "?": P.Seat.EITHER,
}
GREETING = {
    "awari": "000 0.9.1 version Awari server says hello!",
    "gothello": "000 0.9.1 version Gothello server says hello!",
}


def seated(game: str, side: str, *replies: str) -> tuple[FakeServer, Client]:
    """A fake server that greets, reads the seat request for side, sends replies and
    closes; and a client that has sent that request."""

    def script(conn: socket.socket, line: Callable[[], str]) -> None:
        send(conn, GREETING[game])
        assert line() == P.SeatRequest(SEATS[side]).to_line(P.VOCABULARIES[game])
        send(conn, *replies)

    srv = fake(script)
    client = Client.connect(game, port=srv.port, timeout=5)
    client.seat(side)
    return srv, client


def test_the_wrong_game_is_a_protocol_error() -> None:
    srv = fake(lambda conn, line: send(conn, GREETING["gothello"]))
    with pytest.raises(ProtocolError, match="this is a Gothello server, not Awari"):
        Client.connect("awari", port=srv.port, timeout=5)
    srv.close()


def test_an_unknown_line_is_a_protocol_error() -> None:
    srv, client = seated("awari", "south", "100 Request accepted", "352 You will play south", "hello")
    client.wait_started()
    with pytest.raises(ProtocolError, match="expected a 3-digit code"):
        client.next_message()
    srv.close()


def test_a_move_the_rules_refuse_is_a_protocol_error() -> None:
    srv, client = seated(
        "awari", "north", "100 Request accepted", "351 You will play north", "311 1 a is south move, game continues"
    )
    with pytest.raises(ProtocolError, match="accepted a, which the rules refuse"):
        client.wait()
    srv.close()


def test_a_role_we_did_not_ask_for_is_a_protocol_error() -> None:
    srv, client = seated("gothello", "black", "100 Request accepted", "351 You will play white")
    with pytest.raises(ProtocolError, match="asked for black, told to play white"):
        client.wait_started()
    srv.close()


def test_a_closed_connection_mid_game_is_connection_lost() -> None:
    srv, client = seated("gothello", "white", "100 Request accepted", "351 You will play white")
    with pytest.raises(ConnectionLost, match="closed the connection mid-game"):
        client.wait()
    srv.close()


def test_silence_is_a_timeout() -> None:
    def script(conn: socket.socket, line: Callable[[], str]) -> None:
        send(conn, GREETING["gothello"])
        line()
        time.sleep(0.4)

    srv = fake(script)
    client = Client.connect("gothello", port=srv.port, timeout=0.2)
    with pytest.raises(ClientTimeout, match=r"within 0\.2 s"):
        client.seat("black")
    client.close()
    srv.close()


def test_no_server_is_connect_failed() -> None:
    sock = socket.create_server(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    with pytest.raises(ConnectFailed, match=f"cannot connect to the awari server at 127.0.0.1:{port}"):
        Client.connect("awari", port=port)


def test_399_aborts_the_game_without_a_result() -> None:
    srv, client = seated(
        "gothello",
        "white",
        "100 Request accepted",
        "351 You will play white",
        "399 Unknown problem: the referee failed, game aborted",
    )
    client.wait()
    assert client.result == Result(None, Termination.ERROR)
    assert client.describe_result() == "aborted (the referee failed)"
    srv.close()
