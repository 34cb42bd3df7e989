"""The checkout is built in floors, and no import runs back up or round in a circle.

Every ``import`` and ``from … import`` of every module of spec/, impl/, bench/,
proofs/ and tests/ counts — at the top, inside a function (a lazy import) or under
``TYPE_CHECKING`` — read from the source with ``ast``, never by importing it.
The floors, lowest first (``LAYERS``): spec/ alone at the bottom, impl/'s own
floors above it (``FLOORS``, as they are since issue #31), the tools that use impl/
(bench/, proofs/) above those, and the tests on top:

    0  spec                                the rules and the protocol's model: imports
                                           nothing of impl/, bench/, proofs/ or tests/
    1  impl.game, impl.atomic, impl.log,   import nothing of impl's but impl.game (the
       impl.cli, impl.tasks                rule sets' names); impl.cli is the argument
                                           helpers every command uses (its ``main``
                                           loads the commands by name,
                                           ``COMMAND_MODULES``: no import statement),
                                           impl.tasks the one task runner
    2  impl.engines.*, impl.protocol       the rules engines (and openings, perft),
                                           the wire's lines
    3  impl.pgn, impl.config               records' text; the one configuration
    4  impl.server.*                       the referee server, local servers in a thread
    5  impl.client.*                       the client library (imports nothing of the
                                           server: ``APART``)
    6  impl.players.*                      the players, on the client
    7  impl.web.*                          the web view, on the server's sessions
    8  impl.apps.*                         the commands: serve, match, tournament, …
    9  bench, proofs                       the benchmarks, the proofs: on spec/ and impl/
   10  tests                               the tests

A module may import its own floor or lower ones, never a higher one; no set of
modules may import each other round a circle, on one floor or across floors; nor
may the rooms (``room``: impl.server, proofs.awari, proofs.equivalence, …).  impl/'s
top level holds at most eight modules.  A new module or package of impl/ is one
name added to its floor's line in ``FLOORS``.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
IMPL = ROOT / "impl"
SPEC = ROOT / "spec"
TREES = ("spec", "impl", "bench", "proofs", "tests")
"""The checkout's top-level packages, each a directory of ROOT."""

FLOORS: tuple[tuple[str, ...], ...] = (
    ("impl.game", "impl.atomic", "impl.log", "impl.cli", "impl.tasks"),
    ("impl.engines", "impl.protocol"),
    ("impl.pgn", "impl.config"),
    ("impl.server",),
    ("impl.client",),
    ("impl.players",),
    ("impl.web",),
    ("impl.apps",),
)
"""impl/'s floors, lowest first: each floor's modules and packages (a package stands
for all its modules)."""

LAYERS: tuple[tuple[str, ...], ...] = (("spec",), *FLOORS, ("bench", "proofs"), ("tests",))
"""The checkout's floors, lowest first: spec/, impl/'s floors, the tools, the tests."""

APART: tuple[tuple[str, str], ...] = (("impl.client", "impl.server"),)
"""Pairs of packages on different floors that import nothing of each other: the
client library stands on the protocol alone (a server in a thread is
impl/server/local.py's)."""

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


def checkout() -> dict[str, Path]:
    """Every module of the checkout's trees (``TREES``) by dotted name."""
    found: dict[str, Path] = {}
    for tree in TREES:
        found |= modules(ROOT / tree)
    return found


def graph(*roots: Path) -> dict[str, set[str]]:
    """Each module of ``roots`` (every tree of the checkout unless given) and the
    modules of those roots it imports."""
    found: dict[str, Path] = {}
    for root in roots:
        found |= modules(root)
    found = found or checkout()
    return {name: imports_of(name, path, found) for name, path in found.items()}


def room(module: str) -> str:
    """The package or top-level module a module belongs to, two names deep
    (``impl.server.session`` → ``impl.server``, ``proofs.equivalence`` itself)."""
    return ".".join(module.split(".")[:2])


def rooms(edges: Mapping[str, set[str]]) -> dict[str, set[str]]:
    """The import graph between rooms: a circle here is two packages leaning on
    each other, even where no two modules do (proofs/awari/ and proofs/equivalence.py
    did, issue #42)."""
    out: dict[str, set[str]] = {room(m): set() for m in edges}
    for source, targets in edges.items():
        out[room(source)] |= {room(t) for t in targets} - {room(source)}
    return out


def _reaches(module: str, packages: Iterable[str]) -> bool:
    """``module`` is one of ``packages`` or inside one of them."""
    return any(module == p or module.startswith(p + ".") for p in packages)


def floor_of(module: str, floors: tuple[tuple[str, ...], ...] = LAYERS) -> int | None:
    for number, members in enumerate(floors):
        if _reaches(module, members):
            return number
    return None


def upward(edges: Mapping[str, set[str]], floors: tuple[tuple[str, ...], ...] = LAYERS) -> list[str]:
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
    assert upward(edges) == ["impl.web.tourney (7) -> impl.apps.tournament (8)"]
    assert circles({"a": {"b"}, "b": {"c"}, "c": set()}) == []
    across = {"spec.awari": {"impl.game"}, "proofs.planted": {"tests.support.paths"}, "tests.support.paths": set()}
    assert upward(across) == ["proofs.planted (9) -> tests.support.paths (10)", "spec.awari (0) -> impl.game (1)"]


def test_the_checks_find_two_rooms_leaning_on_each_other() -> None:
    """proofs/awari/ and proofs/equivalence.py as they were: no circle of modules,
    one of rooms."""
    edges = {
        "proofs.awari.exhaustive_rules": {"proofs.equivalence"},
        "proofs.equivalence": {"proofs.awari.exhaustive"},
        "proofs.awari.exhaustive": set(),
    }
    assert circles(edges) == []
    assert circles(rooms(edges)) == [["proofs.awari", "proofs.equivalence"]]


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
    assert upward(edges) == ["impl.server.session (4) -> impl.apps.serve (8)"]


# ─── the checkout as it is ─────────────────────────────────────────────────────


def test_every_module_has_a_floor() -> None:
    assert [m for m in checkout() if m != "impl" and floor_of(m) is None] == []
    assert [m for m in modules() if m != "impl" and floor_of(m, FLOORS) is None] == []


def test_no_import_runs_from_a_lower_floor_to_a_higher_one() -> None:
    assert upward(graph()) == []


def test_no_circle_of_imports_of_modules_or_of_rooms() -> None:
    edges = graph()
    assert circles(edges) == []
    assert circles(rooms(edges)) == []


def test_the_spec_stands_alone_and_the_proofs_never_import_the_tests() -> None:
    """What each tree may import of the others: spec/ nothing; proofs/ spec/ and impl/."""
    allowed = {"spec": {"spec"}, "proofs": {"spec", "impl", "proofs"}, "bench": {"spec", "impl", "bench"}}
    found = sorted(
        f"{source} -> {target}"
        for source, targets in graph().items()
        for target in targets
        if source.split(".")[0] in allowed and target.split(".")[0] not in allowed[source.split(".")[0]]
    )
    assert found == []


def test_packages_kept_apart_import_nothing_of_each_other() -> None:
    edges = graph()
    found = [
        f"{source} -> {target}"
        for one, other in APART
        for source, targets in sorted(edges.items())
        for target in sorted(targets)
        if (_reaches(source, [one]) and _reaches(target, [other]))
        or (_reaches(source, [other]) and _reaches(target, [one]))
    ]
    assert found == []


def test_the_top_level_holds_at_most_eight_modules() -> None:
    top = sorted(p.name for p in IMPL.glob("*.py") if p.name != "__init__.py")  # the package, not a module
    assert len(top) <= MAX_TOP_LEVEL, top


MAX_COMMAND_LINES = 400
"""A command's module (impl/apps) is read whole by its maintainer: past this, a
part of it is a room of its own (issue #50: games.py had grown to 1,028 lines)."""


def test_no_command_module_is_longer_than_a_maintainer_reads_whole() -> None:
    long = {
        str(p.relative_to(ROOT)): n
        for p in (IMPL / "apps").rglob("*.py")
        if (n := len(p.read_text().splitlines())) > MAX_COMMAND_LINES
    }
    assert long == {}, long


READERS_OF_MOVES = ("impl.pgn", "impl.web")
"""What records and shows games: they learn what a move did from the engine port's
``describe``/``cells`` (issue #31), never from the rules or an engine's packed state."""

RULES_AND_PACKINGS = ("spec", "impl.engines.awari", "impl.engines.gothello", "impl.engines.spec_engine")


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


FAST_ENGINES = ("impl.engines.awari", "impl.engines.gothello")


def engine_names_taken(path: Path) -> list[str]:
    """What a module takes of impl/engines/ besides its public names: a fast engine's
    module itself, or a private name (``_play``) of any engines module."""
    taken = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            taken += [a.name for a in node.names if _reaches(a.name, FAST_ENGINES)]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and _reaches(node.module or "", ("impl.engines",)):
            for alias in node.names:
                name = f"{node.module}.{alias.name}"
                if _reaches(node.module or "", FAST_ENGINES) or _reaches(name, FAST_ENGINES) or alias.name[0] == "_":
                    taken.append(name)
    return taken


def test_the_players_use_the_engines_public_names_only() -> None:
    """The search reaches the fast engines' inner steps through impl/engines/kernels.py,
    never through an engine's module or its private names (issue #42)."""
    players = {n: p for n, p in modules().items() if _reaches(n, ("impl.players",))}
    assert "impl.players.search_awari" in players
    assert {n: t for n, p in players.items() if (t := engine_names_taken(p))} == {}


def test_the_players_check_sees_a_private_name(tmp_path: Path) -> None:
    sneaky = tmp_path / "search_x.py"
    sneaky.write_text("from impl.engines import awari as AW\nfrom impl.engines.kernels import _x, play\n")
    assert engine_names_taken(sneaky) == ["impl.engines.awari", "impl.engines.kernels._x"]
