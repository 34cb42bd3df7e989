"""The computer players (impl/players/): random and search games played out over
our real server, each player on its own connection and thread; the search itself
on positions with a known best move; the time budget from the server's clock."""

from __future__ import annotations

import itertools
import subprocess
import sys
import threading
import types

import pytest

from impl.client import Result
from impl.engines.awari import ImplAwari
from impl.engines.registry import get_engine
from impl.game import Side, Termination
from impl.players import Player, RandomPlayer, SearchPlayer, play
from impl.players import search as search_module
from impl.players.base import move_budget
from impl.players.search import WIN, final_value
from spec import awari as A
from tests.support.clientkit import TIMEOUT, connect, players, server

GAMES = ("awari", "gothello")


def match(game: str, first: Player, second: Player, **options: object) -> tuple[Result, Result]:
    """One game between two players, each in its own thread; both results."""
    results: dict[int, Result] = {}
    with server(game, **options) as local:
        clients = players(game, local.port)

        def run(side: int, player: Player) -> None:
            results[side] = play(clients[side], player)

        threads = [threading.Thread(target=run, args=(s, p)) for s, p in enumerate((first, second))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
    assert set(results) == {0, 1}, "a player did not finish"
    return results[0], results[1]


@pytest.mark.parametrize("game", GAMES)
def test_random_against_random(game: str) -> None:
    a, b = match(game, RandomPlayer(1), RandomPlayer(2))
    assert a == b and a.termination == "move"


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("search_side", [0, 1])
def test_search_beats_random(game: str, search_side: int) -> None:
    search = SearchPlayer(budget=10.0, max_depth=3)  # depth-bound, not time-bound: the same game every run
    chosen: list[Player] = [RandomPlayer(search_side), RandomPlayer(search_side)]
    chosen[search_side] = search
    a, b = match(game, chosen[0], chosen[1])
    assert a == b == Result(Side(search_side), Termination.MOVE)
    assert search.searches and all(info.depth >= 1 for info in search.searches)
    assert "summary: moves=" in search.summary()


def test_search_takes_a_winning_capture_in_awari() -> None:
    """South's F (2 stones) sows a and b up to 3 and 2 and captures both, reaching 25."""
    engine = ImplAwari()
    game = A.AwariGame(
        board=(2, 1, 3, 0, 0, 0, 0, 0, 3, 0, 1, 2), score=(17, 20), to_move=A.PLAYER.south, positions=frozenset()
    )
    token, info = SearchPlayer().think("awari", engine.from_spec(game), 0.5)
    assert token == "F" and info.solved and info.value > WIN


def test_search_passes_to_win_a_won_gothello() -> None:
    """White passed; black, ahead on the board, ends the game by passing too."""
    engine = get_engine("gothello")
    state = engine.initial()
    for token in ("c3", "pass"):
        state = engine.apply(state, engine.parse_move(token))[1]
    token, info = SearchPlayer().think("gothello", state, 0.5)
    assert token == "pass" and info.value == final_value(1) and info.depth == 1


def test_search_keeps_its_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """On a clock that advances 1 ms at each reading (no wall clock: a timed test is a
    flaky one), the search stops within one reading of its budget, deep enough."""
    readings = itertools.count()
    monkeypatch.setattr(search_module, "time", types.SimpleNamespace(monotonic=lambda: next(readings) / 1000))
    engine = get_engine("awari")
    _, info = SearchPlayer().think("awari", engine.initial(), 0.2)
    assert info.seconds <= 0.2 + 0.002 and info.depth >= 3 and info.nodes_per_second > 0


def test_budget_from_the_clock() -> None:
    with server("awari", time=(100.0, 3.0)) as local:
        south, north = players("awari", local.port)
        assert move_budget(south, 60.0) == pytest.approx(5.0, abs=0.1)  # 100 s / 20
        assert move_budget(south, 1.0) == 1.0  # at most the default
        assert move_budget(north, 60.0) == pytest.approx(0.15, abs=0.05)
    with server("gothello") as local:
        black, _ = players("gothello", local.port)
        assert move_budget(black, 0.7) == 0.7  # no clock: the default


def test_referee_player_command() -> None:
    """``referee player random`` in its own process, against a search player here."""
    with server("gothello") as local:
        command = [sys.executable, "-m", "impl.cli", "player", "random", "gothello", "--port", str(local.port)]
        command += ["--side", "white", "--seed", "7"]
        proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        client = connect("gothello", local.port)
        client.seat("black")
        result = play(client, SearchPlayer(budget=10.0, max_depth=3))
        out, err = proc.communicate(timeout=TIMEOUT)
    assert proc.returncode == 0, err
    assert result == Result(Side.FIRST, Termination.MOVE)
    assert out.startswith("random played white: black wins on the board") and out.rstrip().endswith("lost")


def test_search_player_answers_a_draw_offer() -> None:
    with server("awari") as local:
        south, north = players("awari", local.port)
        south.offer_draw()
        north.wait()
        accept = SearchPlayer(budget=0.05).accept_draw(north)  # level at the start: refused
        north.answer_draw(accept)
        assert not accept and north.result is None and north.offer_refused


def test_referee_player_gives_up_on_a_silent_server_in_one_line() -> None:
    """A server that greets and then says nothing (not even the answer to the seat
    request): ``referee player`` stops after its --timeout, one line, status 1."""
    import socket

    listener = socket.create_server(("127.0.0.1", 0))
    held: list[socket.socket] = []

    def greet_then_nothing() -> None:
        conn, _ = listener.accept()
        conn.sendall(b"000 0.9.1 version Awari server says hello!\r\n")
        held.append(conn)

    thread = threading.Thread(target=greet_then_nothing, daemon=True)
    thread.start()
    port = str(listener.getsockname()[1])
    argv = [sys.executable, "-m", "impl.cli", "player", "random", "awari", "--port", port, "--timeout", "0.5"]
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=120, check=False)
    finally:
        listener.close()
        for conn in held:
            conn.close()
    assert done.returncode == 1 and done.stdout == ""
    [line] = done.stderr.splitlines()
    assert "no response from the server within 0.5 s" in line
