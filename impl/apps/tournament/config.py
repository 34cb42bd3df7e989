"""What makes a tournament (``TournamentConfig``): its players and their labels, the game and its terms,
the openings; and the run's one failure that stops it (``RecordFailed``)."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from impl.apps.games import GameTerms
from impl.engines.openings import Opening

ROUND_ROBIN, GAUNTLET = "round-robin", "gauntlet"


CONFIG = "tournament.json"


class RecordFailed(Exception):
    """A game's record could not be written (a full disk, …): the tournament stops."""


@dataclass(frozen=True)
class TournamentConfig(GameTerms):
    """What makes a tournament: a records directory holds the games of one.  The
    terms of its games (clocks, timeout, engine, rules) are keywords (``GameTerms``)."""

    players: tuple[str, ...]
    """The player specs as given."""
    game: str
    games: int
    """Games per pairing."""
    mode: str = ROUND_ROBIN
    event: str = "referee tournament"
    openings: tuple[Opening, ...] = ()
    """The openings the referee plays first, in the order used (impl/engines/openings.py)."""
    repeat: bool = False
    """Each opening twice, colours reversed (``--repeat``); else one game each."""

    @property
    def labels(self) -> list[str]:
        """The players' names in tables and records: their labels or specs, made distinct."""
        seen: Counter[str] = Counter()
        out = []
        for text in self.players:
            name = split_label(text)[0]
            seen[name] += 1
            out.append(name if seen[name] == 1 else f"{name} ({seen[name]})")
        return out

    @property
    def specs(self) -> list[str]:
        return [split_label(text)[1] for text in self.players]


LABEL = re.compile(r"([^\s=]+)=(\S.*)", re.DOTALL)


def split_label(text: str) -> tuple[str, str]:
    """``LABEL=SPEC`` names a player ``LABEL`` (a word before the first ``=``);
    otherwise its spec is its name."""
    match = LABEL.fullmatch(text)
    return (match[1], match[2]) if match else (text, text)
