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
from proofs.gothello.encoding import Pre
from proofs.gothello.encoding_check import (
    CAPTURING,
    WITNESSES,
    adjacency_problems,
    bits,
    board_of,
    place,
    position,
    reading_difference,
    square,
    value,
)
from proofs.gothello.theorems import concrete
from spec import gothello as S
from tests.support.profiles import seeds


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


def check_reading(reading: str, game: S.GothelloGame, action: S.MOVE) -> None:
    assert reading_difference(reading, game, action) is None, (reading, game, action)


@pytest.mark.parametrize("seed", seeds(25, verify=8))
def test_the_encoding_agrees_with_the_spec(seed: int) -> None:
    rng = random.Random(seed)
    for case in (random_case(rng), random_case(rng), played_case(rng)):
        for reading in ("literal", "corrected"):
            check_reading(reading, *case)


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


def wrapped_adj(x: Any) -> Any:
    """A planted bug: a step up the rank is not masked, so d5 (and every rank-5
    square) adjoins the next file's rank 1 — d5 → e1."""
    return (x << 1) | (z3.LShR(x, 1) & E.bv(E.FULL & ~E.RANK5)) | ((x << 5) & E.bv(E.FULL)) | z3.LShR(x, 5)


def test_adjacency_agrees_with_the_spec_on_every_square() -> None:
    assert adjacency_problems() == []


def test_a_wrapped_edge_is_found(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(E, "adj", wrapped_adj)
    found = adjacency_problems()
    assert any(p.startswith("adj {d5}") for p in found), found


def test_a_wrong_capture_direction_is_found(monkeypatch: pytest.MonkeyPatch) -> None:
    real = E.directions
    monkeypatch.setattr(E, "directions", lambda sbit: [*real(sbit)[:3], z3.LShR(sbit, 4)])
    found = adjacency_problems()
    assert any(p.startswith("directions {c3}") for p in found), found


def test_the_theorems_stop_on_a_wrong_encoding(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """proofs.gothello.theorems checks its encoding first and fails, naming the difference."""
    from proofs.gothello import theorems

    monkeypatch.setattr(E, "adj", wrapped_adj)
    assert theorems.main() == 1
    out = capsys.readouterr().out
    assert "ENCODING ≠ SPEC: adj {d5}" in out and "no theorem run" in out


def test_the_placement_laws_neighbours_are_the_spec_s() -> None:
    """The placement laws' own adjacency (coordinate arithmetic) is spec adjoins_corrected."""
    from proofs.gothello.theorems import explicit_adj, neighbours_mask
    from spec.z import image

    for i in range(E.N):
        want = bits(frozenset(image(S.adjoins_corrected, {square(i)})))
        assert neighbours_mask(i) == want
        assert value(explicit_adj(E.bv(1 << i))) == want
