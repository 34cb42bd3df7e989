"""Mutants of a Python source: where, which operator, and the mutated text.

A mutant is one small syntactic change at one place, written as a byte-span
replacement of the original source, so the rest of the file (comments, layout, line
numbers of everything before the change) is untouched and the change reads as a
one-line diff.  Expression replacements are parenthesised, so precedence never
changes around them.

Operators (the usual ones of mutation testing):

  cmp-flip      ==/!=, </>=, >/<=, in/not in, is/is not swapped
  cmp-boundary  < and <=, > and >= swapped (off-by-one)
  bool-op       and/or swapped
  arith         + -, * → +, // → *, % → //, & |, ^ → |, << >> (also in x op= y)
  unary         ``not x`` → ``x``, ``-x`` → ``x``
  const         an int literal n → n + 1 and n - 1; True/False swapped
  return        ``return e`` → ``return None``
  delete        a statement in a function body → ``pass``

Nothing is mutated inside type annotations, docstrings or f-strings: there a change is
either invisible at run time or not a change of behaviour.
"""

from __future__ import annotations

import ast
import copy
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Final

_CMP_FLIP: Final[dict[type[ast.cmpop], type[ast.cmpop]]] = {
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.Lt: ast.GtE,
    ast.GtE: ast.Lt,
    ast.Gt: ast.LtE,
    ast.LtE: ast.Gt,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
}
_CMP_BOUNDARY: Final[dict[type[ast.cmpop], type[ast.cmpop]]] = {
    ast.Lt: ast.LtE,
    ast.LtE: ast.Lt,
    ast.Gt: ast.GtE,
    ast.GtE: ast.Gt,
}
_ARITH: Final[dict[type[ast.operator], type[ast.operator]]] = {
    ast.Add: ast.Sub,
    ast.Sub: ast.Add,
    ast.Mult: ast.Add,
    ast.FloorDiv: ast.Mult,
    ast.Mod: ast.FloorDiv,
    ast.BitAnd: ast.BitOr,
    ast.BitOr: ast.BitAnd,
    ast.BitXor: ast.BitOr,
    ast.LShift: ast.RShift,
    ast.RShift: ast.LShift,
}
# Fields that hold annotations: skipped (no run-time behaviour).
_ANNOTATION_FIELDS: Final = frozenset({"annotation", "returns", "type_comment", "type_params"})


@dataclass(frozen=True)
class Mutant:
    """One mutant of the file ``path`` (repository-relative).

    ``index`` numbers the file's mutants in source order; ``key`` names the mutant
    stably across edits elsewhere in the file (function, change, occurrence), for the
    verdicts that judge survivors."""

    path: str
    index: int
    line: int
    function: str
    operator: str
    before: str
    after: str
    start: int
    end: int
    replacement: str
    key: str

    @property
    def id(self) -> str:
        """``path#index``, as the report and ``--only`` name it."""
        return f"{self.path}#{self.index}"

    def apply(self, source: bytes) -> bytes:
        """The mutated source: the span [start, end) replaced."""
        return source[: self.start] + self.replacement.encode() + source[self.end :]


def _line_offsets(source: bytes) -> list[int]:
    """The byte offset of each line's start (ast positions are UTF-8 byte columns)."""
    offsets = [0, 0]  # ast lines count from 1
    for i, byte in enumerate(source):
        if byte == ord("\n"):
            offsets.append(i + 1)
    return offsets


class _Collector:
    """Walks a module and yields (node, operator, rewrite) for every mutation point."""

    def __init__(self) -> None:
        self.found: list[tuple[ast.AST, str, str, Callable[[ast.AST], ast.AST]]] = []
        self._scope: list[str] = []
        self._in_function = 0

    def visit(self, node: ast.AST) -> None:
        if isinstance(node, ast.JoinedStr):
            return
        scoped = isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
        if scoped:
            assert isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
            self._scope.append(node.name)
        function = isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
        self._in_function += function
        self._mutations(node)
        for field, value in ast.iter_fields(node):
            if field in _ANNOTATION_FIELDS:
                continue
            children = value if isinstance(value, list) else [value]
            for child in children:
                if isinstance(child, ast.AST):
                    self.visit(child)
        self._in_function -= function
        if scoped:
            self._scope.pop()

    def _add(self, node: ast.AST, operator: str, rewrite: Callable[[ast.AST], ast.AST]) -> None:
        self.found.append((node, operator, ".".join(self._scope) or "<module>", rewrite))

    def _mutations(self, node: ast.AST) -> None:
        if isinstance(node, ast.Compare):
            for i, op in enumerate(node.ops):
                for name, table in (("cmp-flip", _CMP_FLIP), ("cmp-boundary", _CMP_BOUNDARY)):
                    if type(op) in table:
                        self._add(node, name, _set_cmp(i, table[type(op)]))
        elif isinstance(node, ast.BoolOp):
            self._add(node, "bool-op", _swap_boolop)
        elif isinstance(node, ast.BinOp | ast.AugAssign) and type(node.op) in _ARITH:
            self._add(node, "arith", _set_binop(_ARITH[type(node.op)]))
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not | ast.USub):
            self._add(node, "unary", _drop_unary)
        elif isinstance(node, ast.Constant) and isinstance(node.value, bool):
            self._add(node, "const", _set_constant(not node.value))
        elif isinstance(node, ast.Constant) and isinstance(node.value, int):
            self._add(node, "const", _set_constant(node.value + 1))
            self._add(node, "const", _set_constant(node.value - 1))
        returns_none = (
            isinstance(node, ast.Return) and isinstance(node.value, ast.Constant) and node.value.value is None
        )
        if isinstance(node, ast.Return) and node.value is not None and not returns_none:
            self._add(node, "return", _return_none)
        if self._in_function and isinstance(node, ast.Assign | ast.AugAssign | ast.AnnAssign | ast.Expr):
            docstring = isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
            if not docstring:
                self._add(node, "delete", lambda _: ast.Pass())


def _set_cmp(i: int, op: type[ast.cmpop]) -> Callable[[ast.AST], ast.AST]:
    def rewrite(node: ast.AST) -> ast.AST:
        assert isinstance(node, ast.Compare)
        node.ops[i] = op()
        return node

    return rewrite


def _swap_boolop(node: ast.AST) -> ast.AST:
    assert isinstance(node, ast.BoolOp)
    node.op = ast.Or() if isinstance(node.op, ast.And) else ast.And()
    return node


def _set_binop(op: type[ast.operator]) -> Callable[[ast.AST], ast.AST]:
    def rewrite(node: ast.AST) -> ast.AST:
        assert isinstance(node, ast.BinOp | ast.AugAssign)
        node.op = op()
        return node

    return rewrite


def _drop_unary(node: ast.AST) -> ast.AST:
    assert isinstance(node, ast.UnaryOp)
    return node.operand


def _set_constant(value: int) -> Callable[[ast.AST], ast.AST]:
    def rewrite(node: ast.AST) -> ast.AST:
        return ast.Constant(value)

    return rewrite


def _return_none(node: ast.AST) -> ast.AST:
    return ast.Return(ast.Constant(None))


def _text(node: ast.AST) -> str:
    """One-line source of a node, as ast.unparse writes it."""
    return " ".join(ast.unparse(node).split())


def mutants(path: str, source: bytes) -> Iterator[Mutant]:
    """Every mutant of ``source`` (the file ``path``), in source order."""
    tree = ast.parse(source)
    collector = _Collector()
    collector.visit(tree)
    offsets = _line_offsets(source)
    occurrences: dict[str, int] = {}
    for index, (node, operator, function, rewrite) in enumerate(collector.found):
        start = offsets[node.lineno] + node.col_offset  # type: ignore[attr-defined]
        end_line, end_col = node.end_lineno, node.end_col_offset  # type: ignore[attr-defined]
        assert end_line is not None and end_col is not None
        end = offsets[end_line] + end_col
        mutated = rewrite(copy.deepcopy(node))
        after = _text(mutated)
        replacement = after if isinstance(mutated, ast.stmt) else f"({after})"
        before = _text(node)
        stem = f"{path}::{function}::{operator}::{before} → {after}"
        occurrences[stem] = occurrences.get(stem, 0) + 1
        yield Mutant(
            path=path,
            index=index,
            line=node.lineno,  # type: ignore[attr-defined]
            function=function,
            operator=operator,
            before=before,
            after=after,
            start=start,
            end=end,
            replacement=replacement,
            key=f"{stem}#{occurrences[stem]}",
        )


def is_valid(mutant: Mutant, source: bytes) -> bool:
    """Whether the mutated source still parses (every operator here keeps it so)."""
    try:
        ast.parse(mutant.apply(source))
    except SyntaxError:
        return False
    return True
