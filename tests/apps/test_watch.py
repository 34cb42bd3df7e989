"""``referee watch`` (impl/apps/watch.py) over a pseudo-terminal against a live
server: it joins a game under way, draws the board after every move with the
last move and its captures, the clocks and the result, and with ``--forever``
follows the next game; and its board marks (impl/apps/boardview.py)."""

from __future__ import annotations

import random
import re

from impl.apps import boardview
from impl.engines.registry import get_engine
from tests.support.clientkit import players, server
from tests.support.terminal import Pty, referee


def test_watch_joins_late_follows_moves_and_the_next_game() -> None:
    with server("gothello", forever=True, time=(300.0, 300.0)) as local:
        black, white = players("gothello", local.port, ("ann", "bob"))
        black.move("c3")  # before the watcher joins
        white.wait()
        watcher = Pty(referee("watch", "gothello", "--port", str(local.port), "--forever"))
        try:
            watcher.expect("Gothello: ann (black) vs bob (white), move 1")
            board = watcher.expect("white to move")
            # both clocks under the 5:00 given (each may have ticked: the test does not hold
            # the server's clock), the side to move marked
            assert re.search(r"clocks: black (5:00|4:[0-5]\d)  white (5:00|4:[0-5]\d) \*", board), board
            white.move("d4")
            black.wait()
            seen = watcher.expect("last move d4")
            assert " 4  . . . \x1b[7mw\x1b[0m .  4" in seen  # the new stone, in reverse video
            black.resign()
            white.wait()
            watcher.expect("result: 328 White wins by resignation")
            # --forever: the next game, from its start.
            black, white = players("gothello", local.port, ("carl", "dee"))
            watcher.expect("Gothello: carl (black) vs dee (white), move 1")
            black.move("b2")
            white.wait()
            watcher.expect("last move b2")
        finally:
            watcher.kill()
            for client in (black, white):
                client.close()


def test_watch_one_game_ends_with_its_result_and_status_0() -> None:
    with server("awari") as local:
        south, north = players("awari", local.port)
        watcher = Pty(referee("watch", "awari", "--port", str(local.port), "--no-colour"))
        try:
            watcher.expect("south to move")
            south.move("F")
            north.wait()
            seen = watcher.expect("last move F")
            assert "north to move" in seen and "\x1b[" not in seen  # --no-colour: plain text
            north.resign()
            south.wait()
            watcher.expect("South wins by resignation")
            assert watcher.finish() == 0
        finally:
            watcher.kill()
            south.close()
            north.close()


def test_watch_without_a_server_says_so() -> None:
    watcher = Pty(referee("watch", "awari", "--port", "1"))
    try:
        watcher.expect("referee watch: cannot connect to 127.0.0.1:1")
        assert watcher.finish() == 1
    finally:
        watcher.kill()


def test_awari_captures_are_found_from_the_boards() -> None:
    """Over random games, a move is marked with captured pits exactly when it
    brings stones to its store, and those pits are the opponent's, empty after."""
    engine = get_engine("awari", "impl")
    rng = random.Random(11)
    captures = 0
    for _ in range(5):
        state = engine.initial()
        while not engine.is_over(state):
            action = rng.choice(engine.legal_moves(state))
            move, before = engine.format_move(action), engine.render(state)
            _, state = engine.apply(state, action)
            if engine.is_over(state):
                break  # the last move may also sweep the board into a store
            after = engine.render(state)
            mark = boardview.marks("awari", before, after, move)
            store = "south" if move.isupper() else "north"
            gained = boardview.awari_pits(after)[store] - boardview.awari_pits(before)[store]
            assert bool(mark.captured) == (gained > 0), (move, before, after)
            assert all(p.isupper() != move.isupper() and boardview.awari_pits(after)[p] == 0 for p in mark.captured)
            captures += bool(mark.captured)
    assert captures > 0


def test_gothello_marks_the_stone_and_what_it_changed() -> None:
    before = [".....", ".....", ".b...", ".....", "....."]
    after = [".....", ".....", ".bw..", ".....", "....."]
    assert boardview.gothello_marks(before, after, "c3") == boardview.Marks("c3", ())
    view = boardview.view("gothello", after, boardview.Marks("c3", ("b3",)), colour=False)
    assert view[-1] == "last move c3, captured b3" and view[3] == " 3  . b w . .  3"
