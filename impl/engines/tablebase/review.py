"""A recorded Awari game move by move against a table (issue #39, item 5): for each
ply, the mover's entry before, the value of the move played and of the best move —
or why there is none (``Unvalued``).  ``referee analyse`` prints it; the web view's
replay page shows it (impl/web/archive.py)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from impl.engines.awari import AwariState, engine_for
from spec import awari as A
from spec import awari_rules as AR

from . import history
from .probe import Table, board_of, move_values, stores_of, trusted
from .rules import UnsupportedRules, slam_rule
from .store import TableError

OUTSIDE = "outside the table"
INEXACT = "in the table, but the entry is not the referee's value here"
OWN_ROW = (
    f"in the table, but under an own-row repetition rule a move's value is not the referee's "
    f"(its own search values boards of at most {history.ADJUDICATION_STONES} stones; "
    f"referee tablebase probe gives the position's where its bounds agree)"
)
OUT_OF_NODES = (
    f"under an own-row repetition rule, and the referee's own search ran out of its "
    f"{history.ADJUDICATION_BUDGET:,} nodes"
)
REVIEW_NODES = 2_000_000
"""Nodes the referee's own search may visit for one record, its plies together (about a
minute here): a game can shuffle its last stones for hundreds of plies, each searched."""
SPENT = f"under an own-row repetition rule, and the record's {REVIEW_NODES:,} nodes of search are spent"


@dataclass(frozen=True)
class MoveReport:
    """One valued ply: the mover's entry before, the value of the move played and of
    the best (the mover's margin on the board's stones), and whether the entry is
    exact there (``probe.trusted``)."""

    ply: int
    side: str
    move: str
    before: int
    played: int
    best: str
    best_value: int
    exact: bool

    @property
    def loss(self) -> int:
        """Stones the move gave away against the best: a blunder when > 0."""
        return self.best_value - self.played

    def line(self) -> str:
        mark = "" if self.exact else " ~"
        verdict = f"  blunder: {self.loss} stone(s), best {self.best}" if self.loss else ""
        return (
            f"ply {self.ply:3d} {self.side} {self.move}: before {self.before:+d}, after {self.played:+d}{mark}"
            f" (best {self.best} {self.best_value:+d}){verdict}"
        )

    def json(self) -> dict[str, Any]:
        return {
            "ply": self.ply,
            "side": self.side,
            "move": self.move,
            "exact": self.exact,
            "before": self.before,
            "after": self.played,
            "best": self.best,
            "best_value": self.best_value,
            "loss": self.loss,
        }


@dataclass(frozen=True)
class Unvalued:
    """A ply the table gives no value for, and why (``OUTSIDE``, ``INEXACT``)."""

    ply: int
    side: str
    move: str
    why: str

    def line(self) -> str:
        return f"ply {self.ply:3d} {self.side} {self.move}: not covered: {self.why}"

    def json(self) -> dict[str, Any]:
        return {"ply": self.ply, "side": self.side, "move": self.move, "why": self.why}


def table_for(folder: Path, rules: str) -> Table:
    """Every level in ``folder`` of the rule set ``rules`` names (TableError if none,
    or if the name is not a rule set, or one without tables)."""
    try:
        parsed = AR.parse_rules(rules)
        slam_rule(parsed)
    except (AR.RulesError, UnsupportedRules) as exc:
        raise TableError(str(exc)) from None
    return Table.found(folder, parsed)


def review(table: Table, moves: Sequence[str], untrusted: bool = False) -> list[MoveReport | Unvalued]:
    """Each ply of a game from the start (``moves`` in the papers' notation), valued
    where the board is in the table and its entry is exact there (``untrusted``: in
    the table at all, marked inexact) — under an own-row rule set, on boards of at most
    ``history.ADJUDICATION_STONES`` stones, by the referee's own search of the game's
    lines, its stores and history as they are (``history.Values.moves``, as
    adjudication); stops at a move the rules refuse."""
    engine = engine_for(table.rules)
    state: AwariState = engine.initial()
    found: list[MoveReport | Unvalued] = []
    searched = history.Values(table) if table.bounds is not None else None
    spent = 0
    for ply, text in enumerate(moves, 1):
        pit = engine.parse_move(text)
        if pit is None or engine.is_over(state) or pit not in engine.legal_moves(state):
            break
        side = engine.to_move(state).name
        uncounted = table.rules.repetition == AR.RepetitionRule.UNCOUNTED
        exact = uncounted and trusted(table, state)
        if not table.covers(board_of(state)):
            found.append(Unvalued(ply, side, pit.name, OUTSIDE))
        elif searched is not None and sum(board_of(state)) <= searched.stones:
            if spent >= REVIEW_NODES:
                found.append(Unvalued(ply, side, pit.name, SPENT))
            else:
                report, nodes = _searched(ply, side, pit, state, searched)
                found.append(report)
                spent += nodes
        elif not (exact or untrusted):
            found.append(Unvalued(ply, side, pit.name, INEXACT if uncounted else OWN_ROW))
        else:
            values = move_values(table, state)
            best = max(values, key=lambda p: values[p])
            before = table.value(board_of(state))
            found.append(MoveReport(ply, side, pit.name, before, values[pit], best.name, values[best], exact))
        _, state = engine.apply(state, pit)
    return found


def _searched(
    ply: int, side: str, pit: A.PIT, state: AwariState, values: history.Values
) -> tuple[MoveReport | Unvalued, int]:
    """A ply under an own-row rule set valued by the referee's own search — each move's
    final store difference, less the stores' now (the margin on the board's stones) —
    and the nodes it visited."""
    worth, nodes = values.moves(state)
    if worth is None:
        return Unvalued(ply, side, pit.name, OUT_OF_NODES), nodes
    mine, theirs = stores_of(state)
    best = max(worth, key=lambda p: worth[p])
    ahead = mine - theirs
    top = worth[best] - ahead  # the position's value: its best move's
    return MoveReport(ply, side, pit.name, top, worth[pit] - ahead, best.name, top, True), nodes
