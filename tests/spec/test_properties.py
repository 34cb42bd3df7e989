"""Properties of the spec's referees over reachable and arbitrary well-formed states:
stones are conserved, results are well formed, illegal moves change nothing, and the
corrected disjunctions give exactly one outcome.  Contracts are on throughout."""

from __future__ import annotations

from hypothesis import given

from spec import awari as A
from spec import gothello as G
from spec import result as R
from tests.support.strategies import awari_actions, awari_states, gothello_actions, gothello_states


@given(awari_states, awari_actions)
def test_awari_conserves_stones(g: A.AwariGame, move: A.PIT) -> None:
    """ "stones are never lost from the game: all 48 must always be somewhere\""""
    _, after = A.referee(g, move)
    assert sum(after.board) + sum(after.score) == 48
    assert all(n >= 0 for n in after.board + after.score)


@given(awari_states, awari_actions)
def test_awari_results_are_well_formed(g: A.AwariGame, move: A.PIT) -> None:
    """A game-ending result is the winner of the final stores; not_done leaves a game in
    progress with the turn passed; the game ends only with a win or a draw."""
    result, after = A.referee(g, move)
    if result == R.not_done:
        assert not A.game_over(after) and after.to_move == A.opponent(g.to_move)
        assert sum(after.score) >= sum(g.score)
    elif result != R.illegal_move:
        assert A.game_over(after) and result == A.winner(after.score)
        assert A.referee(after, move)[0] == result  # the final result, for every later action


@given(awari_states, awari_actions)
def test_awari_illegal_moves_change_nothing(g: A.AwariGame, move: A.PIT) -> None:
    """ "An illegal move is from a pit on the wrong side of the board, a pit with no
    stones, or fails to feed …\" — and the state, positions included, is unchanged."""
    result, after = A.referee(g, move)
    if result == R.illegal_move:
        assert after == g and not A.game_over(g)
        assert (
            move not in A.side(g.to_move)
            or g.board[move] == 0
            or sum(g.board[p] for p in A.side(A.opponent(g.to_move))) == 0
        )


@given(awari_states, awari_actions)
def test_awari_ref_has_one_determined_outcome(g: A.AwariGame, move: A.PIT) -> None:
    """The corrected AwariRef: exactly one disjunct, one after-state (proofs/ prove it
    exhaustively for small boards)."""
    (outcome,) = A.AwariRef_corrected(g, move)
    assert outcome.after.completions() == 1


@given(gothello_states, gothello_actions)
def test_gothello_placement_adds_one_stone_and_recolours_only(g: G.GothelloGame, action: G.MOVE) -> None:
    """ "The players alternate in placing stones of their own color on blank spaces" and
    a capture changes "the color of these groups": one more stone, the placed one, and
    every other change is an opposing stone turned to the mover's colour."""
    result, after = G.referee(g, action)
    if result == R.not_done and isinstance(action, G.move):
        mine, theirs = G.stone(g.to_move), G.stone(G.opponent(g.to_move))
        assert sum(1 for (_, v) in after.board if v != G.blank) == sum(1 for (_, v) in g.board if v != G.blank) + 1
        assert g.board[action.square] == G.blank and after.board[action.square] == mine
        for s in G.SQUARES - {action.square}:
            assert after.board[s] == g.board[s] or (g.board[s] == theirs and after.board[s] == mine)


@given(gothello_states, gothello_actions)
def test_gothello_results_are_well_formed(g: G.GothelloGame, action: G.MOVE) -> None:
    """Only a pass after a pass ends the game, with the stone count's verdict; every
    accepted action is recorded and passes the turn (or ends the game)."""
    result, after = G.referee(g, action)
    if result == R.illegal_move or G.game_over(g):
        assert after == g
    else:
        assert after.history == (action, *g.history)
        if result == R.not_done:
            assert after.to_move == G.opponent(g.to_move) and not G.game_over(after)
        else:
            assert action == G.pass_ and g.history[:1] == (G.pass_,) and G.game_over(after)
            black, white = G.stones(after.board, G.PLAYER.black), G.stones(after.board, G.PLAYER.white)
            assert result == (
                R.win(G.PLAYER.black) if black > white else R.win(G.PLAYER.white) if white > black else R.draw
            )


@given(gothello_states, gothello_actions)
def test_gothello_turn_has_one_outcome(g: G.GothelloGame, action: G.MOVE) -> None:
    """The corrected GothelloTurn: exactly one disjunct holds (proofs/ prove it by SMT)."""
    assert len(G.GothelloTurn_corrected(g, action)) == 1


@given(gothello_states)
def test_gothello_passing_is_always_legal(g: G.GothelloGame) -> None:
    """ "A player may pass on any turn\"; after the end a pass, like every action, gets
    the final result again."""
    result, _ = G.referee(g, G.pass_)
    assert result != R.illegal_move
    assert (result == R.not_done) == (not G.game_over(g) and g.history[:1] != (G.pass_,))


@given(awari_states, awari_actions)
def test_awari_game_over_answers_the_final_result(g: A.AwariGame, move: A.PIT) -> None:
    """One game-over semantics for both games (G26): once the game is over, every
    action is answered with the final result; after the first such answer (NoMove and
    CannotFeed claim the rows' stones then) nothing on the board changes."""
    result, after = A.referee(g, move)
    if A.game_over(g):
        assert result == A.winner(after.score) != R.illegal_move
        again, later = A.referee(after, move)
        assert (again, later.board, later.score, later.to_move) == (result, after.board, after.score, after.to_move)


@given(gothello_states, gothello_actions)
def test_gothello_game_over_answers_the_final_result(g: G.GothelloGame, action: G.MOVE) -> None:
    """As for Awari (G26): after the end, every action gets the final stone count's
    result and changes nothing."""
    result, after = G.referee(g, action)
    if G.game_over(g):
        assert after == g and result == G.referee(g, G.pass_)[0] != R.illegal_move
        assert result in (R.draw, G.win(G.PLAYER.black), G.win(G.PLAYER.white))
