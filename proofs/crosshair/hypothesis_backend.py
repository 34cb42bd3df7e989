"""The differential hypothesis properties (tests/engines/test_differential.py) under the
hypothesis-crosshair backend, after a canary: ``python -m proofs.crosshair.hypothesis_backend``.

The canary (proofs/crosshair/hypothesis_canary.py) must fail exactly its planted test and pass
the check that the backend is crosshair; then the two games' properties run in parallel
(two cores, ``-k awari`` and ``-k gothello``), CROSSHAIR_EXAMPLES examples per property (default 10).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

PYTEST = [sys.executable, "-m", "pytest", "-p", "proofs.crosshair.hypothesis_profile"]
DIFFERENTIAL = "tests/engines/test_differential.py"


def pytest(*args: str) -> tuple[int, str, float]:
    start = time.perf_counter()
    env = {**os.environ, "HYPOTHESIS_PROFILE": "crosshair"}
    env.setdefault("CROSSHAIR_EXAMPLES", "10")
    done = subprocess.run([*PYTEST, *args], capture_output=True, text=True, env=env, check=False)
    return done.returncode, done.stdout + done.stderr, time.perf_counter() - start


def summary(output: str) -> str:
    lines = [ln for ln in output.splitlines() if re.search(r"\d+ (passed|failed)", ln)]
    return lines[-1].strip("= ") if lines else "(no summary)"


def main() -> int:
    start = time.perf_counter()
    code, out, seconds = pytest("proofs/crosshair/hypothesis_canary.py")
    print(f"canary: exit {code}, {summary(out)}, {seconds:.1f} s", flush=True)
    if code != 1 or "1 failed, 1 passed" not in summary(out):
        print(out)
        print("FAILED: the planted difference was not reported, or the backend is not crosshair")
        return 1
    games = ["awari", "gothello"]
    with ThreadPoolExecutor(max_workers=2) as pool:
        runs = list(pool.map(lambda game: (game, *pytest(DIFFERENTIAL, "-k", game)), games))
    failed = False
    for game, code, out, seconds in runs:
        print(f"{DIFFERENTIAL} -k {game}: exit {code}, {summary(out)}, {seconds:.1f} s")
        if code != 0:
            failed = True
            print(out)
    print(f"hypothesis-crosshair total {time.perf_counter() - start:.1f} s")
    print("FAILED" if failed else "OK")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
