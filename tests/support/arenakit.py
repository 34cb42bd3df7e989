"""An arena in this process for the arena's socket tests (tests/arena/), and clients
that log in and play clean games on it (legal moves only, chosen with the engine)."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any, TypeVar

from impl import protocol as P
from impl.apps.arena.config import ArenaConfig
from impl.apps.arena.server import Arena
from impl.apps.arena.store import Store
from impl.config import Config
from impl.engines.registry import get_engine
from impl.game import Side
from impl.server.session import Settings
from tests.support.netclient import Client, run

T = TypeVar("T")


@asynccontextmanager
async def arena(tmp: Path, game: str = "gothello", db: str | None = None, **options: Any) -> AsyncIterator[Arena]:
    """An arena on a free port, no anchors, rounds only when the test calls them."""
    fields: dict[str, Any] = {"round_every": 3600.0, "anchors": (), "port": 0, "host": "127.0.0.1"}
    fields.update(options)
    cfg = ArenaConfig(game=game, db=db or str(tmp / "arena.db"), record_dir=tmp / "records", **fields)
    config = replace(Config(), time=None if cfg.time is None else (cfg.time, cfg.time), limits=cfg.limits)
    store = Store.open(cfg.db)
    running = Arena(cfg, get_engine(game), store, Settings.of(config, game))
    await running.start()
    try:
        yield running
    finally:
        await running.stop()
        store.close()


def in_arena(tmp: Path, scenario: Callable[[Arena], Awaitable[T]], **options: Any) -> T:
    """``scenario`` against a fresh ``arena(tmp, **options)`` in its own event loop,
    bounded in time (netclient.run): an arena test's one way in.  Its answer."""

    async def main() -> T:
        async with arena(tmp, **options) as a:
            return await scenario(a)

    return run(main)


def quoted(field: str) -> str:
    return '"' + field.replace('"', '""') + '"'


async def login(port: int, field: str | None, side: str = "?") -> tuple[Client, str]:
    """Connect, send a seat request with ``field`` as its name (none if None), and
    return the client and the answer."""
    client = await Client.greeted(port)
    name = "" if field is None else " " + quoted(field)
    await client.send(f"0.9.1 player {side}{name}")
    return client, await client.line()


async def answers(port: int, fields: list[str]) -> list[str]:
    """Log in with each field in turn, closing each connection at once: the answers,
    in order (a flood of logins, for the arena's limits)."""
    got = []
    for field in fields:
        client, answer = await login(port, field)
        got.append(answer)
        await client.close()
    return got


async def play(client: Client, game: str, seed: int = 0, garble: bool = False) -> str:
    """Play a seated client's game to its end with random legal moves; the line
    that ended it (32x, 36x, 39x).  ``garble``: one line not understood first."""
    engine, rng = get_engine(game), random.Random(seed)
    role = await client.line()
    while not role.startswith("35"):  # 34x configuration lines first, if any
        role = await client.line()
    me = Side.SECOND if role.startswith(str(P.ROLE[1])) else Side.FIRST
    state, plies = engine.initial(), 0
    greeting = next(line for line in client.seen if line.startswith("000"))
    opening = int(greeting.split("Opening: ")[1].split()[0]) if "Opening: " in greeting else 0
    while True:
        if plies >= opening and int(engine.to_move(state)) == int(me) and not engine.is_over(state):
            if garble:
                await client.send("what is this")
                assert (await client.line()).startswith("299")
                garble = False
            move = engine.format_move(rng.choice(engine.legal_moves(state)))
            serial = plies // 2 + 1
            await client.send(f"{serial} ... {move}" if me is Side.SECOND else f"{serial} {move}")
            reply = await client.line()
            assert reply[:3] in ("200", "201", "202", "203", "207"), reply
        status = await client.line()
        code = int(status[:3])
        if code >= 320:
            return status
        words = status.split()
        token = words[3] if words[2] == "..." else words[2]
        _, state = engine.apply(state, engine.parse_move(token))
        plies += 1


async def game_between(port: int, a: str, b: str, game: str = "gothello") -> tuple[Client, Client]:
    """Two clients logged in as ``a`` and ``b``; both must be seated (100)."""
    ca, answer_a = await login(port, a)
    cb, answer_b = await login(port, b)
    assert answer_a.startswith("10") and answer_b.startswith("10"), (answer_a, answer_b)
    return ca, cb


async def both(
    port: int, arena_: Arena, a: str, b: str, game: str = "gothello", garble: tuple[bool, bool] = (False, False)
) -> list[str]:
    """``a`` and ``b`` log in, a round pairs them, they play (``garble``: which of
    them sends a line not understood first); their last lines."""
    ca, cb = await game_between(port, a, b, game)
    assert await arena_.round() == 1
    ends = await asyncio.gather(play(ca, game, 1, garble[0]), play(cb, game, 2, garble[1]))
    await arena_.flush()
    for c in (ca, cb):
        await c.close()
    return list(ends)
