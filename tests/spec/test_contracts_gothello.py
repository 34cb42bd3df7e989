"""Every contract of spec/gothello.py and spec/z.py can fire: a precondition on some
input, a postcondition on a wrong result of its function (tests/support/contract_firing.py)."""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from spec import gothello as G
from spec import z as Z
from spec.z import Fun
from tests.support.contract_firing import Contract, contracts_of, playout, violations
from tests.support.gothello_states import board, game, mv, sq

B, W = G.PLAYER.black, G.PLAYER.white


def _placements_first(g: G.GothelloGame) -> list[G.MOVE]:
    """The legal placements, or the pass when there is none: games that fill the board."""
    return [m for m in G.legal_moves(g) if m != G.pass_] or list(G.legal_moves(g))


def _playout(seed: int, plies: int) -> list[G.GothelloGame]:
    return playout(G.InitGothelloGame(), _placements_first, G.referee, seed, plies)


STATES: tuple[G.GothelloGame, ...] = (
    G.InitGothelloGame(),
    game({"c3": "b"}, W, (mv("c3"),)),
    game({"c3": "b"}, B, (G.pass_, mv("c3"))),  # a pass now ends the game
    game({"c3": "b"}, B, (G.pass_, G.pass_, mv("c3"))),  # over
    game({"a1": "w", "a2": "b"}),  # black b1 captures a1
    game({"a2": "w", "b1": "w"}),  # black a1 is blocked
    game({"b1": "w", "c1": "w", "a2": "b", "b2": "b", "c2": "b"}, B),  # d1 captures two
    game(fill="b"),  # full
    *_playout(3, 16)[::4],
)
BAD: tuple[G.GothelloGame, ...] = (G.GothelloGame(Fun(list(board())[1:]), B, ()),)  # a square missing
ACTIONS: tuple[G.MOVE, ...] = (mv("a1"), mv("b1"), mv("c3"), mv("d1"), mv("e5"), G.pass_)


def inputs(function: str) -> Iterable[tuple[object, ...]]:
    """The arguments to try each function of spec/gothello.py on."""
    if function == "opponent":
        return [(p,) for p in G.PLAYER]
    if function in ("InitGothelloPosition", "InitGothelloGame"):
        return [()]
    boards = [g.board for g in STATES]
    if function in ("group_corrected", "group", "liberties_corrected", "liberties"):
        return [(b, s) for b in boards for s in G.SQUARES]
    if function in ("capture_at_corrected", "captures_corrected"):
        cboards = [G._cboard(g, s) for g in STATES for s in G.SQUARES if g.board[s] == G.blank][::7]
        return [(c, p, s) for c in cboards for p in G.PLAYER for s in G.SQUARES]
    return [(g, a) for g in STATES + BAD for a in ACTIONS]


POOL: tuple[object, ...] = (
    G.GothelloTurn_corrected(G.InitGothelloGame(), mv("c3"))[0],
    frozenset({(sq("a1"), G.stone(B))}),
    frozenset({sq("a1")}),
)

CONTRACTS = contracts_of(G)


def test_the_spec_has_its_contracts() -> None:
    names = {c.function for c in CONTRACTS}
    assert {
        "group_corrected",
        "liberties_corrected",
        "capture_at_corrected",
        "captures_corrected",
        "GothelloMove_corrected",
        "GothelloPass_corrected",
        "GothelloEnded",
    } <= names
    assert len(CONTRACTS) >= 50


@pytest.mark.parametrize("contract", CONTRACTS, ids=str)
def test_contract_fires(contract: Contract) -> None:
    """Some input, or some wrong result of the function, violates the contract."""
    assert next(violations(G, contract, inputs, POOL), None) is not None, f"nothing violates {contract}"


def z_inputs(function: str) -> Iterable[tuple[object, ...]]:
    """spec.z's operators on small relations over ints, ill-typed ones included."""
    r = frozenset({(1, 2), (2, 3), (3, 3)})
    f = frozenset({(1, 2), (2, 2)})
    bad = frozenset({(1, 2), (1, 3), (4, -1)})
    carrier = frozenset({1, 2, 3})
    table: dict[str, list[tuple[object, ...]]] = {
        "image": [(r, frozenset({1, 2}))],
        "inverse": [(r,)],
        "dres": [(frozenset({1}), r)],
        "rres": [(r, frozenset({3}))],
        "ndres": [(frozenset({1}), r)],
        "nrres": [(r, frozenset({3}))],
        "override": [(r, frozenset({(1, 1), (4, 4)}))],
        "iter_": [(2, r, carrier), (-1, r, carrier), (1, r, frozenset({1}))],
        "closure": [(r,)],
        "rtclosure": [(r, carrier), (r, frozenset({1}))],
        "sigma": [(f,), (frozenset(),), (bad,)],
        "apply": [(f, 1), (bad, 1), (f, 9)],
    }
    return table.get(function, [])


@pytest.mark.parametrize("contract", contracts_of(Z), ids=str)
def test_z_contract_fires(contract: Contract) -> None:
    assert next(violations(Z, contract, z_inputs, (frozenset({(9, 9)}),)), None) is not None, (
        f"nothing violates {contract}"
    )
