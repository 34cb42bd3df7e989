"""The web view's live updates: server-sent events (text/event-stream), one-way by
construction — a viewer's stream is written by the hub (impl/web/hub.py, already
framed) and nothing the viewer sends is read.

    /events                 the list, at most every HubLimits.list_interval seconds
    /events/game/{id}       one game: a snapshot, then move / clock / over
    /events/server/{key}    every game of one server in turn (a snapshot at each start)

Each stream's socket has a fixed send buffer (``HubLimits.send_buffer``) and may
leave at most ``HubLimits.write_limit`` bytes unsent: a viewer that does not keep up
is dropped, never waited for."""

from __future__ import annotations

import socket
from contextlib import suppress

from aiohttp import web

from .answers import missing_api
from .gate import RETRY_AFTER
from .hub import Hub, game_id


class Streams:
    """The stream routes of one hub."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub

    def routes(self) -> list[web.RouteDef]:
        return [
            web.get("/events", self.events_list),
            web.get("/events/game/{id}", self.events_game),
            web.get("/events/server/{key}", self.events_server),
        ]

    async def events_list(self, request: web.Request) -> web.StreamResponse:
        return await self._stream(request, None, None)

    async def events_game(self, request: web.Request) -> web.StreamResponse:
        key, _, number = request.match_info["id"].rpartition("-")
        # ASCII digits only: "²".isdigit() holds, and int("²") raises (a 500 it was).
        if not (number.isascii() and number.isdigit()) or game_id(key, int(number)) not in self.hub.games:
            raise missing_api("no such game", id=request.match_info["id"])
        return await self._stream(request, key, int(number))

    async def events_server(self, request: web.Request) -> web.StreamResponse:
        key = request.match_info["key"]
        if key not in {s.key for s in self.hub.servers()}:
            raise missing_api("no such server", key=key)
        return await self._stream(request, key, None)

    async def _stream(self, request: web.Request, server: str | None, game_no: int | None) -> web.StreamResponse:
        """A viewer's stream: the headers, then whatever the hub writes (already
        framed as chunks, hub.sse) until the stream ends, the viewer goes away, or
        the hub drops it for not keeping up.  Nothing the viewer sends is read."""
        transport = request.transport
        if not self.hub.can_watch() or transport is None:
            raise web.HTTPServiceUnavailable(text="too many viewers; retry", headers={"Retry-After": RETRY_AFTER})
        sock = transport.get_extra_info("socket")
        if sock is not None:
            with suppress(OSError):
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, self.hub.limits.send_buffer)
        response = web.StreamResponse(
            headers={"Content-Type": "text/event-stream", "Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
        )
        await response.prepare(request)  # a StreamResponse sends its headers here
        if request.method == "HEAD":  # the headers only: the hub writes to the transport itself
            await response.write_eof()
            return response
        limit = self.hub.limits.write_limit

        def write(message: bytes) -> bool:
            if transport.is_closing():
                return False
            transport.write(message)
            return transport.get_write_buffer_size() <= limit

        viewer = self.hub.watch(write, server, game_no)
        if viewer is None:  # the game went between the check and now
            await response.write_eof()
            return response
        try:
            await viewer.done
        finally:
            self.hub.unwatch(viewer)
        if viewer.dropped or transport.is_closing():
            transport.abort()
        else:
            await response.write_eof()
        return response
