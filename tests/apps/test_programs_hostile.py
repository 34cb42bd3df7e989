"""Player programs that misbehave cannot change a result (issue #28): a program
that takes its opponent's seat loses by forfeit (impl/apps/seats.py, impl/apps/match.py); a
program's children end with its game and its output is kept bounded; the
embedded Dask cluster listens on loopback only; a tournament's files are written
atomically, read back exactly (labels round-trip) and refused with one line when
they are another run's or unreadable."""

from __future__ import annotations

import errno
import importlib
import json
import os
import secrets
import shlex
import socket
import subprocess
import sys
import threading
import time
import uuid
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from impl import atomic, cli, pgn, tasks
from impl.apps import cgroups, launch, sandbox, seats, tournament
from impl.apps.games import play_game
from impl.apps.terms import MatchOptions, PlayerSpec
from tests.support import paths

PYTHON = shlex.quote(sys.executable)
psutil: Any = importlib.import_module("psutil")  # with distributed; untyped

# Seats the opponent's side first, then its own (so that, launched first, it has
# stolen before the weaker order-based check launches the opponent), tells the
# opponent it may start (a file named after the port), and resigns the stolen side.
THIEF = r"""
import os, socket, sys
env = os.environ
sides = {"awari": ("south", "north"), "gothello": ("black", "white")}[env["REFEREE_GAME"]]
mine = env["REFEREE_SIDE"]
other = sides[1 - sides.index(mine)]
files = {}
for side in (other, mine):
    conn = socket.create_connection((env["REFEREE_HOST"], int(env["REFEREE_PORT"])))
    files[side] = conn.makefile("rw", newline="")
    files[side].readline()  # the greeting
    files[side].write(f"0.9.1 player {side}\r\n")
    files[side].flush()
    got = files[side].readline()
    assert got.startswith("10"), ("not seated", side, name, got)
open(os.path.join(sys.argv[1], "go-" + env["REFEREE_PORT"]), "w").close()
for side in (other, mine):
    while not files[side].readline().startswith("35"):  # the role: the game has begun
        pass
files[other].write("resign\r\n")
files[other].flush()
for line in files[mine]:
    pass
"""

# Waits for the thief's file, then plays (and is refused a seat: both are taken).
VICTIM = (
    "sh -c 'while [ ! -e {dir}/go-$REFEREE_PORT ]; do sleep 0.05; done; "
    f'exec {PYTHON} -m impl.cli player random "$REFEREE_GAME" --port "$REFEREE_PORT" --side "$REFEREE_SIDE"\''
)


def _thief(directory: Path) -> str:
    script = directory / "thief.py"
    script.write_text(THIEF)
    return f"{PYTHON} {shlex.quote(str(script))} {shlex.quote(str(directory))}"


def _victim(directory: Path) -> str:
    directory.chmod(0o777)  # the thief's signal: written and read as nobody when the tests run as root
    return VICTIM.replace("{dir}", shlex.quote(str(directory)))


def _shared(directory: Path) -> MatchOptions:
    """A game whose programs may write ``directory`` (the thief's signal to the victim)."""
    box = sandbox.choose("auto")
    return MatchOptions("gothello", 1, timeout=60, sandbox=replace(box, shared=(str(directory),)))


def _run(*argv: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(paths.ROOT)}
    command = [sys.executable, "-m", "impl.cli", *argv]
    return subprocess.run(command, capture_output=True, text=True, timeout=timeout, env=env)


# ─── seat theft ────────────────────────────────────────────────────────────────


@pytest.mark.parametrize("host", ["127.0.0.1", "::1"])
def test_a_connection_is_mapped_to_the_process_group_holding_it(host: str) -> None:
    """The client end of a real loopback connection is this process's (its group's),
    not another group's; the server's own end is not mistaken for it."""
    if not seats.available():
        pytest.skip("no /proc")
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        server = socket.socket(family)
        server.bind((host, 0))
    except OSError:
        pytest.skip(f"no {host}")
    with server:
        server.listen()
        port = server.getsockname()[1]
        with socket.create_connection((host, port)) as client, server.accept()[0]:
            address = "{}:{}".format(*client.getsockname()[:2])
            mine = seats.split_address(address)
            assert mine is not None
            assert seats.holders(mine, port, {0: 1, 1: os.getpgrp()}) == {1}
            assert seats.holders(mine, port, {0: 1}) == frozenset()
            assert seats.holders(mine, port + 1, {1: os.getpgrp()}) == frozenset()  # another server's


def test_a_program_that_takes_both_seats_loses_both_games_of_a_match(tmp_path: Path) -> None:
    """As first mover and as second, the thief seats both sides and resigns the
    stolen one: the server says it won; the match scores it a forfeit, by name."""
    records = tmp_path / "records"
    share = ("--sandbox-share", str(tmp_path))
    done = _run(
        "match", _thief(tmp_path), _victim(tmp_path), "--game", "awari", "--records", str(records), "-q", *share
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "endings: seat theft 2" in done.stdout
    b_row = next(line for line in done.stdout.splitlines() if line.startswith("B ") and line[2] != "=")
    assert b_row[28:].split()[:5] == ["2", "2", "0", "0", "2"]  # the victim won both
    for number, stolen, loses in ((1, "north", "1-0"), (2, "south", "0-1")):
        record = pgn.parse((records / f"game-{number:04d}.pgn").read_text())
        assert record.tag("Termination") == "seat theft"
        assert record.result == pgn.result_token(record.game, record.outcome)
        assert record.tag("SeatTheft").startswith("A (") and record.tag("SeatTheft").endswith(f"took the {stolen} seat")
        assert record.result != loses  # the thief (A) lost: 0-1 when it moved first
        assert record.outcome.winner == (1 if number == 1 else 0)


# Issue #49: under --sandbox none, looks for its opponent's token where another process
# of the same user can read it (environment, command line, the inherited descriptor
# through /proc/PID/fd), writes what it found to a file, takes the opponent's seat with
# the token as its name, then its own, and resigns the stolen side.
TOKEN_THIEF = r"""
import json, os, socket, sys, time
env = os.environ
sides = {"awari": ("south", "north"), "gothello": ("black", "white")}[env["REFEREE_GAME"]]
mine, port = env["REFEREE_SIDE"], env["REFEREE_PORT"]
other = sides[1 - sides.index(mine)]
found = {"environment": False, "command line": False, "descriptor": False}
token, deadline = None, time.monotonic() + 10
while token is None and time.monotonic() < deadline:
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            pairs = [w.split(b"=", 1) for w in open(f"/proc/{pid}/environ", "rb").read().split(b"\0") if b"=" in w]
            cmdline = open(f"/proc/{pid}/cmdline", "rb").read()
        except OSError:
            continue
        seen = dict(pairs)
        if int(pid) == os.getpid() or seen.get(b"REFEREE_PORT") != port.encode():
            continue
        if seen.get(b"REFEREE_SIDE") != other.encode():
            continue
        found["environment"] |= any(b"TOKEN" in k and k != b"REFEREE_TOKEN_FD" for k in seen)
        found["command line"] |= b"{token}" not in cmdline and len(cmdline.split(b"\0")) > 12
        if b"REFEREE_TOKEN_FD" in seen:
            try:
                token = open(f"/proc/{pid}/fd/{seen[b'REFEREE_TOKEN_FD'].decode()}").readline().strip() or None
                found["descriptor"] = token is not None
            except OSError:  # a child of the shell, gone since
                pass
    time.sleep(0.02)
json.dump(found, open(os.path.join(sys.argv[1], "found-" + port), "w"))
files = {}
own = os.read(int(env["REFEREE_TOKEN_FD"]), 64).decode().strip()
for side, name in ((other, token or "thief"), (mine, own)):
    conn = socket.create_connection((env["REFEREE_HOST"], int(port)))
    files[side] = conn.makefile("rw", newline="")
    files[side].readline()  # the greeting
    files[side].write(f'0.9.1 player {side} "{name}"\r\n')
    files[side].flush()
    assert files[side].readline().startswith("10"), "not seated"
open(os.path.join(sys.argv[1], "go-" + port), "w").close()
for side in (other, mine):
    while not files[side].readline().startswith("35"):
        pass
files[other].write("resign\r\n")
files[other].flush()
for line in files[mine]:
    pass
"""


def test_without_a_sandbox_a_token_taken_from_the_opponent_proves_nothing(tmp_path: Path) -> None:
    """Issue #49: the token is in neither the opponent's environment nor its command
    line; one read through /proc/PID/fd and presented from the thief's own process
    tree is seat theft, named, and the game is the victim's."""
    if not seats.available():
        pytest.skip("no /proc or psutil: the weaker order-of-launches check is tested apart")
    script = tmp_path / "token_thief.py"
    script.write_text(TOKEN_THIEF)
    thief = f"{PYTHON} {shlex.quote(str(script))} {shlex.quote(str(tmp_path))}"
    specs = (PlayerSpec.parse(thief), PlayerSpec.parse(_victim(tmp_path)))
    outcome = play_game(specs, 1, MatchOptions("gothello", 1, timeout=60, sandbox=sandbox.NONE), 0)
    (report,) = tmp_path.glob("found-*")
    found = json.loads(report.read_text())
    assert not found["environment"] and not found["command line"], found
    assert outcome.result is not None and outcome.result.termination == "seat theft", outcome
    assert outcome.winner() == 1 and outcome.culprits == [0]
    assert outcome.theft.startswith("A (") and outcome.theft.endswith("took the white seat")


def test_without_proc_the_order_of_launches_catches_a_thief_that_moves_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The weaker check: the second program is launched once a seat is taken, and
    a seat taken before that is the first program's."""
    monkeypatch.setattr(seats, "available", lambda proc=seats.PROC: False)
    specs = (PlayerSpec.parse(_thief(tmp_path)), PlayerSpec.parse(_victim(tmp_path)))
    outcome = play_game(specs, 1, _shared(tmp_path), 0)
    assert outcome.result is not None and outcome.result.termination == "seat theft"
    assert outcome.winner() == 1 and outcome.culprits == [0] and not outcome.error
    assert outcome.theft.endswith("took the white seat")


def test_a_tournament_scores_a_seat_theft_against_the_thief_and_lists_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["tournament", f"honest={_victim(tmp_path)}", f"thief={_thief(tmp_path)}", "--game", "gothello"]
    argv += ["--games", "1", "--jobs", "1", "--records", str(tmp_path / "records"), "--json", str(tmp_path / "r.json")]
    argv += ["--sandbox-share", str(tmp_path)]
    assert cli.main([*argv, "--timeout", "60"]) == 0
    results = json.loads((tmp_path / "r.json").read_text())
    scores = {p["player"]: p["score"] for p in results["standings"]}
    assert scores == {"honest": 1, "thief": 0}
    assert [(f["player"], f["kind"]) for f in results["failures"]] == [("thief", "seat theft")]
    assert "took the black seat" in results["failures"][0]["detail"]
    assert "Failures: thief: seat theft ×1" in capsys.readouterr().out
    # Resumed, the recorded forfeit is kept as it was, still named.
    assert cli.main([*argv, "--timeout", "60", "-q"]) == 0
    assert json.loads((tmp_path / "r.json").read_text())["failures"] == results["failures"]


ESCAPEE = "sh -c " + shlex.quote(
    f'setsid -w {PYTHON} -m impl.cli player random "$REFEREE_GAME" --port "$REFEREE_PORT" --side "$REFEREE_SIDE"'
)
"""A program that hands its seat to a child in a session of its own (outside its group)."""


DETACHED = "sh -c " + shlex.quote(
    f'setsid -f {PYTHON} -m impl.cli player random "$REFEREE_GAME" --port "$REFEREE_PORT" --side "$REFEREE_SIDE"'
    "; sleep 5"
)
"""A program whose child leaves both its group and its tree (orphaned, adopted by init)."""


def test_without_a_sandbox_a_connection_of_no_launched_program_is_refused(tmp_path: Path) -> None:
    """Outside its group and its tree, without a PID namespace, the child is no
    different from a stranger: its connection is refused ("Not a program of this
    game"), the game has no result, and the program that sent it is blamed."""
    specs = (PlayerSpec.parse(DETACHED), PlayerSpec.parse("random"))
    options = MatchOptions("gothello", 1, timeout=60, sandbox=sandbox.NONE, logs=tmp_path)
    outcome = play_game(specs, 1, options, 0)
    assert outcome.result is None and outcome.culprits == [0], outcome
    refused = "".join(p.read_text(errors="replace") for p in tmp_path.glob("*-A-*.log"))
    assert "199 Not a program of this game" in refused, refused


def test_in_a_sandbox_a_child_in_a_session_of_its_own_plays_for_its_program(tmp_path: Path) -> None:
    """In a PID namespace the child stays in its program's tree: its seat is its own."""
    box = sandbox.choose("auto")
    if not box.isolates:
        pytest.skip("no sandbox works here")
    specs = (PlayerSpec.parse(ESCAPEE), PlayerSpec.parse("random"))
    outcome = play_game(specs, 1, MatchOptions("gothello", 1, timeout=60, sandbox=box), 0)
    assert outcome.result is not None and not outcome.error and not outcome.theft, outcome


# ─── program processes ─────────────────────────────────────────────────────────


SPAWNER = """
import os, subprocess, sys
subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)", sys.argv[1]], start_new_session=True)
env = os.environ
argv = ["-m", "impl.cli", "player", "random", env["REFEREE_GAME"]]
argv += ["--port", env["REFEREE_PORT"], "--side", env["REFEREE_SIDE"]]
os.execv(sys.executable, [sys.executable, *argv])
"""


def _gone(pid: int) -> bool:
    try:
        return bool(psutil.Process(pid).status() == psutil.STATUS_ZOMBIE)  # dead, waiting for its reaper
    except psutil.NoSuchProcess:
        return True


def marked(marker: str) -> list[int]:
    """The live processes whose command line holds ``marker``."""
    found = []
    for process in psutil.process_iter(["cmdline"]):
        if marker in (process.info["cmdline"] or ()) and not _gone(process.pid):
            found.append(process.pid)
    return found


def until_none_marked(marker: str, tries: int = 500) -> list[int]:
    """Those processes, once none is left or after ``tries`` looks (SIGKILL's delivery
    is the kernel's to schedule): what is left."""
    for _ in range(tries):
        if not marked(marker):
            return []
        time.sleep(0.02)
    return marked(marker)


@pytest.mark.parametrize("kind", ["auto", "none"])
def test_a_programs_children_end_with_its_game(tmp_path: Path, kind: str) -> None:
    """The program starts a child in a session of its own that would sleep for 10
    minutes, then plays: in a sandbox, or in the program's cgroup, the child is gone
    once the game has been played; with neither (its own session: outside the
    program's group) it is not ended by the game — the limit docs/tournaments.md
    names — and is ended here."""
    script = tmp_path / "spawner.py"
    script.write_text(SPAWNER)
    marker = f"marker-{uuid.uuid4().hex}-{kind}"  # unique across xdist workers (tmp_path names are not)
    spawner = f"{PYTHON} {shlex.quote(str(script))} {marker}"
    options = MatchOptions("gothello", 1, sandbox=sandbox.choose(kind))
    outcome = play_game((PlayerSpec.parse(spawner), PlayerSpec.parse("random")), 1, options, 0)
    assert outcome.result is not None and not outcome.error
    left = until_none_marked(marker)
    for pid in left:
        psutil.Process(pid).kill()
    limited = cgroups.TaskLimit.make(f"zreferee-probe-{os.getpid()}")
    if limited is not None:
        limited.remove()
    if (options.sandbox is not None and options.sandbox.isolates) or limited is not None:
        assert left == []  # its PID namespace, or its cgroup, ended it
    else:
        assert len(left) == 1, left


def test_programs_still_running_are_ended_when_the_runner_exits(tmp_path: Path) -> None:
    """Their own session keeps Ctrl-C from them: the runner ends their groups as it exits."""
    runner = (
        "import sys\nfrom impl.apps import launch\n"
        "p = launch.Launched([sys.executable, '-c', 'import time; time.sleep(600)'], {}, None)\n"
        "print(p.proc.pid, flush=True)\n"
    )
    root = paths.ROOT
    done = subprocess.run([sys.executable, "-c", runner], capture_output=True, text=True, timeout=60, cwd=root)
    assert done.returncode == 0, done.stderr
    pid = int(done.stdout)
    # SIGKILL was sent before the runner exited; its delivery is the kernel's to schedule.
    for _ in range(500):
        if _gone(pid):
            break
        time.sleep(0.02)
    assert _gone(pid)


def test_a_program_launched_after_the_runner_was_interrupted_is_ended_as_it_starts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``end_all`` (Ctrl-C, SIGTERM, SIGHUP) ran while another game's thread was still
    launching its program: that program, which ``end_all`` could not see, is ended as
    it starts, so that its game does not wait on it (a ``referee match`` once stayed
    60 s after SIGTERM, its second game's sleeping programs launched too late)."""
    monkeypatch.setattr(launch, "_ENDED", threading.Event())
    launch._ENDED.set()
    started = launch.Launched([sys.executable, "-c", "import time; time.sleep(600)"], {}, None)
    try:
        assert started.proc.wait(30) == -9
    finally:
        started.finish(0)


def test_only_the_head_and_tail_of_a_programs_output_are_kept(tmp_path: Path) -> None:
    """20 MB of output: the log keeps its first and last LOG_HEAD/LOG_TAIL bytes and says
    how much it left out; memory keeps only the last lines, cut short."""
    noisy = [sys.executable, "-c", "import sys\nfor i in range(100_000): sys.stdout.write(str(i) + 'x' * 200 + '\\n')"]
    log = tmp_path / "noisy.log"
    launched = launch.Launched(noisy, dict(os.environ), log)
    assert launched.finish(60) == 0
    assert log.stat().st_mode & 0o777 == 0o600  # the other program may not read it meanwhile
    written = log.read_bytes()
    marker = written.index(b"[referee: ")
    assert launch.LOG_HEAD <= marker <= launch.LOG_HEAD + 1
    assert len(written) <= launch.LOG_HEAD + launch.LOG_TAIL + 200
    assert written.startswith(b"0xx") and written.endswith(b"99999" + b"x" * 200 + b"\n")
    left_out = int(written[marker:].split(b" bytes")[0].removeprefix(b"[referee: ").replace(b",", b""))
    total = sum(len(str(i)) + 201 for i in range(100_000))
    assert left_out == total - launch.LOG_HEAD - launch.LOG_TAIL
    assert len(launched.tail) == launch.TAIL_LINES and launched.tail[-1].startswith("99999x")
    assert all(len(line) <= launch.TAIL_WIDTH for line in launched.tail)


def test_the_seat_secret_is_read_from_an_inherited_descriptor_only(tmp_path: Path) -> None:
    """The token is in neither the program's arguments nor its environment: only the
    descriptor REFEREE_TOKEN_FD names holds it, and nothing else of the runner is inherited."""
    code = (
        "import os, sys\n"
        "fd = int(os.environ['REFEREE_TOKEN_FD'])\n"
        "token = os.read(fd, 100).decode().strip()\n"
        "print('token', token)\n"
        "print('seen', token in open('/proc/self/environ').read() + open('/proc/self/cmdline').read())\n"
    )
    secret = secrets.token_hex(seats.TOKEN_BYTES)
    launched = launch.Launched([sys.executable, "-c", code], dict(os.environ), None, secret=secret)
    assert launched.finish(60) == 0
    lines = list(launched.tail)
    assert f"token {secret}" in lines and "seen False" in lines, lines


# ─── Dask on loopback ──────────────────────────────────────────────────────────


def _listening(process: psutil.Process) -> list[Any]:
    return [c.laddr for c in process.net_connections(kind="inet") if c.status == psutil.CONN_LISTEN]


@pytest.mark.parametrize(("workers", "dashboard"), [(0, False), (1, False), (0, True)])
def test_the_embedded_dask_cluster_listens_on_loopback_only(workers: int, dashboard: bool) -> None:
    """Threads or worker processes, with or without the dashboard (then on loopback too)."""
    me = psutil.Process()
    before = set(_listening(me))
    with tasks.dask(None, workers, 1, dashboard=dashboard) as runner:
        assert list(runner.as_done(abs, [-3])) == [(-3, 3)]
        assert runner.dashboard_link.startswith("http://127.0.0.1:")
        opened = [a for a in _listening(me) if a not in before]
        for child in me.children(recursive=True):
            opened += _listening(child)
        assert runner.address.startswith("tls://127.0.0.1:")  # TLS: programs kept out
    assert opened and all(a.ip in ("127.0.0.1", "::1") for a in opened), opened


# ─── tournament files ──────────────────────────────────────────────────────────


def _players(*labels: str) -> list[str]:
    return [f"{label}=random --seed {n}" for n, label in enumerate(labels, 1)]


@pytest.mark.parametrize("content", ["", "{not json"])
def test_an_empty_or_corrupt_tournament_json_is_one_line_and_status_2(tmp_path: Path, content: str) -> None:
    (tmp_path / "tournament.json").write_text(content)
    done = _run("tournament", *_players("a", "b"), "--game", "awari", "--records", str(tmp_path), "-q")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "tournament.json" in done.stderr and "remove it" in done.stderr
    assert ("empty" if not content else "not JSON") in done.stderr


def test_match_refuses_a_directory_holding_another_runs_games(tmp_path: Path) -> None:
    (tmp_path / "t").mkdir()
    (tmp_path / "t" / "tournament.json").write_text("{}")
    (tmp_path / "m").mkdir()
    (tmp_path / "m" / "game-0001.pgn").write_text("")
    for directory, says in (("t", "holds a tournament's games"), ("m", "holds games of another run")):
        done = _run("match", "random", "random", "--game", "awari", "--records", str(tmp_path / directory))
        assert done.returncode == 2 and done.stderr.count("\n") == 1 and says in done.stderr, done.stderr
    # A match's directory is its own: another match (or a tournament) is refused.
    mine = tmp_path / "mine"
    first = _run(
        "match", "random --seed 1", "random --seed 2", "--game", "gothello", "--games", "1", "--records", str(mine)
    )
    assert first.returncode == 0 and (mine / "game-0001.pgn").exists() and (mine / "match.json").exists()
    again = _run(  # the same match resumes: nothing left to play
        "match", "random --seed 1", "random --seed 2", "--game", "gothello", "--games", "1", "--records", str(mine)
    )
    assert again.returncode == 0 and "1 of 1 games recorded" in again.stdout, again.stdout + again.stderr
    another = _run("match", "random", "random", "--game", "gothello", "--games", "1", "--records", str(mine))
    assert another.returncode == 2 and "holds another match's games" in another.stderr
    other = _run("tournament", *_players("a", "b"), "--game", "gothello", "--records", str(mine), "-q")
    assert other.returncode == 2 and "holds a match's games" in other.stderr


def test_a_resume_recognises_games_of_players_with_any_label(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Non-ASCII and long labels: the second run plays nothing and rewrites nothing;
    an aborted game's record is set aside, not overwritten, and the game played again."""
    labels = ("Jörg", "x" * 40)
    argv = ["tournament", *_players(*labels), "--game", "gothello", "--games", "2", "--jobs", "1"]
    argv += ["--records", str(tmp_path)]
    assert cli.main(argv) == 0
    records = sorted(tmp_path.glob("game-*.pgn"))
    texts = [path.read_text() for path in records]
    assert len(records) == 2 and pgn.parse(texts[0]).names == pgn.parse(texts[1]).names[::-1]
    capsys.readouterr()
    assert cli.main(argv) == 0
    out = capsys.readouterr().out
    assert "2 of 2 games recorded" in out and "Started game" not in out
    assert [path.read_text() for path in records] == texts
    aborted = pgn.parse(texts[1])
    records[1].write_text(pgn.write(replace(aborted, result="*").with_tags(Termination="shutdown", Result="*")))
    stale = records[1].read_text()
    assert cli.main(argv) == 0
    assert "Started game 2 of 2" in capsys.readouterr().out
    assert [p.read_text() for p in tmp_path.glob("stale-game-0002-*.pgn")] == [stale]
    assert pgn.parse(records[1].read_text()).outcome.termination == "move"


def test_a_full_disk_is_reported_as_such_not_as_the_dask_cluster(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def full(path: Path, data: str | bytes, **options: Any) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    argv = ["tournament", *_players("a", "b"), "--game", "gothello", "--games", "1", "--jobs", "1", "-q"]
    argv += ["--records", str(tmp_path)]
    monkeypatch.setattr(tournament.play, "write_atomic", full)
    assert cli.main(argv) == 1
    err = capsys.readouterr().err
    assert err == "referee tournament: cannot write the record of game 1: the disk is full; 0 of 1 games recorded\n"
    assert not list(tmp_path.glob("game-*.pgn"))


def test_a_match_whose_record_cannot_be_written_says_why_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    real = atomic.write_atomic

    def full(path: Path, data: str | bytes, **options: Any) -> None:
        if path.name.startswith("game-"):  # the directory is claimed, the record fails
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real(path, data, **options)

    monkeypatch.setattr(tournament.play, "write_atomic", full)
    argv = ["match", "random", "random", "--game", "gothello", "--games", "1", "--records", str(tmp_path / "r")]
    assert cli.main(argv) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot write the record of game 1: the disk is full" in err, err
