"""The suite runs under PYTHONHASHSEED=0 however pytest is started.

A string's hash, and so the iteration order of a set of strings or of enum members,
depends on the interpreter's hash seed, which is fixed when the interpreter starts: no
configuration read by a running pytest can change it.  So a pytest started from the
command line (``pytest``, ``python -m pytest``) with any other seed is re-executed at
once, with the same arguments in the same directory and PYTHONHASHSEED=0; xdist's
workers, started later, inherit that environment.  A pytest run inside another program
(``pytest.main``) cannot be replaced by a new process: it is refused with a usage error.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

SEED = "0"


def started_from_the_command_line() -> bool:
    """This interpreter is pytest's own: its program is the ``pytest`` script or ``python -m pytest``."""
    program = Path(sys.argv[0]) if sys.argv and sys.argv[0] else Path()
    return program.name in ("pytest", "py.test") or (program.name == "__main__.py" and program.parent.name == "pytest")


def ensure_seed_0(config: pytest.Config) -> None:
    """Return under PYTHONHASHSEED=0; otherwise re-execute pytest under it (never returns), or refuse."""
    if os.environ.get("PYTHONHASHSEED") == SEED:
        return
    if hasattr(config, "workerinput"):  # an xdist worker of a controller started with another seed
        raise pytest.UsageError(f"an xdist worker under PYTHONHASHSEED={os.environ.get('PYTHONHASHSEED')!r}")
    if not started_from_the_command_line():
        raise pytest.UsageError(f"run pytest.main under PYTHONHASHSEED={SEED} (the hash seed is fixed at start-up)")
    capture = config.pluginmanager.getplugin("capturemanager")
    if capture is not None:  # give fds 1 and 2 back to the terminal before the new process inherits them
        capture.stop_global_capturing()
    sys.stdout.flush()
    sys.stderr.flush()
    os.chdir(config.invocation_params.dir)
    argv = [sys.executable, "-m", "pytest", *config.invocation_params.args]
    os.execve(sys.executable, argv, {**os.environ, "PYTHONHASHSEED": SEED})
