"""The certificate of black's win (impl/apps/certify.py, ``referee tablebase certify
gothello``; docs/tablebases.md, "Gothello solved"): built by the compiled solver,
followed on the spec's engine alone, every reply of white's; a certificate with a
hole, a wrong move or a leaf not lost is refused by name; the committed one holds."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from impl.apps import certify as C
from impl.engines import gothello_certificate as GC
from impl.engines import gothello_solve as S
from tests.support import paths
from tests.support.terminal import refused, run_referee

LIB = S.load()
needs_c = pytest.mark.skipif(LIB is None, reason="no C compiler here: the compiled solver is not built")
OPENING = "a5 d5 a3 c1 b1 e1 d4 e3 d2 b5 a2 c5 a1 c4"
"""A random game's first 14 plies: black to move with 11 empty points, b4 wins by 3
(the solver's value), c2 by 1, b2 loses by 3."""
COMMITTED = GC.COMMITTED


def _built(path: Path, first: str, plies: int = 3) -> tuple[GC.Certificate, C.Builder]:
    assert LIB is not None
    cert = GC.Certificate(path, first, plies, OPENING)
    builder = C.Builder(S.CSolver(LIB, 16), cert, say=False)
    builder.build()
    return cert, builder


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[GC.Certificate, C.Builder]:
    """b4's certificate to ply 3 from OPENING, built once for the module's tests."""
    return _built(tmp_path_factory.mktemp("certificate") / "c.json", "b4")


@needs_c
def test_a_built_certificate_holds_on_the_spec_and_resumes(built: tuple[GC.Certificate, C.Builder]) -> None:
    cert, builder = built
    assert builder.searched > 0
    again = GC.Certificate.load(cert.path)
    assert (again.first, again.plies, again.opening, again.book, again.lost) == (
        "b4", 3, OPENING, cert.book, cert.lost,
    )  # fmt: skip
    checked = GC.check(again)
    assert checked.black == len(again.book) + 1  # the root and each position after a reply
    assert checked.white >= len(again.book)
    # The same build on the kept file searches nothing: every leaf is known.
    assert LIB is not None
    rebuilt = C.Builder(S.CSolver(LIB, 16), again, say=False)
    rebuilt.build()
    assert rebuilt.searched == 0 and again.book == cert.book


@needs_c
def test_a_losing_first_move_is_not_certified(tmp_path: Path) -> None:
    with pytest.raises(GC.Uncertified, match="does not show black wins"):
        _built(tmp_path / "c.json", "b2")


@needs_c
def test_a_certificate_with_a_hole_a_wrong_move_or_a_leaf_not_lost_is_refused(
    built: tuple[GC.Certificate, C.Builder],
) -> None:
    cert, _ = built
    line, move = next(iter(cert.book.items()))
    holed = GC.Certificate(cert.path, cert.first, cert.plies, cert.opening, {**cert.book}, dict(cert.lost))
    del holed.book[line]
    with pytest.raises(GC.Uncertified, match="black has no move"):
        GC.check(holed)
    occupied = OPENING.split()[0]  # a5: a stone is there
    wrong = GC.Certificate(cert.path, cert.first, cert.plies, cert.opening, {**cert.book, line: occupied}, cert.lost)
    with pytest.raises(GC.Uncertified, match=f"black's {occupied} is not legal"):
        GC.check(wrong)
    not_lost = GC.Certificate(
        cert.path, cert.first, cert.plies, cert.opening, cert.book, dict.fromkeys(cert.lost, 0)
    )  # fmt: skip
    with pytest.raises(GC.Uncertified, match="does not show lost"):
        GC.check(not_lost)
    deeper = GC.Certificate(cert.path, cert.first, 5, cert.opening, cert.book, cert.lost)
    with pytest.raises(GC.Uncertified):
        GC.check(deeper)  # a leaf is not the end of the strategy at ply 5
    assert move in S.NAMES


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return run_referee("tablebase", "certify", *args, cwd=cwd, timeout=120)


@pytest.mark.parametrize(
    ("content", "said"),
    [
        (b"{not json", "not a Gothello certificate"),
        (json.dumps({"version": 2}).encode(), "not a Gothello certificate of version 1"),
        (json.dumps({"version": 1, "book": {"": "z9"}, "lost": {}}).encode(), "a book entry that is not a move"),
        (
            json.dumps(
                {"version": 1, "book": {}, "lost": {}, "first": "c3", "plies": 4, "nodes": 0, "seconds": 0}
            ).encode(),
            "its first move or its plies",
        ),
    ],
)
def test_a_damaged_certificate_is_one_line_and_status_2(tmp_path: Path, content: bytes, said: str) -> None:
    (tmp_path / "c.json").write_bytes(content)
    assert said in refused(_cli("gothello", "--checkpoint", "c.json", "--table-bits", "10", cwd=tmp_path))


def test_certify_asks_for_its_own_game_and_options(tmp_path: Path) -> None:
    assert "only gothello is certified" in refused(_cli("awari", cwd=tmp_path))
    assert "--plies is odd" in refused(_cli("gothello", "--plies", "4", cwd=tmp_path))
    assert "is not a move" in refused(_cli("gothello", "--first", "z9", cwd=tmp_path))
    done = _cli("gothello", "--checkpoint", "/dev/zero", "--table-bits", "10", cwd=tmp_path)
    assert "/dev/zero" in refused(done)
    # A file of another certificate is not taken for this one (nor built over).
    other = tmp_path / "other.json"
    other.write_bytes(COMMITTED.read_bytes())
    done = _cli("gothello", "--checkpoint", str(other), "--first", "a2", "--table-bits", "10", cwd=tmp_path)
    assert "a certificate of c3 to ply 5, not of a2 to ply 5" in refused(done)
    assert other.read_bytes() == COMMITTED.read_bytes()


def test_the_committed_certificate_holds_on_the_spec() -> None:
    """Black's c3, then every reply of white's the spec allows answered, to the
    certificate's ply, each leaf shown lost for white by the compiled solver."""
    cert = GC.Certificate.load(COMMITTED)
    assert (cert.first, cert.opening) == ("c3", "") and cert.plies >= 5
    checked = GC.check(cert)
    # Every position of black's at the last ply ends in a leaf or a finished game, as
    # does black's pass after white's at the second (the 25 of the third ply go on).
    assert checked.white >= 25 * 20 and checked.leaves + checked.over == checked.black - 25


SEVENTH = paths.ROOT / "data" / "gothello-certificate-7.json"
"""The certificate to the seventh ply made here (docs/tablebases.md, "Gothello solved")."""


def test_the_seventh_ply_certificate_is_one() -> None:
    """Its form and counts, read as the check reads it: black's c3 to ply 7, a move of
    black's after each of white's 11,650 replies, 1,606 leaves (up to symmetry) each
    shown lost for white, the solver's totals those of its one run."""
    cert = GC.Certificate.load(SEVENTH)
    assert (cert.first, cert.opening, cert.plies) == ("c3", "", 7)
    assert len(cert.book) == 11_650 and len(cert.lost) == 1_606
    assert set(cert.lost.values()) == {-1}
    assert cert.nodes == 1_134_060_184


@pytest.mark.deep
def test_the_seventh_ply_certificate_holds_on_the_spec() -> None:
    """Followed on the spec's engine alone (3 min here): every reply of white's to the
    seventh ply answered, every leaf lost for white, every finished game black's."""
    checked = GC.check(GC.Certificate.load(SEVENTH))
    assert (checked.black, checked.white, checked.leaves, checked.over) == (11_651, 11_650, 10_545, 553)
