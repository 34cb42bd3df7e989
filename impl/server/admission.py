"""Admission of connections: who gets a place on a server, pure (the times are
passed in) so that each rule is testable alone; GameServer (server.py) is the glue.

The rules (docs/server.md, "Stopping, and bounds on every client"; docs/protocol.md
§2, the 199 lines):

* Connections are counted by **address group**, not by address: IPv6 by its /64
  (one host is given a whole /64), IPv4 by a prefix of ``NetLimits.ipv4_group`` bits
  (default /32), an IPv4-mapped IPv6 address as the IPv4 address it maps.  One group
  holds at most ``per_address`` connections.
* A **reserve**: connections without a player's seat (not yet seated, observers) never
  take the last ``NetLimits.reserve`` places, which only a player's connection holds.
* **Eviction**: a newcomer finding no place closes the oldest connection without a
  player's seat of the group holding the most connections (199), unless that group
  would not then hold more than the newcomer's: a few groups cannot lock a server.
  A seated player is never evicted.
* **Storms**: each group's tries draw on a token bucket (``accept_rate`` a second
  past ``accept_burst``), whether admitted or refused for want of room; beyond it a
  newcomer is refused at once (199), before the rules above are weighed.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache

from .net import TokenBucket


@lru_cache(maxsize=4096)  # pure, and asked at every connection: a reconnecting client is parsed once
def address_group(host: str, ipv4_bits: int = 32, ipv6_bits: int = 64, unreadable: str | None = None) -> str:
    """The group ``host`` is counted in: its network at the prefix length for its
    family, as ``address/bits`` (the address itself at /32 or /128).  A host that is
    no IP address (a Unix socket's ``?``) is its own group, or ``unreadable``'s."""
    try:
        address = ipaddress.ip_address(host.split("%", 1)[0])  # a scope id (fe80::1%eth0) is no part of it
    except ValueError:
        return host if unreadable is None else unreadable
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    bits = ipv4_bits if isinstance(address, ipaddress.IPv4Address) else ipv6_bits
    if bits >= address.max_prefixlen:
        return str(address)
    return str(ipaddress.ip_network((address, max(0, bits)), strict=False))


@dataclass(frozen=True)
class Holder:
    """One open connection as admission sees it."""

    group: str
    joined: float
    """When it was admitted: the oldest goes first."""
    player: bool
    """It holds a player's seat (never evicted)."""
    observer: bool = False
    """It observes (evicted after the unseated ones of its group)."""


class Verdict(Enum):
    ADMIT = "admit"
    EVICT = "evict"
    """Admit, once the ``Decision.evict`` connection is closed."""
    FULL = "server_full"
    GROUP_FULL = "address_full"
    STORM = "connection_rate"


@dataclass(frozen=True)
class Decision:
    verdict: Verdict
    evict: int | None = None
    """The index, in the holders given, of the connection to close."""


@dataclass(frozen=True)
class Room:
    """The numbers admission works with (from NetLimits)."""

    limit: int
    """``max_connections``."""
    per_group: int
    """``per_address``, at most ``limit - 1``, players' connections counted."""
    reserve: int
    """Places only players' connections take."""

    @classmethod
    def of(cls, limit: int, per_address: int, reserve: int) -> Room:
        reserve = max(0, min(reserve, limit - 1))
        return cls(limit, max(1, min(per_address, limit - 1)), reserve)

    @property
    def unseated(self) -> int:
        """Places for connections without a player's seat."""
        return self.limit - self.reserve


def decide(room: Room, holders: Sequence[Holder], group: str) -> Decision:
    """Whether a newcomer of ``group`` is admitted, given the connections open
    (``holders``); the storm bucket is checked before (``StormGuard``)."""
    counts: dict[str, int] = {}
    for holder in holders:
        counts[holder.group] = counts.get(holder.group, 0) + 1
    own = counts.get(group, 0)
    unseated = sum(not h.player for h in holders)
    if len(holders) < room.limit and unseated < room.unseated:
        return Decision(Verdict.GROUP_FULL if own >= room.per_group else Verdict.ADMIT)
    victim = None if own >= room.per_group else _victim(holders, counts, own)
    return Decision(Verdict.FULL) if victim is None else Decision(Verdict.EVICT, victim)


def _victim(holders: Sequence[Holder], counts: Mapping[str, int], own: int) -> int | None:
    """The oldest connection without a player's seat (unseated before observers) of
    the biggest group that has one, if that group holds at least two more than the
    newcomer's (one more would only swap the two groups' places, back and forth)."""
    evictable = {h.group for h in holders if not h.player}
    if not evictable:
        return None
    biggest = max(evictable, key=lambda g: (counts[g], g))
    if counts[biggest] < own + 2:
        return None
    candidates = (i for i, h in enumerate(holders) if h.group == biggest and not h.player)
    return min(candidates, key=lambda i: (holders[i].observer, holders[i].joined, i))


class StormGuard:
    """A token bucket of connection tries per group: a group reconnecting faster
    than ``rate`` a second past ``burst`` is refused at once.  Buckets refilled to the
    full are forgotten once more than ``keep`` groups are remembered."""

    def __init__(self, rate: float, burst: float, keep: int = 4096) -> None:
        self.rate, self.burst, self._keep = rate, burst, keep
        self._buckets: dict[str, TokenBucket] = {}

    def allows(self, group: str, now: float) -> bool:
        """Whether ``group`` may have one more connection now (not yet taken)."""
        if self.rate <= 0:
            return True
        bucket = self._buckets.get(group)
        return bucket is None or bucket.level_at(now) >= 1.0

    def take(self, group: str, now: float) -> None:
        """One try of ``group`` weighed (admitted or refused for room)."""
        if self.rate <= 0:
            return
        bucket = self._buckets.get(group) or TokenBucket.full(self.rate, self.burst, now)
        self._buckets[group] = bucket.take(1.0, now)
        if len(self._buckets) > self._keep:
            self._forget(now)

    def _forget(self, now: float) -> None:
        full = [g for g, b in self._buckets.items() if b.level_at(now) >= b.burst]
        for group in full:
            del self._buckets[group]

    def groups(self) -> Iterable[str]:
        return self._buckets.keys()
