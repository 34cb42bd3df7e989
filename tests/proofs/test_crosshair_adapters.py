"""The adapters and wrappers that crosshair searches (proofs/crosshair/diff_adapters.py,
proofs/crosshair/targets.py) run on concrete inputs and agree where they should:
otherwise a crosshair "nothing found" could hide a broken adapter."""

from __future__ import annotations

import random

import icontract
import pytest

from proofs.crosshair import canary
from proofs.crosshair import diff_adapters as D
from proofs.crosshair import targets as T
from proofs.crosshair.contracts import (
    CANARY,
    NOT_RUN,
    PARTS,
    SEARCH_BOUND,
    WRAPPED_AWARI,
    WRAPPED_GOTHELLO,
    WRAPPED_Z,
    Run,
    canaries,
    judge,
    retry_reason,
    targets,
)


def awari_input(rng: random.Random) -> tuple[tuple[int, ...], int, int, bool, int]:
    board = [0] * 12
    k = rng.choice((rng.randint(0, 48), rng.randint(0, 8)))
    for _ in range(k):
        board[rng.randrange(12)] += 1
    north = rng.randint(0, 48 - k)
    return tuple(board), north, 48 - k - north, rng.random() < 0.5, rng.randrange(12)


def gothello_input(rng: random.Random) -> tuple[tuple[int, ...], bool, tuple[int, ...], int]:
    cells = tuple(rng.choice((0, 0, 1, 2)) for _ in range(25))
    history = tuple(rng.choice((25, 25, rng.randrange(25))) for _ in range(rng.randint(0, 3)))
    return cells, rng.random() < 0.5, history, rng.randrange(26)


@pytest.mark.parametrize("seed", range(5))
def test_the_diff_adapters_agree_on_random_inputs(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(200):
        args = awari_input(rng)
        board, north, south, south_to_move, pit = args
        assert D.sow_spec(*args) == D.sow_impl(*args)
        assert D.capture_spec(*args) == D.capture_impl(*args)
        seen = rng.random() < 0.3
        assert D.awari_move_spec(board, north, south, south_to_move, seen, pit) == D.awari_move_impl(
            board, north, south, south_to_move, seen, pit
        )
    for _ in range(40):
        cells, white, history, action = gothello_input(rng)
        s = rng.randrange(25)
        assert D.group_spec(cells, s) == D.group_impl(cells, s)
        assert D.gothello_turn_spec(cells, white, history, action) == D.gothello_turn_impl(
            cells, white, history, action
        )


def test_the_adapters_reject_invalid_inputs_alike() -> None:
    assert D.sow_spec((1,), 0, 0, True, 0) is None and D.sow_impl((1,), 0, 0, True, 0) is None
    assert D.group_spec((0,) * 25, 3) is None and D.group_impl((0,) * 25, 3) is None


def test_the_diffbehavior_canary_differs_from_capture() -> None:
    """The planted bug shows on the witness crosshair reported."""
    args = ((1, 5, 2, 13, 13, 2, 2, 2, 2, 2, 2, 2), 0, 0, False, 11)
    assert D.capture_impl(*args) != canary.capture_forgets_the_chain(*args)


def test_the_crosshair_wrappers_hold_on_concrete_inputs() -> None:
    rng = random.Random(3)
    start = ((4,) * 12, 0, 0, True)
    w = T.TARGETS
    assert w["Sow_Capture_corrected"](*start, 7) and w["Sow_Capture"](*start, 7)
    played = [w[name] for name, (_, pre, _) in T._TABLE.items() if pre == T._PLAYED]
    assert len(played) == 7
    for wrapper in played:
        for seen in (False, True):
            assert wrapper(*start, seen, 7)
            assert wrapper(*start, seen, 2)
    turns = [w[name] for name, (_, pre, _) in T._TABLE.items() if pre == T._TURN]
    of_stone = [w[name] for name in ("group_corrected", "group", "liberties_corrected", "liberties")]
    capture = [w[name] for name in ("capture_at_corrected", "captures_corrected")]
    assert len(turns) == 10
    for _ in range(10):
        cells, white, history, action = gothello_input(rng)
        for turn in turns:
            assert turn(cells, white, history, action)
        stones = [i for i, c in enumerate(cells) if c]
        if stones:
            s = rng.choice(stones)
            for f in of_stone:
                assert f(cells, s)
            for f in capture:
                assert f(cells, white, s)
    assert w["closure"](frozenset({(0, 1), (1, 2)}), 3) and w["rtclosure"](frozenset({(0, 1)}), 2)
    assert w["iter_"](2, frozenset({(0, 1), (1, 2)}), 3)
    assert w["rres"](frozenset({(0, 1), (1, 2)}), frozenset({2}), 3)
    assert w["nrres"](frozenset({(0, 1)}), frozenset({1}), 2)
    r = frozenset({(0, 1), (1, 2), (2, 2)})
    assert w["image"](r, frozenset({0, 1}), 3) and w["inverse"](r, 3) and w["override"](r, frozenset({(0, 0)}), 3)
    assert w["dres"](frozenset({1}), r, 3) and w["ndres"](frozenset({1}), r, 3)
    assert w["sigma"](r) and w["apply"](r, 1, 3)


def test_every_wrapper_is_the_module_attribute_crosshair_names() -> None:
    """crosshair checks proofs.crosshair.targets.NAME (proofs/crosshair/contracts.py's
    lists): each name there is a wrapper of the table, contracted, and named NAME."""
    named = [t.rsplit(".", 1)[1] for t in (*WRAPPED_Z, *WRAPPED_AWARI, *WRAPPED_GOTHELLO)]
    assert sorted(named) == sorted(T.TARGETS)
    for name, wrapper in T.TARGETS.items():
        assert getattr(T, name) is wrapper and wrapper.__name__ == name
        assert getattr(wrapper, "__preconditions__", None) and getattr(wrapper, "__postconditions__", None)


def test_each_wrapper_is_reported_at_its_own_line() -> None:
    """crosshair reports a condition once a source position, and the proof step counts
    one report a target (proofs/crosshair/contracts.py ``judge``): every wrapper's
    postcondition stands on a line of its own."""
    lines = {
        name: [c.condition.__code__.co_firstlineno for c in vars(w)["__postconditions__"]]
        for name, w in T.TARGETS.items()
    }
    assert all(len(found) == 1 for found in lines.values())
    assert len({found[0] for found in lines.values()}) == len(T.TARGETS)


def test_a_wrapper_refuses_an_input_outside_its_preconditions() -> None:
    """The table's conditions are applied: a wrong-sized board, a sown empty pit, a
    blank square and an action off the board are each refused before the body runs."""
    refused: list[tuple[str, tuple[object, ...]]] = [
        ("referee", ((4,) * 11, 0, 4, True, False, 7)),
        ("Sow_Capture", ((0,) + (4,) * 11, 0, 4, False, 0)),
        ("Sow_Capture", ((4,) * 12, 0, 0, True, 2)),
        ("group", ((0,) * 25, 3)),
        ("GothelloPass", ((0,) * 25, False, (), 26)),
        ("iter_", (7, frozenset(), 3)),
    ]
    for name, args in refused:
        with pytest.raises(icontract.ViolationError):
            T.TARGETS[name](*args)


def test_a_crosshair_run_is_repeated_only_for_vacuity_or_an_internal_crash() -> None:
    crashed = Run(["spec.z.sigma"], "", "crosshair.util.CrossHairInternal: Numeric operation on symbolic", 1.0)
    vacuous = Run(["spec.awari.Sow"], "x.py:1: info: Unable to meet precondition\n", "", 1.0)
    found = Run(["spec.awari.Sow"], "x.py:1: error: false when calling Sow(...)\n", "", 1.0)
    assert retry_reason(crashed, first=False) == "crosshair internal error"
    assert retry_reason(vacuous, first=True) == "vacuous"
    assert retry_reason(vacuous, first=False) is None  # the long retry is judged as it is
    assert retry_reason(found, first=True) is None  # a counterexample is never run away from
    assert judge(vacuous) and judge(found) and judge(crashed)


def test_the_parts_split_the_targets_and_the_canaries() -> None:
    """make proofs runs the deep search as one step a part (proofs/manifest.py): each
    target searched is in exactly one part, the parts together are the whole run, every
    canary runs in some part, and every part has one."""
    each = [t for part in PARTS for t in targets(part, deep=True)]
    assert len(each) == len(set(each)) and set(each) == set(targets(None, deep=True))
    assert not set(each) & set(NOT_RUN) and set(SEARCH_BOUND) <= set(each)
    assert {t for part in PARTS for t in canaries(part)} == set(CANARY)  # the Awari wrappers' in both halves
    assert all(canaries(part) for part in PARTS)


def test_only_a_search_bound_target_may_stop_at_its_bound_without_a_report() -> None:
    """A target of SEARCH_BOUND stopped at its own CPU bound found no counterexample
    (crosshair reports the first it finds and stops); any other stop, a stop with a
    traceback, or a bounded target's counterexample still fails the step."""
    bounded = next(iter(SEARCH_BOUND))
    assert judge(Run([bounded], "", "", 300.0, at_bound=SEARCH_BOUND[bounded])) == []
    stopped = Run(["spec.awari.Sow"], "", "\ntimed out: stopped after 900 s of CPU", 900.0)
    assert len(judge(stopped)) == 2  # the stop, and no condition reported
    found = Run([bounded], "x.py:1: error: false when calling CannotFeed(...)\n", "", 9.0, at_bound=300)
    assert judge(found)


def test_a_parts_canary_run_is_judged_on_its_own_canaries() -> None:
    """A part's step runs only its canaries; each of those must be found, no other."""
    (planted,) = canaries("awari")
    name = planted.rsplit(".", 1)[1]
    found = Run([planted], f"c.py:45: error: false when calling {name}((0,), 0)\n", "", 1.0)
    assert judge(found, canary=True) == []
    assert judge(Run([planted], "", "", 1.0), canary=True)
    raised = f"c.py:72: error: ValueError: Expected the module AST … when calling {name}((0,), 0)\n"
    assert judge(Run([planted], raised, "", 1.0), canary=True)  # an exception is not the planted violation
