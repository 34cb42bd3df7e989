"""The connections' states on their own (impl/server/connections.py): opened and
numbered, classified, settled against the table, moved by triggers — no game, no
clock, no I/O."""

from __future__ import annotations

import ast
import inspect
from collections.abc import Sequence

import pytest

from impl import protocol as P
from impl.server import connections
from impl.server.connections import TABLE, Connections, Handler, Step, classify
from impl.server.states import Conn, LineError, Req, TransitionError, Trigger


class Peer:
    address = "test"

    def send(self, lines: Sequence[str]) -> None:
        raise AssertionError("the connections' states never send")

    def close(self) -> None:
        raise AssertionError("the connections' states never close")


def test_connections_open_numbered_in_order_in_the_initial_state() -> None:
    conns = Connections()
    first, second = conns.open(Peer(), 1.0), conns.open(Peer(), 2.5)
    assert (first.number, second.number, conns.opened) == (1, 2, 2)
    assert (first.conn, second.conn, second.joined) == (Conn.NEW, Conn.NEW, 2.5)
    assert conns.entities == [first, second] and conns.in_state(Conn.NEW) == [first, second]
    conns.remove(first)
    assert conns.entities == [second] and conns.open(Peer(), 3.0).number == 3


@pytest.mark.parametrize(
    ("conn", "line", "kind"),
    [
        (Conn.NEW, LineError.TOO_LONG, Req.BAD_LINE),
        (Conn.NEW, "0.9.1 player black", Req.SEAT),
        (Conn.NEW, "hello", Req.BAD_SEAT),
        (Conn.PLAYING, "1 c3", Req.MOVE),
        (Conn.PLAYING, "resign", Req.RESIGN),
        (Conn.PLAYING, "0.9.1 player black", Req.SEAT_AGAIN),
        (Conn.WAITING, "what?", Req.GARBLED),
        (Conn.WATCHING, LineError.NOT_ASCII, Req.BAD_LINE),
    ],
)
def test_a_line_is_classified_by_the_state_it_arrives_in(conn: Conn, line: str | LineError, kind: Req) -> None:
    assert classify(P.GOTHELLO, conn, line)[0] is kind


def test_awaris_draw_answers_are_one_kind() -> None:
    assert classify(P.AWARI, Conn.PLAYING, "draw")[0] is classify(P.AWARI, Conn.PLAYING, "nodraw")[0] is Req.DRAW_ANSWER
    assert classify(P.AWARI, Conn.PLAYING, "draw?")[0] is Req.DRAW_OFFER


def test_settle_sets_a_state_the_step_allows_and_refuses_any_other() -> None:
    conns = Connections()
    ent = conns.open(Peer(), 0.0)
    step = TABLE[(Conn.NEW, Req.SEAT)]
    conns.settle(ent, Conn.NEW, Req.SEAT, step, Conn.WAITING)
    assert ent.conn is Conn.WAITING
    with pytest.raises(TransitionError, match="seated --move--> playing: TABLE allows seated"):
        conns.settle(ent, Conn.WAITING, Req.MOVE, TABLE[(Conn.WAITING, Req.MOVE)], Conn.PLAYING)
    assert ent.conn is Conn.WAITING


def test_done_is_reached_only_by_a_trigger() -> None:
    conns = Connections()
    ent = conns.open(Peer(), 0.0)
    ent.conn = Conn.PLAYING
    with pytest.raises(TransitionError, match="playing --move--> done: the game is not over"):
        conns.settle(ent, Conn.PLAYING, Req.MOVE, TABLE[(Conn.PLAYING, Req.MOVE)], Conn.DONE)
    conns.trigger(ent, Trigger.END)
    # The game ended meanwhile (the trigger has the last word): done stays done.
    conns.settle(ent, Conn.PLAYING, Req.MOVE, TABLE[(Conn.PLAYING, Req.MOVE)], Conn.DONE)
    assert ent.conn is Conn.DONE


def test_triggers_move_only_from_their_sources() -> None:
    conns = Connections()
    ent = conns.open(Peer(), 0.0)
    with pytest.raises(TransitionError, match="initial --game starts--> playing"):
        conns.trigger(ent, Trigger.START)
    conns.trigger(ent, Trigger.CLOSE)
    assert ent.conn is Conn.DONE
    with pytest.raises(TransitionError, match="done --closed--> done"):
        conns.trigger(ent, Trigger.CLOSE)


def test_every_handler_of_the_table_is_a_handler_and_every_handler_is_used() -> None:
    runs = {step.run for step in TABLE.values() if isinstance(step.run, Handler)}
    assert runs == set(Handler)
    assert all(isinstance(step, Step) and step.next for step in TABLE.values())


def test_the_module_does_no_io_and_keeps_no_time() -> None:
    """Pure: it imports no logging, clock, socket or event loop, and names no peer method."""
    tree = ast.parse(inspect.getsource(connections))
    imported = {
        alias.name.split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.Import | ast.ImportFrom)
        for alias in node.names
    } | {node.module.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module}
    assert not imported & {"logging", "time", "socket", "asyncio", "os", "random"}
    assert not {"log", "event"} & {
        a.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) for a in node.names
    }
    calls = {n.func.attr for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)}
    assert not calls & {"send", "close", "gethostname", "time", "monotonic"}
