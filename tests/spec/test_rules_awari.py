"""One test per rule sentence of the Awari papers: seed 000 (A Networked Awari Referee,
§1) and seed 002 (Awari Rules), whose rule prose is the same text without the Z.  Each
docstring quotes the sentence it checks; the referee checked is the corrected one."""

from __future__ import annotations

from spec import awari as S
from spec.awari import PIT, PLAYER, InitAwari, referee, side, θAwariBoard
from spec.z import apply
from tests.support.awari_states import game, initial_seen

NORTH, SOUTH = PLAYER.north, PLAYER.south


def play(g: S.AwariGame, *pits: str) -> tuple[S.RESULT, S.AwariGame]:
    """Play the named pits in order; return the last result and the state."""
    result: S.RESULT = S.not_done
    for name in pits:
        result, g = referee(g, PIT[name])
    return result, g


def test_two_players_north_and_south() -> None:
    """ "Awari is a two player game, played by players conventionally designated as north
    and south.\""""
    assert set(PLAYER) == {NORTH, SOUTH}
    assert S.opponent(NORTH) == SOUTH and S.opponent(SOUTH) == NORTH


def test_twelve_pits_and_two_awari() -> None:
    """ "The board … consists of 12 pits into which a number of stones are placed. In
    addition, two end pits, or awari, contain stones captured by the two sides during
    play.\""""
    g = InitAwari()
    assert len(PIT) == 12 and len(g.board) == 12 and len(g.score) == 2


def test_pits_named_counterclockwise_from_the_north_east() -> None:
    """ "Starting from the NE corner and moving counterclockwise, the pits are named by
    the letters a through f, first in lowercase and then in uppercase.\""""
    assert [apply(S.pit_order, i).name for i in range(1, 13)] == list("abcdefABCDEF")
    assert [apply(S.next, p) for p in PIT] == [PIT((p.value + 1) % 12) for p in PIT]
    assert S.prev == frozenset((b, a) for (a, b) in S.next)


def test_sowing_moves_counterclockwise() -> None:
    """ "This convention is sensible, since the fundamental sowing operation described
    below moves counterclockwise.\" — sowing C (4 stones) fills D, E, F, a."""
    _, g = play(InitAwari(), "C")
    assert [g.board[p] for p in (PIT.C, PIT.D, PIT.E, PIT.F, PIT.a, PIT.b)] == [0, 5, 5, 5, 5, 4]


def test_48_stones_never_lost() -> None:
    """ "The board starts with 48 stones, and stones are never lost from the game: all 48
    must always be somewhere.\""""
    g = InitAwari()
    for name in "FaEbDc":
        _, g = play(g, name)
        assert sum(g.board) + sum(g.score) == 48


def test_state_is_the_number_of_stones_in_each_pit() -> None:
    """ "The state of the board at any given time is essentially just the number of
    stones in each pit.\" — the board is PIT → ℕ, with the stores and the turn beside."""
    s = θAwariBoard(InitAwari())
    assert S.is_BOARD(s.board) and set(S.graph(s.board)) == {(p, 4) for p in PIT}


def test_players_alternate() -> None:
    """ "The players alternate moves." / "Moves alternate between players.\""""
    g = InitAwari()
    for expected, name in zip([NORTH, SOUTH, NORTH], ["F", "a", "E"], strict=True):
        _, g = play(g, name)
        assert g.to_move == expected


def test_initially_four_stones_per_pit() -> None:
    """ "Each pit initially contains 4 stones\""""
    assert InitAwari().board == (4,) * 12 and InitAwari().score == (0, 0)


def test_south_moves_first() -> None:
    """ "The south player moves first.\""""
    assert InitAwari().to_move == SOUTH
    assert referee(InitAwari(), PIT.a)[0] == S.illegal_move
    assert referee(InitAwari(), PIT.A)[0] == S.not_done


def test_sow_own_side_only() -> None:
    """ "The players alternate in sowing the stones in a pit of their choice on their side
    of the board. (north owns pits a-f, and south pits A-F.)\""""
    assert side(NORTH) == {PIT.a, PIT.b, PIT.c, PIT.d, PIT.e, PIT.f}
    assert side(SOUTH) == {PIT.A, PIT.B, PIT.C, PIT.D, PIT.E, PIT.F}
    for p in PIT:
        assert (referee(InitAwari(), p)[0] == S.illegal_move) == (p in side(NORTH))


def test_empty_pit_may_not_be_sown() -> None:
    """ "A pit may be sown if it contains one or more stones\""""
    _, g = play(InitAwari(), "F", "a")
    assert g.board[PIT.F] == 0
    assert referee(g, PIT.F) == (S.illegal_move, g)


def test_stones_placed_one_at_a_time_counterclockwise() -> None:
    """ "the stones are removed from the pit, and placed one at a time into subsequent
    pits, moving around the board in counterclockwise order.\""""
    g = game({"D": 5, "a": 3}, 20, 20, SOUTH)
    sown, last = S.Sow(θAwariBoard(g), PIT.D)
    assert sown.board[PIT.D] == 0
    assert [sown.board[p] for p in (PIT.E, PIT.F, PIT.a, PIT.b, PIT.c)] == [1, 1, 4, 1, 1]
    assert last == PIT.c


def test_original_pit_is_skipped() -> None:
    """ "The original pit is skipped whenever it is encountered.\" — 12 stones from A go
    round once, skip A, and the twelfth lands in B."""
    g = game({"A": 12, "a": 2}, 17, 17, SOUTH)
    sown, last = S.Sow(θAwariBoard(g), PIT.A)
    assert sown.board[PIT.A] == 0 and sown.board[PIT.B] == 2 and last == PIT.B
    assert sum(sown.board) == 14


def test_last_pit_filled_is_examined_first() -> None:
    """ "The last pit filled is the first pit we will examine for possible capture
    below.\" — to_capture = (trace move)(board move)."""
    g = game({"E": 3, "a": 1, "b": 1}, 21, 22, SOUTH)
    _, last = S.Sow(θAwariBoard(g), PIT.E)
    assert last == PIT.b


def test_capture_a_group_of_two_or_three() -> None:
    """ "When sowing a pit, if the last pebble placed makes a group of two or three, then
    that pit's stones are captured and scored by placing in the capturing player's
    awari.\""""
    for before, captured in ((1, 2), (2, 3)):
        g = game({"F": 1, "a": before, "c": 4}, 23 - before, 20, SOUTH)
        result, after = referee(g, PIT.F)
        assert result == S.not_done and after.board[PIT.a] == 0
        assert after.score[SOUTH] == g.score[SOUTH] + captured
    g = game({"F": 1, "a": 3, "c": 4}, 20, 20, SOUTH)  # makes 4: no capture
    assert referee(g, PIT.F)[1].board[PIT.a] == 4


def test_capture_continues_to_the_previous_pit() -> None:
    """ "If the previous pit then contains a group of two or three stones, these stones
    are also captured, and so forth.\""""
    g = game({"D": 3, "a": 1, "b": 2, "c": 1, "e": 1}, 20, 20, SOUTH)
    result, after = referee(g, PIT.D)  # D → E, F, a: a holds 2; a's previous is F (south's)
    assert after.board[PIT.a] == 0 and after.score[SOUTH] == 22
    g = game({"E": 4, "a": 1, "b": 2, "c": 1, "f": 1}, 24, 15, SOUTH)
    result, after = referee(g, PIT.E)  # E → F, a, b, c: c 2, b 3, a 2 captured clockwise
    assert result == S.not_done
    assert [after.board[p] for p in (PIT.a, PIT.b, PIT.c)] == [0, 0, 0] and after.score[SOUTH] == 15 + 7


def test_captures_only_on_the_opponents_side() -> None:
    """ "the set of pits which are captured is the set of pits on the opponent's side of
    the board reachable by captures from the last pit sown\" — the harvest stops at the
    end of the opposing row and never takes the mover's own pits."""
    g = game({"F": 2, "E": 1, "a": 1, "b": 1, "c": 5}, 19, 19, SOUTH)
    _, after = referee(g, PIT.F)  # F → a (2), b (2); then a; F (south's, holds 0) stops it
    assert after.board[PIT.a] == after.board[PIT.b] == 0 and after.board[PIT.E] == 1
    g = game({"A": 1, "B": 1, "a": 3}, 20, 23, SOUTH)
    _, after = referee(g, PIT.A)  # the last stone lands in B (south's own), making 2
    assert after.board[PIT.B] == 2 and after.score == g.score


def test_grand_slam_is_capturing_all_the_opponents_stones() -> None:
    """ "The sowing of stones to capture all stones on the opponent's side of the board is
    known as a grand slam\" / "A grand slam is the capture the rest of the opponent's
    stones.\""""
    g = game({"a": 1, "b": 1, "F": 2, "A": 4}, 20, 20, SOUTH)
    (outcome,) = S.AwariRef_corrected(g, PIT.F)
    assert outcome.schema == "GrandSlam"


def test_grand_slam_variant_e_remaining_stones_to_the_opponent() -> None:
    """ "(e) The stones may be sown for a grand slam, and all captures happen: the
    remaining stones on the board are awarded to the opponent.\" / "A grand slam capture
    forfeits all stones still on the board at the end of the turn.\""""
    g = game({"a": 1, "b": 1, "F": 2, "A": 4, "C": 2}, 20, 18, SOUTH)
    result, after = referee(g, PIT.F)
    assert after.board == (0,) * 12
    assert after.score == (20 + 4 + 2, 18 + 4)  # south captured 4; north gets A and C
    assert result == S.win(NORTH)


def test_grand_slam_ends_the_game() -> None:
    """ "Normally, a grand slam ends the game\""""
    g = game({"a": 1, "b": 1, "F": 2, "A": 4}, 20, 20, SOUTH)
    result, after = referee(g, PIT.F)
    assert result == S.draw and S.game_over(after)
    assert referee(after, PIT.a)[0] == S.draw  # every later action gets the final result


def test_winner_has_more_stones() -> None:
    """winner: "if s north > s south then win north else if s south > s north then win
    south else draw\""""
    assert S.winner((25, 23)) == S.win(NORTH)
    assert S.winner((20, 28)) == S.win(SOUTH)
    assert S.winner((24, 24)) == S.draw


def test_player_unable_to_move_remaining_stones_to_the_opponent() -> None:
    """ "A game may be ended by a player being unable to move, in which case the remaining
    stones on the board belong to the opponent.\" / "If the sowing is impossible, … each
    player claims the stones on their side of the board, and the game is over.\""""
    g = game({"c": 6, "e": 2}, 16, 24, SOUTH)  # south to move with an empty row
    result, after = referee(g, PIT.A)
    assert after.score == (24, 24) and after.board == (0,) * 12 and result == S.draw


def test_must_leave_the_opponent_a_move() -> None:
    """ "However, a player must leave the opponent with a legal move at the start of their
    turn, if it is possible to do so.\" / "If the opponent's pits are all empty, the
    player must sow a pit which leaves the opponent a move if possible.\""""
    g = game({"B": 1, "F": 1}, 23, 23, SOUTH)
    assert referee(g, PIT.B) == (S.illegal_move, g)
    result, after = referee(g, PIT.F)
    assert result == S.not_done and after.board[PIT.a] == 1


def test_when_no_move_can_feed_the_game_ends() -> None:
    """ "… if it is possible to do so." — when no move can give the starving opponent a
    stone, the game ends and each side claims its own row (A8), reported on the move
    that brought it about: north's f empties north's row and south's A and B cannot
    reach it."""
    assert referee(game({"A": 1}, 23, 24, SOUTH), PIT.A)[0] == S.win(SOUTH)
    result, after = referee(game({"f": 1, "B": 1}, 23, 23, NORTH), PIT.f)
    assert result == S.win(SOUTH) and after.score == (23, 25) and S.game_over(after)


def test_repetition_ends_the_game_each_claims_own_side() -> None:
    """ "A game will also be ended by repetition of position. … The most common rule here
    is that each player captures the stones on their side of the board." / "If … the
    position is a repetition of a previous one, each player claims the stones on their
    side of the board, and the game is over." — two lone stones chase each other round
    the board; the twelfth move restores the starting position."""
    g = game({"a": 1, "A": 1}, 23, 23, SOUTH)
    moves = "AaBbCcDdEeFf"
    for name in moves[:-1]:
        result, g = referee(g, PIT[name])
        assert result == S.not_done
    result, g = referee(g, PIT[moves[-1]])
    assert result == S.draw and g.score == (24, 24) and g.board == (0,) * 12


def test_repetition_of_a_seen_position() -> None:
    """ "To keep track of repetitions, it is necessary to keep track of the set of
    positions seen so far." — a move that reproduces a position in that set ends the
    game: here south's F makes the position already recorded."""
    start = game({"F": 1, "e": 2, "E": 1}, 22, 22, SOUTH)
    seen = game({"a": 1, "e": 2, "E": 1}, 22, 22, NORTH)
    result, after = referee(S.AwariGame(start.board, start.score, SOUTH, frozenset({θAwariBoard(seen)})), PIT.F)
    assert after.board == (0,) * 12 and after.score == (25, 23) and result == S.win(NORTH)
    assert referee(start, PIT.F)[0] == S.not_done  # not seen: the game goes on


def test_a_move_records_the_position() -> None:
    """AwariMove: positions' = positions ∪ {θAwariBoard} — the position *before* the
    move is recorded (the prose says "the resulting board position": erratum A21)."""
    g = InitAwari()
    _, g1 = referee(g, PIT.F)
    assert θAwariBoard(g) in g1.positions
    _, g2 = referee(g1, PIT.a)
    assert θAwariBoard(g1) in g2.positions and len(g2.positions) == 2
    assert θAwariBoard(g2) not in g2.positions


def test_25_stones_wins() -> None:
    """ "If either player has 25 or more stones at the start of their turn, the player
    with the most stones wins, and the game is over.\" — checked right after the move
    that brings it about (A11)."""
    g = game({"a": 1, "c": 5, "F": 1, "A": 3}, 15, 23, SOUTH)
    result, after = referee(g, PIT.F)
    assert result == S.win(SOUTH) and after.score == (15, 25) and S.game_over(after)
    assert referee(game({"a": 10, "A": 10}, 3, 25, NORTH), PIT.a)[0] == S.win(SOUTH)


def test_illegal_only_while_a_move_is_available_and_nobody_has_won() -> None:
    """ "A move can only be illegal if a move is available and neither side has won.\""""
    assert referee(game({"a": 10, "A": 10}, 3, 25, NORTH), PIT.A)[0] == S.win(SOUTH)
    assert referee(game({"c": 6, "e": 2}, 16, 24, SOUTH), PIT.c)[0] == S.draw


def test_illegal_moves() -> None:
    """ "An illegal move is from a pit on the wrong side of the board, a pit with no
    stones, or fails to feed an opponent with stones when necessary.\" — and it changes
    nothing: the same player tries again."""
    g = game({"B": 1, "F": 1, "D": 0}, 23, 23, SOUTH)
    for pit in (PIT.a, PIT.D, PIT.B):
        assert referee(g, pit) == (S.illegal_move, g)


def test_referee_reports_continue_end_or_illegal() -> None:
    """ "The referee reports whether a move continues the game, ends the game, or is
    illegal.\" — AwariRef gives exactly one outcome."""
    assert referee(InitAwari(), PIT.F)[0] == S.not_done
    assert referee(InitAwari(), PIT.f)[0] == S.illegal_move
    assert isinstance(referee(game({"A": 1}, 23, 24, SOUTH), PIT.A)[0], S.win)
    assert len(S.AwariRef_corrected(InitAwari(), PIT.F)) == 1


def test_game_starts_with_initial_board_and_no_positions() -> None:
    """ "The game starts with the initial board, and no positions yet seen.\""""
    g = InitAwari()
    assert θAwariBoard(g) == S.InitAwariBoard() and g.positions == frozenset()
    assert not S.game_over(g) and initial_seen().positions == {θAwariBoard(g)}
