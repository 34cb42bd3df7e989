"""``referee tablebase probe {awari,gothello} POSITION``: one position, as the tables
and the solver see it (issue #54; docs/tablebases.md, "Probing one position") — its
value, distance, whether the entry is the game's exact value and why, perfect play's
result, and every legal move's value.  The position is written as the spec animator
and the errata write states (impl/engines/statetext.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Final

from impl.apps import solve_bounds as SB
from impl.engines import gothello_endgame as GE
from impl.engines import gothello_solve as GS
from impl.engines import notation, statetext
from impl.engines.awari import engine_for
from impl.engines.gothello import ImplGothello
from impl.engines.kernels import GothelloState
from impl.engines.tablebase import history, probe, store
from spec import awari as A
from spec import awari_rules as AR
from spec import gothello as G

EXAMPLES: Final = {"awari": "'a1 b1 F2 A4, 20/20, south'", "gothello": "'b a2 c3 w a1, black' or 'black' (the start)"}
"""A position of each game as the probe reads it."""


def example(game: str) -> str:
    """A position of ``game`` as the probe reads it (both games' for another name),
    for the message that asks for one."""
    return EXAMPLES.get(game, " or ".join(EXAMPLES.values()))


class ProbeError(Exception):
    """The position cannot be probed; the message says why."""


TRUSTED = "the rule set scores a repetition as uncounted and no earlier position can come again"
"""Why an entry is exact (tablebase/probe.py ``untrusted`` says why one is not)."""
BOUNDED = "its two bounds agree and no earlier position can come again"
"""Why the value of a position is exact under an own-row repetition rule (bounds.py)."""


def awari_lines(text: str, folder: Path, rules: AR.AwariRules, budget: int = history.BUDGET) -> list[str]:
    """The probe of an Awari position in the table of ``rules`` in ``folder``; where
    the bounds differ and nothing of the history can come again, the referee's own
    value searched within ``budget`` nodes."""
    game = statetext.parse_awari(text)  # statetext.NotationError: the caller's usage error
    state = probe.state_of(game)
    board = probe.board_of(state)
    stones = sum(board)
    mover = game.to_move.name
    lines = [f"position: {statetext.format_awari(game)} ({mover} to move, {stones} stones on the board)"]
    engine = engine_for(rules)
    if engine.is_over(state):
        return [*lines, "the game is over here: nothing to probe"]
    try:
        table = probe.Table(folder, rules, stones)
    except store.TableError as exc:
        raise ProbeError(f"{exc} (a board of {stones} stones needs the levels 0 … {stones})") from None
    value = table.value(board)
    distance = table.distance(board)
    lines.append(f"table: {table.name}, levels 0 … {stones} in {folder}")
    far = "" if distance is None or not value else f"; the side ahead forces it within {distance} plies"
    lines.append(f"entry: {value:+d} for {mover} (its margin on the {stones} stones of the board){far}")
    pair = table.bounded(board)
    if pair is not None:
        lines.append(f"bounds: {pair[0]:+d} … {pair[1]:+d} (the referee's value, a repetition scored worst … best)")
    why = probe.untrusted(table, state)
    if why is None:
        lines.append("exact: yes — " + TRUSTED if pair is None else f"exact: yes, {table.exact(board):+d} — {BOUNDED}")
    else:
        lines.append(f"exact: no — {why}")
    found = probe.adjudicate(state, table, checked=why is None)  # why is None: may_repeat already asked
    plus = "the exact value" if found is None or found.upto is None else "either bound: the same winner"
    if why is not None and pair is not None and pair[0] != pair[1] and not probe.may_repeat(state, table.gs):
        searched = history.Referee(table, budget)
        referee = searched.value(board)
        if referee is None:
            lines.append(f"searched: not settled within {budget:,} nodes (--budget): the bounds stand")
        else:
            lines.append(f"searched: {referee:+d} for {mover} — the referee's value, every line to its first "
                         f"repetition ({searched.nodes:,} nodes)")  # fmt: skip
            mine, theirs = probe.stores_of(state)
            found, plus = probe.result_of(state, mine - theirs + referee, mine - theirs + referee), "the searched value"
    if found is not None:
        lines.append(f"perfect play: {found.words()} (the stores {game.score[A.PLAYER.north]}/"
                     f"{game.score[A.PLAYER.south]} north/south, plus {plus})")  # fmt: skip
    values = probe.move_values(table, state)
    best = max(values.values(), default=None)
    said = [f"{notation.format_pit(p)} {v:+d}{' (best)' if v == best else ''}" for p, v in values.items()]
    whose = "" if table.bounds is None else " (the table's game: a line that never ends scores 0)"
    lines.append(f"moves{whose}: " + "  ".join(said))
    return lines


def _signed(value: int | None) -> str:
    return "?" if value is None else f"{value:+d}"


COMMITTED_SOLVE: Final = Path(__file__).resolve().parents[2] / "data" / "gothello-solve-exact.json"
"""The exact solve's answers (docs/tablebases.md, "The margin"), read by a Gothello
probe by default where the repository is at hand (not in the wheel)."""
SOLVE_PLIES: Final = 4
"""The exact solve's split and deepening: its answers are of positions 4 plies deep."""


def answers(given: Path | None) -> Path | None:
    """The answers a Gothello probe reads: ``--checkpoint``, else the committed exact
    solve where the repository is at hand."""
    return given or (COMMITTED_SOLVE if COMMITTED_SOLVE.is_file() else None)


def gothello_lines(text: str, budget: int, answers: Path | None = None) -> list[str]:
    """The value of a Gothello position: by a solve's ``answers`` (a checkpoint: the
    bounds ``--bounds`` reads) where they prove it, else by an exact solve (the
    compiled solver where it builds); the answers' bounds where the solve runs out."""
    game = statetext.parse_gothello(text)
    engine = ImplGothello()
    state = engine.from_spec(game)
    lines = [f"position: {statetext.format_gothello(game)} ({game.to_move.name} to move, {GE.empties(state)} empty)"]
    if engine.is_over(state):
        return [*lines, "the game is over here: nothing to probe"]
    read, proven = ([], False) if answers is None else _from_answers(game, state, answers)
    if proven:
        return [*lines, *read]
    compiled = GS.solver(budget=budget)
    solver = compiled if compiled is not None else GE.Solver(budget)
    solution = solver.solve(state)
    if solution is None:
        if read:
            return [*lines, *read, f"solver: not solved within {budget:,} nodes (--budget): the bounds stand"]
        raise ProbeError(f"not solved within {budget:,} nodes (--budget)")
    kind = "compiled" if compiled is not None else "Python (no C compiler)"
    lines.append(f"solver: {kind}, {solution.nodes:,} nodes")
    mover, other = game.to_move, G.opponent(game.to_move)
    result = (
        "a draw"
        if solution.value == 0
        else (f"{(mover if solution.value > 0 else other).name} wins by {abs(solution.value)}")
    )
    lines.append(f"value: {solution.value:+d} for {mover.name} (its stones less the other's at the end); {result}")
    values = {m: solver.move_value(state, m) for m in engine.legal_moves(state)}
    said = [
        f"{notation.format_gothello(m)} {_signed(v)}{' (best)' if m in solution.best else ''}"
        for m, v in values.items()
    ]
    lines.append("moves: " + "  ".join(said))
    return lines


def around(proof: SB.Proof, state: GothelloState) -> tuple[int, SB.Bounds, dict[str, SB.Bounds]]:
    """What a solve's answers (``proof``) prove at ``state``, read over the plies left
    above them (``SOLVE_PLIES`` less the stones on the board): those plies, the
    mover's bounds, and the mover's bounds after each move (its name's)."""
    plies = max(0, SOLVE_PLIES - (state[0] | state[1]).bit_count())
    value = proof.bounds(state, plies)
    moves = {}
    for name, child in proof.children(state):
        lo, hi = proof.bounds(child, max(plies - 1, 0))
        moves[name] = (-hi, -lo)
    return plies, value, moves


def _from_answers(game: G.GothelloGame, state: GothelloState, path: Path) -> tuple[list[str], bool]:
    """What a solve's answers at ``path`` prove of ``state`` and of each move
    (``around``), and whether they prove its value; no lines if they know nothing of it."""
    checkpoint = SB.existing(path, "referee tablebase probe")
    try:
        plies, value, moves = around(SB.Proof(SB.answered(checkpoint.leaves), SOLVE_PLIES), state)
    except (SB.Contradiction, SB.TooLarge) as exc:
        raise ProbeError(f"{path}: {exc}") from None
    if value == SB.UNKNOWN and all(bounds == SB.UNKNOWN for bounds in moves.values()):
        return [], False
    lo, hi = value
    said = SB.verdict(value, game.to_move.name, G.opponent(game.to_move).name)
    proven = "the value, proven by the answers" if lo == hi else "bounds by the answers"
    shown = f"{lo:+d}" if lo == hi else SB.shown(value)
    return [
        f"answers: {path} ({len(checkpoint.leaves):,} of a solve's), read over {plies} plies of the proven engine",
        f"value: {shown} for {game.to_move.name} (its stones less the other's at the end); {said} — {proven}",
        "moves (the answers' bounds): "
        + "  ".join(f"{m} {_compact(b)}{' (best)' if lo == hi and b == value else ''}" for m, b in moves.items()),
    ], lo == hi


def _compact(bounds: SB.Bounds) -> str:
    """A move's bounds, short: a value, a range, one side, or ``?``."""
    lo, hi = bounds
    if lo == hi:
        return f"{lo:+d}"
    if bounds == SB.UNKNOWN:
        return "?"
    if hi == SB.UNKNOWN[1]:
        return f"≥{lo:+d}"
    if lo == SB.UNKNOWN[0]:
        return f"≤{hi:+d}"
    return f"{lo:+d}…{hi:+d}"
