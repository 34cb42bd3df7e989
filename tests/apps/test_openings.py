"""Openings the referee plays (issue #29, impl/engines/openings.py): reading and drawing
them, the server playing one before the first request (over real sockets), the
client library and our programs following it, the records marking it, and a
tournament playing each opening twice with colours reversed."""

from __future__ import annotations

import random
import socket
import subprocess
import time
from collections import defaultdict
from pathlib import Path

import pytest

from impl import cli, pgn
from impl import protocol as P
from impl.apps import replay
from impl.apps.games import play_game
from impl.apps.terms import MatchOptions, PlayerSpec
from impl.apps.tournament import TournamentConfig, from_record, schedule
from impl.engines import openings
from impl.engines.port import GameEngine
from impl.engines.registry import get_engine
from impl.game import Outcome, Side, Termination
from impl.server.session import Session, Settings
from tests.support.clientkit import connect, players, server
from tests.support.terminal import Pty, referee, refused

GOTHELLO, AWARI = get_engine("gothello"), get_engine("awari")
OPENING = ("c3", "d4", "b2")


# ─── impl/engines/openings.py ──────────────────────────────────────────────────────────


def test_an_openings_file_with_comments_blank_lines_and_move_numbers(tmp_path: Path) -> None:
    path = tmp_path / "book.txt"
    path.write_text("# Gothello exercises\n\nc3 d4   # the centre\n1 c3 1 ... d4 2 b2\n1. a1 pass\n")
    assert openings.read_openings(GOTHELLO, path) == (("c3", "d4"), OPENING, ("a1", "pass"))
    assert openings.parse_opening(AWARI, "1 F 1 ... a") == ("F", "a")


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("c3 c3", "move 2 c3: c3 is occupied"),
        ("c3 z9", "no such move 'z9'"),
        ("pass pass", "move 2 pass ends the game"),
        ("2 c3", "move number 2 before ply 1"),
        ("... c3", "'...' before a move of the first player (ply 1)"),
    ],
)
def test_a_bad_opening_is_named_by_file_and_line(tmp_path: Path, line: str, reason: str) -> None:
    path = tmp_path / "book.txt"
    path.write_text(f"c3\n# a comment\n{line}\n")
    with pytest.raises(openings.OpeningError) as caught:
        openings.read_openings(GOTHELLO, path)
    assert str(caught.value) == f"{path}:3: {reason}"


def test_a_file_without_openings_or_unreadable_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "empty.txt").write_text("# nothing\n\n")
    with pytest.raises(openings.OpeningError, match="no openings in the file"):
        openings.read_openings(GOTHELLO, tmp_path / "empty.txt")
    with pytest.raises(openings.OpeningError, match=r"missing\.txt: "):
        openings.read_openings(GOTHELLO, tmp_path / "missing.txt")


@pytest.mark.parametrize("engine", [AWARI, GOTHELLO], ids=["awari", "gothello"])
def test_random_openings_are_distinct_legal_open_and_seeded(engine: GameEngine) -> None:
    drawn = openings.random_openings(engine, 30, 6, seed=7)
    assert len(drawn) == len(set(drawn)) == 30
    for opening in drawn:
        assert len(opening) == 6
        moves, state = openings.play(engine, opening)  # every move legal, the game not over
        assert moves == opening and openings.playable(engine, state)
    assert openings.random_openings(engine, 30, 6, seed=7) == drawn
    assert openings.random_openings(engine, 30, 6, seed=8) != drawn


def test_a_position_whose_every_move_ends_the_game_is_not_playable() -> None:
    _, after_pass = openings.play(GOTHELLO, ("pass",))
    assert openings.playable(GOTHELLO, after_pass)  # white may pass (ending it) or play on
    ended = GOTHELLO.apply(after_pass, GOTHELLO.parse_move("pass"))[1]
    assert not openings.playable(GOTHELLO, ended)


def test_more_random_openings_than_there_are_is_an_error() -> None:
    with pytest.raises(openings.OpeningError, match="found only 26 distinct openings of 1 plies, not 27"):
        openings.random_openings(GOTHELLO, 27, 1, seed=1)  # 25 squares and pass


def test_openings_in_file_order_or_shuffled_by_the_seed() -> None:
    book = tuple((square,) for square in ("a1", "b2", "c3", "d4", "e5", "a5"))
    assert openings.ordered(book, "sequential", 1) == book
    shuffled = openings.ordered(book, "random", 1)
    assert sorted(shuffled) == sorted(book) and shuffled != book
    assert openings.ordered(book, "random", 1) == shuffled


# ─── the server plays it ───────────────────────────────────────────────────────


def _lines(sock: socket.socket, count: int) -> list[str]:
    """The next ``count`` lines from a raw connection."""
    data = b""
    deadline = time.monotonic() + 10
    while data.count(b"\r\n") < count and time.monotonic() < deadline:
        sock.settimeout(max(0.01, deadline - time.monotonic()))
        data += sock.recv(65536)
    return data.decode("ascii").split("\r\n")[:count]


def test_the_server_sends_the_openings_status_lines_before_the_first_request() -> None:
    moves = [
        "311 1 c3 is black move, game continues",
        "312 1 ... d4 is white move, game continues",
        "311 2 b2 is black move, game continues",
    ]
    with server("gothello", opening=OPENING) as local:
        socks = [socket.create_connection(("127.0.0.1", local.port)) for _ in range(3)]
        observer, black, white = socks
        try:
            for sock in socks:
                assert _lines(sock, 1) == ["000 0.9.1 version Gothello server says hello! Opening: 3"]
            observer.sendall(b"0.9.1 observer\r\n")
            black.sendall(b"0.9.1 player black\r\n")
            assert _lines(observer, 1) == ["100 Request accepted"]
            assert _lines(black, 1) == ["100 Request accepted"]
            white.sendall(b"0.9.1 player white\r\n")
            assert _lines(white, 5) == ["100 Request accepted", "351 You will play white", *moves]
            assert _lines(black, 4) == ["352 You will play black", *moves]
            seen = _lines(observer, 5 + 7 + 3 * 8)  # config, role, display; then each move with its display
            assert seen[12] == moves[0] and seen[20] == moves[1] and seen[28] == moves[2]
            assert seen[29:36] == ["380 2 w", "382 5 board lines follow", ".....", "...w.", "..b..", ".b...", "....."]
            white.sendall(b"2 ... a1\r\n")  # the serials continue after the opening
            assert _lines(white, 2) == [
                "200 Move a1 accepted, continue playing",
                "312 2 ... a1 is white move, game continues",
            ]
        finally:
            for sock in socks:
                sock.close()


def test_clients_follow_the_opening_play_to_the_end_and_the_record_marks_it(tmp_path: Path) -> None:
    with server("gothello", opening=OPENING, time=(300.0, 300.0), record_dir=tmp_path) as local:
        watcher = connect("gothello", local.port)
        watcher.observe("w")
        black, white = players("gothello", local.port)
        white.wait()  # white moves first after the opening
        assert white.my_turn and white.plies == list(OPENING) and white.serial == 2
        assert "b2" not in white.legal_moves() and "a1" in white.legal_moves()
        assert not black.my_turn
        rng = random.Random(3)
        while not white.over:
            mover = white if white.my_turn else black
            mover.move(rng.choice(mover.legal_moves()))
            (black if mover is white else white).wait()
        black.wait()
        watcher.wait()
        assert watcher.plies == white.plies and watcher.plies[:3] == list(OPENING)
        assert watcher.result == white.result == black.result
        assert local.wait(10)
    (path,) = tmp_path.glob("*.pgn")
    text = path.read_text()
    assert '[Opening "c3 d4 b2"]' in text and f'[PlyCount "{len(white.plies)}"]' in text
    assert "1... c3 {book} {[%clk 0:05:00.0]} 2. d4 {book} {[%clk 0:05:00.0]} b2 {book}" in text
    assert text.count("{book}") == 3
    record = pgn.parse(text)
    assert record.moves == white.plies
    frames = list(replay.frames(record))  # referee replay / show replay the whole game
    assert len(frames) == len(white.plies) + 1


def test_without_an_opening_the_greeting_and_records_are_unchanged(tmp_path: Path) -> None:
    with server("gothello", record_dir=tmp_path) as local:
        sock = socket.create_connection(("127.0.0.1", local.port))
        with sock:
            assert _lines(sock, 1) == ["000 0.9.1 version Gothello server says hello!"]
        black, white = players("gothello", local.port)
        black.resign()
        white.wait()
        assert local.wait(10)
    text = next(tmp_path.glob("*.pgn")).read_text()
    assert "Opening" not in text and "{book}" not in text


def test_our_player_programs_play_from_an_opening() -> None:
    specs = (PlayerSpec.parse("random --seed 1"), PlayerSpec.parse("random --seed 2"))
    outcome = play_game(specs, 1, MatchOptions("awari", 1, timeout=120), 0, opening=("F", "a", "E"))
    assert not outcome.error and outcome.result is not None
    record = pgn.parse(outcome.record)
    assert record.tag("Opening") == "F a E" and record.moves[:3] == ["F", "a", "E"]
    assert record.names == (specs[0].label, specs[1].label)


def test_watch_shows_the_position_after_the_opening() -> None:
    with server("gothello", opening=OPENING) as local:
        black, white = players("gothello", local.port, ("ann", "bob"))
        white.wait()
        watcher = Pty(referee("watch", "gothello", "--port", str(local.port), "--no-colour"))
        try:
            watcher.expect("Gothello: ann (black) vs bob (white), move 2")
            board = watcher.expect("white to move")
            assert "4  . . . w .  4" in board and "3  . . b . .  3" in board and "2  . b . . .  2" in board
            white.move("a1")
            black.wait()
            watcher.expect("last move a1")
        finally:
            watcher.kill()
            black.close()
            white.close()


def _serve(*args: str) -> subprocess.CompletedProcess[str]:
    # With ``all`` there is no --port (one game only): the opening is refused before listening.
    where = () if args[0] == "all" else ("--port", "0", "--host", "127.0.0.1")
    return subprocess.run(referee("serve", *args, *where), capture_output=True, text=True, timeout=60, check=False)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("gothello", "--opening", "c3 c3"), "referee serve: --opening: move 2 c3: c3 is occupied"),
        (("awari", "--opening", "a"), "referee serve: --opening: move 1 a: "),
        (("all", "--opening", "c3"), "referee serve: --opening needs a single game"),
    ],
)
def test_serve_refuses_a_bad_opening_in_one_line(args: tuple[str, ...], message: str) -> None:
    assert refused(_serve(*args)).startswith(message)


# ─── tournaments ───────────────────────────────────────────────────────────────


def test_repeat_schedules_each_opening_as_a_pair_with_colours_reversed() -> None:
    book = (("c3",), ("d4",))
    config = TournamentConfig(("a", "b", "c"), "gothello", 6, openings=book, repeat=True)
    tasks = schedule(config)
    for pairing in range(3):
        games = tasks[6 * pairing : 6 * pairing + 6]
        assert [t.opening for t in games] == [("c3",), ("c3",), ("d4",), ("d4",), ("c3",), ("c3",)]
        for one, two in zip(games[::2], games[1::2], strict=True):
            assert one.players == two.players[::-1]
    once = schedule(TournamentConfig(("a", "b"), "gothello", 3, openings=book, repeat=False))
    assert [t.opening for t in once] == [("c3",), ("d4",), ("c3",)]
    assert all(t.opening == () for t in schedule(TournamentConfig(("a", "b"), "gothello", 2)))


def test_deterministic_players_from_random_openings_play_no_identical_games(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a, b = "search --depth 1 --budget 30", "search --depth 2 --budget 30"
    argv = ["tournament", f"A={a}", f"B={b}", "--game", "gothello", "--games", "8", "--random-openings", "4"]
    argv += ["--seed", "5", "--records", str(tmp_path), "--jobs", "2", "--quiet"]
    assert cli.main(argv) == 0
    records = [pgn.parse(p.read_text()) for p in sorted(tmp_path.glob("game-*.pgn"))]
    assert len(records) == 8
    assert len({tuple(r.moves) for r in records}) == 8  # no two games alike
    by_opening: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for record in records:
        opening = record.tag("Opening").split()
        assert len(opening) == 4 and record.moves[:4] == opening and record.tag("PlyCount") == str(len(record.moves))
        by_opening[record.tag("Opening")].append(record.names)
    assert len(by_opening) == 4
    assert all(sorted(names) == [("A", "B"), ("B", "A")] for names in by_opening.values())


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (("--games", "3", "--random-openings", "2"), "--games must be even, not 3"),
        (("--repeat",), "--repeat needs --openings or --random-openings"),
        (("--openings", "BOOK"), "BOOK:2: move 2 pass ends the game"),
    ],
)
def test_tournament_opening_options_are_checked_in_one_line(
    tmp_path: Path, extra: tuple[str, ...], message: str
) -> None:
    book = tmp_path / "book.txt"
    book.write_text("c3\npass pass\n")
    extra = tuple(str(book) if word == "BOOK" else word for word in extra)
    message = message.replace("BOOK", str(book))
    argv = referee("tournament", "random", "random", "--game", "gothello", *extra, "--records", str(tmp_path / "r"))
    done = subprocess.run(argv, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2 and len(done.stderr.splitlines()) == 1 and message in done.stderr
    assert not (tmp_path / "r").exists()


def test_the_terminal_client_prompts_after_the_opening() -> None:
    with server("gothello", opening=("c3", "d4")) as local:
        argv = referee("client", "gothello", "--port", str(local.port), "--side", "black")
        person = Pty(argv)
        white = connect("gothello", local.port)
        try:
            person.expect("waiting for the game to start")
            white.seat("white", "bot")
            white.wait_started()
            person.expect("The referee plays an opening of 2 moves first.")
            person.expect("opening: black c3")
            board = person.expect("black 2> ")
            assert "opening: white d4" in board and "you played" not in board
            assert " 4  . . . w .  4" in board and " 3  . . b . .  3" in board
            person.type("b2")
            person.expect("you played b2")
            white.wait()
            assert white.plies == ["c3", "d4", "b2"] and white.my_turn
        finally:
            person.kill()
            white.close()


def test_a_session_refuses_an_invalid_opening() -> None:
    with pytest.raises(openings.OpeningError, match="move 2 c3: c3 is occupied"):
        Session(Settings(P.GOTHELLO), GOTHELLO, rng=random.Random(1), now=0.0, opening=("c3", "c3"))


def test_a_recorded_game_counts_as_done_only_from_its_own_opening() -> None:
    config = TournamentConfig(("a", "b"), "gothello", 2, openings=(("c3",), ("d4",)), repeat=False)
    first, _ = schedule(config)
    tags = [("Round", "1.1"), ("Black", "a"), ("White", "b"), ("Game", "gothello"), ("Opening", "c3")]
    record = pgn.build("gothello", tags, ["c3", "a1"], None, Outcome(Side.SECOND, Termination.RESIGNATION))
    text = pgn.write(record.with_tags(Result=record.result))
    assert "1... c3 {book} 2. a1 1-0" in text  # white won: White's score first
    done = from_record(first, text)
    assert done is not None and done.score == 0.0
    assert from_record(first, text.replace('[Opening "c3"]', '[Opening "d4"]')) is None


def test_a_match_plays_each_opening_with_colours_reversed(tmp_path: Path) -> None:
    book = tmp_path / "book.txt"
    book.write_text("1 F 1 ... a\n")
    argv = referee("match", "random --seed 1", "random --seed 2", "--game", "awari", "--games", "2", "--jobs", "2")
    argv += ["--openings", str(book), "--records", str(tmp_path / "records"), "--quiet"]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    records = [pgn.parse(p.read_text()) for p in sorted((tmp_path / "records").glob("game-*.pgn"))]
    assert [r.tag("Opening") for r in records] == ["F a", "F a"]
    a, b = "random --seed 1", "random --seed 2"
    assert [r.names for r in records] == [(a, b), (b, a)]
    assert all(r.moves[:2] == ["F", "a"] for r in records)


def test_a_file_of_more_openings_than_the_limit_is_refused_at_the_first_too_many(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(openings, "MAX_OPENINGS", 2)
    path = tmp_path / "book.txt"
    path.write_text("c3\n# a comment\nd4\n\nb2\n")
    with pytest.raises(openings.OpeningError) as caught:
        openings.read_openings(GOTHELLO, path)
    assert str(caught.value) == f"{path}:5: more than 2 openings"


def test_the_digest_is_of_the_openings_in_order() -> None:
    """What a run file keeps: the same for a list read back from JSON as for tuples."""
    assert openings.digest([("c3", "d4"), ("b2",)]) == openings.digest([["c3", "d4"], ["b2"]])
    assert openings.digest([("c3", "d4"), ("b2",)]) != openings.digest([("b2",), ("c3", "d4")])
    assert openings.digest([("c3", "d4")]) != openings.digest([("c3",), ("d4",)])
