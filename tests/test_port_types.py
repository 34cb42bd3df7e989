"""Engines and their states are typed with the engine port's types (issue #42): no
parameter, attribute or variable named for an engine or a state, in impl/, bench/
or proofs/, is annotated ``Any`` or ``object`` — the port (impl/engines/port.py)
names them ``GameEngine`` and ``GameState``, or a narrower type where one is known.
Read with ``ast``; nothing is imported."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TREES = ("impl", "bench", "proofs")
ERASED = frozenset({"Any", "object"})


def is_role(name: str) -> bool:
    """An engine's or a state's name: ``engine``, ``state``, ``fast_engine``, ``spec_state``."""
    return name in ("engine", "state") or name.endswith(("_engine", "_state"))


def erased(annotation: ast.expr) -> bool:
    """The annotation is ``Any`` or ``object``, or a union with one of them (``Any |
    None``); ``Callable[[str], Any]`` (a parser of states) is not."""
    match annotation:
        case ast.Name(id=name) | ast.Attribute(attr=name):
            return name in ERASED
        case ast.BinOp(left=left, op=ast.BitOr(), right=right):
            return erased(left) or erased(right)
        case ast.Subscript(value=ast.Name(id="Optional") | ast.Attribute(attr="Optional"), slice=inner):
            return erased(inner)
    return False


def untyped_roles(source: str, where: str) -> Iterator[str]:
    """``where:line name: annotation`` for each engine or state typed ``Any``/``object``."""
    for node in ast.walk(ast.parse(source, where)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            arguments = node.args
            for arg in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]:
                if arg.annotation is not None and is_role(arg.arg) and erased(arg.annotation):
                    yield f"{where}:{arg.lineno} {arg.arg}: {ast.unparse(arg.annotation)}"
        elif isinstance(node, ast.AnnAssign):
            target = node.target
            name = (
                target.id if isinstance(target, ast.Name) else target.attr if isinstance(target, ast.Attribute) else ""
            )
            if is_role(name) and erased(node.annotation):
                yield f"{where}:{node.lineno} {ast.unparse(target)}: {ast.unparse(node.annotation)}"


def test_no_engine_or_state_is_typed_any() -> None:
    found = [
        line
        for tree in TREES
        for path in sorted((ROOT / tree).rglob("*.py"))
        for line in untyped_roles(path.read_text(encoding="utf-8"), path.relative_to(ROOT).as_posix())
    ]
    assert found == []


def test_the_check_sees_each_form() -> None:
    source = (
        "from typing import Any\n"
        "def f(engine: Any, state: 'GameState', fast_engine: object = None, *, spec_state: Any | None) -> None:\n"
        "    local_state: typing.Any = 0\n"
        "    parse_state: Callable[[str], Any] = parse\n"
        "class C:\n"
        "    state: Any\n"
        "    def __init__(self, game: Any) -> None:\n"
        "        self.engine: Any = None\n"
    )
    assert list(untyped_roles(source, "x.py")) == [
        "x.py:2 engine: Any",
        "x.py:2 fast_engine: object",
        "x.py:2 spec_state: Any | None",
        "x.py:3 local_state: typing.Any",
        "x.py:6 state: Any",
        "x.py:8 self.engine: Any",
    ]
