"""Well-foundedness and invariants of the corrected AwariRef by z3, over every
AwariBoard (all boards and score splits with 48 stones), both sides to move, every
action and every set of positions (proofs/awari/encoding.py has the encoding):

  (a) disjoint      no two disjuncts hold together (nor two NormalMove ⨟ Status cases)
  (b) total         some disjunct holds
  (c) deterministic not a theorem here: the encoding assigns each after-state component
                    one term, so it cannot express two after-states; the spec's own
                    functions are checked for it by proofs/awari/exhaustive.py
  (d) satisfiable   each disjunct and each NormalMove ⨟ Status case holds somewhere
  (i) 48 stones     every after-state is an AwariBoard: naturals, Σ board + Σ score = 48
  (ii) illegal      an illegal action changes nothing, positions included
  (iii) alternate   after a move that does not end the game the opponent is to move

Witnesses of (d) are replayed on spec/awari.py.  The literal schemas are covered by
the exhaustive run (their free after-states do not fit this functional encoding).

Run: ``python -m proofs.awari.theorems`` (exit 1 on any unexpected result).
"""

from __future__ import annotations

import itertools
import multiprocessing
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import z3

from proofs.awari import encoding as E
from proofs.awari import encoding_check
from proofs.awari.encoding import Pre
from proofs.awari.exhaustive import successor
from proofs.verdict import verdict
from spec import awari as A

MAIN = ("WinMargin", "NoMove", "CannotFeed", "IllegalMove", "GrandSlam", "NormalMove")


def solve(*constraints: Any) -> Any:
    s = z3.Solver()
    s.set("timeout", 600_000)
    s.add(*constraints)
    verdict = s.check()
    if verdict == z3.unknown:
        raise RuntimeError(f"z3 returned unknown: {s.reason_unknown()}")
    return s.model() if verdict == z3.sat else None


def game_of(model: Any, pre: Pre) -> tuple[A.AwariGame, A.PIT]:
    """The spec's state and action for a model (positions from rep and rep_next)."""

    def num(x: Any) -> int:
        return int(model.eval(x, model_completion=True).as_long())

    board = tuple(num(x) for x in pre.board)
    s = A.AwariBoard(board, (num(pre.score[0]), num(pre.score[1])), A.PLAYER(pre.me))
    move = A.PIT(num(pre.move))
    positions = set()
    if z3.is_true(model.eval(pre.rep, model_completion=True)):
        positions.add(s)
    nxt = successor(A.game_of(s, frozenset()), move)
    if nxt is not None and z3.is_true(model.eval(pre.rep_next, model_completion=True)):
        positions.add(nxt)
    return A.game_of(s, frozenset(positions)), move


def after_differs(model: Any, pre: Pre, after: E.After, g: A.AwariGame, outcome: A.Outcome) -> str | None:
    """The replay of a witness compares the whole after-state: the encoding's board,
    scores, side to move, result and positions' (under the model) against the spec's."""

    def num(x: Any) -> int:
        return int(model.eval(x, model_completion=True).as_long())

    def true(x: Any) -> bool:
        return bool(z3.is_true(model.eval(x, model_completion=True)))

    spec = outcome.after.state()
    theta = A.θAwariBoard(g)
    mine = (
        tuple(num(x) for x in after.board),
        (num(after.score[0]), num(after.score[1])),
        after.to_move,
        E.RESULT_NAMES[num(after.result)],
        true(z3.Or(after.add, pre.rep)),
    )
    theirs = (spec.board, spec.score, int(spec.to_move), str(outcome.result), theta in spec.positions)
    return None if mine == theirs else f"the encoding's after-state {mine}, the spec's {theirs}"


def main_disjuncts(pre: Pre) -> dict[str, Any]:
    ds = E.disjuncts(pre)
    guards = {n: d.guard for n, d in ds.items() if not n.startswith("NormalMove")}
    guards["NormalMove"] = z3.Or([d.guard for n, d in ds.items() if n.startswith("NormalMove")])
    return guards


@dataclass
class Side:
    """The encoding for one side to move, and what its theorems found."""

    me: int
    pre: Pre
    ok: Any
    ds: dict[str, E.Disjunct]
    guards: dict[str, Any]
    lines: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    @staticmethod
    def of(me: int) -> Side:
        pre = Pre.fresh(me)
        return Side(me, pre, pre.wellformed(), E.disjuncts(pre), main_disjuncts(pre))

    def report(self, theorem: str, what: str, model: Any) -> None:
        g, move = game_of(model, self.pre)
        spec = [o.schema for o in A.AwariRef_corrected(g, move)]
        self.problems.append(f"{theorem} {what}: {g} move {move.name} → spec {spec}")


def disjuncts_are_disjoint(c: Side) -> None:
    """(a) No two disjuncts hold together, nor two of the NormalMove ⨟ Status cases."""
    pairs = [(n1, n2, c.guards[n1], c.guards[n2]) for n1, n2 in itertools.combinations(MAIN, 2)]
    cases = [n for n in c.ds if n.startswith("NormalMove")]
    pairs += [(n1, n2, c.ds[n1].guard, c.ds[n2].guard) for n1, n2 in itertools.combinations(cases, 2)]
    for n1, n2, g1, g2 in pairs:
        if (m := solve(c.ok, g1, g2)) is not None:
            c.report("(a)", f"{n1} ∧ {n2}", m)


def some_disjunct_holds(c: Side) -> None:
    """(b) For every state and action some disjunct holds."""
    if (m := solve(c.ok, *[z3.Not(g) for g in c.guards.values()])) is not None:
        c.report("(b)", "no disjunct holds", m)


def each_disjunct_is_satisfiable(c: Side) -> None:
    """(d) Each disjunct (and NormalMove ⨟ Status case) holds somewhere; its witness,
    replayed on the spec, is reported by the spec as that disjunct."""
    for name, d in c.ds.items():
        m = solve(c.ok, d.guard)
        if m is None:
            c.problems.append(f"(d) {name} never holds")
            continue
        g, move = game_of(m, c.pre)
        outcomes = A.AwariRef_corrected(g, move)
        spec = [o.schema for o in outcomes]
        c.lines.append(f"(d) {name}: e.g. {g.board} {g.score} {g.to_move.name}, move {move.name}")
        if spec != [name]:
            c.problems.append(f"(d) z3 says {name} on {g} move {move.name}, the spec says {spec}")
        elif (diff := after_differs(m, c.pre, d.after, g, outcomes[0])) is not None:
            c.problems.append(f"(d) {name} on {g} move {move.name}: {diff}")


def every_after_state_is_an_awari_board(c: Side) -> None:
    """(i) Every after-state has natural pits and scores, and Σ board + Σ score = 48."""
    for name, d in c.ds.items():
        a = d.after
        board_ok = z3.And(*[x >= 0 for x in a.board], a.score[0] >= 0, a.score[1] >= 0)
        sums = z3.Sum(a.board) + a.score[0] + a.score[1] == 48
        if (m := solve(c.ok, d.guard, z3.Not(z3.And(board_ok, sums)))) is not None:
            c.report("(i)", f"{name} loses or makes stones", m)


def illegal_changes_nothing(c: Side) -> None:
    """(ii) An illegal action leaves board, score, side to move and positions as they were."""
    for name, d in c.ds.items():
        a = d.after
        same = z3.And(
            *[x == y for x, y in zip(a.board, c.pre.board, strict=True)],
            a.score[0] == c.pre.score[0],
            a.score[1] == c.pre.score[1],
            z3.BoolVal(a.to_move == c.me),
            z3.Not(a.add),
            z3.Not(a.add_next),
        )
        if (m := solve(c.ok, d.guard, a.result == E.ILLEGAL, z3.Not(same))) is not None:
            c.report("(ii)", f"{name} is illegal and changes the state", m)


def the_turn_passes(c: Side) -> None:
    """(iii) After a move that does not end the game the opponent is to move."""
    for name, d in c.ds.items():
        if d.after.to_move != 1 - c.me and (m := solve(c.ok, d.guard, d.after.result == E.NOT_DONE)) is not None:
            c.report("(iii)", f"{name} goes on without passing the turn", m)


THEOREMS: dict[str, Callable[[Side], None]] = {
    "(a) disjoint": disjuncts_are_disjoint,
    "(b) total": some_disjunct_holds,
    "(d) satisfiable": each_disjunct_is_satisfiable,
    "(i) 48 stones": every_after_state_is_an_awari_board,
    "(ii) illegal changes nothing": illegal_changes_nothing,
    "(iii) alternate": the_turn_passes,
}


def check_side(me: int) -> tuple[dict[str, float], list[str], list[str]]:
    """Every theorem for one side to move: (timings, findings, problems)."""
    c = Side.of(me)
    timings: dict[str, float] = {}
    for name, theorem in THEOREMS.items():
        start = time.perf_counter()
        theorem(c)
        timings[name] = time.perf_counter() - start
    return timings, c.lines, c.problems


def main() -> int:
    start = time.perf_counter()
    # The theorems are about the encoding: first check it against the spec (seconds).
    if wrong := encoding_check.problems(stones=0):
        return verdict(wrong[:20], "ENCODING ≠ SPEC:", "the encoding disagrees with spec/awari.py: no theorem run")
    print(f"encoding ≡ spec (proofs.awari.encoding_check --stones 0, witnesses): {time.perf_counter() - start:.1f} s")
    with multiprocessing.Pool(2) as pool:
        results = pool.map(check_side, [0, 1])
    problems = []
    for me, (timings, lines, found) in zip(("north", "south"), results, strict=True):
        print(f"AwariRef, corrected, {me} to move")
        for name, seconds in timings.items():
            print(f"  {name}: {seconds:.1f} s")
        for line in lines:
            print("  " + line)
        problems += found
    print("  (c) deterministic: not shown by z3 (the encoding is functional); proofs.awari.exhaustive checks it")
    return verdict(problems, "UNEXPECTED:", f"total {time.perf_counter() - start:.1f} s (two processes)")


if __name__ == "__main__":
    sys.exit(main())
