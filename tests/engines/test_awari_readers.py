"""The Awari engine's packed state is read through its named readers
(impl/engines/awari.py "Readers"), and nowhere else by its bits: each reader
against the spec's AwariBoard, and the tree read for shifts and masks in every
room that handles an Awari state."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

from impl.engines import awari as E
from spec import awari as A
from spec import awari_rules as AR

ROOT = Path(__file__).resolve().parents[2]
OWNER = ROOT / "impl" / "engines" / "awari.py"
AWARI_NAMES = {"AwariState", "RulesAwari", "ImplAwari", "engine_for", "Key", "play", "player_to_move"}
"""Names whose import marks a module as one that handles the engine's Awari states."""
RULE_NUMBERS = {"GS_A", "GS_B", "GS_C", "GS_D", "GS_E", "slam_kind"}
"""Names that carry no state: importing only these (the tables' kernel) is no sign."""


def _random_key(rng: random.Random) -> E.Key:
    board = tuple(rng.randrange(0, 9) for _ in range(12))
    score = (rng.randrange(0, 30), rng.randrange(0, 30))
    return E.pack(A.AwariBoard(board=board, score=score, to_move=rng.choice(list(A.PLAYER))))


@pytest.mark.parametrize("seed", range(40))
def test_each_reader_says_what_the_spec_board_says(seed: int) -> None:
    rng = random.Random(seed)
    key = _random_key(rng)
    board = E.unpack(key)
    me = 0 if board.to_move == A.PLAYER.north else 1
    assert E.mover(key) == me and E.player_to_move(key) == board.to_move
    assert E.stores(key) == board.score and E.store(key, 0) == board.score[0] and E.store(key, 1) == board.score[1]
    assert E.mover_stores(key) == (board.score[me], board.score[1 - me])
    mine = tuple(board.board[6 * me + j] for j in range(6))
    theirs = tuple(board.board[6 * (1 - me) + j] for j in range(6))
    assert E.table_board(key) == mine + theirs
    assert E.row_pits(key[0]) == mine and E.pack_row(mine) == key[0] and E.row_stones(key[0]) == sum(mine)
    assert [E.pit(key[0], sh) for sh in E._SHIFTS] == list(mine)
    bare = E.unpack(E.bare((*key, frozenset({key})))[:3])
    assert bare.board == board.board and bare.score == (0, 0) and bare.to_move == board.to_move
    table = E.table_state(mine + theirs)
    assert E.mover(table) == 0 and E.stores(table) == (0, 0) and E.table_board(table) == mine + theirs
    other = _random_key(rng)
    assert E.same_stores(key, other) == (E.stores(key) == E.stores(other))


def test_the_slam_kind_numbers_the_rules_letters_as_the_engines_do() -> None:
    for gs, letter in enumerate("abcde"):
        rules = AR.parse_rules(f"grand-slam={letter}")
        assert E.slam_kind(rules) == gs == E.RulesAwari(rules).gs
    assert (E.GS_A, E.GS_E) == (0, 4)


def _handles_awari_states(tree: ast.Module) -> bool:
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module is not None:
            names = {a.name for a in node.names}
            if (node.module.endswith("engines.awari") and not names <= RULE_NUMBERS) or (
                node.module.endswith("kernels") and {a.name for a in node.names} & AWARI_NAMES
            ):
                return True
            if node.module == "impl.engines" and any(a.name == "awari" for a in node.names):
                return True
        if isinstance(node, ast.Name) and node.id == "AwariState":
            return True
        if isinstance(node, ast.Attribute) and node.attr in {"AwariState", "RulesAwari"}:
            return True
    return False


def _bit_operations(tree: ast.Module) -> list[int]:
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.BinOp | ast.AugAssign) and isinstance(node.op, ast.LShift | ast.RShift | ast.BitAnd):
            found.append(node.lineno)
    return found


def test_no_room_but_the_engine_shifts_or_masks_an_awari_state() -> None:
    """python-chess's syzygy.py probes through the board's API, never its bits: so
    does every module here that handles the engine's Awari states."""
    rooms, offenders = [], {}
    for path in sorted((ROOT / "impl").rglob("*.py")):
        if path == OWNER:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        if _handles_awari_states(tree):
            rooms.append(path.relative_to(ROOT).as_posix())
            if lines := _bit_operations(tree):
                offenders[path.relative_to(ROOT).as_posix()] = lines
    assert {"impl/engines/tablebase/probe.py", "impl/players/search_awari.py", "impl/apps/tbadjudge.py"} <= set(rooms)
    assert offenders == {}
