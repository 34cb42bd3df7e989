"""What an arena is (``ArenaConfig``, built by impl/apps/arena/command.py) and the
web view as the arena feeds it (``WebFeed``)."""

from __future__ import annotations

import ssl
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from impl.config import DEFAULTS, Limits, NetLimits
from impl.server.session import Session, Settings


@dataclass(frozen=True)
class ArenaConfig:
    """What an arena is: its game and rules (the engine), where it listens, its
    database, its rounds and its limits (docs/arena.md)."""

    game: str
    db: str
    host: str = DEFAULTS.host
    port: int | None = None
    """None: the game's port for server 0 (29046 / 29068)."""
    record_dir: Path | None = None
    round_every: float = 30.0
    """Seconds between rounds."""
    time: float | None = None
    """Seconds each side has (no time controls: None)."""
    increment: float = 0.0
    guests: bool = True
    """Take players without a login (unrated games)."""
    per_player: int = 1
    """Connections one name may hold at once (each plays one game)."""
    daily: int = 0
    """Games one name may start in 24 hours (0: no cap)."""
    new_names: int = 30
    """New names one address group may create in ``NEW_NAMES_WINDOW`` seconds (a class
    behind one NAT address is one group)."""
    anchors: tuple[str, ...] = ("random",)
    """The arena's own players: ``random`` or ``search:SECS``."""
    anchor_rating: float = 0.0
    """The first anchor's pinned rating: the scale's zero point."""
    opening_plies: int = 0
    """Random openings of this many plies (0: none)."""
    check_protocol: bool = True
    """Check what each game's session sends against the protocol's model."""
    delay: float = 60.0
    """Seconds the web view shows a game's moves late (the broadcast delay)."""
    tls: ssl.SSLContext | None = None
    """The second port's TLS (``tls_port``): the same arena, encrypted."""
    tls_port: int | None = None
    limits: Limits = DEFAULTS.limits
    net: NetLimits = DEFAULTS.net
    seed: int | None = None


class WebFeed(Protocol):
    """The web view as the arena feeds it (impl/web/arena.py ``ArenaLink``)."""

    def table_hook(self, session: Session, number: int) -> None: ...

    def standings(self, data: dict[str, Any]) -> None: ...


def settings_lines(cfg: ArenaConfig, settings: Settings, rule_set: str) -> list[str]:
    """The arena's settings, as the web page and the command's start say them."""
    t = settings.time
    inc = settings.increment[0]
    clock = "no clocks" if t is None else f"{t[0]:g} s each" + (f" + {inc:g} s a move" if inc else "")
    anchors = ", ".join(cfg.anchors) or "none"
    return [
        f"{settings.vocab.title}, rules {rule_set}; {clock}",
        f"a round every {cfg.round_every:g} s; anchors: {anchors}",
        f"guests {'play unrated games' if cfg.guests else 'refused'}; "
        f"{cfg.per_player} connection{'s' if cfg.per_player > 1 else ''} a name at most"
        + (f", {cfg.daily} games a day" if cfg.daily else ""),
        f"games in progress shown {cfg.delay:g} s late",
    ]
