"""The mutation report is generated output kept beside its tool (tests/mutation/results/,
not docs/): the committed report is exactly what ``python -m tests.mutation --render``
makes from the committed record, so neither is edited by hand or left stale."""

from __future__ import annotations

import json

from tests.mutation import report
from tests.mutation.__main__ import REPORT, RESULTS, ROOT


def test_the_record_and_report_live_beside_the_tool() -> None:
    assert RESULTS.parent == REPORT.parent == ROOT / "tests" / "mutation" / "results"
    assert not list((ROOT / "docs").glob("mutation-*"))


def test_the_committed_report_is_the_render_of_the_record() -> None:
    data = json.loads(RESULTS.read_text(encoding="utf-8"))
    assert REPORT.read_text(encoding="utf-8") == report.render(data)
