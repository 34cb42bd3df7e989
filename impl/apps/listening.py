"""The options of a command that listens for players, ``referee serve`` and
``referee arena`` alike: its connection limits (impl/config.py ``NetLimits``), its
timeouts (``Limits``), the event loop (impl/server/loops.py) and the log level."""

from __future__ import annotations

import argparse
from collections.abc import Callable

from impl.cli import UsageError, bound, positive, prefix_bits
from impl.config import DEFAULTS, NetLimits
from impl.server.loops import LOOPS, LoopUnavailable, loop_name

TIMEOUTS = {
    "--seat-timeout": (DEFAULTS.limits.seat_timeout, "a connection must take a seat within SECS"),
    "--idle-timeout": (
        DEFAULTS.limits.idle_timeout,
        "without --time, a player to move silent for SECS loses",
    ),
    "--wait-timeout": (DEFAULTS.limits.wait_timeout, "a seated player without an opponent for SECS is closed (199)"),
    "--line-timeout": (DEFAULTS.net.line_timeout, "a request line must be completed within SECS"),
}
"""The timeout flags, their defaults and what they bound."""


def add_limits(
    p: argparse.ArgumentParser, net: NetLimits, holder: str, timeouts: tuple[str, ...], lowered: bool = False
) -> None:
    """--max-connections, --per-address, --ipv4-group with ``net``'s defaults, for the
    connections ``holder`` ("one server", "the arena") holds (``lowered`` to its share of
    the file descriptors by the command), and the ``timeouts`` named."""
    fds = ", lowered to its share of the process's file descriptors" if lowered else ""
    limits: tuple[tuple[str, Callable[[str], int], int, str, str], ...] = (
        ("--max-connections", positive, net.max_connections, "K", f"connections {holder} holds at once{fds}"),
        ("--per-address", positive, net.per_address, "K",
         f"connections one client address group may hold on {holder} (a class behind one NAT address is one group)"),
        ("--ipv4-group", prefix_bits, net.ipv4_group, "BITS",
         f"IPv4 addresses sharing their first BITS bits are one group for --per-address and for eviction when "
         f"{holder} is full (IPv6: its /64)"),
    )  # fmt: skip
    for option, kind, default, metavar, what in limits:
        p.add_argument(option, type=kind, default=default, metavar=metavar, help=f"{what} (default {default})")
    for option in timeouts:
        secs, what = TIMEOUTS[option]
        p.add_argument(option, type=bound, default=secs, metavar="SECS", help=f"{what} (default {secs:g}; 0: none)")


def add_runtime(p: argparse.ArgumentParser) -> None:
    """--loop and --log-level."""
    p.add_argument(
        "--loop",
        choices=LOOPS,
        default=DEFAULTS.loop,
        help="the event loop (default auto: uvloop where installed, as the fast extra installs it)",
    )
    p.add_argument("--log-level", choices=["debug", "info", "warning", "error"], default=DEFAULTS.log_level)


def loop_of(name: str, what: str) -> str:
    """The loop ``--loop`` names, as it will run (``auto`` resolved); one line if it cannot."""
    try:
        return loop_name(name)
    except LoopUnavailable as exc:
        raise UsageError(f"{what}: {exc}") from None
