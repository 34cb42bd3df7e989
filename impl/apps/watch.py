"""``referee watch GAME --server N`` (or ``--port P``): a live game on the terminal,
for showing it to a class.  It connects as an observer (docs/protocol.md §3,
``0.9.1 observer``), and draws the server's display (§9) after every move: the
board with the last move and its captures marked, the clocks, and the result.
It may join a game under way (the server sends the current display); with
``--forever`` it follows game after game, connecting again after each.

The watcher keeps no position of its own: the server's display is the authority,
and a late observer cannot know the moves before it joined.  Lines are parsed
by impl/protocol.py."""

from __future__ import annotations

import argparse
import socket
import sys
import time
from typing import Any, TextIO

from impl import protocol as W
from impl.apps import boardview
from impl.cli import UsageError, count, port, subcommand

CLEAR = "\x1b[H\x1b[2J"


class Watcher:
    """One game's observer connection, drawing to ``out``."""

    def __init__(self, game: str, sock: socket.socket, out: TextIO, colour: bool) -> None:
        self.game, self.vocab, self.out, self.colour = game, W.VOCABULARIES[game], out, colour
        self.sock, self.reader = sock, sock.makefile("r", encoding="ascii", errors="replace", newline="\n")
        self.names = ["", ""]
        self.board: list[str] | None = None
        self.last_move: str | None = None
        self.status = ""
        self.result = ""
        self.display: W.DisplayStatus | None = None

    def line(self) -> str | None:
        text = self.reader.readline()
        return text.rstrip("\r\n") if text else None

    def run(self, name: str) -> str:
        """Observe until the server closes the game; the result, or why none."""
        greeting = self.line()
        if greeting is None or not isinstance(_parse(greeting), W.Greeting):
            return "no greeting: not a referee server"
        self.sock.sendall((W.SeatRequest(W.Seat.OBSERVER, name).to_line(self.vocab) + "\r\n").encode("ascii"))
        while (text := self.line()) is not None:
            msg = _parse(text)
            if isinstance(msg, W.Refused):
                return f"refused: {text}"
            self.follow(msg, text)
        return self.result or "the connection closed"

    def follow(self, msg: W.Message | None, text: str) -> None:
        if isinstance(msg, W.PlayerName):
            self.names[msg.side] = msg.name
        elif isinstance(msg, W.Moved | W.Ended):
            self.last_move = msg.move
            self.status = text
        elif isinstance(msg, W.DisplayStatus):
            self.display = msg
        elif isinstance(msg, W.BoardFollows):
            lines = [self.line() or "" for _ in range(msg.lines)]
            self.draw(lines)
            self.board = lines
            self.last_move = None
        elif isinstance(msg, W.FINAL):
            self.result = text
        elif msg is not None and not isinstance(msg, W.Seated | W.ObserverName | W.ObserverCount | W.Role):
            self.status = text

    def draw(self, lines: list[str]) -> None:
        game, sides = self.game, self.vocab.sides
        mark = boardview.marks(game, self.board, lines, self.last_move)
        out = [CLEAR] if self.colour else []
        who = " vs ".join(f"{n or '?'} ({s})" for n, s in zip(self.names, sides, strict=True))
        d = self.display
        head = f"{self.vocab.title}: {who}"
        if d is not None:
            head += f", move {d.serial}"
        out.append(head)
        out += boardview.view(game, lines, mark, self.colour)
        if d is not None and d.times is not None:
            marker = ["", ""]
            if d.to_move is not None:
                marker[d.to_move] = " *"
            out.append(
                "clocks: " + "  ".join(f"{sides[i]} {boardview.clock(t)}{marker[i]}" for i, t in enumerate(d.times))
            )
        if self.result:
            out.append(f"result: {self.result}")
        elif d is not None and d.to_move is not None and game == "gothello":
            out.append(f"{sides[d.to_move]} to move")
        self.out.write("\n".join(out) + "\n")
        self.out.flush()


def _parse(text: str) -> W.Message | None:
    try:
        return W.parse(text)
    except W.ProtocolError:
        return None


def watch(
    game: str, host: str, port_number: int, out: TextIO, forever: bool, name: str, colour: bool, retry: float = 1.0
) -> int:
    """Watch one game (or, ``forever``, game after game); the exit status."""
    waiting = False
    while True:
        try:
            sock = socket.create_connection((host, port_number), timeout=10.0)
        except OSError as exc:
            if not forever:
                print(f"referee watch: cannot connect to {host}:{port_number}: {exc.strerror or exc}", file=sys.stderr)
                return 1
            if not waiting:
                out.write(f"waiting for the {game} server at {host}:{port_number} …\n")
                out.flush()
                waiting = True
            time.sleep(retry)
            continue
        waiting = False
        sock.settimeout(None)  # a game may wait long for its players
        with sock:
            watcher = Watcher(game, sock, out, colour)
            why = watcher.run(name)
        if not watcher.result:
            out.write(f"({why})\n")
        out.write("\n")
        out.flush()
        if not forever:
            return 0 if watcher.result else 1
        time.sleep(retry / 4)  # the server starts the next game's session as it closes this one


def add_command(subparsers: Any) -> None:
    p = subcommand(subparsers, "watch", run)
    p.add_argument("game", choices=["awari", "gothello"])
    p.add_argument("--host", default="127.0.0.1", help="the server's address (default 127.0.0.1)")
    p.add_argument("--server", type=count, default=0, metavar="N", help="server number: port 29046+N / 29068+N")
    p.add_argument("--port", type=port, help="the port, instead of the server number")
    p.add_argument("--forever", action="store_true", help="follow game after game (the server's --forever)")
    p.add_argument("--name", default="watch", help="the observer's name (default watch)")
    p.add_argument("--no-colour", "--no-color", dest="colour", action="store_false", help="no ANSI colour")


def run(args: argparse.Namespace) -> int:
    """watch a live game in the terminal, as an observer

    Connect to a referee server as an observer and draw the game after every move:
    board, last move and captures, clocks, result.  Joins a game under way; --forever
    follows game after game.
    """
    number = args.port if args.port is not None else W.port_of(args.game, args.server)
    if not 0 < number <= 65535:
        raise UsageError(f"referee watch: --server {args.server}: no such port ({number})")
    try:
        W.quote_name(args.name)
    except ValueError as exc:
        raise UsageError(f"referee watch: --name: {exc}") from None
    colour = args.colour and sys.stdout.isatty()
    try:
        return watch(args.game, args.host, number, sys.stdout, args.forever, args.name, colour)
    except KeyboardInterrupt:
        return 130
