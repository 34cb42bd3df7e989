"""The mutation tool itself (tests/mutation/): mutants are generated per operator, applied
as exact span replacements, run in a scratch copy that leaves the tree untouched, and a
planted killer test kills the mutant it targets while an untested one survives."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.mutation import verdicts
from tests.mutation.__main__ import TARGETS, Scratch, quick, sample, suite
from tests.mutation.mutator import Mutant, is_valid, mutants
from tests.mutation.report import render
from tests.support import paths

_SOURCE = '''\
"""A module to mutate: Σ in a docstring keeps byte and character columns apart."""

LIMIT: int = 3


def bounded(x: int) -> bool:
    """Docstrings are not mutated."""
    return 0 <= x < LIMIT and not x == 2


def step(x: int) -> int:
    y = x + 1
    return y


def untested(flag: bool = True) -> int:
    return 7 if flag else -7
'''


def _found(source: str = _SOURCE) -> list[Mutant]:
    return list(mutants("pkg/mod.py", source.encode()))


def _by(found: list[Mutant], operator: str, before: str) -> list[Mutant]:
    return [m for m in found if m.operator == operator and m.before == before]


def test_every_operator_is_generated() -> None:
    found = _found()
    assert {m.operator for m in found} == {
        "cmp-flip", "cmp-boundary", "bool-op", "arith", "unary", "const", "return", "delete",
    }  # fmt: skip
    assert [m.after for m in _by(found, "cmp-boundary", "0 <= x < LIMIT")] == ["0 < x < LIMIT", "0 <= x <= LIMIT"]
    assert [m.after for m in _by(found, "cmp-flip", "0 <= x < LIMIT")] == ["0 > x < LIMIT", "0 <= x >= LIMIT"]
    assert [m.after for m in _by(found, "const", "3")] == ["4", "2"]
    assert [m.after for m in _by(found, "const", "True")] == ["False"]
    assert [m.after for m in _by(found, "delete", "y = x + 1")] == ["pass"]
    assert [m.after for m in _by(found, "arith", "x + 1")] == ["x - 1"]
    assert len({m.key for m in found}) == len(found)  # keys are unique


def test_annotations_and_docstrings_are_not_mutated() -> None:
    lines = {m.line for m in _found()}
    assert 1 not in lines and 7 not in lines  # docstrings
    assert not [m for m in _found() if m.before in ("int", "bool")]  # annotations


def test_a_mutant_replaces_exactly_its_span() -> None:
    source = _SOURCE.encode()
    for m in _found():
        assert is_valid(m, source)
        mutated = m.apply(source).decode().splitlines()
        original = _SOURCE.splitlines()
        assert len(mutated) == len(original)
        changed = [i for i, (a, b) in enumerate(zip(original, mutated, strict=True)) if a != b]
        assert changed == [m.line - 1], m
    [swap] = _by(_found(), "bool-op", "0 <= x < LIMIT and (not x == 2)")
    assert "    return (0 <= x < LIMIT or not x == 2)\n" in swap.apply(source).decode()


def test_the_sample_is_seeded_and_spreads_over_operators() -> None:
    found = list(mutants("impl/engines/awari.py", (paths.ROOT / "impl" / "engines" / "awari.py").read_bytes()))
    first, again = sample(found, 16, seed=1), sample(found, 16, seed=1)
    assert first == again and len(first) == 16
    assert len({m.operator for m in first}) == len({m.operator for m in found})
    assert sample(found, 16, seed=2) != first
    assert "impl/engines/awari.py" in TARGETS


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A two-file project: a module and a test that pins ``step`` but not ``untested``."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "mod.py").write_text(_SOURCE)
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "__init__.py").write_text("")
    (tmp_path / "tests" / "test_k.py").write_text(
        "import pytest\nfrom pkg.mod import step\n\n\n@pytest.mark.parametrize('x', ['a b'])\n"
        "def test_step(x: str) -> None:\n    assert step(1) == 2\n"
    )
    return tmp_path


def test_a_planted_killer_kills_and_the_tree_is_untouched(project: Path) -> None:
    scratch = Scratch(project, ("pkg", "tests"))
    try:
        scratch.check_imports(("pkg.mod",))
        [killable] = _by(_found(), "arith", "x + 1")
        [untested] = _by(_found(), "unary", "-7")
        assert scratch.run(None, ["tests"], timeout=120).status == "survived"
        killed = scratch.run(killable, ["tests"], timeout=120)
        assert (killed.status, killed.killer) == ("killed", "tests/test_k.py::test_step[a b]")
        assert scratch.run(untested, ["tests"], timeout=120).status == "survived"
        assert (scratch.dir / "pkg" / "mod.py").read_text() == _SOURCE  # restored in the copy
    finally:
        scratch.remove()
    assert (project / "pkg" / "mod.py").read_text() == _SOURCE  # never written
    assert not scratch.dir.exists()


def test_a_crash_mid_run_leaves_no_mutant_behind(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def crash(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    scratch = Scratch(project, ("pkg", "tests"))
    monkeypatch.setattr(scratch, "_pytest", crash)
    try:
        with pytest.raises(KeyboardInterrupt):
            scratch.run(_found()[0], ["tests"], timeout=120)
        assert (scratch.dir / "pkg" / "mod.py").read_text() == _SOURCE
    finally:
        scratch.remove()
    assert (project / "pkg" / "mod.py").read_text() == _SOURCE


def test_a_mutant_that_hangs_times_out_and_the_next_still_runs(project: Path) -> None:
    """The fork server (tests/mutation/worker.py) kills a child past its timeout — here a
    flipped loop condition that never lets go — and answers the next command as before."""
    source = _SOURCE.replace("    y = x + 1\n", "    while x > 5:\n        x -= 1\n    y = x + 1\n")
    (project / "pkg" / "mod.py").write_text(source)
    [endless] = [m for m in _found(source) if m.operator == "cmp-flip" and m.before == "x > 5"]
    scratch = Scratch(project, ("pkg", "tests"))
    try:
        hung = scratch.run(endless, ["tests"], timeout=2)
        assert hung.status == "timeout" and hung.seconds < 60
        assert scratch.run(None, ["tests"], timeout=120).status == "survived"
        assert (scratch.dir / "pkg" / "mod.py").read_text() == source
    finally:
        scratch.remove()


@pytest.mark.parametrize("target", TARGETS)
def test_the_kill_suites_name_the_test_files_as_they_are(target: str) -> None:
    """``suite`` and ``quick`` name test files by path and keep only those that exist, so
    a test file moved or renamed would leave the kill-suite silently: each names its
    game's corpus, witness and differential tests, and nothing that is not there."""
    game = "awari" if "awari" in target else "gothello"
    full, first = suite(paths.ROOT, target, True), quick(paths.ROOT, target)
    named = {
        arg.split("::")[0] for arg in [*full, *first, *suite(paths.ROOT, target, False)] if arg.startswith("tests/")
    }
    assert all((paths.ROOT / name).is_file() for name in named)
    layer = "engines" if target.startswith("impl/") else "spec"
    witnesses = (
        f"tests/engines/test_{game}_rule_witnesses.py"
        if layer == "engines"
        else f"tests/spec/test_{game}_schema_witnesses.py"
    )
    expected = {
        "tests/engines/test_golden.py",
        "tests/engines/test_differential.py",
        f"tests/engines/test_corners_{game}.py",
        witnesses,
    }
    if layer == "spec":
        expected |= {
            f"tests/spec/test_rules_{game}.py",
            f"tests/spec/test_errata_{game}.py",
            f"tests/spec/test_contracts_{game}.py",
        }
    assert expected <= set(full) and witnesses in first


def test_an_argument_fills_a_shared_text_and_keeps_escaped_braces(tmp_path: Path) -> None:
    """tests/mutation/verdicts.py: a string argument may insert a shared text by ``{NAME}``;
    an inline table names a shared text and fills its fields; ``{{ }}`` are braces."""
    path = tmp_path / "mod.toml"
    path.write_text(
        "[shared]\n"
        'WHY = "no code reads it"\n'
        'TAG = "{values} stay distinct; {WHY}"\n'
        "[equivalent]\n"
        '"a#1" = "the set {{s}} is unchanged: {WHY}"\n'
        '"a#2" = { shared = "TAG", values = "-1, 1 and 2" }\n'
        '"a#3" = { shared = "WHY" }\n',
        encoding="utf-8",
    )
    assert verdicts.load(path) == {
        "a#1": "the set {s} is unchanged: no code reads it",
        "a#2": "-1, 1 and 2 stay distinct; no code reads it",
        "a#3": "no code reads it",
    }


def test_the_committed_report_is_the_committed_results_with_the_verdicts() -> None:
    """Every equivalent survivor of the committed run keeps its argument: rendering the
    committed results with the verdicts read from tests/mutation/equivalent/*.toml gives
    the committed report to the byte."""
    results = paths.ROOT / "tests" / "mutation" / "results"
    data = json.loads((results / "mutation-results.json").read_text(encoding="utf-8"))
    assert render(data) == (results / "mutation-report.md").read_text(encoding="utf-8")
