"""``referee replay FILE``: a recorded game (impl/pgn.py) move by move on the
terminal, every move checked by the engine, with the board, the last move and
its captures, the clocks and the result; ``referee show FILE --ply N``: one
position.

Interactive on a terminal (Enter: the next move, q: quit); with ``--auto`` or
when stdin is not a terminal, every position is printed in turn (``--delay``
seconds apart)."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from impl import atomic, pgn
from impl.apps import boardview
from impl.cli import UsageError, bound, count, subcommand
from impl.engines.port import side_to_move
from impl.engines.registry import get_engine


@dataclass(frozen=True)
class Frame:
    """The position after ``ply`` plies: its lines, ready to print."""

    ply: int
    lines: list[str]


def frames(record: pgn.PgnGame, colour: bool = False) -> Iterator[Frame]:
    """Every position of the game, the initial one first, each move played by the
    engine (the reader has checked them: impl/pgn.py)."""
    game, sides = record.game, record.sides
    engine = get_engine(game, "impl", pgn.engine_rules(game, record.tag("Rules")))
    state = engine.initial()
    clocks: list[float | None] = list(record.time) if record.time is not None else [None, None]
    mark = boardview.Marks()
    # From an Unchecked ply on, the fast engine diverged from the game's moves (impl/pgn.py): not replayed.
    last = int(record.tag(pgn.UNCHECKED, "0")) - 1 if record.tag(pgn.UNCHECKED) else len(record.plies)
    for ply in range(last + 1):
        board = engine.render(state)
        move = record.plies[ply - 1] if ply else None
        head = f"{record.tag('Event')}, round {record.tag('Round')}: " if ply == 0 else ""
        title = "start" if move is None else f"ply {ply}: {(ply + 1) // 2}{'.' if ply % 2 else '...'} {move.san}"
        lines = [f"{head}{title}", *boardview.view(game, board, mark, colour)]
        if move is not None and move.clock is not None:
            clocks[(ply - 1) % 2] = move.clock
        if clocks[0] is not None and clocks[1] is not None:
            lines.append("clocks: " + "  ".join(f"{sides[i]} {boardview.clock(c or 0)}" for i, c in enumerate(clocks)))
        if ply == last < len(record.plies):
            lines.append(f"ply {ply + 1} on: moves the fast engine refuses (a divergence of the checked engine)")
        if ply == last:
            names = " vs ".join(f"{n or '?'} ({s})" for n, s in zip(record.names, sides, strict=True))
            outcome = record.outcome
            lines.append(f"result {record.result}: {outcome.describe(sides)} ({names})")
        elif game == "gothello" and not engine.is_over(state):  # Awari's board names the side to move
            lines.append(f"{sides[side_to_move(engine, state)]} to move")
        yield Frame(ply, lines)
        if ply < last:
            action = engine.parse_move(record.plies[ply].move)
            mark = boardview.marks_of(engine.describe(state, action))
            _, state = engine.apply(state, action)


def load(path: Path, command: str = "referee") -> pgn.PgnGame:
    """The record in the file, every move checked; a usage error (one line,
    ``COMMAND: FILE: reason``, exit status 2) if it cannot be read or is not one:
    missing, not a regular file (a FIFO, a device, a directory: refused before a
    read that could wait or never end), larger than ``pgn.MAX_BYTES`` (issue #49)."""
    try:
        return pgn.parse(atomic.read_bounded(path, pgn.MAX_BYTES))
    except OSError as exc:
        reason = atomic.why(exc).removeprefix(f"{exc.filename}: ")  # the path is said once, below
    except pgn.PgnError as exc:
        reason = str(exc)
    raise UsageError(f"{command}: {path}: {reason}")


def add_command(subparsers: Any) -> None:
    p = subcommand(subparsers, "replay", run_replay)
    p.add_argument("file", type=Path, metavar="FILE")
    p.add_argument("--auto", action="store_true", help="print every position without waiting for Enter")
    p.add_argument("--delay", type=bound, default=0.0, metavar="SECS", help="with --auto: seconds between moves")
    q = subcommand(subparsers, "show", run_show)
    q.add_argument("file", type=Path, metavar="FILE")
    q.add_argument("--ply", type=count, default=None, metavar="N", help="after N plies (default: the last)")


def run_replay(args: argparse.Namespace) -> int:
    """step through a recorded game on the terminal

    Replay a game record (PGN, as the server's --record, match and tournament write
    them) move by move, each move checked by the engine: Enter for the next move, q to
    quit.
    """
    record = load(args.file, f"referee {args.command}")
    interactive = not args.auto and sys.stdin.isatty()
    colour = sys.stdout.isatty()
    wait: Callable[[], bool] = _enter if interactive else (lambda: _sleep(args.delay))
    for frame in frames(record, colour):
        if frame.ply and not wait():
            return 0
        print("\n".join(frame.lines), flush=True)
        if interactive and not frame.lines[-1].startswith("result "):
            print("[Enter: next move, q: quit]", end=" ", flush=True)
    return 0


def _enter() -> bool:
    line = sys.stdin.readline()
    return bool(line) and line.strip().lower() not in ("q", "quit")


def _sleep(delay: float) -> bool:
    if delay:
        time.sleep(delay)
    return True


def run_show(args: argparse.Namespace) -> int:
    """print one position of a recorded game

    Print one position.
    """
    record = load(args.file, f"referee {args.command}")
    last = len(record.plies)
    ply = last if args.ply is None else args.ply
    if ply > last:
        raise UsageError(f"referee show: --ply {ply}: the game has {last} plies")
    frame = next((f for f in frames(record, sys.stdout.isatty()) if f.ply == ply), None)
    if frame is None:
        raise UsageError(f"referee show: --ply {ply}: past the moves the engine can replay")
    print("\n".join(frame.lines))
    return 0
