"""``referee serve {awari|gothello|all}``: the servers of both papers' section 2."""

from __future__ import annotations

import argparse
import asyncio
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

from impl.engine import GAMES, KINDS
from impl.engines import get_engine

from . import protocol as P
from .records import event, setup_logging
from .server import GameServer, ServerSpec, serve
from .session import ConfigMessages, Limits, Session, Settings

DEFAULT_CONFIG = {"awari": ConfigMessages.ALL, "gothello": ConfigMessages.OBSERVERS}
"""gthd's client libraries require 351/352 right after 100/101 (PROTOCOL.md)."""


def add_command(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "serve",
        help="run referee servers",
        description="Run Awari (port 29046+N) and/or Gothello (port 29068+N) referee servers. "
        "By default each serves one game and the command exits when all have finished.",
    )
    p.add_argument("game", choices=[*GAMES, "all"])
    p.add_argument("--server", type=int, nargs="+", default=[0], metavar="N", help="server numbers (default 0)")
    p.add_argument("--forever", action="store_true", help="host game after game instead of one game")
    p.add_argument("--engine", choices=KINDS, help="rules engine (default impl, falling back to spec)")
    p.add_argument(
        "--time",
        type=float,
        nargs="+",
        metavar=("SECS", "SECS_OPPONENT"),
        help="time controls: seconds for the first player (south, black), and for its opponent if different",
    )
    p.add_argument("--record", type=Path, metavar="DIR", help="write a record file per finished game")
    p.add_argument("--host", default="0.0.0.0", help="address to listen on (default all)")
    p.add_argument("--port", type=int, help="listen on this port instead (one game and server only; 0: any)")
    p.add_argument(
        "--config-messages",
        choices=[c.value for c in ConfigMessages],
        help="who gets 341-344 (default: all for awari, observers for gothello)",
    )
    p.add_argument("--max-observers", type=int, default=Limits.max_observers, metavar="K")
    p.add_argument(
        "--web", type=int, metavar="PORT", help="also serve the live web view on this port (needs the web extra)"
    )
    p.add_argument("--web-host", metavar="HOST", help="address of the web view (default: --host)")
    p.add_argument("--log-level", choices=["debug", "info", "warning", "error"], default="info")
    p.add_argument("--quiet", "-q", action="store_true", help="log warnings and errors only")
    p.set_defaults(run=run)


def load_engine(game: str, kind: str | None) -> Any:
    """The engine asked for; by default impl, or spec if impl cannot be imported."""
    try:
        return get_engine(game, kind or "impl")
    except ImportError as exc:
        if kind is not None:
            raise SystemExit(
                f"referee serve: the {kind} engine for {game} is unavailable ({exc}); try --engine spec"
            ) from exc
        event(logging.WARNING, "engine_fallback", game=game, error=repr(exc), engine="spec")
        return get_engine(game, "spec")


def _time(values: list[float] | None) -> tuple[float, float] | None:
    if values is None:
        return None
    if len(values) > 2 or min(values) <= 0:
        raise SystemExit("referee serve: --time takes one or two positive numbers of seconds")
    return (values[0], values[-1])


def build_servers(args: argparse.Namespace, listeners: tuple[Callable[[Session], None], ...] = ()) -> list[GameServer]:
    games = GAMES if args.game == "all" else (args.game,)
    if args.port is not None and len(games) * len(args.server) != 1:
        raise SystemExit("referee serve: --port needs a single game and a single server number")
    if min(args.server) < 0:
        raise SystemExit("referee serve: server numbers are >= 0")
    time = _time(args.time)
    servers = []
    for game in games:
        engine = load_engine(game, args.engine)
        config = ConfigMessages(args.config_messages) if args.config_messages else DEFAULT_CONFIG[game]
        for number in dict.fromkeys(args.server):
            limits = Limits(max_observers=args.max_observers)
            settings = Settings(P.VOCABULARIES[game], number, time, config, limits, args.record, listeners)
            spec = ServerSpec(settings, host=args.host, port=args.port, forever=args.forever)
            servers.append(GameServer(spec, engine))
    return servers


def web_view(args: argparse.Namespace) -> Any:
    """The web view asked for by --web, or None (impl.web.app.WebView: aiohttp, the web extra)."""
    if args.web is None:
        return None
    if not 0 <= args.web <= 65535:
        raise SystemExit("referee serve: --web takes a port number (0: any free port)")
    try:
        from impl.web.app import WebView
    except ImportError as exc:
        raise SystemExit(f"referee serve: --web needs the web extra ({exc}): pip install 'zreferee[web]'") from exc
    return WebView(args.web_host or args.host, args.web, args.record)


def run(args: argparse.Namespace) -> int:
    setup_logging("warning" if args.quiet else args.log_level)
    web = web_view(args)
    servers = build_servers(args, web.listeners if web is not None else ())
    try:
        signum = asyncio.run(web.serve(servers) if web is not None else serve(servers))
    except KeyboardInterrupt:  # before the handlers were installed
        return 130
    except OSError as exc:
        event(logging.ERROR, "listen_failed", error=str(exc))
        return 1
    return 0 if signum is None else 128 + signum  # the shell's convention for a signal
