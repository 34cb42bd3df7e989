"""The planted-bug catalogue (proofs/planted.py) stays runnable: each edit still applies
to exactly one place of today's code, and each check it names is a bounded step of the
manifest or an existing test file.  (Running the catalogue is `make planted`.)"""

from __future__ import annotations

import pytest

from proofs import planted as P


@pytest.mark.parametrize("plant", P.PLANTS, ids=lambda p: p.name)
def test_each_planted_bug_applies_and_names_real_checks(plant: P.Plant) -> None:
    assert P.applies(plant), f"{plant.path}: the text to replace no longer occurs exactly once"
    assert plant.old != plant.new and (plant.steps or plant.tests)
    assert set(plant.steps) <= set(P.bounded_commands())
    assert all((P.ROOT / t).is_file() for t in plant.tests)


def test_names_are_unique_and_unknown_names_are_refused() -> None:
    assert len({p.name for p in P.PLANTS}) == len(P.PLANTS)
    with pytest.raises(SystemExit, match="no planted bug named nope"):
        P.by_name(["nope"])
