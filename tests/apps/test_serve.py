"""``referee serve`` as users run it: a real process, its JSON log lines and its
game records; argument handling, engine fallback and the subcommand registry."""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from impl import cli, pgn
from impl.apps import serve as serve_cli
from impl.config import ConfigMessages
from impl.engines.registry import get_engine
from impl.server import loops
from tests.support.netclient import available_kinds, play_moves, run, seat_players


def _parse(*argv: str) -> argparse.Namespace:
    return cli.build_parser().parse_args(["serve", *argv])


def _serve_process(*argv: str) -> tuple[subprocess.Popen[str], dict[str, Any]]:
    """``referee serve ARGV`` on a free port of 127.0.0.1, and its first log line
    (the ``listen`` event, which names the port)."""
    command = [sys.executable, "-m", "impl.cli", "serve", *argv, "--port", "0", "--host", "127.0.0.1"]
    proc = subprocess.Popen(command, stderr=subprocess.PIPE, text=True)
    assert proc.stderr is not None
    return proc, json.loads(proc.stderr.readline())


@pytest.mark.parametrize("loop", ["asyncio", "uvloop"])
@pytest.mark.parametrize("kind", available_kinds())
def test_one_game_process_with_log_and_record(tmp_path: Path, kind: str, loop: str) -> None:
    """A one-game server process: it announces its port and its event loop in a JSON
    log line, plays a game, writes the record, and exits 0; alike on either loop."""
    argv = ("gothello", "--engine", kind, "--record", str(tmp_path), "--log-level", "debug", "--loop", loop)
    proc, listen = _serve_process(*argv)
    try:
        assert proc.stderr is not None
        assert listen["event"] == "listen" and listen["game"] == "gothello" and listen["loop"] == loop

        async def scenario() -> None:
            players = await seat_players(listen["port"], "gothello", ("ann", ""))
            await play_moves(players, ["c3", "pass", "pass"])

        run(scenario)
        assert proc.wait(timeout=20) == 0
        events = [json.loads(line) for line in proc.stderr.read().splitlines()]
    finally:
        proc.kill()
    names = [e["event"] for e in events]
    for name in ("connect", "seat", "start", "move", "end", "record"):
        assert name in names
    end = events[names.index("end")]
    assert end["result"] == "black wins" and end["termination"] == "move" and end["plies"] == 3
    (record,) = tmp_path.iterdir()
    assert record.suffix == ".pgn"
    game = pgn.parse(record.read_text())
    assert game.moves == ["c3", "pass", "pass"]
    fields = dict(game.tags)
    assert fields["Game"] == "gothello" and fields["Engine"] == kind
    assert fields["Black"] == "ann" and fields["White"] == ""
    assert fields["Result"] == game.result == "0-1" and fields["Termination"] == "move"  # Black won (PGN)
    assert fields["Score"] == "black 1 white 0" and fields["PlyCount"] == "3" and fields["TimeControl"] == "-"


@pytest.mark.parametrize("loop", ["asyncio", "uvloop"])
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP], ids=["SIGINT", "SIGTERM", "SIGHUP"])
def test_a_signal_aborts_the_game_in_progress_with_399_and_keeps_its_record(
    tmp_path: Path, signum: signal.Signals, loop: str
) -> None:
    """Ctrl-C, a kill or a hang-up (a closed terminal) mid-game: every connection gets 399 and is closed, the game
    is recorded as aborted (termination shutdown) with its moves, and the process
    exits with 128 + the signal number; alike on either loop."""
    proc, listen = _serve_process("gothello", "--record", str(tmp_path), "--forever", "--loop", loop)
    try:
        assert proc.stderr is not None

        async def scenario() -> list[list[str]]:
            players = await seat_players(listen["port"], "gothello")
            await play_moves(players, ["c3"])
            proc.send_signal(signum)
            return [await p.rest() for p in players]

        for lines in run(scenario):
            assert lines == ["399 Unknown problem: the server is shutting down, game aborted"]
        assert proc.wait(timeout=20) == 128 + signum
        events = [json.loads(line) for line in proc.stderr.read().splitlines()]
    finally:
        proc.kill()
    stopping = next(e for e in events if e["event"] == "stopping")
    assert stopping["signal"] == signum.name
    end = next(e for e in events if e["event"] == "end")
    assert end["result"] == "aborted" and end["termination"] == "shutdown" and end["plies"] == 1
    (record,) = tmp_path.iterdir()
    game = pgn.parse(record.read_text())
    assert game.result == "*" and game.tag("Termination") == "shutdown"
    assert game.moves == ["c3"]


def test_a_signal_between_games_stops_the_server_cleanly() -> None:
    """With nobody playing, SIGTERM stops a --forever server at once, no record."""
    proc, listen = _serve_process("awari", "--forever")
    try:
        assert listen["event"] == "listen" and listen["game"] == "awari"
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=20) == 128 + signal.SIGTERM
    finally:
        proc.kill()


def test_build_servers_ports_numbers_and_defaults() -> None:
    servers = serve_cli.build_servers(_parse("all", "--server", "0", "3", "--engine", "spec"))
    found = [(s.settings.vocab.game, s.settings.server, s.settings.config_messages) for s in servers]
    assert found == [
        ("awari", 0, ConfigMessages.ALL),
        ("awari", 3, ConfigMessages.ALL),
        ("gothello", 0, ConfigMessages.OBSERVERS),
        ("gothello", 3, ConfigMessages.OBSERVERS),
    ]
    assert {s.spec.port for s in servers} == {None}
    assert not any(s.spec.forever for s in servers)


def test_build_servers_time_and_options(tmp_path: Path) -> None:
    (one,) = serve_cli.build_servers(
        _parse("awari", "--time", "30", "--forever", "--config-messages", "none", "--record", str(tmp_path))
    )
    assert one.settings.time == (30.0, 30.0) and one.spec.forever
    assert one.settings.config_messages is ConfigMessages.NONE and one.spec.record_dir == tmp_path
    (two,) = serve_cli.build_servers(_parse("gothello", "--time", "30", "20"))
    assert two.settings.time == (30.0, 20.0)


@pytest.mark.parametrize(
    "argv",
    [
        ["all", "--port", "0"],
        ["gothello", "--server", "1", "2", "--port", "0"],
        ["gothello", "--time", "1", "2", "3"],
    ],
)
def test_bad_arguments_exit_with_a_message(argv: list[str]) -> None:
    """Errors found once the arguments are parsed; those found while parsing (a
    zero time, a negative server number) are in tests/test_usage.py."""
    with pytest.raises(SystemExit, match="referee serve"):
        serve_cli.build_servers(_parse(*argv))


def test_engine_fallback_and_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the fast engines: the default falls back to spec (logged); asking
    for impl explicitly is an error that says what to do."""

    def no_impl(game: str, kind: str = "impl", rules: str = "paper") -> Any:
        if kind == "impl":
            raise ModuleNotFoundError("No module named 'impl.engines.gothello'")
        return get_engine(game, kind, rules)

    monkeypatch.setattr(serve_cli, "get_engine", no_impl)
    assert serve_cli.load_engine("gothello", None).kind == "spec"
    with pytest.raises(SystemExit, match="try --engine spec"):
        serve_cli.load_engine("gothello", "impl")


def test_uvloop_asked_for_and_missing_is_one_line(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    """``--loop uvloop`` where uvloop is not installed: one line naming the extra, status 2;
    ``auto`` then falls back to asyncio's loop."""
    monkeypatch.setattr(loops, "has_uvloop", lambda: False)
    assert cli.main(["serve", "gothello", "--loop", "uvloop", "--port", "0"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["referee serve: --loop uvloop: uvloop is not installed (pip install 'zreferee[fast]')"]
    assert loops.loop_name("auto") == "asyncio"


def test_port_in_use_is_reported() -> None:
    async def scenario() -> int:
        server = await asyncio.start_server(lambda r, w: None, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        try:
            return await asyncio.to_thread(
                cli.main, ["serve", "gothello", "--port", str(port), "--host", "127.0.0.1", "--quiet"]
            )
        finally:
            server.close()

    assert run(scenario) == 1


def add_command(subparsers: Any) -> None:
    """A subcommand registered from another module, as ``play`` or ``match`` will be."""
    parser = subparsers.add_parser("hello")
    parser.add_argument("--times", type=int, default=1)
    parser.set_defaults(run=lambda args: 40 + args.times)


def test_other_modules_register_subcommands() -> None:
    parser = cli.build_parser([*cli.COMMAND_MODULES, __name__])
    args = parser.parse_args(["hello", "--times", "2"])
    assert args.run(args) == 42
    assert parser.parse_args(["serve", "awari"]).command == "serve"


def test_serve_says_where_it_listens_for_a_person() -> None:
    """stdout: one line a server (its address, and how to play on it), one for the web
    view; the JSON log on stderr is unchanged."""
    command = [sys.executable, "-m", "impl.cli", "serve", "gothello", "--port", "0", "--host", "127.0.0.1"]
    command += ["--web", "0"]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    assert proc.stdout is not None
    try:
        server, web = (proc.stdout.readline().rstrip("\n") for _ in range(2))
    finally:
        proc.terminate()
        proc.wait(timeout=60)
    found = re.fullmatch(
        r"Gothello server 0 listens on 127\.0\.0\.1:(\d+)"
        r" — play: referee client gothello --host 127\.0\.0\.1 --port (\d+)",
        server,
    )
    assert found is not None and found[1] == found[2], server
    assert re.fullmatch(r"Web view: http://127\.0\.0\.1:\d+/", web), web


def test_a_port_in_use_is_one_plain_line_naming_the_server_and_the_way_out() -> None:
    """Issue #53: it was only a JSON log line, naming neither the server nor --server/--port."""
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run(
            [sys.executable, "-m", "impl.cli", "serve", "gothello", "--host", "127.0.0.1", "--port", str(port)],
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert done.returncode == 1
    plain = [line for line in done.stderr.splitlines() if not line.startswith("{")]
    assert plain == [
        f"referee serve: the gothello server 0 cannot listen on 127.0.0.1 port {port}: the port is in use "
        "(another referee?); choose another with --server N (port 29068+N) or --port PORT"
    ]


def test_a_listening_server_process_freezes_its_heap_and_collects_on_the_loops_clock() -> None:
    """``loops.settle_heap`` (referee serve once it listens, the arena once it starts):
    what exists is frozen out of the collector's passes, and collections come from the
    loop's timer, not from counts of allocations: young cycles made after it are freed
    within a few of its periods (a fresh interpreter, so the test run's own gc is untouched)."""
    code = """
import asyncio, gc, weakref
from impl.server import loops

class Node:
    pass

async def main():
    loops.settle_heap()
    assert gc.get_freeze_count() > 0 and not gc.isenabled()
    refs = []
    for _ in range(100):
        a, b = Node(), Node()
        a.other, b.other = b, a
        refs.append(weakref.ref(a))
    del a, b
    await asyncio.sleep(loops.YOUNG_EVERY * 10)
    print(sum(1 for r in refs if r() is not None))

asyncio.run(main())
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert done.stdout.split() == ["0"]
