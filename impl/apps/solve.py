"""``referee tablebase solve gothello``: the 5×5 game solved from its start (issue #54;
docs/tablebases.md, "Gothello solved").

The first ``--split`` plies are searched here, in Python — the same fail-soft
negamax as the compiled solver (impl/engines/gothello_solve.c), children in the
greedy margin's order, then the square's and each set of children that are one
another's images under the board's symmetries searched once — and every position
below them (a *leaf*) by the compiled solver, whose table the leaves share.  Each
leaf's answer, for its position and window, goes to the checkpoint (written
atomically) as it comes: an interrupted solve, run again with the same checkpoint,
replays the plies above from it and goes on where it stopped.  ``--seed`` shuffles
the order of the plies above: with a fresh checkpoint, a second solve that shares
nothing with the first (not its table, not its order) — the independent pass.

The question is the first player's final margin's sign (``--exact``: the margin, by
MTD(f), null windows converging): black wins, loses or draws under perfect play.

With ``--jobs J`` (``--scheduler``: on a Dask cluster) J-1 worker processes answer
leaves ahead through the one task runner (impl/apps/leaves.py), each with its own
table: at a position whose children are all leaves the younger brothers wait — the
first child alone, then, the window null (so every later child's window the same),
each child here while the workers answer the next ones, taken as the sequential
search would take them and cut where it would cut.  The leaves asked are the
sequential search's, given the same answers, so the checkpoint replays and resumes
alike; a leaf answered past a cut is kept too.  (On one machine it does not pay:
docs/tablebases.md, "Workers".)"""

from __future__ import annotations

import ctypes
import os
import platform
import random
import signal
import sys
import time
from pathlib import Path
from typing import Final

from impl import tasks
from impl.apps import leaves
from impl.apps.solve_checkpoint import VERSION as VERSION
from impl.apps.solve_checkpoint import Checkpoint as Checkpoint
from impl.apps.solve_checkpoint import Damaged as Damaged
from impl.apps.solve_top import certify_top
from impl.atomic import why
from impl.cli import UsageError
from impl.engines import gothello_solve as S
from impl.engines.gothello_certificate import Position, Uncertified

START: Final[Position] = (0, 0, 0)
NAMES: Final = S.NAMES
"""The protocol's square names by action code, and pass."""


def margin(position: Position) -> int:
    return position[0].bit_count() - position[1].bit_count()


class Split:
    """The plies above the leaves (module docstring)."""

    def __init__(
        self,
        solver: S.CSolver,
        checkpoint: Checkpoint,
        depth: int,
        seed: int,
        say: bool,
        deepen: int = 0,
        runner: tasks.Runner | None = None,
        bits: int = S.BITS,
    ) -> None:
        self.solver, self.checkpoint, self.depth = solver, checkpoint, depth
        self.flight = None if runner is None else leaves.Flight(runner, bits)
        """The leaves on the runner (None: answered here, by ``solver``)."""
        self.deepen = deepen
        """Plies searched here below a leaf the checkpoint does not hold: its answer is
        then made of smaller leaves, each kept as it comes (an interrupted solve loses
        one of those, not the whole leaf), and is kept too, under the leaf's own key."""
        self.rng = random.Random(seed) if seed else None
        self.say = say
        self.computed = 0
        self.root_move: int | None = None
        """The action of the best child at the top ply in the last search of it."""

    def children(self, position: Position, shuffled: bool = True) -> list[tuple[int, Position]]:
        """(action, child) in the solver's order, or ``--seed``'s shuffle of it; one of
        each set of symmetric images."""
        mine, theirs, passed = position
        found: list[tuple[int, int, Position]] = []
        seen: set[tuple[int, int]] = set()
        for square in range(25):
            if (mine | theirs) >> square & 1:
                continue
            after = S.after_placing(self.solver.lib, mine, theirs, square)
            if after is None:
                continue
            a_mine, a_theirs = after
            least = min((S.image(self.solver.lib, t, a_theirs), S.image(self.solver.lib, t, a_mine)) for t in range(8))
            if least in seen:
                continue  # a symmetric image of a child already listed: the same value
            seen.add(least)
            found.append((a_mine.bit_count() - a_theirs.bit_count(), square, (a_theirs, a_mine, 0)))
        found.sort(key=lambda c: (-c[0], c[1]))
        ordered = [(square, child) for _, square, child in found]
        if not passed:
            ordered.append((S.PASS, (theirs, mine, 1)))
        if self.rng is not None and shuffled:
            self.rng.shuffle(ordered)
        return ordered

    def leaf(self, position: Position, alpha: int, beta: int, deepen: int = 0) -> int:
        """The answer for ``position`` and its window: the checkpoint's, or made by the
        search ``deepen`` plies further here, or the compiled solver's; kept as it comes."""
        key = Checkpoint.key(position, alpha, beta)
        known = self.checkpoint.leaves.get(key)
        if known is not None:
            return known
        if deepen > 0:
            # Fail-soft negamax one ply down: a bound as valid as the compiled solver's.
            made = self.value(position, alpha, beta, 1, deepen - 1)
            self.checkpoint.leaves[key] = made
            self.checkpoint.save()
            if self.say:
                print(f"leaf {len(self.checkpoint.leaves)}: ({alpha}, {beta}) → {made:+d} from the leaves below it",
                      file=sys.stderr, flush=True)  # fmt: skip
            return made
        value, nodes, seconds = self.answered(position, alpha, beta, key)
        self.record(key, value, nodes, seconds)
        self.harvest()  # after: this leaf's own answer is there too, and is not kept twice
        self.checkpoint.save()
        return value

    def value(
        self, position: Position, alpha: int, beta: int, depth: int | None = None, deepen: int | None = None
    ) -> int:
        """Fail-soft negamax: the mover's margin if in (alpha, beta), else a bound on that side."""
        top = depth is None
        depth = self.depth if depth is None else depth
        deepen = self.deepen if deepen is None else deepen
        mine, theirs, passed = position
        if (mine | theirs) == S.FULL:
            return margin(position)
        if depth == 0:
            return self.leaf(position, alpha, beta, deepen)
        best = margin(position) if passed else -26
        if best >= beta:
            return best
        # Below a leaf (``--deepen``) in the solver's order: the shuffle's stream is then
        # drawn by the plies above alone, which a resumed solve replays as they were run
        # (a deepened leaf read from the checkpoint is not searched again, and would
        # otherwise have drawn from the stream the first time and not the second).
        kids = self.children(position, shuffled=deepen == self.deepen)
        brothers = self.flight is not None and depth == 1 and deepen == 0  # its children are leaves
        for i, (action, child) in enumerate(kids):
            if brothers and i > 0 and beta - max(alpha, best) == 1:
                self.ahead([c for _, c in kids[i + 1 :]], -beta, 1 - beta)  # the younger brothers, null window
            value = -self.value(child, -beta, -max(alpha, best), depth - 1, deepen)
            if value > best:
                best = value
                if top:
                    self.root_move = action
                if best >= beta:
                    break
        if brothers:  # past a cut, or the window never null: none of these is waited on
            self.drop([child for _, child in kids], -beta, 1 - beta)
        return best

    def ahead(self, children: list[Position], alpha: int, beta: int) -> None:
        """Keep the runner's capacity of ``children``'s leaves in flight, in order: those
        not answered and not games over."""
        assert self.flight is not None
        wanted = [
            (key, child)
            for child in children
            if (child[0] | child[1]) != S.FULL
            and (key := Checkpoint.key(child, alpha, beta)) not in self.checkpoint.leaves
        ]
        for key, child in wanted[: self.flight.runner.capacity]:
            self.flight.send(key, child, alpha, beta)

    def drop(self, children: list[Position], alpha: int, beta: int) -> None:
        """The leaves of ``children`` in this window that no one will wait on (past a cut)."""
        if self.flight is not None:
            self.flight.drop([Checkpoint.key(child, alpha, beta) for child in children])

    def harvest(self) -> None:
        """Keep the answers that came for leaves no one waits on any more (past a cut)."""
        for key, (value, nodes, seconds) in [] if self.flight is None else self.flight.strays():
            if key not in self.checkpoint.leaves:
                self.record(key, value, nodes, seconds)

    def record(self, key: str, value: int, nodes: int, seconds: float) -> None:
        self.checkpoint.leaves[key] = value
        self.checkpoint.nodes += nodes
        self.checkpoint.seconds += seconds
        self.computed += 1
        if self.say:
            alpha, beta = key.split(":")[3:]
            print(
                f"leaf {len(self.checkpoint.leaves)}: ({alpha}, {beta}) → {value:+d}  {nodes:,} nodes, {seconds:.1f} s"
                f"  (total {self.checkpoint.nodes:,} nodes, {self.checkpoint.seconds / 60:.1f} CPU-min)",
                file=sys.stderr,
                flush=True,
            )

    def answered(self, position: Position, alpha: int, beta: int, key: str) -> leaves.Answer:
        """The leaf's answer: by a worker where it is in flight (waiting for it), else
        here, by this process's solver and table."""
        if self.flight is not None and key in self.flight.pending:
            return self.flight.take(key, position, alpha, beta)
        return self.solver.measured(position, alpha, beta)


def mtdf(split: Split, root: Position, guess: int) -> int:
    """The exact margin of ``root`` by null windows (MTD(f)), from ``guess``."""
    lower, upper, g = -26, 26, guess
    while lower < upper:
        beta = g + 1 if g == lower else g
        g = split.value(root, beta - 1, beta)
        if g < beta:
            upper = g
        else:
            lower = g
    return g


def best_action(solver: S.CSolver, position: Position) -> int | None:
    """The best action the table holds for ``position`` (in its own frame); None if it
    holds none."""
    lo, hi, best = ctypes.c_int(), ctypes.c_int(), ctypes.c_int()
    mine, theirs, passed = position
    if not solver.lib.gs_entry(mine, theirs, passed, ctypes.byref(lo), ctypes.byref(hi), ctypes.byref(best)):
        return None
    return best.value if best.value >= 0 else None


def line(solver: S.CSolver, position: Position, plies: int = 30) -> list[str]:
    """The table's best line from ``position``: each ply's best action as the table
    holds it, while it holds one."""
    lib, moves = solver.lib, []
    for _ in range(plies):
        best = best_action(solver, position)
        if best is None:
            break
        moves.append(NAMES[best])
        mine, theirs, passed = position
        if best == S.PASS:
            if passed:
                break
            position = (theirs, mine, 1)
        else:
            after = S.after_placing(lib, mine, theirs, best)
            assert after is not None
            position = (after[1], after[0], 0)
    return moves


def winning_first_move(solver: S.CSolver, checkpoint: Checkpoint, depth: int, seed: int, root: Position) -> int | None:
    """The first move by which the solve showed the mover wins: the sign's search
    replayed by a fresh Split (the same seed, so the same order and windows: every leaf
    it asks is in the checkpoint); None unless the mover wins."""
    split = Split(solver, checkpoint, depth, seed, say=False)
    return split.root_move if split.value(root, -1, 1) > 0 else None


def verdict(value: int) -> str:
    return "black (the first player) wins" if value > 0 else "white wins" if value < 0 else "a draw"


def solve(
    checkpoint_path: Path,
    depth: int,
    bits: int,
    exact: bool,
    seed: int,
    say: bool = True,
    root: Position = START,
    deepen: int = 0,
    jobs: int = 1,
    scheduler: str | None = None,
    at_least: int | None = None,
) -> int:
    """Run (or resume) the solve of ``root`` (the start); print the result; its value
    (the sign, or with ``exact`` the margin), for the first player to move.  The
    leaves are answered here, and ahead by ``jobs`` − 1 worker processes or by the
    Dask cluster at ``scheduler`` (module docstring).  With ``at_least`` N, one null
    window only, (N − 1, N): the value is the fail-soft answer, ≥ N (a lower bound of
    the margin) where the margin reaches N, else < N (an upper bound)."""
    lib = S.load()
    if lib is None:
        raise UsageError("referee tablebase solve: no C compiler here to build the solver")
    try:
        checkpoint = Checkpoint.load(checkpoint_path)
    except (Damaged, OSError) as exc:
        raise UsageError(f"referee tablebase solve: {why(exc) if isinstance(exc, OSError) else exc}") from None
    solver = S.CSolver(lib, bits)
    wall = time.perf_counter()
    with leaves.runner(jobs - 1, scheduler) as runner:
        if runner is not None:
            leaves.warm(runner, bits)
        split = Split(solver, checkpoint, depth, seed, say, deepen, runner, bits)
        if say:
            where = "the start" if root == START else "a position"
            many = 0 if runner is None else runner.capacity
            by = "here" if not many else f"here and ahead by {many} worker{'s' * (many > 1)}, a table each"
            print(f"solving 5×5 Gothello from {where}: {depth} plies split, a table of 2^{bits + 1} entries, "
                  f"the leaves {by}", file=sys.stderr, flush=True)  # fmt: skip
        if checkpoint.leaves and say:
            print(f"resuming: {len(checkpoint.leaves)} leaves known", file=sys.stderr, flush=True)
        how: dict[str, object] = {"depth": depth, "seed": seed, "table_bits": bits}
        if at_least is not None:
            return tested(split, checkpoint, root, at_least, wall, how)
        sign = split.value(root, -1, 1)
        value = mtdf(split, root, sign) if exact else (1 if sign > 0 else -1 if sign < 0 else 0)
    split.harvest()  # leaves answered past a cut while the last ones ran
    said = f"5×5 Gothello from the start: {verdict(sign)}" + (f", by {abs(value)} stones" if exact else "")
    settled(split, checkpoint, wall, {"value": value, "exact": exact, **how}, said)
    if sign > 0:  # the root's loop replayed: every leaf it asks is in the checkpoint now
        first = winning_first_move(solver, checkpoint, depth, seed, root)
        print(f"a winning first move: {'(none)' if first is None else NAMES[first]}")
        if first is not None and depth == 3 and root == START:
            try:
                pairs = certify_top(checkpoint, first)
            except Uncertified as exc:
                print(f"the top three plies NOT certified: {exc}")
            else:
                print(
                    f"the top three plies certified on the proven engine: each of the {len(pairs)} replies to "
                    f"{NAMES[first]} has an answer the leaves show the opponent loses "
                    + "("
                    + ", ".join(f"{r} {a}" for r, a in pairs)
                    + ")"
                )
    print("the table's line from the start: " + " ".join(line(solver, root)))
    return value


def tested(split: Split, checkpoint: Checkpoint, root: Position, n: int, wall: float, how: dict[str, object]) -> int:
    """``solve``'s one null window (N − 1, N) at ``root``: saved and printed as a bound."""
    value = split.value(root, n - 1, n)
    split.harvest()
    bound = f"≥ {value:+d}" if value >= n else f"≤ {value:+d}"
    holds = "reaches" if value >= n else "does not reach"
    said = f"5×5 Gothello from the start: black's margin {holds} {n:+d} (it is {bound})"
    settled(split, checkpoint, wall, {"at_least": n, "bound": bound, "value": value, "exact": False, **how}, said)
    return value


def settled(split: Split, checkpoint: Checkpoint, wall: float, result: dict[str, object], said: str) -> None:
    """A solve's end: ``result`` saved with the machine it ran on; ``said``, then the
    leaves, nodes and time it took."""
    machine = f"{platform.machine()}, {os.cpu_count()} CPUs, {platform.system()}"
    checkpoint.result = {**result, "machine": machine, "python": platform.python_version()}
    checkpoint.save()
    print(said)
    print(f"leaves: {len(checkpoint.leaves):,} ({split.computed:,} computed now, the rest from the checkpoint)")
    print(
        f"nodes: {checkpoint.nodes:,}; CPU: {checkpoint.seconds:,.0f} s; wall now: {time.perf_counter() - wall:,.0f} s"
    )


def interruptible() -> None:
    """SIGTERM ends the solve as Ctrl-C does (the checkpoint holds every leaf answered)."""
    signal.signal(signal.SIGTERM, signal.default_int_handler)
