"""The search player: iterative-deepening alpha-beta on the fast engine
(search.py), thinking for a budget taken from the server's clock when the game has
time controls (``move_budget``).  It logs its depth and speed for every move."""

from __future__ import annotations

from collections.abc import Mapping

from impl.client import Client
from impl.engines.port import AnyEngine, GameState
from impl.engines.tablebase.probe import Table
from spec import awari_rules as AR

from . import search_awari, search_gothello
from .base import log, move_budget
from .search import Searcher, SearchInfo

DEFAULT_BUDGET = 1.0
"""Seconds per move without time controls (and the most with them)."""


def rule_set_of(engine: AnyEngine | None) -> str:
    """The Awari rule set ``engine`` plays, by its canonical name (the tables' key)."""
    return AR.canonical_name(getattr(engine, "rules", AR.PAPER))


class SearchPlayer:
    name = "search"

    def __init__(
        self, budget: float = DEFAULT_BUDGET, max_depth: int = 64, tables: Mapping[str, Table] | None = None
    ) -> None:
        """``tables``: Awari endgame tables by rule set (``Table.every``, read and
        verified before the game), probed inside the search where the game's rule
        set has one (search_awari.py)."""
        self.budget, self.max_depth = budget, max_depth
        self.tables = dict(tables or {})
        self.last: SearchInfo | None = None
        self.searches: list[SearchInfo] = []
        self.probes = 0
        """Lines of the searches that a table ended."""

    def think(
        self, game: str, state: GameState, budget: float, engine: AnyEngine | None = None
    ) -> tuple[str, SearchInfo]:
        """The best move (in the server's notation) of the player to move in
        ``state``, an engine state of ``game`` where the game goes on; ``engine``,
        the client's, says which Awari rule set to search."""
        if game == "awari":
            table = self.tables.get(rule_set_of(engine)) if self.tables else None
            rules, children = search_awari.root(state, engine, table)
            info = Searcher(rules, self.max_depth).search(children, budget)
            self.probes += rules.probes
            return search_awari.token(state, info.move), info
        rules_g, children = search_gothello.root(state)
        depth = min(self.max_depth, search_gothello.max_plies(state))
        info = Searcher(rules_g, depth).search(children, budget)
        return search_gothello.token(state, info.move), info

    def choose(self, client: Client) -> str:
        budget = move_budget(client, self.budget)
        token, info = self.think(client.game, client.state, budget, client.engine)
        self.last = info
        self.searches.append(info)
        log.info(
            "move %d %s: %s depth %d value %+d, %d nodes in %.2f s (%.0f nodes/s, budget %.2f s)",
            client.serial,
            client.sides[client.side or 0],
            token,
            info.depth,
            info.value,
            info.nodes,
            info.seconds,
            info.nodes_per_second,
            budget,
        )
        return token

    def summary(self) -> str:
        """One machine-readable log line for the whole game, which ``referee match``
        aggregates: moves searched, nodes, seconds and each move's depth."""
        nodes = sum(i.nodes for i in self.searches)
        seconds = sum(i.seconds for i in self.searches)
        depths = ",".join(str(i.depth) for i in self.searches)
        return f"summary: moves={len(self.searches)} nodes={nodes} seconds={seconds:.3f} depths={depths}"

    def accept_draw(self, client: Client) -> bool:
        """Accept when the offerer, who is to move, is ahead by our search."""
        _, info = self.think(client.game, client.state, move_budget(client, self.budget) / 2, client.engine)
        log.info("draw offer: value %+d for the offerer: %s", info.value, "accept" if info.value > 0 else "refuse")
        return info.value > 0
