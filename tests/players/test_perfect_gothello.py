"""The perfect player's Gothello (impl/players/perfect_gothello.py): the solved opening
is the certified top of the committed solve, and below it the compiled solver's move
keeps the position's value by the Python solver (impl/engines/gothello_endgame.py)."""

from __future__ import annotations

import random

import pytest

from impl.engines import gothello_certificate as GC
from impl.engines import gothello_endgame as GE
from impl.engines import gothello_solve as S
from impl.engines.gothello import ImplGothello
from impl.engines.kernels import GothelloState
from impl.engines.notation import parse_gothello
from impl.players import perfect_gothello as P
from impl.players.perfect_player import KEEP, PerfectPlayer, keeping
from impl.players.search_player import SearchPlayer

needs_c = pytest.mark.skipif(S.load() is None, reason="no C compiler here: the compiled solver is not built")
ENGINE = ImplGothello()


def _play(*names: str) -> GothelloState:
    state = ENGINE.initial()
    for name in names:
        move = parse_gothello(name)
        assert move is not None
        state = ENGINE.apply(state, move)[1]
    return state


def test_the_opening_is_the_committed_certificates_book() -> None:
    """As black from the start the player plays the certificate's first move, then its
    answer to whatever white replied, at every position of the book."""
    cert = GC.Certificate.load(GC.COMMITTED)
    assert P.book(ENGINE.initial()) == cert.first
    for line, answer in sorted(cert.book.items())[:: max(1, len(cert.book) // 40)]:
        assert P.book(_play(*line.split())) == answer, line


def test_the_book_is_followed_only_while_the_game_follows_it() -> None:
    cert = GC.Certificate.load(GC.COMMITTED)
    longest = max(cert.book, key=lambda line: len(line.split()))
    assert P.book(_play("a1", "c3")) is None  # black left the book
    deeper = _play(*longest.split(), cert.book[longest])
    reply = next(m for m in ENGINE.legal_moves(deeper))
    assert P.book(ENGINE.apply(deeper, reply)[1]) is None  # below its last ply


def _value(state: GothelloState) -> int:
    value = GE.Solver(budget=None).value(state)
    assert value is not None
    return value


@needs_c
@pytest.mark.parametrize("empty", [4, 7, 10])
def test_the_solvers_move_keeps_the_value(empty: int) -> None:
    """On sampled positions the mover does not lose, the move chosen keeps a win a
    win and a draw a draw; on a lost one there is no perfect move to make."""
    perfect = P.GothelloPerfect(bits=16)
    rng = random.Random(empty)
    seen = set()
    for _ in range(12):
        state = GE.sample(rng, empty)
        value = _value(state)
        seen.add((value > 0) - (value < 0))
        chosen = perfect.move(state, seconds=60.0)
        if value < 0:
            assert chosen is None
            continue
        move = parse_gothello(chosen or "")
        assert move is not None and move in ENGINE.legal_moves(state)
        _, after = ENGINE.apply(state, move)
        after_value = -_value(after) if not ENGINE.is_over(after) else value
        assert (after_value > 0) == (value > 0) and after_value >= 0
    assert 1 in seen


@needs_c
def test_out_of_budget_the_perfect_player_searches() -> None:
    """A position the solver cannot finish in the move's nodes: no solved move, and the
    perfect player's move is the search player's."""
    state = _play("a2", "c3", "a4", "e5")  # not the book's: black's first move is c3
    assert P.GothelloPerfect(bits=16).move(state, seconds=1e-6) is None
    player = PerfectPlayer(budget=0.05)
    move = parse_gothello(player.think("gothello", state, 0.05, ENGINE))
    assert move in ENGINE.legal_moves(state) and player.from_table == 0
    assert player.think("gothello", ENGINE.initial(), 0.05, ENGINE) == "c3" and player.from_table == 1


def _won_line(rng: random.Random, empty: int) -> tuple[P.GothelloPerfect, GothelloState]:
    """A fresh player's solved move in a won position of ``empty`` empty points, and the
    position after it and a random reply: the line our last move kept the win on."""
    while True:
        state = GE.sample(rng, empty)
        if _value(state) <= 0:
            continue
        perfect = P.GothelloPerfect(bits=16)
        chosen = perfect.move(state, seconds=60.0)
        move = parse_gothello(chosen or "")
        assert move is not None
        _, after = ENGINE.apply(state, move)
        if ENGINE.is_over(after):
            continue
        _, reply = ENGINE.apply(after, rng.choice(ENGINE.legal_moves(after)))
        if not ENGINE.is_over(reply) and _value(reply) > 0:
            return perfect, reply


@needs_c
def test_keeping_a_won_line_the_solver_takes_the_keeping_budget_not_the_moves() -> None:
    """Past the book, black's first solve needs a few hundred million nodes, beyond a
    move's share: where our last move kept a win, the solver takes ``keeping`` (None: no
    bound) instead of the move's budget, and keeps the win; on any other position, or
    once a move was not the solver's, the move's budget alone."""
    rng = random.Random(5)
    for _ in range(4):
        perfect, reply = _won_line(rng, 12)
        assert P.GothelloPerfect(bits=16).move(reply, seconds=1e-9) is None  # one node: out of budget
        chosen = parse_gothello(perfect.move(reply, seconds=1e-9, keeping=None) or "")
        assert chosen is not None and chosen in ENGINE.legal_moves(reply)
        _, after = ENGINE.apply(reply, chosen)
        assert ENGINE.is_over(after) or _value(after) < 0  # the win kept: the opponent is lost
    perfect, reply = _won_line(rng, 12)
    other = GE.sample(rng, 12)
    assert perfect.move(other, seconds=1e-9, keeping=None) is None  # not our line: the move's budget
    assert perfect.move(reply, seconds=1e-9, keeping=None) is None  # our line was left: no longer kept


def test_keeping_takes_keep_at_most_half_the_clock_never_less_than_the_budget() -> None:
    assert keeping(1.0, KEEP, None) == KEEP == 300.0  # no clock: the server's idle bound halved
    assert keeping(1.0, KEEP, 100.0) == 49.0  # half the clock left, less a second
    assert keeping(2.0, KEEP, 3.0) == 2.0  # never below the move's budget
    assert keeping(0.02, 0.0, None) == keeping(0.02, 0.0, 100.0) == 0.02  # --keep 0: the budget alone


@needs_c
@pytest.mark.deep
@pytest.mark.parametrize(("white", "seed"), [("random", 11), ("random", 12), ("search", 0)])
def test_from_the_start_black_wins_every_game(white: str, seed: int) -> None:
    """The solution says black wins from the start: the perfect player as black, with no
    clock (the solver bounded by nothing where it keeps the win), wins every game
    against random replies and against the search; the search never moves for it."""
    rng = random.Random(seed)
    opponent = SearchPlayer(0.05)
    player, state, ours = PerfectPlayer(budget=0.05), ENGINE.initial(), 0
    while not ENGINE.is_over(state):
        if state[2] == 0:  # black to move
            move, ours = parse_gothello(player.think("gothello", state, 0.05, ENGINE)), ours + 1
        elif white == "search":
            move = parse_gothello(opponent.think("gothello", state, 0.05, ENGINE)[0])
        else:
            move = rng.choice(ENGINE.legal_moves(state))
        assert move is not None
        _, state = ENGINE.apply(state, move)
    margin = state[0].bit_count() - state[1].bit_count()  # the mover's
    assert (margin if state[2] == 0 else -margin) > 0  # black's
    assert player.from_table == ours  # every black move the book's or the solver's
