"""The protocol's executable model (spec/protocol.py) against the server.

* the model's transition table is the session's ``TABLE`` and ``TRIGGERS``, row by row
  (every difference named);
* its parsers and its lines are impl/protocol.py's, on generated input;
* its codes are docs/protocol.md §11's message index;
* transcripts (``referee serve --transcript``) are checked by ``referee check``: OK,
  a difference (exit 1, the line and what the model allowed), no transcript (exit 2);
* random sessions driven by the model against a real server validate, and together
  reach every row of the table (``PROTOCOL_SESSIONS`` sessions per game, default 4).

Every socket test's server is transcribed and checked at its stop as well
(tests/support/netclient.py ``serving``).
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from impl import protocol as P
from impl.cli import main
from impl.game import Side
from impl.server import session as S
from impl.server.connections import classify
from impl.server.transcript import BadTranscript, check_lines
from spec import protocol as M
from tests.support.netclient import TRANSCRIBED, make_server, run, seat_players
from tests.support.sessions import ALL_ROWS, Report, random_session

ROOT = Path(__file__).resolve().parents[2]


def differences(table: dict[tuple[S.Conn, S.Req], S.Step]) -> list[str]:
    """Every difference between the session's ``table`` (and ``TRIGGERS``) and the model's."""
    found = []
    session_rows = {(c.value, r.value): step for (c, r), step in table.items()}
    model_rows = {(row.state.value, row.request.value): row for row in M.ROWS}
    for key in sorted(session_rows.keys() - model_rows.keys()):
        found.append(f"{key}: in the session's TABLE, not in the model")
    for key in sorted(model_rows.keys() - session_rows.keys()):
        found.append(f"{key}: in the model, not in the session's TABLE")
    for key in sorted(session_rows.keys() & model_rows.keys()):
        step, row = session_rows[key], model_rows[key]
        if {c.value for c in step.next} != {s.value for s in row.next}:
            found.append(f"{key}: next states differ")
        if isinstance(step.run, P.Refused):
            if row.refusal != step.run.text or step.run.code not in row.codes:
                found.append(f"{key}: refusal {step.run} vs {sorted(row.codes)} {row.refusal!r}")
        elif row.refusal is not None:
            found.append(f"{key}: the model refuses, the session runs {step.run}")
    for trigger, (sources, to) in S.TRIGGERS.items():
        m_sources, m_to = M.TRIGGERS[M.Trigger(trigger.value)]
        if {c.value for c in sources} != {s.value for s in m_sources} or to.value != m_to.value:
            found.append(f"trigger {trigger.value} differs")
    return found


def test_model_table_is_the_sessions() -> None:
    """States, requests, triggers and every row: the same, or the difference named."""
    assert [c.value for c in S.Conn] == [s.value for s in M.State]
    assert {r.value for r in S.Req} == {r.value for r in M.Request}
    assert {t.value for t in S.Trigger} == {t.value for t in M.Trigger}
    assert differences(S.TABLE) == []


def test_a_changed_table_is_named() -> None:
    """The comparison sees a row gone, a refusal reworded, a next state added."""
    table = dict(S.TABLE)
    del table[(S.Conn.NEW, S.Req.BAD_LINE)]
    table[(S.Conn.WAITING, S.Req.MOVE)] = S.Step(P.Refused(291, "Wait"), frozenset({S.Conn.WAITING}))
    step = table[(S.Conn.PLAYING, S.Req.RESIGN)]
    table[(S.Conn.PLAYING, S.Req.RESIGN)] = S.Step(step.run, frozenset({S.Conn.DONE, S.Conn.PLAYING}))
    assert differences(table) == [
        "('initial', 'bad line'): in the model, not in the session's TABLE",
        "('playing', 'resign'): next states differ",
        "('seated', 'move'): refusal Refused(code=291, text='Wait') vs [291] 'The game has not started'",
    ]


def test_every_code_is_in_the_message_index() -> None:
    """The model's codes are docs/protocol.md §11's, no more, no fewer."""
    text = (ROOT / "docs" / "protocol.md").read_text()
    index = text.split("## 11. Message index", 1)[1].split("## 12.", 1)[0]
    documented: set[int] = set()
    for cell in re.findall(r"^\| ([0-9][0-9, –+a-z]*?) \|", index, re.M):
        for a, b in re.findall(r"(\d{3})(?:–(\d{3}))?", cell):
            documented |= set(range(int(a), int(b or a) + 1))
    assert documented == set(M.BY_CODE)


_WORDS = ["0.9.1", "0.9", "1.0", "0.10", "player", "observer", "?", "black", "white", "south", "north"]
_WORDS += ['"ann"', '""', '"a""b"', "pass", "resign", "draw?", "draw", "nodraw", "...", "1", "2", "c3", "F", "x"]


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(["awari", "gothello"]),
    st.lists(st.sampled_from(_WORDS), max_size=5),
    st.sampled_from([" ", "\t", "  "]),
)
def test_the_models_parsers_are_the_servers(game: str, words: list[str], sep: str) -> None:
    line = sep.join(words)
    vocab, w = P.VOCABULARIES[game], M.WORDS[game]
    impl_seat, model_seat = P.parse_seat(vocab, line), M.seat_request(w, line)
    if isinstance(impl_seat, P.SeatRefusal):
        assert model_seat == M.Refusal(impl_seat.code, impl_seat.text)
    else:
        assert isinstance(model_seat, M.SeatRequest)
        assert (model_seat.seat.value, model_seat.name) == (impl_seat.seat.value, impl_seat.name)
    impl_action, model_action = P.parse_action(vocab, line), M.action(w, line)
    if isinstance(impl_action, P.Garbled):
        assert model_action is None
    else:
        assert model_action is not None
        assert (impl_action.serial, impl_action.ellipsis) == (model_action.serial, model_action.ellipsis)
    for state in M.State:
        if state is not M.State.DONE:
            kind, _ = classify(vocab, S.Conn(state.value), line)
            assert kind.value == M.classify(w, state, line).value


@pytest.mark.parametrize("game", ["awari", "gothello"])
def test_the_models_lines_are_the_servers(game: str) -> None:
    vocab, w = P.VOCABULARIES[game], M.WORDS[game]
    move = "pass" if game == "gothello" else "c"
    assert M.greeting(w, "paper", 0) == P.Greeting("0.9.1", vocab.title).to_line(vocab)
    assert M.greeting(w, "x", 3) == P.Greeting("0.9.1", vocab.title, "x", 3).to_line(vocab)
    for side in Side:
        for timed in (False, True):
            expected = P.Moved(7, side, move, 12 if timed else None).to_line(vocab)
            assert M.matches(M.moved(w, 7, int(side), move, timed), expected)
        for won in (None, Side.FIRST, Side.SECOND):
            assert M.ended(w, 3, int(side), move, None if won is None else int(won)) == P.Ended(
                3, side, move, won
            ).to_line(vocab)
        assert M.resigned(w, int(side)) == P.Resigned(side).to_line(vocab)
        assert M.flag_fell(w, int(side)) == P.FlagFell(side).to_line(vocab)
        assert M.disconnected(w, int(side)) == P.Disconnected(side).to_line(vocab)


@given(st.integers(0, 10_000))
def test_serials_are_full_move_numbers(plies: int) -> None:
    """Erratum A16/G12: both players' k-th moves carry k."""
    n = M.serial(plies)
    assert n == plies // 2 + 1 and M.to_move_by_count(plies) == plies % 2
    assert M.ellipsis_ok(M.SECOND, True) and M.ellipsis_ok(M.FIRST, False)
    assert not M.ellipsis_ok(M.SECOND, False) and not M.ellipsis_ok(M.FIRST, True)


def _a_game(tmp_path: Path) -> Path:
    """A short game over a socket, its transcript written to ``tmp_path``."""

    async def play() -> list[str]:
        server = make_server("gothello")
        await server.start()
        try:
            black, white = await seat_players(server.port, "gothello")
            await black.send("1 c3")
            await white.send("1 d4")  # no ellipsis: 299
            await white.send("1 ... d4")
            await white.send("resign")
            await black.rest()
        finally:
            await server.stop()
        (transcript,) = TRANSCRIBED.pop(id(server))
        return transcript.lines

    lines = run(play)
    path = tmp_path / "game.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_referee_check(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _a_game(tmp_path)
    assert main(["check", str(path)]) == 0
    assert capsys.readouterr().out == f"{path}: OK\n"
    lines = path.read_text().splitlines()
    tampered = tmp_path / "tampered.jsonl"
    tampered.write_text("\n".join(line.replace("Ellipses (...) expected", "Ellipses expected") for line in lines))
    assert main(["check", str(tampered)]) == 1
    out = capsys.readouterr().out
    assert "connection 2 got '299 Ellipses expected before white move'" in out
    assert "the model allowed '299 Ellipses (...) expected before white move'" in out
    dropped = tmp_path / "dropped.jsonl"
    dropped.write_text("\n".join(line for line in lines if "311 1 c3" not in line))
    assert main(["check", str(dropped)]) == 1
    assert "still owed '311 1 c3 is black move, game continues'" in capsys.readouterr().out
    for bad, text in (("", "empty file"), ("[1]", "line 1: not a header"), ("{", "line 1: not JSON")):
        junk = tmp_path / "junk.jsonl"
        junk.write_text(bad)
        assert main(["check", str(junk)]) == 2
        assert capsys.readouterr().err == f"referee check: {junk}: {text}\n"
    junk.write_text(lines[0] + '\n{"d": "sideways"}\n')
    assert main(["check", str(junk)]) == 2
    assert "line 2: not a transcript event" in capsys.readouterr().err
    assert main(["check", str(tmp_path / "absent")]) == 2


def test_a_transcript_of_another_game_is_refused(tmp_path: Path) -> None:
    header = json.loads(_a_game(tmp_path).read_text().splitlines()[0])
    assert header["transcript"] == 1 and header["game"] == "gothello" and header["timed"] is False
    with pytest.raises(BadTranscript, match="line 1"):
        check_lines([json.dumps({**header, "game": "chess"})])


SESSIONS = int(os.environ.get("PROTOCOL_SESSIONS", "4"))


def test_random_sessions_validate_and_reach_every_row() -> None:
    """Sessions driven by the model (tests/support/sessions.py): each transcript checked
    as its server stops; together they reach every row of the transition table."""
    report = Report()
    for seed in range(SESSIONS):
        for game in ("awari", "gothello"):
            run(lambda game=game, seed=seed: random_session(game, seed, 200, report))  # type: ignore[misc]
    assert report.sessions == 2 * SESSIONS
    assert ALL_ROWS - report.rows == set(), "rows never reached"


def test_referee_serve_transcript_then_referee_check(tmp_path: Path) -> None:
    """The command line end to end: a server writing transcripts, two of our players,
    and ``referee check`` on what was written."""
    import subprocess
    import sys

    referee = [sys.executable, "-m", "impl.cli"]
    server = subprocess.Popen(
        [*referee, "serve", "awari", "--port", "0", "--time", "60", "--transcript", str(tmp_path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        cwd=ROOT,
    )
    try:
        assert server.stdout is not None
        port = server.stdout.readline().split(" listens on ")[1].split()[0].rsplit(":", 1)[1]
        players = [
            subprocess.Popen([*referee, "player", "random", "awari", "--port", port, "--quiet"], cwd=ROOT)
            for _ in range(2)
        ]
        assert [p.wait(60) for p in players] == [0, 0]
        assert server.wait(60) == 0
    finally:
        server.kill()
    (written,) = tmp_path.glob("awari-0-*.jsonl")
    done = subprocess.run([*referee, "check", str(written)], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert (done.returncode, done.stdout) == (0, f"{written}: OK\n")
