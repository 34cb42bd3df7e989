"""A small line client and in-process servers for the socket tests of the referee
(tests/server/).  Not a client library: it checks the wire as it reads
(every response line ends with CRLF) and stops on any timeout."""

from __future__ import annotations

import asyncio
import importlib.util
import inspect
import random
import socket
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import pytest

from bench.server import candidates
from impl import protocol as P
from impl.config import CONFIG_MESSAGES, ConfigMessages, Limits, NetLimits
from impl.engines.port import KINDS
from impl.engines.registry import get_engine
from impl.game import Side
from impl.server.server import GameServer, ServerConfig
from impl.server.session import Settings
from impl.server.transcript import Transcript, check_lines, collecting, record

T = TypeVar("T")
TRANSCRIBED: dict[int, list[Transcript]] = {}
"""Each transcribed server's transcripts (by ``id`` of the server), checked as it stops."""
TRANSCRIBE = [True]
"""Whether ``serving`` transcribes its games and checks them against the protocol's
model (spec/protocol.py) when it stops: on for every socket test but those that switch
it off (tests/server/conftest.py)."""
TIMEOUT = 10.0
"""Seconds any single read may take before a test fails."""


def available_kinds() -> list[str]:
    """The engine kinds that import: spec always, impl once it exists."""
    return [k for k in KINDS if k == "spec" or importlib.util.find_spec("impl.engines.awari") is not None]


_kind = "spec"


def kind_params() -> list[Any]:
    """The engine kinds as test parameters.  make verify runs the socket suite on the
    fast engine; the runs on the spec and on ``checked`` (both on every move) are
    ``deep`` (make verify-deep) — the server is the same code whatever engine is behind
    the port, the engines are proven equal, and tests/engines/test_checked.py plays
    the spec behind a socket in make verify."""
    return [k if k == "impl" else pytest.param(k, marks=pytest.mark.deep) for k in available_kinds()]


@pytest.fixture(params=kind_params(), autouse=True)
def engine_kind(request: pytest.FixtureRequest) -> Iterator[str]:
    """Bound in a test module (``engine_kind = netclient.engine_kind``), it runs
    each of its tests with every engine kind: servers made without an explicit
    kind use this one."""
    global _kind
    previous, _kind = _kind, request.param
    yield request.param
    _kind = previous


def current_kind() -> str:
    """The engine kind of the running test."""
    return _kind


def fastest_kind() -> str:
    """For work on the client side (choosing moves): impl when it exists.  (Not the
    last of ``available_kinds``: that is ``checked``, which runs the spec beside impl
    on every call and made the clients' own move choice most of a test's time.)"""
    kinds = available_kinds()
    return "impl" if "impl" in kinds else kinds[0]


def run(coro: Callable[[], Awaitable[T]], timeout: float = 600.0) -> T:
    """Run a test scenario in a fresh event loop.  ``timeout`` only ends a hung
    scenario: it is no claim on speed, and is generous because a loaded machine
    (CI beside other work, the spec engine under contracts) is slow, not hung."""

    async def bounded() -> T:
        return await asyncio.wait_for(coro(), timeout)

    return asyncio.run(bounded())


class Client:
    """One connection: send request lines, read response lines."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer
        self.seen: list[str] = []

    @classmethod
    async def connect(cls, port: int, rcvbuf: int | None = None) -> Client:
        if rcvbuf is None:
            reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=1 << 20)
            return cls(reader, writer)
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        sock.setblocking(False)
        await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", port))
        reader, writer = await asyncio.open_connection(sock=sock)
        return cls(reader, writer)

    @classmethod
    async def greeted(cls, port: int) -> Client:
        """A new connection whose greeting (000, Table 1) has been read."""
        client = await cls.connect(port)
        await client.expect(0)
        return client

    async def send(self, line: str, end: str = "\r") -> None:
        self.writer.write((line + end).encode("latin-1"))
        await self.writer.drain()

    async def send_raw(self, data: bytes) -> None:
        self.writer.write(data)
        await self.writer.drain()

    async def line(self, timeout: float = TIMEOUT) -> str:
        """The next response line, without its CRLF; EOFError at end of stream."""
        raw = await asyncio.wait_for(self.reader.readline(), timeout)
        if not raw:
            raise EOFError("connection closed")
        assert raw.endswith(b"\r\n"), f"response not CRLF-terminated: {raw!r}"
        text = raw[:-2].decode("ascii")
        self.seen.append(text)
        return text

    async def ask(self, request: str) -> str:
        """Send ``request``; its reply, the next response line."""
        await self.send(request)
        return await self.line()

    async def expect(self, *codes: int, timeout: float = TIMEOUT) -> str:
        """The next line, which must carry one of ``codes``."""
        text = await self.line(timeout)
        assert text[:3].isdigit() and int(text[:3]) in codes, f"expected {codes}, got {text!r}"
        return text

    async def rest(self, timeout: float = TIMEOUT) -> list[str]:
        """Every line until the server closes the connection."""
        lines = []
        while True:
            try:
                lines.append(await self.line(timeout))
            except EOFError:
                return lines

    async def eof(self, timeout: float = TIMEOUT) -> bool:
        """The server closed the connection with nothing more to read."""
        return not await asyncio.wait_for(self.reader.read(1), timeout)

    async def quiet(self, seconds: float = 0.2) -> bool:
        """Nothing arrives for ``seconds``."""
        try:
            data = await asyncio.wait_for(self.reader.read(1), seconds)
        except TimeoutError:
            return True
        raise AssertionError(f"unexpected data {data!r}")

    async def close(self) -> None:
        self.writer.close()
        with suppress(ConnectionError, OSError):
            await self.writer.wait_closed()


async def seat(port: int, request: str, *codes: int) -> tuple[Client, str]:
    """Connect, check the greeting, send a seat request, expect one of ``codes``."""
    client = await Client.connect(port)
    await client.expect(0)
    await client.send(request)
    reply = await client.expect(*(codes or (100, 101)))
    return client, reply


async def role(client: Client) -> str:
    """The 35x line, past any configuration messages (34x) before it."""
    while True:
        text = await client.line()
        if text.startswith("35"):
            return text
        assert text.startswith("34"), text


def make_server(
    game: str,
    kind: str | None = None,
    *,
    engine: Any = None,
    time: tuple[float, float] | None = None,
    config: ConfigMessages | None = None,
    limits: Limits | None = None,
    net: NetLimits | None = None,
    forever: bool = False,
    record_dir: Path | None = None,
    increment: tuple[float, float] = (0.0, 0.0),
) -> GameServer:
    config = config if config is not None else CONFIG_MESSAGES[game]
    settings = Settings(P.VOCABULARIES[game], 0, time, config, limits or Limits(), increment=increment)
    net = net or NetLimits(close_grace=1.0)
    transcribe, kept = collecting(record)
    hooks = (transcribe,) if TRANSCRIBE[0] else ()
    spec = ServerConfig(
        settings, host="127.0.0.1", port=0, forever=forever, net=net, record_dir=record_dir, session_hooks=hooks
    )
    server = GameServer(spec, engine if engine is not None else get_engine(game, kind or _kind))
    if TRANSCRIBE[0]:
        TRANSCRIBED[id(server)] = kept
    return server


def check_transcripts(server: GameServer) -> None:
    """Every game ``server`` hosted, replayed against the protocol's model."""
    for transcript in TRANSCRIBED.pop(id(server), []):
        verdict = check_lines(transcript.lines)
        assert verdict.ok, verdict.message + "\n" + "\n".join(transcript.lines[-40:])


@asynccontextmanager
async def serving(game: str, kind: str | None = None, **options: Any) -> AsyncIterator[GameServer]:
    """A server on an ephemeral port of 127.0.0.1, stopped on exit."""
    server = make_server(game, kind, **options)
    await server.start()
    try:
        yield server
    finally:
        await server.stop()
    check_transcripts(server)


def on_server(
    game: str, kind: str | None = None, **options: Any
) -> Callable[[Callable[..., Awaitable[None]]], Callable[..., None]]:
    """A socket test written as ``async def test_x(server, <params>)``: each run gets
    a fresh ``serving(game, kind, **options)`` in its own event loop, bounded in time
    (``run``).  Pytest sees the test's own parameters only."""

    def decorate(scenario: Callable[..., Awaitable[None]]) -> Callable[..., None]:
        def test(*args: Any, **kwargs: Any) -> None:
            async def main() -> None:
                async with serving(game, kind, **options) as server:
                    await scenario(server, *args, **kwargs)

            run(main)

        signature = inspect.signature(scenario)
        test.__signature__ = signature.replace(parameters=list(signature.parameters.values())[1:])  # type: ignore[attr-defined]
        test.__name__, test.__qualname__, test.__doc__ = scenario.__name__, scenario.__qualname__, scenario.__doc__
        test.__module__ = scenario.__module__
        return test

    return decorate


async def seat_players(port: int, game: str, names: tuple[str, str] = ("", "")) -> tuple[Client, Client]:
    """Seat the first then the second player (named if given) and read up to their roles."""
    vocab = P.VOCABULARIES[game]
    clients = []
    for side in (0, 1):
        name = f" {P.quote_name(names[side])}" if names[side] else ""
        client, _ = await seat(port, f"0.9.1 player {vocab.sides[side]}{name}")
        clients.append(client)
    for side, client in enumerate(clients):
        assert (await role(client)).startswith(str(P.ROLE[side]))
    return clients[0], clients[1]


# ─── random games ───────────────────────────────────────────────────────────────


@dataclass
class Game:
    """What a played game looked like from the players' side."""

    plies: list[str] = field(default_factory=list)
    """The accepted requests, as sent (``1 c3``, ``1 ... d4``)."""
    final: dict[int, str] = field(default_factory=dict)
    """Side → the 20x the final mover got (only the mover's entry is set)."""
    status: str = ""
    """The 32x line both players got."""
    rejected: int = 0


async def read_display(observer: Client) -> list[str]:
    """The 380/381 line, the 382 line and the board lines it announces."""
    display = [await observer.expect(380, 381), await observer.expect(382)]
    return display + [await observer.line() for _ in range(int(display[1].split()[1]))]


async def watch(observer: Client) -> list[str]:
    """An observer's start of game: any 34x, then 353 and the display."""
    assert await role(observer) == "353 You will observe"
    return await read_display(observer)


async def ply(
    players: tuple[Client, Client], side: int, serial: int, token: str, observers: tuple[Client, ...] = ()
) -> tuple[str, str]:
    """Send one move; return the mover's reply and, unless it is a 29x, the status
    line, which every player and observer must have got alike."""
    request = f"{serial} ... {token}" if side else f"{serial} {token}"
    await players[side].send(request)
    reply = await players[side].expect(200, 207, 201, 202, 203, 291, 299)
    if reply[0] == "2" and reply[1] == "9":
        return reply, ""
    status = await players[side].line()
    assert await players[1 - side].line() == status
    for obs in observers:
        assert await obs.line() == status
        await read_display(obs)
    return reply, status


async def play_moves(
    players: tuple[Client, Client], tokens: list[str], observers: tuple[Client, ...] = ()
) -> list[tuple[str, str]]:
    """Play ``tokens`` in turn from the start, all of which must be accepted."""
    out = []
    for i, token in enumerate(tokens):
        reply, status = await ply(players, i % 2, i // 2 + 1, token, observers)
        assert status, reply
        out.append((reply, status))
    return out


async def play_random(
    game: str,
    players: tuple[Client, Client],
    rng: random.Random,
    observers: tuple[Client, ...] = (),
    played: tuple[str, ...] = (),
) -> Game:
    """Play to the end by trial, after the moves ``played``: every accepted ply is
    followed, for the mover, by 20x then the status line, which the opponent and
    the observers get too."""
    record = Game()
    occupied = {token for token in played if token != "pass"}
    side, serial = len(played) % 2, len(played) // 2 + 1
    while True:
        for token in candidates(game, side, occupied, rng):
            reply, status = await ply(players, side, serial, token, observers)
            if status:
                break
            record.rejected += 1
        else:
            raise AssertionError(f"no move accepted for side {side}")
        record.plies.append(f"{serial} ... {token}" if side else f"{serial} {token}")
        if token != "pass":
            occupied.add(token)
        if reply[:3] in ("201", "202", "203"):
            record.final[side] = reply
            record.status = status
            return record
        assert int(status[:3]) == P.moves_code(Side(side), token == "pass", reply.startswith("207")), status
        assert status.split()[1] == str(serial)
        side = 1 - side
        if side == 0:
            serial += 1
