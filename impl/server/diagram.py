"""The connection state diagram of docs/protocol.md §3, generated from the
session's ``TABLE`` and ``TRIGGERS`` (impl/server/connections.py, states.py), so that the page
cannot say other than the code.

``python -m impl.server.diagram`` prints the section; ``--write FILE`` replaces
it in FILE between the markers ``<!-- generated: state diagram -->`` and
``<!-- end -->``; ``--check FILE`` exits with status 1 if FILE's section differs.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from impl import protocol as P
from impl.atomic import why, write_atomic

from .session import TABLE, TRIGGERS, Conn, Req, Step

BEGIN = "<!-- generated: state diagram -->"
END = "<!-- end -->"


def _answer(req: Req, step: Step) -> str:
    """The edge label of a request: its kind, and the code of a fixed refusal."""
    return f"{req.value} ({step.run.code})" if isinstance(step.run, P.Refused) else req.value


def mermaid() -> list[str]:
    """A Mermaid ``stateDiagram-v2``: one edge per (state, next state), labelled by
    the requests and triggers that take it, in the tables' order."""
    edges: dict[tuple[str, str], list[str]] = {("[*]", Conn.NEW.value): ["connect (000)"]}
    for (conn, req), step in TABLE.items():
        for to in sorted(step.next, key=list(Conn).index):
            edges.setdefault((conn.value, to.value), []).append(_answer(req, step))
    for trigger, (sources, to) in TRIGGERS.items():
        for conn in sorted(sources, key=list(Conn).index):
            edges.setdefault((conn.value, to.value), []).append(f"[{trigger.value}]")
    edges[(Conn.DONE.value, "[*]")] = ["the server closes it"]
    return [
        "stateDiagram-v2",
        *(f"    {a} --> {b}: {', '.join(labels)}" for (a, b), labels in edges.items()),
    ]


def table() -> list[str]:
    """The table itself: state, request, what answers it, the states after."""
    rows = ["| state | request | answered by | then |", "|---|---|---|---|"]
    for (conn, req), step in TABLE.items():
        run = step.run
        answer = f"`{run.code} {run.text}`" if isinstance(run, P.Refused) else f"`Play._{run.value}`"
        after = " or ".join(c.value for c in Conn if c in step.next)
        rows.append(f"| {conn.value} | {req.value} | {answer} | {after} |")
    rows += ["", "| trigger | from | to |", "|---|---|---|"]
    for trigger, (sources, to) in TRIGGERS.items():
        rows.append(f"| {trigger.value} | {', '.join(c.value for c in Conn if c in sources)} | {to.value} |")
    return rows


def section() -> str:
    """The generated section, markers included."""
    lines = [
        BEGIN,
        "<!-- python -m impl.server.diagram --write docs/protocol.md"
        " (impl/server/connections.py TABLE, states.py TRIGGERS) -->",
        "",
        "```mermaid",
        *mermaid(),
        "```",
        "",
        *table(),
        END,
    ]
    return "\n".join(lines)


def replaced(text: str) -> str:
    """``text`` with its generated section replaced by ``section()``; ValueError if
    it has no section (or no end marker after it)."""
    start = text.find(BEGIN)
    end = text.find(END, start)
    if start < 0 or end < 0:
        raise ValueError(f"no {BEGIN} … {END} section")
    return text[:start] + section() + text[end + len(END) :]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m impl.server.diagram", description=__doc__.split("\n\n")[0])
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--write", type=Path, metavar="FILE", help="replace FILE's generated section")
    group.add_argument("--check", type=Path, metavar="FILE", help="status 1 if FILE's section is not up to date")
    args = parser.parse_args(argv)
    path: Path | None = args.write or args.check
    if path is None:
        print(section())
        return 0
    try:
        text = path.read_text(encoding="utf-8")
        new = replaced(text)
    except OSError as exc:
        print(f"diagram: {path}: {why(exc)}", file=sys.stderr)
        return 2
    except ValueError as exc:
        print(f"diagram: {path}: {exc}", file=sys.stderr)
        return 2
    if args.check:
        if new != text:
            print(f"diagram: {path}: the state diagram is out of date: python -m impl.server.diagram --write {path}")
            return 1
        return 0
    if new != text:
        write_atomic(path, new)
    return 0


if __name__ == "__main__":
    sys.exit(main())
