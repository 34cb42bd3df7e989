"""``--json``, ``--csv`` and ``--pgnout``, and the options ``referee tournament`` and
``referee match`` share for them and for ``--sprt`` and ``--anchor``."""

from __future__ import annotations

import argparse
import csv
import io
import json
import math
from collections.abc import Callable, Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

from impl import pgn
from impl.apps import sprt
from impl.apps.sprt import Hypotheses
from impl.apps.tournament.config import TournamentConfig
from impl.apps.tournament.schedule import GameResult
from impl.apps.tournament.summary import Summary, ending
from impl.atomic import output_of, why, write_output
from impl.cli import UsageError


def as_json(
    config: TournamentConfig, summary: Summary, results: Sequence[GameResult], settings: Sequence[str] = ()
) -> dict[str, Any]:
    """The run's results as JSON: ``settings`` the summary printed at its start
    (config.py ``settings``), then the standings, crosstable, endings and games."""
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
        "settings": list(settings),
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
                "ending": ending(r),
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


def anchor_of(args: argparse.Namespace, config: TournamentConfig, what: str) -> int | None:
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


def write_outputs(
    config: TournamentConfig,
    summary: Summary,
    results: Sequence[GameResult],
    args: argparse.Namespace,
    settings: Sequence[str] = (),
) -> str:
    """``--json`` (with the run's ``settings``), ``--csv``, ``--pgnout``, each written
    by impl/atomic.py's rule (``write_output``); what could not be."""

    def as_text() -> str:
        return json.dumps(finite(as_json(config, summary, results, settings)), indent=2, allow_nan=False) + "\n"

    outputs: tuple[tuple[Path | None, Callable[[], str]], ...] = (
        (args.json, as_text),
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
