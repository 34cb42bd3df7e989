"""``referee player {random|search} GAME``: one computer player, connected to a
referee server, playing one game to its end."""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path
from typing import Any

from impl.cli import UsageError, add_rules_argument, bound, check_rules, count, port, positive, seconds, subcommand
from impl.client import Client, ClientError, seat_token
from impl.engines.tablebase.probe import Table
from impl.engines.tablebase.store import TableError
from impl.game import ABAPA_RULES
from impl.protocol import VOCABULARIES, quote_name

from . import PLAYERS
from .base import Player, log, play
from .openspiel_player import OpenSpielMCTSPlayer
from .perfect_player import KEEP, PerfectPlayer
from .search_player import DEFAULT_BUDGET, SearchPlayer

SERVER_SILENCE = 3600.0
"""Seconds ``referee player`` waits for a line from the server: the server ends a
game long before (its idle and wait timeouts, impl/config.py ``Limits``)."""


def add_connection_arguments(p: argparse.ArgumentParser) -> None:
    """--host, --server / --port, --side and --name: how a player reaches its seat."""
    p.add_argument("--host", default="127.0.0.1", help="server address (default 127.0.0.1)")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--server", type=count, default=0, metavar="N", help="server number: port 29046+N / 29068+N")
    where.add_argument("--port", type=port, help="connect to this port instead")
    p.add_argument("--side", default="?", help="south/north, black/white, or ? for either (default ?)")
    p.add_argument("--name", type=player_name, help="the name the server shows (default: the player's)")


def player_name(text: str) -> str:
    """``--name``: one a seat request can carry (impl/protocol.py ``quote_name``)."""
    try:
        quote_name(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text


def check_side(command: str, game: str, side: str) -> None:
    """``--side`` names one of the game's sides, or ``?``."""
    sides = VOCABULARIES[game].sides
    if side not in (*sides, "?"):
        raise UsageError(f"{command}: {game} sides are {sides[0]}, {sides[1]} or ?")


def add_command(subparsers: Any) -> None:
    p = subcommand(subparsers, "player", run)
    p.add_argument("kind", choices=sorted(PLAYERS), help="which player")
    p.add_argument("game", choices=["awari", "gothello"])
    add_connection_arguments(p)
    p.add_argument(
        "--budget", type=seconds, default=DEFAULT_BUDGET, help="search, openspiel-mcts: seconds per move (default 1)"
    )
    p.add_argument("--depth", type=positive, default=64, help="search: deepest iteration (default 64)")
    p.add_argument("--seed", type=int, help="random: seed")
    p.add_argument(
        "--timeout",
        type=seconds,
        default=SERVER_SILENCE,
        metavar="SECS",
        help=f"give up on a server silent for SECS (default {SERVER_SILENCE:g}: longer than any wait the server "
        "itself allows)",
    )
    p.add_argument(
        "--tb",
        type=Path,
        help="perfect, search: the Awari tables' folder (referee tablebase build; docs/tablebases.md)",
    )
    p.add_argument(
        "--keep",
        type=bound,
        default=KEEP,
        metavar="SECS",
        help=f"perfect, Gothello: seconds a move may take to keep a win its last move kept (default "
        f"{KEEP:g}, and at most half the clock left; 0: the move's budget alone)",
    )
    p.add_argument("--quiet", "-q", action="store_true", help="log nothing but errors")
    add_rules_argument(p, None)


def make_player(
    kind: str,
    budget: float = DEFAULT_BUDGET,
    seed: int | None = None,
    depth: int = 64,
    tables: Path | None = None,
    keep: float = KEEP,
) -> Player:
    if kind in ("perfect", "search"):
        try:
            found = _tables(tables)
        except TableError as exc:  # a damaged table decides nothing (issue #49, item 1)
            raise UsageError(f"referee player: --tb: {exc}") from None
        return PerfectPlayer(found, budget, depth, keep) if kind == "perfect" else SearchPlayer(budget, depth, found)
    if kind == "openspiel-mcts":
        try:
            return OpenSpielMCTSPlayer(budget, seed)
        except ImportError as exc:
            raise UsageError(f"referee player: openspiel-mcts needs the crosscheck extra ({exc})") from None
    return PLAYERS[kind](seed)


def _tables(folder: Path | None) -> dict[str, Table] | None:
    """Every rule set's table in ``folder``, read and verified now (before the port):
    a folder that is missing or holds none is one line, not a game played without."""
    if folder is None:
        return None
    if not folder.is_dir():
        raise UsageError(f"referee player: --tb: {folder} is not a folder")
    found = Table.every(folder)
    if not found:
        raise UsageError(f"referee player: --tb: no table in {folder} (referee tablebase build)")
    return found


def setup_logging(quiet: bool) -> None:
    """Human-readable lines on stderr, for the player's log only."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(name)s: %(message)s"))
    log.handlers[:] = [handler]
    log.setLevel(logging.ERROR if quiet else logging.INFO)
    log.propagate = False


def run(args: argparse.Namespace) -> int:
    """run a computer player against a server

    Connect a computer player to a referee server and play one game. random: a uniformly
    random legal move; search: alpha-beta on the fast engine, thinking for a share of
    its clock (or --budget seconds without time controls).
    """
    setup_logging(args.quiet)
    check_side("referee player", args.game, args.side)
    check_rules("referee player", args.game, args.rules)
    if args.kind == "openspiel-mcts" and (args.game != "awari" or args.rules not in (None, ABAPA_RULES)):
        raise UsageError("referee player: openspiel-mcts plays Awari under the abapa rules only")
    player = make_player(args.kind, args.budget, args.seed, args.depth, args.tb, args.keep)
    try:
        with Client.connect(
            args.game, args.host, args.server, args.port, rules=args.rules, timeout=args.timeout
        ) as client:
            # Launched by a match: the seat's token proves the seat (impl/apps/launch.py).
            client.seat(args.side, args.name if args.name is not None else seat_token() or player.name)
            result = play(client, player)
            side = client.sides[client.side or 0]
            if result.termination.aborted:
                outcome = "no result"
            else:
                outcome = "won" if result.winner == client.side else "drew" if result.winner is None else "lost"
            counts = client.counts()
            print(f"{player.name} played {side}: {client.describe_result()}, {counts[0]}-{counts[1]}: {outcome}")
            if isinstance(player, SearchPlayer | OpenSpielMCTSPlayer):
                log.info("%s", player.summary())
    except ClientError as exc:
        log.error("%s", exc)
        return 1
    return 0
