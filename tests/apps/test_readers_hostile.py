"""Every command that reads a file the user names is bounded (issue #49): ``referee
check``, ``replay``, ``show``, ``analyse`` and ``--openings`` refuse what is not a
regular file (a FIFO, ``/dev/zero``, ``/dev/urandom``, a directory) before reading it,
a missing file and a file over their limit, each in one line with exit status 2, and
answer pathological records and transcripts within bounded work.

The FIFO and the devices run in real processes with a timeout: a read that blocks or
fills memory shows as a failure, not as a hung suite.  Work is bounded by counts (the
lines the record reader runs, the connection-events of a transcript), never by time."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any

import pytest

from impl import atomic, cli, pgn
from impl.apps import check
from impl.engines import openings
from impl.server.transcript import Event
from tests.support.terminal import referee, refused

HANG_GUARD = 60.0
"""Seconds before a command that should answer at once counts as blocked."""

READERS: dict[str, tuple[list[str], str, int]] = {
    "check": (["check"], "referee check", check.MAX_TRANSCRIPT),
    "replay": (["replay", "--auto"], "referee replay", pgn.MAX_BYTES),
    "show": (["show"], "referee show", pgn.MAX_BYTES),
    "analyse": (["analyse"], "referee analyse", pgn.MAX_BYTES),
    "openings": (
        ["match", "random", "random", "--game", "gothello", "--openings"],
        "referee match",
        openings.MAX_BYTES,
    ),
}
"""Each reader: its command line before the path, the prefix of its refusal, its limit in bytes."""


def run(reader: str, path: Path | str) -> subprocess.CompletedProcess[str]:
    argv, _, _ = READERS[reader]
    return subprocess.run(
        referee(*argv, str(path)),
        capture_output=True,
        text=True,
        timeout=HANG_GUARD,
        check=False,
        stdin=subprocess.DEVNULL,
    )


def refusal(reader: str, done: subprocess.CompletedProcess[str], path: Path | str) -> str:
    """The reason of the one-line refusal ``<prefix>: <path>: <reason>``, exit status 2."""
    line = refused(done)
    assert "Traceback" not in done.stderr
    prefix = f"{READERS[reader][1]}: {path}: "
    assert line.startswith(prefix), line
    return line.removeprefix(prefix)


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    path = tmp_path / "pipe"
    os.mkfifo(path)
    return path


@pytest.mark.parametrize("reader", READERS)
def test_a_fifo_is_refused_without_waiting_for_a_writer(reader: str, fifo: Path) -> None:
    assert refusal(reader, run(reader, fifo), fifo) == "is a FIFO, not a regular file"


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
@pytest.mark.parametrize("reader", READERS)
def test_an_endless_device_is_refused_unread(reader: str, device: str) -> None:
    """/dev/zero was read until memory ran out (2.38 GB, then a MemoryError traceback)."""
    assert refusal(reader, run(reader, device), device) == "is a character device, not a regular file"


def test_a_directory_a_missing_file_and_a_file_over_the_limit(tmp_path: Path) -> None:
    """The over-limit file is sparse: refused by its size, one byte past each limit."""
    big = tmp_path / "big"
    for reader, (_, _, limit) in READERS.items():
        with big.open("wb") as out:
            out.truncate(limit + 1)
        cases = (
            (tmp_path, "is a directory, not a regular file"),
            (tmp_path / "missing", "no such file"),
            (tmp_path / "no-dir" / "x", "no such file"),
            (big, f"is larger than {limit:,} bytes"),
        )
        for path, reason in cases:
            assert refusal(reader, run(reader, path), path) == reason, (reader, path)


# ─── pathological records ─────────────────────────────────────────────────────


def record_with_tags(keys: list[str]) -> str:
    """A Gothello record of one move with these extra tags."""
    tags = "\n".join(f'[{key} "v"]' for key in keys)
    return f'[Game "gothello"]\n{tags}\n\n1. c3 *\n\n'


@pytest.mark.parametrize(
    "keys",
    [
        pytest.param([f"K{i}" for i in range(20_000)], id="one record of 20,000 tags"),
        pytest.param([f"K{i}" for i in range(100_000)] + ["Divergence"] * 100_000, id="200,000 tag lines"),
    ],
)
@pytest.mark.parametrize("reader", ["replay", "show", "analyse"])
def test_a_record_of_many_tags_is_read(tmp_path: Path, reader: str, keys: list[str]) -> None:
    """The tag reader was quadratic in the tags (each compared with all before it):
    20,000 took 9 s, 200,000 hours.  Now each answers, exit status 0."""
    path = tmp_path / "tags.pgn"
    path.write_text(record_with_tags(keys))
    assert path.stat().st_size <= pgn.MAX_BYTES
    done = run(reader, path)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert "c3" in done.stdout


def lines_run_in_pgn(text: str) -> int:
    """The lines of impl/pgn.py executed to parse ``text`` (the reader's work, counted)."""
    count = 0

    def tracer(frame: FrameType, event: str, arg: Any) -> Callable[..., Any] | None:
        nonlocal count
        if frame.f_code.co_filename != pgn.__file__:
            return None
        if event == "line":
            count += 1
        return tracer

    sys.settrace(tracer)
    try:
        pgn.parse(text)
    finally:
        sys.settrace(None)
    return count


def test_the_record_reader_is_linear_in_the_tags() -> None:
    """Twice the tags, at most about twice the work (the quadratic reader did four times)."""
    small = lines_run_in_pgn(record_with_tags([f"K{i}" for i in range(1_000)]))
    large = lines_run_in_pgn(record_with_tags([f"K{i}" for i in range(2_000)]))
    assert large <= 2.2 * small, (small, large)


def test_a_repeated_tag_is_still_refused_beside_divergences() -> None:
    """The set of keys seen lets ``Divergence`` repeat and nothing else."""
    assert len(pgn.parse(record_with_tags(["Divergence", "Divergence"])).tag_all("Divergence")) == 2
    with pytest.raises(pgn.PgnError, match="line 3: a second K tag"):
        pgn.parse(record_with_tags(["K", "K"]))


# ─── pathological transcripts ─────────────────────────────────────────────────

HEADER = {
    "transcript": 1,
    "game": "gothello",
    "server": 0,
    "game_no": 1,
    "rules": "paper",
    "timed": False,
    "time": None,
    "increment": [0, 0],
    "config_messages": "observers",
    "opening": [],
    "max_observers": 64,
    "max_rejected": 64,
    "seat_timeout": 60.0,
    "wait_timeout": 1800.0,
    "idle_timeout": 600.0,
}
GREETING = "000 0.9.1 version Gothello server says hello!"


def transcript_of_opens(path: Path, connections: int, header: dict[str, Any] = HEADER) -> None:
    """A transcript in which ``connections`` connections open and are greeted, none leaving."""
    lines = [json.dumps(header)]
    for conn in range(connections):
        lines += [json.dumps({"t": 0.0, "c": conn, "d": "open"})]
        lines += [json.dumps({"t": 0.0, "c": conn, "d": "out", "line": GREETING})]
    path.write_text("\n".join(lines) + "\n")


def test_a_transcript_of_many_connections_is_refused_by_its_work(tmp_path: Path) -> None:
    """100,000 connections open at once (a server holds 256) cost the model, a tuple
    of connections, work in the square of their number: hours.  Refused in one line."""
    path = tmp_path / "opens.jsonl"
    transcript_of_opens(path, 100_000)
    reason = refusal("check", run("check", path), path)
    assert reason == f"too large to check: 10,000,100,000 connection-events (at most {check.MAX_WORK:,})"


def test_a_transcript_within_the_work_bound_is_checked(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "opens.jsonl"
    transcript_of_opens(path, 2_000)
    assert cli.main(["check", str(path)]) == 0
    assert capsys.readouterr().out == f"{path}: OK\n"


def test_connection_events_count_the_connections_open_at_each_event() -> None:
    events = [Event(2, 0.0, 1, "open", None), Event(3, 0.0, 2, "open", None), Event(4, 0.0, 1, "leave", None)]
    events += [Event(5, 0.0, 2, "in", "x"), Event(6, 0.0, 2, "close", None), Event(7, 0.0, 3, "open", None)]
    assert check.connection_events(events) == 1 + 2 + 1 + 1 + 0 + 1


@pytest.mark.parametrize(("rules", "said"), [("massey", "unknown Awari rules 'massey'"), ("abapa", "gothello rules")])
def test_a_transcript_header_with_unknown_rules_is_one_line(tmp_path: Path, rules: str, said: str) -> None:
    """It ended in a RulesError traceback."""
    path = tmp_path / "rules.jsonl"
    transcript_of_opens(path, 1, HEADER | {"rules": rules})
    reason = refusal("check", run("check", path), path)
    assert reason.startswith("line 1: bad header (") and said in reason, reason


def test_a_missing_file_and_a_missing_directory_are_told_apart(tmp_path: Path) -> None:
    """ENOENT reads "no such file"; where a file was to be made in a directory that is
    not there, "no such directory", named by the directory (impl/atomic.py ``why``)."""
    with pytest.raises(OSError) as missing:
        atomic.read_bounded(tmp_path / "absent.pgn", 10)
    assert atomic.why(missing.value) == f"{tmp_path / 'absent.pgn'}: no such file"
    writers: list[Callable[[Path, str], None]] = [atomic.write_atomic, atomic.write_output]
    for write in writers:
        with pytest.raises(OSError) as no_dir:
            write(tmp_path / "gone" / "out.json", "x")
        assert atomic.why(no_dir.value) == f"{tmp_path / 'gone'}: no such directory"


@pytest.mark.parametrize("where", ["header", "event"])
def test_a_transcript_nested_too_deep_is_one_line(tmp_path: Path, where: str) -> None:
    """200,000 nested brackets made json raise RecursionError: a traceback."""
    path = tmp_path / "deep.jsonl"
    deep = "[" * 200_000
    path.write_text(deep + "\n" if where == "header" else json.dumps(HEADER) + '\n{"d": ' + deep + "\n")
    assert refusal("check", run("check", path), path) == "JSON nested too deep: not a transcript"


@pytest.mark.parametrize(
    ("field", "value", "reason"),
    [
        ("time", [float("nan"), 1.0], "line 1: bad header (a time or increment not finite)"),
        ("time", [1.0, float("inf")], "line 1: bad header (a time or increment not finite)"),
        ("increment", [0.0, float("nan")], "line 1: bad header (a time or increment not finite)"),
        ("max_observers", 1e308 * 10, "line 1: bad header (cannot convert float infinity to integer)"),
    ],
)
def test_a_transcript_header_of_numbers_no_server_has_is_one_line(
    tmp_path: Path, field: str, value: Any, reason: str
) -> None:
    """NaN and infinite clocks and counts (JSON's NaN and Infinity, which Python reads)
    ended in ValueError and OverflowError tracebacks."""
    path = tmp_path / "numbers.jsonl"
    transcript_of_opens(path, 1, HEADER | {"timed": True, "time": [60.0, 60.0], field: value})
    assert refusal("check", run("check", path), path) == reason


def test_a_transcript_event_on_an_infinite_connection_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "conn.jsonl"
    path.write_text(json.dumps(HEADER) + "\n" + json.dumps({"t": 0.0, "c": float("inf"), "d": "open"}) + "\n")
    assert refusal("check", run("check", path), path) == "line 2: not a transcript event"
