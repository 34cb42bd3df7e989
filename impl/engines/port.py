"""The engine interface: the one port through which the server, the players, perft
and the tests use a game's rules.

Two implementations per game stand behind it: the executable spec (through the thin
adapters in impl/engines/spec_engine.py, over the spec's ``referee``) and the fast engines
(impl/engines/awari.py, impl/engines/gothello.py).  They are interchangeable: tests/ check that they
agree on every result and every next state.

The vocabulary is the spec's: players are the spec's PLAYER, an Awari action is a
PIT (any of the twelve: a pit on the wrong side is an action too, an illegal one), a
Gothello action is a MOVE (``move(square)`` or ``pass_``), and results are the
spec's RESULT.  States are opaque to users.  Besides this runtime port each engine
has ``to_spec`` / ``from_spec`` (the ``Refinement`` interface below), which is how
tests/ and proofs/ compare the engines with the spec.  A state carries everything
the rules need: for Awari the positions seen at the start of turns (repetition),
for Gothello the history of accepted actions (two passes in succession).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol, TypeAlias, TypeVar, Union, runtime_checkable

from impl.game import Side
from spec import result as R

S = TypeVar("S")  # the engine's state
A = TypeVar("A")  # an action
P = TypeVar("P")  # a player
G = TypeVar("G")  # the spec's state type

Result = Union[R.win[P], R.Constant]  # noqa: UP007 — a generic alias must be built with Union
"""RESULT ::= win⟨⟨PLAYER⟩⟩ | draw | not_done | illegal_move"""


Cells: TypeAlias = tuple[tuple[str, int | str], ...]
"""A board as data, cell by cell in the spec's order: Awari each pit by letter
(PIT order, ``a``–``f`` then ``A``–``F``) with its stones; Gothello each square
(``a1``, ``a2``, … ``e5``: file then rank) with ``black``, ``white`` or ``""``."""


@dataclass(frozen=True)
class MoveDescription:
    """What a legal move did, for whoever shows it: PGN's movetext (impl/pgn.py), the
    web view's marks (impl/web/views.py), ``referee replay`` / ``show`` and the
    terminal.  Each engine computes it from its own state (``Engine.describe``);
    nobody else unpacks a state or reruns the rules for display."""

    mover: Side
    move: str
    """The protocol's notation (``F``, ``c3``, ``pass``)."""
    notation: str
    """The movetext's (docs/protocol.md "Game records"): Awari's Olympiad notation,
    the pit, the stones sown and ``x`` with what the mover's store gained (``F4``,
    ``c7x2``); Gothello's is ``move``."""
    sown: int
    """Awari: the stones sown (the pit's stones before the move); Gothello: 0."""
    captured: tuple[str, ...]
    """Awari: the opponent's pits the capture emptied (Capture under the rule set),
    in PIT order; Gothello: the opponent's stones that became the mover's
    (captures_corrected), file then rank."""
    taken: int
    """The stones those captures took (Awari: into the mover's store; Gothello:
    the stones turned)."""
    gained: int
    """What the move added to the mover's ``counts``: Awari the store (the
    captures, plus the mover's own row when the move ends the game by NoMove or
    CannotFeed); Gothello the stones on the board (the placed one and those
    turned; 0 for a pass)."""

    @property
    def passed(self) -> bool:
        """A Gothello pass."""
        return self.move == "pass"


class Engine(Protocol[S, A, P]):
    """The rules and the notation of one game, as the referee, the client, the
    players and perft see them: the runtime port."""

    game: str
    """``"awari"`` or ``"gothello"``."""

    kind: str
    """``"spec"``, ``"impl"``, or ``"checked"`` (both side by side: impl/engines/checked_engine.py)."""

    players: tuple[P, P]
    """The two players, the first mover first: (south, north) or (black, white).
    ``players[side]`` is the one bridge from an ``impl.game.Side`` to the spec's PLAYER."""

    def initial(self) -> S:
        """The initial state (InitAwari / InitGothelloGame)."""
        ...

    def to_move(self, state: S) -> P:
        """The player whose turn it is."""
        ...

    def apply(self, state: S, action: A) -> tuple[Result[P], S]:
        """The referee's step: the result of the action and the next state.  An
        illegal action gives ``illegal_move`` and the same state."""
        ...

    def legal_moves(self, state: S) -> tuple[A, ...]:
        """The actions the referee accepts in this state, in a fixed order (Awari in
        pit order, Gothello squares by file then rank, then ``pass``); empty once the
        game is over."""
        ...

    def why_illegal(self, state: S, action: A) -> str | None:
        """None if the referee accepts ``action`` now, else the reason in words (for
        a person: ``c3 is occupied``)."""
        ...

    def is_over(self, state: S) -> bool:
        """The game has ended: every action gets the final result (Awari) or is
        refused (Gothello)."""
        ...

    def counts(self, state: S) -> tuple[int, int]:
        """By side, the first mover first: Awari stores (south, north), Gothello
        stones on the board (black, white)."""
        ...

    def parse_move(self, text: str) -> A | None:
        """An action from the papers' notation (``a``–``f``, ``A``–``F``; ``c3``,
        ``pass``), or None if the text is not one."""
        ...

    def format_move(self, action: A) -> str:
        """The papers' notation for an action."""
        ...

    def render(self, state: S) -> list[str]:
        """The board as text lines (as docs/playing.md describes the display)."""
        ...

    def cells(self, state: S) -> Cells:
        """The board as data (``Cells``), for drawing it."""
        ...

    def describe(self, state: S, action: A) -> MoveDescription:
        """What ``action`` does in ``state``, where it is legal (one of
        ``legal_moves``; ValueError otherwise).  For display: not on the engines'
        hot path."""
        ...


class Refinement(Protocol[S, G]):
    """The abstraction function of the refinement proof: how an engine's states map
    onto the spec's (AwariGame / GothelloGame) and back.  Used by tests/ and proofs/
    to compare engines with the spec, never at run time."""

    def to_spec(self, state: S) -> G:
        """This state as the spec's state (the abstraction function)."""
        ...

    def from_spec(self, game: G) -> S:
        """The engine's state for a spec state (its right inverse)."""
        ...


class RuledEngine(Engine[S, A, P], Protocol):
    """An engine as ``get_engine`` gives it: the rules of one game under one rule
    set, and that rule set's name, which whoever needs it asks the engine for (the
    greeting, the records, the web view) instead of carrying a copy."""

    rule_set: str
    """The rule set's one canonical name (impl/game.py, the table of names;
    spec/awari_rules.py ``canonical_name``): ``paper`` for the papers'."""


AnyEngine: TypeAlias = Engine[Any, Any, Any]
"""An engine of either game, its rule set's name not asked (perft, the checked
engine's two sides, a player's search): ``GameEngine`` without ``rule_set``."""

GameEngine: TypeAlias = RuledEngine[Any, Any, Any]
"""An engine of either game, chosen at run time (``get_engine``).  The one place the
two games meet: the server, the client and perft hand an engine's states and actions
back only to that same engine, so erasing their types here hides nothing a checker
could catch; each engine is checked against ``Engine`` for its own types in
tests/engines/test_engine_interface.py."""

GameState: TypeAlias = Any
"""A state of a ``GameEngine`` (see there)."""


_SIDES = (Side.FIRST, Side.SECOND)


def side_to_move(engine: AnyEngine, state: GameState) -> Side:
    """The side whose turn it is.  A PLAYER is a free-type constant, whose equality
    is identity (spec/z.py FreeType): ``is`` says the same as ``players.index``
    without a Python-level ``__eq__`` per comparison, on the server's every move."""
    return Side.FIRST if engine.to_move(state) is engine.players[0] else Side.SECOND


def winner(engine: AnyEngine, result: Result[Any]) -> Side | None:
    """The winning side of a final result, None for a draw."""
    assert isinstance(result, R.win) or result == R.draw, result
    return _SIDES[engine.players.index(result.player)] if isinstance(result, R.win) else None


GAMES = ("awari", "gothello")
KINDS = ("spec", "impl", "checked")


@runtime_checkable
class Checking(Protocol):
    """An engine that checks one engine against another at every step
    (impl/engines/checked_engine.py): what it found is part of the state a step
    returns, read through ``divergences``.  The session asks the port this, never
    an engine's kind."""

    def divergences(self, state: GameState) -> tuple[object, ...]:
        """What the step that made ``state`` found (printable, one per divergence)."""
        ...


def gained(engine: AnyEngine, before: GameState, after: GameState, mover: Side) -> int:
    """What a move from ``before`` to ``after`` added to the mover's ``counts``."""
    return int(engine.counts(after)[mover] - engine.counts(before)[mover])


def not_legal(engine: Engine[Any, Any, Any], action: Any) -> ValueError:
    """``describe``'s error for an action the referee refuses."""
    return ValueError(f"{engine.format_move(action)} is not a legal move here")
