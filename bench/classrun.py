"""The class-like run of issue #52 (docs/arena.md): a ``referee arena gothello``
and twenty unchanged programs of every kind a class brings, each connecting again
after each game, for a compressed hour (60 rounds, ``--round`` seconds apart):

- ``referee player random`` and ``search`` at three budgets, logged in by
  ``REFEREE_LOGIN``;
- ``examples/first_player.py``, logged in the same way;
- ``examples/raw_player.c``, compiled, logged in by the line on its token
  descriptor;
- gthd's own Python client library (``gthclient.py``), unchanged, imported from
  the folder ``--gthclient`` names (not in this repository).  It sends no name, so
  its programs play as guests: recorded, never rated.  Without the folder a
  stand-in that follows the library's handshake takes their place.

Half-way (``--kill-at``) the arena is killed with SIGKILL and started again on the
same database and port; the programs carry on.  At the end the run prints, and
checks (exit status 1 when one fails):

- every program that logged in was validated and rated;
- no game is stored twice, and the record files are exactly the stored games;
- the arena's last ratings agree with an offline maximum-likelihood fit of the
  rated games' PGN records, within their error bars;
- how the gthd library's games ended (a game it could not follow ends by a fault).

    python -m bench.classrun [--seconds 360] [--round 6] [--gthclient DIR] [--postgresql]
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import psutil

from impl.apps.arena.store import Store
from impl.apps.ratings import bradley_terry
from impl.pgn import PgnGame, parse

HERE = Path(__file__).resolve().parents[1]

GTHD_PLAYER = """
import random, sys
sys.path[:0] = [sys.argv[1], sys.argv[2]]
import gthclient  # gthd's Python client library, unchanged, from the folder given
from impl.engines.registry import get_engine
from impl.game import Side
engine, side = get_engine("gothello"), sys.argv[3]
client = gthclient.GthClient(side, "127.0.0.1", int(sys.argv[4]) - gthclient.server_base)
me, state = Side.FIRST if side == "black" else Side.SECOND, engine.initial()
try:
    while True:
        if int(engine.to_move(state)) == int(me):
            move = random.choice(engine.legal_moves(state))
            if not client.make_move(engine.format_move(move)):
                break
        else:
            more, text = client.get_move()
            if not more:
                break
            move = engine.parse_move(text)
        state = engine.apply(state, move)[1]
except NameError:
    pass  # the library's make_move calls an undefined closeall() when its move ends the game
"""
"""A student's random player written on gthd's library: the board is the project's
engine, every line on the wire is the library's."""

STAND_IN = """
import socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[4])))
f = s.makefile("rwb", buffering=0)
assert f.readline().startswith(b"000")
f.write(b"0.9.1 player %s\\r\\n" % sys.argv[3].encode())  # gthd's library: no name
while (line := f.readline()) and not line.startswith(b"35"):
    pass
"""
"""Without the library: its handshake, then a disconnection (a guest's loss)."""


@dataclass(frozen=True)
class Program:
    label: str
    argv: list[str]
    env: dict[str, str]
    token: str | None = None
    """A line handed on a fresh descriptor each run, as a sandboxed seat's token is."""


def free_port(low: int) -> int:
    """A free port at or above ``low`` (gthd's library reaches only 29068 + N)."""
    for port in range(low, low + 1000):
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise SystemExit(f"classrun: no free port from {low}")


def referee(*args: str) -> list[str]:
    return [sys.executable, "-m", "impl.cli", *args]


def roster(port: int, folder: Path, gthclient: Path | None) -> list[Program]:
    """The class: twenty programs (module docstring)."""
    env = {**os.environ, "PYTHONPATH": str(HERE)}
    p = str(port)
    out = [Program(f"rand{n}", referee("player", "random", "gothello", "--port", p, "-q"),
                   {**env, "REFEREE_LOGIN": f"rand{n}:pw{n}"}) for n in range(6)]  # fmt: skip
    for n, budget in enumerate(("0.02", "0.05", "0.1")):
        argv = referee("player", "search", "gothello", "--port", p, "--budget", budget, "-q")
        out.append(Program(f"search{n}", argv, {**env, "REFEREE_LOGIN": f"search{n}:pw"}))
    first = [sys.executable, str(HERE / "examples" / "first_player.py"), "gothello", p]
    out += [Program(f"first{n}", first, {**env, "REFEREE_LOGIN": f"first{n}:pw"}) for n in range(4)]
    raw = folder / "raw_player"
    subprocess.run(["cc", "-O2", "-o", str(raw), str(HERE / "examples" / "raw_player.c")], check=True)
    for n in range(3):
        argv = [str(raw), "gothello", p, "?", str(n)]
        out.append(Program(f"cee{n}", argv, env, f"cee{n}:pw"))
    code = GTHD_PLAYER if gthclient else STAND_IN
    for n, side in enumerate(("black", "white", "black", "white")):
        argv = [sys.executable, "-c", code, str(gthclient or folder), str(HERE), side, p]
        out.append(Program(f"gthd{n}", argv, env))
    return out


def loop(program: Program, until: float, exits: collections.Counter[str]) -> None:
    """Run ``program`` again and again until ``until``, as a student's script does."""
    while time.monotonic() < until:
        env, fds = program.env, tuple[int, ...]()
        if program.token is not None:
            read_end, write_end = os.pipe()
            os.write(write_end, f"{program.token}\n".encode())
            os.close(write_end)
            env, fds = {**env, "REFEREE_TOKEN_FD": str(read_end)}, (read_end,)
        done = subprocess.run(program.argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                              timeout=300, pass_fds=fds, check=False, text=True)  # fmt: skip
        for fd in fds:
            os.close(fd)
        exits[f"{program.label} {done.returncode}"] += 1
        if done.returncode:
            said = done.stderr.strip().splitlines()
            exits[f"{program.label} said: {said[-1][:100] if said else '-'}"] += 1
        if done.returncode:
            time.sleep(2.0)  # the arena restarting, or a refusal: do not spin


def start_arena(db: str, port: int, round_every: float, folder: Path) -> subprocess.Popen[str]:
    argv = referee("arena", "gothello", "--db", db, "--port", str(port), "--host", "127.0.0.1", "--record",
                   str(folder / "rec"), "--round", str(round_every), "--anchor", "random", "--anchor",
                   "search:0.05", "--log-level", os.environ.get("CLASSRUN_LOG", "warning"))  # fmt: skip
    proc = subprocess.Popen(
        argv, env={**os.environ, "PYTHONPATH": str(HERE)}, cwd=folder, stdout=subprocess.PIPE, text=True
    )
    assert proc.stdout is not None
    print("arena:", proc.stdout.readline().strip(), flush=True)
    return proc


def records(folder: Path, pattern: str) -> list[PgnGame]:
    return [parse(path.read_text()) for path in sorted((folder / "rec").glob(pattern))]


def offline_fit(rated: list[PgnGame]) -> tuple[list[str], list[float], list[float]]:
    """Bradley–Terry over the records, read as a rating tool reads them."""
    names: list[str] = []
    results = []
    for record in rated:
        black, white = record.tag("Black"), record.tag("White")
        names += [n for n in (black, white) if n not in names]
        score = {"1-0": 0.0, "0-1": 1.0, "1/2-1/2": 0.5}[record.tag("Result")]  # PGN's White (second) first
        results.append((names.index(black), names.index(white), score))
    fit = bradley_terry(len(names), results, names.index("anchor-random"))
    return names, list(fit.elo), list(fit.margin)


def positive(text: str) -> float:
    value = float(text) if text.replace(".", "", 1).isdigit() else 0.0
    if value <= 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds above 0")
    return value


def fraction(text: str) -> float:
    value = float(text) if text.replace(".", "", 1).isdigit() else -1.0
    if not 0 <= value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a fraction of the run (0 to below 1)")
    return value


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.classrun", description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=positive, default=360.0, help="length of the run (default 360: 60 rounds)")
    ap.add_argument("--round", type=positive, default=6.0, help="seconds between rounds (default 6)")
    ap.add_argument("--kill-at", type=fraction, default=0.5, help="kill -9 the arena at this fraction (0: never)")
    ap.add_argument("--gthclient", type=Path, help="a folder holding gthd's gthclient.py, unchanged")
    ap.add_argument("--postgresql", action="store_true", help="a PostgreSQL server for the run (bench/postgres.py)")
    args = ap.parse_args(argv)
    if args.gthclient and not (args.gthclient / "gthclient.py").is_file():
        print(f"classrun: no gthclient.py in {args.gthclient}", file=sys.stderr)
        return 2
    if shutil.which("cc") is None:
        print("classrun: no C compiler for examples/raw_player.c", file=sys.stderr)
        return 2
    with contextlib.ExitStack() as stack:
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="classrun-")))
        db = str(folder / "arena.db")
        if args.postgresql:
            from bench.postgres import NoPostgres, postgres

            try:
                db = stack.enter_context(postgres()).url
            except NoPostgres as exc:
                print(f"classrun: {exc}", file=sys.stderr)
                return 2
        return run(folder, db, args)


def run(folder: Path, db: str, args: argparse.Namespace) -> int:
    """Start the arena, run the class (killing the arena once), then report."""
    port = free_port(29069)
    programs = roster(port, folder, args.gthclient)
    started = time.monotonic()
    until = started + args.seconds
    arena = start_arena(db, port, args.round, folder)
    exits: collections.Counter[str] = collections.Counter()
    threads = [threading.Thread(target=loop, args=(p, until, exits), daemon=True) for p in programs]
    try:
        for t in threads:
            t.start()
        if args.kill_at:
            time.sleep(args.seconds * args.kill_at)
            arena.send_signal(signal.SIGKILL)
            arena.wait()
            killed = time.monotonic()
            print(f"arena killed (SIGKILL) at {killed - started:.0f} s", flush=True)
            arena = start_arena(db, port, args.round, folder)
            cpu = sum(psutil.Process(arena.pid).cpu_times()[:2])
            print(f"listening again {time.monotonic() - killed:.1f} s later ({cpu:.1f} s of its CPU)", flush=True)
        for t in threads:
            t.join()
    finally:  # the arena never outlives the run, however it ends
        if arena.poll() is None:
            arena.send_signal(signal.SIGTERM)
        arena.wait(timeout=120)
    return report(folder, db, programs, exits, args)


def report(
    folder: Path, db: str, programs: list[Program], exits: collections.Counter[str], args: argparse.Namespace
) -> int:
    store = Store.open(db)
    players = {p.name: p for p in store.players()}
    games = store.games(pgn=False)
    history = store.histories()
    faults = store.fault_counts()
    store.close()
    failures: list[str] = []
    stored = records(folder, "gothello-arena-*.pgn")
    if len(stored) != len(games):
        failures.append(f"{len(stored)} record files of stored games against {len(games)} stored games")
    if len({g.uid for g in games}) != len(games):
        failures.append("a game stored twice")
    rated = [r for r in stored if r.tag("Rated") == "yes"]
    names, elo, margin = offline_fit(rated)
    print(f"\n{len(games)} games stored ({len(rated)} rated), {len(players)} names")
    print(f"{'player':<16}{'games':>6}{'arena Elo':>11}{'offline':>9}{'±':>6}  validated  faults")
    for name in sorted(players):
        player = players[name]
        last = history.get(player.id, [])
        if name not in names or not last:
            print(f"{name:<16}{'—':>6}  {player.note or 'not rated'}")
            if not name.startswith("anchor-"):
                failures.append(f"{name} was not rated ({player.note or 'no rated game'})")
            continue
        k = names.index(name)
        count = sum(1 for r in rated if name in (r.tag("Black"), r.tag("White")))
        agree = abs(last[-1].elo - elo[k]) <= max(1e-6, margin[k])
        if not agree:
            failures.append(f"{name}: arena {last[-1].elo:.1f} against offline {elo[k]:.1f} ± {margin[k]:.1f}")
        lost = ", ".join(f"{kind} {n}" for kind, n in sorted(faults.get(player.id, {}).items()) if n) or "-"
        print(
            f"{name:<16}{count:>6}{last[-1].elo:>11.1f}{elo[k]:>9.1f}{margin[k]:>6.0f}  {player.validated!s:<9}  {lost}"
        )
        if not player.validated:
            failures.append(f"{name} not validated: {player.note}")
    guests = [r for r in records(folder, "*.pgn") if "guest" in (r.tag("Black"), r.tag("White"))]
    endings = collections.Counter(r.tag("Termination", "move") for r in guests)
    print(f"\ngthd library ({'unchanged, from ' + str(args.gthclient) if args.gthclient else 'stand-in'}): "
          f"{len(guests)} games as guests, ended by {dict(endings)}")  # fmt: skip
    print("program exits:", dict(sorted(exits.items())))
    for line in failures:
        print("FAILED:", line)
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
