"""The options ``referee match`` and ``referee tournament`` share, and the files of
their runs: the sandbox and adjudication options and what they make, openings,
a player's spec checked, output folders checked writable, and a run's folder read
back (its ``match.json`` or ``tournament.json``, its claimed records) to resume.
Playing a game with them is impl/apps/games.py's."""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from impl.apps import cgroups, launch, tbadjudge
from impl.apps import sandbox as sandboxes
from impl.apps.nobody import share_refusal
from impl.apps.sandbox import Sandbox
from impl.apps.terms import Adjudication, PlayerSpec
from impl.atomic import read_bounded, why, write_atomic
from impl.cli import UsageError, positive
from impl.engines.openings import ORDERS, Opening, OpeningError, ordered, random_openings, read_openings
from impl.engines.registry import get_engine


def add_sandbox_arguments(p: argparse.ArgumentParser) -> None:
    """``--sandbox`` and ``--sandbox-share``, for match and tournament (impl/apps/sandbox.py)."""
    p.add_argument(
        "--sandbox",
        choices=sandboxes.KINDS,
        default="auto",
        help="where each player program runs: bwrap (bubblewrap), unshare, none, or auto, the strongest that "
        "works here (default)",
    )
    p.add_argument(
        "--sandbox-share",
        type=Path,
        action="append",
        default=[],
        metavar="DIR",
        help="a directory the programs may write to in a bwrap sandbox (shared by both; repeatable)",
    )
    p.add_argument(
        "--program-memory",
        type=sandboxes.memory_size,
        default=cgroups.PROGRAM_MEMORY,
        metavar="SIZE",
        help="each program's memory cap, swap included, where its cgroup has a memory controller "
        f"(e.g. 512M; default {cgroups.PROGRAM_MEMORY >> 30}G)",
    )


def add_adjudication_arguments(p: argparse.ArgumentParser) -> None:
    """``--max-plies``, ``--resign-margin`` and ``--tb`` (``Adjudication``), for match and tournament."""
    tbadjudge.add_arguments(p)
    p.add_argument(
        "--max-plies",
        type=positive,
        metavar="N",
        help="adjudicate a game still running after N plies a draw (cutechess/fastchess -maxmoves; default off)",
    )
    p.add_argument(
        "--resign-margin",
        metavar="M[:PLIES]",
        help="adjudicate a win for a side ahead in the count (stores, stones) by M or more for PLIES plies in a "
        "row (default 8; default off)",
    )


def adjudication_of(args: argparse.Namespace, what: str) -> Adjudication | None:
    """The adjudication the arguments ask for, None for none."""
    margin, plies = None, Adjudication.plies
    if args.resign_margin is not None:
        text, _, count = args.resign_margin.partition(":")
        try:
            margin, plies = int(text), int(count) if count else plies
        except ValueError:
            margin = None
        if margin is None or not 0 < margin <= 48 or not 0 < plies <= 10_000:
            raise UsageError(f"{what}: --resign-margin is M or M:PLIES, 1 ≤ M ≤ 48 and 1 ≤ PLIES ≤ 10000")
    table = tbadjudge.rule_of(args, what)
    if margin is None and args.max_plies is None and table is None:
        return None
    return Adjudication(args.max_plies, margin, plies, table)


def sandbox_of(args: argparse.Namespace, what: str) -> Sandbox:
    """The sandbox the arguments ask for, tried here: a usage error if it cannot run;
    a warning line on stderr saying what it cannot bound here (``sandboxes.describe``)."""
    try:
        box = sandboxes.choose(args.sandbox)
    except sandboxes.Unavailable as exc:
        raise UsageError(f"{what}: {exc}") from None
    shared = []
    for directory in args.sandbox_share:
        if not directory.is_dir():
            raise UsageError(f"{what}: --sandbox-share: {str(directory)!r} is not a directory")
        if refusal := share_refusal(str(directory)):
            raise UsageError(f"{what}: --sandbox-share: {str(directory)!r}: {refusal}")
        shared.append(str(directory.resolve()))
    box = replace(box, shared=tuple(shared), memory=args.program_memory)
    if (line := sandboxes.describe(box)) and not getattr(args, "quiet", False):
        print(f"{what}: {line}", file=sys.stderr)
    return box


def add_opening_arguments(p: argparse.ArgumentParser) -> None:
    """The options of openings (impl/engines/openings.py), for match and tournament."""
    book = p.add_mutually_exclusive_group()
    book.add_argument("--openings", type=Path, metavar="FILE", help="openings the referee plays first, one a line")
    book.add_argument(
        "--random-openings", type=positive, metavar="PLIES", help="openings of PLIES random legal moves (see --seed)"
    )
    p.add_argument(
        "--openings-order", choices=ORDERS, default="sequential", help="the file's order (default) or shuffled"
    )
    p.add_argument(
        "--repeat",
        action=argparse.BooleanOptionalAction,
        help="play each opening twice, colours reversed (default with openings)",
    )
    p.add_argument("--seed", type=int, default=1, help="seed of --random-openings and --openings-order random")


def openings_of(args: argparse.Namespace, what: str, games: int) -> tuple[tuple[Opening, ...], bool]:
    """The openings asked for, in the order to play them, and whether each is
    played twice (``--repeat``: by default when there are openings); ``games``:
    the games of a pairing."""
    if args.openings is None and args.random_openings is None:
        if args.repeat:
            raise UsageError(f"{what}: --repeat needs --openings or --random-openings")
        return (), False
    repeat = args.repeat is not False
    if repeat and games % 2:
        raise UsageError(f"{what}: --repeat plays each opening twice: --games must be even, not {games}")
    engine = get_engine(args.game, "impl", args.rules)
    try:
        if args.openings is not None:
            found = read_openings(engine, args.openings)
        else:
            count = games // 2 if repeat else games
            found = random_openings(engine, count, args.random_openings, args.seed)
    except OpeningError as exc:
        raise UsageError(f"{what}: {exc}") from None
    return ordered(found, args.openings_order, args.seed), repeat


def writable(directory: Path | None, what: str) -> Path | None:
    """A directory to write into, made now: a usage error if it cannot be."""
    if directory is None:
        return None
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"{what}: cannot write to {str(directory)!r}: {exc.strerror}") from None
    return directory


RECORD = re.compile(r"game-(\d{4,})\.pgn")
"""A game's record in a records directory."""
MATCH_FILE = "match.json"
RUN_FILES = {MATCH_FILE: "match", "tournament.json": "tournament"}
"""The file that says which run a records directory's games are of, and its kind."""


MAX_RUN_FILE = 8 << 20
"""The largest run file read (8 MiB): a run file is a few hundred bytes, and one of
an older version, which held the openings' list, fits for any openings file the
limits of impl/engines/openings.py let in."""


def read_run_file(path: Path, what: str) -> Any:
    """The JSON of the run file ``path``, read bounded (``MAX_RUN_FILE``, a regular
    file only); a usage error saying why it cannot be — unreadable, too large, not
    UTF-8, not JSON, nested too deep for the parser or too large for memory."""
    try:
        text = read_bounded(path, MAX_RUN_FILE).decode("utf-8")
    except OSError as exc:
        raise UsageError(f"{what}: cannot read {str(path)!r}: {why(exc)}") from None
    except UnicodeDecodeError:
        raise UsageError(f"{what}: cannot read {str(path)!r}: not UTF-8") from None
    try:
        return json.loads(text)
    except (ValueError, RecursionError, MemoryError) as exc:  # ValueError: JSONDecodeError
        reasons = {RecursionError: "nested too deep", MemoryError: "too large to read"}
        state = "empty" if not text.strip() else reasons.get(type(exc), "not JSON")
        raise UsageError(
            f"{what}: {str(path)!r} is {state}; remove it to run here again (this run's games are kept)"
        ) from None


def claim_records(
    directory: Path,
    name: str,
    identity: dict[str, Any],
    what: str,
    *,
    resume: bool,
    upgrade: Callable[[Any], Any] = lambda old: old,
) -> None:
    """Make the records directory and mark it as this run's (``name`` holding
    ``identity``), or check that it is: a usage error if it holds another run's
    games — another kind's file, a different ``name``, or (unless ``resume``) any
    game at all — or if ``name`` cannot be read as JSON (``read_run_file``).
    ``upgrade`` turns a run file of an older version into today's form."""
    writable(directory, what)
    path = directory / name
    mine = json.loads(json.dumps(identity, allow_nan=False))
    for other, kind in RUN_FILES.items():
        if other != name and (directory / other).exists():
            raise UsageError(f"{what}: {str(directory)!r} holds a {kind}'s games ({other})")
    try:
        games = any(RECORD.fullmatch(entry.name) for entry in directory.iterdir())
        exists = os.path.lexists(path)
    except OSError as exc:
        raise UsageError(f"{what}: cannot read {str(directory)!r}: {why(exc)}") from None
    if not exists:
        if games:  # games with no run file: nothing says whose they are
            raise UsageError(f"{what}: {str(directory)!r} holds games of another run")
        try:
            text = json.dumps(identity, indent=2, ensure_ascii=False, allow_nan=False) + "\n"
            write_atomic(path, text, overwrite=False)
        except OSError as exc:
            raise UsageError(f"{what}: cannot write {str(path)!r}: {why(exc)}") from None
        return
    if upgrade(read_run_file(path, what)) != mine:
        raise UsageError(f"{what}: {str(directory)!r} holds another {RUN_FILES[name]}'s games ({name} differs)")
    if games and not resume:
        raise UsageError(f"{what}: {str(directory)!r} holds the games of an earlier run of this {RUN_FILES[name]}")


def checked_player(text: str, which: str, what: str = "referee match") -> PlayerSpec:
    """A player given on the command line (to ``what``), its program and placeholders checked now."""
    try:
        spec = PlayerSpec.parse(text)
    except ValueError as exc:
        raise UsageError(f"{what}: {which}: {exc}") from None
    if wrong := launch.unknown_placeholder(spec.template):
        raise UsageError(f"{what}: {which}: {wrong}")
    program = spec.command({})[0]
    if shutil.which(program) is None:
        raise UsageError(f"{what}: {which}: no program {program!r}")
    return spec
