"""An arena's rounds, games and ratings (docs/arena.md, "Rounds", "Ratings"), over
real sockets: players paired by a round, sides as asked, each game stored once with
its faults, a validation game before a newcomer is rated, guests unrated, the
ratings the maximum-likelihood fit of the stored games, and the records' results
the stored ones."""

from __future__ import annotations

import asyncio
from pathlib import Path

from impl.apps.arena.server import Arena
from impl.apps.arena.standings import fit
from impl.apps.arena.store import Store
from impl.apps.ratings import bradley_terry
from impl.pgn import parse
from tests.support.arenakit import both, in_arena, login, play


def stored(tmp_path: Path) -> Store:
    return Store.open(str(tmp_path / "arena.db"))


def test_a_round_pairs_the_waiting_players_and_stores_each_game_once(tmp_path: Path) -> None:
    async def main(a: Arena) -> None:
        clients = [(await login(a.port, f"p{n}:pw{n}"))[0] for n in range(4)]
        assert await a.round() == 2
        ends = await asyncio.gather(*(play(c, "gothello", n) for n, c in enumerate(clients)))
        assert all(e[:2] in ("32",) for e in ends), ends
        await a.flush()
        assert a.stored == 2
        assert await a.round() == 0  # nobody waits: one connection, one game
        for c in clients:
            assert await c.eof()

    in_arena(tmp_path, main)
    store = stored(tmp_path)
    games = store.games()
    assert len(games) == 2 and all(g.rated and g.score is not None for g in games)
    assert all(p.validated for p in store.players())
    assert sorted(p.name for p in store.players()) == ["p0", "p1", "p2", "p3"]
    records = sorted((tmp_path / "records").iterdir())
    assert [r.name for r in records] == ["gothello-arena-000001.pgn", "gothello-arena-000002.pgn"]
    store.close()


def test_sides_asked_for_are_given_and_either_is_balanced(tmp_path: Path) -> None:
    async def main(a: Arena) -> None:
        white, _ = await login(a.port, "w:pw", "white")
        black, _ = await login(a.port, "b:pw", "black")
        black2, answer = await login(a.port, "b2:pw", "black")
        assert answer == "100 Request accepted"
        assert await a.round() == 1  # two black requests cannot meet: one waits
        [waiter] = a.waiting.values()
        if waiter.name == "b":  # the other black request was paired: it plays, as "b"
            black, black2 = black2, black
        ends = await asyncio.gather(play(white, "gothello", 1), play(black, "gothello", 2))
        assert all(e.startswith("32") for e in ends)
        assert white.seen[1] == black.seen[1] == "100 Request accepted"
        assert "351 You will play white" in white.seen and "352 You will play black" in black.seen
        # Either side: the one who has played black less often gets it.
        await black2.close()
        await a.flush()
        while len(a.waiting):  # until the arena has seen black2 leave
            await asyncio.sleep(0.01)
        was_white, _ = await login(a.port, "w:pw")
        was_black, _ = await login(a.port, "b2:pw" if waiter.name == "b" else "b:pw")
        a.last.clear()  # they may meet again at once here: the test is about sides
        assert await a.round() == 1
        assert await was_white.line() == "352 You will play black"
        assert await was_black.line() == "351 You will play white"
        await was_white.close()
        await was_black.close()

    in_arena(tmp_path, main)


def test_never_the_same_pair_twice_running(tmp_path: Path) -> None:
    async def main(a: Arena) -> None:
        await both(a.port, a, "x:pw", "y:pw")
        held = [await login(a.port, name) for name in ("x:pw", "y:pw")]
        assert [answer for _, answer in held] == ["100 Request accepted"] * 2
        assert await a.round() == 0  # only each other: they wait for someone else
        z, answer = await login(a.port, "z:pw")
        assert answer == "100 Request accepted"
        assert await a.round() == 1
        for client in (z, *(c for c, _ in held)):
            await client.close()

    in_arena(tmp_path, main)


def test_a_validation_game_with_a_fault_is_unrated_and_says_why(tmp_path: Path) -> None:
    async def main(a: Arena) -> None:
        ends = await both(a.port, a, "clean:pw", "sloppy:pw", garble=(False, True))
        assert all(e.startswith("32") for e in ends)

    in_arena(tmp_path, main)
    store = stored(tmp_path)
    [game] = store.games()
    players = {p.name: p for p in store.players()}
    assert not game.rated and game.unrated == "sloppy's validation game: 1 garbled"
    assert players["clean"].validated and not players["sloppy"].validated
    assert players["sloppy"].note == "validation game: 1 garbled"
    assert (players["sloppy"].id, "garbled", 1) in game.faults
    store.close()


def test_a_guest_plays_but_is_neither_stored_nor_rated(tmp_path: Path) -> None:
    async def main(a: Arena) -> None:
        guest, answer = await login(a.port, "first-player")  # a name, no password: a guest
        assert answer == "100 Request accepted"
        member, _ = await login(a.port, "member:pw")
        assert await a.round() == 1
        ends = await asyncio.gather(play(guest, "gothello", 1), play(member, "gothello", 2))
        assert all(e.startswith("32") for e in ends)
        await a.flush()

    in_arena(tmp_path, main)
    store = stored(tmp_path)
    assert store.games() == []
    [record] = (tmp_path / "records").iterdir()
    assert '"guest-first-player"' in record.read_text()
    store.close()


def test_a_player_who_leaves_mid_game_loses_with_a_disconnect_fault(tmp_path: Path) -> None:
    async def main(a: Arena) -> None:
        quitter, _ = await login(a.port, "quitter:pw", "black")
        stayer, _ = await login(a.port, "stayer:pw", "white")
        assert await a.round() == 1
        assert await quitter.line() == "352 You will play black"
        await quitter.close()
        line = await stayer.line()
        while not line.startswith("39"):
            line = await stayer.line()
        assert line.startswith("391") or line.startswith("392")
        await a.flush()

    in_arena(tmp_path, main)
    store = stored(tmp_path)
    [game] = store.games()
    quitter = next(p for p in store.players() if p.name == "quitter")
    assert game.score == 0.0 and game.termination == "disconnect"
    assert (quitter.id, "disconnect", 1) in game.faults
    assert not quitter.validated
    store.close()


def test_the_ratings_are_the_fit_of_the_recorded_games(tmp_path: Path) -> None:
    async def main(a: Arena) -> dict[int, tuple[float, float, int]]:
        names = [f"r{n}:pw" for n in range(4)]
        for _ in range(3):
            clients = [(await login(a.port, n))[0] for n in names]
            assert await a.round() == 2
            await asyncio.gather(*(play(c, "gothello", k) for k, c in enumerate(clients)))
            await a.flush()
        return dict(a.ledger.ratings)

    ratings = in_arena(tmp_path, main)
    # The records, read as a rating tool reads them, fitted offline.
    texts = [p.read_text() for p in sorted((tmp_path / "records").iterdir())]
    players: list[str] = []
    games = []
    for text in texts:
        record = parse(text)
        white, black, result = record.tag("White"), record.tag("Black"), record.tag("Result")
        for name in (black, white):
            if name not in players:
                players.append(name)
        score = {"1-0": 0.0, "0-1": 1.0, "1/2-1/2": 0.5}[result]  # PGN's: White (second) first
        games.append((players.index(black), players.index(white), score))
    offline = bradley_terry(len(players), games)
    store = stored(tmp_path)
    by_name = {p.name: p.id for p in store.players()}
    assert len(store.games()) == 6
    for name in players:
        elo, margin, count = ratings[by_name[name]]
        k = players.index(name)
        assert abs(elo - offline.elo[k]) < 1e-6 and abs(margin - offline.margin[k]) < 1e-6
        assert count == 3
    assert fit(store.players(), store.games(), 0.0) == ratings
    store.close()
