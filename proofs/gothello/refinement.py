"""impl/engines/gothello.py refines spec/gothello.py on every state: the engine's own code, run on z3 terms.

    python -m proofs.gothello.refinement [--bounded | --deep] [--jobs N] [--scheduler tcp://HOST:PORT | --no-cluster]

The theorems (proofs/README.md, "Refinement" section):

* ``adjacency_is_spec_adjoins`` — the statement's adjacency image is spec adjoins'
  (every square, exhaustively);
* ``dilate_is_adjacency_image`` — ``_dilate`` (on z3 terms) is x ∪ adjoins ⦇x⦈ for
  every 25-bit x;
* ``closure_in_24_steps`` — 24 steps of growth reach the closure: a 25th changes
  nothing, for every seed square and every set of stones;
* ``group_is_spec_group`` / ``free_is_spec_liberty`` — ``_group`` and ``_free`` (every
  path, every seed square, every set of stones and blanks) are the statement's
  group and "has a liberty";
* ``statement_group_is_spec_group`` — the statement's group and liberties ≡
  spec.gothello.group / liberties on seeded boards (sampled: trusted beyond);
* ``place_refines_move`` — ``_place`` (every path, ``_group``/``_free`` by their
  proven contracts) ≡ the statement of GothelloMove / GothelloIllegalMoveBlocked,
  every blank square, every board;
* ``legal_bit_refines`` — ``_legal_bit`` (every path, ``_free`` by its contract) is 1
  iff the statement accepts a placement there, every square, every board;
* ``moves_in_spec_order`` — ``_moves`` (table lookups: run concretely) lists the
  placements of a mask's squares in the spec's order, then pass, for all 2²⁵ masks;
* ``apply_refines_referee`` — the engine's ``apply`` (every path, ``_place`` by its
  proven contract) ≡ the statement of the corrected referee, every board, both
  sides, every action, every history (through its first two entries);
* ``legal_moves_refine`` — the engine's ``legal_moves`` (every path, ``_legal_bit``
  and ``_moves`` by their contracts: ``_legal_mask`` runs on one path) lists exactly
  the actions the statement accepts, and ``is_over`` holds iff it accepts none,
  every board, both sides, every history;
* ``statement_is_spec_referee`` — the referee statement ≡ spec.gothello.referee on
  every position within 2 plies and on seeded random boards.
"""

from __future__ import annotations

import contextlib
import itertools
import random
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Final, TypeAlias

import z3

from proofs.gothello.encoding import random_stones
from proofs.symbolic import WIDTH, Sym, SymBool, _oblige, explore, load_engine_source, swapped, term, var
from proofs.verdict import ProofStep, in_processes, run_steps, scope_arguments
from spec import gothello as G
from spec import result as R
from spec.z import Fun, image

Z: TypeAlias = Any
"""A z3 bit-vector term (z3 has no type hints)."""
Goals = Iterable[tuple[z3.BoolRef, str]]


E: Any = load_engine_source("gothello")
"""The engine under proof: impl/engines/gothello.py's source, never the mypyc build."""
ENGINE = E.ImplGothello()

# ─── The abstraction: square (file, rank) is bit 5 (file − 1) + (rank − 1) ─────
# (to_spec / from_spec; ``abstraction_is_to_spec`` checks the engine's against it)

SQUARES: Final = sorted(G.SQUARES)


def bit(s: G.SQUARE) -> int:
    return 5 * (s[0] - 1) + (s[1] - 1)


def k(x: int) -> Z:
    return z3.BitVecVal(x, WIDTH)


FULL: Final = (1 << 25) - 1
ADJ: Final = {s: sorted(image(G.adjoins_corrected, {s})) for s in SQUARES}
"""(_ adjoins _) ⦇{s}⦈ for every square: the spec's own relation."""


def has(x: Z, s: G.SQUARE) -> z3.BoolRef:
    return z3.Extract(bit(s), bit(s), x) == 1


def adjoining(x: Z) -> Z:
    """(_ adjoins _) ⦇x⦈: bit t set iff some s of x adjoins t (image is a union over x)."""
    out = k(0)
    for t in SQUARES:
        srcs = [s for s in SQUARES if t in ADJ[s]]
        out = out | z3.If(z3.Or(*(has(x, s) for s in srcs)), k(1 << bit(t)), k(0))
    return out


_GROWN: dict[tuple[int, int, int], tuple[Z, Z, Z]] = {}
"""``grow``'s terms, by the z3 ids of seed and stones (equal ids: structurally equal
terms).  Each entry holds its seed and stones, so no id is freed and reused while the
entry lives.  The statements build the same groups over and over (per action, per
history): this spares seconds of z3 API calls per statement."""


def grow(seed: Z, stones: Z, steps: int = 24) -> Z:
    """(neighbor board)* ⦇{seed}⦈ within one colour's ``stones``: ``steps`` steps of
    g ↦ (g ∪ adjoins ⦇g⦈) ∩ stones from seed ⊆ stones (the closure at 24 steps:
    ``closure_in_24_steps``)."""
    key = (seed.get_id(), stones.get_id(), steps)
    if key in _GROWN:
        return _GROWN[key][2]
    g = seed
    for _ in range(steps):
        g = (g | adjoining(g)) & stones
    _GROWN[key] = (seed, stones, g)
    return g


def no_liberty(group: Z, blank: Z) -> z3.BoolRef:
    """#(group_liberties board group) = 0: (adjoins ⦇group⦈ \\ group) ∩ blank = ∅."""
    return adjoining(group) & ~group & blank == 0


def single(x: Z) -> z3.BoolRef:
    return z3.And(x != 0, x & (x - 1) == 0, x & k(FULL) == x)


# ─── Theorems about the primitives ──────────────────────────────────────────────


def prove(claim: z3.BoolRef, assumptions: Sequence[z3.BoolRef] = ()) -> None:
    solver = z3.Solver()
    solver.add(*assumptions, z3.Not(claim))
    r = solver.check()
    assert r == z3.unsat, f"{r}: {solver.model() if r == z3.sat else solver.reason_unknown()}"


def adjacency_is_spec_adjoins() -> int:
    """For every square s, ``adjoining`` of {s} is spec (_ adjoins _) ⦇{s}⦈, and
    ``_NEIGHBOURS`` (the engine's table) is the same set."""
    for s in SQUARES:
        got = z3.simplify(adjoining(k(1 << bit(s))))
        assert got.as_long() == sum(1 << bit(t) for t in ADJ[s]), s
        assert E._NEIGHBOURS[bit(s)] == got.as_long(), s
    return len(SQUARES)


def dilate_is_adjacency_image() -> int:
    """For every x ⊆ the 25 squares, ``_dilate(x)`` = x ∪ adjoins ⦇x⦈ (run on z3 terms)."""
    x = var("x", 25)
    return explore([], lambda: E._dilate(x), lambda out: [(term(out) == (x.e | adjoining(x.e)), "dilate")])


def closure_in_24_steps(squares: Sequence[G.SQUARE] = SQUARES) -> int:
    """For every seed square and set of stones containing it, a 25th step of growth
    adds nothing to 24: the 24-step ``grow`` is the least set containing the seed and
    closed under same-coloured adjacency, i.e. (neighbor board)* ⦇{s}⦈."""
    stones = var("stones", 25).e
    for s in squares:
        seed = k(1 << bit(s))
        g = grow(seed, stones)
        prove((g | adjoining(g)) & stones == g, [seed & stones == seed])
    return len(squares)


def group_is_spec_group(squares: Sequence[G.SQUARE] = SQUARES, region: int = FULL) -> int:
    """For every seed square and set of stones containing it (within ``region``: the
    whole board unless bounded), ``_group`` (every path) returns the statement's group."""
    stones = var("stones", 25)
    paths = 0
    for s in squares:
        seed = 1 << bit(s)
        paths += explore(
            [stones.e & seed == seed, stones.e & region == stones.e],
            lambda seed=seed: E._group(seed, stones),
            lambda out, seed=seed: [(term(out) == grow(k(seed), stones.e), "group")],
            max_decisions=60,
        )
    return paths


def free_is_spec_liberty(squares: Sequence[G.SQUARE] = SQUARES, region: int = FULL) -> int:
    """For every seed square, stones containing it (within ``region``) and blanks
    disjoint from the stones, ``_free`` (every path) is true iff the statement's group
    has a liberty."""
    stones, blank = var("stones", 25), var("blank", 25)
    paths = 0
    for s in squares:
        seed = 1 << bit(s)
        want = z3.Not(no_liberty(grow(k(seed), stones.e), blank.e))
        paths += explore(
            [stones.e & seed == seed, stones.e & blank.e == 0, stones.e & region == stones.e],
            lambda seed=seed: E._free(seed, stones, blank),
            lambda out, want=want: [(z3.BoolVal(out) == want if isinstance(out, bool) else out.e == want, "free")],
            max_decisions=60,
        )
    return paths


# ─── The statement of a placement, and the contracts ───────────────────────────


def free_contract(seed: Sym | int, stones: Sym | int, blank: Sym | int) -> SymBool:
    """``_free`` as proven: seed a single square within stones, blanks off the stones."""
    _oblige(
        z3.And(single(term(seed)), term(seed) & term(stones) == term(seed), term(stones) & term(blank) == 0),
        "_free's precondition",
    )
    return SymBool(z3.Not(no_liberty(grow(term(seed), term(stones)), term(blank))))


def blocked_at(mine: Z, theirs: Z, s: G.SQUARE, group: Callable[[G.SQUARE, Z], Z] | None = None) -> z3.BoolRef:
    """GothelloIllegalMoveBlocked at blank square s: #(liberties cboard s) = 0
    (``group`` as ``placement`` says)."""
    group = group or (lambda t, stones: grow(k(1 << bit(t)), stones))
    cmine = mine | (1 << bit(s))
    return no_liberty(group(s, cmine), k(FULL) & ~(cmine | theirs))


def placement(
    mine: Z, theirs: Z, s: G.SQUARE, group: Callable[[G.SQUARE, Z], Z] | None = None
) -> tuple[z3.BoolRef, Z, Z]:
    """GothelloIllegalMoveBlocked / GothelloMove (corrected) at blank square s, the
    mover's stones ``mine``: (blocked, mover's stones after, opponent's after).

        cboard = board ⊕ {s ↦ stone to_move};  blocked ⇔ #(liberties cboard s) = 0
        captures s = ⋃ (capture_at ⦇adjoins ⦇{s}⦈ ∩ cboard∼ ⦇{stone (opponent to_move)}⦈⦈)
        capture_at t = if #(liberties cboard t) = 0 then (group cboard t) × {stone to_move} else ∅

    ``group(t, stones)`` is the group of square t within stones: ``grow``'s term, or
    in ``place_refines_move`` a name for it (``NamedGroups``)."""
    group = group or (lambda t, stones: grow(k(1 << bit(t)), stones))
    cmine = mine | (1 << bit(s))
    blank = k(FULL) & ~(cmine | theirs)
    blocked = blocked_at(mine, theirs, s, group)
    captured = k(0)
    for t in ADJ[s]:
        g = group(t, theirs)
        captured = captured | z3.If(z3.And(has(theirs, t), no_liberty(g, blank)), g, k(0))
    return blocked, cmine | captured, theirs & ~captured


def board_vars(tag: str) -> tuple[Sym, Sym, list[z3.BoolRef]]:
    mine, theirs = var(f"{tag}mine", 25), var(f"{tag}theirs", 25)
    return mine, theirs, [mine.e & theirs.e == 0]


@dataclass(frozen=True)
class NamedGroups:
    """The groups a placement at blank square s reads, each a name (a fresh 25-bit
    variable) rather than ``grow``'s 24 unrolled steps: ``B`` for the group of s
    within the mover's stones and s (cboard), ``groups[t]`` for the group of each
    neighbour t within the opponent's stones.  ``facts`` are what the placement's
    proof may assume of them, each proven of ``grow``'s terms on every board by
    ``names_are_groups``; so the proof over the names holds of the groups."""

    s: G.SQUARE
    mine: Z
    theirs: Z
    B: Z
    groups: dict[G.SQUARE, Z]

    @staticmethod
    def fresh(s: G.SQUARE, mine: Z, theirs: Z, group: Callable[[G.SQUARE, Z], Z] | None = None) -> NamedGroups:
        """Names for the groups around s; with ``group`` given (``grow``), the groups themselves."""
        cmine = mine | (1 << bit(s))
        if group is not None:
            return NamedGroups(s, mine, theirs, group(s, cmine), {t: group(t, theirs) for t in ADJ[s]})
        return NamedGroups(s, mine, theirs, var(f"B{bit(s)}", 25).e, {t: var(f"G{bit(t)}", 25).e for t in ADJ[s]})

    def group(self, t: G.SQUARE, stones: Z) -> Z:
        """The statement's group of t within stones, as ``placement`` asks for it."""
        return self.B if t == self.s else self.groups[t]

    def facts(self) -> list[tuple[z3.BoolRef, str]]:
        """For the opposing stones T and every two neighbours t ≠ u of s:
        t ∈ T ⇒ t ∈ G t ⊆ T;  t ∈ T ∧ u ∈ G t ⇒ G u = G t;  t, u ∈ T ∧ u ∉ G t ⇒
        G t ∩ G u = ∅ (groups are classes of connection); and s ∈ B ⊆ cboard's mover."""
        T, near = self.theirs, ADJ[self.s]
        cmine = self.mine | (1 << bit(self.s))
        out: list[tuple[z3.BoolRef, str]] = [(z3.And(has(self.B, self.s), self.B & ~cmine == 0), "s ∈ B ⊆ mine ∪ {s}")]
        for t in near:
            g = self.groups[t]
            out.append((z3.Implies(has(T, t), z3.And(has(g, t), g & ~T == 0)), f"{t} ∈ G ⊆ T"))
            for u in near:
                if u != t:
                    same = z3.Implies(z3.And(has(T, t), has(g, u)), self.groups[u] == g)
                    out.append((same, f"{u} ∈ G {t} ⇒ same group"))
                    joined = z3.And(has(T, t), has(T, u), z3.Not(has(g, u)))
                    out.append((z3.Implies(joined, g & self.groups[u] == 0), f"{u} ∉ G {t} ⇒ disjoint"))
        return out


def names_are_groups(s: G.SQUARE) -> int:
    """``NamedGroups.facts`` hold of ``grow``'s groups around blank square s, on every
    board (the two colours disjoint, s blank); and for every neighbour u of s, every
    T ∋ u and every S with grow(u, T) ⊆ S ⊆ T, grow(u, S) = grow(u, T) — so ``_group``
    called on what is left of T after captures, where u's group is still whole, is
    u's group in T.  The facts ``place_refines_move`` assumes: z3 queries on the 24
    unrolled steps, each small."""
    mine, theirs, wf = board_vars("n")
    named = NamedGroups.fresh(s, mine.e, theirs.e, lambda t, stones: grow(k(1 << bit(t)), stones))
    blank_s = z3.Extract(bit(s), bit(s), mine.e | theirs.e) == 0
    for fact, what in named.facts():
        try:
            prove(fact, [*wf, blank_s])
        except AssertionError as e:
            raise AssertionError(f"at {s}, {what}: {e}") from e
    within = var("within", 25).e
    for u in ADJ[s]:
        whole = grow(k(1 << bit(u)), theirs.e)
        assumptions = [has(theirs.e, u), within & ~theirs.e == 0, whole & ~within == 0]
        prove(grow(k(1 << bit(u)), within) == whole, assumptions)
    return len(named.facts()) + len(ADJ[s])


def named_group_contract(named: NamedGroups) -> Callable[..., Sym]:
    """``_group`` inside ``_place``, by name: for a seed that is a neighbour b of s
    within stones S ⊆ T that contain G b whole, the name G b.  Sound by
    ``group_is_spec_group`` (``_group`` is grow) and ``names_are_groups`` (grow(b, S) =
    grow(b, T) = G b); each premise is an obligation at the call."""

    def contract(seed: Sym | int, stones: Sym | int) -> Sym:
        sd, st = term(seed), term(stones)
        _oblige(z3.And(single(sd), sd & st == sd, st & ~named.theirs == 0), "_group's seed within T's stones")
        near = ADJ[named.s]
        _oblige(z3.Or(*(sd == k(1 << bit(t)) for t in near)), "_group's seed is a neighbour of the placement")
        group = named.groups[near[-1]]
        for t in reversed(near[:-1]):
            group = z3.If(sd == k(1 << bit(t)), named.groups[t], group)
        _oblige(group & ~st == 0, "_group's stones hold the seed's group whole")
        return Sym(group)

    return contract


def named_free_contract(named: NamedGroups) -> Callable[..., SymBool]:
    """``_free`` inside ``_place``, by name: called on the placed stone within the
    mover's stones and it, the group's liberty test on B (``free_is_spec_liberty``)."""

    def contract(seed: Sym | int, stones: Sym | int, blank: Sym | int) -> SymBool:
        cmine = named.mine | (1 << bit(named.s))
        _oblige(
            z3.And(term(seed) == k(1 << bit(named.s)), term(stones) == cmine, term(stones) & term(blank) == 0),
            "_free called on the placed stone within cboard's mover",
        )
        return SymBool(z3.Not(no_liberty(named.B, term(blank))))

    return contract


def place_refines_move(squares: Sequence[G.SQUARE] = SQUARES, region: int = FULL) -> int:
    """For every board (its stones within ``region``) and every blank square s,
    ``_place(mine, theirs, s)`` (every path; ``_group`` and ``_free`` by their
    contracts, on names for the groups) is −1 iff the statement's placement is
    blocked, else theirs' | mine' << 25 of the statement.  The groups are names
    (``NamedGroups``) with the facts ``names_are_groups`` proves first, square by
    square, of grow's terms: z3 then reasons about five 25-bit names instead of
    bit-blasting five 24-step closures on every path (6,351 s → seconds)."""
    mine, theirs, wf = board_vars("p")
    paths = 0
    for s in squares:
        names_are_groups(s)
        i = bit(s)
        named = NamedGroups.fresh(s, mine.e, theirs.e)
        blocked, mine_, theirs_ = placement(mine.e, theirs.e, s, named.group)

        def check(out: Any, blocked: z3.BoolRef = blocked, mine_: Z = mine_, theirs_: Z = theirs_) -> Goals:
            return [(z3.If(blocked, k(-1), theirs_ | (mine_ << 25)) == term(out), "placement")]

        with swapped(E, {"_group": named_group_contract(named), "_free": named_free_contract(named)}):
            paths += explore(
                [
                    *wf,
                    *(fact for fact, _ in named.facts()),
                    z3.Extract(i, i, mine.e | theirs.e) == 0,
                    (mine.e | theirs.e) & region == mine.e | theirs.e,
                ],
                lambda i=i: E._place(mine, theirs, i),
                check,
            )
    return paths


def by_contracts(*names: str) -> contextlib.AbstractContextManager[None]:
    """Within: the engine's functions ``names`` (of ``_free``, ``_place``,
    ``_legal_bit``, ``_moves``) are their proven contracts, so that a proof over a
    caller runs one path per case of the contract instead of every path through the
    callee; each contract obliges its precondition at every call."""
    contracts: dict[str, Callable[..., Any]] = {
        "_free": free_contract,
        "_place": place_contract,
        "_legal_bit": legal_bit_contract,
        "_moves": moves_contract,
    }
    return swapped(E, {name: contracts[name] for name in names})


def place_contract(mine: Sym | int, theirs: Sym | int, i: int) -> Sym:
    """``_place`` as proven: i a blank square of a board."""
    _oblige(
        z3.And(z3.Extract(i, i, term(mine) | term(theirs)) == 0, term(mine) & term(theirs) == 0),
        "_place's precondition",
    )
    blocked, mine_, theirs_ = placement(term(mine), term(theirs), SQUARES[i])
    return Sym(z3.If(blocked, k(-1), theirs_ | (mine_ << 25)))


def accepted(mine: Z, theirs: Z, s: G.SQUARE) -> z3.BoolRef:
    """A placement at s is accepted: neither GothelloIllegalMoveNonblank (s holds a
    stone) nor GothelloIllegalMoveBlocked holds."""
    return z3.Not(z3.Or(has(mine | theirs, s), blocked_at(mine, theirs, s)))


def legal_bit_contract(mine: Sym | int, theirs: Sym | int, i: int) -> Sym:
    """``_legal_bit`` as proven (``legal_bit_refines``): the two colours disjoint."""
    assert isinstance(i, int), "the square of _legal_bit is a concrete index"
    _oblige(term(mine) & term(theirs) == 0, "_legal_bit's precondition")
    return Sym(z3.If(accepted(term(mine), term(theirs), SQUARES[i]), k(1), k(0)))


class MovesOf:
    """``_moves(mask)`` for a symbolic mask, as ``moves_in_spec_order`` proves it: the
    placements on the squares of ``mask`` in the spec's order (file then rank), then
    ``pass``.  legal_moves_refine reads the mask off it."""

    __slots__ = ("mask",)

    def __init__(self, mask: Z) -> None:
        self.mask = mask


def moves_contract(mask: Sym | int) -> MovesOf:
    """``_moves`` as proven: a 25-bit set."""
    _oblige(z3.And(term(mask) >= 0, term(mask) <= FULL), "_moves' precondition")
    return MovesOf(term(mask))


# ─── The statement of the referee, and the engine's apply ──────────────────────

PASS: Final = 25
BLACK, WHITE, DRAW, NOT_DONE, ILLEGAL = range(5)
CODES: Final[dict[object, int]] = {
    R.win(G.PLAYER.black): BLACK,
    R.win(G.PLAYER.white): WHITE,
    R.draw: DRAW,
    R.not_done: NOT_DONE,
    R.illegal_move: ILLEGAL,
}
TAIL: Final = ("the rest of the history", None)
"""Stands for every history beyond the second entry: neither the engine nor the
spec's corrected schemas read past ``history 2`` (reading it would fail the proof:
its head is no action code)."""


def popcount(x: Z) -> Z:
    return z3.Sum([z3.ZeroExt(WIDTH - 1, z3.Extract(i, i, x)) for i in range(25)])


def count_result(black: Z, white: Z) -> Z:
    b, w = popcount(black), popcount(white)
    return z3.If(b > w, k(BLACK), z3.If(w > b, k(WHITE), k(DRAW)))


def ended(length: int, heads: Sequence[Z]) -> z3.BoolRef:
    """The game is over: the last two actions were passes (spec.gothello.game_over)."""
    return z3.And(*(h == PASS for h in heads[:2])) if length >= 2 else z3.BoolVal(False)


def referee(
    mine: Z, theirs: Z, to_move: Z, length: int, heads: Sequence[Z], action: int
) -> tuple[Z, Z, Z, Z, z3.BoolRef]:
    """spec.gothello.referee (GothelloTurn corrected) on terms, for a history of
    ``length`` (2 standing for ≥ 2) whose first entries are ``heads``: (result,
    black', white', to_move', history' = ⟨action⟩ ⁀ history)."""
    black = z3.If(to_move == 0, mine, theirs)
    white = z3.If(to_move == 0, theirs, mine)
    over = ended(length, heads)
    other = 1 - to_move
    if action == PASS:
        after_pass = z3.And(length >= 1, heads[0] == PASS) if length >= 1 else z3.BoolVal(False)
        # GothelloEnded (G26): after the end every action gets the final count, Ξ.
        result = z3.If(over, count_result(black, white), z3.If(after_pass, count_result(black, white), k(NOT_DONE)))
        to_move_ = z3.If(z3.Or(over, after_pass), to_move, other)
        return result, black, white, to_move_, z3.Not(over)
    s = SQUARES[action]
    nonblank = has(mine | theirs, s)
    blocked, mine_, theirs_ = placement(mine, theirs, s)
    refused = z3.Or(nonblank, blocked)
    still = z3.Or(over, refused)  # GothelloEnded (G26) or a refusal: Ξ
    black_ = z3.If(still, black, z3.If(to_move == 0, mine_, theirs_))
    white_ = z3.If(still, white, z3.If(to_move == 0, theirs_, mine_))
    result = z3.If(over, count_result(black, white), z3.If(refused, k(ILLEGAL), k(NOT_DONE)))
    return result, black_, white_, z3.If(still, to_move, other), z3.Not(still)


def histories() -> list[tuple[int, list[Sym], Any]]:
    """Every history, by what the rules read of it: empty, one action, or two and a rest."""
    h1, h2 = var("h1", 5), var("h2", 5)
    return [(0, [], None), (1, [h1], (h1, None)), (2, [h1, h2], (h1, (h2, TAIL)))]


def apply_refines_referee(actions: Sequence[int] = tuple(range(26))) -> int:
    """For every board (two disjoint sets of squares), side to move, history and action,
    the engine's ``apply`` (every path; ``_place`` by its contract) gives the
    statement's result, board, side to move and history."""
    mine, theirs, wf = board_vars("a")
    to_move = var("to_move", 1)
    paths = 0
    with by_contracts("_place"):
        for length, heads, history in histories():
            assumptions = [*wf, *(h.e <= PASS for h in heads)]
            state = (mine, theirs, to_move, history)
            for action in actions:
                want = referee(mine.e, theirs.e, to_move.e, length, [h.e for h in heads], action)
                move = G.pass_ if action == PASS else G.move(SQUARES[action])

                def check(
                    out: Any, want: Any = want, action: int = action, state: tuple[Sym, Sym, Sym, Any] = state
                ) -> Goals:
                    result, (mine_, theirs_, to_move_, history_) = out
                    r, black_, white_, t_, consed = want
                    yield k(CODES[result]) == r, "result"
                    yield term(to_move_) == t_, "to_move'"
                    yield z3.If(t_ == 0, black_, white_) == term(mine_), "mover's stones'"
                    yield z3.If(t_ == 0, white_, black_) == term(theirs_), "other stones'"
                    if history_ is state[3]:
                        yield z3.Not(consed), "history' = history"
                    else:
                        assert history_[1] is state[3] and history_[0] == action, "history' shape"
                        yield consed, "history' = ⟨move?⟩ ⁀ history"

                paths += explore(assumptions, lambda state=state, move=move: ENGINE.apply(state, move), check)
    return paths


def legal_bit_refines(squares: Sequence[G.SQUARE] = SQUARES, region: int = FULL) -> int:
    """For every board (its stones within ``region``) and every square s,
    ``_legal_bit(mine, theirs, s)`` (every path; ``_free`` by its contract) is 1 iff
    the statement accepts a placement at s (s blank, the placed stone's group with a
    liberty in cboard), else 0."""
    mine, theirs, wf = board_vars("b")
    paths = 0
    with by_contracts("_free"):
        for s in squares:
            want = z3.If(accepted(mine.e, theirs.e, s), k(1), k(0))
            paths += explore(
                [*wf, (mine.e | theirs.e) & region == mine.e | theirs.e],
                lambda s=s: E._legal_bit(mine, theirs, bit(s)),
                lambda out, want=want: [(term(out) == want, "legal bit")],
            )
    return paths


def _moves_by_induction(masks: range) -> int:
    """``moves_in_spec_order``'s check on the masks of a range (see there)."""
    moves, ordered = E._moves, SPEC_ORDER
    for m in masks:
        if m == 0:
            assert moves(0) == (G.pass_,), "_moves(0)"
            continue
        low = m & -m
        assert moves(m) == (ordered[low.bit_length() - 1], *moves(m ^ low)), hex(m)
    return len(masks)


SPEC_ORDER: Final = tuple(E._ACTIONS[bit(s)] for s in SQUARES)
"""The engine's MOVE objects in the spec's order of squares (``moves_in_spec_order``
checks them against spec.gothello's; comparing by identity then is fast)."""

EVERY_MASK: Final = tuple(range(start, start + (1 << 21)) for start in range(0, 1 << 25, 1 << 21))
"""All 2²⁵ sets of squares, in 16 tasks."""
SOME_MASKS: Final = (range(1 << 10), *(range(0, 32 << 5 * f, 1 << 5 * f) for f in range(2, 5)))
"""Every set within files a and b, and every set of ranks within each other file."""


def moves_in_spec_order(masks: Sequence[range] = EVERY_MASK, jobs: int = 2) -> int:
    """For every mask of ``masks`` (by default all 2²⁵ sets of squares), ``_moves(mask)``
    — the engine's own function, run concretely — is the moves of spec.gothello's
    ``legal_moves`` order (``sorted(SQUARES)``, then ``pass``) whose square is in the
    mask.  By induction on the number of squares: ``_moves(0) = ⟨pass⟩`` and
    ``_moves(m) = ⟨move of m's lowest square⟩ ⁀ _moves(m without it)`` for every
    m > 0 of ``masks``, which must hold m without its lowest square whenever they
    hold m (true of ``EVERY_MASK`` and ``SOME_MASKS``)."""
    assert [bit(s) for s in SQUARES] == list(range(25)), "bit order is the spec's order of squares"
    assert tuple(G.move(s) for s in SQUARES) == SPEC_ORDER, "the engine's MOVE of each square"
    if tuple(masks) != EVERY_MASK:  # which is closed: all 2²⁵; the others are small
        covered = {m for r in masks for m in r}
        assert all(m & (m - 1) in covered for m in covered), "masks closed under removing the lowest square"
    return in_processes(_moves_by_induction, list(masks), jobs)


def legal_moves_refine(lengths: Sequence[int] = (0, 1, 2)) -> int:
    """For every board, side and history (of the ``lengths``, 2 standing for ≥ 2),
    ``legal_moves`` (every path; ``_legal_bit`` and
    ``_moves`` by their contracts, so ``_legal_mask`` runs on one path) lists exactly
    the actions the statement does not answer illegal_move, and ``is_over`` says the
    game is over exactly when every action is refused (two passes in succession)."""
    mine, theirs, wf = board_vars("l")
    to_move = var("to_move", 1)
    paths = 0
    with by_contracts("_legal_bit", "_moves"):
        for length, heads, history in histories():
            if length not in lengths:
                continue
            state = (mine, theirs, to_move, history)
            legal = [
                z3.And(
                    z3.Not(ended(length, [h.e for h in heads])),
                    referee(mine.e, theirs.e, to_move.e, length, [h.e for h in heads], a)[0] != ILLEGAL,
                )
                for a in range(26)
            ]

            def check(out: tuple[G.MOVE, ...] | MovesOf, legal: list[z3.BoolRef] = legal) -> Goals:
                if isinstance(out, MovesOf):  # the placements of the mask, then pass
                    yield legal[PASS], "pass is legal"
                    for a in range(25):
                        yield legal[a] == (z3.Extract(a, a, out.mask) == 1), f"legal {a}"
                else:
                    assert out == (), out
                    yield z3.Not(z3.Or(*legal)), "no action is legal"

            assumptions = [*wf, *(h.e <= PASS for h in heads)]
            paths += explore(assumptions, lambda state=state: ENGINE.legal_moves(state), check)
            over = z3.Not(z3.Or(*legal))
            paths += explore(
                assumptions,
                lambda state=state: ENGINE.is_over(state),
                lambda out, over=over: [(over == z3.BoolVal(bool(out)), "is_over")],
            )
    return paths


# ─── The statements against the spec itself ─────────────────────────────────────


def _spec_board(black: int, white: int) -> G.BOARD:
    return Fun(
        (
            s,
            G.stone(G.PLAYER.black)
            if black >> bit(s) & 1
            else G.stone(G.PLAYER.white)
            if white >> bit(s) & 1
            else G.blank,
        )
        for s in SQUARES
    )


def _value(t: Z) -> int:
    v = z3.simplify(t)
    assert z3.is_bv_value(v), v
    return int(v.as_signed_long())


def statement_is_spec_referee(boards: int = 40, seed: int = 2026) -> int:
    """The statements ``referee`` (and so ``placement``, ``grow``, ``no_liberty``) ≡
    spec.gothello.referee — result and whole next state — on ``boards`` seeded
    random boards of every density, both sides to move, histories ⟨⟩, ⟨m⟩, ⟨pass⟩,
    ⟨pass, m⟩, ⟨pass, pass⟩, every action."""
    rng = random.Random(seed)
    checked = 0
    for _ in range(boards):
        black, white = random_stones(rng, rng.random())
        board = _spec_board(black, white)
        for to_move in G.PLAYER:
            for history in ((), (G.move((1, 1)),), (G.pass_,), (G.pass_, G.move((1, 1))), (G.pass_, G.pass_)):
                g = G.GothelloGame(board, to_move, history)
                mine, theirs = (black, white) if to_move is G.PLAYER.black else (white, black)
                heads = [k(E.code(m)) for m in history]
                for action in range(26):
                    move = G.pass_ if action == PASS else G.move(SQUARES[action])
                    result, after = G.referee(g, move)
                    r, black_, white_, t_, consed = referee(k(mine), k(theirs), k(to_move), len(history), heads, action)
                    want_history = (move, *history) if z3.is_true(z3.simplify(consed)) else history
                    got = G.GothelloGame(
                        _spec_board(_value(black_), _value(white_)), G.PLAYER(_value(t_)), want_history
                    )
                    assert (_value(r), got) == (CODES[result], after), (g, move)
                    checked += 1
    return checked


Case: TypeAlias = tuple[G.GothelloGame, int]
"""A state and an action code (0–24 a square, 25 pass)."""


def _fields(whole: int) -> tuple[int, int, int, int, bool]:
    """``Concat(r, black, white, to_move, consed)``'s value as its five parts: four
    signed WIDTH-bit numbers, then one bit."""

    def signed(x: int) -> int:
        x &= (1 << WIDTH) - 1
        return x - (1 << WIDTH) if x >> (WIDTH - 1) else x

    r, black, white, t = (signed(whole >> (1 + WIDTH * i)) for i in (3, 2, 1, 0))
    return r, black, white, t, bool(whole & 1)


def statement_is_spec_on(cases: Iterable[Case]) -> int:
    """The statement ``referee`` (and so ``placement``, ``grow``, ``no_liberty``) ≡
    spec.gothello.referee — result and whole next state — on every case.  The
    statement is built once per side, history and action on a symbolic board (building
    it per case costs seconds) and evaluated on each case by z3's evaluator, on a model
    that fixes the board: its five parts as one term, so what they share is evaluated once."""
    m25, t25 = z3.BitVec("case_mine", 25), z3.BitVec("case_theirs", 25)
    mine, theirs = z3.ZeroExt(WIDTH - 25, m25), z3.ZeroExt(WIDTH - 25, t25)
    built: dict[tuple[int, tuple[int, ...], int], z3.BitVecRef] = {}
    checked = 0
    for g, action in cases:
        black = sum(1 << bit(s) for s in SQUARES if g.board[s] == G.stone(G.PLAYER.black))
        white = sum(1 << bit(s) for s in SQUARES if g.board[s] == G.stone(G.PLAYER.white))
        mover = int(g.to_move)
        codes = tuple(E.code(m) for m in g.history[:2])
        key = (mover, codes, action)
        if key not in built:
            r, black_, white_, t_, consed = referee(mine, theirs, k(mover), len(codes), [k(c) for c in codes], action)
            assert all(x.size() == WIDTH for x in (r, black_, white_, t_)), "_fields reads WIDTH-bit parts"
            # one term for the five: evaluated once, their shared parts are evaluated once
            built[key] = z3.Concat(r, black_, white_, t_, z3.If(consed, z3.BitVecVal(1, 1), z3.BitVecVal(0, 1)))
        model = z3.Model()
        model.update_value(m25, z3.BitVecVal(white if mover else black, 25))
        model.update_value(t25, z3.BitVecVal(black if mover else white, 25))
        whole = model.eval(built[key], model_completion=True)
        assert z3.is_bv_value(whole), "the statement evaluates to a value on a concrete board"
        r_, black_v, white_v, t_v, consed_v = _fields(whole.as_long())

        move = G.pass_ if action == PASS else G.move(SQUARES[action])
        outcomes = G.GothelloTurn_corrected(g, move)
        assert len(outcomes) == 1, f"the spec's GothelloTurn has {len(outcomes)} outcomes, not 1: {(g, move)}"
        result, after = outcomes[0].result, outcomes[0].after
        history = (move, *g.history) if consed_v else g.history
        got = G.GothelloGame(_spec_board(black_v, white_v), G.PLAYER(t_v), history)
        assert (r_, got) == (CODES[result], after), (g, move, r_, got)
        checked += 1
    return checked


def region_cases(region: Sequence[G.SQUARE]) -> list[Case]:
    """Every board whose stones lie in ``region`` (each square blank, black or white),
    both sides to move, the empty history, every placement in the region and pass."""
    cases: list[Case] = []
    actions = [bit(s) for s in region] + [PASS]
    for colours in itertools.product((0, 1, 2), repeat=len(region)):
        black = sum(1 << bit(s) for s, c in zip(region, colours, strict=True) if c == 1)
        white = sum(1 << bit(s) for s, c in zip(region, colours, strict=True) if c == 2)
        board = _spec_board(black, white)
        cases += [(G.GothelloGame(board, p, ()), a) for p in G.PLAYER for a in actions]
    return cases


def witness_cases() -> list[Case]:
    """proofs/gothello/encoding_check.py's witnesses (a capture from each direction, at
    corners and edges, a group of three, two groups at once, suicide against capture),
    both sides, histories ⟨⟩ and ⟨e5, pass⟩."""
    from proofs.gothello import encoding_check

    return [(g, E.code(m)) for _, g, m in encoding_check.witness_cases()]


def history_classes() -> list[G.HISTORY]:
    """A history of every class the statement tells apart: of each length ``histories()``
    models, each entry it reads a pass or a placement (``ended`` and ``referee`` compare an
    entry with PASS only); the longest also with a third entry, which stands for the rest
    of the history that nothing reads."""
    lengths = [length for length, _, _ in histories()]
    kinds: tuple[G.MOVE, ...] = (G.pass_, G.move(SQUARES[-1]))
    classes: list[G.HISTORY] = [h for n in lengths for h in itertools.product(kinds, repeat=n)]
    return classes + [(*h, G.move(SQUARES[0])) for h in itertools.product(kinds, repeat=max(lengths))]


def under_history(cases: Iterable[Case], history: G.HISTORY) -> list[Case]:
    """The cases' boards, sides and actions, under ``history``."""
    return [(G.GothelloGame(g.board, g.to_move, history), action) for g, action in cases]


def history_class_cases(task: tuple[G.HISTORY, bool]) -> int:
    """The statement ≡ the spec under one history class: on every board within a1–b2 both
    sides, placing at a1 and passing, and on the witnesses' positions passing (``wide``:
    every board within a1–c2 and every action in it, the witnesses' placements too).  A
    history decides only whether the game has ended and whether a pass follows a pass, so
    one placement and pass carry it where the region is small."""
    history, wide = task
    witnesses = [(g, a) for g, a in witness_cases() if not g.history]
    if wide:
        cases = [*region_cases(CORNER_WIDE), *witnesses, *((g, PASS) for g, _ in witnesses)]
    else:
        cases = [(g, a) for g, a in region_cases(CORNER) if a in (bit((1, 1)), PASS)]
        cases += [(g, PASS) for g, _ in witnesses]
    return statement_is_spec_on(under_history(cases, history))


CAPTURE_REGION: Final = sum(1 << bit(s) for s in [(1, 1), (1, 2), (1, 3), (2, 1), (2, 2), (3, 1)])
"""make verify's capture scope for ``place_refines_move`` at a1: stones on a1–a3, b1, b2,
c1, where a2 and b1 (a1's neighbours) can each lose their last liberty."""
CORNER: Final = [(f, r) for f in (1, 2) for r in (1, 2)]
"""make verify's region of the statement's check: a1–b2 (3⁴ boards)."""
CORNER_WIDE: Final = [(f, r) for f in (1, 2, 3) for r in (1, 2)]
"""make proofs': a1–c2 (3⁶ boards: captures on the edge, along it and into the corner)."""


def abstraction_is_to_spec() -> int:
    """The engine's ``to_spec``/``from_spec`` are the bit-per-square abstraction the
    statements use: every square, either colour, either side to move, and a history."""
    checked = 0
    for s in SQUARES:
        for colour in G.PLAYER:
            for to_move in G.PLAYER:
                black, white = (1 << bit(s), 0) if colour is G.PLAYER.black else (0, 1 << bit(s))
                mine, theirs = (black, white) if to_move is G.PLAYER.black else (white, black)
                state = (mine, theirs, int(to_move), (PASS, (bit(s), None)))
                game = G.GothelloGame(_spec_board(black, white), to_move, (G.pass_, G.move(s)))
                assert ENGINE.to_spec(state) == game and ENGINE.from_spec(game) == state, (s, colour, to_move)
                checked += 1
    return checked


_PER_SQUARE: Final = {
    "group_is_spec_group": group_is_spec_group,
    "free_is_spec_liberty": free_is_spec_liberty,
    "place_refines_move": place_refines_move,
    "legal_bit_refines": legal_bit_refines,
}


def _one_square(task: tuple[str, G.SQUARE, int]) -> int:
    name, square, region = task
    return _PER_SQUARE[name]([square], region)


def over_squares(name: str, squares: Sequence[G.SQUARE], region: int, jobs: int = 2) -> int:
    """A per-square theorem for every square of ``squares``, one square a task, in
    ``jobs`` processes; a Refuted square fails it."""
    return in_processes(_one_square, [(name, s, region) for s in squares], jobs)


def main(argv: list[str] | None = None) -> int:
    deep_scope = "also the statement against the spec referee on samples (not run to the end)"
    scope = scope_arguments("proofs.gothello.refinement", __doc__, deep_scope, argv)
    bounded, deep = scope.bounded, scope.deep
    corner = [(1, 1)]
    some = [(1, 1), (1, 3), (3, 3)]  # a corner, an edge, the centre: the three kinds of square
    squares = corner if bounded else SQUARES
    # bounded: stones only in the 2 × 2 corner a1–b2 (loops end within 4 steps)
    region = sum(1 << bit((f, r)) for f in (1, 2) for r in (1, 2)) if bounded else FULL
    steps: list[ProofStep] = [
        ("adjacency_is_spec_adjoins", adjacency_is_spec_adjoins),
        ("abstraction_is_to_spec", abstraction_is_to_spec),
        ("dilate_is_adjacency_image", dilate_is_adjacency_image),
        ("closure_in_24_steps", lambda: closure_in_24_steps(some if bounded else SQUARES)),
        *((name, lambda name=name: over_squares(name, squares, region)) for name in _PER_SQUARE),
        (
            "apply_refines_referee",  # every action a task (independent queries), the pass alone when bounded
            lambda: in_processes(apply_refines_referee, [(PASS,)] if bounded else [(a,) for a in range(26)]),
        ),
        ("moves_in_spec_order", lambda: moves_in_spec_order(SOME_MASKS, 1) if bounded else moves_in_spec_order()),
        # bounded: the empty history (the mask and the decode, every board; not the ended game's ())
        ("legal_moves_refine", lambda: legal_moves_refine((0,) if bounded else (0, 1, 2))),
        (
            "statement_is_spec_on_witnesses_and_corner",
            lambda: statement_is_spec_on([*witness_cases(), *region_cases(CORNER if bounded else CORNER_WIDE)]),
        ),
    ]
    steps.append(
        (
            "statement_is_spec_on_every_history_class",
            lambda: in_processes(history_class_cases, [(h, not bounded) for h in history_classes()]),
        )
    )
    if bounded:  # a placement that captures from both its directions, or is blocked though it would
        steps.append(("place_refines_move, a1 with captures", lambda: place_refines_move([(1, 1)], CAPTURE_REGION)))
    if deep:  # not run to completion (proofs/README.md §8.2)
        steps.append(("statement_is_spec_referee", statement_is_spec_referee))
    return run_steps(steps, scope)


if __name__ == "__main__":
    sys.exit(main())
