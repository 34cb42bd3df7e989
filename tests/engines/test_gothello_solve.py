"""The compiled Gothello solver (impl/engines/gothello_solve.c and .py) and the solve
from the start (impl/apps/solve.py, ``referee tablebase solve gothello``): its
placement is the proven engine's on every board of at most three stones and on
random boards, its values and best moves are the Python solver's and the spec's
minimax's, its symmetries are the board's, planted bugs are caught by the same
checks, and the split solve gives the solver's value, resumes from its checkpoint
and refuses a damaged one."""

from __future__ import annotations

import itertools
import json
import random
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import psutil
import pytest

from impl import tasks
from impl.apps import leaves as L
from impl.apps import solve as V
from impl.apps import solve_top
from impl.engines import gothello_certificate as GC
from impl.engines import gothello_endgame as GE
from impl.engines import gothello_solve as S
from impl.engines.gothello import ImplGothello
from impl.engines.kernels import GothelloState, dilate, place
from impl.tasks import Runner
from spec import gothello as G
from tests.support import paths
from tests.support.terminal import refused, run_referee

ENGINE = ImplGothello()
LIB = S.load()
needs_c = pytest.mark.skipif(LIB is None, reason="no C compiler here: the compiled solver is not built")
BITS = 16


def boards(most: int) -> Iterator[tuple[int, int]]:
    """Every (mine, theirs) of at most ``most`` stones."""
    for n in range(most + 1):
        for squares in itertools.combinations(range(25), n):
            for colours in itertools.product((0, 1), repeat=n):
                mine = sum(1 << s for s, c in zip(squares, colours, strict=True) if c == 0)
                yield mine, sum(1 << s for s in squares) ^ mine


def random_boards(count: int, seed: int) -> Iterator[tuple[int, int]]:
    rng = random.Random(seed)
    for _ in range(count):
        cells = [rng.choice((0, 0, 1, 2)) for _ in range(25)]
        yield sum(1 << i for i, c in enumerate(cells) if c == 1), sum(1 << i for i, c in enumerate(cells) if c == 2)


def placement_differences(lib: object, positions: Iterator[tuple[int, int]]) -> list[str]:
    """Where the compiled placement differs from the proven engine's ``place``."""
    found = []
    for mine, theirs in positions:
        for square in range(25):
            if (mine | theirs) >> square & 1:
                continue
            expected = place(mine, theirs, square)
            got = S.after_placing(lib, mine, theirs, square)  # type: ignore[arg-type]
            want = None if expected < 0 else (expected >> 25, expected & S.FULL)
            if got != want:
                found.append(f"{mine:x} {theirs:x} at {square}: {got} against {want}")
    return found


@needs_c
def test_placement_is_the_proven_engines_on_every_small_board_and_random_ones() -> None:
    assert LIB is not None
    assert placement_differences(LIB, boards(3)) == []
    assert placement_differences(LIB, random_boards(3000, 1)) == []


def samples(seed: int, empties: range, each: int) -> Iterator[GothelloState]:
    """Sample positions, each also right after a pass (the game not over)."""
    rng = random.Random(seed)
    for empty in empties:
        for _ in range(each):
            state = GE.sample(rng, empty)
            for position in (state, ENGINE.apply(state, G.pass_)[1]):
                if not ENGINE.is_over(position):
                    yield position


def solution_differences(bug: int, positions: Iterator[GothelloState]) -> list[str]:
    assert LIB is not None
    found = []
    for position in positions:
        want = GE.Solver(budget=None).solve(position)
        got = S.CSolver(LIB, BITS, bug=bug).solve(position)
        assert want is not None and got is not None
        if (got.value, got.best) != (want.value, want.best):
            found.append(f"{ENGINE.render(position)}: {got.value} {got.best} against {want.value} {want.best}")
    return found


@needs_c
def test_values_and_best_moves_are_the_python_solvers() -> None:
    assert solution_differences(0, samples(2, range(1, 13), 3)) == []


@needs_c
def test_values_and_best_moves_are_the_spec_minimaxs() -> None:
    """On the smallest positions only (the spec runs with its contracts checked, a
    minute beyond 2 empty points): the Python solver, which the compiled one equals
    above, is checked against the spec further (tests/engines/test_gothello_endgame.py)."""
    assert LIB is not None
    for position in samples(3, range(1, 3), 3):
        values = GE.spec_values(ENGINE.to_spec(position))
        value = max(values.values())
        got = S.CSolver(LIB, BITS).solve(position)
        assert got is not None
        assert (got.value, got.best) == (value, tuple(m for m, v in values.items() if v == value))


@needs_c
@pytest.mark.parametrize("bug", sorted(S.BUGS))
def test_a_planted_bug_is_caught(bug: int) -> None:
    assert LIB is not None
    try:
        LIB.gs_bug(bug)
        assert placement_differences(LIB, random_boards(300, 2)) != []
        assert solution_differences(bug, samples(4, range(4, 9), 3)) != []
    finally:
        LIB.gs_bug(0)


@needs_c
def test_the_symmetry_off_changes_no_value() -> None:
    """Planted bug 3 turns the table's symmetries off: only the speed may change."""
    try:
        assert solution_differences(S.BUGS_SYM, samples(5, range(8, 12), 2)) == []
    finally:
        assert LIB is not None
        LIB.gs_bug(0)


@needs_c
def test_the_eight_images_are_the_boards_symmetries() -> None:
    """Each image is a bijection of the squares that keeps adjacency, and the eight differ."""
    assert LIB is not None
    images = []
    for t in range(8):
        squares = [S.image(LIB, t, 1 << i).bit_length() - 1 for i in range(25)]
        assert sorted(squares) == list(range(25))
        for i in range(25):
            near = [j for j in range(25) if dilate(1 << i) >> j & 1 and j != i]
            assert {squares[j] for j in near} == {
                j for j in range(25) if dilate(1 << squares[i]) >> j & 1 and j != squares[i]
            }
        images.append(tuple(squares))
    assert len(set(images)) == 8 and images[0] == tuple(range(25))


def _root(empty: int) -> GC.Position:
    state = GE.sample(random.Random(empty), empty)
    return (state[0], state[1], 0)


@needs_c
@pytest.mark.parametrize("seed", [0, 7])
def test_the_split_solve_gives_the_solvers_value_and_resumes(tmp_path: Path, seed: int) -> None:
    root = _root(12)
    want = GE.Solver(budget=None).value((root[0], root[1], 0, None))
    checkpoint = tmp_path / "solve.json"
    assert V.solve(checkpoint, 2, BITS, True, seed, say=False, root=root) == want
    data = json.loads(checkpoint.read_text())
    assert data["result"]["value"] == want and data["leaves"]
    # Every leaf is known now: the same solve again computes none and says the same.
    assert V.solve(checkpoint, 2, BITS, True, seed, say=False, root=root) == want
    sign = V.solve(tmp_path / "sign.json", 3, BITS, False, seed, say=False, root=root)
    assert sign == (want > 0) - (want < 0)


@needs_c
@pytest.mark.parametrize("seed", [0, 11])
def test_one_null_window_bounds_the_margin_on_its_side(tmp_path: Path, seed: int) -> None:
    """``--at-least N``: a fail-soft answer ≥ N where the margin reaches N (a lower
    bound of it), else < N and an upper bound; N and N + 1 in two runs fix it."""
    root = _root(12)
    want = GE.Solver(budget=None).value((root[0], root[1], 0, None))
    assert want is not None
    for n in (want - 2, want, want + 1, want + 3):
        path = tmp_path / f"test{n}.json"
        got = V.solve(path, 2, BITS, False, seed, say=False, root=root, deepen=1, at_least=n)
        assert (got >= n) == (want >= n) and (got <= want if got >= n else got >= want)
        data = json.loads(path.read_text())
        assert (data["result"]["at_least"], data["result"]["value"], data["result"]["seed"]) == (n, got, seed)
        # Resumed, it asks no new leaf and says the same.
        assert V.solve(path, 2, BITS, False, seed, say=False, root=root, deepen=1, at_least=n) == got
        assert json.loads(path.read_text())["leaves"] == data["leaves"]


@needs_c
@pytest.mark.parametrize("seed", [0, 7])
def test_a_deepened_leaf_is_made_of_smaller_ones_each_kept(
    tmp_path: Path, seed: int, capsys: pytest.CaptureFixture[str]
) -> None:
    """--deepen: a leaf the checkpoint does not hold is searched further here, its
    smaller leaves kept as they come and its own answer under its key; the value is the
    solver's, and a solve interrupted after the smaller leaves computes none again."""
    root = _root(12)
    want = GE.Solver(budget=None).value((root[0], root[1], 0, None))
    checkpoint = tmp_path / "solve.json"
    assert V.solve(checkpoint, 1, BITS, True, seed, say=False, root=root, deepen=1) == want
    leaves = json.loads(checkpoint.read_text())["leaves"]
    assert LIB is not None
    split = V.Split(S.CSolver(LIB, BITS), V.Checkpoint(checkpoint), 1, seed, say=False)
    tops = {f"{m:x}:{t:x}:{p}" for _, (m, t, p) in split.children(root)}
    made = [k for k in leaves if k.rsplit(":", 2)[0] in tops]
    assert made and len(made) < len(leaves)  # the top ply's answers, and the leaves below them
    # As if interrupted before the top ply's answers were kept: none is searched again.
    interrupted = {k: v for k, v in leaves.items() if k not in made}
    checkpoint.write_text(json.dumps({"version": V.VERSION, "leaves": interrupted}))
    capsys.readouterr()
    assert V.solve(checkpoint, 1, BITS, True, seed, say=False, root=root, deepen=1) == want
    assert "(0 computed now" in capsys.readouterr().out
    assert json.loads(checkpoint.read_text())["leaves"] == leaves


@needs_c
def test_a_deepened_shuffled_solve_resumed_anywhere_asks_the_leaves_it_asked() -> None:
    """--seed with --deepen: cut the leaves answered at any point and resume, and the
    solve asks exactly the leaves the whole run asked (the shuffle is drawn by the
    plies above the leaves alone; drawn below a deepened leaf too, a resumed solve that
    reads that leaf's answer drew less and went on in another order, at most cuts)."""
    root = _root(12)
    assert LIB is not None

    def run(leaves: dict[str, int]) -> tuple[int, dict[str, int]]:
        checkpoint = V.Checkpoint(Path("unused.json"), dict(leaves))
        checkpoint.save = lambda: None  # type: ignore[method-assign]
        split = V.Split(S.CSolver(LIB, BITS), checkpoint, 1, 7, say=False, deepen=1)
        return V.mtdf(split, root, split.value(root, -1, 1)), checkpoint.leaves

    value, whole = run({})
    order = list(whole)  # as answered
    for cut in range(0, len(order), max(1, len(order) // 12)):
        again, resumed = run({k: whole[k] for k in order[:cut]})
        assert (again, set(resumed)) == (value, set(whole)), cut


@needs_c
@pytest.mark.parametrize(("seed", "deepen", "split"), [(0, 0, 2), (7, 1, 1)])
def test_workers_answer_the_leaves_the_sequential_search_would_ask(
    tmp_path: Path, seed: int, deepen: int, split: int, capsys: pytest.CaptureFixture[str]
) -> None:
    """--jobs 2: the leaves answered here and, a leaf parent's younger brothers ahead,
    by a worker process (a table of its own): the value is the solver's,
    and the sequential search replaying that checkpoint finds every leaf it asks there
    (the leaves asked are the sequential search's, given the same answers)."""
    root = _root(13)
    want = GE.Solver(budget=None).value((root[0], root[1], 0, None))
    checkpoint = tmp_path / "solve.json"
    assert V.solve(checkpoint, split, BITS, True, seed, say=False, root=root, deepen=deepen, jobs=2) == want
    data = json.loads(checkpoint.read_text())
    assert data["nodes"] > 0 and data["leaves"]
    capsys.readouterr()
    assert V.solve(checkpoint, split, BITS, True, seed, say=False, root=root, deepen=deepen) == want
    assert "(0 computed now" in capsys.readouterr().out
    assert json.loads(checkpoint.read_text())["leaves"] == data["leaves"]


@needs_c
def test_a_dask_cluster_answers_the_leaves_too(tmp_path: Path) -> None:
    """The leaves on Dask (an embedded cluster of one worker process, as --scheduler's
    would be): the solver's value, and the sequential replay asks nothing new."""
    root = _root(12)
    want = GE.Solver(budget=None).value((root[0], root[1], 0, None))
    checkpoint = V.Checkpoint(tmp_path / "d.json")
    assert LIB is not None
    with tasks.dask(None, 1) as runner:
        split = V.Split(S.CSolver(LIB, BITS), checkpoint, 2, 7, say=False, runner=runner, bits=BITS)
        assert V.mtdf(split, root, split.value(root, -1, 1)) == want
    again = V.Split(S.CSolver(LIB, BITS), V.Checkpoint(tmp_path / "r.json", dict(checkpoint.leaves)), 2, 7, say=False)
    assert V.mtdf(again, root, again.value(root, -1, 1)) == want and again.computed == 0


@needs_c
def test_a_leaf_answered_past_a_cut_is_kept_and_counted_once(tmp_path: Path) -> None:
    """Speculation's answers (younger brothers answered when an older one cut) go to the
    checkpoint with their nodes, each leaf counted once: on a runner that answers each
    leaf as it is submitted (three ahead), the checkpoint holds leaves the sequential
    replay never asks, and its nodes are the sum of every answer given, here or there."""
    root = _root(13)
    given: list[L.Answer] = []

    def at_once(run: Callable[[Any], Any], task: Any, key: str) -> Future[Any]:
        done: Future[Any] = Future()
        done.set_result(run(task))
        given.append(done.result())
        return done

    checkpoint = V.Checkpoint(tmp_path / "c.json")
    assert LIB is not None
    here = S.CSolver(LIB, BITS)
    measured = here.measured

    def counted(where: GC.Position, alpha: int, beta: int) -> L.Answer:
        given.append(measured(where, alpha, beta))
        return given[-1]

    here.measured = counted  # type: ignore[method-assign]
    split = V.Split(here, checkpoint, 2, 0, say=False, runner=Runner(at_once, lambda: 3), bits=BITS)
    value = V.mtdf(split, root, split.value(root, -1, 1))
    split.harvest()
    assert split.computed == len(checkpoint.leaves) == len(given)
    assert checkpoint.nodes == sum(nodes for _, nodes, _ in given)
    replay = V.Checkpoint(tmp_path / "r.json", dict(checkpoint.leaves))
    asked: list[str] = []
    replay.leaves = _Watched(checkpoint.leaves, asked)
    again = V.Split(S.CSolver(LIB, BITS), replay, 2, 0, say=False)
    assert V.mtdf(again, root, again.value(root, -1, 1)) == value
    assert again.computed == 0 and set(asked) < set(checkpoint.leaves)  # some answered past a cut


class _Watched(dict[str, int]):
    """A checkpoint's leaves that note each key asked."""

    def __init__(self, leaves: dict[str, int], asked: list[str]) -> None:
        super().__init__(leaves)
        self.asked = asked

    def get(self, key: str, default: Any = None) -> Any:
        self.asked.append(key)
        return super().get(key, default)


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return run_referee("tablebase", *args, cwd=cwd, timeout=120)


@pytest.mark.parametrize(
    ("content", "said"),
    [
        (b"{not json", "not a solve checkpoint"),
        (json.dumps({"version": 1, "leaves": {"1:2:0:-1:1": 99}}).encode(), "a leaf that is not a margin"),
        (json.dumps({"version": 9, "leaves": {}}).encode(), "not a solve checkpoint of version 1"),
        (json.dumps({"version": 1, "leaves": {"zz:2:0:-1:1": 0}}).encode(), "is not a leaf's position and window"),
        (json.dumps({"version": 1, "leaves": {"3:1:0:-1:1": 0}}).encode(), "is not a leaf's position and window"),
        (json.dumps({"version": 1, "leaves": {"1:2:0:1:-1": 0}}).encode(), "is not a leaf's position and window"),
    ],
)
def test_a_damaged_checkpoint_is_one_line_and_status_2(tmp_path: Path, content: bytes, said: str) -> None:
    (tmp_path / "c.json").write_bytes(content)
    done = _cli("solve", "gothello", "--checkpoint", "c.json", "--table-bits", "10", cwd=tmp_path)
    assert said in refused(done)


def test_solve_and_build_ask_for_their_own_game_and_options(tmp_path: Path) -> None:
    done = _cli("solve", "awari", cwd=tmp_path)
    assert "only gothello is solved" in refused(done)
    done = _cli("build", "awari", cwd=tmp_path)
    assert "--stones N is needed" in refused(done)
    done = _cli("solve", "gothello", "--checkpoint", "/dev/zero", "--table-bits", "10", cwd=tmp_path)
    assert "/dev/zero" in refused(done)
    for mixed in (["--line"], ["--at-least", "3", "--exact"], ["--at-least", "3", "--bounds"]):
        done = _cli("solve", "gothello", *mixed, cwd=tmp_path)
        assert "--line goes with --bounds, --at-least with neither it nor --exact" in refused(done), mixed
    assert "is not a margin from -25 to 25" in refused(_cli("solve", "gothello", "--at-least", "26", cwd=tmp_path))
    assert not list(tmp_path.iterdir())  # no checkpoint begun


@needs_c
@pytest.mark.parametrize(("signum", "jobs"), [(signal.SIGINT, 1), (signal.SIGTERM, 1), (signal.SIGTERM, 2)])
def test_an_interrupted_solve_stops_at_once_and_keeps_its_checkpoint(tmp_path: Path, signum: int, jobs: int) -> None:
    """The start's first leaf takes minutes: Ctrl-C (or SIGTERM) in it ends the solve
    within seconds, status 130, one line, the checkpoint as it was (readable); with
    workers (--jobs 2), none of them is left searching."""
    argv = [
        sys.executable,
        "-m",
        "impl.cli",
        "tablebase",
        "solve",
        "gothello",
        "--table-bits",
        "12",
        "--jobs",
        str(jobs),
    ]
    env = {"PYTHONPATH": str(paths.ROOT), "PATH": "/usr/bin:/bin"}
    with subprocess.Popen(
        argv,
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        # Ctrl-C's default, as at a terminal: a test run started in the background
        # (make verify under nohup … &) has SIGINT ignored, and a child inherits that.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    ) as run:
        try:
            assert run.stderr is not None
            first = run.stderr.readline()  # said once its handlers are in place and it searches
            assert first.startswith("solving "), first
            time.sleep(1)  # into the search: workers are started and warmed before that line
            workers = psutil.Process(run.pid).children(recursive=True)
            assert len(workers) >= (0 if jobs == 1 else 1)
            run.send_signal(signum)
            _, err = run.communicate(timeout=60)
        finally:
            run.kill()  # never left running: the start's solve takes hours
    assert run.returncode == 130 and "interrupted" in err and "Traceback" not in err, err
    _, alive = psutil.wait_procs(workers, timeout=10)
    assert not alive, alive
    checkpoint = tmp_path / "gothello-solve.json"
    assert not checkpoint.exists() or V.Checkpoint.load(checkpoint).result == {}


def test_the_committed_checkpoint_is_one_and_replays(tmp_path: Path) -> None:
    """data/gothello-solve.json, the run made here (docs/tablebases.md): a checkpoint
    this code reads, its leaves margins, its totals the sums it claims to be."""
    checkpoint = V.Checkpoint.load(paths.ROOT / "data" / "gothello-solve.json")
    assert checkpoint.leaves and checkpoint.nodes > 0 and checkpoint.seconds > 0
    for key in checkpoint.leaves:
        mine, theirs, passed, alpha, beta = key.split(":")
        assert int(mine, 16) & int(theirs, 16) == 0 and passed in "01" and int(alpha) < int(beta)


@needs_c
@pytest.mark.parametrize("seed", [0, 7])
def test_the_winning_first_move_wins(tmp_path: Path, seed: int) -> None:
    """The move the solve names as the mover's win leaves a position its opponent
    loses, by the Python solver."""
    root = _root(8)
    assert (GE.Solver(budget=None).value((root[0], root[1], 0, None)) or 0) > 0
    checkpoint = tmp_path / "solve.json"
    assert V.solve(checkpoint, 2, BITS, False, seed, say=False, root=root) == 1
    lib = S.load()
    assert lib is not None
    first = V.winning_first_move(S.CSolver(lib, BITS), V.Checkpoint.load(checkpoint), 2, seed, root)
    assert first is not None and first != S.PASS
    after = S.after_placing(lib, root[0], root[1], first)
    assert after is not None
    assert (GE.Solver(budget=None).value((after[1], after[0], 0, None)) or 0) < 0


@needs_c
def test_the_committed_solve_replays_to_its_result_without_a_search(tmp_path: Path) -> None:
    """data/gothello-solve.json holds every leaf the solve asked: the same command
    on a copy says its result again and computes no leaf."""
    copy = tmp_path / "solve.json"
    copy.write_bytes((paths.ROOT / "data" / "gothello-solve.json").read_bytes())
    data = json.loads(copy.read_text())
    result = data["result"]
    assert V.solve(copy, result["depth"], 16, False, result["seed"], say=False) == result["value"] == 1
    assert json.loads(copy.read_text())["leaves"] == data["leaves"]


@needs_c
def test_the_committed_exact_solve_replays_to_black_by_3_without_a_search(tmp_path: Path) -> None:
    """data/gothello-solve-exact.json (docs/tablebases.md, "The margin") holds every
    leaf its MTD(f) asked: the same command on a copy says +3 again and computes none."""
    copy = tmp_path / "exact.json"
    copy.write_bytes((paths.ROOT / "data" / "gothello-solve-exact.json").read_bytes())
    data = json.loads(copy.read_text())
    result = data["result"]
    assert (result["exact"], result["depth"], result["seed"]) == (True, 3, 7)
    assert V.solve(copy, 3, 16, True, 7, say=False, deepen=1) == result["value"] == 3
    assert json.loads(copy.read_text())["leaves"] == data["leaves"]


@needs_c
@pytest.mark.parametrize(
    ("name", "at_least", "bound"),
    [("gothello-solve-below4.json", 4, "≤ +3"), ("gothello-solve-reaches3.json", 3, "≥ +3")],
)
def test_the_committed_checks_of_the_margin_replay_without_a_search(
    name: str, at_least: int, bound: str, tmp_path: Path
) -> None:
    """data/gothello-solve-below4.json and -reaches3.json (docs/tablebases.md, "A check
    of the margin that shares nothing with it"): each one null window, (3, 4) and
    (2, 3), by seed 11 and a table of its own, says again that black's margin is at
    most +3 and at least +3, and computes no leaf."""
    copy = tmp_path / name
    copy.write_bytes((paths.ROOT / "data" / name).read_bytes())
    data = json.loads(copy.read_text())
    result = data["result"]
    assert (result["at_least"], result["exact"], result["depth"], result["seed"]) == (at_least, False, 3, 11)
    assert result["bound"] == bound
    assert V.solve(copy, 3, 16, False, 11, say=False, deepen=1, at_least=at_least) == result["value"] == 3
    assert json.loads(copy.read_text())["leaves"] == data["leaves"]


@pytest.mark.parametrize(("name", "first"), [("gothello-solve-pass2.json", "c3")])
def test_the_independent_pass_is_certified_too(name: str, first: str) -> None:
    """The second solve (another order, a fresh table: docs/tablebases.md) came to the
    same value by another first move; its top three plies hold on the proven engine,
    the leaves of the replies the split searched once for their images read through
    the board's symmetries."""
    checkpoint = V.Checkpoint.load(paths.ROOT / "data" / name)
    assert checkpoint.result["value"] == 1 and checkpoint.result["seed"] != 0
    pairs = solve_top.certify_top(checkpoint, V.NAMES.index(first))
    assert len(pairs) == 25


@needs_c
def test_the_certificates_symmetries_are_the_solvers() -> None:
    """canonical's eight maps, written in Python apart from the solver, give each
    board the same eight images as the compiled solver's."""
    assert LIB is not None
    rng = random.Random(5)
    for _ in range(200):
        board = rng.getrandbits(25)
        ours = {sum(1 << t[i] for i in range(25) if board >> i & 1) for t in GC.SYMMETRIES}
        assert ours == {S.image(LIB, t, board) for t in range(8)}


def test_the_committed_solves_top_plies_are_certified_on_the_proven_engine() -> None:
    """Every reply the proven engine allows white after black's winning first move has
    an answer that wins by the checkpoint's leaves (or by the game's end); without the
    leaf of one answer, that reply is named uncertified."""
    checkpoint = V.Checkpoint.load(paths.ROOT / "data" / "gothello-solve.json")
    first = V.NAMES.index("a2")
    pairs = solve_top.certify_top(checkpoint, first)
    assert len(pairs) == 25 and ("pass", "pass") in pairs
    reply, answer = next(p for p in pairs if p[0] == "c3")
    engine = ImplGothello()
    state = engine.initial()
    for name in ("a2", reply, answer):
        move = engine.parse_move(name)
        assert move is not None
        state = engine.apply(state, move)[1]
    mine, theirs = state[0], state[1]
    checkpoint.leaves = {k: v for k, v in checkpoint.leaves.items() if not k.startswith(f"{mine:x}:{theirs:x}:0:")}
    with pytest.raises(GC.Uncertified, match="c3"):
        solve_top.certify_top(checkpoint, first)
