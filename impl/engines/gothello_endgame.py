"""Gothello endgames solved exactly (issue #39, item 6; docs/tablebases.md, "Gothello
endgames"): for a position with at most ``K`` empty points, its value under perfect
play and every move that keeps it, by negamax alpha-beta over the proven fast engine's
own placement (impl/engines/kernels.py ``place``, the engine's own: GothelloMove_corrected's captures
and GothelloIllegalMoveBlocked's test), with a transposition table and move ordering.

**The value** is the side to move's final *margin*: its stones on the board less the
opponent's when the game ends (two passes in succession: GothelloGameOver), under play
in which each side maximises its own margin.  The spec's result is the sign of the
margin (more stones wins, equal is a draw), a monotone function of it, so margin-best
play is also result-best: the winner under perfect play is the sign's, and the margin
says by how much — what an analysis needs to say how many stones a move gave away.

**The key** of a position is (the mover's stones, the opponent's, whether the last
accepted action was a pass).  That is all the rules read: the engine's state also
carries the colour to move and the whole history, but the scoring is symmetric in
the colours (no komi) and the history matters only through "the last action was a
pass" (GothelloPass / GothelloGameOver).  The game has no cycles: a placement adds a
stone (captures turn stones, never remove them), and a pass is followed by a
placement or the end.

``python -m impl.engines.gothello_endgame --measure`` prints the figures of the docs.
"""

from __future__ import annotations

import argparse
import itertools
import math
import random
import statistics
import sys
import time
from dataclasses import dataclass
from typing import Final

from spec import gothello as G
from spec import result as R

from .gothello import ImplGothello
from .kernels import PASS, GothelloState, code, over, place

K: Final = 13
"""The most empty points solved by default: about a second here (median 0.7 s, the
slowest sample 1.2 s: the docs' table, ``--measure``)."""

BUDGET: Final = 2_000_000
"""Nodes a solve visits by default before it gives up (an answer of None)."""

_FULL: Final = (1 << 25) - 1
_BOUND: Final = 26
"""Above any margin: |margin| ≤ 25 stones."""
_ENGINE: Final = ImplGothello()
_GAIN: Final = 1000
"""The move order: the margin right after the move, times this, plus the history
count (measured best of 1, 100, 1000, 10⁵ on sample positions of 12 empties)."""
_FIRST: Final = 1 << 60
"""The order key of the table's best move: first."""


class OutOfBudget(Exception):
    """A search visited more nodes than its budget."""


@dataclass(frozen=True)
class Solution:
    """A position solved: the mover's final margin under perfect play, every move that
    keeps it (in the engine's ``legal_moves`` order), and the nodes the solve visited."""

    value: int
    best: tuple[G.MOVE, ...]
    nodes: int


@dataclass(frozen=True)
class Adjudicated:
    """An adjudicated game: the winner under perfect play (None: a draw) and the final
    difference of the stones on the board, black's less white's."""

    winner: G.PLAYER | None
    difference: int


def empties(state: GothelloState) -> int:
    """The empty points of a position."""
    return 25 - (state[0] | state[1]).bit_count()


def passed(state: GothelloState) -> int:
    """1 where the last accepted action was a pass (the key's third part)."""
    history = state[3]
    return int(history is not None and history[0] == PASS)


class Solver:
    """Negamax alpha-beta with a transposition table kept across calls (a game's plies
    share most of their subtrees).  ``budget``: nodes per call; ``table_limit``: the
    entries kept before the table is emptied (memory: ~150 bytes an entry)."""

    def __init__(self, budget: int | None = BUDGET, table_limit: int = 1_000_000) -> None:
        self.budget = budget
        self.table_limit = table_limit
        self.table: dict[int, tuple[int, int, int]] = {}
        """key → (lower bound, upper bound, best action code or -1)."""
        self.nodes = 0
        self._stop = 0
        self.history = [0] * 26
        """Per action code, how often it cut a search off, weighted by 2^empties: the
        history heuristic, the second key of the move order after the greedy margin."""

    # ─── the search ──────────────────────────────────────────────────────────

    def _search(self, mine: int, theirs: int, passed: int, alpha: int, beta: int) -> int:
        """The mover's margin if it lies in (alpha, beta); else a bound on the same
        side of the window (fail-soft)."""
        self.nodes += 1
        if self.nodes > self._stop:
            raise OutOfBudget
        key = ((mine << 25 | theirs) << 1) | passed
        entry = self.table.get(key)
        first = -1
        lo, hi = -_BOUND, _BOUND
        if entry is not None:
            lo, hi, first = entry
            if lo >= beta or lo == hi:
                return lo
            if hi <= alpha:
                return hi
            alpha, beta = max(alpha, lo), min(beta, hi)
        a = alpha
        # The children: (ordering key, action, child's mine, theirs, passed).  A pass
        # after a pass ends the game: its margin is known at once and starts ``best``.
        best, best_code = -_BOUND, -1
        if passed:
            best, best_code = mine.bit_count() - theirs.bit_count(), PASS
            if best > a:
                a = best
        children: list[tuple[int, int, int, int, int]] = []
        history = self.history
        if best < beta:
            blank = _FULL ^ (mine | theirs)
            while blank:
                bit = blank & -blank
                blank ^= bit
                i = bit.bit_length() - 1
                placed = place(mine, theirs, i)
                if placed >= 0:
                    after_theirs, after_mine = placed & _FULL, placed >> 25
                    gain = after_mine.bit_count() - after_theirs.bit_count()
                    children.append(
                        (_FIRST if i == first else gain * _GAIN + history[i], i, after_theirs, after_mine, 0)
                    )
            if not passed:
                children.append((_FIRST if first == PASS else -_BOUND * _GAIN + history[PASS], PASS, theirs, mine, 1))
            children.sort(reverse=True)
        for _, action, c_mine, c_theirs, c_passed in children:
            value = -self._search(c_mine, c_theirs, c_passed, -beta, -a)
            if value > best:
                best, best_code = value, action
                if value > a:
                    a = value
                    if a >= beta:
                        history[action] += 1 << (25 - (mine | theirs).bit_count())
                        break
        if best <= alpha:
            hi = min(hi, best)
        elif best >= beta:
            lo = max(lo, best)
        else:
            lo = hi = best
        if len(self.table) >= self.table_limit:
            self.table.clear()
        self.table[key] = (lo, hi, best_code if best > alpha else first)
        return best

    def _start(self) -> None:
        self.nodes = 0
        self._stop = sys.maxsize if self.budget is None else self.budget

    # ─── positions ───────────────────────────────────────────────────────────

    def value(self, state: GothelloState) -> int | None:
        """The mover's margin under perfect play; None if the game is over or the
        budget runs out."""
        if over(state[3]):
            return None
        self._start()
        try:
            return self._search(state[0], state[1], passed(state), -_BOUND, _BOUND)
        except OutOfBudget:
            return None

    def move_value(self, state: GothelloState, move: G.MOVE) -> int | None:
        """The mover's margin after ``move`` (one of the engine's legal moves) and
        perfect play on; None if the budget runs out."""
        self._start()
        try:
            return self._move_value(state, code(move), -_BOUND, _BOUND)
        except OutOfBudget:
            return None

    def _move_value(self, state: GothelloState, action: int, alpha: int, beta: int) -> int:
        mine, theirs, _, _ = state
        if action == PASS:
            if passed(state):
                return mine.bit_count() - theirs.bit_count()
            return -self._search(theirs, mine, 1, -beta, -alpha)
        placed = place(mine, theirs, action)
        assert placed >= 0 and not (mine | theirs) >> action & 1, "not a legal move"
        return -self._search(placed & _FULL, placed >> 25, 0, -beta, -alpha)

    def solve(self, state: GothelloState) -> Solution | None:
        """The value and every move that keeps it (each legal move tested against the
        value with a null window); None if the game is over or the budget runs out."""
        if over(state[3]):
            return None
        self._start()
        try:
            value = self._search(state[0], state[1], passed(state), -_BOUND, _BOUND)
            best = tuple(
                m for m in _ENGINE.legal_moves(state) if self._move_value(state, code(m), value - 1, value) >= value
            )
        except OutOfBudget:
            return None
        return Solution(value, best, self.nodes)


def solve(state: GothelloState, within: int = K, budget: int | None = BUDGET) -> Solution | None:
    """``Solver.solve`` for a position of at most ``within`` empty points (None beyond)."""
    if empties(state) > within:
        return None
    return Solver(budget).solve(state)


def adjudicate(
    game: GothelloState | G.GothelloGame, within: int = K, budget: int | None = BUDGET, solver: Solver | None = None
) -> Adjudicated | None:
    """The result of perfect play from a position of a real game (the engine's state or
    the spec's GothelloGame): the winner and black's final difference; None where the
    solver does not decide it — the game over, more than ``within`` empty points, or
    the budget run out.  For match and tournament adjudication (``--tb``): call it at
    the start of each turn and end the game by its answer when there is one."""
    state = _ENGINE.from_spec(game) if isinstance(game, G.GothelloGame) else game
    if empties(state) > within:
        return None
    value = (solver or Solver(budget)).value(state)
    if value is None:
        return None
    black = value if state[2] == 0 else -value
    winner = G.PLAYER.black if black > 0 else G.PLAYER.white if black < 0 else None
    return Adjudicated(winner, black)


# ─── the check against the spec (python -m impl.engines.gothello_endgame --check-spec) ──


def spec_values(game: G.GothelloGame) -> dict[G.MOVE, int]:
    """A plain minimax over the spec's own rules (``spec.gothello.legal_moves`` and
    ``referee``, no table, no pruning): each legal move's final margin for the mover.
    Where the referee ends the game, it checks that the spec's result is the margin's
    sign (the winner has more stones: ``_count_result``)."""
    values: dict[G.MOVE, int] = {}
    for m in G.legal_moves(game):
        result, after = G.referee(game, m)
        if result == R.not_done:
            values[m] = -max(spec_values(after).values())
            continue
        mover, other = game.to_move, G.opponent(game.to_move)
        margin = G.stones(after.board, mover) - G.stones(after.board, other)
        expected = R.win(mover) if margin > 0 else R.win(other) if margin < 0 else R.draw
        assert result == expected, f"{result!r} for a margin of {margin}"
        values[m] = margin
    return values


def check_spec(most: int, positions: int, seed: int) -> list[str]:
    """For 1 … ``most`` empty points, ``positions`` sample positions each, and each of
    them also right after a pass: the solver's value and best moves against
    ``spec_values``'s.  The differences, in words (none: they agree)."""
    rng = random.Random(seed)
    found = []
    for empty in range(1, most + 1):
        for _ in range(positions):
            state = sample(rng, empty)
            for position in (state, _ENGINE.apply(state, G.pass_)[1]):
                if _ENGINE.is_over(position):
                    continue
                values = spec_values(_ENGINE.to_spec(position))
                value = max(values.values())
                best = tuple(m for m, v in values.items() if v == value)
                solution = Solver(budget=None).solve(position)
                if solution is None or (solution.value, solution.best) != (value, best):
                    found.append(f"{_ENGINE.render(position)}: the spec {value} {best}, the solver {solution}")
    return found


# ─── measurement (python -m impl.engines.gothello_endgame --measure) ───────────


def sample(rng: random.Random, empty: int) -> GothelloState:
    """A position of ``empty`` empty points reached by random placements from the
    start (a pass only where no placement is legal); the game not over."""
    while True:
        state = _ENGINE.initial()
        while empties(state) > empty and not _ENGINE.is_over(state):
            moves = _ENGINE.legal_moves(state)
            placements = [m for m in moves if m is not G.pass_]
            _, state = _ENGINE.apply(state, rng.choice(placements or list(moves)))
        if not _ENGINE.is_over(state) and empties(state) == empty:
            return state


@dataclass(frozen=True)
class Row:
    """The solves of the sample positions of one number of empty points."""

    empty: int
    seconds: tuple[float, ...]
    nodes: tuple[int, ...]

    @property
    def rate(self) -> float:
        return sum(self.nodes) / max(sum(self.seconds), 1e-9)


def measure_row(empty: int, positions: int, seed: int) -> Row:
    """Each sample position solved (value and best moves) by a fresh solver."""
    rng = random.Random(seed * 100 + empty)
    seconds, nodes = [], []
    for _ in range(positions):
        state = sample(rng, empty)
        solver = Solver(budget=None)
        start = time.process_time()
        solution = solver.solve(state)
        seconds.append(time.process_time() - start)
        assert solution is not None
        nodes.append(solution.nodes)
    return Row(empty, tuple(seconds), tuple(nodes))


def fit(rows: list[Row]) -> tuple[float, float]:
    """Least squares of log(median nodes) on the empty points: (log a, log b) with
    nodes ≈ a · bᵉ."""
    xs = [float(r.empty) for r in rows]
    ys = [math.log(statistics.median(r.nodes)) for r in rows]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sum((x - mx) ** 2 for x in xs)
    return my - slope * mx, slope


def _duration(seconds: float) -> str:
    for unit, size in (("years", 365 * 86400.0), ("days", 86400.0), ("h", 3600.0), ("min", 60.0)):
        if seconds >= size:
            return f"{seconds / size:,.1f} {unit}"
    return f"{seconds:.1f} s"


def report(rows: list[Row], cores: int, machines: tuple[int, ...]) -> list[str]:
    """The table of k → seconds and nodes/s, the fitted growth and the projection."""
    lines = [
        "| empties | positions | median s | max s | median nodes | max nodes | nodes/s |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r.empty} | {len(r.nodes)} | {statistics.median(r.seconds):.3f} | {max(r.seconds):.3f}"
            f" | {statistics.median(r.nodes):,.0f} | {max(r.nodes):,} | {r.rate:,.0f} |"
        )
    # The growth per empty point rises with the empty points: the projection takes it
    # from the largest rows only (the last four), where it is steepest.
    fitted = [r for r in rows if statistics.median(r.nodes) >= 100][-4:]
    if len(fitted) < 2:
        return lines
    log_a, log_b = fit(fitted)
    rate = fitted[-1].rate  # the largest searches' rate: a bigger table is slower
    nodes = math.exp(log_a + 25 * log_b)
    one = nodes / rate
    steps = ", ".join(
        f"{statistics.median(b.nodes) / statistics.median(a.nodes):.2f}" for a, b in itertools.pairwise(rows)
    )
    lines += [
        "",
        f"Median nodes, each row over the one before: {steps}",
        f"Growth (least squares over {fitted[0].empty}–{fitted[-1].empty} empties): median nodes ≈ "
        f"{math.exp(log_a):.3g} · {math.exp(log_b):.3f}^empties",
        f"PROJECTION, not a measurement — the empty board (25 empties): ~{nodes:.3g} nodes;"
        f" at {rate:,.0f} nodes/s a core:",
        f"  1 core: {_duration(one)};  one machine of {cores} cores (perfect split): {_duration(one / cores)}",
    ]
    for n in machines:
        lines.append(f"  Dask cluster of {n} machines × {cores} cores (perfect split): {_duration(one / (n * cores))}")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m impl.engines.gothello_endgame", description=__doc__)
    parser.add_argument("--measure", action="store_true", help="solve sample positions and print the table")
    parser.add_argument(
        "--check-spec",
        type=int,
        default=0,
        metavar="K0",
        help="compare with a minimax over the spec on sample positions of 1 … K0 empties",
    )
    parser.add_argument("--empties", type=int, nargs=2, default=(4, K), metavar=("FROM", "TO"))
    parser.add_argument("--positions", type=int, default=9, metavar="N", help="sample positions per row")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cores", type=int, default=2, help="cores a machine (the projection)")
    args = parser.parse_args(argv)
    if args.check_spec:
        if not 1 <= args.check_spec <= 8:
            parser.error("--check-spec K0: 1–8 empties (the spec's minimax has no pruning)")
        found = check_spec(args.check_spec, args.positions, args.seed)
        print("\n".join(found) or f"the spec's minimax, ≤ {args.check_spec} empties: ok")
        return 1 if found else 0
    if not args.measure:
        parser.error("nothing to do: --measure or --check-spec K0")
    low, high = args.empties
    if not 1 <= low <= high <= 25 or args.positions < 1 or args.cores < 1:
        parser.error("--empties FROM TO within 1–25, FROM ≤ TO; --positions and --cores at least 1")
    rows = []
    for empty in range(low, high + 1):
        rows.append(measure_row(empty, args.positions, args.seed))
        print(f"  {empty} empties done", file=sys.stderr, flush=True)
    print("\n".join(report(rows, args.cores, (10, 100, 1000))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
