"""How far the referee's own values under an own-row rule set reach: for each level of
1 … ``--stones`` stones, every board (north to move, stores 0/0, no history) valued by
tablebase/history.py's search (a capture's child by its own value, null windows
between the table's bounds), at most ``--budget`` nodes a board: how many the bounds
decide, how many the search settles, how many it leaves open, its nodes and CPU time.

    python -m bench.referee_values [--rules paper] [--stones N] [--budget NODES] [--quick]

Every figure comes from this run, on this machine (docs/tablebases.md, "Exact values
under the papers' rule")."""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from bench.tablebase import heading
from impl.engines.tablebase import build, history, probe
from impl.engines.tablebase.index import boards
from spec import awari_rules as AR


def level_row(referee: history.Referee, n: int) -> str:
    """One level's line of the table (module docstring)."""
    table = referee.table
    agree = settled = left = 0
    nodes, start = referee.nodes, time.process_time()
    for pits in boards(n):
        pair = table.bounded(pits)
        assert pair is not None
        if pair[0] == pair[1]:
            agree += 1
        elif referee.value(pits) is None:
            left += 1
        else:
            settled += 1
    size = agree + settled + left
    return (
        f"| {n} | {size:,} | {agree:,} | {settled:,} | {left:,} | {100 * (agree + settled) / size:.1f}% | "
        f"{referee.nodes - nodes:,} | {time.process_time() - start:.1f} s |"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.referee_values", description="own-row values benchmark")
    parser.add_argument("--rules", default="paper", choices=["paper", "abapa"], help="the rule set (default paper)")
    parser.add_argument("--stones", type=int, default=4, help="levels 1 … N (default 4)")
    parser.add_argument("--budget", type=int, default=200_000, help="nodes a board at most (default 200,000)")
    parser.add_argument("--quick", action="store_true", help="levels 1 … 3: a smoke test")
    args = parser.parse_args(argv)
    stones = 3 if args.quick else args.stones
    title = (
        f"The referee's values under {args.rules}, levels 1 … {stones}: a board's search at most {args.budget:,} nodes"
    )
    if not heading(title):
        return 1
    print("| stones | boards | the bounds agree | the search settles | left open | exact | nodes | CPU |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|")
    rules = AR.parse_rules(args.rules)
    with tempfile.TemporaryDirectory() as scratch:
        build.build(Path(scratch), rules, stones, jobs=1)
        referee = history.Referee(probe.Table(Path(scratch), rules, stones), args.budget)
        for n in range(1, stones + 1):
            print(level_row(referee, n), flush=True)
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
