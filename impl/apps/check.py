"""``referee check TRANSCRIPT…``: replay transcripts (``referee serve --transcript``)
against the protocol's model (spec/protocol.py), the moves judged by the rules engine."""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path
from typing import Any

from impl.atomic import read_bounded, why
from impl.cli import subcommand
from impl.game import GameRulesError, rules_name
from impl.server.transcript import BadTranscript, Event, TranscriptCheck, check_events, parse
from spec.awari_rules import RulesError

MAX_TRANSCRIPT = 64 << 20
"""The largest transcript read (64 MiB; docs/protocol-model.md): a game's lines both
ways, 64 observers' included, come to a few megabytes."""
MAX_WORK = 50_000_000
"""The most connection-events checked: each event costs the model (spec/protocol.py,
a tuple of connections) work in the connections open at that time, so their sum bounds
the check (docs/protocol-model.md).  A game with 64 observers comes to a few million."""


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
            verdict = check(path)
        except (OSError, BadTranscript) as exc:
            reason = why(exc).removeprefix(f"{exc.filename}: ") if isinstance(exc, OSError) else str(exc)
            print(f"referee check: {path}: {reason}", file=sys.stderr)
            return 2
        print(f"{path}: {verdict.message}")
        if not verdict.ok:
            status = 1
    return status


def check(path: Path) -> TranscriptCheck:
    """The transcript at ``path`` checked; ``OSError`` (``read_bounded``: missing, not a
    regular file, over ``MAX_TRANSCRIPT``) or ``BadTranscript`` if it cannot be (issue #49)."""
    try:
        text = read_bounded(path, MAX_TRANSCRIPT).decode("utf-8")
    except UnicodeDecodeError:
        raise BadTranscript("not UTF-8") from None
    try:
        setup, events = parse(text.splitlines())
    except RecursionError:  # json's, on a line of thousands of nested brackets
        raise BadTranscript("JSON nested too deep: not a transcript") from None
    try:
        rules_name(setup.game, setup.rules)  # the engine the check builds would refuse it with a traceback
    except (RulesError, GameRulesError) as exc:
        raise BadTranscript(f"line 1: bad header ({exc})") from None
    if not all(math.isfinite(s) for s in (*(setup.time or ()), *setup.increment)):
        raise BadTranscript("line 1: bad header (a time or increment not finite)")  # the model counts whole seconds
    work = connection_events(events)
    if work > MAX_WORK:
        raise BadTranscript(f"too large to check: {work:,} connection-events (at most {MAX_WORK:,})")
    return check_events(setup, events)


def connection_events(events: list[Event]) -> int:
    """The sum, over the events, of the connections open at each: what checking
    them costs the model."""
    open_: set[int] = set()
    work = 0
    for ev in events:
        if ev.direction == "open":
            open_.add(ev.conn)
        elif ev.direction in ("close", "leave"):
            open_.discard(ev.conn)
        work += len(open_)
    return work
