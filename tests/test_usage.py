"""Usage errors of every ``referee`` subcommand: one line on stderr, exit status 2,
no traceback, found at start-up (before anything listens or connects)."""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import pytest

from impl import cli
from tests.support import paths

BAD = [
    ["serve", "awari", "--time", "nan"],
    ["serve", "awari", "--time", "inf"],
    ["serve", "awari", "--time", "0"],
    ["serve", "awari", "--time", "1", "2", "3"],
    ["serve", "awari", "--max-observers", "-1"],
    ["serve", "awari", "--port", "99999"],
    ["serve", "awari", "--port", "-5"],
    ["serve", "awari", "--server", "-1"],
    ["serve", "gothello", "--server", "40000"],
    ["serve", "awari", "--seat-timeout", "-1"],
    ["serve", "awari", "--idle-timeout", "nan"],
    ["serve", "awari", "--line-timeout", "x"],
    ["player", "random", "gothello", "--side", "south"],
    ["player", "search", "awari", "--budget", "0"],
    ["player", "search", "awari", "--depth", "0"],
    ["client", "gothello", "--side", "south"],
    ["client", "gothello", "--port", "99999"],
    ["play", "--time", "-3"],
    ["play", "--game", "awari", "--side", "black"],
    ["match", "random", "random", "--game", "awari", "--games", "0"],
    ["match", "random", "no-such-program-here {port}", "--game", "awari"],
    ["match", "random", "random", "--game", "awari", "--records", "/dev/null/records"],
    ["tournament", "random", "--game", "awari"],
    ["tournament", "random", "search", "--game", "chess"],
    ["tournament", "random", "search", "--game", "awari", "--games", "0"],
    ["tournament", "random", "search", "--game", "awari", "--jobs", "0"],
    ["tournament", "random", "search", "--game", "awari", "--workers", "-1"],
    ["tournament", "random", "search", "--game", "awari", "--workers", "2", "--scheduler", "tcp://h:8786"],
    ["tournament", "random", "search", "--game", "awari", "--time", "1", "2", "3"],
    ["tournament", "random", "search", "--game", "awari", "--scheduler", "foo"],
    ["tournament", "random", "search", "--game", "awari", "--scheduler", "tcp://h:99999"],
    ["tournament", "random", "search", "--game", "awari", "--time", "0"],
    ["tournament", "random", "search", "--game", "gothello", "--rules", "abapa"],
    ["tournament", "random", "search", "--game", "awari", "--rules", "nonesuch"],
    ["tournament", "random", "search", "--game", "awari", "--timeout", "nan"],
    ["tournament", "random", "no-such-program-here {port}", "--game", "awari"],
    ["tournament", "random", "", "--game", "awari"],
    ["tournament", "random", "search", "--game", "awari", "--records", "/dev/null/records"],
    ["tournament", "random", "search", "--game", "awari", "--json", "/no/such/dir/r.json"],
    ["tournament", "random", "search", "--game", "awari", "--dashboard", "--scheduler", "tcp://h:8786"],
    ["replay", "/no/such/record.pgn"],
    ["replay", "README.md"],
    ["replay", "/no/such/record.pgn", "--delay", "-1"],
    ["show", "/no/such/record.pgn", "--ply", "-1"],
    ["watch", "chess"],
    ["watch", "awari", "--port", "99999"],
    ["watch", "awari", "--server", "-1"],
    ["watch", "awari", "--server", "40000"],
    ["watch", "awari", "--name", "x" * 40],
]


def _status(argv: list[str]) -> int:
    try:
        return cli.main(argv)
    except SystemExit as exc:  # argparse's own errors
        assert isinstance(exc.code, int)
        return exc.code


@pytest.mark.parametrize("argv", BAD, ids=[" ".join(a) for a in BAD])
def test_a_usage_error_is_one_line_and_status_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert _status(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(("referee ", "referee: ")) and "Traceback" not in err, err


def test_an_unwritable_record_directory_is_found_early(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    assert _status(["serve", "awari", "--record", str(blocker / "records")]) == 2
    assert "cannot write records" in capsys.readouterr().err


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    assert _status(["--version"]) == 0
    assert capsys.readouterr().out.startswith("referee ")


def test_show_refuses_a_ply_past_the_end(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = tmp_path / "r.pgn"
    record.write_text('[Game "gothello"]\n\n1. c3 *\n')
    assert _status(["show", str(record), "--ply", "2"]) == 2
    assert capsys.readouterr().err == "referee show: --ply 2: the game has 1 plies\n"


def test_a_records_directory_of_another_tournament_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "tournament.json").write_text("{}")
    assert _status(["tournament", "random", "search", "--game", "awari", "--records", str(tmp_path)]) == 2
    assert "holds another tournament's games" in capsys.readouterr().err


def test_install_hints_work_from_a_checkout_and_from_a_wheel(tmp_path: Path) -> None:
    """From this checkout: an editable install of the extra; elsewhere (a wheel: the
    package is on no index) the extra's own requirements, read from the metadata."""
    from impl.cli import install_hint

    assert install_hint("web") == f"pip install -e '{paths.ROOT}[web]'"
    assert install_hint("web", root=tmp_path) in ("pip install 'aiohttp>=3.9,<4'", "pip install 'aiohttp<4,>=3.9'")
    assert install_hint("tournament", root=tmp_path) == "pip install 'rich>=13' 'openskill>=6'"
    assert install_hint("cluster", root=tmp_path).startswith("pip install 'dask[distributed]>=2024.1'")


def _listing(parser: argparse.ArgumentParser) -> list[tuple[str, str | None]]:
    """The subcommands as ``referee --help`` lists them: each name and its help."""
    (action,) = (a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return [(choice.dest, choice.help) for choice in action._choices_actions]


def test_the_command_table_lists_what_the_modules_add() -> None:
    """``cli.COMMANDS`` (what ``referee --help`` and ``--version`` show without importing
    the commands, issue #51) names each command, in order, with its module's own help."""
    whole = cli.build_parser()
    assert _listing(cli.build_parser(only="")) == _listing(whole)
    assert [name for name, _ in _listing(whole)] == list(cli.COMMANDS)
    for name in cli.COMMANDS:
        assert _listing(cli.build_parser(only=name)) == _listing(whole)


def test_version_and_help_import_no_command(tmp_path: Path) -> None:
    """``referee --version`` and ``--help`` import none of the commands' modules (they
    cost half a second of CPU when each imported the server, issue #51)."""
    probe = (
        "import sys, contextlib, io\nfrom impl import cli\n"
        "for argv in (['--version'], ['--help']):\n"
        "    with contextlib.suppress(SystemExit), contextlib.redirect_stdout(io.StringIO()):\n"
        "        cli.main(argv)\n"
        "print(sorted(m for m in sys.modules if m.startswith(('impl.apps', 'impl.server', 'impl.players'))))\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=paths.ROOT, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


@pytest.mark.parametrize("command", ["match", "tournament", "compliance", "serve", "analyse"])
def test_an_unknown_option_is_named_by_its_subcommand(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue #53: ``referee match: error: unrecognized arguments: --bogus``, not ``referee:``."""
    words = {"match": ["random", "random", "--game", "awari"], "tournament": ["random", "random", "--game", "awari"]}
    words |= {"compliance": ["x {port}", "--game", "awari"], "serve": ["awari"], "analyse": ["x.pgn"]}
    assert _status([command, *words[command], "--bogus"]) == 2
    assert capsys.readouterr().err == f"referee {command}: error: unrecognized arguments: --bogus (see --help)\n"
