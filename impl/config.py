"""One configuration: every setting of a referee server, stated once with its
default — the game's session (``Limits``, who gets 341–344, the checked engine's
``OnDivergence``), the network layer (``NetLimits``), where it listens, its
records, its web view (``WebLimits``, with each client's ``ClientLimits`` and the
viewers' ``HubLimits``) and its log level.

``Config.from_args`` builds it from ``referee serve``'s parsed arguments (impl/apps/
serve.py, whose flags take their defaults from ``DEFAULTS``); ``Config.local`` is a
private server on 127.0.0.1 for ``referee play``, the match runner and the tests
(impl/server/local.py).  The pieces read it: ``Settings.of`` (impl/server/session.py),
``ServerConfig.of`` (impl/server/server.py).  Flags and defaults: docs/protocol.md §1.

This module sits on the bottom floor beside impl/protocol.py: it imports no server,
client or application module, so that each of them can read it.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass, field, replace
from enum import Enum
from pathlib import Path
from typing import Any

from impl.cli import UsageError
from impl.game import PAPER_RULES
from impl.protocol import VOCABULARIES, TimeControl


class ConfigMessages(Enum):
    """Who receives the configuration messages 341–344 (Table 4)."""

    ALL = "all"
    OBSERVERS = "observers"
    NONE = "none"


class OnDivergence(Enum):
    """What a game does when the checked engine finds the fast engine and the spec
    disagree (impl/engines/checked_engine.py): it always follows the spec's verdict, logs
    and records the divergence; ``abort`` also ends it with 399."""

    CONTINUE = "continue"
    ABORT = "abort"


@dataclass(frozen=True)
class Limits:
    """What one game's session bounds (impl/server/session.py; docs/protocol.md §1 and
    "Timeouts"): observers, refusals, and the seat, idle and wait timeouts."""

    max_observers: int = 64
    """More observers get 193."""
    max_rejected: int = 64
    """A connection whose requests are refused this many times in a row is closed."""
    seat_timeout: float = 60.0
    """Seconds a connection has to take a seat (0: no bound); then 199 and closed."""
    idle_timeout: float = 600.0
    """Without time controls, seconds the player to move may send nothing before it
    loses as if it had disconnected (391/392, termination ``idle``); 0: no bound."""
    wait_timeout: float = 1800.0
    """Seconds a seated player waits for an opponent (0: no bound); then 199 and
    closed, so that a seat cannot be held forever.  Half an hour: a class or a
    tournament fills its seats in far less."""


@dataclass(frozen=True)
class NetLimits:
    """What one server's connections are bounded by (impl/server/net.py: framing,
    output, rates, connection caps)."""

    max_line: int = 512
    """Longest request line in bytes, terminator excluded."""
    write_limit: int = 64 * 1024
    """Unsent output beyond which a connection is dropped as not reading."""
    stalled_output: int = 16 * 1024
    """Unsent output that, held for ``write_timeout``, drops a connection as not
    reading even below ``write_limit`` (an observer that never reads a slow game)."""
    write_timeout: float = 60.0
    """Seconds unsent output may stay above ``stalled_output`` (0: no bound)."""
    send_buffer: int = 64 * 1024
    """The socket's kernel send buffer (``SO_SNDBUF``; 0: the system's).  Linux
    lets it grow to megabytes, in which a client that never reads would hide
    from ``stalled_output`` and ``write_limit``; a line protocol needs little."""
    close_grace: float = 5.0
    """Seconds a closing connection gets to flush its output before it is aborted."""
    line_timeout: float = 30.0
    """Seconds a begun request line may take to complete (0: no bound); then it is
    refused (199/299) and the connection closed."""
    max_empty: int = 64
    """Empty lines in a row that count as one refused request."""
    lines_per_slice: int = 16
    """Lines one connection handles before yielding to the other connections: a
    slice is what one flooding connection can add to another game's move (16
    rather than 64 lowered the garbage and 10 MB flood p99, README)."""
    read_rate: float = 64 * 1024
    """Bytes a second one connection is read at, past its burst (0: no bound).  A
    protocol client sends a few lines of at most ``max_line`` bytes a move: even a
    hundred 512-byte lines a second stay under it."""
    read_burst: float = 64 * 1024
    """Bytes read at once before ``read_rate`` applies: 128 lines of ``max_line``."""
    refusal_rate: float = 20.0
    """Refused requests (19x, 299) a second one connection is answered at, past its
    burst (0: no bound).  A protocol client gets these seldom (a mistyped line, a
    seat already taken) and reads each before it sends again."""
    refusal_burst: float = 40.0
    """Refusals answered at once before ``refusal_rate`` applies; fewer than
    ``Limits.max_rejected`` (64), so that a flooder of garbage is slowed before
    that rule closes it."""
    max_connections: int = 256
    """Open connections one server holds at once (players, observers and clients
    not yet seated); one more gets 199 and is closed, so that idle sockets cannot
    exhaust the process's file descriptors.  ``referee serve`` lowers it to its share
    of the descriptor budget (impl/server/fdbudget.py)."""
    per_address: int = 64
    """Open connections one client address group (``ipv4_group``; IPv6 by /64) may
    hold on one server (at most ``max_connections - 1``); one more gets 199 and is
    closed.  A game
    needs two seats and a few observers: 64 hinders neither a local tournament (its
    players share 127.0.0.1) nor a class watching one game from behind one NAT
    address."""
    ipv4_group: int = 32
    """Prefix length by which IPv4 addresses are grouped for ``per_address`` and
    eviction (impl/server/admission.py); IPv6 addresses are grouped by /64, what one
    host is commonly given."""
    ipv6_group: int = 64
    reserve: int = 2
    """Places that only a player's connection holds: connections without a seat
    (not yet seated, observers) take at most ``max_connections - reserve``, so that
    a full server still holds both players of its game."""
    accept_rate: float = 20.0
    """Connection tries a second one address group is weighed at (admitted, or
    refused for want of room), past its burst (0: no bound); beyond it a newcomer
    gets 199 at once: a reconnection storm costs one accept and one line each."""
    accept_burst: float = 128.0
    """Connections one group is admitted at once: twice ``per_address``, so that a
    group can fill its share, lose it and fill it again."""


CONFIG_MESSAGES = {"awari": ConfigMessages.ALL, "gothello": ConfigMessages.OBSERVERS}
"""Who gets 341–344 by default: gthd's Gothello client libraries require 351/352
right after 100/101, so its players get none (docs/protocol.md)."""

LOCAL_HOST = "127.0.0.1"
LOCAL_CLOSE_GRACE = 1.0
"""A private server's closing connections flush within a second: its peers are local."""


@dataclass(frozen=True)
class HubLimits:
    """The live view's viewers and the games it keeps (impl/web/hub.py)."""

    max_viewers: int = 2000
    """Viewers at once, over all streams; more are refused (503)."""
    keep_finished: int = 20
    """Finished games kept in memory for the list and for replay."""
    keep_forgotten: int = 50_000
    """Finished games no longer kept whose end is remembered (``Ended``, some 200
    bytes each), so that their pages can redirect to their records."""
    interval: float = 0.2
    """Seconds between two writes to a viewer: what comes meanwhile goes in one."""
    list_interval: float = 0.5
    """Seconds between two updates of the server list to its viewers."""
    write_limit: int = 128 * 1024
    """Bytes a viewer's connection may leave unsent; more drops it."""
    send_buffer: int = 128 * 1024
    """The kernel's send buffer per viewer (SO_SNDBUF), fixed so that a stalled
    viewer is found out within a bounded amount of output."""
    batch: int = 4
    """Viewers written to per turn of the event loop."""
    catch_up: int = 8
    """A viewer more messages behind than this (a game moving faster than it is
    drawn) gets one snapshot of the game instead of them."""


@dataclass(frozen=True)
class ClientLimits:
    """What one web client (an address group, impl/web/admission.py) may take."""

    connections: int = 32
    """Connections one client may hold at once (pages, API calls and streams together)."""
    in_flight: int = 16
    """Requests of one client in progress at once (an event stream is one, for its life)."""
    rate: float = 25.0
    """Requests a second one client may make, on average."""
    burst: float = 50.0
    """Requests one client may make at once after a quiet spell (the bucket's depth)."""
    records: int = 4
    """Record requests (listing, a record, a record's page) of one client in
    progress or waiting at once; they are answered one at a time."""


@dataclass(frozen=True)
class WebLimits:
    """The web view's limits (impl/web/app.py, docs/web.md)."""

    max_connections: int | None = None
    """Web connections at once, pages, API calls and streams together; None:
    ``fdbudget.budget().web`` when the view starts."""
    idle_timeout: float = 15.0
    """Seconds a connection may go without a request in progress: one that sends
    nothing, or whose request's headers never end (slowloris), is then closed."""
    record_rate: float = 20.0
    """Record listings and pages answered per second at most, all clients
    together; the others wait their turn.  Serving a listing costs the loop
    (parsing the request, writing tens of KB): clients asking back to back
    would otherwise take a share of the loop the games need."""
    list_age: float = 5.0
    """Seconds a record listing is answered again without a scan (a scan of
    thousands of entries holds the interpreter lock the loop needs for tens of
    milliseconds; the list page asks every 5 s)."""
    clients: ClientLimits = field(default_factory=ClientLimits)
    """What one client (an address group, impl/web/admission.py) may take: its
    connections, requests in progress, request rate and record requests."""
    hub: HubLimits = field(default_factory=HubLimits)
    """The viewers and the games kept (impl/web/hub.py)."""


@dataclass(frozen=True)
class Config:
    """Everything one ``referee serve`` process (or one private server) is told;
    each server it runs is a (game, server number) pair of it."""

    games: tuple[str, ...] = tuple(VOCABULARIES)
    """The games served (``serve all``: both)."""
    servers: tuple[int, ...] = (0,)
    """Server numbers, each game's port base plus the number (the papers' section 2)."""
    forever: bool = False
    """Host game after game instead of one game."""
    engine: str | None = None
    """The rules engine's kind (impl/engines/port.py ``KINDS``); None: impl, falling back to spec."""
    on_divergence: OnDivergence = OnDivergence.CONTINUE
    time: tuple[float, float] | None = None
    """Seconds for the first and the second player, or no time controls."""
    increment: tuple[float, float] = (0.0, 0.0)
    """Seconds each player's clock gains with each of its moves (Fischer), first
    player's first; only with ``time``."""
    record_dir: Path | None = None
    """Write a record file per finished game here."""
    check_protocol: bool = False
    """Check every line the servers send against the protocol's model (spec/protocol.py),
    logging each game's first divergence (impl/server/transcript.py ``Monitor``)."""
    opening: str | None = None
    """``--opening``'s moves as given, checked against the game's engine by the serve command."""
    rules: str = PAPER_RULES
    """``--rules``: the Awari rule set's canonical name (impl/game.py); Gothello has
    only the paper's.  The engines are built under it (``rules_for``) and carry it."""
    host: str = "0.0.0.0"
    port: int | None = None
    """None: the game's port for the server number; 0: any free port."""
    config_messages: ConfigMessages | None = None
    """None: ``CONFIG_MESSAGES`` for the game."""
    limits: Limits = field(default_factory=Limits)
    net: NetLimits = field(default_factory=NetLimits)
    web: int | None = None
    """Also serve the live web view on this port (0: any free port)."""
    web_host: str | None = None
    """The web view's address; None: ``host``."""
    web_limits: WebLimits = field(default_factory=WebLimits)
    """The web view's limits: connections, clients, records, viewers."""
    loop: str = "auto"
    """The servers' event loop (impl/server/loops.py ``LOOPS``): auto is uvloop where installed."""
    log_level: str = "info"

    def messages_for(self, game: str) -> ConfigMessages:
        """Who gets 341–344 in ``game``."""
        return self.config_messages if self.config_messages is not None else CONFIG_MESSAGES[game]

    def rules_for(self, game: str) -> str:
        """The rule set ``game`` is played by: with ``serve all``, ``--rules`` is Awari's."""
        return self.rules if game == "awari" else PAPER_RULES

    @property
    def web_address(self) -> str:
        return self.web_host or self.host

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> Config:
        """``referee serve``'s parsed arguments (impl/apps/serve.py ``add_command``)."""
        return cls(
            games=tuple(VOCABULARIES) if args.game == "all" else (args.game,),
            servers=tuple(args.server),
            forever=args.forever,
            engine=args.engine,
            on_divergence=OnDivergence(args.on_divergence),
            time=times(args.time, "referee serve"),
            increment=increments(args.time),
            record_dir=args.record,
            check_protocol=args.check_protocol,
            opening=args.opening,
            rules=args.rules,
            host=args.host,
            port=args.port,
            config_messages=ConfigMessages(args.config_messages) if args.config_messages else None,
            limits=Limits(
                max_observers=args.max_observers,
                seat_timeout=args.seat_timeout,
                idle_timeout=args.idle_timeout,
                wait_timeout=args.wait_timeout,
            ),
            net=NetLimits(
                line_timeout=args.line_timeout,
                max_connections=args.max_connections,
                per_address=args.per_address,
                ipv4_group=args.ipv4_group,
            ),
            web=args.web,
            web_host=args.web_host,
            log_level="warning" if args.quiet else args.log_level,
            loop=args.loop,
        )

    @classmethod
    def local(cls, game: str, **fields: Any) -> Config:
        """One private server of ``game`` on 127.0.0.1 and a free port, with the fast
        engine; ``fields`` set any other setting (``time``, ``rules``, ``record_dir`` …)."""
        net = NetLimits(close_grace=LOCAL_CLOSE_GRACE, accept_rate=0.0)  # its clients are the caller's own
        base = cls(games=(game,), engine="impl", host=LOCAL_HOST, port=0, net=net)
        return replace(base, **fields)


DEFAULTS = Config()
"""The defaults ``referee serve``'s flags show and take."""


def time_control(text: str) -> TimeControl:
    """``--time``'s argparse type: ``SECS`` or ``SECS+INC`` (impl/protocol.py)."""
    try:
        return TimeControl.parse(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


TIME_HELP = "time controls: SECS or SECS+INC (Fischer increment), for both players or the first's then the second's"


def times(values: list[TimeControl] | None, what: str) -> tuple[float, float] | None:
    """``--time``'s seconds: one control for both players, or the first's and the second's."""
    if values is None:
        return None
    if len(values) > 2:
        raise UsageError(f"{what}: --time takes one or two time controls (SECS or SECS+INC)")
    return (values[0].seconds, values[-1].seconds)


def increments(values: list[TimeControl] | None) -> tuple[float, float]:
    """``--time``'s increments, first player's first ((0, 0) without clocks)."""
    return (values[0].increment, values[-1].increment) if values else (0.0, 0.0)
