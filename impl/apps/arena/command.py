"""``referee arena {awari,gothello}``: the class arena's command line (docs/arena.md)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import fcntl
import logging
import os
import signal
import ssl
import stat
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

from impl import protocol as P
from impl.apps.listening import add_limits, add_runtime, loop_of
from impl.atomic import kind_of
from impl.cli import (
    UsageError,
    add_rules_argument,
    bound,
    check_rules,
    count,
    install_hint,
    port,
    positive,
    seconds,
    subcommand,
)
from impl.config import DEFAULTS, Config, time_control
from impl.engines.port import GAMES
from impl.game import PAPER_RULES
from impl.log import event, setup_logging
from impl.server import fdbudget, loops
from impl.server.session import Settings

ANCHORS = ("random", "search")
ARENA_NET = replace(DEFAULTS.net, max_connections=512, per_address=256, accept_burst=512.0, accept_rate=50.0)
"""An arena's connection limits: a class's programs often share one address (a lab
behind NAT), and each plays a game per connection; a name is limited by its login."""


def anchor_kind(text: str) -> str:
    """``--anchor``'s type: ``random``, or ``search:SECS`` (seconds a move)."""
    kind, _, budget = text.partition(":")
    if kind not in ANCHORS or (kind == "random" and budget):
        raise argparse.ArgumentTypeError(f"{text!r} is not random or search:SECS")
    if kind == "search":
        try:
            if not 0 < float(budget) <= 60:
                raise ValueError
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r}: search needs :SECS, 0 < SECS <= 60") from None
    return text


def add_command(subparsers: Any) -> None:
    p = subcommand(subparsers, "arena", run)
    p.add_argument("game", choices=GAMES)
    p.add_argument("--db", default="arena.db", metavar="PATH|URL",
                   help="the database: a SQLite file (default arena.db) or postgresql://user@host/name")  # fmt: skip
    p.add_argument("--host", default=DEFAULTS.host, help="address to listen on (default all)")
    p.add_argument("--port", type=port, help="port (default the papers': 29046 awari, 29068 gothello; 0: any)")
    p.add_argument("--record", type=Path, metavar="DIR", help="write every game's record (PGN) in DIR")
    p.add_argument("--round", type=seconds, default=30.0, metavar="SECS", help="seconds between rounds (default 30)")
    p.add_argument("--time", type=time_control, metavar="SECS[+INC]", help="each side's clock (default none)")
    add_rules_argument(p)
    p.add_argument("--anchor", type=anchor_kind, action="append", metavar="KIND",
                   help="an anchor the arena runs: random or search:SECS (repeatable; default random)")  # fmt: skip
    p.add_argument("--no-anchors", action="store_true", help="run no anchor")
    p.add_argument("--anchor-rating", type=float, default=0.0, metavar="ELO",
                   help="the first anchor's fixed rating (default 0)")  # fmt: skip
    p.add_argument("--no-guests", action="store_true", help="refuse players without a login")
    p.add_argument("--new-names", type=positive, default=30, metavar="K",
                   help="new names one address may create in 10 minutes (default 30)")  # fmt: skip
    p.add_argument("--per-player", type=positive, default=1, metavar="K",
                   help="connections one name may hold at once (default 1)")  # fmt: skip
    add_limits(p, ARENA_NET, "the arena", ("--seat-timeout", "--wait-timeout", "--idle-timeout"))
    p.add_argument(
        "--daily", type=count, default=0, metavar="K", help="games a name may start in 24 h (default 0: any)"
    )
    p.add_argument("--opening-plies", type=count, default=0, metavar="N",
                   help="start each game from a random opening of N plies (default 0: none)")  # fmt: skip
    p.add_argument(
        "--web", type=port, metavar="PORT", help="serve the arena's pages on this port (needs the web extra)"
    )
    p.add_argument("--web-host", metavar="HOST", help="address of the web pages (default: --host)")
    p.add_argument("--delay", type=bound, default=60.0, metavar="SECS",
                   help="the web pages show games in progress SECS late (default 60; 0: live)")  # fmt: skip
    p.add_argument("--tls-port", type=port, metavar="PORT", help="also listen with TLS on PORT (needs --certificate)")
    p.add_argument("--certificate", type=Path, metavar="PEM", help="TLS: the certificate chain (docs/arena.md)")
    p.add_argument("--key", type=Path, metavar="PEM", help="TLS: its private key (default: in --certificate)")
    p.add_argument("--seed", type=int, help="the pairings' and openings' randomness")
    add_runtime(p)


def tls_context(args: argparse.Namespace) -> ssl.SSLContext | None:
    """``--tls-port``'s server context, its certificate loaded now (one line if it cannot be)."""
    if args.tls_port is None and args.certificate is None:
        return None
    if args.tls_port is None or args.certificate is None:
        raise UsageError("referee arena: --tls-port and --certificate go together")
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    try:
        context.load_cert_chain(args.certificate, args.key)
    except (OSError, ssl.SSLError) as exc:
        raise UsageError(f"referee arena: cannot load the TLS certificate {args.certificate}: {exc}") from None
    return context


def lock(db: str) -> int | None:
    """One arena per SQLite file: an exclusive lock on ``FILE.lock`` held while it
    runs (PostgreSQL takes several arenas).  The descriptor, or None for a URL."""
    if "://" in db:
        return None
    with contextlib.suppress(FileNotFoundError):
        mode = os.stat(db).st_mode
        if not stat.S_ISREG(mode):
            raise UsageError(f"referee arena: database {db} is not a regular file ({kind_of(mode)})")
    path = Path(db).resolve().with_name(Path(db).name + ".lock")
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600)
    except OSError as exc:
        raise UsageError(f"referee arena: cannot use database {db}: {exc.strerror or exc}") from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        raise UsageError(f"referee arena: database {db} is in use by another arena") from None
    return fd


def run(args: argparse.Namespace) -> int:
    """run a class arena: players log in, are paired in rounds and rated

    A long-running referee for one game on the papers' port: programs connect from anywhere
    with an unchanged client, log in with "name:password" as their name, are paired every
    --round seconds by rating, play one game per connection and are rated by maximum
    likelihood over all their games (docs/arena.md).
    """
    try:
        from impl.apps.arena.config import ArenaConfig
        from impl.apps.arena.server import Arena
        from impl.apps.arena.store import Store, StoreError
    except ImportError as exc:
        raise UsageError(f"referee arena needs the arena extra ({exc}): {install_hint('arena')}") from None
    from impl.apps.serve import check_writable, load_engine

    loop = loop_of(args.loop, "referee arena")
    setup_logging(args.log_level)
    check_rules("referee arena", args.game, args.rules)
    fdbudget.raise_limit()
    if args.record is not None:
        check_writable(args.record, "referee arena")
    engine = load_engine(args.game, None, args.rules if args.game == "awari" else PAPER_RULES, "referee arena")
    anchors = () if args.no_anchors else tuple(args.anchor or ["random"])
    tc = args.time
    limits = replace(
        DEFAULTS.limits, seat_timeout=args.seat_timeout, wait_timeout=args.wait_timeout, idle_timeout=args.idle_timeout
    )
    config = replace(
        Config(),
        time=None if tc is None else (tc.seconds, tc.seconds),
        increment=(0.0, 0.0) if tc is None else (tc.increment, tc.increment),
        limits=limits,
    )
    settings = Settings.of(config, args.game)
    net = replace(
        ARENA_NET, max_connections=args.max_connections, per_address=min(args.per_address, args.max_connections - 1)
        if args.max_connections > 1 else 1, ipv4_group=args.ipv4_group,
    )  # fmt: skip
    cfg = ArenaConfig(
        game=args.game, db=args.db, host=args.host, port=args.port, record_dir=args.record, round_every=args.round,
        guests=not args.no_guests, per_player=args.per_player, daily=args.daily, new_names=args.new_names,
        anchors=anchors,
        anchor_rating=args.anchor_rating, opening_plies=args.opening_plies, limits=limits, seed=args.seed,
        time=None if tc is None else tc.seconds, increment=0.0 if tc is None else tc.increment, delay=args.delay,
        net=net,
    )  # fmt: skip
    tls = tls_context(args)
    cfg = replace(cfg, tls=tls, tls_port=args.tls_port if tls is not None else None)
    held = lock(args.db)
    try:
        store = Store.open(args.db)
    except StoreError as exc:
        raise UsageError(f"referee arena: {exc}") from None
    web = None
    try:
        if args.web is not None:
            web = _web_link(args)
            web.open()
        return loops.run(_serve(Arena(cfg, engine, store, settings, web)), loop)
    except KeyboardInterrupt:
        return 130
    except OSError as exc:
        print(f"referee arena: cannot listen on port {args.port or P.port_of(args.game, 0)}: {exc.strerror or exc}; "
              "choose another with --port", file=sys.stderr)  # fmt: skip
        return 1
    finally:
        if web is not None:
            web.close()
        store.close()
        if held is not None:
            os.close(held)


def _web_link(args: argparse.Namespace) -> Any:
    try:
        import aiohttp  # noqa: F401  (checked here: the web process would fail later, less clearly)

        from impl.web.arena import ArenaLink
    except ImportError as exc:
        raise UsageError(f"referee arena: --web needs the web extra ({exc}): {install_hint('web')}") from None
    return ArenaLink(args.web_host or args.host, args.web, args.record, args.delay)


async def _serve(arena: Any) -> int:
    await arena.start()
    loops.settle_heap()
    print(f"{arena.cfg.game.capitalize()} arena listens on port {arena.port}; database {arena.cfg.db}", flush=True)
    if arena.tls_port is not None:
        print(f"  and with TLS on port {arena.tls_port}", flush=True)
    for line in arena.ledger.lines:
        print(f"  {line}", flush=True)
    if arena.web is not None:
        host = "localhost" if arena.web.host in ("0.0.0.0", "::", "") else arena.web.host
        print(f"Web pages: http://{host}:{arena.web.port}/arena", flush=True)
    stopped = asyncio.Event()
    got: list[int] = []
    loop = asyncio.get_running_loop()

    def on_signal(signum: int) -> None:
        got.append(signum)
        stopped.set()

    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, on_signal, signum)
    rounds: set[asyncio.Future[int]] = set()

    def round_now() -> None:  # SIGUSR1: a round at once (docs/arena.md)
        rounds.add(task := asyncio.ensure_future(arena.round()))
        task.add_done_callback(rounds.discard)

    loop.add_signal_handler(signal.SIGUSR1, round_now)
    await stopped.wait()
    event(logging.INFO, "arena_stop", signal=got[0])
    await arena.stop()
    return 128 + got[0]
