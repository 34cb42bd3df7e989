"""``referee analyse RECORD… --tb DIR``: a recorded Awari game against an endgame
table (docs/tablebases.md): per move, once the board is in the table, the entry
before, the value of the move played, the best move, and the blunders."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from impl import pgn
from impl.cli import UsageError, subcommand
from impl.engines.tablebase import store
from impl.engines.tablebase.build import UnsupportedRules
from impl.engines.tablebase.probe import Table
from impl.engines.tablebase.review import MoveReport, review
from spec import awari_rules as AR

from .replay import load


def analyse(record: pgn.PgnGame, table: Table, untrusted: bool = False) -> list[MoveReport]:
    """Each ply of the record whose board is in the table (and, unless ``untrusted``,
    whose entry is exact there)."""
    return [r for r in review(table, [m.move for m in record.plies], untrusted) if isinstance(r, MoveReport)]


def add_command(subparsers: Any) -> None:
    p = subcommand(subparsers, "analyse", run)
    p.add_argument("records", type=Path, nargs="+", metavar="RECORD", help="Awari game records (PGN)")
    p.add_argument("--tb", type=Path, required=True, metavar="DIR", help="the tables' folder (referee tablebase build)")
    p.add_argument(
        "--untrusted",
        action="store_true",
        help="also where the entry is not the referee's exact value (marked ~: docs/tablebases.md)",
    )


def run(args: argparse.Namespace) -> int:
    """analyse recorded Awari games with an endgame table

    For each record, once the board holds no more stones than the table covers: per
    move the mover's entry before, the value of the move played and the best move;
    then the blunders (moves worth less than the best).
    """
    for path in args.records:
        record = load(path)
        if record.game != "awari":
            raise UsageError(f"referee analyse: {path}: a {record.game} record; tables are Awari's")
        rules = AR.parse_rules(pgn.engine_rules("awari", record.tag("Rules")))
        try:
            table = Table.found(args.tb, rules)
        except (store.TableError, UnsupportedRules) as exc:
            raise UsageError(f"referee analyse: {exc}") from None
        reports = analyse(record, table, args.untrusted)
        print(f"{path}: {AR.canonical_name(rules)}, table of ≤ {table.stones} stones")
        for report in reports:
            print("  " + report.line())
        blunders = [r for r in reports if r.loss]
        print(f"  blunders: {', '.join(f'ply {r.ply} {r.move} (-{r.loss})' for r in blunders) or 'none'}")
        if not reports:
            print("  no position of the game is in the table" + ("" if args.untrusted else " with an exact entry"))
    return 0
