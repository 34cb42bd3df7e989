"""A planted difference that the hypothesis-crosshair run must report (a failing
test) before its passes count: proofs/crosshair/hypothesis_backend.py runs it first and
expects pytest to fail with a falsifying example.

The planted bug is a wrong capture rule (a pit of 4 is taken too).  Its budget is its
own, CANARY_EXAMPLES, measured with the profile's empty database: the bug was found in
0 of 5 runs at 10 examples and in 20 of 20 runs at 40 (docs/toolchain.md).  A planted
forgotten chain was missed at 10–50 examples and found at 100, so it stays the
diffbehavior canary only."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from proofs.crosshair.canary import capture_takes_four
from proofs.crosshair.diff_adapters import capture_impl

CANARY_EXAMPLES = 40


@settings(max_examples=CANARY_EXAMPLES)
@given(
    st.lists(st.integers(0, 4), min_size=12, max_size=12),
    st.booleans(),
    st.integers(0, 11),
)
def test_planted_capture_bug(pits: list[int], south_to_move: bool, last: int) -> None:
    board = tuple(pits)
    north = 48 - sum(board)
    assert capture_takes_four(board, north, 0, south_to_move, last) == capture_impl(
        board, north, 0, south_to_move, last
    )


def test_the_backend_is_crosshair() -> None:
    """The profile took effect: inputs come from crosshair's solver."""
    assert settings().backend == "crosshair"
