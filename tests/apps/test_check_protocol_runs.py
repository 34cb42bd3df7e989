"""``referee match/tournament --check-protocol`` (impl/apps/protocheck.py): every line
each game's server sends checked live against spec/protocol.py.  A tournament of the
project's players and a sloppy one (refused lines, a bare ``pass``) diverges nowhere;
a server bug planted in the 101 line is found in every game, tagged in its record,
listed against the referee and kept on resuming, and makes the run exit 1 — the
games' results standing as the server gave them."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest

from impl import cli, pgn
from impl import protocol as P
from impl.apps import protocheck
from tests.support import paths

SLOPPY = f"{shlex.quote(sys.executable)} {paths.ROOT / 'tests' / 'support' / 'sloppy_player.py'}"


def _records(directory: Path) -> list[pgn.PgnGame]:
    return [pgn.parse(p.read_bytes()) for p in sorted(directory.glob("game-*.pgn"))]


@pytest.mark.parametrize(
    ("game", "players", "strictly"),
    [
        (
            "gothello",
            ["random", "search --depth 1", f"sloppy={SLOPPY} {{game}} {{host}} {{port}} {{side}} seat-twice"],
            True,
        ),
        ("awari", ["random", "search --depth 1", "search --depth 2"], False),
    ],
)
def test_a_checked_tournament_has_no_divergence(
    game: str, players: list[str], strictly: bool, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """With ``--strict`` too (Gothello): the sloppy player's warnings forfeit its
    games, which the referee's lines still match the model in."""
    argv = ["tournament", *players, "--game", game, "--games", "2", "--jobs", "2", "--check-protocol"]
    argv += ["--records", str(tmp_path / "records"), "--json", str(tmp_path / "r.json"), "--time", "60"]
    assert cli.main([*argv, *(["--strict"] if strictly else [])]) == 0
    out = capsys.readouterr().out
    assert "protocol: 6 games checked against spec/protocol.py, 0 divergences" in out
    games = _records(tmp_path / "records")
    assert len(games) == 6 and all(g.tag(protocheck.TAG) == protocheck.OK for g in games)
    kinds = {f["kind"] for f in json.loads((tmp_path / "r.json").read_text())["failures"]}
    assert protocheck.KIND not in kinds and (("protocol warning" in kinds) == strictly)


def _swap_the_clocks(monkeypatch: pytest.MonkeyPatch) -> None:
    """A server bug: a player's 101 says its clock and its opponent's the wrong way round."""
    seated = P.Seated.to_line

    def swapped(self: P.Seated, v: P.Vocabulary) -> str:
        flipped = self.times if self.times is None or self.observer else (self.times[1], self.times[0])
        return seated(P.Seated(flipped, self.observer), v)

    monkeypatch.setattr(P.Seated, "to_line", swapped)


def test_a_server_bug_is_tagged_listed_and_fails_the_match_and_the_results_stand(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _swap_the_clocks(monkeypatch)
    records = tmp_path / "records"
    argv = ["match", "search --depth 1", "random", "--game", "gothello", "--games", "2", "--time", "60", "30"]
    argv += ["--records", str(records), "--json", str(tmp_path / "r.json"), "-q", "--check-protocol"]
    assert cli.main(argv) == 1
    out = capsys.readouterr().out
    assert "protocol: 2 games checked against spec/protocol.py, 2 divergences" in out
    games = _records(records)
    for number, g in enumerate(games, 1):
        found = g.tag(protocheck.TAG)
        # whichever program seated first: its 101 with the clocks the wrong way round
        assert "'101 30 60 " in found and "'101 60 30 " in found and "the model allowed" in found, found
        assert f"game {number}: {found}" in out
        assert g.tag("Termination") == "move"  # played out on the board: the result stands
    failures = json.loads((tmp_path / "r.json").read_text())["failures"]
    assert [(f["game"], f["player"], f["kind"]) for f in failures] == [
        (1, protocheck.CULPRIT, protocheck.KIND),
        (2, protocheck.CULPRIT, protocheck.KIND),
    ]
    # Resumed from its records, the run still knows (and still exits 1).
    assert cli.main(argv) == 1
    assert "2 divergences" in capsys.readouterr().out


def test_without_the_flag_nothing_is_checked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _swap_the_clocks(monkeypatch)
    argv = ["match", "search --depth 1", "random", "--game", "gothello", "--games", "1", "--time", "60", "30"]
    assert cli.main([*argv, "--records", str(tmp_path / "records"), "-q"]) == 0
    assert "protocol:" not in capsys.readouterr().out
    assert not any(g.tag(protocheck.TAG) for g in _records(tmp_path / "records"))


def test_a_run_resumed_with_the_check_counts_the_unchecked_games_apart(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["match", "search --depth 1", "random", "--game", "awari", "--time", "60"]
    argv += ["--records", str(tmp_path / "records"), "-q"]
    assert cli.main([*argv, "--games", "1"]) == 0
    assert cli.main([*argv, "--games", "2", "--check-protocol"]) == 0
    assert "protocol: 1 of 2 games checked against spec/protocol.py, 0 divergences" in capsys.readouterr().out
    first, second = _records(tmp_path / "records")
    assert first.tag(protocheck.TAG) == "" and second.tag(protocheck.TAG) == protocheck.OK
