"""``referee tournament PLAYER PLAYER … --game G``: a round robin (or a gauntlet:
the first player against each other) of G games per pairing, sides alternating,
run as independent tasks on Dask distributed, with progress, standings, a
crosstable, ratings, endings and failures, and every game's record.

The players are ``referee match``'s (impl/apps/match.py): ours by name with options, or
any command line with ``{game} {host} {port} {side}``.  Each game is one task:
it starts its own server on a free port of the worker it runs on, runs the two
player programs there, and returns the game's record (impl/pgn.py), which this
process writes as ``DIR/game-NNNN.pgn``.  Run again with the same ``--records
DIR``, the games whose record exists are not played again.

By default the games run in ``--jobs`` threads of this process (``play_local``),
as ``referee match``'s do: Dask is not needed.  Dask runs them with ``--workers
N`` (an embedded cluster of N worker processes on loopback) or ``--scheduler
ADDRESS`` (a real one whose workers have zreferee and the players installed).  At
most ``--jobs`` games are in flight at once, wherever they run (``execute``).

The report names the games that repeat an earlier one move for move; ``--sprt``
(impl/apps/sprt.py) stops starting games once the test decides; ``--pgnout`` writes
every record into one file.
"""

from __future__ import annotations

import argparse
import csv
import importlib
import io
import json
import logging
import math
import os
import re
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from impl import pgn
from impl.apps import sprt
from impl.apps.games import (
    INTERRUPTED,
    MatchOptions,
    PlayerSpec,
    add_adjudication_arguments,
    add_opening_arguments,
    add_sandbox_arguments,
    adjudication_of,
    checked_player,
    claim_records,
    ended_like_ctrl_c,
    openings_of,
    play_game,
    read_run_file,
    sandbox_of,
)
from impl.apps.ratings import Elo, Ratings, Skill, bradley_terry, elo, skills
from impl.apps.sprt import Hypotheses, Status, Verdict
from impl.atomic import output_of, read_bounded, why, write_atomic, write_output
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
from impl.engines.openings import Opening, digest, nth_opening
from impl.engines.port import KINDS
from impl.game import PAPER_RULES, Termination

ROUND_ROBIN, GAUNTLET = "round-robin", "gauntlet"
if TYPE_CHECKING:
    from impl.web.tourney import TournamentLink

CONFIG = "tournament.json"


class RecordFailed(Exception):
    """A game's record could not be written (a full disk, …): the tournament stops."""


@dataclass(frozen=True)
class Config:
    """What makes a tournament: a records directory holds the games of one."""

    players: tuple[str, ...]
    """The player specs as given."""
    game: str
    games: int
    """Games per pairing."""
    mode: str = ROUND_ROBIN
    time: tuple[float, float] | None = None
    engine: str = "impl"
    timeout: float = 600.0
    event: str = "referee tournament"
    rules: str = PAPER_RULES
    """The Awari rule set every game is played under (spec/awari_rules.py)."""
    openings: tuple[Opening, ...] = ()
    """The openings the referee plays first, in the order used (impl/engines/openings.py)."""
    repeat: bool = False
    """Each opening twice, colours reversed (``--repeat``); else one game each."""

    @property
    def labels(self) -> list[str]:
        """The players' names in tables and records: their labels or specs, made distinct."""
        seen: Counter[str] = Counter()
        out = []
        for text in self.players:
            name = split_label(text)[0]
            seen[name] += 1
            out.append(name if seen[name] == 1 else f"{name} ({seen[name]})")
        return out

    @property
    def specs(self) -> list[str]:
        return [split_label(text)[1] for text in self.players]


LABEL = re.compile(r"([^\s=]+)=(\S.*)", re.DOTALL)


def split_label(text: str) -> tuple[str, str]:
    """``LABEL=SPEC`` names a player ``LABEL`` (a word before the first ``=``);
    otherwise its spec is its name."""
    match = LABEL.fullmatch(text)
    return (match[1], match[2]) if match else (text, text)


@dataclass(frozen=True)
class Task:
    """One game: its number, its round (``pairing.game``), the players by index,
    first mover first, and how to play it."""

    number: int
    round: str
    players: tuple[int, int]
    specs: tuple[str, str]
    labels: tuple[str, str]
    options: MatchOptions
    opening: Opening = ()
    """The moves the referee plays first."""


@dataclass(frozen=True)
class GameResult:
    number: int
    round: str
    players: tuple[int, int]
    """First mover, second mover."""
    score: float | None
    """The first mover's score (1, 0.5, 0); None: no result."""
    termination: str
    """A Termination value, or ``no result``."""
    error: str = ""
    record: str = field(default="", repr=False)
    culprits: tuple[int, ...] = ()
    """The players whose programs failed a game without a result."""
    summaries: tuple[tuple[int, str], ...] = ()
    """(player, line): the players' ``summary: moves=…`` log lines (impl/apps/match.py)."""
    counts: tuple[int, int] | None = None
    """Stores or stones at the end, first side first (None: not known, as on resuming)."""

    @property
    def loser(self) -> int | None:
        if self.score is None or self.score == 0.5:
            return None
        return self.players[1] if self.score == 1 else self.players[0]


def schedule(config: Config) -> list[Task]:
    """Every game: each pairing's games in turn, the pairing's first player
    moving first in its odd-numbered games.  With openings, each pairing plays
    them in order: with ``repeat`` its games 2k-1 and 2k play opening k, colours
    reversed (a pair), else game k plays opening k; the list wraps around."""
    n = len(config.players)
    pairs = (
        [(0, j) for j in range(1, n)]
        if config.mode == GAUNTLET
        else [(i, j) for i in range(n) for j in range(i + 1, n)]
    )
    options = MatchOptions(
        config.game, 1, config.time, config.timeout, engine=config.engine, event=config.event, rules=config.rules
    )
    labels = config.labels
    tasks: list[Task] = []
    for p, (i, j) in enumerate(pairs):
        for g in range(config.games):
            first, second = (i, j) if g % 2 == 0 else (j, i)
            tasks.append(
                Task(
                    len(tasks) + 1,
                    f"{p + 1}.{g + 1}",
                    (first, second),
                    (config.specs[first], config.specs[second]),
                    (labels[first], labels[second]),
                    options,
                    opening_of(config, g),
                )
            )
    return tasks


def opening_of(config: Config, game: int) -> Opening:
    """The opening of a pairing's ``game``-th game (from 0)."""
    return nth_opening(config.openings, config.repeat, game)


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
    thieves = tuple(task.players[order[c]] for c in outcome.culprits) if outcome.theft else ()
    return GameResult(
        task.number,
        task.round,
        task.players,
        _score(outcome.result.winner),
        outcome.result.termination.value,
        outcome.theft,
        outcome.record,
        thieves,
        summaries=summaries,
        counts=outcome.counts,
    )


def result_text(score: float | None, labels: Sequence[str]) -> str:
    """A game's result in words, by the players' labels (first mover's first): no
    score token, whose order PGN (White first) and the papers (first mover first)
    would read differently in Gothello."""
    if score is None:
        return "no result"
    return "draw" if score == 0.5 else f"{labels[0] if score == 1.0 else labels[1]} wins"


def _score(winner: int | None) -> float:
    return 0.5 if winner is None else 1.0 - winner


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
    theft = game.tag("SeatTheft")
    loser = task.players[0 if outcome.winner == 1 else 1] if outcome.winner is not None else None
    culprits = (loser,) if outcome.termination == Termination.SEAT_THEFT and loser is not None else ()
    return GameResult(
        task.number, task.round, task.players, _score(outcome.winner), outcome.termination.value, theft, text, culprits
    )


def _stored_names(game: pgn.PgnGame, labels: tuple[str, str]) -> tuple[str, str]:
    """The labels as a record written by this tournament reads them back (a tag
    value may be stored differently from the label: ``Jörg``), so that a resume
    recognises every finished game."""
    sides = [side.capitalize() for side in game.sides]
    tags = (("Game", game.game), *zip(sides, labels, strict=True))
    return pgn.parse(pgn.write(pgn.PgnGame(tags, (), pgn.ABORTED))).names


# ─── the tables ────────────────────────────────────────────────────────────────


@dataclass(frozen=True)
class Standing:
    player: int
    label: str
    games: int
    wins: int
    draws: int
    losses: int

    @property
    def score(self) -> float:
        return self.wins + self.draws / 2

    @property
    def score_pct(self) -> float:
        """Points per game in per cent (a draw half a point): cutechess's and
        fastchess's score, not the share of games won."""
        return 100 * self.score / max(1, self.games)


FORFEITS = (Termination.TIME, Termination.DISCONNECT, Termination.IDLE, Termination.SEAT_THEFT)
"""Games lost by a program's failure rather than on the board: listed as failures."""


@dataclass(frozen=True)
class Failure:
    game: int
    player: str
    kind: str
    """time, disconnect, idle (a loss by the rules), seat theft (a forfeit), or no
    result (the game aborted)."""
    detail: str = ""


@dataclass(frozen=True)
class Summary:
    labels: list[str]
    standings: list[Standing]
    crosstable: list[list[tuple[float, int]]]
    """[i][j]: player i's score against j and the games they played."""
    elo: Elo | None
    skills: list[Skill] | None
    endings: dict[str, int]
    failures: list[Failure]
    played: int
    total: int
    duplicates: list[tuple[int, int]] = field(default_factory=list)
    """(game, the earlier game it repeats move for move); only when rated."""
    distinct_elo: Elo | None = None
    """Two players: the Elo of the games that repeat no earlier one, if some do."""
    sprt: Status | None = None
    ratings: Ratings | None = None
    """Every player's Elo by maximum likelihood (ratings.py ``bradley_terry``); only when rated."""
    pentanomial: tuple[int, int, int, int, int] | None = None
    """Two players: the first's game pairs (games 2k−1 and 2k) by points 0, ½, 1, 1½, 2."""
    anchor: int | None = None
    """The player whose Elo is 0 (``--anchor``); None: the mean is 0."""


def summarise(
    config: Config,
    results: Sequence[GameResult],
    total: int,
    rate: bool = True,
    hypotheses: Hypotheses | None = None,
    anchor: int | None = None,
) -> Summary:
    """Standings, crosstable, endings and failures, and the SPRT of ``hypotheses``;
    the ratings and duplicates too if ``rate`` (the running standings leave them
    out: rating every game again after each would cost time quadratic in the
    games)."""
    labels = config.labels
    n = len(labels)
    wdl = [[0, 0, 0] for _ in range(n)]
    cross = [[(0.0, 0) for _ in range(n)] for _ in range(n)]
    rated: list[tuple[int, int, float]] = []
    failures: list[Failure] = []
    for r in sorted(results, key=lambda r: r.number):
        a, b = r.players
        if r.score is None:
            failures.append(Failure(r.number, _blamed(r, labels), "no result", r.error))
            continue
        rated.append((a, b, r.score))
        for me, them, mine in ((a, b, r.score), (b, a, 1 - r.score)):
            wdl[me][0 if mine == 1 else 1 if mine == 0.5 else 2] += 1
            s, g = cross[me][them]
            cross[me][them] = (s + mine, g + 1)
        if r.termination in FORFEITS and r.loser is not None:
            failures.append(Failure(r.number, labels[r.loser], r.termination, r.error))
    standings = [Standing(i, labels[i], sum(wdl[i]), *wdl[i]) for i in range(n)]
    pair = elo(*wdl[0]) if n == 2 and rate else None
    repeats = duplicates(results) if rate else []
    distinct = None
    if pair is not None and repeats:
        again = {game for game, _ in repeats}
        scores = first_scores([r for r in results if r.number not in again])
        distinct = elo(scores.count(1.0), scores.count(0.5), scores.count(0.0))
    test = None
    if hypotheses is not None:
        test = sprt_status(config, hypotheses, results, final=len(results) == total)
    rating = skills(n, rated) if n > 2 and rate else None
    by_likelihood = bradley_terry(n, rated, anchor) if rate else None
    pairs = sprt.pentanomial(first_pairs(results)) if n == 2 else None
    order = sorted(range(n), key=lambda i: (-standings[i].score, -(rating[i].mu if rating else 0), i))
    endings = Counter(r.termination for r in results)
    return Summary(
        labels,
        [standings[i] for i in order],
        cross,
        pair,
        rating,
        dict(sorted(endings.items())),
        failures,
        len(results),
        total,
        repeats,
        distinct,
        test,
        by_likelihood,
        pairs,
        anchor,
    )


def first_scores(results: Sequence[GameResult]) -> list[float]:
    """The first player's score in each game with a result, in game order (two players)."""
    ordered = sorted((r for r in results if r.score is not None), key=lambda r: r.number)
    return [r.score if r.players[0] == 0 else 1 - r.score for r in ordered if r.score is not None]


def sprt_status(config: Config, hypotheses: Hypotheses, results: Sequence[GameResult], final: bool = False) -> Status:
    """The SPRT on these results: pentanomial on opening pairs when each opening is
    played twice with colours reversed (``--repeat``), as fishtest does; trinomial on
    games otherwise."""
    if config.openings and config.repeat:
        return sprt.of_pairs(hypotheses, first_pairs(results), final=final)
    return sprt.of_games(hypotheses, first_scores(results), final=final)


def first_pairs(results: Sequence[GameResult]) -> list[tuple[float, float]]:
    """The first player's scores in game pairs (games 2k−1 and 2k, one opening with
    colours reversed), complete pairs with results only: for ``sprt.of_pairs``."""
    scores = {r.number: r.score if r.players[0] == 0 else 1 - r.score for r in results if r.score is not None}
    return [(scores[k], scores[k + 1]) for k in sorted(scores) if k % 2 == 1 and k + 1 in scores]


def duplicates(results: Sequence[GameResult]) -> list[tuple[int, int]]:
    """(game, earlier game) for every game with a result that repeats an earlier
    one move for move: the same players in the same colours, the same start
    (the record's FEN tag, if any) and the same moves, read from the records."""
    first: dict[tuple[tuple[int, int], str, tuple[str, ...]], int] = {}
    out = []
    for r in sorted(results, key=lambda r: r.number):
        if r.score is None or not r.record:
            continue
        try:
            game = pgn.parse(r.record)
        except pgn.PgnError:
            continue
        key = (r.players, game.tag("FEN"), tuple(game.moves))
        if key in first:
            out.append((r.number, first[key]))
        else:
            first[key] = r.number
    return out


def _blamed(r: GameResult, labels: list[str]) -> str:
    """The players whose programs failed the game, or ``?`` (a timeout, the referee)."""
    return ", ".join(labels[p] for p in r.culprits) or "?"


def tables(summary: Summary) -> list[Any]:
    """The end-of-tournament tables, as rich renderables."""
    from rich.table import Table

    standings = Table(title=f"Standings after {summary.played} of {summary.total} games")
    for name, justify in (
        ("#", "right"),
        ("player", "left"),
        ("games", "right"),
        ("won", "right"),
        ("drawn", "right"),
        ("lost", "right"),
        ("score", "right"),
        ("score %", "right"),
    ):
        standings.add_column(name, justify=justify)  # type: ignore[arg-type]
    if summary.ratings is not None:
        standings.add_column("Elo ± 95%", justify="right")
    if summary.skills is not None:
        standings.add_column("rating (mu ± 2σ)", justify="right")
    for rank, s in enumerate(summary.standings, 1):
        row = [
            str(rank),
            s.label,
            str(s.games),
            str(s.wins),
            str(s.draws),
            str(s.losses),
            f"{s.score:g}",
            f"{s.score_pct:.1f}",
        ]
        if summary.ratings is not None:
            row.append(_rating_text(summary.ratings, s.player))
        if summary.skills is not None:
            k = summary.skills[s.player]
            row.append(f"{k.mu:.1f} ± {k.margin:.1f}")
        standings.add_row(*row)
    out: list[Any] = [standings, *notes(summary)]
    n = len(summary.labels)
    cross = Table(title="Crosstable (row's score against column / games)")
    cross.add_column("player")
    for i in range(n):
        cross.add_column(str(i + 1), justify="center")
    for i in range(n):
        cells = [
            "—" if i == j else (f"{cell[0]:g}/{cell[1]}" if cell[1] else "")
            for j, cell in enumerate(summary.crosstable[i])
        ]
        cross.add_row(f"{i + 1} {summary.labels[i]}", *cells)
    out.append(cross)
    out.append("Endings: " + ", ".join(f"{k} {v}" for k, v in summary.endings.items()))
    if summary.failures:
        by = Counter((f.player, f.kind) for f in summary.failures)
        out.append("Failures: " + "; ".join(f"{p}: {k} ×{v}" for (p, k), v in sorted(by.items())))
        out += [f"  game {f.game}: {f.player}: {f.detail}" for f in summary.failures if f.detail]
    else:
        out.append("Failures: none")
    return out


def _rating_text(ratings: Ratings, player: int) -> str:
    return f"{ratings.elo[player]:+.1f} ± {ratings.margin[player]:.1f}"


def _elo_text(e: Elo) -> str:
    margin = "n/a" if e.margin is None else f"± {e.margin:.1f}"
    return f"{e.difference:+.1f} {margin} (95%), LOS {100 * e.los:.1f}%"


def notes(summary: Summary) -> list[str]:
    """The lines beside the standings: the Elo difference of two players, the
    games that repeat earlier ones (which the ratings count), the SPRT."""
    out = []
    rated = sum(s.games for s in summary.standings) // 2
    if summary.elo is not None:
        line = f"Elo difference {summary.labels[0]} − {summary.labels[1]}: {_elo_text(summary.elo)}"
        if summary.distinct_elo is not None:
            line += f" over all {rated} games; {_elo_text(summary.distinct_elo)} over the "
            line += f"{rated - len(summary.duplicates)} distinct ones"
        out.append(line)
    if summary.ratings is not None and len(summary.labels) == 2:
        r = summary.ratings
        each = ", ".join(f"{label} {_rating_text(r, i)}" for i, label in enumerate(summary.labels))
        prior = "; one virtual draw each against the pool" if r.prior else ""
        zero = "mean 0" if summary.anchor is None else f"{summary.labels[summary.anchor]} 0"
        out.append(f"Elo by maximum likelihood (Bradley–Terry, {zero}, 95%{prior}): {each}")
    if summary.duplicates:
        pairs = ", ".join(f"#{game} = #{earlier}" for game, earlier in summary.duplicates)
        out.append(
            f"Duplicates: {len(summary.duplicates)} of {rated} games repeat earlier games move for move: {pairs}"
            + ("" if summary.elo is not None else " (the ratings count them)")
        )
    if summary.sprt is not None:
        out.append(summary.sprt.line())
    if summary.pentanomial is not None and any(summary.pentanomial):
        out.append(pentanomial_line(summary.pentanomial))
    return out


def pentanomial_line(counts: Sequence[int]) -> str:
    """fastchess's ``Ptnml(0-2): [a, b, c, d, e]``: the first player's game pairs
    (games 2k−1 and 2k, colours reversed) by their points 0, ½, 1, 1½ and 2."""
    return f"Ptnml(0-2): [{', '.join(str(c) for c in counts)}]"


def as_json(config: Config, summary: Summary, results: Sequence[GameResult]) -> dict[str, Any]:
    players = []
    for s in summary.standings:
        entry: dict[str, Any] = {"player": s.label, "spec": config.specs[s.player], "games": s.games}
        entry |= {"wins": s.wins, "draws": s.draws, "losses": s.losses, "score": s.score, "score_pct": s.score_pct}
        if summary.ratings is not None:
            entry |= {"elo": summary.ratings.elo[s.player], "elo_margin": summary.ratings.margin[s.player]}
        if summary.skills is not None:
            k = summary.skills[s.player]
            entry |= {"mu": k.mu, "sigma": k.sigma, "margin": k.margin}
        players.append(entry)
    out: dict[str, Any] = {
        "game": config.game,
        "mode": config.mode,
        "games_per_pairing": config.games,
        "played": summary.played,
        "total": summary.total,
        "standings": players,
        "crosstable": {
            summary.labels[i]: {summary.labels[j]: {"score": c[0], "games": c[1]} for j, c in enumerate(row) if c[1]}
            for i, row in enumerate(summary.crosstable)
        },
        "endings": summary.endings,
        "failures": [asdict(f) for f in summary.failures],
        "games": [
            {
                "number": r.number,
                "round": r.round,
                "first": summary.labels[r.players[0]],
                "second": summary.labels[r.players[1]],
                "score": r.score,
                "termination": r.termination,
                "error": r.error,
            }
            for r in sorted(results, key=lambda r: r.number)
        ],
    }
    if summary.elo is not None:
        e = summary.elo  # an infinite difference (all won or all lost) is null: JSON has no infinity
        difference = e.difference if math.isfinite(e.difference) else None
        out["elo"] = {"first": summary.labels[0], "difference": difference, "margin": e.margin, "los": e.los}
        if summary.distinct_elo is not None:
            d = summary.distinct_elo
            finite = d.difference if math.isfinite(d.difference) else None
            out["elo"]["distinct"] = {"difference": finite, "margin": d.margin, "los": d.los}
    out["duplicates"] = [{"game": game, "same_as": earlier} for game, earlier in summary.duplicates]
    if summary.ratings is not None:
        anchor = "mean" if summary.anchor is None else summary.labels[summary.anchor]
        out["ratings"] = {"model": "bradley-terry", "anchor": anchor, "prior": summary.ratings.prior}
    if summary.pentanomial is not None:
        out["pentanomial"] = list(summary.pentanomial)
    if summary.sprt is not None:
        out["sprt"] = summary.sprt.as_json()
    return out


def finite(value: Any) -> Any:
    """``value`` (JSON's types) with every infinite or NaN number null: JSON has
    neither, and a reader's parser may refuse ``Infinity`` (a margin of a one-sided
    result is infinite)."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: finite(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [finite(v) for v in value]
    return value


def as_csv(summary: Summary) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    # New columns go at the end: a reader that counts columns still finds the old ones.
    header = ["rank", "player", "games", "wins", "draws", "losses", "score", "mu", "sigma"]
    writer.writerow([*header, "score_pct", "elo", "elo_margin"])
    r = summary.ratings
    for rank, s in enumerate(summary.standings, 1):
        k = summary.skills[s.player] if summary.skills is not None else None
        writer.writerow(
            [
                rank,
                s.label,
                s.games,
                s.wins,
                s.draws,
                s.losses,
                s.score,
                f"{k.mu:.3f}" if k else "",
                f"{k.sigma:.3f}" if k else "",
                f"{s.score_pct:.2f}",
                f"{r.elo[s.player]:.1f}" if r else "",
                f"{r.margin[s.player]:.1f}" if r else "",
            ]
        )
    return buffer.getvalue()


# ─── running ───────────────────────────────────────────────────────────────────


def _distributed() -> Any:
    """Dask distributed, untyped: its calls are not annotated."""
    return importlib.import_module("distributed")


@contextmanager
def dask_client(scheduler: str | None, workers: int, jobs: int, dashboard: bool = False) -> Iterator[Any]:
    """A Dask client: of the cluster at ``scheduler``, else of an embedded local
    cluster (``workers`` processes, or 0: threads of this process) whose scheduler,
    workers and nannies listen on 127.0.0.1 only, with a dashboard (on 127.0.0.1)
    only if ``dashboard``."""
    dask = _distributed()
    Client, LocalCluster = dask.Client, dask.LocalCluster

    if scheduler is not None:
        with Client(scheduler, timeout="10s") as client:
            yield client
        return
    # The embedded cluster's workers log a task cancelled by Ctrl-C as a warning: noise here.
    logging.getLogger("distributed").setLevel(logging.ERROR)
    # Every node of the cluster runs an HTTP server, bound to all interfaces unless
    # told otherwise (dashboard_address=None does not disable the scheduler's); tcp
    # even in-process, since an inproc worker's HTTP server cannot take the host.
    # TLS with a throwaway certificate authority held in memory only: a player program
    # on this machine can reach the cluster's loopback ports (its sandbox shares the
    # network), and without it could submit a task — code run outside its sandbox.
    security = importlib.import_module("distributed.security").Security.temporary()
    loopback = {
        "host": "127.0.0.1",
        "protocol": "tls://",
        "security": security,
        "dashboard_address": "127.0.0.1:0",
        "scheduler_kwargs": {"dashboard": dashboard},
    }
    if workers:
        cluster = LocalCluster(
            n_workers=workers, threads_per_worker=max(1, -(-jobs // workers)), processes=True, **loopback
        )
    else:
        cluster = LocalCluster(n_workers=1, threads_per_worker=jobs, processes=False, **loopback)
    with cluster, Client(cluster, security=security) as client:
        yield client


def play(
    tasks: Sequence[Task],
    client: Any,
    jobs: int,
    started: Callable[[Task], None],
    finished: Callable[[Task, GameResult], None],
    stop: Callable[[], bool] = lambda: False,
) -> None:
    """Run ``tasks`` on the Dask client, at most ``jobs`` in flight; once ``stop()``
    (the SPRT has decided) no more are submitted, and those running finish."""
    as_completed = _distributed().as_completed

    pending = list(reversed(tasks))
    by_key: dict[str, Task] = {}
    running = as_completed()

    def submit() -> None:
        task = pending.pop()
        future = client.submit(run_task, task, pure=False, key=f"game-{task.number:04d}-{time.time_ns()}")
        by_key[future.key] = task
        running.add(future)
        started(task)

    for _ in range(min(jobs, len(pending))):
        submit()
    for future in running:
        task = by_key.pop(future.key)
        try:
            result: GameResult = future.result()
        except Exception as exc:  # the task itself failed: a failure of the game, never silent
            result = _failed(task, exc)
        finished(task, result)
        if pending and not stop():
            submit()


def _failed(task: Task, exc: Exception) -> GameResult:
    return GameResult(task.number, task.round, task.players, None, "no result", f"task failed: {exc!r}")


def play_local(
    tasks: Sequence[Task],
    jobs: int,
    started: Callable[[Task], None],
    finished: Callable[[Task, GameResult], None],
    stop: Callable[[], bool] = lambda: False,
) -> None:
    """``play`` without Dask: threads of this process (``referee match``)."""
    pending = list(reversed(tasks))
    running: dict[Future[GameResult], Task] = {}
    with ThreadPoolExecutor(max_workers=jobs) as pool:

        def submit() -> None:
            task = pending.pop()
            running[pool.submit(run_task, task)] = task
            started(task)

        for _ in range(min(jobs, len(pending))):
            submit()
        while running:
            done, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in sorted(done, key=lambda f: running[f].number):
                task = running.pop(future)
                try:
                    result = future.result()
                except Exception as exc:
                    result = _failed(task, exc)
                finished(task, result)
                if pending and not stop():
                    submit()


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
    p.add_argument("--time", type=seconds, nargs="+", metavar="SECS", help="time controls: one or two numbers")
    p.add_argument("--timeout", type=seconds, default=600.0, help="seconds a game may last (default 600)")
    p.add_argument("--engine", choices=KINDS, default="impl", help="the referee's rules engine (default impl)")
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
        type=scheduler_address,
        metavar="ADDRESS",
        help="a Dask scheduler (tcp://host:8786) instead of a local cluster",
    )
    p.add_argument("--dashboard", action="store_true", help="open the local cluster's Dask dashboard (on 127.0.0.1)")
    add_result_options(p)
    p.add_argument("--quiet", "-q", action="store_true", help="no progress, the tables only")
    add_opening_arguments(p)
    add_sandbox_arguments(p)
    add_adjudication_arguments(p)
    add_web_arguments(p)


def add_records_arguments(p: Any, command: str, note: str = "") -> None:
    """``--records DIR`` and ``--event``, which ``referee tournament`` and ``referee
    match`` share: the run's records directory (``records_directory``) and their
    Event tag, ``referee COMMAND`` unless given."""
    help = f"the records directory{note} (default: a new one, {command}-<time>)"
    p.add_argument("--records", type=Path, metavar="DIR", help=help)
    p.add_argument("--event", default=f"referee {command}", help="the records' Event tag")


def records_directory(args: argparse.Namespace, command: str) -> Path:
    """``--records``, or a new directory named after the command and the time."""
    return Path(args.records or time.strftime(f"{command}-%Y%m%dT%H%M%S"))


def add_web_arguments(p: Any) -> None:
    """``--web PORT`` and ``--web-host``: the live view (impl/web/tourney.py)."""
    p.add_argument(
        "--web",
        type=port,
        metavar="PORT",
        help="serve the live standings and games on this port (0: any free port; needs the web extra)",
    )
    p.add_argument("--web-host", default="127.0.0.1", metavar="HOST", help="address of --web (default 127.0.0.1)")


# ─── the live view's standings (impl/web/tourney.py shows them) ────────────────


def state_json(
    config: Config,
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

    config: Config
    results: tuple[GameResult, ...]
    total: int
    running: tuple[Task, ...]
    hypotheses: Hypotheses | None

    def json(self) -> dict[str, Any]:
        return state_json(self.config, self.results, self.total, self.running, self.hypotheses)


class Watch:
    """The tournament's side of its view: a snapshot handed over as each game
    starts and finishes (on the tournament's thread, in constant time per game
    beyond copying two lists: the standings are made when asked for)."""

    def __init__(
        self,
        view: TournamentLink,
        config: Config,
        total: int,
        results: dict[int, GameResult],
        hypotheses: Hypotheses | None,
    ) -> None:
        self.view, self.config, self.total, self.results, self.hypotheses = view, config, total, results, hypotheses
        self.running: dict[int, Task] = {}
        self.publish()

    def publish(self) -> None:
        results, running = tuple(self.results.values()), tuple(self.running.values())
        self.view.snapshot = Snapshot(self.config, results, self.total, running, self.hypotheses)

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
    config: Config,
    total: int,
    results: dict[int, GameResult],
    directory: Path,
    hypotheses: Hypotheses | None,
    local: bool,
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
    view = TournamentLink(args.web_host, args.web, directory, local)
    try:
        view.open()
    except OSError as exc:
        raise UsageError(f"{what}: --web: cannot listen on {args.web_host} port {args.web}: {why(exc)}") from None
    try:
        watch = Watch(view, config, total, results, hypotheses)
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


def add_result_options(p: Any) -> None:
    """The options ``referee tournament`` and ``referee match`` share: outputs, SPRT."""
    p.add_argument("--json", type=Path, metavar="FILE", help="write the results as JSON")
    p.add_argument("--csv", type=Path, metavar="FILE", help="write the standings as CSV")
    p.add_argument("--pgnout", type=Path, metavar="FILE", help="write every game's record into one PGN file")
    p.add_argument(
        "--anchor",
        metavar="LABEL",
        help="the player whose Elo is 0 (its label as shown in the tables; default: the mean is 0)",
    )
    p.add_argument(
        "--sprt",
        nargs="+",
        metavar="KEY=X",
        help="two players: stop once the SPRT of elo0=E0 elo1=E1 [alpha=0.05] [beta=0.05] accepts H0 or H1 "
        f"(the first player's Elo over the second; at most --games games; {sprt.BOUNDS})",
    )


def hypotheses_of(args: argparse.Namespace, players: int, what: str) -> Hypotheses | None:
    """``--sprt``'s hypotheses, for exactly two players."""
    if args.sprt is None:
        return None
    if players != 2:
        raise UsageError(f"{what}: --sprt needs exactly two players, not {players}")
    try:
        return sprt.parse(args.sprt)
    except ValueError as exc:
        raise UsageError(f"{what}: --sprt: {exc}") from None


def anchor_of(args: argparse.Namespace, config: Config, what: str) -> int | None:
    """``--anchor``'s player by its label in the tables; a usage error if none is."""
    if getattr(args, "anchor", None) is None:
        return None
    if args.anchor not in config.labels:
        raise UsageError(f"{what}: --anchor: {args.anchor!r} is not a player's label ({', '.join(config.labels)})")
    return config.labels.index(args.anchor)


def check_outputs(args: argparse.Namespace, what: str) -> None:
    """``--json``, ``--csv`` and ``--pgnout`` checked before the first game by the
    rule of impl/atomic.py (``output_of``): a usage error if one could not be written."""
    for option, out in (("--json", args.json), ("--csv", args.csv), ("--pgnout", args.pgnout)):
        if out is not None:
            try:
                output_of(out)
            except OSError as exc:  # the reason names the path only when it is another (the directory)
                reason = why(exc).removeprefix(f"{out}: ")
                raise UsageError(f"{what}: {option}: cannot write {str(out)!r}: {reason}") from None


def pgn_file(results: Sequence[GameResult]) -> str:
    """Every game's record in game order: one PGN file, as cutechess-cli's
    ``-pgnout`` writes it (impl/pgn.py ``export``)."""
    return pgn.export([r.record for r in sorted(results, key=lambda r: r.number) if r.record])


def write_outputs(config: Config, summary: Summary, results: Sequence[GameResult], args: argparse.Namespace) -> str:
    """``--json``, ``--csv``, ``--pgnout``, each written by impl/atomic.py's rule
    (``write_output``); what could not be."""
    outputs: tuple[tuple[Path | None, Callable[[], str]], ...] = (
        (args.json, lambda: json.dumps(finite(as_json(config, summary, results)), indent=2, allow_nan=False) + "\n"),
        (args.csv, lambda: as_csv(summary)),
        (args.pgnout, lambda: pgn_file(results)),
    )
    for path, text in outputs:
        if path is not None:
            try:
                write_output(path, text())
            except OSError as exc:
                return f"cannot write {str(path)!r}: {why(exc)}"
    return ""


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


def decided(config: Config, results: dict[int, GameResult], hypotheses: Hypotheses | None) -> bool:
    """Whether the SPRT has accepted H0 or H1 on these results."""
    if hypotheses is None:
        return False
    verdict = sprt_status(config, hypotheses, list(results.values())).verdict
    return verdict in (Verdict.H0, Verdict.H1)


def execute(
    config: Config,
    todo: Sequence[Task],
    results: dict[int, GameResult],
    directory: Path,
    args: argparse.Namespace,
    started: Callable[[Task], None],
    finished: Callable[[Task, GameResult], None],
    hypotheses: Hypotheses | None = None,
    local: bool = False,
    console: Any = None,
) -> None:
    """Play ``todo`` (in threads here if ``local``, else on Dask), recording each
    game's result in ``results`` and its record in ``directory``, until done or
    the SPRT decides."""

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
    if local:
        play_local(todo, args.jobs, started, record, stop)
        return
    dashboard = getattr(args, "dashboard", False)
    with dask_client(args.scheduler, args.workers, args.jobs, dashboard) as client:
        if dashboard and console is not None and not args.quiet:
            console.print(f"Dask dashboard: {client.dashboard_link}")
        play(todo, client, args.jobs, started, record, stop)


ADDRESS = re.compile(r"(?:(?:tcp|tls)://)?(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):\d{1,5}")


def scheduler_address(text: str) -> str:
    """A Dask scheduler's address: ``[tcp://|tls://]HOST:PORT``."""
    if not ADDRESS.fullmatch(text) or not 0 < int(text.rsplit(":", 1)[1]) <= 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not a scheduler address (tcp://HOST:PORT)")
    return text


def config_of(args: argparse.Namespace) -> Config:
    what = "referee tournament"
    if len(args.players) < 2:
        raise UsageError(f"{what}: at least two players")
    if args.time is not None and len(args.time) > 2:
        raise UsageError(f"{what}: --time takes one or two numbers of seconds")
    if args.workers < 0:
        raise UsageError(f"{what}: --workers: {args.workers} is not a whole number >= 0")
    if args.workers and args.scheduler:
        raise UsageError(f"{what}: --workers and --scheduler are exclusive")
    if args.dashboard and args.scheduler:
        raise UsageError(f"{what}: --dashboard is for the local cluster (a scheduler has its own)")
    for i, text in enumerate(args.players):
        checked_player(split_label(text)[1], f"PLAYER {i + 1}")
    clocks = (args.time[0], args.time[-1]) if args.time else None
    mode = GAUNTLET if args.gauntlet else ROUND_ROBIN
    check_rules(what, args.game, args.rules)
    openings, repeat = openings_of(args, what, args.games)
    return Config(
        tuple(args.players),
        args.game,
        args.games,
        mode,
        clocks,
        args.engine,
        args.timeout,
        args.event,
        args.rules,
        openings,
        repeat,
    )


def run_identity(config: Config) -> dict[str, Any]:
    """What a run file holds: ``config``, its openings as their count and digest
    (impl/engines/openings.py ``digest``) rather than the list, which could make a
    run file of megabytes."""
    mine = asdict(config)
    mine["time"] = list(config.time) if config.time else None
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
    config: Config, directory: Path, what: str = "referee tournament: --records", name: str = CONFIG
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


def extension(old: Any, config: Config, where: str) -> int | None:
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


def run(args: argparse.Namespace) -> int:
    """a round robin or gauntlet among many players, here or on Dask

    Play a round robin (or a gauntlet) among N players: G games per pairing, sides
    alternating, in threads here or as Dask tasks (--workers, --scheduler); progress,
    standings, crosstable, ratings, endings and failures; every game's record in DIR.
    """
    what = "referee tournament"
    config = config_of(args)
    hypotheses = hypotheses_of(args, len(config.players), what)
    box, rules = sandbox_of(args, what), adjudication_of(args, what)  # refused before anything is made
    # Dask only where the games leave this process: by default they are threads here.
    local = args.workers == 0 and args.scheduler is None
    anchor = anchor_of(args, config, what)
    try:
        if not local:
            import distributed  # noqa: F401
        import openskill  # noqa: F401
        from rich.console import Console
    except ImportError as exc:
        raise UsageError(f"{what}: needs the tournament extra ({install_hint('tournament')}): {exc}") from None
    check_outputs(args, what)
    directory = records_directory(args, "tournament")
    extended = open_records(config, directory)
    tasks = [replace(t, options=replace(t.options, sandbox=box, adjudication=rules)) for t in schedule(config)]
    results = load_records(tasks, directory)
    todo = [t for t in tasks if t.number not in results]
    # No markup: labels are command lines, whose brackets are not rich's; wide
    # tables when written to a file.
    console = Console(markup=False, highlight=False, width=None if sys.stdout.isatty() else 160)
    if extended is not None and not args.quiet:
        console.print(f"Extending {directory} from {extended} to {config.games} games per pairing")
    if results and not args.quiet:
        console.print(f"Resuming from {directory}: {len(results)} of {len(tasks)} games recorded")
    try:
        with (
            ended_like_ctrl_c(),
            live_view(args, what, config, len(tasks), results, directory, hypotheses, local) as web,
            _progress(console, config, tasks, results, args.quiet, hypotheses) as (started, finished),
        ):
            token, web_started, web_finished = web
            todo = watched(todo, token)
            started, finished = both(started, web_started), both_finished(finished, web_finished)
            execute(config, todo, results, directory, args, started, finished, hypotheses, local, console)
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
    summary = summarise(config, list(results.values()), len(tasks), hypotheses=hypotheses, anchor=anchor)
    for renderable in tables(summary):
        console.print(renderable)
    console.print(f"Records: {directory}")
    error = write_outputs(config, summary, list(results.values()), args)
    if error:
        return failed(what, error)
    return 1 if summary.failures and any(f.kind == "no result" for f in summary.failures) else 0


@contextmanager
def _progress(
    console: Any,
    config: Config,
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
