"""Planted bugs: do the checks fail when the code is wrong?

Each ``Plant`` is one bug, written as an exact edit of one file (the text it replaces
must occur exactly once), with the checks expected to catch it: bounded proof steps of
``make verify`` (named by their manifest command, so they cannot drift from what
verify runs) and test files.  ``--run`` copies the tree (``git ls-files``) into a
scratch folder once per bug, applies the edit there, and runs each expected check
against the copy; a bug is caught by a check when the check fails (exit status 1).  A check
that passes on its bug is a hole in the proofs or the tests, and the run exits 1.

    python -m proofs.planted --list             the catalogue, with the checks of each bug
    python -m proofs.planted --run [NAME ...]    plant and check (all, or the named bugs)

This is mutation testing of the proofs themselves (``make mutate`` samples mutants of the
engines against the tests instead).  It takes tens of CPU-minutes, so it runs in
``make planted`` (and ``make verify-deep``), never in ``make verify``;
tests/proofs/test_planted.py checks, cheaply, that every edit still applies to the
current code and that every named check exists.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from proofs.manifest import Step, steps

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Plant:
    """One planted bug: replace ``old`` by ``new`` in ``path``; ``steps`` (manifest
    commands of bounded steps) and ``tests`` (test files) must each fail on it."""

    name: str
    what: str
    path: str
    old: str
    new: str
    steps: tuple[str, ...] = ()
    tests: tuple[str, ...] = ()


AWARI_REFINEMENT = "SPEC_CONTRACTS=0 python -m proofs.awari.refinement --bounded"
GOTHELLO_REFINEMENT = "SPEC_CONTRACTS=0 python -m proofs.gothello.refinement --bounded"
AWARI_THEOREMS = "python -m proofs.awari.theorems"
GOTHELLO_THEOREMS = "python -m proofs.gothello.theorems"
AWARI_EQUIVALENCE = "SPEC_CONTRACTS=0 python -m proofs.equivalence awari --stones 2"
AWARI_EXHAUSTIVE = "SPEC_CONTRACTS=0 python -m proofs.awari.exhaustive --stones 3"
AWARI_ENCODING = "python -m proofs.awari.encoding_check --stones 0"
RULES_AWARI = "SPEC_CONTRACTS=0 python -m proofs.equivalence awari --stones 2 --band --all-rules"
RULES_REFINEMENT = "SPEC_CONTRACTS=0 python -m proofs.awari.rules_refinement --bounded"
PROTOCOL_SESSIONS = "python -m proofs.protocol_sessions --sessions 2000"

PLANTS: tuple[Plant, ...] = (
    Plant(
        "awari-capture-win-not-recorded",
        "the position after a capture that wins by margin is not added to positions'",
        "impl/engines/awari.py",
        "return ENDED, theirs_, mine_, meta_, seen | {(theirs_, mine_, meta_)}",
        "return ENDED, theirs_, mine_, meta_, seen",
        steps=(AWARI_REFINEMENT,),
        tests=("tests/engines/test_differential.py",),
    ),
    Plant(
        "awari-lap-sows-origin",
        "a lap of 12 or more stones sows the pit it started from (next_skip ignored)",
        "impl/engines/awari.py",
        "            q = (q + 1) % 12\n            if q == j:\n                q = (q + 1) % 12\n",
        "            q = (q + 1) % 12\n",
        steps=(AWARI_REFINEMENT, AWARI_EQUIVALENCE),
        tests=("tests/engines/test_differential.py",),
    ),
    Plant(
        "awari-three-not-captured",
        "a last pit holding 3 is not captured (only 2s are)",
        "impl/engines/awari.py",
        "        if c == 2 or c == 3:\n            theirs_, gained = _capture(theirs_, last)\n",
        "        if c == 2:\n            theirs_, gained = _capture(theirs_, last)\n",
        steps=(AWARI_REFINEMENT, AWARI_EQUIVALENCE),
        tests=("tests/engines/test_differential.py",),
    ),
    Plant(
        "awari-winner-mask",
        "winner reads north's score through a 4-bit mask",
        "impl/engines/awari.py",
        "north, south = meta & 255, meta >> 8 & 255",
        "north, south = meta & 15, meta >> 8 & 255",
        steps=(AWARI_REFINEMENT,),
        tests=("tests/engines/test_differential.py",),
    ),
    Plant(
        "awari-margin-26",
        "the game ends at 26 stones, not 25 (Status: WinMargin)",
        "impl/engines/awari.py",
        "    if meta & 255 >= 25 or meta >> 8 & 255 >= 25:\n        return meta  # WinMargin",
        "    if meta & 255 >= 26 or meta >> 8 & 255 >= 26:\n        return meta  # WinMargin",
        steps=(AWARI_REFINEMENT,),
        tests=("tests/engines/test_differential.py",),
    ),
    Plant(
        "awari-feeds-by-sowing",
        "a move feeds when it sows into the opponent's row though the capture empties it (the differential"
        " tests' random games miss it; the lap corner cases catch it)",
        "impl/engines/awari.py",
        "    return after != 0\n",
        "    return added != 0\n",
        steps=(AWARI_REFINEMENT,),
        tests=("tests/engines/test_corners_awari.py",),
    ),
    Plant(
        "rules-awari-repetitions-swapped",
        "RulesAwari plays olympiad-1990's repetition rule (stones uncounted) as olympiad-1994's (a draw), and"
        " the other way round",
        "impl/engines/awari.py",
        "return (_winner(meta) if rep == REP_UNCOUNTED else _DRAW), mine, theirs, meta",
        "return (_DRAW if rep == REP_UNCOUNTED else _winner(meta)), mine, theirs, meta",
        steps=(RULES_AWARI, RULES_REFINEMENT),
    ),
    Plant(
        "rules-awari-abapa-slam-takes-last",
        "RulesAwari's grand slam under abapa's rule (b) captures the last pit sown",
        "impl/engines/awari.py",
        "    if gs == GS_B:\n        return theirs, 0\n    sh = last << 3\n    kept = theirs >> sh & 255\n",
        "    sh = last << 3\n    kept = theirs >> sh & 255\n"
        "    if gs == GS_B:\n        return theirs - (kept << sh), kept\n",
        steps=(RULES_AWARI, RULES_REFINEMENT),
    ),
    Plant(
        "gothello-liberties-after-captures",
        "a placement's liberties are tested after its captures (GothelloIllegalMoveBlocked)",
        "impl/engines/gothello.py",
        "    if not near & blank and not _free(bit, mine, blank):\n        return -1\n"
        "    targets = near & theirs\n    while targets:\n        t = targets & -targets\n"
        "        group = _group(t, theirs)\n        targets &= ~group\n"
        "        if not (_dilate(group) & blank):  # capture_at: no liberties in cboard\n"
        "            theirs ^= group\n            mine |= group\n",
        "    targets = near & theirs\n    while targets:\n        t = targets & -targets\n"
        "        group = _group(t, theirs)\n        targets &= ~group\n"
        "        if not (_dilate(group) & blank):  # capture_at: no liberties in cboard\n"
        "            theirs ^= group\n            mine |= group\n"
        "    if not near & blank and not _free(bit, mine, blank):\n        return -1\n",
        steps=(GOTHELLO_REFINEMENT,),
        tests=("tests/engines/test_differential.py",),
    ),
    Plant(
        "gothello-move-after-the-end",
        "the corrected GothelloMove's guard allows placements after the game ended (two passes: G9)",
        "spec/gothello.py",
        '        to_move\' = opponent to_move;  result! = not_done\n    """\n    if game_over(g) or not (',
        '        to_move\' = opponent to_move;  result! = not_done\n    """\n    if not (',
        steps=(GOTHELLO_REFINEMENT,),
    ),
    Plant(
        "gothello-encoding-wraps",
        "the z3 encoding's adjacency wraps from rank 5 of a file to rank 1 of the next (d5→e1)",
        "proofs/gothello/encoding.py",
        "    return ((x << 1) & bv(FULL & ~RANK1)) | (z3.LShR(x, 1) & bv(FULL & ~RANK5))",
        "    return ((x << 1) & bv(FULL)) | (z3.LShR(x, 1) & bv(FULL & ~RANK5))",
        steps=(GOTHELLO_THEOREMS,),
    ),
    Plant(
        "gothello-statement-no-capture-down-files",
        "the z3 statement never captures toward file − 1",
        "proofs/gothello/encoding.py",
        "        (sbit << 5) & bv(FULL),\n        z3.LShR(sbit, 5),\n    ]",
        "        (sbit << 5) & bv(FULL),\n        bv(0),\n    ]",
        steps=(GOTHELLO_THEOREMS,),  # the refinement has a statement of its own: this bug is not in it
    ),
    Plant(
        "gothello-refinement-statement-skips-a-neighbour",
        "the refinement's statement of a placement never captures through the placed stone's first neighbour",
        "proofs/gothello/refinement.py",
        "    for t in ADJ[s]:\n        g = group(t, theirs)",
        "    for t in ADJ[s][1:]:\n        g = group(t, theirs)",
        steps=(GOTHELLO_REFINEMENT,),
        tests=("tests/proofs/test_statements.py",),
    ),
    Plant(
        "awari-encoding-three-safe",
        "the z3 encoding of Capture takes only pits holding 2",
        "proofs/awari/encoding.py",
        "vul = {q: z3.Or(board[q] == 2, board[q] == 3) for q in opp}",
        "vul = {q: board[q] == 2 for q in opp}",
        steps=(AWARI_ENCODING, AWARI_THEOREMS),  # the refinement has a statement of its own: this bug is not in it
    ),
    Plant(
        "awari-refinement-statement-three-safe",
        "the refinement's statement of the referee captures only pits holding 2",
        "proofs/awari/refinement.py",
        "    vul = [z3.Or(board[q] == 2, board[q] == 3) if q in SIDE[1 - mover] else False for q in range(12)]",
        "    vul = [board[q] == 2 if q in SIDE[1 - mover] else False for q in range(12)]",
        steps=(AWARI_REFINEMENT,),
        tests=("tests/proofs/test_statements.py",),
    ),
    Plant(
        "awari-invariant-weakened",
        "AwariBoard's predicate weakened: Σ board + Σ score ≤ 48 instead of = 48",
        "spec/awari.py",
        "Σ(graph(s.board)) + Σ(score_graph(s.score)) == 48",
        "Σ(graph(s.board)) + Σ(score_graph(s.score)) <= 48",
        steps=(AWARI_ENCODING, AWARI_THEOREMS),
        tests=("tests/spec/test_contract_strength.py",),
    ),
    Plant(
        "session-serial-off-by-one",
        "the session's serial counts plies, not full moves: the second player's n-th move expects n + 1",
        "impl/server/core.py",
        "        return len(self.made) // 2 + 1",
        "        return (len(self.made) + 1) // 2 + 1",
        steps=(PROTOCOL_SESSIONS,),
        tests=("tests/server/test_play.py",),
    ),
    Plant(
        "protocol-311-312-swapped",
        "a move's status says 312 for the first player's move and 311 for the second's",
        "impl/protocol.py",
        "    return 311 + side + (4 if is_pass else 0) + (2 if timed else 0)",
        "    return 312 - side + (4 if is_pass else 0) + (2 if timed else 0)",
        steps=(PROTOCOL_SESSIONS,),
        tests=("tests/server/test_play.py",),
    ),
    Plant(
        "session-ellipsis-from-first",
        "the session accepts an ellipsis (``1 ... c3``) from the first player",
        "impl/server/play.py",
        "        if action.serial is not None and action.ellipsis != bool(side):",
        "        if action.serial is not None and side and not action.ellipsis:",
        steps=(PROTOCOL_SESSIONS,),
        tests=("tests/server/test_play.py",),
    ),
    Plant(
        "session-101-times-swapped",
        "a player's 101 gives the opponent's time first (``opp / you``)",
        "impl/server/play.py",
        "            own, opp = self.clocks.initial[side], self.clocks.initial[side.other]",
        "            opp, own = self.clocks.initial[side], self.clocks.initial[side.other]",
        steps=(PROTOCOL_SESSIONS,),
        tests=("tests/server/test_time.py",),
    ),
    Plant(
        "model-resign-leaves-playing",
        "the protocol's model lets a resigning player stay in play",
        "spec/protocol.py",
        '    _row(_S.PLAYING, _R.RESIGN, {204}, {_S.DONE}, "Tables 7, 8"),',
        '    _row(_S.PLAYING, _R.RESIGN, {204}, {_S.PLAYING, _S.DONE}, "Tables 7, 8"),',
        tests=("tests/server/test_protocol_model.py",),
    ),
    Plant(
        "tablebase-c-captures-four",
        "the C tablebase kernel captures a pit of 4 too",
        "impl/engines/tablebase/kernel.c",
        "(a[q] == 2 || a[q] == 3 || (bug == PLANT_CAPTURE && a[q] == 4))",
        "(a[q] == 2 || a[q] == 3 || a[q] == 4)",
        tests=("tests/tablebase/test_checks.py",),
    ),
    Plant(
        "tablebase-c-rank-off-by-one",
        "the C tablebase kernel ranks boards with the bars one place off",
        "impl/engines/tablebase/kernel.c",
        "for (int k = 1; k < 12; k++) { c += p[k - 1] + 1; r += binom[c][k]; }",
        "for (int k = 1; k < 12; k++) { c += p[k - 1] + 1; r += binom[c][k] + (k == 11); }",
        tests=("tests/tablebase/test_checks.py",),
    ),
    Plant(
        "tablebase-c-attractor-ignores-captures",
        "the C solver puts a board among the opponent's wins though one of its captures is worth more",
        "impl/engines/tablebase/kernel.c",
        "} else if (--cnt[p] == 0 && best[p] <= -t) { /* every move of p gives the opponent t */",
        "} else if (--cnt[p] == 0) { /* every move of p gives the opponent t */",
        tests=("tests/tablebase/test_checks.py", "tests/tablebase/test_build.py"),
    ),
    Plant(
        "tablebase-c-distance-one-short",
        "the C solver records the distance of a board whose mover is behind one ply short",
        "impl/engines/tablebase/kernel.c",
        "raise_key(key, r, (uint32_t)t << 17 | (uint32_t)in_b << 16 | (uint32_t)layer);",
        "raise_key(key, r, (uint32_t)t << 17 | (uint32_t)in_b << 16 | (uint32_t)(layer - in_b));",
        tests=("tests/tablebase/test_checks.py", "tests/tablebase/test_build.py"),
    ),
    Plant(
        "tablebase-c-lap-sows-origin",
        "the C tablebase kernel's lap shortcut sows the origin too (only a pit of 11 stones or more shows it:"
        " the exhaustive check of <= 8 stones passes)",
        "impl/engines/tablebase/kernel.c",
        "a[j] = bug == PLANT_LAP ? laps : 0;",
        "a[j] = laps;",
        tests=("tests/tablebase/test_kernel_laps.py",),
    ),
    Plant(
        "tablebase-c-whole-laps-end-on-origin",
        "the C tablebase kernel's whole laps (11 or 22 stones) end on the origin, not the pit before it: pit a's"
        " last pit is its own, never the opponent's f",
        "impl/engines/tablebase/kernel.c",
        "if (rest == 0) return j == 0 ? 11 : j - 1;",
        "if (rest == 0) return j;",
        tests=("tests/tablebase/test_kernel_laps.py",),
    ),
    Plant(
        "tablebase-c-slam-first-only-takes-all",
        "the C tablebase kernel's grand slam under (d) takes the whole row, not the first pit alone",
        "impl/engines/tablebase/kernel.c",
        "(gs == GS_B || gs == GS_C || gs == GS_D)",
        "(gs == GS_B || gs == GS_C)",
        tests=("tests/tablebase/test_checks.py", "tests/tablebase/test_kernel_laps.py"),
    ),
    Plant(
        "tablebase-python-slam-taken",
        "the Python tablebase kernel lets a grand slam be sown under (a) while another move feeds",
        "impl/engines/tablebase/kernel.py",
        "if gs == GS_A and feeders and bug != PLANT_SLAM:",
        "if gs == GS_A and feeders and bug == PLANT_SLAM:",
        tests=("tests/tablebase/test_checks.py",),
    ),
)


def by_name(names: Sequence[str]) -> list[Plant]:
    known = {p.name: p for p in PLANTS}
    unknown = [n for n in names if n not in known]
    if unknown:
        raise SystemExit(f"proofs.planted: no planted bug named {', '.join(unknown)} (see --list)")
    return [known[n] for n in names] if names else list(PLANTS)


def bounded_commands() -> dict[str, Step]:
    """The bounded steps of the manifest, by command."""
    return {s.command: s for s in steps("bounded")}


def applies(plant: Plant, root: Path = ROOT) -> bool:
    """The edit's text occurs exactly once in its file."""
    return (root / plant.path).read_text(encoding="utf-8").count(plant.old) == 1


def _copy_tree(dest: Path) -> None:
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    for name in filter(None, listed.decode().split("\0")):
        source = ROOT / name
        if source.is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, dest / name)


def _check(argv: list[str], copy: Path, contracts: bool) -> tuple[bool, float, str]:
    env = {**os.environ, "PYTHONPATH": str(copy), "PYTHONHASHSEED": "0", "HYPOTHESIS_PROFILE": "ci"}
    if not contracts:
        env["SPEC_CONTRACTS"] = "0"
    start = time.monotonic()
    done = subprocess.run(argv, cwd=copy, env=env, capture_output=True, text=True)
    lines = (done.stdout + done.stderr).strip().splitlines()
    # 1 is a check that failed; any other status (2 a usage error, 4 pytest's missing file)
    # says nothing about the bug.
    return done.returncode == 1, time.monotonic() - start, lines[-1] if lines else ""


def run(plants: Sequence[Plant]) -> int:
    commands = bounded_commands()
    holes = 0
    for plant in plants:
        with tempfile.TemporaryDirectory(prefix=f"planted-{plant.name}-") as scratch:
            copy = Path(scratch)
            _copy_tree(copy)
            target = copy / plant.path
            target.write_text(target.read_text(encoding="utf-8").replace(plant.old, plant.new), encoding="utf-8")
            print(f"{plant.name}: {plant.what}", flush=True)
            checks = [(c, commands[c].argv, commands[c].contracts) for c in plant.steps]
            checks += [
                (t, [sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", t], True)
                for t in plant.tests
            ]
            for label, argv, contracts in checks:
                caught, seconds, last = _check(argv, copy, contracts)
                holes += not caught
                verdict = "caught" if caught else "MISSED"
                print(f"  {verdict:7} {label}  ({seconds:.0f} s)  {last[:100]}", flush=True)
    print(f"{len(plants)} planted bugs; {holes} check(s) that should have failed passed")
    return 1 if holes else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m proofs.planted", description=__doc__.splitlines()[0])
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--list", action="store_true", help="print the catalogue")
    group.add_argument("--run", nargs="*", metavar="NAME", help="plant and check these bugs (all if none named)")
    args = parser.parse_args(argv)
    if args.list:
        for p in PLANTS:
            print(f"{p.name}  ({p.path}): {p.what}")
            for c in (*p.steps, *p.tests):
                print(f"    {c}")
        return 0
    return run(by_name(args.run))


if __name__ == "__main__":
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # `--list | head`: end as Unix tools do, no traceback
    sys.exit(main())
