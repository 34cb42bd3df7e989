"""The session's vocabulary: a connection's states and requests, the moves no
request makes, the entities and settings of a game, and the outputs the play
queues as values (impl/server/core.py) for the session to carry out
(impl/server/session.py)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import NamedTuple, Protocol, TypeVar

from impl import protocol as P
from impl.config import DEFAULTS, Config, ConfigMessages, Limits, OnDivergence
from impl.game import Side

from .events import Event

T = TypeVar("T")


class Peer(Protocol):
    """A connection as the session sees it."""

    address: str

    def send(self, lines: Sequence[str]) -> None: ...

    def close(self) -> None: ...


class Chooser(Protocol):
    """Where the session's randomness comes from (``random.Random`` is one)."""

    def choice(self, seq: Sequence[T]) -> T: ...


class LineError(Enum):
    """A line the framing layer refused; answered 199 before seating, 299 after."""

    TOO_LONG = "Request not understood (line too long)"
    NOT_ASCII = "Request not understood (non-ASCII or control character)"
    EMPTY = "Request not understood (empty lines)"
    SLOW = "Request not understood (line not completed in time), goodbye"


class Conn(Enum):
    """A connection's state, five of them: the papers' ``cstate`` (initial | seated |
    playing | done), with an observer's seated and playing made one state,
    ``observer`` (it may join before or during the game, and acts the same in both)."""

    NEW = "initial"
    """Greeted, not seated: its lines are seat requests."""
    WAITING = "seated"
    """A player seated before the game started."""
    WATCHING = "observer"
    """An observer, before or during the game."""
    PLAYING = "playing"
    """A player in the game."""
    DONE = "done"
    """Gone: its lines are ignored."""

    __hash__ = object.__hash__  # members are singletons: the C identity hash keeps TABLE lookups cheap


class Req(Enum):
    """What a request line is, in the connection's state."""

    BAD_LINE = "bad line"
    SEAT = "seat"
    BAD_SEAT = "bad seat"
    MOVE = "move"
    RESIGN = "resign"
    DRAW_OFFER = "draw?"
    DRAW_ANSWER = "draw/nodraw"
    GARBLED = "garbled"
    SEAT_AGAIN = "seat again"

    __hash__ = object.__hash__


class Trigger(Enum):
    """What moves a connection to another state without a request of its own."""

    START = "game starts"
    """The second player is seated: both players go from seated to playing."""
    END = "game over"
    """The final status has been sent: every connection is closed."""
    CLOSE = "closed"
    """The connection closed, or the server closed it (a timeout, too many refusals)."""

    __hash__ = object.__hash__


class TransitionError(RuntimeError):
    """A connection state change that ``TABLE`` or ``TRIGGERS`` does not allow: a bug
    in the session, never the client's doing (``receive`` ends the game with 399)."""


@dataclass(eq=False)
class Entity:
    """ENTITY ::= player⟨⟨PLAYER⟩⟩ | observer⟨⟨ℕ₁⟩⟩, with its connection state."""

    peer: Peer
    """The glue's handle of the connection: the play names it in its outputs and
    never calls it (the session does)."""
    number: int
    joined: float
    conn: Conn = Conn.NEW
    side: Side | None = None
    observer: int | None = None
    name: str = ""
    rejected: int = 0
    seated: float = 0.0
    """When it took a player's seat (the wait for an opponent starts)."""


@dataclass(frozen=True)
class Settings:
    """One game's session settings, derived from the configuration (``of``)."""

    vocab: P.Vocabulary
    server: int = 0
    time: tuple[float, float] | None = DEFAULTS.time
    """Seconds for the first and the second player, or no time controls."""
    config_messages: ConfigMessages = ConfigMessages.ALL
    limits: Limits = DEFAULTS.limits
    on_divergence: OnDivergence = DEFAULTS.on_divergence
    increment: tuple[float, float] = DEFAULTS.increment
    """Fischer increments, first player's first (impl/server/clock.py ``moved``)."""

    @classmethod
    def of(cls, config: Config, game: str, server: int = 0) -> Settings:
        """Game ``game``'s server ``server`` as ``config`` (impl/config.py) says."""
        return cls(
            P.VOCABULARIES[game],
            server,
            config.time,
            config.messages_for(game),
            config.limits,
            on_divergence=config.on_divergence,
            increment=config.increment,
        )


_NEW, _WAITING, _WATCHING, _PLAYING, _DONE = Conn

TRIGGERS: dict[Trigger, tuple[frozenset[Conn], Conn]] = {
    Trigger.START: (frozenset({_WAITING}), _PLAYING),
    Trigger.END: (frozenset({_NEW, _WAITING, _WATCHING, _PLAYING}), _DONE),
    Trigger.CLOSE: (frozenset({_NEW, _WAITING, _WATCHING, _PLAYING}), _DONE),
}
"""The moves no request of the connection makes: trigger → (the states it may
leave, the state it enters)."""


def state_names(states: frozenset[Conn]) -> str:
    return ", ".join(sorted(c.value for c in states))


# ─── Outputs: what an input makes the game do, as values ────────────────────


# Named tuples, not dataclasses: a move makes three or four of them, and a tuple is
# built in C.


class Send(NamedTuple):
    """Lines to one connection."""

    to: Entity
    lines: Sequence[str]


class Close(NamedTuple):
    """The server closes a connection (after the lines sent to it before)."""

    to: Entity


class Publish(NamedTuple):
    """An event for the listeners (the game record is the ``GameOver``'s)."""

    event: Event


Output = Send | Close | Publish
