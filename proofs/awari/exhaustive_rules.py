"""Well-foundedness of AwariRef under a rule set (spec/awari_rules.py), by running the
spec's ``AwariRefUnder`` on every state of the scope of proofs/awari/exhaustive.py, with
every action:

  * every board with at most N stones, then the lap boards of proofs/equivalence.py
    (one pit of 11, 12, 17 or 22 stones: laps and grand slams beyond the small scope);
  * the band score splits of exhaustive.py (``--all-splits``: every split), both sides;
  * positions ∅, {θ} and {P'}, P' the position the action's sowing leads to under the
    rule set's capture: the schemas inspect positions only through θAwariBoard ∈
    positions and, after a sowing, P' ∈ positions ∪ {θ}.

Theorems: (a) disjoint — at most one disjunct of AwariRef_rules ≙ Ended ∨
IllegalMoveUnder ∨ GrandSlamForfeit ∨ SowUnder holds, and at most one of Ended's four
end conditions (WinMargin, CannotMove, Repetition, StarvedOut) holds, both at the state
and at the state a sowing leads to (``Ended`` returns the first that holds, so an
overlap among them would not show in AwariRefUnder's outcomes); (b) total — at least
one holds; (c) deterministic — its after-state is determined; (d) satisfiable — every
disjunct the rule set has (``expected``) holds somewhere in the scope, and no other
disjunct ever does; and the invariants (i) Σ board' + Σ score' = 48, (ii) an illegal
action changes nothing, positions included, (iii) a sowing that does not end the game
passes the turn.

Run: ``python -m proofs.awari.exhaustive_rules --rules NAME… --stones N`` (exit 1 on any
failure).  Each NAME is a named rule set or a combination ``g/repetition/cannot-move``
(spec/awari_rules.py ``ALL_COMBINATIONS``); each is checked in turn.  ``SPEC_CONTRACTS=0`` runs the spec
without its contracts (faster; say so).
"""

from __future__ import annotations

import argparse
import itertools
import multiprocessing
import sys
import time
from dataclasses import dataclass, field
from functools import partial
from typing import Self

from proofs.awari.exhaustive import Findings, boards, describe, lap_boards, splits
from proofs.verdict import verdict
from spec import awari as A
from spec import awari_rules as R
from spec.contracts import ENABLED as CONTRACTS

ENDS = ("WinMargin", "CannotMove", "Repetition", "StarvedOut")
"""Ended's end conditions, in the order ``Ended`` tries them."""

RULES: dict[str, R.AwariRules] = {**{r.name: r for r in R.ALL_COMBINATIONS}, **R.RULE_SETS}
"""Every rule set this run accepts, by name."""


def expected(rules: R.AwariRules) -> tuple[str, ...]:
    """The disjuncts that can hold under ``rules``, as AwariRefUnder labels its outcomes.

    GrandSlam (Sow ⨟ Capture ⨟ ForfeitStones) is a disjunct under (e) only.  A sowing
    that goes on can leave the opponent's row empty only by capturing its every stone:
    under (a) the forced grand slam (V3), under (d) a harvest of one pit that held all the
    opponent's stones; under (e) that sowing is GrandSlam, under (b) it captures nothing,
    under (c) it spares the last pit, which holds 2 or 3, and a sowing into an empty row
    that does not feed it is illegal.  So SowUnder ⨟ CannotMove is a disjunct under (a)
    and (d) only."""
    slam = ("GrandSlam",) if rules.grand_slam is R.GrandSlamRule.FORFEIT else ()
    empties = rules.grand_slam in (R.GrandSlamRule.FORBIDDEN, R.GrandSlamRule.FIRST_ONLY)
    after = tuple(f"SowUnder ⨟ {e}" for e in ENDS if e != "CannotMove" or empties)
    return (*ENDS, "IllegalMove", *slam, "SowUnder", *after)


def _board(stones: dict[A.PIT, int]) -> A.BOARD:
    return tuple(stones.get(p, 0) for p in A.PIT)


WITNESS_BOARDS: tuple[A.BOARD, ...] = tuple(
    _board(dict.fromkeys(pits, 1))
    for pits in ((A.PIT.f, A.PIT.A), (A.PIT.F, A.PIT.a), (A.PIT.f, A.PIT.A, A.PIT.B), (A.PIT.F, A.PIT.a, A.PIT.b))
)
"""Targeted boards, checked at every N: the last pit of a row sown onto the first of the
other, which holds the opponent's only stone (a grand slam: GrandSlam under (e), the
forced grand slam SowUnder ⨟ CannotMove under (a)) or one of two (a capture that leaves
the opponent a stone: SowUnder, and SowUnder ⨟ WinMargin from a score of 24).  Without
them a sowing that goes on needs N ≥ 2, and under (b) and (e) SowUnder ⨟ WinMargin
needs N ≥ 3 (with 2 stones every capture takes the opponent's last)."""


def end_conditions(rules: R.AwariRules, g: A.AwariGame) -> list[A.Outcome]:
    """Every end condition of Ended that holds at ``g``, each evaluated on its own."""
    held = [A.WinMargin_corrected(g, A.PIT.a), R.CannotMove(rules, g), R.Repetition(rules, g), R.StarvedOut(rules, g)]
    return [o for o in held if o is not None]


def successor(rules: R.AwariRules, g: A.AwariGame, move: A.PIT) -> A.AwariBoard | None:
    """P': the position the sowing of ``move`` leads to under the rule set, the turn passed."""
    s = A.θAwariBoard(g)
    if not A._sow_pre(s, move):
        return None
    after = R.sow_capture(rules, s, move)
    return A.AwariBoard(after.board, after.score, A.opponent(g.to_move))


# ─── Findings ─────────────────────────────────────────────────────────────────


@dataclass
class Tally(Findings[tuple[str, str]]):
    """What one worker saw: a witness and a count per (theorem, detail), and which
    disjuncts ever held."""

    held: set[str] = field(default_factory=set)

    def add(self, theorem: str, detail: str, g: A.AwariGame, move: A.PIT) -> None:
        self.note((theorem, detail), f"{describe(g)}, move {move.name}")

    def merge(self, other: Self) -> None:
        super().merge(other)
        self.held |= other.held


def check(rules: R.AwariRules, t: Tally, g: A.AwariGame, move: A.PIT) -> None:
    """Every theorem at one (state, action) case."""
    t.cases += 1
    ends = end_conditions(rules, g)
    if len(ends) > 1:
        t.add("(a) disjoint", " ∧ ".join(o.schema for o in ends), g, move)
    outcomes = R.AwariRefUnder(rules, g, move)
    t.held |= {o.schema for o in outcomes}
    if len(outcomes) != 1:
        t.add("(a) disjoint" if outcomes else "(b) total", " ∧ ".join(o.schema for o in outcomes) or "none", g, move)
        return
    (o,) = outcomes
    if o.after.completions() != 1:
        t.add("(c) deterministic", o.schema, g, move)
        return
    after = o.after.state()
    if sum(after.board) + sum(after.score) != 48:
        t.add("(i) 48 stones", o.schema, g, move)
    if o.result == A.illegal_move and after != g:
        t.add("(ii) illegal changes nothing", o.schema, g, move)
    if o.schema.startswith("SowUnder"):
        p = successor(rules, g, move)
        assert p is not None  # SowUnder holds only where Sow's precondition does
        moved = A.AwariGame(p.board, p.score, p.to_move, g.positions | {A.θAwariBoard(g)})
        ends = end_conditions(rules, moved)
        if len(ends) > 1:
            t.add("(a) disjoint after the sowing", " ∧ ".join(e.schema for e in ends), g, move)
        if o.result == A.not_done and after.to_move != A.opponent(g.to_move):
            t.add("(iii) the turn passes", o.schema, g, move)


def check_board(rules: R.AwariRules, board: A.BOARD, scores: list[A.SCORE]) -> Tally:
    """Every given split, both sides, positions ∅ / {θ} / {P'}, every action."""
    t = Tally()
    for score, to_move in itertools.product(scores, A.PLAYER):
        g = A.AwariGame(board, score, to_move, frozenset())
        seen = A.AwariGame(board, score, to_move, frozenset({A.θAwariBoard(g)}))
        for move in A.PIT:
            check(rules, t, g, move)
            check(rules, t, seen, move)
            p = successor(rules, g, move)
            if p is not None:
                check(rules, t, A.AwariGame(board, score, to_move, frozenset({p})), move)
    return t


def small_board(rules: R.AwariRules, every: bool, board: A.BOARD) -> Tally:
    return check_board(rules, board, splits(sum(board), every))


def lap_board(rules: R.AwariRules, board: A.BOARD) -> Tally:
    """A lap board at two splits: even, and north one short of 25 (as proofs/equivalence.py)."""
    left = 48 - sum(board)
    return check_board(rules, board, [(n, left - n) for n in sorted({left // 2, min(24, left)})])


def run(rules: R.AwariRules, stones: int, every: bool, workers: int, laps: bool = True) -> Tally:
    total = Tally()
    small = [b for k in range(stones + 1) for b in boards(k)]
    small += [b for b in WITNESS_BOARDS if sum(b) > stones]
    with multiprocessing.Pool(workers) as pool:
        for t in pool.imap_unordered(partial(small_board, rules, every), small, chunksize=16):
            total.merge(t)
        if laps:
            for t in pool.imap_unordered(partial(lap_board, rules), list(lap_boards()), chunksize=16):
                total.merge(t)
    return total


def report(rules: R.AwariRules, t: Tally) -> list[str]:
    """Print the findings; return the problems (every finding is one)."""
    problems = []
    for (theorem, detail), n in sorted(t.counts.items()):
        problems.append(f"{theorem}: {detail}, {n}× (e.g. {t.witnesses[(theorem, detail)]})")
    want = expected(rules)
    print(f"  (d) disjuncts that held: {', '.join(d for d in want if d in t.held)}")
    problems += [f"(d) satisfiable: {d} never held in this scope" for d in want if d not in t.held]
    problems += [f"(d) {d} held, which expected() says it cannot" for d in sorted(t.held - set(want))]
    return problems


def rule_set(name: str) -> R.AwariRules:
    """A --rules argument: a combination such as d/draw/player-loses, or any text
    spec/awari_rules.py's ``parse_rules`` reads (argparse's error otherwise)."""
    if name in RULES:
        return RULES[name]
    try:
        return R.parse_rules(name)
    except R.RulesError as exc:
        raise argparse.ArgumentTypeError(f"{exc}, or a combination such as d/draw/player-loses") from None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--rules", required=True, nargs="+", type=rule_set, metavar="NAME", help="rule sets")
    parser.add_argument("--stones", type=int, default=2, help="N: at most this many stones on the board")
    parser.add_argument("--all-splits", action="store_true", help="every score split, not only the band")
    parser.add_argument("--no-laps", action="store_true", help="leave out the lap boards")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    problems = []
    for rules in args.rules:
        start = time.perf_counter()
        extra = (", the witness boards" if args.stones < 3 else "") + ("" if args.no_laps else ", the lap boards")
        print(
            f"AwariRef[{rules.describe()}] over boards with ≤ {args.stones} stones{extra}, "
            f"{'all' if args.all_splits else 'band'} score splits, both sides, positions ∅ / {{θ}} / {{P'}}; "
            f"spec contracts {'on' if CONTRACTS else 'off'}",
            flush=True,
        )
        tally = run(rules, args.stones, args.all_splits, args.workers, laps=not args.no_laps)
        problems += [f"[{rules.name}] {p}" for p in report(rules, tally)]
        print(f"  {tally.cases} (state, action) cases in {time.perf_counter() - start:.1f} s", flush=True)
    return verdict(problems)


if __name__ == "__main__":
    sys.exit(main())
