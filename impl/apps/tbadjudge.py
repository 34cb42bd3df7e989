"""Adjudication by an Awari endgame table (issue #39, item 5; docs/tablebases.md):
``referee match|tournament --tb DIR --tb-stones N`` ends a game once the board holds
at most N stones and the table's entry is the referee's exact value there
(``probe.trusted``), and scores it by the table (``probe.adjudicate``).  The record
says so: ``Termination "adjudication"``, ``Adjudication`` (the rule) and
``Tablebase`` (the table's value, ``TablebaseRule.verdict``)."""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from impl import pgn
from impl.cli import UsageError, count
from impl.engines.kernels import AwariState
from impl.engines.tablebase import probe, store
from impl.engines.tablebase.build import UnsupportedRules
from impl.game import Outcome, Side, Termination
from spec import awari as A
from spec import awari_rules as AR

TAG = "Tablebase"
"""The record's tag that gives the table's value of an adjudicated game."""


def tag_of(record: str) -> str:
    """A game record's ``Tablebase`` tag: the table's value if the table adjudicated it, else ""."""
    return pgn.tag_in(record, TAG)


@cache
def _table(folder: Path, rules: str, stones: int) -> probe.Table:
    """One memory-mapped table per process, whichever game asks (games run in threads)."""
    return probe.Table(folder, AR.parse_rules(rules), stones)


@dataclass(frozen=True)
class TablebaseRule:
    """Adjudicate by the table of ``rules`` in ``folder`` from ``stones`` stones down.
    Plain data, so that a tournament's tasks carry it to other processes."""

    folder: Path
    stones: int
    rules: str

    def verdict(self, state: AwariState) -> tuple[Outcome, str, str] | None:
        """The outcome of perfect play from an Awari position (the engine's packed
        state, history included), the rule's words and the ``Tablebase`` tag's value;
        None where the board has more stones or the entry is not exact there."""
        board = probe.board_of(state)
        stones = sum(board)
        if stones > self.stones:
            return None
        table = _table(self.folder, self.rules, self.stones)
        found = probe.adjudicate(state, table)
        if found is None:
            return None
        side = {A.PLAYER.south: Side.FIRST, A.PLAYER.north: Side.SECOND, None: None}[found.winner]
        mover = "south" if state[2] >> 16 else "north"
        result = "a draw" if found.winner is None else f"{found.winner.name} wins by {abs(found.difference)}"
        value = (
            f"{result}: {mover} to move, {stones} stones on the board, table value {table.value(board):+d} "
            f"({self.rules}, exact)"
        )
        return Outcome(side, Termination.ADJUDICATION), f"in the table of ≤ {self.stones} stones", value


def add_arguments(p: argparse.ArgumentParser) -> None:
    """``--tb`` and ``--tb-stones``, for match and tournament."""
    p.add_argument(
        "--tb",
        type=Path,
        metavar="DIR",
        help="adjudicate Awari games by the endgame table in DIR (referee tablebase build; default off)",
    )
    p.add_argument(
        "--tb-stones",
        type=count,
        metavar="N",
        help="--tb: from N stones on the board down (default: every level in DIR)",
    )


def rule_of(args: argparse.Namespace, what: str) -> TablebaseRule | None:
    """The table the arguments ask to adjudicate by, its levels checked now; None for none."""
    if args.tb is None:
        if args.tb_stones is not None:
            raise UsageError(f"{what}: --tb-stones needs --tb")
        return None
    if args.game != "awari":
        raise UsageError(f"{what}: --tb: tables are Awari's; Gothello has no endgame table yet")
    rules = AR.parse_rules(args.rules)
    name = AR.canonical_name(rules)
    if rules.repetition != AR.RepetitionRule.UNCOUNTED:
        raise UsageError(
            f"{what}: --tb: under {name} a repetition is not scored as uncounted, so no entry is the referee's "
            "exact value (docs/tablebases.md); tables adjudicate olympiad-1990 (repetition=uncounted)"
        )
    try:
        stones = probe.Table.found(args.tb, rules).stones if args.tb_stones is None else args.tb_stones
        _table(args.tb.resolve(), name, stones)
    except (store.TableError, UnsupportedRules) as exc:
        raise UsageError(f"{what}: --tb: {exc}") from None
    return TablebaseRule(args.tb.resolve(), stones, name)
