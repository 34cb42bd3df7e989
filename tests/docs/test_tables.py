"""Every Markdown table on a page is whole: its header row begins a line and every row
has the header's cells.  A table pasted into the middle of a sentence (docs/tablebases.md
once had one inside an environment variable's name) fails here."""

from __future__ import annotations

from tests.docs.test_paths import pages

Fault = tuple[str, int, str]


def _cells(row: str) -> int:
    """Cells of a ``| a | b |`` row; a ``\\|`` inside a cell is text, not a border."""
    return row.replace("\\|", "").strip().strip("|").count("|") + 1


def faults(name: str, text: str) -> list[Fault]:
    """(page, line, why) for each separator row whose table is not whole."""
    lines = text.splitlines()
    found: list[Fault] = []
    fenced = False
    for i, line in enumerate(lines):
        if line.lstrip().startswith("```"):
            fenced = not fenced
        if fenced or ("|---" not in line and "|:--" not in line):
            continue
        if not line.lstrip().startswith("|"):
            found.append((name, i + 1, "a separator row that does not begin its line"))
            continue
        header = lines[i - 1] if i else ""
        if not header.lstrip().startswith("|"):
            found.append((name, i, "a table whose header row does not begin its line"))
            continue
        width = _cells(header)
        for j in range(i, len(lines)):
            row = lines[j]
            if not row.lstrip().startswith("|"):
                break
            if _cells(row) != width:
                found.append((name, j + 1, f"{_cells(row)} cells where the header has {width}"))
    return found


def test_every_table_on_every_page_is_whole() -> None:
    named = pages()
    assert named
    found = [f for page in named for f in faults(str(page), page.read_text(encoding="utf-8"))]
    assert found == []


def test_a_table_pasted_into_a_sentence_is_found() -> None:
    pasted = "with `Z| a | b |\n|---:|---:|\n| 1 | 2 |\nrest.BASE`\n"
    assert [why for _, _, why in faults("p", pasted)] == ["a table whose header row does not begin its line"]
    ragged = "| a | b |\n|---|---|\n| 1 | 2 | 3 |\n"
    assert faults("p", ragged) == [("p", 3, "3 cells where the header has 2")]
    assert faults("p", "| a | b \\| c |\n|---|---|\n| 1 | 2 |\n") == []
