"""What the arena keeps of its games (docs/arena.md, "Games are never lost nor
counted twice"): each finished game stored with its faults and its players'
validations before the players get their last lines, its record file written, and
the ratings fitted again over every stored game, with the web view's pages.  The
database is the arena's one thread (``Db``); a heavy fit runs in a process of its own."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import multiprocessing
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any, Protocol, TypeVar

from impl import protocol as P
from impl.atomic import remove_stale, write_atomic
from impl.game import Side
from impl.log import event
from impl.pgn import write as write_pgn
from impl.server.server import write_record
from impl.server.session import GameOver, Written

from .config import ArenaConfig, WebFeed
from .standings import fit, snapshot
from .store import Game, Player, Rating, Store, record_name
from .table import Table, faults_of, score_of

T = TypeVar("T")

REFIT_EVERY = 1.0
"""Seconds between two fits of the ratings at least (they follow the games stored),
or four times the last fit's, if more."""
GAMES_IN_THREAD = 2000
"""Games up to which the same holds (openskill rates them one after another)."""
FIT_IN_THREAD = 40
"""Players up to which the ratings are fitted in the database's thread (tens of
milliseconds); beyond, in a process of their own (the fit's matrix inverse grows
as the cube of the players: half a second for 100)."""
STORE_TRIES = 5
STORE_WAIT = 2.0


def first_line(exc: BaseException) -> str:
    """An error as one log field: its message's first line (or its repr)."""
    text = str(exc)
    return text.splitlines()[0] if text else repr(exc)


def _write_new(path: Path, text: str) -> None:
    with contextlib.suppress(FileExistsError):  # written before the restart: the same game
        write_atomic(path, text, overwrite=False)


class Db(Protocol):
    """The arena's database thread: ``fn(*args)`` there, one call after another."""

    def __call__(self, fn: Callable[..., T], *args: Any) -> Awaitable[T]: ...


class Ledger:
    """The arena's stored games, record files and ratings (``finished``, ``flush``)."""

    def __init__(
        self, cfg: ArenaConfig, store: Store, vocab: P.Vocabulary, db: Db, web: WebFeed | None, lines: list[str]
    ) -> None:
        self.cfg, self.store, self.vocab, self.db, self.web = cfg, store, vocab, db, web
        self.lines = lines
        """The arena's settings, as its web pages say them."""
        self.round_id = 0
        """The round under way: the ratings fitted are kept as its."""
        self.ratings: dict[int, tuple[float, float, int]] = {}
        self.stored = 0
        """Games stored by this process (tests and the benchmark read it)."""
        self._writes: list[asyncio.Future[Any]] = []
        self._stale = False
        self._refitting: asyncio.Future[None] | None = None
        self._fitter: concurrent.futures.ProcessPoolExecutor | None = None
        self._fit_seconds = 0.0

    def finished(self, table: Table, over: GameOver) -> None:
        """A game is over: store it (``_store``), then let its players know."""
        self._writes.append(asyncio.ensure_future(self._store(table, over)))

    async def flush(self) -> None:
        """Until every finished game is stored and the ratings fitted over it."""
        while self._writes or (self._refitting is not None and not self._refitting.done()):
            pending, self._writes = self._writes, []
            if self._refitting is not None:
                pending.append(self._refitting)
            await asyncio.gather(*pending, return_exceptions=True)

    async def _store(self, table: Table, over: GameOver) -> None:
        """Store the game (with its faults and its players' validations) and only
        then release its last lines to the players; then its record file and the
        ratings.  A guest's game is recorded, never stored."""
        first, second = table.first, table.second
        assert first.relay is not None and second.relay is not None
        relays = (first.relay, second.relay)
        try:
            record = over.record.with_tags(Event=f"{self.vocab.title} arena", Round=str(table.round_id), Rated="no")
            over = replace(over, source=Written(record))
            if first.player is None or second.player is None:
                table.release()
                await self._write_record(None, over, "")
                return
            game, validations = self._row(table, over, first.player, second.player, faults_of(over, relays))
            over = replace(over, source=Written(over.record.with_tags(Rated="yes" if game.rated else "no")))
            game = replace(game, pgn=write_pgn(over.record))  # the record once, as stored and as written
            game_id = await self._keep(game, validations)
            table.release()
            await self._write_record(game_id, over, game.pgn)
            self.stored += 1
            self._refit_soon()
        except Exception as exc:  # a bug here must not keep the players waiting or end the arena
            self._log(logging.ERROR, "arena_store_failed", uid=table.uid, error=repr(exc))
            table.release()

    def _row(
        self, table: Table, over: GameOver, first: Player, second: Player, found: tuple[tuple[Side, str, int], ...]
    ) -> tuple[Game, list[tuple[int, bool, str | None]]]:
        """The game's row (its record, ``pgn``, left to the caller, which tags it as
        rated or not) and its validations: a player not yet validated passes by a
        game with a result in which it sent no line the protocol refuses (299) and did
        not lose by time, disconnection or idleness; until then its games are unrated."""
        score = score_of(over)
        unrated = None if score is not None else f"no result ({over.termination})"
        validations: list[tuple[int, bool, str | None]] = []
        for player, side in ((first, Side.FIRST), (second, Side.SECOND)):
            if player.validated or player.anchor is not None:
                continue
            # A 291 is the rules refusing a move, which the protocol lets a player try again
            # (a player may find its move by trial): counted, but no fault of the protocol.
            own = [f"{count} {kind}" for s, kind, count in found if s == side and kind != "illegal move"]
            passed = score is not None and not own
            note = None if passed else f"validation game: {', '.join(own) or f'no result ({over.termination})'}"
            validations.append((player.id, passed, note))
            if not passed:
                unrated = unrated or f"{player.name}'s {note}"
        ids = {Side.FIRST: first.id, Side.SECOND: second.id}
        game = Game(
            table.uid, table.round_id, first.id, second.id, score, str(over.termination), unrated is None,
            unrated, len(over.record.moves), " ".join(table.opening), table.started, over.ended,
            "", faults=tuple((ids[s], kind, n) for s, kind, n in found),
        )  # fmt: skip
        return game, validations

    async def _keep(self, game: Game, validations: list[tuple[int, bool, str | None]]) -> int | None:
        """``add_game``, tried again while the database fails (``STORE_TRIES``
        times, ``STORE_WAIT`` seconds apart); None if it never took it."""
        for attempt in range(1, STORE_TRIES + 1):
            try:
                return await self.db(self.store.add_game, game, validations)
            except Exception as exc:
                self._log(logging.ERROR, "arena_store_retry", uid=game.uid, attempt=attempt, error=first_line(exc))
                if attempt < STORE_TRIES:
                    await asyncio.sleep(STORE_WAIT)
        return None

    async def _write_record(self, game_id: int | None, over: GameOver, text: str) -> None:
        """The record file: ``text`` named by the stored game's id, or (a guest's game,
        a game the database did not take) ``over``'s record as ``referee serve`` names
        its records."""
        directory = self.cfg.record_dir
        if directory is None:
            return
        try:
            if game_id is None:
                await asyncio.to_thread(write_record, directory, over.record, over.ended)
            else:
                path = directory / record_name(self.cfg.game, game_id)
                await asyncio.to_thread(_write_new, path, text)
        except OSError as exc:
            self._log(logging.ERROR, "record_failed", error=str(exc))

    async def export_records(self, ids: Sequence[int]) -> int:
        """Write the record file of every stored game of ``ids`` that has none (the
        arena was stopped between storing a game and writing its file); how many.
        Only the missing records are read from the database."""
        directory = self.cfg.record_dir
        if directory is None:
            return 0
        await asyncio.to_thread(directory.mkdir, parents=True, exist_ok=True)
        await asyncio.to_thread(remove_stale, directory, f"{self.cfg.game}-arena-*.pgn")  # one arena per database
        have = set(await asyncio.to_thread(lambda: {p.name for p in directory.iterdir()}))
        missing = [i for i in ids if record_name(self.cfg.game, i) not in have]
        for game_id in missing:
            text = await self.db(self.store.record_of, game_id)
            await asyncio.to_thread(_write_new, directory / record_name(self.cfg.game, game_id), text)
        return len(missing)

    def _refit_soon(self) -> None:
        """``_refit`` after a stored game: one at a time, at most one every
        ``REFIT_EVERY`` seconds, the games stored meanwhile taken by the next."""
        self._stale = True
        if self._refitting is None or self._refitting.done():
            self._refitting = asyncio.ensure_future(self._refits())

    async def _refits(self) -> None:
        while True:
            self._stale = False
            started = time.monotonic()
            try:
                await self.refit()
            except Exception as exc:  # the database failed: the next stored game tries again
                self._log(logging.ERROR, "arena_refit_failed", error=first_line(exc))
            if not self._stale:
                return
            every = max(REFIT_EVERY, 4 * self._fit_seconds)  # a slow fit is made less often
            await asyncio.sleep(max(0.0, every - (time.monotonic() - started)))

    async def refit(self) -> None:
        """The ratings fitted again over every stored game, kept as this round's, and
        the web view's pages made again: in the database's thread, or, for many
        players or games, in a process of their own (a pure-Python fit of 100 players
        takes half a second, which must not hold the games' loop under the GIL)."""
        players = await self.db(self.store.players)
        games = await self.db(partial(self.store.games, pgn=False))
        heavy = len(players) > FIT_IN_THREAD or len(games) > GAMES_IN_THREAD
        started = time.monotonic()
        self.ratings = await self._work(heavy, fit, players, games, self.cfg.anchor_rating)
        self._fit_seconds = time.monotonic() - started
        if self.round_id:
            rows = [Rating(self.round_id, pid, elo, margin, n) for pid, (elo, margin, n) in self.ratings.items()]
            await self.db(self.store.save_ratings, self.round_id, rows)
        if self.web is not None:
            faults = await self.db(self.store.fault_counts)
            history = await self.db(self.store.histories)
            title, lines = f"{self.vocab.title} arena", self.lines
            records = self.cfg.game if self.cfg.record_dir is not None else None
            data = await self._work(
                heavy, snapshot, title, players, games, self.ratings, faults, history, records, lines
            )
            self.web.standings({**data, "delay": self.cfg.delay})

    async def _work(self, heavy: bool, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in the database's thread, or (``heavy``) in the arena's worker process."""
        if not heavy:
            return await self.db(fn, *args)
        if self._fitter is None:
            self._fitter = concurrent.futures.ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))
        return await asyncio.get_running_loop().run_in_executor(self._fitter, partial(fn, *args))

    def close(self) -> None:
        """The fitting process stopped (after ``flush``)."""
        if self._fitter is not None:
            self._fitter.shutdown(wait=True, cancel_futures=True)

    def _log(self, level: int, what: str, **fields: Any) -> None:
        event(level, what, game=self.cfg.game, **fields)
