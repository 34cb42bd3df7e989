"""The arena on PostgreSQL (``--db postgresql://…``): the same schema made by the same
migrations, the same games stored and rated as on SQLite, and a server that goes
away mid-round and comes back loses no game (the store is tried again)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from bench.postgres import NoPostgres, Postgres, postgres
from impl.apps.arena.server import Arena
from impl.apps.arena.store import Game, Login, Store
from tests.support.arenakit import in_arena, login, play


@pytest.fixture(scope="module")
def server() -> Iterator[Postgres]:
    try:
        with postgres() as running:
            yield running
    except NoPostgres as exc:
        pytest.skip(str(exc))


@pytest.fixture
def url(server: Postgres) -> Iterator[str]:
    """An empty database for each test (its tables dropped after)."""
    yield server.url
    store = Store.open(server.url)
    with store.engine.begin() as conn:
        for table in ("ratings", "faults", "games", "rounds", "players", "alembic_version"):
            conn.exec_driver_sql(f"DROP TABLE IF EXISTS {table} CASCADE")
    store.close()


def test_the_store_on_postgresql(url: str) -> None:
    store = Store.open(url)
    assert store.login("ann", "pw")[0] == Login.CREATED
    assert store.login("ann", "pw")[0] == Login.OK
    assert store.login("ann", "nope")[0] == Login.WRONG
    bob = store.login("bob", "pw")[1]
    round_id = store.begin_round(1.0, 1)
    game = Game("u-1", round_id, 1, bob.id, 0.5, "move", True, None, 20, "", 1.0, 2.0, "pgn")
    first = store.add_game(game, [(bob.id, True, None)])
    assert store.add_game(game) == first  # the same uid: stored once
    assert [g.uid for g in store.games()] == ["u-1"]
    assert store.player("bob") is not None and store.player("bob").validated  # type: ignore[union-attr]
    store.close()
    Store.open(url).close()  # migrations at head: opening again changes nothing


def test_an_arena_on_postgresql_and_the_server_going_away_mid_round(tmp_path: Path, server: Postgres, url: str) -> None:

    async def main(a: Arena) -> int:
        clients = [(await login(a.port, f"pg{n}:pw"))[0] for n in range(4)]
        assert await a.round() == 2
        stopped = threading.Event()

        async def take_it_away() -> None:
            await asyncio.to_thread(server.stop)
            stopped.set()
            await asyncio.sleep(1.0)
            await asyncio.to_thread(server.start)

        away = asyncio.ensure_future(take_it_away())
        await asyncio.to_thread(stopped.wait, 60)
        ends = await asyncio.gather(*(play(c, "gothello", n) for n, c in enumerate(clients)))
        assert all(e.startswith("32") for e in ends)
        await away
        await a.flush()
        return a.stored

    assert in_arena(tmp_path, main, db=url) == 2
    store = Store.open(url)
    assert len(store.games()) == 2
    store.close()
