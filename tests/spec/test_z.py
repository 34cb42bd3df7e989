"""The laws of the Z toolkit (Spivey, The Z Notation, ch. 4), checked on random
finite relations."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from spec.z import (
    Fun,
    Rel,
    apply,
    card,
    circ,
    closure,
    comp,
    cross,
    dom,
    dres,
    fn,
    id_,
    image,
    inverse,
    is_function,
    iter_,
    ndres,
    nrres,
    override,
    ran,
    rres,
    rtclosure,
    seq,
    sigma,
    upto,
)

CARRIER = frozenset(range(6))
points = st.integers(0, 5)
sets = st.frozensets(points)
rels: st.SearchStrategy[Rel[int, int]] = st.frozensets(st.tuples(points, points), max_size=14)
nat_rels: st.SearchStrategy[Rel[int, int]] = st.frozensets(st.tuples(points, st.integers(0, 9)), max_size=10)


@given(rels, sets)
def test_restrictions_partition_the_relation(r: Rel[int, int], s: frozenset[int]) -> None:
    assert dres(s, r) | ndres(s, r) == r and not dres(s, r) & ndres(s, r)
    assert rres(r, s) | nrres(r, s) == r and not rres(r, s) & nrres(r, s)
    assert dom(dres(s, r)) == dom(r) & s
    assert ran(rres(r, s)) == ran(r) & s


@given(rels, sets)
def test_image_is_range_of_domain_restriction(r: Rel[int, int], s: frozenset[int]) -> None:
    assert image(r, s) == ran(dres(s, r))


@given(rels)
def test_inverse_is_an_involution(r: Rel[int, int]) -> None:
    assert inverse(inverse(r)) == r
    assert dom(inverse(r)) == ran(r)


@given(rels, rels)
def test_override(r: Rel[int, int], q: Rel[int, int]) -> None:
    o = override(r, q)
    assert o == ndres(dom(q), r) | q
    assert dom(o) == dom(r) | dom(q)
    assert override(r, frozenset()) == r


@given(rels, rels, rels)
def test_composition_is_associative(r: Rel[int, int], q: Rel[int, int], p: Rel[int, int]) -> None:
    assert comp(comp(r, q), p) == comp(r, comp(q, p))
    assert circ(q, r) == comp(r, q)
    assert comp(id_(CARRIER), r) == r == comp(r, id_(CARRIER))


@given(rels)
def test_closure_is_the_least_transitive_superset(r: Rel[int, int]) -> None:
    plus = closure(r)
    assert r <= plus
    assert comp(plus, plus) <= plus  # transitive
    assert plus == frozenset().union(*(iter_(n, r, CARRIER) for n in range(1, 8)))


@given(rels)
def test_reflexive_transitive_closure_contains_identity_on_the_carrier(r: Rel[int, int]) -> None:
    star = rtclosure(r, CARRIER)
    assert star == id_(CARRIER) | closure(r)
    assert id_(CARRIER) <= star  # even for points r does not mention
    assert iter_(0, r, CARRIER) == id_(CARRIER)


@given(nat_rels)
def test_sigma_unfolds_pair_by_pair(r: Rel[int, int]) -> None:
    assert sigma(frozenset()) == 0
    for pair in r:
        assert sigma(r) == pair[1] + sigma(r - {pair})


def test_apply_seq_upto_cross_fn() -> None:
    s = seq("x", "y", "z")
    assert apply(s, 2) == "y" and dom(s) == upto(1, 3)
    assert upto(3, 2) == frozenset()
    assert card(cross({1, 2}, {"a", "b", "c"})) == 6
    assert fn(lambda x: x * x, {1, 2, 3}) == frozenset({(1, 1), (2, 4), (3, 9)})
    assert is_function(s) and not is_function(frozenset({(1, 1), (1, 2)}))


def test_fun_is_a_relation_that_applies() -> None:
    f: Fun[int, str] = Fun({(1, "a"), (2, "b")})
    assert f[2] == "b" and f == frozenset({(1, "a"), (2, "b")})
    assert image(inverse(f), {"a"}) == {1}
    with pytest.raises(ValueError):
        Fun({(1, "a"), (1, "b")})


def test_free_types_are_disjoint() -> None:
    """Z's free types are disjoint sets: no constant of one equals a constant of
    another, or a number (they were IntEnums, and PLAYER.north == PIT.a held)."""
    from spec import awari as A
    from spec import gothello as G

    constants: list[object] = [*A.PLAYER, *A.PIT, *G.PLAYER]
    for i, x in enumerate(constants):
        assert [y for y in constants[i + 1 :] if x == y] == []
        assert all(x != n for n in range(12))
    assert len(set(constants)) == len(constants)
    assert (4, 5, 6)[A.PIT.b] == 5  # a constant still indexes the tuple representing a function from its type
