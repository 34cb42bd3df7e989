"""The z3 encoding of GothelloTurn (proofs/gothello/encoding.py) agrees with spec/gothello.py
on concrete states: every disjunct, literal and corrected, holds on the same states,
with the same after-state and result; groups and liberties have the same values.
Without this the proofs could be about a different referee."""

from __future__ import annotations

import random
from typing import Any

import pytest
import z3

from proofs.gothello import encoding as E
from proofs.gothello.encoding import Post, Pre
from proofs.gothello.theorems import assignment, board_of, code, concrete, square
from spec import gothello as S


def random_board(rng: random.Random) -> tuple[int, int]:
    return E.random_stones(rng, rng.choice((0.0, 0.2, 0.5, 0.8, 0.95, 1.0)))


def random_history(rng: random.Random) -> S.HISTORY:
    pool: list[S.MOVE] = [S.pass_, S.pass_, S.move(square(rng.randrange(25)))]
    return tuple(rng.choice(pool) for _ in range(rng.choice((0, 0, 1, 2, 3))))


def random_case(rng: random.Random) -> tuple[S.GothelloGame, S.MOVE]:
    black, white = random_board(rng)
    to_move = rng.choice(tuple(S.PLAYER))
    action = S.pass_ if rng.random() < 0.2 else S.move(square(rng.randrange(25)))
    return S.GothelloGame(board_of(black, white), to_move, random_history(rng)), action


def played_case(rng: random.Random) -> tuple[S.GothelloGame, S.MOVE]:
    """A state reached by random legal play, and a random action."""
    g = S.InitGothelloGame()
    for _ in range(rng.randrange(30)):
        moves = S.legal_moves(g)
        if not moves:
            break
        _, g = S.referee(g, rng.choice(moves))
    actions: list[S.MOVE] = [S.pass_, *(S.move(s) for s in sorted(S.SQUARES))]
    return g, rng.choice(actions)


def after_matches(model: Any, post: Post, outcome: S.Outcome, game: S.GothelloGame, action: S.MOVE) -> None:
    def num(x: Any) -> int:
        return int(model.eval(x, model_completion=True).as_long())

    after = outcome.after
    assert board_of(num(post.black), num(post.white_stones)) == after.board
    assert z3.is_true(model.eval(post.white, model_completion=True)) == (after.to_move == S.PLAYER.white)
    cons = z3.is_true(model.eval(post.cons, model_completion=True))
    assert after.history == ((action, *game.history) if cons else game.history)
    if cons:
        assert num(post.head) == code(action)
    expected = {
        S.not_done: E.NOT_DONE,
        S.illegal_move: E.ILLEGAL,
        S.win(S.PLAYER.black): E.WIN_BLACK,
        S.win(S.PLAYER.white): E.WIN_WHITE,
        S.draw: E.DRAW,
    }[outcome.result]
    assert num(post.result) == expected


def check_reading(reading: str, game: S.GothelloGame, action: S.MOVE) -> None:
    rels = E.LITERAL if reading == "literal" else E.CORRECTED
    turn = S.GothelloTurn_G5 if reading == "literal" else S.GothelloTurn_corrected
    by_name = {o.schema: o for o in turn(game, action)}
    for name, rel in rels.items():
        pre, post = Pre.fresh(), Post.fresh("")
        # Substituting the before-state first lets z3 fold the closures to constants.
        values = assignment(game, action, pre, h_free=True)
        s = z3.SolverFor("QF_BV")
        s.add(z3.simplify(z3.substitute(z3.And(pre.wellformed(), post.wellformed(), rel(pre, post)), *values)))
        verdict = s.check()
        outcome = by_name.get(name)
        assert (verdict == z3.sat) == (outcome is not None), (reading, name, game, action)
        if outcome is None:
            continue
        model = s.model()
        after_matches(model, post, outcome, game, action)
        # A disjunct that holds only under one value of an undefined term says so.
        s.add(pre.h1 != E.PASS)
        if outcome.undefined is None:
            continue
        assert not game.history and s.check() == z3.unsat


SEEDS = range(25)


@pytest.mark.parametrize("seed", SEEDS)
def test_the_encoding_agrees_with_the_spec(seed: int) -> None:
    rng = random.Random(seed)
    for case in (random_case(rng), random_case(rng), played_case(rng)):
        for reading in ("literal", "corrected"):
            check_reading(reading, *case)


def value(term: Any) -> int:
    return int(z3.simplify(term).as_long())


@pytest.mark.parametrize("seed", range(25))
def test_groups_and_liberties_agree_with_the_spec(seed: int) -> None:
    rng = random.Random(1000 + seed)
    black, white = random_board(rng)
    board = board_of(black, white)
    blank = E.FULL & ~(black | white)
    for i in range(E.N):
        stones = black if black >> i & 1 else white if white >> i & 1 else 0
        if not stones:
            continue
        seed_bv, stones_bv, blank_bv = E.bv(1 << i), E.bv(stones), E.bv(blank)
        g = E.group(seed_bv, stones_bv)
        g_lit = E.group_literal(seed_bv, stones_bv)
        assert value(g) == bits(S.group_corrected(board, square(i)))
        assert value(g_lit) == bits(S.group(board, square(i)))
        assert value(E.liberties(g, blank_bv)) == bits(S.liberties_corrected(board, square(i)))
        assert value(E.liberties_literal(g_lit, blank_bv)) == bits(S.liberties(board, square(i)))


def bits(squares: frozenset[S.SQUARE]) -> int:
    return sum(1 << code(S.move(s)) for s in squares)


def test_the_witness_decoder_inverts_concrete() -> None:
    """proofs.gothello.theorems.concrete and witness are inverse on histories of length ≤ 2."""
    from proofs.gothello.theorems import witness

    rng = random.Random(7)
    for _ in range(20):
        game, action = random_case(rng)
        game = S.GothelloGame(game.board, game.to_move, game.history[:2])
        pre = Pre.fresh()
        s = z3.Solver()
        s.add(concrete(game, action, pre))
        assert s.check() == z3.sat
        w = witness(s.model(), pre)
        assert (w.game, w.action) == (game, action)


def position(stones: str) -> S.BOARD:
    """A board from "b c3 w c4 …" (colour, then squares, file letter and rank)."""
    black = white = 0
    colour = "b"
    for word in stones.split():
        if word in ("b", "w"):
            colour = word
            continue
        i = 5 * ("abcde".index(word[0])) + int(word[1]) - 1
        if colour == "b":
            black |= 1 << i
        else:
            white |= 1 << i
    return board_of(black, white)


def place(square_name: str) -> S.MOVE:
    return S.move(("abcde".index(square_name[0]) + 1, int(square_name[1])))


WITNESSES: dict[str, tuple[str, str]] = {
    # A white stone captured from each of the four directions (black plays the last liberty).
    "capture to the right": ("w c3 b b3 c2 c4", "d3"),
    "capture to the left": ("w c3 b d3 c2 c4", "b3"),
    "capture upwards": ("w c3 b b3 d3 c2", "c4"),
    "capture downwards": ("w c3 b b3 d3 c4", "c2"),
    # Corner and edge captures.
    "corner capture": ("w a1 b a2", "b1"),
    "edge capture": ("w c1 b b1 d1", "c2"),
    # A group larger than one: three white stones in a row, captured by their last liberty.
    "a group of three captured": ("w b2 c2 d2 b b1 c1 d1 a2 e2 b3 c3", "d3"),
    # Several groups at once: two separate white stones lose their last liberty together.
    "two groups at once": ("w b2 d2 b a2 b1 b3 c1 d1 e2 d3", "c2"),
    # Own group with a liberty elsewhere: legal, nothing captured.
    "joining a group with a liberty": ("b b2 w a2 b1 c1", "c2"),
    # Blocked: no liberty in cboard, before any capture (the paper's order), so refused
    # even where it would take both neighbours.
    "blocked": ("w a2 b1", "a1"),
    "blocked though it would capture": ("w a2 b1 b a3 b2 c1", "a1"),
}
CAPTURING = {n for n in WITNESSES if "capture" in n and "blocked" not in n} | {"two groups at once"}


@pytest.mark.parametrize("name", sorted(WITNESSES))
def test_targeted_witnesses_agree_with_the_spec(name: str) -> None:
    stones, square_name = WITNESSES[name]
    for to_move in S.PLAYER:
        for history in ((), (S.pass_,), (place("e5"), S.pass_)):
            game = S.GothelloGame(position(stones), to_move, history)
            for reading in ("literal", "corrected"):
                check_reading(reading, game, place(square_name))


def test_the_witnesses_capture_what_they_say() -> None:
    """The capturing witnesses do capture (on the spec), so they exercise the capture terms."""
    for name, (stones, square_name) in WITNESSES.items():
        game = S.GothelloGame(position(stones), S.PLAYER.black, ())
        result, after = S.referee(game, place(square_name))
        captured = sum(1 for s, v in after.board if v == S.stone(S.PLAYER.black)) - sum(
            1 for s, v in game.board if v == S.stone(S.PLAYER.black)
        )
        if name in CAPTURING:
            assert result == S.not_done and captured > 1, name
        elif "blocked" in name:
            assert result == S.illegal_move, name
