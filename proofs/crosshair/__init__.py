"""CrossHair and hypothesis-crosshair: symbolic searches over the spec contracts and impl ≡ spec."""

from __future__ import annotations

import resource
import signal
import subprocess

CPU_KILLED = (-signal.SIGXCPU, -signal.SIGKILL)
"""How a process stopped by its CPU-time limit ends (soft limit, then the hard one)."""


def run_bounded(cmd: list[str], cpu_seconds: int) -> tuple[subprocess.CompletedProcess[str], str | None]:
    """Run a crosshair command with a bound on its CPU time (RLIMIT_CPU), not on the wall
    clock: crosshair's own budgets are CPU seconds, and a wall-clock bound failed runs on
    a loaded machine (a niced deep run on a shared 2-core machine timed out after 900 s
    of wall time with a fraction of that in CPU).  The wall clock is bounded only as a
    last resort against a process that sleeps, at ten times the CPU bound.  Returns the
    finished process and, if a bound stopped it, why."""

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds + 30))

    wall = 10 * cpu_seconds + 600
    done = subprocess.run(["timeout", str(wall), *cmd], capture_output=True, text=True, check=False, preexec_fn=limit)
    if done.returncode in CPU_KILLED:
        return done, f"stopped after {cpu_seconds} s of CPU"
    if done.returncode == 124:
        return done, f"timed out after {wall} s of wall time"
    return done, None
