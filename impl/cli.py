"""The ``referee`` console script: ``referee COMMAND …``, one subcommand per module.

A subcommand lives in its own module, which defines ``add_command(subparsers)``:
it adds its parser to ``subparsers`` (an argparse sub-parsers action) and sets
``run`` — a callable from the parsed arguments to an exit status — with
``set_defaults(run=…)``.  To add one, list its module in COMMAND_MODULES.
"""

from __future__ import annotations

import argparse
import importlib
from collections.abc import Sequence

COMMAND_MODULES: list[str] = [
    "impl.server.cli",  # referee serve
    "impl.players.cli",  # referee player
    "impl.match",  # referee match
    "impl.terminal",  # referee client, referee play
    "impl.animate",  # referee spec
]


def build_parser(modules: Sequence[str] = COMMAND_MODULES) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="referee", description="Referee for Awari and Gothello (both papers).")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in modules:
        importlib.import_module(name).add_command(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    status: int = args.run(args)
    return status


if __name__ == "__main__":
    raise SystemExit(main())
