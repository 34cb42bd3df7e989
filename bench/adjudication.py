"""How often the tables end a game (``--tb``), where, and at what cost: random games
from the start under each rule set the tables adjudicate, the table of ≤ ``--stones``
stones built for it (or read from ``--tables``), each position of ≤ N stones probed
as the referee probes it (tbadjudge.TablebaseRule.verdict) until one is adjudicated.

    python -m bench.adjudication [--stones N] [--games G] [--tables DIR] [--quick]

Every figure comes from this run, on this machine (docs/tablebases.md, "Exact values
under the papers' rule")."""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from bench.tablebase import heading
from impl.apps.tbadjudge import TablebaseRule
from impl.engines.awari import engine_for
from impl.engines.tablebase import build, probe
from spec import awari_rules as AR

RULE_SETS = ("paper", "abapa", "olympiad-1990")


@dataclass(frozen=True)
class Coverage:
    """Random games under one rule set: how many reached the table, how many it
    adjudicated (and of those, by bounds that differ but give one winner, and by the
    referee's own value searched where they do not), the mean stones on the board when
    it did, and the probes' count, mean and longest seconds."""

    rules: str
    games: int
    reached: int
    adjudicated: int
    by_range: int
    by_search: int
    mean_stones: float
    probes: int
    probe_seconds: float
    longest: float

    def row(self) -> str:
        return (
            f"| {self.rules} | {self.games} | {self.reached} | {self.adjudicated} | {self.by_range} | "
            f"{self.by_search} | {self.reached - self.adjudicated} | {self.mean_stones:.1f} | "
            f"{1000 * self.probe_seconds:.2f} ms | {1000 * self.longest:.0f} ms |"
        )


def coverage(folder: Path, name: str, stones: int, games: int) -> Coverage:
    """``games`` random games (seeds 0 …) under ``name``, adjudicated by its table in ``folder``."""
    engine = engine_for(AR.parse_rules(name))
    rule = TablebaseRule(folder.resolve(), stones, name)
    reached = judged = by_range = by_search = probes = 0
    at: list[int] = []
    spent = longest = 0.0
    for seed in range(games):
        rng = random.Random(seed)
        state = engine.initial()
        entered = False
        while not engine.is_over(state):
            if rule.within(state):
                entered = True
                probes += 1
                start = time.perf_counter()
                verdict = rule.verdict(state)
                took = time.perf_counter() - start
                spent, longest = spent + took, max(longest, took)
                if verdict is not None:
                    judged += 1
                    by_range += " to " in verdict[2].split(":")[0]
                    by_search += "searched" in verdict[2]
                    at.append(sum(probe.board_of(state)))
                    break
            state = engine.apply(state, rng.choice(list(engine.legal_moves(state))))[1]
        reached += entered
    mean = sum(at) / max(len(at), 1)
    return Coverage(name, games, reached, judged, by_range, by_search, mean, probes, spent / max(probes, 1), longest)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.adjudication", description="adjudication benchmark")
    parser.add_argument("--stones", type=int, default=16, help="tables of 0 … N stones (default 16)")
    parser.add_argument("--games", type=int, default=200, help="random games a rule set (default 200)")
    parser.add_argument("--tables", type=Path, help="tables already built there (default: built now, then removed)")
    parser.add_argument("--quick", action="store_true", help="≤ 8 stones, 20 games: a smoke test")
    args = parser.parse_args(argv)
    stones, games = (8, 20) if args.quick else (args.stones, args.games)
    if not heading(f"Adjudication benchmark: {games} random games a rule set, tables of ≤ {stones} stones"):
        return 1
    print("| rules | games | reached the table | adjudicated | of which by bounds that differ | by the search "
          "| played out | mean stones then | a probe | the longest |")  # fmt: skip
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as scratch:
        folder = args.tables or Path(scratch)
        for name in RULE_SETS:
            build.build(folder, AR.parse_rules(name), stones, jobs=2)
            print(coverage(folder, name, stones, games).row(), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
