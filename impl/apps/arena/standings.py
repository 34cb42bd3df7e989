"""What the arena's web pages show (docs/arena.md, "Web"), as plain JSON made from
the database's rows: the standings (rating ± 95% margin, games, score, faults),
the crosstable, the latest games, and each player's page (its rating after each
round, its games).  Pure: the arena hands it the rows and the fit."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from impl.apps.ratings import bradley_terry

from .store import Game, Player, Rating, record_name

RECENT = 50
"""Games listed on the standings page and on each player's page."""


def _record(records: str | None, game_id: int) -> str | None:
    return None if records is None else record_name(records, game_id)


def _result(game: Game, names: Mapping[int, str]) -> str:
    if game.score is None:
        return "no result"
    if game.score == 0.5:
        return "draw"
    return f"{names[game.first if game.score == 1 else game.second]} wins"


def game_json(game: Game, names: Mapping[int, str], record: str | None) -> dict[str, Any]:
    return {
        "number": game.id,
        "round": game.round_id,
        "first": names[game.first],
        "second": names[game.second],
        "score": game.score,
        "result": _result(game, names),
        "termination": game.termination,
        "rated": game.rated,
        "unrated": game.unrated,
        "plies": game.plies,
        "ended": game.ended,
        "record": record,
    }


def _openskill(players: Sequence[Player], games: Sequence[Game]) -> dict[int, tuple[float, float]]:
    """Openskill's μ and σ (Plackett–Luce, rated in the order played) of the players of
    rated games, beside the maximum-likelihood Elo (impl/apps/ratings.py ``skills``);
    empty without openskill (the tournament extra)."""
    try:
        from impl.apps.ratings import skills
    except ImportError:
        return {}
    index = {p.id: k for k, p in enumerate(players)}
    rated = [(index[g.first], index[g.second], float(g.score)) for g in games if g.rated and g.score is not None]
    if not rated:
        return {}
    try:
        found = skills(len(players), rated)
    except ImportError:
        return {}
    playing = {k for a, b, _ in rated for k in (a, b)}
    return {p.id: (round(found[k].mu, 2), round(found[k].sigma, 2)) for k, p in enumerate(players) if k in playing}


def snapshot(
    title: str,
    players: Sequence[Player],
    games: Sequence[Game],
    ratings: Mapping[int, tuple[float, float, int]],
    faults: Mapping[int, Mapping[str, int]],
    history: Mapping[int, Sequence[Rating]],
    records: str | None,
    settings: Sequence[str] = (),
) -> dict[str, Any]:
    """The arena's pages' data: ``standings`` (rated players by rating, then the
    others), ``crosstable`` (rated games, row's score against column), ``games``
    (the latest), ``players`` (each one's page: ``history`` as [round, Elo,
    margin], its latest games, its faults).  ``records``: the game whose records the
    arena writes (store.py ``record_name``), None if it writes none."""
    names = {p.id: p.name for p in players}
    tally: dict[int, list[float]] = {p.id: [0, 0, 0, 0] for p in players}  # played, won, drawn, lost
    cross: dict[str, dict[str, dict[str, float]]] = {}
    mine: dict[int, list[Game]] = {p.id: [] for p in players}
    for g in games:
        mine[g.first].append(g)
        mine[g.second].append(g)
        if g.score is None:
            continue
        for me, them, score in ((g.first, g.second, g.score), (g.second, g.first, 1 - g.score)):
            t = tally[me]
            t[0] += 1
            t[1 if score == 1 else 2 if score == 0.5 else 3] += 1
            if g.rated:
                cell = cross.setdefault(names[me], {}).setdefault(names[them], {"score": 0.0, "games": 0})
                cell["score"] += score
                cell["games"] += 1
    skill = _openskill(players, games)
    rows: list[dict[str, Any]] = []
    for p in players:
        played, won, drawn, lost = tally[p.id]
        rating = ratings.get(p.id)
        rows.append(
            {
                "player": p.name,
                "anchor": p.anchor,
                "elo": None if rating is None else round(rating[0], 1),
                "margin": None if rating is None else round(rating[1], 1),
                "rated": 0 if rating is None else rating[2],
                "games": int(played),
                "wins": int(won),
                "draws": int(drawn),
                "losses": int(lost),
                "score": won + drawn / 2,
                "validated": p.validated,
                "note": p.note,
                "faults": dict(faults.get(p.id, {})),
                "mu": skill[p.id][0] if p.id in skill else None,
                "sigma": skill[p.id][1] if p.id in skill else None,
            }
        )
    rows.sort(key=lambda r: (r["elo"] is None, -float(r["elo"] or 0.0), str(r["player"])))
    return {
        "title": title,
        "settings": list(settings),
        "standings": rows,
        "crosstable": cross,
        "games": [game_json(g, names, _record(records, g.id)) for g in games[-RECENT:]],
        "players": {
            p.name: {
                "history": [[r.round_id, round(r.elo, 1), round(r.margin, 1)] for r in history.get(p.id, ())],
                "games": [game_json(g, names, _record(records, g.id)) for g in mine[p.id][-RECENT:]],
            }
            for p in players
        },
    }


def fit(players: Sequence[Player], games: Sequence[Game], anchor_rating: float) -> dict[int, tuple[float, float, int]]:
    """Every player's (Elo, 95% margin, rated games) by maximum likelihood over the
    rated games (impl/apps/ratings.py ``bradley_terry``), the first anchor who
    played pinned at its rating (``anchor_rating`` if it has none), or the mean
    at ``anchor_rating`` without one."""
    index = {p.id: k for k, p in enumerate(players)}
    rated = [(index[g.first], index[g.second], g.score) for g in games if g.rated and g.score is not None]
    counts = [0] * len(players)
    for a, b, _ in rated:
        counts[a] += 1
        counts[b] += 1
    anchors = [index[p.id] for p in players if p.anchor is not None and counts[index[p.id]]]
    fitted = bradley_terry(len(players), [(a, b, float(s)) for a, b, s in rated], anchors[0] if anchors else None)
    base = anchor_rating
    if fitted.anchor is not None and players[fitted.anchor].pinned is not None:
        base = float(players[fitted.anchor].pinned or 0.0)
    return {p.id: (fitted.elo[k] + base, fitted.margin[k], counts[k]) for k, p in enumerate(players) if counts[k]}
