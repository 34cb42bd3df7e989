"""``referee tablebase probe`` (impl/apps/probe.py; issue #54): one position's entry,
whether it is the game's exact value and why not, perfect play's result and every
move's value — each checked against the table's own probe and the solver; bad
positions and missing levels are one line and a status."""

from __future__ import annotations

import subprocess
from pathlib import Path

from impl.apps import probe as P
from impl.engines import gothello_endgame as GE
from impl.engines import notation, statetext
from impl.engines.gothello import ImplGothello
from impl.engines.tablebase import probe
from impl.engines.tablebase.probe import Table
from spec import awari_rules as AR
from tests.support import paths
from tests.support.terminal import refused, run_referee

POSITION = "a1 b1 E1, 23/22, south"
"""Three stones: south's E1, north's a1 and b1; south to move."""


def _referee(*argv: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return run_referee("tablebase", "probe", *argv, cwd=cwd, timeout=120)


def test_an_awari_probe_is_the_tables_own(tables: dict[str, Table], tmp_path: Path) -> None:
    table = tables["olympiad-1990"]
    state = probe.state_of(statetext.parse_awari(POSITION))
    entry = table.value(probe.board_of(state))
    done = _referee("awari", POSITION, "--out", str(table.folder), "--rules", "olympiad-1990", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == f"position: {POSITION} (south to move, 3 stones on the board)"
    assert lines[2].startswith(f"entry: {entry:+d} for south")
    assert lines[3] == "exact: yes — " + P.TRUSTED
    found = probe.adjudicate(state, table)
    assert found is not None and lines[4].startswith("perfect play: ")
    values = probe.move_values(table, state)
    assert lines[5] == "moves: " + "  ".join(
        f"{p.name} {v:+d}{' (best)' if v == max(values.values()) else ''}" for p, v in values.items()
    )


def test_an_even_entry_names_no_side_ahead(tables: dict[str, Table]) -> None:
    """An entry of 0 has no side ahead, so no distance is claimed for it (its
    distance is 0 by definition: docs/tablebases.md); a won entry's is said."""
    folder, rules = tables["olympiad-1990"].folder, AR.parse_rules("olympiad-1990")
    assert (
        P.awari_lines("a1 A1, 23/23, south", folder, rules)[2]
        == "entry: +0 for south (its margin on the 2 stones of the board)"
    )
    assert P.awari_lines("f1 A1, 23/23, south", folder, rules)[2].endswith("; the side ahead forces it within 3 plies")


def test_under_the_papers_rule_the_value_is_exact_where_the_bounds_agree(
    tables: dict[str, Table], tmp_path: Path
) -> None:
    """The entry is the table's game's; the bounds (bounds.py) say the referee's value:
    here they agree, and perfect play's result follows; where they do not
    (test_bounds.py's chase round the board), the probe says the entry is not exact."""
    lines = P.awari_lines(POSITION, tables["paper"].folder, AR.parse_rules("paper"))
    assert lines[3] == "bounds: -3 … -3 (the referee's value, a repetition scored worst … best)"
    assert lines[4] == "exact: yes, -3 — " + P.BOUNDED
    assert lines[5].startswith("perfect play: north wins by 4")
    assert lines[6].startswith("moves (the table's game: a line that never ends scores 0): ")


def test_a_gothello_probe_is_the_solvers(tmp_path: Path) -> None:
    text = "b a1 a2 a3 a4 a5 b1 b2 b3 b4 b5 c1 c2 w c3 c4 c5 d1 d2 d3, white"
    done = _referee("gothello", text, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    state = ImplGothello().from_spec(statetext.parse_gothello(text))
    solution = GE.Solver(budget=None).solve(state)
    assert solution is not None
    lines = done.stdout.splitlines()
    assert lines[2].startswith(f"value: {solution.value:+d} for white")
    best = [word for word in lines[3].removeprefix("moves: ").split("  ") if word.endswith("(best)")]
    assert [b.split()[0] for b in best] == [notation.format_gothello(m) for m in solution.best]


def test_the_gothello_start_is_probed_by_the_committed_exact_solve(tmp_path: Path) -> None:
    """Where the solver cannot reach (the start: 25 empty points), the committed exact
    solve's answers prove the value (docs/tablebases.md, "The margin"): +3 for the
    mover, b3 and its images best; after b3 white's c3 keeps it; no solver runs."""
    assert P.COMMITTED_SOLVE.is_file()
    done = _referee("gothello", "black", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[1].startswith(f"answers: {P.COMMITTED_SOLVE} (2,114 of a solve's)")
    said = "its stones less the other's at the end); black wins by 3 — the value, proven by the answers"
    assert lines[2] == f"value: +3 for black ({said}"
    best = [word.split()[0] for word in lines[3].split(": ", 1)[1].split("  ") if word.endswith("(best)")]
    assert best == ["b3", "c2", "c4", "d3"]  # b3 and its images; a pass loses by 3:
    assert "pass -3" in lines[3] and len(lines) == 4
    after = _referee("gothello", "b b3, white", cwd=tmp_path).stdout.splitlines()
    assert after[2].startswith("value: -3 for white") and "c3 -3 (best)" in after[3]


def test_a_gothello_probe_reads_the_answers_it_is_given(tmp_path: Path) -> None:
    """``--checkpoint``: the first solve's answers prove only black's win at the start;
    the solver, past its budget, leaves those bounds standing (status 0)."""
    first = paths.ROOT / "data" / "gothello-solve.json"
    done = _referee("gothello", "black", "--checkpoint", str(first), "--budget", "1000", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert (
        lines[2].startswith("value: ≥ +1 for black") and "black wins by at least 1 — bounds by the answers" in lines[2]
    )
    assert lines[-1] == "solver: not solved within 1,000 nodes (--budget): the bounds stand"


def _not_a_checkpoint(folder: Path) -> Path:
    path = folder / "notes.json"
    path.write_text('{"leaves": []}')
    return path


def test_bad_probes_are_one_line(tables: dict[str, Table], tmp_path: Path) -> None:
    folder = str(tables["olympiad-1990"].folder)
    cases = [
        (("awari", "a1 b1, 20/20, south", "--out", folder, "--rules", "olympiad-1990"), 2, "holds 48 stones"),
        (("awari", "--out", folder), 2, "the position is needed, e.g. 'a1 b1 F2 A4, 20/20, south'"),
        (("gothello",), 2, "the position is needed, e.g. 'b a2 c3 w a1, black' or 'black' (the start)"),
        (("awari", "a4 b4 c4 d4 e4 f4 A4 B4 C4 D4 E4 F4, 0/0, south", "--out", folder, "--rules", "olympiad-1990"),
         1, "needs the levels 0 … 48"),
        (("gothello", "b z9, black"), 2, "z9"),
        (("gothello", "b c3 w c4, green"), 2, "the side to move: black, white"),
        (("chess", "x"), 2, "neither awari nor gothello"),
        (("gothello", "black", "--checkpoint", str(_not_a_checkpoint(tmp_path))), 2, "not a solve checkpoint"),
        (("gothello", "black", "--checkpoint", str(tmp_path / "none.json")), 2, "none.json"),
    ]  # fmt: skip
    for argv, status, said in cases:
        done = _referee(*argv, cwd=tmp_path)
        if status == 2:
            assert said in refused(done), argv
            continue
        assert done.returncode == status, (argv, done.stderr)
        assert len(done.stderr.strip().splitlines()) == 1 and said in done.stderr, (argv, done.stderr)
        assert "Traceback" not in done.stderr
