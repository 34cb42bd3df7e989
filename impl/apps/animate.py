"""The spec animator: ``referee spec awari|gothello``, for
consulting the executable Z in the spirit of ProB's animation of Z.

Set up a state in the papers' notation (impl/engines/statetext.py), or load an erratum's
witness by its id; give an input (``--rules`` names the Awari rule set the referee
plays, spec/awari_rules.py); see *every* disjunct of the turn schema that
holds, as written (``AwariRef``, ``GothelloTurn``) and corrected
(``AwariRef_corrected``, ``GothelloTurn_corrected``), each with its result and its after-state — with the
components a literal schema leaves free shown as free.  Then step on (by the
referee's single outcome, or into any shown after-state that is determined), undo,
and go on.  ``help`` lists the commands.

Why here and not in spec/: spec/ holds the specification and nothing else (every
name in it is a schema or a Z operator, and its modules are what the proofs and
CrossHair read); a command shell with parsing, display and a history of states is
an application of the spec, like the referee (``python -m spec`` lists the spec's
modules and points here).

The errata witnesses are the state witnesses of the errata register
(spec/errata.py), the one list that the tests and proofs/ERRATA.md read too.
"""

from __future__ import annotations

import argparse
import inspect
import re
import sys
from collections.abc import Callable
from typing import Any, TextIO, cast

from impl.cli import add_rules_argument, check_rules, subcommand
from impl.engines import notation
from impl.engines.port import GameEngine, GameState, Refinement
from impl.engines.registry import get_engine
from impl.engines.statetext import NotationError
from impl.game import PAPER_RULES
from spec import awari as A
from spec.errata import ERRATA, Erratum

from .specview import RULES, describe_after, refusal, rules_for

# ─── the errata witnesses ──────────────────────────────────────────────────────

WITNESSES: dict[str, Erratum] = {e.id: e for e in ERRATA if e.state is not None}
"""The errata with a state witness, read from the register (spec/errata.py); the
others are about declarations or types (A10, A13, A14, G4, G5, …) or the protocol,
and proofs/ERRATA.md shows them."""

HELP = """commands:
  <move>          the referee's verdict, then every disjunct that holds, corrected and
                  as written (a written one that differs names its errata)
                  (Awari: a pit a-f, A-F; Gothello: a square a1-e5 or pass)
  step [<move>]   make the move by the referee's outcome (the corrected schema's one)
  follow <n>      go to the after-state of outcome n of the last listing, if determined
  undo            back to the state before the last step or follow
  set <state>     set up a state, e.g. {example}
  init            the initial state
  load <id>       an erratum's witness state and input ({ids})
  errata          the errata with a witness
  moves           the moves the referee accepts here
  show            the current state
  schema <name>   a schema's Z text (e.g. {schema})
  help, quit"""


class Animator:
    """The animator's state and commands; ``command`` returns the lines to print."""

    def __init__(self, game: str, rules: str = PAPER_RULES) -> None:
        self.rules = rules_for(game, rules)
        self.game = game
        self.engine: GameEngine = get_engine(game, "impl", rules)
        """The proven fast engine, for the words of a move (its ``describe``) only."""
        self.refinement = cast(Refinement[Any, Any], self.engine)
        """Its map from the spec's states (the refinement proofs' abstraction)."""
        self.state: GameState = self.rules.initial()
        """The spec's state (the spec engine's: AwariGame or GothelloGame)."""
        self.history: list[tuple[GameState, tuple[str, list[Any]] | None]] = []
        """The states before, each with the listing made in it."""
        self.last: tuple[str, list[Any]] | None = None
        """The last input and the after-states listed for it (None if free)."""

    def prompt(self) -> str:
        return f"{self.game}> " if self.rules.name == PAPER_RULES else f"{self.game}[{self.rules.name}]> "

    def command(self, line: str) -> list[str]:
        words = line.split(maxsplit=1)
        if not words:
            return []
        verb, rest = words[0], (words[1] if len(words) > 1 else "").strip()
        handler = {
            "help": self._help,
            "show": self._show,
            "state": self._show,
            "set": self._set,
            "init": self._init,
            "load": self._load,
            "errata": self._errata,
            "step": self._step,
            "follow": self._follow,
            "undo": self._undo,
            "moves": self._moves,
            "schema": self._schema,
            "try": self._try,
        }.get(verb)
        if handler is not None:
            return handler(rest)
        return self._try(line.strip())

    # ─── commands ──────────────────────────────────────────────────────────────

    def _help(self, _: str) -> list[str]:
        example = "'a1 b1 F2 A4, 20/20, south'" if self.game == "awari" else "'b a2 c3 w a1, white, history c3'"
        ids = " ".join(k for k, e in WITNESSES.items() if e.game == self.game)
        schema = "GrandSlam" if self.game == "awari" else "GothelloMove"
        return HELP.format(example=example, ids=ids, schema=schema).splitlines()

    def _show(self, _: str = "") -> list[str]:
        return [f"state: {self.rules.format_state(self.state)}", *self._board(self.state)]

    def _board(self, state: GameState) -> list[str]:
        if self.game == "awari":
            return notation.render_awari(state.board, state.score, state.to_move)
        cells = {s: notation.GOTHELLO_CELL[v] for (s, v) in state.board}
        board = notation.render_gothello(cells)
        return [f"  {5 - i} {row}" for i, row in enumerate(board)] + ["    abcde", f"  {state.to_move.name} to move"]

    def _go(self, state: GameState) -> None:
        self.history.append((self.state, self.last))
        self.state, self.last = state, None

    def _set(self, text: str) -> list[str]:
        try:
            state = self.rules.parse_state(text)
        except NotationError as exc:
            return [f"not a state: {exc}"]
        self._go(state)
        return self._show()

    def _init(self, _: str) -> list[str]:
        self._go(self.rules.initial())
        return self._show()

    def _errata(self, _: str) -> list[str]:
        return [f"{k:4} {e.summary}" for k, e in WITNESSES.items() if e.game == self.game]

    def _load(self, ident: str) -> list[str]:
        erratum = WITNESSES.get(ident.upper())
        if erratum is None or erratum.state is None:
            known = " ".join(k for k, e in WITNESSES.items() if e.game == self.game)
            return [f"no state witness for {ident!r} in {self.game}: try one of {known} (or see proofs/ERRATA.md)"]
        if erratum.game != self.game:
            article = "an Awari" if erratum.game == "awari" else "a Gothello"
            return [f"{ident.upper()} is {article} erratum: run the {erratum.game} animator"]
        witness = erratum.state
        state = self.rules.parse_state(witness.state)
        if witness.seen:
            state = A.AwariGame(state.board, state.score, state.to_move, frozenset({A.θAwariBoard(state)}))
        self._go(state)
        lines = [f"{ident.upper()}: {erratum.summary}", *self._show()]
        if witness.seen:
            lines.append("(this position has been seen before)")
        return [*lines, f"input {witness.action}: {witness.look}", *self._try(witness.action)]

    def _action(self, token: str) -> Any:
        action = self.rules.parse_action(token)
        if action is None:
            what = "a pit a-f or A-F" if self.game == "awari" else "a square a1-e5 or pass"
            raise ValueError(f"{token!r} is neither a command nor a move ({what}); help lists the commands")
        return action

    def _try(self, token: str) -> list[str]:
        """The referee's verdict first (what a game would do), then every disjunct
        that holds, corrected and as written; a literal disjunct whose result or
        after-state differs from the verdict names the errata on its schema."""
        try:
            action = self._action(token)
        except ValueError as exc:
            return [str(exc)]
        lines = self._verdict(action, token)
        verdict = self._referee(action)
        afters: list[Any] = []
        for title, (name, disjunction) in (("corrected", self.rules.corrected), ("as written", self.rules.literal)):
            try:
                outcomes = disjunction(self.state, action)
            except Exception as exc:  # a literal schema the spec cannot evaluate here says so
                lines.append(f"{name} ({title}): cannot be evaluated: {type(exc).__name__}: {exc}")
                continue
            holds = {0: "no disjunct holds", 1: "1 disjunct holds"}.get(
                len(outcomes), f"{len(outcomes)} disjuncts hold"
            )
            lines.append(f"{name} ({title}): {holds}")
            for outcome in outcomes:
                text, after = describe_after(self.game, outcome)
                afters.append(after)
                lines.append(f"  {len(afters)}. {outcome.schema}: result {outcome.result}")
                lines.append(f"     after: {text}")
                if title == "as written" and verdict is not None and (outcome.result, after) != verdict:
                    under = "" if self.rules.name == PAPER_RULES else f" under {self.rules.name}"
                    lines.append(f"     differs from the referee{under}: {self._errata_on(outcome.schema)}")
        self.last = (token, afters)
        return lines

    def _referee(self, action: Any) -> tuple[Any, Any] | None:
        """The referee's result and after-state (the corrected schema's), or None
        where it cannot step."""
        try:
            result, after = self.rules.referee(self.state, action)
        except Exception:
            return None
        return result, after

    def _verdict(self, action: Any, token: str) -> list[str]:
        """The referee's verdict, in words (what the move does, or the rule that
        refuses it), and the board after it."""
        verdict = self._referee(action)
        if verdict is None:
            return ["referee: cannot step here"]
        result, after = verdict
        under = "" if self.rules.name == PAPER_RULES else f" under {self.rules.name}"
        lines = [f"referee{under}: result {result}, after: {self.rules.format_state(after)}"]
        words = self._words(token)
        lines.append(f"  {words}")
        if after != self.state:
            lines += [f"  {line}" for line in self._board(after)]
        return lines

    def _words(self, token: str) -> str:
        """What the move does, from the engine's move description, or why the rules
        refuse it."""
        state = self.refinement.from_spec(self.state)
        move = self.engine.parse_move(token)
        mover = self.state.to_move.name
        if self.engine.is_over(state):
            return "refused: the game is over"
        if move is None or move not in self.engine.legal_moves(state):
            return f"refused: {refusal(self.game, self.state, token, self.rules.name)}"
        d = self.engine.describe(state, move)
        if self.game == "gothello":
            if d.passed:
                return f"{mover} passes"
            turned = f", turning {', '.join(d.captured)} to {mover}" if d.captured else ", turning nothing"
            return f"{mover} places at {d.move}{turned}"
        caught = f", capturing {', '.join(d.captured)} ({d.taken} stones)" if d.captured else ", no capture"
        return f"{mover} sows {d.sown} stones from {d.move}{caught}; {mover}'s store gains {d.gained}"

    def _errata_on(self, schema: str) -> str:
        """The errata of the register (spec/errata.py) on ``schema``: ``load`` shows each."""
        ids = [e.id for e in ERRATA if e.game == self.game and schema in re.split(r"[,\s]+", e.schema)]
        return f"errata on {schema}: {' '.join(ids)}" if ids else f"no erratum names {schema}"

    def _step(self, token: str) -> list[str]:
        token = token or (self.last[0] if self.last else "")
        if not token:
            return ["step what? give a move, or try one first"]
        try:
            action = self._action(token)
        except ValueError as exc:
            return [str(exc)]
        try:
            result, after = self.rules.referee(self.state, action)
        except Exception as exc:
            return [f"the referee cannot step here: {type(exc).__name__}: {exc}"]
        self._go(after)
        return [f"{token}: result {result}", *self._show()]

    def _follow(self, number: str) -> list[str]:
        if self.last is None:
            return ["nothing to follow: give a move first"]
        afters = self.last[1]
        if not number.isdigit() or not 1 <= int(number) <= len(afters):
            return [f"follow takes an outcome's number, 1 to {len(afters)}" if afters else "no outcome to follow"]
        after = afters[int(number) - 1]
        if after is None:
            return [f"outcome {number}'s after-state is not determined: the schema leaves part of it free"]
        self._go(after)
        return self._show()

    def _undo(self, _: str) -> list[str]:
        if not self.history:
            return ["nothing to undo"]
        self.state, self.last = self.history.pop()
        return self._show()

    def _moves(self, _: str) -> list[str]:
        moves = self.rules.legal_moves(self.state)
        return [" ".join(self.rules.format_action(m) for m in moves) if moves else "none: the game is over"]

    def _schema(self, name: str) -> list[str]:
        target = getattr(self.rules.module, name, None) if name.isidentifier() else None
        doc = getattr(target, "__doc__", None) if callable(target) else None
        if not doc:
            return [f"no schema {name!r} in spec/{self.game}.py"]
        return inspect.cleandoc(doc).splitlines()


# ─── the command line ──────────────────────────────────────────────────────────


def repl(animator: Animator, out: TextIO, read: Callable[[str], str] = input) -> int:
    """Read commands until quit or end of input."""
    while True:
        try:
            line = read(animator.prompt())
        except EOFError:
            print(file=out)
            return 0
        if line.strip() in ("quit", "exit"):
            return 0
        for text in animator.command(line):
            print(text, file=out)
        out.flush()


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", choices=sorted(RULES))
    p.add_argument("--state", metavar="TEXT", help="start from this state (help shows the notation)")
    p.add_argument("--load", metavar="ID", help="start from an erratum's witness (A4, G10, …)")
    add_rules_argument(p)


def run(args: argparse.Namespace) -> int:
    """consult the executable spec: every disjunct that holds, literal and corrected

    Animate a game's turn schema: set up a state, give an input, see every disjunct of
    the literal and the corrected schema that holds, with its result and after-state;
    step on.
    """
    check_rules("referee spec", args.game, args.rules)
    animator = Animator(args.game, args.rules)
    if args.state is not None and args.load is not None:
        print("referee spec: give --state or --load, not both", file=sys.stderr)
        return 2
    start = f"set {args.state}" if args.state is not None else f"load {args.load}" if args.load is not None else "show"
    lines = animator.command(start)
    if start != "show" and not animator.history:  # neither set nor load took a state
        print(f"referee spec: {lines[0]}", file=sys.stderr)
        return 2
    print(f"The {animator.game} spec animator: help lists the commands.")
    print("\n".join(lines), flush=True)
    return repl(animator, sys.stdout)


def add_command(subparsers: Any) -> None:
    p = subcommand(subparsers, "spec", run)
    add_arguments(p)
