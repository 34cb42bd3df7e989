"""The parts of Z's mathematical toolkit that the two papers' schemas use.

A relation ``X ↔ Y`` is a ``frozenset`` of pairs (``Rel[X, Y]``); a function is a
relation that is functional, so every operator below applies to functions too.
Names follow Spivey, *The Z Notation* (2nd ed.), chapter 4:

    dom r, ran r            dom, ran
    r ⦇ S ⦈                 image(r, S)
    r∼                      inverse(r)
    S ◁ r, r ▷ T            dres(S, r), rres(r, T)
    S ⩤ r, r ⩥ T            ndres(S, r), nrres(r, T)
    r ⊕ q                   override(r, q)
    r ⨟ q, q ∘ r            comp(r, q), circ(q, r)
    id S, S × T             id_(S), cross(S, T)
    iter n r                iter_(n, r, carrier)
    r⁺, r*                  closure(r), rtclosure(r, carrier)
    #S, Σ r                 card(S), sigma(r)
    f x                     apply(f, x)
    m .. n, ⟨x₁, …, xₙ⟩     upto(m, n), seq(x₁, …, xₙ)
    λ x : S • e             fn(lambda x: e, S)

Z's ``r*`` is ``id X ∪ r⁺`` where X is the *whole carrier set* of r's type, not just
the elements r mentions; a Python relation does not know its type, so ``iter_`` and
``rtclosure`` take the carrier explicitly.  That identity part matters: Awari's
``reachable`` is built on it (proofs/ERRATA.md, A1).

Contracts state the cheap defining laws; the rest are unit-tested in
tests/spec/test_z.py.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from collections.abc import Set as AbstractSet
from enum import Enum
from typing import TypeVar

from spec.contracts import ensure, require

X = TypeVar("X")
Y = TypeVar("Y")
W = TypeVar("W")

Rel = frozenset[tuple[X, Y]]
"""``X ↔ Y``: a finite relation as the set of its pairs."""


class FreeType(int, Enum):
    """A free type of constants, ``T ::= c₁ | … | cₙ``.

    Z's free types are disjoint sets: equality is identity, so constants of two free
    types are never equal (``PLAYER.north ≠ PIT.a``) and no constant equals a number
    (an ``IntEnum`` compares as its int).  The int base only lets a constant index the
    tuple that represents a total function from T (a BOARD indexed by PIT), also for
    crosshair's symbolic tuples, which accept ints only.
    """

    def __eq__(self, other: object) -> bool:
        return self is other

    def __ne__(self, other: object) -> bool:
        return self is not other

    def __hash__(self) -> int:
        return hash((type(self).__name__, self._name_))

    # As IntEnum's: z3 (through crosshair) reads an int from its decimal string.
    __str__ = int.__repr__


class Fun(frozenset[tuple[X, Y]]):
    """``X ⇸ Y``: a finite function.  It *is* its set of pairs, so every relational
    operator applies to it unchanged, and it can also be applied: ``f[x]`` is ``f x``.
    """

    _map: dict[X, Y]

    def __new__(cls, pairs: Iterable[tuple[X, Y]] = ()) -> Fun[X, Y]:
        self = super().__new__(cls, pairs)
        self._map = dict(self)
        if len(self._map) != len(self):
            raise ValueError("not a function: some x is related to two values")
        return self

    def __getitem__(self, x: X) -> Y:
        return self._map[x]

    def __repr__(self) -> str:
        pairs = sorted(self._map.items(), key=lambda kv: repr(kv[0]))
        return "{" + ", ".join(f"{x!r} ↦ {y!r}" for x, y in pairs) + "}"


# Contract predicates use these uncontracted helpers, so that checking one operator's
# contract does not check a chain of others.


def _subset(a: Iterable[object], b: AbstractSet[object]) -> bool:
    return all(x in b for x in a)


def _dom(r: Rel[X, Y]) -> frozenset[X]:
    return frozenset(x for (x, _) in r)


def _ran(r: Rel[X, Y]) -> frozenset[Y]:
    return frozenset(y for (_, y) in r)


def _image_size(f: Rel[X, Y], x: X) -> int:
    return sum(1 for (a, _) in f if a == x)


def dom(r: Rel[X, Y]) -> frozenset[X]:
    """dom r = {x | ∃ y • x ↦ y ∈ r}"""
    return frozenset(x for (x, _) in r)


def ran(r: Rel[X, Y]) -> frozenset[Y]:
    """ran r = {y | ∃ x • x ↦ y ∈ r}"""
    return frozenset(y for (_, y) in r)


@ensure(lambda r, result: _subset(result, _ran(r)), "r ⦇ S ⦈ ⊆ ran r")
def image(r: Rel[X, Y], s: AbstractSet[X]) -> frozenset[Y]:
    """r ⦇ S ⦈ = {y | ∃ x : S • x ↦ y ∈ r}"""
    return frozenset(y for (x, y) in r if x in s)


@ensure(lambda r, result: len(result) == len(r), "#(r∼) = #r")
def inverse(r: Rel[X, Y]) -> Rel[Y, X]:
    """r∼ = {x ↦ y | y ↦ x ∈ r}"""
    return frozenset((y, x) for (x, y) in r)


@ensure(lambda s, r, result: _dom(result) == _dom(r) & s, "dom (S ◁ r) = S ∩ dom r")
def dres(s: AbstractSet[X], r: Rel[X, Y]) -> Rel[X, Y]:
    """S ◁ r = {x ↦ y | x ↦ y ∈ r ∧ x ∈ S}"""
    return frozenset((x, y) for (x, y) in r if x in s)


@ensure(lambda r, t, result: _ran(result) == _ran(r) & t, "ran (r ▷ T) = ran r ∩ T")
def rres(r: Rel[X, Y], t: AbstractSet[Y]) -> Rel[X, Y]:
    """r ▷ T = {x ↦ y | x ↦ y ∈ r ∧ y ∈ T}"""
    return frozenset((x, y) for (x, y) in r if y in t)


@ensure(lambda s, r, result: result | frozenset(p for p in r if p[0] in s) == r, "(S ⩤ r) ∪ (S ◁ r) = r")
def ndres(s: AbstractSet[X], r: Rel[X, Y]) -> Rel[X, Y]:
    """S ⩤ r = {x ↦ y | x ↦ y ∈ r ∧ x ∉ S}"""
    return frozenset((x, y) for (x, y) in r if x not in s)


@ensure(lambda r, t, result: result | frozenset(p for p in r if p[1] in t) == r, "(r ⩥ T) ∪ (r ▷ T) = r")
def nrres(r: Rel[X, Y], t: AbstractSet[Y]) -> Rel[X, Y]:
    """r ⩥ T = {x ↦ y | x ↦ y ∈ r ∧ y ∉ T}"""
    return frozenset((x, y) for (x, y) in r if y not in t)


@ensure(lambda r, q, result: q <= result, "q ⊆ r ⊕ q")
@ensure(lambda r, q, result: _dom(result) == _dom(r) | _dom(q), "dom (r ⊕ q) = dom r ∪ dom q")
def override(r: Rel[X, Y], q: Rel[X, Y]) -> Rel[X, Y]:
    """r ⊕ q = (dom q ⩤ r) ∪ q"""
    return ndres(dom(q), r) | q


def comp(r: Rel[X, Y], q: Rel[Y, W]) -> Rel[X, W]:
    """r ⨟ q = {x ↦ z | ∃ y • x ↦ y ∈ r ∧ y ↦ z ∈ q}  (forward composition)"""
    return frozenset((x, z) for (x, y) in r for (y2, z) in q if y == y2)


def circ(q: Rel[Y, W], r: Rel[X, Y]) -> Rel[X, W]:
    """q ∘ r = r ⨟ q  (backward composition: first r, then q)"""
    return comp(r, q)


def id_(s: AbstractSet[X]) -> Rel[X, X]:
    """id S = {x : S • x ↦ x}"""
    return frozenset((x, x) for x in s)


def cross(s: AbstractSet[X], t: AbstractSet[Y]) -> Rel[X, Y]:
    """S × T, the Cartesian product, as a relation."""
    return frozenset((x, y) for x in s for y in t)


@require(lambda n: n >= 0, "iter is used here with n : ℕ")
@require(lambda r, carrier: _subset(_dom(r) | _ran(r), carrier), "r : carrier ↔ carrier")
def iter_(n: int, r: Rel[X, X], carrier: AbstractSet[X]) -> Rel[X, X]:
    """iter 0 r = id X;  iter (n + 1) r = r ⨟ iter n r"""
    power = id_(carrier)
    for _ in range(n):
        power = comp(r, power)
    return power


@ensure(lambda r, result: r <= result, "r ⊆ r⁺")
@ensure(lambda r, result: _dom(result) == _dom(r) and _ran(result) == _ran(r), "r⁺ has r's domain and range")
def closure(r: Rel[X, X]) -> Rel[X, X]:
    """r⁺ = ⋃ {n : ℕ₁ • iter n r}: the least transitive relation containing r."""
    result = r
    while True:
        extended = result | comp(result, r)
        if extended == result:
            return result
        result = extended


@require(lambda r, carrier: _subset(_dom(r) | _ran(r), carrier), "r : carrier ↔ carrier")
@ensure(lambda r, carrier, result: id_(carrier) <= result, "id X ⊆ r*")
def rtclosure(r: Rel[X, X], carrier: AbstractSet[X]) -> Rel[X, X]:
    """r* = id X ∪ r⁺ = ⋃ {n : ℕ • iter n r}, X the carrier of r's type."""
    return id_(carrier) | closure(r)


def card(s: AbstractSet[object]) -> int:
    """#S, the size of a finite set."""
    return len(s)


@require(lambda r: all(n >= 0 for (_, n) in r), "r : X ↔ ℕ")
@ensure(lambda result: result >= 0, "Σ r : ℕ")
def sigma(r: Rel[X, int]) -> int:
    """Σ ∅ = 0;  (x ↦ n) ∈ r ⇒ Σ r = n + Σ (r \\ {x ↦ n})  — the sum over the range, pair by pair.

    Defined here for finite relations only; the paper declares Σ over all of X ↔ ℕ
    (proofs/ERRATA.md, A13).
    """
    return sum(n for (_, n) in r)


def is_function(r: Rel[X, Y]) -> bool:
    """r ∈ X ⇸ Y: no x is related to two different y."""
    return len(dom(r)) == len(r)


@require(lambda f, x: _image_size(f, x) == 1, "x ∈ dom f and f is functional at x")
def apply(f: Rel[X, Y], x: X) -> Y:
    """f x, the application of a function (a functional relation) to a point of its domain."""
    (y,) = image(f, {x})
    return y


def upto(m: int, n: int) -> frozenset[int]:
    """m .. n = {i : ℤ | m ≤ i ≤ n}"""
    return frozenset(range(m, n + 1))


def seq(*xs: X) -> Rel[int, X]:
    """⟨x₁, …, xₙ⟩ = {1 ↦ x₁, …, n ↦ xₙ}: a sequence is a function from 1 .. n."""
    return frozenset(enumerate(xs, start=1))


def fn(f: Callable[[X], Y], domain: Iterable[X]) -> Rel[X, Y]:
    """λ x : S • f x, as the relation (graph) it denotes."""
    return frozenset((x, f(x)) for x in domain)
