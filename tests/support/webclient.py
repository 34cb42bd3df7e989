"""Helpers for the web view's tests (tests/web/): game servers with the web
view beside them in one event loop, a server-sent-events reader, and the board
expected from the engine's state, read straight from the spec's state (not
through impl/web/views.py, which is what is being checked)."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Generic, TypeVar

import aiohttp

from impl import protocol as P
from impl.config import CONFIG_MESSAGES, HubLimits, Limits, NetLimits, WebLimits
from impl.engines.registry import get_engine
from impl.server.server import GameServer, ServerConfig
from impl.server.session import Settings
from impl.web.app import WebView
from spec import awari as A
from spec import gothello as G

from .netclient import Client, ply

TIMEOUT = 10.0
E = TypeVar("E")


class Sink(Generic[E]):
    """A feed's publisher that keeps what it is handed, in order (``events``)."""

    def __init__(self) -> None:
        self.events: list[E] = []

    def publish(self, event: E) -> None:
        self.events.append(event)


@asynccontextmanager
async def watched(
    games: Sequence[str],
    kind: str = "impl",
    *,
    record_dir: Path | None = None,
    limits: HubLimits | None = None,
    forever: bool = False,
    time: tuple[float, float] | None = None,
    web_limits: WebLimits | None = None,
    rules: str = "paper",
) -> AsyncIterator[tuple[WebView, dict[str, GameServer]]]:
    """One server per game (number 0, an ephemeral port of 127.0.0.1) and the web
    view of them, as ``referee serve … --web 0`` would run them (``rules``: Awari's
    rule set); stopped on exit."""
    both = web_limits or WebLimits()
    web = WebView("127.0.0.1", 0, record_dir, both if limits is None else replace(both, hub=limits))
    servers = {}
    for game in games:
        ruleset = rules if game == "awari" else "paper"
        settings = Settings(P.VOCABULARIES[game], 0, time, CONFIG_MESSAGES[game], Limits())
        net = NetLimits(close_grace=1.0)
        spec = ServerConfig(settings, "127.0.0.1", 0, forever, net, record_dir, session_hooks=(web.session_hook,))
        servers[game] = GameServer(spec, get_engine(game, kind, ruleset))
    web.attach(list(servers.values()))
    for server in servers.values():
        await server.start()
    await web.start()
    try:
        yield web, servers
    finally:
        for server in servers.values():
            await server.stop()
        await web.stop()


class EventStream:
    """A text/event-stream response read event by event."""

    def __init__(self, response: aiohttp.ClientResponse) -> None:
        self.response = response

    async def next(self, timeout: float = TIMEOUT) -> tuple[str, Any]:
        """The next event's name and JSON data (comments skipped); EOFError at the end."""
        name, data = "message", list[str]()
        while True:
            raw = await asyncio.wait_for(self.response.content.readline(), timeout)
            if not raw:
                raise EOFError("stream ended")
            line = raw.decode().rstrip("\r\n")
            if not line:
                if data:
                    return name, json.loads("\n".join(data))
                continue
            if line.startswith(":"):
                continue
            key, _, value = line.partition(":")
            value = value.removeprefix(" ")
            if key == "event":
                name = value
            elif key == "data":
                data.append(value)

    async def expect(self, name: str, timeout: float = TIMEOUT) -> Any:
        got, data = await self.next(timeout)
        assert got == name, f"expected {name}, got {got}: {data}"
        return data


@asynccontextmanager
async def stream(session: aiohttp.ClientSession, url: str) -> AsyncIterator[EventStream]:
    async with session.get(url, timeout=aiohttp.ClientTimeout(total=None, sock_read=None)) as response:
        assert response.status == 200, response.status
        assert response.headers["Content-Type"].startswith("text/event-stream")
        yield EventStream(response)


def expected_board(game: str, state: Any, engine: Any) -> tuple[dict[str, Any], dict[str, int]]:
    """Cells and counts of ``state`` as the page must show them, read from the
    spec's state: Awari pits by letter and stores by side; Gothello squares by name
    (``black``, ``white`` or ``""``) and stones by side."""
    spec_state = engine.to_spec(state)
    if game == "awari":
        assert isinstance(spec_state, A.AwariGame)
        cells: dict[str, Any] = {p.name: spec_state.board[p] for p in A.PIT}
        counts = {p.name: spec_state.score[p] for p in A.PLAYER}
        return cells, counts
    assert isinstance(spec_state, G.GothelloGame)
    cells = {}
    for (file, rank), value in spec_state.board:
        cells[f"{'abcde'[file - 1]}{rank}"] = value.player.name if isinstance(value, G.stone) else ""
    counts = {p.name: sum(1 for c in cells.values() if c == p.name) for p in G.PLAYER}
    return cells, counts


@dataclass
class Referee:
    """The game as the test plays it: the engine's state after every accepted move."""

    game: str
    engine: Any
    rng: random.Random
    state: Any = None
    tokens: list[str] = field(default_factory=list)
    result: Any = None

    def __post_init__(self) -> None:
        self.state = self.engine.initial()

    def choose(self) -> str:
        moves = self.engine.legal_moves(self.state)
        return str(self.engine.format_move(self.rng.choice(moves)))

    def apply(self, token: str) -> None:
        self.result, self.state = self.engine.apply(self.state, self.engine.parse_move(token))
        self.tokens.append(token)

    @property
    def over(self) -> bool:
        return bool(self.engine.is_over(self.state))


async def play_one(players: tuple[Client, Client], referee: Referee) -> tuple[str, str]:
    """Play the referee's next move (a random legal one) through the server."""
    index = len(referee.tokens)
    token = referee.choose()
    reply, status = await ply(players, index % 2, index // 2 + 1, token)
    assert status, reply
    referee.apply(token)
    return reply, status
