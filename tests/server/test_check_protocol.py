"""``referee serve --check-protocol`` (``Config.check_protocol``): every line a server
sends checked live against the protocol's model (impl/server/transcript.py
``Monitor``), each game's first divergence logged as one JSON line, the game going on."""

from __future__ import annotations

import logging
import random

import pytest

from impl import protocol as P
from impl.log import LOGGER
from tests.support.clientkit import play_out, players, server


def _divergences(caplog: pytest.LogCaptureFixture) -> list[dict[str, object]]:
    return [r.fields for r in caplog.records if r.getMessage() == "protocol_divergence"]  # type: ignore[attr-defined]


@pytest.mark.parametrize("game", ["awari", "gothello"])
def test_a_checked_game_over_sockets_has_no_divergence(game: str, caplog: pytest.LogCaptureFixture) -> None:
    """A whole game (as a match plays it, on a LocalServer) with clocks and an observer."""
    rng = random.Random(7)
    with caplog.at_level(logging.INFO, logger=LOGGER), server(game, check_protocol=True, time=(60.0, 60.0)) as local:
        clients = players(game, local.port)
        plies = play_out(clients, lambda c: rng.choice(c.legal_moves()))
        assert local.wait(10)
    assert plies > 0
    assert _divergences(caplog) == []


def test_a_server_bug_is_logged_and_the_game_goes_on(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A player's 101 with the two times swapped (``opp / you``): the first player's
    101 is logged as the game's divergence (one JSON line: the line and what the
    model allowed), and the game is played to its end."""
    seated = P.Seated.to_line

    def swapped(self: P.Seated, v: P.Vocabulary) -> str:
        flipped = self.times if self.times is None or self.observer else (self.times[1], self.times[0])
        return seated(P.Seated(flipped, self.observer), v)

    monkeypatch.setattr(P.Seated, "to_line", swapped)
    rng = random.Random(3)
    with (
        caplog.at_level(logging.INFO, logger=LOGGER),
        server("gothello", check_protocol=True, time=(60.0, 30.0)) as local,
    ):
        clients = players("gothello", local.port)
        play_out(clients, lambda c: rng.choice(c.legal_moves()))
        assert local.wait(10)
    assert clients[0].result is not None
    [found] = _divergences(caplog)
    assert found["game"] == "gothello"
    assert "got '101 30 60 " in str(found["problem"]) and "'101 60 30 " in str(found["problem"])
