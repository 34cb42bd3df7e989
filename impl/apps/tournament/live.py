"""What is shown while the games are played: ``--web``'s live view (its state, ``Watch``)
and the console's progress."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from impl import pgn
from impl.apps.sprt import Hypotheses
from impl.apps.tournament.config import TournamentConfig
from impl.apps.tournament.outputs import as_json, finite
from impl.apps.tournament.schedule import GameResult, Task, result_text
from impl.apps.tournament.summary import summarise, tables
from impl.atomic import why
from impl.cli import UsageError, install_hint

if TYPE_CHECKING:
    from impl.web.tourney import TournamentLink


def state_json(
    config: TournamentConfig,
    results: Sequence[GameResult],
    total: int,
    running: Sequence[Task],
    hypotheses: Hypotheses | None = None,
) -> dict[str, Any]:
    """``/api/tournament`` without the live ids: the tournament's ``as_json`` of
    these results, each game's record name, and the games running."""
    summary = summarise(config, results, total, hypotheses=hypotheses)
    out: dict[str, Any] = finite(as_json(config, summary, results))  # the view's JSON has no Infinity either
    recorded = {r.number for r in results if r.record}
    for game in out["games"]:
        game["record"] = pgn.record_name(game["number"]) if game["number"] in recorded else None
    out["labels"] = summary.labels
    out["progress"] = {
        "played": summary.played,
        "total": total,
        "running": [
            {"number": t.number, "round": t.round, "first": t.labels[0], "second": t.labels[1]}
            for t in sorted(running, key=lambda t: t.number)
        ],
    }
    if summary.sprt is not None:
        out["sprt"]["line"] = summary.sprt.line()
    return out


@dataclass(frozen=True)
class Snapshot:
    """The tournament at one moment: what ``state_json`` is made of."""

    config: TournamentConfig
    results: tuple[GameResult, ...]
    total: int
    running: tuple[Task, ...]
    hypotheses: Hypotheses | None
    settings: tuple[str, ...] = ()
    """The run's settings (config.settings), as its console printed them."""

    def json(self) -> dict[str, Any]:
        out = state_json(self.config, self.results, self.total, self.running, self.hypotheses)
        out["settings"] = list(self.settings)
        return out


class Watch:
    """The tournament's side of its view: a snapshot handed over as each game
    starts and finishes (on the tournament's thread, in constant time per game
    beyond copying two lists: the standings are made when asked for)."""

    def __init__(
        self,
        view: TournamentLink,
        config: TournamentConfig,
        total: int,
        results: dict[int, GameResult],
        hypotheses: Hypotheses | None,
        settings: tuple[str, ...] = (),
    ) -> None:
        self.view, self.config, self.total, self.results, self.hypotheses = view, config, total, results, hypotheses
        self.settings = settings
        self.running: dict[int, Task] = {}
        self.publish()

    def publish(self) -> None:
        results, running = tuple(self.results.values()), tuple(self.running.values())
        self.view.snapshot = Snapshot(self.config, results, self.total, running, self.hypotheses, self.settings)

    def started(self, task: Task) -> None:
        self.running[task.number] = task
        self.publish()

    def finished(self, task: Task, result: GameResult) -> None:
        self.running.pop(task.number, None)
        self.publish()


Started = Callable[[Task], None]


Finished = Callable[[Task, GameResult], None]


@contextmanager
def live_view(
    args: argparse.Namespace,
    what: str,
    config: TournamentConfig,
    total: int,
    results: dict[int, GameResult],
    directory: Path,
    hypotheses: Hypotheses | None,
    local: bool,
    settings: Sequence[str] = (),
) -> Iterator[tuple[str, Started, Finished]]:
    """``--web``'s view while the games are played: the token of its session hooks
    (``MatchOptions.live``) and the callbacks that keep its standings; no view, no
    token.  ``local``: the games run in threads here, so their boards can be shown."""
    if getattr(args, "web", None) is None:
        yield "", (lambda task: None), (lambda task, result: None)
        return
    try:
        from impl.web.tourney import TournamentLink
    except ImportError as exc:
        raise UsageError(f"{what}: --web needs the web extra ({exc}): {install_hint('web')}") from None
    view = TournamentLink(args.web_host, args.web, directory, local, getattr(args, "tb", None))
    try:
        view.open()
    except OSError as exc:
        raise UsageError(f"{what}: --web: cannot listen on {args.web_host} port {args.web}: {why(exc)}") from None
    try:
        watch = Watch(view, config, total, results, hypotheses, tuple(settings))
        host = f"[{args.web_host}]" if ":" in args.web_host else args.web_host
        boards = "" if local else " (live boards need --workers 0)"
        print(f"{what}: live view at http://{host}:{view.port}/{boards}", flush=True)
        yield view.token, watch.started, watch.finished
    finally:
        view.close()


def watched(tasks: Sequence[Task], token: str) -> list[Task]:
    """The tasks, their games shown by the live view ``token`` (if any)."""
    if not token:
        return list(tasks)
    return [replace(t, options=replace(t.options, live=token)) for t in tasks]


def both(first: Started, second: Started) -> Started:
    def started(task: Task) -> None:
        first(task)
        second(task)

    return started


def both_finished(first: Finished, second: Finished) -> Finished:
    def finished(task: Task, result: GameResult) -> None:
        first(task, result)
        second(task, result)

    return finished


@contextmanager
def progress(
    console: Any,
    config: TournamentConfig,
    tasks: Sequence[Task],
    results: dict[int, GameResult],
    quiet: bool,
    hypotheses: Hypotheses | None = None,
) -> Iterator[tuple[Callable[[Task], None], Callable[[Task, GameResult], None]]]:
    """Progress as games start and finish: a live bar and standings on a terminal,
    cutechess-style lines otherwise."""
    total = len(tasks)
    if quiet:
        yield (lambda task: None), (lambda task, result: None)
        return
    if not console.is_terminal:

        def started_line(task: Task) -> None:
            console.print(
                f"Started game {task.number} of {total} ({task.labels[0]} vs {task.labels[1]})", soft_wrap=True
            )

        def finished_line(task: Task, result: GameResult) -> None:
            score = result_text(result.score, task.labels)
            s = summarise(config, list(results.values()), total, rate=False, hypotheses=hypotheses)
            standing = ", ".join(f"{x.label} {x.score:g}/{x.games}" for x in s.standings)
            test = f"  {s.sprt.line()}" if s.sprt is not None else ""
            console.print(
                f"Finished game {task.number} of {total} ({task.labels[0]} vs {task.labels[1]}): "
                f"{score} {{{result.termination}}}  [{standing}]{test}",
                soft_wrap=True,
                highlight=False,
            )

        yield started_line, finished_line
        return
    from rich.console import Group
    from rich.live import Live
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    bar = progress.add_task("games", total=total, completed=len(results))
    in_flight: set[int] = set()

    def view() -> Any:
        s = summarise(config, list(results.values()), total, rate=False, hypotheses=hypotheses)
        progress.update(bar, description=f"games ({len(in_flight)} running)")
        return Group(progress, tables(s)[0], *([s.sprt.line()] if s.sprt is not None else []))

    with Live(view(), console=console, refresh_per_second=4) as live:

        def started(task: Task) -> None:
            in_flight.add(task.number)
            live.update(view())

        def finished(task: Task, result: GameResult) -> None:
            in_flight.discard(task.number)
            progress.advance(bar)
            live.update(view())

        yield started, finished
        # The final tables follow (command.run): the live standings give way to the bar
        # alone, so that a terminal shows them once; an interruption keeps them.
        live.update(progress, refresh=True)
