"""``referee compliance``: players against referees scripted by the protocol's model.

Every player the project ships passes every behaviour, as both sides of both games:
the example players of docs/writing-a-player.md (examples/first_player.py, and
examples/raw_player.c where a C compiler exists) and each ``referee player NAME``.
Deliberately broken players are caught, each on the line naming what it got wrong,
with what was expected and what came: tests/support/broken_player.py (no ellipses,
no answer to a draw offer) and tests/support/sloppy_player.py (a seat request sent
twice, a serial that never advances, no exit after the final status).  The
repository holds no copy of gthd's client libraries (tests/server/test_compat.py
re-implements their reading rules over sockets instead), so none is run here; what
they need of the checker is: lines ended by CR alone (their Python library's), and a
fixed port (``--port``).  The program runs as ``referee match`` runs it (issue #49):
in its sandbox and cgroup, ended with all it started when its scenario ends."""

from __future__ import annotations

import contextlib
import os
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from impl.apps import cgroups, sandbox
from impl.cli import main
from impl.players import PLAYERS
from tests.support import paths

ROOT = Path(__file__).resolve().parents[2]
PYTHON = sys.executable
GAMES = ["awari", "gothello"]


def card(capsys: pytest.CaptureFixture[str], *argv: str, timeout: str = "10") -> tuple[int, list[str]]:
    """The report card and the exit status; ``timeout``: for each line the program owes
    (a compliant player never makes the checker wait it out)."""
    status = main(["compliance", *argv, "--timeout", timeout])
    return status, capsys.readouterr().out.splitlines()


def passes_all(status: int, lines: list[str], game: str) -> None:
    assert [line for line in lines if not line.startswith("PASS")] == [f"{len(lines) - 1}/{len(lines) - 1} passed"]
    assert status == 0
    assert any("ellipses (...) as" in line for line in lines)
    assert any("illegal move refused, another sent" in line for line in lines)
    assert (game == "awari") == any("draw offer answered" in line for line in lines)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("name", sorted(PLAYERS))
def test_every_project_player_complies(name: str, game: str, capsys: pytest.CaptureFixture[str]) -> None:
    if name == "openspiel-mcts":
        pytest.skip("openspiel-mcts plays Awari under the abapa rules only, and compliance referees the papers' rules")
    # --keep 0: perfect keeps a won Gothello line in up to 300 s a move, beyond compliance's 10 s a line.
    keep = " --keep 0" if name == "perfect" else ""
    player = f"{PYTHON} -m impl.cli player {name} {game} --port {{port}} --side {{side}} --budget 0.02{keep} --quiet"
    passes_all(*card(capsys, player, "--game", game), game)


@pytest.mark.parametrize("game", GAMES)
def test_the_example_player_complies(game: str, capsys: pytest.CaptureFixture[str]) -> None:
    example = ROOT / "examples" / "first_player.py"
    passes_all(*card(capsys, f"{PYTHON} {example} {game} {{port}} {{side}} {{host}}", "--game", game), game)


@pytest.fixture(scope="module")
def raw_player(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if shutil.which("cc") is None:
        pytest.skip("no C compiler (cc) on this machine to build examples/raw_player.c")
    binary = tmp_path_factory.mktemp("raw") / "raw_player"
    subprocess.run(["cc", "-O2", "-Wall", "-Werror", "-o", binary, ROOT / "examples" / "raw_player.c"], check=True)
    return binary


@pytest.mark.parametrize("game", GAMES)
def test_the_raw_c_player_complies(game: str, raw_player: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """It tries moves until one is legal: the rules' refusals (291) are no failure."""
    passes_all(*card(capsys, f"{raw_player} {game} {{port}} {{side}}", "--game", game), game)


def test_a_player_without_ellipses_or_draw_answers_is_caught(capsys: pytest.CaptureFixture[str]) -> None:
    command = f"{PYTHON} -m tests.support.broken_player awari {{host}} {{port}} {{side}}"
    status, lines = card(capsys, command, "--game", "awari", timeout="5")
    assert status == 1
    assert (
        "FAIL  second player: serials and ellipses (...) as north: expected '<n> ... <move>' (n: the full-move "
        "number), sent '1 a', refused '299 Ellipses (...) expected before north move'"
    ) in lines
    assert "FAIL  draw offer: draw offer answered: expected 'draw' or 'nodraw' after 331/332, got nothing" in lines
    assert "PASS  first player: serials as south" in lines


def sloppy(capsys: pytest.CaptureFixture[str], bug: str, timeout: str = "10") -> list[str]:
    command = f"{PYTHON} -m tests.support.sloppy_player gothello {{host}} {{port}} {{side}} {bug}"
    status, lines = card(capsys, command, "--game", "gothello", timeout=timeout)
    assert status == (1 if bug else 0)
    return lines


def test_the_sloppy_player_complies_without_its_bug(capsys: pytest.CaptureFixture[str]) -> None:
    passes_all(0, sloppy(capsys, ""), "gothello")


@pytest.mark.parametrize(
    ("bug", "timeout", "expected"),
    [
        (
            "seat-twice",
            "10",
            [
                "FAIL  second player: request: sent '0.9.1 player white', "
                "refused '299 Request not understood (already seated)'",
                "PASS  second player: serials and ellipses (...) as white",
            ],
        ),
        (
            "stale-serial",
            "10",
            [
                "FAIL  first player: serials as black: expected '<n> <move>' (n: the full-move number), sent '1 a2', "
                "refused '299 Illegal serial number (got 1 expected 2)'",
                "FAIL  first player: game played to its end: the program closed its connection during the game",
            ],
        ),
        (
            "no-exit",
            "3",
            [
                "FAIL  opponent resigns: clean exit after the final status: expected exit status 0 within 3 s of the "
                "end, got still running (killed)",
                "PASS  opponent resigns: game played to its end",
            ],
        ),
    ],
    ids=["a seat request sent twice", "a serial that never advances", "a player that does not exit"],
)
def test_a_sloppy_players_bug_is_caught(
    capsys: pytest.CaptureFixture[str], bug: str, timeout: str, expected: list[str]
) -> None:
    """Each bug fails its scenario's check with the line that says what was wrong,
    and the checks it does not touch still pass."""
    lines = sloppy(capsys, bug, timeout)
    for line in expected:
        assert line in lines, line


def test_lines_ended_by_cr_alone_are_read_as_the_server_reads_them(capsys: pytest.CaptureFixture[str]) -> None:
    """gthd's Python client library ends its lines with CR alone: the server takes a
    CR or an LF as a line's end (impl/server/net.py), and so does the checker."""
    command = f"{PYTHON} -m tests.support.sloppy_player gothello {{host}} {{port}} {{side}} cr-lines"
    status, lines = card(capsys, command, "--game", "gothello")
    passes_all(status, lines, "gothello")


def test_a_program_that_fails_before_connecting_is_told_at_once_with_its_output(
    capsys: pytest.CaptureFixture[str],
) -> None:
    lines = sloppy(capsys, "crash")
    assert len(lines) == 7  # each scenario's seat request, and the count
    for line in lines[:-1]:
        assert "got nothing (the program exited with status 1 before it connected)" in line, line
        assert "(its output: " in line and "RuntimeError: the player's own bug, before it connects" in line


def test_a_program_that_writes_much_to_stderr_is_never_blocked(capsys: pytest.CaptureFixture[str]) -> None:
    """Its stderr is read as it comes (a pipe left unread would stop it once full)."""
    player = f"{PYTHON} -m tests.support.sloppy_player gothello {{host}} {{port}} {{side}}"
    command = f"sh -c 'head -c 200000 /dev/zero | tr \"\\\\0\" x >&2; exec {player}'"
    status, lines = card(capsys, command, "--game", "gothello")
    passes_all(status, lines, "gothello")


def test_a_program_on_a_fixed_port_is_checked_with_port(capsys: pytest.CaptureFixture[str]) -> None:
    """``--port``: gthd's client libraries connect to the game's base port plus the
    server number whatever they are told; the checker listens there, one scenario
    after another (the command here names the port itself, not ``{port}``)."""
    with socket.socket() as probe:  # a free port, as a fixed one
        probe.bind(("127.0.0.1", 0))
        fixed = probe.getsockname()[1]
    command = f"{PYTHON} -m tests.support.sloppy_player gothello 127.0.0.1 {fixed} {{side}}"
    status, lines = card(capsys, command, "--game", "gothello", "--port", str(fixed))
    passes_all(status, lines, "gothello")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        assert main(["compliance", command, "--game", "gothello", "--port", str(taken.getsockname()[1])]) == 2
    assert "referee compliance: cannot listen on port" in capsys.readouterr().err


def test_a_command_that_cannot_run(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compliance", "/nonexistent/player {port}", "--game", "gothello"]) == 2
    assert main(["compliance", "player {nope}", "--game", "gothello"]) == 2
    err = capsys.readouterr().err
    assert "cannot run /nonexistent/player" in err and "bad command" in err


def test_a_program_that_asks_for_the_other_side_fails_the_seat_request(capsys: pytest.CaptureFixture[str]) -> None:
    """Asked to play white (``{side}``), it asks for black: the seat request fails in
    every scenario where it is white, and passes where it is black."""
    command = f"{PYTHON} -m tests.support.sloppy_player gothello {{host}} {{port}} black"
    status, lines = card(capsys, command, "--game", "gothello", timeout="5")
    assert status == 1
    wrong = "greeting read, seat request: expected '0.9.1 player white' or '? ', got '0.9.1 player black'"
    for scenario in ("second player", "time controls", "opponent disconnects"):  # white in these
        assert f"FAIL  {scenario}: {wrong}" in lines, lines
    assert "PASS  first player: greeting read, seat request" in lines


FORKER = """
import os, sys, time
for _ in range(300):
    if os.fork() == 0:  # a child in a session of its own, holding the output pipe
        os.setsid()
        time.sleep(600)
        os._exit(0)
print("forked 300", flush=True)
"""
"""Forks 300 children that each call setsid and sleep, then exits without connecting
(its command line, and so theirs, carries a marker)."""


def marked(marker: str) -> list[int]:
    """The live processes (not zombies) whose command line holds ``marker``, from /proc."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            argv = (entry / "cmdline").read_bytes().split(b"\0")
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):
            continue
        if marker.encode() in argv and state != "Z":
            found.append(int(entry.name))
    return found


@pytest.mark.parametrize("kind", ["auto", "none"])
def test_children_that_left_the_programs_session_end_with_each_scenario(tmp_path: Path, kind: str) -> None:
    """The program forks 300 ``setsid`` children that keep its output open and exits:
    each scenario ends (the program exited before it connected) without waiting on
    the children, and none of them is left (its PID namespace, or its cgroup, ends them)."""
    if not Path("/proc/self/cmdline").exists():
        pytest.skip("no /proc to count the children by")
    if kind == "none" and not cgroups.limits_here():
        pytest.skip("no cgroup this process may make: without a sandbox, nothing holds setsid children")
    if kind == "auto" and not sandbox.choose("auto").isolates and not cgroups.limits_here():
        pytest.skip("neither a sandbox nor a cgroup here")
    script = tmp_path / "forker.py"
    script.write_text(FORKER)
    marker = f"marker-{uuid.uuid4().hex}-{kind}"  # unique across xdist workers (tmp_path names are not)
    command = f"{shlex.quote(PYTHON)} {shlex.quote(str(script))} {{port}} {marker}"
    argv = [PYTHON, "-m", "impl.cli", "compliance", command, "--game", "gothello", "--sandbox", kind]
    env = {**os.environ, "PYTHONPATH": str(paths.ROOT)}
    try:
        done = subprocess.run([*argv, "--timeout", "5"], capture_output=True, text=True, timeout=300, env=env)
        left = marked(marker)
    finally:
        for pid in marked(marker):
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
    assert done.returncode == 1, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 7 and all("exited with status 0 before it connected" in line for line in lines[:-1]), lines
    assert left == [], f"{len(left)} children left"
