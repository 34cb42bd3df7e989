"""``referee match PLAYER_A PLAYER_B --game G --games N``: N games between two player
programs through a real referee server, sides alternating, and the score table.

A PLAYER is one of ours by name, with its options (``random``, ``"search --budget
0.1"``), run as ``referee player NAME GAME --host H --port P --side S [options]``;
or any command line, run once per game with these placeholders replaced in its
words and the same values in its environment:

    {game}  REFEREE_GAME   awari | gothello
    {host}  REFEREE_HOST   the server's address (127.0.0.1)
    {port}  REFEREE_PORT   the game's port
    {side}  REFEREE_SIDE   the side to take: south/north, black/white
    {rules} REFEREE_RULES  the Awari rule set (``--rules``; paper by default)

The program connects to host:port, sends ``0.9.1 player <side>`` and plays one game
(docs/protocol.md).  Each game has its own server, started here, on a free
port; the runner observes it (an observer of the protocol) to learn the result.
A player's stdout and stderr go to ``--logs DIR`` (or are dropped); a line
``summary: moves=… nodes=… seconds=… depths=…`` in its stderr (the search player
writes one) adds its speed and depth to the table.
"""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from impl import pgn
from impl.cli import UsageError, add_rules_argument, check_rules, positive, seconds, subcommand
from impl.client import Client, ClientError, ClientTimeout, Result
from impl.client.local import LocalServer, ServerOptions
from impl.engine import KINDS
from impl.engines import get_engine
from impl.openings import ORDERS, Opening, OpeningError, nth_opening, ordered, random_openings, read_openings
from impl.players import PLAYERS
from impl.protocol import VOCABULARIES
from impl.server.session import OnDivergence

HOST = "127.0.0.1"
SIDES = {game: v.sides for game, v in VOCABULARIES.items()}
PLACEHOLDERS = ("game", "host", "port", "side", "rules")


@dataclass(frozen=True)
class PlayerSpec:
    """A player program: its label in the table and its command line template."""

    label: str
    template: tuple[str, ...]

    @classmethod
    def parse(cls, text: str) -> PlayerSpec:
        words = shlex.split(text)
        if not words:
            raise ValueError("an empty player")
        if words[0] in PLAYERS:
            ours = [sys.executable, "-m", "impl.cli", "player", words[0], "{game}"]
            template = [*ours, "--host", "{host}", "--port", "{port}", "--side", "{side}", *words[1:]]
            return cls(text, tuple(template))
        return cls(text, tuple(words))

    def command(self, values: dict[str, str]) -> list[str]:
        """The command line for one game."""
        out = []
        for word in self.template:
            for name in PLACEHOLDERS:
                if name in values:
                    word = word.replace("{" + name + "}", values[name])
            out.append(word)
        return out


@dataclass
class GameOutcome:
    """One game: who played first (0: player A, 1: player B), and how it ended."""

    number: int
    first: int
    result: Result | None = None
    counts: tuple[int, int] = (0, 0)
    error: str = ""
    summaries: dict[int, list[str]] = field(default_factory=dict)
    """Player (0 A, 1 B) → its ``summary:`` log lines."""
    culprits: list[int] = field(default_factory=list)
    """Players (0 A, 1 B) whose program failed a game without a result: it exited
    before the start, or with an error status."""
    record: str = ""
    """The game's record (impl/pgn.py), the players named by their labels; empty if
    the game never began."""

    def winner(self) -> int | None:
        """The winning player (0 A, 1 B), None for a draw or no result."""
        if self.result is None or self.result.winner is None:
            return None
        return self.first ^ self.result.winner


@dataclass(frozen=True)
class MatchOptions:
    game: str
    games: int
    time: tuple[float, float] | None = None
    timeout: float = 600.0
    """Seconds a game may take before its players are killed and it is aborted."""
    logs: Path | None = None
    jobs: int = 1
    engine: str = "impl"
    """The referee's rules engine: impl, spec or checked (impl/engines.py)."""
    on_divergence: OnDivergence = OnDivergence.CONTINUE
    records: Path | None = None
    """Write each game's record here as ``game-NNNN.pgn``."""
    event: str = "referee match"
    """The records' Event tag."""
    rules: str = "paper"
    """The Awari rule set the server plays and announces (spec/awari_rules.py)."""


class _Launched:
    """A player process of one game, its output going to a file."""

    def __init__(self, argv: list[str], env: dict[str, str], log: Path | None) -> None:
        # w+: the child writes through the same open file, and we read it back after.
        self.log: TextIO = log.open("w+") if log is not None else tempfile.TemporaryFile("w+")  # noqa: SIM115
        self.argv = argv
        try:
            self.proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=self.log, stderr=self.log, env=env)
        except OSError:
            self.log.close()
            raise

    def finish(self, grace: float) -> tuple[int | None, list[str]]:
        """Wait ``grace`` seconds for the process to end (then kill it); its exit
        status (None if killed) and its output lines."""
        status: int | None
        try:
            status = self.proc.wait(grace)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            status = None
        self.log.seek(0)
        lines = self.log.read().splitlines()
        self.log.close()
        return status, lines


def play_game(
    specs: tuple[PlayerSpec, PlayerSpec],
    number: int,
    options: MatchOptions,
    first: int,
    round_tag: str = "",
    opening: tuple[str, ...] = (),
) -> GameOutcome:
    """One game on a fresh server: player ``first`` (0 A, 1 B) takes the first
    side; the server plays ``opening`` first (impl/openings.py)."""
    with tempfile.TemporaryDirectory(prefix="referee-game-") as directory:
        outcome = _play_game(specs, number, options, first, Path(directory), opening)
        written = sorted(Path(directory).glob("*.pgn"))
        if written:
            record = pgn.parse(written[0].read_text(encoding="ascii"))
            sides = record.sides
            tags = {
                "Event": options.event,
                "Round": round_tag or str(number),
                sides[0].capitalize(): specs[first].label,
                sides[1].capitalize(): specs[1 - first].label,
            }
            outcome.record = pgn.write(record.with_tags(**tags))
    if options.records is not None and outcome.record:
        (options.records / f"game-{number:04d}.pgn").write_text(outcome.record, encoding="ascii")
    return outcome


def _play_game(
    specs: tuple[PlayerSpec, PlayerSpec],
    number: int,
    options: MatchOptions,
    first: int,
    records: Path,
    opening: tuple[str, ...] = (),
) -> GameOutcome:
    outcome = GameOutcome(number, first)
    game = options.game
    server_options = ServerOptions(
        game,
        time=options.time,
        engine=options.engine,
        on_divergence=options.on_divergence,
        record_dir=records,
        rules=options.rules,
        opening=opening,
    )
    with LocalServer(server_options) as server:
        observer = Client.connect(game, HOST, port=server.port, timeout=30.0)
        observer.observe("match")
        launched: dict[int, _Launched] = {}
        try:
            for side in (0, 1):
                player = first ^ side
                values = {
                    "game": game,
                    "host": HOST,
                    "port": str(server.port),
                    "side": SIDES[game][side],
                    "rules": options.rules,
                }
                env = {**os.environ, **{f"REFEREE_{k.upper()}": v for k, v in values.items()}}
                log = options.logs / f"game{number:04d}-{'AB'[player]}-{values['side']}.log" if options.logs else None
                launched[player] = _Launched(specs[player].command(values), env, log)
            outcome.error, early = _follow(observer, launched, time.monotonic() + options.timeout)
            outcome.culprits += [] if early is None else [early]
            outcome.result, outcome.counts = observer.result, observer.counts()
        except ClientError as exc:
            outcome.error = f"observer: {exc}"
        finally:
            observer.close()
            for player, proc in launched.items():
                status, lines = proc.finish(0 if outcome.error else 10.0)
                outcome.summaries[player] = [line for line in lines if "summary: moves=" in line]
                if status not in (0, None) and outcome.error:
                    tail = " | ".join(lines[-3:])
                    outcome.error += f"; {'AB'[player]} exited with {status}: {tail}"
                    outcome.culprits += [] if player in outcome.culprits else [player]
    if outcome.result is not None and outcome.result.termination.aborted:
        outcome.error = outcome.error or "the referee failed (399)"
    return outcome


def _follow(observer: Client, launched: dict[int, _Launched], deadline: float) -> tuple[str, int | None]:
    """Observe until the game is over; an error message if it cannot end, and the
    player whose program ended before the start."""
    while not observer.over:
        with suppress(ClientTimeout):
            observer.next_message(timeout=0.25)
        if not observer.started:
            for player, proc in launched.items():
                if proc.proc.poll() is not None:
                    return f"player {'AB'[player]} exited with {proc.proc.returncode} before the game started", player
        if time.monotonic() > deadline:
            return "timed out", None
    return "", None


# ─── the match ─────────────────────────────────────────────────────────────────


def run_match(
    specs: tuple[PlayerSpec, PlayerSpec],
    options: MatchOptions,
    report: Callable[[GameOutcome], None] | None = None,
    openings: Sequence[Opening] = (),
    repeat: bool = False,
) -> list[GameOutcome]:
    """``options.games`` games, player A first in the odd-numbered ones; each from
    its opening (impl/openings.py ``nth_opening``: with ``repeat`` games 2k-1 and
    2k share one, so that A and B each play it with both colours)."""
    for directory in (options.logs, options.records):
        if directory is not None:
            directory.mkdir(parents=True, exist_ok=True)
    lock = threading.Lock()

    def one(i: int) -> GameOutcome:
        outcome = play_game(specs, i + 1, options, i % 2, opening=nth_opening(openings, repeat, i))
        if report is not None:
            with lock:
                report(outcome)
        return outcome

    with ThreadPoolExecutor(max_workers=max(1, options.jobs)) as pool:
        return list(pool.map(one, range(options.games)))


def describe(outcome: GameOutcome, specs: tuple[PlayerSpec, PlayerSpec], game: str) -> str:
    sides = SIDES[game]
    a_side = sides[outcome.first]
    head = f"game {outcome.number:3d}: A ({a_side}) vs B ({sides[1 - outcome.first]}): "
    if outcome.result is None or outcome.error:
        return head + f"no result ({outcome.error})"
    return head + f"{outcome.result.describe(sides)} {outcome.counts[0]}-{outcome.counts[1]}"


def _wdl(outcomes: Sequence[GameOutcome], player: int) -> tuple[int, int, int]:
    won = sum(1 for o in outcomes if o.result is not None and not o.error and o.winner() == player)
    drawn = sum(1 for o in outcomes if o.result is not None and not o.error and o.result.winner is None)
    lost = sum(1 for o in outcomes if o.result is not None and not o.error and o.winner() == 1 - player)
    return won, drawn, lost


def _search_stats(lines: list[str]) -> str:
    """Speed and depth from the players' ``summary:`` lines."""
    nodes, seconds, depths = 0, 0.0, []
    for line in lines:
        fields = dict(word.split("=", 1) for word in line.split("summary:", 1)[1].split() if "=" in word)
        nodes += int(fields.get("nodes", 0))
        seconds += float(fields.get("seconds", 0))
        depths += [int(d) for d in fields.get("depths", "").split(",") if d]
    if not depths or seconds <= 0:
        return ""
    deciles = statistics.quantiles(depths, n=10) if len(depths) > 1 else [depths[0]] * 9
    return (
        f"{len(depths)} moves searched, {nodes / seconds:,.0f} nodes/s, depth median "
        f"{statistics.median(depths):g} (10%: {deciles[0]:g}, 90%: {deciles[-1]:g}, max {max(depths)})"
    )


def table(outcomes: Sequence[GameOutcome], specs: tuple[PlayerSpec, PlayerSpec], game: str) -> list[str]:
    """The score table: per player its games, wins, draws, losses and score (a
    draw is half a point), then the same by side."""
    sides = SIDES[game]
    played = [o for o in outcomes if o.result is not None and not o.error]
    lines = [
        f"{game}: {len(outcomes)} games, {len(played)} with a result",
        f"{'player':<28} {'games':>5} {'won':>5} {'drawn':>5} {'lost':>5} {'score':>6} {'win %':>6}"
        f"  {'as ' + sides[0] + ' W-D-L':>16}  {'as ' + sides[1] + ' W-D-L':>16}",
    ]
    for player in (0, 1):
        won, drawn, lost = _wdl(played, player)
        games = won + drawn + lost
        by_side = []
        for side in (0, 1):
            w, d, ell = _wdl([o for o in played if o.first ^ side == player], player)
            by_side.append(f"{w}-{d}-{ell} ({100 * w / max(1, w + d + ell):.0f}%)")
        label = f"{'AB'[player]} {specs[player].label}"[:28]
        lines.append(
            f"{label:<28} {games:>5} {won:>5} {drawn:>5} {lost:>5} {won + drawn / 2:>6g} "
            f"{100 * won / max(1, games):>6.1f}  {by_side[0]:>16}  {by_side[1]:>16}"
        )
    endings: dict[str, int] = {}
    for o in outcomes:
        key = "no result" if o.result is None or o.error else o.result.termination
        endings[key] = endings.get(key, 0) + 1
    lines.append("endings: " + ", ".join(f"{k} {v}" for k, v in sorted(endings.items())))
    for player in (0, 1):
        stats = _search_stats([line for o in outcomes for line in o.summaries.get(player, [])])
        if stats:
            lines.append(f"{'AB'[player]} search: {stats}")
    return lines


# ─── referee match ─────────────────────────────────────────────────────────────


EPILOG = (
    'A PLAYER is random, search (with options, quoted: "search --budget 0.1") or a command line with the '
    "placeholders {game} {host} {port} {side} {rules} (also in the environment as REFEREE_GAME, REFEREE_HOST, "
    "REFEREE_PORT, REFEREE_SIDE, REFEREE_RULES)."
)


def add_command(subparsers: Any) -> None:
    p = subcommand(subparsers, "match", run, epilog=EPILOG)
    p.add_argument("player_a", metavar="PLAYER_A")
    p.add_argument("player_b", metavar="PLAYER_B")
    p.add_argument("--game", choices=["awari", "gothello"], required=True)
    p.add_argument(
        "--games", type=positive, default=2, metavar="N", help="games to play (default 2); A moves first in odd ones"
    )
    p.add_argument("--time", type=seconds, nargs="+", metavar="SECS", help="time controls: one or two numbers")
    p.add_argument("--timeout", type=seconds, default=600.0, help="seconds a game may last (default 600)")
    p.add_argument("--logs", type=Path, metavar="DIR", help="keep each player's output in DIR")
    p.add_argument("--records", type=Path, metavar="DIR", help="write each game's record (PGN) in DIR")
    p.add_argument("--jobs", type=positive, default=1, help="games played at once (default 1)")
    p.add_argument("--quiet", "-q", action="store_true", help="print the table only")
    p.add_argument("--engine", choices=KINDS, default="impl", help="the referee's rules engine (default impl)")
    add_rules_argument(p)
    p.add_argument(
        "--on-divergence",
        choices=[o.value for o in OnDivergence],
        default=OnDivergence.CONTINUE.value,
        help="checked engine: continue on the spec's verdict (default) or abort the game with 399",
    )
    add_opening_arguments(p)


def add_opening_arguments(p: argparse.ArgumentParser) -> None:
    """The options of openings (impl/openings.py), for match and tournament."""
    book = p.add_mutually_exclusive_group()
    book.add_argument("--openings", type=Path, metavar="FILE", help="openings the referee plays first, one a line")
    book.add_argument(
        "--random-openings", type=positive, metavar="PLIES", help="openings of PLIES random legal moves (see --seed)"
    )
    p.add_argument(
        "--openings-order", choices=ORDERS, default="sequential", help="the file's order (default) or shuffled"
    )
    p.add_argument(
        "--repeat",
        action=argparse.BooleanOptionalAction,
        help="play each opening twice, colours reversed (default with openings)",
    )
    p.add_argument("--seed", type=int, default=1, help="seed of --random-openings and --openings-order random")


def openings_of(args: argparse.Namespace, what: str, games: int) -> tuple[tuple[Opening, ...], bool]:
    """The openings asked for, in the order to play them, and whether each is
    played twice (``--repeat``: by default when there are openings); ``games``:
    the games of a pairing."""
    if args.openings is None and args.random_openings is None:
        if args.repeat:
            raise UsageError(f"{what}: --repeat needs --openings or --random-openings")
        return (), False
    repeat = args.repeat is not False
    if repeat and games % 2:
        raise UsageError(f"{what}: --repeat plays each opening twice: --games must be even, not {games}")
    engine = get_engine(args.game, "impl", args.rules)
    try:
        if args.openings is not None:
            found = read_openings(engine, args.openings)
        else:
            count = games // 2 if repeat else games
            found = random_openings(engine, count, args.random_openings, args.seed)
    except OpeningError as exc:
        raise UsageError(f"{what}: {exc}") from None
    return ordered(found, args.openings_order, args.seed), repeat


def writable(directory: Path | None, what: str) -> Path | None:
    """A directory to write into, made now: a usage error if it cannot be."""
    if directory is None:
        return None
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"{what}: cannot write to {str(directory)!r}: {exc.strerror}") from None
    return directory


def _player(text: str, which: str) -> PlayerSpec:
    """A player given on the command line, its program checked now."""
    try:
        spec = PlayerSpec.parse(text)
    except ValueError as exc:
        raise UsageError(f"referee match: {which}: {exc}") from None
    if shutil.which(spec.template[0]) is None:
        raise UsageError(f"referee match: {which}: no program {spec.template[0]!r}")
    return spec


def run(args: argparse.Namespace) -> int:
    """play games between two players through a local server

    Play N games between two players through a referee server started here, sides
    alternating, and print the score table.
    """
    check_rules("referee match", args.game, args.rules)
    if args.time is not None and len(args.time) > 2:
        raise UsageError("referee match: --time takes one or two numbers of seconds")
    specs = (_player(args.player_a, "PLAYER_A"), _player(args.player_b, "PLAYER_B"))
    book, repeat = openings_of(args, "referee match", args.games)
    clocks = (args.time[0], args.time[-1]) if args.time else None
    options = MatchOptions(
        args.game,
        args.games,
        clocks,
        args.timeout,
        args.logs,
        args.jobs,
        args.engine,
        OnDivergence(args.on_divergence),
        writable(args.records, "referee match: --records"),
        rules=args.rules,
    )
    print(f"A = {specs[0].label}\nB = {specs[1].label}", flush=True)

    def report(outcome: GameOutcome) -> None:
        if not args.quiet:
            print(describe(outcome, specs, args.game), flush=True)

    outcomes = run_match(specs, options, report, book, repeat)
    print("\n".join(table(outcomes, specs, args.game)))
    return 1 if any(o.error or o.result is None for o in outcomes) else 0
