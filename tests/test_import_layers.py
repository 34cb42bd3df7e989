"""impl/ is built in floors, and no import runs back up or round in a circle.

Every ``import`` and ``from … import`` of every impl module counts — at the top,
inside a function (a lazy import) or under ``TYPE_CHECKING`` — read from the source
with ``ast``, never by importing it.  The floors, lowest first (as they are, issue #31):

    0  impl.game, impl.atomic, impl.log,   import nothing of impl's but impl.game (the
       impl.cli                            rule sets' names); impl.cli is the argument
                                           helpers every command uses (its ``main``
                                           loads the commands by name,
                                           ``COMMAND_MODULES``: no import statement)
    1  impl.engines.*, impl.protocol       the rules engines (and openings, perft),
                                           the wire's lines
    2  impl.pgn, impl.config               records' text; the one configuration
    3  impl.server.*                       the referee server
    4  impl.client.*                       the client library, local servers
    5  impl.players.*                      the players, on the client
    6  impl.web.*                          the web view, on the server's sessions
    7  impl.apps.*                         the commands: serve, match, tournament, …

A module may import its own floor or lower ones, never a higher one; and no set of
modules may import each other round a circle, on one floor or across floors.  The
top level holds at most eight modules.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from pathlib import Path

IMPL = Path(__file__).resolve().parents[1] / "impl"

FLOORS: tuple[tuple[str, ...], ...] = (
    ("impl.game", "impl.atomic", "impl.log", "impl.cli"),
    ("impl.engines", "impl.protocol"),
    ("impl.pgn", "impl.config"),
    ("impl.server",),
    ("impl.client",),
    ("impl.players",),
    ("impl.web",),
    ("impl.apps",),
)
"""Each floor's modules and packages (a package stands for all its modules)."""

MAX_TOP_LEVEL = 8


def modules(root: Path = IMPL) -> dict[str, Path]:
    """Every module under ``root`` by dotted name (a package by its own name)."""
    found = {}
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(root.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = path
    return found


def imports_of(name: str, path: Path, known: Iterable[str]) -> set[str]:
    """The impl modules ``name`` (at ``path``) imports, wherever the statement is."""
    known = set(known)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            out |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join([*base, *([node.module] if node.module else [])])
            else:
                module = node.module or ""
            for alias in node.names:  # ``from impl.apps import games`` imports a module
                out.add(f"{module}.{alias.name}" if f"{module}.{alias.name}" in known else module)
    return {m for m in out if m in known and m != name}


def graph(root: Path = IMPL) -> dict[str, set[str]]:
    found = modules(root)
    return {name: imports_of(name, path, found) for name, path in found.items()}


def _reaches(module: str, packages: Iterable[str]) -> bool:
    """``module`` is one of ``packages`` or inside one of them."""
    return any(module == p or module.startswith(p + ".") for p in packages)


def floor_of(module: str, floors: tuple[tuple[str, ...], ...] = FLOORS) -> int | None:
    for number, members in enumerate(floors):
        if _reaches(module, members):
            return number
    return None


def upward(edges: Mapping[str, set[str]], floors: tuple[tuple[str, ...], ...] = FLOORS) -> list[str]:
    """Each import from a lower floor to a higher one, as ``a (floor) -> b (floor)``."""
    found = []
    for source, targets in sorted(edges.items()):
        for target in sorted(targets):
            low, high = floor_of(source, floors), floor_of(target, floors)
            if low is not None and high is not None and high > low:
                found.append(f"{source} ({low}) -> {target} ({high})")
    return found


def circles(edges: Mapping[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(edges.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


# ─── the checks themselves, on graphs made up to fail them ─────────────────────


def test_the_checks_find_a_circle_and_an_upward_import() -> None:
    edges = {"impl.apps.match": {"impl.apps.tournament"}, "impl.apps.tournament": {"impl.web.tourney"}}
    edges["impl.web.tourney"] = {"impl.apps.tournament"}
    assert circles(edges) == [["impl.apps.tournament", "impl.web.tourney"]]
    assert upward(edges) == ["impl.web.tourney (6) -> impl.apps.tournament (7)"]
    assert circles({"a": {"b"}, "b": {"c"}, "c": set()}) == []


def test_imports_are_read_wherever_they_are(tmp_path: Path) -> None:
    """Lazy, relative and ``TYPE_CHECKING`` imports count, as well as the top's."""
    package = tmp_path / "impl" / "server"
    package.mkdir(parents=True)
    (tmp_path / "impl" / "__init__.py").write_text("")
    (tmp_path / "impl" / "log.py").write_text("")
    (package / "__init__.py").write_text("")
    (package / "net.py").write_text("")
    (package / "session.py").write_text(
        "from typing import TYPE_CHECKING\nfrom . import net\n"
        "if TYPE_CHECKING:\n    import impl.log\n"
        "def later() -> None:\n    from impl.apps import serve\n"
    )
    (tmp_path / "impl" / "apps").mkdir()
    (tmp_path / "impl" / "apps" / "__init__.py").write_text("")
    (tmp_path / "impl" / "apps" / "serve.py").write_text("")
    edges = graph(tmp_path / "impl")
    assert edges["impl.server.session"] == {"impl.server.net", "impl.log", "impl.apps.serve"}
    assert upward(edges) == ["impl.server.session (3) -> impl.apps.serve (7)"]


# ─── impl/ as it is ────────────────────────────────────────────────────────────


def test_every_impl_module_has_a_floor() -> None:
    assert [m for m in modules() if m != "impl" and floor_of(m) is None] == []


def test_no_import_runs_from_a_lower_floor_to_a_higher_one() -> None:
    assert upward(graph()) == []


def test_no_circle_of_imports() -> None:
    assert circles(graph()) == []


def test_the_top_level_holds_at_most_eight_modules() -> None:
    top = sorted(p.name for p in IMPL.glob("*.py"))
    assert len(top) <= MAX_TOP_LEVEL, top


READERS_OF_MOVES = ("impl.pgn", "impl.web")
"""What records and shows games: they learn what a move did from the engine port's
``describe``/``cells`` (issue #31), never from the rules or an engine's packed state."""

RULES_AND_PACKINGS = ("spec", "impl.engines.awari", "impl.engines.gothello", "impl.engines.spec_engine")


SPEC = IMPL.parent / "spec"


def rules_and_impl_imports(name: str, path: Path) -> set[str]:
    """The modules of impl/ and spec/ that ``name`` imports, wherever the statement is."""
    return imports_of(name, path, {**modules(), **modules(SPEC)})


def test_records_and_the_web_view_read_moves_through_the_port_alone() -> None:
    """``impl/pgn.py`` and the web view import neither the spec nor a fast engine's
    module (where the packed state is unpacked): nothing of them can rerun the rules
    or read an engine's bits for display."""
    readers = {n: p for n, p in modules().items() if _reaches(n, READERS_OF_MOVES)}
    assert "impl.pgn" in readers and "impl.web.views" in readers
    found = {
        n: sorted(m for m in rules_and_impl_imports(n, p) if _reaches(m, RULES_AND_PACKINGS))
        for n, p in readers.items()
    }
    assert {n: ms for n, ms in found.items() if ms} == {}


def test_the_readers_check_sees_a_spec_import(tmp_path: Path) -> None:
    sneaky = tmp_path / "views.py"
    sneaky.write_text("def f():\n    from spec.awari import Sow_Capture\n    import impl.engines.awari as a\n")
    seen = rules_and_impl_imports("impl.web.views", sneaky)
    assert {m for m in seen if _reaches(m, RULES_AND_PACKINGS)} == {"spec.awari", "impl.engines.awari"}


def test_the_spec_imports_nothing_of_impl() -> None:
    """spec/ (the rules and the protocol's model) stands alone: the server is checked
    against it, never the other way round.  ``python -m spec`` (spec/__main__.py) is
    only the door to the animator, a command of impl/apps."""
    for path in sorted(p for p in SPEC.rglob("*.py") if p.name != "__main__.py"):
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
                if isinstance(node, ast.ImportFrom) and node.level == 0
                else []
            )
            assert not any(n == "impl" or n.startswith("impl.") for n in names), f"{path.name} imports {names}"
