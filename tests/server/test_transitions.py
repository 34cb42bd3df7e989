"""The session's connection states as data (impl/server/connections.py ``TABLE``,
states.py ``TRIGGERS``): every handler's next state is checked against the table,
only ``Connections.settle`` and ``Connections.trigger`` set a state, and
docs/protocol.md §3's diagram is the generator's output (impl/server/diagram.py)."""

from __future__ import annotations

import ast
import inspect
import random
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

from impl import protocol as P
from impl.engines.registry import get_engine
from impl.server import connections, core, diagram, play, session, states
from impl.server.session import (
    TABLE,
    TRIGGERS,
    Conn,
    Entity,
    Handler,
    Req,
    Session,
    Settings,
    Step,
    TransitionError,
    Trigger,
)

ROOT = Path(__file__).resolve().parents[2]
PROTOCOL = ROOT / "docs" / "protocol.md"


class Peer:
    def __init__(self) -> None:
        self.address, self.lines, self.closed = "test", list[str](), False

    def send(self, lines: Sequence[str]) -> None:
        self.lines.extend(lines)

    def close(self) -> None:
        self.closed = True


def awari() -> Session:
    return Session(Settings(P.AWARI), get_engine("awari"), rng=random.Random(0), now=0.0)


def test_a_game_takes_each_connection_through_the_tables_states() -> None:
    s = awari()
    south, north, watcher = (s.join(Peer(), 0.0) for _ in range(3))
    s.receive(watcher, "0.9.1 observer", 0.0)
    s.receive(south, "0.9.1 player south", 0.0)
    assert (south.conn, north.conn, watcher.conn) == (Conn.WAITING, Conn.NEW, Conn.WATCHING)
    s.receive(north, "0.9.1 player north", 0.0)
    assert (south.conn, north.conn) == (Conn.PLAYING, Conn.PLAYING)
    s.receive(north, "1 ... a", 0.0)  # not its turn: refused, the state stays
    assert north.conn is Conn.PLAYING
    s.receive(south, "resign", 0.0)
    assert (south.conn, north.conn, watcher.conn) == (Conn.DONE, Conn.DONE, Conn.DONE)


def test_a_handler_taking_a_state_the_table_does_not_allow_is_a_transition_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    s = awari()
    ent = s.join(Peer(), 0.0)
    monkeypatch.setitem(TABLE, (Conn.NEW, Req.SEAT), Step(Handler.SEAT, frozenset({Conn.NEW})))
    with pytest.raises(TransitionError, match="initial --seat--> seated"):
        s._dispatch(ent, "0.9.1 player south")


def test_through_receive_a_transition_error_ends_the_game_as_the_referees_failure(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    s = awari()
    south, north = s.join(Peer(), 0.0), s.join(Peer(), 0.0)
    s.receive(south, "0.9.1 player south", 0.0)
    s.receive(north, "0.9.1 player north", 0.0)
    monkeypatch.setitem(TABLE, (Conn.PLAYING, Req.DRAW_OFFER), Step(Handler.OFFER_DRAW, frozenset({Conn.DONE})))
    s.receive(south, "draw?", 0.0)
    assert s.record is not None and s.record.outcome.termination.value == "error"
    peer = north.peer
    assert isinstance(peer, Peer) and peer.lines[-1] == "399 Unknown problem: the referee failed, game aborted"


def test_a_handler_may_not_say_done_while_the_game_goes_on(monkeypatch: pytest.MonkeyPatch) -> None:
    s = awari()
    south, north = s.join(Peer(), 0.0), s.join(Peer(), 0.0)
    s.receive(south, "0.9.1 player south", 0.0)
    s.receive(north, "0.9.1 player north", 0.0)

    def claims_done(ent: Entity, request: object) -> Conn:
        return Conn.DONE

    monkeypatch.setitem(s.handlers, Handler.MOVE, claims_done)
    with pytest.raises(TransitionError, match="playing --move--> done: the game is not over"):
        s._dispatch(south, "1 F")
    assert south.conn is Conn.PLAYING


def test_a_trigger_from_a_state_it_does_not_leave_is_a_transition_error() -> None:
    s = awari()
    ent: Entity = s.join(Peer(), 0.0)
    with pytest.raises(TransitionError, match="initial --game starts--> playing"):
        s.conns.trigger(ent, Trigger.START)
    assert ent.conn is Conn.NEW


def test_only_settle_and_trigger_set_a_connection_state() -> None:
    """Over every module of the session (its connections, its play, its core)."""
    trees = [ast.parse(inspect.getsource(m)) for m in (session, connections, play, core, states)]
    setters = set()
    for func in (f for tree in trees for f in ast.walk(tree)):
        if isinstance(func, ast.FunctionDef):
            for node in ast.walk(func):
                targets = node.targets if isinstance(node, ast.Assign) else []
                for target in targets:
                    names = target.elts if isinstance(target, ast.Tuple) else [target]
                    if any(isinstance(t, ast.Attribute) and t.attr == "conn" for t in names):
                        setters.add(func.name)
    assert setters == {"settle", "trigger"}


def test_every_step_allows_at_least_its_own_outcomes() -> None:
    for (conn, req), step in TABLE.items():
        assert step.next, (conn, req)
        if isinstance(step.run, P.Refused):
            assert step.next == {conn}, (conn, req)
    assert all(Conn.DONE not in sources for sources, _ in TRIGGERS.values())


def test_the_protocol_page_shows_the_generated_diagram() -> None:
    text = PROTOCOL.read_text(encoding="utf-8")
    assert diagram.section() in text
    assert diagram.replaced(text) == text
    assert "stateDiagram-v2" in diagram.section() and "    seated --> playing: [game starts]" in diagram.section()


def test_editing_the_table_without_regenerating_fails_the_check(monkeypatch: pytest.MonkeyPatch) -> None:
    text = PROTOCOL.read_text(encoding="utf-8")
    monkeypatch.setitem(
        TABLE, (Conn.WATCHING, Req.RESIGN), Step(P.Refused(291, "Observers may not resign"), frozenset({Conn.WATCHING}))
    )
    assert diagram.replaced(text) != text
    assert "`291 Observers may not resign`" in diagram.section()


def run_diagram(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "impl.server.diagram", *args], capture_output=True, text=True, cwd=ROOT, check=False
    )


def test_the_command_checks_writes_and_refuses_a_page_without_markers(tmp_path: Path) -> None:
    assert run_diagram("--check", str(PROTOCOL)).returncode == 0
    stale = tmp_path / "protocol.md"
    stale.write_text(f"# p\n\n{diagram.BEGIN}\nold\n{diagram.END}\n\nafter\n", encoding="utf-8")
    checked = run_diagram("--check", str(stale))
    assert checked.returncode == 1 and "out of date" in checked.stdout
    assert run_diagram("--write", str(stale)).returncode == 0
    assert stale.read_text(encoding="utf-8") == f"# p\n\n{diagram.section()}\n\nafter\n"
    bare = tmp_path / "bare.md"
    bare.write_text("no section\n", encoding="utf-8")
    refused = run_diagram("--check", str(bare))
    assert refused.returncode == 2 and refused.stderr.startswith("diagram: ") and "Traceback" not in refused.stderr
    printed = run_diagram()
    assert printed.returncode == 0 and printed.stdout == diagram.section() + "\n"
