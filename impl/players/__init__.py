"""Computer players for both games: ``random``, ``search`` and ``perfect`` (an Awari
endgame table where it is trusted, the search elsewhere), played through the client
library by ``base.play``; ``referee player`` runs one (players/cli.py)."""

from __future__ import annotations

from collections.abc import Callable

from .base import Player, play
from .openspiel_player import OpenSpielMCTSPlayer
from .perfect_player import PerfectPlayer
from .random_player import RandomPlayer
from .search_player import SearchPlayer

PLAYERS: dict[str, Callable[..., Player]] = {
    "random": RandomPlayer,
    "search": SearchPlayer,
    "openspiel-mcts": OpenSpielMCTSPlayer,
    "perfect": PerfectPlayer,
}

__all__ = ["PLAYERS", "OpenSpielMCTSPlayer", "PerfectPlayer", "Player", "RandomPlayer", "SearchPlayer", "play"]
