"""The sans-IO follower (impl/client/follower.py) fed transcripts of real games:
the lines the server's session sent to each connection, with the requests that
connection made between them, and one transcript recorded over a socket from a
server in a thread.  Its views are checked against the session's own state."""

from __future__ import annotations

import random
import socket
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field

import pytest

from impl import protocol as P
from impl.client import Client, NotPlaying, ProtocolError
from impl.client.follower import Follower, Next, Phase, View
from impl.config import Config, Limits
from impl.engines.port import side_to_move
from impl.engines.registry import get_engine
from impl.game import Outcome, Side, Termination
from impl.server.local import LocalServer
from impl.server.session import Entity, Session, Settings

Entry = tuple[str, object]
"""A transcript entry: ("got", line), ("seat", SeatRequest) or ("act", Action)."""


@dataclass
class Peer:
    address: str = "test"
    log: list[Entry] = field(default_factory=list)
    closed: bool = False

    def send(self, lines: Sequence[str]) -> None:
        self.log += [("got", line) for line in lines]

    def close(self) -> None:
        self.closed = True


class Game:
    """A session with transcribing peers; requests are logged before they are sent."""

    def __init__(self, game: str, time: tuple[float, float] | None = None) -> None:
        vocab = P.VOCABULARIES[game]
        self.vocab = vocab
        self.session = Session(
            Settings(vocab, time=time, limits=Limits(idle_timeout=0)), get_engine(game), rng=random.Random(0), now=0.0
        )
        self.now = 0.0

    def join(self) -> tuple[Entity, Peer]:
        peer = Peer()
        return self.session.join(peer, self.now), peer

    def seat(self, ent: Entity, request: P.SeatRequest) -> None:
        assert isinstance(ent.peer, Peer)
        ent.peer.log.append(("seat", request))
        self.session.receive(ent, request.to_line(self.vocab), self.now)

    def act(self, ent: Entity, action: P.Action) -> None:
        assert isinstance(ent.peer, Peer)
        ent.peer.log.append(("act", action))
        self.session.receive(ent, action.to_line(self.vocab), self.now)

    def move(self, ent: Entity, token: str) -> None:
        assert ent.side is not None
        self.act(ent, P.Action.move(len(self.session.made) // 2 + 1, ent.side, token))


def replay(game: str, log: list[Entry], times: Sequence[float] = ()) -> list[View]:
    """Feed a transcript to a follower: the view after each line received."""
    follower, views = Follower(game), []
    for i, (what, item) in enumerate(log):
        if what == "seat":
            assert isinstance(item, P.SeatRequest)
            follower.seat(item)
        elif what == "act":
            assert isinstance(item, P.Action)
            follower.act(item)
        else:
            assert isinstance(item, str)
            views.append(follower.feed((item + "\r\n").encode("ascii"), times[i] if times else 0.0))
    return views


def seated(game: str, time: tuple[float, float] | None = None) -> tuple[Game, Entity, Entity, Entity]:
    g = Game(game, time)
    (first, _), (second, _), (watcher, _) = g.join(), g.join(), g.join()
    g.seat(watcher, P.SeatRequest(P.Seat.OBSERVER, "eve"))
    g.seat(first, P.SeatRequest(P.Seat.FIRST, "ann"))
    g.seat(second, P.SeatRequest(P.Seat.EITHER, "bob"))
    return g, first, second, watcher


def log_of(ent: Entity) -> list[Entry]:
    assert isinstance(ent.peer, Peer)
    return ent.peer.log


def test_a_gothello_game_followed_by_both_players_and_an_observer() -> None:
    g, black, white, watcher = seated("gothello")
    engine = g.session.engine
    moves = 0
    while not g.session.over and moves < 200:
        mover = black if side_to_move(engine, g.session.state) is Side.FIRST else white
        g.move(mover, engine.format_move(engine.legal_moves(g.session.state)[0]))
        moves += 1
    assert g.session.over
    final = g.session.outcome
    for ent, side in ((black, Side.FIRST), (white, Side.SECOND), (watcher, None)):
        views = replay("gothello", log_of(ent))
        last = views[-1]
        assert last.phase is Phase.DONE and last.result == final and last.side == side
        assert last.plies == tuple(m.move for m in g.session.made)
        assert last.position is not None and engine.render(last.position) == engine.render(g.session.state)
        assert last.names == ("ann", "bob")  # 341/342: the session's default sends them to all
    watched = replay("gothello", log_of(watcher))
    assert watched[-1].board == tuple(engine.render(g.session.state))
    assert watched[-1].boards == moves + 1 and watched[-1].final.startswith("32")
    assert watched[-1].observers == ((1, "eve"),) and not watched[-1].late


def test_the_players_turns_as_the_follower_sees_them() -> None:
    g, black, white, _ = seated("gothello")
    g.move(black, "c3")
    views = replay("gothello", log_of(black))
    assert views[-1].to_move is Side.SECOND and not views[-1].my_turn and views[-1].serial == 1
    theirs = replay("gothello", log_of(white))
    assert theirs[-1].my_turn and theirs[-1].plies == ("c3",) and theirs[-1].pending is None


def test_an_awari_draw_offer_refused_then_one_accepted() -> None:
    g, south, north, watcher = seated("awari")
    g.act(south, P.Action(P.Kind.DRAW_OFFER))
    assert replay("awari", log_of(north))[-1].must_answer_draw
    g.act(north, P.Action(P.Kind.DRAW_REFUSE))
    after = replay("awari", log_of(south))[-1]
    assert after.offer is None and after.offer_refused and after.my_turn
    g.move(south, "F")
    g.act(north, P.Action(P.Kind.DRAW_OFFER))
    g.act(south, P.Action(P.Kind.DRAW_ACCEPT))
    for ent in (south, north, watcher):
        last = replay("awari", log_of(ent))[-1]
        assert last.result == Outcome(None, Termination.AGREEMENT) and last.final == "329 Draw accepted"


def test_a_refused_request_is_the_followers_refusal_and_nothing_else_changes() -> None:
    g, south, _, _ = seated("awari")
    g.move(south, "a")  # north's pit
    views = replay("awari", log_of(south))
    assert views[-1].refused == P.Refused(291, "Illegal move a")
    assert views[-1].pending is None and views[-1].plies == () and views[-1].my_turn


def test_clocks_count_down_between_the_servers_reports() -> None:
    g, black, _, watcher = seated("gothello", time=(60.0, 30.0))
    g.now = 10.0
    g.move(black, "c3")
    log = log_of(black)
    views = replay("gothello", log, times=[5.0 * i for i in range(len(log))])
    last = views[-1]
    assert last.times == (50.0, 30.0) and last.running is Side.SECOND
    assert last.time_left(Side.SECOND, last.since + 12.5) == 17.5
    assert last.time_left(Side.FIRST, last.since + 12.5) == 50.0
    watched = replay("gothello", log_of(watcher))[-1]
    assert watched.display is not None and watched.display.times == (50, 30) and watched.running is Side.SECOND


def test_an_observer_joining_a_game_under_way_follows_without_a_position() -> None:
    g, black, white, _ = seated("gothello")
    g.move(black, "c3")
    g.move(white, "d4")
    late, _ = g.join()
    g.seat(late, P.SeatRequest(P.Seat.OBSERVER))
    g.move(black, "b2")
    g.act(white, P.Action(P.Kind.RESIGN))
    views = replay("gothello", log_of(late))
    joined = next(v for v in views if v.boards == 1)
    assert joined.late and joined.position is None and joined.serial == 2 and joined.to_move is Side.FIRST
    last = views[-1]
    moved = next(v for v in views if v.boards == 2)
    assert moved.plies == ("b2",) and moved.to_move is Side.SECOND and moved.serial == 2
    assert last.plies == ("b2",) and last.result == Outcome(Side.FIRST, Termination.RESIGNATION)
    assert last.board == tuple(g.session.engine.render(g.session.state))


def greeted(game: str = "gothello", observe: bool = False) -> Follower:
    f = Follower(game)
    f.feed(
        "000 0.9.1 version Gothello server says hello!"
        if game == "gothello"
        else "000 0.9.1 version Awari server says hello!"
    )
    f.seat(P.SeatRequest(P.Seat.OBSERVER if observe else P.Seat.FIRST))
    f.feed("100 Request accepted")
    f.feed("353 You will observe" if observe else "352 You will play black")
    return f


@pytest.mark.parametrize(
    ("lines", "problem"),
    [
        (["312 1 ... d4 is white move, game continues"], "expected move 1 of black"),
        (["311 1 c9 is black move, game continues"], "no such move 'c9'"),
        (["291 Not your turn"], "unexpected Refused"),
        (["200 Move c3 accepted, continue playing"], "unexpected Accepted"),
        (["380 1 b"], "a display sent to a player"),
        (["352 You will play black"], "a second role"),
    ],
)
def test_reports_the_protocol_does_not_allow_are_protocol_errors(lines: list[str], problem: str) -> None:
    f = greeted()
    with pytest.raises(ProtocolError, match=problem):
        for line in lines:
            f.feed(line)


def test_an_observer_must_get_the_display_after_a_status() -> None:
    f = greeted(observe=True)
    with pytest.raises(ProtocolError, match=r"expected the display \(380/381\)"):
        f.feed("311 1 c3 is black move, game continues")


def test_after_a_reply_only_its_status_may_come() -> None:
    f = greeted()
    f.act(P.Action.move(1, Side.FIRST, "c3"))
    f.feed("200 Move c3 accepted, continue playing")
    assert f.view.next is Next.STATUS and f.view.pending is not None
    with pytest.raises(ProtocolError, match="expected the status after Accepted"):
        f.feed("327 Black wins by resignation")


def test_the_greeting_and_lines_that_are_not_ascii() -> None:
    with pytest.raises(ProtocolError, match="not Gothello"):
        Follower("gothello").feed("000 0.9.1 version Awari server says hello!")
    with pytest.raises(ProtocolError, match="not ASCII"):
        Follower("gothello").feed(b"000 0.9.1 version Gothello server says hello! \xff\r\n")
    f = Follower("awari", rules="paper")
    with pytest.raises(ProtocolError, match="rules, not"):
        f.feed("000 0.9.1 version Awari server says hello! Rules: olympiad-1994")


def test_a_transcript_recorded_over_a_socket_from_a_real_server() -> None:
    """A raw observer's socket records the lines; two Clients play; the follower fed
    the recording ends where the clients and the server ended."""
    with LocalServer(Config.local("awari", time=(600.0, 600.0))) as local:
        raw = socket.create_connection(("127.0.0.1", local.port), timeout=30)
        reader = raw.makefile("rb")
        greeting = reader.readline()
        raw.sendall(b"0.9.1 observer\r\n")
        recorded = [greeting, reader.readline()]
        south = Client.connect("awari", port=local.port, timeout=30)
        north = Client.connect("awari", port=local.port, timeout=30)

        def play(client: Client, side: str) -> None:
            client.seat(side)
            client.wait()
            while not client.over:
                if len(client.plies) >= 8:
                    client.resign()
                else:
                    client.move(client.legal_moves()[0])
                client.wait()

        threads = [threading.Thread(target=play, args=(c, s)) for c, s in ((south, "south"), (north, "north"))]
        for t in threads:
            t.start()
        recorded += list(iter(reader.readline, b""))
        for t in threads:
            t.join(30)
        raw.close()
    follower = Follower("awari")
    follower.feed(recorded[0])
    follower.seat(P.SeatRequest(P.Seat.OBSERVER))
    for line in recorded[1:]:
        view = follower.feed(line)
    assert view.result == south.result == north.result and view.result is not None
    assert view.result.termination is Termination.RESIGNATION
    assert list(view.plies) == south.plies == north.plies and len(view.plies) == 8
    assert view.times is not None and view.boards == 10  # the start, 8 moves, the resignation


def test_a_client_observing_a_game_under_way_follows_it_without_a_position() -> None:
    """Through the follower a Client may join late: the serial and the side to move
    come from the display; asking for the position it cannot know is NotPlaying."""
    with LocalServer(Config.local("gothello")) as local:
        black, white = (Client.connect("gothello", port=local.port, timeout=30) for _ in range(2))
        black.seat("black")
        white.seat("white")
        black.wait()
        black.move("c3")
        white.wait()
        white.move("d4")
        black.wait()
        late = Client.connect("gothello", port=local.port, timeout=30)
        late.observe("late")
        late.wait_started()
        assert late.serial == 2 and late.to_move is Side.FIRST and late.view.late
        with pytest.raises(NotPlaying, match="under way"):
            late.state  # noqa: B018
        black.resign()
        late.wait()
        assert late.result == Outcome(Side.SECOND, Termination.RESIGNATION) and late.board
