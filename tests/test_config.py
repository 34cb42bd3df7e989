"""One configuration (impl/config.py): ``referee serve``'s flags take their defaults
from it and build it; a private server is one of it; the session's and the
server's settings are read from it (issue #31)."""

from __future__ import annotations

import argparse
from dataclasses import replace
from pathlib import Path

import pytest

from impl import cli
from impl import protocol as P
from impl.config import CONFIG_MESSAGES, DEFAULTS, Config, ConfigMessages, Limits, NetLimits, OnDivergence
from impl.server.local import LocalServer
from impl.server.server import ServerConfig
from impl.server.session import Settings


def _parse(*argv: str) -> argparse.Namespace:
    return cli.build_parser().parse_args(["serve", *argv])


def test_the_flags_defaults_are_the_configurations() -> None:
    """``referee serve awari`` with no flags is ``DEFAULTS`` for Awari alone: every
    default is stated once, in impl/config.py."""
    assert Config.from_args(_parse("awari")) == replace(DEFAULTS, games=("awari",))
    assert Config.from_args(_parse("all")).games == ("awari", "gothello") == DEFAULTS.games


def test_every_flag_reaches_the_configuration(tmp_path: Path) -> None:
    args = _parse(
        "gothello", "--server", "2", "5", "--forever", "--engine", "spec", "--on-divergence", "abort",
        "--time", "30+1", "20", "--record", str(tmp_path), "--opening", "c3 d4", "--host", "127.0.0.2",
        "--port", "0", "--config-messages", "none", "--max-observers", "3", "--max-connections", "9",
        "--per-address", "4", "--ipv4-group", "24", "--seat-timeout", "1", "--idle-timeout", "2", "--wait-timeout", "3",
        "--line-timeout", "4", "--web", "0", "--web-host", "127.0.0.3", "--log-level", "debug",
    )  # fmt: skip
    assert Config.from_args(args) == Config(
        games=("gothello",),
        servers=(2, 5),
        forever=True,
        engine="spec",
        on_divergence=OnDivergence.ABORT,
        time=(30.0, 20.0),
        increment=(1.0, 0.0),
        record_dir=tmp_path,
        opening="c3 d4",
        host="127.0.0.2",
        port=0,
        config_messages=ConfigMessages.NONE,
        limits=Limits(max_observers=3, seat_timeout=1.0, idle_timeout=2.0, wait_timeout=3.0),
        net=NetLimits(line_timeout=4.0, max_connections=9, per_address=4, ipv4_group=24),
        web=0,
        web_host="127.0.0.3",
        log_level="debug",
    )


def test_quiet_is_the_warning_level_and_one_time_is_both_players() -> None:
    config = Config.from_args(_parse("awari", "--quiet", "--log-level", "debug", "--time", "7"))
    assert config.log_level == "warning" and config.time == (7.0, 7.0)


def test_three_times_are_a_usage_error() -> None:
    with pytest.raises(cli.UsageError, match=r"^referee serve: --time takes one or two time controls"):
        Config.from_args(_parse("awari", "--time", "1", "2", "3"))


@pytest.mark.parametrize("text", ["0", "0+1", "5+", "+2", "5+-1", "five", "5:3"])
def test_a_time_control_is_secs_or_secs_plus_inc(text: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit:
        _parse("awari", "--time", text)
    assert exit.value.code == 2 and "is not SECS or SECS+INC" in capsys.readouterr().err
    assert Config.from_args(_parse("awari", "--time", "300+2.5")).increment == (2.5, 2.5)


def test_each_game_gets_its_configuration_messages_and_rules() -> None:
    config = Config(rules="abapa")
    assert [config.messages_for(g) for g in P.VOCABULARIES] == [CONFIG_MESSAGES[g] for g in P.VOCABULARIES]
    assert config.rules_for("awari") == "abapa" and config.rules_for("gothello") == "paper"
    assert Config(config_messages=ConfigMessages.NONE).messages_for("awari") is ConfigMessages.NONE
    assert Config(web_host=None, host="::1").web_address == "::1"
    assert Config(web_host="127.0.0.9").web_address == "127.0.0.9"


def test_the_session_and_server_settings_are_read_from_it(tmp_path: Path) -> None:
    config = Config(
        time=(5.0, 6.0),
        limits=Limits(max_observers=1),
        net=NetLimits(per_address=2),
        on_divergence=OnDivergence.ABORT,
        rules="abapa",
        host="127.0.0.1",
        port=0,
        forever=True,
        record_dir=tmp_path,
    )
    assert Settings.of(config, "gothello", 3) == Settings(
        P.VOCABULARIES["gothello"], 3, (5.0, 6.0), ConfigMessages.OBSERVERS, Limits(max_observers=1),
        on_divergence=OnDivergence.ABORT,
    )  # fmt: skip
    spec = ServerConfig.of(config, "awari", 1, opening=("F",))
    assert spec.settings == Settings.of(config, "awari", 1) and config.rules_for("awari") == "abapa"
    assert (spec.host, spec.port, spec.forever, spec.net, spec.record_dir) == (
        "127.0.0.1", 0, True, NetLimits(per_address=2), tmp_path,
    )  # fmt: skip
    assert spec.opening == ("F",) and spec.session_hooks == ()


def test_a_local_server_is_the_fast_engine_on_a_free_local_port() -> None:
    local = Config.local("awari", time=(1.0, 2.0))
    assert local.games == ("awari",) and local.time == (1.0, 2.0) and local.engine == "impl"
    assert (local.host, local.port, local.net.close_grace) == ("127.0.0.1", 0, 1.0)
    assert local.net == replace(DEFAULTS.net, close_grace=1.0, accept_rate=0.0)  # its clients are the caller's


def test_a_local_server_hosts_one_game() -> None:
    with pytest.raises(ValueError, match="one game"):
        LocalServer(Config(games=("awari", "gothello")))


def test_a_local_server_serves_its_configuration_over_a_socket() -> None:
    """Config.local's server on a real socket announces the rule set it was given,
    canonically (spec/awari_rules.py), and its game."""
    from impl.client import Client

    with LocalServer(Config.local("awari", rules="paper, grand-slam=d")) as local:
        assert local.port > 0
        client = Client.connect("awari", "127.0.0.1", port=local.port, timeout=10.0)
        try:
            assert client.rules == "paper,grand-slam=d"
        finally:
            client.close()
