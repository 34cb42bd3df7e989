"""impl/web/admission.py: per-client caps, token bucket and record share, with
time passed in (no clock, no sockets)."""

from __future__ import annotations

import pytest

from impl.config import ClientLimits
from impl.web.admission import Admission, Verdict, group


@pytest.mark.parametrize(
    ("address", "expected"),
    [
        ("192.0.2.7", "192.0.2.7"),
        ("::ffff:192.0.2.7", "192.0.2.7"),
        ("2001:db8:1:2:aaaa::1", "2001:db8:1:2::/64"),
        ("2001:db8:1:2:bbbb::9", "2001:db8:1:2::/64"),
        ("fe80::1%eth0", "fe80::/64"),
        ("not an address", "?"),
        ("", "?"),
        (None, "?"),
    ],
)
def test_group(address: str | None, expected: str) -> None:
    assert group(address) == expected


def test_connections_are_capped_per_client() -> None:
    admission = Admission(ClientLimits(connections=2))
    assert admission.connect("a", 0.0).admitted and admission.connect("a", 0.0).admitted
    refused = admission.connect("a", 0.0)
    assert refused.verdict is Verdict.BUSY and refused.retry_after > 0
    assert admission.connect("b", 0.0).admitted  # another client is not affected
    admission.disconnect("a")
    assert admission.connect("a", 0.0).admitted


def test_the_bucket_refills_at_the_rate() -> None:
    admission = Admission(ClientLimits(rate=2.0, burst=3.0, in_flight=100))
    for _ in range(3):
        assert admission.begin("a", 10.0).admitted
        admission.end("a")
    late = admission.begin("a", 10.0)
    assert late.verdict is Verdict.RATE and late.retry_after == 1
    assert admission.begin("b", 10.0).admitted
    assert admission.begin("a", 10.5).admitted  # one token back after 1/rate seconds


def test_requests_in_progress_are_capped() -> None:
    admission = Admission(ClientLimits(in_flight=2, rate=100.0, burst=100.0))
    assert admission.begin("a", 0.0).admitted and admission.begin("a", 0.0).admitted
    assert admission.begin("a", 0.0).verdict is Verdict.BUSY
    admission.end("a")
    assert admission.begin("a", 0.0).admitted


def test_the_record_share() -> None:
    admission = Admission(ClientLimits(records=2))
    assert admission.begin_record("a", 0.0).admitted and admission.begin_record("a", 0.0).admitted
    assert admission.begin_record("a", 0.0).verdict is Verdict.RATE
    assert admission.begin_record("b", 0.0).admitted
    admission.end_record("a")
    assert admission.begin_record("a", 0.0).admitted


def test_an_idle_client_is_forgotten_once_its_bucket_is_full() -> None:
    admission = Admission(ClientLimits(rate=1.0, burst=2.0))
    admission.connect("a", 0.0)
    admission.begin("a", 0.0)
    admission.begin_record("a", 0.0)
    admission.end_record("a")
    admission.end("a")
    admission.disconnect("a")
    assert "a" in admission.clients  # a token short: reconnecting does not refill it
    admission.sweep(0.5)
    assert "a" in admission.clients
    admission.sweep(1.0)
    assert admission.clients == {}
    admission.end("gone")  # ends of an unknown client are ignored
    admission.disconnect("gone")
    assert admission.clients == {}


def test_reconnecting_for_each_request_does_not_refill_the_bucket() -> None:
    admission = Admission(ClientLimits(rate=1.0, burst=3.0))
    verdicts = []
    for _ in range(5):
        admission.connect("a", 0.0)
        verdicts.append(admission.begin("a", 0.0).verdict)
        admission.end("a")
        admission.disconnect("a")
    assert verdicts == [Verdict.OK] * 3 + [Verdict.RATE] * 2
