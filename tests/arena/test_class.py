"""A class on an arena (issue #52's "class-like run", compressed to 60 s;
``python -m bench.classrun`` runs the full one): the arena with two anchors and
twenty unchanged programs of every kind a class brings, each connecting again
after each game, and the arena killed with SIGKILL half-way and started again.
Everyone who logged in is validated and rated, no game is stored twice, the
record files are the stored games, and the arena's ratings are the
maximum-likelihood fit of its rated games' records.  ``deep`` (make verify-deep)."""

from __future__ import annotations

import shutil

import pytest

from bench import classrun

pytestmark = pytest.mark.deep


def test_a_class_on_an_arena(capsys: pytest.CaptureFixture[str]) -> None:
    if shutil.which("cc") is None:
        pytest.skip("no C compiler for examples/raw_player.c")
    code = classrun.main(["--seconds", "60", "--round", "1"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "listening again" in out and "FAILED" not in out
