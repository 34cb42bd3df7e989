"""What a proof read, and the fingerprint of it: equal fingerprints, the same proof.

A proof run in a fresh interpreter executes the module-level statements of every
module it imports (their constants, class bodies, decorators and default values) and
the bodies of the functions it calls.  ``Reads`` records those functions as the proof
runs — each by its module and the qualified name of its outermost definition (a
nested function, a lambda or a comprehension counts as the function around it) — and
``fingerprint`` hashes z3's and Python's versions, each module's syntax tree without
docstrings, comments or layout, and, of its functions, the bodies of the read ones
only: another function's body is dropped, its signature and decorators kept.

So a change to a function the proof never called reopens nothing, and a change to
anything it executed always does — including a change that makes it call a function
it did not call before, since the call is made from code it executed.  Execution is
deterministic (one z3 context per proof, hash seed fixed), so equal code read gives
the same run.  ``reads=None`` keeps every body: the fingerprint of the whole modules,
for verdicts recorded before reads were (proofs/awari/slices.py).
"""

from __future__ import annotations

import ast
import hashlib
import inspect
import sys
import threading
from collections.abc import Collection, Iterable
from pathlib import Path
from types import CodeType, FrameType, TracebackType
from typing import Final

import z3

ROOT: Final = Path(__file__).resolve().parents[1]

PYTHON: Final = "{}.{}".format(*sys.version_info)
"""The version whose syntax trees the fingerprint hashes (their form changes between minor versions)."""

FunctionDef = ast.FunctionDef | ast.AsyncFunctionDef


def module_name(path: str) -> str:
    """``impl/engines/awari.py`` → ``impl.engines.awari``; a package's ``__init__.py`` → the package."""
    parts = path.removesuffix(".py").split("/")
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def module_path(name: str, root: Path | None = None) -> Path:
    """The source file of module ``name`` under ``root`` (ROOT unless given)."""
    base = (ROOT if root is None else root).joinpath(*name.split("."))
    return base / "__init__.py" if base.is_dir() else base.with_suffix(".py")


def outermost(qualname: str) -> str:
    """The definition a code object belongs to, at module or class level:
    ``f.<locals>.g`` → ``f``, ``C.m.<locals>.<listcomp>`` → ``C.m``."""
    return qualname.split(".<locals>", 1)[0]


def _is_docstring(s: ast.stmt) -> bool:
    return isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant) and isinstance(s.value.value, str)


class _Meaning(ast.NodeTransformer):
    """Drops every bare-string statement (docstrings of modules, classes and functions,
    and the attribute docstrings this repository writes under assignments: none is
    run) and, unless ``read`` is None, the body of every module- or class-level
    function whose qualified name is not in ``read``."""

    def __init__(self, read: Collection[str] | None) -> None:
        self.read = read
        self.scope: list[str] = []

    def _body(self, node: ast.AST) -> None:
        body = getattr(node, "body", None)
        if isinstance(body, list):
            node.body = [s for s in body if not _is_docstring(s)] or [ast.Pass()]  # type: ignore[attr-defined]

    def visit_ClassDef(self, node: ast.ClassDef) -> ast.AST:
        self.scope.append(node.name)
        self.generic_visit(node)
        self.scope.pop()
        self._body(node)
        return node

    def _function(self, node: FunctionDef) -> ast.AST:
        qualname = ".".join([*self.scope, node.name])
        nested = any(part.endswith(".<locals>") for part in self.scope)  # inside a read function: run with it
        if self.read is not None and not nested and qualname not in self.read:
            node.body = [ast.Pass()]  # never run by the proof: its body is not what it read
            return node
        self.scope.append(f"{node.name}.<locals>")  # nested definitions belong to this one
        self.generic_visit(node)
        self.scope.pop()
        self._body(node)
        return node

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.AST:
        return self._function(node)

    def visit_AsyncFunctionDef(self, node: ast.AsyncFunctionDef) -> ast.AST:
        return self._function(node)

    def generic_visit(self, node: ast.AST) -> ast.AST:
        super().generic_visit(node)
        if isinstance(node, ast.Module):
            self._body(node)
        return node


def normalised(source: str, read: Collection[str] | None = None) -> str:
    """What a module means to a proof that ran the functions ``read`` of it (every one
    if None): its syntax tree without docstrings, comments, line numbers or layout
    (``ast.dump`` omits positions), and without the bodies of the functions not read."""
    return ast.dump(_Meaning(read).visit(ast.parse(source)))


def fingerprint(modules: Iterable[str], root: Path | None = None, reads: Iterable[str] | None = None) -> str:
    """sha256 over z3's and Python's versions and, for each module (its file under
    ``root``, ROOT unless given), its name and ``normalised`` tree.  ``reads`` are
    the functions the proof ran, ``module:qualname`` (``Reads.names``); their modules
    count too, imported or not; None keeps every function body."""
    by_module: dict[str, set[str]] = {name: set() for name in modules}
    for read in reads or ():
        name, _, qualname = read.partition(":")
        by_module.setdefault(name, set()).add(qualname)
    h = hashlib.sha256(f"z3 {z3.get_version_string()}\0python {PYTHON}\0".encode())
    for name in sorted(by_module):
        tree = normalised(module_path(name, root).read_text(), None if reads is None else by_module[name])
        h.update(name.encode() + b"\0" + tree.encode() + b"\0")
    return h.hexdigest()[:16]


class Reads:
    """Within: every function of a module under ``root`` that runs, by
    ``module:qualname`` of its outermost definition (``names``).  A trace function on
    calls only (it returns None: no line events), in this thread and new ones."""

    def __init__(self, root: Path | None = None) -> None:
        self.root = (ROOT if root is None else root).resolve()
        self.names: set[str] = set()
        self._seen: dict[CodeType, str | None] = {}

    def _name(self, code: CodeType) -> str | None:
        if not code.co_flags & inspect.CO_OPTIMIZED:
            return None  # a module's or a class's body: hashed whole as statements
        path = Path(code.co_filename)
        if not path.is_absolute() or not path.is_relative_to(self.root):
            return None
        where = path.relative_to(self.root)
        if any(part.startswith(".") or part == "site-packages" for part in where.parts):
            return None  # a virtualenv inside the checkout: installed code, not the repository's
        qualname = outermost(code.co_qualname)
        if qualname.startswith("<"):  # a lambda or comprehension at module level: a statement there
            return None
        return f"{module_name(where.as_posix())}:{qualname}"

    def _trace(self, frame: FrameType, event: str, arg: object) -> None:
        code = frame.f_code
        if code not in self._seen:
            self._seen[code] = name = self._name(code)
            if name is not None:
                self.names.add(name)

    def __enter__(self) -> Reads:
        sys.settrace(self._trace)
        threading.settrace(self._trace)
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        sys.settrace(None)
        threading.settrace(None)

    def text(self) -> str:
        """The names on one line, sorted, no spaces: a subprocess's report."""
        return ",".join(sorted(self.names))


def parse_reads(text: str) -> frozenset[str]:
    """``Reads.text`` back."""
    return frozenset(n for n in text.split(",") if n)
