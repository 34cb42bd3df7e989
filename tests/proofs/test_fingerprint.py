"""The verdict cache's fingerprint (proofs/awari/slices.py) is of what the proof runs:
a docstring or comment edit leaves it as it was, a code edit changes it — checked on
a temporary copy of the Awari engine, never on the real file."""

from __future__ import annotations

import ast
import shutil
from pathlib import Path

from proofs.awari import slices as L

MODULES = ("impl.engines.awari", "spec.awari")


def _copy(tmp_path: Path) -> Path:
    """The modules of MODULES copied under tmp_path, at their module paths."""
    for name in MODULES:
        target = L.module_path(name, tmp_path)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(L.module_path(name), target)
    return L.module_path("impl.engines.awari", tmp_path)


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
    assert L.module_name("impl/engines/awari.py") == "impl.engines.awari"
    assert L.module_name("proofs/__init__.py") == "proofs"
    engine = L.module_path("impl.engines.awari", tmp_path)
    shutil.copyfile(engine, engine.with_name("renamed.py"))
    assert L.fingerprint(("impl.engines.renamed", "spec.awari"), tmp_path) != L.fingerprint(MODULES, tmp_path)
