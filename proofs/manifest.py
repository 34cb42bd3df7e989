"""The one list of proof steps: what each runs, over which scope, what it trusts, how
long it took, and whether it belongs to the bounded run (``make verify``) or only to
the full one (``make proofs``, ``make verify-deep``).  The Makefile runs the lists from
here and tests/proofs/test_manifest.py checks that proofs/README.md shows this table.

    python -m proofs.manifest --run bounded|full   run the steps, stop at the first failure
                                  [--jobs N]     N steps at once (make verify, make proofs: 2)
                                  [--scheduler tcp://HOST:PORT]  Dask tasks to that cluster
    python -m proofs.manifest --list bounded|full  print the commands
    python -m proofs.manifest --table              print the README's table

Times are wall-clock seconds measured on the 2-core development machine (proofs/README.md
says under which load); a step's time is its last measured figure, not a limit.  Steps
of proofs/awari/refinement*.py and proofs/gothello/refinement*.py join STEPS as more
entries (one ``Step`` each); nothing else needs to change.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Literal

from impl.cli import quiet_on_a_closed_pipe
from proofs.cluster import scheduler_address

Run = Literal["bounded", "full"]


@dataclass(frozen=True)
class Step:
    """One proof step: a ``python -m`` command and what it establishes."""

    name: str
    module: str
    args: tuple[str, ...]
    runs: frozenset[Run]
    """bounded: in ``make verify`` (and so in ``make proofs`` too, unless a full variant
    of the same module replaces it); full: in ``make proofs`` only."""
    scope: str
    trusts: str
    seconds: int
    measured: str = "idle, earlier run"
    """Under which conditions ``seconds`` was measured ("under load": other jobs sharing the machine)."""
    contracts: bool = True
    """False runs the spec without its contracts (SPEC_CONTRACTS=0): faster, so larger scopes."""
    cluster: bool = False
    """The step runs independent tasks on Dask and takes ``--scheduler`` (proofs/cluster.py)."""

    @property
    def argv(self) -> list[str]:
        return [sys.executable, "-m", self.module, *self.args]

    def argv_on(self, scheduler: str | None) -> list[str]:
        """The command, its tasks sent to the Dask cluster at ``scheduler`` if it runs any."""
        return [*self.argv, "--scheduler", scheduler] if scheduler and self.cluster else self.argv

    @property
    def command(self) -> str:
        prefix = "" if self.contracts else "SPEC_CONTRACTS=0 "
        return f"{prefix}python -m {' '.join([self.module, *self.args])}"


VARIANTS = ("olympiad-1990", "olympiad-1994", "abapa")
"""The named Awari rule sets other than the paper's (spec/awari_rules.py RULE_SETS)."""

BOTH: frozenset[Run] = frozenset({"bounded", "full"})
BOUNDED: frozenset[Run] = frozenset({"bounded"})
FULL: frozenset[Run] = frozenset({"full"})

Z3_CHECKED = (
    "z3 5.4; the encoding ≡ spec beyond the check the step runs first (sampled in tests/proofs/test_*_encoding.py)"
)
SPEC = "spec/ as executable Python"
REFINE = "z3 5.4; the engines' operators dispatched to proofs/symbolic.py's Sym; the z3 statements of the spec"
CLEAN_RUN = "make proofs on a clean clone, steps 2 at a time, load 3–4, 2026-11-26"
"""When the figures of the full run were taken (each step beside another one)."""
VERIFY_RUN = "idle, make verify on a clean clone, 2026-11-24"
"""When the figures of the bounded-only steps were taken."""
SLICES_SECONDS = 4300
"""Wall time of all 600 slices proven afresh on 2 processes."""
SLICES_MEASURED = (
    "all 600 slices proven afresh on the code before the re-floor of impl/: 8 678 CPU-s, ≈ 72 min on 2 processes "
    "(384 slices 2026-11-25, load 2–3; 216 on 2026-11-26, idle); on the moved code 226 of 600 so far, "
    "none failed (proofs/README.md §8.1)"
)
TODAY = "idle, make verify on a clean clone, 2026-11-26 (a slow day for the machine: README, 'On a fresh machine')"
"""When the bounded figures of the steps changed on 2026-11-26 were taken."""
BOUNDED_AWARI_SECONDS = 236
BOUNDED_AWARI_MEASURED = TODAY + "; 22 s before the engine-bug slices and the statement checks"
BOUNDED_GOTHELLO_SECONDS = 66
BOUNDED_GOTHELLO_MEASURED = (
    TODAY + "; 11 s before the capture region and the statement checks; the history classes added ≈ 11 CPU-s "
    "(2026-11-27, load 13), ≈ 6 s on 2 processes, projected"
)
RULES_AWARI_SECONDS = 60
RULES_AWARI_MEASURED = (
    "117 CPU-s on 2026-11-27 at load 9–13 (690 s of wall time there): ≈ 60 s on 2 idle cores, "
    "projected from its CPU time, not measured idle"
)
CROSSHAIR = "crosshair 0.0.112 finds what its canary shows it can find; nothing found is no proof"

STEPS: tuple[Step, ...] = (
    Step(
        "CrossHair over the spec contracts",
        "proofs.crosshair.contracts",
        ("--deep",),
        FULL,
        "61 of 69 targets (all but spec.z's direct ones and the wrapped Awari referee), 10 s CPU a condition",
        CROSSHAIR,
        2319,
        CLEAN_RUN,
    ),
    Step(
        "CrossHair diffbehavior, impl vs spec",
        "proofs.crosshair.diffbehavior",
        (),
        FULL,
        "5 pairs, 60 s CPU a pair (canary 20 s)",
        CROSSHAIR,
        291,
        CLEAN_RUN,
    ),
    Step(
        "hypothesis-crosshair backend",
        "proofs.crosshair.hypothesis_backend",
        (),
        FULL,
        "the differential properties, 10 examples each, no example database",
        CROSSHAIR + "; hypothesis 6.170",
        99,
        CLEAN_RUN,
    ),
    Step(
        "GothelloTurn well-founded, literal errata (z3)",
        "proofs.gothello.theorems",
        (),
        BOTH,
        "every 5×5 board, both sides, 26 actions, every history; first the encoding ≡ spec check "
        "(proofs/gothello/encoding_check.py: every square's adjacency and capture directions, 30 witness boards "
        "× 2 sides × 2 histories, groups on 10 boards), the placement laws' adjacency by coordinates",
        Z3_CHECKED,
        163,
        TODAY + "; 183 CPU-s at load 6–14 the same day, of which the encoding check ≈ 10",
    ),
    Step(
        "AwariRef corrected well-founded (z3)",
        "proofs.awari.theorems",
        (),
        BOTH,
        "every AwariBoard (Σ = 48), both sides, 12 actions, every positions set; first the encoding ≡ spec "
        "check at --stones 0, AwariBoard's predicate on its 60 edge cases and the 40 witnesses (≈ 7 CPU-s)",
        Z3_CHECKED,
        88,
        TODAY + "; 84 CPU-s at load ≈ 8 the same day, encoding check ≈ 7 (26 s before it, idle)",
    ),
    Step(
        "Awari encoding ≡ spec",
        "proofs.awari.encoding_check",
        ("--stones", "0"),
        BOUNDED,
        "the empty board: every score split near the thresholds, both sides, 12 actions, "
        "positions ∅/{θ}/{P'} (504 cases); AwariBoard's predicate ≡ the encoding's on 60 edge cases (totals "
        "46–50, a pit or a score of −1); 40 targeted witnesses (chains, laps, grand slam)",
        SPEC + "; z3 model evaluation",
        2,
        VERIFY_RUN,
    ),
    Step(
        "Awari encoding ≡ spec",
        "proofs.awari.encoding_check",
        ("--stones", "1"),
        FULL,
        "boards of ≤ 1 stone, as above (7 416 cases); the 60 predicate cases and 40 targeted witnesses",
        SPEC + "; z3 model evaluation",
        19,
        CLEAN_RUN,
    ),
    Step(
        "AwariRef literal + corrected, exhaustive",
        "proofs.awari.exhaustive",
        ("--stones", "3"),
        BOUNDED,
        "boards of ≤ 3 stones, band score splits, both sides, positions ∅/{θ}/{P'}",
        SPEC + "; the score-band argument (§1.3)",
        12,
        VERIFY_RUN,
        contracts=False,
    ),
    Step(
        "AwariRef literal + corrected, exhaustive",
        "proofs.awari.exhaustive",
        ("--stones", "4"),
        FULL,
        "boards of ≤ 4 stones, band score splits, both sides, positions ∅/{θ}/{P'}",
        SPEC + "; the score-band argument (§1.3)",
        76,
        CLEAN_RUN,
        contracts=False,
    ),
    Step(
        "AwariRef literal + corrected, exhaustive",
        "proofs.awari.exhaustive",
        ("--stones", "2", "--all-splits"),
        FULL,
        "boards of ≤ 2 stones, every score split (checks the band argument)",
        SPEC,
        10,
        CLEAN_RUN,
        contracts=False,
    ),
    Step(
        "AwariRef literal + corrected, exhaustive",
        "proofs.awari.exhaustive",
        ("--stones", "2"),
        FULL,
        "boards of ≤ 2 stones, band score splits, contracts on",
        SPEC,
        34,
        CLEAN_RUN,
    ),
    Step(
        "AwariRef well-founded under the rule sets, exhaustive",
        "proofs.awari.exhaustive_rules",
        ("--rules", *VARIANTS, "--stones", "2"),
        BOUNDED,
        "olympiad-1990, olympiad-1994, abapa: boards of ≤ 2 stones, 2 witness boards of 3, the 384 lap boards, "
        "band score splits, both sides, positions ∅/{θ}/{P'}",
        SPEC + "; the score-band argument (§1.3)",
        13,
        VERIFY_RUN,
        contracts=False,
    ),
    Step(
        "AwariRef well-founded under the rule sets, exhaustive",
        "proofs.awari.exhaustive_rules",
        ("--rules", "paper", *VARIANTS, "--stones", "4"),
        FULL,
        "every named rule set (the paper's through AwariRefUnder): boards of ≤ 4 stones and the 384 lap boards, "
        "band score splits, both sides, positions ∅/{θ}/{P'}",
        SPEC + "; the score-band argument (§1.3)",
        123,
        CLEAN_RUN,
        contracts=False,
    ),
    Step(
        "AwariRef well-founded under the rule sets, exhaustive",
        "proofs.awari.exhaustive_rules",
        ("--rules", "paper", *VARIANTS, "--stones", "2", "--all-splits", "--no-laps"),
        FULL,
        "every named rule set: boards of ≤ 2 stones and 2 witness boards of 3, every score split (checks the band "
        "argument)",
        SPEC,
        16,
        CLEAN_RUN,
        contracts=False,
    ),
    Step(
        "AwariRef well-founded under the rule sets, exhaustive",
        "proofs.awari.exhaustive_rules",
        ("--rules", *VARIANTS, "--stones", "2", "--no-laps"),
        FULL,
        "olympiad-1990, olympiad-1994, abapa: boards of ≤ 2 stones and 2 witness boards of 3, band score splits, "
        "contracts on",
        SPEC,
        76,
        CLEAN_RUN,
    ),
    Step(
        "spec ≡ impl, Awari",
        "proofs.equivalence",
        ("awari", "--stones", "2"),
        BOUNDED,
        "boards of ≤ 2 stones, every score split, both sides, positions ∅/{θ}/{P'}; 384 lap boards",
        SPEC + "; impl via get_engine",
        13,
        VERIFY_RUN,
        contracts=False,
    ),
    Step(
        "spec ≡ impl, Awari",
        "proofs.equivalence",
        ("awari", "--stones", "4"),
        FULL,
        "boards of ≤ 4 stones, every score split, both sides, positions ∅/{θ}/{P'}; 384 lap boards",
        SPEC + "; impl via get_engine",
        153,
        CLEAN_RUN,
        contracts=False,
    ),
    Step(
        "spec ≡ impl, Awari",
        "proofs.equivalence",
        ("awari", "--stones", "2"),
        FULL,
        "boards of ≤ 2 stones, contracts on; 384 lap boards",
        SPEC + "; impl via get_engine",
        327,
        CLEAN_RUN,
    ),
    Step(
        "spec ≡ impl, Awari, every rule set on RulesAwari",
        "proofs.equivalence",
        ("awari", "--stones", "2", "--band", "--all-rules"),
        BOUNDED,
        "each of the 30 rule sets the server accepts (spec/awari_rules.py ALL_COMBINATIONS, the named ones among "
        "them) on RulesAwari itself: boards of ≤ 2 stones, band score splits, both sides, positions ∅/{θ}/{P'}; "
        "the 288 boards with a pit of 12, 17 or 22 stones (north one short of 25) under the named sets and one "
        "combination of each other grand-slam rule",
        SPEC + "; the score-band argument (§1.3); RulesAwari",
        RULES_AWARI_SECONDS,
        RULES_AWARI_MEASURED,
        contracts=False,
    ),
    *(
        Step(
            f"spec ≡ impl, Awari, {rules} rules",
            "proofs.equivalence",
            ("awari", "--stones", "2", "--rules", rules),
            FULL,
            f"as the paper's at ≤ 2 stones, under the {rules} rule set (spec/awari_rules.py)",
            SPEC + "; impl via get_engine",
            15,
            CLEAN_RUN + " (14–17 s for the three sets)",
            contracts=False,
        )
        for rules in ("olympiad-1990", "olympiad-1994", "abapa")
    ),
    Step(
        "spec ≡ impl, Gothello",
        "proofs.equivalence",
        ("gothello", "--plies", "3"),
        FULL,
        "every state within 3 plies of the start, 26 actions each",
        SPEC + "; impl via get_engine",
        22,
        CLEAN_RUN,
        contracts=False,
    ),
    Step(
        "spec ≡ impl, Gothello",
        "proofs.equivalence",
        ("gothello", "--plies", "2"),
        BOTH,
        "every state within 2 plies of the start, 26 actions each, contracts on",
        SPEC + "; impl via get_engine",
        15,
        CLEAN_RUN,
    ),
    Step(
        "impl refines spec, Awari (README §8.1)",
        "proofs.awari.refinement",
        ("--bounded",),
        BOUNDED,
        "the sowing table and feeds on a starved row, exhaustively; the capture walk (last pit a, f), feeds, "
        "_row_sum, _cannot_feed over every row, pack/unpack over every board, by the engine's own code on z3 "
        "terms; is_over for south and apply on three slices (south sows 1 from A, 3 from D: a capture, 13 from F: "
        "a lap and a capture), every board, every positions set; the referee's statement ≡ spec.awari.referee on "
        "the 40 witnesses (chains, laps of 11/12/22/33, grand slam) and on the empty board and 30 corner states",
        REFINE,
        BOUNDED_AWARI_SECONDS,
        BOUNDED_AWARI_MEASURED,
        contracts=False,
        cluster=True,
    ),
    Step(
        "impl refines spec, Awari (README §8.1)",
        "proofs.awari.refinement",
        (),
        FULL,
        "the primitives as above, every last pit; is_over and legal_moves on every AwariBoard (Σ = 48), both "
        "sides, every positions set; apply on the 12 slices of the opponent's pits and on south sowing 1 from F "
        "(a capture); the referee's statement ≡ spec.awari.referee on the 40 witnesses, boards of ≤ 2 stones and "
        "300 corner states; "
        "apply on the other 587 slices of the own pits: the next step",
        REFINE,
        304,
        CLEAN_RUN + ", in 2 processes (280 s on 2026-11-25)",
        contracts=False,
        cluster=True,
    ),
    Step(
        "impl refines spec, Awari: apply on every slice (README §8.1)",
        "proofs.awari.slices",
        ("--jobs", "2", "--timeout", "7200", "--complete"),
        FULL,
        "apply on all 600 slices (side to move, action, stones in the action's pit): every AwariBoard (Σ = 48), "
        "every positions set, all 12 actions; every slice proven by this run, as tasks on an embedded Dask "
        "cluster of 2 workers: no verdict is read from the verdict cache proofs/awari/verdict-cache.jsonl, "
        "which only --cache reads",
        REFINE,
        SLICES_SECONDS,
        SLICES_MEASURED,
        contracts=False,
        cluster=True,
    ),
    Step(
        "impl refines spec, Gothello (README §8.2)",
        "proofs.gothello.refinement",
        ("--bounded",),
        BOUNDED,
        "adjacency, abstraction, dilation over every set; closure for a corner, an edge and the centre; group, "
        "liberties, placement and the legal-square test for the corner square a1 on stones within a1–b2; "
        "placement at a1 on stones within a1–a3, b1, b2, c1 (captures from both sides, blocked though it would "
        "capture); apply on pass, every board, side and history; legal_moves' decode on 1 120 masks; legal_moves "
        "and is_over on every board and side, the empty history; the referee's statement ≡ spec.gothello.referee "
        "on 60 witness states and every board within a1–b2 (810 cases), and on every history class the "
        "abstraction tells apart (11: ⟨⟩, ⟨pass⟩, ⟨m⟩, ⟨pass, pass⟩, ⟨pass, m⟩, ⟨m, pass⟩, ⟨m, m⟩, and these "
        "with a tail), each on every board within a1–b2 placing at a1 and passing, and the witnesses passing "
        "(3 894 cases)",
        REFINE,
        BOUNDED_GOTHELLO_SECONDS,
        BOUNDED_GOTHELLO_MEASURED,
        contracts=False,
        cluster=True,
    ),
    Step(
        "impl refines spec, Gothello (README §8.2)",
        "proofs.gothello.refinement",
        (),
        FULL,
        "adjacency, abstraction, dilation, closure over every set; group, liberties, placement and the "
        "legal-square test for every one of the 25 squares, every board; legal_moves' decode on all 2²⁵ masks; "
        "apply on all 26 actions, legal_moves and is_over, every board, side and history; the referee's "
        "statement ≡ spec.gothello.referee on 60 witness states and every board within a1–c2 (10 206 cases), and "
        "under each of the 11 history classes on every board within a1–c2 and the witnesses, every action "
        "(112 926 cases)",
        REFINE,
        3546,
        CLEAN_RUN + ", in 2 processes (4 739 s at load 3–5.5 on 2026-11-24); 3 231 s before the history classes, "
        "which add ≈ 57 CPU-s a class (2026-11-27, load 13), ≈ 315 s on 2 processes, projected",
        contracts=False,
        cluster=True,
    ),
)


def steps(run: Run) -> list[Step]:
    return [s for s in STEPS if run in s.runs]


def table() -> str:
    """The README's proof table: one row per step, in run order."""
    rows = [
        "| step | command | make verify | make proofs | scope | trusts | time |",
        "|---|---|---|---|---|---|---|",
    ]
    for s in STEPS:
        mark = {True: "✓", False: ""}
        rows.append(
            f"| {s.name} | `{s.command}` | {mark['bounded' in s.runs]} | {mark['full' in s.runs]} "
            f"| {s.scope} | {s.trusts} | ≈ {s.seconds} s ({s.measured}) |"
        )
    sums = {run: sum(s.seconds for s in STEPS if run in s.runs) for run in ("bounded", "full")}
    rows += [
        "",
        f"The steps' last measured times add up to ≈ {sums['full'] / 60:.0f} min for `make proofs` and "
        f"≈ {sums['bounded'] / 60:.0f} min for `make verify`'s proof steps (each list runs two steps at a time; "
        "§8.4 says what a whole run of `make proofs` takes).",
    ]
    return "\n".join(rows)


def _run_one(s: Step, quiet: bool, scheduler: str | None = None) -> tuple[float, int, str]:
    """Run one step: (seconds, exit status, its output when ``quiet``, else "")."""
    t0 = time.perf_counter()
    env = {**os.environ, **({} if s.contracts else {"SPEC_CONTRACTS": "0"})}
    if not quiet:  # one step at a time: its output goes straight through
        code = subprocess.run(s.argv_on(scheduler), env=env, check=False).returncode
        return time.perf_counter() - t0, code, ""
    done = subprocess.run(
        s.argv_on(scheduler), env=env, check=False, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    return time.perf_counter() - t0, done.returncode, done.stdout


def run_steps(run: Run, keep_going: bool, jobs: int = 1, scheduler: str | None = None) -> int:
    """Run the steps, ``jobs`` at a time; the first failure ends the run (no step
    starts after it) unless ``keep_going``.  The steps that run tasks on Dask send
    them to the cluster at ``scheduler``, if given, instead of an embedded one.  One at a time, each step's output goes
    straight through; several at a time, the longest start first (by their last
    measured time) and each step's output is printed whole when it ends."""
    start = time.perf_counter()
    todo = steps(run)
    if jobs > 1:
        todo.sort(key=lambda s: -s.seconds)
    failed: list[str] = []
    timings: dict[Step, tuple[float, int]] = {}
    lock = threading.Lock()

    def one(s: Step) -> None:
        if failed and not keep_going:
            return
        if jobs == 1:
            print(f"\n=== {s.name}: {s.command}", flush=True)
        seconds, code, output = _run_one(s, quiet=jobs > 1, scheduler=scheduler)
        with lock:
            if jobs > 1:
                print(f"\n=== {s.name}: {s.command}\n{output}", end="", flush=True)
            timings[s] = seconds, code
            if code != 0:
                failed.append(s.command)

    with ThreadPoolExecutor(jobs) as pool:
        list(pool.map(one, todo))
    print(f"\n=== {run} proof steps ({jobs} at a time)")
    for s in steps(run):
        if s in timings:
            seconds, code = timings[s]
            print(f"  {'ok  ' if code == 0 else 'FAIL'} {seconds:7.1f} s  (expected ≈ {s.seconds} s)  {s.command}")
    print(f"  total {time.perf_counter() - start:.1f} s")
    print("OK" if not failed else f"FAILED: {', '.join(failed)}")
    return 1 if failed else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    what = parser.add_mutually_exclusive_group(required=True)
    what.add_argument("--run", choices=("bounded", "full"), help="run the steps")
    what.add_argument("--list", choices=("bounded", "full"), help="print the commands")
    what.add_argument("--table", action="store_true", help="print the README's table")
    parser.add_argument("--keep-going", action="store_true", help="run every step even after a failure")
    parser.add_argument("--jobs", type=int, default=1, help="steps run at once (default 1)")
    parser.add_argument(
        "--scheduler",
        type=scheduler_address,
        help="a Dask scheduler (tcp://HOST:PORT) for the steps that run tasks on Dask, instead of embedded clusters",
    )
    args = parser.parse_args(argv)
    if args.jobs < 1:
        parser.error("--jobs must be positive")
    if args.table:
        with quiet_on_a_closed_pipe():  # `--table | head`
            print(table())
        return 0
    if args.list:
        with quiet_on_a_closed_pipe():
            for s in steps(args.list):
                print(s.command)
        return 0
    return run_steps(args.run, args.keep_going, args.jobs, args.scheduler)


if __name__ == "__main__":
    sys.exit(main())
