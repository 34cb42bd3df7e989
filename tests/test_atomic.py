"""impl/atomic.py: a write is whole or absent, never partial; errors named plainly."""

from __future__ import annotations

import errno
import os
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
