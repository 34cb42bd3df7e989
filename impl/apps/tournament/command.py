"""``referee tournament``: its command line and its run."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from impl import tasks as runners
from impl.apps import protocheck, strict
from impl.apps.options import (
    add_adjudication_arguments,
    add_opening_arguments,
    add_sandbox_arguments,
    checked_player,
    openings_of,
)
from impl.apps.terms import GameTerms
from impl.apps.tournament.config import (
    GAUNTLET,
    ROUND_ROBIN,
    RecordFailed,
    TournamentConfig,
    add_time_for_argument,
    split_label,
    time_for_of,
)
from impl.apps.tournament.live import progress
from impl.apps.tournament.outputs import add_result_options
from impl.apps.tournament.play import Where
from impl.apps.tournament.runs import prepare
from impl.apps.tournament.summary import tables
from impl.atomic import why
from impl.cli import (
    UsageError,
    add_rules_argument,
    check_rules,
    failed,
    install_hint,
    port,
    positive,
    seconds,
    subcommand,
)
from impl.config import TIME_HELP, increments, time_control, times
from impl.engines.port import KINDS

EPILOG = (
    'A PLAYER is as for referee match: random, "search --budget 0.1", or a command line with {game} '
    "{host} {port} {side}; LABEL=PLAYER names it LABEL.  Run again with the same --records DIR to resume."
)


def add_command(subparsers: Any) -> None:
    p = subcommand(subparsers, "tournament", run, epilog=EPILOG)
    p.add_argument("players", metavar="PLAYER", nargs="+")
    p.add_argument("--game", choices=["awari", "gothello"], required=True)
    p.add_argument("--games", type=positive, default=2, metavar="G", help="games per pairing (default 2)")
    p.add_argument("--gauntlet", action="store_true", help="the first player against each other, not all pairs")
    p.add_argument("--time", type=time_control, nargs="+", metavar="SECS[+INC]", help=TIME_HELP)
    add_time_for_argument(p)
    p.add_argument(
        "--timeout", type=seconds, default=GameTerms.timeout, help="seconds a game may last (default %(default)g)"
    )
    p.add_argument(
        "--engine", choices=KINDS, default=GameTerms.engine, help="the referee's rules engine (default %(default)s)"
    )
    add_rules_argument(p)
    add_records_arguments(p, "tournament")
    p.add_argument(
        "--jobs", type=positive, default=os.cpu_count() or 1, metavar="C", help="games at once (default: the CPUs)"
    )
    p.add_argument(
        "--workers", type=int, default=0, metavar="N", help="local Dask worker processes (default 0: threads here)"
    )
    p.add_argument(
        "--scheduler",
        type=runners.scheduler_address,
        metavar="ADDRESS",
        help="a Dask scheduler (tcp://host:8786) instead of a local cluster",
    )
    p.add_argument("--dashboard", action="store_true", help="open the local cluster's Dask dashboard (on 127.0.0.1)")
    add_result_options(p)
    p.add_argument("--quiet", "-q", action="store_true", help="no progress, the tables only")
    add_game_arguments(p)


def add_game_arguments(p: Any) -> None:
    """How each game is played, which ``referee tournament`` and ``referee match``
    share: openings, the sandbox, adjudication, ``--strict``, ``--check-protocol``,
    and the live view."""
    add_opening_arguments(p)
    add_sandbox_arguments(p)
    add_adjudication_arguments(p)
    for switch in (strict, protocheck):
        p.add_argument(switch.FLAG, action="store_true", help=switch.HELP)
    add_web_arguments(p)


def add_records_arguments(p: Any, command: str, note: str = "") -> None:
    """``--records DIR`` and ``--event``, which ``referee tournament`` and ``referee
    match`` share: the run's records directory (``records_directory``) and their
    Event tag, ``referee COMMAND`` unless given."""
    help = f"the records directory{note} (default: a new one, {command}-<time>)"
    p.add_argument("--records", type=Path, metavar="DIR", help=help)
    p.add_argument("--event", default=f"referee {command}", help="the records' Event tag")


def add_web_arguments(p: Any) -> None:
    """``--web PORT`` and ``--web-host``: the live view (impl/web/tourney.py)."""
    p.add_argument(
        "--web",
        type=port,
        metavar="PORT",
        help="serve the live standings and games on this port (0: any free port; needs the web extra)",
    )
    p.add_argument("--web-host", default="127.0.0.1", metavar="HOST", help="address of --web (default 127.0.0.1)")


def config_of(args: argparse.Namespace) -> TournamentConfig:
    what = "referee tournament"
    if len(args.players) < 2:
        raise UsageError(f"{what}: at least two players")
    if args.workers < 0:
        raise UsageError(f"{what}: --workers: {args.workers} is not a whole number >= 0")
    if args.workers and args.scheduler:
        raise UsageError(f"{what}: --workers and --scheduler are exclusive")
    if args.dashboard and args.scheduler:
        raise UsageError(f"{what}: --dashboard is for the local cluster (a scheduler has its own)")
    for i, text in enumerate(args.players):
        checked_player(split_label(text)[1], f"PLAYER {i + 1}", what)
    mode = GAUNTLET if args.gauntlet else ROUND_ROBIN
    check_rules(what, args.game, args.rules)
    openings, repeat = openings_of(args, what, args.games)
    return TournamentConfig(
        tuple(args.players),
        args.game,
        args.games,
        mode,
        args.event,
        openings,
        repeat,
        time=times(args.time, what),
        increment=increments(args.time),
        time_for=time_for_of(args, (split_label(p)[0] for p in args.players), what),
        timeout=args.timeout,
        engine=args.engine,
        rules=args.rules,
    )


def missing_extra(local: bool) -> str:
    """The extra to install: a tournament in threads here needs no Dask (nor the
    cryptography of its cluster's TLS), so it is not asked for then."""
    if local:
        return f"needs the tournament extra ({install_hint('tournament')})"
    return f"--workers and --scheduler need the cluster extra ({install_hint('cluster')})"


def run(args: argparse.Namespace) -> int:
    """a round robin or gauntlet among many players, here or on Dask

    Play a round robin (or a gauntlet) among N players: G games per pairing, sides
    alternating, in threads here or as Dask tasks (--workers, --scheduler); progress,
    standings, crosstable, ratings, endings and failures; every game's record in DIR.
    """
    what = "referee tournament"
    config = config_of(args)
    where = Where.of(args)  # Dask only where the games leave this process: by default threads here
    try:
        if not where.local:
            import distributed  # noqa: F401
        import openskill  # noqa: F401
        from rich.console import Console
    except ImportError as exc:
        raise UsageError(f"{what}: {missing_extra(where.local)}: {exc}") from None
    games = prepare(args, what, config, where, "tournament")  # refused before anything is made
    directory, results, tasks = games.directory, games.results, games.tasks
    # No markup: labels are command lines, whose brackets are not rich's; wide
    # tables when written to a file.
    console = Console(markup=False, highlight=False, width=None if sys.stdout.isatty() else 160)
    if games.extended is not None and not args.quiet:
        console.print(f"Extending {directory} from {games.extended} to {config.games} games per pairing")
    if results and not args.quiet:
        console.print(f"Resuming from {directory}: {len(results)} of {len(tasks)} games recorded")
    if not args.quiet:
        console.print("\n".join(games.settings))
    try:
        with progress(console, config, tasks, results, args.quiet, games.hypotheses) as (started, finished):
            games.play(started, finished, None if args.quiet else console)
    except KeyboardInterrupt:
        print(
            f"\ninterrupted: {len(results)} of {len(tasks)} games recorded in {directory}; run again to resume",
            file=sys.stderr,
        )
        return 130
    except RecordFailed as exc:
        return failed(what, f"{exc}; {len(results)} of {len(tasks)} games recorded")
    except OSError as exc:
        return failed(what, f"cannot reach the Dask cluster: {why(exc)}")
    summary = games.summary()
    for renderable in tables(summary):
        console.print(renderable)
    console.print(f"Records: {directory}")
    if args.check_protocol:
        console.print(protocheck.report((r.number, r.record) for r in results.values())[0])
    error = games.write_outputs(summary)
    if error:
        return failed(what, error)
    return 1 if any(f.kind in ("no result", protocheck.KIND) for f in summary.failures) else 0
