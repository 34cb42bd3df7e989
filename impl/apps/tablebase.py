"""``referee tablebase build|check awari``: Awari endgame tables (issue #39;
docs/tablebases.md)."""

from __future__ import annotations

import argparse
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

from impl.atomic import why
from impl.cli import UsageError, add_rules_argument, count, failed, positive, subcommand
from impl.engines.tablebase import build, check, ckernel, store
from impl.engines.tablebase.probe import Table
from spec import awari_rules as AR


def _stones(text: str) -> int:
    value = count(text)
    if value > build.MAX_STONES:
        raise argparse.ArgumentTypeError(f"{text!r} is more than {build.MAX_STONES} stones")
    return value


def add_command(subparsers: Any) -> None:
    p = subcommand(subparsers, "tablebase", run)
    p.add_argument("action", choices=["build", "check"], help="build the levels, or check built ones")
    p.add_argument("game", help="awari (Gothello has no tables)")
    p.add_argument("--stones", type=_stones, required=True, help=f"levels 0 … N stones (N ≤ {build.MAX_STONES})")
    p.add_argument("--out", type=Path, default=Path("tables"), help="the tables' folder (default ./tables)")
    p.add_argument("--jobs", type=positive, default=os.cpu_count() or 1, help="worker processes (default: the CPUs)")
    p.add_argument(
        "--spec-stones", type=_stones, default=4, help="check: solve boards of ≤ N stones on the spec too (default 4)"
    )
    p.add_argument(
        "--history-stones",
        type=_stones,
        default=0,
        help="check: the referee's own game, history and stores included, from boards of ≤ N stones (default 0: off)",
    )
    add_rules_argument(p)


def _rules(args: argparse.Namespace) -> AR.AwariRules:
    if args.game != "awari":
        raise UsageError(f"referee tablebase: no tables for {args.game}; only awari")
    rules = AR.parse_rules(args.rules)
    try:
        build.slam_rule(rules)
    except build.UnsupportedRules as exc:
        raise UsageError(f"referee tablebase: {exc}") from None
    return rules


class _Progress:
    """A line on stderr every ``every`` seconds while a long check runs: boards checked,
    the rate, the time left at that rate."""

    def __init__(self, every: float = 30.0) -> None:
        self.start = self.said = time.perf_counter()
        self.every = every

    def __call__(self, done: int, boards: int) -> None:
        now = time.perf_counter()
        if now - self.said < self.every or done == boards:
            return
        self.said = now
        rate = done / (now - self.start)
        print(
            f"checked {done:,} of {boards:,} boards ({100 * done / boards:.0f}%), {rate:,.0f} boards/s, "
            f"about {(boards - done) / rate / 60:.0f} min left",
            file=sys.stderr,
            flush=True,
        )


def run(args: argparse.Namespace) -> int:
    """build or check Awari endgame tables

    build: for every board of 0 … N stones, the side to move's perfect-play margin on
    the stones of the board, one file per stone count in --out (resumable: valid levels
    are kept). check: the kernel against the proven engine, every entry's Bellman
    equation on that engine, and the spec's own solve of the small levels.
    """
    rules = _rules(args)
    if args.action == "build":
        kernel = "C" if ckernel.load() is not None else "Python (no C compiler: slow beyond ~8 stones)"
        print(f"building {AR.canonical_name(rules)} tables of 0 … {args.stones} stones in {args.out} ({kernel})")
        print(f"{AR.canonical_name(rules)}: {build.meaning(rules)}")
        start = time.perf_counter()
        asked = threading.Event()
        previous = signal.signal(signal.SIGINT, lambda *_: asked.set())
        try:
            build.build(
                args.out,
                rules,
                args.stones,
                args.jobs,
                build.print_report,
                on_progress=build.print_progress,
                stop=asked.is_set,
            )
        except OSError as exc:
            return failed("referee tablebase", why(exc))
        except build.NotEnoughMemory as exc:
            return failed("referee tablebase", str(exc))
        except BrokenProcessPool:
            died = "a worker process died (killed, or out of memory?)"
            return failed("referee tablebase", f"{died}; the levels written are kept: the same command resumes")
        except (build.Interrupted, KeyboardInterrupt):
            return failed(
                "referee tablebase", "interrupted; the levels written are kept: the same command resumes", 130
            )
        finally:
            signal.signal(signal.SIGINT, previous)
        print(f"done in {time.perf_counter() - start:.1f} s")
        return 0
    try:
        table = Table(args.out, rules, args.stones)
    except store.TableError as exc:
        return failed("referee tablebase", str(exc))
    status = 0
    passes: list[Callable[[], dict[str, list[str]]]] = [
        lambda: {
            "kernel = proven engine": check.kernel_vs_engine(rules, min(args.stones, 8))
            + check.kernel_vs_engine_on(rules, check.lap_sample())  # pits of 11 and more: laps
        },
        lambda: check.in_parts(table, args.jobs, _Progress()),  # Bellman and the distances, one engine pass
        lambda: {"the spec's solve": check.check_spec(table, min(args.stones, args.spec_stones))},
    ]
    if args.history_stones:
        passes.append(lambda: {"the referee's game": check.check_history(table, min(args.stones, args.history_stones))})
    for run_pass in passes:
        start = time.perf_counter()
        try:
            results = run_pass()
        except KeyboardInterrupt:
            return failed("referee tablebase", "check interrupted", 130)
        seconds = time.perf_counter() - start
        shared = f", {len(results)} checks in one pass" if len(results) > 1 else ""
        for name, found in results.items():
            print(f"{name}: {'ok' if not found else f'{len(found)}+ differences'} ({seconds:.1f} s{shared})")
            for line in found[:5]:
                print(f"  {line}", file=sys.stderr)
            status = status or (1 if found else 0)
    return status
