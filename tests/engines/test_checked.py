"""The checked engine (impl/engines/checked_engine.py): the fast engine and the spec side by
side, the spec's verdict followed.  Honest engines never diverge; a deliberately
wrong fast engine, planted through the registry, is caught on every count — logged
at error level, recorded, counted, and under ``--on-divergence abort`` the game
ends with 399 — over a real socket."""

from __future__ import annotations

import argparse
import logging
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, cast

import pytest

from impl import pgn
from impl.apps import serve as server_cli
from impl.apps.games import play_game
from impl.apps.terms import MatchOptions, PlayerSpec
from impl.cli import build_parser
from impl.config import OnDivergence
from impl.engines import perft
from impl.engines import registry as engines
from impl.engines.awari import ImplAwari
from impl.engines.checked_engine import CheckedEngine, Divergence, divergences
from impl.engines.port import GAMES, GameEngine
from impl.engines.registry import get_engine
from impl.engines.statetext import format_state, parse_awari, parse_gothello
from impl.log import JsonLines
from spec import awari as A
from spec import gothello as G
from spec import result as R
from tests.support.clientkit import server
from tests.support.netclient import play_moves, ply, run, seat_players

BAD = {"awari": ("C", A.PIT.C), "gothello": ("c3", G.move((3, 3)))}
"""The legal first move each planted engine refuses."""


def checked_engine(game: str) -> CheckedEngine:
    """The registry's checked engine, typed as what it is."""
    engine = get_engine(game, "checked")
    assert isinstance(engine, CheckedEngine)
    return engine


class Planted:
    """The fast engine with one planted bug: it refuses one legal action everywhere.
    (Delegation, not a subclass: the fast engines may be mypyc-compiled classes.)"""

    def __init__(self, inner: Any, bad: Any) -> None:
        self.inner, self.bad = inner, bad

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def apply(self, state: Any, action: Any) -> tuple[Any, Any]:
        if action == self.bad:
            return R.illegal_move, state
        result: tuple[Any, Any] = self.inner.apply(state, action)
        return result

    def legal_moves(self, state: Any) -> tuple[Any, ...]:
        return tuple(m for m in self.inner.legal_moves(state) if m != self.bad)


@pytest.fixture
def planted(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every game's fast engine in the registry is the planted one."""
    for game in GAMES:
        honest = engines.FACTORIES[game, "impl"]

        def make(honest: Callable[[], Any] = honest, game: str = game) -> Any:
            return Planted(honest(), BAD[game][1])

        monkeypatch.setitem(engines.FACTORIES, (game, "impl"), make)


class Captured(logging.Handler):
    """The ``referee`` logger's records, formatted as the server writes them."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.setFormatter(JsonLines())
        self.lines: list[str] = []
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)
        self.lines.append(self.format(record))


@pytest.fixture
def log() -> Iterator[Captured]:
    logger = logging.getLogger("referee")
    handler, level = Captured(), logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    yield handler
    logger.removeHandler(handler)
    logger.setLevel(level)


@pytest.fixture
def logger_restored() -> Iterator[None]:
    """perft sets up the ``referee`` logger for itself: put it back afterwards."""
    logger = logging.getLogger("referee")
    saved = (list(logger.handlers), logger.level, logger.propagate)
    yield
    logger.handlers[:], logger.level, logger.propagate = saved[0], saved[1], saved[2]


def record_fields(directory: Path) -> tuple[dict[str, list[str]], list[str]]:
    """The record's tags (each key's values) and its moves as sent."""
    (path,) = directory.iterdir()
    game = pgn.parse(path.read_text(encoding="ascii"))
    fields: dict[str, list[str]] = {}
    for key, value in game.tags:
        fields.setdefault(key, []).append(value)
    return fields, game.moves


# ─── honest engines ────────────────────────────────────────────────────────────


# make verify: the first 60 actions of one random game each (a whole Awari game under
# the spec, contracts on, took 53 s of the suite); verify-deep: three whole games each.
HONEST = [(g, 19, 60) for g in GAMES] + [
    pytest.param(g, seed, None, marks=pytest.mark.deep) for g in GAMES for seed in (19, 20, 21)
]


@pytest.mark.parametrize(("game", "seed", "actions"), HONEST)
def test_honest_engines_never_diverge_and_the_spec_decides(game: str, seed: int, actions: int | None) -> None:
    checked = checked_engine(game)
    spec = get_engine(game, "spec")
    rng = random.Random(seed)
    state, reference = checked.initial(), spec.initial()
    applied = 0
    while not checked.is_over(state) and (actions is None or applied < actions):
        applied += 1
        moves = checked.legal_moves(state)
        assert moves == spec.legal_moves(reference)
        action = rng.choice([*moves, *rng.sample(list(_actions(game)), 2)])  # illegal attempts too
        result, state = checked.apply(state, action)
        expected, reference = spec.apply(reference, action)
        assert (result, checked.to_spec(state)) == (expected, reference)
        assert divergences(state) == ()
    assert checked.count == 0


def _actions(game: str) -> tuple[Any, ...]:
    if game == "awari":
        return tuple(A.PIT)
    return (*(G.move(s) for s in sorted(G.SQUARES)), G.pass_)


# ─── a planted divergence, engine level ────────────────────────────────────────


@pytest.mark.parametrize("game", GAMES)
def test_a_planted_divergence_is_found_and_the_spec_is_followed(game: str, planted: None) -> None:
    reports: list[Divergence] = []
    checked = checked_engine(game)
    checked.report = reports.append
    token, bad = BAD[game]
    start = checked.initial()
    result, after = checked.apply(start, bad)
    assert result == R.not_done  # the spec's verdict
    assert checked.to_spec(after) == get_engine(game, "spec").apply(get_engine(game, "spec").initial(), bad)[1]
    assert checked.fast.to_spec(after.fast) == after.spec  # re-synchronised
    found = divergences(after)
    assert [d.check for d in found] == ["result", "state"] and list(found) == reports == [*found]
    (wrong_result, _) = found
    assert wrong_result.action == token and wrong_result.state == format_state(checked.to_spec(start))
    assert (wrong_result.spec, wrong_result.impl) == ("not_done", "illegal_move")
    assert bad not in checked.fast.legal_moves(start.fast)
    assert checked.legal_moves(start) == get_engine(game, "spec").legal_moves(checked.to_spec(start))
    assert [d.check for d in reports] == ["result", "state", "legal_moves"] and checked.count == 3


def test_a_fast_engine_that_raises_is_a_divergence_not_a_failure() -> None:
    class Broken:
        game = "awari"

        def initial(self) -> Any:
            return ImplAwari().initial()

        def to_spec(self, state: Any) -> Any:
            return ImplAwari().to_spec(state)

        def from_spec(self, game: Any) -> Any:
            return ImplAwari().from_spec(game)

        def apply(self, state: Any, action: Any) -> Any:
            raise RuntimeError("planted")

    partial = cast(GameEngine, Broken())  # only what initial and apply call of a fast engine
    checked = CheckedEngine(partial, get_engine("awari", "spec"), report=None)
    result, after = checked.apply(checked.initial(), A.PIT.F)
    assert result == R.not_done and [d.check for d in divergences(after)] == ["raised"]
    assert "planted" in divergences(after)[0].impl and checked.count == 1


# ─── a planted divergence over a real socket ───────────────────────────────────


@pytest.mark.parametrize("game", GAMES)
def test_over_a_socket_a_divergence_is_logged_recorded_counted_and_play_follows_the_spec(
    game: str, planted: None, log: Captured, tmp_path: Path
) -> None:
    token, _ = BAD[game]
    with server(game, engine="checked", record_dir=tmp_path) as local:

        async def scenario() -> None:
            players = await seat_players(local.port, game)
            (reply, status) = (await play_moves(players, [token]))[0]
            assert reply.startswith("200") and status.startswith("311")  # accepted: the spec's verdict
            await players[1].send("resign")
            await players[1].expect(204)

        run(scenario)
        assert local.wait(10)
    errors = [r for r in log.records if r.levelno == logging.ERROR and r.getMessage() == "divergence"]
    assert [r.fields["check"] for r in errors] == ["result", "state"]  # type: ignore[attr-defined]
    first = errors[0].fields  # type: ignore[attr-defined]
    initial = format_state(get_engine(game, "spec").initial())
    assert (first["game"], first["action"], first["state"]) == (game, token, initial)
    assert any('"event":"divergence"' in line and initial in line for line in log.lines)
    end = next(r for r in log.records if r.getMessage() == "end").fields  # type: ignore[attr-defined]
    assert end["divergences"] == 2 and end["termination"] == "resignation"
    fields, plies = record_fields(tmp_path)
    assert fields["Engine"] == ["checked"] and fields["Divergences"] == ["2"]
    assert fields["Divergence"][0] == f"1 {token}: result of {token} in {initial}: spec not_done; impl illegal_move"
    assert fields["Divergence"][1].startswith(f"1 {token}: state of {token} in {initial}: spec ")
    assert plies == [token] and fields["Unchecked"] == ["1"]  # the fast engine refuses it: written as sent


@pytest.mark.parametrize("game", GAMES)
def test_over_a_socket_on_divergence_abort_ends_the_game_with_399(
    game: str, planted: None, log: Captured, tmp_path: Path
) -> None:
    token, _ = BAD[game]
    with server(game, engine="checked", record_dir=tmp_path, on_divergence=OnDivergence.ABORT) as local:

        async def scenario() -> None:
            players = await seat_players(local.port, game)
            await players[0].send(f"1 {token}")
            expected = ["399 Unknown problem: the fast engine and the spec disagree, game aborted"]
            for p in players:
                assert await p.rest() == expected

        run(scenario)
        assert local.wait(10)
    events = [r.getMessage() for r in log.records]
    assert events.count("divergence") == 2 and "divergence_abort" in events
    fields, plies = record_fields(tmp_path)
    assert fields["Result"] == ["*"] and fields["Termination"] == ["divergence"]
    assert fields["Divergences"] == ["2"] and plies == []


def test_honest_checked_game_over_a_socket_records_no_divergence(tmp_path: Path) -> None:
    with server("gothello", engine="checked", record_dir=tmp_path) as local:

        async def scenario() -> None:
            players = await seat_players(local.port, "gothello")
            await play_moves(players, ["c3", "d4", "pass"])
            reply, _ = await ply(players, 1, 2, "pass")
            assert reply == "203 Move pass accepted, You draw"  # one stone each

        run(scenario)
        assert local.wait(10)
    fields, plies = record_fields(tmp_path)
    assert fields["Engine"] == ["checked"] and fields["Divergences"] == ["0"] and "Divergence" not in fields
    assert plies == ["c3", "d4", "pass", "pass"]


def test_serve_takes_the_checked_engine_and_the_divergence_policy() -> None:
    parser = argparse.ArgumentParser()
    server_cli.add_command(parser.add_subparsers())
    args = parser.parse_args(["serve", "all", "--engine", "checked", "--on-divergence", "abort", "--port", "0"])
    with pytest.raises(SystemExit):  # --port with two games
        server_cli.build_servers(args)
    args = parser.parse_args(["serve", "awari", "--engine", "checked", "--on-divergence", "abort"])
    (built,) = server_cli.build_servers(args)
    assert built.engine.kind == "checked" and built.settings.on_divergence is OnDivergence.ABORT
    assert server_cli.build_servers(parser.parse_args(["serve", "awari"]))[0].settings.on_divergence.value == "continue"


# ─── the state notation the divergences are written in ─────────────────────────


def test_the_state_notation_reads_back() -> None:
    awari = parse_awari("a1 b1 F2 A4, 20/20, south")
    assert format_state(awari) == "a1 b1 A4 F2, 20/20, south" and parse_awari(format_state(awari)) == awari
    gothello = parse_gothello("w a1, b a2, white, history pass c3")
    assert format_state(gothello) == "b a2 w a1, white, history pass c3"
    assert parse_gothello(format_state(gothello)) == gothello
    assert format_state(get_engine("gothello", "spec").initial()) == "empty, black"


# ─── the other commands that take --engine checked ─────────────────────────────


def test_perft_checked_counts_and_reports_divergences(
    capsys: pytest.CaptureFixture[str], logger_restored: None
) -> None:
    assert perft.main(["gothello", "2", "--engine", "checked"]) == 0
    assert capsys.readouterr().out.splitlines()[::2] == ["perft(2) = 651", "divergences: 0"]


def test_perft_checked_fails_on_a_planted_divergence(
    capsys: pytest.CaptureFixture[str], planted: None, logger_restored: None
) -> None:
    assert perft.main(["awari", "2", "--engine", "checked"]) == 1
    out = capsys.readouterr()
    assert "perft(2) = 36" in out.out and "divergences: " in out.out  # the spec's count, the impl's mistakes counted
    assert '"event":"divergence"' in out.err and '"action":"C"' in out.err


def test_match_and_play_take_the_checked_engine() -> None:
    specs = (PlayerSpec.parse("random --seed 1"), PlayerSpec.parse("random --seed 2"))
    outcome = play_game(specs, 1, MatchOptions("gothello", 1, engine="checked"), 0)
    assert outcome.result is not None and outcome.result.termination == "move" and not outcome.error
    args = build_parser().parse_args(["play", "--engine", "checked"])
    assert args.engine == "checked"
    args = build_parser().parse_args(["match", "random", "random", "--game", "awari", "--engine", "checked"])
    assert (args.engine, args.on_divergence) == ("checked", "continue")
