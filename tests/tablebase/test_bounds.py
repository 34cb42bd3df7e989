"""Exact values under the papers' own repetition rule (issue #54 item 3; bounds.py):
the two bounds of the referee's value, the C kernel's equal to the reference sweeps,
the referee's own margin (the game's lines searched with its positions set) inside
them on every small board and equal to them where they agree, their equations on the
proven engine, and adjudication under ``paper`` where they agree — never where they
do not, nor from a table without them or with one damaged."""

from __future__ import annotations

import mmap
import shutil
from pathlib import Path

import pytest

from impl.apps.tbadjudge import TablebaseRule
from impl.engines import awari as E
from impl.engines.awari import engine_for
from impl.engines.tablebase import bounds, build, check, history, kernel, probe, review, store
from impl.engines.tablebase.index import boards, level_size
from impl.engines.tablebase.rules import slam_rule
from spec import awari as A
from spec import awari_rules as AR
from tests.support.terminal import refused, run_referee

from .conftest import STONES
from .test_adjudication import THINKER, _into_table

OWN_ROW = ("paper", "abapa")


def _levels(name: str, stones: int, use_c: bool, bug: int = kernel.NO_BUG) -> list[tuple[bytes, bytes]]:
    rules = AR.parse_rules(name)
    lowers: dict[str, list[mmap.mmap]] = {kind: [] for kind in bounds.KINDS}
    found = []
    for n in range(stones + 1):
        pair = build._solve_bounds(n, slam_rule(rules), lowers, bug, use_c)
        for kind, values in zip(bounds.KINDS, pair, strict=True):
            bare = mmap.mmap(-1, max(len(values), 1))
            bare[: len(values)] = values
            lowers[kind].append(bare)
        found.append(pair)
    return found


@pytest.mark.parametrize("name", OWN_ROW)
def test_the_c_kernel_gives_the_reference_sweeps_bounds_byte_for_byte(name: str) -> None:
    assert _levels(name, 6, use_c=True) == _levels(name, 6, use_c=False)


def test_a_planted_capture_changes_the_bounds() -> None:
    assert _levels("paper", 5, True, kernel.PLANT_CAPTURE) != _levels("paper", 5, True)


@pytest.fixture(scope="module")
def own_row(tmp_path_factory: pytest.TempPathFactory) -> dict[str, probe.Table]:
    folder = tmp_path_factory.mktemp("own-row")
    found = {}
    for name in OWN_ROW:
        rules = AR.parse_rules(name)
        build.build(folder, rules, STONES)
        found[name] = probe.Table(folder, rules, STONES)
    return found


@pytest.mark.parametrize("name", OWN_ROW)
def test_the_referees_margin_lies_within_the_bounds_and_is_them_where_they_agree(
    own_row: dict[str, probe.Table], name: str
) -> None:
    """Every board of 1–3 stones (455), north to move, no positions yet: two null-window
    searches of the referee's game, lines ending at the first repetition as the rule
    set scores it, show lo <= its margin <= hi."""
    assert check.check_bounds(own_row[name], 3) == []


def test_the_check_finds_bounds_built_on_a_planted_index_slip(tmp_path: Path) -> None:
    rules = AR.parse_rules("paper")
    build.build(tmp_path, rules, 3, bug=kernel.PLANT_INDEX)
    table = probe.Table(tmp_path, rules, 3)
    assert check.check_bounds(table, 3)
    assert check.in_parts(table, 1)[check.BOUNDS]


@pytest.mark.parametrize("name", OWN_ROW)
def test_the_bounds_keep_their_equations_on_the_proven_engine(own_row: dict[str, probe.Table], name: str) -> None:
    found = check.in_parts(own_row[name], 1)
    assert found[check.BOUNDS] == [] and found["Bellman on the proven engine"] == []


def test_the_uncounted_tables_have_no_bounds_nor_their_check(tables: dict[str, probe.Table]) -> None:
    table = tables["olympiad-1990"]
    assert table.bounds is None and check.BOUNDS not in check.in_parts(table, 1)
    assert not list(table.folder.glob("awari-olympiad-1990*.hi"))


@pytest.mark.parametrize("name", OWN_ROW)
def test_the_tables_game_lies_within_the_bounds_and_most_boards_are_exact(
    own_row: dict[str, probe.Table], name: str
) -> None:
    """An endless line scored 0 is between the bounds' -n and +n, so the table's own
    entry is too; and the bounds agree on most boards of every level."""
    table = own_row[name]
    for n in range(STONES + 1):
        exact = 0
        for pits in boards(n):
            pair = table.bounded(pits)
            assert pair is not None and pair[0] <= table.value(pits) <= pair[1], pits
            exact += pair[0] == pair[1]
        assert exact > level_size(n) // 2, (n, exact)


def test_the_chase_round_the_board_is_not_exact(own_row: dict[str, probe.Table]) -> None:
    """docs/tablebases.md's witness: a1 f1, north to move, south's row empty — the
    stones chase round to the same board; the table's game says 0, the referee gives
    north both by the repetition's own-row rule, and the bounds say so: -2 … +2."""
    table = own_row["paper"]
    game = A.AwariGame((1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0), (23, 23), A.PLAYER.north, frozenset())
    state = probe.state_of(game)
    board = probe.board_of(state)
    assert table.value(board) == 0 and table.bounded(board) == (-2, 2) and table.exact(board) is None
    assert probe.adjudicate(state, table) is None
    assert "the entry's bounds differ (-2 … +2)" in (probe.untrusted(table, state) or "")


def test_adjudication_under_paper_uses_the_exact_value_not_the_entry(own_row: dict[str, probe.Table]) -> None:
    table = own_row["paper"]
    _, state = _into_table(table)
    board = probe.board_of(state)
    found = probe.adjudicate(state, table)
    value = table.exact(board)
    assert found is not None and value is not None and table.bounded(board) == (value, value)
    mine, theirs = probe.stores_of(state)
    final = mine - theirs + value
    assert found.difference == (final if E.player_to_move(state) == A.PLAYER.north else -final)
    # The perfect player advises only where a move's value is the referee's: not here.
    assert probe.best_move(table, state) is None
    # With an earlier position that can come again the bounds do not decide.
    engine = engine_for(table.rules)
    for pit in engine.legal_moves(state):
        _, after = engine.apply(state, pit)
        if not engine.is_over(after) and sum(probe.board_of(after)) == sum(board):
            back = [q for q in engine.legal_moves(after) if engine.apply(after, q)[1][:3] == state[:3]]
            if back:
                assert not probe.trusted(table, after)
                break


def test_a_match_under_paper_is_adjudicated_where_the_bounds_agree(
    own_row: dict[str, probe.Table], tmp_path: Path
) -> None:
    table = own_row["paper"]
    opening, _ = _into_table(table)
    book = tmp_path / "book.txt"
    book.write_text(" ".join(opening) + "\n")
    done = run_referee("match", f"a={THINKER}", f"b={THINKER}", "--game", "awari", "--games", "2", "--openings",
                       str(book), "--records", "m", "--rules", "paper", "--tb", str(table.folder), "--tb-stones",
                       str(STONES), cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    assert done.stdout.count("adjudicated by the endgame table: ") == 2, done.stdout
    assert "(paper, exact: its two bounds agree)" in done.stdout


def _copy(table: probe.Table, into: Path) -> Path:
    into.mkdir()
    for path in table.folder.glob("awari-paper-*"):
        shutil.copy(path, into / path.name)
    return into


def test_a_paper_table_without_bounds_is_refused_in_one_line(own_row: dict[str, probe.Table], tmp_path: Path) -> None:
    folder = _copy(own_row["paper"], tmp_path / "tb")
    (folder / "awari-paper-03.lo").unlink()
    line = refused(run_referee("match", "random", "random", "--game", "awari", "--rules", "paper", "--tb", str(folder),
                               cwd=tmp_path))  # fmt: skip
    assert line.startswith("referee match: --tb: under paper") and "has no bounds" in line


def test_a_damaged_bound_is_refused_before_it_judges(own_row: dict[str, probe.Table], tmp_path: Path) -> None:
    folder = _copy(own_row["paper"], tmp_path / "tb")
    path = folder / "awari-paper-04.hi"
    data = bytearray(path.read_bytes())
    data[store.HEADER_SIZE + 7] ^= 1
    path.write_bytes(bytes(data))
    with pytest.raises(store.TableError, match="checksum mismatch"):
        probe.Table(folder, AR.parse_rules("paper"), STONES)
    line = refused(run_referee("match", "random", "random", "--game", "awari", "--rules", "paper", "--tb", str(folder),
                               cwd=tmp_path))  # fmt: skip
    assert "awari-paper-04.hi: checksum mismatch" in line


def test_the_probe_command_says_the_bounds_and_the_exact_value(own_row: dict[str, probe.Table], tmp_path: Path) -> None:
    folder = str(own_row["paper"].folder)
    done = run_referee("tablebase", "probe", "awari", "a1 f1, 23/23, north", "--out", folder, "--rules", "paper",
                       cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "bounds: -2 … +2" in done.stdout and "exact: no — under paper" in done.stdout
    # The referee's own value, by the search of every line to its first repetition:
    # north chases the stones round and claims both (docs/tablebases.md's witness).
    assert "searched: +2 for north — the referee's value" in done.stdout
    assert "perfect play: north wins by 2 (the stores 23/23 north/south, plus the searched value)" in done.stdout
    done = run_referee("tablebase", "probe", "awari", "a1 f1, 23/23, north", "--out", folder, "--rules", "paper",
                       "--budget", "1", cwd=tmp_path)  # fmt: skip
    assert "searched: not settled within 1 nodes (--budget): the bounds stand" in done.stdout
    assert "perfect play" not in done.stdout
    done = run_referee("tablebase", "probe", "awari", "a1 b1 E1, 23/22, south", "--out", folder, "--rules", "paper",
                       cwd=tmp_path)  # fmt: skip
    assert "exact: yes, -3 — its two bounds agree" in done.stdout, done.stdout
    assert "perfect play: north wins by 4" in done.stdout


def test_where_the_bounds_differ_the_stores_can_still_decide(
    own_row: dict[str, probe.Table], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bounds -2 … +3 on a board of 4 stones: with north (to move) 24 stones to south's
    20, north's final difference is 2 to 7 whatever the repetition gives, so north
    wins; with 22/22 it could be a win or a loss, and nothing is adjudicated.  (The
    bounds' soundness is checked above; here, what adjudication makes of them.)"""
    table = own_row["paper"]
    board = (1, 0, 0, 1, 0, 0, 0, 1, 0, 0, 1, 0)
    monkeypatch.setattr(probe.Table, "bounded", lambda self, pits: (-2, 3))
    ahead = A.AwariGame(board, (24, 20), A.PLAYER.north, frozenset())
    assert probe.adjudicate(ahead, table) == probe.Adjudicated(A.PLAYER.north, 2, 7)
    assert probe.Adjudicated(A.PLAYER.north, 2, 7).words() == "north wins by 2 to 7"
    south = A.AwariGame(board, (20, 24), A.PLAYER.south, frozenset())
    assert probe.adjudicate(south, table) == probe.Adjudicated(A.PLAYER.south, -2, -7)
    assert probe.adjudicate(A.AwariGame(board, (22, 22), A.PLAYER.north, frozenset()), table) is None
    assert probe.adjudicate(A.AwariGame(board, (23, 21), A.PLAYER.north, frozenset()), table) is None  # 0 … 5
    verdict = TablebaseRule(table.folder, STONES, "paper").verdict(probe.state_of(ahead))
    assert verdict is not None and verdict[2] == (
        "north wins by 2 to 7: north to move, 4 stones on the board, table bounds -2 … +3 "
        "(paper, the same winner at either)"
    )


@pytest.mark.parametrize("name", OWN_ROW)
def test_every_adjudication_is_the_referees_result(own_row: dict[str, probe.Table], name: str) -> None:
    """Every board of 1–2 stones, north to move, and every split of the other stones
    between the stores: where the table adjudicates, the referee's own game (the
    spec's, searched with its positions set, a store of 25 ending it) ends the same."""
    table = own_row[name]
    judged = 0
    for n in (1, 2):
        for pits in boards(n):
            for north in range(49 - n):
                game = A.AwariGame(tuple(pits), (north, 48 - n - north), A.PLAYER.north, frozenset())
                found = probe.adjudicate(game, table)
                if found is None:
                    continue
                real = check.history_outcome(table.rules, pits, north)
                said = {A.PLAYER.north: 1, A.PLAYER.south: -1, None: 0}[found.winner]
                assert said == real, (pits, north, found)
                judged += 1
    assert judged


def test_a_levels_files_renamed_into_each_others_places_are_refused(
    own_row: dict[str, probe.Table], tmp_path: Path
) -> None:
    """Each file's header names its kind: the table's game's entries copied over a bound
    (the same rules, level, size and code) are refused, not read as bounds that judge."""
    folder = _copy(own_row["paper"], tmp_path / "tb")
    shutil.copy(folder / "awari-paper-05.tb", folder / "awari-paper-05.hi")
    with pytest.raises(store.TableError, match=r"awari-paper-05\.hi: built for"):
        probe.Table(folder, AR.parse_rules("paper"), STONES)
    shutil.copy(folder / "awari-paper-05.lo", folder / "awari-paper-05.hi")
    with pytest.raises(store.TableError, match=r"awari-paper-05\.hi: built for"):
        probe.Table(folder, AR.parse_rules("paper"), STONES)


def test_bounds_that_would_not_fit_in_memory_are_refused_before_they_are_made(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The doubled level is said in one line (NotEnoughMemory, the CLI's line), the
    level's entries and the bounds below kept; with memory enough, the build resumes."""
    rules = AR.parse_rules("paper")
    build.build(tmp_path, rules, 7)
    (tmp_path / "awari-paper-07.hi").unlink()
    monkeypatch.setattr(build, "available_memory", lambda: 40 * level_size(7))
    with pytest.raises(
        build.NotEnoughMemory, match=r"level 7 needs .* its bounds' doubled level \([\d,]+ moves, twice\)"
    ):
        build.build(tmp_path, rules, 7)
    assert (tmp_path / "awari-paper-06.hi").exists() and (tmp_path / "awari-paper-07.tb").exists()
    monkeypatch.setattr(build, "available_memory", lambda: None)
    build.build(tmp_path, rules, 7)
    assert probe.Table(tmp_path, rules, 7).bounds is not None


@pytest.mark.parametrize("name", OWN_ROW)
def test_the_referees_value_searched_with_the_bounds_is_the_whole_searchs(
    own_row: dict[str, probe.Table], name: str
) -> None:
    """history.Referee (a capture's child by its own value, remembered; null windows
    between the bounds) gives every board of 1–2 stones and 20 of 3 whose bounds
    differ the margin of check.referee_margin's search of every line, history and all."""
    table = own_row[name]
    engine = engine_for(table.rules)
    referee = history.Referee(table)
    open_three = [p for p in boards(3) if len(set(table.bounded(p) or ())) == 2][:20]
    assert len(open_three) == 20
    for pits in [*boards(1), *boards(2), *open_three]:
        state = E.table_state(pits)
        got = referee.value(pits)
        if engine.is_over(state):
            assert got == table.value(pits)
            continue
        assert got == check.referee_margin(engine, state, -99, 99), pits
    assert referee.nodes > 0


def test_the_referees_value_past_its_budget_is_not_known(own_row: dict[str, probe.Table]) -> None:
    table = own_row["paper"]
    pits = next(p for p in boards(3) if (pair := table.bounded(p)) is not None and pair[0] != pair[1])
    assert history.Referee(table, budget=1).value(pits) is None
    whole = history.Referee(table)
    value = whole.value(pits)
    assert value is not None and whole.nodes > 1
    lo, hi = table.bounded(pits) or (0, 0)
    assert lo <= value <= hi


@pytest.mark.parametrize("name", OWN_ROW)
def test_where_the_bounds_leave_the_winner_open_the_search_adjudicates_the_referees_result(
    own_row: dict[str, probe.Table], name: str
) -> None:
    """Every board of 1–2 stones whose bounds differ, north to move, with every split of
    the other stones between the stores that the bounds leave open: the searched value
    adjudicates it and the verdict says so.  On three boards, the split that makes it a
    draw and one that makes it a win or a loss: the referee's own game (the spec's,
    exhaustively, a store of 25 ending it; 1.5 s a split) ends with the same winner.
    (history.Referee's value is the whole search's: the test above.)"""
    table = own_row[name]
    values = history.Values(table)
    rule = TablebaseRule(table.folder, STONES, name)
    engine = engine_for(table.rules)
    judged: list[tuple[tuple[int, ...], int, history.Searched]] = []
    for n in (1, 2):
        for pits in boards(n):
            pair = table.bounded(pits)
            if pair is None or pair[0] == pair[1]:
                continue
            for north in range(49 - n):
                game = A.AwariGame(tuple(pits), (north, 48 - n - north), A.PLAYER.north, frozenset())
                if probe.adjudicate(game, table) is not None or engine.is_over(probe.state_of(game)):
                    continue  # the bounds decide it (the test above), or a store of 25 has
                found = history.adjudicate(probe.state_of(game), values)
                assert found is not None, (pits, north)
                assert pair[0] <= found.value <= pair[1]
                verdict = rule.verdict(probe.state_of(game))
                assert verdict is not None and f"the referee's value {found.value:+d} ({name}, searched" in verdict[2]
                judged.append((tuple(pits), north, found))
    assert len({pits for pits, _, _ in judged}) >= 3
    checked = 0
    for pits in sorted({p for p, _, _ in judged})[:3]:
        splits = [(north, found) for p, north, found in judged if p == pits]
        draw = [(north, found) for north, found in splits if north - (48 - sum(pits) - north) == -found.value]
        won = [(north, found) for north, found in splits if (north, found) not in draw]
        for north, found in draw[:1] + won[:1]:
            said = {A.PLAYER.north: 1, A.PLAYER.south: -1, None: 0}[found.result.winner]
            assert said == check.history_outcome(table.rules, pits, north), (pits, north, found)
            checked += 1
    assert checked >= 5


def test_the_search_adjudicates_nothing_past_its_budget_and_the_history_where_it_can_repeat(
    own_row: dict[str, probe.Table],
) -> None:
    """A board whose search ran out is left to the players (and not searched again); a
    position whose earlier one can come again is not judged by its board's remembered
    value but by the search of its own game, its history included."""
    table = own_row["paper"]
    pits = next(p for p in boards(3) if (pair := table.bounded(p)) is not None and pair[0] != pair[1])
    lo = (table.bounded(pits) or (0, 0))[0]
    north = (48 - 3 - lo) // 2  # north leads the stores by about -lo: the low bound makes it a draw
    game = A.AwariGame(tuple(pits), (north, 45 - north), A.PLAYER.north, frozenset())
    assert probe.adjudicate(game, table) is None
    poor = history.Values(table, budget=1)
    assert history.adjudicate(probe.state_of(game), poor) is None
    assert pits in poor.open and poor.value(pits) == (None, 0)
    rich = history.Values(table)
    assert history.adjudicate(probe.state_of(game), rich) is not None
    engine = engine_for(table.rules)
    repeating = []
    for board in boards(3):
        for north in range(46):
            state = probe.state_of(A.AwariGame(tuple(board), (north, 45 - north), A.PLAYER.north, frozenset()))
            if engine.is_over(state):
                continue
            for pit in engine.legal_moves(state):
                after = engine.apply(state, pit)[1]  # its positions hold the board before
                if sum(probe.board_of(after)) == 3 and not engine.is_over(after) and probe.may_repeat(after, table.gs):
                    repeating.append(after)
        if len(repeating) > 20:
            break
    open_ones = [after for after in repeating if probe.adjudicate(after, table) is None]
    assert open_ones
    for after in open_ones:
        found = history.adjudicate(after, rich)
        final = rich.in_game(after)[0]
        mine, theirs = probe.stores_of(after)
        assert found is not None and final is not None and found.value == final - (mine - theirs)
        assert history.Values(table, budget=1).in_game(after)[0] is None


@pytest.mark.parametrize("name", OWN_ROW)
def test_where_the_history_can_repeat_the_games_own_search_adjudicates_the_referees_result(
    own_row: dict[str, probe.Table], name: str
) -> None:
    """Boards of 2 stones with the stores near even, a few moves played that capture
    nothing (so an earlier position can come again, and the bounds say nothing): the
    search of the game's own lines, history and stores as they are, adjudicates, and the
    spec's exhaustive search of the same game (check.game_outcome) ends with the same
    winner, on eight such positions."""
    import random

    table = own_row[name]
    engine = engine_for(table.rules)
    values = history.Values(table)
    rng = random.Random(1)
    found = []
    for pits in boards(2):
        for north in range(20, 27, 3):
            state = probe.state_of(A.AwariGame(tuple(pits), (north, 46 - north), A.PLAYER.north, frozenset()))
            for _ in range(3):
                stay = [m for m in engine.legal_moves(state) if sum(probe.board_of(engine.apply(state, m)[1])) == 2]
                if engine.is_over(state) or not stay:
                    break
                state = engine.apply(state, rng.choice(stay))[1]
                if (
                    not engine.is_over(state)
                    and probe.may_repeat(state, table.gs)
                    and not probe.adjudicate(state, table)
                ):
                    found.append(state)
    assert len(found) >= 8
    for state in rng.sample(found, 8):
        searched = history.adjudicate(state, values)
        assert searched is not None
        game = engine.to_spec(state)
        said = {game.to_move: 1, A.opponent(game.to_move): -1, None: 0}[searched.result.winner]
        assert said == check.game_outcome(table.rules, game), (game, searched)
        verdict = TablebaseRule(table.folder, STONES, name).verdict(state)
        assert verdict is not None and "searched over this game's lines, its history included" in verdict[2]


def _down_to_the_last_stones(rules: AR.AwariRules) -> list[str]:
    """A game from the start, its moves mostly captures (seeded), that has plies played
    from boards of at most ``history.ADJUDICATION_STONES`` stones."""
    import random

    engine = engine_for(rules)
    for seed in range(100):
        rng = random.Random(seed)
        state, moves, low = engine.initial(), [], 0
        while not engine.is_over(state):
            stones = sum(probe.board_of(state))
            options = engine.legal_moves(state)
            takes = [m for m in options if sum(probe.board_of(engine.apply(state, m)[1])) < stones]
            move = rng.choice(takes if takes and rng.random() < 0.9 else options)
            low += stones <= history.ADJUDICATION_STONES
            moves.append(move.name)
            state = engine.apply(state, move)[1]
        if low >= 2:
            return moves
    raise AssertionError("no seed's game got down to the last stones")


@pytest.mark.parametrize("name", OWN_ROW)
def test_analyse_values_the_last_plies_by_the_referees_search(own_row: dict[str, probe.Table], name: str) -> None:
    """Under an own-row rule set a move's table value is not the referee's, but on boards
    of at most 3 stones the review (``referee analyse``, the web view's replay) values
    each ply by the referee's own search of the game, its stores and history as they
    are: every move's worth equal to the reference search of the proven engine
    (check.referee_margin, every line, the positions set included); the plies above
    say why they are not valued; a search past its budget values nothing."""
    table = own_row[name]
    engine = engine_for(table.rules)
    moves = _down_to_the_last_stones(table.rules)
    reports = review.review(table, moves)
    assert len(reports) == len(moves)
    state, searched, short = engine.initial(), 0, 0
    for report, move in zip(reports, moves, strict=True):
        played = engine.parse_move(move)
        assert played is not None
        stones = sum(probe.board_of(state))
        if stones > STONES:
            assert isinstance(report, review.Unvalued) and report.why == review.OUTSIDE
        elif stones > history.ADJUDICATION_STONES:
            assert isinstance(report, review.Unvalued) and report.why == review.OWN_ROW
        else:
            me, (mine, theirs) = E.mover(state), probe.stores_of(state)
            worth = {}
            for pit in engine.legal_moves(state):
                after = engine.apply(state, pit)[1]
                if engine.is_over(after) or not sum(probe.board_of(after)):
                    worth[pit.name] = E.store(after, me) - E.store(after, 1 - me)
                else:
                    worth[pit.name] = -check.referee_margin(engine, after, -49, 49)
            best = max(worth.values())
            assert isinstance(report, review.MoveReport) and report.exact, report
            assert (report.before, report.played, report.best_value) == (
                best - (mine - theirs),
                worth[move] - (mine - theirs),
                best - (mine - theirs),
            )
            assert worth[report.best] == best
            poor, _ = review._searched(report.ply, report.side, played, state, history.Values(table, budget=1))
            assert poor == report or poor == review.Unvalued(report.ply, report.side, move, review.OUT_OF_NODES)
            short += poor != report  # no guess where a search was needed
            searched += 1
        state = engine.apply(state, played)[1]
    assert searched >= 2 and short >= 1


def test_a_records_search_is_bounded(own_row: dict[str, probe.Table], monkeypatch: pytest.MonkeyPatch) -> None:
    """The plies of one record share ``review.REVIEW_NODES`` of search: once spent, the
    rest of its plies of the last stones say so instead of being searched."""
    table = own_row["paper"]
    moves = _down_to_the_last_stones(table.rules)
    monkeypatch.setattr(review, "REVIEW_NODES", 1)
    low = [r for r in review.review(table, moves) if isinstance(r, review.MoveReport) or r.why == review.SPENT]
    kinds = ["searched" if isinstance(r, review.MoveReport) else "spent" for r in low]
    first = kinds.index("spent")  # searched, then spent to the end
    assert kinds == ["searched"] * first + ["spent"] * (len(kinds) - first)
