"""The package as a user installs it: build the sdist and, from it, the wheel; install
the wheel into a fresh venv that has none of the development dependencies; play a
real game of each kind with the installed ``referee`` (a server and two random players).

``make verify`` runs it (``python -m tests.wheel_check``): an editable install hides a
wheel that lacks a subpackage or the web view's files.  It runs outside the checkout,
with no ``PYTHONPATH``, so nothing of the source tree can be imported by mistake.
Exit status 0 when every step holds, 1 with the failing step's output otherwise.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import zipfile
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAMES = ("awari", "gothello")
CHECKOUT_ONLY = ("bench", "tests", "proofs", "examples")
"""Top-level directories of tools that stay in the checkout: none of them is in the wheel."""
TIMEOUT = 300.0
"""Seconds a step may take on a busy machine before the check gives up on it."""


class CheckFailed(Exception):
    pass


def run(argv: Sequence[str | Path], cwd: Path, env: dict[str, str]) -> str:
    done = subprocess.run(
        [str(a) for a in argv], cwd=cwd, env=env, capture_output=True, text=True, timeout=TIMEOUT, check=False
    )
    if done.returncode != 0:
        raise CheckFailed(f"{' '.join(map(str, argv))} exited {done.returncode}\n{done.stdout}{done.stderr}")
    return done.stdout


def expected_members() -> set[str]:
    """Every module and data file the installed package needs, read from the source tree."""
    wanted = set()
    for top in ("spec", "impl"):
        for path in (ROOT / top).rglob("*"):
            if "__pycache__" in path.parts or not path.is_file():
                continue
            if path.suffix in (".py", ".c", ".json") or path.name == "py.typed" or "static" in path.parts:
                wanted.add(path.relative_to(ROOT).as_posix())
    return wanted


def source_copy(into: Path, env: dict[str, str]) -> Path:
    """The files git would commit (tracked, and new ones not ignored), copied alone:
    the checkout's ``*.egg-info`` left by the editable install lists every file and
    would hide a package that discovery misses."""
    listed = run(["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"], ROOT, env)
    for name in filter(None, listed.split("\0")):
        source = ROOT / name
        if source.is_file():
            target = into / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    return into


def build(out: Path, env: dict[str, str]) -> Path:
    """sdist first, then the wheel built from the unpacked sdist (python -m build's
    default): a file missing from the sdist is missing from the wheel too."""
    source = source_copy(out / "source", env)
    run([sys.executable, "-m", "build", "--no-isolation", "--outdir", out, source], out, env)
    (sdist,) = out.glob("*.tar.gz")
    (wheel,) = out.glob("*.whl")
    with zipfile.ZipFile(wheel) as archive:
        members = set(archive.namelist())
    missing = sorted(expected_members() - members)
    if missing:
        raise CheckFailed(f"{wheel.name} lacks {len(missing)} files: {', '.join(missing[:10])}")
    tools = sorted(m for m in members if m.split("/")[0] in CHECKOUT_ONLY)
    if tools:
        raise CheckFailed(f"{wheel.name} holds {len(tools)} files of the checkout's tools: {', '.join(tools[:10])}")
    print(f"built {sdist.name} and {wheel.name} ({len(members)} files, none missing)")
    return wheel


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def play(referee: Path, game: str, work: Path, env: dict[str, str]) -> str:
    """One game on a fresh server: the server's exit status, both players', and the record."""
    records = work / f"records-{game}"
    records.mkdir()
    port = free_port()
    server = subprocess.Popen(
        [referee, "serve", game, "--host", "127.0.0.1", "--port", str(port), "--record", records, "--quiet"],
        cwd=work,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        _wait_listening(port, server)
        players = [
            subprocess.Popen(
                [referee, "player", "random", game, "--port", str(port), "--seed", str(seed)],
                cwd=work,
                env=env,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
            )
            for seed in (1, 2)
        ]
        said = [p.communicate(timeout=TIMEOUT)[0] for p in players]
        out = server.communicate(timeout=TIMEOUT)[0]
    finally:
        for proc in (server, *locals().get("players", [])):
            if proc.poll() is None:
                proc.kill()
    statuses = [p.returncode for p in players]
    if server.returncode != 0 or any(statuses):
        raise CheckFailed(f"{game}: server {server.returncode}, players {statuses}\n{out}{''.join(said)}")
    written = sorted(records.iterdir())
    if len(written) != 1 or "[Result " not in written[0].read_text(encoding="utf-8"):
        raise CheckFailed(f"{game}: expected one record with a Result, found {[p.name for p in written]}")
    return said[0].strip().splitlines()[-1]


def _wait_listening(port: int, server: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise CheckFailed(f"the server exited {server.returncode} before listening")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.1)
    raise CheckFailed(f"no server on port {port}")


def main() -> int:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    with tempfile.TemporaryDirectory(prefix="zreferee-wheel-") as scratch:
        work = Path(scratch)
        try:
            wheel = build(work, env)
            venv = work / "venv"
            run([sys.executable, "-m", "venv", venv], work, env)
            run([venv / "bin" / "python", "-m", "pip", "install", "--quiet", wheel], work, env)
            referee = venv / "bin" / "referee"
            print(run([referee, "--version"], work, env).strip(), "from a fresh venv without dev dependencies")
            for game in GAMES:
                print(f"{game}: {play(referee, game, work, env)}")
        except (CheckFailed, subprocess.TimeoutExpired) as failed:
            print(f"wheel check failed: {failed}", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
