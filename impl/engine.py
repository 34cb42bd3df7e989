"""The engine interface: the one port through which the server, the players, perft
and the tests use a game's rules.

Two implementations per game stand behind it: the executable spec (through the thin
adapters in impl/spec_engine.py, over the spec's ``referee``) and the fast engines
(impl/awari.py, impl/gothello.py).  They are interchangeable: tests/ check that they
agree on every result and every next state.

The vocabulary is the spec's: players are the spec's PLAYER, an Awari action is a
PIT (any of the twelve: a pit on the wrong side is an action too, an illegal one), a
Gothello action is a MOVE (``move(square)`` or ``pass_``), and results are the
spec's RESULT.  States are opaque to users; each engine converts its own states to
and from the spec's (``to_spec`` / ``from_spec``), which is how the engines are
compared.  A state carries everything the rules need: for Awari the positions seen
at the start of turns (repetition), for Gothello the history of accepted actions
(two passes in succession).
"""

from __future__ import annotations

from typing import Protocol, TypeVar, Union

from spec import result as R

S = TypeVar("S")  # the engine's state
A = TypeVar("A")  # an action
P = TypeVar("P")  # a player
G = TypeVar("G")  # the spec's state type

Result = Union[R.win[P], R.Constant]  # noqa: UP007 — a generic alias must be built with Union
"""RESULT ::= win⟨⟨PLAYER⟩⟩ | draw | not_done | illegal_move"""


class Engine(Protocol[S, A, P, G]):
    """The rules of one game, as the referee, players and tests see them."""

    game: str
    """``"awari"`` or ``"gothello"``."""

    kind: str
    """``"spec"``, ``"impl"``, or ``"checked"`` (both side by side: impl/checked_engine.py)."""

    players: tuple[P, P]
    """The two players, the one who moves first first: (south, north) or (black, white)."""

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

    def is_over(self, state: S) -> bool:
        """The game has ended: every action gets the final result (Awari) or is
        refused (Gothello)."""
        ...

    def counts(self, state: S) -> tuple[int, int]:
        """Indexed by player value: Awari stores (north, south), Gothello stones
        on the board (black, white)."""
        ...

    def parse_move(self, text: str) -> A | None:
        """An action from the papers' notation (``a``–``f``, ``A``–``F``; ``c3``,
        ``pass``), or None if the text is not one."""
        ...

    def format_move(self, action: A) -> str:
        """The papers' notation for an action."""
        ...

    def render(self, state: S) -> list[str]:
        """The board as text lines (documented in the README)."""
        ...

    def to_spec(self, state: S) -> G:
        """This state as the spec's state (AwariGame / GothelloGame)."""
        ...

    def from_spec(self, game: G) -> S:
        """The engine's state for a spec state."""
        ...


GAMES = ("awari", "gothello")
KINDS = ("spec", "impl", "checked")
