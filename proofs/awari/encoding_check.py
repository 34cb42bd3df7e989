"""The z3 encoding of the corrected AwariRef (proofs/awari/encoding.py) ≡ spec/awari.py,
exhaustively over a stated scope and on targeted witnesses: on every case, exactly the
disjunct the spec reports holds in the encoding, and the encoding's whole after-state
(board, scores, side to move, which of θ and θ' are in positions') and result are the
spec's.

Scope (``--stones K``): every board with at most K stones, both sides to move, all 12
actions, positions ∅, {θ} and {P'} (P' the position the action's sowing leads to), and
every score split of the other 48 − k stones whose north score is 0, 48 − k or within
[22 − k, 26] — the encoding compares scores only with 25 and with each other, so the
splits around those thresholds stand for the rest (proofs/README.md §1.3 argues it for
the spec).  Then the targeted witnesses of ``witnesses()``: capture chains of every
length 1–5 ending at each pit, a chain broken by a pit that is not vulnerable, laps of
11, 12, 22 and 33 stones, a grand slam and feeding by a lap.

Each case is evaluated by z3 on the encoding built once per side (a model of the
before-state's values), so the check is about the very terms the theorems use.

Run: ``python -m proofs.awari.encoding_check --stones K`` (exit 1 on any disagreement).
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
from collections.abc import Iterator
from typing import Any

import z3

from proofs.awari import encoding as E
from proofs.awari.encoding import Pre
from proofs.awari.exhaustive import boards, successor
from proofs.verdict import verdict
from spec import awari as A

RESULTS = {
    A.not_done: E.NOT_DONE,
    A.illegal_move: E.ILLEGAL,
    A.win(A.PLAYER.north): E.WIN_NORTH,
    A.win(A.PLAYER.south): E.WIN_SOUTH,
    A.draw: E.DRAW,
}

Case = tuple[A.AwariBoard, A.PIT, bool, bool]
"""A before-position, an action, θ ∈ positions, P' ∈ positions."""


class Evaluator:
    """The encoding for one side, built once; ``check`` evaluates it on a case."""

    def __init__(self, me: int) -> None:
        self.pre = Pre.fresh(me)
        self.disjuncts = E.disjuncts(self.pre)
        self.solver = z3.Solver()

    def check(self, case: Case) -> str | None:
        """None when the encoding agrees with the spec on ``case``, else the difference."""
        s, move, rep, rep_next = case
        g0 = A.game_of(s, frozenset())
        nxt = successor(g0, move)
        rep_next = rep_next and nxt is not None
        positions = ({s} if rep else set()) | ({nxt} if rep_next and nxt is not None else set())
        g = A.game_of(s, frozenset(positions))
        outcomes = A.AwariRef_corrected(g, move)
        if len(outcomes) != 1:
            return f"the spec gives {len(outcomes)} outcomes"
        (outcome,) = outcomes
        after = outcome.after.state()
        p = self.pre
        values = [x == v for x, v in zip(p.board, s.board, strict=True)]
        values += [p.score[0] == s.score[0], p.score[1] == s.score[1], p.move == int(move)]
        values += [p.rep == rep, p.rep_next == rep_next]
        self.solver.push()
        try:
            self.solver.add(*values)
            if self.solver.check() != z3.sat:
                return "the case is not a model of the encoding's before-state"
            m = self.solver.model()
            holding = [n for n, d in self.disjuncts.items() if z3.is_true(m.eval(d.guard, model_completion=True))]
            if holding != [outcome.schema]:
                return f"the encoding's disjuncts {holding}, the spec's {outcome.schema}"
            a = self.disjuncts[outcome.schema].after

            def num(x: Any) -> int:
                return int(m.eval(x, model_completion=True).as_long())

            def true(x: Any) -> bool:
                return bool(z3.is_true(m.eval(x, model_completion=True)))

            mine = (
                tuple(num(x) for x in a.board),
                (num(a.score[0]), num(a.score[1])),
                a.to_move,
                num(a.result),
                true(z3.Or(a.add, p.rep)),
                nxt is not None and true(z3.Or(a.add_next, p.rep_next)),
            )
            theirs = (
                after.board,
                after.score,
                int(after.to_move),
                RESULTS[outcome.result],
                s in after.positions,
                nxt in after.positions,
            )
            if mine != theirs:
                return f"{outcome.schema}: the encoding's after-state {mine}, the spec's {theirs}"
            if not after.positions <= g.positions | {s} | ({nxt} if nxt else set()):
                return f"positions' {after.positions} outside positions ∪ {{θ, θ'}}"
            return None
        finally:
            self.solver.pop()


def splits(k: int) -> list[A.SCORE]:
    total = 48 - k
    norths = {0, total, *range(max(0, 22 - k), min(26, total) + 1)}
    return [(n, total - n) for n in sorted(norths)]


def scope_cases(board: A.BOARD) -> Iterator[Case]:
    for score in splits(sum(board)):
        for to_move in A.PLAYER:
            s = A.AwariBoard(board, score, to_move)
            for move in A.PIT:
                for rep, rep_next in ((False, False), (True, False), (False, True)):
                    yield s, move, rep, rep_next


def board_of(pits: dict[int, int]) -> A.BOARD:
    return tuple(pits.get(p, 0) for p in range(12))


def witnesses() -> Iterator[tuple[str, Case]]:
    """Targeted cases, south to move (pits 6–11 are south's A–F, 0–5 north's a–f)."""
    south = A.PLAYER.south

    def case(name: str, pits: dict[int, int], move: int, score: A.SCORE | None = None) -> tuple[str, Case]:
        board = board_of(pits)
        left = 48 - sum(board)
        return name, (A.AwariBoard(board, score or (left // 2, left - left // 2), south), A.PIT(move), False, False)

    # Capture chains: F (pit 11) with n stones ends at north pit n − 1; the chain's pits
    # hold 1 or 2 and become 2 or 3; pit a holds 4 (5 after) unless in the chain.
    for length in range(1, 6):
        for end in range(length - 1, 6):
            chain = {p: 1 + (p % 2) for p in range(end - length + 1, end + 1)}
            # South's pits A–C hold 30 stones, so that no capture wins the game outright.
            pits = {6: 10, 7: 10, 8: 10, 11: end + 1, 0: 4, 5: 1, **chain}
            yield case(f"chain of {length} ending at pit {end}", pits, 11)
    # A chain broken by a pit that is not vulnerable (4 stones) in the middle.
    yield case("chain broken by a pit of 4", {11: 5, 0: 1, 1: 1, 2: 3, 3: 1, 4: 1}, 11)
    yield case("last pit not vulnerable", {11: 3, 0: 1, 1: 1, 2: 3}, 11)
    # Laps: 11 stones reach every other pit once, 12 skip the origin and end one further,
    # 22 go round twice, 33 three times.
    for n in (11, 12, 22, 33):
        for move in (6, 11):
            yield case(f"lap of {n} from pit {move}", {move: n, 0: 1, 3: 2}, move)
            yield case(f"lap of {n} from pit {move}, opponent starving", {move: n, 7 if move != 7 else 8: 1}, move)
    # A grand slam: every north stone captured.
    yield case("grand slam", {11: 3, 0: 1, 1: 1, 2: 2, 6: 1}, 11)
    # Feeding a starving opponent by a lap whose capture takes what it fed.
    yield case("feeding by a lap of 17", {6: 17, 11: 1}, 6, (10, 20))


_EVALUATORS: dict[A.PLAYER, Evaluator] = {}


def _check_board(board: A.BOARD) -> tuple[int, list[str]]:
    """check_board with one set of evaluators per worker process."""
    if not _EVALUATORS:
        _EVALUATORS.update({p: Evaluator(int(p)) for p in A.PLAYER})
    problems, n = [], 0
    for c in scope_cases(board):
        n += 1
        if (d := _EVALUATORS[c[0].to_move].check(c)) is not None:
            problems.append(f"{c[0]} move {c[1].name} rep={c[2]} rep_next={c[3]}: {d}")
    return n, problems


def scope_problems(stones: int, workers: int = 2) -> tuple[int, list[str]]:
    """The cases of boards with at most ``stones`` stones, and the differences found."""
    work = [b for k in range(stones + 1) for b in boards(k)]
    problems: list[str] = []
    cases = 0
    if workers <= 1:
        results = map(_check_board, work)
        for n, found in results:
            cases += n
            problems += found
        return cases, problems
    with multiprocessing.Pool(workers) as pool:
        for n, found in pool.imap_unordered(_check_board, work, chunksize=4):
            cases += n
            problems += found
    return cases, problems


def invariant_cases() -> Iterator[tuple[A.BOARD, A.SCORE]]:
    """Boards and scores at the edges of AwariBoard's predicate: totals 46–50 (only 48 is
    a state), a pit or a score of −1 with the total still 48, and the opening board."""
    for total in range(46, 51):
        for north in (0, total // 2, total - 4):
            left = total - north - 4
            yield (4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0), (north, left)
    for p in range(12):
        board = tuple(-1 if q == p else (49 if q == (p + 1) % 12 else 0) for q in range(12))
        yield board, (0, 0)
    yield (0,) * 12, (-1, 49)
    yield (0,) * 12, (49, -1)
    yield (4,) * 12, (0, 0)


def invariant_problems() -> list[str]:
    """The encoding's ``Pre.wellformed`` ≡ the spec's ``AwariBoard_invariant`` (Σ board
    + Σ score = 48, naturals) on ``invariant_cases()``, both sides to move: a weakened or
    strengthened predicate on either side is a difference."""
    found = []
    for me in A.PLAYER:
        p = Pre.fresh(int(me))
        for board, score in invariant_cases():
            s = A.AwariBoard(board, score, me)
            solver = z3.Solver()
            values = [x == v for x, v in zip(p.board, board, strict=True)]
            solver.add(*values, p.score[0] == score[0], p.score[1] == score[1], p.move == 0)
            mine = solver.check(p.wellformed()) == z3.sat
            if mine != A.AwariBoard_invariant(s):
                found.append(f"AwariBoard on {s}: the encoding says {mine}, the spec {not mine}")
    return found


def witness_problems() -> list[str]:
    """The differences on ``witnesses()``."""
    ev = {p: Evaluator(int(p)) for p in A.PLAYER}
    return [f"witness {name}: {d}" for name, c in witnesses() if (d := ev[c[0].to_move].check(c)) is not None]


def problems(stones: int = 0, workers: int = 1) -> list[str]:
    """Every difference at ``--stones stones`` and on the witnesses: what
    ``proofs.awari.theorems`` runs before its theorems."""
    return invariant_problems() + scope_problems(stones, workers)[1] + witness_problems()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--stones", type=int, default=1, help="K: at most this many stones on the board")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    start = time.perf_counter()
    cases, found = scope_problems(args.stones, args.workers)
    print(f"encoding ≡ spec, AwariRef: {cases} cases (boards of ≤ {args.stones} stones) ", end="")
    print(f"in {time.perf_counter() - start:.1f} s")
    found += invariant_problems() + witness_problems()
    n_invariant, n_witnesses = 2 * len(list(invariant_cases())), len(list(witnesses()))
    print(f"  {n_invariant} AwariBoard predicate cases, {n_witnesses} targeted witnesses; ", end="")
    print(f"total {time.perf_counter() - start:.1f} s")
    return verdict(found[:20], "DIFFERENCE:", f"{len(found)} difference(s)" if found else "")


if __name__ == "__main__":
    sys.exit(main())
