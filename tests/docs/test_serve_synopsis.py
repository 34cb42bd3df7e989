"""docs/protocol.md §1 shows ``referee serve``'s synopsis exactly as its parser gives it,
so that no option is missing from it (impl/apps/serve.py ``synopsis``)."""

from __future__ import annotations

import re

from impl.apps.serve import synopsis
from tests.support import paths


def test_the_protocol_pages_synopsis_is_the_parsers() -> None:
    text = (paths.ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    found = re.search(r"<!-- generated: serve synopsis [^\n]*-->\n```\n(.*?)```\n<!-- end -->", text, re.S)
    assert found is not None, "docs/protocol.md has no generated synopsis"
    assert found[1] == synopsis() + "\n", "update docs/protocol.md §1 with:\n" + synopsis()
