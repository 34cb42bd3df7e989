"""impl/atomic.py: a write is whole or absent, never partial; errors named plainly."""

from __future__ import annotations

import errno
import os
import socket
import stat
import tempfile
import threading
from pathlib import Path

import pytest

from impl import atomic


def test_write_replaces_whole(tmp_path: Path) -> None:
    target = tmp_path / "t.json"
    target.write_text("old")
    atomic.write_atomic(target, "new")
    assert target.read_text() == "new"
    assert [p.name for p in tmp_path.iterdir()] == ["t.json"]


def test_no_overwrite_keeps_the_first(tmp_path: Path) -> None:
    target = tmp_path / "game-0001.pgn"
    atomic.write_atomic(target, "first", overwrite=False)
    with pytest.raises(FileExistsError):
        atomic.write_atomic(target, "second", overwrite=False)
    assert target.read_text() == "first"
    assert [p.name for p in tmp_path.iterdir()] == ["game-0001.pgn"]


def test_failed_write_leaves_old_file_and_no_temporary(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "tournament.json"
    target.write_text("old")

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(OSError) as caught:
        atomic.write_atomic(target, "new")
    assert atomic.why(caught.value) == "the disk is full"
    assert target.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["tournament.json"]


def test_why_names_the_path() -> None:
    assert atomic.why(OSError(errno.EROFS, "x", "/r/a.pgn")) == "/r/a.pgn: the file system is read-only"


def test_a_new_file_gets_the_umask_mode_not_mkstemps_0600(tmp_path: Path) -> None:
    """Records and results are readable by whoever the umask lets read a plain write
    (the web view, a group of organisers), not only by the referee's own user."""
    mask = os.umask(0o022)
    os.umask(mask)
    atomic.write_atomic(tmp_path / "new.pgn", "x")
    atomic.write_atomic(tmp_path / "kept.pgn", "x", overwrite=False)
    for name in ("new.pgn", "kept.pgn"):
        assert stat.S_IMODE((tmp_path / name).stat().st_mode) == 0o666 & ~mask


def test_a_replaced_file_keeps_its_mode(tmp_path: Path) -> None:
    target = tmp_path / "tournament.json"
    target.write_text("old")
    target.chmod(0o640)
    atomic.write_atomic(target, "new")
    assert target.read_text() == "new"
    assert stat.S_IMODE(target.stat().st_mode) == 0o640


# ─── files the user names: output_of, write_output, read_bounded ─────────────────


def _reading(fifo: Path) -> tuple[threading.Thread, list[str]]:
    """A reader of ``fifo`` in a thread (a FIFO's writer waits for one)."""
    got: list[str] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_text()), daemon=True)
    reader.start()
    return reader, got


def test_a_missing_or_regular_target_is_written_atomically(tmp_path: Path) -> None:
    assert atomic.output_of(tmp_path / "new.json") == atomic.Output(tmp_path / "new.json", plain=False)
    (tmp_path / "old.json").write_text("old")
    atomic.write_output(tmp_path / "old.json", "new")
    assert (tmp_path / "old.json").read_text() == "new"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.json"]  # no probe or temporary file left


def test_a_symlink_is_followed_its_target_written_and_the_link_kept(tmp_path: Path) -> None:
    (tmp_path / "real.json").write_text("old")
    (tmp_path / "link.json").symlink_to("real.json")
    atomic.write_output(tmp_path / "link.json", "new")
    assert (tmp_path / "link.json").is_symlink() and (tmp_path / "real.json").read_text() == "new"
    atomic.write_atomic(tmp_path / "link.json", "newer")  # the same rule for every atomic write
    assert (tmp_path / "link.json").is_symlink() and (tmp_path / "real.json").read_text() == "newer"


def test_a_fifo_is_written_plainly_and_stays_a_fifo(tmp_path: Path) -> None:
    fifo = tmp_path / "results"
    os.mkfifo(fifo)
    reader, got = _reading(fifo)
    atomic.write_output(fifo, '{"played": 1}\n')
    reader.join(10)
    assert got == ['{"played": 1}\n'] and fifo.is_fifo()
    assert [p.name for p in tmp_path.iterdir()] == ["results"]


@pytest.mark.skipif(os.geteuid() != 0, reason="mknod of a character device needs root")
def test_a_character_device_is_written_plainly_and_never_replaced(tmp_path: Path) -> None:
    null = tmp_path / "null"  # a second /dev/null (major 1, minor 3), so the real one is never at stake
    os.mknod(null, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    atomic.write_output(null, "gone")
    assert stat.S_ISCHR(null.stat().st_mode) and null.stat().st_rdev == os.makedev(1, 3)
    with pytest.raises(atomic.NotRegular, match="is a character device, not a regular file"):
        atomic.write_atomic(null, "never")  # an atomic write never replaces it
    assert stat.S_ISCHR(null.stat().st_mode) and [p.name for p in tmp_path.iterdir()] == ["null"]


def test_dev_null_itself_is_written_plainly_and_stays_a_device() -> None:
    assert atomic.output_of(Path("/dev/null")) == atomic.Output(Path("/dev/null"), plain=True)
    atomic.write_output(Path("/dev/null"), "x")
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_a_stream_name_leading_to_a_regular_file_is_appended_to(tmp_path: Path) -> None:
    """``--json /dev/stdout > log``: the shell's log keeps what was printed before and
    is not renamed over (the process would go on writing to a deleted file)."""
    log = tmp_path / "log"
    with log.open("w") as stdout:
        stdout.write("the table\n")
        stdout.flush()
        name = Path(f"/dev/fd/{stdout.fileno()}")
        assert atomic.output_of(name).plain
        inode = log.stat().st_ino
        atomic.write_output(name, "{}\n")
    assert log.read_text() == "the table\n{}\n" and log.stat().st_ino == inode


def test_what_cannot_be_written_is_refused_with_its_reason(tmp_path: Path) -> None:
    (tmp_path / "dangling").symlink_to(tmp_path / "nothing")
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(str(tmp_path / "s"))
    try:
        for path, reason in (
            (tmp_path, f"{tmp_path}: is a directory, not a regular file"),
            (tmp_path / "s", f"{tmp_path / 's'}: is a socket, not a regular file"),
            (tmp_path / "dangling", f"{tmp_path / 'dangling'}: is a symbolic link to nothing, not a regular file"),
            (tmp_path / "no" / "x.json", f"{tmp_path / 'no'}: no such directory"),
            (Path("/dev/no-such-device"), "/dev/no-such-device: no such device"),
        ):
            with pytest.raises(OSError) as caught:
                atomic.output_of(path)
            assert atomic.why(caught.value) == reason
    finally:
        sock.close()
    assert not (tmp_path / "nothing").exists()


def test_the_directory_is_probed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A directory where no file can be made is known before the first game (root
    passes permission bits, so the refusal is simulated at the probe's mkstemp)."""

    def denied(**kwargs: object) -> tuple[int, str]:
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(tmp_path / ".probe-x"))

    monkeypatch.setattr(tempfile, "mkstemp", denied)
    with pytest.raises(OSError) as caught:
        atomic.output_of(tmp_path / "r.json")
    assert atomic.why(caught.value) == f"{tmp_path}: permission denied"


def test_read_bounded_refuses_what_is_not_a_regular_file_before_reading(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)  # no writer: opening it for a plain read would wait forever
    (tmp_path / "big").write_bytes(b"x" * 11)
    (tmp_path / "ok").write_bytes(b"x" * 10)
    for path, reason in (
        (fifo, f"{fifo}: is a FIFO, not a regular file"),
        (Path("/dev/zero"), "/dev/zero: is a character device, not a regular file"),
        (tmp_path, f"{tmp_path}: is a directory, not a regular file"),
        (tmp_path / "big", f"{tmp_path / 'big'}: is larger than 10 bytes"),
    ):
        with pytest.raises(OSError) as caught:
            atomic.read_bounded(path, 10)
        assert atomic.why(caught.value) == reason
    assert atomic.read_bounded(tmp_path / "ok", 10) == b"x" * 10


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full")
def test_dev_full_is_written_plainly_fails_as_a_full_disk_and_stays_a_device() -> None:
    """As root, an atomic write once replaced /dev/full by a regular file."""
    with pytest.raises(OSError) as caught:
        atomic.write_output(Path("/dev/full"), "x" * 10_000)
    assert atomic.why(caught.value) == "the disk is full"
    assert stat.S_ISCHR(os.stat("/dev/full").st_mode)


def test_remove_stale_takes_only_a_writers_temporary_files(tmp_path: Path) -> None:
    from impl.atomic import remove_stale

    (tmp_path / ".g-arena-000001.pgn.abc123.tmp").write_text("half a record")
    (tmp_path / "g-arena-000001.pgn").write_text("a record")
    (tmp_path / ".other.pgn.abc.tmp").write_text("someone else's")
    (tmp_path / ".g-arena-000002.pgn.link.tmp").symlink_to(tmp_path / "g-arena-000001.pgn")
    assert remove_stale(tmp_path, "g-arena-*.pgn") == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        ".g-arena-000002.pgn.link.tmp",
        ".other.pgn.abc.tmp",
        "g-arena-000001.pgn",
    ]
