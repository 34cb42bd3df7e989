"""Logging in to an arena (docs/arena.md, "Logging in"), over real sockets: a name
and a password in the seat request's name field, created at first login and
checked after; a name held by its owner; a wrong password refused (199) and
failures rate-limited; guests, observers and bad fields answered with one line."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from impl.apps.arena.server import Arena
from impl.apps.arena.store import Store
from tests.support.arenakit import answers, arena, both, in_arena, login
from tests.support.netclient import run


def test_first_login_creates_the_name_and_the_next_checks_it(tmp_path: Path) -> None:
    async def main(a: Arena) -> None:
        first, answer = await login(a.port, "alice:s3cret")
        assert answer == "100 Request accepted"
        again, answer = await login(a.port, "alice:s3cret")  # held by the first connection
        assert answer.startswith("199 alice already holds 1 connection"), answer
        await first.close()
        await again.close()
        await a.flush()
        wrong, answer = await login(a.port, "alice:guess")
        assert answer == "199 Wrong password for alice"
        answer = await wrong.ask('0.9.1 player ? "alice:s3cret"')  # the same connection may try again
        assert answer == "100 Request accepted"
        await wrong.close()
        await a.flush()
        # Found by trying: Alice beside alice would pass for her on every page and record.
        other, answer = await login(a.port, "Alice:mine")
        assert answer == "199 Name Alice is taken: alice"
        await other.close()

    in_arena(tmp_path, main)
    store = Store.open(str(tmp_path / "arena.db"))
    [alice] = store.players()
    assert alice.name == "alice" and "s3cret" not in store._kdf(alice.id)
    store.close()


def test_failed_logins_are_rate_limited_per_name_and_address(tmp_path: Path) -> None:
    async def main(a: Arena) -> None:
        c, answer = await login(a.port, "bob:right")
        await c.close()
        got = await answers(a.port, [f"bob:wrong{n}" for n in range(7)])
        assert got[:5] == ["199 Wrong password for bob"] * 5
        assert all(x.startswith("199 Too many failed logins for bob") for x in got[5:]), got
        c, answer = await login(a.port, "bob:right")  # the right one too, until the window passes
        assert answer.startswith("199 Too many failed logins"), answer
        await c.close()

    in_arena(tmp_path, main)


@pytest.mark.parametrize(
    ("request_line", "answer"),
    [
        ('0.9.1 observer "carol:pw"', "199 No observers on an arena's port"),
        ('0.9.1 player ? "-carol:pw"', "199 Bad name"),
        ('0.9.1 player ? "anchor-random:pw"', "199 Names beginning anchor- are the arena's own players"),
        # Found by trying: a player named guest-alice would read as the guest alice in every record.
        ('0.9.1 player ? "guest-alice:pw"', "199 Names guest and guest-... are how guests are shown"),
        ('0.9.1 player ? "Guest:pw"', "199 Names guest and guest-... are how guests are shown"),
        ('0.9.1 player ? "carol:"', "199 Bad password"),
        ('0.9.1 player ? "' + "c" * 101 + '"', '199 Request not understood (name must be "..." of at most 100'),
        ('0.9.1 player ? "carol:' + "p" * 65 + '"', "199 Bad password"),
        ("0.9.1 player ? carol:pw", "199 Request not understood"),
        ('1.0 player ? "carol:pw"', "198 Illegal version number"),
        ("hello", "199 Request not understood"),
    ],
)
def test_a_bad_seat_request_gets_one_clear_line(tmp_path: Path, request_line: str, answer: str) -> None:
    async def main(a: Arena) -> None:
        c, _ = await login(a.port, "dave:pw")  # the arena works on
        client = await type(c).greeted(a.port)
        assert (await client.ask(request_line)).startswith(answer)
        await client.close()
        await c.close()

    in_arena(tmp_path, main)


def test_a_password_with_a_control_character_never_reaches_the_login(tmp_path: Path) -> None:
    async def main(a: Arena) -> None:
        client = await type((await login(a.port, "erin:pw"))[0]).greeted(a.port)
        await client.send_raw(b'0.9.1 player ? "erin:p\x01w"\r')
        assert (await client.line()).startswith("199 Request not understood (non-ASCII or control character)")
        await client.close()

    in_arena(tmp_path, main)


def test_no_guests_when_the_arena_takes_none(tmp_path: Path) -> None:
    async def main(a: Arena) -> None:
        for field in (None, "carol"):
            client, answer = await login(a.port, field)
            assert answer.startswith('199 Login needed: send "name:password"'), answer
            await client.close()

    in_arena(tmp_path, main, guests=False)


def test_a_password_is_never_logged_recorded_or_stored(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    secret = "Zq9-very-secret"

    async def main() -> None:
        async with arena(tmp_path) as a:
            await both(a.port, a, f"frank:{secret}", f"grace:{secret}x")
            c, _ = await login(a.port, "frank:wrong")
            await c.close()

    with caplog.at_level(logging.DEBUG, logger="referee"):
        run(main)
    assert secret not in caplog.text
    files = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert any(p.suffix == ".pgn" for p in files)
    for path in files:
        assert secret.encode() not in path.read_bytes(), path
