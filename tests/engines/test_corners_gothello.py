"""Deterministic corner cases of Gothello, each checked against both the spec and the
fast engine: equal-count double passes (a draw, not a win), one stone more (a win),
suicide against capture (refused: liberties are judged before captures), a capture
that saves the placed stone's group, and the end after two passes in succession."""

from __future__ import annotations

import pytest

from impl.engines.gothello import ImplGothello
from spec import gothello as S
from spec.gothello import PLAYER, GothelloGame, referee
from tests.support.gothello_states import PASS, game, mv

IMPL = ImplGothello()
BLACK, WHITE = PLAYER.black, PLAYER.white


def both(g: GothelloGame, m: S.MOVE) -> tuple[S.RESULT, GothelloGame]:
    """The spec's step, after checking that the fast engine takes the same one."""
    want = referee(g, m)
    result, after = IMPL.apply(IMPL.from_spec(g), m)
    assert (result, IMPL.to_spec(after)) == want, (g, m)
    return want


def legal_both(g: GothelloGame) -> tuple[S.MOVE, ...]:
    want = S.legal_moves(g)
    assert IMPL.legal_moves(IMPL.from_spec(g)) == want, g
    assert IMPL.is_over(IMPL.from_spec(g)) == S.game_over(g), g
    return want


@pytest.mark.parametrize("n", range(0, 13))
def test_double_pass_with_equal_counts_is_a_draw(n: int) -> None:
    """n black and n white stones (files a–e, ranks filled in order), two passes in
    succession: a draw; one more black stone: black wins; one more white: white."""
    squares = [f"{f}{r}" for r in range(1, 6) for f in "abcde"]
    stones = {s: ("b" if i % 2 == 0 else "w") for i, s in enumerate(squares[: 2 * n])}
    for extra, want in ((None, S.draw), ("b", S.win(BLACK)), ("w", S.win(WHITE))):
        placed = dict(stones)
        if extra is not None:
            placed[squares[24]] = extra
        g = game(placed, BLACK, (PASS,))
        result, after = both(g, PASS)
        assert result == want, (n, extra)
        assert legal_both(after) == ()
        assert both(after, PASS) == (want, after)  # after the end: the final result, Ξ (G26)


def test_pass_after_a_move_does_not_end_the_game() -> None:
    g = game({"c3": "b"}, WHITE, (mv("c3"), PASS))
    result, after = both(g, PASS)
    assert result == S.not_done and after.to_move == BLACK


def test_suicide_against_capture_is_refused() -> None:
    """Black at a1 between white a2 and b1 (each with no other liberty than a1 once
    black is there): the placed stone has no liberty in cboard, so the move is
    refused even though it would leave both white stones without liberties."""
    g = game({"a2": "w", "b1": "w", "a3": "b", "b2": "b", "c1": "b"}, BLACK)
    assert mv("a1") not in legal_both(g)
    assert both(g, mv("a1")) == (S.illegal_move, g)


def test_placement_with_a_liberty_captures_the_surrounded_group() -> None:
    """Black a1 with a liberty through its own group (b1 black, c1 blank) turns the
    white stone a2, left without liberties, to black."""
    g = game({"a2": "w", "a3": "b", "b2": "b", "b1": "b"}, BLACK)
    assert mv("a1") in legal_both(g)
    result, after = both(g, mv("a1"))
    assert result == S.not_done
    assert after.board[(1, 2)] == S.stone(BLACK)


def test_every_square_of_the_full_board_but_one() -> None:
    """On a board full but for one square, every action of both sides agrees."""
    for hole in range(25):
        squares = [(f, r) for f in range(1, 6) for r in range(1, 6)]
        stones = {f"{'abcde'[f - 1]}{r}": ("b" if (f + r) % 2 else "w") for f, r in squares}
        del stones[f"{'abcde'[squares[hole][0] - 1]}{squares[hole][1]}"]
        for to_move in PLAYER:
            g = game(stones, to_move)
            legal_both(g)
            both(g, S.move(squares[hole]))
            both(g, PASS)
