"""The one protocol module (impl/protocol.py): every message parses back from the
line it formats, for both games, so server and client cannot drift apart."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from impl import protocol as P
from impl.game import Side

vocabs = st.sampled_from([P.AWARI, P.GOTHELLO])
sides = st.sampled_from(list(Side))
maybe_side = st.none() | sides
counts = st.integers(0, 10**6)
tokens = st.text(st.characters(min_codepoint=0x21, max_codepoint=0x7E), min_size=1, max_size=8).filter(
    lambda t: t != "..."
)
names = st.text(st.characters(min_codepoint=0x20, max_codepoint=0x7E), max_size=P.NAME_MAX)
texts = st.text(st.characters(min_codepoint=0x20, max_codepoint=0x7E), max_size=40)
times = st.none() | st.tuples(counts, counts)

responses: st.SearchStrategy[P.Message] = st.one_of(
    st.builds(P.Greeting, st.from_regex(r"[0-9]\.[0-9]\.[0-9]", fullmatch=True), st.sampled_from(["Awari", "Go"])),
    st.builds(P.Seated, times, st.booleans()),
    st.builds(P.Refused, st.sampled_from([191, 192, 193, 198, 199, 291, 299]), texts),
    st.builds(P.Accepted, tokens, st.none() | counts),
    st.builds(P.Finished.by_move, st.sampled_from([201, 202, 203]), tokens),
    st.just(P.Finished.time_expired()),
    st.just(P.Finished.draw_accepted()),
    st.sampled_from([P.RESIGNATION_ACCEPTED, P.DRAW_OFFER_RECEIVED, P.DRAW_REFUSAL_RECEIVED]),
    st.builds(P.Moved, st.integers(1, 10**6), sides, tokens, st.none() | counts),
    st.builds(P.Ended, st.integers(1, 10**6), sides, tokens, maybe_side),
    st.builds(P.Resigned, sides),
    st.just(P.DrawAgreed()),
    st.builds(P.DrawOffered, sides),
    st.builds(P.DrawRefused, sides),
    st.builds(P.PlayerName, sides, names),
    st.builds(P.ObserverName, st.integers(1, 10**6), names),
    st.builds(P.ObserverCount, counts),
    st.builds(P.Role, maybe_side),
    st.builds(P.FlagFell, sides),
    st.builds(P.Disconnected, sides),
    st.builds(P.Aborted.because, texts),
    st.builds(P.DisplayStatus, st.integers(1, 10**6), times, maybe_side),
    st.builds(P.BoardFollows, st.integers(0, 99)),
)


@given(vocabs, responses)
def test_every_response_parses_back_from_its_line(vocab: P.Vocabulary, message: P.Message) -> None:
    assert P.parse(message.to_line(vocab)) == message


@given(vocabs, st.sampled_from(list(P.Seat)), names.map(str.strip), st.sampled_from(["0.9.1", "0.9", "0.1.2.3"]))
def test_every_seat_request_parses_back(vocab: P.Vocabulary, seat: P.Seat, name: str, version: str) -> None:
    request = P.SeatRequest(seat, name, version)
    assert P.parse_seat(vocab, request.to_line(vocab)) == request


@given(vocabs, st.integers(1, 10**8), sides, tokens)
def test_every_move_request_parses_back(vocab: P.Vocabulary, serial: int, side: Side, token: str) -> None:
    action = P.Action.move(serial, side, token)
    assert P.parse_action(vocab, action.to_line(vocab)) == action


def test_the_words_of_each_game() -> None:
    for kind in (P.Kind.RESIGN, P.Kind.DRAW_OFFER, P.Kind.DRAW_ACCEPT, P.Kind.DRAW_REFUSE):
        assert P.parse_action(P.AWARI, P.Action(kind).to_line(P.AWARI)) == P.Action(kind)
    bare_pass = P.Action(P.Kind.MOVE, token="pass")
    assert P.parse_action(P.GOTHELLO, bare_pass.to_line(P.GOTHELLO)) == bare_pass
    assert (P.port_of("awari", 3), P.port_of("gothello", 0)) == (29049, 29068)
