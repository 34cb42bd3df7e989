"""Apply's 600 slices, proven as independent tasks on a Dask cluster, with an opt-in
cache of their verdicts for development.

    python -m proofs.awari.slices [--jobs N | --scheduler tcp://HOST:PORT | --no-cluster]
                                  [--timeout S] [--for SECONDS] [--counts N ...] [--complete]
                                  [--cache [--retry]]
    python -m proofs.awari.slices --status
    python -m proofs.awari.slices --projection W [W ...]

Together the 600 slices are the theorem that ``ImplAwari.apply`` refines the corrected
referee on every state (proofs/README.md §8.1).  Each slice is a task: a fresh process
proves it (its own z3 context) under a time limit.  The tasks run on an embedded local
Dask cluster of ``--jobs`` worker processes (default), on a real cluster given
``--scheduler``, or, with ``--no-cluster``, from a thread pool here.

Every run proves every slice it is given and reports only what it proved: that is
what ``make proofs`` runs.  Each verdict is also written to ``CACHE``, the *verdict
cache*, with what makes it checkable — the functions the proof ran and the
*fingerprint* of what it read (proofs/fingerprint.py: module names and syntax trees
without docstrings, without the bodies of functions it never ran; so a comment, a
docstring, a moved file or a function the proof does not call reopens nothing), z3's and Python's
versions, the slice's result, the command and the commit.  Only ``--cache`` reads it:
the slices it holds as proven under the current fingerprint are skipped.  It is a
convenience, never evidence: to trust it, rerun without ``--cache``; to rebuild it,
delete it and run ``python -m proofs.awari.slices``.  ``--status`` says what it holds
for the code as it is.  A slice that fails is a counterexample: its message is kept
and the run exits 1; with ``--complete`` (make proofs) so does a run that leaves any
slice unproven.  ``--projection`` reads the seconds each cached slice took and says
how long the whole step would take on W workers (a projection, not a measurement).
"""

from __future__ import annotations

import argparse
import functools
import heapq
import json
import os
import platform
import shlex
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, TypeAlias

import z3

from impl import tasks as runners
from impl.atomic import write_atomic
from impl.cli import quiet_on_a_closed_pipe
from proofs import fingerprint as F
from proofs.fingerprint import module_name

if TYPE_CHECKING:  # refinement builds its statements on import: loaded only where a slice is listed
    from proofs.awari.refinement import Slice

ROOT: Final = Path(__file__).resolve().parents[2]
CACHE: Final = ROOT / "proofs" / "awari" / "verdict-cache.jsonl"
RULES_CACHE: Final = ROOT / "proofs" / "awari" / "verdict-cache-rules.jsonl"
"""``--engine rules``' cache: RulesAwari's slices (proofs/awari/rules_refinement.py)."""
PROVERS: Final = {
    "paper": ("proofs.awari.refinement", "apply_slice"),
    "rules": ("proofs.awari.rules_refinement", "apply_slice_under"),
}
"""Which engine's apply a slice proves: ImplAwari (the paper's rules) or RulesAwari
(every rule set at once), by the module and function that state the slice."""
_engine = "paper"
"""The engine this run proves (``--engine``): it picks the prover and the cache."""


def cache_path() -> Path:
    """The verdict cache of the engine this run proves."""
    return RULES_CACHE if _engine == "rules" else CACHE


ABOUT: Final = {
    "about": "a cache of the verdicts of apply's 600 slices (proofs/awari/slices.py), read only with --cache; "
    "trust none of it: `python -m proofs.awari.slices` proves every slice afresh; rebuild it: delete this "
    "file and run that command"
}
"""The cache's first line: what it is, and how to trust or rebuild it."""
RULES_ABOUT: Final = {
    "about": "a cache of the verdicts of RulesAwari's apply on its 600 slices (proofs/awari/slices.py --engine "
    "rules), read only with --cache; trust none of it: `python -m proofs.awari.slices --engine rules` proves "
    "every slice afresh; rebuild it: delete this file and run that command"
}
"""``--engine rules``' cache's first line."""
ENGINE: Final = "impl.engines.awari"
"""The engine under proof, read as source (proofs/symbolic.py ``load_engine_source``)."""

Record: TypeAlias = dict[str, Any]
"""One slice's verdict: mover, pit, n, slice (its name), verdict (proven, failed,
error, timeout), paths, seconds (wall), cpu (the prover's CPU seconds), detail,
fingerprint, z3, python — and, once in the cache, command, commit, date."""

_IMPORTS: Final = """
import json, sys
from pathlib import Path
import proofs.awari.refinement
import {module}
root = Path.cwd().resolve()
files = (Path(getattr(m, "__file__", None) or "/").resolve() for m in list(sys.modules.values()))
print(json.dumps([f.relative_to(root).as_posix() for f in files if f.is_relative_to(root)]))
"""


def sources() -> list[str]:
    """The modules a slice's proof runs, by name: the engine and every module of this
    repository that proofs.awari.refinement imports (the statement, the spec and its
    vocabulary, the symbolic machinery) — found in a fresh interpreter, so the answer
    does not depend on what the caller has imported."""
    code = _IMPORTS.replace("{module}", PROVERS[_engine][0])
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    paths = [p for p in json.loads(done.stdout) if not p.startswith(".") and p.endswith(".py")]
    return sorted({ENGINE, *map(module_name, paths)})


def fingerprint(
    modules: Sequence[str] | None = None, root: Path | None = None, reads: Iterable[str] | None = None
) -> str:
    """proofs/fingerprint.py's ``fingerprint`` of ``modules`` (``sources()`` unless
    given) and the functions ``reads`` a slice's proof ran (every one if None)."""
    return F.fingerprint(sources() if modules is None else modules, root, reads)


_fingerprints = functools.cache(fingerprint)
_parsing = threading.Lock()


def _worker_fingerprint(modules: tuple[str, ...], reads: frozenset[str] | None) -> str:
    """``fingerprint(modules, reads=reads)``, computed once by a worker for each set of
    reads; one thread at a time (CPython 3.11's ast.parse is not thread-safe:
    concurrent calls raise SystemError)."""
    with _parsing:
        return _fingerprints(modules, None, reads)


def reads_of(row: Record) -> frozenset[str] | None:
    """The functions a verdict's proof ran, None for a verdict recorded without them
    (its fingerprint is of the whole modules)."""
    reads = row.get("reads")
    return frozenset(reads) if isinstance(reads, list) else None


@dataclass(frozen=True)
class Code:
    """The code as it is, as the verdicts see it: the modules a slice's proof imports."""

    modules: tuple[str, ...]

    @property
    def label(self) -> str:
        """The whole modules' fingerprint: what a run prints as its code's name."""
        return _worker_fingerprint(self.modules, None)

    def __call__(self, row: Record) -> bool:
        """Whether a verdict is of this code: its fingerprint is that of the modules
        and the functions its proof read, as they are now (proofs/fingerprint.py)."""
        return bool(row["fingerprint"] == _worker_fingerprint(self.modules, reads_of(row)))


Holds: TypeAlias = "str | Code"
"""Which verdicts are of the code as it is: those carrying a fingerprint, or those
``Code`` accepts."""


def _test(holds: Holds) -> Callable[[Record], bool]:
    if isinstance(holds, str):
        fp = holds
        return lambda row: bool(row["fingerprint"] == fp)
    return holds


def _label(holds: Holds) -> str:
    return holds if isinstance(holds, str) else holds.label


def every_slice() -> list[Slice]:
    from proofs.awari.refinement import every_slice as slices

    return slices()


def name(s: Slice) -> str:
    """``south sows 12 from C`` — the slice in the Awari notation of spec/awari.py."""
    from spec.awari import PIT, PLAYER

    mover, m, n = s
    return f"{PLAYER(mover).name} sows {'any count' if n is None else n} from {PIT(m).name}"


def key(r: Record) -> Slice:
    return (r["mover"], r["pit"], r["n"])


# ─── the cache ─────────────────────────────────────────────────────────────────


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def verdict_row(row: Any) -> bool:
    """Whether a cache line's JSON is a verdict: the fields the readers here use,
    of their types (a hand-edited or foreign line may lack them)."""
    if not isinstance(row, dict) or "n" not in row:
        return False
    n = row["n"]
    where = all(isinstance(row.get(k), int) for k in ("mover", "pit")) and (n is None or isinstance(n, int))
    labels = isinstance(row.get("verdict"), str) and isinstance(row.get("fingerprint"), str)
    return where and labels and _number(row.get("seconds")) and (row.get("cpu") is None or _number(row["cpu"]))


def _json(line: str) -> Any:
    """A line's JSON, or None if it is not JSON (a merge's conflict marker, a cut
    line) or is nested past the parser."""
    try:
        return json.loads(line)
    except (ValueError, RecursionError):
        return None


def read_cache(path: Path | None = None) -> list[Record]:
    """The verdicts in the cache (none if it is absent), oldest first.  A line that
    is neither a verdict nor the header is skipped, with one warning line on stderr
    counting them: the cache is a convenience, and a corrupt one must not stop a
    proof that never needed it (a run without ``--cache`` trusts none of it)."""
    path = cache_path() if path is None else path
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        return []
    except OSError as exc:
        print(f"verdict cache {path}: unreadable ({exc.strerror or exc}), read as empty", file=sys.stderr)
        return []
    rows = [_json(line) for line in text.splitlines() if line.strip()]
    verdicts = [r for r in rows if verdict_row(r)]
    headers = [r for r in rows if isinstance(r, dict) and "about" in r and "verdict" not in r]
    skipped = len(rows) - len(verdicts) - len(headers)
    if skipped:
        print(f"verdict cache {path}: skipped {skipped} corrupt line(s) of {len(rows)}", file=sys.stderr)
    return verdicts


def compacted(records: Sequence[Record], holds: Holds) -> list[Record]:
    """The last verdict of each slice that ``holds`` for the code as it is; the others
    are stale (the code they proved is gone) and dropped."""
    test = _test(holds)
    last = {key(r): r for r in records if test(r)}
    return sorted(last.values(), key=lambda r: (r["mover"], r["pit"], -1 if r["n"] is None else r["n"]))


def write_cache(records: Sequence[Record], holds: Holds, path: Path | None = None) -> None:
    """Replace the cache, atomically, by its header and ``compacted(records, holds)``."""
    rows = [RULES_ABOUT if _engine == "rules" else ABOUT, *compacted(records, holds)]
    text = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)
    write_atomic(cache_path() if path is None else path, text)


def judged(records: Sequence[Record], holds: Holds, verdict: str) -> set[Slice]:
    """The slices whose last verdict that ``holds`` is ``verdict``."""
    return {key(r) for r in compacted(records, holds) if r["verdict"] == verdict}


CODE: Final = (":(glob)spec/**/*.py", ":(glob)impl/**/*.py", ":(glob)proofs/**/*.py")
"""The files whose changes a commit stamp notes (git pathspecs): code, not prose or this cache."""


def commit() -> str:
    """The commit the proof's code is at, ``+changes`` if its Python files differ from
    it; ``unknown`` outside a git work tree."""
    try:
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=True)
        diff = subprocess.run(["git", "diff", "--quiet", "HEAD", "--", *CODE], cwd=ROOT, check=False)
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return head.stdout.strip() + ("" if diff.returncode == 0 else "+changes")


# ─── proving ───────────────────────────────────────────────────────────────────


def run_one(s: Slice, timeout: float, engine: str = "paper") -> Record:
    """Prove one slice in a fresh process (its own z3 context), within ``timeout``,
    recording the functions the proof runs, its import included (``reads``: the
    fingerprint's part of the code, proofs/fingerprint.py)."""
    mover, m, n = s
    code = "\n".join(
        (
            "import resource",
            "from proofs.fingerprint import Reads",
            "with Reads() as reads:",
            f"    from {PROVERS[engine][0]} import {PROVERS[engine][1]} as prove_slice",
            f"    paths = prove_slice({mover}, {m}, {n!r})",
            "r = resource.getrusage(resource.RUSAGE_SELF)",
            "print(reads.text() or '-', paths, round(r.ru_utime + r.ru_stime, 1), sep='\\n')",
        )
    )
    reads: list[str] | None = None  # unknown unless the proof ended: the whole modules count
    start = time.perf_counter()
    try:
        done = subprocess.run(
            [sys.executable, "-c", code],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=timeout,
            env={**os.environ, "SPEC_CONTRACTS": "0", "PYTHONPATH": str(ROOT)},
        )
    except subprocess.TimeoutExpired:
        verdict, paths, cpu, detail = "timeout", None, None, f"no verdict within {timeout:.0f} s"
    else:
        lines, cpu = done.stdout.splitlines(), None
        if done.returncode == 0 and len(lines) >= 3 and lines[-2].isdigit():
            verdict, paths, cpu, detail = "proven", int(lines[-2]), float(lines[-1]), ""
            reads = sorted(F.parse_reads(lines[-3]))
        else:
            last = (done.stderr.strip().splitlines() or ["(no output)"])[-1]
            verdict, paths, detail = ("failed" if "AssertionError" in last else "error"), None, last
    return {
        "mover": mover,
        "pit": m,
        "n": n,
        "slice": name(s),
        "verdict": verdict,
        "paths": paths,
        "seconds": round(time.perf_counter() - start, 1),
        "cpu": cpu,
        "detail": detail,
        **({} if reads is None else {"reads": reads}),
    }


Task: TypeAlias = tuple["Slice", float, tuple[str, ...], str]
"""A slice, its time limit, the modules whose fingerprint the run expects, and the
engine (``PROVERS``' key) whose apply it proves."""


def prove(task: Task) -> Record:
    """A cluster's task: prove the slice, and say under which fingerprint the worker's
    own copy of the code proved it (a worker at another commit is caught by it)."""
    s, timeout, modules, engine = task
    r = run_one(s, timeout, engine)
    return {
        **r,
        "fingerprint": _worker_fingerprint(modules, reads_of(r)),
        "z3": z3.get_version_string(),
        "python": platform.python_version(),
        "host": platform.node(),
    }


def _failed_task(s: Slice, e: BaseException) -> Record:
    detail = f"{type(e).__name__}: {e}".strip()
    return {
        "mover": s[0],
        "pit": s[1],
        "n": s[2],
        "slice": name(s),
        "verdict": "error",
        "paths": None,
        "seconds": 0.0,
        "detail": detail,
    }


def records(runner: runners.Runner, tasks: Sequence[Task], keep_going: Callable[[], bool]) -> Iterator[Record]:
    """Each task's record as it completes on ``runner`` (a task that raised, or whose
    worker died, is an error record of its slice)."""
    for (s, _, _, _), outcome in runner.as_done(prove, tasks, keep_going=keep_going):
        yield _failed_task(s, outcome) if isinstance(outcome, Exception) else outcome


def status(records: Sequence[Record], holds: Holds, what: str = "slices proven") -> str:
    """How many slices hold for the code as it is, and what the rest are."""
    current = {key(r): r for r in compacted(records, holds)}
    fp = _label(holds)
    slices = every_slice()
    by_verdict: dict[str, list[Slice]] = {}
    for s in slices:
        by_verdict.setdefault(current[s]["verdict"] if s in current else "not run", []).append(s)
    seconds = sum(r["seconds"] for r in current.values() if r["verdict"] == "proven")
    lines = [f"fingerprint {fp}: {len(by_verdict.get('proven', []))} of {len(slices)} {what} ({seconds:.0f} s)"]
    for verdict in ("failed", "error", "timeout", "not run"):
        if verdict in by_verdict:
            shown = ", ".join(name(s) for s in by_verdict[verdict][:6])
            more = len(by_verdict[verdict]) - 6
            lines.append(f"  {verdict}: {len(by_verdict[verdict])} ({shown}{f', … {more} more' if more > 0 else ''})")
    return "\n".join(lines)


def cache_status(records: Sequence[Record], holds: Holds) -> str:
    """``--status``: what the cache holds for the code as it is, and for other code."""
    test = _test(holds)
    stale = len({key(r) for r in records if not test(r)})
    commits = sorted({r.get("commit", "?") for r in compacted(records, holds)})
    lines = [status(records, holds, "slices cached as proven for this code")]
    if commits:
        lines.append(
            f"  proven at: {', '.join(c[:12] + ('+changes' if c.endswith('+changes') else '') for c in commits)}"
        )
    if stale:
        lines.append(f"  stale: {stale} slices cached for other code (dropped at the next write)")
    cache = cache_path()
    shown = cache.relative_to(ROOT) if cache.is_relative_to(ROOT) else cache
    lines.append(f"  {shown} is a cache, not a proof: `python -m proofs.awari.slices` proves every slice")
    return "\n".join(lines)


def makespan(seconds: Sequence[float], workers: int) -> float:
    """The wall time of tasks of these durations dealt, in this order, each to the
    first worker free (list scheduling: what a cluster queueing tasks in submission
    order does, start-up and transfer costs aside)."""
    free = [0.0] * workers
    for t in seconds:
        heapq.heapreplace(free, free[0] + t)
    return max(free)


def projection(records: Sequence[Record], holds: Holds, workers: Sequence[int]) -> str:
    """``--projection``: the step's wall time on each count of workers, projected from
    the CPU seconds the cached proven slices took (their wall seconds for rows
    without the ``cpu`` field), in ``make proofs``' order (smallest stone counts first) and
    longest first, beside the bound max(total / W, longest)."""
    proven = [r for r in compacted(records, holds) if r["verdict"] == "proven"]
    fp = _label(holds)
    if not proven:
        return f"fingerprint {fp}: no slice cached as proven for this code; nothing to project from"
    timed = sum(r.get("cpu") is not None for r in proven)  # wall seconds swell with the machine's load; CPU does not
    ordered_slices = sorted(proven, key=lambda r: (-1 if r["n"] is None else r["n"], r["mover"], r["pit"]))
    in_order = [r["seconds"] if r.get("cpu") is None else r["cpu"] for r in ordered_slices]
    longest_first = sorted(in_order, reverse=True)
    total, longest = sum(in_order), max(in_order)  # total: the wall time on one worker
    lines = [
        f"fingerprint {fp}: {len(proven)} of {len(every_slice())} slices cached as proven, {total:.0f} s in all, "
        f"the longest {longest:.0f} s",
        f"projected, not measured: {timed} slices by their prover's CPU seconds (as if each worker had a free core), "
        f"{len(proven) - timed} by their wall seconds as recorded (at the load then); no start-up or transfer cost",
        "",
        "| workers | make proofs' order | longest first | bound | speed-up |",
        "|---:|---:|---:|---:|---:|",
    ]
    for w in workers:
        ordered = makespan(in_order, w)
        lines.append(
            f"| {w} | {ordered:.0f} s | {makespan(longest_first, w):.0f} s | {max(total / w, longest):.0f} s "
            f"| {total / ordered:.2f} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m proofs.awari.slices", description=__doc__.splitlines()[0])
    where = parser.add_mutually_exclusive_group()
    where.add_argument(
        "--scheduler",
        type=runners.scheduler_address,
        help="a Dask scheduler (tcp://HOST:PORT) instead of a local cluster",
    )
    where.add_argument(
        "--no-cluster", action="store_true", help="no Dask: --jobs threads here, each proving slices in subprocesses"
    )
    parser.add_argument("--jobs", type=int, default=1, help="worker processes of the local cluster (default 1)")
    parser.add_argument("--timeout", type=float, default=900.0, help="seconds a slice (default 900)")
    parser.add_argument("--for", dest="budget", type=float, default=0.0, help="start no slice after this many seconds")
    parser.add_argument(
        "--order", choices=("counts", "slices"), default="counts", help="smallest stone counts first, or every_slice's"
    )
    parser.add_argument(
        "--counts", type=int, nargs="+", metavar="N", help="only the own-pit slices with these stone counts (a sample)"
    )
    reuse = parser.add_mutually_exclusive_group()
    reuse.add_argument(
        "--cache", action="store_true", help="skip the slices the verdict cache holds as proven (development)"
    )
    reuse.add_argument("--fresh", action="store_true", help="read no cache: the default, kept for older commands")
    parser.add_argument(
        "--retry", action="store_true", help="with --cache: also rerun the slices that timed out before"
    )
    parser.add_argument(
        "--complete", action="store_true", help="exit 1 unless this run proved every slice (make proofs)"
    )
    parser.add_argument("--status", action="store_true", help="say what the verdict cache holds for this code and exit")
    parser.add_argument(
        "--projection",
        type=int,
        nargs="+",
        metavar="W",
        help="project the step's wall time on W workers from the cached slices' seconds, and exit",
    )
    parser.add_argument(
        "--engine",
        choices=tuple(PROVERS),
        default="paper",
        help="whose apply: ImplAwari's (the paper's rules, default) or RulesAwari's, every rule set at once",
    )
    args = parser.parse_args(argv)
    global _engine
    _engine = args.engine
    if args.jobs < 1 or args.timeout <= 0 or any(w < 1 for w in args.projection or ()):
        parser.error("--jobs, --timeout and --projection must be positive")
    if args.retry and not args.cache:
        parser.error("--retry is for --cache")
    modules = tuple(sources())
    code = Code(modules)
    fp = code.label
    cached = read_cache()
    if args.status:
        with quiet_on_a_closed_pipe():  # `--status | head`
            print(cache_status(cached, code))
        return 0
    if args.projection:
        with quiet_on_a_closed_pipe():
            print(projection(cached, code, args.projection))
        return 0
    skip = (
        judged(cached, code, "proven") | (set() if args.retry else judged(cached, code, "timeout"))
        if args.cache
        else set()
    )
    todo = [s for s in every_slice() if s not in skip]
    if args.counts:
        todo = [s for s in todo if s[2] in args.counts]
    if args.order == "counts":
        todo.sort(key=lambda s: (-1 if s[2] is None else s[2], s[0], s[1]))
    start = time.monotonic()
    stamp = {
        "command": shlex.join(["python", "-m", "proofs.awari.slices", *(sys.argv[1:] if argv is None else argv)]),
        "commit": commit(),
    }
    tasks = [(s, args.timeout, modules, _engine) for s in todo]

    def keep_going() -> bool:
        return not args.budget or time.monotonic() - start <= args.budget

    mine: list[Record] = []
    failed = 0
    cache_error = ""  # once the cache cannot be written, the run goes on without it
    print(f"{len(todo)} slices to prove, fingerprint {fp}", flush=True)
    # Each slice is proven in a subprocess: threads here suffice to wait on them.
    runs_on = runners.threads(args.jobs) if args.no_cluster else runners.dask(args.scheduler, args.jobs, memory_limit=0)
    with runs_on as runner:
        for r in records(runner, tasks, keep_going):
            ours = _worker_fingerprint(modules, reads_of(r))
            if r.get("fingerprint", ours) != ours:  # a worker's code is not this code: its verdict is not this proof's
                r = {
                    **r,
                    "verdict": "error",
                    "detail": f"the worker's code has fingerprint {r['fingerprint']}, not {ours}",
                }
            r = {**r, "fingerprint": ours, **stamp, "date": time.strftime("%Y-%m-%d")}
            mine.append(r)
            failed += r["verdict"] in ("failed", "error")
            cached = [*cached, r]
            cache_error = cache_error or _keep(cached, code)
            print(
                f"{len(mine):3}/{len(todo)} {r['verdict']:8} {r['seconds']:7.1f} s  {name(key(r))}  {r['detail']}",
                flush=True,
            )
    judged_now = [*read_cache(), *mine] if args.cache else mine
    print(status(judged_now, code))
    missing = len(every_slice()) - len(judged(judged_now, code, "proven"))
    return 1 if failed or (args.complete and missing) else 0


def _keep(records: Sequence[Record], holds: Holds) -> str:
    """Write the cache (``write_cache``); if it cannot be, say so once on stderr and
    give back why: the proof goes on, it never needed the cache."""
    try:
        write_cache(records, holds)
    except OSError as exc:
        why = exc.strerror or str(exc)
        print(f"verdict cache {cache_path()}: not written ({why}); the proof goes on without it", file=sys.stderr)
        return why
    return ""


if __name__ == "__main__":  # run as proofs.awari.slices, so a worker imports prove by that name
    from proofs.awari.slices import main as run

    sys.exit(run())
