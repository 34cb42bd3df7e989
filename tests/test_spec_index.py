"""spec/README.md's checklist names only things that exist: every backquoted name in
its spec column is an attribute of the module."""

from __future__ import annotations

import re
from pathlib import Path

from spec import awari, gothello

README = Path(__file__).resolve().parent.parent / "spec" / "README.md"


def spec_names(section: str) -> set[str]:
    text = README.read_text(encoding="utf-8").split(f"## {section}")[1].split("\n## ")[0]
    names: set[str] = set()
    for row in text.splitlines():
        cells = row.split(" | ")
        if row.startswith("|") and len(cells) >= 3 and not set(row) <= set("|- "):
            names |= {n for n in re.findall(r"`([^`]+)`", cells[1]) if n.isidentifier()}
    return names - {"spec"}


def test_awari_checklist_names_exist() -> None:
    names = spec_names("Awari")
    assert {"Sow", "Capture", "AwariRef", "CannotFeed"} <= names
    assert [n for n in names if not hasattr(awari, n)] == []


def test_gothello_checklist_names_exist() -> None:
    names = spec_names("Gothello")
    assert {"group", "GothelloTurn", "GothelloEnded"} <= names
    assert [n for n in names if not hasattr(gothello, n)] == []
