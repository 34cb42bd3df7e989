"""The perfect player: an Awari endgame table's move where the table holds the
position and its entry is trusted there (impl/engines/tablebase/probe.py: a rule set
that leaves a repetition's stones uncounted, and no earlier position can come again),
and from then on for the rest of the game, following the table's distances; in
Gothello, the solved opening and the compiled solver's move where it finishes in the
move's time, or, keeping a win, in ``KEEP`` seconds or half the clock left
(perfect_gothello.py); the search player's move everywhere else
(docs/tablebases.md, "The perfect player")."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import cast

from impl.client import Client
from impl.engines.kernels import GothelloState
from impl.engines.port import AnyEngine, GameState
from impl.engines.tablebase.probe import Table, best_move, board_of, trusted

from .base import log, move_budget
from .perfect_gothello import GothelloPerfect
from .search_player import DEFAULT_BUDGET, SearchPlayer, rule_set_of

KEEP = 300.0
"""Seconds a Gothello move may take to keep a win our last move kept (``--keep``): half
the server's bound on a silent player without a clock (impl/config.py Limits.idle_timeout,
600 s); past the book the first such solve took 23–42 CPU-s on four positions."""


class PerfectPlayer:
    name = "perfect"

    def __init__(
        self,
        tables: Path | Mapping[str, Table] | None = None,
        budget: float = DEFAULT_BUDGET,
        max_depth: int = 64,
        keep: float = KEEP,
    ) -> None:
        """``tables``: a folder of tables, every rule set's there read and verified now,
        before the game (store.TableError names a damaged level: the command's one line,
        exit status 2), so that reading them costs no clock; or those tables, read.
        ``keep``: the seconds a Gothello move may take to keep a win (``KEEP``; 0: none
        beyond the move's budget)."""
        self.keep = keep
        if isinstance(tables, Path):
            self.folder: Path | None = tables
            self.tables = Table.every(tables)
        else:
            self.tables = dict(tables or {})
            self.folder = next(iter(self.tables.values())).folder if self.tables else None
        self.budget = budget
        self.search = SearchPlayer(budget, max_depth, self.tables)
        self.table: Table | None = None
        self.looked = False
        self.from_table = 0
        self.gothello: GothelloPerfect | None = None
        """The solver, made at the first Gothello move (its table is the process's)."""
        self.anchored = False
        """Every move of ours since a trusted table position was the table's: our line
        since then cannot repeat, nor reach what came before it (docs/tablebases.md)."""

    def _table(self, engine: AnyEngine | None) -> Table | None:
        """The table of the game's rule set, if the folder has one (looked up once)."""
        if not self.looked and self.folder is not None:
            self.looked = True
            name = rule_set_of(engine)
            self.table = self.tables.get(name)
            if self.table is None:
                log.info("perfect: no %s table in %s, searching everywhere", name, self.folder)
        return self.table

    def think(
        self, game: str, state: GameState, budget: float, engine: AnyEngine | None = None, keeping: float | None = None
    ) -> str:
        """The move: the table's where it is trusted (distances needed: without them
        the table's moves may cycle), else the search's.  Gothello: ``keeping`` is the
        time the solver may take to keep a win our last move kept (None: no bound)."""
        if game == "gothello":
            if self.gothello is None:
                self.gothello = GothelloPerfect()
            solved = self.gothello.move(cast(GothelloState, state), budget, keeping)
            if solved is not None:
                self.from_table += 1
                return solved
            return self.search.think(game, state, budget, engine)[0]
        table = self._table(engine) if game == "awari" else None
        usable = table is not None and table.covers(board_of(state)) and table.distances is not None
        if table is not None and usable and (self.anchored or trusted(table, state)):
            move = best_move(table, state, checked=True)
            if move is not None:
                self.anchored = True
                self.from_table += 1
                return move.name
        self.anchored = False
        return self.search.think(game, state, budget, engine)[0]

    def choose(self, client: Client) -> str:
        budget = move_budget(client, self.budget)
        left = None if client.side is None else client.time_left(client.side)
        token = self.think(client.game, client.state, budget, client.engine, keeping(budget, self.keep, left))
        log.info("move %d: %s (%d solved so far)", client.serial, token, self.from_table)
        return token

    def accept_draw(self, client: Client) -> bool:
        return self.search.accept_draw(client)


def keeping(budget: float, keep: float, left: float | None) -> float:
    """The seconds a move may take to keep a win: ``keep``, at most half the clock
    ``left`` (less a second's margin), never less than the move's ``budget``."""
    bound = keep if left is None else min(keep, left / 2 - 1.0)
    return max(budget, bound)
