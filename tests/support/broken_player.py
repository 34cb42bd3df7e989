"""A deliberately broken player, for ``referee compliance`` to catch: it never writes
the second player's ellipses (``1 d4`` for white) and never answers a draw offer.
Usage: python -m tests.support.broken_player GAME HOST PORT SIDE"""

from __future__ import annotations

import socket
import sys

from impl.engines.registry import get_engine


def main(game: str, host: str, port: int, side: str) -> int:
    engine = get_engine(game)
    state = engine.initial()
    plies = 0
    first = side in ("black", "south")
    with socket.create_connection((host, port)) as sock, sock.makefile("rwb") as f:

        def send(line: str) -> None:
            f.write((line + "\r\n").encode("ascii"))
            f.flush()

        def move() -> None:
            token = engine.format_move(engine.legal_moves(state)[0])
            send(f"{plies // 2 + 1} {token}")  # the bug: never "<n> ... <move>"

        f.readline()
        send(f"0.9.1 player {side}")
        while raw := f.readline():
            line = raw.decode("ascii").rstrip("\r\n")
            code = line[:3]
            if code in ("351", "352") and first:
                move()
            elif code.startswith("31"):
                words = line.split()
                token = words[3] if words[2] == "..." else words[2]
                _, state = engine.apply(state, engine.parse_move(token))
                plies += 1
                if (plies % 2 == 0) == first:
                    move()
            elif code in ("291", "299"):
                return 3
            elif code.startswith(("32", "36", "39")) or code in ("327", "328", "329"):
                return 0
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]))
