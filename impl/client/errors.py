"""The client library's errors: one base class, one subclass per way a client's
request or connection can fail."""

from __future__ import annotations

from impl import protocol


class ClientError(Exception):
    """Anything that went wrong talking to a referee server."""


class Refused(ClientError):
    """The server refused a request (19x, 29x); the connection and the game are as
    they were, so the client may try again."""

    def __init__(self, code: int, text: str, request: str) -> None:
        super().__init__(f"{request!r} refused: {code} {text}")
        self.code, self.text, self.request = code, text, request


class SeatRefused(Refused):
    """A seat request refused: 191 side taken, 192 two players already, 193 too
    many observers, 198 version, 199 not understood (docs/protocol.md §5)."""


class MoveRefused(Refused):
    """A move, resignation or draw request refused: 291 (illegal move, not your
    turn, …) or 299 (not understood, wrong serial) with the server's text (§7)."""


class ProtocolError(ClientError, protocol.ProtocolError):
    """The server sent something the protocol does not allow here."""

    def __init__(self, problem: str, line: str = "") -> None:
        protocol.ProtocolError.__init__(self, problem, line)


class ConnectionLost(ClientError):
    """The connection closed (or failed) before the game was over."""


class ClientTimeout(ClientError):
    """The server sent nothing for longer than the client's timeout."""


class NotPlaying(ClientError):
    """A request in play made when we cannot play: before the game has started,
    after it has ended, or as an observer."""
