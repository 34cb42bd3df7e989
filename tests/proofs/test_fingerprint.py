"""The verdict cache's fingerprint (proofs/fingerprint.py, used by proofs/awari/slices.py)
is of what the proof runs: a docstring or comment edit leaves it as it was, a code
edit changes it; given the functions a proof read, an edit to another function's body
leaves it, an edit to a read one, to a module's statements or to the set of
definitions changes it — checked on temporary copies, never on the real files."""

from __future__ import annotations

import ast
import shutil
import sys
from pathlib import Path

import pytest

from proofs import fingerprint as F
from proofs.awari import slices as L

MODULES = ("impl.engines.awari", "spec.awari")


def _copy(tmp_path: Path) -> Path:
    """The modules of MODULES copied under tmp_path, at their module paths."""
    for name in MODULES:
        target = F.module_path(name, tmp_path)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(F.module_path(name), target)
    return F.module_path("impl.engines.awari", tmp_path)


def _first_inner_docstring(source: str) -> int:
    """The 0-based line of the first class or function docstring in ``source``."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ClassDef | ast.FunctionDef) and ast.get_docstring(node) is not None:
            return node.body[0].lineno - 1
    raise AssertionError("no docstring inside the module")


def test_a_docstring_or_comment_edit_leaves_the_fingerprint(tmp_path: Path) -> None:
    engine = _copy(tmp_path)
    before = L.fingerprint(MODULES, tmp_path)
    assert before == L.fingerprint(MODULES)  # the copy means what the original means
    text = engine.read_text()
    first = text.index('"""') + 3
    edited = text[:first] + "An edited module docstring.  " + text[first:]
    edited = edited.replace("\ndef ", "\n# a new comment\ndef ", 1)
    lines = edited.splitlines(keepends=True)
    doc = _first_inner_docstring(edited)  # a class's or function's, 0-based line
    opening = lines[doc].index('"""') + 3
    lines[doc] = lines[doc][:opening] + "Reworded. " + lines[doc][opening:]
    edited = "".join(lines)
    engine.write_text(edited)
    assert engine.read_text() != text
    assert L.fingerprint(MODULES, tmp_path) == before


def test_a_function_without_a_docstring_keeps_its_fingerprint_when_given_one(tmp_path: Path) -> None:
    engine = _copy(tmp_path)
    engine.write_text(engine.read_text() + "\n\ndef extra(x: int) -> int:\n    return x + 1\n")
    before = L.fingerprint(MODULES, tmp_path)
    engine.write_text(engine.read_text().replace("    return x + 1\n", '    """One more."""\n    return x + 1\n'))
    assert L.fingerprint(MODULES, tmp_path) == before


def test_a_code_edit_changes_the_fingerprint(tmp_path: Path) -> None:
    engine = _copy(tmp_path)
    before = L.fingerprint(MODULES, tmp_path)
    text = engine.read_text()
    engine.write_text(text + "\nAFTERTHOUGHT = 1\n")
    assert L.fingerprint(MODULES, tmp_path) != before
    engine.write_text(text.replace(" + 1", " + 2", 1))
    assert " + 1" in text and L.fingerprint(MODULES, tmp_path) != before


def test_modules_are_named_not_located(tmp_path: Path) -> None:
    """The key is the module name: the same modules under another root (a clone
    elsewhere) give the same fingerprint; another name for the same code does not."""
    _copy(tmp_path)
    assert L.fingerprint(MODULES, tmp_path) == L.fingerprint(MODULES)
    assert F.module_name("impl/engines/awari.py") == "impl.engines.awari"
    assert F.module_name("proofs/__init__.py") == "proofs"
    engine = F.module_path("impl.engines.awari", tmp_path)
    shutil.copyfile(engine, engine.with_name("renamed.py"))
    assert L.fingerprint(("impl.engines.renamed", "spec.awari"), tmp_path) != L.fingerprint(MODULES, tmp_path)


MODULE = """\
LIMIT = 3


def helper(x):
    return [y + 1 for y in range(x)]


class Board:
    SIZE = 12

    def apply(self, x):
        def inner(z):
            return helper(z)

        return inner(x) + [LIMIT]

    def unused(self, x):
        return x - 1


def never(x):
    return x * 2
"""


def _package(root: Path) -> str:
    """A package ``pkg`` under root with MODULE as ``pkg.mod``; the module's name."""
    (root / "pkg").mkdir()
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "mod.py").write_text(MODULE)
    return "pkg.mod"


def test_reads_names_the_outermost_definitions_that_ran(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A nested function and a comprehension count as the function around them; a
    module's or a class's body, and what is outside the root, are not functions read."""
    _package(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    with F.Reads(tmp_path) as reads:
        import pkg.mod  # type: ignore[import-not-found]

        assert pkg.mod.Board().apply(2) == [1, 2, 3]
    assert reads.names == {"pkg.mod:Board.apply", "pkg.mod:helper"}
    assert F.parse_reads(reads.text()) == frozenset(reads.names)
    sys.modules.pop("pkg.mod")
    sys.modules.pop("pkg")


def test_only_what_the_proof_read_counts(tmp_path: Path) -> None:
    name = _package(tmp_path)
    source = tmp_path / "pkg" / "mod.py"
    reads = {"pkg.mod:Board.apply", "pkg.mod:helper"}

    def fp() -> str:
        return F.fingerprint([name], tmp_path, reads)

    before = fp()
    assert F.fingerprint([name], tmp_path) != before  # the whole module is another fingerprint
    unread = [("x - 1", "x - 2"), ("x * 2", "x * 3")]  # bodies of Board.unused and never
    read = [("y + 1", "y + 2"), ("return helper(z)", "return helper(z + 0)"), ("[LIMIT]", "[LIMIT, 0]")]
    statements = [("LIMIT = 3", "LIMIT = 4"), ("SIZE = 12", "SIZE = 13"), ("def never(x)", "def never(x=1)")]
    definitions = [("def unused", "def unused2"), ("def never", "def extra():\n    return 0\n\n\ndef never")]
    for old, new in unread:
        source.write_text(MODULE.replace(old, new))
        assert fp() == before, (old, new)
    for old, new in [*read, *statements, *definitions]:
        assert old in MODULE
        source.write_text(MODULE.replace(old, new))
        assert fp() != before, (old, new)


def test_a_module_only_read_counts_too(tmp_path: Path) -> None:
    """A function read in a module outside the list (imported late) brings its module in."""
    name = _package(tmp_path)
    with_read = F.fingerprint([], tmp_path, {f"{name}:helper"})
    (tmp_path / "pkg" / "mod.py").write_text(MODULE.replace("y + 1", "y + 2"))
    assert F.fingerprint([], tmp_path, {f"{name}:helper"}) != with_read


def test_an_override_added_to_a_class_reopens() -> None:
    """A method added where an inherited one was read would run instead of it: adding
    any definition changes the fingerprint, though its body was never read."""
    base = "class A:\n    def f(self):\n        return 1\n\n\nclass B(A):\n    pass\n"
    override = base.replace("    pass\n", "    def f(self):\n        return 2\n")
    assert F.normalised(base, {"A.f"}) != F.normalised(override, {"A.f"})


def test_a_real_slice_reopens_for_what_it_ran_only(tmp_path: Path) -> None:
    """One of apply's slices proven for real, its reads recorded: an edit to the
    rule-set engine's ``_slam_rule`` (never run by ImplAwari's proof) keeps its verdict,
    an edit to ``ImplAwari.apply`` reopens it."""
    r = L.run_one((0, 0, 48), 600.0)  # ≈ 1 s of proof: few stones left elsewhere
    assert r["verdict"] == "proven", r["detail"]
    reads = L.reads_of(r)
    assert reads is not None and {"impl.engines.awari:ImplAwari.apply", "spec.awari:Sow"} <= reads
    assert "impl.engines.awari:RulesAwari._slam_rule" not in reads
    modules = L.sources()
    for name in {*modules, *(read.partition(":")[0] for read in reads)}:
        target = tmp_path / F.module_path(name).relative_to(F.ROOT)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(F.module_path(name), target)
    before = L.fingerprint(modules, tmp_path, reads)
    assert before == L.fingerprint(modules, reads=reads)
    engine = F.module_path("impl.engines.awari", tmp_path)
    text = engine.read_text()
    slam = "    def _slam_rule(self) -> int:\n        return self.gs\n"
    assert text.count(slam) == 1
    engine.write_text(text.replace(slam, slam.replace("self.gs", "self.gs + 0")))
    assert L.fingerprint(modules, tmp_path, reads) == before
    apply = "    def apply(self, state: AwariState, action: A.PIT) -> tuple[Result[A.PLAYER], AwariState]:\n"
    start = text.index("class ImplAwari")
    at = text.index(apply, start) + len(apply)
    engine.write_text(text[:at] + "        assert action is not None\n" + text[at:])
    assert L.fingerprint(modules, tmp_path, reads) != before
