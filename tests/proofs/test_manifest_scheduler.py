"""make proofs SCHEDULER=tcp://HOST:PORT (proofs/manifest.py --scheduler): the steps
that run independent tasks on Dask get the scheduler's address, the others run as
listed, and a bad address is refused with exit status 2."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from proofs import manifest

ROOT = Path(__file__).resolve().parents[2]
ADDRESS = "tcp://10.0.0.5:8786"


def test_the_cluster_steps_get_the_scheduler_and_the_others_do_not() -> None:
    on = {s.module for s in manifest.STEPS if s.cluster}
    assert on == {
        "proofs.awari.slices",
        "proofs.awari.refinement",
        "proofs.awari.rules_refinement",
        "proofs.gothello.refinement",
    }
    for s in manifest.STEPS:
        assert s.argv_on(None) == s.argv
        assert s.argv_on(ADDRESS) == ([*s.argv, "--scheduler", ADDRESS] if s.cluster else s.argv)


def test_every_cluster_step_takes_the_option() -> None:
    """Each module said to take --scheduler parses it (scope_arguments or its own parser)."""
    for module in {s.module for s in manifest.STEPS if s.cluster}:
        source = (ROOT / (module.replace(".", "/") + ".py")).read_text(encoding="utf-8")
        assert "scope_arguments(" in source or '"--scheduler"' in source, module


def test_the_makefile_passes_the_scheduler_on() -> None:
    text = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert "--run full --jobs $(JOBS) --record $(if $(SCHEDULER),--scheduler $(SCHEDULER))" in text


def test_a_bad_address_exits_2_without_a_traceback() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "proofs.manifest", "--run", "full", "--scheduler", "nowhere"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2 and "not a scheduler address" in done.stderr and "Traceback" not in done.stderr
