"""proofs/ERRATA.md stays in step with the proofs and the witness tests: the errata
marked **[theorem …]** are exactly those the well-foundedness runs must find, and
every erratum id has a witness test that names it."""

from __future__ import annotations

import re
from pathlib import Path

from proofs.awari.exhaustive import EXPECTED_LITERAL
from proofs.gothello.theorems import EXPECTED_LITERAL_ERRATA

ROOT = Path(__file__).resolve().parent.parent
HEADING = re.compile(r"^### ([AG]\d+) — .*?(\*\*\[theorem [^\]]+\]\*\*)?$", re.MULTILINE)


def headings() -> dict[str, bool]:
    """Erratum id → whether it carries a [theorem …] marker."""
    text = (ROOT / "proofs" / "ERRATA.md").read_text(encoding="utf-8")
    return {m.group(1): m.group(2) is not None for m in HEADING.finditer(text)}


def test_theorem_markers_are_what_the_proofs_find() -> None:
    marked = {e for e, theorem in headings().items() if theorem}
    assert marked == set(EXPECTED_LITERAL) | set(EXPECTED_LITERAL_ERRATA)


def test_every_rule_erratum_has_a_witness_test() -> None:
    files = [p for p in (ROOT / "tests").glob("test_errata_*.py") if p.name != Path(__file__).name]
    tests = "".join(p.read_text(encoding="utf-8") for p in files)
    ids = headings()
    assert len(ids) >= 25
    assert [e for e in ids if not re.search(rf"\btest_{e}_", tests)] == []


def test_every_protocol_erratum_names_existing_tests() -> None:
    text = (ROOT / "proofs" / "ERRATA.md").read_text(encoding="utf-8").split("## Protocol errata")[1]
    rows = [r for r in text.splitlines() if re.match(r"\| [AG]\d+ \|", r)]
    assert len(rows) >= 15
    for row in rows:
        refs = re.findall(r"`(tests/\w+\.py)::(\w+)", row)
        assert refs or "as A17" in row, row
        for path, name in refs:
            assert re.search(rf"def {name}\b", (ROOT / path).read_text(encoding="utf-8")), (path, name)
