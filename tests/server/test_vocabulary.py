"""The wire vocabulary without sockets: versions, names, requests, the code tables
of both papers indexed by side, and the clock arithmetic."""

from __future__ import annotations

import pytest

from impl import protocol as P
from impl.game import Side
from impl.server.clock import Clocks


@pytest.mark.parametrize(
    ("text", "parsed", "accepted"),
    [
        ("0.9", (0, 9), True),
        ("0.9.0", (0, 9, 0), True),
        ("0.9.1", (0, 9, 1), True),
        ("0.9.1.0", (0, 9, 1, 0), True),
        ("0.8.99", (0, 8, 99), True),
        ("0.9.2", (0, 9, 2), False),
        ("0.10", (0, 10), False),
        ("1.0", (1, 0), False),
        ("0.9.1.1", (0, 9, 1, 1), False),
        ("0", None, False),
        ("0.9.", None, False),
        ("0.x", None, False),
        ("", None, False),
        ("0.1234567890", None, False),
    ],
)
def test_versions_compare_numerically(text: str, parsed: tuple[int, ...] | None, accepted: bool) -> None:
    assert P.parse_version(text) == parsed
    assert (parsed is not None and P.version_accepted(parsed)) == accepted


@pytest.mark.parametrize(
    ("text", "name"),
    [("", ""), ('""', ""), ('"a b"', "a b"), ('""""', '"'), ('"a""b"', 'a"b'), ('"' + "x" * 31 + '"', "x" * 31)],
)
def test_names(text: str, name: str) -> None:
    assert P.parse_name(text) == name
    if text:
        assert P.quote_name(name) == text


@pytest.mark.parametrize("text", ['"' + "x" * 32 + '"', '"a', 'a"', '"a"b"', "bob", '"a" "b"'])
def test_bad_names(text: str) -> None:
    assert P.parse_name(text) is None


def test_seat_requests() -> None:
    assert P.parse_seat(P.GOTHELLO, '0.9 player ? "x y"') == P.SeatRequest(P.Seat.EITHER, "x y", "0.9")
    assert P.parse_seat(P.AWARI, "0.9\tplayer\tnorth") == P.SeatRequest(P.Seat.SECOND, "", "0.9")
    assert P.parse_seat(P.AWARI, "  0.9.1   observer  ") == P.SeatRequest(P.Seat.OBSERVER, "", "0.9.1")
    assert isinstance(P.parse_seat(P.AWARI, "0.9 player black"), P.SeatRefusal)


def test_actions() -> None:
    assert P.parse_action(P.GOTHELLO, "12 ... c3") == P.Action(P.Kind.MOVE, 12, True, "c3")
    assert P.parse_action(P.GOTHELLO, "pass") == P.Action(P.Kind.MOVE, None, False, "pass")
    assert P.parse_action(P.AWARI, "draw?") == P.Action(P.Kind.DRAW_OFFER)
    assert P.parse_action(P.GOTHELLO, "resign") == P.Action(P.Kind.RESIGN)
    for garbled in ("draw?", "1 ... ... c3", "1", "¹ c3", "+1 c3", "1234567890 c3", "1 .. c3"):
        assert isinstance(P.parse_action(P.GOTHELLO, garbled), P.Garbled), garbled
    assert isinstance(P.parse_action(P.AWARI, "pass"), P.Garbled)


def test_codes_follow_the_papers_tables() -> None:
    """Table 9's names: first player = south/black, second = north/white."""
    assert [P.moves_code(s, p, t) for p in (False, True) for t in (False, True) for s in Side] == [
        311,  # status_moves_black / _south
        312,  # status_moves_white / _north
        313,
        314,
        315,  # status_passes_black
        316,
        317,
        318,
    ]
    first, second = Side
    assert [P.ends_code(first, w) for w in (first, second, None)] == [321, 322, 325]  # wins, loses, draws
    assert [P.ends_code(second, w) for w in (second, first, None)] == [323, 324, 326]
    assert P.RESIGNS == (328, 327)  # 327 status_resigns_white / _north: the second player resigned
    assert P.FLAG_FELL == (362, 361)  # 361 status_flagfell_white / _north
    assert P.DISCONNECTED == (391, 392)  # 391 status_disconnect_black / _south
    assert (P.DRAW_OFFERED, P.DRAW_REFUSED) == ((331, 332), (333, 334))  # 331 reqsdraw_south
    assert (P.CONFIG, P.ROLE) == ((342, 341), (352, 351))  # 341 config_white / north, 351 role_white


def test_clocks() -> None:
    clocks = Clocks((10.0, 5.0))
    clocks.start(0, now=100.0)
    assert clocks.left(0, 103.5) == 6.5 and clocks.left(1, 103.5) == 5.0
    assert clocks.stop(104.0) == 6.0
    clocks.start(1, 200.0)
    assert clocks.stop(206.0) == -1.0 and clocks.left(0, 300.0) == 6.0
    assert (P.secs(6.99), P.secs(-1.0)) == (6, 0)
