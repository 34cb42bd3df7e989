"""impl/atomic.py: a write is whole or absent, never partial; errors named plainly."""

from __future__ import annotations

import errno
import os
import stat
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
