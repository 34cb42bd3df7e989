"""What a computer player is, and the loop that plays one through the client
library (impl/client/): wait for our turn, choose, move; answer draw offers."""

from __future__ import annotations

import logging
from typing import Protocol

from impl.client import Client, MoveRefused, Result

log = logging.getLogger("referee.player")


class Player(Protocol):
    """A computer player: chooses moves (in the server's notation) for a client
    whose turn it is, and answers the opponent's Awari draw offers."""

    name: str

    def choose(self, client: Client) -> str: ...

    def accept_draw(self, client: Client) -> bool: ...


def play(client: Client, player: Player) -> Result:
    """Play a seated client's game to its end with ``player``; the result."""
    client.wait()
    while client.result is None:
        if client.must_answer_draw:
            client.answer_draw(player.accept_draw(client))
        else:
            move(client, player.choose(client))
        client.wait()
    return client.result


def move(client: Client, choice: str) -> None:
    """Play ``choice``; if the server refuses it (291/299: its rules and ours
    disagree, or it refuses a move to test us), another legal move, each at most
    once, as the papers let a refused player try again (``referee compliance``)."""
    refused: set[str] = set()
    while True:
        try:
            client.move(choice)
            return
        except MoveRefused as exc:
            log.warning("move %s refused: %s", choice, exc)
            refused.add(choice)
            others = [m for m in client.legal_moves() if m not in refused]
            if not others:
                raise
            choice = others[0]


def move_budget(client: Client, default: float) -> float:
    """Seconds to think about this move.  Without time controls, ``default``.
    With them, a share of our clock (1/20 of it in Awari, one per placement we may
    still make in Gothello), at most ``default``, and always leaving a margin."""
    assert client.side is not None
    left = client.time_left(client.side)
    if left is None:
        return default
    moves = 20 if client.game == "awari" else max(2, (25 - sum(client.counts())) // 2)  # Gothello: blanks / 2
    return max(0.01, min(default, left / moves, left - 1.0))
