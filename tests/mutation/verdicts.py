"""Survivors judged equivalent: the mutant's stable key (tests/mutation/mutator.py) → why
no test can tell it from the original, one TOML file a mutated file (tests/mutation/equivalent/).
Every other survivor is killed by a test in tests/engines/test_*_rule_witnesses.py or
tests/spec/test_*_witnesses.py; tests/mutation/results/mutation-report.md shows which.

A file's ``[equivalent]`` table maps a key to its argument: a string, or an inline table
``{ shared = "NAME", field = "…" }`` that names one of the file's ``[shared]`` texts and fills
its ``{field}``s.  Every argument is read through ``str.format`` with the file's shared texts,
so ``{NAME}`` inserts one and ``{{``/``}}`` stand for braces."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Final

FOLDER: Final = Path(__file__).with_name("equivalent")


def argument(value: str | dict[str, str], shared: dict[str, str]) -> str:
    """One ``[equivalent]`` value read as the module docstring says."""
    if isinstance(value, str):
        return value.format(**shared)
    fields = dict(value)
    return shared[fields.pop("shared")].format(**shared, **fields)


def load(path: Path) -> dict[str, str]:
    """One mutated file's verdicts: key → argument."""
    table = tomllib.loads(path.read_text(encoding="utf-8"))
    shared: dict[str, str] = table.get("shared", {})
    return {key: argument(value, shared) for key, value in table["equivalent"].items()}


EQUIVALENT: Final[dict[str, str]] = {
    key: why for path in sorted(FOLDER.glob("*.toml")) for key, why in load(path).items()
}
