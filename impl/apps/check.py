"""``referee check TRANSCRIPT…``: replay transcripts (``referee serve --transcript``)
against the protocol's model (spec/protocol.py), the moves judged by the rules engine."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from impl.cli import subcommand
from impl.server.transcript import BadTranscript, check_file


def add_command(subparsers: Any) -> None:
    p = subcommand(subparsers, "check", run)
    p.add_argument("transcripts", nargs="+", type=Path, metavar="TRANSCRIPT")


def run(args: argparse.Namespace) -> int:
    """check game transcripts against the protocol's model

    Replay each transcript written by referee serve --transcript DIR against the
    executable model of the papers' protocol (spec/protocol.py), every move judged by
    the rules engine. Prints, per file, OK or the first line that differs and what the
    model allowed there. Exit status 0 if all are OK, 1 if one differs, 2 if a file is
    unreadable or no transcript.
    """
    status = 0
    for path in args.transcripts:
        try:
            verdict = check_file(path)
        except (OSError, BadTranscript) as exc:
            print(f"referee check: {path}: {getattr(exc, 'strerror', None) or exc}")
            return 2
        print(f"{path}: {verdict.message}")
        if not verdict.ok:
            status = 1
    return status
