"""``referee watch GAME --server N`` (or ``--port P``): a live game on the terminal,
for showing it to a class.  It connects as an observer (docs/protocol.md §3,
``0.9.1 observer``), and draws the server's display (§9) after every move: the
board with the last move and its captures marked, the clocks, and the result.
It may join a game under way (the server sends the current display); with
``--forever`` it follows game after game, connecting again after each.

The watcher reads the game through the client's follower (impl/client/follower.py),
and draws whenever a board has come.  What it draws is the server's display, the
authority: a late observer cannot know the moves before it joined."""

from __future__ import annotations

import argparse
import socket
import sys
import time
from typing import Any, TextIO

from impl import protocol as P
from impl.apps import boardview
from impl.cli import UsageError, count, port, subcommand
from impl.client.errors import ProtocolError
from impl.client.follower import Follower, View

CLEAR = "\x1b[H\x1b[2J"


class Watcher:
    """One game's observer connection, drawing to ``out``."""

    def __init__(self, game: str, sock: socket.socket, out: TextIO, colour: bool) -> None:
        self.game, self.vocab, self.out, self.colour = game, P.VOCABULARIES[game], out, colour
        self.sock, self.reader = sock, sock.makefile("r", encoding="ascii", errors="replace", newline="\n")
        self.follower = Follower(game)
        self.board: list[str] | None = None
        """The board drawn last: the next one's marks are what changed from it."""
        self._drawn = (0, 0)
        """The boards and the plies seen when we last drew."""

    @property
    def result(self) -> str:
        """The final status line, once it has come."""
        return self.follower.view.final

    def line(self) -> str | None:
        text = self.reader.readline()
        return text.rstrip("\r\n") if text else None

    def run(self, name: str) -> str:
        """Observe until the server closes the game; the result, or why none."""
        greeting = self.line()
        try:
            self.follower.feed(greeting or "")
        except ProtocolError:
            return "no greeting: not a referee server"
        request = self.follower.seat(P.SeatRequest(P.Seat.OBSERVER, name))
        self.sock.sendall((request + "\r\n").encode("ascii"))
        while (text := self.line()) is not None:
            try:
                view = self.follower.feed(text)
            except ProtocolError as exc:
                return str(exc)
            if view.refused is not None:
                return f"refused: {text}"
            if view.boards > self._drawn[0]:
                self.draw(view)
        return self.result or "the connection closed"

    def draw(self, view: View) -> None:
        """The board that has just come, marked with the move reported since the last."""
        game, sides, lines = self.game, self.vocab.sides, list(view.board)
        last_move = view.plies[-1] if len(view.plies) > self._drawn[1] else None
        mark = boardview.marks(game, self.board, lines, last_move)
        self.board, self._drawn = lines, (view.boards, len(view.plies))
        out = [CLEAR] if self.colour else []
        who = " vs ".join(f"{n or '?'} ({s})" for n, s in zip(view.names, sides, strict=True))
        d = view.display
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
    number = args.port if args.port is not None else P.port_of(args.game, args.server)
    if not 0 < number <= 65535:
        raise UsageError(f"referee watch: --server {args.server}: no such port ({number})")
    try:
        P.quote_name(args.name)
    except ValueError as exc:
        raise UsageError(f"referee watch: --name: {exc}") from None
    colour = args.colour and sys.stdout.isatty()
    try:
        return watch(args.game, args.host, number, sys.stdout, args.forever, args.name, colour)
    except KeyboardInterrupt:
        return 130
