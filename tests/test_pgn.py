"""Game records in the PGN shape (impl/pgn.py): written from random legal games
and read back unchanged (hypothesis), the Olympiad notation of Awari moves, and
malformed records refused with a reason."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from impl import pgn
from impl.engine import GAMES
from impl.engines import get_engine
from impl.game import Outcome, Side, Termination
from impl.server.records import GameRecord


def random_game(game: str, seed: int, length: int) -> list[str]:
    engine = get_engine(game, "impl")
    rng, state = random.Random(seed), engine.initial()
    moves: list[str] = []
    while len(moves) < length and not engine.is_over(state):
        action = rng.choice(engine.legal_moves(state))
        moves.append(engine.format_move(action))
        _, state = engine.apply(state, action)
    return moves


names = st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=31)


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
    sides = ("south", "north") if game == "awari" else ("black", "white")
    tags = [("Event", "test"), (sides[0].capitalize(), players[0]), (sides[1].capitalize(), players[1])]
    tags += [("Game", game), ("Termination", termination.value), ("TimeControl", "300" if timed else "-")]
    record = pgn.build(game, tags, moves, clocks, Outcome(winner, termination))
    text = pgn.write(record)
    back = pgn.parse(text)
    assert back == record
    assert back.moves == moves and back.names == players
    assert [p.clock for p in back.plies] == (clocks if clocks is not None else [None] * len(moves))
    assert back.outcome.termination is termination
    assert back.outcome.winner == (None if termination.aborted else winner)
    assert pgn.write(back) == text and all(len(line) <= pgn.LINE for line in text.splitlines()[len(tags) :])


def test_awari_moves_are_written_in_the_olympiad_notation() -> None:
    """Pit, stones sown, and ``x`` with the stones captured (1994 Olympiad notation)."""
    # F sows e f a b… : 1. F4 puts a stone in a–d; 1... a5 then E5, b6 … until a capture.
    sans, unchecked = pgn.notate("awari", ["F", "a"])
    assert sans == ["F4", "a5"] and unchecked is None
    moves = random_game("awari", 7, 200)
    sans, _ = pgn.notate("awari", moves)
    assert any("x" in san for san in sans)
    for move, san in zip(moves, sans, strict=True):
        assert san[0] == move and san[1:].split("x")[0].isdigit()


def test_a_server_record_carries_the_tags_and_clocks() -> None:
    record = GameRecord(
        "gothello",
        2,
        5,
        "impl",
        0.0,
        60.0,
        ("black", "white"),
        ("ann", 'b"o"b'),
        (300.0, 200.0),
        "white wins",
        Termination.TIME,
        "black 1 white 1",
        ("1 c3", "1 ... d4"),
        (299.0, 3599.95),
    )
    text = record.text()
    assert '[White "b\\"o\\"b"]' in text and '[TimeControl "300:200"]' in text and '[Rules "massey"]' in text
    assert "1. c3 {[%clk 0:04:59.0]} d4 {[%clk 1:00:00.0]} 0-1" in text
    game = pgn.parse(text)
    assert game.time == (300.0, 200.0) and game.outcome == Outcome(Side.SECOND, Termination.TIME)
    assert game.tag("Round") == "5" and game.tag("Date") == "1970.01.01"


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("", "no blank line"),
        ('[Game "chess"]\n\n1. e4 *\n', "no Game tag"),
        ('[Game "gothello"]\nnot a tag\n\n1. c3 *\n', "not a tag pair"),
        ('[Game "gothello"]\n\n1. c3 c3 *\n', "not a legal move"),
        ('[Game "gothello"]\n\n1. c3\n', "no result"),
        ('[Game "gothello"]\n\n1. c3 * d4\n', "after the result"),
        ('[Game "gothello"]\n[Result "1-0"]\n\n1. c3 *\n', "differ"),
        ('[Game "awari"]\n\n1. F5 *\n', "should read 'F4'"),
        ('[Game "awari"]\n\n1. Fx *\n', "Olympiad"),
        ('[Game "awari"]\n[TimeControl "x"]\n\n*\n', "bad TimeControl"),
        ('[Game "awari"]\n[TimeControl "0"]\n\n*\n', "bad TimeControl"),
        ('[Game "awari"]\n[Termination "checkmate"]\n\n*\n', "unknown Termination"),
    ],
)
def test_malformed_records_are_refused_with_a_reason(text: str, why: str) -> None:
    with pytest.raises(pgn.PgnError, match=why):
        pgn.parse(text)


def test_a_tag_value_stays_on_one_line() -> None:
    record = pgn.PgnGame((("Game", "awari"), ("Divergence", 'a\nb "c" \\ é')), (), "*")
    text = pgn.write(record)
    assert text.splitlines()[1] == '[Divergence "a b \\"c\\" \\\\ \\\\xe9"]'
    assert pgn.parse(text).tag("Divergence") == 'a b "c" \\ \\xe9'
