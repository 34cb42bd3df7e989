"""The terminal client for people: ``referee client GAME`` plays on any referee
server, ``referee play`` (``make play``) against our search player on a server
started here.

It shows the board after every move (Awari: both rows, stores and pit letters, as
impl/engines/notation.render_awari draws them; Gothello: the 5×5 grid with its files and
ranks), the clocks and whose turn it is, and reads the person's moves line by
line.  A malformed or illegal move is refused here, with the reason, before
anything is sent: the client library keeps the position on the fast engine.  The
server's messages are shown as they come, also while the person is typing (the
opponent resigns, a flag falls).
"""

from __future__ import annotations

import argparse
import logging
import os
import select
import signal
import sys
import threading
from contextlib import suppress
from typing import Any, TextIO

from impl import protocol as P
from impl.apps import terminal_view as view
from impl.cli import UsageError, add_rules_argument, check_rules, seconds, subcommand
from impl.client import Client, ClientError, MoveRefused, Result
from impl.config import TIME_HELP, Config, increments, time_control, times
from impl.engines.port import KINDS, GameState, MoveDescription
from impl.players.base import log as player_log
from impl.players.base import play
from impl.players.cli import add_connection_arguments, check_side
from impl.players.search_player import DEFAULT_BUDGET, SearchPlayer
from impl.server.local import LocalServer

# ─── the session ───────────────────────────────────────────────────────────────


class Terminal:
    """A person's game on a seated client: input from ``stdin_fd``, output to ``out``;
    ``wakeup``, if given, is a signal's wake-up pipe (see ``ctrl_c_leaves``)."""

    def __init__(self, client: Client, out: TextIO, stdin_fd: int, wakeup: int | None = None) -> None:
        self.client, self.out, self.fd, self.wakeup = client, out, stdin_fd, wakeup
        self._input = b""
        self._eof = False
        self._prompted = False
        # A terminal's end of input (Ctrl-D) is one keystroke, easily pressed by
        # mistake, and the terminal goes on reading after it: ask first.  A pipe's
        # end is final (nothing more can come), so there it resigns at once.
        self._tty = os.isatty(stdin_fd)
        self._confirming = False
        self._closed = False  # the pipe has ended: no more reading from it
        self._before: GameState = client.state
        """The position before the move the server reports next (the client
        applies a move before it tells us)."""
        client.on_message = self._on_message

    def say(self, *lines: str) -> None:
        if self._prompted:
            self.out.write("\n")
            self._prompted = False
        for line in lines:
            self.out.write(line + "\n")
        self.out.flush()

    def show(self) -> None:
        c = self.client
        self.say("", *view.board_lines(c), view.clock_line(c), view.turn_line(c))

    def _on_message(self, msg: P.Message) -> None:
        """The server's reports, as they are applied to the client's position."""
        c, sides = self.client, self.client.sides
        if isinstance(msg, P.Role) and msg.side is not None:
            first = "moving first" if msg.side == 0 else f"{sides[0]} moves first"
            opponent = c.names[msg.side.other]
            versus = f" against {opponent}" if opponent else ""
            self.say(f"The game starts: you play {sides[msg.side]}{versus}, {first}.")
            if c.greeting.opening:
                self.say(f"The referee plays an opening of {c.greeting.opening} moves first.")
            self.show()
        elif isinstance(msg, P.Moved) and len(c.plies) <= c.greeting.opening:
            note = view.capture_note(c.game, self._described(msg.move))
            self.say(f"opening: {sides[msg.side]} {msg.move}{note}")  # the referee's book move, not the player's
            self.show()
        elif isinstance(msg, P.Moved | P.Ended):
            who = "you" if msg.side == c.side else sides[msg.side]
            note = view.capture_note(c.game, self._described(msg.move))
            self.say(f"{who} played {msg.move}{note}" if who == "you" else f"{who} plays {msg.move}{note}")
            if isinstance(msg, P.Moved):
                self.show()
            else:
                self.say("", *view.board_lines(c))
        elif isinstance(msg, P.Resigned):
            self.say(f"{sides[msg.side]} resigns")
        elif isinstance(msg, P.DrawOffered):
            self.say(f"{sides[msg.side]} offers a draw", view.turn_line(c))
        elif isinstance(msg, P.DrawRefused):
            self.say(f"{sides[msg.side]} refuses the draw", view.turn_line(c))
        elif isinstance(msg, P.FlagFell):
            self.say(f"{sides[msg.side]}'s time has run out")
        elif isinstance(msg, P.Disconnected):
            self.say(f"{sides[msg.side]} has left the game")
        elif isinstance(msg, P.Aborted):
            self.say(f"the referee failed: {msg.text}")
        if c.result is not None and isinstance(msg, P.FINAL):
            self.say(view.result_line(c, c.result))

    def _described(self, token: str) -> MoveDescription:
        """The move the client has just applied, as the engine describes it."""
        c = self.client
        before, self._before = self._before, c.state
        return c.engine.describe(before, c.engine.parse_move(token))

    def run(self) -> Result | None:
        """Play to the end of the game (or of the input); the result."""
        c = self.client
        self.say("Seated; waiting for the game to start.")
        while not (c.started or c.over):
            if not c.has_pending():
                self._ready([c.fileno()])
            c.poll()
        while c.result is None:
            if (c.my_turn or c.must_answer_draw or self._confirming) and not self._prompted:
                self._prompt()
            line = self._next_event()
            if line is not None:
                self._prompted = False
                self._command(line.strip())
            if self._eof and c.result is None:
                self._end_of_input()
        return c.result

    def _prompt(self) -> None:
        c = self.client
        if self._confirming:
            self.out.write("resign? ")
        else:
            left = c.time_left(c.side or 0)
            self.out.write(f"[{view.clock(left)}] " if left is not None else "")
            self.out.write(f"{c.sides[c.side or 0]} {c.serial}> ")
        self.out.flush()
        self._prompted = True

    def _end_of_input(self) -> None:
        """Ctrl-D on a terminal asks whether to resign; the end of a pipe resigns."""
        self._eof = False
        if not self._tty:
            self._closed = True
            self.say("end of input: resigning")
            self.client.resign()
        elif self._confirming:  # a second Ctrl-D at the question: the answer is no
            self._confirming = False
            self.say("not resigning; the game goes on")
        else:
            self._confirming = True
            self.say("end of input (Ctrl-D): resign the game? type yes to resign, anything else to go on")

    def _next_event(self) -> str | None:
        """Wait for the server or the person; a line the person typed, if any."""
        if b"\n" in self._input:
            return self._pop_line()
        if self.client.has_pending():
            self.client.poll()
            return None
        server = self.client.fileno()
        ready = self._ready([server] if self._closed else [server, self.fd])
        if server in ready:
            self.client.poll()
        if self.fd in ready:
            data = os.read(self.fd, 4096)
            self._input += data.replace(b"\r", b"\n")
            if not data:
                self._eof = True
                return self._pop_line() if self._input.strip() else None
            return self._pop_line() if b"\n" in self._input else None
        return None

    def _ready(self, fds: list[int]) -> list[int]:
        """Which of ``fds`` can be read, waiting for one; a signal wakes it too.
        Python runs a signal's handler between bytecodes: Ctrl-C that came just
        before select() blocked would wait for the next message or keystroke, were
        the wake-up pipe (written by the signal itself) not among the fds."""
        ready = select.select(fds if self.wakeup is None else [*fds, self.wakeup], [], [])[0]
        if self.wakeup is not None and self.wakeup in ready:
            with suppress(BlockingIOError):
                os.read(self.wakeup, 512)  # the handler (KeyboardInterrupt) runs on return
        return ready

    def _pop_line(self) -> str:
        line, _, self._input = self._input.partition(b"\n")
        return line.decode("utf-8", "replace")

    def _command(self, text: str) -> None:
        c = self.client
        if self._confirming:
            self._confirming = False
            if text.lower() in ("y", "yes"):
                c.resign()
            else:
                self.say("not resigning; the game goes on")
            return
        if not text:
            return
        if text in ("help", "?"):
            self.say(view.HELP[c.game], view.COMMANDS)
        elif text == "board":
            self.show()
        elif text == "time":
            self.say(view.clock_line(c))
        elif text == "moves":
            self.say("legal moves: " + (" ".join(c.legal_moves()) if c.my_turn else "none (not your turn)"))
        elif text in ("resign", "quit", "exit"):
            c.resign()
        elif text in ("draw?", "draw", "nodraw"):
            self._draw(text)
        else:
            self._move(text)

    def _draw(self, text: str) -> None:
        c = self.client
        if c.game != "awari":
            self.say("Gothello has no draw offers")
        elif text == "draw?" and not c.my_turn:
            self.say("you may offer a draw only on your turn")
        elif text == "draw?" and c.offer_refused:
            self.say("your offer was refused: offer again after the next move")
        elif text != "draw?" and not c.must_answer_draw:
            self.say("there is no draw offer to answer")
        else:
            self._send(lambda: c.offer_draw() if text == "draw?" else c.answer_draw(text == "draw"))

    def _move(self, token: str) -> None:
        c = self.client
        if c.must_answer_draw:
            self.say(view.turn_line(c))
        elif not c.my_turn:
            self.say(f"not your turn: {view.turn_line(c)}")
        else:
            reason = view.why_illegal(c, token)
            if reason is not None:
                self.say(reason + " (moves: legal moves, help: help)")
            else:
                self._send(lambda: c.move(token))

    def _send(self, request: Any) -> None:
        try:
            request()
        except MoveRefused as exc:  # our check and the server disagree: show the server's word
            self.say(f"the server refused it: {exc.code} {exc.text}")


def human_game(
    client: Client, side: str, name: str, out: TextIO = sys.stdout, fd: int | None = None, wakeup: int | None = None
) -> int:
    """Seat ``client`` for a person and play; the exit status."""
    terminal = Terminal(client, out, sys.stdin.fileno() if fd is None else fd, wakeup)
    client.seat(side, name)
    terminal.run()
    return 0


# ─── referee client / referee play ─────────────────────────────────────────────


def add_command(subparsers: Any) -> None:
    p = subcommand(subparsers, "client", run_client)
    p.add_argument("game", choices=["awari", "gothello"])
    add_connection_arguments(p)
    add_rules_argument(p, None)
    q = subcommand(subparsers, "play", run_play)
    q.add_argument("--game", choices=["awari", "gothello"], default="gothello", help="default gothello")
    q.add_argument("--side", help="your side: south/north, black/white or ? (default: you move first)")
    q.add_argument("--budget", type=seconds, default=DEFAULT_BUDGET, help="search: seconds per move (default 1)")
    q.add_argument("--time", type=time_control, nargs="+", metavar="SECS[+INC]", help=TIME_HELP)
    q.add_argument("--name", default="you", help="your name (default you)")
    q.add_argument("--search-log", metavar="FILE", help="write the search player's log (depth, nodes/s) to FILE")
    q.add_argument("--engine", choices=KINDS, default="impl", help="the local server's rules engine (default impl)")
    add_rules_argument(q)


def ctrl_c_leaves() -> int:
    """Ctrl-C raises KeyboardInterrupt, which leaves the game, even when this process
    was started with SIGINT ignored (a shell's background job passes that on, and
    Python then installs no handler of its own).  The read end of the signals'
    wake-up pipe (``signal.set_wakeup_fd``), for the terminal's select(); main
    thread only."""
    signal.signal(signal.SIGINT, signal.default_int_handler)
    read, write = os.pipe()
    for fd in (read, write):
        os.set_blocking(fd, False)
    signal.set_wakeup_fd(write, warn_on_full_buffer=False)
    return read


def run_client(args: argparse.Namespace) -> int:
    """play a game in the terminal on a referee server

    Play Awari or Gothello in the terminal against whoever else connects to the server.
    """
    check_side("referee client", args.game, args.side)
    check_rules("referee client", args.game, args.rules)
    wakeup = ctrl_c_leaves()
    try:
        with Client.connect(args.game, args.host, args.server, args.port, rules=args.rules) as client:
            return human_game(client, args.side, args.name or "", wakeup=wakeup)
    except ClientError as exc:
        print(f"referee client: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("\nreferee client: interrupted; leaving a game in progress loses it (disconnect)", file=sys.stderr)
        return 130


def _search_opponent(game: str, port: int, side: str, budget: float) -> threading.Thread:
    """The search player on its own connection, in a thread."""

    def main() -> None:
        try:
            with Client.connect(game, port=port) as client:
                client.seat(side, "search")
                play(client, SearchPlayer(budget))
        except ClientError as exc:
            player_log.error("%s", exc)

    thread = threading.Thread(target=main, name="search-player", daemon=True)
    thread.start()
    return thread


def run_play(args: argparse.Namespace) -> int:
    """play the search player in the terminal (make play)

    Start a referee server here and play our search player on it in the terminal.
    """
    sides = P.VOCABULARIES[args.game].sides
    side = args.side or sides[0]
    if side not in (*sides, "?"):
        raise UsageError(f"referee play: {args.game} sides are {sides[0]}, {sides[1]} or ?")
    check_rules("referee play", args.game, args.rules)
    wakeup = ctrl_c_leaves()
    handler: logging.Handler = logging.FileHandler(args.search_log) if args.search_log else logging.NullHandler()
    handler.setFormatter(logging.Formatter("%(message)s"))
    player_log.handlers[:] = [handler]
    player_log.setLevel(logging.INFO)
    player_log.propagate = False
    clocks, increment = times(args.time, "referee play"), increments(args.time)
    opponent = "?" if side == "?" else sides[1 - sides.index(side)]
    try:
        with LocalServer(
            Config.local(args.game, time=clocks, increment=increment, engine=args.engine, rules=args.rules)
        ) as server:
            print(f"{args.game} server on 127.0.0.1:{server.port}; the search player thinks {args.budget:g} s a move.")
            print(view.HELP[args.game] + "; help for more.")
            thread = _search_opponent(args.game, server.port, opponent, args.budget)
            with Client.connect(args.game, port=server.port) as client:
                status = human_game(client, side, args.name, wakeup=wakeup)
            thread.join(5.0)
            return status
    except ClientError as exc:
        print(f"referee play: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
