"""``referee serve {awari|gothello|all}``: the servers of both papers' section 2."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from impl import protocol as P
from impl.apps.openings import OpeningError, parse_opening
from impl.cli import (
    UsageError,
    add_rules_argument,
    bound,
    check_rules,
    count,
    port,
    positive,
    seconds,
    subcommand,
)
from impl.engines.port import GAMES, KINDS
from impl.engines.registry import get_engine
from impl.log import event, setup_logging
from impl.server import fdbudget
from impl.server.net import NetLimits
from impl.server.server import GameServer, ServerConfig, serve
from impl.server.session import ConfigMessages, Limits, OnDivergence, Session, Settings

DEFAULT_CONFIG = {"awari": ConfigMessages.ALL, "gothello": ConfigMessages.OBSERVERS}
"""gthd's client libraries require 351/352 right after 100/101 (docs/protocol.md)."""


TIMEOUTS = (
    ("--seat-timeout", Limits.seat_timeout, "a connection must take a seat within SECS"),
    ("--idle-timeout", Limits.idle_timeout, "without --time, a player to move that sends nothing for SECS loses"),
    ("--wait-timeout", Limits.wait_timeout, "a seated player without an opponent for SECS is closed (199)"),
    ("--line-timeout", NetLimits.line_timeout, "a request line must be completed within SECS"),
)


def add_command(subparsers: Any) -> None:
    p = subcommand(subparsers, "serve", run)
    p.add_argument("game", choices=[*GAMES, "all"])
    p.add_argument("--server", type=count, nargs="+", default=[0], metavar="N", help="server numbers (default 0)")
    p.add_argument("--forever", action="store_true", help="host game after game instead of one game")
    p.add_argument(
        "--engine",
        choices=KINDS,
        help="rules engine: impl (fast), spec (the executable Z) or checked (impl, checked move by move by the spec, "
        "whose verdict is followed); default impl, falling back to spec",
    )
    p.add_argument(
        "--on-divergence",
        choices=[o.value for o in OnDivergence],
        default=OnDivergence.CONTINUE.value,
        help="checked engine: when impl and spec disagree, continue on the spec's verdict (default) or abort the game "
        "with 399; either way it is logged and recorded",
    )
    p.add_argument(
        "--time",
        type=seconds,
        nargs="+",
        metavar="SECS",
        help="time controls: one or two numbers, the seconds of the first player (south, black) "
        "and of its opponent if different",
    )
    p.add_argument("--record", type=Path, metavar="DIR", help="write a record file per finished game")
    p.add_argument(
        "--opening",
        metavar="MOVES",
        help='start every game from these moves, played by the referee ("c3 d4"; one game only)',
    )
    add_rules_argument(p)
    p.add_argument("--host", default="0.0.0.0", help="address to listen on (default all)")
    p.add_argument("--port", type=port, help="listen on this port instead (one game and server only; 0: any)")
    p.add_argument(
        "--config-messages",
        choices=[c.value for c in ConfigMessages],
        help="who gets 341-344 (default: all for awari, observers for gothello)",
    )
    p.add_argument("--max-observers", type=count, default=Limits.max_observers, metavar="K")
    p.add_argument(
        "--max-connections",
        type=positive,
        default=NetLimits.max_connections,
        metavar="K",
        help=f"connections one server holds at once (default {NetLimits.max_connections}, "
        "lowered to the server's share of the process's file descriptors)",
    )
    p.add_argument(
        "--per-address",
        type=positive,
        default=NetLimits.per_address,
        metavar="K",
        help=f"connections one client address may hold on one server (default {NetLimits.per_address})",
    )
    for option, default, what in TIMEOUTS:
        help = f"{what} (default {default:g}; 0: none)"
        p.add_argument(option, type=bound, default=default, metavar="SECS", help=help)
    p.add_argument(
        "--web",
        type=port,
        metavar="PORT",
        help="also serve the live web view on this port (0: any free port; needs the web extra)",
    )
    p.add_argument("--web-host", metavar="HOST", help="address of the web view (default: --host)")
    p.add_argument("--log-level", choices=["debug", "info", "warning", "error"], default="info")
    p.add_argument("--quiet", "-q", action="store_true", help="log warnings and errors only")


def load_engine(game: str, kind: str | None, rules: str = "paper") -> Any:
    """The engine asked for; by default impl, or spec if impl cannot be imported."""
    try:
        return get_engine(game, kind or "impl", rules)
    except ImportError as exc:
        if kind is not None:
            raise UsageError(
                f"referee serve: the {kind} engine for {game} is unavailable ({exc}); try --engine spec"
            ) from exc
        event(logging.WARNING, "engine_fallback", game=game, error=repr(exc), engine="spec")
        return get_engine(game, "spec", rules)


def _time(values: list[float] | None) -> tuple[float, float] | None:
    if values is None:
        return None
    if len(values) > 2:
        raise UsageError("referee serve: --time takes one or two numbers of seconds")
    return (values[0], values[-1])


def opening_of(args: argparse.Namespace, engine: Any) -> tuple[str, ...]:
    """``--opening``'s moves checked by the game's engine (impl/apps/openings.py)."""
    if args.opening is None:
        return ()
    if args.game == "all":
        raise UsageError("referee serve: --opening needs a single game")
    try:
        return parse_opening(engine, args.opening)
    except OpeningError as exc:
        raise UsageError(f"referee serve: --opening: {exc}") from None


def check_writable(directory: Path) -> None:
    """Records go to ``directory``: make it and write a probe file there now, not
    when the first game ends."""
    probe = directory / f".probe-{os.getpid()}"
    try:
        directory.mkdir(parents=True, exist_ok=True)
        probe.write_text("probe\n", encoding="ascii")
        probe.unlink()
    except OSError as exc:
        raise UsageError(f"referee serve: cannot write records to {directory}: {exc.strerror or exc}") from None


def build_servers(
    args: argparse.Namespace, session_hooks: tuple[Callable[[Session], None], ...] = ()
) -> list[GameServer]:
    """The servers asked for; ``session_hooks`` are called with each new session
    (the web view's, to listen to its games)."""
    games = GAMES if args.game == "all" else (args.game,)
    if args.game != "all":
        check_rules("referee serve", args.game, args.rules)
    if args.port is not None and len(games) * len(args.server) != 1:
        raise UsageError("referee serve: --port needs a single game and a single server number")
    if args.port is None and max(args.server) > 65535 - max(P.VOCABULARIES[g].port_base for g in games):
        raise UsageError("referee serve: a server number beyond the last port")
    if args.record is not None:
        check_writable(args.record)
    time = _time(args.time)
    share = fdbudget.budget().game // (len(games) * len(dict.fromkeys(args.server)))
    max_connections = max(2, min(args.max_connections, share))
    if max_connections < args.max_connections:
        event(logging.WARNING, "max_connections", connections=max_connections, descriptors=fdbudget.budget().limit)
    servers = []
    for game in games:
        rules = args.rules if game == "awari" else "paper"  # with ``all``, --rules is Awari's
        engine = load_engine(game, args.engine, rules)
        opening = opening_of(args, engine)
        config = ConfigMessages(args.config_messages) if args.config_messages else DEFAULT_CONFIG[game]
        for number in dict.fromkeys(args.server):
            limits = Limits(
                max_observers=args.max_observers,
                seat_timeout=args.seat_timeout,
                idle_timeout=args.idle_timeout,
                wait_timeout=args.wait_timeout,
            )
            settings = Settings(
                P.VOCABULARIES[game],
                number,
                time,
                config,
                limits,
                on_divergence=OnDivergence(args.on_divergence),
                rules=rules,
            )
            net = NetLimits(
                line_timeout=args.line_timeout, max_connections=max_connections, per_address=args.per_address
            )
            spec = ServerConfig(
                settings,
                host=args.host,
                port=args.port,
                forever=args.forever,
                net=net,
                record_dir=args.record,
                session_hooks=session_hooks,
                opening=opening,
            )
            servers.append(GameServer(spec, engine))
    return servers


def web_view(args: argparse.Namespace) -> Any:
    """The web view asked for by --web, or None (impl.web.app.WebView: aiohttp, the web extra)."""
    if args.web is None:
        return None
    try:
        from impl.web.app import WebView
    except ImportError as exc:
        raise UsageError(f"referee serve: --web needs the web extra ({exc}): pip install '.[web]'") from None
    return WebView(args.web_host or args.host, args.web, args.record)


def where(servers: Sequence[GameServer], web: Any) -> list[str]:
    """Where each server and the web view listen, for a person (stdout; the JSON log
    on stderr says the same for programs)."""
    lines = []
    for server in servers:
        game, number, host, port = server.settings.vocab.game, server.settings.server, server.spec.host, server.port
        scope = " (every interface)" if host in ANY_HOST else ""
        lines.append(
            f"{game.capitalize()} server {number} listens on {host}:{port}{scope}"
            f" — play: referee client {game} --host {_reachable(host)} --port {port}"
        )
    if web is not None:
        lines.append(f"Web view: http://{_reachable(web.host)}:{web.port}/")
    return lines


ANY_HOST = ("0.0.0.0", "::", "")


def _reachable(host: str) -> str:
    """A host a person on this machine can connect to."""
    return "localhost" if host in ANY_HOST else host


def run(args: argparse.Namespace) -> int:
    """run referee servers

    Run Awari (port 29046+N) and/or Gothello (port 29068+N) referee servers. By default
    each serves one game and the command exits when all have finished.
    """
    setup_logging("warning" if args.quiet else args.log_level)
    fdbudget.raise_limit()  # before the caps are sized from it
    web = web_view(args)
    servers = build_servers(args, (web.session_hook,) if web is not None else ())

    def ready() -> None:
        if not args.quiet:
            print("\n".join(where(servers, web)), flush=True)

    try:
        signum = asyncio.run(web.serve(servers, ready) if web is not None else serve(servers, ready))
    except KeyboardInterrupt:  # before the handlers were installed
        return 130
    except OSError as exc:
        event(logging.ERROR, "listen_failed", error=str(exc))
        return 1
    return 0 if signum is None else 128 + signum  # the shell's convention for a signal
