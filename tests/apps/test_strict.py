"""``referee match/tournament --strict``: a protocol warning forfeits the game.

The warnings are read from the game's transcript (impl/apps/strict.py): each refusal
a player got but the rules' ``291 Illegal move``, and gthd's bare ``pass``; the first
one loses its sender the game, named in the record, the JSON summary and the
failures, and kept on resuming.  Off by default: the same player then plays its
games out."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import Any

import pytest

from impl import cli, pgn
from impl.apps.strict import BARE_PASS, ProtocolWarning, first_warning
from tests.support import paths

SLOPPY = f"{shlex.quote(sys.executable)} {paths.ROOT / 'tests' / 'support' / 'sloppy_player.py'}"
SEAT_TWICE = f"sloppy={SLOPPY} {{game}} {{host}} {{port}} {{side}} seat-twice"
AGAIN = "299 Request not understood (already seated)"


def transcript(*entries: tuple[int, str, str]) -> list[str]:
    """A transcript's lines: a header, then (connection, direction, line) in order."""
    lines = [json.dumps({"transcript": 1, "game": "gothello"})]
    return lines + [json.dumps({"t": 0.0, "c": c, "d": d, "line": line}) for c, d, line in entries]


SEATED = ((1, "out", "352 You will play black"), (2, "out", "351 You will play white"))


def test_a_refusal_is_a_warning_of_the_player_it_answers() -> None:
    lines = transcript(*SEATED, (2, "in", "1 d4"), (2, "out", "291 Not your turn"), (1, "in", "1 ... c3"))
    assert first_warning(lines) == ProtocolWarning(1, "1 d4", "291 Not your turn")


def test_the_rules_refusal_and_an_observers_refusal_are_no_warning() -> None:
    lines = transcript(
        (3, "in", "1 c3"),
        (3, "out", "291 Observers may not act"),
        *SEATED,
        (1, "in", "1 a1"),
        (1, "out", "291 Illegal move a1"),
        (1, "in", "1 c3"),
        (1, "out", "200 Move c3 accepted, continue playing"),
    )
    assert first_warning(lines) is None


def test_a_refused_seat_request_counts_once_the_connection_plays() -> None:
    lines = transcript((1, "in", "0.9.2 player black"), (1, "out", "198 Illegal version number"), *SEATED)
    assert first_warning(lines) == ProtocolWarning(0, "0.9.2 player black", "198 Illegal version number")


def test_a_bare_pass_and_an_unreadable_line_are_warnings_in_their_order() -> None:
    unreadable = "Request not understood (line too long)"
    lines = transcript(*SEATED, (1, "in", "pass"), (2, "bad", unreadable), (2, "out", f"299 {unreadable}"))
    assert first_warning(lines) == ProtocolWarning(0, "pass", BARE_PASS)
    later = first_warning(lines[:3] + lines[4:])  # without the pass
    assert later is not None and later.answer == f"299 {unreadable}" and unreadable in later.line


def match(tmp_path: Path, *options: str) -> tuple[dict[str, Any], list[pgn.PgnGame]]:
    records, summary = tmp_path / "records", tmp_path / "r.json"
    argv = ["match", SEAT_TWICE, "random", "--game", "gothello", "--games", "2", "--timeout", "120"]
    cli.main([*argv, "--records", str(records), "--json", str(summary), "-q", *options])
    games = [pgn.parse(p.read_bytes()) for p in sorted(records.glob("game-*.pgn"))]
    return json.loads(summary.read_text()), games


def test_match_strict_forfeits_each_game_of_the_player_that_sent_its_seat_request_twice(tmp_path: Path) -> None:
    summary, games = match(tmp_path, "--strict")
    assert {s["player"]: s["score"] for s in summary["standings"]} == {"sloppy": 0, "random": 2}
    for game, side in zip(games, ("black", "white"), strict=True):
        assert game.tag("Termination") == "adjudication"
        assert game.tag("ProtocolWarning") == f"A (sloppy) {side} sent '0.9.1 player {side}': {AGAIN}"
    failures = summary["failures"]
    assert [(f["player"], f["kind"]) for f in failures] == [("sloppy", "protocol warning")] * 2


def test_without_strict_the_same_player_plays_its_games_out(tmp_path: Path) -> None:
    summary, games = match(tmp_path)
    assert [g.tag("Termination") for g in games] == ["move", "move"]
    assert not any(g.tag("ProtocolWarning") for g in games) and summary["failures"] == []


def test_tournament_strict_lists_the_forfeit_and_keeps_it_on_resuming(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["tournament", SEAT_TWICE, "random", "--game", "gothello", "--games", "1", "--jobs", "1", "--strict"]
    argv += ["--records", str(tmp_path / "records"), "--json", str(tmp_path / "r.json"), "--timeout", "120"]
    assert cli.main(argv) == 0
    results = json.loads((tmp_path / "r.json").read_text())
    assert [(f["player"], f["kind"]) for f in results["failures"]] == [("sloppy", "protocol warning")]
    assert AGAIN in results["failures"][0]["detail"]
    assert "Failures: sloppy: protocol warning ×1" in capsys.readouterr().out
    assert cli.main([*argv, "-q"]) == 0
    assert json.loads((tmp_path / "r.json").read_text())["failures"] == results["failures"]
