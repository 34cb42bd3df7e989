"""The web view's own process (``python -m impl.web.child``), started by the
referee (impl/web/link.py ``WebLink``): it owns aiohttp, the hub, the archive
and the encoders, reads the record directory itself, and is fed the game feed
over the socket pair whose end it is given (``--fd``).

It runs at a lower scheduling priority than the referee (``NICE``), is killed
with the referee on Linux (PR_SET_PDEATHSIG), and exits when the feed ends (EOF:
the referee closed its end, or is gone).  Ctrl-C at a terminal reaches the whole
process group: the web process ignores it and ends with the referee's feed.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import pickle
import signal
import socket
from contextlib import suppress
from typing import Any

from impl.log import event, setup_logging
from impl.server import fdbudget
from impl.server.procs import die_with_parent

from .app import WebView
from .feed import (
    ArenaUpdate,
    LinkMessage,
    ListenFailed,
    Listening,
    Published,
    Resync,
    ServerAdded,
    ServerInfo,
    ServerList,
    StandingsUpdate,
)
from .link import HEADER, MAX_MESSAGE, ViewConfig, frame, read_message

NICE = 10
"""Added to the web process's niceness: the referee's games come first for the CPU."""


class ServeView(WebView):
    """The web view of ``referee serve --web``: its servers are those the referee describes."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fed: list[ServerInfo] = []

    def _describe(self) -> list[ServerInfo]:
        return self.fed


def make_view(config: ViewConfig, parent: int) -> WebView:
    """The view ``config`` asks for; ``parent``: the referee's process id (the
    programs a run launches below it are one client, gate.py; a server's records
    are named with it)."""
    if config.mode == "arena":
        from .arena import ArenaView

        return ArenaView(config.host, config.port, config.record_dir, config.limits)
    if config.mode == "tournament":
        from .tourney import TournamentView

        assert config.record_dir is not None, "a tournament's view reads its records"
        tourney = TournamentView(config.host, config.port, config.record_dir, config.live, tables=config.tables)
        tourney.gate.sort_programs(parent)  # the runner's: it launches the players' programs
        return tourney
    view = ServeView(config.host, config.port, config.record_dir, config.limits, tables=config.tables)
    view.referee_pid = parent  # the referee writes the records, named with its process id
    return view


def apply(view: WebView, message: LinkMessage) -> None:
    """One message of the feed (feed.py ``LinkMessage``)."""
    if isinstance(message, Published):
        view.hub.publish(message.event)
    elif isinstance(message, ServerList) and isinstance(view, ServeView):
        view.fed = list(message.servers)
    elif isinstance(message, Resync):
        view.hub.resync(message.games)
    elif isinstance(message, ServerAdded | StandingsUpdate | ArenaUpdate):
        from .arena import ArenaView
        from .tourney import TournamentView

        if isinstance(view, (TournamentView, ArenaView)):
            view.fed(message)


async def feed(view: WebView, sock: socket.socket) -> None:
    """Apply the referee's messages until the feed ends."""
    reader, writer = await asyncio.open_connection(sock=sock)
    try:
        while True:
            (size,) = HEADER.unpack(await reader.readexactly(HEADER.size))
            if size > MAX_MESSAGE:
                raise ValueError("message too long")
            data = await reader.readexactly(size)
            try:
                apply(view, pickle.loads(data))
            except Exception as exc:  # one bad message must not end the view
                event(logging.ERROR, "web_feed_failed", error=repr(exc))
    except (asyncio.IncompleteReadError, ConnectionError):
        return  # the referee is gone, or closed the feed
    finally:
        writer.close()


async def run(config: ViewConfig, parent: int, sock: socket.socket) -> int:
    view = make_view(config, parent)
    try:
        await view.start()
    except OSError as exc:
        where = f"{config.host} port {config.port}"
        sock.sendall(frame(ListenFailed(f"cannot listen on {where}: {exc.strerror or exc}")))
        await view.stop()
        return 1
    sock.sendall(frame(Listening(view.port)))
    try:
        await feed(view, sock)
    finally:
        await view.stop()
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m impl.web.child")
    parser.add_argument("--fd", type=int, required=True, help="this process's end of the feed's socket pair")
    parser.add_argument(
        "--parent",
        type=int,
        required=True,
        help="the referee's process id (a run's: the programs below it are one client, gate.py)",
    )
    args = parser.parse_args(argv)
    die_with_parent(args.parent, 0)  # the referee has gone already: nothing to serve
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the referee's Ctrl-C; the feed's end stops this one
    with suppress(OSError):
        os.nice(NICE)
    sock = socket.socket(fileno=args.fd)
    try:
        config = read_message(sock)  # the link sends the view's configuration first
    except (OSError, EOFError):
        return 0  # the referee is gone before it said what to serve
    if not isinstance(config, ViewConfig):
        return 2
    if config.log_level != "off":
        setup_logging(config.log_level)
    fdbudget.raise_limit()
    return asyncio.run(run(config, args.parent, sock))


if __name__ == "__main__":
    raise SystemExit(main())
