"""What ``referee match`` and ``referee tournament`` write and read besides their
records (Isolation, part 5; the rule is impl/atomic.py's, docs/tournaments.md
says it): ``--json``, ``--csv`` and ``--pgnout`` that are not regular files,
openings files that are not or are too large, and run files (``match.json``)
that cannot be parsed.  Every refusal comes before the first game: the records
directory is never made."""

from __future__ import annotations

import json
import math
import os
import socket
import stat
import subprocess
import threading
from pathlib import Path

import pytest

from impl import cli
from impl.apps import tournament
from impl.apps.options import MAX_RUN_FILE
from impl.engines import openings
from tests.support.terminal import referee, refused

MATCH = ["match", "random --seed 1", "random --seed 2", "--game", "gothello", "--games", "1", "-q"]


def _refusal(capsys: pytest.CaptureFixture[str], status: int) -> str:
    """The one line an in-process command refused with (``refused``'s promise)."""
    out, err = capsys.readouterr()
    return refused(subprocess.CompletedProcess([], status, out, err))


@pytest.mark.parametrize("option", ["--json", "--csv", "--pgnout"])
@pytest.mark.parametrize("kind", ["directory", "socket", "dangling symlink"])
def test_a_target_that_is_not_a_file_is_refused_before_the_first_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], option: str, kind: str
) -> None:
    target = tmp_path / "out"
    sock = socket.socket(socket.AF_UNIX)
    if kind == "directory":
        target.mkdir()
    elif kind == "socket":
        sock.bind(str(target))
    else:
        target.symlink_to(tmp_path / "nowhere")
    try:
        status = cli.main([*MATCH, "--records", str(tmp_path / "r"), option, str(target)])
    finally:
        sock.close()
    line = _refusal(capsys, status)
    what = {"directory": "a directory", "socket": "a socket", "dangling symlink": "a symbolic link to nothing"}[kind]
    assert line == f"referee match: {option}: cannot write {str(target)!r}: is {what}, not a regular file"
    assert not (tmp_path / "r").exists()  # no game was played: its records directory was never made
    assert not (tmp_path / "nowhere").exists()


def test_a_tournament_refuses_a_directory_target_before_the_first_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("distributed")
    argv = ["tournament", "a=random", "b=random", "--game", "awari", "--records", str(tmp_path / "r")]
    status = cli.main([*argv, "--pgnout", str(tmp_path)])
    assert _refusal(capsys, status).startswith(f"referee tournament: --pgnout: cannot write {str(tmp_path)!r}: ")
    assert not (tmp_path / "r").exists()


def test_a_fifo_a_device_and_a_symlink_are_written_and_none_replaced(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fifo, link, real = tmp_path / "json", tmp_path / "all.pgn", tmp_path / "real.pgn"
    os.mkfifo(fifo)
    real.write_text("an earlier run's games\n")
    link.symlink_to(real.name)
    if os.geteuid() == 0:  # a null device of our own, so the real /dev/null is never at stake
        device = tmp_path / "null"
        os.mknod(device, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    else:
        device = Path("/dev/null")
    got: list[str] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_text()), daemon=True)
    reader.start()
    argv = [*MATCH, "--records", str(tmp_path / "r"), "--json", str(fifo), "--csv", str(device)]
    assert cli.main([*argv, "--pgnout", str(link)]) == 0, capsys.readouterr().err
    reader.join(30)
    assert json.loads(got[0])["played"] == 1 and fifo.is_fifo()
    assert stat.S_ISCHR(device.stat().st_mode)
    assert link.is_symlink() and real.read_text().startswith("[Event ")
    assert not list(tmp_path.glob(".*"))  # no temporary or probe file left


# ─── openings files ──────────────────────────────────────────────────────────


@pytest.mark.parametrize("kind", ["fifo", "/dev/zero", "directory", "huge"])
def test_an_openings_file_that_is_not_a_small_regular_file_is_refused_unread(tmp_path: Path, kind: str) -> None:
    """A FIFO without a writer would block a plain read forever and /dev/zero would
    fill memory: both are refused by their kind, before any read."""
    book = tmp_path / "book.txt"
    if kind == "fifo":
        os.mkfifo(book)
    elif kind == "directory":
        book.mkdir()
    elif kind == "huge":
        book.write_text("# a comment\n" * (openings.MAX_BYTES // 12 + 1))
    else:
        book = Path(kind)
    argv = referee(*MATCH, "--no-repeat", "--openings", str(book), "--records", str(tmp_path / "r"))
    line = refused(subprocess.run(argv, capture_output=True, text=True, timeout=60, check=False))
    reason = {
        "fifo": "is a FIFO, not a regular file",
        "/dev/zero": "is a character device, not a regular file",
        "directory": "is a directory, not a regular file",
        "huge": f"is larger than {openings.MAX_BYTES:,} bytes",
    }[kind]
    assert line == f"referee match: {book}: {reason}"
    assert not (tmp_path / "r").exists()


def test_a_run_file_keeps_the_openings_digest_and_an_old_one_with_the_list_resumes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    book, records = tmp_path / "book.txt", tmp_path / "r"
    book.write_text("c3 d4\n")
    argv = [*MATCH[:-2], "2", "-q", "--openings", str(book), "--records", str(records)]
    assert cli.main(argv) == 0, capsys.readouterr().err
    run = json.loads((records / "match.json").read_text())
    assert run["openings"] == {"count": 1, "sha256": openings.digest([("c3", "d4")])}
    # A run file of the version before, which held the list, is the same run: it resumes.
    (records / "match.json").write_text(json.dumps(run | {"openings": [["c3", "d4"]]}))
    capsys.readouterr()
    assert cli.main(argv) == 0
    assert "2 of 2 games recorded" in capsys.readouterr().out
    (records / "match.json").write_text(json.dumps(run | {"openings": [["c3", "e5"]]}))
    assert "match.json differs" in _refusal(capsys, cli.main(argv))


# ─── run files read on resume ────────────────────────────────────────────────


@pytest.mark.parametrize("kind", ["nested", "fifo", "huge", "binary"])
def test_a_run_file_that_cannot_be_read_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str
) -> None:
    records = tmp_path / "r"
    records.mkdir()
    run = records / "match.json"
    if kind == "nested":
        run.write_text("[" * 3000)  # a RecursionError in json.loads
    elif kind == "fifo":
        os.mkfifo(run)  # no writer: a plain read would wait forever
    elif kind == "huge":
        with run.open("wb") as out:
            out.truncate(MAX_RUN_FILE + 1)
    else:
        run.write_bytes(b"\xff\xfe{}")
    line = _refusal(capsys, cli.main([*MATCH, "--records", str(records)]))
    reason = {
        "nested": "is nested too deep; remove it to run here again (this run's games are kept)",
        "fifo": "is a FIFO, not a regular file",
        "huge": f"is larger than {MAX_RUN_FILE:,} bytes",
        "binary": "not UTF-8",
    }[kind]
    assert line.startswith("referee match: --records: ") and line.endswith(reason), line
    assert not list(records.glob("game-*.pgn"))


def test_the_results_json_has_no_infinity_or_nan() -> None:
    """A one-sided result's margin is infinite, and JSON has no Infinity: it is null,
    and the results are dumped with allow_nan=False so no other can slip through."""
    value = {"elo": {"margin": math.inf, "los": 1.0}, "games": [{"score": math.nan}, (1.5, -math.inf)]}
    assert tournament.finite(value) == {"elo": {"margin": None, "los": 1.0}, "games": [{"score": None}, [1.5, None]]}
    json.dumps(tournament.finite(value), allow_nan=False)


def test_a_record_that_is_a_fifo_is_one_line_not_a_wait(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """On resuming, each game's record is read: a FIFO in its place (no writer) is
    refused by its kind, never waited on."""
    records = tmp_path / "r"
    assert cli.main([*MATCH, "--records", str(records)]) == 0
    (records / "game-0001.pgn").unlink()
    os.mkfifo(records / "game-0001.pgn")
    capsys.readouterr()
    line = _refusal(capsys, cli.main([*MATCH, "--records", str(records)]))
    assert line == f"referee match: --records: {records / 'game-0001.pgn'}: is a FIFO, not a regular file"
