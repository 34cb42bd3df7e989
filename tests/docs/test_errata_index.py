"""proofs/ERRATA.md is the prose of one registry, spec/errata.py: its headings, theorem
markers, state witnesses and protocol table are exactly the registry's errata, every witness test the
registry names exists, and the errata marked with a theorem are exactly those the
well-foundedness runs must find."""

from __future__ import annotations

import re

from proofs.awari.exhaustive import EXPECTED_LITERAL
from proofs.gothello.theorems import EXPECTED_LITERAL_ERRATA
from spec.errata import BY_ID, ERRATA, with_theorem
from tests.support import paths

ROOT = paths.ROOT
ERRATA_MD = (ROOT / "proofs" / "ERRATA.md").read_text(encoding="utf-8")
HEADING = re.compile(r"^### ([AG]\d+) — .*?(?:\*\*\[theorem ([^\]]+)\]\*\*)?$", re.MULTILINE)


def headings() -> dict[str, str | None]:
    """Erratum id → the text of its [theorem …] marker, if any."""
    return {m.group(1): m.group(2) for m in HEADING.finditer(ERRATA_MD)}


def protocol_rows() -> dict[str, str]:
    text = ERRATA_MD.split("## Protocol errata")[1]
    return {m.group(1): m.group(0) for m in re.finditer(r"^\| ([AG]\d+) \|.*$", text, re.MULTILINE)}


def test_errata_md_has_a_section_for_each_rules_erratum() -> None:
    assert headings() == {e.id: e.theorem for e in ERRATA if e.kind == "rules"}


def test_errata_md_protocol_table_is_the_registry() -> None:
    protocol = {e.id for e in ERRATA if e.kind == "protocol"}
    assert set(protocol_rows()) == protocol | {"A11"}  # A11 is also a protocol point


def test_ids_are_unique_and_games_match_prefixes() -> None:
    assert len(BY_ID) == len(ERRATA)
    assert all(e.id[0] == e.game[0].upper() for e in ERRATA)
    assert all(set(e.layered) <= set(BY_ID) for e in ERRATA)


def test_theorem_markers_are_what_the_proofs_find() -> None:
    assert with_theorem("awari") == set(EXPECTED_LITERAL)
    assert with_theorem("gothello") == set(EXPECTED_LITERAL_ERRATA)


def test_every_witness_test_exists_and_names_its_erratum() -> None:
    for e in ERRATA:
        assert e.witness, e.id
        for ref in e.witness:
            path, name = ref.split("::")
            assert re.search(rf"^(?:async )?def {name}\b", (ROOT / path).read_text(encoding="utf-8"), re.MULTILINE), ref
            if e.kind == "rules" and path.startswith("tests/test_errata_"):
                assert name.startswith(f"test_{e.id}_"), ref


def test_errata_md_names_each_witness_test() -> None:
    """The prose names the same tests as the registry."""
    for e in ERRATA:
        for ref in e.witness:
            assert ref.split("::")[1] in ERRATA_MD, ref


STATE_LINE = re.compile(
    r"^### ([AG]\d+) — (?:(?!^### ).)*?^\* State witness \(spec/errata\.py; `load \1` in `referee spec (\w+)`\): "
    r"`([^`]+)`( \(its position already seen\))?, input `([^`]+)`\.$",
    re.MULTILINE | re.DOTALL,
)


def test_errata_md_shows_the_registers_state_witnesses() -> None:
    """Each erratum with a state witness in the register (what the spec animator
    loads) shows that state and input in its section, and no other section has one."""
    shown = {
        m.group(1): (m.group(2), m.group(3), m.group(4) is not None, m.group(5)) for m in STATE_LINE.finditer(ERRATA_MD)
    }
    register = {e.id: (e.game, e.state.state, e.state.seen, e.state.action) for e in ERRATA if e.state is not None}
    assert shown == register
    assert ERRATA_MD.count("* State witness (") == len(register)
