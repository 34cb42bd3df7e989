"""The contracts are strong enough: each planted weakening of an invariant or of a
schema's contract is caught.

A weakening (``Σ … = 48`` read as ``≤ 48``, an ``and`` read as ``or``, an equation read
as an inclusion, a precondition loosened) is a well-typed edit that keeps every
correct run passing, so only a test that probes the contract itself can see it.  Each
case below plants one weakening in a copy of the spec module, imports the copy, and
runs a check that passes on the real module and must fail on the copy.  The checks
are the ones that kill the mutation-testing survivors named in issue #11 (is_BOARD's
``and``, AwariBoard's Σ invariant, AwariGame_invariant) and #20 (item 4).
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import icontract
import pytest

from tests.support import paths
from tests.support.contract_firing import contracts_of

ROOT = paths.ROOT


@dataclass(frozen=True)
class Weakening:
    name: str
    module: str  # spec/awari.py or spec/gothello.py
    original: str
    weakened: str
    check: Callable[[ModuleType], None]  # raises (AssertionError, ViolationError) when the weakening is caught


def rejects(m: ModuleType, function: str, description: str, wrong: object, **kwargs: Any) -> None:
    """The contract of ``function`` with ``description`` rejects the result ``wrong``."""
    (contract,) = [c for c in contracts_of(m) if c.function == function and c.description == description]
    assert contract.holds({**kwargs, "result": wrong}) is False, f"{function}: {description!r} accepts {wrong!r}"


# ─── Awari ─────────────────────────────────────────────────────────────────────


def _awari_boards(m: ModuleType) -> tuple[Any, Any, Any]:
    south = m.PLAYER.south
    ok = m.AwariBoard((4,) * 12, (0, 0), south)
    short = m.AwariBoard((4,) * 11 + (3,), (0, 0), south)  # 47 stones
    negative = m.AwariBoard((-1, 9) + (4,) * 10, (0, 0), south)  # 48, one pit negative
    return ok, short, negative


def check_is_BOARD(m: ModuleType) -> None:
    assert m.is_BOARD((4,) * 12)
    assert not m.is_BOARD((4,) * 13), "13 pits"
    assert not m.is_BOARD((-1,) + (4,) * 11), "a negative pit"


def check_is_SCORE(m: ModuleType) -> None:
    assert m.is_SCORE((0, 0))
    assert not m.is_SCORE((0, 0, 0)) and not m.is_SCORE((-1, 0))


def check_AwariBoard_invariant(m: ModuleType) -> None:
    ok, short, negative = _awari_boards(m)
    assert m.AwariBoard_invariant(ok)
    assert not m.AwariBoard_invariant(short), "47 stones"
    assert not m.AwariBoard_invariant(negative), "a negative pit"
    assert not m.AwariBoard_invariant(m.AwariBoard((4,) * 12, (-1, 1), ok.to_move)), "a negative store"


def check_AwariGame_invariant(m: ModuleType) -> None:
    ok, short, _ = _awari_boards(m)
    assert m.AwariGame_invariant(m.game_of(ok, frozenset({ok})))
    assert not m.AwariGame_invariant(m.game_of(short, frozenset())), "the current position has 47 stones"
    assert not m.AwariGame_invariant(m.game_of(ok, frozenset({short}))), "a recorded position has 47 stones"


def check_Sow_board(m: ModuleType) -> None:
    s = m.AwariBoard((4,) * 12, (0, 0), m.PLAYER.south)
    right = m.Sow(s, m.PIT.F)
    board = list(right[0].board)
    board[0], board[1] = board[1] + 1, board[0] - 1  # a stone misplaced, none lost
    rejects(
        m,
        "Sow",
        "board' = let emptied … • λ p • …",
        (m.AwariBoard(tuple(board), s.score, s.to_move), right[1]),
        s=s,
        move=m.PIT.F,
    )


def check_ClaimStones(m: ModuleType) -> None:
    rejects(
        m,
        "ClaimStones",
        "∀ p : PLAYER • score' p = score p + Σ (side p ◁ board)",
        (25, 25),
        score=(0, 0),
        board=(4,) * 12,
    )


def check_pre_NormalMove(m: ModuleType) -> None:
    g = m.AwariGame((1, 1, 0, 0, 0, 0, 4, 0, 0, 0, 0, 2), (20, 20), m.PLAYER.south, frozenset())  # F is a grand slam
    assert m.NormalMove_corrected(g, m.PIT.F) is None
    assert m.GrandSlam_corrected(g, m.PIT.F) is not None


def check_holds_iff(m: ModuleType) -> None:
    unfeedable = m.AwariGame((0,) * 6 + (1,) + (0,) * 5, (23, 24), m.PLAYER.south, frozenset())
    rejects(m, "CannotFeed", "pre CannotFeed", None, g=unfeedable, move=m.PIT.A)


def check_positions_recorded(m: ModuleType) -> None:
    g = m.InitAwari()
    right = m.NormalMove_corrected(g, m.PIT.F)
    extra = m.AwariBoard((0,) * 12, (24, 24), m.PLAYER.north)
    wrong = m.Outcome(
        right.schema,
        right.result,
        m.After(right.after.board, right.after.score, right.after.to_move, right.after.positions | {extra}),
    )
    rejects(m, "NormalMove_corrected", "NormalMove ⨟ Status", wrong, g=g, move=m.PIT.F)
    rejects(m, "WinMargin", "positions' = positions ∪ {θAwariBoard}", wrong, g=g, move=m.PIT.F)


# ─── Gothello ──────────────────────────────────────────────────────────────────


def _board(m: ModuleType, stones: dict[tuple[int, int], str]) -> Any:
    cell = {"b": m.stone(m.PLAYER.black), "w": m.stone(m.PLAYER.white)}
    return m.Fun((s, cell[stones[s]] if s in stones else m.blank) for s in m.SQUARES)


def check_gothello_is_BOARD(m: ModuleType) -> None:
    full = _board(m, {})
    assert m.is_BOARD(full)
    assert not m.is_BOARD(m.Fun(sorted(full, key=repr)[1:])), "a square missing"
    assert not m.GothelloGame_invariant(m.GothelloGame(m.Fun(sorted(full, key=repr)[1:]), m.PLAYER.black, ()))


def check_group(m: ModuleType) -> None:
    b = _board(m, {(1, 1): "b", (1, 2): "b"})
    rejects(m, "group_corrected", "(neighbor board)* ⦇{s}⦈", frozenset({(1, 1)}), board=b, s=(1, 1))


def check_pre_GothelloMove(m: ModuleType) -> None:
    g = m.GothelloGame(_board(m, {(1, 2): "w", (2, 1): "w"}), m.PLAYER.black, ())  # a1 is blocked
    assert m.GothelloMove_corrected(g, m.move((1, 1))) is None
    assert m.GothelloIllegalMoveBlocked_corrected(g, m.move((1, 1))) is not None


def check_xi_game(m: ModuleType) -> None:
    g = m.GothelloGame(_board(m, {(3, 3): "b"}), m.PLAYER.white, (m.move((3, 3)),))
    recorded = m.GothelloGame(g.board, g.to_move, (m.move((3, 3)), *g.history))
    rejects(
        m,
        "GothelloIllegalMoveNonblank_corrected",
        "ΞGothelloGame",
        m.Outcome("GothelloIllegalMoveNonblank", m.illegal_move, recorded),
        g=g,
    )


WEAKENINGS = (
    Weakening(
        "is_BOARD and→or", "spec/awari.py", "len(board) == 12 and all(", "len(board) == 12 or all(", check_is_BOARD
    ),
    Weakening(
        "is_SCORE and→or", "spec/awari.py", "len(score) == 2 and all(", "len(score) == 2 or all(", check_is_SCORE
    ),
    Weakening(
        "AwariBoard Σ = 48 → ≤ 48",
        "spec/awari.py",
        "Σ(score_graph(s.score)) == 48",
        "Σ(score_graph(s.score)) <= 48",
        check_AwariBoard_invariant,
    ),
    Weakening(
        "AwariBoard invariant and→or",
        "spec/awari.py",
        "is_SCORE(s.score) and Σ(graph(s.board))",
        "is_SCORE(s.score) or Σ(graph(s.board))",
        check_AwariBoard_invariant,
    ),
    Weakening(
        "AwariGame_invariant and→or",
        "spec/awari.py",
        "AwariBoard_invariant(θAwariBoard(g)) and all(",
        "AwariBoard_invariant(θAwariBoard(g)) or all(",
        check_AwariGame_invariant,
    ),
    Weakening(
        "Sow board' = … → the same number of stones",
        "spec/awari.py",
        "result[0].board == sown_board(s.board, move)",
        "sum(result[0].board) == sum(sown_board(s.board, move))",
        check_Sow_board,
    ),
    Weakening(
        "ClaimStones = → ≥",
        "spec/awari.py",
        "result[p] == score[p] + Σ(dres(side(p), graph(board)))",
        "result[p] >= score[p] + Σ(dres(side(p), graph(board)))",
        check_ClaimStones,
    ),
    Weakening(
        "pre NormalMove: opp_stones board' > 0 → ≥ 0",
        "spec/awari.py",
        "pre_Sow(g, move) and opp_stones(g, sow_capture_board_corrected(g, move)) > 0",
        "pre_Sow(g, move) and opp_stones(g, sow_capture_board_corrected(g, move)) >= 0",
        check_pre_NormalMove,
    ),
    Weakening(
        "CannotFeed holds ⇔ pre CannotFeed → ⇐",
        "spec/awari.py",
        "(result is not None) == pre_CannotFeed(g, move)",
        "result is None or pre_CannotFeed(g, move)",
        check_holds_iff,
    ),
    Weakening(
        "positions' = … → ⊇",
        "spec/awari.py",
        "o.after.positions == g.positions | {θAwariBoard(g)}",
        "o.after.positions >= g.positions | {θAwariBoard(g)}",
        check_positions_recorded,
    ),
    Weakening(
        "NormalMove ⨟ Status: after-state = → board only",
        "spec/awari.py",
        "o.result == not_done and o.after.state() == moved",
        "o.result == not_done and o.after.board == moved.board",
        check_positions_recorded,
    ),
    Weakening(
        "Gothello is_BOARD = → ⊆",
        "spec/gothello.py",
        "frozenset(s for (s, _) in board) == SQUARES",
        "frozenset(s for (s, _) in board) <= SQUARES",
        check_gothello_is_BOARD,
    ),
    Weakening(
        "group = (neighbor board)* ⦇{s}⦈ → ⊆",
        "spec/gothello.py",
        "result == image(rtclosure(neighbor_corrected(board), SQUARES), {s})",
        "result <= image(rtclosure(neighbor_corrected(board), SQUARES), {s})",
        check_group,
    ),
    Weakening(
        "pre GothelloMove: #liberties > 0 → ≥ 0",
        "spec/gothello.py",
        "cboard_liberties(g, s, liberties_corrected) > 0",
        "cboard_liberties(g, s, liberties_corrected) >= 0",
        check_pre_GothelloMove,
    ),
    Weakening(
        "ΞGothelloGame → board only",
        "spec/gothello.py",
        "return o is None or o.after == g",
        "return o is None or o.after.board == g.board",
        check_xi_game,
    ),
)


def load(path: Path, name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[name]
    return module


@pytest.mark.parametrize("w", WEAKENINGS, ids=lambda w: w.name)
def test_weakening_is_caught(w: Weakening, tmp_path: Path) -> None:
    source = (ROOT / w.module).read_text(encoding="utf-8")
    assert source.count(w.original) == 1, f"{w.original!r} is not in {w.module} exactly once"
    original = tmp_path / "original.py"
    original.write_text(source, encoding="utf-8")
    w.check(load(original, f"_original_{tmp_path.name}"))
    weakened = tmp_path / "weakened.py"
    weakened.write_text(source.replace(w.original, w.weakened), encoding="utf-8")
    with pytest.raises((AssertionError, icontract.ViolationError)):
        w.check(load(weakened, f"_weakened_{tmp_path.name}"))
