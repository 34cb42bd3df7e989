"""Adjudication by perfect play (issue #39, items 5 and 6; docs/tablebases.md).
Awari: ``referee match|tournament --tb DIR --tb-stones N`` ends a game once the board
holds at most N stones and the table gives the referee's exact value there
(``probe.trusted``: the entry under olympiad-1990, agreeing bounds under paper and
abapa), and scores it by the table (``probe.adjudicate``); under paper and abapa, on
a board of <= 3 stones the table leaves open, by the referee's own search, of the
board or of the game's own lines where its history can repeat (``history.adjudicate``).  Gothello:
``--tb-empties K`` ends a game once at most K points are empty and the exact endgame
solver (impl/engines/gothello_endgame.py) decides it within its budget.  The record
says so: ``Termination "adjudication"``, ``Adjudication`` (the rule) and
``Tablebase`` (the perfect-play value, ``verdict``)."""

from __future__ import annotations

import argparse
import sys
import threading
from dataclasses import dataclass
from pathlib import Path

from impl import pgn
from impl.cli import UsageError, count
from impl.engines import gothello_endgame as GE
from impl.engines.awari import player_to_move
from impl.engines.kernels import AwariState, GothelloState
from impl.engines.tablebase import history, probe, store
from impl.engines.tablebase.rules import UnsupportedRules
from impl.game import Outcome, Side, Termination
from spec import awari as A
from spec import awari_rules as AR
from spec import gothello as G

TAG = "Tablebase"
"""The record's tag that gives the table's value of an adjudicated game."""


def tag_of(record: str) -> str:
    """A game record's ``Tablebase`` tag: the table's value if the table adjudicated it, else ""."""
    return pgn.tag_in(record, TAG)


_tables: dict[tuple[Path, str, int], probe.Table | store.TableError] = {}
_opening = threading.Lock()
_values: dict[tuple[Path, str, int], history.Values] = {}


def _table(folder: Path, rules: str, stones: int, at_start: bool = False) -> probe.Table | None:
    """One table per process, whichever game asks (games run in threads; a table is
    read whole into memory and verified, so once).  At the run's start a damaged
    table raises store.TableError; found damaged later (a tournament's worker opens
    it when its first game needs it) it adjudicates nothing — the games are played
    out — and the run says why once, on stderr (issue #49, item 1)."""
    key = (folder, rules, stones)
    with _opening:
        found = _tables.get(key)
        if found is None or (at_start and isinstance(found, store.TableError)):
            try:
                found = probe.Table(folder, AR.parse_rules(rules), stones)
            except store.TableError as exc:
                if at_start:
                    raise
                found = exc
                print(f"referee: --tb: {exc}; the games are played out, none adjudicated by the table", file=sys.stderr)
            _tables[key] = found
    return found if isinstance(found, probe.Table) else None


def _searched(folder: Path, rules: str, stones: int, table: probe.Table) -> history.Values:
    """The referee's values searched so far for one table, shared by the process's games."""
    with _opening:
        return _values.setdefault((folder, rules, stones), history.Values(table))


@dataclass(frozen=True)
class TablebaseRule:
    """Adjudicate by the table of ``rules`` in ``folder`` from ``stones`` stones down.
    Plain data, so that a tournament's tasks carry it to other processes."""

    folder: Path
    stones: int
    rules: str

    def within(self, state: AwariState) -> bool:
        """Whether ``verdict`` may judge the position (at most ``stones`` on the board): a
        check cheap enough for the game's loop, so that only these are probed."""
        return sum(probe.board_of(state)) <= self.stones

    def verdict(self, state: AwariState) -> tuple[Outcome, str, str] | None:
        """The outcome of perfect play from an Awari position (the engine's packed
        state, history included), the rule's words and the ``Tablebase`` tag's value;
        None where the board has more stones or the entry is not exact there."""
        board = probe.board_of(state)
        stones = sum(board)
        if stones > self.stones:
            return None
        table = _table(self.folder, self.rules, self.stones)
        if table is None:
            return None
        found = probe.adjudicate(state, table)
        searched = None
        if found is None and table.bounds is not None:
            searched = history.adjudicate(state, _searched(self.folder, self.rules, self.stones, table))
            found = None if searched is None else searched.result
        if found is None:
            return None
        side = {A.PLAYER.south: Side.FIRST, A.PLAYER.north: Side.SECOND, None: None}[found.winner]
        mover = player_to_move(state).name
        exact = table.exact(board)
        if searched is not None:
            low, high = table.bounded(board) or (0, 0)
            whose = "this game's lines, its history included," if searched.in_game else "every line"
            said = (
                f"the referee's value {searched.value:+d} ({self.rules}, searched over {whose} to the first "
                f"repetition: table bounds {low:+d} … {high:+d})"
            )
        elif table.bounds is None and exact is not None:
            said = f"table value {exact:+d} ({self.rules}, exact)"
        elif exact is not None:
            said = f"table value {exact:+d} ({self.rules}, exact: its two bounds agree)"
        else:
            pair = table.bounded(board)
            assert pair is not None
            said = f"table bounds {pair[0]:+d} … {pair[1]:+d} ({self.rules}, the same winner at either)"
        value = f"{found.words()}: {mover} to move, {stones} stones on the board, {said}"
        return Outcome(side, Termination.ADJUDICATION), f"in the table of ≤ {self.stones} stones", value


@dataclass(frozen=True)
class GothelloEndgameRule:
    """Adjudicate a Gothello game by the exact endgame solver from ``empties`` empty
    points down, each solve within ``budget`` nodes.  Plain data, as TablebaseRule."""

    empties: int
    budget: int = GE.BUDGET

    def within(self, state: GothelloState) -> bool:
        """Whether ``verdict`` may judge the position (at most ``empties`` points empty)."""
        return GE.empties(state) <= self.empties

    def verdict(self, state: GothelloState) -> tuple[Outcome, str, str] | None:
        """The outcome of perfect play from a Gothello position (the engine's state),
        the rule's words and the ``Tablebase`` tag's value; None where more points are
        empty, the game is over, or the solve runs out of its budget."""
        found = GE.adjudicate(state, self.empties, self.budget)
        if found is None:
            return None
        side = {G.PLAYER.black: Side.FIRST, G.PLAYER.white: Side.SECOND, None: None}[found.winner]
        mover = "white" if state[2] else "black"
        result = "a draw" if found.winner is None else f"{found.winner.name} wins by {abs(found.difference)}"
        value = (
            f"{result}: {mover} to move, {GE.empties(state)} empty points, black's final difference "
            f"{found.difference:+d} (solved exactly)"
        )
        return Outcome(side, Termination.ADJUDICATION), f"solved exactly at ≤ {self.empties} empty points", value


PerfectPlayRule = TablebaseRule | GothelloEndgameRule
"""What ``--tb`` / ``--tb-empties`` adjudicates by: a verdict per position."""


def add_arguments(p: argparse.ArgumentParser) -> None:
    """``--tb``, ``--tb-stones`` and ``--tb-empties``, for match and tournament."""
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
    p.add_argument(
        "--tb-empties",
        type=_empties,
        metavar="K",
        help="adjudicate Gothello games by the exact endgame solver from K empty points down "
        f"(default off; {GE.K} takes about a second a position, each more ~3 times longer)",
    )


def _empties(text: str) -> int:
    k = count(text)
    if not 1 <= k <= 25:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of empty points (1–25)")
    return k


def rule_of(args: argparse.Namespace, what: str) -> PerfectPlayRule | None:
    """What the arguments ask to adjudicate by (an Awari table, its levels checked now,
    or Gothello's solver); None for none."""
    empties = getattr(args, "tb_empties", None)
    if empties is not None:
        if args.game != "gothello":
            raise UsageError(f"{what}: --tb-empties adjudicates Gothello; Awari is adjudicated by --tb DIR")
        if args.tb is not None:
            raise UsageError(f"{what}: --tb: tables are Awari's; Gothello is adjudicated by --tb-empties K alone")
        return GothelloEndgameRule(empties)
    if args.tb is None:
        if args.tb_stones is not None:
            raise UsageError(f"{what}: --tb-stones needs --tb")
        return None
    if args.game != "awari":
        raise UsageError(f"{what}: --tb: tables are Awari's; Gothello is adjudicated by --tb-empties K")
    rules = AR.parse_rules(args.rules)
    name = AR.canonical_name(rules)
    try:
        stones = probe.Table.found(args.tb, rules).stones if args.tb_stones is None else args.tb_stones
        table = _table(args.tb.resolve(), name, stones, at_start=True)
    except (store.TableError, UnsupportedRules) as exc:
        raise UsageError(f"{what}: --tb: {exc}") from None
    if table is not None and rules.repetition != AR.RepetitionRule.UNCOUNTED and table.bounds is None:
        raise UsageError(
            f"{what}: --tb: under {name} a repetition gives each side its own row, and the table in {args.tb} "
            "has no bounds (.hi, .lo) to say where an entry is the referee's value: build it again (docs/tablebases.md)"
        )
    return TablebaseRule(args.tb.resolve(), stones, name)
