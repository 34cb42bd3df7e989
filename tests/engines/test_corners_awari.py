"""Deterministic corner cases of Awari, each checked against both the spec and the fast
engine: laps of ≥ 12 stones into an empty row that capture it empty again (the feeding
test's capture step), CannotFeed, a grand slam from every pit, repetitions, and the
end by 25 stones.  Generators enumerate every pit and count, so a change to one of
these rules is caught on every run (no sampling; laps past the first in verify-deep)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from impl.engines.awari import ImplAwari
from spec import awari as S
from spec.awari import PIT, PLAYER, AwariGame, referee, side
from tests.support.awari_states import game, scores

IMPL = ImplAwari()
NORTH, SOUTH = PLAYER.north, PLAYER.south


def both(g: AwariGame, move: PIT) -> tuple[S.RESULT, AwariGame]:
    """The spec's step, after checking that the fast engine takes the same one."""
    want = referee(g, move)
    result, after = IMPL.apply(IMPL.from_spec(g), move)
    assert (result, IMPL.to_spec(after)) == want, (g, move)
    return want


def legal_both(g: AwariGame) -> tuple[PIT, ...]:
    want = S.legal_moves(g)
    assert IMPL.legal_moves(IMPL.from_spec(g)) == want, g
    assert IMPL.is_over(IMPL.from_spec(g)) == S.game_over(g), g
    return want


def starved(mover: PLAYER, pit: PIT, n: int, extra: dict[PIT, int] | None = None) -> AwariGame:
    """The opponent of ``mover`` has no stones; ``pit`` holds n."""
    board = [0] * 12
    board[pit] = n
    for p, c in (extra or {}).items():
        board[p] += c
    north, south = scores(48 - sum(board))
    return AwariGame(tuple(board), (north, south), mover, frozenset())


LAPS = {1: range(12, 24), 2: range(24, 36), 3: range(36, 48)}
"""Counts that sow once, twice or three times round the board past the origin."""


def starved_laps(laps: tuple[int, ...] = (1, 2, 3)) -> Iterator[tuple[PLAYER, PIT, int]]:
    for mover in PLAYER:
        for pit in sorted(side(mover)):
            for lap in laps:
                for n in LAPS[lap]:
                    yield mover, pit, n


@pytest.mark.parametrize(
    "laps", [(1,), pytest.param((2, 3), marks=pytest.mark.deep)], ids=["one lap", "two and three laps"]
)
def test_every_lap_into_a_starved_row_is_judged_alike(laps: tuple[int, ...]) -> None:
    """Every sowing of 12 … 47 stones from every pit into an empty opposing row: the
    feeding test (Sow ⨟ Capture leaves the opponent stones), the legal moves and the
    step agree.  Two and three laps (the spec sowing 24 … 47 stones: tens of seconds)
    run in verify-deep; make proofs' ImplAwari slices cover every board."""
    refused = 0
    for mover, pit, n in starved_laps(laps):
        g = starved(mover, pit, n)
        both(g, pit)
        if not S.feeds(g, pit):
            refused += 1
            assert pit not in IMPL.legal_moves(IMPL.from_spec(g))
    # The corner exists: some laps sow into the empty row and capture it empty again.
    assert refused > 0


def test_lap_that_captures_the_starved_row_empty_is_refused() -> None:
    """The first lap (by side, pit, count) that sows into the empty row and captures
    it empty again: alone on its row it cannot feed, so the game ends by CannotFeed;
    beside a pit that can feed, the lap is an illegal move and the game goes on."""
    found = [
        (mover, pit, n)
        for mover, pit, n in starved_laps()
        if not S.feeds(starved(mover, pit, n), pit)
        and S.Sow_Capture_corrected(S.θAwariBoard(starved(mover, pit, n)), pit)[2]
    ]
    assert found, "no lap captures a starved row empty"
    mover, pit, n = found[0]
    g = starved(mover, pit, n)
    assert legal_both(g) == ()
    assert both(g, pit)[0] != S.illegal_move  # CannotFeed ends the game
    j = pit - 6 * mover
    feeder = PIT(6 * mover + (5 if j != 5 else 4))  # 1 (resp. 2) stones reach the opponent's row
    g2 = starved(mover, pit, n, {feeder: 1 if j != 5 else 2})
    assert legal_both(g2) == (feeder,)
    assert both(g2, pit) == (S.illegal_move, g2)
    assert both(g2, feeder)[0] == S.not_done


def test_cannot_feed_ends_the_game_and_each_claims_their_row() -> None:
    """North has one stone in a, which cannot reach south's empty row: CannotFeed,
    north claims it (24 + 1 = 25 against 23) and wins, whatever the action."""
    g = game({"a": 1}, 24, 23, NORTH)
    assert legal_both(g) == ()
    for move in PIT:
        result, after = both(g, move)
        assert result == S.win(NORTH)
        assert after.board == (0,) * 12 and after.score == (25, 23)


def grand_slams() -> Iterator[tuple[PLAYER, PIT]]:
    for mover in PLAYER:
        for pit in sorted(side(mover)):
            yield mover, pit


@pytest.mark.parametrize(("mover", "pit"), list(grand_slams()))
def test_grand_slam_from_every_pit(mover: PLAYER, pit: PIT) -> None:
    """From every pit: 11 − j stones end on the opponent's last pit after sowing one
    into each of its six pits of 1 stone; all six hold 2 and are captured — a grand
    slam: the game ends, the opponent takes the mover's remaining row."""
    j = pit - 6 * mover
    board = [0] * 12
    board[pit] = 11 - j
    for q in side(S.opponent(mover)):
        board[q] = 1
    north, south = scores(48 - sum(board))
    g = AwariGame(tuple(board), (north, south), mover, frozenset())
    result, after = both(g, pit)
    assert result in (S.win(NORTH), S.win(SOUTH), S.draw)
    assert after.board == (0,) * 12 and sum(after.score) == 48
    assert after.to_move == S.opponent(mover)


def test_repeated_position_ends_the_game() -> None:
    """A position already seen ends the game before any move (NoMove by repetition),
    and a move into a seen position ends it too (NormalMove ⨟ NoMove)."""
    start = game({"a": 4, "b": 4, "A": 4, "B": 4}, 16, 16, SOUTH)
    result, after = both(start, PIT.A)
    assert result == S.not_done
    seen = S.θAwariBoard(after)
    # The position after the move was seen before: the move ends the game.
    g = AwariGame(start.board, start.score, start.to_move, frozenset({seen}))
    result2, after2 = both(g, PIT.A)
    assert result2 != S.not_done and after2.board == (0,) * 12
    # The current position was seen: every action ends the game.
    again = AwariGame(start.board, start.score, start.to_move, frozenset({S.θAwariBoard(start)}))
    for move in PIT:
        assert both(again, move)[0] == S.draw


def test_capture_to_25_ends_the_game() -> None:
    """South, at 23, sows F's one stone into a (1 → 2) and captures it: 25 stones end
    the game at once (NormalMove ⨟ WinMargin), the board kept as it is."""
    g = game({"F": 1, "a": 1, "b": 10}, 13, 23, SOUTH)
    result, after = both(g, PIT.F)
    assert result == S.win(SOUTH)
    assert after.score == (13, 25) and after.board[PIT.b] == 10
    assert legal_both(after) == ()
    for move in PIT:  # WinMargin answers every action with the same result
        assert both(after, move)[0] == S.win(SOUTH)


def test_equal_scores_at_the_end_are_a_draw() -> None:
    """CannotFeed with equal scores after claiming: a draw, not a win."""
    g = game({"a": 1}, 23, 24, NORTH)
    assert both(g, PIT.a)[0] == S.draw
