"""The ledger of apply's slices: run ``apply_slice`` on every slice of ``every_slice()``,
a few at a time over as many sittings as it takes, and keep what each proved.

    python -m proofs.awari.slices [--jobs N] [--timeout S] [--for SECONDS] [--counts N ...] [--retry] [--complete]
    python -m proofs.awari.slices --status

Together the 600 slices are the theorem that ``ImplAwari.apply`` refines the corrected
referee on every state (proofs/README.md, §8.4); ``refinement --deep`` runs them all in
one go, which takes CPU-hours.  Here each slice runs in a process of its own under a
time limit, and its verdict goes to ``LEDGER`` (one JSON line a slice) with the
*fingerprint* of everything the proof reads — the engine's source, every module of the
repository the proof imports, z3's version.  A run skips the slices the ledger has proven under the
current fingerprint, so a change to any of those files makes every slice due again,
and ``--status`` says how many of the 600 are proven for the code as it is.  A slice
that fails is a counterexample: its message is kept and the run exits 1; with
``--complete`` (make proofs) so does a run that leaves any slice unproven.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

import z3

if TYPE_CHECKING:  # refinement builds its statements on import: loaded only where a slice is listed
    from proofs.awari.refinement import Slice

ROOT: Final = Path(__file__).resolve().parents[2]
LEDGER: Final = ROOT / "proofs" / "awari" / "slices.jsonl"
ENGINE: Final = "impl/engines/awari.py"
"""The engine under proof, read as source (proofs/symbolic.py ``load_engine_source``)."""

_IMPORTS: Final = """
import json, sys
from pathlib import Path
import proofs.awari.refinement
root = Path.cwd().resolve()
files = (Path(getattr(m, "__file__", None) or "/").resolve() for m in list(sys.modules.values()))
print(json.dumps([f.relative_to(root).as_posix() for f in files if f.is_relative_to(root)]))
"""


def sources() -> list[str]:
    """What a slice's proof reads: the engine's source and every module of this
    repository that proofs.awari.refinement imports (the statement, the spec and its
    vocabulary, the symbolic machinery), as paths from ROOT — found in a fresh
    interpreter, so the answer does not depend on what the caller has imported."""
    done = subprocess.run([sys.executable, "-c", _IMPORTS], cwd=ROOT, capture_output=True, text=True, check=True)
    found = {ENGINE, *json.loads(done.stdout)}
    return sorted(name for name in found if not name.startswith(".venv/"))


def fingerprint(paths: Sequence[str] | None = None) -> str:
    """sha256 over the sources (``sources()`` unless given) and z3's version: equal
    fingerprints, the same proof."""
    h = hashlib.sha256(z3.get_version_string().encode())
    for name in sources() if paths is None else paths:
        h.update(name.encode() + b"\0" + (ROOT / name).read_bytes() + b"\0")
    return h.hexdigest()[:16]


def every_slice() -> list[Slice]:
    from proofs.awari.refinement import every_slice as slices

    return slices()


def name(s: Slice) -> str:
    """``south sows 12 from C`` — the slice in the Awari notation of spec/awari.py."""
    from spec.awari import PIT, PLAYER

    mover, m, n = s
    return f"{PLAYER(mover).name} sows {'any count' if n is None else n} from {PIT(m).name}"


def read_ledger(path: Path | None = None) -> list[dict[str, Any]]:
    path = LEDGER if path is None else path
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()] if path.exists() else []


def judged(records: Sequence[dict[str, Any]], fp: str, verdict: str) -> set[Slice]:
    """The slices whose last verdict under the fingerprint ``fp`` is ``verdict``."""
    last = {(r["mover"], r["pit"], r["n"]): r["verdict"] for r in records if r["fingerprint"] == fp}
    return {s for s, v in last.items() if v == verdict}


def run_one(s: Slice, timeout: float) -> dict[str, Any]:
    """Prove one slice in a fresh process (its own z3 context), within ``timeout``."""
    mover, m, n = s
    code = f"from proofs.awari.refinement import apply_slice; print(apply_slice({mover}, {m}, {n!r}))"
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
        verdict, paths, detail = "timeout", None, f"no verdict within {timeout:.0f} s"
    else:
        lines = done.stdout.split()
        if done.returncode == 0 and lines and lines[-1].isdigit():
            verdict, paths, detail = "proven", int(lines[-1]), ""
        else:
            last = (done.stderr.strip().splitlines() or ["(no output)"])[-1]
            verdict, paths, detail = ("failed" if "AssertionError" in last else "error"), None, last
    return {
        "mover": mover,
        "pit": m,
        "n": n,
        "verdict": verdict,
        "paths": paths,
        "seconds": round(time.perf_counter() - start, 1),
        "detail": detail,
    }


def status(records: Sequence[dict[str, Any]], fp: str) -> str:
    """How many slices hold under the current fingerprint, and what the rest are."""
    current = {(r["mover"], r["pit"], r["n"]): r for r in records if r["fingerprint"] == fp}
    slices = every_slice()
    by_verdict: dict[str, list[Slice]] = {}
    for s in slices:
        by_verdict.setdefault(current[s]["verdict"] if s in current else "not run", []).append(s)
    seconds = sum(r["seconds"] for r in current.values() if r["verdict"] == "proven")
    lines = [f"fingerprint {fp}: {len(by_verdict.get('proven', []))} of {len(slices)} slices proven ({seconds:.0f} s)"]
    for verdict in ("failed", "error", "timeout", "not run"):
        if verdict in by_verdict:
            shown = ", ".join(name(s) for s in by_verdict[verdict][:6])
            more = len(by_verdict[verdict]) - 6
            lines.append(f"  {verdict}: {len(by_verdict[verdict])} ({shown}{f', … {more} more' if more > 0 else ''})")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m proofs.awari.slices", description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=1, help="slices proven at once (default 1)")
    parser.add_argument("--timeout", type=float, default=900.0, help="seconds a slice (default 900)")
    parser.add_argument("--for", dest="budget", type=float, default=0.0, help="start no slice after this many seconds")
    parser.add_argument(
        "--order", choices=("counts", "slices"), default="counts", help="smallest stone counts first, or every_slice's"
    )
    parser.add_argument(
        "--counts", type=int, nargs="+", metavar="N", help="only the own-pit slices with these stone counts (a sample)"
    )
    parser.add_argument("--retry", action="store_true", help="also rerun the slices that timed out before")
    parser.add_argument("--fresh", action="store_true", help="prove every slice again, whatever the ledger holds")
    parser.add_argument(
        "--complete", action="store_true", help="exit 1 unless every slice is proven at the end (make proofs)"
    )
    parser.add_argument("--status", action="store_true", help="say what the ledger holds for this code and exit")
    args = parser.parse_args(argv)
    if args.jobs < 1 or args.timeout <= 0:
        parser.error("--jobs and --timeout must be positive")
    fp = fingerprint()
    records = read_ledger()
    if args.status:
        print(status(records, fp))
        return 0
    done, timed_out = judged(records, fp, "proven"), judged(records, fp, "timeout")
    if args.fresh:  # this run's verdicts alone count at its end
        done, timed_out = set(), set()
    before = len(records) if args.fresh else 0
    todo = [s for s in every_slice() if s not in done and (args.retry or s not in timed_out)]
    if args.counts:
        todo = [s for s in todo if s[2] in args.counts]
    if args.order == "counts":
        todo.sort(key=lambda s: (-1 if s[2] is None else s[2], s[0], s[1]))
    start = time.monotonic()
    failed = 0

    def one(s: Slice) -> None:
        nonlocal failed
        if args.budget and time.monotonic() - start > args.budget:
            return
        r = {**run_one(s, args.timeout), "fingerprint": fp, "date": time.strftime("%Y-%m-%d")}
        failed += r["verdict"] in ("failed", "error")
        with LEDGER.open("a") as ledger:
            ledger.write(json.dumps(r, ensure_ascii=False) + "\n")
        print(f"{r['verdict']:8} {r['seconds']:7.1f} s  {name(s)}  {r['detail']}", flush=True)

    with ThreadPoolExecutor(args.jobs) as pool:
        list(pool.map(one, todo))
    records = read_ledger()[before:]
    print(status(records, fp))
    missing = len(every_slice()) - len(judged(records, fp, "proven"))
    return 1 if failed or (args.complete and missing) else 0


if __name__ == "__main__":
    sys.exit(main())
