"""Game records in the PGN shape (impl/pgn.py): written from random legal games
and read back unchanged (hypothesis), names of any script and length included;
the Olympiad notation of Awari moves; malformed records refused with a reason;
PGN's result convention as python-chess reads it, and the records of earlier
versions (tests/data/records-v1) still read right."""

from __future__ import annotations

import io
import random
from typing import Any

import chess.pgn
import pytest
from hypothesis import given
from hypothesis import strategies as st

from impl import pgn
from impl.engines.port import GAMES, winner
from impl.engines.registry import get_engine
from impl.game import PAPER_RULES, Outcome, Side, Termination
from impl.protocol import VOCABULARIES, TimeControl
from impl.server import records
from tests.support import paths
from tests.support.plies import plies

ABORTED = Outcome(None, Termination.ERROR)


def random_game(game: str, seed: int, length: int) -> list[str]:
    engine = get_engine(game, "impl")
    rng, state = random.Random(seed), engine.initial()
    moves: list[str] = []
    while len(moves) < length and not engine.is_over(state):
        action = rng.choice(engine.legal_moves(state))
        moves.append(engine.format_move(action))
        _, state = engine.apply(state, action)
    return moves


names = st.text(st.characters(exclude_categories=("Cc", "Cs", "Zl", "Zp")), max_size=80)
"""Any name a tag value can hold on its line: any script, quotes, backslashes."""


@given(
    game=st.sampled_from(GAMES),
    seed=st.integers(0, 2**32),
    length=st.integers(0, 120),
    timed=st.booleans(),
    winner=st.sampled_from([Side.FIRST, Side.SECOND, None]),
    termination=st.sampled_from(list(Termination)),
    players=st.tuples(names, names),
)
def test_a_record_reads_back_as_written(
    game: str,
    seed: int,
    length: int,
    timed: bool,
    winner: Side | None,
    termination: Termination,
    players: tuple[str, str],
) -> None:
    moves = random_game(game, seed, length)
    rng = random.Random(seed)
    clocks = [round(rng.uniform(0, 9000), 1) for _ in moves] if timed else None
    colours, papers = pgn.player_tags(game, players)
    tags = [("Event", "test"), *colours, *papers, ("Game", game), ("Termination", termination.value)]
    tags += [("TimeControl", "300" if timed else "-")]
    record = pgn.record(game, tags, plies(game, moves, clocks), Outcome(winner, termination))
    text = pgn.write(record)
    back = pgn.parse(text)
    assert back == record == pgn.parse(text.encode())
    assert back.moves == moves and back.names == players
    assert [p.clock for p in back.plies] == (clocks if clocks is not None else [None] * len(moves))
    assert back.outcome.termination is termination
    assert back.outcome.winner == (None if termination.aborted else winner)
    assert pgn.write(back) == text and all(len(line) <= pgn.LINE for line in text.splitlines()[len(tags) :])


def test_awari_moves_are_written_in_the_olympiad_notation() -> None:
    """Pit, stones sown, and ``x`` with the stones captured (1994 Olympiad notation)."""
    # F sows e f a b… : 1. F4 puts a stone in a–d; 1... a5 then E5, b6 … until a capture.
    written = pgn.write(pgn.record("awari", [("Game", "awari")], plies("awari", ["F", "a"]), ABORTED))
    assert written.endswith("\n\n1. F4 a5 *\n\n")
    moves = random_game("awari", 7, 200)
    sans = [p.san for p in plies("awari", moves)]
    assert any("x" in san for san in sans)
    for move, san in zip(moves, sans, strict=True):
        assert san[0] == move and san[1:].split("x")[0].isdigit()


def test_a_record_is_written_without_an_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    """The movetext is the plies' as the game's events described them: writing a
    record replays nothing (only ``parse`` checks the moves with an engine)."""

    def no_engine(*_: object) -> None:
        raise AssertionError("the writer asked for an engine")

    monkeypatch.setattr(pgn, "get_engine", no_engine)
    record = server_text("awari", ("sam", "nora"), "north wins", ["F", "a"])
    assert "1. F4 a5 0-1" in record
    with pytest.raises(AssertionError, match="asked for an engine"):
        pgn.parse(record)


def server_text(game: str, names: tuple[str, str], result: str, moves: list[str], **more: Any) -> str:
    """The text of a record as the server makes one (impl/server/records.py), of ``moves``."""
    sides = VOCABULARIES[game].sides
    clocks = more.pop("clocks", None)
    termination = more.pop("termination", Termination.MOVE)
    winner = next((Side(i) for i, s in enumerate(sides) if result == f"{s} wins"), None)
    fields: dict[str, Any] = {"time": None, "score": "-", "rules": PAPER_RULES}
    made = plies(game, moves, clocks)
    made_record = records.server_record(
        game, 2, 5, "impl", 0.0, 60.0, sides, names, outcome=Outcome(winner, termination), plies=made, **fields | more
    )
    return pgn.write(made_record)


def test_a_server_record_carries_the_tags_and_clocks() -> None:
    text = server_text(
        "gothello",
        ("ann", 'b"o"b'),
        "white wins",
        ["c3", "d4"],
        time=(300.0, 200.0),
        termination=Termination.TIME,
        clocks=(299.0, 3599.95),
    )
    assert '[White "b\\"o\\"b"]' in text and '[Rules "massey"]' in text and "[TimeControl" not in text
    assert '[WhiteTimeControl "200"]\n[BlackTimeControl "300"]' in text  # cutechess's tags: black moved first
    assert "1... c3 {[%clk 0:04:59.0]} 2. d4 {[%clk 1:00:00.0]} 1-0" in text  # Black moved first; White won
    assert '[Outcome "white wins"]' in text and '[ResultConvention "PGN"]' in text
    game = pgn.parse(text)
    assert game.time == (300.0, 200.0) and game.outcome == Outcome(Side.SECOND, Termination.TIME)
    assert game.tag("Round") == "5" and game.tag("Date") == "1970.01.01"


def test_increments_are_written_as_pgn_writes_them_and_read_back() -> None:
    """``TimeControl "300+2"`` when both sides share it (PGN's form); per-side
    controls in ``WhiteTimeControl``/``BlackTimeControl``; older ``300:200`` read."""
    shared = server_text("awari", ("s", "n"), "draw", ["F"], time=(300.0, 300.0), increment=(2.0, 2.0))
    assert '[TimeControl "300+2"]' in shared
    game = pgn.parse(shared)
    assert game.time == (300.0, 300.0) and game.increment == (2.0, 2.0)
    apart = server_text("awari", ("s", "n"), "draw", ["F"], time=(60.0, 300.0), increment=(1.0, 0.0))
    text = apart
    assert '[WhiteTimeControl "60+1"]\n[BlackTimeControl "300"]' in text  # south is White
    game = pgn.parse(text)
    assert game.controls == (TimeControl(60.0, 1.0), TimeControl(300.0)) and game.increment == (1.0, 0.0)
    older = pgn.parse(text.replace('[WhiteTimeControl "60+1"]\n[BlackTimeControl "300"]', '[TimeControl "60:300"]'))
    assert older.time == (60.0, 300.0) and older.increment == (0.0, 0.0)


def test_awari_records_name_south_white_and_keep_the_papers_tags() -> None:
    text = server_text("awari", ("sam", "nora"), "north wins", ["F", "a"])
    lines = text.splitlines()
    assert lines[4:7] == ['[White "sam"]', '[Black "nora"]', '[Result "0-1"]']  # PGN's Seven Tag Roster order
    assert lines[7:9] == ['[South "sam"]', '[North "nora"]'] and '[Outcome "north wins"]' in lines
    game = pgn.parse(text)
    assert game.names == ("sam", "nora") and game.outcome.winner is Side.SECOND
    renamed = game.with_names("Jörg", "名人")
    assert (renamed.tag("White"), renamed.tag("South"), renamed.tag("Black"), renamed.tag("North")) == (
        "Jörg",
        "Jörg",
        "名人",
        "名人",
    )
    assert pgn.parse(pgn.write(renamed)).names == ("Jörg", "名人")


@pytest.mark.parametrize(
    "name",
    ["Jörg", "名人 Meijin", "x" * 200, 'a "quoted" \\ back\\slash\\', "  spaced  ", "\\", '"', "émoji 🎲", ""],
)
def test_a_name_of_any_script_and_length_reads_back_identical(name: str) -> None:
    for game in GAMES:
        text = server_text(game, (name, name[::-1]), "draw", [])
        assert pgn.parse(text.encode()).names == (name, name[::-1])


def played(game: str, want: Side | None) -> tuple[list[str], tuple[int, int]]:
    """The moves of a random game played to its end by the engine with ``want``
    winning (None: a draw), and its final counts."""
    engine = get_engine(game, "impl")
    for seed in range(500):
        rng, state, moves = random.Random(seed), engine.initial(), []
        while not engine.is_over(state):
            action = rng.choice(engine.legal_moves(state))
            moves.append(engine.format_move(action))
            result, state = engine.apply(state, action)
        if moves and winner(engine, result) == want:
            return moves, engine.counts(state)
    raise AssertionError(f"no {game} game with winner {want} in 500 seeds")


OUTCOMES = [(game, want) for game in GAMES for want in (Side.FIRST, Side.SECOND, None)]


@pytest.fixture(scope="module")
def real_records() -> dict[tuple[str, Side | None], str]:
    """A record of a real game (played by the engine to its end) for each game and
    each outcome: first mover wins, second mover wins, draw."""
    out = {}
    for game, want in OUTCOMES:
        moves, counts = played(game, want)
        sides = VOCABULARIES[game].sides
        result = Outcome(want, Termination.MOVE).result(sides)
        score = f"{sides[0]} {counts[0]} {sides[1]} {counts[1]}"
        out[game, want] = server_text(game, (f"{sides[0]}-player", f"{sides[1]}-player"), result, moves, score=score)
    return out


@pytest.mark.parametrize(("game", "want"), OUTCOMES)
def test_python_chess_credits_the_player_the_referee_did(
    game: str, want: Side | None, real_records: dict[tuple[str, Side | None], str]
) -> None:
    """PGN's convention (White's score first), as rating tools read it: Awari's
    south is White, Gothello's black is Black."""
    text = real_records[game, want]
    headers = chess.pgn.read_headers(io.StringIO(text))
    assert headers is not None
    first, second = VOCABULARIES[game].sides
    white, black = (first, second) if game == "awari" else (second, first)
    assert (headers["White"], headers["Black"]) == (f"{white}-player", f"{black}-player")
    expected = {None: "1/2-1/2", Side.FIRST: f"{first} wins", Side.SECOND: f"{second} wins"}[want]
    by_pgn = {"1-0": f"{white} wins", "0-1": f"{black} wins", "1/2-1/2": "1/2-1/2"}[headers["Result"]]
    assert by_pgn == expected
    assert pgn.parse(text).outcome == Outcome(want, Termination.MOVE)


def test_export_is_one_pgn_file_python_chess_reads_game_by_game(
    real_records: dict[tuple[str, Side | None], str],
) -> None:
    texts = [real_records[key] for key in OUTCOMES]
    exported = pgn.export(texts)
    assert "\n\n\n" not in exported and exported.endswith("\n")
    stream, read = io.StringIO(exported), []
    while (headers := chess.pgn.read_headers(stream)) is not None:
        read.append((headers["White"], headers["Black"], headers["Result"], headers["Game"]))
    expected = [chess.pgn.read_headers(io.StringIO(t)) for t in texts]
    assert read == [(h["White"], h["Black"], h["Result"], h["Game"]) for h in expected if h is not None]
    assert exported == "".join(texts) and pgn.export(texts[:1]) == texts[0]  # each record unchanged: cat *.pgn
    stream = io.StringIO(exported)
    games = [chess.pgn.read_game(stream) for _ in texts]
    assert all(g is not None for g in games) and chess.pgn.read_game(stream) is None


OLD = paths.DATA / "records-v1"
"""Records as this referee wrote them before PGN's result convention (first
mover's score first, Awari players as South/North only), of real games."""


@pytest.mark.parametrize(
    ("name", "winner", "termination"),
    [
        ("awari-first", Side.FIRST, Termination.MOVE),
        ("awari-second", Side.SECOND, Termination.MOVE),
        ("awari-draw", None, Termination.MOVE),
        ("awari-resigned", Side.SECOND, Termination.RESIGNATION),
        ("awari-aborted", None, Termination.SHUTDOWN),
        ("gothello-first", Side.FIRST, Termination.MOVE),
        ("gothello-second", Side.SECOND, Termination.MOVE),
        ("gothello-draw", None, Termination.MOVE),
        ("gothello-resigned", Side.SECOND, Termination.RESIGNATION),
        ("gothello-aborted", None, Termination.SHUTDOWN),
    ],
)
def test_records_of_earlier_versions_read_right(name: str, winner: Side | None, termination: Termination) -> None:
    game = pgn.parse((OLD / f"{name}.pgn").read_bytes())
    assert not game.pgn_convention and game.names == ("ann", "bob")
    assert game.outcome == Outcome(winner, termination)
    if winner is not None:  # the file gives the first mover's score first
        assert game.result == ("1-0" if winner is Side.FIRST else "0-1")


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("", "no blank line"),
        ('[Game "chess"]\n\n1. e4 *\n', "no Game tag"),
        ('[Game "gothello"]\nnot a tag\n\n1. c3 *\n', "line 2: not a tag pair"),
        ('\n\n[Game "gothello"]\n[Event "a"b"]\n\n1. c3 *\n', "line 4: not a tag pair"),
        ('[Game "gothello"]\n[Game "awari"]\n\n*\n', "line 2: a second Game tag"),
        ('[Game "gothello"]\n\n1. c3 c3 *\n', "not a legal move"),
        ('[Game "gothello"]\n\n1. c3\n', "no result"),
        ('[Game "gothello"]\n\n1. c3 * d4\n', "after the result"),
        ('[Game "gothello"]\n\n1. c3 { d4 *\n', "unexpected '{'"),
        ('[Game "gothello"]\n\n1. c3 (d4) *\n', "unexpected '\\('"),
        ('[Game "gothello"]\n[Result "1-0"]\n\n1. c3 *\n', "differ"),
        ('[Game "gothello"]\n[Event "\x1b[2J"]\n\n*\n', "line 2: control character"),
        ('[Game "awari"]\n\n1. F5 *\n', "should read 'F4'"),
        ('[Game "awari"]\n\n1. Fx *\n', "Olympiad"),
        ('[Game "awari"]\n[Rules "chess"]\n\n*\n', "unknown awari rules"),
        ('[Game "awari"]\n[TimeControl "x"]\n\n*\n', "bad TimeControl"),
        ('[Game "awari"]\n[TimeControl "0"]\n\n*\n', "bad TimeControl"),
        ('[Game "awari"]\n[TimeControl "inf"]\n\n*\n', "bad TimeControl"),
        ('[Game "awari"]\n[TimeControl "nan"]\n\n*\n', "bad TimeControl"),
        ('[Game "awari"]\n[TimeControl "-5"]\n\n*\n', "bad TimeControl"),
        ('[Game "awari"]\n[TimeControl "1e99"]\n\n*\n', "out of range"),
        ('[Game "awari"]\n[TimeControl "300:200:100"]\n\n*\n', "bad TimeControl"),
        ('[Game "awari"]\n[TimeControl "300+"]\n\n*\n', "bad TimeControl"),
        ('[Game "awari"]\n[TimeControl "300+2+1"]\n\n*\n', "bad TimeControl"),
        ('[Game "awari"]\n[WhiteTimeControl "300"]\n\n*\n', "come together"),
        ('[Game "awari"]\n[WhiteTimeControl "300"]\n[BlackTimeControl "0+1"]\n\n*\n', "bad BlackTimeControl"),
        ('[Game "awari"]\n[Termination "checkmate"]\n\n*\n', "unknown Termination"),
        ('[Game "awari"]\n[Termination "move"]\n\n*\n', "Termination 'move' with the result \\*"),
        ('[Game "awari"]\n[Termination "shutdown"]\n\n1-0\n', "Termination 'shutdown' with the result 1-0"),
        ('[Game "awari"]\n[Unchecked "x"]\n\n*\n', "bad Unchecked 'x'"),
        ('[Game "awari"]\n[Unchecked "50"]\n\n1. F4 *\n', "Unchecked 50, but the moves have 1 plies"),
        ('[Game "awari"]\n[PlyCount "2"]\n\n1. F4 *\n', "PlyCount '2'"),
        ('[Game "awari"]\n[ResultConvention "FIDE"]\n\n*\n', "unknown ResultConvention"),
        ('[Game "awari"]\n[ResultConvention "PGN"]\n[Outcome "south wins"]\n\n0-1\n', "Outcome tag"),
        ('[Game "awari"]\n[ResultConvention "PGN"]\n[White "a"]\n[South "b"]\n\n*\n', "South tag"),
    ],
)
def test_malformed_records_are_refused_with_a_reason(text: str, why: str) -> None:
    with pytest.raises(pgn.PgnError, match=why):
        pgn.parse(text)


def test_bytes_that_are_not_utf8_or_too_many_are_refused() -> None:
    with pytest.raises(pgn.PgnError, match=r"line 2: not UTF-8 text \(byte offset 23\)"):
        pgn.parse(b'[Game "awari"]\n[Event "\xff"]\n\n*\n')
    with pytest.raises(pgn.PgnError, match="more than"):
        pgn.parse(b" " * (pgn.MAX_BYTES + 1))


def test_a_tag_value_stays_on_one_line() -> None:
    """PGN escapes only ``\\`` and ``"``; a line break in a value becomes a space."""
    record = pgn.PgnGame((("Game", "awari"), ("Divergence", 'a\nb\u2028"c" \\ é')), (), "*")
    text = pgn.write(record)
    assert text.splitlines()[1] == '[Divergence "a b \\"c\\" \\\\ é"]'
    assert pgn.parse(text).tag("Divergence") == 'a b "c" \\ é'


def test_tag_in_reads_one_tag_of_a_record_text() -> None:
    text = server_text("awari", ("sam", "nora"), "north wins", ["F", "a"])
    assert pgn.tag_in(text, "Game") == "awari" and pgn.tag_in(text, "Tablebase") == ""
    assert pgn.tag_in('[Tablebase "x"]\n\nnot a record', "Tablebase") == ""  # no record: nothing, no error
