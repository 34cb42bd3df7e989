"""Rules that mutants of impl/engines/gothello.py survived in the other tests (make mutate,
tests/mutation/results/mutation-report.md names each mutant), stated for the spec's referee and every
fast engine alike."""

from __future__ import annotations

import sys
from typing import Any

import pytest

from impl.engines import perft as P
from impl.engines.spec_engine import SpecGothello
from proofs.crosshair import diff_adapters as D
from spec import gothello as G
from spec import result as R
from spec.gothello import PLAYER, pass_
from spec.z import image
from tests.support.gothello_states import game, mv
from tests.support.strategies import impl_engines

SPEC = SpecGothello()
ENGINES: list[Any] = [SPEC, *impl_engines("gothello")]
FAST: list[Any] = impl_engines("gothello")


def _two_passes(engine: Any, stones: dict[str, str]) -> Any:
    """Black passes, then white: the game's result (GothelloGameOver)."""
    state = engine.from_spec(game(stones, PLAYER.black))
    first, state = engine.apply(state, pass_)
    assert first == R.not_done
    result, state = engine.apply(state, pass_)
    assert engine.is_over(state)
    return result


@pytest.mark.parametrize("engine", ENGINES, ids=lambda e: f"{e.kind}")
@pytest.mark.parametrize(
    "stones",
    [{}, {"a1": "b", "e5": "w"}, {"a1": "b", "a2": "b", "c3": "w", "e5": "w"}],
    ids=["empty", "one-each", "two-each"],
)
def test_two_passes_with_equal_counts_draw(engine: Any, stones: dict[str, str]) -> None:
    """Two passes in succession end the game; with as many black stones as white ones
    on the board neither player has more, so it is a draw (kills ``b > w`` → ``b >= w``
    in ``_count_result``)."""
    assert _two_passes(engine, stones) == R.draw


@pytest.mark.parametrize("engine", ENGINES, ids=lambda e: f"{e.kind}")
def test_two_passes_one_stone_ahead_wins(engine: Any) -> None:
    """One stone more is enough to win, for either colour."""
    assert _two_passes(engine, {"a1": "b", "a2": "b", "e5": "w"}) == R.win(PLAYER.black)
    assert _two_passes(engine, {"a1": "b", "d5": "w", "e5": "w"}) == R.win(PLAYER.white)


@pytest.mark.parametrize("engine", FAST, ids=lambda e: type(e).__module__)
def test_why_illegal_is_the_spec_s(engine: Any) -> None:
    """The reason a refused action is given (the server's message) is the spec engine's:
    none for a placement or a pass the referee accepts, "occupied" for a stone
    (GothelloIllegalMoveNonblank), "no liberty" for a blocked square
    (GothelloIllegalMoveBlocked), and "the game is over" after two passes (GothelloEnded)."""
    stones = {"c3": "w", "c4": "b", "d5": "w", "e4": "w", "a2": "b", "b1": "b"}
    cases = [
        (game(stones, PLAYER.black), ["c3", "c4", "e5", "a1", "b2"]),
        (game(stones, PLAYER.white), ["c3", "c4", "e5", "a1", "b2"]),
        (game(stones, PLAYER.black, (pass_, pass_)), ["c3", "e5", "b2"]),
    ]
    reasons: set[str | None] = set()
    for g, squares in cases:
        state = engine.from_spec(g)
        actions: list[G.MOVE] = [*(mv(s) for s in squares), pass_]
        for action in actions:
            want = SPEC.why_illegal(g, action)
            assert engine.why_illegal(state, action) == want, (g, action)
            reasons.add(want if want is None else want.split()[-1])
    assert reasons == {None, "occupied", "liberty", "over"}  # every branch was taken


NEAR_THE_END = ("bwwb.", ".wbbb", ".wbwb", "wbw.b", "bbbwb")
"""Four blanks (ranks 5 to 1, files a–e): black may place on each (on a3 and d2 it
captures), white only on a3 and a4 (on a4 it captures)."""
NEAR_THE_END_PERFT = {
    PLAYER.black: (1, 5, 11, 22, 18, 16, 4, 4, 0),
    PLAYER.white: (1, 3, 6, 6, 4, 0, 0, 0, 0),
}
"""perft(d), d = 0–8, black to move and white to move after a pass: found by the
spec's referee (impl/engines/perft.py ``perft`` over SpecGothello, contracts on; 36 s)."""


def _near_the_end(to_move: PLAYER, history: G.HISTORY = ()) -> G.GothelloGame:
    cells = {f"{'abcde'[f]}{5 - r}": c for r, row in enumerate(NEAR_THE_END) for f, c in enumerate(row)}
    return game({k: c for k, c in cells.items() if c != "."}, to_move, history)


def test_perft_near_the_end() -> None:
    """perft to the end of a small game tree: the fast perft of every build gives the
    spec's counts, and one that miscounts the depth (walking on instead of stopping)
    gives another count quickly here instead of running for ever on an open board."""
    for g in (_near_the_end(PLAYER.black), _near_the_end(PLAYER.white, (pass_,))):
        for engine in FAST:
            perft = sys.modules[type(engine).__module__].perft
            counts = tuple(perft(engine.from_spec(g), depth) for depth in range(9))
            assert counts == NEAR_THE_END_PERFT[g.to_move], g.to_move


def test_perft_of_an_ended_game() -> None:
    """perft(s, 0) = 1 and perft(s, d ≥ 1) = 0 once the game is over (impl/engines/perft.py):
    the fast perft of every build agrees with the generic perft over the spec."""
    ended = _near_the_end(PLAYER.white, (pass_, pass_))
    for engine in FAST:
        perft = sys.modules[type(engine).__module__].perft
        assert [perft(engine.from_spec(ended), depth) for depth in range(3)] == [1, 0, 0]
        assert [P.perft(SPEC, ended, depth) for depth in range(3)] == [1, 0, 0]


def test_place_is_minus_one_exactly_where_the_referee_blocks() -> None:
    """``_place``, which the search player (impl/players/search_gothello.py) calls and
    proofs/gothello/refinement.py (``place_refines_move``) proves: on a blank square it
    is -1 exactly where the referee refuses the placement (GothelloIllegalMoveBlocked),
    else the referee's after-board packed as ``theirs' | mine' << 25``."""
    outcomes = set()
    for g in (_near_the_end(PLAYER.black), _near_the_end(PLAYER.white)):
        for engine in FAST:
            place = sys.modules[type(engine).__module__]._place
            mine, theirs, _, _ = engine.from_spec(g)
            for s in sorted(G.SQUARES):
                if g.board[s] != G.blank:
                    continue
                result, after = G.referee(g, G.move(s))
                theirs_, mine_, _, _ = engine.from_spec(after)  # the other player moves next
                want = -1 if result == R.illegal_move else theirs_ | mine_ << 25
                assert place(mine, theirs, _bit(s)) == want, (g.to_move, s)
                outcomes.add(result)
    assert outcomes == {R.illegal_move, R.not_done}


def _bit(s: G.SQUARE) -> int:
    """The engine's bit of a square: file-major, five bits a file."""
    return 5 * (s[0] - 1) + (s[1] - 1)


def test_neighbour_table_is_spec_adjacency() -> None:
    """``_NEIGHBOURS[i]``, the table ``_place`` and ``_legal_bit`` read, is (_ adjoins _)
    ⦇{s}⦈ (corrected: G1) for the square s of bit i, s itself left out: the bounded
    refinement proof (proofs/gothello/refinement.py, ``adjacency_is_spec_adjoins``)
    relies on it exactly."""
    for engine in FAST:
        table = sys.modules[type(engine).__module__]._NEIGHBOURS
        for s in G.SQUARES:
            assert table[_bit(s)] == sum(1 << _bit(t) for t in image(G.adjoins_corrected, {s})), s


def test_group_adapter_judges_a_dead_group_as_the_spec() -> None:
    """The crosshair adapter (proofs/crosshair/diff_adapters.py) returns the engine's
    ``_free`` beside its ``_group``, and crosshair compares it with the spec's
    ``liberties_corrected(...) ≠ ∅``: a group with no blank neighbour is False on both
    sides, not merely falsy."""
    cells = [0] * 25
    for s, c in (((1, 1), 1), ((1, 2), 1), ((2, 1), 2), ((2, 2), 2), ((1, 3), 2)):
        cells[_bit(s)] = c
    for s in ((1, 1), (2, 2)):  # black a1–a2 has no liberty; white b1–b2 has
        assert D.group_impl(tuple(cells), _bit(s)) == D.group_spec(tuple(cells), _bit(s)), s
    assert D.group_impl(tuple(cells), 0) == (0b11, False)
