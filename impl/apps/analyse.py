"""``referee analyse RECORD…``: a recorded game's endgame judged exactly
(docs/tablebases.md): per move, where the position is decided, the value before, the
value of the move played, the best move, and the blunders.  An Awari record against
an endgame table (``--tb DIR``, from where the board is in the table); a Gothello
record by the exact solver (impl/engines/gothello_endgame.py, from where at most
``--empties`` points are empty), and before that where a solve's answers prove the
values (``--checkpoint``; the committed exact solve's by default: impl/apps/probe.py)."""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from impl import pgn
from impl.apps import solve_bounds as SB
from impl.apps.probe import SOLVE_PLIES, answers, around
from impl.cli import UsageError, subcommand
from impl.engines import gothello_endgame as GE
from impl.engines.gothello import GothelloState, ImplGothello
from impl.engines.tablebase import store
from impl.engines.tablebase.probe import Table
from impl.engines.tablebase.review import MoveReport, Unvalued, review
from impl.engines.tablebase.rules import UnsupportedRules
from spec import awari_rules as AR

from .replay import load


def analyse(record: pgn.PgnGame, table: Table, untrusted: bool = False) -> list[MoveReport | Unvalued]:
    """Every ply of the record: valued where its board is in the table (and, unless
    ``untrusted``, its entry is exact there), else why not."""
    return review(table, [m.move for m in record.plies], untrusted)


Ply = tuple[int, str, str]
"""A ply as printed: its number, its line, and why it has no value ("" if it has one)."""


def print_plies(plies: list[Ply]) -> None:
    """Every ply, one line each, but consecutive plies without a value for the same
    reason as one line (``plies 1–40: not covered: …``)."""
    run: list[Ply] = []

    def flush() -> None:
        if len(run) == 1:
            print("  " + run[0][1])
        elif run:
            print(f"  plies {run[0][0]}–{run[-1][0]}: not covered: {run[0][2]}")
        run.clear()

    for ply in plies:
        if ply[2] and run and run[-1][2] == ply[2]:
            run.append(ply)
            continue
        flush()
        if ply[2]:
            run.append(ply)
        else:
            print("  " + ply[1])
    flush()


@dataclass(frozen=True)
class GothelloReport:
    """One ply of a Gothello record: the mover's margin under perfect play before the
    move and after it (gothello_endgame's value), and the moves that keep the value;
    ``reach`` says why there are none where the position is outside the solver's reach."""

    ply: int
    side: str
    move: str
    before: int | None
    played: int | None
    best: tuple[str, ...]
    reach: str = ""

    @property
    def loss(self) -> int:
        return 0 if self.before is None or self.played is None else self.before - self.played

    @property
    def why(self) -> str:
        """Why the ply has no value ("" if it has one)."""
        return (
            "" if self.before is not None and self.played is not None else f"outside the solver's reach ({self.reach})"
        )

    def line(self) -> str:
        head = f"ply {self.ply:3d} {self.side} {self.move}"
        if self.before is None or self.played is None:
            return f"{head}: not covered: {self.why}"
        verdict = f"  blunder: {self.loss} stone(s), best {' '.join(self.best)}" if self.loss else ""
        if self.before > 0 >= self.played or self.before == 0 > self.played:
            verdict += ", " + ("a win thrown away" if self.before > 0 else "a draw thrown away")
        return f"{head}: before {self.before:+d}, after {self.played:+d} (best {' '.join(self.best)}){verdict}"


def analyse_gothello(
    record: pgn.PgnGame, within: int, budget: int | None, proof: SB.Proof | None = None
) -> list[GothelloReport]:
    """Every ply of a Gothello record, solved where the position has at most
    ``within`` empty points and the solve stays within ``budget`` nodes; above them
    valued where a solve's answers (``proof``) prove the values."""
    engine = ImplGothello()
    solver = GE.Solver(budget)
    state: GothelloState = engine.initial()
    found = []
    for ply, token in enumerate(record.plies, 1):
        move = engine.parse_move(token.move)
        assert move is not None  # the reader checked every move
        side, text = engine.to_move(state).name, engine.format_move(move)
        proven = None if proof is None or GE.empties(state) <= within else _proven(proof, state, text)
        if proven is not None:
            found.append(GothelloReport(ply, side, text, *proven))
        elif GE.empties(state) > within:
            found.append(GothelloReport(ply, side, text, None, None, (), f"more than {within} empty points"))
        else:
            solution = solver.solve(state)
            played = None if solution is None else solver.move_value(state, move)
            if solution is None or played is None:
                found.append(GothelloReport(ply, side, text, None, None, (), f"more than {budget:,} nodes"))
            else:
                best = tuple(engine.format_move(m) for m in solution.best)
                found.append(GothelloReport(ply, side, text, solution.value, played, best))
        _, state = engine.apply(state, move)
    return found


def _proven(proof: SB.Proof, state: GothelloState, move: str) -> tuple[int, int, tuple[str, ...]] | None:
    """The mover's value before ``move``, the move's, and the moves that keep the value,
    where the answers prove both values over the plies left above them (as probe reads
    them); else None."""
    try:
        _, (lo, hi), after = around(proof, state)
    except SB.TooLarge:
        return None
    played = after[move]
    if lo != hi or played[0] != played[1]:
        return None
    return lo, played[0], tuple(name for name, bounds in after.items() if bounds == (lo, lo))


def _answers(given: Path | None) -> SB.Proof | None:
    """The bounds of the answers a Gothello analysis reads (``probe.answers``), if any."""
    read = answers(given)
    if read is None:
        return None
    try:
        return SB.Proof(SB.answered(SB.existing(read, "referee analyse").leaves), SOLVE_PLIES)
    except SB.Contradiction as exc:
        raise UsageError(f"referee analyse: {read}: {exc}") from None


def _print_gothello(path: Path, record: pgn.PgnGame, within: int, budget: int | None, proof: SB.Proof | None) -> None:
    read = "" if proof is None else ", before them a solve's answers"
    print(f"{path}: gothello, solver of ≤ {within} empty points{read}")
    try:
        reports = analyse_gothello(record, within, budget, proof)
    except SB.Contradiction as exc:
        raise UsageError(f"referee analyse: the solve's answers: {exc}") from None
    print_plies([(r.ply, r.line(), r.why) for r in reports])
    blunders = [r for r in reports if r.loss]
    print(f"  blunders: {', '.join(f'ply {r.ply} {r.move} (-{r.loss})' for r in blunders) or 'none'}")


def add_command(subparsers: Any) -> None:
    p = subcommand(subparsers, "analyse", run)
    p.add_argument("records", type=Path, nargs="+", metavar="RECORD", help="Awari or Gothello game records (PGN)")
    p.add_argument(
        "--tb", type=Path, metavar="DIR", help="the tables' folder (referee tablebase build): for Awari records"
    )
    p.add_argument(
        "--empties",
        type=_empties,
        default=GE.K,
        metavar="K",
        help=f"Gothello: solve positions of at most K empty points (default {GE.K}; each more ~3 times longer)",
    )
    p.add_argument(
        "--budget",
        type=_budget,
        default=GE.BUDGET,
        metavar="NODES",
        help=f"Gothello: the nodes one solve may visit before the position is out of reach (default {GE.BUDGET:,})",
    )
    p.add_argument(
        "--checkpoint",
        type=Path,
        metavar="FILE",
        help="Gothello: a solve's answers, which value the first plies where they prove them "
        "(default: the committed exact solve, in a checkout of the repository)",
    )
    p.add_argument(
        "--untrusted",
        action="store_true",
        help="also where the entry is not the referee's exact value (marked ~: docs/tablebases.md)",
    )


def _empties(text: str) -> int:
    try:
        k = int(text)
    except ValueError:
        k = -1
    if not 0 <= k <= 25:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of empty points (0–25)")
    return k


def _budget(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of nodes (1 or more)")
    return int(text)


def run(args: argparse.Namespace) -> int:
    """analyse recorded games' endgames exactly

    For each Awari record (with --tb), once the board holds no more stones than the
    table covers; for each Gothello record, once at most --empties points are empty:
    per move the mover's value before, the value of the move played and the best
    move; then the blunders (moves worth less than the best).
    """
    tables: dict[str, Table] = {}
    proof: SB.Proof | None = None
    for path in args.records:
        record = load(path, "referee analyse")
        if record.game == "gothello":
            proof = proof or _answers(args.checkpoint)  # read once, its bounds shared by the records
            _print_gothello(path, record, args.empties, args.budget, proof)
            continue
        if args.tb is None:
            raise UsageError(f"referee analyse: {path}: an Awari record needs --tb DIR (an endgame table)")
        rules = AR.parse_rules(pgn.engine_rules("awari", record.tag("Rules")))
        name = AR.canonical_name(rules)
        try:  # read whole and verified (store.open_level): once a rule set, not once a record
            if name not in tables:
                tables[name] = Table.found(args.tb, rules)
        except (store.TableError, UnsupportedRules) as exc:
            raise UsageError(f"referee analyse: {exc}") from None
        table = tables[name]
        found = analyse(record, table, args.untrusted)
        print(f"{path}: {AR.canonical_name(rules)}, table of ≤ {table.stones} stones")
        plies = [(r.ply, r.line(), "" if isinstance(r, MoveReport) else r.why) for r in found]
        if len(found) < len(record.plies):  # review stops at a move the rules refuse (a record of other rules)
            k, why = len(found) + 1, f"the move is refused by {AR.canonical_name(rules)}: the review stops"
            plies.append((k, f"ply {k:3d}: not covered: {why}", why))
        print_plies(plies)
        reports = [r for r in found if isinstance(r, MoveReport)]
        blunders = [r for r in reports if r.loss]
        print(f"  blunders: {', '.join(f'ply {r.ply} {r.move} (-{r.loss})' for r in blunders) or 'none'}")
        if not reports:
            print("  no position of the game is in the table" + ("" if args.untrusted else " with an exact entry"))
    return 0
