"""The process's file descriptors, shared out so that no cap can starve a record.

At start a serving process raises its soft ``RLIMIT_NOFILE`` to the hard limit
(``raise_limit``); ``budget`` then shares the limit among the game servers'
connections and the web view's connections (``web_share``: none for ``referee
serve``, whose web view is a process of its own), keeping ``RESERVE`` descriptors
that no connection may take: the record files, the log, the listing threads and
the player programs of a tournament always find one (issue "A referee nothing
can make unfair": a record was lost to EMFILE at a soft limit of 1024).
"""

from __future__ import annotations

import resource
from dataclasses import dataclass

RESERVE = 64
"""Descriptors no connection may take: record writes, listings, logs, pipes."""
CEILING = 1 << 16
"""Never ask for more than this, even where the hard limit is unlimited."""


@dataclass(frozen=True)
class Budget:
    limit: int
    """The process's soft limit the budget was drawn from."""
    game: int
    """Connections all game servers of the process may hold together."""
    web: int
    """Connections the web view may hold (pages, API calls and live viewers)."""


def raise_limit() -> int:
    """Raise the soft limit to the hard one (at most ``CEILING``); the new soft limit.

    A limit the system refuses to raise is kept as it is: the caps are then
    sized to it rather than assumed.
    """
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = CEILING if hard == resource.RLIM_INFINITY else min(hard, CEILING)
    if soft != resource.RLIM_INFINITY and soft < want:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
            soft = want
        except (ValueError, OSError):
            pass
    return CEILING if soft == resource.RLIM_INFINITY else int(soft)


def budget(limit: int | None = None, web_share: float = 0.5) -> Budget:
    """The connection caps for a process whose soft limit is ``limit`` (the
    current one by default): ``RESERVE`` kept back, the rest split between the
    game servers and the web view by ``web_share``."""
    if limit is None:
        soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
        limit = CEILING if soft == resource.RLIM_INFINITY else int(soft)
    usable = max(limit - RESERVE, 2)
    web = max(int(usable * web_share), 1) if web_share > 0 else 0
    return Budget(limit=limit, game=max(usable - web, 1), web=web)
