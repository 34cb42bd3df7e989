"""A random player held by files, for tests of views of games in progress:
``python tests/support/gated_player.py GAME HOST PORT SIDE GATES [FREE]`` claims the next
game number N (creating ``GATES/seat-N``), plays its first FREE moves (default
0) at once, and each later one only once the file ``GATES/go-N`` exists."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

from impl.client import Client
from impl.players import PLAYERS
from impl.players.base import play


def claim(gates: Path) -> int:
    n = 1
    while True:
        try:
            os.close(os.open(gates / f"seat-{n}", os.O_CREAT | os.O_EXCL | os.O_WRONLY))
            return n
        except FileExistsError:
            n += 1


HANG_GUARD = 600.0
"""Seconds a move waits for its gate before the player gives up (a hang guard)."""


class Gated:
    name = "gated"

    def __init__(self, gate: Path, free: int) -> None:
        self.gate, self.free = gate, free
        self.inner = PLAYERS["random"](7)

    def choose(self, client: Client) -> str:
        if self.free > 0:
            self.free -= 1
        else:
            deadline = time.monotonic() + HANG_GUARD
            while not self.gate.exists():
                if time.monotonic() > deadline:  # its test is gone: never outlive it for long
                    raise SystemExit(f"no {self.gate} within {HANG_GUARD:g} s")
                time.sleep(0.02)
        return self.inner.choose(client)

    def accept_draw(self, client: Client) -> bool:
        return self.inner.accept_draw(client)


def main(argv: list[str]) -> None:
    game, host, port, side, where = argv[:5]
    gates = Path(where)
    player = Gated(gates / f"go-{claim(gates)}", int(argv[5]) if len(argv) > 5 else 0)
    with Client.connect(game, host, port=int(port)) as client:
        client.seat(side, "gated")
        play(client, player)


if __name__ == "__main__":
    main(sys.argv[1:])
