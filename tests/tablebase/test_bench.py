"""The tablebase benchmark runs and prints each of its figures (make bench)."""

from __future__ import annotations

import re

import pytest

from bench import tablebase
from impl.engines.tablebase import ckernel


@pytest.mark.skipif(ckernel.load() is None, reason="no C compiler")
def test_the_quick_benchmark_prints_every_row(capsys: pytest.CaptureFixture[str]) -> None:
    assert tablebase.main(["--quick"]) == 0
    out = capsys.readouterr().out
    rows = re.findall(r"^\| (\d+) \| [\d,]+ \| [\d.]+ s \| [\d,]+ \|(.*)$", out, re.M)
    assert [int(n) for n, _ in rows] == list(range(4, 11))
    assert all(re.search(r"\d+x \|$", rest) for n, rest in rows if int(n) <= 6)  # the ratio where both ran
    assert re.search(r"levels 0 … 10 \([\d,]+ boards\): [\d.]+ s on 1 process, [\d.]+ s on 2", out)
    assert re.search(r"a lookup .*: [\d.]+ µs", out)


@pytest.mark.skipif(ckernel.load() is None, reason="no C compiler")
def test_the_quick_adjudication_benchmark_prints_a_row_a_rule_set(capsys: pytest.CaptureFixture[str]) -> None:
    from bench import adjudication

    assert adjudication.main(["--quick"]) == 0
    rows = re.findall(
        r"^\| ([\w-]+) \| 20 \| (\d+) \| (\d+) \| (\d+) \| (\d+) \| (\d+) \| [\d.]+ \| [\d.]+ ms \| \d+ ms \|$",
        capsys.readouterr().out,
        re.M,
    )
    assert [r[0] for r in rows] == list(adjudication.RULE_SETS)
    for _, reached, judged, by_range, by_search, out in rows:
        assert int(reached) == int(judged) + int(out) and int(by_range) + int(by_search) <= int(judged)


@pytest.mark.skipif(ckernel.load() is None, reason="no C compiler")
def test_the_quick_referee_values_benchmark_prints_a_row_a_level(capsys: pytest.CaptureFixture[str]) -> None:
    from bench import referee_values

    assert referee_values.main(["--quick", "--budget", "1000"]) == 0
    rows = re.findall(r"^\| (\d) \| ([\d,]+) \| ([\d,]+) \| ([\d,]+) \| ([\d,]+) \| [\d.]+% \| [\d,]+ \| [\d.]+ s \|$",
                      capsys.readouterr().out, re.M)  # fmt: skip
    assert [int(r[0]) for r in rows] == [1, 2, 3]
    for _, size, agree, settled, left in rows:
        assert int(size.replace(",", "")) == sum(int(x.replace(",", "")) for x in (agree, settled, left))
    assert rows[0][2] == "12"  # a single stone: the bounds always agree
