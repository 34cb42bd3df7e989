"""``--rules`` takes every combination of the three dimensions (spec/awari_rules.py
``parse_rules``; docs/rules.md): the parser and the canonical names, the
engines, the records' ``Rules`` tag, and over real sockets and real processes the
five grand-slam variants, the greeting and the usage errors."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from impl import cli, pgn
from impl import protocol as P
from impl.apps import replay
from impl.apps import serve as serve_cli
from impl.client import ProtocolError
from impl.engines.awari import RulesAwari
from impl.engines.notation import render_awari
from impl.engines.registry import get_engine
from impl.engines.spec_engine import SpecAwari
from spec import awari as A
from spec import awari_rules as AR
from spec import result as R
from tests.support.clientkit import connect, server
from tests.support.netclient import Client, play_moves, ply, read_display, run, seat, seat_players, watch

KEYS = tuple(AR.DIMENSIONS)
VALUES: dict[str, list[str]] = {key: [v.value for v in enum] for key, enum in AR.DIMENSIONS.items()}


def dimensions(r: AR.AwariRules) -> tuple[str, str, str]:
    return r.grand_slam.value, r.repetition.value, r.cannot_move.value


# ─── The parser and the canonical names ───────────────────────────────────────


@pytest.mark.parametrize("rules", AR.ALL_COMBINATIONS, ids=lambda r: r.name)
def test_the_canonical_name_parses_back_to_the_combination(rules: AR.AwariRules) -> None:
    name = AR.canonical_name(rules)
    parsed = AR.parse_rules(name)
    assert parsed == rules and dimensions(parsed) == dimensions(rules)
    assert parsed.name == name == AR.canonical(name) and " " not in name
    assert name in AR.RULE_SETS or name.startswith("paper,")


def test_thirty_names_for_thirty_combinations() -> None:
    names = {AR.canonical_name(r) for r in AR.ALL_COMBINATIONS}
    assert len(names) == 30 and set(AR.RULE_SETS) <= names
    spare_last = AR.AwariRules("any label", AR.GrandSlamRule.SPARE_LAST, AR.PAPER.repetition, AR.PAPER.cannot_move)
    assert AR.canonical_name(spare_last) == "paper,grand-slam=c"


@given(
    base=st.sampled_from([None, *AR.RULE_SETS]),
    overrides=st.permutations(KEYS).flatmap(
        lambda keys: st.tuples(*(st.one_of(st.none(), st.sampled_from(VALUES[k])) for k in keys)).map(
            lambda values: [(k, v) for k, v in zip(keys, values, strict=True) if v is not None]
        )
    ),
)
def test_a_named_set_with_overrides_in_any_order(base: str | None, overrides: list[tuple[str, str]]) -> None:
    """Each override replaces its dimension of the named set (``paper`` when none is
    named); equal rules get equal names, whichever text named them."""
    text = ",".join([*([base] if base else []), *(f"{k}={v}" for k, v in overrides)])
    if not text:
        return
    start = AR.RULE_SETS[base or "paper"]
    want = dict(zip(KEYS, dimensions(start), strict=True)) | dict(overrides)
    parsed = AR.parse_rules(text)
    assert dimensions(parsed) == (want["grand-slam"], want["repetition"], want["cannot-move"])
    same = ",".join(f"{k}={want[k]}" for k in reversed(KEYS))  # the dimensions alone, another order
    assert AR.canonical(same) == parsed.name == AR.canonical_name(parsed)


def test_examples_of_the_brief_and_the_readme() -> None:
    assert AR.canonical("paper,grand-slam=c") == "paper,grand-slam=c"
    assert AR.canonical("olympiad-1994,repetition=own-row") == "paper,grand-slam=a,cannot-move=player-loses"
    assert AR.canonical("grand-slam=b,cannot-move=player-loses") == "paper,grand-slam=b,cannot-move=player-loses"
    assert AR.canonical("grand-slam=b") == "abapa" and AR.parse_rules("grand-slam=b") is AR.ABAPA
    assert AR.canonical("abapa,grand-slam=e") == "paper"
    assert AR.canonical(" olympiad-1990 , repetition=draw ") == "paper,grand-slam=a,repetition=draw"


BAD_TEXTS = {
    "": "no rule set ''",
    "olympiad": "no rule set 'olympiad'",
    "grand-slam=f": "no grand-slam 'f'",
    "paper,slam=a": "'slam=a' is not an override",
    "paper,grand-slam=a,grand-slam=b": "grand-slam given twice",
    "grand-slam=a,paper": "'paper' is not an override",
    "paper,": "'' is not an override",
    "repetition=Draw": "no repetition 'Draw'",
}


@pytest.mark.parametrize("text", BAD_TEXTS)
def test_a_text_the_parser_refuses_says_what_is_accepted(text: str) -> None:
    with pytest.raises(AR.RulesError) as caught:
        AR.parse_rules(text)
    message = str(caught.value)
    assert isinstance(caught.value, ValueError) and "\n" not in message
    assert message.startswith(f"unknown Awari rules {text!r}: {BAD_TEXTS[text]}; give a named set (paper, ")
    assert "grand-slam=a|b|c|d|e repetition=own-row|uncounted|draw cannot-move=opponent-takes|player-loses" in message


# ─── The engines and the records' Rules tag ──────────────────────────────────


@pytest.mark.parametrize("rules", AR.ALL_COMBINATIONS, ids=lambda r: r.name)
def test_every_engine_kind_takes_a_combination_or_its_text(rules: AR.AwariRules) -> None:
    for kind in ("impl", "spec", "checked"):
        by_rules, by_text = get_engine("awari", kind, rules), get_engine("awari", kind, AR.canonical_name(rules))
        assert type(by_rules) is type(by_text)
        assert by_rules.legal_moves(by_rules.initial()) == by_text.legal_moves(by_text.initial())
    spec = get_engine("awari", "spec", AR.canonical_name(rules))
    assert isinstance(spec, SpecAwari) and spec.rules == rules


def test_gothello_takes_the_papers_rules_under_any_of_their_names() -> None:
    assert get_engine("gothello", "impl", "abapa,grand-slam=e").kind == "impl"
    with pytest.raises(ValueError, match="gothello has only the paper's"):
        get_engine("gothello", "impl", "paper,grand-slam=c")


@pytest.mark.parametrize("rules", AR.ALL_COMBINATIONS, ids=lambda r: r.name)
def test_the_rules_tag_reads_every_canonical_name(rules: AR.AwariRules) -> None:
    name = AR.canonical_name(rules)
    assert pgn.engine_rules("awari", name) == name
    assert pgn.engine_rules("awari", "massey") == "paper"


def test_a_rules_tag_the_parser_refuses() -> None:
    with pytest.raises(pgn.PgnError, match=r"unknown awari rules 'paper,grand-slam=z': .* no grand-slam 'z'"):
        pgn.engine_rules("awari", "paper,grand-slam=z")
    with pytest.raises(pgn.PgnError, match="unknown gothello rules 'paper,grand-slam=c'"):
        pgn.engine_rules("gothello", "paper,grand-slam=c")


# ─── The five grand-slam variants over a real socket ─────────────────────────

TO_SLAM = list("EeCbAfCeFdDaCdBcCfDbFbCeAdFaDcCeCdBeCf")
"""38 plies from the start (found by random play under the paper's rules, the same
game under every grand-slam rule); then south's F would take north's whole row."""
SLAM = A.PIT.F


def before_slam() -> A.AwariGame:
    g = A.AwariGame((4,) * 12, (0, 0), A.PLAYER.south, frozenset())
    for token in TO_SLAM:
        g = AR.referee(AR.PAPER, g, A.PIT[token])[1]
    return g


def test_the_sequence_reaches_a_grand_slam_the_five_rules_treat_apart() -> None:
    g = before_slam()
    sown, last = A.Sow(A.θAwariBoard(g), SLAM)
    assert g.to_move is A.PLAYER.south and AR.wipes_out(sown, last)
    assert len(A.Capture_corrected(sown, last)[1]) >= 2  # (c) and (d) differ from (b) and (e)
    verdicts = {AR.referee(AR.parse_rules(f"grand-slam={gs.value}"), g, SLAM) for gs in AR.GrandSlamRule}
    assert len(verdicts) == 5


def expected_lines(result: R.win[A.PLAYER] | R.Constant) -> tuple[str, str | None]:
    """The mover's reply and the status line for south's F, 20th move (docs/protocol.md §7)."""
    if result == R.illegal_move:
        return "291 Illegal move F", None
    if result == R.not_done:
        return "200 Move F accepted, continue playing", "311 20 F is south move, game continues"
    words: dict[object, tuple[str, str, str]] = {
        R.win(A.PLAYER.south): ("201", "You win", "wins"),
        R.win(A.PLAYER.north): ("202", "You lose", "loses"),
    }
    code, mine, all_ = words.get(result, ("203", "You draw", "draws"))
    status = {"201": "321", "202": "322", "203": "325"}[code]
    return f"{code} Move F accepted, {mine}", f"{status} 20 F and south {all_}"


def serve_args(*argv: str) -> Any:
    return cli.build_parser().parse_args(["serve", "awari", "--host", "127.0.0.1", "--port", "0", *argv])


@pytest.mark.parametrize("gs", [g.value for g in AR.GrandSlamRule])
def test_each_grand_slam_variant_is_refereed_by_the_spec_over_a_socket(gs: str, tmp_path: Path) -> None:
    """``referee serve awari --rules paper,grand-slam=X`` (parsed by the CLI's parser,
    served over 127.0.0.1): the two players and an observer play the 38 plies, south
    tries F; the reply, the status, the observer's board and the record replayed by
    its Rules tag are the spec's verdict for that variant."""
    rules = AR.parse_rules(f"paper,grand-slam={gs}")
    result, after = AR.referee(rules, before_slam(), SLAM)
    reply_wanted, status_wanted = expected_lines(result)
    (game_server,) = serve_cli.build_servers(serve_args("--rules", f"paper,grand-slam={gs}", "--record", str(tmp_path)))

    async def scenario() -> tuple[str, str, list[str]]:
        await game_server.start()
        try:
            players = await seat_players(game_server.port, "awari")
            observer, _ = await seat(game_server.port, "0.9.1 observer")
            await watch(observer)
            await play_moves(players, TO_SLAM, (observer,))
            reply, status = await ply(players, 0, 20, SLAM.name)
            board = [] if not status or await observer.line() != status else await read_display(observer)
            if result in (R.illegal_move, R.not_done):  # end the game, so that its record is written
                await players[0].send("resign")
                assert (await players[0].expect(204)).startswith("204")
            for client in (*players, observer):
                await client.close()
            return reply, status, board
        finally:
            await game_server.stop()

    reply, status, board = run(scenario)
    assert reply == reply_wanted and (status or None) == status_wanted
    (record,) = tmp_path.glob("*.pgn")
    game = pgn.parse(record.read_text())
    assert game.tag("Rules") == ("massey" if rules == AR.PAPER else rules.name) and not game.tag(pgn.UNCHECKED)
    assert pgn.engine_rules("awari", game.tag("Rules")) == rules.name
    if result != R.illegal_move:
        drawn = render_awari(after.board, after.score, after.to_move)
        assert board[2:] == drawn
        assert [p.move for p in game.plies] == [*TO_SLAM, SLAM.name]
        assert len(list(replay.frames(game))) == len(TO_SLAM) + 2  # replayed to the end under its Rules tag
        engine = get_engine("awari", "impl", pgn.engine_rules("awari", game.tag("Rules")))
        state = engine.initial()
        for p in game.plies:
            state = engine.apply(state, A.PIT[p.move])[1]
        assert engine.render(state) == drawn
    else:
        assert [p.move for p in game.plies] == TO_SLAM


# ─── The greeting, the client library and the CLIs, as real processes ─────────


def referee(*argv: str) -> subprocess.Popen[str]:
    command = [sys.executable, "-m", "impl.cli", *argv]
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_the_greeting_names_the_combination_and_clients_adopt_it() -> None:
    """``referee serve awari --rules grand-slam=c,repetition=draw`` greets with the
    canonical name; the client library takes any text naming the same rules and
    refuses another."""
    proc = referee("serve", "awari", "--rules", "repetition=draw,grand-slam=c", "--host", "127.0.0.1", "--port", "0")
    try:
        assert proc.stderr is not None
        port = json.loads(proc.stderr.readline())["port"]

        async def greeting() -> str:
            client = await Client.connect(port)
            line = await client.line()
            await client.close()
            return line

        line = run(greeting)
        assert line == "000 0.9.1 version Awari server says hello! Rules: paper,grand-slam=c,repetition=draw"
        assert P.parse(line) == P.Greeting("0.9.1", "Awari", "paper,grand-slam=c,repetition=draw")
        client = connect("awari", port, rules="olympiad-1990,repetition=draw,grand-slam=c")
        assert client.rules == "paper,grand-slam=c,repetition=draw"
        assert isinstance(client.engine, RulesAwari)  # its legal moves are the announced set's
        assert client.engine.rules == AR.parse_rules("grand-slam=c,repetition=draw")
        client.close()
    finally:
        proc.kill()
        proc.wait()


def test_a_client_refuses_a_server_playing_another_combination() -> None:
    with server("awari", rules="grand-slam=d") as local:
        with pytest.raises(ProtocolError, match="plays the paper,grand-slam=d rules, not paper,grand-slam=c"):
            connect("awari", local.port, rules="paper,grand-slam=c")
        assert connect("awari", local.port, rules="paper,grand-slam=d").rules == "paper,grand-slam=d"


def test_a_server_announcing_rules_the_parser_refuses_is_a_protocol_error() -> None:
    from tests.support.clientkit import FakeServer

    def script(sock: Any, line: Any) -> None:
        sock.sendall(b"000 0.9.1 version Awari server says hello! Rules: paper,grand-slam=z\r\n")

    fake = FakeServer(script)
    with pytest.raises(ProtocolError, match="no grand-slam 'z'"):
        connect("awari", fake.port)


USAGE = [
    ["serve", "awari", "--rules", "paper,grand-slam=z"],
    ["match", "random", "random", "--game", "awari", "--rules", "paper,grand-slam=z"],
    ["tournament", "random", "random", "--game", "awari", "--rules", "paper,grand-slam=z"],
]


@pytest.mark.parametrize("argv", USAGE, ids=[a[0] for a in USAGE])
def test_an_unknown_value_is_one_line_and_exit_status_2(argv: list[str]) -> None:
    proc = referee(*argv)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 2 and out == ""
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert err.startswith(f"referee {argv[0]}: error: argument --rules: unknown Awari rules 'paper,grand-slam=z': ")
    assert "no grand-slam 'z'" in err


def test_a_combination_on_the_command_line_reaches_the_server() -> None:
    (one,) = serve_cli.build_servers(serve_args("--rules", "olympiad-1994,repetition=own-row"))
    assert one.engine.rule_set == "paper,grand-slam=a,cannot-move=player-loses"
    assert isinstance(one.engine, RulesAwari)
    assert one.engine.rules == AR.parse_rules("grand-slam=a,cannot-move=player-loses")


def test_the_exhaustive_proof_takes_any_rule_set_text() -> None:
    from proofs.awari import exhaustive_rules

    assert exhaustive_rules.rule_set("paper,grand-slam=c") == AR.parse_rules("grand-slam=c")
    assert exhaustive_rules.rule_set("d/draw/player-loses").name == "d/draw/player-loses"
    with pytest.raises(argparse.ArgumentTypeError, match=r"no grand-slam 'z'.*such as d/draw/player-loses"):
        exhaustive_rules.rule_set("grand-slam=z")


def test_the_equivalence_proof_takes_any_rule_set_text(capsys: pytest.CaptureFixture[str]) -> None:
    from proofs import equivalence

    with pytest.raises(SystemExit) as caught:
        equivalence.main(["awari", "--rules", "grand-slam=z"])
    assert caught.value.code == 2
    assert "argument --rules: unknown Awari rules 'grand-slam=z': no grand-slam 'z'" in capsys.readouterr().err
