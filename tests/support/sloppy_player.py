"""A raw-socket player with one mistake a student could make, for ``referee
compliance`` and ``--strict`` to catch.  Without a BUG it speaks the protocol
right: serials and ellipses, ``nodraw`` to a draw offer, another move after a
``291``, an exit after the final status.  BUG is one of

    seat-twice    sends its seat request again once seated (refused: 299)
    stale-serial  numbers every move 1 (refused: 299, it gives up)
    no-exit       stays connected and running after the final status
    crash         fails before it connects (a traceback on stderr, exit status 1)

and two that are no bug: ``cr-lines`` ends each line with CR alone, as gthd's Python
client library does (its text file's ``newline="\r"`` turns ``\r\n`` into ``\r\r``);
``slow`` thinks 0.3 s before each move, as a real program does.

Usage: python -m tests.support.sloppy_player GAME HOST PORT SIDE [BUG]"""

from __future__ import annotations

import socket
import sys
import time

from impl.engines.registry import get_engine

BUGS = ("seat-twice", "stale-serial", "no-exit", "crash")


def main(game: str, host: str, port: int, side: str, bug: str = "") -> int:
    if bug == "crash":
        raise RuntimeError("the player's own bug, before it connects")
    ending = "\r\r" if bug == "cr-lines" else "\r\n"
    engine = get_engine(game)
    state = engine.initial()
    plies, tried = 0, 0
    first = side in ("black", "south")
    with socket.create_connection((host, port)) as sock, sock.makefile("rwb") as f:

        def send(line: str) -> None:
            f.write((line + ending).encode("ascii"))
            f.flush()

        def move() -> None:
            if bug == "slow":
                time.sleep(0.3)
            moves = engine.legal_moves(state)
            token = engine.format_move(moves[tried % len(moves)])
            serial = 1 if bug == "stale-serial" else plies // 2 + 1
            send(f"{serial} {token}" if first else f"{serial} ... {token}")

        f.readline()
        send(f"0.9.1 player {side}")
        while raw := f.readline():
            line = raw.decode("ascii").rstrip("\r\n")
            code = line[:3]
            if code in ("100", "101") and bug == "seat-twice":
                send(f"0.9.1 player {side}")
            elif code in ("351", "352") and first:
                move()
            elif code in ("331", "332"):
                send("nodraw")  # the opponent's offer: this player makes none
            elif code.startswith("31"):
                words = line.split()
                token = words[3] if words[2] == "..." else words[2]
                _, state = engine.apply(state, engine.parse_move(token))
                plies, tried = plies + 1, 0
                if (plies % 2 == 0) == first:
                    move()
            elif line.startswith("291 Illegal move"):
                tried += 1
                move()
            elif code == "299" and bug != "seat-twice":
                return 3
            elif code.startswith(("32", "36", "39")):
                if bug == "no-exit":
                    time.sleep(3600)
                return 0
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], *sys.argv[5:6]))
