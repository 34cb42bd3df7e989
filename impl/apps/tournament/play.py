"""Playing a tournament's games: each game a task (``run_task``) on the task runner
(impl/tasks.py) — threads here, or Dask — each result recorded as it comes."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from impl import pgn
from impl import tasks as runners
from impl.apps.games import INTERRUPTED, play_game
from impl.apps.sprt import Hypotheses
from impl.apps.terms import PlayerSpec
from impl.apps.tournament.config import RecordFailed, TournamentConfig
from impl.apps.tournament.schedule import GameResult, Task, score_of
from impl.apps.tournament.summary import decided
from impl.atomic import why, write_atomic


def run_task(task: Task) -> GameResult:
    """Play one game where this runs (a Dask worker); its result and record.  The
    specs are parsed here, so that our players run on the worker's Python."""
    specs = tuple(
        PlayerSpec(label, PlayerSpec.parse(text).template) for label, text in zip(task.labels, task.specs, strict=True)
    )
    # match.py names the players A and B: A is the lower-numbered player here (in
    # referee match PLAYER_A, whose --logs files say A), whichever moves first;
    # ``low`` is 1 when the first mover is B.
    low = 0 if task.players[0] < task.players[1] else 1
    order = (low, 1 - low)
    outcome = play_game((specs[order[0]], specs[order[1]]), task.number, task.options, low, task.round, task.opening)
    summaries = tuple(
        (task.players[order[p]], line) for p, lines in sorted(outcome.summaries.items()) for line in lines
    )
    if outcome.result is None or outcome.error or outcome.result.termination.aborted:
        error = f"{outcome.error or 'aborted'} (A = {task.labels[order[0]]}, B = {task.labels[order[1]]})"
        culprits = tuple(task.players[order[c]] for c in outcome.culprits)
        return GameResult(
            task.number, task.round, task.players, None, "no result", error, outcome.record, culprits, summaries
        )
    thieves = tuple(task.players[order[c]] for c in outcome.culprits) if outcome.theft or outcome.forfeit else ()
    return GameResult(
        task.number,
        task.round,
        task.players,
        score_of(outcome.result.winner),
        outcome.result.termination.value,
        outcome.theft or outcome.forfeit,
        outcome.record,
        thieves,
        summaries=summaries,
        counts=outcome.counts,
    )


def play(
    runner: runners.Runner,
    tasks: Sequence[Task],
    jobs: int,
    started: Callable[[Task], None],
    finished: Callable[[Task, GameResult], None],
    stop: Callable[[], bool] = lambda: False,
) -> None:
    """Run ``tasks`` on ``runner``, at most ``jobs`` in flight; once ``stop()`` (the
    SPRT has decided) no more are submitted, and those running finish."""
    for task, outcome in runner.as_done(
        run_task, tasks, jobs, keep_going=lambda: not stop(), started=started, key=lambda t: f"game-{t.number:04d}"
    ):
        # a task that itself failed is a failure of the game, never silent
        finished(task, _failed(task, outcome) if isinstance(outcome, Exception) else outcome)


def _failed(task: Task, exc: Exception) -> GameResult:
    return GameResult(task.number, task.round, task.players, None, "no result", f"task failed: {exc!r}")


@dataclass(frozen=True)
class Where:
    """Where a run's games are played: ``jobs`` at once, in threads here if
    ``local``, else on Dask — the cluster at ``scheduler``, or an embedded one of
    ``workers`` processes sharing the ``jobs`` threads (``dashboard``: open it)."""

    jobs: int
    local: bool = True
    workers: int = 0
    scheduler: str | None = None
    dashboard: bool = False

    @classmethod
    def of(cls, args: argparse.Namespace) -> Where:
        """``--jobs``, and ``referee tournament``'s ``--workers``, ``--scheduler``, ``--dashboard``."""
        workers, scheduler = getattr(args, "workers", 0), getattr(args, "scheduler", None)
        return cls(args.jobs, workers == 0 and scheduler is None, workers, scheduler, getattr(args, "dashboard", False))


def runner_of(where: Where) -> AbstractContextManager[runners.Runner]:
    if where.local:
        return runners.threads(where.jobs)
    per_worker = max(1, -(-where.jobs // where.workers)) if where.workers else where.jobs
    return runners.dask(where.scheduler, where.workers, per_worker, dashboard=where.dashboard)


def execute(
    config: TournamentConfig,
    todo: Sequence[Task],
    results: dict[int, GameResult],
    directory: Path,
    where: Where,
    started: Callable[[Task], None],
    finished: Callable[[Task, GameResult], None],
    hypotheses: Hypotheses | None = None,
    console: Any = None,
) -> None:
    """Play ``todo`` ``where`` asks, recording each game's result in ``results`` and
    its record in ``directory``, until done or the SPRT decides (``console``: where
    to name the Dask dashboard)."""

    def record(task: Task, result: GameResult) -> None:
        if INTERRUPTED.is_set():  # a game cut short by the interruption: played again on resuming
            return
        if result.record:
            try:
                write_atomic(directory / pgn.record_name(task.number), result.record, overwrite=False)
            except OSError as exc:
                raise RecordFailed(f"cannot write the record of game {task.number}: {why(exc)}") from None
        results[task.number] = result
        finished(task, result)

    def stop() -> bool:
        return decided(config, results, hypotheses)

    if not todo or stop():
        return
    with runner_of(where) as runner:
        if where.dashboard and console is not None:
            console.print(f"Dask dashboard: {runner.dashboard_link}")
        play(runner, todo, where.jobs, started, record, stop)
