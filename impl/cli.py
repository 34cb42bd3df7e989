"""The ``referee`` console script: ``referee COMMAND …``, one subcommand per module.

A subcommand lives in its own module, which defines ``add_command(subparsers)``:
it adds its parser to ``subparsers`` (an argparse sub-parsers action) with
``subcommand``, which takes the command's ``run`` — a callable from the parsed
arguments to an exit status — and reads the command's help from ``run``'s docstring.
To add one, list its module in COMMAND_MODULES.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import importlib
import inspect
import math
import os
import re
import shlex
import signal
import sys
from collections.abc import Callable, Iterator, Sequence
from importlib.metadata import PackageNotFoundError, requires, version
from pathlib import Path
from typing import Any, TypeVar

from .game import PAPER_RULES, GameRulesError, rules_name

N = TypeVar("N", int, float)

COMMANDS: dict[str, tuple[str, str]] = {
    "serve": ("impl.apps.serve", "run"),
    "player": ("impl.players.cli", "run"),
    "match": ("impl.apps.match", "run"),
    "tournament": ("impl.apps.tournament.command", "run"),
    "arena": ("impl.apps.arena.command", "run"),
    "replay": ("impl.apps.replay", "run_replay"),
    "show": ("impl.apps.replay", "run_show"),
    "watch": ("impl.apps.watch", "run"),
    "client": ("impl.apps.terminal", "run_client"),
    "play": ("impl.apps.terminal", "run_play"),
    "spec": ("impl.apps.animate", "run"),
    "check": ("impl.apps.check", "run"),
    "compliance": ("impl.apps.compliance", "run"),
    "tablebase": ("impl.apps.tablebase", "run"),
    "analyse": ("impl.apps.analyse", "run"),
}
"""Each subcommand's module (in COMMAND_MODULES) and ``run`` function, in the order
they are listed: ``main`` imports only the module of the command asked for, and
lists the others by their ``run``'s docstring, read without importing them
(tests/test_usage.py checks this table against what the modules add)."""

COMMAND_MODULES: list[str] = [
    "impl.apps.serve",  # referee serve
    "impl.players.cli",  # referee player
    "impl.apps.match",  # referee match
    "impl.apps.tournament",  # referee tournament
    "impl.apps.arena",  # referee arena
    "impl.apps.replay",  # referee replay, referee show
    "impl.apps.watch",  # referee watch
    "impl.apps.terminal",  # referee client, referee play
    "impl.apps.animate",  # referee spec
    "impl.apps.check",  # referee check
    "impl.apps.compliance",  # referee compliance
    "impl.apps.tablebase",  # referee tablebase
    "impl.apps.analyse",  # referee analyse
]


class UsageError(SystemExit):
    """A usage error found after parsing: ``main`` prints its one line and exits 2."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class Parser(argparse.ArgumentParser):
    """argparse with a one-line error: ``referee serve: error: …``, exit status 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {message} (see --help)\n")

    def parse_args(self, args: Sequence[str] | None = None, namespace: Any = None) -> Any:  # type: ignore[override]
        """argparse's, but an unknown option is named by the subcommand it was given to
        (``referee match: error: unrecognized arguments: …``), not by ``referee``."""
        words = list(sys.argv[1:] if args is None else args)
        parsed, extras = self.parse_known_args(words, namespace)
        if extras:
            command = _command_asked(words)
            prog = f"{self.prog} {command}" if command else self.prog
            self.exit(2, f"{prog}: error: unrecognized arguments: {' '.join(extras)} (see --help)\n")
        return parsed


def _check(ok: bool, text: str, what: str) -> None:
    if not ok:
        raise argparse.ArgumentTypeError(f"{text!r} is not {what}")


def _float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    _check(math.isfinite(value), text, "a finite number")
    return value


def _int(text: str) -> int:
    _check(text.strip().lstrip("+-").isdigit(), text, "a whole number")
    return int(text)


def _valid(convert: Callable[[str], N], ok: Callable[[N], bool], what: str) -> Callable[[str], N]:
    """An argparse type: ``convert``, then refuse what is not ``ok`` as not ``what``."""

    def check(text: str) -> N:
        value = convert(text)
        _check(ok(value), text, what)
        return value

    check.__name__ = what  # argparse names the type in its messages
    return check


def whole_within(low: int, high: int, what: str) -> Callable[[str], int]:
    """An argparse type: a whole number from ``low`` to ``high`` (``what`` it is)."""
    return _valid(_int, lambda v: low <= v <= high, f"{what} from {low} to {high}")


seconds = _valid(_float, lambda v: v > 0, "a positive number of seconds")
bound = _valid(_float, lambda v: v >= 0, "a number of seconds >= 0")
"""A bound in seconds; 0: no bound."""
count = _valid(_int, lambda v: v >= 0, "a whole number >= 0")
positive = _valid(_int, lambda v: v >= 1, "a whole number >= 1")
prefix_bits = _valid(_int, lambda v: 0 <= v <= 32, "an IPv4 prefix length from 0 to 32")
port = _valid(_int, lambda v: 0 <= v <= 65535, "a port (0-65535)")


def failed(command: str, message: str, status: int = 1) -> int:
    """Say why ``command`` failed, on one line of stderr (``referee tournament: …``),
    and give back the exit status to return."""
    print(f"{command}: {message}", file=sys.stderr)
    return status


def rules_text(text: str) -> str:
    """An argparse type: the canonical name of the Awari rule set ``text`` names
    (impl/game.py ``rules_name``: a named set and/or overrides; docs/rules.md) — the
    command line's one reading of it."""
    from spec.awari_rules import RulesError

    try:
        return rules_name("awari", text)
    except RulesError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def add_rules_argument(p: argparse.ArgumentParser, default: str | None = PAPER_RULES) -> None:
    """``--rules RULES``: the Awari rule set (spec/awari_rules.py), as its canonical
    name.  A server's default is the papers'; a client's (``default`` None) is whichever
    the server announces."""
    what = f"default {PAPER_RULES}, the papers' rules" if default else "default: the one the server announces"
    p.add_argument(
        "--rules",
        type=rules_text,
        default=default,
        metavar="RULES",
        help=f"Awari rule set: a named set and/or overrides, e.g. paper,grand-slam=c ({what}; docs/rules.md)",
    )


def check_rules(command: str, game: str, rules: str | None) -> None:
    """Gothello has one rule set (impl/game.py ``rules_name`` decides): another is a
    usage error.  None: a client's, the one the server announces."""
    try:
        rules_name(game, rules or PAPER_RULES)
    except GameRulesError:
        raise UsageError(f"{command}: --rules {rules} is for Awari; Gothello has only the paper's rules") from None


def package_version() -> str:
    try:
        return version("zreferee")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "unknown"


def install_hint(extra: str, root: Path | None = None) -> str:
    """How to install an optional extra (pyproject.toml's ``[project.optional-dependencies]``):
    from the checkout this runs from, ``pip install -e 'ROOT[extra]'``; from an installed
    wheel (the package is on no index), its requirements themselves."""
    root = Path(__file__).resolve().parents[1] if root is None else root
    if (root / "pyproject.toml").is_file():
        return f"pip install -e {shlex.quote(f'{root}[{extra}]')}"
    try:
        wanted = [r for r in (requires("zreferee") or []) if f'extra == "{extra}"' in r.replace("'", '"')]
    except PackageNotFoundError:
        wanted = []
    packages = [r.split(";")[0].strip() for r in wanted]
    return "pip install " + " ".join(shlex.quote(p) for p in packages) if packages else f"the {extra} extra"


def subcommand(
    subparsers: Any, name: str, run: Callable[[argparse.Namespace], int], epilog: str | None = None
) -> argparse.ArgumentParser:
    """``referee NAME``, which calls ``run``: the first line of ``run``'s docstring is the
    command's one-line help, the rest its description (so the help is written once,
    beside the code it describes)."""
    summary, _, rest = inspect.cleandoc(run.__doc__ or name).partition("\n")
    description = " ".join(rest.split()) or summary
    parser: argparse.ArgumentParser = subparsers.add_parser(name, help=summary, description=description, epilog=epilog)
    parser.set_defaults(run=run)
    return parser


@contextlib.contextmanager
def quiet_on_a_closed_pipe() -> Iterator[None]:
    """While a command prints (``--list | head``), a reader that stops early ends it
    as Unix tools end, by SIGPIPE, with no traceback.  The handler is restored after:
    a caller in the same process (a test, a server) keeps Python's default, in which a
    closed socket raises EPIPE instead of killing the process."""
    previous = signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    try:
        yield
    finally:
        signal.signal(signal.SIGPIPE, previous)


def build_parser(modules: Sequence[str] = COMMAND_MODULES, only: str | None = None) -> argparse.ArgumentParser:
    """The whole command line; with ``only`` (a command's name), that command's module
    alone is imported and the others are listed by name and summary (``COMMANDS``):
    ``referee --version`` or ``referee check …`` does not import the server."""
    parser = Parser(prog="referee", description="Referee for Awari and Gothello (both papers).")
    parser.add_argument("--version", action="version", version=f"referee {package_version()}")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    wanted = COMMANDS[only][0] if only in COMMANDS else ""
    for name in modules:
        listed = [command for command, (module, _) in COMMANDS.items() if _within(module, name)]
        if only is None or _within(wanted, name) or not listed:
            importlib.import_module(name).add_command(subparsers)
            continue
        for command in listed:
            subparsers.add_parser(command, help=_summary(*COMMANDS[command]))
    return parser


def _within(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


@functools.cache
def _source(module: str) -> str:
    path = Path(__file__).resolve().parents[1].joinpath(*module.split(".")).with_suffix(".py")
    return path.read_text(encoding="utf-8")


def _summary(module: str, function: str) -> str:
    """A command's one-line help as ``subcommand`` takes it, the first line of ``run``'s
    docstring, found in its module's source (a tenth of the time of parsing it)."""
    found = re.search(rf'^def {function}\(.*?\).*?:\n\s+"""\s*(.*?)\s*(?:\n|""")', _source(module), re.M | re.S)
    return found.group(1) if found else function


def _command_asked(argv: Sequence[str]) -> str | None:
    """The subcommand's name: the first word (the top level has no option taking a value)."""
    return argv[0] if argv and argv[0] in COMMANDS else None


def main(argv: Sequence[str] | None = None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    if words == ["--version"]:  # argparse's answer, without building every subcommand's parser
        print(f"referee {package_version()}")
        return 0
    args = build_parser(only=_command_asked(words) or "").parse_args(words)
    try:
        status: int = args.run(args)
        sys.stdout.flush()
    except UsageError as exc:
        print(exc.message, file=sys.stderr)
        return 2
    except BrokenPipeError:
        # The reader stopped early (``referee show … | head``): end quietly, as Unix tools
        # do, with SIGPIPE's status.  SIGPIPE itself stays ignored: the server's sockets
        # must raise EPIPE, not kill the process.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 128 + signal.SIGPIPE
    return status


if __name__ == "__main__":  # through the module, so that its UsageError is the one the commands raise
    from impl.cli import main as _main

    raise SystemExit(_main())
