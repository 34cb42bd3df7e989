"""The arena's database (issue #52): players, rounds, games and ratings, through
SQLAlchemy Core, so that one set of expressions runs on SQLite (embedded, the
default: WAL, one writer) and on PostgreSQL (``postgresql://…``, several arena
processes sharing it).  The schema is made and moved on by Alembic's versioned
migrations (``migrations/versions``), run at every open; no SQL is written by hand.

Every call is synchronous and short: the arena runs them in one thread of its own
(``Arena._db``), one after another, so the event loop never waits on the disk and
the database has one writer per process.  A finished game is one transaction
(``add_game``): its row and its faults, keyed by the arena's uuid for it, so a
game is never counted twice, and one whose transaction did not commit (kill -9)
was never counted.

Passwords are kept only as scrypt hashes (hashlib's, RFC 7914: n=2^14, r=8, p=1, a
16-byte random salt per player) and compared in constant time."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from impl.apps.arena.login import hash_password, password_matches

metadata = sa.MetaData()
"""The schema at the newest migration, as the queries below see it.  The migrations
(``migrations/versions``) repeat it on purpose: a migration is frozen history, this is
the head; tests/arena/test_store.py checks that the two agree."""

players = sa.Table(
    "players",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("name", sa.String(32), nullable=False, unique=True),
    sa.Column("kdf", sa.String(200), nullable=False),
    sa.Column("anchor", sa.String(64), nullable=True),
    sa.Column("pinned", sa.Float, nullable=True),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("validated", sa.Boolean, nullable=False),
    sa.Column("note", sa.Text, nullable=True),
)
"""``anchor``: the arena's own player's kind (``random``, ``search:0.1``), None for
a player who logs in; ``pinned``: an anchor's fixed rating; ``validated``: its
validation game passed; ``note``: why the validation game did not (shown on its page)."""

rounds = sa.Table(
    "rounds",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("started", sa.Float, nullable=False),
    sa.Column("games", sa.Integer, nullable=False),
)

games = sa.Table(
    "games",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("uid", sa.String(36), nullable=False, unique=True),
    sa.Column("round_id", sa.Integer, sa.ForeignKey("rounds.id"), nullable=False),
    sa.Column("first_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
    sa.Column("second_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
    sa.Column("score", sa.Float, nullable=True),
    sa.Column("termination", sa.String(20), nullable=False),
    sa.Column("rated", sa.Boolean, nullable=False),
    sa.Column("unrated", sa.Text, nullable=True),
    sa.Column("plies", sa.Integer, nullable=False),
    sa.Column("opening", sa.Text, nullable=False),
    sa.Column("started", sa.Float, nullable=False),
    sa.Column("ended", sa.Float, nullable=False),
    sa.Column("pgn", sa.Text, nullable=False),
)
"""``score``: the first player's (1, 0.5, 0), None for a game without a result;
``unrated``: why a game with a result is not rated; ``pgn``: its record (impl/pgn.py),
which the arena also writes as a file (``record_name``)."""

sa.Index("games_first", games.c.first_id)
sa.Index("games_second", games.c.second_id)

faults = sa.Table(
    "faults",
    metadata,
    sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id"), primary_key=True),
    sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), primary_key=True),
    sa.Column("kind", sa.String(20), primary_key=True),
    sa.Column("count", sa.Integer, nullable=False),
)
"""What a player did wrong in a game, by the referee's own words: the ending it lost
by (``time``, ``disconnect``, ``idle``) and its refused requests (``illegal move``:
291, ``garbled``: 299)."""

ratings = sa.Table(
    "ratings",
    metadata,
    sa.Column("round_id", sa.Integer, sa.ForeignKey("rounds.id"), primary_key=True),
    sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), primary_key=True),
    sa.Column("elo", sa.Float, nullable=False),
    sa.Column("margin", sa.Float, nullable=False),
    sa.Column("games", sa.Integer, nullable=False),
)
"""Each player's rating after each round (the history its page charts)."""


# ─── Rows ──────────────────────────────────────────────────────────────────────


@dataclass(frozen=True)
class Player:
    id: int
    name: str
    anchor: str | None
    pinned: float | None
    validated: bool
    note: str | None
    created: float


@dataclass(frozen=True)
class Game:
    """A finished game as stored (``games``), its players by id."""

    uid: str
    round_id: int
    first: int
    second: int
    score: float | None
    termination: str
    rated: bool
    unrated: str | None
    plies: int
    opening: str
    started: float
    ended: float
    pgn: str
    id: int = 0
    faults: tuple[tuple[int, str, int], ...] = ()
    """(player id, kind, count)."""


@dataclass(frozen=True)
class Rating:
    round_id: int
    player_id: int
    elo: float
    margin: float
    games: int


class Login:
    """``Store.login``'s answers."""

    CREATED = "created"
    OK = "ok"
    WRONG = "wrong password"
    TAKEN = "taken in other letters"
    """A new name that differs from a player's only in upper and lower case."""
    ANCHOR = "an anchor's name"


class StoreError(Exception):
    """The database cannot be opened or used: one line for the command line."""


# ─── The store ─────────────────────────────────────────────────────────────────


def url_of(text: str) -> str:
    """A ``--db`` value as SQLAlchemy's URL: a path is a SQLite file."""
    if "://" in text:
        return text
    return f"sqlite:///{Path(text).resolve()}"


class Store:
    """One database, opened and migrated (``open``)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    @classmethod
    def open(cls, url: str) -> Store:
        """Connect and run the migrations up to the newest (``StoreError`` with one
        line if that fails: a read-only, locked or corrupt file, no server)."""
        try:
            engine = sa.create_engine(url_of(url), future=True, pool_pre_ping=True)
        except (sa.exc.ArgumentError, ImportError) as exc:
            raise StoreError(f"cannot use database {url!r}: {exc}") from None
        if engine.dialect.name == "sqlite":
            sa.event.listen(engine, "connect", _sqlite_pragmas)
        store = cls(engine)
        try:
            store.migrate()
        except sa.exc.SQLAlchemyError as exc:
            engine.dispose()
            raise StoreError(f"cannot use database {url!r}: {_first_line(exc)}") from None
        return store

    def migrate(self) -> None:
        from alembic import command
        from alembic.config import Config

        config = Config()
        config.set_main_option("script_location", str(Path(__file__).with_name("migrations")))
        with self.engine.begin() as conn:
            config.attributes["connection"] = conn
            command.upgrade(config, "head")

    def close(self) -> None:
        self.engine.dispose()

    @contextmanager
    def _tx(self) -> Iterator[Connection]:
        try:
            with self.engine.begin() as conn:
                yield conn
        except sa.exc.OperationalError as exc:
            raise StoreError(_first_line(exc)) from None

    # Players.

    def login(self, name: str, password: str, now: float | None = None) -> tuple[str, Player]:
        """Log ``name`` in: created with ``password`` if new, else checked against
        its hash.  Anchors do not log in by password (the arena's own token)."""
        created = None
        if self.player(name) is None:
            with self._tx() as conn:
                same = conn.execute(sa.select(players).where(sa.func.lower(players.c.name) == name.lower())).first()
            if same is not None:  # Alice beside alice would pass for her on every page
                return Login.TAKEN, _player(same)
            created = hash_password(password)
            # A name created meanwhile by another arena process: its row wins, and is checked below.
            with contextlib.suppress(sa.exc.IntegrityError), self._tx() as conn:
                conn.execute(
                    players.insert().values(name=name, kdf=created, created=now or time.time(), validated=False)
                )
        row = self.player(name)
        assert row is not None
        if row.anchor is not None:
            return Login.ANCHOR, row
        kdf = self._kdf(row.id)
        if kdf == created:
            return Login.CREATED, row
        return (Login.OK if password_matches(password, kdf) else Login.WRONG), row

    def _kdf(self, player_id: int) -> str:
        with self._tx() as conn:
            return str(conn.execute(sa.select(players.c.kdf).where(players.c.id == player_id)).scalar_one())

    def ensure_anchor(self, name: str, kind: str, pinned: float | None) -> Player:
        """The arena's own player ``name`` of ``kind``, its rating pinned at ``pinned``."""
        with self._tx() as conn:
            found = conn.execute(sa.select(players.c.id).where(players.c.name == name)).first()
            values: dict[str, Any] = {"anchor": kind, "pinned": pinned, "validated": True}
            if found is None:
                conn.execute(players.insert().values(name=name, kdf="-", created=time.time(), **values))
            else:
                conn.execute(players.update().where(players.c.id == found.id).values(**values))
        row = self.player(name)
        assert row is not None
        return row

    def player(self, name: str) -> Player | None:
        with self._tx() as conn:
            row = conn.execute(sa.select(players).where(players.c.name == name)).first()
        return None if row is None else _player(row)

    def players(self) -> list[Player]:
        with self._tx() as conn:
            return [_player(row) for row in conn.execute(sa.select(players).order_by(players.c.id))]

    # Rounds and games.

    def begin_round(self, started: float, count: int) -> int:
        with self._tx() as conn:
            key = conn.execute(rounds.insert().values(started=started, games=count)).inserted_primary_key
            assert key is not None
            return int(key[0])

    def last_round(self) -> int:
        with self._tx() as conn:
            return int(conn.execute(sa.select(sa.func.coalesce(sa.func.max(rounds.c.id), 0))).scalar_one())

    def add_game(self, game: Game, validations: Sequence[tuple[int, bool, str | None]] = ()) -> int:
        """Store ``game``, its faults and its players' validations ``(player id,
        passed, note)`` in one transaction; its id.  A game whose uid is stored
        already (a retry after a failure that had in fact committed) is not stored again."""
        with self._tx() as conn:
            found = conn.execute(sa.select(games.c.id).where(games.c.uid == game.uid)).first()
            if found is not None:
                return int(found.id)
            values = {k: v for k, v in game.__dict__.items() if k not in ("id", "faults", "first", "second")}
            key = conn.execute(
                games.insert().values(first_id=game.first, second_id=game.second, **values)
            ).inserted_primary_key
            assert key is not None
            game_id = key[0]
            for player_id, kind, count in game.faults:
                conn.execute(faults.insert().values(game_id=game_id, player_id=player_id, kind=kind, count=count))
            for player_id, passed, note in validations:
                conn.execute(players.update().where(players.c.id == player_id).values(validated=passed, note=note))
        return int(game_id)

    def games(self, pgn: bool = True) -> list[Game]:
        """Every game in the order played, with its faults (``pgn``: with its record;
        without, ``Game.pgn`` is empty: the ratings and the pages need no record).
        The faults are read whole, not by a list of ids (SQLite bounds a query's
        parameters)."""
        columns = [c for c in games.c if pgn or c.name != "pgn"]
        with self._tx() as conn:
            rows = list(conn.execute(sa.select(*columns).order_by(games.c.id)))
            found: dict[int, list[tuple[int, str, int]]] = {}
            for f in conn.execute(sa.select(faults)):
                found.setdefault(f.game_id, []).append((int(f.player_id), str(f.kind), int(f[3])))
        return [_game(row, tuple(sorted(found.get(row.id, ())))) for row in rows]

    def game_ids(self) -> list[int]:
        """The stored games' ids, in order."""
        with self._tx() as conn:
            return [int(i) for i in conn.execute(sa.select(games.c.id).order_by(games.c.id)).scalars()]

    def record_of(self, game_id: int) -> str:
        """Stored game ``game_id``'s record (its PGN)."""
        with self._tx() as conn:
            return str(conn.execute(sa.select(games.c.pgn).where(games.c.id == game_id)).scalar_one())

    def fault_counts(self) -> dict[int, dict[str, int]]:
        """Each player's faults summed over its games, by kind."""
        query = sa.select(faults.c.player_id, faults.c.kind, sa.func.sum(faults.c.count)).group_by(
            faults.c.player_id, faults.c.kind
        )
        out: dict[int, dict[str, int]] = {}
        with self._tx() as conn:
            for player_id, kind, total in conn.execute(query):
                out.setdefault(player_id, {})[kind] = int(total)
        return out

    # Ratings.

    def save_ratings(self, round_id: int, rows: Sequence[Rating]) -> None:
        with self._tx() as conn:
            conn.execute(ratings.delete().where(ratings.c.round_id == round_id))
            if rows:
                conn.execute(ratings.insert(), [r.__dict__ for r in rows])

    def histories(self) -> dict[int, list[Rating]]:
        """Every player's ratings, round after round."""
        out: dict[int, list[Rating]] = {}
        with self._tx() as conn:
            for r in conn.execute(sa.select(ratings).order_by(ratings.c.round_id)):
                out.setdefault(r.player_id, []).append(Rating(r.round_id, r.player_id, r.elo, r.margin, r.games))
        return out


def record_name(game: str, game_id: int) -> str:
    """The record file of stored game ``game_id``: one name per game, so a record
    written again (after a restart) is the same file."""
    return f"{game}-arena-{game_id:06d}.pgn"


def _player(row: Any) -> Player:
    return Player(row.id, row.name, row.anchor, row.pinned, bool(row.validated), row.note, row.created)


def _game(row: Any, found: tuple[tuple[int, str, int], ...]) -> Game:
    return Game(
        row.uid, row.round_id, row.first_id, row.second_id, row.score, row.termination, bool(row.rated),
        row.unrated, row.plies, row.opening, row.started, row.ended, getattr(row, "pgn", ""), row.id, found,
    )  # fmt: skip


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cursor = dbapi_conn.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def _first_line(exc: BaseException) -> str:
    text = str(getattr(exc, "orig", None) or exc)
    return text.splitlines()[0] if text else type(exc).__name__
