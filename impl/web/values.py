"""A record's moves valued by the endgame table, away from the record queue (issue #53,
item 4).

Valuing a record (tablebase/review.py) asks, for each ply inside the table, whether an
earlier position can come again: a search of up to half a million boards a ply, in
Python.  A 153-ply game against a table of 12 stones took 69 s on an idle machine
and 9.5 minutes on a loaded one; done in the records thread, as it was, it held every
other viewer's record behind it, and held the interpreter lock the view's loop needs.

So the values are computed in a process of their own (one, at the web process's
niceness, which it inherits), one record at a time, each once: a record's page waits
for them ``VALUES_WAIT`` seconds at most and is answered without them otherwise,
saying they are on their way (``table.pending``; the page asks again); the records
thread, and every other record, goes on meanwhile.  At most ``MAX_PENDING`` records
wait for the process; a page asked beyond says it is busy rather than queueing
without end.  The answers are kept, by the file's state, for ``MAX_KEPT`` records.
"""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import os
from collections import OrderedDict
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from impl.engines.tablebase.probe import Table
from impl.engines.tablebase.review import MoveReport, review, table_for
from impl.engines.tablebase.store import TableError
from impl.server.procs import die_with_parent

VALUES_WAIT = 2.0
"""Seconds a record's page waits for its values before it is answered without them."""
MAX_PENDING = 8
"""Records whose values may wait for the values process at once."""
MAX_KEPT = 256
"""Records whose values are kept (a few KiB each)."""
PENDING = "the table's values are being computed; they are shown when ready"
BUSY = "the table's values wait for other records; reload in a while"


@dataclass(frozen=True)
class ValuesJob:
    """What a record's values are computed from: its rules and moves, and the state of
    its file (``key``: a changed file is another job)."""

    key: object
    rules: str
    moves: tuple[str, ...]


_TABLES: dict[tuple[Path, str], Table] = {}
"""The tables the values process has opened, by folder and rule set (mapped once)."""


def table_values(tables: Path, rules: str, moves: Sequence[str]) -> dict[str, Any]:
    """The record's moves against the table of its rules (``values``: each ply's,
    tablebase/review.py; ``blunders``: the plies that gave stones away), or why there
    are none (``table.error``).  Runs in the values process."""
    try:
        if (tables, rules) not in _TABLES:
            _TABLES[tables, rules] = table_for(tables, rules)
        table = _TABLES[tables, rules]
    except TableError as exc:
        return {"table": {"error": str(exc)}}
    values = review(table, moves)
    return {
        "table": {"rules": table.name, "stones": table.stones},
        "values": [v.json() for v in values],
        "blunders": [v.ply for v in values if isinstance(v, MoveReport) and v.loss > 0],
    }


def _worker_start(parent: int) -> None:
    """The values process ends with the web process, however that one ends."""
    die_with_parent(parent, 0)


def values_process() -> Executor:
    """One process (spawned: the web process has threads) computing ``table_values``."""
    return ProcessPoolExecutor(
        1, mp_context=multiprocessing.get_context("spawn"), initializer=_worker_start, initargs=(os.getpid(),)
    )


class Valuer:
    """The values of the records of one table folder, each computed once in ``start()``'s
    executor (``values_process`` by default) and kept; asked for from the view's loop."""

    def __init__(
        self,
        tables: Path,
        start: Callable[[], Executor] = values_process,
        wait: float = VALUES_WAIT,
        compute: Callable[[Path, str, Sequence[str]], dict[str, Any]] = table_values,
    ) -> None:
        self.tables, self.wait = tables, wait
        self._start, self._compute = start, compute
        self._executor: Executor | None = None
        self._kept: OrderedDict[object, bytes] = OrderedDict()
        self._running: dict[object, asyncio.Future[dict[str, Any]]] = {}

    async def values(self, job: ValuesJob) -> bytes:
        """The record's ``table``, ``values`` and ``blunders`` as JSON members (an
        object's body, without its braces): at once if known, within ``wait`` seconds
        if they can be computed by then, else ``table.pending`` (or ``table.busy``)."""
        kept = self._kept.get(job.key)
        if kept is not None:
            self._kept.move_to_end(job.key)
            return kept
        running = self._running.get(job.key)
        if running is None:
            if len(self._running) >= MAX_PENDING:
                return _members({"table": {"busy": BUSY}})
            running = self._submit(job)
        try:
            found = await asyncio.wait_for(asyncio.shield(running), self.wait)
        except TimeoutError:
            return _members({"table": {"pending": PENDING}})
        return _members(found)

    def _submit(self, job: ValuesJob) -> asyncio.Future[dict[str, Any]]:
        if self._executor is None:
            self._executor = self._start()
        loop = asyncio.get_running_loop()
        running: asyncio.Future[dict[str, Any]]
        running = loop.run_in_executor(self._executor, self._compute, self.tables, job.rules, job.moves)
        self._running[job.key] = running
        running.add_done_callback(lambda done: self._finished(job.key, done))
        return running

    def _finished(self, key: object, done: asyncio.Future[dict[str, Any]]) -> None:
        """A computation over: its answer kept (a failure is said, not retried: the
        file has to change first); the oldest answers dropped past ``MAX_KEPT``."""
        self._running.pop(key, None)
        if done.cancelled():
            return
        error = done.exception()
        found = {"table": {"error": f"the values could not be computed: {error}"}} if error else done.result()
        self._kept[key] = _members(found)
        while len(self._kept) > MAX_KEPT:
            self._kept.popitem(last=False)

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)


def _members(data: dict[str, Any]) -> bytes:
    """A JSON object's members without its braces, to join to a page's (``splice``)."""
    return json.dumps(data, separators=(",", ":")).encode()[1:-1]


def splice(page: bytes, members: bytes) -> bytes:
    """A page's JSON object (``{…}``) with more members at its end."""
    return page[:-1] + b"," + members + b"}" if members else page
