"""The terminal client for people (impl/apps/terminal.py), driven through a pseudo-
terminal as a person would type: ``referee client`` against a scripted opponent
on our server, and ``referee play`` (what ``make play`` runs) against the search
player on the server it starts itself."""

from __future__ import annotations

import contextlib
import io
import os
import re
import signal
import subprocess
import threading
from collections.abc import Iterator

import pytest

from impl.apps.terminal import Terminal
from impl.client import Client, Result
from impl.game import Side, Termination
from tests.support.clientkit import connect, server
from tests.support.terminal import TIMEOUT, Pty, referee


@contextlib.contextmanager
def black_at_the_terminal(*options: str, sigint_ignored: bool = False) -> Iterator[tuple[Pty, Client]]:
    """``referee client gothello`` as black on a pseudo-terminal, against a scripted
    white seated as ``bot``; the game started."""
    with server("gothello") as local:
        argv = referee("client", "gothello", "--port", str(local.port), "--side", "black", *options)
        person = Pty(argv, sigint_ignored)
        try:
            person.expect("waiting for the game to start")
            white = connect("gothello", local.port)
            white.seat("white", "bot")
            white.wait_started()
            yield person, white
        finally:
            person.kill()


def black_resigned(person: Pty, white: Client, stones: str) -> None:
    """The person's resignation, as the terminal and the opponent see it."""
    person.expect(f"game over: white wins by resignation (stones {stones}): you lose")
    assert person.finish() == 0
    white.wait()
    assert white.result == Result(Side.SECOND, Termination.RESIGNATION)


def test_gothello_in_the_terminal_against_a_scripted_opponent() -> None:
    with black_at_the_terminal("--name", "ann") as (person, white):
        person.expect("you play black, moving first")  # no names: Gothello players get no 341/342
        board = person.expect("black 1> ")
        assert "    a b c d e\n 5  . . . . .  5\n" in board and "no time controls" in board
        person.type("zz")
        person.expect("'zz' is not a move: a square places a stone: a1-e5")
        person.type("c3")
        person.expect("you played c3")
        assert " 3  . . b . .  3" in person.expect("white to move; waiting")
        white.wait()
        white.move("a2")
        person.expect("white plays a2")
        person.expect("your move (black, move 2)")
        person.type("c3")
        person.expect("c3 is occupied")
        person.type("c4")
        person.expect("you played c4")
        white.wait()
        white.move("b1")
        person.expect("black 3> ")
        person.type("a1")
        person.expect("a1 is illegal: the new stone's group would have no liberty")
        person.type("draw?")
        person.expect("Gothello has no draw offers")
        person.type("moves")
        assert "a1" not in person.expect("\n", 5).split()  # the rest of the line follows
        person.type("resign")
        black_resigned(person, white, "2-2")


def test_ctrl_d_at_a_terminal_asks_before_resigning() -> None:
    """Ctrl-D asks; anything but yes (another Ctrl-D too) goes on; yes resigns."""
    with black_at_the_terminal() as (person, white):
        person.expect("black 1> ")
        person.end_of_input()
        person.expect("end of input (Ctrl-D): resign the game? type yes to resign, anything else to go on")
        person.expect("resign? ")
        person.type("no")
        person.expect("not resigning; the game goes on")
        person.expect("black 1> ")
        person.end_of_input()
        person.expect("resign? ")
        person.end_of_input()
        person.expect("not resigning; the game goes on")
        person.type("c3")
        person.expect("you played c3")  # the game went on: the move was played
        white.wait()
        white.move("a2")
        person.expect("black 2> ")
        person.end_of_input()
        person.expect("resign? ")
        person.type("yes")
        black_resigned(person, white, "1-1")


@pytest.mark.parametrize("sigint_ignored", [False, True], ids=["started-normally", "started-with-SIGINT-ignored"])
def test_ctrl_c_says_that_leaving_loses_the_game(sigint_ignored: bool) -> None:
    """Ctrl-C (SIGINT, as the terminal sends it) leaves: the client says what that
    means and exits 130; the opponent wins by disconnection.  Also when the client
    was started with SIGINT ignored, as a shell's background job is."""
    with black_at_the_terminal(sigint_ignored=sigint_ignored) as (person, white):
        person.expect("black 1> ")
        person.proc.send_signal(signal.SIGINT)
        person.expect("referee client: interrupted; leaving a game in progress loses it (disconnect)")
        assert person.finish() == 130
        while not white.over:
            white.next_message()
        assert white.result == Result(Side.SECOND, Termination.DISCONNECT)


def test_ctrl_c_while_waiting_for_the_opponent_leaves() -> None:
    with server("gothello") as local:
        argv = referee("client", "gothello", "--port", str(local.port), "--side", "black")
        person = Pty(argv)
        try:
            person.expect("waiting for the game to start")
            person.proc.send_signal(signal.SIGINT)
            person.expect("referee client: interrupted; leaving a game in progress loses it (disconnect)")
            assert person.finish() == 130
        finally:
            person.kill()


def test_a_signal_wakes_the_terminal_from_its_wait() -> None:
    """Python runs a signal's handler between bytecodes, so a Ctrl-C that comes just
    before select() blocks would wait for the next message or keystroke (seen once in
    CI in test_ctrl_c_says_that_leaving_loses_the_game, and here in about one run in
    sixty of this file under load).  The terminal waits on the signals'
    wake-up pipe too: what the signal writes there ends the wait at once."""
    keys, typed = os.pipe()
    wakeup, signalled = os.pipe()
    os.set_blocking(wakeup, False)
    with server("gothello") as local, connect("gothello", local.port) as client:
        terminal = Terminal(client, io.StringIO(), keys, wakeup)
        ready: list[list[int]] = []
        waiting = threading.Thread(target=lambda: ready.append(terminal._ready([client.fileno(), keys])))
        waiting.start()
        os.write(signalled, bytes([signal.SIGINT]))  # as the C-level handler does
        waiting.join(TIMEOUT)
        if waiting.is_alive():
            os.write(typed, b"\n")  # let the thread go before failing
            waiting.join()
        assert ready == [[wakeup]]
        with pytest.raises(BlockingIOError):  # and the pipe is drained for the next wait
            os.read(wakeup, 1)
    for fd in (keys, typed, wakeup, signalled):
        os.close(fd)


def test_end_of_piped_input_resigns_at_once() -> None:
    """Input from a pipe: its end is final, so the client resigns without asking."""
    with server("gothello") as local:
        argv = referee("client", "gothello", "--port", str(local.port), "--side", "black")
        person = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        try:
            white = connect("gothello", local.port)
            white.seat("white", "bot")
            white.wait_started()
            out, _ = person.communicate("c3\n", timeout=TIMEOUT)
            assert person.returncode == 0
            assert "you played c3" in out and "end of input: resigning" in out
            assert "game over: white wins by resignation" in out and "resign?" not in out
            while not white.over:  # white is to move: read on to the resignation
                white.next_message()
            assert white.result == Result(Side.SECOND, Termination.RESIGNATION)
        finally:
            if person.poll() is None:
                person.kill()
                person.wait()


def test_make_play_awari_against_the_search_player() -> None:
    """``referee play``: its own server, the search player, clocks in the display."""
    person = Pty(referee("play", "--game", "awari", "--side", "south", "--budget", "0.02", "--time", "120"))
    try:
        person.expect("you play south against search, moving first")
        shown = person.expect("south 1> ")
        assert "       A   B   C   D   E   F        south to move" in shown
        assert re.search(r"clocks: south [12]:\d\d, north 2:00\n.*\n\[[12]:\d\d\] south 1> $", shown), shown
        person.type("a")
        person.expect("a is north's pit: yours are A-F")
        person.type("C")
        person.expect("you played C")
        person.expect("north plays ")
        person.expect("south 2> ")
        person.type("nodraw")
        person.expect("there is no draw offer to answer")
        person.type("quit")
        person.expect("game over: north wins by resignation")
        assert person.finish() == 0
    finally:
        person.kill()
