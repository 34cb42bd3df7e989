"""Survivors judged equivalent: the mutant's stable key (tests/mutation/mutator.py) → why
no test can tell it from the original, one module a mutated file (tests/mutation/equivalent/).
Every other survivor is killed by a test in tests/engines/test_*_rule_witnesses.py or
tests/spec/test_*_witnesses.py; tests/mutation/results/mutation-report.md shows which."""

from __future__ import annotations

from typing import Final

from .equivalent import impl_awari, impl_gothello, spec_awari, spec_gothello

EQUIVALENT: Final[dict[str, str]] = {
    **impl_awari.EQUIVALENT,
    **impl_gothello.EQUIVALENT,
    **spec_awari.EQUIVALENT,
    **spec_gothello.EQUIVALENT,
}
