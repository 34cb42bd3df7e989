"""``referee tablebase probe {awari,gothello} POSITION``: one position, as the tables
and the solver see it (issue #54; docs/tablebases.md, "Probing one position") — its
value, distance, whether the entry is the game's exact value and why, perfect play's
result, and every legal move's value.  The position is written as the spec animator
and the errata write states (impl/engines/statetext.py)."""

from __future__ import annotations

from pathlib import Path

from impl.engines import gothello_endgame as GE
from impl.engines import gothello_solve as GS
from impl.engines import notation, statetext
from impl.engines.awari import engine_for
from impl.engines.gothello import ImplGothello
from impl.engines.tablebase import history, probe, store
from spec import awari as A
from spec import awari_rules as AR
from spec import gothello as G


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


def gothello_lines(text: str, budget: int) -> list[str]:
    """The exact solve of a Gothello position (the compiled solver where it builds)."""
    game = statetext.parse_gothello(text)
    engine = ImplGothello()
    state = engine.from_spec(game)
    lines = [f"position: {statetext.format_gothello(game)} ({game.to_move.name} to move, {GE.empties(state)} empty)"]
    if engine.is_over(state):
        return [*lines, "the game is over here: nothing to probe"]
    compiled = GS.solver(budget=budget)
    solver = compiled if compiled is not None else GE.Solver(budget)
    solution = solver.solve(state)
    if solution is None:
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
