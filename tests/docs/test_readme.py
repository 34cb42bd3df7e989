"""The README's examples run as doctests, so the documentation cannot drift."""

from __future__ import annotations

import doctest

from tests.support import paths


def test_readme_examples() -> None:
    readme = paths.ROOT / "README.md"
    result = doctest.testfile(str(readme), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
