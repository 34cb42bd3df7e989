"""``referee tablebase build|check|stats awari``: Awari endgame tables (issue #39;
docs/tablebases.md); ``referee tablebase solve gothello``: the 5×5 game solved from
its start (issue #54; impl/apps/solve.py)."""

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
from impl.cli import UsageError, add_rules_argument, count, failed, positive, subcommand, whole_within
from impl.engines.tablebase import bounds, build, check, ckernel, history, store
from impl.engines.tablebase import rules as facts
from impl.engines.tablebase.probe import Table
from impl.tasks import scheduler_address
from spec import awari_rules as AR


def _stones(text: str) -> int:
    value = count(text)
    if value > facts.MAX_STONES:
        raise argparse.ArgumentTypeError(f"{text!r} is more than {facts.MAX_STONES} stones")
    return value


def add_command(subparsers: Any) -> None:
    p = subcommand(subparsers, "tablebase", run)
    p.add_argument(
        "action",
        choices=["build", "check", "stats", "probe", "solve", "certify"],
        help="build the levels, check built ones, count their wins, draws and losses, probe one position, "
        "solve (gothello), or certify the solve's win deeper on the spec's engine (gothello)",
    )
    p.add_argument("game", help="awari (build, check, probe) or gothello (probe, solve, certify)")
    p.add_argument(
        "position",
        nargs="?",
        help="probe: the position, e.g. 'a1 b1 F2 A4, 20/20, south' or 'b a2 c3 w a1, black' (docs/tablebases.md)",
    )
    p.add_argument(
        "--budget",
        type=positive,
        help=f"probe: nodes at most (gothello: the solver's, default {PROBE_BUDGET:,}; awari under paper or abapa: "
        f"the referee's own search where the bounds differ, default {history.BUDGET:,}); solve --bounds: "
        "positions at most (default 200,000)",
    )
    p.add_argument(
        "--stones",
        type=_stones,
        help=f"build, check, stats: levels 0 … N stones (N ≤ {facts.MAX_STONES}; stats: every level there by default)",
    )
    p.add_argument("--out", type=Path, default=Path("tables"), help="the tables' folder (default ./tables)")
    p.add_argument(
        "--jobs",
        type=positive,
        default=None,
        help="worker processes (build, check: default the CPUs); solve: this process and J-1 workers answering "
        "leaves ahead, each with its own table of --table-bits (default 1: on one machine it does not pay, "
        "docs/tablebases.md)",
    )
    p.add_argument(
        "--spec-stones", type=_stones, default=4, help="check: solve boards of ≤ N stones on the spec too (default 4)"
    )
    p.add_argument(
        "--history-stones",
        type=_stones,
        default=0,
        help="check: the referee's own game, history and stores included, from boards of ≤ N stones (default 0: off); "
        "under paper and abapa, its margin within the bounds (a search of every line: seconds to 3 stones, "
        "hours at 4)",
    )
    solving = p.add_argument_group("solve gothello")
    solving.add_argument(
        "--checkpoint",
        type=Path,
        default=None,
        help="the leaves answered so far (default ./gothello-solve.json; certify: ./gothello-certificate.json): "
        "the same command resumes; probe gothello: a solve's answers read first (default the repository's exact solve)",
    )
    solving.add_argument(
        "--split",
        type=whole_within(0, 6, "a number of plies"),
        default=3,
        help="plies searched above the leaves (default 3)",
    )
    solving.add_argument(
        "--deepen",
        type=whole_within(0, 6, "a number of plies"),
        default=0,
        help="plies searched above the compiled solver below a leaf not yet answered, so that its parts are "
        "kept as they come (default 0)",
    )
    solving.add_argument(
        "--table-bits",
        type=whole_within(10, 32, "a table size in bits"),
        default=24,
        help="the solver's table: 2^(N+1) entries of 16 bytes (default 24)",
    )
    solving.add_argument("--exact", action="store_true", help="the margin, not only who wins")
    solving.add_argument(
        "--at-least",
        type=whole_within(-25, 25, "a margin"),
        default=None,
        metavar="N",
        help="solve: only whether black's margin reaches N (one null window; with N and N+1 in two runs, "
        "a check of an --exact margin that shares none of its search)",
    )
    solving.add_argument(
        "--bounds",
        action="store_true",
        help="solve: search nothing; print what the checkpoint's answers prove over --split + --deepen plies "
        "of the proven engine (the start's bounds, each first move's, the principal variation as far as proven)",
    )
    solving.add_argument(
        "--line",
        action="store_true",
        help="solve --bounds: go on with the principal variation past what the answers prove, to the game's end, "
        "each ply proven by the compiled solver (a table of --table-bits)",
    )
    solving.add_argument(
        "--scheduler",
        type=scheduler_address,
        default=None,
        metavar="ADDRESS",
        help="solve: the workers answering leaves ahead are the Dask cluster's at tcp://HOST:PORT (with this "
        "repository at this commit and a C compiler), not --jobs local processes",
    )
    solving.add_argument(
        "--seed", type=int, default=0, help="shuffle the order of the plies above (0: the solver's): a second pass"
    )
    solving.add_argument("--first", default="c3", help="certify: black's first move (default c3)")
    solving.add_argument(
        "--plies",
        type=whole_within(1, 9, "a number of plies"),
        default=5,
        help="certify: black's strategy to this ply, odd (default 5)",
    )
    add_rules_argument(p)


PROBE_BUDGET = 100_000_000
"""Nodes a Gothello probe may visit (about half a minute compiled)."""


def _probe(args: argparse.Namespace) -> int:
    from impl.apps import probe
    from impl.engines.statetext import NotationError

    if args.position is None:
        raise UsageError(f"referee tablebase probe: the position is needed, e.g. {probe.example(args.game)}")
    try:
        if args.game == "awari":
            lines = probe.awari_lines(args.position, args.out, _rules(args), args.budget or history.BUDGET)
        elif args.game == "gothello":
            lines = probe.gothello_lines(args.position, args.budget or PROBE_BUDGET, probe.answers(args.checkpoint))
        else:
            raise UsageError(f"referee tablebase probe: {args.game!r} is neither awari nor gothello")
    except probe.ProbeError as exc:
        return failed("referee tablebase probe", str(exc))
    except NotationError as exc:
        raise UsageError(f"referee tablebase probe: {exc}") from None
    print("\n".join(lines))
    return 0


def _jobs(args: argparse.Namespace) -> int:
    """build's and check's worker processes: --jobs, else the CPUs (solve's default is 1)."""
    return int(args.jobs or os.cpu_count() or 1)


def _solve(args: argparse.Namespace) -> int:
    if args.game != "gothello":
        raise UsageError(f"referee tablebase solve: only gothello is solved, not {args.game}")
    if (args.line and not args.bounds) or (args.at_least is not None and (args.exact or args.bounds)):
        raise UsageError("referee tablebase solve: --line goes with --bounds, --at-least with neither it nor --exact")
    if args.bounds:
        from impl.apps import solve_bounds, solve_line

        then = (lambda report: solve_line.run(report, args.table_bits)) if args.line else None
        path, plies = args.checkpoint or Path("gothello-solve.json"), args.split + args.deepen
        return solve_bounds.run(path, plies, args.budget, then)
    from impl.apps import leaves, solve

    solve.interruptible()
    try:
        solve.solve(
            args.checkpoint or Path("gothello-solve.json"),
            args.split,
            args.table_bits,
            args.exact,
            args.seed,
            deepen=args.deepen,
            jobs=args.jobs or 1,
            scheduler=args.scheduler,
            at_least=args.at_least,
        )
    except leaves.WorkerFailed as exc:
        return failed("referee tablebase solve", f"{exc}; the leaves answered are kept: the same command resumes", 1)
    except KeyboardInterrupt:
        return failed(
            "referee tablebase solve", "interrupted; the leaves answered are kept: the same command resumes", 130
        )
    except OSError as exc:
        return failed("referee tablebase solve", why(exc))
    except MemoryError as exc:
        return failed("referee tablebase solve", f"{exc}: a smaller --table-bits")
    return 0


def _certify(args: argparse.Namespace) -> int:
    if args.game != "gothello":
        raise UsageError(f"referee tablebase certify: only gothello is certified, not {args.game}")
    if args.plies % 2 == 0:
        raise UsageError("referee tablebase certify: --plies is odd (the certificate ends on black's move)")
    from impl.engines.gothello_solve import NAMES

    if args.first not in NAMES:
        raise UsageError(f"referee tablebase certify: --first {args.first!r} is not a move")
    from impl.apps import certify, solve

    solve.interruptible()
    try:
        certify.run(args.checkpoint or Path("gothello-certificate.json"), args.first, args.plies, args.table_bits)
    except KeyboardInterrupt:
        return failed(
            "referee tablebase certify", "interrupted; the leaves searched are kept: the same command resumes", 130
        )
    except certify.Damaged as exc:
        raise UsageError(f"referee tablebase certify: {exc}") from None
    except certify.Uncertified as exc:
        return failed("referee tablebase certify", f"not certified: {exc}")
    except OSError as exc:
        return failed("referee tablebase certify", why(exc))
    except MemoryError as exc:
        return failed("referee tablebase certify", f"{exc}: a smaller --table-bits")
    return 0


def _stats(args: argparse.Namespace, rules: AR.AwariRules) -> int:
    """Each level's wins, draws and losses for the side to move, its best margin and
    its longest forced line, with a board that needs it (as ``probe`` takes it)."""
    from impl.engines import statetext
    from impl.engines.tablebase import stats
    from spec import awari as A

    try:
        table = Table.found(args.out, rules) if args.stones is None else Table(args.out, rules, args.stones)
    except store.TableError as exc:
        return failed("referee tablebase", str(exc))
    print(f"{table.name} tables of 0 … {table.stones} stones in {args.out}; counts for the side to move")
    bounded = table.bounds is not None  # own-row: the boards whose value the bounds fix (docs/tablebases.md)
    exact_head = f" {'exact':>13}" if bounded else ""
    print(
        f"{'stones':>6} {'boards':>13} {'wins':>13} {'draws':>13} {'losses':>13}{exact_head} {'best':>5} {'longest':>7}"
    )
    for level in stats.table_stats(table):
        longest = "-" if level.longest is None else str(level.longest)
        example = ""
        if level.longest and level.longest_board is not None:
            north = (48 - level.stones) // 2
            game = A.AwariGame(level.longest_board, (north, 48 - level.stones - north), A.PLAYER.north, frozenset())
            example = f"  e.g. {statetext.format_awari(game)}"
        print(
            f"{level.stones:>6} {level.boards:>13,} {level.wins:>13,} {level.draws:>13,} {level.losses:>13,} "
            + (f"{level.exact or 0:>13,} " if bounded else "")
            + f"{level.best:>+5d} {longest:>7}{example}"
        )
    return 0


def _rules(args: argparse.Namespace) -> AR.AwariRules:
    if args.game != "awari":
        raise UsageError(f"referee tablebase: no tables for {args.game}; only awari")
    rules = AR.parse_rules(args.rules)
    try:
        facts.slam_rule(rules)
    except facts.UnsupportedRules as exc:
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
    """build or check Awari endgame tables, or solve Gothello

    build: for every board of 0 … N stones, the side to move's perfect-play margin on
    the stones of the board, one file per stone count in --out (resumable: valid levels
    are kept). check: the kernel against the proven engine, every entry's Bellman
    equation on that engine, and the spec's own solve of the small levels. solve: 5×5
    Gothello's value from the start, by the compiled solver below a split of the first
    plies (resumable from --checkpoint). certify: black's win followed on the spec's
    engine through every reply of white's to --plies, the compiled solver's word only
    below (resumable from --checkpoint). probe: one position's value, whether it is
    exact and why, and every move's value. stats: each level's wins, draws and losses
    for the side to move, its best margin and its longest forced line.
    """
    if args.action == "solve":
        return _solve(args)
    if args.action == "certify":
        return _certify(args)
    if args.action == "probe":
        return _probe(args)
    if args.action == "stats":
        return _stats(args, _rules(args))
    if args.stones is None:
        raise UsageError(f"referee tablebase {args.action}: --stones N is needed")
    rules = _rules(args)
    if args.action == "build":
        kernel = "C" if ckernel.load() is not None else "Python (no C compiler: slow beyond ~8 stones)"
        print(f"building {AR.canonical_name(rules)} tables of 0 … {args.stones} stones in {args.out} ({kernel})")
        print(f"{AR.canonical_name(rules)}: {facts.meaning(rules)}")
        start = time.perf_counter()
        asked = threading.Event()
        previous = signal.signal(signal.SIGINT, lambda *_: asked.set())
        try:
            build.build(
                args.out,
                rules,
                args.stones,
                _jobs(args),
                build.print_report,
                on_progress=build.print_progress,
                stop=asked.is_set,
                on_bounds=bounds.print_report,
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
        lambda: check.in_parts(table, _jobs(args), _Progress()),  # Bellman and the distances, one engine pass
        lambda: {"the spec's solve": check.check_spec(table, min(args.stones, args.spec_stones))},
    ]
    if args.history_stones and table.bounds is not None:
        passes.append(lambda: {"the referee's game within the bounds": check.check_bounds(table, args.history_stones)})
    elif args.history_stones:
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
