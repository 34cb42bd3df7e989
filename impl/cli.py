"""The ``referee`` console script: ``referee COMMAND …``, one subcommand per module.

A subcommand lives in its own module, which defines ``add_command(subparsers)``:
it adds its parser to ``subparsers`` (an argparse sub-parsers action) and sets
``run`` — a callable from the parsed arguments to an exit status — with
``set_defaults(run=…)``.  To add one, list its module in COMMAND_MODULES.
"""

from __future__ import annotations

import argparse
import importlib
import math
import sys
from collections.abc import Sequence
from importlib.metadata import PackageNotFoundError, version

COMMAND_MODULES: list[str] = [
    "impl.server.cli",  # referee serve
    "impl.players.cli",  # referee player
    "impl.match",  # referee match
    "impl.terminal",  # referee client, referee play
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


def seconds(text: str) -> float:
    """A finite, positive number of seconds."""
    value = _float(text)
    if not value > 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a positive number of seconds")
    return value


def bound(text: str) -> float:
    """A finite number of seconds >= 0 (0: no bound)."""
    value = _float(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds >= 0")
    return value


def _float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"{text!r} is not a finite number")
    return value


def count(text: str) -> int:
    """A whole number >= 0."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text!r} is negative")
    return value


def positive(text: str) -> int:
    """A whole number >= 1."""
    value = count(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not at least 1")
    return value


def port(text: str) -> int:
    """A TCP port, 0–65535."""
    value = count(text)
    if value > 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port (0-65535)")
    return value


def package_version() -> str:
    try:
        return version("zreferee")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "unknown"


def build_parser(modules: Sequence[str] = COMMAND_MODULES) -> argparse.ArgumentParser:
    parser = Parser(prog="referee", description="Referee for Awari and Gothello (both papers).")
    parser.add_argument("--version", action="version", version=f"referee {package_version()}")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in modules:
        importlib.import_module(name).add_command(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        status: int = args.run(args)
    except UsageError as exc:
        print(exc.message, file=sys.stderr)
        return 2
    return status


if __name__ == "__main__":  # through the module, so that its UsageError is the one the commands raise
    from impl.cli import main as _main

    raise SystemExit(_main())
