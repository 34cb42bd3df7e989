"""docs/z-schemas.md restates the papers' 24 schema boxes that the spec's docstrings
hold: each box there is the same, line for line, as the box in the docstring of the
spec's function or class of the same name (widths of the rules aside)."""

from __future__ import annotations

import inspect
import re

import pytest

from spec import awari as A
from spec import gothello as G
from tests.support import paths

PAGE = paths.ROOT / "docs" / "z-schemas.md"


def boxes(text: str) -> dict[str, list[str]]:
    """Each ``┌─ Name`` box's lines, its rules reduced to ``├`` and spaces to one."""
    found: dict[str, list[str]] = {}
    lines = iter(text.splitlines())
    for line in lines:
        opened = re.match(r"\s*┌─ (\S+)", line)
        if not opened:
            continue
        body = found.setdefault(opened.group(1), [])
        for inner in lines:
            inner = inner.strip()
            if inner.startswith("└"):
                break
            body.append("├" if inner.startswith("├") else re.sub(r"\s+", " ", inner.lstrip("│").strip()))
    return found


DOC = boxes(PAGE.read_text(encoding="utf-8"))


def test_the_page_holds_every_box() -> None:
    assert len(DOC) == 24


@pytest.mark.parametrize("name", sorted(DOC))
def test_box_equals_the_spec_docstring(name: str) -> None:
    owner = A if hasattr(A, name) else G
    docstring = inspect.getdoc(getattr(owner, name)) or ""
    assert boxes(docstring).get(name) == DOC[name]
