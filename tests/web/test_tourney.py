"""``referee tournament … --web PORT`` and ``referee match … --web PORT``
(impl/web/tourney.py): the live standings at ``/api/tournament`` equal the
tournament's own summary; over real processes and sockets, a game is listed with
its live board while it runs, progress advances, finished games link their
records, which open; with worker processes the view says that live boards need
``--workers 0``; a view whose loop is held never holds a game up; a port in use
is one line and status 2.

The games are held deterministically: one player (tests/support/gated_player.py) moves
only once the test creates its game's ``go-N`` file."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import pytest

from tests.support.live import gated_player, gates_at, live_view, viewed_run

pytest.importorskip("aiohttp")
pytest.importorskip("distributed")
pytest.importorskip("openskill")

from impl import pgn
from impl.apps import sprt
from impl.apps.games import play_game
from impl.apps.terms import MatchOptions, PlayerSpec
from impl.apps.tournament import GameResult, TournamentConfig, as_json, schedule, state_json, summarise
from impl.web.feed import ServerInfo
from impl.web.tourney import VIEWS, TournamentView, hooks

HANG_GUARD = 120.0
"""Seconds before a scenario that hangs is failed (a guard, not a bound)."""


def _result(number: int, players: tuple[int, int], score: float | None) -> GameResult:
    record = "" if score is None else f"[Number {number}]"
    return GameResult(number, f"1.{number}", players, score, "move" if score is not None else "no result", "", record)


@pytest.mark.parametrize("players", [2, 3])
def test_the_state_is_the_summary_with_progress_and_records(players: int) -> None:
    """The standings, crosstable, ratings and SPRT are as_json's of the summary;
    progress counts the games played and lists those running; each game with a
    record links it."""
    config = TournamentConfig(tuple(f"p{i}" for i in range(players)), "awari", 6)
    tasks = schedule(config)
    results = [_result(1, tasks[0].players, 1.0), _result(2, tasks[1].players, 0.5), _result(3, tasks[2].players, None)]
    hypotheses = sprt.Hypotheses(0, 50) if players == 2 else None
    state = state_json(config, results, len(tasks), [tasks[4], tasks[3]], hypotheses)
    summary = summarise(config, results, len(tasks), hypotheses=hypotheses)
    expected = as_json(config, summary, results)
    for key in ("standings", "crosstable", "endings", "failures", "played", "total"):
        assert state[key] == expected[key]
    assert ("elo" in state) == (players == 2) and ("sprt" in state) == (players == 2)
    if players == 2:
        assert state["elo"] == expected["elo"]
        assert summary.sprt is not None and state["sprt"]["line"] == summary.sprt.line()
    else:
        assert all("mu" in p and "margin" in p for p in state["standings"])
    assert state["progress"]["played"] == 3 and state["progress"]["total"] == len(tasks)
    assert [r["number"] for r in state["progress"]["running"]] == [4, 5]
    assert [g["record"] for g in state["games"]] == ["game-0001.pgn", "game-0002.pgn", None]


def _get(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return int(response.status), bytes(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()


def _api(base: str) -> dict[str, Any]:
    status, body = _get(base + "api/tournament")
    assert status == 200
    data: dict[str, Any] = json.loads(body)
    return data


def _until(base: str, check: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    deadline = time.monotonic() + HANG_GUARD
    while time.monotonic() < deadline:
        data = _api(base)
        # The view's process may answer before the runner's first snapshot reached it: no "progress" yet.
        if data and "progress" in data and check(data):
            return data
        time.sleep(0.05)
    pytest.fail(f"the view never got there: {_api(base)}")


@pytest.mark.parametrize("command", ["match", "tournament"])
def test_the_view_shows_the_games_live_then_finished(command: str, tmp_path: Path) -> None:
    """Two games, one at a time, one player held before each move: while game 1
    runs it is listed with a live board and nothing is played; once it is
    released, progress advances, the standings count it, its record is listed and
    opens, and game 2 is the one running."""
    gates = gates_at(tmp_path)
    gated = gated_player("gated", gates)
    records = tmp_path / "records"
    argv = viewed_run(command, gated, "random --seed 2", "--game", "awari", "--games", "2", "--jobs", "1",
                   records=records, gates=gates, quiet=command == "tournament")  # fmt: skip
    host = "127.0.0.2" if command == "match" else "127.0.0.1"  # --web-host, else its default
    argv += ["--web-host", host] if command == "match" else []
    with live_view(argv, HANG_GUARD) as (proc, base, line):
        assert base.startswith(f"http://{host}:") and "live boards need" not in line
        first = _until(base, lambda d: bool(d["progress"]["running"]) and d["progress"]["running"][0]["id"])
        assert first["live"] is True and first["progress"]["played"] == 0 and first["progress"]["total"] == 2
        [running] = first["progress"]["running"]
        assert (running["number"], running["first"], running["second"]) == (1, "gated", "random --seed 2")
        status, body = _get(base + f"api/games/{running['id']}")
        game = json.loads(body)
        assert status == 200 and game["live"] and game["board"]["game"] == "awari" and "gated" in game["names"]
        status, page = _get(base)
        assert status == 200 and b'data-page="tournament"' in page

        (gates / "go-1").touch()
        second = _until(base, lambda d: d["progress"]["played"] == 1 and bool(d["progress"]["running"]))
        assert second["progress"]["running"][0]["number"] == 2
        assert sum(p["games"] for p in second["standings"]) == 2  # one game, each player once
        [done] = second["games"]
        assert done["number"] == 1 and done["record"] == "game-0001.pgn"
        status, body = _get(base + "api/records/game-0001.pgn")
        record = json.loads(body)
        assert status == 200 and len(record["frames"]) > 1
        assert _get(base + "record/game-0001.pgn")[0] == 200
        (gates / "go-2").touch()
    assert proc.returncode == 0
    assert sorted(p.name for p in records.glob("game-*.pgn")) == ["game-0001.pgn", "game-0002.pgn"]


def test_a_port_in_use_is_one_line_and_status_2(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        argv = [sys.executable, "-m", "impl.cli", "match", "random", "random", "--game", "awari", "--web", str(port)]
        done = subprocess.run([*argv, "--records", str(tmp_path / "r")], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and done.stdout.count("\n") <= 6  # the players' A = / B = lines and the settings only
    assert done.stderr.count("\n") == 1 and f"cannot listen on 127.0.0.1 port {port}" in done.stderr


def test_with_worker_processes_the_view_says_live_boards_need_workers_0(tmp_path: Path) -> None:
    """A game on a Dask worker process is listed as running, without a board, and
    the view (its start line and its JSON) says why."""
    gates = gates_at(tmp_path)
    gated = gated_player("gated", gates)
    argv = viewed_run("tournament", gated, "random --seed 2", "--game", "awari", "--games", "1", "--workers", "1",
                   "--jobs", "1", records=tmp_path / "r", gates=gates)  # fmt: skip
    with live_view(argv, HANG_GUARD) as (proc, base, line):
        assert line.rstrip().endswith("(live boards need --workers 0)")
        state = _until(base, lambda d: bool(d["progress"]["running"]) and (gates / "seat-1").exists())
        assert state["live"] is False and state["progress"]["running"][0]["id"] is None
        (gates / "go-1").touch()
    assert proc.returncode == 0


def test_a_stalled_view_never_holds_a_game_up(tmp_path: Path) -> None:
    """The view's loop held (a blocked callback) while a whole game is played
    with its live hook: the game ends all the same, its events waiting for the
    view; once released, the view has the game, finished, as the record says."""
    view = TournamentView("127.0.0.1", 0, tmp_path, live=True)
    view.open()
    try:
        held, release = threading.Event(), threading.Event()

        def block() -> None:
            held.set()
            release.wait()

        view.call(block)
        assert held.wait(HANG_GUARD)
        specs = (PlayerSpec.parse("random --seed 1"), PlayerSpec.parse("random --seed 2"))
        outcome = play_game(specs, 5, MatchOptions("awari", 1, live=view.token), 0)
        assert outcome.result is not None and not view.hub.games  # played; the view has seen nothing yet
        release.set()
        game_json = _from_view(view, lambda: view.hub.game_json(view.hub.games["awari-5-1"], 0.0))
        assert game_json["result"] is not None and game_json["server_no"] == 5
        assert [m["move"] for m in game_json["moves"]] == pgn.parse(outcome.record).moves
    finally:
        release.set()
        view.close()


def _from_view(view: TournamentView, read: Callable[[], Any]) -> Any:
    """``read()`` on the view's loop, once everything handed to it before has run."""
    done: Future[Any] = Future()

    def run() -> None:
        try:
            done.set_result(read())
        except Exception as exc:
            done.set_exception(exc)

    view.call(run)
    return done.result(HANG_GUARD)


def test_hooks_are_given_only_in_the_views_process(tmp_path: Path) -> None:
    view = TournamentView("127.0.0.1", 0, tmp_path, live=True)
    VIEWS[view.token] = view
    try:
        assert len(hooks(view.token, 1)) == 1 and hooks("another", 1) == ()
        view.pid = -1  # as in a worker forked from this process
        assert hooks(view.token, 1) == ()
    finally:
        del VIEWS[view.token]


def test_the_servers_of_games_no_longer_kept_are_forgotten(tmp_path: Path) -> None:
    view = TournamentView("127.0.0.1", 0, tmp_path, live=True)
    many = 4 * view.hub.limits.keep_finished + 1
    for n in range(1, many + 1):
        view._games[f"awari-{n}"] = ServerInfo(
            f"awari-{n}", "awari", "Awari", n, "", 0, "impl", None, False, ("a", "b")
        )
    view.hub.live["awari-7"] = "awari-7-1"
    assert [i.key for i in view._describe()] == ["awari-7"]
