"""The laws of the Z toolkit (Spivey, The Z Notation, ch. 4), checked on random
finite relations."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from spec import z as Z
from spec.z import Fun, Rel

CARRIER = frozenset(range(6))
points = st.integers(0, 5)
sets = st.frozensets(points)
rels: st.SearchStrategy[Rel[int, int]] = st.frozensets(st.tuples(points, points), max_size=14)
nat_rels: st.SearchStrategy[Rel[int, int]] = st.frozensets(st.tuples(points, st.integers(0, 9)), max_size=10)


@given(rels, sets)
def test_restrictions_partition_the_relation(r: Rel[int, int], s: frozenset[int]) -> None:
    assert Z.dres(s, r) | Z.ndres(s, r) == r and not Z.dres(s, r) & Z.ndres(s, r)
    assert Z.rres(r, s) | Z.nrres(r, s) == r and not Z.rres(r, s) & Z.nrres(r, s)
    assert Z.dom(Z.dres(s, r)) == Z.dom(r) & s
    assert Z.ran(Z.rres(r, s)) == Z.ran(r) & s


@given(rels, sets)
def test_image_is_range_of_domain_restriction(r: Rel[int, int], s: frozenset[int]) -> None:
    assert Z.image(r, s) == Z.ran(Z.dres(s, r))


@given(rels)
def test_inverse_is_an_involution(r: Rel[int, int]) -> None:
    assert Z.inverse(Z.inverse(r)) == r
    assert Z.dom(Z.inverse(r)) == Z.ran(r)


@given(rels, rels)
def test_override(r: Rel[int, int], q: Rel[int, int]) -> None:
    o = Z.override(r, q)
    assert o == Z.ndres(Z.dom(q), r) | q
    assert Z.dom(o) == Z.dom(r) | Z.dom(q)
    assert Z.override(r, frozenset()) == r


@given(rels, rels, rels)
def test_composition_is_associative(r: Rel[int, int], q: Rel[int, int], p: Rel[int, int]) -> None:
    assert Z.comp(Z.comp(r, q), p) == Z.comp(r, Z.comp(q, p))
    assert Z.circ(q, r) == Z.comp(r, q)
    assert Z.comp(Z.id_(CARRIER), r) == r == Z.comp(r, Z.id_(CARRIER))


@given(rels)
def test_closure_is_the_least_transitive_superset(r: Rel[int, int]) -> None:
    plus = Z.closure(r)
    assert r <= plus
    assert Z.comp(plus, plus) <= plus  # transitive
    assert plus == frozenset().union(*(Z.iter_(n, r, CARRIER) for n in range(1, 8)))


@given(rels)
def test_reflexive_transitive_closure_contains_identity_on_the_carrier(r: Rel[int, int]) -> None:
    star = Z.rtclosure(r, CARRIER)
    assert star == Z.id_(CARRIER) | Z.closure(r)
    assert Z.id_(CARRIER) <= star  # even for points r does not mention
    assert Z.iter_(0, r, CARRIER) == Z.id_(CARRIER)


@given(nat_rels)
def test_sigma_unfolds_pair_by_pair(r: Rel[int, int]) -> None:
    assert Z.sigma(frozenset()) == 0
    for pair in r:
        assert Z.sigma(r) == pair[1] + Z.sigma(r - {pair})


def test_apply_seq_upto_cross_fn() -> None:
    s = Z.seq("x", "y", "z")
    assert Z.apply(s, 2) == "y" and Z.dom(s) == Z.upto(1, 3)
    assert Z.upto(3, 2) == frozenset()
    assert Z.card(Z.cross({1, 2}, {"a", "b", "c"})) == 6
    assert Z.fn(lambda x: x * x, {1, 2, 3}) == frozenset({(1, 1), (2, 4), (3, 9)})
    assert Z.is_function(s) and not Z.is_function(frozenset({(1, 1), (1, 2)}))


def test_fun_is_a_relation_that_applies() -> None:
    f: Fun[int, str] = Fun({(1, "a"), (2, "b")})
    assert f[2] == "b" and f == frozenset({(1, "a"), (2, "b")})
    assert Z.image(Z.inverse(f), {"a"}) == {1}
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
