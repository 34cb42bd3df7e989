"""One test per rule sentence of the Gothello paper (seed 001, §1).  Each docstring
quotes the sentence it checks; the referee checked is the corrected one."""

from __future__ import annotations

from spec import gothello as S
from spec.gothello import PLAYER, InitGothelloGame, pass_, referee
from spec.z import image
from tests.support.gothello_states import board, game, mv, sq

BLACK, WHITE = PLAYER.black, PLAYER.white
B, W = S.stone(BLACK), S.stone(WHITE)


def play(g: S.GothelloGame, *actions: str) -> tuple[S.RESULT, S.GothelloGame]:
    """Play the named actions (``c3``, ``pass``) in order; return the last result and state."""
    result: S.RESULT = S.not_done
    for a in actions:
        result, g = referee(g, pass_ if a == "pass" else mv(a))
    return result, g


def test_two_players_black_and_white() -> None:
    """ "Gothello is a two player game, played by players conventionally designated as
    black and white.\""""
    assert set(PLAYER) == {BLACK, WHITE}
    assert S.opponent(BLACK) == WHITE and S.opponent(WHITE) == BLACK


def test_five_by_five() -> None:
    """ "For the purposes of this document, the game will be played with a 5x5 array of
    intersections.\""""
    assert frozenset(range(1, 6)) == S.DIGIT and len(S.SQUARES) == 25
    assert len(S.legal_moves(InitGothelloGame())) == 25 + 1


def test_each_square_blank_or_a_coloured_stone() -> None:
    """ "the board position can be given by noting whether each square is blank or
    contains a colored stone.\""""
    _, g = play(InitGothelloGame(), "c3", "d4")
    assert {v for (_, v) in g.board} == {S.blank, B, W}
    assert S.is_BOARD(g.board)


def test_board_begins_empty_black_first() -> None:
    """ "The board begins empty, and black moves first.\""""
    g = InitGothelloGame()
    assert all(v == S.blank for (_, v) in g.board) and g.to_move == BLACK and g.history == ()


def test_alternate_placing_own_colour_on_blank() -> None:
    """ "The players alternate in placing stones of their own color on blank spaces on
    the board.\""""
    result, g = play(InitGothelloGame(), "c3")
    assert result == S.not_done and g.board[sq("c3")] == B and g.to_move == WHITE
    result, g = play(g, "d4")
    assert g.board[sq("d4")] == W and g.to_move == BLACK


def test_neighbors_are_horizontal_or_vertical_same_colour() -> None:
    """ "Stones of the same color which are connected horizontally and/or vertically are
    neighbors.\" — not diagonally, and not across colours."""
    b = board({"c3": "b", "c4": "b", "d3": "b", "d4": "b", "b2": "b", "c2": "w"})
    related = image(S.neighbor_corrected(b), {sq("c3")})
    assert related == {sq("c4"), sq("d3")}  # b2 is diagonal, c2 is white


def test_group_is_a_maximal_set_of_mutual_neighbours() -> None:
    """ "A maximal set of mutual neighbors is a group.\""""
    b = board({"a1": "b", "a2": "b", "b2": "b", "c2": "b", "e5": "b", "a3": "w"})
    chain = {sq("a1"), sq("a2"), sq("b2"), sq("c2")}
    for s in chain:
        assert S.group_corrected(b, s) == chain
    assert S.group_corrected(b, sq("e5")) == {sq("e5")} and S.group_corrected(b, sq("a3")) == {sq("a3")}


def test_liberties_are_the_blank_squares_around_the_group() -> None:
    """ "These are the blank squares immediately surrounding the group.\""""
    b = board({"a1": "b", "a2": "b", "b1": "w"})
    assert S.liberties_corrected(b, sq("a1")) == {sq("a3"), sq("b2")}
    assert S.liberties_corrected(b, sq("b1")) == {sq("c1"), sq("b2")}


def test_liberties_of_a_position_are_those_of_its_group() -> None:
    """ "The liberties of a position are the liberties of the group at that position.\""""
    b = board({"b2": "w", "b3": "w", "c3": "w"})
    assert (
        S.liberties_corrected(b, sq("b2"))
        == S.liberties_corrected(b, sq("c3"))
        == S.group_liberties_corrected(b, S.group_corrected(b, sq("b3")))
    )


def test_a_player_may_pass_on_any_turn() -> None:
    """ "A player may pass on any turn\" — the first move included."""
    result, g = play(InitGothelloGame(), "pass")
    assert result == S.not_done and g.to_move == WHITE
    result, g = play(g, "c3", "pass")
    assert result == S.not_done and g.to_move == WHITE


def test_must_pass_when_no_legal_move() -> None:
    """ "… and must pass if no legal move is available.\" — every placement is refused,
    pass is accepted."""
    # the only blank square is a1 and white's stone there would have no liberty
    g = game({"a1": "."}, WHITE, (), fill="b")
    assert S.legal_moves(g) == (pass_,)
    assert referee(g, mv("a1")) == (S.illegal_move, g)
    assert referee(g, pass_)[0] == S.not_done


def test_game_over_after_two_passes_in_succession() -> None:
    """ "The game is over when both players have passed in succession.\""""
    result, g = play(InitGothelloGame(), "c3", "pass")
    assert result == S.not_done and not S.game_over(g)
    result, g = play(g, "pass")
    assert result == S.win(BLACK) and S.game_over(g)
    assert referee(g, mv("d4")) == referee(g, pass_) == (S.win(BLACK), g)  # the final result again (G26)


def test_action_recorded_in_the_history() -> None:
    """ "when the Gothello referee receives an action, it gets a move, records it in the
    history, and report the result.\" — accepted actions, most recent first."""
    _, g = play(InitGothelloGame(), "c3", "pass", "d4")
    assert g.history == (mv("d4"), pass_, mv("c3"))


def test_illegal_to_play_on_an_occupied_space() -> None:
    """ "A move is illegal if it is to an occupied space,\""""
    _, g = play(InitGothelloGame(), "c3")
    assert referee(g, mv("c3")) == (S.illegal_move, g)


def test_illegal_if_the_placed_stone_has_no_liberties() -> None:
    """ "or if the stone placed becomes part of a group with no remaining liberties.\" —
    judged before captures, even if the placement would capture."""
    g = game({"a2": "w", "b1": "w"}, BLACK)
    assert referee(g, mv("a1")) == (S.illegal_move, g)
    # black a1 would take the last liberty of white's a2–a1… group, yet has none itself
    capture_but_blocked = game({"b1": "w", "a2": "w", "a3": "b", "b2": "b", "c1": "b"}, BLACK)
    assert referee(capture_but_blocked, mv("a1")) == (S.illegal_move, capture_but_blocked)
    # a stone joining a group that keeps a liberty is fine
    assert referee(game({"a2": "b", "b1": "w"}, BLACK), mv("a1"))[0] == S.not_done


def test_capture_changes_the_colour_of_groups_without_liberties() -> None:
    """ "Otherwise, a non-pass move will capture any opposing groups which have their last
    liberty removed, changing the color of these groups.\""""
    g = game({"a1": "w", "a2": "w", "b1": "b", "b2": "b", "e5": "w", "d5": "b"}, BLACK)
    result, after = referee(g, mv("a3"))
    assert result == S.not_done
    assert after.board[sq("a1")] == after.board[sq("a2")] == B  # recoloured, not removed
    assert after.board[sq("e5")] == W  # not adjacent to a3: untouched
    assert S.stones(after.board, BLACK) == 6 and S.stones(after.board, WHITE) == 1


def test_capture_of_several_groups_at_once() -> None:
    """ "… will capture any opposing groups …\" — every adjacent opposing group that lost
    its last liberty, together."""
    g = game({"c2": "w", "b3": "w", "c1": "b", "b2": "b", "a3": "b", "b4": "b", "d2": "b", "c4": "w", "d3": "b"}, BLACK)
    result, after = referee(g, mv("c3"))
    assert result == S.not_done
    assert after.board[sq("c2")] == after.board[sq("b3")] == B
    assert after.board[sq("c4")] == W  # still has liberties (c5, d4)


def test_pass_continues_unless_the_opponent_just_passed() -> None:
    """ "For a pass, there are two possible outcomes. If the opponent did not also just
    pass, the game continues.\""""
    result, g = play(InitGothelloGame(), "c3", "pass")
    assert result == S.not_done and g.board == play(InitGothelloGame(), "c3")[1].board


def test_game_over_result_by_stone_count() -> None:
    """ "Otherwise, the game is over, with the result determined simply by which player
    has the most stones on the board.\""""
    assert play(InitGothelloGame(), "c3", "pass", "pass")[0] == S.win(BLACK)
    assert play(InitGothelloGame(), "pass", "c3", "pass", "pass")[0] == S.win(WHITE)
    assert play(InitGothelloGame(), "c3", "d4", "pass", "pass")[0] == S.draw
    assert play(InitGothelloGame(), "pass", "pass")[0] == S.draw


def test_a_turn_is_one_of_the_transitions() -> None:
    """ "A Gothello turn consists of any one of the five possible transitions\" — exactly
    one disjunct (of the corrected six, with GothelloEnded) for each kind of action."""
    _, g = play(InitGothelloGame(), "c3")
    cases: dict[str, tuple[S.GothelloGame, S.MOVE]] = {
        "GothelloIllegalMoveNonblank": (g, mv("c3")),
        "GothelloIllegalMoveBlocked": (game({"a2": "w", "b1": "w"}), mv("a1")),
        "GothelloMove": (g, mv("d4")),
        "GothelloPass": (g, pass_),
        "GothelloGameOver": (play(g, "pass")[1], pass_),
        "GothelloEnded": (play(g, "pass", "pass")[1], mv("d4")),
    }
    for name, (state, action) in cases.items():
        assert [o.schema for o in S.GothelloTurn_corrected(state, action)] == [name]


def test_initial_state_is_well_defined() -> None:
    """ "The initial state is well-defined.\""""
    g = InitGothelloGame()
    assert S.GothelloGame_invariant(g) and g == InitGothelloGame()
