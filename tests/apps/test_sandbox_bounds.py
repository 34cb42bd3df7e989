"""What bounds a player program (impl/apps/sandbox.py, impl/apps/launch.py; issue #49
items 2 and 6), over real processes: a root runner's program is nobody to the file
system under every kind of sandbox (it cannot read ``/etc/shadow``) yet still reads
its own script from pytest's root-only ``/tmp/pytest-of-root``; its memory stops at
``--program-memory`` and the runner records its game; a bwrap sandbox's ``/tmp``
fills at TMP_SIZE; a share nobody could write is refused in one line."""

from __future__ import annotations

import os
import re
import shlex
import stat
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from impl import pgn
from impl.apps import cgroups, nobody, sandbox
from impl.apps.games import play_game
from impl.apps.launch import Launched
from impl.apps.terms import MatchOptions, PlayerSpec
from tests.support import paths
from tests.support.terminal import refused

PYTHON = sys.executable
TIMEOUT = 120.0
"""Seconds a run may take before it is taken for a hang (never a bound asserted)."""

SHADOW = """
import os
print("uid", os.getuid(), "gid", os.getgid(), "groups", os.getgroups(), flush=True)
try:
    open("/etc/shadow", "rb").read(1)
    print("read /etc/shadow", flush=True)
except OSError as exc:
    print("refused", exc.errno, flush=True)
"""
"""Says who it is, then tries to read /etc/shadow."""

HOG = r"""
import os, socket
env = os.environ
conn = socket.create_connection((env["REFEREE_HOST"], int(env["REFEREE_PORT"])))
lines = conn.makefile("rw", newline="")
lines.readline()  # the greeting
lines.write(f"0.9.1 player {env['REFEREE_SIDE']}\r\n")
lines.flush()
for line in lines:  # until the game has begun (its role: 351-353)
    if line.startswith("35"):
        break
held = []
for n in range(48):  # 3 GiB, 64 MiB at a time, every page written
    held.append(b"x" * (64 << 20))
    print(f"allocated {(n + 1) * 64} MiB", flush=True)
print("allocated all", flush=True)
"""
"""Takes its seat, waits for the game to begin, then allocates 3 GiB."""

FILLER = """
import os
written = 0
try:
    with open(os.path.join(os.environ["TMPDIR"], "fill"), "wb") as out:
        for _ in range(1024):  # 1 GiB at most, 1 MiB at a time
            out.write(b"x" * (1 << 20))
            out.flush()
            written += 1 << 20
except OSError as exc:
    print("stopped", exc.errno, flush=True)
print("wrote", written, flush=True)
"""
"""Fills its ``$TMPDIR`` until it cannot."""


def root_only() -> None:
    if os.geteuid() != 0:
        pytest.skip("not root: the programs already run as this unprivileged user")


def kind_here(kind: str) -> sandbox.Sandbox:
    try:
        return sandbox.choose(kind)
    except sandbox.Unavailable as exc:
        pytest.skip(str(exc))


def memory_capped() -> None:
    if "memory" not in cgroups.limits_here():
        pytest.skip("no memory cgroup controller this process may use")


def run(box: sandbox.Sandbox, script: Path) -> list[str]:
    """Launch ``script`` as a match launches a program, in ``box``; its output."""
    launched = Launched([PYTHON, str(script)], dict(os.environ), None, box)
    status = launched.finish(TIMEOUT)
    assert status == 0, list(launched.tail)
    return list(launched.tail)


@pytest.mark.parametrize("kind", ["bwrap", "unshare", "none"])
def test_a_root_runners_program_cannot_read_etc_shadow_but_reads_its_own_script(tmp_path: Path, kind: str) -> None:
    """Its script is in pytest's root-only directory (mode 0700), this Python may be
    under ``/root``: the program runs all the same, as nobody, with no groups."""
    root_only()
    box = kind_here(kind)
    shadow = Path("/etc/shadow")
    if not shadow.exists() or shadow.stat().st_mode & stat.S_IROTH:
        pytest.skip("no /etc/shadow hidden from others here")
    assert not Path(tmp_path.parents[1]).stat().st_mode & stat.S_IXOTH  # nobody could not reach the script
    script = tmp_path / "shadow.py"
    script.write_text(SHADOW)
    out = run(box, script)
    assert f"uid {nobody.NOBODY} gid {nobody.NOBODY} groups []" in out, out
    assert "refused 13" in out and "read /etc/shadow" not in out, out


def test_a_program_is_stopped_at_its_memory_cap_and_its_game_is_recorded(tmp_path: Path) -> None:
    """``referee match --program-memory 256M``: the hog is killed at the cap after a
    few chunks, its log says so, and the runner ends normally with the game recorded."""
    memory_capped()
    script = tmp_path / "hog.py"
    script.write_text(HOG)
    records, logs = tmp_path / "records", tmp_path / "logs"
    argv = [PYTHON, "-m", "impl.cli", "match", f"{shlex.quote(PYTHON)} {shlex.quote(str(script))}", "random"]
    argv += ["--game", "gothello", "--records", str(records), "--logs", str(logs), "--program-memory", "256M", "-q"]
    env = {**os.environ, "PYTHONPATH": str(paths.ROOT)}
    done = subprocess.run(argv, capture_output=True, text=True, timeout=TIMEOUT, env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    log = "".join(p.read_text(errors="replace") for p in logs.glob("*-A-*.log"))
    assert "[referee: killed at its memory cap, 256 MiB (--program-memory)]" in log, log[-2000:]
    allocated = [int(n) for n in re.findall(r"allocated (\d+) MiB", log)]
    assert "allocated all" not in log and max(allocated, default=0) <= 256, allocated
    record = pgn.parse((records / "game-0001.pgn").read_text())
    assert record.tag("Result") in ("1-0", "0-1"), record  # the hog's opponent wins, as on any disconnection


def test_without_a_sandbox_a_program_killed_at_its_cap_is_no_foul_play(tmp_path: Path) -> None:
    """Under ``--sandbox none`` a program killed by SIGKILL it did not raise is
    suspected foul play: not when the kernel killed it at its own memory cap."""
    memory_capped()
    script = tmp_path / "hog.py"
    script.write_text(HOG)
    box = replace(sandbox.NONE, memory=256 << 20)
    options = MatchOptions("gothello", 1, timeout=TIMEOUT, sandbox=box, logs=tmp_path)
    hog = PlayerSpec.parse(f"{shlex.quote(PYTHON)} {shlex.quote(str(script))}")
    outcome = play_game((hog, PlayerSpec.parse("random")), 1, options, 0)
    assert not outcome.foul and outcome.result is not None, outcome
    assert outcome.winner() == 1, outcome


def test_a_bwrap_sandboxs_tmp_fills_at_its_size(tmp_path: Path) -> None:
    """The private ``/tmp`` is a tmpfs of TMP_SIZE bytes: writing more fails (ENOSPC)."""
    box = kind_here("bwrap")
    if not box.tmp_size:
        pytest.skip("bwrap older than 0.8: no --size")
    script = tmp_path / "filler.py"
    script.write_text(FILLER)
    out = run(box, script)
    wrote = int(next(line for line in out if line.startswith("wrote ")).split()[1])
    assert "stopped 28" in out and wrote <= sandbox.TMP_SIZE, out


def test_a_share_nobody_could_write_is_refused_in_one_line(tmp_path: Path) -> None:
    """A root runner's programs are nobody: a ``--sandbox-share`` they could not
    write would fail them mid-game, so it is refused before anything starts."""
    root_only()
    if not nobody.drops():
        pytest.skip("this root cannot become nobody here")
    argv = [PYTHON, "-m", "impl.cli", "match", "random", "random", "--game", "awari", "--sandbox-share", str(tmp_path)]
    env = {**os.environ, "PYTHONPATH": str(paths.ROOT)}
    done = subprocess.run(argv, capture_output=True, text=True, timeout=TIMEOUT, env=env)
    assert "who cannot write it" in refused(done)


def test_a_memory_cap_below_what_a_program_needs_is_refused_in_one_line() -> None:
    argv = [PYTHON, "-m", "impl.cli", "match", "random", "random", "--game", "awari", "--program-memory", "1M"]
    env = {**os.environ, "PYTHONPATH": str(paths.ROOT)}
    done = subprocess.run(argv, capture_output=True, text=True, timeout=TIMEOUT, env=env)
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert "'1M' is not a size of at least 32M" in done.stderr


def test_memory_sizes_read_as_binary_units() -> None:
    assert [sandbox.memory_size(t) for t in ("2G", "512M", "512m", "65536K", "1GiB")] == [
        2 << 30,
        512 << 20,
        512 << 20,
        64 << 20,
        1 << 30,
    ]
    assert sandbox.memory_size(str(sandbox.MIN_MEMORY)) == sandbox.MIN_MEMORY


LISTER = """
import os, sys
print("cwd", os.getcwd(), "entries", sorted(os.listdir(".")), flush=True)
print("data", open("data.txt").read().strip(), open(sys.argv[1]).read().strip(), flush=True)
"""
"""Lists its working directory and reads a file there by a relative name and one named on its command line."""


@pytest.mark.parametrize("kind", ["bwrap", "unshare", "none"])
def test_a_working_directory_nobody_may_not_enter_is_shown_with_its_files(tmp_path: Path, kind: str) -> None:
    """A root runner's working directory of mode 0700 (pytest's own ``tmp_path``) inside
    another: its files are there for the program at the same paths, by relative names too
    (bwrap refused to start in it: "Can't chdir … Permission denied")."""
    root_only()
    box = kind_here(kind)
    cwd = tmp_path / "closed" / "work"
    (cwd / "sub").mkdir(parents=True)
    for directory in (tmp_path / "closed", cwd):
        directory.chmod(0o700)
    (cwd / "lister.py").write_text(LISTER)
    (cwd / "data.txt").write_text("here\n")
    (cwd / "sub" / "named.txt").write_text("named\n")
    argv = [PYTHON, "lister.py", "sub/named.txt"]
    launched = Launched(argv, dict(os.environ), None, box, cwd=str(cwd))
    assert launched.finish(TIMEOUT) == 0, list(launched.tail)
    out = list(launched.tail)
    assert f"cwd {cwd} entries ['data.txt', 'lister.py', 'sub']" in out and "data here named" in out, out
