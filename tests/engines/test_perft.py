"""perft (impl/engines/perft.py): the counts pinned, and the spec, the fast engines through
the engine interface and the fast engines' own perft all agreeing."""

from __future__ import annotations

import os

import pytest

from impl.engines import perft as P
from impl.engines.registry import get_engine
from tests.support.strategies import impl_engines

PERFT = {
    "awari": (1, 6, 36, 190, 1014, 5219, 27332, 139157, 711414),
    "gothello": (1, 26, 651, 15650, 361041),
}
"""perft(d) from the initial position, d = 0, 1, 2, …: found by the fast engines and
checked against the spec to depth 6 (Awari) and 4 (Gothello) with SPEC_CONTRACTS=0."""

THOROUGH = os.environ.get("HYPOTHESIS_PROFILE") == "thorough"
SPEC_DEPTH = {"awari": 5 if THOROUGH else 3, "gothello": 3 if THOROUGH else 2}
"""How deep the spec (contracts on: a few hundred leaves a second) is walked here."""


@pytest.mark.parametrize("game", PERFT)
def test_pinned_counts_fast(game: str) -> None:
    engine = get_engine(game, "impl")
    for depth, expected in enumerate(PERFT[game]):
        assert P.fast_perft(game, engine.initial(), depth) == expected, depth


@pytest.mark.parametrize("game", PERFT)
def test_spec_agrees(game: str) -> None:
    for depth in range(SPEC_DEPTH[game] + 1):
        assert P.count(game, "spec", depth) == PERFT[game][depth], depth


@pytest.mark.parametrize("game", PERFT)
def test_fast_engines_through_the_interface(game: str) -> None:
    """The generic perft over every fast engine (compiled and pure) equals the
    fast perft: the fast perft walks the same tree as the interface."""
    depth = len(PERFT[game]) - 2
    for engine in impl_engines(game):
        assert P.perft(engine, engine.initial(), depth) == PERFT[game][depth]


@pytest.mark.parametrize("game", PERFT)
def test_divide_sums_to_perft(game: str) -> None:
    spec_rows = P.divide(game, "spec", 2)
    impl_rows = P.divide(game, "impl", 2)
    assert spec_rows == impl_rows
    assert sum(n for _, n in impl_rows) == PERFT[game][2]
    assert P.divide(game, "impl", 0) == []


def test_over_state_has_no_moves() -> None:
    """perft(s, d ≥ 1) = 0 once the game is over, by both perfts."""
    from impl.engines.awari import ImplAwari
    from spec import awari as A

    engine = ImplAwari()
    over = engine.from_spec(A.AwariGame(A.EMPTY_BOARD, (24, 24), A.PLAYER.north, frozenset()))
    assert engine.is_over(over)
    assert P.perft(engine, over, 1) == P.fast_perft("awari", over, 1) == 0
    assert P.perft(engine, over, 0) == P.fast_perft("awari", over, 0) == 1


def test_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert P.main(["gothello", "2", "--divide"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "a1 25" and out[25] == "pass 26" and out[26] == "perft(2) = 651"
    assert P.main(["awari", "3", "--engine", "spec"]) == 0
    assert "perft(3) = 190" in capsys.readouterr().out
