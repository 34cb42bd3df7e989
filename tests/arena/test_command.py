"""``referee arena`` as a process (docs/arena.md): its database refused with one
line (in use by another arena, not a database), and kill -9 in the middle of a
round: after a restart on the same database no finished game is lost — every
result a player was told is stored, its record file written — and none is counted
twice."""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import signal
import sqlite3
import subprocess
import time
from pathlib import Path

import pytest

from impl.apps.arena.store import Store
from tests.support.arenakit import login, play
from tests.support.paths import ROOT
from tests.support.terminal import referee, refused, run_referee


def start(tmp_path: Path, *options: str) -> tuple[subprocess.Popen[str], int]:
    """``referee arena gothello`` on a free port with its database and records in
    ``tmp_path``; the process and its port (from its first line)."""
    argv = referee(
        "arena", "gothello", "--db", str(tmp_path / "arena.db"), "--port", "0", "--record",
        str(tmp_path / "records"), "--no-anchors", "--log-level", "warning", *options,
    )  # fmt: skip
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(argv, env=env, cwd=tmp_path, stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    line = proc.stdout.readline()
    assert "arena listens on port" in line, line
    return proc, int(line.split("port ")[1].split(";")[0])


def test_a_second_arena_on_the_same_database_is_refused(tmp_path: Path) -> None:
    proc, _ = start(tmp_path)
    try:
        done = run_referee("arena", "gothello", "--db", str(tmp_path / "arena.db"), "--port", "0", cwd=tmp_path)
        assert "is in use by another arena" in refused(done)
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)
    assert proc.returncode == 128 + signal.SIGTERM


def test_a_file_that_is_no_database_is_refused(tmp_path: Path) -> None:
    (tmp_path / "junk.db").write_bytes(b"this is not a database\n" * 100)
    done = run_referee("arena", "gothello", "--db", str(tmp_path / "junk.db"), "--port", "0", cwd=tmp_path)
    assert refused(done).startswith("referee arena: cannot use database")
    os.mkfifo(tmp_path / "fifo.db")
    done = run_referee("arena", "gothello", "--db", str(tmp_path / "fifo.db"), "--port", "0", cwd=tmp_path)
    assert refused(done) == f"referee arena: database {tmp_path / 'fifo.db'} is not a regular file (a FIFO)"
    (tmp_path / "missing").mkdir()
    done = run_referee("arena", "gothello", "--db", str(tmp_path / "missing" / "x" / "a.db"), cwd=tmp_path)
    assert refused(done).startswith("referee arena: cannot use database")


def test_kill_9_mid_round_loses_no_finished_game_and_counts_none_twice(tmp_path: Path) -> None:
    told: list[str] = []
    """Each line a player was told its game ended by."""

    async def players(port: int, until: float) -> None:
        async def one(name: str, seed: int) -> None:
            while time.monotonic() < until:
                try:
                    client, answer = await login(port, f"{name}:pw")
                    if not answer.startswith("100"):
                        await client.close()
                        await asyncio.sleep(0.05)
                        continue
                    told.append(await play(client, "gothello", seed))
                    seed += 1
                    await client.close()
                except (TimeoutError, OSError, EOFError, AssertionError):
                    await asyncio.sleep(0.1)  # the arena was killed: connect again

        await asyncio.gather(*(one(f"k{n}", 100 * n) for n in range(6)))

    proc, port = start(tmp_path, "--round", "0.2")
    try:
        asyncio.run(players(port, time.monotonic() + 4))
        proc.send_signal(signal.SIGKILL)  # wherever it is: mid-round, mid-game, mid-store
        proc.wait(timeout=30)
        before = len(told)
        proc, port = start(tmp_path, "--round", "0.2")
        asyncio.run(players(port, time.monotonic() + 2))
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)
    assert before >= 4 and len(told) > before
    with contextlib.closing(sqlite3.connect(tmp_path / "arena.db")) as db:
        uids = [u for (u,) in db.execute("select uid from games where score is not null")]
        ids = [i for (i,) in db.execute("select id from games order by id")]
    assert len(uids) == len(set(uids))
    finished = [t for t in told if t.startswith("32")]  # a game with a result, as each player was told it
    assert len(uids) * 2 >= len(finished), (len(uids), len(finished))
    records = sorted(p.name for p in (tmp_path / "records").iterdir())
    assert records == [f"gothello-arena-{i:06d}.pgn" for i in ids]
    store = Store.open(str(tmp_path / "arena.db"))
    assert len(store.games()) == len(ids)
    store.close()


def _read_only(path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``referee ARGS`` with ``path`` mounted read-only (bubblewrap: a user's own file
    modes do not bind root, who runs CI), or the test skipped with one line."""
    bwrap = shutil.which("bwrap")
    if bwrap is None or subprocess.run([bwrap, "--dev-bind", "/", "/", "true"], capture_output=True).returncode:
        pytest.skip("no bubblewrap that can mount here: a read-only database cannot be made for root")
    argv = [bwrap, "--dev-bind", "/", "/", "--ro-bind", str(path), str(path), *referee(*args)]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(argv, env=env, cwd=path, capture_output=True, text=True, timeout=120, check=False)


def test_a_read_only_database_or_records_folder_is_refused_before_any_game(tmp_path: Path) -> None:
    """A database on a read-only file system, or a records folder there, is refused
    with one line naming the command, before a player could finish a game that could
    not be stored; the database is left as it was."""
    Store.open(str(tmp_path / "arena.db")).close()
    before = (tmp_path / "arena.db").read_bytes()
    done = _read_only(tmp_path, "arena", "gothello", "--db", str(tmp_path / "arena.db"), "--port", "0", "--no-anchors")
    assert refused(done) == f"referee arena: cannot use database {tmp_path / 'arena.db'}: Read-only file system"
    assert (tmp_path / "arena.db").read_bytes() == before
    writable = tmp_path.parent / f"{tmp_path.name}-rw.db"
    done = _read_only(
        tmp_path, "arena", "gothello", "--db", str(writable), "--record", str(tmp_path / "records"), "--port", "0"
    )
    assert refused(done) == f"referee arena: cannot write records to {tmp_path / 'records'}: Read-only file system"
