"""The one list of proof steps: what each runs, over which scope, what it trusts, how
long it took, and whether it belongs to the bounded run (``make verify``) or only to
the full one (``make proofs``, ``make verify-deep``).  The Makefile runs the lists from
here and tests/proofs/test_manifest.py checks that proofs/README.md shows this table.

    python -m proofs.manifest --run bounded|full   run the steps, stop at the first failure
                                  [--jobs N]     on N cores (make verify, make proofs: 2)
                                  [--scheduler tcp://HOST:PORT]  Dask tasks to that cluster
                                  [--record]     write the figures into proofs/measured.json
    python -m proofs.manifest --list bounded|full  print the commands
    python -m proofs.manifest --plan bounded|full [--jobs N]  the schedule the last figures project
    python -m proofs.manifest --table              print the README's table

Each step says its expected result (``Step.expect``): a step passes when it exits 0
and its output shows that result.  The figures — wall and CPU seconds, the load, the
date and commit — are data in proofs/measured.json, written by ``--record`` (make
proofs records its run), never a limit.  Steps
of proofs/awari/refinement*.py and proofs/gothello/refinement*.py join STEPS as more
entries (one ``Step`` each); nothing else needs to change.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Literal

from impl.atomic import write_output
from impl.cli import quiet_on_a_closed_pipe
from impl.tasks import scheduler_address

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
    expect: tuple[str, ...] = ("OK",)
    """The step's expected result: text each of which some line of its output must
    contain, besides its exit status 0 — its verdict line and, where the run is
    deterministic, its counts of cases, so that a step that checks less than it did
    fails too (as TLA+ Examples' manifest records each model's expected result and
    state count).  ``--run … --record`` prints each step's result lines."""
    contracts: bool = True
    """False runs the spec without its contracts (SPEC_CONTRACTS=0): faster, so larger scopes."""
    cluster: bool = False
    """The step runs independent tasks on Dask and takes ``--scheduler`` (impl/tasks.py)."""
    projected: float | None = None
    """Wall seconds for a step never measured, projected from the figures of what it was
    cut from: only to order and plan the run (``longest_first``, ``plan``) until the step
    has a figure of its own; never written as a figure."""
    cores: int = 2
    """The processes the step keeps busy at once (most run two workers): ``--jobs N``
    starts a step only while the running ones leave it that many of the N cores, so
    no core runs two proofs at once (z3 processes sharing a core spent 1.5× the CPU)."""

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
PROTOCOL_SESSIONS = "spec/protocol.py as executable Python; the server's glue (sockets, framing) not driven"
REFINE = "z3 5.4; the engines' operators dispatched to proofs/symbolic.py's Sym; the z3 statements of the spec"
CROSSHAIR = "crosshair 0.0.112 finds what its canary shows it can find; nothing found is no proof"

STEPS: tuple[Step, ...] = (
    *(
        Step(
            f"CrossHair over the spec contracts: {what}",
            "proofs.crosshair.contracts",
            ("--deep", "--part", part, "--jobs", "1"),
            FULL,
            scope,
            CROSSHAIR,
            projected=projected,
            cores=1,
        )
        for part, what, scope, projected in (
            (
                "gothello",
                "Gothello and spec.z, wrapped",
                "31 targets: spec.gothello's three direct ones, spec.z's operators and every GothelloTurn "
                "disjunct through the wrappers; 10 s CPU a condition",
                None,
            ),
            (
                "awari",
                "Awari, direct",
                "21 targets: spec.awari's functions and AwariRef's disjuncts, literal and corrected, "
                "all but the referee (NOT_RUN says why); 10 s CPU a condition",
                None,
            ),
            (
                "awari-sow-capture",
                "Awari, Sow ⨟ Capture wrapped",
                "2 targets: Sow ⨟ Capture, literal and corrected, on boards the wrappers build; 10 s CPU a "
                "condition, up to a bound of 240 CPU-s each (SEARCH_BOUND says why)",
                # the canary 30 s and its two targets at their bound
                510.0,
            ),
            (
                "awari-ref",
                "AwariRef wrapped",
                "7 targets: AwariRef's corrected disjuncts and the referee on games the wrappers build; "
                "10 s CPU a condition, five of them up to a bound of 240 CPU-s each (SEARCH_BOUND says why)",
                # 12-05: the canary 30 s, two targets 10 s each, five at their bound (then 300 s, now 240)
                1_250.0,
            ),
        )
    ),
    Step(
        "CrossHair diffbehavior, impl vs spec",
        "proofs.crosshair.diffbehavior",
        (),
        FULL,
        "5 pairs, 60 s CPU a pair (the canary too; a missed canary is searched once more)",
        CROSSHAIR,
    ),
    Step(
        "hypothesis-crosshair backend",
        "proofs.crosshair.hypothesis_backend",
        (),
        FULL,
        "the differential properties, 10 examples each, no example database",
        CROSSHAIR + "; hypothesis 6.170",
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
    ),
    Step(
        "AwariRef corrected well-founded (z3)",
        "proofs.awari.theorems",
        (),
        BOTH,
        "every AwariBoard (Σ = 48), both sides, 12 actions, every positions set; first the encoding ≡ spec "
        "check at --stones 0, AwariBoard's predicate on its 60 edge cases and the 40 witnesses (≈ 7 CPU-s)",
        Z3_CHECKED,
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
        expect=("504 cases (boards of ≤ 0 stones)", "60 AwariBoard predicate cases, 40 targeted witnesses", "OK"),
    ),
    Step(
        "Awari encoding ≡ spec",
        "proofs.awari.encoding_check",
        ("--stones", "1"),
        FULL,
        "boards of ≤ 1 stone, as above (7 416 cases); the 60 predicate cases and 40 targeted witnesses",
        SPEC + "; z3 model evaluation",
    ),
    Step(
        "AwariRef literal + corrected, exhaustive",
        "proofs.awari.exhaustive",
        ("--stones", "3"),
        BOUNDED,
        "boards of ≤ 3 stones, band score splits, both sides, positions ∅/{θ}/{P'}",
        SPEC + "; the score-band argument (§1.3)",
        contracts=False,
        expect=("literal errata found: A1 A2 A3 A4 A5 A6 A7 A8 A9 A12 A15", "84840 (state, action) cases", "OK"),
    ),
    Step(
        "AwariRef literal + corrected, exhaustive",
        "proofs.awari.exhaustive",
        ("--stones", "4"),
        FULL,
        "boards of ≤ 4 stones, band score splits, both sides, positions ∅/{θ}/{P'}",
        SPEC + "; the score-band argument (§1.3)",
        contracts=False,
    ),
    Step(
        "AwariRef literal + corrected, exhaustive",
        "proofs.awari.exhaustive",
        ("--stones", "2", "--all-splits"),
        FULL,
        "boards of ≤ 2 stones, every score split (checks the band argument)",
        SPEC,
        contracts=False,
    ),
    Step(
        "AwariRef literal + corrected, exhaustive",
        "proofs.awari.exhaustive",
        ("--stones", "2"),
        FULL,
        "boards of ≤ 2 stones, band score splits, contracts on",
        SPEC,
    ),
    Step(
        "AwariRef well-founded under the rule sets, exhaustive",
        "proofs.awari.exhaustive_rules",
        ("--rules", *VARIANTS, "--stones", "2"),
        BOUNDED,
        "olympiad-1990, olympiad-1994, abapa: boards of ≤ 2 stones, 2 witness boards of 3, the 384 lap boards, "
        "band score splits, both sides, positions ∅/{θ}/{P'}",
        SPEC + "; the score-band argument (§1.3)",
        contracts=False,
        expect=("69456 (state, action) cases", "OK"),
    ),
    Step(
        "AwariRef well-founded under the rule sets, exhaustive",
        "proofs.awari.exhaustive_rules",
        ("--rules", "paper", *VARIANTS, "--stones", "4"),
        FULL,
        "every named rule set (the paper's through AwariRefUnder): boards of ≤ 4 stones and the 384 lap boards, "
        "band score splits, both sides, positions ∅/{θ}/{P'}",
        SPEC + "; the score-band argument (§1.3)",
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
    ),
    Step(
        "spec ≡ impl, Awari",
        "proofs.equivalence",
        ("awari", "--stones", "2"),
        BOUNDED,
        "boards of ≤ 2 stones, every score split, both sides, positions ∅/{θ}/{P'}; 384 lap boards",
        SPEC + "; impl via get_engine",
        contracts=False,
        expect=("265584 (state, action) cases, 0 differences", "OK"),
    ),
    Step(
        "spec ≡ impl, Awari",
        "proofs.equivalence",
        ("awari", "--stones", "4"),
        FULL,
        "boards of ≤ 4 stones, every score split, both sides, positions ∅/{θ}/{P'}; 384 lap boards",
        SPEC + "; impl via get_engine",
        contracts=False,
    ),
    Step(
        "spec ≡ impl, Awari",
        "proofs.equivalence",
        ("awari", "--stones", "2"),
        FULL,
        "boards of ≤ 2 stones, contracts on; 384 lap boards",
        SPEC + "; impl via get_engine",
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
        contracts=False,
        expect=("1183104 (state, action) cases, 0 differences", "OK"),
    ),
    *(
        Step(
            f"spec ≡ impl, Awari, {rules} rules",
            "proofs.equivalence",
            ("awari", "--stones", "2", "--rules", rules),
            FULL,
            f"as the paper's at ≤ 2 stones, under the {rules} rule set (spec/awari_rules.py)",
            SPEC + "; impl via get_engine",
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
        contracts=False,
    ),
    Step(
        "spec ≡ impl, Gothello",
        "proofs.equivalence",
        ("gothello", "--plies", "2"),
        BOTH,
        "every state within 2 plies of the start, 26 actions each, contracts on",
        SPEC + "; impl via get_engine",
        expect=("17628 (state, action) cases, 0 differences", "OK"),
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
        contracts=False,
        cluster=True,
        expect=("bounded scope — all hold",),
        cores=1,  # serial in the bounded scope: ≈ 0.9 CPU-s a second alone
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
        contracts=False,
        cluster=True,
        expect=("full scope — all hold",),
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
        contracts=False,
        cluster=True,
        expect=("600 of 600 slices proven",),
    ),
    Step(
        "RulesAwari refines AwariRefUnder, every rule set at once (README §8.6)",
        "proofs.awari.rules_refinement",
        ("--bounded",),
        BOUNDED,
        "the rule set's three numbers symbolic (all 30 combinations in each proof): the engine's numbers of the "
        "30 sets; the rotation symmetry of sowing and capture; _capture_r (last pit a, f), _feeds_r (pits a, f), "
        "_any_feeds_r and _legal_r over every row pair; is_over for south and apply on two slices (south sows 3 "
        "from D, "
        "north 1 from a), every board, every positions set; the statement ≡ spec.awari_rules.referee under all "
        "30 sets on the empty board and 10 corner states, under the named four on the 40 witnesses",
        REFINE,
        contracts=False,
        expect=("bounded scope — all hold",),
    ),
    Step(
        "RulesAwari refines AwariRefUnder, every rule set at once (README §8.6)",
        "proofs.awari.rules_refinement",
        (),
        FULL,
        "the rule set's three numbers symbolic (all 30 combinations in each proof): _capture_r, _feeds_r, "
        "_any_feeds_r and _legal_r over every row pair and pit; is_over and legal_moves on every AwariBoard "
        "(Σ = 48), both "
        "sides, every positions set; apply on the 12 slices of the opponent's pits and three of the own (south "
        "sows 3 from D, 13 from F, north 1 from a); the statement ≡ spec.awari_rules.referee under all 30 sets "
        "on the empty board, 60 corner states and the 40 witnesses; apply on the other 585 slices: the next step",
        REFINE,
        contracts=False,
        cluster=True,
        expect=("full scope — all hold",),
    ),
    Step(
        "RulesAwari refines AwariRefUnder: apply on every slice (README §8.6)",
        "proofs.awari.slices",
        ("--engine", "rules", "--jobs", "2", "--timeout", "7200", "--complete"),
        FULL,
        "the rule set's three numbers symbolic (all 30 combinations in each proof): apply on all 600 slices, "
        "every AwariBoard (Σ = 48), every positions set, all 12 actions; every slice proven by this run, as "
        "tasks on an embedded Dask cluster of 2 workers: no verdict is read from the verdict cache "
        "proofs/awari/verdict-cache-rules.jsonl, which only --cache reads",
        REFINE,
        contracts=False,
        cluster=True,
        expect=("600 of 600 slices proven",),
        projected=1100.0,  # 1,979–2,120 CPU-s, 1,000–1,200 s on 2 cores (2026-12-05, before a whole run)
    ),
    Step(
        "generated sessions ≡ the protocol's model (issue #40)",
        "proofs.protocol_sessions",
        ("--sessions", "2000"),
        BOUNDED,
        "2 000 random sessions (the games alternating), the session driven in process with requests chosen "
        "from the model's rows; every line sent checked against spec/protocol.py, the moves by the rules engine",
        PROTOCOL_SESSIONS,
        expect=("2000 sessions, 0 divergences, 24/24 rows reached", "OK"),
        cores=1,
    ),
    Step(
        "generated sessions ≡ the protocol's model (issue #40)",
        "proofs.protocol_sessions",
        ("--sessions", "100000"),
        FULL,
        "100 000 random sessions, as the bounded step",
        PROTOCOL_SESSIONS,
        expect=("100000 sessions, 0 divergences, 24/24 rows reached", "OK"),
        cores=1,
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
        contracts=False,
        cluster=True,
        expect=("bounded scope — all hold",),
        cores=1,  # serial in the bounded scope: ≈ 0.9 CPU-s a second alone
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
        contracts=False,
        cluster=True,
        expect=("full scope — all hold",),
    ),
)


def steps(run: Run) -> list[Step]:
    return [s for s in STEPS if run in s.runs]


MEASURED: Final = Path(__file__).resolve().parent / "measured.json"
"""The steps' last measured figures, as data: by command, the wall and CPU seconds,
the machine's mean load while the step ran, the date and commit; and each whole run's."""


@dataclass(frozen=True)
class Figure:
    """One step's (or one run's) last measured figure."""

    seconds: float
    cpu: float | None = None
    """CPU seconds of the step's processes (its own and those it waited for)."""
    load: float | None = None
    """The 1-minute load average, the mean of its values at the start and the end."""
    date: str = ""
    commit: str = ""
    note: str = ""
    """For a figure carried over from prose: under which conditions it was taken."""

    def text(self) -> str:
        where = [f"{self.cpu:.0f} CPU-s"] if self.cpu is not None else []
        where += [f"load {self.load:.1f}"] if self.load is not None else []
        where += [self.date] if self.date else []
        where += [self.note] if self.note else []
        return f"≈ {self.seconds:.0f} s ({', '.join(where)})" if where else f"≈ {self.seconds:.0f} s"


def read_measured(path: Path | None = None) -> dict[str, Any]:
    """The figures file (empty sections if it is absent or unreadable: figures are
    reporting, never a reason a proof fails)."""
    try:
        data = json.loads((MEASURED if path is None else path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        data = {}
    return {"steps": data.get("steps", {}), "runs": data.get("runs", {}), "about": data.get("about", "")}


def figure(row: Any) -> Figure | None:
    if not isinstance(row, dict) or not isinstance(row.get("seconds"), int | float):
        return None
    known = {k: row[k] for k in ("seconds", "cpu", "load", "date", "commit", "note") if k in row}
    return Figure(**known)


def figures(path: Path | None = None) -> dict[str, Figure]:
    """Each step's last figure, by command (a step never measured has none)."""
    return {c: f for c, row in read_measured(path)["steps"].items() if (f := figure(row)) is not None}


def table() -> str:
    """The README's proof table: one row per step, in run order."""
    rows = [
        "| step | command | make verify | make proofs | scope | trusts | expected | last measured |",
        "|---|---|---|---|---|---|---|---|",
    ]
    known = figures()
    for s in STEPS:
        mark = {True: "✓", False: ""}
        f = known.get(s.command)
        expected = "; ".join(f"`{e}`" for e in s.expect)
        rows.append(
            f"| {s.name} | `{s.command}` | {mark['bounded' in s.runs]} | {mark['full' in s.runs]} "
            f"| {s.scope} | {s.trusts} | {expected} | {f.text() if f else 'not measured'} |"
        )
    runs = read_measured()["runs"]
    rows.append("")
    for run in ("full", "bounded"):
        whole = figure(runs.get(run))
        what = "`make proofs`" if run == "full" else "`make verify`'s proof steps"
        rows.append(
            f"A whole {run} run ({what}), last measured: {whole.text()}."
            if whole
            else f"A whole {run} run ({what}): not yet measured as a whole."
        )
    return "\n".join(rows)


def missing(step: Step, output: str) -> list[str]:
    """The parts of the step's expected result its output lacks."""
    lines = output.splitlines()
    return [e for e in step.expect if not any(e in line for line in lines)]


RESULT: Final = re.compile(r"\bcases\b|\bpaths\b|\bproven\b|\berrata found\b|^OK$|all hold|^FAIL")


def results(output: str) -> list[str]:
    """The lines of a step's output that state its result (its counts and verdict)."""
    return [line.strip() for line in output.splitlines() if RESULT.search(line.strip())]


@dataclass(frozen=True)
class Outcome:
    seconds: float
    cpu: float
    load: float
    code: int
    output: str


def _run_one(s: Step, stream: bool, scheduler: str | None = None) -> Outcome:
    """Run one step, its output kept (and passed through as it comes when
    ``stream``); its CPU seconds from the kernel's account of the process (``wait4``)."""
    t0, load0 = time.perf_counter(), os.getloadavg()[0]
    env = {**os.environ, **({} if s.contracts else {"SPEC_CONTRACTS": "0"})}
    child = subprocess.Popen(
        s.argv_on(scheduler),
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        bufsize=1,
        start_new_session=True,  # its own group: an interrupted run ends it with all its workers
    )
    assert child.stdout is not None
    with _LOCK:
        _LIVE.add(child.pid)
    kept: list[str] = []
    for line in child.stdout:
        kept.append(line)
        if stream:
            print(line, end="", flush=True)
    _, status, usage = os.wait4(child.pid, 0)
    with _LOCK:
        _LIVE.discard(child.pid)
    child.returncode = os.waitstatus_to_exitcode(status)
    load = (load0 + os.getloadavg()[0]) / 2
    cpu = usage.ru_utime + usage.ru_stime
    return Outcome(time.perf_counter() - t0, cpu, load, child.returncode, "".join(kept))


_LIVE: set[int] = set()
"""The steps running now (each its process group's leader)."""
_LOCK = threading.Lock()


def _end_live() -> None:
    """End every running step and its workers (an interrupted run)."""
    with _LOCK:
        groups = list(_LIVE)
    for group in groups:
        with suppress(ProcessLookupError, PermissionError):
            os.killpg(group, signal.SIGTERM)


def _interrupt(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt


RUN_WRITES: Final = ("proofs/awari/verdict-cache.jsonl", "proofs/awari/verdict-cache-rules.jsonl")
"""Tracked files a run itself writes (the slices' verdict caches): not changes to the
code the figures are of."""


def _commit() -> str:
    """The commit the run is of, ``+changes`` if the work tree differs from it other
    than by what the run writes (RUN_WRITES)."""
    besides = [f":(exclude){path}" for path in RUN_WRITES]
    try:
        done = subprocess.run(["git", "rev-parse", "--short=12", "HEAD"], capture_output=True, text=True, check=True)
        dirty = subprocess.run(["git", "diff", "--quiet", "HEAD", "--", ".", *besides], check=False).returncode != 0
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return done.stdout.strip() + ("+changes" if dirty else "")


def record(outcomes: dict[Step, Outcome], run: Run, whole: Outcome | None, path: Path | None = None) -> None:
    """Write the figures of the steps that passed (and of the whole run, if every step
    ran and passed) into the figures file, atomically."""
    data = read_measured(path)
    stamp = {"date": time.strftime("%Y-%m-%d"), "commit": _commit()}
    for s, o in outcomes.items():
        if o.code == 0 and not missing(s, o.output):
            data["steps"][s.command] = {
                "seconds": round(o.seconds, 1),
                "cpu": round(o.cpu, 1),
                "load": round(o.load, 1),
                **stamp,
                "result": results(o.output),
            }
    if whole is not None:
        data["runs"][run] = {
            "seconds": round(whole.seconds),
            "cpu": round(whole.cpu),
            "load": round(whole.load, 1),
            **stamp,
        }
    write_output(MEASURED if path is None else path, json.dumps(data, indent=1, ensure_ascii=False) + "\n")


def expected(s: Step, known: dict[str, Figure]) -> float | None:
    """A step's wall seconds by its last figure, else its projection, else unknown."""
    return known[s.command].seconds if s.command in known else s.projected


def longest_first(todo: list[Step], known: dict[str, Figure]) -> list[Step]:
    """The steps by their expected wall time, longest first, and those of unknown length
    before them all: such a step may be the longest, and one started last holds up the
    run's end (the longest step started 25 minutes in on 12-04 and ran 24 minutes alone)."""

    def key(s: Step) -> float:
        e = expected(s, known)
        return -(float("inf") if e is None else e)

    return sorted(todo, key=key)


def plan(todo: list[Step], known: dict[str, Figure], jobs: int) -> list[tuple[Step, float, float]]:
    """The schedule ``run_steps`` would follow if every step took its expected wall
    time: each step with its projected start and end (s); a step of unknown length
    takes 0 here, so the projection is a lower bound where any is unknown."""
    pending, clock, free = longest_first(todo, known), 0.0, jobs
    running: list[tuple[float, Step]] = []
    out: list[tuple[Step, float, float]] = []
    while pending or running:
        s = next_fit(pending, free, jobs)
        if s is None:  # the next step to end frees its cores
            running.sort(key=lambda r: r[0])
            clock, ended = running.pop(0)
            free += min(ended.cores, jobs)
            continue
        pending.remove(s)
        free -= min(s.cores, jobs)
        end = clock + (expected(s, known) or 0.0)
        running.append((end, s))
        out.append((s, clock, end))
    return out


def plan_text(run: Run, jobs: int, path: Path | None = None) -> str:
    """``--plan``: the projected schedule and the whole run's length, from the last figures."""
    known = figures(path)
    rows = plan(steps(run), known, jobs)
    lines = [f"{run} proof steps on {jobs} cores, projected from proofs/{MEASURED.name} (start–end, minutes):"]
    for s, a, b in rows:
        mark = "" if s.command in known else "  (projected)" if s.projected else "  (never measured: 0 here)"
        lines.append(f"  {a / 60:6.1f} – {b / 60:6.1f}  {s.cores} core{'s' if s.cores > 1 else ' '}  {s.command}{mark}")
    end = max((b for _, _, b in rows), default=0.0)
    cpus = [known[s.command].cpu if s.command in known else s.projected and s.cores * s.projected for s, _, _ in rows]
    floor = f"the steps' CPU-s ÷ {jobs} cores = {sum(c or 0.0 for c in cpus) / jobs / 60:.1f} min"
    unknown = sum(1 for c in cpus if not c)
    lines.append(f"  ends at {end / 60:.1f} min; {floor}" + (f" ({unknown} without a CPU figure)" if unknown else ""))
    return "\n".join(lines)


def next_fit(pending: list[Step], free: int, jobs: int) -> Step | None:
    """The first of ``pending`` (longest first) whose cores fit in ``free`` of the
    ``jobs`` cores (a step wider than ``jobs`` takes them all)."""
    return next((s for s in pending if min(s.cores, jobs) <= free), None)


def run_steps(run: Run, keep_going: bool, jobs: int = 1, scheduler: str | None = None, keep: bool = False) -> int:
    """Run the steps on ``jobs`` cores; the first failure ends the run (no step
    starts after it) unless ``keep_going``.  A step fails on a non-zero exit status or
    an output lacking its expected result.  The steps that run tasks on Dask send them
    to the cluster at ``scheduler``, if given, instead of an embedded one.  One at a
    time, each step's output goes straight through; on several cores, whenever cores
    are free the longest step (by its last figures) that fits in them starts
    (``Step.cores``), and each step's output is printed whole when it ends.  ``keep``
    records the figures (``record``)."""
    start, load0 = time.perf_counter(), os.getloadavg()[0]
    todo = steps(run)
    planned = len(todo)
    known = figures()
    if jobs > 1:
        todo = longest_first(todo, known)
    failed: list[str] = []
    outcomes: dict[Step, Outcome] = {}
    lock = threading.Lock()

    def one(s: Step) -> None:
        if failed and not keep_going:
            return
        if jobs == 1:
            print(f"\n=== {s.name}: {s.command}", flush=True)
        o = _run_one(s, stream=jobs == 1, scheduler=scheduler)
        lacking = missing(s, o.output) if o.code == 0 else []
        with lock:
            if jobs > 1:  # its figures now: an interrupted run still shows them
                took = f"({o.seconds:.1f} s, {o.cpu:.1f} CPU-s, load {o.load:.1f}, exit {o.code})"
                print(f"\n=== {s.name}: {s.command} {took}\n{o.output}", end="", flush=True)
            for e in lacking:
                print(f"FAILED: the output lacks the expected result {e!r}", flush=True)
            outcomes[s] = o
            if o.code != 0 or lacking:
                failed.append(s.command)

    interrupted = False
    free, done = jobs, threading.Condition()
    running: list[threading.Thread] = []

    def on_cores(s: Step) -> None:
        nonlocal free
        try:
            one(s)
        finally:
            with done:
                free += min(s.cores, jobs)
                done.notify_all()

    main = threading.current_thread() is threading.main_thread()  # signals are the main thread's
    previous = signal.signal(signal.SIGTERM, _interrupt) if main else None
    try:
        with done:
            while todo and not (failed and not keep_going):
                s = next_fit(todo, free, jobs)
                if s is None:
                    done.wait(1.0)  # a timeout: a signal must reach this thread
                    continue
                todo.remove(s)
                free -= min(s.cores, jobs)
                running.append(threading.Thread(target=on_cores, args=(s,), name=s.command))
                running[-1].start()
            while free < jobs:
                done.wait(1.0)
    except KeyboardInterrupt:  # Ctrl-C or SIGTERM: end the running steps, keep what finished
        interrupted = True
        failed.append("interrupted")
        _end_live()
    finally:
        for t in running:
            t.join()
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)
    print(f"\n=== {run} proof steps (on {jobs} cores)" + (": interrupted" if interrupted else ""))
    for s in steps(run):
        if s in outcomes:
            o = outcomes[s]
            before = f"last ≈ {known[s.command].seconds:.0f} s" if s.command in known else "not measured before"
            verdict = "ok  " if s.command not in failed else "stop" if interrupted and o.code < 0 else "FAIL"
            print(f"  {verdict} {o.seconds:7.1f} s  {o.cpu:7.1f} CPU-s  ({before})  {s.command}")
    seconds = time.perf_counter() - start
    print(f"  total {seconds:.1f} s")
    print("OK" if not failed else f"FAILED: {', '.join(failed)}")
    if keep:
        complete = not failed and len(outcomes) == planned
        cpu = sum(o.cpu for o in outcomes.values())
        whole = Outcome(seconds, cpu, (load0 + os.getloadavg()[0]) / 2, 0, "") if complete else None
        record(outcomes, run, whole)
        print(
            f"figures recorded in {MEASURED.name}" + ("" if complete else " (steps that passed; no whole-run figure)")
        )
    return 1 if failed else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    what = parser.add_mutually_exclusive_group(required=True)
    what.add_argument("--run", choices=("bounded", "full"), help="run the steps")
    what.add_argument("--list", choices=("bounded", "full"), help="print the commands")
    what.add_argument("--table", action="store_true", help="print the README's table")
    what.add_argument(
        "--plan",
        choices=("bounded", "full"),
        help="print the schedule --jobs cores would follow, from the last figures",
    )
    parser.add_argument("--keep-going", action="store_true", help="run every step even after a failure")
    parser.add_argument(
        "--record", action="store_true", help=f"write the measured figures into proofs/{MEASURED.name} (make proofs)"
    )
    parser.add_argument(
        "--jobs",
        type=int,
        default=1,
        help="cores the steps share (default 1): a step starts when its Step.cores are free",
    )
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
    if args.plan:
        with quiet_on_a_closed_pipe():
            print(plan_text(args.plan, args.jobs))
        return 0
    if args.list:
        with quiet_on_a_closed_pipe():
            for s in steps(args.list):
                print(s.command)
        return 0
    return run_steps(args.run, args.keep_going, args.jobs, args.scheduler, args.record)


if __name__ == "__main__":
    sys.exit(main())
