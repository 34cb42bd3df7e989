"""What makes a tournament (``TournamentConfig``): its players and their labels, the game and its terms,
the openings; and the run's one failure that stops it (``RecordFailed``)."""

from __future__ import annotations

import argparse
import re
import shlex
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import PurePath
from typing import Any

from impl.apps.tbadjudge import GothelloEndgameRule, TablebaseRule
from impl.apps.terms import Adjudication, GameTerms
from impl.cli import UsageError
from impl.config import time_control
from impl.engines.openings import Opening
from impl.players import PLAYERS
from impl.protocol import VOCABULARIES, TimeControl

ROUND_ROBIN, GAUNTLET = "round-robin", "gauntlet"


CONFIG = "tournament.json"


class RecordFailed(Exception):
    """A game's record could not be written (a full disk, …): the tournament stops."""


@dataclass(frozen=True)
class TournamentConfig(GameTerms):
    """What makes a tournament: a records directory holds the games of one.  The
    terms of its games (clocks, timeout, engine, rules) are keywords (``GameTerms``)."""

    players: tuple[str, ...]
    """The player specs as given."""
    game: str
    games: int
    """Games per pairing."""
    mode: str = ROUND_ROBIN
    event: str = "referee tournament"
    openings: tuple[Opening, ...] = ()
    """The openings the referee plays first, in the order used (impl/engines/openings.py)."""
    repeat: bool = False
    """Each opening twice, colours reversed (``--repeat``); else one game each."""
    time_for: tuple[tuple[str, TimeControl], ...] = ()
    """``--time-for LABEL SECS[+INC]``: the players (by label) whose clock is their
    own, whichever side they play; the others' is ``--time``'s for their side."""

    def clocks(self, first: int, second: int) -> tuple[tuple[float, float] | None, tuple[float, float]]:
        """The clocks (seconds, increments) of a game of players ``first`` and
        ``second`` (indices, first mover first)."""
        own = dict(self.time_for)
        if not own:
            return self.time, self.increment
        controls = []
        for side, player in enumerate((first, second)):
            control = own.get(split_label(self.players[player])[0])
            if control is None:
                assert self.time is not None, "time_for_of: every player has a clock"
                control = TimeControl(self.time[side], self.increment[side])
            controls.append(control)
        return (controls[0].seconds, controls[1].seconds), (controls[0].increment, controls[1].increment)

    @property
    def labels(self) -> list[str]:
        """The players' names in tables and records: their labels or specs, made distinct."""
        seen: Counter[str] = Counter()
        out = []
        for text in self.players:
            name = split_label(text)[0]
            seen[name] += 1
            out.append(name if seen[name] == 1 else f"{name} ({seen[name]})")
        return out

    @property
    def specs(self) -> list[str]:
        return [split_label(text)[1] for text in self.players]


LABEL = re.compile(r"([^\s=]+)=(\S.*)", re.DOTALL)


def add_time_for_argument(p: Any) -> None:
    """``--time-for LABEL SECS[+INC]`` (repeatable): one player's own clock (fastchess's ``tc=``)."""
    p.add_argument(
        "--time-for",
        nargs=2,
        action="append",
        default=[],
        metavar=("LABEL", "SECS[+INC]"),
        help="the player LABEL's own time control, on either side (repeatable; the others get --time's)",
    )


def time_for_of(args: argparse.Namespace, labels: Iterable[str], what: str) -> tuple[tuple[str, TimeControl], ...]:
    """``--time-for``'s pairs, checked: known labels, once each, valid controls, and
    ``--time`` for the players without one."""
    names = list(labels)
    found: dict[str, TimeControl] = {}
    for label, text in args.time_for:
        if label not in names:
            raise UsageError(f"{what}: --time-for: no player labelled {label!r}")
        if label in found:
            raise UsageError(f"{what}: --time-for: {label!r} given twice")
        try:
            found[label] = time_control(text)
        except argparse.ArgumentTypeError as exc:
            raise UsageError(f"{what}: --time-for {label}: {exc}") from None
    if found and args.time is None and any(name not in found for name in names):
        raise UsageError(f"{what}: --time-for for some players only needs --time for the others")
    return tuple(found.items())


def split_label(text: str) -> tuple[str, str]:
    """``LABEL=SPEC`` names a player ``LABEL`` (a word before the first ``=``);
    otherwise its name is made from its spec (``program_label``)."""
    match = LABEL.fullmatch(text)
    return (match[1], match[2]) if match else (program_label(text), text)


INTERPRETERS = re.compile(
    r"(python[\d.]*|pypy[\d.]*|node|nodejs|deno|bun|ruby|perl|php|java|lua|sh|bash|Rscript|env|nice|stdbuf|time|exec)"
)
"""Programs that run the program named after them (interpreters, wrappers): that one names the player."""


def program_label(spec: str) -> str:
    """A player's name when none is given (issue #53): one of ours by its spec
    (``random``, ``search --depth 6``: short, and its options tell players apart);
    a command line by its program, its script's or binary's name without folder or
    suffix (``{python} examples/first_player.py {game} {port}`` is ``first_player``,
    ``./raw_player {port}`` is ``raw_player``, ``python -m pkg.bot`` is ``pkg.bot``; inline
    code, ``python -c …``, its command line)
    — the whole command line in the tables and Elo lines read as noise, cut short."""
    try:
        words = shlex.split(spec)
    except ValueError:
        return spec
    if not words or words[0] in PLAYERS:
        return spec
    for i, word in enumerate(words):
        if word == "-m" and i + 1 < len(words):
            return words[i + 1]
        if word in ("-c", "-e"):  # inline code: no program's name to give
            return spec
        name = PurePath(word).name
        if word.startswith(("-", "{")) or "=" in word or INTERPRETERS.fullmatch(name):
            continue  # an option, a placeholder ({python}), an environment setting, an interpreter
        return PurePath(name).stem or name
    return spec


def settings(config: TournamentConfig, adjudication: Adjudication | None = None, jobs: int | None = None) -> list[str]:
    """The run's settings in a few lines (cutechess-cli's settings summary; issue #53),
    printed at its start and shown on its web page: the game and its rules, the
    clocks, the openings and the adjudication."""
    sides = VOCABULARIES[config.game].sides
    rules = f", rules {config.rules}" if config.game == "awari" else ""
    at_once = f", {jobs} at once" if jobs and jobs > 1 else ""
    lines = [
        f"Settings: {config.game}{rules}, engine {config.engine}; {config.mode} of {len(config.players)} players, "
        f"{config.games} games per pairing{at_once}"
    ]
    if config.time is None:
        clock = "no clock"
    else:
        controls = [TimeControl(config.time[i], config.increment[i]) for i in (0, 1)]
        clock = (
            f"{controls[0]} s a side"
            if controls[0] == controls[1]
            else (f"{sides[0]} {controls[0]} s, {sides[1]} {controls[1]} s")
        )
    own = "".join(f"; {label} {control} s" for label, control in config.time_for)
    lines.append(f"Time: {clock}{own}; a game at most {config.timeout:g} s")
    if config.openings:
        twice = ", each twice, colours reversed" if config.repeat else ""
        lines.append(f"Openings: {len(config.openings)}{twice}")
    else:
        lines.append("Openings: none (every game from the start)")
    lines.append(f"Adjudication: {adjudication_words(adjudication)}")
    return lines


def adjudication_words(rules: Adjudication | None) -> str:
    """The adjudication rules in force, in words ("none" when off)."""
    if rules is None:
        return "none"
    found = []
    if rules.max_plies is not None:
        found.append(f"a draw after {rules.max_plies} plies (--max-plies)")
    if rules.margin is not None:
        found.append(f"a win ahead by {rules.margin} or more for {rules.plies} plies (--resign-margin)")
    table = rules.tablebase
    if isinstance(table, TablebaseRule):
        found.append(f"perfect play by the {table.rules} table of ≤ {table.stones} stones (--tb)")
    elif isinstance(table, GothelloEndgameRule):
        found.append(f"perfect play within {table.empties} empty points (--tb-empties)")
    return "; ".join(found) or "none"
