"""The spec animator (impl/apps/animate.py): ``referee spec GAME`` driven through a
pseudo-terminal as a person would type, and each errata
witness it loads checked to witness what its erratum says."""

from __future__ import annotations

import subprocess

import pytest

from impl.apps.animate import WITNESSES, Animator
from impl.apps.specview import describe_after
from impl.engines.statetext import parse_awari
from spec import awari as A
from spec import gothello as G
from spec.errata import ERRATA
from tests.support.terminal import Pty, referee


def test_referee_spec_awari_lists_every_disjunct_steps_and_undoes() -> None:
    person = Pty(referee("spec", "awari"))
    try:
        person.expect("awari> ")
        person.type("load A4")
        shown = person.expect("awari> ")
        assert "A4: a grand slam is also a NormalMove\nstate: a1 b1 A4 F2, 20/20, south\n" in shown
        assert (  # the verdict first, then the disjuncts; the written ones that differ name their errata
            "referee: result draw, after: empty, 24/24, north, 1 seen\n"
            "  south sows 2 stones from F, capturing a, b (4 stones); south's store gains 4\n"
            "         f   e   d   c   b   a\n"
            "  [24]   0   0   0   0   0   0\n"
            "         0   0   0   0   0   0 [24]\n"
            "         A   B   C   D   E   F        north to move\n"
            "AwariRef_corrected (corrected): 1 disjunct holds\n"
            "  1. GrandSlam: result draw\n"
            "     after: empty, 24/24, north, 1 seen\n"
            "AwariRef (as written): 2 disjuncts hold\n"
            "  2. NormalMove: result not_done\n"
            "     after: A4, 20/24, south, 1 seen\n"
            "     differs from the referee: errata on NormalMove: A2 A4 A12 A18\n"
            "  3. GrandSlam: result draw\n"
            "     after: empty, 24/24, south, 1 seen\n"
            "     differs from the referee: errata on GrandSlam: A2 A3 A4 A12 A22\n"
        ) in shown
        person.type("follow 2")  # into the literal NormalMove's after-state
        assert "state: A4, 20/24, south, 1 seen" in person.expect("awari> ")
        person.type("undo")
        assert "state: a1 b1 A4 F2, 20/20, south" in person.expect("awari> ")
        person.type("step")  # the last input, by the referee
        assert "F: result draw\nstate: empty, 24/24, north, 1 seen" in person.expect("awari> ")
        person.type("moves")
        assert "none: the game is over" in person.expect("awari> ")
        person.type("set a5, 20/23, south")
        person.expect("awari> ")
        person.type("A")  # A7: the literal NoMove leaves to_move' free
        shown = person.expect("awari> ")
        assert (
            "2. NoMove: result win north\n     after: board' free, 25/23, to_move' free, 1 seen  [2 after-states]\n"
            "     differs from the referee: errata on NoMove: A7 A12"
        ) in shown
        person.type("follow 2")
        assert "not determined" in person.expect("awari> ")
        person.type("set a1, 1/1, south")
        assert "not a state: an AwariBoard holds 48 stones, this one 3" in person.expect("awari> ")
        person.type("zz")
        assert "'zz' is neither a command nor a move" in person.expect("awari> ")
        person.type("help")
        assert "load <id>       an erratum's witness state and input (A1 A2" in person.expect("awari> ")
        person.type("quit")
        assert person.finish() == 0
    finally:
        person.kill()


def test_referee_spec_gothello_from_a_witness_to_the_end_of_input() -> None:
    person = Pty(referee("spec", "gothello", "--load", "G10"))
    try:
        shown = person.expect("gothello> ")
        assert "GothelloTurn (as written): 2 disjuncts hold" in shown
        assert "2. GothelloIllegalMoveNonblank: result illegal_move" in shown
        assert "3. GothelloIllegalMoveBlocked: result illegal_move" in shown
        assert "GothelloTurn_corrected (corrected): 1 disjunct holds\n  1. GothelloIllegalMoveNonblank" in shown
        assert shown.index("referee: result illegal_move") < shown.index("GothelloTurn_corrected")
        person.type("set b a2 w a1, black")
        person.expect("gothello> ")
        person.type("step b1")  # G3's capture, by the referee
        assert "b1: result not_done\nstate: b a1 a2 b1, white, history b1" in person.expect("gothello> ")
        person.type("schema GothelloPass")
        assert "│ to_move' = opponent to_move" in person.expect("gothello> ")
        person.type("load A1")
        assert "A1 is an Awari erratum" in person.expect("gothello> ")
        person.type("\x04")  # end of input
        assert person.finish() == 0
    finally:
        person.kill()


@pytest.mark.parametrize("argv", [["awari", "--state", "a1, 1/1, south"], ["gothello", "--load", "A4"]])
def test_a_bad_start_is_a_usage_error(argv: list[str]) -> None:
    done = subprocess.run(referee("spec", *argv), capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and done.stderr.startswith("referee spec: ")


STATE_WITNESSES = sorted(e.id for e in ERRATA if e.state is not None)


def test_the_animator_reads_the_errata_register() -> None:
    """The animator's witnesses are exactly the register's state witnesses."""
    assert sorted(WITNESSES) == STATE_WITNESSES and len(STATE_WITNESSES) >= 20
    assert all(WITNESSES[i] is next(e for e in ERRATA if e.id == i) for i in STATE_WITNESSES)


@pytest.mark.parametrize("ident", STATE_WITNESSES)
def test_each_witness_shows_the_literal_and_corrected_readings_apart(ident: str) -> None:
    """Every erratum of the register with a state witness loads in the animator
    (its own game's), giving both listings; and the literal reading differs from the
    corrected one there: each witness witnesses a defect."""
    witness = WITNESSES[ident]
    assert witness.state is not None
    animator = Animator(witness.game)
    lines = animator.command(f"load {ident}")
    assert lines[0] == f"{ident}: {witness.summary}" and not any("cannot be evaluated" in line for line in lines)
    assert f"input {witness.state.action}: {witness.state.look}" in lines
    literal, corrected = (
        (A.AwariRef, A.AwariRef_corrected) if witness.game == "awari" else (G.GothelloTurn, G.GothelloTurn_corrected)
    )
    action = animator.rules.parse_action(witness.state.action)

    def seen(outcomes: tuple[object, ...]) -> list[tuple[str, str, str]]:
        return [(o.schema, str(o.result), describe_after(witness.game, o)[0]) for o in outcomes]  # type: ignore[attr-defined]

    assert seen(literal(animator.state, action)) != seen(corrected(animator.state, action))
    (referee_outcome,) = corrected(animator.state, action)
    assert describe_after(witness.game, referee_outcome)[1] is not None  # the corrected one is determined


def test_witness_states_are_the_errata_tests_states() -> None:
    """Spot checks against tests/spec/test_errata_awari.py's constructions."""
    from tests.support.awari_states import game

    a4, a11 = WITNESSES["A4"].state, WITNESSES["A11"].state
    assert a4 is not None and a11 is not None
    assert parse_awari(a4.state) == game({"a": 1, "b": 1, "F": 2, "A": 4}, 20, 20, A.PLAYER.south)
    assert parse_awari(a11.state) == game({"a": 1, "c": 5, "F": 1, "A": 3}, 15, 23, A.PLAYER.south)


def words_and_board(game: str, commands: list[str], rules: str = "paper") -> list[str]:
    animator = Animator(game, rules)
    lines: list[str] = []
    for command in commands:
        lines = animator.command(command)
    return lines


def test_a_move_is_told_in_words_with_the_board_after_it() -> None:
    lines = words_and_board("awari", ["F"])
    assert "  south sows 4 stones from F, no capture; south's store gains 0" in lines
    assert "  [ 0]   4   4   5   5   5   5" in lines and "         4   4   4   4   4   0 [ 0]" in lines
    captured = words_and_board("awari", ["set a1 b1 c0 d0 e0 f0 A20 B20 C2 D2 E0 F2, 0/0, south", "F"])
    assert "  south sows 2 stones from F, capturing a, b (4 stones); south's store gains 4" in captured
    placed = words_and_board("gothello", ["set b c3 b4 d4 w c4 a1, black, history a1", "c5"])
    assert "  black places at c5, turning c4 to black" in placed, placed


@pytest.mark.parametrize(
    ("game", "commands", "why"),
    [
        ("awari", ["a"], "refused: a is not south's pit (south sows A-F)"),
        ("awari", ["set a0 b4 c4 d4 e4 f8 A4 B4 C4 D4 E4 F4, 0/0, north", "a"], "refused: pit a is empty"),
        (
            "awari",
            ["set a0 b0 c0 d0 e0 f0 A20 B20 C1 D2 E2 F3, 0/0, south", "C"],
            "refused: north has no stones: south must sow a pit that reaches north's row (Feed)",
        ),
        ("gothello", ["step c3", "c3"], "refused: c3 is occupied"),
        (
            "gothello",
            ["set b a2 b1, white, history b1", "a1"],
            "refused: a stone at a1 would leave its own group no liberty before captures (GothelloMove's guard)",
        ),
    ],
)
def test_an_illegal_move_is_refused_with_its_rule(game: str, commands: list[str], why: str) -> None:
    assert f"  {why}" in words_and_board(game, commands)
