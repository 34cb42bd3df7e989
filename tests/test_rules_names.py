"""A rule set's names live in one table (impl/game.py): no other module of impl/
spells one (issue #42), so a name is read once where it comes in and the engine
that plays the rule set carries it (``rule_set``)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from impl import game, pgn
from impl.engines.port import GAMES, KINDS
from impl.engines.registry import get_engine
from spec import awari_rules as AR

IMPL = Path(__file__).resolve().parents[1] / "impl"
TABLE = IMPL / "game.py"
NAMES = frozenset({*AR.RULE_SETS, game.RECORD_PAPER})


def spelled(path: Path, root: Path = IMPL.parent) -> list[str]:
    """Where ``path`` writes a rule set's name as a string of its own (prose that
    mentions one, in a docstring or a help text, is not one)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    return [
        f"{path.relative_to(root)}:{node.lineno}: {node.value!r}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and node.value in NAMES
    ]


def test_no_rule_set_name_is_spelled_outside_the_table() -> None:
    found = [line for path in sorted(IMPL.rglob("*.py")) if path != TABLE for line in spelled(path)]
    assert found == []


def test_the_check_finds_a_spelled_name(tmp_path: Path) -> None:
    source = tmp_path / "impl" / "x.py"
    source.parent.mkdir()
    source.write_text('RULES = "paper"  # a copy of the table\n')
    assert spelled(source, tmp_path) == ["impl/x.py:1: 'paper'"]


def test_the_table_names_the_spec_s_rule_sets() -> None:
    assert (AR.PAPER.name, AR.ABAPA.name) == (game.PAPER_RULES, game.ABAPA_RULES)
    assert game.rules_tag(game.PAPER_RULES) == game.RECORD_PAPER and game.rules_tag("abapa") == "abapa"
    assert game.record_rules("awari", game.RECORD_PAPER) == game.record_rules("gothello", "") == game.PAPER_RULES


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("text", ["paper", "abapa", "olympiad-1994,repetition=own-row", "grand-slam=c"])
def test_every_engine_carries_the_canonical_name_of_its_rule_set(kind: str, text: str) -> None:
    assert get_engine("awari", kind, text).rule_set == AR.canonical(text)
    assert get_engine("awari", kind, AR.parse_rules(text)).rule_set == AR.canonical(text)


@pytest.mark.parametrize("kind", KINDS)
def test_gothello_has_the_papers_rules_only(kind: str) -> None:
    assert {get_engine(g, kind).rule_set for g in GAMES} == {game.PAPER_RULES}
    with pytest.raises(game.GameRulesError, match="gothello has only the paper's"):
        get_engine("gothello", kind, "abapa")
    with pytest.raises(pgn.PgnError, match="unknown gothello rules 'abapa'"):
        pgn.engine_rules("gothello", "abapa")
