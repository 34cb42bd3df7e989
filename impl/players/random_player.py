"""The random player, the smoke test of any server: a legal move chosen uniformly
(Gothello: among the placements, passing only when there is none), and every
Awari draw offer refused, so that games are played out."""

from __future__ import annotations

import random

from impl.client import Client


class RandomPlayer:
    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, client: Client) -> str:
        moves = client.legal_moves()
        placements = [m for m in moves if m != "pass"]
        return self.rng.choice(placements or list(moves))

    def accept_draw(self, client: Client) -> bool:
        return False
