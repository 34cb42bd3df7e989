"""Thin wrappers with primitive signatures, so that crosshair can search the spec's
own contracts where it cannot build the spec's arguments itself (proofs/README.md,
"CrossHair"): Gothello boards are ``spec.z.Fun`` (a frozenset with a dict inside),
AwariGame carries a set of positions, and spec.z's iter_ / closure / rtclosure are
generic over one TypeVar on both sides (crosshair 0.0.112 crashes unifying it), and
the other relational operators crash it at 10 s a condition (image, apply, rres,
nrres: internal errors on their TypeVar-generic relations).

Each wrapper (its decorators written out: icontract and crosshair read a condition
from its decorator's source text) takes tuples of ints and restates the spec function's preconditions in
a form crosshair handles well (``all(x >= 0 …) and sum(…) …``, never an ``and``
inside ``all``; the spec's own, with their memoised invariants, left crosshair
unable to meet them).  Its body checks that the restatement implies the spec's
preconditions, runs the function's body and ensures that the function's own
postconditions hold (proofs/crosshair/contract_check.py).  Positions are a flag: ∅ or {θ}.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from crosshair import deep_realize

from proofs.crosshair.contract_check import postconditions_hold, preconditions_hold
from spec import awari as A
from spec import gothello as G
from spec import z as Z
from spec.contracts import ensure, require
from spec.z import Fun

# ─── spec.z over small sets of ints ────────────────────────────────────────────

Pairs = frozenset[tuple[int, int]]


def _within(r: Pairs, n: int) -> bool:
    return (
        all(x >= 0 for x, _ in r)
        and all(y >= 0 for _, y in r)
        and all(x < n for x, _ in r)
        and all(y < n for _, y in r)
    )


def _z_checked(f: Callable[..., Any], /, **kwargs: object) -> bool:
    """f's preconditions, restated by the wrapper, hold (a wrapper bug otherwise);
    then f's postconditions on its body's result."""
    if not preconditions_hold(f, **kwargs):
        raise AssertionError(f"the wrapper admitted an input outside pre {f}")
    return postconditions_hold(f, **kwargs)


@require(lambda n: 0 <= n <= 6)
@require(lambda r, n: _within(r, n))
@require(lambda s: all(x >= 0 for x in s))
@ensure(lambda result: result)
def image(r: Pairs, s: frozenset[int], n: int) -> bool:
    return _z_checked(Z.image, r=r, s=s)


@require(lambda n: 0 <= n <= 6)
@require(lambda r, n: _within(r, n))
@ensure(lambda result: result)
def inverse(r: Pairs, n: int) -> bool:
    return _z_checked(Z.inverse, r=r)


@require(lambda n: 0 <= n <= 6)
@require(lambda r, n: _within(r, n))
@require(lambda s: all(x >= 0 for x in s))
@ensure(lambda result: result)
def dres(s: frozenset[int], r: Pairs, n: int) -> bool:
    return _z_checked(Z.dres, s=s, r=r)


@require(lambda n: 0 <= n <= 6)
@require(lambda r, n: _within(r, n))
@require(lambda s: all(x >= 0 for x in s))
@ensure(lambda result: result)
def ndres(s: frozenset[int], r: Pairs, n: int) -> bool:
    return _z_checked(Z.ndres, s=s, r=r)


@require(lambda n: 0 <= n <= 6)
@require(lambda r, n: _within(r, n))
@require(lambda q, n: _within(q, n))
@ensure(lambda result: result)
def override(r: Pairs, q: Pairs, n: int) -> bool:
    return _z_checked(Z.override, r=r, q=q)


@require(lambda r: all(x >= 0 for x, _ in r) and all(y >= 0 for _, y in r))
@ensure(lambda result: result)
def sigma(r: Pairs) -> bool:
    return _z_checked(Z.sigma, r=r)


@require(lambda n: 0 <= n <= 6)
@require(lambda f, n: _within(f, n))
@require(lambda f, x: sum(1 for (a, _) in f if a == x) == 1)
@ensure(lambda result: result)
def apply(f: Pairs, x: int, n: int) -> bool:
    return _z_checked(Z.apply, f=f, x=x)


@require(lambda n: 0 <= n <= 6)
@require(lambda r, n: _within(r, n))
@require(lambda t: all(y >= 0 for y in t))
@ensure(lambda result: result)
def rres(r: Pairs, t: frozenset[int], n: int) -> bool:
    """spec.z.rres directly crashes crosshair at 10 s a condition (an internal
    AttributeError on its TypeVar-generic relation); over ints it does not."""
    return postconditions_hold(Z.rres, r=r, t=t)


@require(lambda n: 0 <= n <= 6)
@require(lambda r, n: _within(r, n))
@require(lambda t: all(y >= 0 for y in t))
@ensure(lambda result: result)
def nrres(r: Pairs, t: frozenset[int], n: int) -> bool:
    """As rres."""
    return postconditions_hold(Z.nrres, r=r, t=t)


@require(lambda n: 0 <= n <= 6)
@require(lambda r, n: _within(r, n))
@ensure(lambda result: result)
def closure(r: Pairs, n: int) -> bool:
    return postconditions_hold(Z.closure, r=r)


@require(lambda n: 0 <= n <= 6)
@require(lambda r, n: _within(r, n))
@ensure(lambda result: result)
def rtclosure(r: Pairs, n: int) -> bool:
    carrier = frozenset(range(n))
    return postconditions_hold(Z.rtclosure, r=r, carrier=carrier)


@require(lambda n: 0 <= n <= 6)
@require(lambda k: 0 <= k <= 6)
@require(lambda r, n: _within(r, n))
@ensure(lambda result: result)
def iter_(k: int, r: Pairs, n: int) -> bool:
    carrier = frozenset(range(n))
    return preconditions_hold(Z.iter_, n=k, r=r, carrier=carrier) and postconditions_hold(
        Z.iter_, n=k, r=r, carrier=carrier
    )


# ─── Awari over tuples ─────────────────────────────────────────────────────────


def _awari_stones(board: tuple[int, ...], north: int, south: int) -> bool:
    return all(n >= 0 for n in board) and north >= 0 and south >= 0 and sum(board) + north + south == 48


def _position(board: tuple[int, ...], north: int, south: int, south_to_move: bool) -> A.AwariBoard:
    return A.AwariBoard(tuple(board), (north, south), A.PLAYER.south if south_to_move else A.PLAYER.north)


def _game(board: tuple[int, ...], north: int, south: int, south_to_move: bool, seen: bool) -> A.AwariGame:
    s = _position(board, north, south, south_to_move)
    return A.game_of(s, frozenset({s}) if seen else frozenset())


def realized(*args: Any) -> Any:
    """The arguments as concrete values.  The Awari schemas' bodies call contracted
    functions with memoised invariants, on which crosshair's symbolic values fail
    ("Unable to meet precondition"); realized, crosshair still chooses the inputs
    by solving the wrapper's preconditions and the path so far, and runs the spec
    concretely."""
    return deep_realize(args)


def _checked(f: Callable[..., Any], /, **kwargs: object) -> bool:
    """The wrapper's preconditions restate f's in a form crosshair handles; check
    that they imply f's (a failure here is a wrapper bug), then f's postconditions."""
    if not preconditions_hold(f, **kwargs):
        raise AssertionError(f"the wrapper admitted an input outside pre {f}")
    return postconditions_hold(f, **kwargs)


@require(lambda board: len(board) == 12)
@require(lambda board, north, south: _awari_stones(board, north, south))
@require(lambda north, south: north < 25 and south < 25)
@require(lambda move, south_to_move: 0 <= move < 12 and (move >= 6) == south_to_move)
@require(lambda board, move: board[move] > 0)
@ensure(lambda result: result)
def Sow_Capture_corrected(board: tuple[int, ...], north: int, south: int, south_to_move: bool, move: int) -> bool:
    board, north, south, south_to_move, move = realized(board, north, south, south_to_move, move)
    return _checked(A.Sow_Capture_corrected, s=_position(board, north, south, south_to_move), move=A.PIT(move))


@require(lambda board: len(board) == 12)
@require(lambda board, north, south: _awari_stones(board, north, south))
@require(lambda north, south: north < 25 and south < 25)
@require(lambda move, south_to_move: 0 <= move < 12 and (move >= 6) == south_to_move)
@require(lambda board, move: board[move] > 0)
@ensure(lambda result: result)
def Sow_Capture(board: tuple[int, ...], north: int, south: int, south_to_move: bool, move: int) -> bool:
    board, north, south, south_to_move, move = realized(board, north, south, south_to_move, move)
    return _checked(A.Sow_Capture, s=_position(board, north, south, south_to_move), move=A.PIT(move))


def _awari_check(
    f: Callable[..., Any], board: tuple[int, ...], north: int, south: int, south_to_move: bool, seen: bool, move: int
) -> bool:
    board, north, south, south_to_move, seen, move = realized(board, north, south, south_to_move, seen, move)
    return _checked(f, g=_game(board, north, south, south_to_move, seen), move=A.PIT(move))


@require(lambda board: len(board) == 12)
@require(lambda board, north, south: _awari_stones(board, north, south))
@require(lambda move: 0 <= move < 12)
@ensure(lambda result: result)
def WinMargin_corrected(
    board: tuple[int, ...], north: int, south: int, south_to_move: bool, seen: bool, move: int
) -> bool:
    return _awari_check(A.WinMargin_corrected, board, north, south, south_to_move, seen, move)


@require(lambda board: len(board) == 12)
@require(lambda board, north, south: _awari_stones(board, north, south))
@require(lambda move: 0 <= move < 12)
@ensure(lambda result: result)
def NoMove_corrected(
    board: tuple[int, ...], north: int, south: int, south_to_move: bool, seen: bool, move: int
) -> bool:
    return _awari_check(A.NoMove_corrected, board, north, south, south_to_move, seen, move)


@require(lambda board: len(board) == 12)
@require(lambda board, north, south: _awari_stones(board, north, south))
@require(lambda move: 0 <= move < 12)
@ensure(lambda result: result)
def CannotFeed(board: tuple[int, ...], north: int, south: int, south_to_move: bool, seen: bool, move: int) -> bool:
    return _awari_check(A.CannotFeed, board, north, south, south_to_move, seen, move)


@require(lambda board: len(board) == 12)
@require(lambda board, north, south: _awari_stones(board, north, south))
@require(lambda move: 0 <= move < 12)
@ensure(lambda result: result)
def IllegalMove_corrected(
    board: tuple[int, ...], north: int, south: int, south_to_move: bool, seen: bool, move: int
) -> bool:
    return _awari_check(A.IllegalMove_corrected, board, north, south, south_to_move, seen, move)


@require(lambda board: len(board) == 12)
@require(lambda board, north, south: _awari_stones(board, north, south))
@require(lambda move: 0 <= move < 12)
@ensure(lambda result: result)
def GrandSlam_corrected(
    board: tuple[int, ...], north: int, south: int, south_to_move: bool, seen: bool, move: int
) -> bool:
    return _awari_check(A.GrandSlam_corrected, board, north, south, south_to_move, seen, move)


@require(lambda board: len(board) == 12)
@require(lambda board, north, south: _awari_stones(board, north, south))
@require(lambda move: 0 <= move < 12)
@ensure(lambda result: result)
def NormalMove_corrected(
    board: tuple[int, ...], north: int, south: int, south_to_move: bool, seen: bool, move: int
) -> bool:
    return _awari_check(A.NormalMove_corrected, board, north, south, south_to_move, seen, move)


@require(lambda board: len(board) == 12)
@require(lambda board, north, south: _awari_stones(board, north, south))
@require(lambda move: 0 <= move < 12)
@ensure(lambda result: result)
def referee(board: tuple[int, ...], north: int, south: int, south_to_move: bool, seen: bool, move: int) -> bool:
    """referee ensures AwariGame' and raises SpecError unless exactly one determined
    outcome holds: a counterexample here is a well-foundedness failure."""
    return _awari_check(A.referee, board, north, south, south_to_move, seen, move)


# ─── Gothello over tuples ──────────────────────────────────────────────────────

CELL: tuple[G.SQUAREVAL, ...] = (G.blank, G.stone(G.PLAYER.black), G.stone(G.PLAYER.white))
"""A cell code: 0 blank, 1 black, 2 white."""


def _square(i: int) -> G.SQUARE:
    return (i // 5 + 1, i % 5 + 1)


def _cells_ok(cells: tuple[int, ...]) -> bool:
    return len(cells) == 25 and all(c >= 0 for c in cells) and all(c <= 2 for c in cells)


def _board(cells: tuple[int, ...]) -> G.BOARD:
    return Fun((_square(i), CELL[c]) for i, c in enumerate(cells))


def _action(code: int) -> G.MOVE:
    return G.pass_ if code == 25 else G.move(_square(code))


def _history_ok(history: tuple[int, ...]) -> bool:
    return len(history) <= 3 and all(h >= 0 for h in history) and all(h <= 25 for h in history)


def _gothello(cells: tuple[int, ...], white: bool, history: tuple[int, ...]) -> G.GothelloGame:
    to_move = G.PLAYER.white if white else G.PLAYER.black
    return G.GothelloGame(_board(cells), to_move, tuple(_action(h) for h in history))


@require(lambda cells: _cells_ok(cells))
@require(lambda s: 0 <= s < 25)
@require(lambda cells, s: cells[s] != 0)
@ensure(lambda result: result)
def group_corrected(cells: tuple[int, ...], s: int) -> bool:
    return _checked(G.group_corrected, board=_board(cells), s=_square(s))


@require(lambda cells: _cells_ok(cells))
@require(lambda s: 0 <= s < 25)
@require(lambda cells, s: cells[s] != 0)
@ensure(lambda result: result)
def group(cells: tuple[int, ...], s: int) -> bool:
    return _checked(G.group, board=_board(cells), s=_square(s))


@require(lambda cells: _cells_ok(cells))
@require(lambda s: 0 <= s < 25)
@require(lambda cells, s: cells[s] != 0)
@ensure(lambda result: result)
def liberties_corrected(cells: tuple[int, ...], s: int) -> bool:
    return _checked(G.liberties_corrected, board=_board(cells), s=_square(s))


@require(lambda cells: _cells_ok(cells))
@require(lambda s: 0 <= s < 25)
@require(lambda cells, s: cells[s] != 0)
@ensure(lambda result: result)
def liberties(cells: tuple[int, ...], s: int) -> bool:
    return _checked(G.liberties, board=_board(cells), s=_square(s))


@require(lambda cells: _cells_ok(cells))
@require(lambda s: 0 <= s < 25)
@require(lambda cells, s: cells[s] != 0)
@ensure(lambda result: result)
def capture_at_corrected(cells: tuple[int, ...], white: bool, s: int) -> bool:
    to_move = G.PLAYER.white if white else G.PLAYER.black
    return _checked(G.capture_at_corrected, cboard=_board(cells), to_move=to_move, s=_square(s))


def _turn_check(
    f: Callable[..., Any], cells: tuple[int, ...], white: bool, history: tuple[int, ...], action: int
) -> bool:
    return _checked(f, g=_gothello(cells, white, history), move_=_action(action))


@require(lambda cells: _cells_ok(cells))
@require(lambda history: _history_ok(history))
@require(lambda action: 0 <= action <= 25)
@ensure(lambda result: result)
def GothelloEnded(cells: tuple[int, ...], white: bool, history: tuple[int, ...], action: int) -> bool:
    return _turn_check(G.GothelloEnded, cells, white, history, action)


@require(lambda cells: _cells_ok(cells))
@require(lambda history: _history_ok(history))
@require(lambda action: 0 <= action <= 25)
@ensure(lambda result: result)
def GothelloIllegalMoveNonblank_corrected(
    cells: tuple[int, ...], white: bool, history: tuple[int, ...], action: int
) -> bool:
    return _turn_check(G.GothelloIllegalMoveNonblank_corrected, cells, white, history, action)


@require(lambda cells: _cells_ok(cells))
@require(lambda history: _history_ok(history))
@require(lambda action: 0 <= action <= 25)
@ensure(lambda result: result)
def GothelloIllegalMoveBlocked_corrected(
    cells: tuple[int, ...], white: bool, history: tuple[int, ...], action: int
) -> bool:
    return _turn_check(G.GothelloIllegalMoveBlocked_corrected, cells, white, history, action)


@require(lambda cells: _cells_ok(cells))
@require(lambda history: _history_ok(history))
@require(lambda action: 0 <= action <= 25)
@ensure(lambda result: result)
def GothelloMove_corrected(cells: tuple[int, ...], white: bool, history: tuple[int, ...], action: int) -> bool:
    return _turn_check(G.GothelloMove_corrected, cells, white, history, action)


@require(lambda cells: _cells_ok(cells))
@require(lambda history: _history_ok(history))
@require(lambda action: 0 <= action <= 25)
@ensure(lambda result: result)
def GothelloPass_corrected(cells: tuple[int, ...], white: bool, history: tuple[int, ...], action: int) -> bool:
    return _turn_check(G.GothelloPass_corrected, cells, white, history, action)


@require(lambda cells: _cells_ok(cells))
@require(lambda history: _history_ok(history))
@require(lambda action: 0 <= action <= 25)
@ensure(lambda result: result)
def GothelloGameOver_corrected(cells: tuple[int, ...], white: bool, history: tuple[int, ...], action: int) -> bool:
    return _turn_check(G.GothelloGameOver_corrected, cells, white, history, action)


@require(lambda cells: _cells_ok(cells))
@require(lambda history: _history_ok(history))
@require(lambda action: 0 <= action <= 25)
@ensure(lambda result: result)
def gothello_referee(cells: tuple[int, ...], white: bool, history: tuple[int, ...], action: int) -> bool:
    """referee raises SpecError unless exactly one disjunct holds."""
    return _turn_check(G.referee, cells, white, history, action)


# ─── Added with the schemas' contracts (spec/README.md, "Contracts") ───────────


@require(lambda cells: _cells_ok(cells))
@require(lambda s: 0 <= s < 25)
@require(lambda cells, s: cells[s] != 0)
@ensure(lambda result: result)
def captures_corrected(cells: tuple[int, ...], white: bool, s: int) -> bool:
    to_move = G.PLAYER.white if white else G.PLAYER.black
    return _checked(G.captures_corrected, cboard=_board(cells), to_move=to_move, s=_square(s))


@require(lambda cells: _cells_ok(cells))
@require(lambda history: _history_ok(history))
@require(lambda action: 0 <= action <= 25)
@ensure(lambda result: result)
def GothelloMove(cells: tuple[int, ...], white: bool, history: tuple[int, ...], action: int) -> bool:
    return _turn_check(G.GothelloMove, cells, white, history, action)


@require(lambda cells: _cells_ok(cells))
@require(lambda history: _history_ok(history))
@require(lambda action: 0 <= action <= 25)
@ensure(lambda result: result)
def GothelloPass(cells: tuple[int, ...], white: bool, history: tuple[int, ...], action: int) -> bool:
    return _turn_check(G.GothelloPass, cells, white, history, action)


@require(lambda cells: _cells_ok(cells))
@require(lambda history: _history_ok(history))
@require(lambda action: 0 <= action <= 25)
@ensure(lambda result: result)
def GothelloGameOver(cells: tuple[int, ...], white: bool, history: tuple[int, ...], action: int) -> bool:
    return _turn_check(G.GothelloGameOver, cells, white, history, action)
