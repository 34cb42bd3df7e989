"""Per-client admission for the web view: what one client may take of it.

A client is an address group (``group``): an IPv4 address, or an IPv6 /64 (one
host is usually given a whole /64, so counting its addresses one by one would
give it 2**64 shares); or, in a match's or tournament's view, ``programs``: every
connection the run's own programs hold (impl/web/programs.py, sorted by the gate
as each connection is made; a request is its connection's client, gate.py ``CLIENT``).
Each client has, at once:

* at most ``connections`` connections (more are answered 503 and closed);
* at most ``in_flight`` requests in progress, streams included (503);
* a token bucket of ``rate`` requests a second, ``burst`` deep (429);
* one record request in the shared record queue (impl/web/app.py
  ``_record_turn``) at a time: its others wait their turn behind it, at most
  ``records`` in all (429 beyond), so that one client cannot fill the queue.

Pure: the state is a dictionary of small per-group counters, and time is passed
in by the caller (the aiohttp glue in impl/web/app.py).  Every refusal carries
the seconds the client is told to wait (``Retry-After``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import Enum
from typing import Literal

from impl.config import ClientLimits
from impl.server.admission import address_group
from impl.server.net import TokenBucket


class Verdict(Enum):
    OK = "ok"
    RATE = "rate"
    """Over the request rate: 429."""
    BUSY = "busy"
    """Over the connections or the requests in progress: 503."""


@dataclass(frozen=True)
class Decision:
    verdict: Verdict
    retry_after: int = 0
    """Whole seconds to wait (the ``Retry-After`` header), 0 when admitted."""

    @property
    def admitted(self) -> bool:
        return self.verdict is Verdict.OK


ADMITTED = Decision(Verdict.OK)
SWEEP_FROM = 1024
"""Clients known before the first sweep of the idle ones (Admission.sweep)."""
BUSY_WAIT = 2
"""Seconds a client over its connections or requests is told to wait."""


def group(address: str | None) -> str:
    """The client an address belongs to: IPv4 (and IPv4-mapped IPv6) by address,
    IPv6 by /64; anything unreadable (a Unix socket, None) is one group, ``?``."""
    return address_group(address, unreadable="?") if address else "?"


Counter = Literal["connections", "in_flight", "records"]
"""A ``Client``'s counters of what it has open."""


class Client:
    """One group's counters and its token bucket of requests."""

    __slots__ = ("bucket", "connections", "in_flight", "records")

    def __init__(self, bucket: TokenBucket) -> None:
        self.connections = self.in_flight = self.records = 0
        self.bucket = bucket

    @property
    def idle(self) -> bool:
        return not (self.connections or self.in_flight or self.records)


class Admission:
    """The admission state of every client of one web view."""

    def __init__(self, limits: ClientLimits | None = None) -> None:
        self.limits = limits or ClientLimits()
        self.clients: dict[str, Client] = {}
        self._sweep_at = SWEEP_FROM

    def _client(self, key: str, now: float) -> Client:
        client = self.clients.get(key)
        if client is None:
            if len(self.clients) >= self._sweep_at:
                self.sweep(now)
            client = self.clients[key] = Client(TokenBucket.full(self.limits.rate, self.limits.burst, now))
        return client

    def sweep(self, now: float) -> None:
        """Forget the clients with nothing open whose bucket is full again by
        ``now`` (they would start afresh as they are).  Run as the table doubles,
        so its cost is constant per client on average."""
        full = self.limits.burst
        self.clients = {k: c for k, c in self.clients.items() if not c.idle or c.bucket.level_at(now) < full}
        self._sweep_at = max(SWEEP_FROM, 2 * len(self.clients))

    def _forget(self, key: str) -> None:
        # Kept while its bucket is not full again, even with nothing open: a client
        # reconnecting for each request must not start with a full bucket each time.
        client = self.clients.get(key)
        if client is not None and client.idle and client.bucket.level >= self.limits.burst:
            del self.clients[key]

    def _release(self, key: str, counter: Counter) -> None:
        """One of ``key``'s ``counter`` over (never below 0); the client forgotten if
        that leaves it idle with a full bucket (``_forget``)."""
        client = self.clients.get(key)
        if client is not None:
            setattr(client, counter, max(0, getattr(client, counter) - 1))
            self._forget(key)

    # ─── connections ───────────────────────────────────────────────────────────

    def connect(self, key: str, now: float, most: int | None = None) -> Decision:
        """A new connection of ``key``: admitted (counted) or BUSY, over its
        ``connections`` or over ``most`` (a lower cap: the run's programs', gate.py)."""
        client = self._client(key, now)
        cap = self.limits.connections if most is None else min(most, self.limits.connections)
        if client.connections >= cap:
            self._forget(key)
            return Decision(Verdict.BUSY, BUSY_WAIT)
        client.connections += 1
        return ADMITTED

    def disconnect(self, key: str) -> None:
        self._release(key, "connections")

    # ─── requests ──────────────────────────────────────────────────────────────

    def begin(self, key: str, now: float) -> Decision:
        """A request of ``key``: admitted (counted in progress, a token taken),
        RATE when its bucket is empty, BUSY over its requests in progress."""
        client = self._client(key, now)
        limits = self.limits
        client.bucket = client.bucket.take(0.0, now)  # refilled to now
        if client.bucket.level < 1.0:
            self._forget(key)
            return Decision(Verdict.RATE, max(1, math.ceil((1.0 - client.bucket.level) / limits.rate)))
        if client.in_flight >= limits.in_flight:
            self._forget(key)
            return Decision(Verdict.BUSY, BUSY_WAIT)
        client.bucket = client.bucket.take(1.0, now)
        client.in_flight += 1
        return ADMITTED

    def end(self, key: str) -> None:
        self._release(key, "in_flight")

    # ─── the record share ──────────────────────────────────────────────────────

    def begin_record(self, key: str, now: float) -> Decision:
        """A record request of ``key`` (already admitted by ``begin``): RATE when
        it has ``records`` in progress or waiting already.  The caller answers a
        client's admitted record requests one at a time (app.py: a lock per client)."""
        client = self._client(key, now)
        if client.records >= self.limits.records:
            return Decision(Verdict.RATE, 1)
        client.records += 1
        return ADMITTED

    def end_record(self, key: str) -> None:
        self._release(key, "records")
