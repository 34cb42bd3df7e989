"""Helpers for the tests of the client library, the players, the terminal client and
the match runner (tests/client/, tests/players/, tests/apps/): a real server in a
thread, seated clients, and a scripted fake server for what our server never does."""

from __future__ import annotations

import socket
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from impl.client import Client
from impl.config import Config
from impl.server.local import LocalServer

TIMEOUT = 10.0
"""Seconds any read of a test client may take."""


@contextmanager
def server(game: str, **options: Any) -> Iterator[LocalServer]:
    """Our referee server for one game, on a free port, in a thread; ``options``
    are ``Config`` fields, or ``LocalServer``'s ``on_seat``, ``opening``, ``session_hooks``."""
    extras = {k: options.pop(k) for k in ("on_seat", "opening", "session_hooks") if k in options}
    with LocalServer(Config.local(game, **options), **extras) as local:
        yield local


def connect(game: str, port: int, **options: Any) -> Client:
    return Client.connect(game, port=port, timeout=options.pop("timeout", TIMEOUT), **options)


def players(game: str, port: int, names: tuple[str, str] = ("", "")) -> tuple[Client, Client]:
    """The first and the second player, seated, the game started."""
    sides = ("south", "north") if game == "awari" else ("black", "white")
    first, second = connect(game, port), connect(game, port)
    first.seat(sides[0], names[0])
    second.seat(sides[1], names[1])
    first.wait_started()
    second.wait_started()
    return first, second


def play_out(
    clients: tuple[Client, Client], choose: Callable[[Client], str], observers: tuple[Client, ...] = ()
) -> int:
    """Alternate the two clients' moves (``choose`` picks one) to the end; the plies played."""
    plies = 0
    while clients[0].result is None:
        mover = clients[0] if clients[0].my_turn else clients[1]
        assert mover.my_turn
        mover.move(choose(mover))
        plies += 1
        other = clients[1] if mover is clients[0] else clients[0]
        other.wait()
        for observer in observers:
            observer.next_message()
    clients[1].wait()
    for observer in observers:
        observer.wait()
    return plies


class FakeServer:
    """A listening socket that plays a script against one connection: the script
    gets the accepted socket and a line reader."""

    def __init__(self, script: Callable[[socket.socket, Callable[[], str]], None]) -> None:
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port: int = self.listener.getsockname()[1]
        self.script = script
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._main, daemon=True)
        self.thread.start()

    def _main(self) -> None:
        conn, _ = self.listener.accept()
        conn.settimeout(TIMEOUT)
        buffer = b""

        def line() -> str:
            nonlocal buffer
            while b"\n" not in buffer:
                data = conn.recv(4096)
                if not data:
                    raise EOFError
                buffer += data
            text, _, buffer = buffer.partition(b"\n")
            return text.decode().rstrip("\r")

        try:
            self.script(conn, line)
        except BaseException as exc:  # reported by close()
            self.error = exc
        finally:
            conn.close()
            self.listener.close()

    def close(self) -> None:
        self.thread.join(TIMEOUT)
        if self.error is not None and not isinstance(self.error, EOFError | OSError):
            raise self.error


def send(conn: socket.socket, *lines: str) -> None:
    conn.sendall("".join(line + "\r\n" for line in lines).encode())
