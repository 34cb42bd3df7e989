"""``referee match PLAYER_A PLAYER_B --game G --games N``: N games between two player
programs through a real referee server, sides alternating, and the score table.
It is a two-player ``referee tournament`` (impl/apps/tournament/: the same schedule,
records directory, resuming, Elo and LOS, ``--sprt``, ``--json``, ``--pgnout``)
whose games run in threads of this process rather than on Dask.  The players and
how one game is played (placeholders, environment, logs) are impl/apps/games.py's.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from impl import pgn
from impl.apps import protocheck, tbadjudge, tournament
from impl.apps.games import SIDES
from impl.apps.options import (
    MATCH_FILE,
    checked_player,
    openings_of,
    writable,
)
from impl.apps.ratings import Elo
from impl.apps.sprt import Status
from impl.apps.terms import GameTerms
from impl.apps.tournament import GameResult, Task, add_game_arguments, add_records_arguments, add_result_options
from impl.apps.tournament.summary import ending
from impl.cli import add_rules_argument, check_rules, failed, positive, seconds, subcommand
from impl.config import DEFAULTS, TIME_HELP, OnDivergence, increments, time_control, times
from impl.engines.port import KINDS
from impl.game import Outcome, Side, Termination, perfect_play_judge

# ─── the match ─────────────────────────────────────────────────────────────────


def describe(result: GameResult, game: str) -> str:
    """One game's line: ``game   3: A (south) vs B (north): south wins by the rules``."""
    sides = SIDES[game]
    a_side = result.players.index(0)
    head = f"game {result.number:3d}: A ({sides[a_side]}) vs B ({sides[1 - a_side]}): "
    if result.score is None:
        return head + f"no result ({result.error})"
    winner = None if result.score == 0.5 else Side.FIRST if result.score == 1 else Side.SECOND
    counts = "" if result.counts is None else f" {result.counts[0]}-{result.counts[1]}"
    table = tbadjudge.tag_of(result.record)
    by_table = f"; adjudicated by {perfect_play_judge(game)}: {table}" if table else ""
    return head + said(result, Outcome(winner, Termination(result.termination)), sides) + counts + by_table


def said(result: GameResult, outcome: Outcome, sides: tuple[str, str]) -> str:
    """The result in words; an adjudication by the rule its record names (issue #53:
    ``adjudicated (still running after 300 plies): a draw``)."""
    rule = pgn.tag_in(result.record, "Adjudication") if result.record else ""
    if outcome.termination is not Termination.ADJUDICATION or not rule:
        return outcome.describe(sides)
    verdict = "a draw" if outcome.winner is None else f"{sides[outcome.winner]} wins"
    return f"adjudicated ({rule}): {verdict}"


def _wdl(results: Sequence[GameResult], player: int) -> tuple[int, int, int]:
    """Won, drawn, lost by ``player`` in the games with a result."""
    mine = [r.score if r.players[0] == player else 1 - r.score for r in results if r.score is not None]
    return mine.count(1.0), mine.count(0.5), mine.count(0.0)


def _search_stats(lines: list[str]) -> str:
    """Speed and depth from the players' ``summary:`` lines."""
    nodes, seconds, depths = 0, 0.0, []
    for line in lines:
        fields = dict(word.split("=", 1) for word in line.split("summary:", 1)[1].split() if "=" in word)
        nodes += int(fields.get("nodes", 0))
        seconds += float(fields.get("seconds", 0))
        depths += [int(d) for d in fields.get("depths", "").split(",") if d]
    if not depths or seconds <= 0:
        return ""
    deciles = statistics.quantiles(depths, n=10) if len(depths) > 1 else [depths[0]] * 9
    return (
        f"{len(depths)} moves searched, {nodes / seconds:,.0f} nodes/s, depth median "
        f"{statistics.median(depths):g} (10%: {deciles[0]:g}, 90%: {deciles[-1]:g}, max {max(depths)})"
    )


def score_table(results: Sequence[GameResult], labels: tuple[str, str], game: str) -> list[str]:
    """The score table: per player its games, wins, draws, losses and score (a
    draw is half a point), then the same by side; endings; search speed."""
    sides = SIDES[game]
    played = [r for r in results if r.score is not None]
    lines = [
        f"{game}: {len(results)} games, {len(played)} with a result",
        f"{'player':<28} {'games':>5} {'won':>5} {'drawn':>5} {'lost':>5} {'score':>6} {'win %':>6} {'score %':>7}"
        f"  {'as ' + sides[0] + ' W-D-L':>16}  {'as ' + sides[1] + ' W-D-L':>16}",
    ]
    for player in (0, 1):
        won, drawn, lost = _wdl(played, player)
        games = won + drawn + lost
        by_side = []
        for side in (0, 1):
            w, d, ell = _wdl([r for r in played if r.players[side] == player], player)
            by_side.append(f"{w}-{d}-{ell} ({100 * w / max(1, w + d + ell):.0f}%)")
        label = f"{'AB'[player]} {labels[player]}"[:28]
        lines.append(
            f"{label:<28} {games:>5} {won:>5} {drawn:>5} {lost:>5} {won + drawn / 2:>6g} "
            f"{100 * won / max(1, games):>6.1f} {100 * (won + drawn / 2) / max(1, games):>7.1f}"
            f"  {by_side[0]:>16}  {by_side[1]:>16}"
        )
    endings = Counter(ending(r) for r in results)
    lines.append("endings: " + ", ".join(f"{k} {v}" for k, v in sorted(endings.items())))
    for player in (0, 1):
        stats = _search_stats([line for r in results for p, line in r.summaries if p == player])
        if stats:
            lines.append(f"{'AB'[player]} search: {stats}")
    return lines


# ─── cutechess-cli's and fastchess's lines ─────────────────────────────────────


def finished_line(result: GameResult, labels: tuple[str, str], game: str) -> str:
    """cutechess-cli's ``Finished game N (WHITE vs BLACK): 1-0 {comment}``: the
    players by PGN colour and the result as the record's ``Result`` (impl/pgn.py:
    Awari's first mover is White, Gothello's is Black), ``*`` for no result."""
    by_colour = dict(zip(pgn.COLOURS[game], (labels[result.players[0]], labels[result.players[1]]), strict=True))
    head = f"Finished game {result.number} ({by_colour['White']} vs {by_colour['Black']}): "
    if result.score is None:
        return head + f"{pgn.ABORTED} {{No result}}"
    winner = None if result.score == 0.5 else Side.FIRST if result.score == 1 else Side.SECOND
    outcome = Outcome(winner, Termination(result.termination))
    return head + f"{pgn.result_token(game, outcome)} {{{said(result, outcome, SIDES[game])}}}"


def score_line(labels: tuple[str, str], wins: int, draws: int, losses: int) -> str:
    """cutechess-cli's ``Score of A vs B: W - L - D  [score] N`` (A's wins, losses,
    draws; its points per game to three places; games with a result)."""
    games = wins + draws + losses
    score = (wins + draws / 2) / games if games else 0.0
    return f"Score of {labels[0]} vs {labels[1]}: {wins} - {losses} - {draws}  [{score:.3f}] {games}"


def elo_line(e: Elo | None, draws: int, games: int) -> str:
    """cutechess-cli's closing ``Elo difference: E +/- M, LOS: L %, DrawRatio: D %``."""
    if e is None:
        e = Elo(0.0, None, 0.5)
    margin = "nan" if e.margin is None else f"{e.margin:.1f}"
    ratio = 100 * draws / max(1, games)
    return f"Elo difference: {e.difference + 0.0:.1f} +/- {margin}, LOS: {100 * e.los:.1f} %, DrawRatio: {ratio:.1f} %"


def sprt_line(wins: int, draws: int, losses: int, status: Status) -> str:
    """fastchess-style progress of an SPRT after a game: games, W-L-D, points and
    score %, the draw ratio (draws per game), then the LLR, its bounds and the
    hypotheses (``LLR: 1.23 (-2.94, 2.94) [0.00, 5.00]``)."""
    games = wins + draws + losses
    points = wins + draws / 2
    h = status.hypotheses
    return (
        f"Games: {games}, W-L-D: {wins}-{losses}-{draws}, Points: {points:g} ({100 * points / max(1, games):.2f} %), "
        f"DrawRatio: {100 * draws / max(1, games):.2f} %, LLR: {status.llr:.2f} ({h.lower:.2f}, {h.upper:.2f}) "
        f"[{h.elo0:.2f}, {h.elo1:.2f}]"
    )


# ─── referee match ─────────────────────────────────────────────────────────────


EPILOG = (
    'A PLAYER is random, search (with options, quoted: "search --budget 0.1") or a command line with the '
    "placeholders {game} {host} {port} {side} {rules} (also in the environment as REFEREE_GAME, REFEREE_HOST, "
    "REFEREE_PORT, REFEREE_SIDE, REFEREE_RULES); LABEL=PLAYER names it LABEL.  Run again with the same "
    "--records DIR to resume, or with a larger --games to extend a finished match."
)


def add_command(subparsers: Any) -> None:
    p = subcommand(subparsers, "match", run, epilog=EPILOG)
    p.add_argument("player_a", metavar="PLAYER_A")
    p.add_argument("player_b", metavar="PLAYER_B")
    p.add_argument("--game", choices=["awari", "gothello"], required=True)
    p.add_argument(
        "--games", type=positive, default=2, metavar="N", help="games to play (default 2); A moves first in odd ones"
    )
    p.add_argument("--time", type=time_control, nargs="+", metavar="SECS[+INC]", help=TIME_HELP)
    tournament.add_time_for_argument(p)
    p.add_argument(
        "--timeout", type=seconds, default=GameTerms.timeout, help="seconds a game may last (default %(default)g)"
    )
    p.add_argument("--logs", type=Path, metavar="DIR", help="keep each player's output in DIR")
    add_records_arguments(p, "match", ", as the tournament's")
    add_result_options(p)
    p.add_argument("--jobs", type=positive, default=1, help="games played at once (default 1)")
    p.add_argument("--quiet", "-q", action="store_true", help="print the table only")
    p.add_argument(
        "--engine", choices=KINDS, default=GameTerms.engine, help="the referee's rules engine (default %(default)s)"
    )
    add_rules_argument(p)
    p.add_argument(
        "--on-divergence",
        choices=[o.value for o in OnDivergence],
        default=DEFAULTS.on_divergence.value,
        help="checked engine: continue on the spec's verdict (default) or abort the game with 399",
    )
    add_game_arguments(p)


def run(args: argparse.Namespace) -> int:
    """play games between two players through a local server

    Play N games between two players through a referee server started here, sides
    alternating, and print the score table, the Elo difference and LOS: a
    two-player tournament whose games run here, in --jobs threads.
    """
    what = "referee match"
    check_rules(what, args.game, args.rules)
    players = (args.player_a, args.player_b)
    for text, which in zip(players, ("PLAYER_A", "PLAYER_B"), strict=True):
        checked_player(tournament.split_label(text)[1], which)
    book, repeat = openings_of(args, what, args.games)
    config = tournament.TournamentConfig(
        players,
        args.game,
        args.games,
        tournament.ROUND_ROBIN,
        args.event,
        book,
        repeat,
        time=times(args.time, what),
        increment=increments(args.time),
        time_for=tournament.time_for_of(args, (tournament.split_label(p)[0] for p in players), what),
        timeout=args.timeout,
        engine=args.engine,
        rules=args.rules,
    )
    logs = writable(args.logs, f"{what}: --logs")
    # The logs and the divergence policy change how a game is run, not which games.
    games = tournament.prepare(args, what, config, tournament.Where(args.jobs), "match", MATCH_FILE,
                               logs=logs, on_divergence=OnDivergence(args.on_divergence))  # fmt: skip
    directory, results, tasks, hypotheses = games.directory, games.results, games.tasks, games.hypotheses
    labels = config.labels
    pair = (labels[0], labels[1])
    for letter, label, text in zip("AB", labels, config.players, strict=False):  # a label made: its command too
        print(f"{letter} = {label}" + (f": {text}" if text == tournament.split_label(text)[1] != label else ""))
    if not args.quiet:
        print("\n".join(games.settings), flush=True)
    if games.extended is not None:
        print(f"Extending {directory} from {games.extended} to {len(tasks)} games", flush=True)
    if results:
        print(f"Resuming from {directory}: {len(results)} of {len(tasks)} games recorded", flush=True)

    def finished(task: Task, result: GameResult) -> None:
        if args.quiet:
            return
        done = list(results.values())
        wins, draws, losses = _wdl(done, 0)
        lines = [describe(result, args.game), finished_line(result, pair, args.game)]
        lines.append(score_line(pair, wins, draws, losses))
        if hypotheses is not None:
            lines.append(sprt_line(wins, draws, losses, tournament.sprt_status(config, hypotheses, done)))
        print("\n".join(lines), flush=True)

    try:
        games.play(lambda task: None, finished)
    except KeyboardInterrupt:
        print(f"\ninterrupted: {len(results)} of {len(tasks)} games recorded in {directory}", file=sys.stderr)
        return 130
    except tournament.RecordFailed as exc:  # a full disk, …
        return failed(what, f"{exc}; {len(results)} of {len(tasks)} games recorded")
    summary = games.summary()
    lines = score_table(list(results.values()), pair, args.game)
    if not args.quiet:  # cutechess-cli's closing lines, for the tools that read them
        wins, draws, losses = _wdl(list(results.values()), 0)
        print(elo_line(summary.elo, draws, wins + draws + losses) + "\nFinished match", flush=True)
    print("\n".join([*lines, *tournament.notes(summary), f"records: {directory}"]))
    diverged = False
    if args.check_protocol:
        head, found = protocheck.report((r.number, r.record) for r in sorted(results.values(), key=lambda r: r.number))
        print("\n".join([head, *found]))
        diverged = bool(found)
    error = games.write_outputs(summary)
    if error:
        return failed(what, error)
    return 1 if diverged or any(r.score is None for r in results.values()) else 0
