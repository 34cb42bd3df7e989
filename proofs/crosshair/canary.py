"""Planted bugs that crosshair must find (exit 1) before any of its passes count.

crosshair exits 0 when it finds nothing, also when contracts are disabled or the
analysis never reached a function body (docs/toolchain.md).  Each canary
is a contract violation of the kind the real checks look for, reached the same way:

  * ``sow_loses_a_stone``: a sowing that drops a stone on a full lap, with its
    postcondition on the function itself (spec.contracts, so SPEC_CONTRACTS=0 also
    silences the canary);
  * ``wrapped_sow``: the same bug behind the wrapper machinery of
    proofs/crosshair/contract_check.py;
  * ``awari_wrapped`` and ``gothello_wrapped``: planted false claims about the spec
    (NormalMove never holds; no group has four stones), reached exactly as
    proofs/crosshair/targets.py reaches the spec's contracts.  (A subtler planted
    claim, "GrandSlam never holds", was not found in 60 s through the realized
    Awari path: proofs/README.md.)
"""

from __future__ import annotations

from proofs.crosshair import targets as T
from proofs.crosshair.contract_check import postconditions_hold, preconditions_hold
from spec import awari as A
from spec import gothello as G
from spec.contracts import ensure, require


def _sow(board: tuple[int, ...], pit: int) -> tuple[int, ...]:
    """Sow ``pit`` counter-clockwise, skipping the origin — with a planted bug."""
    out = list(board)
    stones, out[pit] = out[pit], 0
    q = pit
    for k in range(stones):
        q = (q + 1) % 12
        if q == pit:
            q = (q + 1) % 12
        if k != 11:  # the planted bug: the twelfth stone is lost
            out[q] += 1
    return tuple(out)


@require(lambda board: len(board) == 12)
@require(lambda board: all(n >= 0 for n in board) and sum(board) <= 48)
@require(lambda pit: 0 <= pit < 12)
@ensure(lambda board, result: sum(result) == sum(board), "no stone is lost")
def sow_loses_a_stone(board: tuple[int, ...], pit: int) -> tuple[int, ...]:
    return _sow(board, pit)


@require(lambda board: len(board) == 12)
@require(lambda board: all(n >= 0 for n in board) and sum(board) <= 48)
@require(lambda board, pit: preconditions_hold(sow_loses_a_stone, board=board, pit=pit))
@ensure(lambda result: result)
def wrapped_sow(board: tuple[int, ...], pit: int) -> bool:
    return postconditions_hold(sow_loses_a_stone, board=board, pit=pit)


@ensure(lambda result: result is None, "a planted false claim: NormalMove never holds")
def _normal_move_never(g: A.AwariGame, move: A.PIT) -> A.Outcome | None:
    return A.NormalMove_corrected(g, move)


@require(lambda board: len(board) == 12)
@require(lambda board, north, south: T._awari_stones(board, north, south))
@require(lambda board, north, south: sum(board) <= 6 and north < 25 and south < 25)  # few stones: a fast canary
@require(lambda move, south_to_move: 0 <= move < 12 and (move >= 6) == south_to_move)
@require(lambda board, move: board[move] > 0 and sum(board[:6]) > 0 and sum(board[6:]) > 0)  # mostly NormalMove
@ensure(lambda result: result)
def awari_wrapped(board: tuple[int, ...], north: int, south: int, south_to_move: bool, move: int) -> bool:
    """The Awari wrappers' path: realized primitives, a spec game, a contract."""
    board, north, south, south_to_move, move = T.realized(board, north, south, south_to_move, move)
    return postconditions_hold(
        _normal_move_never, g=T._game(board, north, south, south_to_move, False), move=A.PIT(move)
    )


@ensure(lambda result: len(result) <= 3, "a planted false claim: no group has four stones")
def _small_groups(board: G.BOARD, s: G.SQUARE) -> frozenset[G.SQUARE]:
    return G.group_corrected(board, s)


@require(lambda cells: T._cells_ok(cells))
@require(lambda s: 0 <= s < 25)
@require(lambda cells, s: cells[s] != 0)
@ensure(lambda result: result)
def gothello_wrapped(cells: tuple[int, ...], s: int) -> bool:
    """The Gothello wrappers' path: symbolic cells, a spec.z.Fun board, a contract."""
    return postconditions_hold(_small_groups, board=T._board(cells), s=T._square(s))


def capture_forgets_the_chain(
    board: tuple[int, ...], north: int, south: int, south_to_move: bool, last: int
) -> tuple[tuple[int, ...], int, int] | None:
    """A diffbehavior canary: proofs.crosshair.diff_adapters.capture_impl with a planted bug —
    only the last pit sown is taken, not the pits before it."""
    from proofs.crosshair import diff_adapters as D

    if not (D._awari_ok(board, north, south) and 0 <= last < 12):
        return None
    me = int(south_to_move)
    out, scores = list(board), [north, south]
    if (last >= 6) != bool(me) and board[last] in (2, 3):  # an opposing, vulnerable pit
        scores[me] += out[last]
        out[last] = 0
    return tuple(out), scores[0], scores[1]


def capture_takes_four(
    board: tuple[int, ...], north: int, south: int, south_to_move: bool, last: int
) -> tuple[tuple[int, ...], int, int] | None:
    """The hypothesis-crosshair canary: proofs.crosshair.diff_adapters.capture_impl
    with a planted wrong capture rule — a last pit of 4 is taken too."""
    from proofs.crosshair import diff_adapters as D

    if not (D._awari_ok(board, north, south) and 0 <= last < 12):
        return None
    if (last >= 6) != south_to_move and board[last] == 4:  # the planted rule
        out, scores = list(board), [north, south]
        scores[int(south_to_move)] += out[last]
        out[last] = 0
        return tuple(out), scores[0], scores[1]
    return D.capture_impl(board, north, south, south_to_move, last)
