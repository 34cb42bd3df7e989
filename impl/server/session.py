"""One game on one server: the sans-IO machine (impl/server/machine.py) and the glue
that carries out its outputs — lines sent and connections closed on the peers, events
to the listeners.  The session reads no clock and sets no timer: its caller (the
asyncio adapter impl/server/server.py, or a test) passes the time in and asks
``deadline()``.  The names of the session's vocabulary (impl/server/states.py) and
events (impl/server/events.py) are importable from here too."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from impl.engines.port import GameEngine
from impl.game import Termination

from .clock import Stalls, no_stalls
from .events import (
    DrawOffer,
    Event,
    GameOver,
    GameStarted,
    Listener,
    MoveMade,
    ObserverSeated,
    PlayerSeated,
    Written,
)
from .machine import TABLE, Handler, Machine, Step
from .states import (
    TRIGGERS,
    Chooser,
    Close,
    Conn,
    Entity,
    LineError,
    Output,
    Peer,
    Req,
    Send,
    Settings,
    TransitionError,
    Trigger,
)

__all__ = [
    "TABLE",
    "TRIGGERS",
    "Chooser",
    "Conn",
    "DrawOffer",
    "Entity",
    "Event",
    "GameOver",
    "GameStarted",
    "Handler",
    "LineError",
    "Listener",
    "MoveMade",
    "ObserverSeated",
    "Peer",
    "PlayerSeated",
    "Req",
    "Session",
    "Settings",
    "Step",
    "TransitionError",
    "Trigger",
    "Written",
]


class Session(Machine):
    """The machine with its outputs carried out: each input (``join``, ``receive``,
    ``leave``, ``tick``, ``shutdown``) hands the machine's outputs, in order, to the
    peers they name and to ``listeners``."""

    def __init__(
        self,
        settings: Settings,
        engine: GameEngine,
        *,
        rng: Chooser,
        now: float,
        epoch: float = 0.0,
        game_no: int = 1,
        stalls: Stalls = no_stalls,
        opening: Sequence[str] = (),
    ) -> None:
        """As ``Core``'s, with no listener yet."""
        super().__init__(
            settings, engine, rng=rng, now=now, epoch=epoch, game_no=game_no, stalls=stalls, opening=opening
        )
        self.listeners: list[Listener] = []

    def join(self, peer: Peer, now: float) -> Entity:
        """A new connection: greeted."""
        ent, outputs = self.opened(peer, now)
        self._carry(outputs)
        return ent

    def receive(self, ent: Entity, line: str | LineError, now: float, arrived: float | None = None) -> None:
        """A request line from ``ent`` (``Machine.line``).  A listener that fails on
        its events fails the game as the handler's own bug would (399)."""
        try:
            self._carry(self.line(ent, line, now, arrived))
        except Exception as exc:
            self._carry(self.fail(f"internal error on {line!r}: {exc!r}"))

    def leave(self, ent: Entity, now: float) -> None:
        """The connection closed."""
        self._carry(self.closed(ent, now))

    def tick(self, now: float) -> None:
        """Time has passed."""
        self._carry(self.elapsed(now))

    def shutdown(self, now: float, termination: Termination = Termination.SHUTDOWN) -> None:
        """The server is stopping (``Machine.stopped``)."""
        self._carry(self.stopped(now, termination))

    def _carry(self, outputs: Iterable[Output]) -> None:
        for out in outputs:
            if isinstance(out, Send):
                out.to.peer.send(out.lines)
            elif isinstance(out, Close):
                out.to.peer.close()
            else:
                for listener in tuple(self.listeners):  # a listener may remove itself
                    listener(out.event)
