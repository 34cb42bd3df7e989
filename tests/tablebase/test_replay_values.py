"""The web view's replay page values each move of an Awari record by the endgame table
(``referee serve … --tb DIR``; impl/web/values.py ``table_values``, in a process of
its own, tablebase/review.py): the value before and after, the best move, the blunders, and
"outside the table" where it is — never a value the table does not give."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from impl import pgn
from impl.engines.awari import engine_for
from impl.engines.tablebase import probe
from impl.engines.tablebase.review import INEXACT, OUTSIDE
from impl.game import Outcome, Termination
from impl.web.archive import Archive, Page
from impl.web.pages import PAGES
from impl.web.values import table_values
from spec import awari_rules as AR
from tests.support.plies import plies


def random_record(folder: Path, rules: str, seed: int = 0) -> tuple[str, list[str]]:
    """A random game played to its end under ``rules`` (down to a few stones), written as a record."""
    engine = engine_for(AR.parse_rules(rules))
    rng = random.Random(seed)
    state, moves = engine.initial(), list[str]()
    while not engine.is_over(state):
        pit = rng.choice(list(engine.legal_moves(state)))
        moves.append(engine.format_move(pit))
        state = engine.apply(state, pit)[1]
    tags = [("Event", "test"), ("Game", "awari"), ("Rules", rules), ("White", "random"), ("Black", "random too")]
    tags += [("Result", "*")]
    record = pgn.record("awari", tags, plies("awari", moves, rules=rules), Outcome(None, Termination.MOVE))
    folder.mkdir(exist_ok=True)
    (folder / "game.pgn").write_text(pgn.write(record))
    return "game.pgn", moves


def valued(page: Page, folder: Path) -> dict[str, Any]:
    """The page with the values its job asks for, as the values process gives them."""
    assert page.job is not None
    return {**json.loads(page.body), **table_values(folder, page.job.rules, page.job.moves)}


def test_each_ply_is_valued_by_the_table_or_said_to_be_outside(tables: dict[str, probe.Table], tmp_path: Path) -> None:
    table = tables["olympiad-1990"]
    name, moves = random_record(tmp_path / "records", "olympiad-1990")
    page = Archive(tmp_path / "records", tables=table.folder).page(name)
    assert page.status == 200 and page.job is not None and "values" not in json.loads(page.body)
    data = valued(page, table.folder)
    assert data["table"] == {"rules": "olympiad-1990", "stones": table.stones}
    values = data["values"]
    assert [v["ply"] for v in values] == list(range(1, len(moves) + 1))
    engine = engine_for(table.rules)
    state = engine.initial()
    seen = set()
    for v, text in zip(values, moves, strict=True):
        board = probe.board_of(state)
        if not table.covers(board):
            assert v["why"] == OUTSIDE and "before" not in v
        elif not probe.trusted(table, state):
            assert v["why"] == INEXACT and "before" not in v
        else:
            played = probe.move_values(table, state)
            assert v["before"] == table.value(board) and v["after"] == played[engine.parse_move(text)]  # type: ignore[index]
            assert v["best_value"] == max(played.values()) and v["loss"] == v["best_value"] - v["after"]
        seen.add(v.get("why", "valued"))
        state = engine.apply(state, engine.parse_move(text))[1]  # type: ignore[arg-type]
    assert {"valued", OUTSIDE} <= seen  # the game goes from 48 stones into the table
    assert data["blunders"] == [v["ply"] for v in values if v.get("loss", 0) > 0]


def test_a_rule_set_without_a_table_says_why_and_values_nothing(tables: dict[str, probe.Table], tmp_path: Path) -> None:
    name, _ = random_record(tmp_path / "records", "abapa")
    data = valued(Archive(tmp_path / "records", tables=tables["paper"].folder).page(name), tables["paper"].folder)
    assert "values" not in data and "no abapa table" in data["table"]["error"]
    untabled = Archive(tmp_path / "records").page(name)
    assert untabled.job is None and "table" not in json.loads(untabled.body)  # no --tb: nothing


def test_the_game_page_has_the_values_box() -> None:
    html = PAGES["game.html"]
    assert 'id="values"' in html and 'id="value"' in html and 'id="blunders"' in html


def test_the_tables_reach_the_web_process_and_serve_checks_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--tb`` is handed to the web process (link.py, child.py); ``referee serve --tb``
    without a web view of records is one line and exit status 2."""
    from impl import cli
    from impl.web.child import make_view
    from impl.web.link import WebLink

    config = WebLink("127.0.0.1", 0, tmp_path, tables=tmp_path).view_config()
    assert config.tables == tmp_path.resolve() and config.record_dir == tmp_path
    view = make_view(config, 1)
    assert view.library.archive is not None and view.library.archive.tables == tmp_path
    said = "referee serve: --tb values the web view's replay of records: it needs --web and --record"
    for extra in (["--web", "0"], ["--record", str(tmp_path)]):
        try:
            status = cli.main(["serve", "awari", "--tb", str(tmp_path), *extra])
        except SystemExit as exc:
            status = int(exc.code or 0)
        assert status == 2 and capsys.readouterr().err == said + "\n"
