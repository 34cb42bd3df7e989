"""An arena's limits and its hostile inputs (docs/arena.md, "Limits"), over real
sockets: a daily cap per name, garbage and huge lines before a login, a flood of new
names from one address, the arena over TLS on its second port, random openings
played once each way by a pair, and a database another process holds locked."""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import sqlite3
import ssl
from dataclasses import replace
from pathlib import Path

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from impl.apps.arena.command import ARENA_NET
from impl.apps.arena.server import Arena
from impl.apps.arena.store import Store, StoreError
from tests.support.arenakit import answers, arena, both, in_arena, login, play
from tests.support.netclient import Client, run


def test_the_daily_cap(tmp_path: Path) -> None:
    async def main(a: Arena) -> None:
        await both(a.port, a, "once:pw", "other:pw")
        client, answer = await login(a.port, "once:pw")
        assert answer == "199 once has played its 1 games of the day"
        await client.close()

    in_arena(tmp_path, main, daily=1)


def test_garbage_and_huge_lines_before_a_login(tmp_path: Path) -> None:
    async def main(a: Arena) -> None:
        client = await Client.greeted(a.port)
        await client.send_raw(b"\x00\xff\xfe garbage\r")
        assert (await client.line()).startswith("199 Request not understood (non-ASCII")
        await client.send_raw(b'0.9.1 player ? "' + b"n" * 10_000 + b':pw"\r')
        assert (await client.line()).startswith("199 Request not understood (line too long)")
        assert await client.ask('0.9.1 player ? "late:pw"') == "100 Request accepted"
        await client.close()

    in_arena(tmp_path, main)


def test_a_flood_of_new_names_from_one_address_is_slowed(tmp_path: Path) -> None:
    async def main(a: Arena) -> None:
        got = await answers(a.port, [f"sock{n}:pw" for n in range(8)])
        assert got[:5] == ["100 Request accepted"] * 5
        assert all(x.startswith("199 Too many new names from your address") for x in got[5:]), got

    in_arena(tmp_path, main, new_names=5)
    store = Store.open(str(tmp_path / "arena.db"))
    assert len(store.players()) == 5
    store.close()


def _certificate(tmp_path: Path) -> tuple[Path, Path]:
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
        .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=1)).sign(key, hashes.SHA256())
    )  # fmt: skip
    cert_path, key_path = tmp_path / "cert.pem", tmp_path / "key.pem"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(
        key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    )
    return cert_path, key_path


def test_the_arena_over_tls(tmp_path: Path) -> None:
    cert, key = _certificate(tmp_path)
    server = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    server.load_cert_chain(cert, key)
    client_tls = ssl.create_default_context(cafile=str(cert))

    async def main(a: Arena) -> None:
        assert a.tls_port is not None
        reader, writer = await asyncio.open_connection(
            "127.0.0.1", a.tls_port, ssl=client_tls, server_hostname="localhost"
        )
        secure = Client(reader, writer)
        assert (await secure.line()).startswith("000 0.9.1 version Gothello server says hello!")
        assert await secure.ask('0.9.1 player ? "tls:pw"') == "100 Request accepted"
        plain, _ = await login(a.port, "plain:pw")
        assert await a.round() == 1
        ends = await asyncio.gather(play(secure, "gothello", 1), play(plain, "gothello", 2))
        assert all(e.startswith("32") for e in ends)

    in_arena(tmp_path, main, tls=server, tls_port=0)


def test_a_pair_plays_an_opening_both_ways(tmp_path: Path) -> None:
    async def main() -> list[tuple[str, str, str]]:
        seen = []
        async with arena(tmp_path, opening_plies=4) as a:
            for _ in range(2):
                x, y = (await login(a.port, "x:pw"))[0], (await login(a.port, "y:pw"))[0]
                a.last.clear()
                assert await a.round() == 1
                await asyncio.gather(play(x, "gothello", 1), play(y, "gothello", 2))
                await a.flush()
            for g in Store.games(a.store):
                seen.append((str(g.first), str(g.second), g.opening))
        return seen

    (f1, s1, o1), (f2, s2, o2) = run(main)
    assert len(o1.split()) == 4 and o1 == o2 and (f1, s1) == (s2, f2)


def test_a_database_another_process_holds_locked(tmp_path: Path) -> None:
    path = tmp_path / "locked.db"
    Store.open(str(path)).close()
    with contextlib.closing(sqlite3.connect(path, timeout=0)) as holder:
        holder.execute("PRAGMA journal_mode=DELETE")
        holder.execute("BEGIN EXCLUSIVE")
        with pytest.raises(StoreError, match="locked"):
            store = Store.open(str(path))
            store.login("someone", "pw")
        holder.rollback()


async def _from(port: int, host: str) -> Client:
    """A connection from the loopback address ``host`` (an address group of its own), greeted."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(host, 0))
    client = Client(reader, writer)
    assert (await client.line()).startswith("000 ")
    return client


def test_a_full_arena_makes_room_as_the_game_servers_do(tmp_path: Path) -> None:
    """The arena admits by impl/server/admission.py's rules: full of one group's
    connections, it closes that group's oldest unseated one (199) for another
    group's newcomer; a player waiting for a game is never the one closed, and a
    group that holds its share is refused."""
    net = replace(ARENA_NET, max_connections=4, per_address=3, reserve=0, accept_rate=0.0)

    async def main(a: Arena) -> None:
        seated = await _from(a.port, "127.0.0.2")
        assert await seated.ask('0.9.1 player ? "waits:pw"') == "100 Request accepted"
        idle = [await _from(a.port, "127.0.0.2") for _ in range(2)]
        other = await _from(a.port, "127.0.0.3")
        newcomer = await _from(a.port, "127.0.0.4")  # the arena was full: room made
        assert (await idle[0].line()).startswith("199 Server full: closed to make room")
        with pytest.raises(EOFError):
            await idle[0].line()
        assert await newcomer.ask('0.9.1 player ? "new:pw"') == "100 Request accepted"
        # 127.0.0.2 now holds 2 of 4 with the arena full again: its next try is
        # refused (one more place would only swap the two groups' places).
        reader, writer = await asyncio.open_connection("127.0.0.1", a.port, local_addr=("127.0.0.2", 0))
        refused = await reader.readline()
        assert refused.startswith(b"199 Arena full"), refused
        writer.close()
        for client in (seated, idle[1], other, newcomer):
            await client.close()

    in_arena(tmp_path, main, net=net)
