"""Thin wrappers with primitive signatures, so that crosshair can search the spec's
own contracts where it cannot build the spec's arguments itself (proofs/README.md,
"CrossHair"): Gothello boards are ``spec.z.Fun`` (a frozenset with a dict inside),
AwariGame carries a set of positions, and spec.z's iter_ / closure / rtclosure are
generic over one TypeVar on both sides (crosshair 0.0.112 crashes unifying it), and
the other relational operators crash it at 10 s a condition (image, apply, rres,
nrres: internal errors on their TypeVar-generic relations).

Each wrapper takes tuples of ints and restates the spec function's preconditions in
a form crosshair handles well (``all(x >= 0 …) and sum(…) …``, never an ``and``
inside ``all``; the spec's own, with their memoised invariants, left crosshair
unable to meet them).  Its body checks that the restatement implies the spec's
preconditions, runs the function's body and ensures that the function's own
postconditions hold (proofs/crosshair/contract_check.py).  Positions are a flag: ∅ or {θ}.

The wrappers are registered from one table, ``_TABLE``: a wrapper's body (one body
builder per shape of arguments), its preconditions as named predicates whose parameters
pick the wrapper's arguments, and its postcondition.  ``TARGETS`` holds every wrapper by
name, and each is a module attribute too, since crosshair names a target by its dotted
path (proofs/crosshair/contracts.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from crosshair import deep_realize

from proofs.crosshair.contract_check import postconditions_hold, preconditions_hold
from spec import awari as A
from spec import gothello as G
from spec import z as Z
from spec.contracts import ensure, require
from spec.z import Fun

Wrapper = Callable[..., bool]
Conditions = tuple[Callable[..., bool], ...]


Holds = Callable[[bool], bool]
"""A wrapper's postcondition, ``lambda result: result``: the spec function's contracts held."""
Entry = tuple[Wrapper, Conditions, Holds]


def _wrapper(name: str, body: Wrapper, pre: Conditions, holds: Holds) -> Wrapper:
    """``body`` named ``name``, under the preconditions ``pre`` in order and the
    postcondition ``holds``: what ``@require(pre[0]) … @require(pre[-1]) @ensure(holds)``
    makes.  crosshair reports a condition once a source position, so each wrapper's
    ``holds`` is its own lambda on the table's line that names the wrapper; it is renamed,
    as icontract looks for a lambda's text on an ``@`` line."""
    body.__name__ = body.__qualname__ = name
    holds.__name__ = holds.__qualname__ = f"{name}_holds"
    wrapped = ensure(holds)(body)
    for condition in reversed(pre):
        wrapped = require(condition)(wrapped)
    return wrapped


def _checked(f: Callable[..., Any], /, **kwargs: object) -> bool:
    """The wrapper's preconditions restate f's in a form crosshair handles; check
    that they imply f's (a failure here is a wrapper bug), then f's postconditions."""
    if not preconditions_hold(f, **kwargs):
        raise AssertionError(f"the wrapper admitted an input outside pre {f}")
    return postconditions_hold(f, **kwargs)


# ─── spec.z over small sets of ints ────────────────────────────────────────────

Pairs = frozenset[tuple[int, int]]


def _within(r: Pairs, n: int) -> bool:
    return (
        all(x >= 0 for x, _ in r)
        and all(y >= 0 for _, y in r)
        and all(x < n for x, _ in r)
        and all(y < n for _, y in r)
    )


def _small(n: int) -> bool:
    return 0 <= n <= 6


def _r_within(r: Pairs, n: int) -> bool:
    return _within(r, n)


def _q_within(q: Pairs, n: int) -> bool:
    return _within(q, n)


def _f_within(f: Pairs, n: int) -> bool:
    return _within(f, n)


def _s_natural(s: frozenset[int]) -> bool:
    return all(x >= 0 for x in s)


def _t_natural(t: frozenset[int]) -> bool:
    return all(y >= 0 for y in t)


def _r_natural(r: Pairs) -> bool:
    return all(x >= 0 for x, _ in r) and all(y >= 0 for _, y in r)


def _f_at_x(f: Pairs, x: int) -> bool:
    return sum(1 for (a, _) in f if a == x) == 1


def _k_small(k: int) -> bool:
    return 0 <= k <= 6


def _image(r: Pairs, s: frozenset[int], n: int) -> bool:
    return _checked(Z.image, r=r, s=s)


def _inverse(r: Pairs, n: int) -> bool:
    return _checked(Z.inverse, r=r)


def _dres(s: frozenset[int], r: Pairs, n: int) -> bool:
    return _checked(Z.dres, s=s, r=r)


def _ndres(s: frozenset[int], r: Pairs, n: int) -> bool:
    return _checked(Z.ndres, s=s, r=r)


def _override(r: Pairs, q: Pairs, n: int) -> bool:
    return _checked(Z.override, r=r, q=q)


def _sigma(r: Pairs) -> bool:
    return _checked(Z.sigma, r=r)


def _apply(f: Pairs, x: int, n: int) -> bool:
    return _checked(Z.apply, f=f, x=x)


def _rres(r: Pairs, t: frozenset[int], n: int) -> bool:
    return postconditions_hold(Z.rres, r=r, t=t)


def _nrres(r: Pairs, t: frozenset[int], n: int) -> bool:
    return postconditions_hold(Z.nrres, r=r, t=t)


def _closure(r: Pairs, n: int) -> bool:
    return postconditions_hold(Z.closure, r=r)


def _rtclosure(r: Pairs, n: int) -> bool:
    return postconditions_hold(Z.rtclosure, r=r, carrier=frozenset(range(n)))


def _iter(k: int, r: Pairs, n: int) -> bool:
    carrier = frozenset(range(n))
    return preconditions_hold(Z.iter_, n=k, r=r, carrier=carrier) and postconditions_hold(
        Z.iter_, n=k, r=r, carrier=carrier
    )


# ─── Awari over tuples ─────────────────────────────────────────────────────────


def _awari_stones(board: tuple[int, ...], north: int, south: int) -> bool:
    return all(n >= 0 for n in board) and north >= 0 and south >= 0 and sum(board) + north + south == 48


def _twelve_pits(board: tuple[int, ...]) -> bool:
    return len(board) == 12


def _stores_below_25(north: int, south: int) -> bool:
    return north < 25 and south < 25


def _movers_pit(move: int, south_to_move: bool) -> bool:
    return 0 <= move < 12 and (move >= 6) == south_to_move


def _sown_pit_full(board: tuple[int, ...], move: int) -> bool:
    return board[move] > 0


def _a_pit(move: int) -> bool:
    return 0 <= move < 12


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


def _sow(f: Callable[..., Any]) -> Wrapper:
    """A wrapper of an AwariBoard schema (Sow ⨟ Capture): the mover sows a pit of its own."""

    def body(board: tuple[int, ...], north: int, south: int, south_to_move: bool, move: int) -> bool:
        board, north, south, south_to_move, move = realized(board, north, south, south_to_move, move)
        return _checked(f, s=_position(board, north, south, south_to_move), move=A.PIT(move))

    return body


def _awari_game(f: Callable[..., Any]) -> Wrapper:
    """A wrapper of an AwariGame schema: any pit, any side, positions seen or not."""

    def body(board: tuple[int, ...], north: int, south: int, south_to_move: bool, seen: bool, move: int) -> bool:
        board, north, south, south_to_move, seen, move = realized(board, north, south, south_to_move, seen, move)
        return _checked(f, g=_game(board, north, south, south_to_move, seen), move=A.PIT(move))

    return body


_SOWN: Final = (_twelve_pits, _awari_stones, _stores_below_25, _movers_pit, _sown_pit_full)
_PLAYED: Final = (_twelve_pits, _awari_stones, _a_pit)


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


def _a_square(s: int) -> bool:
    return 0 <= s < 25


def _a_stone(cells: tuple[int, ...], s: int) -> bool:
    return cells[s] != 0


def _an_action(action: int) -> bool:
    return 0 <= action <= 25


def _gothello(cells: tuple[int, ...], white: bool, history: tuple[int, ...]) -> G.GothelloGame:
    to_move = G.PLAYER.white if white else G.PLAYER.black
    return G.GothelloGame(_board(cells), to_move, tuple(_action(h) for h in history))


def _of_stone(f: Callable[..., Any]) -> Wrapper:
    """A wrapper of a function of a board and one stone's square (groups, liberties)."""

    def body(cells: tuple[int, ...], s: int) -> bool:
        return _checked(f, board=_board(cells), s=_square(s))

    return body


def _capture(f: Callable[..., Any]) -> Wrapper:
    """A wrapper of a capture function: a board, the side to move, a stone's square."""

    def body(cells: tuple[int, ...], white: bool, s: int) -> bool:
        to_move = G.PLAYER.white if white else G.PLAYER.black
        return _checked(f, cboard=_board(cells), to_move=to_move, s=_square(s))

    return body


def _turn(f: Callable[..., Any]) -> Wrapper:
    """A wrapper of a GothelloGame schema: any board, side, short history and action."""

    def body(cells: tuple[int, ...], white: bool, history: tuple[int, ...], action: int) -> bool:
        return _checked(f, g=_gothello(cells, white, history), move_=_action(action))

    return body


_STONE: Final = (_cells_ok, _a_square, _a_stone)
_TURN: Final = (_cells_ok, _history_ok, _an_action)


# ─── The table ────────────────────────────────────────────────────────────────

_TABLE: Final[dict[str, Entry]] = {
    # spec.z; rres and nrres directly crash crosshair at 10 s a condition (an internal
    # AttributeError on their TypeVar-generic relations), over ints they do not.
    "image": (_image, (_small, _r_within, _s_natural), lambda result: result),
    "inverse": (_inverse, (_small, _r_within), lambda result: result),
    "dres": (_dres, (_small, _r_within, _s_natural), lambda result: result),
    "ndres": (_ndres, (_small, _r_within, _s_natural), lambda result: result),
    "override": (_override, (_small, _r_within, _q_within), lambda result: result),
    "sigma": (_sigma, (_r_natural,), lambda result: result),
    "apply": (_apply, (_small, _f_within, _f_at_x), lambda result: result),
    "rres": (_rres, (_small, _r_within, _t_natural), lambda result: result),
    "nrres": (_nrres, (_small, _r_within, _t_natural), lambda result: result),
    "closure": (_closure, (_small, _r_within), lambda result: result),
    "rtclosure": (_rtclosure, (_small, _r_within), lambda result: result),
    "iter_": (_iter, (_small, _k_small, _r_within), lambda result: result),
    # Awari; referee ensures AwariGame' and raises SpecError unless exactly one determined
    # outcome holds: a counterexample there is a well-foundedness failure.
    "Sow_Capture_corrected": (_sow(A.Sow_Capture_corrected), _SOWN, lambda result: result),
    "Sow_Capture": (_sow(A.Sow_Capture), _SOWN, lambda result: result),
    "WinMargin_corrected": (_awari_game(A.WinMargin_corrected), _PLAYED, lambda result: result),
    "NoMove_corrected": (_awari_game(A.NoMove_corrected), _PLAYED, lambda result: result),
    "CannotFeed": (_awari_game(A.CannotFeed), _PLAYED, lambda result: result),
    "IllegalMove_corrected": (_awari_game(A.IllegalMove_corrected), _PLAYED, lambda result: result),
    "GrandSlam_corrected": (_awari_game(A.GrandSlam_corrected), _PLAYED, lambda result: result),
    "NormalMove_corrected": (_awari_game(A.NormalMove_corrected), _PLAYED, lambda result: result),
    "referee": (_awari_game(A.referee), _PLAYED, lambda result: result),
    # Gothello; gothello_referee raises SpecError unless exactly one disjunct holds.
    "group_corrected": (_of_stone(G.group_corrected), _STONE, lambda result: result),
    "group": (_of_stone(G.group), _STONE, lambda result: result),
    "liberties_corrected": (_of_stone(G.liberties_corrected), _STONE, lambda result: result),
    "liberties": (_of_stone(G.liberties), _STONE, lambda result: result),
    "capture_at_corrected": (_capture(G.capture_at_corrected), _STONE, lambda result: result),
    "captures_corrected": (_capture(G.captures_corrected), _STONE, lambda result: result),
    "GothelloEnded": (_turn(G.GothelloEnded), _TURN, lambda result: result),
    "GothelloIllegalMoveNonblank_corrected": (
        _turn(G.GothelloIllegalMoveNonblank_corrected),
        _TURN,
        lambda result: result,
    ),
    "GothelloIllegalMoveBlocked_corrected": (
        _turn(G.GothelloIllegalMoveBlocked_corrected),
        _TURN,
        lambda result: result,
    ),
    "GothelloMove_corrected": (_turn(G.GothelloMove_corrected), _TURN, lambda result: result),
    "GothelloPass_corrected": (_turn(G.GothelloPass_corrected), _TURN, lambda result: result),
    "GothelloGameOver_corrected": (_turn(G.GothelloGameOver_corrected), _TURN, lambda result: result),
    "gothello_referee": (_turn(G.referee), _TURN, lambda result: result),
    # Gothello, added with the schemas' contracts (spec/README.md, "Contracts")
    "GothelloMove": (_turn(G.GothelloMove), _TURN, lambda result: result),
    "GothelloPass": (_turn(G.GothelloPass), _TURN, lambda result: result),
    "GothelloGameOver": (_turn(G.GothelloGameOver), _TURN, lambda result: result),
}

TARGETS: Final[dict[str, Wrapper]] = {
    name: _wrapper(name, body, pre, holds) for name, (body, pre, holds) in _TABLE.items()
}
"""Every wrapper by the name crosshair checks it under (proofs.crosshair.targets.NAME)."""
globals().update(TARGETS)
