"""``referee spec awari --rules RULES``: the animator's referee plays the rule set
named (spec/awari_rules.py), its corrected schema is ``AwariRefUnder`` under it, and a
rule set the parser refuses, or one for Gothello, is one line on stderr and exit
status 2.  Real processes, the commands typed on standard input."""

from __future__ import annotations

import subprocess
import sys

import pytest

from impl.apps.animate import Animator
from tests.support.terminal import refused

REFEREE = [sys.executable, "-m", "impl.cli", "spec"]


def animate(*args: str, typed: str = "quit\n") -> subprocess.CompletedProcess[str]:
    return subprocess.run([*REFEREE, *args], input=typed, capture_output=True, text=True, timeout=120)


def test_the_grand_slam_witness_under_abapa_is_a_plain_sowing() -> None:
    """A4's position: under the papers' rules south's F is a grand slam (drawn at
    24-24); under abapa (grand slam (a): sown, nothing captured) the game goes on,
    and the papers' literal disjuncts are shown as differing from that referee."""
    done = animate("awari", "--rules", "abapa", typed="load A4\nmoves\nquit\n")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "awari[abapa]> " in out
    assert (
        "referee under abapa: result not_done, after: a2 b2 A4, 20/20, north, 1 seen\n"
        "  south sows 2 stones from F, no capture; south's store gains 0\n"
        "         f   e   d   c   b   a\n"
        "  [20]   0   0   0   0   2   2\n"
        "         4   0   0   0   0   0 [20]\n"
        "         A   B   C   D   E   F        north to move\n"
        "AwariRef[abapa] (corrected): 1 disjunct holds\n"
        "  1. SowUnder: result not_done\n"
        "     after: a2 b2 A4, 20/20, north, 1 seen\n"
        "AwariRef (as written): 2 disjuncts hold\n"
    ) in out
    assert "differs from the referee under abapa: errata on GrandSlam:" in out
    paper = animate("awari", typed="load A4\nquit\n")
    assert "referee: result draw, after: empty, 24/24, north, 1 seen\n" in paper.stdout


def test_a_canonical_name_is_what_the_animator_plays() -> None:
    """Overrides are read as the server reads them: ``grand-slam=a`` alone on top of
    the paper's rules names the same game as in its canonical form."""
    a = Animator("awari", "paper,grand-slam=a")
    assert a.rules.name == "paper,grand-slam=a"
    assert a.prompt() == "awari[paper,grand-slam=a]> "
    assert Animator("awari").prompt() == "awari> "


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (("awari", "--rules", "bogus"), "unknown Awari rules 'bogus'"),
        (("awari", "--rules", "grand-slam=z"), "no grand-slam 'z'"),
        (("gothello", "--rules", "abapa"), "--rules abapa is for Awari"),
    ],
)
def test_bad_rules_are_one_line_and_exit_2(args: tuple[str, ...], says: str) -> None:
    line = refused(animate(*args))
    assert line.startswith("referee spec: ") and says in line


def test_python_m_spec_lists_the_spec_and_points_to_the_animator() -> None:
    """spec/__main__.py stays in spec/ (it imports nothing of impl/): it lists the
    spec's modules, and any argument is refused with the animator's command."""
    done = subprocess.run([sys.executable, "-m", "spec"], capture_output=True, text=True, timeout=120, check=True)
    listed = [line.split()[0] for line in done.stdout.splitlines()[:-1]]
    assert "spec/awari.py" in listed and "spec/awari_rules.py" in listed and "spec/__main__.py" not in listed
    assert done.stdout.splitlines()[-1] == "Animate it: referee spec awari|gothello (docs/rules.md)."
    line = refused(subprocess.run([sys.executable, "-m", "spec", "awari"], capture_output=True, text=True, timeout=120))
    assert line == "python -m spec: takes no arguments; the animator is `referee spec awari|gothello`"
