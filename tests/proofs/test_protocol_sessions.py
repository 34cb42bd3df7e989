"""The in-process generated sessions (proofs/protocol_sessions.py): clean on the
server as it is, and a divergence found on a server bug."""

from __future__ import annotations

import pytest

from impl import protocol as P
from proofs import protocol_sessions as G


def test_sessions_validate_and_reach_rows() -> None:
    report = G.run(40)
    assert report.sessions == 40
    assert report.divergences == []
    assert report.rows <= G.ALL_ROWS and len(report.rows) > len(G.GOTHELLO_ROWS) // 2


def test_a_server_bug_is_a_divergence(monkeypatch: pytest.MonkeyPatch) -> None:
    """311 and 312 swapped (proofs/planted.py plants the same in the code)."""
    swapped = P.moves_code
    monkeypatch.setattr(P, "moves_code", lambda side, is_pass, timed: swapped(side.other, is_pass, timed))
    report = G.run(10)
    assert report.divergences
    first = report.divergences[0]
    got, allowed = first.split(" got '")[1][:3], first.split("the model allowed '")[1][:3]
    assert {got, allowed} in ({"311", "312"}, {"313", "314"}, {"315", "316"}, {"317", "318"}), first


def test_the_command_reports_its_count(capsys: pytest.CaptureFixture[str]) -> None:
    assert G.main(["--sessions", "4"]) in (0, 1)
    assert "4 sessions, 0 divergences, " in capsys.readouterr().out


def test_a_bad_count_is_a_usage_error() -> None:
    with pytest.raises(SystemExit) as exit_:
        G.main(["--sessions", "0"])
    assert exit_.value.code == 2
