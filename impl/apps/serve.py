"""``referee serve {awari|gothello|all}``: the servers of both papers' section 2."""

from __future__ import annotations

import argparse
import errno
import logging
import re
import sys
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from impl import protocol as P
from impl.apps.listening import TIMEOUTS, add_limits, add_runtime, loop_of
from impl.atomic import probe_writable, why
from impl.cli import (
    UsageError,
    add_rules_argument,
    check_rules,
    count,
    install_hint,
    port,
    subcommand,
)
from impl.config import DEFAULTS, Config, ConfigMessages, OnDivergence, time_control
from impl.engines.openings import OpeningError, parse_opening
from impl.engines.port import GAMES, KINDS, GameEngine
from impl.engines.registry import get_engine
from impl.game import PAPER_RULES
from impl.log import event, setup_logging
from impl.server import fdbudget, loops
from impl.server.server import GameServer, ServerConfig, default_port, serve
from impl.server.session import Session


def add_command(subparsers: Any) -> None:
    add_arguments(subcommand(subparsers, "serve", run))


def add_arguments(p: argparse.ArgumentParser) -> None:
    """``referee serve``'s arguments (``synopsis`` shows them)."""
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
        default=DEFAULTS.on_divergence.value,
        help="checked engine: when impl and spec disagree, continue on the spec's verdict (default) or abort the game "
        "with 399; either way it is logged and recorded",
    )
    p.add_argument(
        "--time",
        type=time_control,
        nargs="+",
        metavar="SECS[+INC]",
        help="time controls: seconds and an optional Fischer increment per move (300+2), of the first player "
        "(south, black) and of its opponent if different",
    )
    p.add_argument("--record", type=Path, metavar="DIR", help="write a record file per finished game")
    p.add_argument(
        "--opening",
        metavar="MOVES",
        help='start every game from these moves, played by the referee ("c3 d4"; one game only)',
    )
    add_rules_argument(p)
    p.add_argument("--host", default=DEFAULTS.host, help="address to listen on (default all)")
    p.add_argument("--port", type=port, help="listen on this port instead (one game and server only; 0: any)")
    p.add_argument(
        "--config-messages",
        choices=[c.value for c in ConfigMessages],
        help="who gets 341-344 (default: all for awari, observers for gothello)",
    )
    p.add_argument("--max-observers", type=count, default=DEFAULTS.limits.max_observers, metavar="K")
    add_limits(p, DEFAULTS.net, "one server", tuple(TIMEOUTS), lowered=True)
    p.add_argument(
        "--web",
        type=port,
        metavar="PORT",
        help="also serve the live web view on this port (0: any free port; needs the web extra)",
    )
    p.add_argument("--web-host", metavar="HOST", help="address of the web view (default: --host)")
    p.add_argument(
        "--tb",
        type=Path,
        metavar="DIR",
        help="the web view's replay of an Awari record values each move by the endgame table in DIR "
        "(referee tablebase build; needs --web and --record)",
    )
    p.add_argument(
        "--transcript",
        type=Path,
        metavar="DIR",
        help="write each game's lines, both ways, as JSON lines in DIR (referee check reads them)",
    )
    p.add_argument(
        "--check-protocol",
        action="store_true",
        help="check every line sent against the protocol's model; log each game's first divergence as JSON",
    )
    add_runtime(p)
    p.add_argument("--quiet", "-q", action="store_true", help="log warnings and errors only")


def synopsis(width: int = 100) -> str:
    """``referee serve``'s usage as its parser gives it, ``width`` columns wide: docs/protocol.md §1 shows
    exactly this (tests/docs/test_serve_synopsis.py), so every option is in it."""
    parser = argparse.ArgumentParser(
        prog="referee serve", formatter_class=lambda prog: argparse.HelpFormatter(prog, width=width)
    )
    add_arguments(parser)
    usage = parser.format_usage().removeprefix("usage: ").rstrip()
    return usage.replace("\n" + " " * len("usage: "), "\n")  # continued lines under the command


def load_engine(game: str, kind: str | None, rules: str = PAPER_RULES, command: str = "referee serve") -> Any:
    """The engine asked for; by default impl, or spec if impl cannot be imported.
    ``command`` names the refusal's program."""
    try:
        return get_engine(game, kind or "impl", rules)
    except ImportError as exc:
        if kind is not None:
            raise UsageError(
                f"{command}: the {kind} engine for {game} is unavailable ({exc}); try --engine spec"
            ) from exc
        event(logging.WARNING, "engine_fallback", game=game, error=repr(exc), engine="spec")
        return get_engine(game, "spec", rules)


def opening_of(config: Config, engine: GameEngine) -> tuple[str, ...]:
    """``--opening``'s moves checked by the game's engine (impl/engines/openings.py)."""
    if config.opening is None:
        return ()
    if len(config.games) != 1:
        raise UsageError("referee serve: --opening needs a single game")
    try:
        return parse_opening(engine, config.opening)
    except OpeningError as exc:
        raise UsageError(f"referee serve: --opening: {exc}") from None


def check_writable(directory: Path, command: str = "referee serve") -> None:
    """Records go to ``directory``: make it and write a probe file there now, not
    when the first game ends.  ``command`` names the refusal's program."""
    try:
        directory.mkdir(parents=True, exist_ok=True)
        probe_writable(directory)
    except OSError as exc:
        raise UsageError(f"{command}: cannot write records to {directory}: {exc.strerror or exc}") from None


def build_servers(
    args: argparse.Namespace, session_hooks: tuple[Callable[[Session], None], ...] = ()
) -> list[GameServer]:
    """The servers ``referee serve``'s arguments ask for (``servers_of`` their ``Config``)."""
    return servers_of(Config.from_args(args), session_hooks)


def servers_of(config: Config, session_hooks: tuple[Callable[[Session], None], ...] = ()) -> list[GameServer]:
    """The servers ``config`` asks for, checked; ``session_hooks`` are called with each
    new session (the web view's, to listen to its games)."""
    games, numbers = config.games, tuple(dict.fromkeys(config.servers))
    if len(games) == 1:
        check_rules("referee serve", games[0], config.rules)
    if config.port is not None and len(games) * len(config.servers) != 1:
        raise UsageError("referee serve: --port needs a single game and a single server number")
    if config.port is None and max(numbers) > 65535 - max(P.VOCABULARIES[g].port_base for g in games):
        raise UsageError("referee serve: a server number beyond the last port")
    if config.record_dir is not None:
        check_writable(config.record_dir)
    # The web view is a process of its own (impl/web/child.py): every descriptor but the reserve is the games'.
    share = fdbudget.budget(web_share=0.0).game // (len(games) * len(numbers))
    max_connections = max(2, min(config.net.max_connections, share))
    if max_connections < config.net.max_connections:
        event(logging.WARNING, "max_connections", connections=max_connections, descriptors=fdbudget.budget().limit)
    config = replace(config, net=replace(config.net, max_connections=max_connections))
    servers = []
    for game in games:
        engine = load_engine(game, config.engine, config.rules_for(game))
        opening = opening_of(config, engine)
        for number in numbers:
            spec = ServerConfig.of(config, game, number, opening=opening, session_hooks=session_hooks)
            servers.append(GameServer(spec, engine))
    return servers


def web_view(config: Config, tables: Path | None = None) -> Any:
    """The web view asked for by --web, or None: impl.web.link.WebLink, which runs
    it in a process of its own (aiohttp, the web extra, is imported there);
    ``tables``: ``--tb``, the endgame tables its replay page values moves by."""
    if tables is not None and (config.web is None or config.record_dir is None):
        raise UsageError("referee serve: --tb values the web view's replay of records: it needs --web and --record")
    if tables is not None and not tables.is_dir():
        raise UsageError(f"referee serve: --tb: {str(tables)!r} is not a directory")
    if config.web is None:
        return None
    try:
        import aiohttp  # noqa: F401  (checked here: the web process would fail later, less clearly)

        from impl.web.link import WebLink
    except ImportError as exc:
        raise UsageError(f"referee serve: --web needs the web extra ({exc}): {install_hint('web')}") from None
    return WebLink(config.web_address, config.web, config.record_dir, tables=tables, limits=config.web_limits)


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


def transcribing(directory: Path) -> Callable[[Session], None]:
    """The session hook of ``--transcript DIR`` (impl/server/transcript.py)."""
    from impl.server.transcript import record

    def hook(session: Session) -> None:
        record(session, directory)

    return hook


def run(args: argparse.Namespace) -> int:
    """run referee servers

    Run Awari (port 29046+N) and/or Gothello (port 29068+N) referee servers. By default
    each serves one game and the command exits when all have finished.
    """
    config = Config.from_args(args)
    loop = loop_of(config.loop, "referee serve")
    setup_logging(config.log_level)
    fdbudget.raise_limit()  # before the caps are sized from it
    web = web_view(config, args.tb)
    hooks: tuple[Callable[[Session], None], ...] = (web.session_hook,) if web is not None else ()
    if args.transcript is not None:
        check_writable(args.transcript)
        hooks += (transcribing(args.transcript),)
    servers = servers_of(config, hooks)

    def ready() -> None:
        loops.settle_heap()
        if not args.quiet:
            print("\n".join(where(servers, web)), flush=True)

    try:
        signum = loops.run(web.serve(servers, ready) if web is not None else serve(servers, ready), loop)
    except KeyboardInterrupt:  # before the handlers were installed
        return 130
    except OSError as exc:
        event(logging.ERROR, "listen_failed", error=str(exc))
        print(listen_failure(exc, servers), file=sys.stderr)
        return 1
    return 0 if signum is None else 128 + signum  # the shell's convention for a signal


def listen_failure(exc: OSError, servers: Sequence[GameServer]) -> str:
    """One plain line for a server that could not listen: which server, on which port,
    why, and the options that choose another (issue #53)."""
    found = re.search(r"\('?([^',]*)'?, (\d+)\)", str(exc))
    port = int(found.group(2)) if found else None
    for server in servers:
        game, number = server.settings.vocab.game, server.settings.server
        wanted = server.spec.port if server.spec.port is not None else default_port(game, number)
        if wanted == port:
            reason = "the port is in use (another referee?)" if exc.errno == errno.EADDRINUSE else why(exc)
            return (
                f"referee serve: the {game} server {number} cannot listen on {server.spec.host or 'every interface'} "
                f"port {port}: {reason}; choose another with --server N (port {P.VOCABULARIES[game].port_base}+N) "
                "or --port PORT"
            )
    return f"referee serve: cannot listen: {why(exc)}"
