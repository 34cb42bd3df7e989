"""One run of games, ``referee match``'s or ``referee tournament``'s (fastchess's
``BaseTournament``, cutechess-cli's one tournament object): built once by
``prepare`` from the command's arguments — the players and terms
(``TournamentConfig``), the schedule with each game's options, where the games run,
the records directory and what it already holds, the outputs — and played by
``Run.play``, which both commands call.  The commands keep only how they show it."""

from __future__ import annotations

import argparse
import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from impl.apps.games import ended_like_ctrl_c
from impl.apps.options import adjudication_of, sandbox_of
from impl.apps.sprt import Hypotheses
from impl.apps.terms import Adjudication
from impl.apps.tournament.config import CONFIG, TournamentConfig
from impl.apps.tournament.config import settings as config_settings
from impl.apps.tournament.live import Finished, Started, both, both_finished, live_view, watched
from impl.apps.tournament.outputs import anchor_of, check_outputs, hypotheses_of, write_outputs
from impl.apps.tournament.play import Where, execute
from impl.apps.tournament.resume import load_records, open_records, records_directory
from impl.apps.tournament.schedule import GameResult, Task, schedule
from impl.apps.tournament.summary import Summary, summarise


@dataclass
class Run:
    """A match or tournament ready to play: ``results`` fills as games finish."""

    what: str
    """The command, as its messages name it (``referee match``)."""
    config: TournamentConfig
    where: Where
    hypotheses: Hypotheses | None
    adjudication: Adjudication | None
    anchor: int | None
    directory: Path
    extended: int | None
    """The games a run being extended had (``open_records``), else None."""
    tasks: list[Task]
    results: dict[int, GameResult]
    args: argparse.Namespace
    """The outputs' and the live view's options (``--json``, ``--web`` …)."""

    @property
    def settings(self) -> list[str]:
        """The settings summary, printed at the start and kept in ``--json``."""
        return config_settings(self.config, self.adjudication, self.where.jobs)

    @property
    def todo(self) -> list[Task]:
        return [t for t in self.tasks if t.number not in self.results]

    def play(self, started: Started, finished: Finished, console: Any = None) -> None:
        """Play the games not yet recorded, here or on Dask, with the live view when
        asked; a SIGTERM ends it as Ctrl-C does (KeyboardInterrupt)."""
        live = live_view(self.args, self.what, self.config, len(self.tasks), self.results, self.directory,
                         self.hypotheses, self.where.local, self.settings)  # fmt: skip
        with ended_like_ctrl_c(), live as (token, web_started, web_finished):
            todo = watched(self.todo, token)
            started, finished = both(started, web_started), both_finished(finished, web_finished)
            execute(self.config, todo, self.results, self.directory, self.where, started, finished,
                    self.hypotheses, console)  # fmt: skip

    def summary(self) -> Summary:
        done = list(self.results.values())
        return summarise(self.config, done, len(self.tasks), hypotheses=self.hypotheses, anchor=self.anchor)

    def write_outputs(self, summary: Summary) -> str:
        """``--json``, ``--csv``, ``--pgnout``; what could not be written."""
        return write_outputs(self.config, summary, list(self.results.values()), self.args, self.settings)


def prepare(
    args: argparse.Namespace,
    what: str,
    config: TournamentConfig,
    where: Where,
    command: str,
    run_file: str = CONFIG,
    **options: Any,
) -> Run:
    """The run of ``config`` as ``args`` ask: every refusal (SPRT bounds, sandbox,
    adjudication, anchor, outputs, the records directory) before anything is played.
    ``command`` names a new records directory, ``run_file`` the run's file there;
    ``options`` are set on every game's ``MatchOptions`` beside the sandbox, the
    adjudication, ``--strict`` and ``--check-protocol``."""
    hypotheses = hypotheses_of(args, len(config.players), what)
    box, rules = sandbox_of(args, what), adjudication_of(args, what)
    anchor = anchor_of(args, config, what)
    check_outputs(args, what)
    directory = records_directory(args, command)
    where_records = f"{what}: --records"
    extended = open_records(config, directory, where_records, run_file)
    terms = dict(sandbox=box, adjudication=rules, strict=args.strict, check_protocol=args.check_protocol, **options)
    tasks = [dataclasses.replace(t, options=dataclasses.replace(t.options, **terms)) for t in schedule(config)]
    results = load_records(tasks, directory, where_records)
    return Run(what, config, where, hypotheses, rules, anchor, directory, extended, tasks, results, args)
