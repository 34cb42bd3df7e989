"""Hostile player programs against the sandbox and the private server's admission
(impl/apps/sandbox.py, impl/apps/games.py; issue #38): a program that kills its
opponent, crowds it off the server, reads its environment, goes silent, or
outlives the runner never gains by it, and nothing it starts is left running —
each over real processes and sockets, in both the strongest sandbox that works
here and none (where what is still caught is said)."""

from __future__ import annotations

import os
import shlex
import signal
import subprocess
import sys
import time
import uuid
from contextlib import suppress
from pathlib import Path

import pytest

from impl import pgn
from impl.apps import cgroups, sandbox
from impl.apps.games import play_game
from impl.apps.terms import MatchOptions, PlayerSpec
from impl.game import Termination
from tests.apps.test_programs_hostile import marked, until_none_marked
from tests.support import paths
from tests.support.terminal import refused

PYTHON = shlex.quote(sys.executable)
PLAY = "os.execv(sys.executable, [sys.executable, '-m', 'impl.cli', 'player', 'random', env['REFEREE_GAME'], " + (
    "'--port', env['REFEREE_PORT'], '--side', env['REFEREE_SIDE']])"
)
"""The end of each hostile script: play the game as ``random`` does."""

KILLER = f"""
import os, signal, sys, time
env = os.environ
me, killed, secrets = os.getpid(), 0, 0
for _ in range(30):  # the opponent is launched second half the time: look for a while
    for pid in os.listdir("/proc"):
        if not pid.isdigit() or int(pid) in (me, 1, os.getppid()):
            continue
        try:
            environ = open(f"/proc/{{pid}}/environ", "rb").read()
            if b"REFEREE_SIDE" in environ:
                secrets += 1
            # Its own game's opponent only: other tests' games run beside this one.
            if f"REFEREE_PORT={{env['REFEREE_PORT']}}".encode() in environ.split(b"\\0"):
                os.kill(int(pid), signal.SIGKILL)
                killed += 1
        except OSError:
            pass
    time.sleep(0.05)
print(f"killed {{killed}} environments {{secrets}}", flush=True)
{PLAY}
"""
"""Finds every other player program through /proc, reads its environment and kills it, then plays."""

HOG = f"""
import os, socket, sys
env = os.environ
held, refused = [], 0
for _ in range(300):
    try:
        conn = socket.create_connection((env["REFEREE_HOST"], int(env["REFEREE_PORT"])))
    except OSError:
        refused += 1
        continue
    conn.settimeout(5)
    greeting = conn.recv(4096)
    if greeting.startswith(b"199"):
        refused += 1
        conn.close()
    else:
        held.append(conn)
print(f"held {{len(held)}} refused {{refused}}", flush=True)
{PLAY}
"""
"""Opens as many connections to its game's server as it is let, keeps them, then plays."""

FORKER = f"""
import os, sys, time
env = os.environ
made = 0
try:
    for _ in range(2000):
        if os.fork() == 0:
            time.sleep(600)
            os._exit(0)
        made += 1
except OSError:
    pass
print(f"forked {{made}}", flush=True)
{PLAY}
"""
"""Forks until it cannot (a fork bomb that holds its children), then plays."""

SILENT = """
import os, socket, time
env = os.environ
conn = socket.create_connection((env["REFEREE_HOST"], int(env["REFEREE_PORT"])))
conn.recv(4096)
conn.sendall(f"0.9.1 player {env['REFEREE_SIDE']}\\r".encode())
time.sleep(600)
"""
"""Takes its seat and never moves."""


def script(directory: Path, name: str, text: str) -> str:
    path = directory / f"{name}.py"
    path.write_text(text)
    return f"{PYTHON} {shlex.quote(str(path))}"


def strongest() -> sandbox.Sandbox:
    box = sandbox.choose("auto")
    if not box.isolates:
        pytest.skip("no sandbox works here (bwrap or unshare)")
    return box


def logs_of(directory: Path) -> str:
    return "".join(p.read_text(errors="replace") for p in sorted(directory.glob("*-A-*.log")))


@pytest.mark.parametrize("first", [0, 1])
def test_in_a_sandbox_a_program_can_neither_kill_its_opponent_nor_read_its_environment(
    tmp_path: Path, first: int
) -> None:
    """Whether it is launched first or second, the killer finds nobody in its /proc."""
    options = MatchOptions("gothello", 1, timeout=120, sandbox=strongest(), logs=tmp_path)
    killer = script(tmp_path, "killer", KILLER)
    outcome = play_game((PlayerSpec.parse(killer), PlayerSpec.parse("random")), 1, options, first)
    assert outcome.result is not None and not outcome.error and not outcome.foul, outcome
    assert "killed 0 environments 0" in logs_of(tmp_path)


def test_without_a_sandbox_a_killed_opponent_voids_the_game_as_foul_play(tmp_path: Path) -> None:
    """The one defence left without a sandbox: the victim's death by a signal the
    referee did not send is no win for the killer; the game has no result and says why."""
    options = MatchOptions("gothello", 1, timeout=120, sandbox=sandbox.NONE, logs=tmp_path)
    killer = script(tmp_path, "killer", KILLER)
    outcome = play_game((PlayerSpec.parse(killer), PlayerSpec.parse("random")), 1, options, 1)
    if "killed 0" in logs_of(tmp_path):
        pytest.skip("the opponent had not started while the killer looked")
    assert outcome.result is None and outcome.winner() is None
    assert outcome.foul.startswith("suspected foul play: B (random) was killed by SIGKILL"), outcome


@pytest.mark.parametrize("kind", ["auto", "none"])
def test_a_program_that_hogs_connections_cannot_crowd_its_opponent_out(tmp_path: Path, kind: str) -> None:
    """Connections are counted per program, not per address (both are on 127.0.0.1):
    the hog is refused its extra ones; its opponent still takes its seat and the game
    has a result, in either order of launch."""
    box = sandbox.choose(kind)
    hog = script(tmp_path, "hog", HOG)
    for first in (0, 1):
        (tmp_path / str(first)).mkdir()
        options = MatchOptions("gothello", 1, timeout=120, sandbox=box, logs=tmp_path / str(first))
        outcome = play_game((PlayerSpec.parse(hog), PlayerSpec.parse("random")), 1, options, first)
        assert outcome.result is not None and not outcome.error, outcome
        held = logs_of(tmp_path / str(first))
        assert "held 8 refused 292" in held or "held 7 refused 293" in held, held  # 8 a program, the seat's included


def test_a_fork_bomb_stops_at_its_own_task_limit_and_its_opponent_plays(tmp_path: Path) -> None:
    """Its cgroup caps its tasks (impl/apps/cgroups.py TaskLimit): its forks fail there,
    its opponent and the referee still start theirs, the game has a result, and the
    cgroup is gone afterwards with every child."""
    probe = cgroups.TaskLimit.make(f"zreferee-probe-{os.getpid()}")
    if probe is None:
        pytest.skip("no pids cgroup this process may make (not root, or no controller)")
    probe.remove()
    forker = script(tmp_path, "forker", FORKER)
    options = MatchOptions("gothello", 1, timeout=120, sandbox=sandbox.choose("auto"), logs=tmp_path)
    outcome = play_game((PlayerSpec.parse(forker), PlayerSpec.parse("random")), 1, options, 0)
    assert outcome.result is not None and not outcome.error, outcome
    made = int(logs_of(tmp_path).split("forked ")[1].split()[0])
    assert made < cgroups.TASKS_MAX <= 2000
    assert not [p for p in Path("/sys/fs/cgroup/pids").glob(f"zreferee-{os.getpid()}-*")]


def test_a_silent_program_loses_by_the_idle_rule_and_is_named(tmp_path: Path) -> None:
    """Without a clock, the private server's idle bound is a third of the game's
    timeout (10 s of 30: room for a loaded machine to seat both players first): the
    silent program loses (idle) before the game times out."""
    silent = script(tmp_path, "silent", SILENT)
    options = MatchOptions("gothello", 1, timeout=30, sandbox=sandbox.choose("auto"))
    outcome = play_game((PlayerSpec.parse(silent), PlayerSpec.parse("random")), 1, options, 0)
    assert outcome.result is not None and outcome.winner() == 1, outcome
    assert pgn.parse(outcome.record).tag("Termination") == Termination.IDLE  # the server's record says why


SLEEPER = """
import subprocess, sys, time
# A grandchild in a session of its own, orphaned at once: it leaves the program's group and tree.
subprocess.Popen(["setsid", "-f", sys.executable, "-c", "import time; time.sleep(600)", sys.argv[1]])
time.sleep(600)
"""


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP, signal.SIGKILL])
def test_nothing_a_program_starts_outlives_the_runner(tmp_path: Path, signum: int) -> None:
    """``referee match`` is ended by SIGTERM, SIGHUP or kill -9 while both programs
    (and each one's escaped grandchild) sleep: none is left running."""
    if signum == signal.SIGKILL:
        strongest()  # kill -9 runs no handler: only a sandbox's own ending holds
    marker = f"marker-{uuid.uuid4().hex}"  # unique across xdist workers: tmp_path names are not
    sleeper = script(tmp_path, "sleeper", SLEEPER) + f" {marker}"
    argv = [sys.executable, "-m", "impl.cli", "match", sleeper, sleeper, "--game", "awari", "--games", "2"]
    argv += ["--jobs", "2", "--records", str(tmp_path / "records"), "-q"]
    env = {**os.environ, "PYTHONPATH": str(paths.ROOT)}
    runner = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        for _ in range(1500):  # until both games' programs have started their grandchildren
            if len(marked(marker)) >= 8 or runner.poll() is not None:
                break
            time.sleep(0.02)
        assert len(marked(marker)) >= 4, runner.communicate()[1] if runner.poll() is not None else "too few"
        runner.send_signal(signum)
        status = runner.wait(60)
        assert status in (130, -signal.SIGKILL), status
        left = until_none_marked(marker, tries=1000)
        assert left == [], left
    finally:
        runner.kill()
        runner.wait()
        for pid in marked(marker):
            with suppress(ProcessLookupError):  # gone since it was listed
                os.kill(pid, signal.SIGKILL)


def test_a_sandbox_that_cannot_run_is_one_line_and_status_2(tmp_path: Path) -> None:
    """``--sandbox bwrap`` where bwrap is not to be found (an empty PATH)."""
    argv = [sys.executable, "-m", "impl.cli", "match", "random", "random", "--game", "awari", "--sandbox", "bwrap"]
    env = {**os.environ, "PYTHONPATH": str(paths.ROOT), "PATH": str(tmp_path)}
    done = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert "--sandbox bwrap: bwrap is not installed here" in refused(done)
