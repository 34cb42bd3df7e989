"""A client library for the referee servers of both games (docs/protocol.md):
``Client`` to play or observe, the sans-IO ``Follower`` it reads a game's messages
with, and its errors.  impl/protocol.py holds the
protocol's lines.  Nothing here imports the server: a server in a thread of this
process is impl/server/local.py's ``LocalServer``."""

from __future__ import annotations

from impl.protocol import port_of

from .client import Client, ConnectFailed, LineBuffer, Result, seat_token
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
from .follower import Follower, Phase, View

__all__ = [
    "Client",
    "ClientError",
    "ClientTimeout",
    "ConnectFailed",
    "ConnectionLost",
    "Follower",
    "LineBuffer",
    "MoveRefused",
    "NotPlaying",
    "Phase",
    "ProtocolError",
    "Refused",
    "Result",
    "SeatRefused",
    "View",
    "port_of",
    "seat_token",
]
