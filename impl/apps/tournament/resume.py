"""A records directory across runs: its run file (``tournament.json``), the finished games
read back from their records, and a run extended with more games."""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Sequence
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

from impl import pgn
from impl.apps import strict
from impl.apps.options import claim_records, read_run_file
from impl.apps.tournament.config import CONFIG, TournamentConfig
from impl.apps.tournament.schedule import GameResult, Task, schedule, score_of
from impl.atomic import read_bounded, why, write_atomic
from impl.cli import UsageError
from impl.engines.openings import digest
from impl.game import Termination


def from_record(task: Task, text: str) -> GameResult | None:
    """A finished game's result from its record, if it is this task's game."""
    try:
        game = pgn.parse(text)
    except pgn.PgnError:
        return None
    if (
        game.game != task.options.game
        or game.names != _stored_names(game, task.labels)
        or game.tag("Round") != task.round
    ):
        return None
    if game.tag(pgn.OPENING) != " ".join(task.opening):
        return None
    outcome = game.outcome
    if outcome.termination.aborted:
        return None  # played again
    theft = game.tag("SeatTheft") or game.tag(strict.TAG)
    loser = task.players[0 if outcome.winner == 1 else 1] if outcome.winner is not None else None
    forfeit = outcome.termination == Termination.SEAT_THEFT or bool(game.tag(strict.TAG))
    culprits = (loser,) if forfeit and loser is not None else ()
    return GameResult(
        task.number,
        task.round,
        task.players,
        score_of(outcome.winner),
        outcome.termination.value,
        theft,
        text,
        culprits,
    )


def _stored_names(game: pgn.PgnGame, labels: tuple[str, str]) -> tuple[str, str]:
    """The labels as a record written by this tournament reads them back (a tag
    value may be stored differently from the label: ``Jörg``), so that a resume
    recognises every finished game."""
    sides = [side.capitalize() for side in game.sides]
    tags = (("Game", game.game), *zip(sides, labels, strict=True))
    return pgn.parse(pgn.write(pgn.PgnGame(tags, (), pgn.ABORTED))).names


MAX_RECORD = 16 << 20
"""The largest game record read on resuming (16 MiB; a long game's is tens of kB):
a record is read only if it is a regular file no larger (impl/atomic.py ``read_bounded``)."""


def load_records(
    tasks: Sequence[Task], directory: Path, what: str = "referee tournament: --records"
) -> dict[int, GameResult]:
    """The results of the tasks whose finished game is recorded in ``directory``;
    the records of games that are not finished games of this run (aborted, or
    unreadable) are set aside, and those games played again."""
    results: dict[int, GameResult] = {}
    try:
        for task in tasks:
            path = directory / pgn.record_name(task.number)
            if path.exists():
                text = read_bounded(path, MAX_RECORD).decode("utf-8", errors="replace")
                done = from_record(task, text)
                if done is not None:
                    results[task.number] = done
                else:
                    set_aside(path)
    except OSError as exc:
        raise UsageError(f"{what}: {why(exc)}") from None
    return results


RUN_FILE = (
    *("players", "game", "games", "mode", "time", "engine", "timeout", "event", "rules", "openings", "repeat"),
    *("increment", "time_for"),
)
"""The run file's keys in the order it has always written them (a new field of the
configuration must be placed here: ``index`` refuses one that is not)."""
UNLESS_SET = {"increment": [0.0, 0.0], "time_for": []}
"""Keys written only when not at these values, so that the run files written
before them still name the same runs."""


def run_identity(config: TournamentConfig) -> dict[str, Any]:
    """What a run file holds: ``config``, its openings as their count and digest
    (impl/engines/openings.py ``digest``) rather than the list, which could make a
    run file of megabytes."""
    fields = asdict(config)
    mine = {name: fields[name] for name in sorted(fields, key=RUN_FILE.index)}
    mine["time"] = list(config.time) if config.time else None
    mine["increment"] = list(config.increment)
    mine["time_for"] = [[label, str(control)] for label, control in config.time_for]
    mine = {k: v for k, v in mine.items() if UNLESS_SET.get(k, ()) != v}
    mine["openings"] = {"count": len(config.openings), "sha256": digest(config.openings)}
    return mine


def upgrade_run_file(old: Any) -> Any:
    """A run file of an older version, which held the openings' list, as today's
    (``run_identity``): the list becomes its count and digest, so that its run resumes."""
    if isinstance(old, dict) and isinstance(old.get("openings"), list):
        listed = old["openings"]
        if all(isinstance(o, list) and all(isinstance(m, str) for m in o) for o in listed):
            return old | {"openings": {"count": len(listed), "sha256": digest(listed)}}
    return old


def open_records(
    config: TournamentConfig, directory: Path, what: str = "referee tournament: --records", name: str = CONFIG
) -> int | None:
    """Make the records directory, or check that it holds this run's: a
    tournament's (``tournament.json``) or a match's (``name``: ``match.json``).
    A run of one pairing with fewer games (``extension``) is extended: its run file
    rewritten with this ``--games``; the number of games it had is returned."""
    path = directory / name
    mine = run_identity(config)
    before = None
    if path.is_file():
        old = upgrade_run_file(read_run_file(path, what))
        before = extension(old, config, f"{what}: {str(directory)!r}")
        if before is not None:
            try:
                write_atomic(path, json.dumps(mine, indent=2, ensure_ascii=False, allow_nan=False) + "\n")
            except OSError as exc:
                raise UsageError(f"{what}: cannot write {str(path)!r}: {why(exc)}") from None
    claim_records(directory, name, mine, what, resume=True, upgrade=upgrade_run_file)
    return before


def extension(old: Any, config: TournamentConfig, where: str) -> int | None:
    """The games per pairing of run file ``old`` if this run extends it: only
    ``games`` grew, and the openings of its games are the same (the first
    ``count`` of ours have its digest: a file's list, or ``--random-openings``
    drawn in order).  A usage error if it is this run with other games that cannot
    be extended; None if it is not this run at all (``claim_records`` says so)."""
    mine = json.loads(json.dumps(run_identity(config)))  # as read back: lists, not tuples
    if not isinstance(old, dict) or not isinstance(old.get("games"), int) or old["games"] == config.games:
        return None
    listed = old.get("openings")
    if not isinstance(listed, dict) or not isinstance(listed.get("count"), int):
        return None
    count = listed["count"]
    same_openings = count <= len(config.openings) and digest(config.openings[:count]) == listed.get("sha256")
    rest = {k: v for k, v in old.items() if k not in ("games", "openings")}
    if rest != {k: v for k, v in mine.items() if k not in ("games", "openings")}:
        return None
    had = old["games"]
    if config.games < had:  # whatever the openings: a run only grows
        raise UsageError(f"{where} holds a run of {had} games per pairing: --games must be at least {had}")
    if not same_openings:
        return None
    pairings = len(schedule(replace(config, games=1)))
    if pairings != 1:  # more pairings: each game's number would move
        raise UsageError(f"{where}: --games can grow only with one pairing (two players), not {pairings}")
    return int(had)


def set_aside(path: Path) -> None:
    """A record not kept (its game is played again) keeps its text under another
    name: a new record never overwrites one."""
    stamp = time.strftime("%Y%m%dT%H%M%S")
    for n in range(1, 1000):
        target = path.with_name(f"stale-{path.stem}-{stamp}-{n}.pgn")
        if not target.exists():
            path.rename(target)
            return


def records_directory(args: argparse.Namespace, command: str) -> Path:
    """``--records``, or a new directory named after the command and the time."""
    return Path(args.records or time.strftime(f"{command}-%Y%m%dT%H%M%S"))
