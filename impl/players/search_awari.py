"""Awari positions for the search (search.py), on the fast engine's packed rows
(impl/engines/kernels.py): a position is its key ``(mine, theirs, meta)``, seen from the
player to move, and a move is the bit offset ``8j`` of the mover's pit j.

Repetition (NoMove's ``θAwariBoard ∈ positions``) is checked against the
positions of the game so far, not those along a line of the search: exact at the
root, an approximation deeper, where a repetition is rare.

With an endgame table of the game's rule set (``--tb``, docs/tablebases.md), a line
reaching a board the table covers ends there, valued as perfect play from it: the
stores' difference plus the table's entry, a finished game's value (as chess engines
probe Syzygy tables inside their search).  The entry is the position's value where
no earlier position can come again (``probe.trusted``, too slow to ask at every node):
inside the search, the same approximation as repetition's."""

from __future__ import annotations

from impl.engines import kernels as K
from impl.engines.port import AnyEngine
from impl.engines.tablebase.probe import Table
from spec import awari as A

from .search import Child, final_value

Position = tuple[int, int, int]
_SHIFTS = K.SHIFTS
_PLAYING, _ENDED = K.PLAYING, K.ENDED
_play, _row_sum, _mover, _store, _pit = K.play, K.row_sum, K.mover, K.store, K.pit

STONES = 48
"""The stones of a game (four in each of twelve pits): those not in a store are on the board."""
STORE_WEIGHT = 3
"""A stone in the store, against one on the mover's own row (which the mover claims
if the game ends by NoMove or CannotFeed, but may yet lose to a capture)."""


class AwariSearch:
    """The search's view of Awari, for one game's history of positions."""

    def __init__(self, seen: frozenset[K.Key], table: Table | None = None) -> None:
        self.seen = seen
        self.table = table
        self.probes = 0
        """Lines the table ended."""

    def key(self, pos: Position) -> Position:
        return pos

    def evaluate(self, pos: Position) -> int:
        """The store difference, weighted, plus the stones on each side's row."""
        mine, theirs, _ = pos
        me = _mover(pos)
        stores = _store(pos, me) - _store(pos, 1 - me)
        return STORE_WEIGHT * stores + _row_sum(mine) - _row_sum(theirs)

    def children(self, pos: Position) -> list[Child]:
        """Each sowing the rules accept; captures are tried first, wins before all."""
        mine = pos[0]
        me = _mover(pos)
        store = _store(pos, me)
        out: list[Child] = []
        for sh in _SHIFTS:
            if not _pit(mine, sh):
                continue
            outcome, after, result = self._sow(pos, sh)
            if outcome == _PLAYING:  # the after-state is seen from the opponent
                solved = self._probe(after)
                if solved is None:
                    out.append((sh, after, 0, _store(after, me) - store))
                else:
                    out.append((sh, None, solved, solved))
            elif outcome == _ENDED:
                value = final_value(self._margin(after, me, result))
                out.append((sh, None, value, value))
        return out

    def _probe(self, after: Position) -> int | None:
        """The value, for the player who moved, of perfect play from ``after`` (its
        opponent to move), if the table covers its board; else None."""
        table = self.table
        if table is None or STONES - _store(after, 0) - _store(after, 1) > table.stones:
            return None  # the stores say it, without unpacking the board: most nodes stop here
        board = K.table_board(after)
        self.probes += 1
        me = 1 - _mover(after)
        return final_value(_store(after, me) - _store(after, 1 - me) - table.value(board))

    def _sow(self, pos: Position, sh: int) -> tuple[int, Position, object]:
        """One sowing under the paper's rules: (outcome, the after-position, no result)."""
        outcome, mine_, theirs_, meta_, _ = _play(pos[0], pos[1], pos[2], self.seen, sh)
        return outcome, (mine_, theirs_, meta_), None

    def _margin(self, after: Position, me: int, result: object) -> int:
        """A finished game's margin for ``me``: the stores' difference."""
        return _store(after, me) - _store(after, 1 - me)


class RuleSetSearch(AwariSearch):
    """The search's view of Awari under another rule set (spec/awari_rules.py), by
    the fast engine's ``RulesAwari.play``.  A finished game's value is the score
    margin in the direction of its result (a draw or a loss by rule may not follow
    the scores)."""

    def __init__(self, seen: frozenset[K.Key], engine: K.RulesAwari, table: Table | None = None) -> None:
        super().__init__(seen, table)
        self.engine = engine

    def _sow(self, pos: Position, sh: int) -> tuple[int, Position, object]:
        outcome, result, (mine_, theirs_, meta_, _) = self.engine.play((pos[0], pos[1], pos[2], self.seen), sh)
        return outcome, (mine_, theirs_, meta_), result

    def _margin(self, after: Position, me: int, result: object) -> int:
        margin = _store(after, me) - _store(after, 1 - me)
        if result == A.win(A.PLAYER(me)):
            return max(1, margin)
        if result == A.draw:
            return 0
        return min(-1, margin)


def root(
    state: K.AwariState, engine: AnyEngine | None = None, table: Table | None = None
) -> tuple[AwariSearch, list[Child]]:
    """The rules for a game's state (where the game goes on) and its legal moves;
    ``engine``: the game's engine, whose rule set the search then plays; ``table``:
    that rule set's endgame table, if the search probes one."""
    mine, theirs, meta, positions = state
    seen = positions | {(mine, theirs, meta)}
    rules = RuleSetSearch(seen, engine, table) if isinstance(engine, K.RulesAwari) else AwariSearch(seen, table)
    return rules, rules.children((mine, theirs, meta))


def token(state: K.AwariState, move: int) -> str:
    """The pit letter of a move (``8j``) of the player to move."""
    return A.PIT(6 * _mover(state) + _SHIFTS.index(move)).name
