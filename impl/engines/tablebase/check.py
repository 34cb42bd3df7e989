"""The checks of a table, each independent of the builder's kernel where it can be:

* ``kernel_vs_engine`` — on every board of ≤ N stones the kernel's moves, captures
  and child ranks equal the proven fast engine's (``get_engine("awari", "impl", rules)``);
* ``bellman`` — every entry of the built levels equals the best over its moves,
  the moves and their children recomputed by that engine, never by the kernel;
* ``spec_values`` — the table's game solved afresh on the spec's own referee
  (``get_engine("awari", "spec", rules)``), by a different algorithm (per margin
  threshold, a worklist retrograde over the predecessor graph), for every board of
  ≤ N stones; ``check_spec`` compares it with the table;
* ``history_minimax`` — the game as the referee plays it, the positions set and the
  repetition rule included, searched exhaustively from every board of ≤ N stones:
  where the rule set scores a repetition as uncounted the table must equal it;
* ``check_bounds`` — under an own-row repetition rule, the referee's own margin,
  searched over the game's lines with the positions set (``referee_margin``, the
  proven engine), lies within each board's two bounds (bounds.py), and equals them
  where they agree.

Each returns the list of differences (empty when the check passes), each a line.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from impl.engines import awari as E
from impl.engines.port import GameEngine
from spec import awari as A
from spec import awari_rules as AR
from spec import result as R

from . import ckernel, kernel
from .index import Board, boards, level_size, rank, unrank
from .probe import Table
from .rules import slam_rule
from .store import TableError

Margin = int
MAX_DIFFERENCES = 20


# ─── The proven engine's view of a table board ─────────────────────────────────


EngineMove = tuple[int, int, Board | None, Margin]
"""(pit, stones captured, the board after seen by its mover or None if the game
ended, the mover's final margin if it ended else 0)."""


def engine_moves(engine: GameEngine, pits: Board) -> tuple[Margin | None, list[EngineMove]]:
    """A table board through the proven engine: north to move with stores 0/0 and no
    positions (the table's game: no repetition), its value if the game is over at the
    start of the turn, else its moves."""
    from impl.engines.awari import ImplAwari, RulesAwari

    assert isinstance(engine, ImplAwari | RulesAwari)
    state = E.table_state(pits)
    if engine.is_over(state):
        _, after = engine.apply(state, A.PIT.a)
        return E.store(after, 0) - E.store(after, 1), []
    found: list[EngineMove] = []
    for pit in engine.legal_moves(state):
        _, after = engine.apply(state, pit)
        north, south = E.stores(after)
        if engine.is_over(after) or not E.row_stones(after[0]) + E.row_stones(after[1]):
            found.append((int(pit), engine.describe(state, pit).taken, None, north - south))
        else:
            found.append((int(pit), north, E.table_board(after), 0))
    return None, found


def kernel_vs_engine(rules: AR.AwariRules, stones: int, bug: int = kernel.NO_BUG, use_c: bool = True) -> list[str]:
    """The kernel against the proven engine on every board of ≤ ``stones`` stones: the
    same start-of-turn ending and value, the same legal pits, the same captures, and
    each child's rank that of the engine's board after (or, where the engine's move
    ends the game, the same final margin)."""
    return kernel_vs_engine_on(rules, (pits for n in range(stones + 1) for pits in boards(n)), bug, use_c)


def kernel_vs_engine_on(
    rules: AR.AwariRules, sample: Iterable[Board], bug: int = kernel.NO_BUG, use_c: bool = True
) -> list[str]:
    """``kernel_vs_engine``'s comparison on the boards of ``sample`` (any stones up to
    48): its first MAX_DIFFERENCES differences."""
    from impl.engines.registry import get_engine

    engine = get_engine("awari", "impl", rules)
    gs = slam_rule(rules)
    bad: list[str] = []
    for pits in sample:
        n = sum(pits)
        ended, kmoves = ckernel.board_options(n, rank(pits), gs, bug, use_c)
        e_ended, emoves = engine_moves(engine, pits)
        if ended != e_ended or [m[0] for m in kmoves] != [m[0] for m in emoves]:
            bad.append(f"{pits}: kernel {ended} {[m[0] for m in kmoves]}, engine {e_ended} {[m[0] for m in emoves]}")
        else:
            for (pit, v, m, cr), (_, taken, after, margin) in zip(kmoves, emoves, strict=True):
                if after is not None:
                    ok = m >= 0 and v == taken and (m, cr) == (sum(after), rank(after))
                elif m < 0:
                    ok = v == margin
                else:  # the engine ended the game at the child's turn: the kernel sees the child
                    child_end, _ = ckernel.board_options(m, cr, gs, bug, use_c)
                    ok = v == taken and child_end is not None and v - child_end == margin
                if not ok:
                    bad.append(f"{pits} pit {pit}: kernel {(v, m, cr)}, engine {(taken, after, margin)}")
        if len(bad) >= MAX_DIFFERENCES:
            return bad[:MAX_DIFFERENCES]
    return bad


LAP_SAMPLE = 12
"""Boards ``lap_sample`` draws for each pit and count (12 × 25 × 12 = 3,600 boards)."""


def lap_sample(per: int = LAP_SAMPLE, seed: int = 49) -> list[Board]:
    """Boards where every pit holds every count 0 … 24, ``per`` boards each (seeded:
    the same boards every run), the other pits mostly small (0 … 3: what a capture
    after a lap needs) and now and then anything, the board's stones at most the
    game's 48.  Every board of ≤ 8 stones is checked whole (``kernel_vs_engine``);
    these reach the kernel's lap shortcut (a pit of 11 stones or more sows every
    other pit at once, 22 or more twice) that no board of ≤ 10 stones does (issue
    #49, item 7a)."""
    rng = random.Random(seed)
    found: list[Board] = []
    for pit in range(12):
        for count in range(25):
            for _ in range(per):
                pits = [0] * 12
                pits[pit] = count
                left = 48 - count
                others = [q for q in range(12) if q != pit]
                rng.shuffle(others)
                for q in others:
                    drawn = rng.randint(0, 3) if rng.random() < 0.75 else rng.randint(0, 24)
                    pits[q] = min(drawn, left)
                    left -= pits[q]
                found.append(tuple(pits))
    return found


def _bellman_board(table: Table, pits: Board, ended: Margin | None, moves: list[EngineMove]) -> str | None:
    if ended is None:
        ended = max(margin if after is None else taken - table.value(after) for _, taken, after, margin in moves)
    entry = table.value(pits)
    return None if entry == ended else f"{pits}: table {entry}, Bellman {ended}"


def _distance_board(table: Table, pits: Board, ended: Margin | None, moves: list[EngineMove]) -> str | None:
    entry, d, n = table.value(pits), table.distance(pits) or 0, sum(pits)
    if ended is not None or entry == 0:
        return None
    keeping = [
        after is None or sum(after) < n or (table.distance(after) or 0) < d
        for _, taken, after, margin in moves
        if (margin if after is None else taken - table.value(after)) == entry
    ]
    if not keeping or (entry > 0 and not any(keeping)) or (entry < 0 and not all(keeping)):
        return f"{pits}: entry {entry}, distance {d}: no progress"
    return None


def _bounds_board(table: Table, pits: Board, ended: Margin | None, moves: list[EngineMove]) -> str | None:
    """Both bounds (bounds.py) keep their equations on the proven engine's moves: hi the
    best over the moves of the stones captured less the child's lo, lo of them less
    the child's hi (a move that ends the game: its final margin)."""
    pair = table.bounded(pits)
    if pair is None:
        return None
    lo, hi = pair

    def best(other: int) -> int:
        if ended is not None:
            return ended
        return max(m if after is None else taken - _bound(table, after, other) for _, taken, after, m in moves)

    want = best(1), best(0)  # lo is best against the child's hi, hi against its lo
    return None if (lo, hi) == want else f"{pits}: bounds {lo} … {hi}, Bellman {want[0]} … {want[1]}"


def _bound(table: Table, pits: Board, which: int) -> int:
    pair = table.bounded(pits)
    assert pair is not None
    return pair[which]


BoardCheck = Callable[[Table, Board, Margin | None, list[EngineMove]], str | None]
"""A check of one board, given its start-of-turn ending and its moves by the proven
engine: None, or the line that says what is wrong."""


def _boards_checked(table: Table, n: int, lo: int, hi: int, checks: Mapping[str, BoardCheck]) -> dict[str, list[str]]:
    """Every check of ``checks`` on the boards of level n with ranks [lo, hi), each
    board's moves computed once by the proven engine: per check, its first
    MAX_DIFFERENCES differences."""
    from impl.engines.registry import get_engine

    engine = get_engine("awari", "impl", table.rules)
    bad: dict[str, list[str]] = {name: [] for name in checks}
    for r in range(lo, hi):
        pits = unrank(r, n)
        moves = engine_moves(engine, pits)
        for name, check in checks.items():
            found = check(table, pits, *moves)
            if found is not None and len(bad[name]) < MAX_DIFFERENCES:
                bad[name].append(found)
        if all(len(lines) >= MAX_DIFFERENCES for lines in bad.values()):
            break
    return bad


def bellman(table: Table, stones: int | None = None) -> list[str]:
    """Every entry of levels 0 … stones equals its Bellman value — the start-of-turn
    ending's, or the best over the engine's moves of the final margin or the stones
    captured less the child's entry — its moves recomputed by the proven engine."""
    return _levels(table, stones, _bellman_board)


def check_distances(table: Table, stones: int | None = None) -> list[str]:
    """The distances make progress, moves recomputed by the proven engine: a board
    whose mover is ahead (entry > 0, distance d) has a move worth the entry that ends
    the game, captures, or reaches a board of distance < d; a board whose mover is
    behind has every move worth the entry reaching a board of distance < d, or
    ending the game or capturing."""
    if table.distances is None:
        return ["no distances"]
    return _levels(table, stones, _distance_board)


def _levels(table: Table, stones: int | None, check: BoardCheck) -> list[str]:
    bad: list[str] = []
    for n in range(table.stones + 1 if stones is None else stones + 1):
        bad += _boards_checked(table, n, 0, level_size(n), {"": check})[""][: MAX_DIFFERENCES - len(bad)]
        if len(bad) >= MAX_DIFFERENCES:
            break
    return bad


# ─── Both on worker processes ──────────────────────────────────────────────────

BOUNDS = "the bounds' Bellman on the proven engine"
CHECKS: dict[str, BoardCheck] = {
    "Bellman on the proven engine": _bellman_board,
    "distances make progress": _distance_board,
    BOUNDS: _bounds_board,
}
PART = 250_000
"""Boards a task checks: a few seconds' work, so that the workers stay even."""


@dataclass(frozen=True)
class Part:
    """One task of ``in_parts``: the checks over the ranks [lo, hi) of level n of the
    table of ``rules`` (a canonical name) and ``stones`` in ``folder``."""

    folder: str
    rules: str
    stones: int
    n: int
    lo: int
    hi: int


@cache
def _opened(folder: str, rules: str, stones: int) -> Table:
    return Table(Path(folder), AR.parse_rules(rules), stones)


def check_part(part: Part) -> dict[str, list[str]]:
    """A task: every check of CHECKS on ``part``'s boards, each board through the proven
    engine once (the distances' check only where the table has them), in a worker
    that opens the table once.  A table a worker finds damaged (changed since the
    command's start) is a difference of every check, naming the file."""
    try:
        table = _opened(part.folder, part.rules, part.stones)
    except TableError as exc:
        return {name: [str(exc)] for name in CHECKS}
    if table.distances is not None:
        return _boards_checked(table, part.n, part.lo, part.hi, CHECKS)
    bellman = {name: check for name, check in CHECKS.items() if check is not _distance_board}
    return {**_boards_checked(table, part.n, part.lo, part.hi, bellman), "distances make progress": ["no distances"]}


def in_parts(table: Table, jobs: int, on_progress: Callable[[int, int], None] | None = None) -> dict[str, list[str]]:
    """``bellman``, ``check_distances`` and, where the table has bounds, their
    equations (BOUNDS) in one pass over every level, as tasks of PART boards on
    ``jobs`` worker processes through the one task runner (impl/tasks.py): per check,
    its first MAX_DIFFERENCES differences in rank order.  ``on_progress(boards
    checked, boards)`` as each task ends."""
    from impl.tasks import processes

    parts = [
        Part(str(table.folder), table.name, table.stones, n, lo, min(lo + PART, level_size(n)))
        for n in range(table.stones + 1)
        for lo in range(0, level_size(n), PART)
    ]
    found: dict[Part, dict[str, list[str]]] = {}
    boards, done = sum(p.hi - p.lo for p in parts), 0
    counts = dict.fromkeys(CHECKS, 0)

    with processes(jobs) as runner:
        for part, outcome in runner.as_done(
            check_part, parts, keep_going=lambda: any(count < MAX_DIFFERENCES for count in counts.values())
        ):
            if isinstance(outcome, Exception):
                raise outcome
            found[part] = outcome
            done += part.hi - part.lo
            for name in CHECKS:
                counts[name] += len(outcome[name])
            if on_progress is not None:
                on_progress(done, boards)
    return {
        name: [line for part in parts if part in found for line in found[part][name]][:MAX_DIFFERENCES]
        for name in CHECKS
        if name != BOUNDS or table.bounds is not None
    }


# ─── The spec's solve ──────────────────────────────────────────────────────────


def _spec_state(pits: Board) -> A.AwariGame:
    """A table board as a spec state: north to move, stores 24 - n (north) and 24
    (south), so that the 48 stones are all there (AwariGame's invariant) and no store
    reaches 25 in the move to come (the table's game has no WinMargin)."""
    n = sum(pits)
    return A.AwariGame(board=tuple(pits), score=(24 - n, 24), to_move=A.PLAYER.north, positions=frozenset())


def spec_moves(rules: AR.AwariRules, pits: Board) -> tuple[Margin | None, list[tuple[int, Board | None, Margin]]]:
    """A board through the spec's referee (spec/awari_rules.py ``referee``): its value
    if over at the start of the turn, else per legal move (stones captured, the board
    after from its mover or None if the move ended the game, the final margin then).
    Margins are what the stores gained, from ``_spec_state``'s stores."""
    g = _spec_state(pits)

    def gains(after: A.AwariGame) -> tuple[int, Margin]:
        mine, theirs = after.score[0] - g.score[0], after.score[1] - g.score[1]
        return mine, mine - theirs

    if AR.game_over(rules, g):
        _, after = AR.referee(rules, g, A.PIT.a)
        return gains(after)[1], []
    found: list[tuple[int, Board | None, Margin]] = []
    for pit in AR.legal_moves(rules, g):
        result, after = AR.referee(rules, g, pit)
        taken, margin = gains(after)
        if result != R.not_done:
            found.append((taken, None, margin))
        else:
            found.append((taken, tuple(after.board[6:]) + tuple(after.board[:6]), 0))
    return None, found


def spec_values(rules: AR.AwariRules, stones: int) -> dict[Board, Margin]:
    """The table's game solved on the spec: for each margin threshold t ≥ 1, the boards
    whose mover forces a final margin ≥ t (``wins``) or ≤ -t (``loses``) by worklist
    retrograde with predecessor counts — not the builder's sweeps."""
    value: dict[Board, Margin] = {}
    for n in range(stones + 1):
        level = boards(n)
        terms: dict[Board, list[Margin]] = {}
        kids: dict[Board, list[Board]] = {}
        parents: dict[Board, list[Board]] = {b: [] for b in level}
        for b in level:
            ended, moves = spec_moves(rules, b)
            terms[b] = [ended] if ended is not None else []
            kids[b] = []
            for taken, after, margin in moves:
                if after is None:
                    terms[b].append(margin)
                elif sum(after) < n:
                    terms[b].append(taken - value[after])
                else:
                    kids[b].append(after)
                    parents[after].append(b)
        best = dict.fromkeys(level, 0)
        for t in range(1, n + 1):
            wins = {b for b in level if any(m >= t for m in terms[b])}
            loses = {b for b in level if not kids[b] and all(m <= -t for m in terms[b])}
            pending = {b: len(kids[b]) for b in level if all(m <= -t for m in terms[b]) and b not in loses}
            work = list(wins | loses)
            while work:
                c = work.pop()
                for p in parents[c]:
                    if p in wins or p in loses:
                        continue
                    if c in loses:
                        wins.add(p)
                        work.append(p)
                    elif p in pending:
                        pending[p] -= 1
                        if pending[p] == 0:
                            loses.add(p)
                            work.append(p)
            for b in wins:
                best[b] = t
            for b in loses:
                best[b] = -t
        value.update(best)
    return value


def check_spec(table: Table, stones: int) -> list[str]:
    """The table equals the spec's solve on every board of ≤ ``stones`` stones."""
    solved = spec_values(table.rules, stones)
    return [f"{b}: table {table.value(b)}, spec {v}" for b, v in solved.items() if table.value(b) != v][
        :MAX_DIFFERENCES
    ]


def history_outcome(rules: AR.AwariRules, pits: Board, north_store: int) -> int:
    """``game_outcome`` from ``pits`` with north to move, north's store ``north_store``
    and south's the rest of the 48, no positions yet."""
    south = 48 - sum(pits) - north_store
    return game_outcome(rules, A.AwariGame(tuple(pits), (north_store, south), A.PLAYER.north, frozenset()))


def game_outcome(rules: AR.AwariRules, game: A.AwariGame) -> int:
    """The game as the referee plays it — the positions set growing, a repetition
    ending it as the rule set says, a store of 25 ending it (WinMargin) — searched
    exhaustively on the spec from ``game``, its history included: 1, 0 or -1 as its
    mover wins, draws or loses under perfect play."""

    def search(g: A.AwariGame) -> int:
        """+1 / 0 / -1: g.to_move wins, draws, loses."""
        me = int(g.to_move)
        if AR.game_over(rules, g):
            _, final = AR.referee(rules, g, A.PIT.a)
            return _sign(final.score[me] - final.score[1 - me])
        best = -1
        for pit in AR.legal_moves(rules, g):
            result, after = AR.referee(rules, g, pit)
            v = _sign(after.score[me] - after.score[1 - me]) if result != R.not_done else -search(after)
            best = max(best, v)
            if best == 1:
                break
        return best

    return search(game)


def _sign(x: int) -> int:
    return (x > 0) - (x < 0)


def outcome_of(value: Margin, mine: int, theirs: int) -> int:
    """1, 0 or -1, the mover wins, draws or loses, from its entry and the stores
    (docs/tablebases.md, "Stores"): the sign of mine - theirs + value."""
    return _sign(mine - theirs + value)


def check_history(table: Table, stones: int) -> list[str]:
    """The referee's own game (``history_outcome``) from every board of 1 … ``stones``
    stones and every split of the stores ends as the entry says (``outcome_of``):
    docs/tablebases.md says under which rule sets this must hold."""
    bad = []
    for n in range(1, stones + 1):
        for pits in boards(n):
            for north in range(0, 49 - n):
                real = history_outcome(table.rules, pits, north)
                said = outcome_of(table.value(pits), north, 48 - n - north)
                if real != said:
                    bad.append(f"{pits} stores {north}/{48 - n - north}: referee {real}, table says {said}")
                    if len(bad) >= MAX_DIFFERENCES:
                        return bad
    return bad


def referee_margin(engine: E.ImplAwari | E.RulesAwari, state: E.AwariState, alpha: int, beta: int) -> Margin:
    """The mover's final margin in the referee's game from ``state`` (the proven
    engine's, its positions set and repetition rule included), fail-soft alpha-beta
    over every line: exact inside (alpha, beta), a bound on the side it fails."""
    me = E.mover(state)
    best = -99
    for pit in engine.legal_moves(state):
        _, after = engine.apply(state, pit)
        if engine.is_over(after) or not E.row_stones(after[0]) + E.row_stones(after[1]):
            value = E.store(after, me) - E.store(after, 1 - me)
        else:
            value = -referee_margin(engine, after, -beta, -alpha)
        if value > best:
            best = value
            alpha = max(alpha, best)
            if alpha >= beta:
                break
    return best


def check_bounds(table: Table, stones: int) -> list[str]:
    """On every board of 1 … ``stones`` stones, north to move from stores 0/0 and no
    positions: lo <= the referee's margin <= hi, each side shown by a null-window
    search (``referee_margin``), so where lo == hi the margin is the bound."""
    from impl.engines.awari import engine_for

    engine = engine_for(table.rules)
    bad = []
    for n in range(1, min(stones, table.stones) + 1):
        for pits in boards(n):
            state = E.table_state(pits)
            pair = table.bounded(pits)
            if pair is None:
                return [f"the {table.name} table in {table.folder} has no bounds"]
            if engine.is_over(state):
                continue
            lo, hi = pair
            if referee_margin(engine, state, lo - 1, lo) < lo or referee_margin(engine, state, hi, hi + 1) > hi:
                real = referee_margin(engine, state, -99, 99)
                bad.append(f"{pits}: the referee's margin {real:+d}, bounds {lo:+d} … {hi:+d}")
                if len(bad) >= MAX_DIFFERENCES:
                    return bad
    return bad
