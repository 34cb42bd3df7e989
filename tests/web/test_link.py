"""The web process's feed (impl/web/link.py) and the hub's resync (impl/web/hub.py
``Hub.resync``), without processes: messages are framed and read back whole, a
``GameOver`` is sent without its record's moves, and a resync restores the games
finished and in progress, forgets what the referee no longer has, and sends every
viewer a snapshot (a viewer of a forgotten game, its stream's end)."""

from __future__ import annotations

import asyncio
import socket
from dataclasses import replace

from impl.web import feed
from impl.web.feed import FeedEvent
from impl.web.hub import Hub
from impl.web.link import frame, read_message, slim
from impl.web.tap import GameTap
from tests.web.test_tap_events import _events


def feed_events() -> list[FeedEvent]:
    """A short game's feed (tests/web/test_tap_events.py): started, two moves, a
    draw refused, over; server ``awari-3``, game 7."""
    tap = GameTap()
    return [e for e in (tap.feed(what) for what in _events()) if e is not None]


def test_messages_are_read_back_whole() -> None:
    ours, theirs = socket.socketpair()
    with ours, theirs:
        move = feed_events()[1]
        assert isinstance(move, feed.MoveMade)
        ours.sendall(frame(feed.Published(move)) + frame(feed.Listening(8080)))
        made = read_message(theirs)
        assert isinstance(made, feed.Published) and isinstance(made.event, feed.MoveMade)
        assert made.event.move == move.move and made.event.after == move.after
        assert read_message(theirs) == feed.Listening(8080)


def test_a_game_over_goes_without_its_moves() -> None:
    over = feed_events()[-1]
    assert isinstance(over, feed.GameOver) and over.record.plies
    sent = slim(over)
    assert isinstance(sent, feed.GameOver) and sent.record.plies == () and sent.result == over.result
    assert slim(feed_events()[1]) is not None


def test_a_resync_restores_finished_and_live_games() -> None:
    events = feed_events()
    later = [replace(e, game_no=8) for e in events[:3]]

    async def main() -> None:
        hub = Hub()
        hub.publish(events[0])  # the hub saw game 7 start, then lost the rest
        follower: list[bytes] = []

        def follow(data: bytes) -> bool:
            follower.append(data)
            return True

        hub.watch(follow, "awari-3")
        watching = hub.watch(lambda data: True, "awari-3", 7)
        assert watching is not None and not watching.done.done()
        hub.resync([events, later])
        assert hub.games["awari-3-7"].over is not None and list(hub.finished) == ["awari-3-7"]
        assert hub.live == {"awari-3": "awari-3-8"} and len(hub.games["awari-3-8"].moves) == 2
        await asyncio.sleep(hub.limits.interval * 3)
        assert b"event: snapshot" in b"".join(follower[1:])  # after the first, on watching
        assert watching.done.done()  # its game is over: its snapshot was its stream's end

    asyncio.run(main())


def test_a_resync_forgets_a_game_the_referee_no_longer_has() -> None:
    events = feed_events()

    async def main() -> None:
        hub = Hub()
        for event in events[:2]:
            hub.publish(event)
        watching = hub.watch(lambda data: True, "awari-3", 7)
        assert watching is not None
        hub.resync([])
        assert hub.live == {} and hub.games == {}
        await asyncio.sleep(hub.limits.interval * 3)
        assert watching.done.done()

    asyncio.run(main())
