"""spec/README.md's checklist names only things that exist: every backquoted name in
its spec column is an attribute of the module."""

from __future__ import annotations

import re
from types import ModuleType

import pytest

from spec import awari, gothello
from tests.support import paths

README = paths.ROOT / "spec" / "README.md"


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
    assert {"Sow", "Capture", "AwariRef_corrected", "CannotFeed"} <= names
    assert [n for n in names if not hasattr(awari, n)] == []


def test_gothello_checklist_names_exist() -> None:
    names = spec_names("Gothello")
    assert {"group", "GothelloTurn_corrected", "GothelloEnded"} <= names
    assert [n for n in names if not hasattr(gothello, n)] == []


ERRATUM = re.compile(r"\b[AG]\d+\b")


@pytest.mark.parametrize(("section", "module"), [("Awari", awari), ("Gothello", gothello)])
def test_a_repaired_schema_keeps_the_paper_name_for_the_written_one(section: str, module: ModuleType) -> None:
    """Literal means literal: the table maps every repaired schema NAME to NAME (as
    written) and NAME_corrected, and each corrected function cites its errata."""
    names = spec_names(section)
    repaired = {n.removesuffix("_corrected") for n in names if n.endswith("_corrected")}
    assert repaired and repaired <= names
    for name in sorted(repaired):
        corrected = getattr(module, name + "_corrected")
        if callable(corrected):
            assert ERRATUM.search(corrected.__doc__ or ""), f"{name}_corrected cites no erratum"
    # Every other _corrected name is a guard or a term of a corrected disjunct.
    terms = {"sow_capture_board_corrected", "forfeited_corrected"}
    others = {n for n in vars(module) if n.endswith("_corrected") and n not in names}
    assert {n for n in others if not n.startswith("pre_")} <= terms
    assert [n for n in vars(module) if n.endswith("_literal")] == []
