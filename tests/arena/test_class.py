"""A class on an arena (issue #52's "class-like run", compressed): the arena with a
random anchor, and unchanged programs of every kind a class brings, each connecting
again after each game — ``referee player random`` and ``search`` and
``examples/first_player.py`` logged in by ``REFEREE_LOGIN``, ``examples/raw_player.c``
logged in by the line on its token descriptor, and a gthd-style client that sends no
name (a guest).  Everyone who logged in is validated and rated, and the arena's
ratings are the maximum-likelihood fit of its games as their records give them.
``deep``: a dozen programs starting again and again for half a minute
(make verify-deep)."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from impl.apps.arena.store import Store
from impl.apps.ratings import bradley_terry
from impl.pgn import parse
from tests.support.paths import ROOT
from tests.support.terminal import referee

pytestmark = pytest.mark.deep

SECONDS = 30.0

LEGACY = """
import socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
f = s.makefile("rwb", buffering=0)
assert f.readline().startswith(b"000")
f.write(b"0.9.1 player white\\r\\r")  # gthd's Python library: no name, CR CR
while (line := f.readline()) and not line.startswith(b"35"):
    pass
"""
"""Enough of a gthd-style client to be seated as a guest, then leave at the start
(a disconnection, the guest's loss: a guest's game is recorded, never stored)."""


def loop(argv: list[str], env: dict[str, str], until: float, pass_fds: tuple[int, ...] = ()) -> None:
    while time.monotonic() < until:
        subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120,
                       pass_fds=pass_fds, check=False)  # fmt: skip


def test_a_class_on_an_arena(tmp_path: Path) -> None:
    if shutil.which("cc") is None:
        pytest.skip("no C compiler for examples/raw_player.c")
    raw = tmp_path / "raw_player"
    subprocess.run(["cc", "-O2", "-o", str(raw), str(ROOT / "examples" / "raw_player.c")], check=True)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    argv = referee("arena", "gothello", "--db", str(tmp_path / "arena.db"), "--port", "0", "--record",
                   str(tmp_path / "rec"), "--round", "0.5", "--log-level", "warning")  # fmt: skip
    arena = subprocess.Popen(argv, env=env, cwd=tmp_path, stdout=subprocess.PIPE, text=True)
    assert arena.stdout is not None
    port = arena.stdout.readline().split("port ")[1].split(";")[0]
    until = time.monotonic() + SECONDS
    read_end, write_end = os.pipe()
    os.write(write_end, b"cee:pw-c\n" * 1000)  # the raw player reads one line a game
    programs: list[tuple[list[str], dict[str, str], tuple[int, ...]]] = []
    for n in range(3):
        login = {**env, "REFEREE_LOGIN": f"rand{n}:pw{n}"}
        programs.append((referee("player", "random", "gothello", "--port", port, "-q"), login, ()))
    programs.append(
        (referee("player", "search", "gothello", "--port", port, "--budget", "0.05", "-q"),
         {**env, "REFEREE_LOGIN": "searcher:pw"}, ())
    )  # fmt: skip
    programs.append(
        ([sys.executable, str(ROOT / "examples" / "first_player.py"), "gothello", port],
         {**env, "REFEREE_LOGIN": "first:pw"}, ())
    )  # fmt: skip
    programs.append(([str(raw), "gothello", port, "?", "7"], {**env, "REFEREE_TOKEN_FD": str(read_end)}, (read_end,)))
    programs.append(([sys.executable, "-c", LEGACY, port], env, ()))
    threads = [threading.Thread(target=loop, args=(a, e, until, fds)) for a, e, fds in programs]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    arena.send_signal(signal.SIGTERM)
    arena.wait(timeout=60)
    store = Store.open(str(tmp_path / "arena.db"))
    players = {p.name: p for p in store.players()}
    games = store.games()
    history = store.histories()
    store.close()
    logged_in = ["rand0", "rand1", "rand2", "searcher", "first", "cee"]
    assert set(logged_in) <= set(players), sorted(players)
    for name in logged_in:
        assert players[name].validated, (name, players[name].note)
    # The arena's ratings against a fit of its rated games' records, read as a rating tool reads them.
    names: list[str] = []
    results = []
    for path in sorted((tmp_path / "rec").glob("gothello-arena-*.pgn")):
        record = parse(path.read_text())
        if record.tag("Rated") != "yes":
            continue
        black, white = record.tag("Black"), record.tag("White")
        for name in (black, white):
            if name not in names:
                names.append(name)
        score = {"1-0": 0.0, "0-1": 1.0, "1/2-1/2": 0.5}[record.tag("Result")]  # PGN's: White (second) first
        results.append((names.index(black), names.index(white), score))
    assert len(results) == sum(g.rated for g in games) >= 10
    offline = bradley_terry(len(names), results, names.index("anchor-random"))
    for name in names:
        last = history[players[name].id][-1]
        k = names.index(name)
        assert abs(last.elo - offline.elo[k]) <= max(1e-6, offline.margin[k]), (name, last, offline.elo[k])
