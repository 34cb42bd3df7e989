"""``--rules`` over real sockets: the greeting announces the rule set (the paper's
greeting unchanged), the server referees by it, the clients adopt it or refuse a
server playing another, the record names it; and the usage errors."""

from __future__ import annotations

import random
import socket
from pathlib import Path

import pytest

from impl import cli, pgn
from impl import protocol as P
from impl.apps import replay
from impl.client import ProtocolError
from impl.engines.awari import RulesAwari
from spec import awari as A
from spec import awari_rules as AR
from spec import result as R
from tests.support.clientkit import connect, play_out, server

NAMED = tuple(AR.RULE_SETS)


def first_line(port: int) -> str:
    """The first line a raw TCP connection gets: the greeting, as any client sees it."""
    with socket.create_connection(("127.0.0.1", port), timeout=10.0) as sock:
        data = b""
        while b"\n" not in data:
            chunk = sock.recv(256)
            assert chunk, "closed before the greeting"
            data += chunk
    return data.split(b"\n")[0].decode().rstrip("\r")


@pytest.mark.parametrize("rules", NAMED)
def test_greeting_announces_the_rules(rules: str) -> None:
    with server("awari", rules=rules) as local:
        greeting = first_line(local.port)
        expected = "000 0.9.1 version Awari server says hello!"
        assert greeting == (expected if rules == "paper" else f"{expected} Rules: {rules}")
        assert P.parse(greeting) == P.Greeting("0.9.1", "Awari", rules)


def test_pgn_rules_tag() -> None:
    """The PGN records name the papers' rules ``massey`` (impl/pgn.py), the others by name."""
    assert pgn.engine_rules("awari", "massey") == pgn.engine_rules("awari", "") == "paper"
    assert pgn.engine_rules("awari", "abapa") == "abapa"
    with pytest.raises(pgn.PgnError, match="unknown gothello rules 'abapa'"):
        pgn.engine_rules("gothello", "abapa")


def test_greeting_parse_is_lenient() -> None:
    """Existing clients read the version and the title only; ours read the rules
    too, and a greeting without them means the paper's."""
    assert P.parse("000 0.9.1 version Awari server says hello!").rules == "paper"  # type: ignore[union-attr]
    assert P.parse("000 0.9.1 version Awari server says hello! Rules: abapa") == P.Greeting("0.9.1", "Awari", "abapa")


@pytest.mark.parametrize("rules", NAMED)
def test_a_whole_game_under_each_rule_set(rules: str, tmp_path: Path) -> None:
    """Two clients play a random game; they adopt the announced rules (so their
    legal moves are the referee's), the result is the rule set's, and the record
    names the rules."""
    rng = random.Random(rules)
    with server("awari", rules=rules, record_dir=tmp_path) as local:
        first, second = connect("awari", local.port), connect("awari", local.port, rules=rules)
        assert (first.rules, second.rules) == (rules, rules)
        first.seat("south", "")
        second.seat("north", "")
        first.wait_started()
        second.wait_started()
        moves: list[str] = []

        def choose(client: object) -> str:
            assert hasattr(client, "legal_moves")
            move: str = rng.choice(client.legal_moves())
            moves.append(move)
            return move

        play_out((first, second), choose)
        result = first.result
        first.close()
        second.close()
        local.wait(10.0)
    engine = RulesAwari(AR.rules_named(rules))
    state = engine.initial()
    outcome: object = R.not_done
    for move in moves:
        outcome, state = engine.apply(state, A.PIT[move])
        assert outcome != R.illegal_move
    assert engine.is_over(state)
    assert result is not None
    expected_winner = None if outcome == R.draw else (0 if outcome == R.win(A.PLAYER.south) else 1)
    assert result.winner == expected_winner
    (record,) = tmp_path.glob("*")
    tag = "massey" if rules == "paper" else rules  # PGN's name for the papers' rules
    assert f'[Rules "{tag}"]' in record.read_text()
    parsed = pgn.parse(record.read_text())  # its moves checked by the engine of its Rules tag
    assert [p.move for p in parsed.plies] == moves and not parsed.tag(pgn.UNCHECKED)
    assert len(list(replay.frames(parsed))) == len(moves) + 1


def test_a_client_refuses_a_server_playing_other_rules() -> None:
    with server("awari", rules="abapa") as local, pytest.raises(ProtocolError, match="plays the abapa rules, not pa"):
        connect("awari", local.port, rules="paper")
    with server("awari") as local, pytest.raises(ProtocolError, match="plays the paper rules, not olympiad-1994"):
        connect("awari", local.port, rules="olympiad-1994")


BAD = [
    ["serve", "awari", "--rules", "nope"],
    ["serve", "gothello", "--rules", "abapa"],
    ["player", "random", "gothello", "--rules", "abapa"],
    ["client", "gothello", "--rules", "olympiad-1994"],
    ["client", "awari", "--rules", "olympiad"],
    ["play", "--rules", "abapa"],  # the default game is Gothello
    ["match", "random", "random", "--game", "gothello", "--rules", "abapa"],
    ["match", "random", "random", "--game", "awari", "--rules", "x"],
    ["player", "openspiel-mcts", "gothello"],
    ["player", "openspiel-mcts", "awari", "--rules", "paper"],
]


@pytest.mark.parametrize("argv", BAD, ids=[" ".join(a) for a in BAD])
def test_bad_rules_are_a_one_line_usage_error(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    try:
        status = cli.main(argv)
    except SystemExit as exc:
        assert isinstance(exc.code, int)
        status = exc.code
    assert status == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("referee ") and "Traceback" not in err, err


def test_match_plays_its_games_under_the_rules(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """referee match --rules: its server plays and records the set; its players adopt it."""
    argv = ["match", "random", "random", "--game", "awari", "--rules", "olympiad-1994", "--games", "1"]
    assert cli.main([*argv, "--records", str(tmp_path), "--quiet"]) == 0
    (record,) = tmp_path.glob("*.pgn")
    assert '[Rules "olympiad-1994"]' in record.read_text()
    assert "1 games, 1 with a result" in capsys.readouterr().out
