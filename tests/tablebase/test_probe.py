"""Reading a table in a real game: the stores, the trust rule and adjudication."""

from __future__ import annotations

import pytest

from impl.engines.tablebase import check
from impl.engines.tablebase.probe import (
    Adjudicated,
    Table,
    adjudicate,
    adjudicate_board,
    best_move,
    move_values,
    state_of,
    trusted,
)
from spec import awari as A

N, S = A.PLAYER.north, A.PLAYER.south


def game(
    board: tuple[int, ...], score: tuple[int, int], to_move: A.PLAYER = N, seen: tuple[A.AwariGame, ...] = ()
) -> A.AwariGame:
    return A.AwariGame(board, score, to_move, frozenset(A.θAwariBoard(g) for g in seen))


CYCLE = (1, 0, 0, 0, 0, 1) + (0,) * 6
"""North a1 f1, south empty: f feeds, and the stones can chase round to this board again."""


@pytest.mark.parametrize(
    "board",
    [
        CYCLE,
        (0, 0, 0, 0, 1, 1, 1, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 1),
        (2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1),
    ],
)
def test_adjudication_is_the_referees_own_result_under_uncounted(
    tables: dict[str, Table], board: tuple[int, ...]
) -> None:
    """The stores decision: winner = sign(own store - other's + entry), the store of
    25 and the repetition rule of the real game included (check.history_outcome),
    for every split of the stores where the game goes on; none where it is over."""
    table = tables["olympiad-1990"]
    n = sum(board)
    for north_store in range(24 - n - 2, 27):
        south_store = 48 - n - north_store
        outcome = adjudicate(game(board, (north_store, south_store)), table)
        if max(north_store, south_store) >= 25:
            assert outcome is None  # the game is over: nothing to adjudicate
            continue
        real = check.history_outcome(table.rules, board, north_store)
        assert outcome is not None
        assert outcome.winner == {1: N, 0: None, -1: S}[real]
        assert outcome.difference == north_store - south_store + table.value(board)


def test_the_same_from_souths_side(tables: dict[str, Table]) -> None:
    table = tables["olympiad-1990"]
    mirrored = CYCLE[6:] + CYCLE[:6]
    north = adjudicate(game(CYCLE, (22, 24), N), table)
    assert north == Adjudicated(S, -2)  # the entry (0) does not make up the 2 stones
    assert adjudicate(game(mirrored, (24, 22), S), table) == Adjudicated(N, 2)  # the same, seen from the other side
    outcome = adjudicate(game(mirrored, (23, 23), S), table)
    assert outcome == Adjudicated(
        S if table.value(CYCLE) > 0 else N if table.value(CYCLE) < 0 else None, -table.value(CYCLE)
    )


def test_no_adjudication_where_an_earlier_position_can_come_again(tables: dict[str, Table]) -> None:
    table = tables["olympiad-1990"]
    later = game((1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0), (22, 24))  # after f, A: reachable from CYCLE
    assert trusted(table, state_of(game(CYCLE, (22, 24))))
    assert not trusted(table, state_of(game(CYCLE, (22, 24), N, (later,))))
    assert adjudicate(game(CYCLE, (22, 24), N, (later,)), table) is None
    other_stores = game(later.board, (21, 25))
    assert adjudicate(game(CYCLE, (22, 24), N, (other_stores,)), table) is not None  # cannot come again


def test_no_adjudication_under_own_row_or_outside_the_table(tables: dict[str, Table]) -> None:
    assert adjudicate(game(CYCLE, (22, 24)), tables["paper"]) is None
    big = (4, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    assert adjudicate(game(big, (20, 21)), tables["olympiad-1990"]) is None
    assert adjudicate(game(CYCLE, (0, 0)), tables["olympiad-1990"]) is None  # not a real game's 48 stones


def test_the_best_move_keeps_the_entry(tables: dict[str, Table]) -> None:
    table = tables["olympiad-1990"]
    for board in [(0, 0, 0, 0, 1, 1, 1, 0, 0, 0, 0, 0), (2, 0, 0, 1, 0, 0, 0, 1, 0, 1, 0, 1)]:
        state = state_of(game(board, (22, 48 - 22 - sum(board))))
        move = best_move(table, state)
        assert move is not None and move_values(table, state)[move] == table.value(board)


def test_adjudicate_from_the_pieces(tables: dict[str, Table]) -> None:
    table = tables["olympiad-1990"]
    assert adjudicate_board(CYCLE, (22, 24), N, table) == adjudicate(game(CYCLE, (22, 24)), table) == Adjudicated(S, -2)


def test_the_repetition_search_by_the_c_kernel_is_the_pythons(
    tables: dict[str, Table], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``may_repeat`` searches in C where it builds (reach.c's ``tb_reach``) and over
    kernel.py's moves in Python without: the same answer at every position of 30 random
    games whose board has at most 8 stones, history and all — and the same again with a
    limit of 40 boards, past which both give up alike (answering that it may)."""
    import random

    from impl.engines.awari import engine_for
    from impl.engines.tablebase import ckernel, probe

    table = tables["paper"]
    engine = engine_for(table.rules)
    positions = []
    for seed in range(30):
        rng = random.Random(seed)
        state = engine.initial()
        while not engine.is_over(state):
            if sum(probe.board_of(state)) <= 8:
                positions.append(state)
            state = engine.apply(state, rng.choice(list(engine.legal_moves(state))))[1]
    by_c = [probe.may_repeat(s, table.gs) for s in positions]
    monkeypatch.setattr(probe, "REACH_LIMIT", 40)
    limited_c = [probe.may_repeat(s, table.gs) for s in positions]
    monkeypatch.setattr(ckernel, "load", lambda: None)
    monkeypatch.setattr(ckernel, "load_reach", lambda: None)
    assert limited_c == [probe.may_repeat(s, table.gs) for s in positions]
    monkeypatch.setattr(probe, "REACH_LIMIT", 500_000)
    assert by_c == [probe.may_repeat(s, table.gs) for s in positions]
    assert True in by_c and False in by_c
    assert sum(limited_c) > sum(by_c)  # the limit was reached somewhere
