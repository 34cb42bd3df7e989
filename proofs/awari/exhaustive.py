"""Well-foundedness of AwariRef, literal and corrected, by running the spec's own
``AwariRef`` (as written) and ``AwariRef_corrected`` (spec/awari.py) on every state in a finite
scope, with every action:

  * every board with at most N stones (all C(k + 11, 11) ways for each k ≤ N);
  * every score split of the other 48 − k stones whose north score lies in the
    threshold band [max(0, 23 − k), min(25, 48 − k)], plus the extremes 0 and
    48 − k (``--all-splits`` for every split): proofs/README.md argues that the
    schemas cannot tell apart two splits between consecutive band values;
  * both sides to move;
  * positions ∅ and {θ}, and for the corrected reading also {P'}, P' the position
    that the action leads to: the schemas inspect positions only through
    θAwariBoard ∈ positions and, after a sowing, P' ∈ positions ∪ {θ}.

Theorems (a) disjoint, (b) total, (c) deterministic, (d) each disjunct satisfiable,
and the invariants (i) Σ board + Σ score = 48 after every transition, (ii) an
illegal action changes nothing, (iii) an accepted sowing that does not end the game
passes the turn.  Literal failures are classified as errata (proofs/ERRATA.md); the
corrected referee must have none.

Run: ``python -m proofs.awari.exhaustive --stones N`` (exit 1 on anything unexpected).
``SPEC_CONTRACTS=0`` runs the spec without its contracts (faster; say so).
"""

from __future__ import annotations

import argparse
import itertools
import multiprocessing
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Generic, Self, TypeVar

from proofs.awari import CORRECTED_TURN, errata
from proofs.verdict import verdict
from spec import awari as A
from spec.contracts import ENABLED as CONTRACTS

EXPECTED_LITERAL = frozenset(errata.PREDICATES)
"""The errata the literal run must find (with a witness each) once the scope allows:
every erratum proofs/awari/errata.py has a predicate for."""

LITERAL_DISJUNCTS = ("NormalMove", "WinMargin", "NoMove", "GrandSlam", "IllegalMove", "IllegalMove (feeding clause)")
CORRECTED_DISJUNCTS = (
    *CORRECTED_TURN,
    "NormalMove ⨟ WinMargin",
    "NormalMove ⨟ NoMove",
    "NormalMove ⨟ CannotFeed",
)

# ─── The scope ────────────────────────────────────────────────────────────────


def boards(k: int) -> Iterator[A.BOARD]:
    """Every board with exactly k stones: compositions of k into 12 parts."""
    for bars in itertools.combinations(range(k + 11), 11):
        prev, board = -1, []
        for bar in bars:
            board.append(bar - prev - 1)
            prev = bar
        board.append(k + 10 - prev)
        yield tuple(board)


def splits(k: int, every: bool) -> list[A.SCORE]:
    """Score splits (north, south) of 48 − k stones: all, or the band and extremes."""
    total = 48 - k
    band = {0, total, *range(max(0, 23 - k), min(25, total) + 1)}
    norths = set(range(total + 1)) if every else band
    return [(n, total - n) for n in sorted(norths)]


LAPS = (11, 12, 17, 22)
"""Pit sizes that sow a whole lap (11), skip the origin (12), feed every opposing pit
twice so that the capture may take all it fed (17), and go round twice (22)."""


def lap_boards(sizes: tuple[int, ...] = LAPS) -> Iterator[A.BOARD]:
    """Targeted boards beyond the small scope (proofs/equivalence.py,
    exhaustive_rules.py): one pit of each size (default LAPS), alone, with one more
    stone in another pit of the same row, or with one stone at either end of the
    other row."""
    for j in range(12):
        row = range(6 * (j // 6), 6 * (j // 6) + 6)
        other = range(6 - 6 * (j // 6), 12 - 6 * (j // 6))
        for n in sizes:
            extras: list[int | None] = [None, *(q for q in row if q != j), other[0], other[-1]]
            for q in extras:
                yield tuple(n if p == j else int(p == q) for p in range(12))


def successor(g: A.AwariGame, move: A.PIT) -> A.AwariBoard | None:
    """P': the position the corrected sowing of ``move`` leads to, the turn passed."""
    s = A.θAwariBoard(g)
    if not A._sow_pre(s, move):
        return None
    after, _, _ = A.Sow_Capture_corrected(s, move)
    return A.AwariBoard(after.board, after.score, A.opponent(g.to_move))


# ─── Findings ─────────────────────────────────────────────────────────────────


K = TypeVar("K")


@dataclass
class Findings(Generic[K]):
    """A count and the first witness of each finding, and the cases checked: what a
    worker sends back and ``run`` merges (here and in exhaustive_rules.py)."""

    witnesses: dict[K, str] = field(default_factory=dict)
    counts: dict[K, int] = field(default_factory=dict)
    cases: int = 0

    def note(self, key: K, witness: str) -> None:
        self.counts[key] = self.counts.get(key, 0) + 1
        self.witnesses.setdefault(key, witness)

    def merge(self, other: Self) -> None:
        for key, n in other.counts.items():
            self.counts[key] = self.counts.get(key, 0) + n
        for key, w in other.witnesses.items():
            self.witnesses.setdefault(key, w)
        self.cases += other.cases


@dataclass
class Tally(Findings[tuple[str, str, str]]):
    """What one worker saw: witnesses by (reading, theorem, errata), counts, and
    which disjuncts ever held."""

    held: dict[str, set[str]] = field(default_factory=lambda: {"literal": set(), "corrected": set()})

    def add(self, reading: str, theorem: str, errata: str, g: A.AwariGame, move: A.PIT, detail: str) -> None:
        self.note((reading, theorem, errata), f"{describe(g)}, move {move.name}: {detail}")

    def merge(self, other: Self) -> None:
        super().merge(other)
        for reading, names in other.held.items():
            self.held[reading] |= names


def describe(g: A.AwariGame) -> str:
    """The errata notation: non-empty pits, N/S stores, side to move, positions."""
    pits = " ".join(f"{p.name}{g.board[p]}" for p in A.PIT if g.board[p])
    seen = "∅" if not g.positions else ("{θ}" if g.positions == {A.θAwariBoard(g)} else f"{len(g.positions)} positions")
    return f"{pits or 'empty'}, {g.score[0]}/{g.score[1]}, {g.to_move.name}, positions {seen}"


# ─── The literal reading ──────────────────────────────────────────────────────


def check_literal(t: Tally, g: A.AwariGame, move: A.PIT) -> None:
    """Every theorem on the literal reading at one case; each failure is put down to
    the errata whose predicates hold there (proofs/awari/errata.py), or to NEW."""
    outcomes = A.AwariRef(g, move)
    t.held["literal"] |= {o.schema for o in outcomes}

    def fail(theorem: str, involved: tuple[A.Outcome, ...], detail: str) -> None:
        t.add("literal", theorem, errata.classify(errata.Failure(theorem, g, move, involved)), g, move, detail)

    for pair in itertools.combinations(outcomes, 2):
        fail("(a) disjoint", pair, " ∧ ".join(o.schema for o in pair))
    if not outcomes:
        fail("(b) total", (), "no disjunct holds")
    for o in outcomes:
        n = o.after.completions()
        if n != 1:
            fail("(c) deterministic", (o,), f"{o.schema}: {n}")
        if o.after.board is not None and o.after.score is not None and sum(o.after.board) + sum(o.after.score) != 48:
            fail("(i) 48 stones", (o,), o.schema)
        if o.result == A.illegal_move:
            if move in A.side(g.to_move) and g.board[move] > 0:
                t.held["literal"].add("IllegalMove (feeding clause)")
            if n != 1 or o.after.positions != g.positions:
                fail("(ii) illegal changes nothing", (o,), f"{n} after-states, positions' {len(o.after.positions)}")
        if o.result == A.not_done and o.after.to_move != A.opponent(g.to_move):
            fail("(iii) the turn passes", (o,), f"{o.schema}: to_move' = {o.after.to_move}")


# ─── The corrected reading ────────────────────────────────────────────────────


def check_corrected(t: Tally, g: A.AwariGame, move: A.PIT) -> None:
    outcomes = A.AwariRef_corrected(g, move)
    t.held["corrected"] |= {o.schema for o in outcomes}
    if len(outcomes) != 1:
        what = " ∧ ".join(o.schema for o in outcomes) or "no disjunct holds"
        t.add("corrected", "(a) disjoint" if outcomes else "(b) total", "NEW", g, move, what)
        return
    (o,) = outcomes
    if o.after.completions() != 1:
        t.add("corrected", "(c) deterministic", "NEW", g, move, o.schema)
        return
    after = o.after.state()
    if sum(after.board) + sum(after.score) != 48:
        t.add("corrected", "(i) 48 stones", "NEW", g, move, o.schema)
    if o.result == A.illegal_move and after != g:
        t.add("corrected", "(ii) illegal changes nothing", "NEW", g, move, o.schema)
    if o.result == A.not_done and after.to_move != A.opponent(g.to_move):
        t.add("corrected", "(iii) the turn passes", "NEW", g, move, o.schema)


# ─── Running ──────────────────────────────────────────────────────────────────


def check_board(args: tuple[A.BOARD, bool]) -> Tally:
    """Every split, side, positions set and action for one board."""
    board, every = args
    t = Tally()
    for score in splits(sum(board), every):
        for to_move in A.PLAYER:
            g = A.AwariGame(board, score, to_move, frozenset())
            seen = A.AwariGame(board, score, to_move, frozenset({A.θAwariBoard(g)}))
            for move in A.PIT:
                t.cases += 1
                for h in (g, seen):
                    check_literal(t, h, move)
                    check_corrected(t, h, move)
                p = successor(g, move)
                if p is not None:
                    check_corrected(t, A.AwariGame(board, score, to_move, frozenset({p})), move)
    return t


def run(stones: int, every: bool, workers: int) -> Tally:
    work = [(b, every) for k in range(stones + 1) for b in boards(k)]
    total = Tally()
    with multiprocessing.Pool(workers) as pool:
        for t in pool.imap_unordered(check_board, work, chunksize=16):
            total.merge(t)
    return total


def report(t: Tally, stones: int, every: bool) -> list[str]:
    """Print the findings; return the problems."""
    problems = []
    for (reading, theorem, label), n in sorted(t.counts.items()):
        print(f"  {reading:9} {theorem:30} {label:10} {n:8}×  e.g. {t.witnesses[(reading, theorem, label)]}")
        if reading == "corrected" or "NEW" in label:
            problems.append(f"{reading} {theorem} {label}: {t.witnesses[(reading, theorem, label)]}")
    for reading, expected in (("literal", LITERAL_DISJUNCTS), ("corrected", CORRECTED_DISJUNCTS)):
        for name in expected:
            if name not in t.held[reading]:
                dead = reading == "literal" and name == "IllegalMove (feeding clause)"
                print(f"  {reading:9} (d) satisfiable               {'A15' if dead else '?':10} {name} never holds")
                if not dead and stones >= 3:  # fewer stones cannot reach every disjunct
                    problems.append(f"{reading} (d): {name} never held in this scope")
    found = {e for (r, _, es) in t.counts for e in es.split("+") if r == "literal"}
    if "IllegalMove (feeding clause)" not in t.held["literal"]:
        found.add(errata.DEAD_CLAUSE)
    missing = EXPECTED_LITERAL - found
    print(f"  literal errata found: {' '.join(sorted(found, key=lambda e: int(e[1:])))}")
    if missing and stones >= 2:
        problems.append(f"literal errata not found: {sorted(missing)}")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--stones", type=int, default=3, help="N: at most this many stones on the board")
    parser.add_argument("--all-splits", action="store_true", help="every score split, not only the band")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    start = time.perf_counter()
    print(
        f"AwariRef over boards with ≤ {args.stones} stones, {'all' if args.all_splits else 'band'} score splits, "
        f"both sides, positions ∅ / {{θ}} / {{P'}}; spec contracts {'on' if CONTRACTS else 'off'}",
        flush=True,
    )
    tally = run(args.stones, args.all_splits, args.workers)
    problems = report(tally, args.stones, args.all_splits)
    print(f"  {tally.cases} (state, action) cases in {time.perf_counter() - start:.1f} s")
    return verdict(problems, "UNEXPECTED:")


if __name__ == "__main__":
    sys.exit(main())
