"""Reading a table in a game: the entry of a position, whether it may be trusted
there, the best move by it, and ``adjudicate``.

A game's position is the engine's packed state (impl/engines/awari.py: mine, theirs,
meta, positions) or the spec's AwariGame.  Its table board is the mover's row then
the opponent's (``index``), its stores are left aside: the entry is the margin the
mover gains on the n stones of the board (docs/tablebases.md, "What an entry means").

**Where an entry is exact** (docs/tablebases.md, "Repetition"): for a position none
of whose earlier positions with the same stones and stores can be reached again from
it by moves that capture nothing, under a rule set that leaves the stones of a
repeated position uncounted (the entry), or under one that gives each side its own
row where the entry's two bounds agree (bounds.py; the bound is the value).  Elsewhere
``trusted`` is False and nothing here adjudicates; the best move is given under the
uncounted rule sets alone.
"""

from __future__ import annotations

import mmap
import os
from collections import deque
from dataclasses import dataclass
from pathlib import Path

from impl.engines import awari as E
from spec import awari as A
from spec import awari_rules as AR

from . import bounds, ckernel, kernel, store
from .index import Board, rank
from .rules import MAX_STONES, UnsupportedRules, slam_rule

AwariState = tuple[int, int, int, frozenset[tuple[int, int, int]]]
REACH_LIMIT = 500_000
"""Boards a repetition search visits before it gives up (and the entry is not trusted)."""


class Table:
    """The levels 0 … ``stones`` of a rule set's table in ``folder``, read into memory
    and verified (store.open_level; store.TableError if one is missing, damaged or not
    this rule set's).  The distances are None when a level has no ``.dist`` file (a
    table built without the C kernel); a ``.dist`` file there but damaged is refused.
    Under an own-row rule set, ``bounds`` are the levels' ``.hi`` and ``.lo`` files
    (bounds.py), None where a level has none; any there but damaged is refused."""

    def __init__(self, folder: Path, rules: AR.AwariRules, stones: int) -> None:
        self.folder = folder
        self.rules = rules
        self.name = AR.canonical_name(rules)
        self.stones = stones
        self.gs = slam_rule(rules)
        self.levels: list[mmap.mmap] = [
            store.open_level(store.level_path(folder, self.name, n), self.name, n) for n in range(stones + 1)
        ]
        dist = [store.level_path(folder, self.name, n, "dist") for n in range(stones + 1)]
        self.distances: list[mmap.mmap] | None = None
        if all(os.path.lexists(path) for path in dist):
            self.distances = [store.open_level(path, self.name, n, width=2) for n, path in enumerate(dist)]
        self.bounds: dict[str, list[mmap.mmap]] | None = None
        if bounds.applies(rules):
            paths = {
                kind: [store.level_path(folder, self.name, n, kind) for n in range(stones + 1)] for kind in bounds.KINDS
            }
            if all(os.path.lexists(path) for kind in bounds.KINDS for path in paths[kind]):
                self.bounds = {
                    kind: [store.open_level(path, self.name, n) for n, path in enumerate(paths[kind])]
                    for kind in bounds.KINDS
                }

    @classmethod
    def found(cls, folder: Path, rules: AR.AwariRules) -> Table:
        """Every consecutive level from 0 present in ``folder``."""
        name = AR.canonical_name(rules)
        n = -1
        while n < MAX_STONES and store.level_path(folder, name, n + 1).exists():
            n += 1
        if n < 0:
            raise store.TableError(f"{folder}: no {name} table")
        return cls(folder, rules, n)

    @classmethod
    def every(cls, folder: Path) -> dict[str, Table]:
        """Each rule set's table in ``folder`` (``found``), by canonical name: the rule
        sets whose level 0 is there, as its header names them (store.TableError for
        a file no build writes)."""
        found: dict[str, Table] = {}
        for path in sorted(folder.glob("awari-*-00.tb")):
            name = store.read_header(path).rules
            try:
                rules = AR.parse_rules(name)
                slam_rule(rules)
            except (AR.RulesError, UnsupportedRules) as exc:
                raise store.TableError(f"{path}: {exc}") from None
            if path != store.level_path(folder, AR.canonical_name(rules), 0):
                raise store.TableError(f"{path}: its header names the rules {name}")
            found[AR.canonical_name(rules)] = cls.found(folder, rules)
        return found

    def at(self, n: int, r: int) -> int:
        """The entry of the board of n stones and rank r."""
        return store.signed(self.levels[n][store.HEADER_SIZE + r])

    def value(self, pits: Board) -> int:
        """The entry of a board (mover's row first)."""
        return self.at(sum(pits), rank(pits))

    def distance(self, pits: Board) -> int | None:
        """The plies within which the side ahead forces the entry (None: no distances)."""
        if self.distances is None:
            return None
        at = store.HEADER_SIZE + 2 * rank(pits)
        return int.from_bytes(self.distances[sum(pits)][at : at + 2], "little")

    def covers(self, pits: Board) -> bool:
        return sum(pits) <= self.stones

    def bounded(self, pits: Board) -> tuple[int, int] | None:
        """(lo, hi): the bounds of the referee's value of a board entered with nothing
        of its history able to come again (bounds.py); None without bounds."""
        if self.bounds is None:
            return None
        at = store.HEADER_SIZE + rank(pits)
        n = sum(pits)
        return store.signed(self.bounds["lo"][n][at]), store.signed(self.bounds["hi"][n][at])

    def exact(self, pits: Board) -> int | None:
        """The referee's value of a board entered with nothing of its history able to
        come again, where the table knows it: the entry under an uncounted repetition,
        the bound where both agree under an own-row one; else None."""
        found = value_range(self, pits)
        return found[0] if found is not None and found[0] == found[1] else None


# ─── Positions ─────────────────────────────────────────────────────────────────


def board_of(state: AwariState) -> Board:
    """A packed state's table board: the mover's row, then the opponent's."""
    return E.table_board(state)


def stores_of(state: AwariState) -> tuple[int, int]:
    """(the mover's store, the opponent's)."""
    return E.mover_stores(state)


def state_of(game: A.AwariGame) -> AwariState:
    """The spec's AwariGame as the engine's packed state."""
    from impl.engines.awari import ImplAwari

    return ImplAwari().from_spec(game)


def may_repeat(state: AwariState, gs: int) -> bool:
    """Some earlier position with this board's stones and these stores (the only ones
    that can come again: captures only lower the stones, and the stores then change)
    can be reached from here by moves that capture nothing — or the search gave up."""
    positions = state[3]
    n = sum(board_of(state))
    earlier = {board for key in positions if E.same_stores(key, state) and sum(board := E.table_board(key)) == n}
    if not earlier:
        return False
    targets = {rank(b) for b in earlier}
    lib = ckernel.load_reach()
    if lib is not None:  # the same search in C: milliseconds, not seconds
        return ckernel.reaches(lib, n, gs, kernel.NO_BUG, rank(board_of(state)), targets, REACH_LIMIT)
    seen = {rank(board_of(state))}
    queue = deque(seen)
    while queue:
        r = queue.popleft()
        if r in targets or len(seen) > REACH_LIMIT:
            return True
        for _, captured, m, child in ckernel.board_options(n, r, gs, kernel.NO_BUG)[1]:
            if m == n and captured == 0 and child not in seen:
                seen.add(child)
                queue.append(child)
    return False


def untrusted(table: Table, state: AwariState) -> str | None:
    """Why the table does not give this position's exact value in the game being
    played, in words; None where it does (``Table.exact``): the board is in the table,
    the rule set scores a repetition as uncounted or the entry's bounds agree, and no
    earlier position can come again (``may_repeat``)."""
    board = board_of(state)
    if not table.covers(board):
        return f"the board has more stones than the table's {table.stones}"
    if table.rules.repetition != AR.RepetitionRule.UNCOUNTED:
        own = f"under {table.name} a repetition gives each side its own row"
        pair = table.bounded(board)
        if pair is None:
            return f"{own}, and the table has no bounds (build it again: bounds are built with it)"
        if pair[0] != pair[1]:
            return f"{own}, and the entry's bounds differ ({pair[0]:+d} … {pair[1]:+d}): the line that repeats decides"
    if may_repeat(state, table.gs):
        return "an earlier position of the game can come again (its history decides)"
    return None


def trusted(table: Table, state: AwariState) -> bool:
    """The entry of this position is its exact value in the game being played (``untrusted``)."""
    return untrusted(table, state) is None


# ─── Moves and adjudication ────────────────────────────────────────────────────


def move_values(table: Table, state: AwariState) -> dict[A.PIT, int]:
    """Each legal move's margin for the mover by the table: the final margin of a move
    that ends the game, else the stones it captures less the entry after it.  The
    moves come from the proven engine."""
    from impl.engines.awari import engine_for

    engine = engine_for(table.rules)
    values: dict[A.PIT, int] = {}
    me = E.mover(state)
    bare = E.bare(state)  # stores 0/0, no history: the table's game
    for pit in engine.legal_moves(state):
        _, after = engine.apply(bare, pit)
        gained = E.store(after, me) - E.store(after, 1 - me)
        if engine.is_over(after) or (not after[0] and not after[1]):
            values[pit] = gained
        else:
            values[pit] = gained - table.value(board_of(after))
    return values


def best_move(table: Table, state: AwariState, checked: bool = False) -> A.PIT | None:
    """A move that keeps the entry, where the entry is trusted (``checked``: the caller
    knows it is).  Ahead (entry > 0), one that cashes it — ends the game or captures —
    or else goes to the board of least distance, which is less than this one's: such
    a line never repeats a position.  Without distances, a cashing move first, then
    one to a position not seen before (which may go round a cycle without cashing:
    docs/tablebases.md, "The perfect player")."""
    if table.rules.repetition != AR.RepetitionRule.UNCOUNTED:
        return None  # the children's entries are the table's game's, not the referee's
    if not checked and not trusted(table, state):
        return None
    values = move_values(table, state)
    if not values:
        return None
    best = max(values.values())
    from impl.engines.awari import engine_for

    engine = engine_for(table.rules)
    stones = sum(board_of(state))

    bare = E.bare(state)  # the table's game

    def progress(pit: A.PIT) -> tuple[int, int, int]:
        _, after = engine.apply(bare, pit)  # in the real game a repetition would look like cashing
        cashed = engine.is_over(after) or sum(board_of(after)) < stones
        distance = 0 if cashed else table.distance(board_of(after)) or 0
        _, real = engine.apply(state, pit)
        fresh = real[:3] not in state[3]
        return int(cashed), -distance, int(fresh)

    return max((pit for pit in values if values[pit] == best), key=progress)


@dataclass(frozen=True)
class Adjudicated:
    """An adjudicated game: the winner (None: a draw) and the final difference of the
    stores, north's less south's, under perfect play (docs/tablebases.md, "Stores").
    Under an own-row rule set where the bounds differ but every value between them
    gives the same winner, ``difference`` is the winner's least win and ``upto`` its
    greatest (the repetition's split decides which); None where the value is exact."""

    winner: A.PLAYER | None
    difference: int
    upto: int | None = None

    def words(self) -> str:
        """ "north wins by 3", "south wins by 2 to 6", "a draw"."""
        if self.winner is None:
            return "a draw"
        far = "" if self.upto is None else f" to {abs(self.upto)}"
        return f"{self.winner.name} wins by {abs(self.difference)}{far}"


def value_range(table: Table, board: Board) -> tuple[int, int] | None:
    """(least, greatest) the referee's value of a board entered with nothing of its
    history able to come again can be by the table: the entry twice under an uncounted
    repetition, the bounds under an own-row one; None where the table cannot say (the
    board not in it, no bounds)."""
    if not table.covers(board):
        return None
    if table.rules.repetition == AR.RepetitionRule.UNCOUNTED:
        return table.value(board), table.value(board)
    return table.bounded(board)


def adjudicate(game: A.AwariGame | AwariState, table: Table, checked: bool = False) -> Adjudicated | None:
    """The result of perfect play from a position of a real game (its stores and all
    48 stones there), or None where the table does not decide it: the board not in
    the table, the game over, another rule set's, no value (``value_range``), bounds
    that give different winners, or an earlier position that can come again
    (``may_repeat``, asked last: it is the costly test; ``checked``: the caller knows
    none can).  The mover's final store difference is its stores' difference plus the
    value (``Table.exact``), or between that with each bound."""
    state = state_of(game) if isinstance(game, A.AwariGame) else game
    board = board_of(state)
    mine, theirs = stores_of(state)
    if mine + theirs + sum(board) != 48:
        return None
    found = value_range(table, board)
    if found is None:
        return None
    low, high = mine - theirs + found[0], mine - theirs + found[1]
    if not one_winner(low, high):
        return None  # the winner depends on what the repetition gives
    from impl.engines.awari import engine_for

    if engine_for(table.rules).is_over(state) or (not checked and may_repeat(state, table.gs)):
        return None
    return result_of(state, low, high)


def one_winner(low: int, high: int) -> bool:
    """Every final store difference in low … high gives the same result (win, draw or loss)."""
    return (low > 0) == (high > 0) and (low < 0) == (high < 0)


def result_of(state: AwariState, low: int, high: int) -> Adjudicated:
    """The result whose mover's final store difference is low … high (one sign)."""
    me = E.player_to_move(state)
    north = me == A.PLAYER.north
    other = A.PLAYER.south if north else A.PLAYER.north
    winner = me if low > 0 else other if high < 0 else None
    least, most = (low, high) if winner == me else (high, low)  # the winner's least win first
    if not north:
        least, most = -least, -most
    return Adjudicated(winner, least, None if low == high else most)


def adjudicate_board(
    board: A.BOARD,
    stores: tuple[int, int],
    to_move: A.PLAYER,
    table: Table,
    positions: frozenset[A.AwariBoard] = frozenset(),
) -> Adjudicated | None:
    """``adjudicate`` from the pieces: the twelve pits in the spec's order (north's a–f,
    then south's A–F), the stores (north, south), the side to move, and the game's
    positions so far (the spec's AwariBoard values; none: nothing can repeat)."""
    return adjudicate(A.AwariGame(board=board, score=stores, to_move=to_move, positions=positions), table)
