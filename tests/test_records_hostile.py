"""Records that are never lost, corrupted or misread (#28): the reader
(impl/pgn.py ``parse``) answers any input with a record or ``PgnError`` — arbitrary
bytes and text, and real records mutated character by character and line by line —
and whatever it accepts replays; ``referee replay`` / ``show`` refuse a bad file with
one line and exit status 2 (real processes); the server writes records atomically
and never over another (impl/server/server.py ``write_record``); a player's label in
any script survives a match's record and a tournament's resume."""

from __future__ import annotations

import errno
import os
import random
import re
import subprocess
from pathlib import Path

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from impl import cli, pgn
from impl.apps import replay, tournament
from impl.apps.games import play_game
from impl.apps.terms import MatchOptions, PlayerSpec
from impl.engines.port import GAMES
from impl.engines.registry import get_engine
from impl.game import Outcome, Side, Termination
from impl.protocol import VOCABULARIES
from impl.server import server
from impl.server.records import server_record
from impl.server.server import write_record
from impl.web import archive
from tests.support import paths
from tests.support.plies import plies
from tests.support.terminal import referee

OLD = paths.DATA / "records-v1"


def real_record(game: str, seed: int, timed: bool, names: tuple[str, str] = ("ann", "bob")) -> str:
    """The record of a random game played by the engine to its end (or resigned
    after 30 plies), as the server writes it."""
    engine = get_engine(game, "impl")
    rng, state = random.Random(seed), engine.initial()
    moves: list[str] = []
    while not engine.is_over(state) and len(moves) < 30:
        action = rng.choice(engine.legal_moves(state))
        moves.append(engine.format_move(action))
        _, state = engine.apply(state, action)
    sides = VOCABULARIES[game].sides
    over = engine.is_over(state)
    winner = None if over and engine.counts(state)[0] == engine.counts(state)[1] else Side(seed % 2)
    clocks = tuple(round(rng.uniform(0, 300), 1) for _ in moves) if timed else None
    record = server_record(
        game,
        0,
        seed,
        "impl",
        1.7e9,
        1.7e9 + 90,
        sides,
        names,
        (300.0, 300.0) if timed else None,
        Outcome(winner, Termination.MOVE if over else Termination.RESIGNATION),
        "-",
        "paper",
        plies(game, moves, clocks),
    )
    return pgn.write(record)


REAL = [
    real_record("awari", 1, True),
    real_record("gothello", 2, False, ('J\\"örg', "名人")),
    real_record("awari", 3, False),
    real_record("gothello", 4, True),
    *(path.read_text() for path in sorted(OLD.glob("*.pgn"))[:2]),
]


def accepts_or_refuses(data: str | bytes) -> pgn.PgnGame | None:
    """``parse``'s answer: a record — which then replays position by position, as
    ``referee replay`` does — or None for PgnError; anything else fails the test."""
    try:
        record = pgn.parse(data)
    except pgn.PgnError as exc:
        assert str(exc) and "\n" not in str(exc)
        return None
    frames = list(replay.frames(record))
    assert frames[0].ply == 0 and frames[-1].lines[-1].startswith("result ")
    assert record.outcome.result(record.sides) in (*(f"{s} wins" for s in record.sides), "draw", "aborted")
    assert len(record.names) == 2 and (record.time is None or min(record.time) > 0)
    return record


@given(st.binary(max_size=300))
@example(b'[Game "awari"]\n[TimeControl "inf"]\n\n*\n')
@example(b'[Game "awari"]\n[Unchecked "x"]\n\n*\n')
@example(b'[Game "awari"]\n[Unchecked "50"]\n\n*\n')
def test_any_bytes_are_a_record_or_refused(data: bytes) -> None:
    accepts_or_refuses(data)


@given(st.text(max_size=300))
def test_any_text_is_a_record_or_refused(text: str) -> None:
    accepts_or_refuses(text)


HOSTILE = ["inf", "nan", "-1", "0", "1e999", "9" * 40, '"', "\\", "{", "}", "[", "]", "\n", "\n\n", "*", "1-0", "ö"]


@st.composite
def mutated(draw: st.DrawFn) -> str:
    """A real record with characters and lines deleted, duplicated, swapped or
    altered, or hostile snippets inserted."""
    text = draw(st.sampled_from(REAL))
    for _ in range(draw(st.integers(1, 4))):
        lines = text.split("\n")
        at, to = sorted(draw(st.tuples(st.integers(0, len(text)), st.integers(0, len(text)))))
        line = draw(st.integers(0, len(lines) - 1))
        text = draw(
            st.sampled_from(
                [
                    text[:at] + text[to:],  # delete characters (truncate, at the end)
                    text[:to] + text[at:to] + text[to:],  # duplicate characters
                    text[:at] + draw(st.sampled_from(HOSTILE)) + text[at:],
                    text[:at] + draw(st.characters()) + text[at + 1 :],
                    "\n".join(lines[:line] + lines[line + 1 :]),  # delete a line
                    "\n".join(lines[: line + 1] + lines[line:]),  # duplicate a line
                    "\n".join([*lines[:line], *lines[line + 1 : line + 2], lines[line], *lines[line + 2 :]]),  # swap
                    re.sub(r"\d", lambda m: draw(st.sampled_from("0123456789")), text, count=draw(st.integers(1, 5))),
                ]
            )
        )
    return text


@given(mutated(), st.booleans())
def test_a_mutated_real_record_is_a_record_or_refused(text: str, as_bytes: bool) -> None:
    accepts_or_refuses(text.encode("utf-8", "surrogatepass") if as_bytes else text)


def test_the_real_records_are_read() -> None:
    """The mutation test starts from records the reader accepts."""
    assert all(accepts_or_refuses(text) is not None for text in REAL)


BAD_FILES = {
    "inf.pgn": b'[Game "awari"]\n[TimeControl "inf"]\n\n*\n',
    "unchecked-x.pgn": b'[Game "awari"]\n[Unchecked "x"]\n\n*\n',
    "unchecked-50.pgn": b'[Game "gothello"]\n[Unchecked "50"]\n\n1. c3 *\n',
    "binary.pgn": bytes(range(256)),
    "truncated.pgn": REAL[0].encode()[: len(REAL[0]) // 2],
}


def bad_paths(directory: Path) -> list[Path]:
    for name, data in BAD_FILES.items():
        (directory / name).write_bytes(data)
    return [*(directory / name for name in BAD_FILES), directory / "missing.pgn", directory]


@pytest.mark.parametrize("command", ["replay", "show"])
def test_replay_and_show_refuse_a_bad_file_with_one_line(
    tmp_path: Path, command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """``referee COMMAND: FILE: reason``, exit status 2 — for malformed records, a file
    that is not there, a directory."""
    for path in bad_paths(tmp_path):
        assert cli.main([command, str(path)]) == 2, path
        out, err = capsys.readouterr()
        assert out == "" and err.startswith(f"referee {command}: {path}: ") and err.count("\n") == 1, err


@pytest.mark.parametrize(
    ("command", "name"), [("replay", "inf.pgn"), ("show", "unchecked-50.pgn"), ("replay", "binary.pgn")]
)
def test_a_bad_file_ends_the_process_with_one_line_and_no_traceback(tmp_path: Path, command: str, name: str) -> None:
    """Real processes, on the files that ended in tracebacks (#28)."""
    path = bad_paths(tmp_path)[list(BAD_FILES).index(name)]
    done = subprocess.run(referee(command, str(path)), capture_output=True, text=True, timeout=60, check=False)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.startswith(f"referee {command}: {path}: ") and done.stderr.count("\n") == 1, done.stderr


ENDED = 1.7e9 + 60
"""When ``record_of``'s game ended."""


def record_of(names: tuple[str, str]) -> pgn.PgnGame:
    return server_record(
        "gothello",
        0,
        7,
        "impl",
        1.7e9,
        ENDED,
        ("black", "white"),
        names,
        None,
        Outcome(None, Termination.MOVE),
        "-",
        "paper",
        (),
    )


def test_a_record_is_never_written_over_another(tmp_path: Path) -> None:
    """Two records with the same name (the same server, second, pid and game
    number): the second takes the next free name, the first keeps its text."""
    first, second = record_of(("ann", "bob")), record_of(("cat", "dan"))
    paths = [write_record(tmp_path, r, ENDED) for r in (first, second, second)]
    assert [p.name for p in paths] == [
        f"gothello-0-20231114T221420Z-{os.getpid()}-7.pgn",
        f"gothello-0-20231114T221420Z-{os.getpid()}-7-2.pgn",
        f"gothello-0-20231114T221420Z-{os.getpid()}-7-3.pgn",
    ]
    assert [pgn.parse(p.read_bytes()).names for p in paths] == [("ann", "bob"), ("cat", "dan"), ("cat", "dan")]
    assert sorted(tmp_path.iterdir()) == sorted(paths)


def test_when_every_name_is_taken_the_record_is_refused_not_written_over(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(server, "RECORD_CLASHES", 2)
    kept = [write_record(tmp_path, record_of(("ann", "bob")), ENDED) for _ in range(2)]
    with pytest.raises(FileExistsError):
        write_record(tmp_path, record_of(("cat", "dan")), ENDED)
    assert sorted(tmp_path.iterdir()) == sorted(kept)
    assert all(pgn.parse(p.read_bytes()).names == ("ann", "bob") for p in kept)


def test_a_full_disk_leaves_no_record_and_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(OSError) as caught:
        write_record(tmp_path, record_of(("ann", "bob")), ENDED)
    assert caught.value.errno == errno.ENOSPC
    assert list(tmp_path.iterdir()) == []  # no 0-byte record, no temporary


@pytest.mark.parametrize("names", [("x" * 300, "/../../etc/passwd"), ("Jörg", 'a"\\b'), ("", "")])
def test_the_file_name_is_safe_whatever_the_names(tmp_path: Path, names: tuple[str, str]) -> None:
    path = write_record(tmp_path, record_of(names), ENDED)
    assert path.parent == tmp_path and re.fullmatch(r"gothello-0-20231114T221420Z-\d+-7\.pgn", path.name)
    assert pgn.parse(path.read_bytes()).names == names


def test_a_label_in_any_script_survives_a_match_record_and_a_tournament_resume(tmp_path: Path) -> None:
    """A real game between two of our players whose labels are long, non-ASCII and
    quoted: its record names them exactly, and a tournament resuming from it
    recognises the finished game (impl/apps/tournament/resume.py ``from_record``)."""
    labels = ('Jörg "der Große" \\ ' + "ß" * 40, "名人 random")
    specs = tuple(PlayerSpec(label, PlayerSpec.parse("random --seed 3").template) for label in labels)
    assert len(specs) == 2
    options = MatchOptions("gothello", 1, records=tmp_path)
    outcome = play_game((specs[0], specs[1]), 1, options, 0, round_tag="1.1")
    assert outcome.result is not None and not outcome.error
    text = (tmp_path / "game-0001.pgn").read_text(encoding="utf-8")
    game = pgn.parse(text)
    assert game.names == labels and game.tag("Black") == labels[0] and game.tag("White") == labels[1]
    task = tournament.Task(1, "1.1", (0, 1), ("random --seed 3", "random --seed 3"), labels, options)
    resumed = tournament.from_record(task, text)
    assert resumed is not None and resumed.record == text
    assert game.outcome == outcome.result  # as the referee decided
    assert resumed.score == {None: 0.5, Side.FIRST: 1.0, Side.SECOND: 0.0}[outcome.result.winner]


@pytest.mark.parametrize("game", GAMES)
def test_a_records_names_are_exactly_the_players(game: str) -> None:
    text = real_record(game, 5, False, ("«Ω»", 'q"\\'))
    assert pgn.parse(text).names == ("«Ω»", 'q"\\')


def test_a_match_record_the_disk_cannot_take_leaves_no_partial_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``referee match --records`` writes atomically (impl/atomic.py): when the
    record cannot take its name, the error says so and no partial file is left."""
    real_link = os.link

    def full(src: str, dst: str) -> None:  # a record never overwrites: it takes its name by link
        if Path(dst).parent == tmp_path:  # the match's records, not the server's own
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), dst)
        real_link(src, dst)

    monkeypatch.setattr(os, "link", full)
    spec = PlayerSpec.parse("random --seed 3")
    with pytest.raises(OSError) as caught:
        play_game((spec, spec), 1, MatchOptions("awari", 1, records=tmp_path), 0)
    assert caught.value.errno == errno.ENOSPC and list(tmp_path.iterdir()) == []


def test_the_web_archive_shows_names_of_any_script_and_length(tmp_path: Path) -> None:
    """impl/web/archive.py reads records as UTF-8 and quotes their names as the
    wire does, without the wire's limit of 31 ASCII characters."""
    path = write_record(tmp_path, record_of(("Jörg " + "ß" * 40, 'q"')), ENDED)
    shown = archive.checked_record(path.name, path.read_text(encoding="utf-8"))
    assert shown.moves == []
    tags = archive.shown_tags(shown)
    assert (tags["Black"], tags["White"]) == ('"Jörg ' + "ß" * 40 + '"', '"q"""')


def test_a_tournament_resumes_from_records_of_players_labelled_in_any_script(tmp_path: Path) -> None:
    """Real processes: a finished game of ``Jörg`` and ``名人`` is recognised when the
    tournament runs again, and not played twice (its records were read as ASCII)."""
    argv = referee("tournament", "Jörg=random --seed 1", "名人=random --seed 2", "--game", "gothello")
    argv += ["--games", "1", "--jobs", "1", "--records", str(tmp_path)]
    first = subprocess.run(argv, capture_output=True, text=True, timeout=120, check=True).stdout
    assert "Started game 1 of 1 (Jörg vs 名人)" in first
    assert pgn.parse((tmp_path / "game-0001.pgn").read_bytes()).names == ("Jörg", "名人")
    again = subprocess.run(argv, capture_output=True, text=True, timeout=120, check=True).stdout
    assert f"Resuming from {tmp_path}: 1 of 1 games recorded" in again and "Started game" not in again
