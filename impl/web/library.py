"""The record directory as the web view serves it: the record pages and JSON, in one
queue.

    /record/{name}          a finished game from the record directory, replayable
    /api/records            the record files, newest first
    /api/records/{name}     one record: its tags as written, the fields shown, moves and frames

Nothing a client asks for here runs on the view's loop: the files are read in one
records thread (``archive.Archive``: bounded reads, a cache keyed by each file's
state); concurrent listings share one scan, and a listing younger than
``WebLimits.list_age`` is answered again.  Record requests are answered at most
``WebLimits.record_rate`` a second, in the order they came, each client holding one
place in the queue at a time (admission.Admission.begin_record)."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import quote

from aiohttp import web

from .admission import Admission, group
from .answers import html, missing, missing_api, refusal
from .archive import Archive
from .gate import CLIENT, RETRY_AFTER
from .pages import PAGES
from .values import Valuer, splice

RECORD_WAIT = 10.0
"""Seconds a record request may wait for its turn (WebLimits.record_rate)."""
_RECORD_KEY = web.RequestKey("record_share", str)
"""Set on a request counted in its client's record share, to give it back when answered."""
_RECORD_LOCK = web.RequestKey("record_turn", asyncio.Lock)
"""Set on a request holding its client's turn in the record queue."""


class Library:
    """The record routes of one record directory (None: the view keeps no records)."""

    def __init__(
        self,
        record_dir: Path | None,
        admission: Admission,
        record_rate: float,
        list_age: float,
        tables: Path | None = None,
    ) -> None:
        self.archive = Archive(record_dir, tables=tables) if record_dir is not None else None
        self.valuer = Valuer(tables) if tables is not None else None
        """The records' values by the table, in a process of their own (values.py)."""
        self.admission = admission
        self.record_rate, self.list_age = record_rate, list_age
        self.thread = ThreadPoolExecutor(1, thread_name_prefix="web-records")
        self._listing: tuple[float, bytes] | None = None
        self._scan: asyncio.Future[bytes] | None = None
        self._next_record = float("-inf")
        """When the next record request may be answered (``record_rate``)."""
        self._locks: dict[str, asyncio.Lock] = {}
        """Address group → its turn in the record queue (one request of a client at a time)."""

    def routes(self) -> list[web.RouteDef]:
        return [
            web.get("/record/{name}", self.page_record),
            web.get("/api/records", self.api_records),
            web.get("/api/records/{name}", self.api_record),
        ]

    def close(self) -> None:
        self.thread.shutdown(wait=False, cancel_futures=True)
        if self.valuer is not None:
            self.valuer.close()

    async def redirect(self, request: web.Request, name: str | None) -> None:
        """303 to the page of the record file ``name`` (a finished game no longer
        kept), when the record directory has it; nothing otherwise."""
        archive = self.archive
        if name is not None and archive is not None:
            await self.turn(request)
            if await asyncio.get_running_loop().run_in_executor(self.thread, archive.exists, name):
                raise web.HTTPSeeOther(f"/record/{quote(name, safe='')}")

    async def page_record(self, request: web.Request) -> web.StreamResponse:
        """The record's page, if the record directory has the file (looked up in
        the records thread, a file system call may be slow; in turn with the other
        record requests)."""
        name, archive = request.match_info["name"], self.archive
        if archive is None:
            raise missing("no such record", "This referee keeps no records (referee serve --record DIR).")
        await self.turn(request)
        found = await asyncio.get_running_loop().run_in_executor(self.thread, archive.exists, name)
        if not found:
            raise missing("no such record", f"No record {name!r} in the record directory.")
        return html(PAGES["game.html"])

    def _archive(self) -> Archive:
        if self.archive is None:
            raise missing_api("no record directory (referee serve --record DIR)")
        return self.archive

    async def turn(self, request: web.Request) -> None:
        """Wait for this request's turn: record requests are answered at most
        ``record_rate`` a second, in the order they came; 503 when the turn is
        more than RECORD_WAIT seconds away (many clients asking at once).  A
        client takes one place in the queue at a time (its share, 429 beyond:
        admission.Admission.begin_record), held until the request is answered
        (``done``)."""
        loop = asyncio.get_running_loop()
        key = request.get(CLIENT) or group(request.remote)  # its client, as admitted (app.py)
        decision = self.admission.begin_record(key, loop.time())
        if not decision.admitted:
            raise refusal(decision, "too many record requests from your address", key)
        request[_RECORD_KEY] = key
        share = self._locks.setdefault(key, asyncio.Lock())
        await share.acquire()  # held until answered (done): the client's others wait here
        request[_RECORD_LOCK] = share
        now = loop.time()
        turn = max(now, self._next_record)
        if turn - now > RECORD_WAIT:
            raise web.HTTPServiceUnavailable(text="too many record requests", headers={"Retry-After": RETRY_AFTER})
        self._next_record = turn + 1.0 / self.record_rate
        if turn > now:
            await asyncio.sleep(turn - now)

    def done(self, request: web.Request) -> None:
        """An answered request's place in the queue given back, if it took one and has
        not given it back yet:
        the client's record share, and the next of its record requests let in."""
        if _RECORD_KEY not in request:
            return
        key = request.pop(_RECORD_KEY)  # once: api_record gives it back before its values
        self.admission.end_record(key)
        if _RECORD_LOCK in request:
            request.pop(_RECORD_LOCK).release()
        if key not in self.admission.clients or not self.admission.clients[key].records:
            self._locks.pop(key, None)

    async def api_records(self, request: web.Request) -> web.Response:
        """The record directory's listing (archive.Archive.listing), scanned in the
        records thread; requests while a scan runs wait for that one."""
        archive = self._archive()
        await self.turn(request)
        loop = asyncio.get_running_loop()
        if self._listing is not None and loop.time() - self._listing[0] < self.list_age:
            body = self._listing[1]
        else:
            if self._scan is None or self._scan.done():
                self._scan = scan = asyncio.ensure_future(loop.run_in_executor(self.thread, archive.listing))
                scan.add_done_callback(self._scanned)
            body = await asyncio.shield(self._scan)
        return web.Response(body=body, content_type="application/json")

    def _scanned(self, scan: asyncio.Future[bytes]) -> None:
        if not scan.cancelled() and scan.exception() is None:
            self._listing = (asyncio.get_running_loop().time(), scan.result())

    async def api_record(self, request: web.Request) -> web.Response:
        """One record (archive.Archive.page), read and replayed in the records thread;
        its table values (``--tb``) from the values process, or said to be on their way:
        the records thread never waits for them (values.py)."""
        archive, name = self._archive(), request.match_info["name"]
        await self.turn(request)
        page = await asyncio.get_running_loop().run_in_executor(self.thread, archive.page, name)
        body = page.body
        if page.job is not None and self.valuer is not None:
            self.done(request)  # the queue's place given back: the values do not hold the client's others
            body = splice(body, await self.valuer.values(page.job))
        return web.Response(body=body, status=page.status, content_type="application/json")
