"""A client library for the referee servers of both games (docs/protocol.md):
``Client`` to play or observe, and its errors.  impl/protocol.py holds the
protocol's lines; ``local.LocalServer`` runs our server in a thread of this process (it is
the one module here that imports the server)."""

from __future__ import annotations

from impl.protocol import port_of

from .client import Client, ConnectFailed, LineBuffer, Result
from .errors import (
    ClientError,
    ClientTimeout,
    ConnectionLost,
    MoveRefused,
    NotPlaying,
    ProtocolError,
    Refused,
    SeatRefused,
)

__all__ = [
    "Client",
    "ClientError",
    "ClientTimeout",
    "ConnectFailed",
    "ConnectionLost",
    "LineBuffer",
    "MoveRefused",
    "NotPlaying",
    "ProtocolError",
    "Refused",
    "Result",
    "SeatRefused",
    "port_of",
]
