"""A client library for the referee servers of both games (impl/server/PROTOCOL.md):
``Client`` to play or observe, its errors, the wire messages, and ``LocalServer``
to run a server in this process."""

from __future__ import annotations

from .client import Client, ConnectFailed, Result
from .errors import (
    ClientError,
    ClientTimeout,
    ConnectionLost,
    GameOver,
    MoveRefused,
    ProtocolError,
    Refused,
    SeatRefused,
)
from .wire import port_of

__all__ = [
    "Client",
    "ClientError",
    "ClientTimeout",
    "ConnectFailed",
    "ConnectionLost",
    "GameOver",
    "MoveRefused",
    "ProtocolError",
    "Refused",
    "Result",
    "SeatRefused",
    "port_of",
]
