"""Ranks: the combinatorial number system is a bijection onto each level."""

from __future__ import annotations

from impl.engines.tablebase.index import boards, level_size, mirror, rank, unrank


def test_rank_is_a_bijection_onto_each_level() -> None:
    for n in range(6):
        level = boards(n)
        assert len(level) == len(set(level)) == level_size(n)
        assert all(sum(b) == n and len(b) == 12 and rank(b) == r for r, b in enumerate(level))


def test_level_sizes_are_the_issues_counts() -> None:
    assert sum(level_size(n) for n in range(16)) == 17_383_860
    assert sum(level_size(n) for n in range(21)) == 225_792_840


def test_unrank_far_into_a_big_level() -> None:
    board = (3, 0, 1, 4, 0, 0, 2, 2, 0, 1, 5, 2)
    assert unrank(rank(board), 20) == board
    assert mirror(board) == (2, 2, 0, 1, 5, 2, 3, 0, 1, 4, 0, 0)
