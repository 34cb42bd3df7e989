"""A pytest plugin registering the hypothesis profile ``crosshair``: the differential
properties of tests/engines/test_differential.py with hypothesis-crosshair as the backend, so that
crosshair's solver, not hypothesis's random choices, picks the inputs.

    HYPOTHESIS_PROFILE=crosshair pytest -p proofs.crosshair.hypothesis_profile tests/engines/test_differential.py

tests/conftest.py loads the profile named by HYPOTHESIS_PROFILE (tests/support/profiles.py);
a ``-p`` plugin is imported before it, so the profile exists by then.  (tests/conftest.py is not ours
to edit.)  The backend is slow (docs/toolchain.md: 100 examples in about
a minute), hence few examples: this is a complement to the exhaustive runs.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

EXAMPLES = int(os.environ.get("CROSSHAIR_EXAMPLES", "25"))

settings.register_profile(
    "crosshair",
    backend="crosshair",
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    print_blob=True,
    # No example database and no random seed: a run cannot pass by replaying what an
    # earlier run stored, and two runs search the same inputs (docs/toolchain.md).
    database=None,
    derandomize=True,
)
# Outside tests/ (the canary) no conftest loads it.
if os.environ.get("HYPOTHESIS_PROFILE") == "crosshair":
    settings.load_profile("crosshair")
