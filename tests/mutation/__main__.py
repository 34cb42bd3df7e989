"""``make mutate``: mutation testing of impl/ and spec/ against the tests ``make verify`` runs.

    python -m tests.mutation [--per-file N] [--seed S] [--files F ...] [--only ID ...] [--full]
                             [--rerun-survivors] [--resume] [--save-progress] [--try TEST ...]
                             [--jobs J] [--timeout SECS]

Each mutant (tests/mutation/mutator.py) is written into a scratch copy of spec/, impl/,
proofs/ and tests/ in a temporary directory, never into the work tree, and judged there
under ``nice`` with ``-x``, a per-mutant timeout and the ci hypothesis profile with a
fixed seed and no example database, so a given mutant is killed in every run or in none.
Every mutant by default; ``--per-file N`` draws a seeded sample, round-robin over the
operators so that no operator crowds out the others.

Two passes: the first tier (``quick``: the golden corpus, and for the spec its rule
tests) over every mutant, then the whole kill-suite (``suite``) over the first tier's
survivors: the game's tests from ``make verify`` that can see the mutated file —
golden, corner, mutant, perft and differential tests and the rule sets, and for the
spec its rules, errata, contract and property tests too; the long lock-step state
machines (over 2 minutes a run) only with ``--full``.  A mutant is *killed* when a test
fails, errors or times out, *survived* when the suite passes.  Each copy has a fork
server (tests/mutation/worker.py), so no mutant pays for starting Python and pytest.

Each judged mutant is appended to .mutation-progress.jsonl as it is judged (``--resume``
goes on from it; ``--save-progress`` writes the report of an interrupted run).  Results
go to tests/mutation/results/mutation-results.json (the record) and mutation-report.md beside it (generated from
it and tests/mutation/verdicts.py, which judges every survivor).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Final

from . import report
from .mutator import Mutant, is_valid, mutants
from .verdicts import EQUIVALENT

ROOT: Final = Path(__file__).resolve().parents[2]
TARGETS: Final = ("impl/engines/awari.py", "impl/engines/gothello.py", "spec/awari.py", "spec/gothello.py")
RESULTS: Final = ROOT / "tests" / "mutation" / "results" / "mutation-results.json"
REPORT: Final = RESULTS.with_name("mutation-report.md")
"""Generated output, beside the tool (not in docs/): the record and the report made from it."""
PROGRESS: Final = ROOT / ".mutation-progress.jsonl"
"""Each judged mutant as it is judged, so that ``--resume`` can go on after an interruption."""
SEED: Final = 2026
PER_FILE: Final = 15
_COPIED: Final = ("spec", "impl", "tests", "proofs", "pyproject.toml")
# pytest's short summary line: "FAILED tests/x.py::name[param, with spaces] - message".
_FAILED: Final = re.compile(r"^(?:FAILED|ERROR) (.+?)(?: - |$)", re.MULTILINE)


@dataclass(frozen=True)
class Outcome:
    """What the kill-suite did with one mutant."""

    status: str  # killed | survived | timeout | invalid
    seconds: float
    killer: str  # the first failing test, "" when none
    tier: str = "suite"  # which tier judged it: quick (the first) or suite (the whole kill-suite)


def game_of(path: str) -> str:
    """The game a target file belongs to."""
    return "awari" if "awari" in path else "gothello"


def suite(root: Path, path: str, full: bool) -> list[str]:
    """pytest arguments of the kill-suite for mutants of ``path``, in the copy ``root``.

    The tests that can see the file, the likeliest killers first: the golden corpus
    (tests/engines/test_golden.py), then for an engine its rule witnesses, corner cases,
    perft, the differential tests and the rule sets; for the spec, its rules, errata and
    contract tests first.  Paths are relative to tests/."""
    tests = root / "tests"
    game = game_of(path)
    mine = [f"engines/test_{game}_rule_witnesses.py", f"engines/test_corners_{game}.py"]
    variants = ["spec/test_rules_variants.py"] if game == "awari" else []
    diff = "engines/test_differential.py"  # both games: "-k" below keeps this one's
    if path.startswith("impl/"):  # the rules, errata and property tests of the spec never run an engine
        names = ["engines/test_golden.py", *mine, "engines/test_perft.py", *variants, diff]
    else:
        names = ["engines/test_golden.py", f"spec/test_rules_{game}.py", f"spec/test_errata_{game}.py"]
        names += [
            f"spec/test_contracts_{game}.py",
            *mine,
            "spec/test_rule_and_contract_witnesses.py",
            f"spec/test_{game}_schema_witnesses.py",
            "spec/test_properties.py",
            "engines/test_perft.py",
            diff,
            *variants,
        ]
    files = [f"tests/{name}" for name in dict.fromkeys(names) if (tests / name).exists()]
    other = "gothello" if game == "awari" else "awari"
    args = [*files, "-m", "not deep", "-k", f"not {other}"]
    if not full:
        args += ["--deselect", f"tests/{diff}::Test{game.capitalize()}Lockstep"]
    if path.startswith("impl/"):  # the golden corpus holds every one of these laps (16 s of spec time)
        args += ["--deselect", "tests/engines/test_corners_awari.py::test_every_lap_into_a_starved_row_is_judged_alike"]
    return args


def quick(root: Path, path: str) -> list[str]:
    """The first tier: the tests that kill most mutants in a second or two — the golden
    corpus (the engines on every pinned state), the pinned perft counts and the rule
    witnesses for an engine; for the spec its rule-sentence tests, its schema witnesses and
    the corpus on a spread of states.  A mutant they kill is killed; the others run the
    whole ``suite``."""
    game = game_of(path)
    if not path.startswith("impl/"):
        tests = [
            f"tests/spec/test_rules_{game}.py",
            f"tests/engines/test_golden.py::test_spec_answers_as_the_corpus[{game}]",
        ]
        mine = f"tests/spec/test_{game}_schema_witnesses.py"
    else:
        tests = [f"tests/engines/test_golden.py::test_engines_answer_as_the_corpus[{game}]"]
        tests.append(f"tests/engines/test_perft.py::test_pinned_counts_fast[{game}]")
        if game == "awari":
            tests.append(
                "tests/spec/test_rules_variants.py::test_rules_engine_with_the_papers_rules_is_the_fast_engine"
            )
        mine = f"tests/engines/test_{game}_rule_witnesses.py"
    return tests + ([mine] if (root / mine).exists() else [])


def sample(found: Sequence[Mutant], per_file: int, seed: int) -> list[Mutant]:
    """A seeded sample of ``per_file`` mutants, drawn round-robin over the operators."""
    by_operator: dict[str, list[Mutant]] = {}
    for m in found:
        by_operator.setdefault(m.operator, []).append(m)
    rng = random.Random(f"{seed}:{found[0].path}" if found else str(seed))
    queues = [rng.sample(ms, len(ms)) for _, ms in sorted(by_operator.items())]
    chosen: list[Mutant] = []
    while len(chosen) < per_file and any(queues):
        for queue in queues:
            if queue and len(chosen) < per_file:
                chosen.append(queue.pop())
    return sorted(chosen, key=lambda m: m.index)


class Scratch:
    """A scratch copy of ``names`` under ``root`` (the sources and the tests), where one
    mutant at a time is written; the work tree itself is only read."""

    def __init__(self, root: Path = ROOT, names: Sequence[str] = _COPIED) -> None:
        self.root = root
        self.worker: subprocess.Popen[str] | None = None
        self.dir = Path(tempfile.mkdtemp(prefix="zreferee-mutate-"))
        ignore = shutil.ignore_patterns("__pycache__", "*.so", "*.pyd", ".hypothesis")
        for name in names:
            src = root / name
            if src.is_dir():
                shutil.copytree(src, self.dir / name, ignore=ignore)
            else:
                shutil.copy2(src, self.dir / name)

    def env(self) -> dict[str, str]:
        env = dict(os.environ)
        env.update(PYTHONPATH=str(self.dir), PYTHONDONTWRITEBYTECODE="1", HYPOTHESIS_PROFILE="ci", PYTHONHASHSEED="0")
        return env

    def check_imports(self, modules: Sequence[str] = ("spec.awari", "impl.engines.gothello")) -> None:
        """The scratch copy, not the installed work tree, is what the tests import."""
        code = f"import {', '.join(modules)}; " + "; ".join(f"print({m}.__file__)" for m in modules)
        out = subprocess.run(
            [sys.executable, "-c", code], cwd=self.dir, env=self.env(), capture_output=True, text=True, check=True
        ).stdout
        if any(not line.startswith(str(self.dir)) for line in out.split()):
            raise SystemExit(f"mutate: the tests would not import the scratch copy:\n{out}")

    def run(self, mutant: Mutant | None, args: list[str], timeout: float, tier: str = "suite") -> Outcome:
        """Write ``mutant`` (None: no mutant) into the copy, run the suite, restore the file."""
        target = self.dir / mutant.path if mutant else None
        original = (self.root / mutant.path).read_bytes() if mutant else b""
        if mutant and target:
            if not is_valid(mutant, original):
                return Outcome("invalid", 0.0, "", tier)
            target.write_bytes(mutant.apply(original))
        shutil.rmtree(self.dir / ".hypothesis", ignore_errors=True)
        args = ["-x", "-q", "-p", "no:cacheprovider", "--hypothesis-seed=0", "-o", "addopts=", *args]
        start = time.monotonic()
        try:
            code, out = self._pytest(args, timeout)
            status = "timeout" if code is None else "survived" if code == 0 else "killed"
            found = _FAILED.search(out)
            killer = found.group(1) if found else ("" if code in (0, None) else f"exit {code}")
        finally:
            if target:
                target.write_bytes(original)
        return Outcome(status, round(time.monotonic() - start, 1), killer, tier)

    def _pytest(self, args: list[str], timeout: float) -> tuple[int | None, str]:
        """pytest ``args`` through this copy's fork server (tests/mutation/worker.py)."""
        if self.worker is None:
            self.worker = subprocess.Popen(
                [sys.executable, str(Path(__file__).with_name("worker.py"))],  # a file: any copy can run it
                cwd=self.dir, env=self.env(), stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
            )  # fmt: skip
        assert self.worker.stdin and self.worker.stdout
        self.worker.stdin.write(json.dumps({"args": args, "timeout": timeout}) + "\n")
        self.worker.stdin.flush()
        reply = json.loads(self.worker.stdout.readline())
        return reply["code"], reply["out"]

    def remove(self) -> None:
        if self.worker is not None:
            self.worker.kill()
            self.worker.wait()
        shutil.rmtree(self.dir, ignore_errors=True)


def _record(m: Mutant, outcome: Outcome) -> dict[str, Any]:
    fields = {k: v for k, v in asdict(m).items() if k not in ("start", "end", "replacement")}
    return {"id": m.id, **fields, **asdict(outcome)}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.mutation", description=__doc__.split("\n")[0])
    parser.add_argument(
        "--per-file", type=int, default=None, help=f"a seeded sample of N mutants a file (e.g. {PER_FILE})"
    )
    parser.add_argument("--all", action="store_true", help="every mutant (the default; kept for old command lines)")
    parser.add_argument("--seed", type=int, default=SEED, help=f"sampling seed (default {SEED})")
    parser.add_argument("--files", nargs="+", choices=TARGETS, default=list(TARGETS))
    parser.add_argument("--only", nargs="+", default=[], metavar="ID", help="just these mutants (path#index)")
    parser.add_argument("--rerun-survivors", action="store_true", help="rerun the recorded survivors only")
    parser.add_argument("--full", action="store_true", help="include the lock-step state machines")
    parser.add_argument("--jobs", type=int, default=2, help="scratch copies run in parallel (default 2)")
    parser.add_argument("--timeout", type=float, default=0.0, help="seconds a mutant (default: 4 x the clean run)")
    parser.add_argument("--list", action="store_true", help="list the chosen mutants and exit")
    parser.add_argument("--render", action="store_true", help="rewrite the report from the record and exit")
    parser.add_argument(
        "--try",
        dest="try_tests",
        nargs="+",
        default=[],
        metavar="TEST",
        help="run these pytest arguments against the chosen mutants (with --only) and exit",
    )
    parser.add_argument("--resume", action="store_true", help=f"go on from {PROGRESS.name} after an interruption")
    parser.add_argument("--save-progress", action="store_true", help=f"write the report from {PROGRESS.name} and exit")
    options = parser.parse_args(argv)
    if options.render:
        REPORT.write_text(report.render(json.loads(RESULTS.read_text())))
        return 0

    previous = json.loads(RESULTS.read_text()) if RESULTS.exists() else {"mutants": []}
    chosen: list[Mutant] = []
    for path in options.files:
        found = list(mutants(path, (ROOT / path).read_bytes()))
        if options.rerun_survivors:
            keys = {r["key"] for r in previous["mutants"] if r["status"] == "survived" and r["path"] == path}
            chosen += [m for m in found if m.key in keys]
        elif options.only:
            chosen += [m for m in found if m.id in options.only]
        else:
            chosen += found if options.per_file is None else sample(found, options.per_file, options.seed)
    if options.try_tests:  # does this test kill these mutants?  The record is not touched.
        scratch = Scratch()
        try:
            for m in chosen:
                outcome = scratch.run(m, options.try_tests, timeout=options.timeout or 600)
                print(f"{m.id:22} {outcome.status:8} {outcome.seconds:6.1f}s  {m.before[:40]} → {m.after[:40]}")
        finally:
            scratch.remove()
        return 0
    if options.list:
        for m in chosen:
            print(f"{m.id}\t{m.line}\t{m.function}\t{m.operator}\t{m.before} → {m.after}")
        return 0

    # --resume: the mutants an interrupted run of the same choice already judged.
    done: dict[str, dict[str, Any]] = {}
    if (options.resume or options.save_progress) and PROGRESS.exists():
        for line in PROGRESS.read_text().splitlines():
            r = json.loads(line)
            done[r["id"]] = r
    else:
        PROGRESS.unlink(missing_ok=True)
    key_of = {m.id: m.key for m in chosen}
    done = {i: r for i, r in done.items() if key_of.get(i) == r["key"]}  # the last record of each wins
    todo = [m for m in chosen if m.id not in done]
    resumed_seconds = sum(float(r["seconds"]) for r in done.values()) / max(1, options.jobs)
    if options.save_progress:  # the report of an interrupted run: what it judged so far
        judged = [done[m.id] for m in chosen if m.id in done]
        settings = {
            "seed": options.seed,
            "per_file": "all" if options.per_file is None else options.per_file,
            "full": options.full,
            "jobs": options.jobs,
            "judged": f"{len(judged)} of {len(chosen)}",
        }
        report.save(RESULTS, REPORT, previous, judged, resumed_seconds, rerun=False, settings=settings)
        return 0
    if done:
        print(f"resuming: {len(done)} mutants judged already, {len(todo)} to go", flush=True)

    # A SIGTERM (make interrupted, a timeout) unwinds through ``finally``, removing the copies.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(128 + signal.SIGTERM))
    load = round(os.getloadavg()[0], 1)
    scratches = [Scratch() for _ in range(max(1, options.jobs))]
    try:
        scratches[0].check_imports()
        timeouts: dict[tuple[str, str], float] = {}
        for path in sorted({m.path for m in chosen}):
            root = scratches[0].dir
            for tier, args in (("quick", quick(root, path)), ("suite", suite(root, path, options.full))):
                clean = scratches[0].run(None, args, timeout=3600)
                if clean.status != "survived":
                    raise SystemExit(f"mutate: the {tier} tier of {path} fails without a mutant ({clean.killer})")
                timeouts[path, tier] = options.timeout or max(30.0 if tier == "quick" else 60.0, 4 * clean.seconds)
                print(f"clean {tier} tier of {path}: {clean.seconds:.0f} s, timeout {timeouts[path, tier]:.0f} s")
        free = list(scratches)

        def one(m: Mutant, tier: str, before: Outcome | None = None) -> dict[str, Any]:
            scratch = free.pop()
            try:
                args = quick(scratch.dir, m.path) if tier == "quick" else suite(scratch.dir, m.path, options.full)
                outcome = scratch.run(m, args, timeouts[m.path, tier], tier=tier)
            finally:
                free.append(scratch)
            if before:  # the time of both tiers
                outcome = Outcome(outcome.status, round(before.seconds + outcome.seconds, 1), outcome.killer, tier)
            print(f"{m.id:22} {tier:5} {outcome.status:8} {outcome.seconds:6.1f}s  {m.operator:12} "
                  f"{m.before[:40]} → {m.after[:40]}  {outcome.killer}", flush=True)  # fmt: skip
            record = _record(m, outcome)
            with PROGRESS.open("a") as progress:  # kept across an interruption (--resume)
                progress.write(json.dumps(record, ensure_ascii=False) + "\n")
            return record

        def two(m: Mutant) -> dict[str, Any]:
            """The first tier again (its tests may have grown since a resumed run judged the
            mutant), then the whole suite — unless the mutant is judged equivalent
            (tests/mutation/verdicts.py), which no suite can kill."""
            again = one(m, "quick")
            if again["status"] != "survived" or m.key in EQUIVALENT:  # judged: no test can kill it
                return again
            return one(m, "suite", Outcome(again["status"], again["seconds"], again["killer"], "quick"))

        # Two passes: the first tier over every mutant, then the whole suite over its
        # survivors, so that an interrupted run has judged every mutant at least once.
        started = time.monotonic()
        by_id = {m.id: m for m in chosen}
        with ThreadPoolExecutor(max_workers=len(scratches)) as pool:
            done.update({r["id"]: r for r in pool.map(lambda m: one(m, "quick"), todo)})
            pending = [r for r in done.values() if r["status"] == "survived" and r.get("tier") == "quick"]
            pending.sort(key=lambda r: (r["path"], r["index"]))
            print(f"first tier done: {len(pending)} survivors go to the whole suite", flush=True)
            done.update({r["id"]: r for r in pool.map(lambda r: two(by_id[r["id"]]), pending)})
        elapsed = time.monotonic() - started + resumed_seconds
        records = [done[m.id] for m in chosen]
    finally:
        for scratch in scratches:
            scratch.remove()

    report.save(RESULTS, REPORT, previous, records, elapsed, rerun=options.rerun_survivors or bool(options.only),
                settings={"seed": options.seed, "per_file": "all" if options.per_file is None else options.per_file,
                          "full": options.full, "jobs": options.jobs, "load": load})  # fmt: skip
    survivors = [r for r in records if r["status"] == "survived"]
    print(f"{len(records)} mutants, {len(survivors)} survived, {elapsed:.0f} s; report: {REPORT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
