"""A planted difference that the hypothesis-crosshair run must report (a failing
test) before its passes count: proofs/crosshair/hypothesis_backend.py runs it first and
expects pytest to fail with a falsifying example."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from proofs.crosshair.canary import capture_forgets_the_chain
from proofs.crosshair.diff_adapters import capture_impl


@given(
    st.lists(st.integers(0, 4), min_size=12, max_size=12),
    st.booleans(),
    st.integers(0, 11),
)
def test_planted_capture_bug(pits: list[int], south_to_move: bool, last: int) -> None:
    board = tuple(pits)
    north = 48 - sum(board)
    assert capture_forgets_the_chain(board, north, 0, south_to_move, last) == capture_impl(
        board, north, 0, south_to_move, last
    )


def test_the_backend_is_crosshair() -> None:
    """The profile took effect: inputs come from crosshair's solver."""
    assert settings().backend == "crosshair"
