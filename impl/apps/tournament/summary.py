"""The standings of a tournament's results: scores, crosstable, ratings, endings, failures,
repeated games and the SPRT (``summarise``), and their tables and notes for the console."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from impl import pgn
from impl.apps import protocheck, sprt, strict, tbadjudge
from impl.apps.ratings import Elo, Ratings, Skill, bradley_terry, elo, skills
from impl.apps.sprt import Hypotheses, SprtResult, Status
from impl.apps.terms import adjudication_rule
from impl.apps.tournament.config import TournamentConfig
from impl.apps.tournament.schedule import GameResult
from impl.game import Termination


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
    result (the game aborted), protocol warning (a forfeit under ``--strict``), or
    protocol divergence (the referee's, under ``--check-protocol``; the result stands)."""
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


def ending(result: GameResult) -> str:
    """How a game ended, an adjudication by the rule that made it (issue #53): the
    endgame table (``--tb``, ``--tb-empties``), ``--strict``, ``--max-plies`` or
    ``--resign-margin``, as its record says."""
    if result.termination != Termination.ADJUDICATION:
        return result.termination
    if tbadjudge.tag_of(result.record):
        rule = "tablebase"
    elif pgn.tag_in(result.record, strict.TAG):
        rule = "strict"
    else:
        rule = adjudication_rule(pgn.tag_in(result.record, "Adjudication"))
    return f"{result.termination} ({rule})" if rule else result.termination


def summarise(
    config: TournamentConfig,
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
        elif r.termination == Termination.ADJUDICATION and r.culprits and r.loser is not None:  # --strict
            failures.append(Failure(r.number, labels[r.loser], strict.KIND, r.error))
        if diverged := protocheck.tag_of(r.record):
            failures.append(Failure(r.number, protocheck.CULPRIT, protocheck.KIND, diverged))
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
    endings = Counter(ending(r) for r in results)
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
        anchor if by_likelihood is None else by_likelihood.anchor,  # None: the anchor played no game
    )


def first_scores(results: Sequence[GameResult]) -> list[float]:
    """The first player's score in each game with a result, in game order (two players)."""
    ordered = sorted((r for r in results if r.score is not None), key=lambda r: r.number)
    return [r.score if r.players[0] == 0 else 1 - r.score for r in ordered if r.score is not None]


def sprt_status(
    config: TournamentConfig, hypotheses: Hypotheses, results: Sequence[GameResult], final: bool = False
) -> Status:
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
    # Its title a line of its own: as a table's title it wrapped at a few players' width.
    out.append("Crosstable (row's score against column / games)")
    cross = Table()
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


def decided(config: TournamentConfig, results: dict[int, GameResult], hypotheses: Hypotheses | None) -> bool:
    """Whether the SPRT has accepted H0 or H1 on these results."""
    if hypotheses is None:
        return False
    verdict = sprt_status(config, hypotheses, list(results.values())).verdict
    return verdict in (SprtResult.H0, SprtResult.H1)
