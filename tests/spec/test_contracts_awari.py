"""Every contract of spec/awari.py can fire: a precondition on some input, a
postcondition on a wrong result of its function (tests/support/contract_firing.py).  And
the contracts are strong: planted weakenings of the invariants and of the schemas'
contracts are each caught (tests/spec/test_contract_strength.py)."""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from proofs.crosshair.contracts import CORRECTED_DISJUNCTS
from spec import awari as A
from tests.support.awari_states import game, initial_seen
from tests.support.contract_firing import Contract, contracts_of, playout, violations


def _playout(seed: int, plies: int) -> list[A.AwariGame]:
    return playout(A.InitAwari(), A.legal_moves, A.referee, seed, plies)


STATES: tuple[A.AwariGame, ...] = (
    A.InitAwari(),
    initial_seen(),  # a repetition: NoMove
    game({"a": 1, "b": 1, "F": 2, "A": 4}, 20, 20, A.PLAYER.south),  # F is a grand slam
    game({"B": 1, "F": 2}, 23, 22, A.PLAYER.south),  # north starves; F feeds, B does not
    game({"A": 1}, 23, 24, A.PLAYER.south),  # north cannot be fed: CannotFeed
    game({"a": 10, "A": 10}, 3, 25, A.PLAYER.north),  # WinMargin
    game({"a": 5}, 20, 23, A.PLAYER.south),  # south has no stones: NoMove
    game({"a": 1, "c": 5, "F": 1, "A": 3}, 15, 23, A.PLAYER.south),  # F captures to 25
    game({"a": 2, "b": 2, "c": 1, "F": 3, "E": 2}, 19, 19, A.PLAYER.south),  # a chain capture
    *_playout(1, 14)[::3],
    *_playout(2, 30)[::5],
)
BAD: tuple[A.AwariGame, ...] = (
    A.AwariGame((4,) * 11 + (3,), (0, 0), A.PLAYER.south, frozenset()),  # 47 stones
    A.AwariGame((4,) * 12, (0, 0), A.PLAYER.south, frozenset({A.AwariBoard((4,) * 12, (1, 0), A.PLAYER.north)})),
    A.AwariGame((-1,) + (5,) * 11 + (0,) * 0, (-6, 0), A.PLAYER.south, frozenset()),  # a negative pit
)


def inputs(function: str) -> Iterable[tuple[object, ...]]:
    """The arguments to try each function of spec/awari.py on."""
    games = STATES + BAD
    if function in ("opponent", "side"):
        return [(p,) for p in A.PLAYER]
    if function == "next_skip":
        return [(p,) for p in A.PIT]
    if function in ("InitAwariBoard", "InitAwari"):
        return [()]
    if function in ("Sow", "Sow_Capture_corrected", "Sow_Capture"):
        return [(A.θAwariBoard(g), m) for g in games for m in A.PIT]
    if function in ("Capture_corrected", "Capture"):
        sown = [A.Sow(A.θAwariBoard(g), m) for g in STATES for m in A.PIT if A.pre_Sow(g, m)]
        return [*sown, *((A.θAwariBoard(g), m) for g in BAD for m in (A.PIT.a,))]
    if function in ("ClaimStones", "ForfeitStones"):
        return [(g.score, g.board) for g in games]
    return [(g, m) for g in games for m in A.PIT]


POOL: tuple[object, ...] = (
    A.AwariRef_corrected(A.InitAwari(), A.PIT.F)[0],
    A.AwariRef_corrected(initial_seen(), A.PIT.F)[0],
    frozenset({A.PIT.a}),
    frozenset({A.AwariBoard((4,) * 12, (1, 0), A.PLAYER.north)}),  # a position with 49 stones
)
CONTRACTS = contracts_of(A)


def test_the_spec_has_its_contracts() -> None:
    """The schemas' contracts are there (and on: SPEC_CONTRACTS is not 0 in the tests)."""
    names = {c.function for c in CONTRACTS}
    assert {"Sow", "Capture_corrected", *CORRECTED_DISJUNCTS} <= names
    assert len(CONTRACTS) >= 100


@pytest.mark.parametrize("contract", CONTRACTS, ids=str)
def test_contract_fires(contract: Contract) -> None:
    """Some input, or some wrong result of the function, violates the contract."""
    assert next(violations(A, contract, inputs, POOL), None) is not None, f"nothing violates {contract}"
