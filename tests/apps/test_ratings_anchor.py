"""An anchor without games (issue #49): ``--anchor LABEL`` names a player whose every
game had no result.  No game relates it to the others, so it anchors nothing: the
ratings are the mean-anchored ones, said as such (impl/apps/ratings.py
``bradley_terry``), and the anchor is rated as any player without games — 0, margin
0, covariance 0 with everyone, all finite.  Before, the ratings were anchored at the
first player who played, which showed 0 ± 0 as if it were the anchor."""

from __future__ import annotations

import math

from impl.apps.ratings import bradley_terry
from impl.apps.tournament import GameResult, TournamentConfig, summarise
from impl.apps.tournament.outputs import as_json
from impl.apps.tournament.summary import notes

GAMES = [(1, 2, 1.0), (2, 1, 1.0), (1, 2, 0.5), (2, 3, 1.0), (3, 2, 0.0), (1, 3, 0.5), (3, 1, 1.0)]
"""Players 1–3 play each other with mixed results; player 0 plays no game."""


def test_an_anchor_without_games_leaves_the_mean_anchoring() -> None:
    centred = bradley_terry(4, GAMES)
    anchored = bradley_terry(4, GAMES, anchor=0)
    assert anchored == centred and anchored.anchor is None and not anchored.prior
    assert abs(sum(anchored.elo[1:])) < 1e-9  # the mean of those who played is 0
    # Every player who played has an error bar: none is the reference at 0 ± 0.
    assert all(m > 0 for m in anchored.margin[1:])


def test_the_anchor_without_games_is_rated_as_a_player_without_games() -> None:
    r = bradley_terry(4, GAMES, anchor=0)
    assert (r.elo[0], r.margin[0]) == (0.0, 0.0)
    assert r.covariance[0] == (0.0,) * 4 and all(row[0] == 0.0 for row in r.covariance)
    assert all(math.isfinite(x) for row in r.covariance for x in row)


def test_an_anchor_who_played_is_kept() -> None:
    r = bradley_terry(4, GAMES, anchor=1)
    assert r.anchor == 1 and (r.elo[1], r.margin[1]) == (0.0, 0.0)
    assert all(m > 0 for m in r.margin[2:])
    # A difference does not depend on the anchor.
    assert math.isclose(r.difference(2, 3)[1], bradley_terry(4, GAMES).difference(2, 3)[1])


def test_the_tournament_says_the_mean_when_its_anchor_played_no_game() -> None:
    """The anchor's one game had no result; the JSON and the two-player line say
    ``mean``, not the anchor's label."""
    config = TournamentConfig(("idle", "a", "b"), "gothello", 1)
    results = [
        GameResult(1, "1.1", (0, 1), None, "no result", "idle exited with 3", culprits=(0,)),
        GameResult(2, "2.1", (1, 2), 1.0, "move"),
        GameResult(3, "3.1", (2, 1), 1.0, "move"),
    ]
    summary = summarise(config, results, 3, anchor=0)
    assert summary.anchor is None and summary.ratings is not None and summary.ratings.anchor is None
    assert as_json(config, summary, results)["ratings"]["anchor"] == "mean"
    two = TournamentConfig(("idle", "a"), "gothello", 1)
    lone = [GameResult(1, "1.1", (0, 1), None, "no result", "idle exited with 3", culprits=(0,))]
    line = next(n for n in notes(summarise(two, lone, 1, anchor=0)) if n.startswith("Elo by maximum likelihood"))
    assert "mean 0" in line and "idle 0" not in line
