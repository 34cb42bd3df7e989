"""proofs/manifest.py is the one list of proof steps: the Makefile runs it, the README
shows it, and every runnable proof module is in it."""

from __future__ import annotations

import importlib.util
import re

from proofs import manifest
from tests.support import paths

ROOT = paths.ROOT
BEGIN, END = "<!-- manifest table: python -m proofs.manifest --table -->", "<!-- end of manifest table -->"


def test_the_readme_shows_the_manifest_table() -> None:
    text = (ROOT / "proofs" / "README.md").read_text(encoding="utf-8")
    shown = text.split(BEGIN, 1)[1].split(END, 1)[0].strip()
    assert shown == manifest.table()


def test_the_makefile_runs_the_manifest_lists() -> None:
    text = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert "-m proofs.manifest --run bounded" in text
    assert "-m proofs.manifest --run full" in text
    # proofs.planted is no proof step: it runs the manifest's bounded steps on planted bugs
    assert not re.search(r"-m proofs\.(?!manifest|planted)", text), "a proof step run outside the manifest"


def test_every_step_module_exists() -> None:
    for step in manifest.STEPS:
        assert importlib.util.find_spec(step.module) is not None, step.module


def test_every_runnable_proof_module_is_a_step() -> None:
    """A proofs/ module with a command line is run by some step (or is the manifest, or
    the planted-bug runner, which runs the steps)."""
    runnable = {
        ".".join(p.relative_to(ROOT).with_suffix("").parts)
        for p in (ROOT / "proofs").rglob("*.py")
        if 'if __name__ == "__main__":' in p.read_text(encoding="utf-8")
    }
    assert runnable - {"proofs.manifest", "proofs.planted"} == {s.module for s in manifest.STEPS}


def test_the_full_run_covers_every_bounded_module() -> None:
    """make proofs runs every module that make verify runs, at a scope at least as large."""
    assert {s.module for s in manifest.steps("bounded")} <= {s.module for s in manifest.steps("full")}
