"""The referee's own value of a board under an own-row rule set (``paper``, ``abapa``):
the search over the lines that do not repeat that docs/tablebases.md ("Exact values
under the papers' rule") describes, with the table's bounds as its window.

``Referee.value(board)`` is the mover's final margin in the referee's game from
``board`` with stores 0/0 and an empty positions set, under perfect play: every line
of the proven engine's game, its positions set growing and the first repetition
ending the game as the rule set says (AwariRef's NoMove with the rule set's scoring).
Two facts keep it small:

* after a capture no earlier position can come again (the stones only fall), so the
  rest of the game is worth the captured child's own value with an empty history —
  searched once and remembered, not once per line that reaches it;
* that value lies between the table's bounds lo ≤ v ≤ hi (bounds.py), and is the
  bound where they agree; elsewhere null windows between them find it.

A board's search may be given a budget of nodes; past it the value is not known
(``None``), and the bounds stand.  ``Values`` shares what the searches found among the
games of one process, and ``adjudicate`` scores a real game's position by it where the
bounds alone leave the winner open (``--tb`` under ``paper`` and ``abapa``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final, TypeVar

from impl.engines import awari as E
from impl.engines.awari import engine_for
from spec import awari as A

from . import probe
from .index import Board
from .probe import Adjudicated, Table

BUDGET: Final = 1_000_000
"""Nodes a probe's search of one board may visit by default (about half a minute here)."""

ADJUDICATION_STONES: Final = 3
"""Adjudication searches boards of at most this many stones: every one of them settles
(docs/tablebases.md, ``bench.referee_values``); on level 4 most run out of any budget,
and a search that runs out would cost its seconds at every new board of a game."""

ADJUDICATION_BUDGET: Final = 100_000
"""Nodes adjudication's search of one board may visit, its captured children's first
searches included: five times what the costliest board of <= 3 stones takes searched
from nothing (17,836 nodes, half a second here), a guard should that ever change."""


T = TypeVar("T")


class OutOfNodes(Exception):
    """The board's budget of nodes is spent."""


@dataclass
class Referee:
    """The referee's values of one table's boards (module docstring), remembered."""

    table: Table
    budget: int | None = None
    """Nodes a board's own search may visit (those of the captured children it asks
    for the first time included); None: no bound."""
    known: dict[Board, int] = field(default_factory=dict)
    nodes: int = 0
    """Nodes visited in all."""

    def __post_init__(self) -> None:
        if self.table.bounds is None:
            raise ValueError(f"the {self.table.name} table has no bounds")
        self.engine = engine_for(self.table.rules)
        self._stop: int | None = None

    def value(self, pits: Board) -> int | None:
        """The referee's margin for the mover from ``pits`` (stores 0/0, no history);
        None if the budget ran out first."""
        if pits in self.known:
            return self.known[pits]
        return self._budgeted(lambda: self._value(pits))

    def in_game(self, state: E.AwariState) -> int | None:
        """The mover's final store difference from a real game's position — its stores
        and its history as they are, an earlier position able to come again — by the
        whole window's search; None if the budget ran out first."""
        return self._budgeted(lambda: self._search(state, -49, 49))

    def _value(self, pits: Board) -> int:
        found = self.known.get(pits)
        if found is not None:
            return found
        pair = self.table.bounded(pits)
        assert pair is not None
        low, high = pair
        state = E.table_state(pits)
        if low < high and not self.engine.is_over(state):
            while low < high:  # the value is in low … high: halve it by a null window
                test = (low + high + 1) // 2
                got = self._search(state, test - 1, test)
                if got >= test:
                    low = max(test, min(got, high))
                else:
                    high = min(test - 1, max(got, low))
        self.known[pits] = low
        return low

    def moves(self, state: E.AwariState) -> dict[A.PIT, int] | None:
        """Each legal move's worth to the mover of a real game's position — its final
        store difference after the move, perfect play after, the stores and history as
        they are (``in_game`` is the best of them); None if the budget ran out first."""
        me, stones = E.mover(state), sum(E.table_board(state))
        return self._budgeted(
            lambda: {pit: self._child(state, me, stones, pit, -49, 49) for pit in self.engine.legal_moves(state)}
        )

    def _budgeted(self, search: Callable[[], T]) -> T | None:
        """``search()`` within ``budget`` nodes from now (None: it ran out first)."""
        self._stop = None if self.budget is None else self.nodes + self.budget
        try:
            return search()
        except OutOfNodes:
            return None
        finally:
            self._stop = None

    def _child(self, state: E.AwariState, me: int, stones: int, pit: A.PIT, alpha: int, beta: int) -> int:
        """The mover's (``me``) final store difference after ``pit`` from ``state`` of
        ``stones`` stones: the game over, a capture's child by its remembered value
        (nothing of the history can come again: the stones only fall), else the child's
        search in the window (fail-soft)."""
        _, after = self.engine.apply(state, pit)
        gained = E.store(after, me) - E.store(after, 1 - me)
        left = sum(E.table_board(after))
        if self.engine.is_over(after) or not left:
            return gained
        if left < stones:
            return gained - self._value(E.table_board(after))
        return -self._search(after, -beta, -alpha)

    def _search(self, state: E.AwariState, alpha: int, beta: int) -> int:
        """check.referee_margin's fail-soft search, a capture's child by ``_value``
        (that one, without the savings, is kept apart: it is the reference this is tested against)."""
        self.nodes += 1
        if self._stop is not None and self.nodes > self._stop:
            raise OutOfNodes
        me, stones = E.mover(state), sum(E.table_board(state))
        best = -99
        for pit in self.engine.legal_moves(state):
            value = self._child(state, me, stones, pit, alpha, beta)
            if value > best:
                best = value
                alpha = max(alpha, best)
                if alpha >= beta:
                    break
        return best


@dataclass
class Values:
    """The referee's values of one table's boards found so far, shared by the games of
    a process: each search is its own ``Referee`` over the shared ``known`` (a value,
    once stored, is final, and a dict's single reads and writes are atomic, so threads
    need no lock), and a board whose search ran out of ``budget`` is not asked again."""

    table: Table
    budget: int = ADJUDICATION_BUDGET
    stones: int = ADJUDICATION_STONES
    """Boards of more stones are not searched."""
    known: dict[Board, int] = field(default_factory=dict)
    open: set[Board] = field(default_factory=set)

    def value(self, pits: Board) -> tuple[int | None, int]:
        """The referee's margin for the mover from ``pits`` (None: more stones than
        ``stones``, or not within the budget, now or before) and the nodes this call visited."""
        if pits in self.open or sum(pits) > self.stones:
            return None, 0
        referee = Referee(self.table, self.budget, self.known)
        found = referee.value(pits)
        if found is None:
            self.open.add(pits)
        return found, referee.nodes

    def in_game(self, state: E.AwariState) -> tuple[int | None, int]:
        """``Referee.in_game`` within the budget (boards of more than ``stones`` stones
        not searched: None) and the nodes it visited; not remembered (the history is
        the game's), but the captured children it values are."""
        if sum(E.table_board(state)) > self.stones:
            return None, 0
        referee = Referee(self.table, self.budget, self.known)
        return referee.in_game(state), referee.nodes

    def moves(self, state: E.AwariState) -> tuple[dict[A.PIT, int] | None, int]:
        """``Referee.moves`` within the budget (boards of more than ``stones`` stones
        not searched: None) and the nodes it visited."""
        if sum(E.table_board(state)) > self.stones:
            return None, 0
        referee = Referee(self.table, self.budget, self.known)
        return referee.moves(state), referee.nodes


@dataclass(frozen=True)
class Searched:
    """A position scored by the referee's searched value: the result, the mover's
    margin on the board (``value``), the nodes the search visited, and whether it was
    the game's own search, history included (else the board's, remembered)."""

    result: Adjudicated
    value: int
    nodes: int
    in_game: bool = False


def adjudicate(state: E.AwariState, values: Values) -> Searched | None:
    """The result of perfect play from a real game's position (stores and all 48 stones
    there, at most ``values.stones`` on the board) that ``probe.adjudicate`` leaves
    open: where an earlier position can come again (``probe.may_repeat``), by a search
    of this game's own lines, its history and stores as they are; where none can and
    the bounds give different winners, by the referee's own value of its board,
    searched and remembered; None where the search runs out of its budget."""
    table = values.table
    board = probe.board_of(state)
    mine, theirs = probe.stores_of(state)
    pair = probe.value_range(table, board)
    if pair is None or table.bounds is None or mine + theirs + sum(board) != 48:
        return None
    if sum(board) > values.stones or engine_for(table.rules).is_over(state):
        return None
    if probe.may_repeat(state, table.gs):  # the history decides: this game's own search
        final, nodes = values.in_game(state)
        if final is None:
            return None
        return Searched(probe.result_of(state, final, final), final - (mine - theirs), nodes, in_game=True)
    if probe.one_winner(mine - theirs + pair[0], mine - theirs + pair[1]):
        return None  # the bounds decide it (probe.adjudicate)
    found, nodes = values.value(board)
    if found is None:
        return None
    return Searched(probe.result_of(state, mine - theirs + found, mine - theirs + found), found, nodes)
