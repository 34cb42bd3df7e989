"""Playing one game between two player programs through a private referee server
(impl/server/local.py): what ``referee match`` (impl/apps/match.py) and ``referee
tournament`` (impl/apps/tournament/) share: how a game is run (``play_game``:
launch the programs, guard their seats, observe the game, end their process
groups) on the players and terms of impl/apps/terms.py (``PlayerSpec``,
``MatchOptions``).  Neither command is imported here: both import this.

A PLAYER is one of ours by name, with its options (``random``, ``"search --budget
0.1"``), run as ``referee player NAME GAME --host H --port P --side S [options]``;
or any command line, run once per game with these placeholders replaced in its
words and the same values in its environment:

    {game}  REFEREE_GAME   awari | gothello
    {host}  REFEREE_HOST   the server's address (127.0.0.1)
    {port}  REFEREE_PORT   the game's port
    {side}  REFEREE_SIDE   the side to take: south/north, black/white
    {rules} REFEREE_RULES  the Awari rule set (``--rules``; paper by default)
    {python}               this Python (``sys.executable``)
    {token}                this game's secret of this seat: sent as the player's
                           name (``0.9.1 player black TOKEN``), it proves the seat
                           is the program's (seats.py ``SeatGuard``).  In a command line any
                           local user can read it: a program should read it from
                           the descriptor REFEREE_TOKEN_FD names instead, as ours
                           do (impl/apps/launch.py)

The program connects to host:port, sends ``0.9.1 player <side>`` and plays one game
(docs/protocol.md).  Each game has its own server, started here, on a free
port; the runner observes it (an observer of the protocol) to learn the result.
A player's stdout and stderr go to ``--logs DIR`` (or are dropped); a line
``summary: moves=… nodes=… seconds=… depths=…`` in its stderr (the search player
writes one) adds its speed and depth to the table.
"""

from __future__ import annotations

import asyncio
import signal
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager, suppress
from dataclasses import replace
from pathlib import Path

from impl import pgn
from impl.apps import launch, protocheck, rulings, seats, strict, tbadjudge
from impl.apps import sandbox as sandboxes
from impl.apps.launch import Launched
from impl.apps.terms import (
    Adjudication,
    GameOutcome,
    MatchOptions,
    PlayerSpec,
)
from impl.atomic import write_atomic
from impl.client import Client, ClientError, ClientTimeout
from impl.config import LOCAL_HOST, Config
from impl.game import Outcome, Termination
from impl.server.local import LocalServer
from impl.server.session import Event, GameOver, MoveMade, Session
from impl.server.transcript import collecting, monitor, record

HOST = LOCAL_HOST
"""The private server's address (``Config.local``), which the players are given."""
SIDES = rulings.SIDES
PLACEHOLDERS = launch.PLACEHOLDERS


INTERRUPTED = threading.Event()
"""Set when the run is interrupted (Ctrl-C, SIGTERM, SIGHUP): the games then in
progress have their programs killed and are recorded as nothing, to be played
again on resuming."""


def interrupt() -> None:
    """End every program of this process's games now (a sandbox's whole tree ends
    with its bwrap or unshare process): the games' threads then finish at once."""
    INTERRUPTED.set()
    launch.end_all()


def play_game(
    specs: tuple[PlayerSpec, PlayerSpec],
    number: int,
    options: MatchOptions,
    first: int,
    round_tag: str = "",
    opening: tuple[str, ...] = (),
) -> GameOutcome:
    """One game on a fresh server: player ``first`` (0 A, 1 B) takes the first
    side; the server plays ``opening`` first (impl/engines/openings.py)."""
    with tempfile.TemporaryDirectory(prefix="referee-game-") as directory:
        outcome = _play_game(specs, number, options, first, Path(directory), opening)
        if INTERRUPTED.is_set():  # its programs were killed by the runner: no result, no record
            outcome.result, outcome.error, outcome.culprits = None, "interrupted", []
            return outcome
        written = sorted(Path(directory).glob("*.pgn"))
        if written:
            record = pgn.parse(written[0].read_bytes())
            record = record.with_names(specs[first].label, specs[1 - first].label)
            tags = {"Event": options.event, "Round": round_tag or str(number)}
            judged = {"SeatTheft": outcome.theft} if outcome.theft else {"Adjudication": outcome.adjudicated}
            judged |= {tbadjudge.TAG: outcome.tablebase} if outcome.tablebase and not outcome.theft else {}
            judged = {strict.TAG: outcome.forfeit} if outcome.forfeit else judged
            if (outcome.theft or outcome.forfeit or outcome.adjudicated) and outcome.result is not None:
                record, tags = rulings.rejudged(record, outcome.result, tags | judged)
            tags |= {protocheck.TAG: outcome.divergence or protocheck.OK} if options.check_protocol else {}
            outcome.record = pgn.write(record.with_tags(**tags))
    if options.records is not None and outcome.record:
        write_atomic(options.records / pgn.record_name(number), outcome.record, overwrite=False)
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
    box = options.sandbox if options.sandbox is not None else sandboxes.choose("auto")
    guard = seats.SeatGuard(first, seats.available(), box.isolates)
    config = Config.local(
        game,
        time=options.time,
        increment=options.increment,
        engine=options.engine,
        on_divergence=options.on_divergence,
        record_dir=records,
        rules=options.rules,
    )
    # Per owner, not per address (both programs are on 127.0.0.1); without a clock a
    # silent program loses by the server's idle rule before the game's timeout.
    config = replace(config, net=replace(config.net, per_address=seats.PROGRAM_CONNECTIONS))
    config = replace(config, limits=replace(config.limits, idle_timeout=_idle_bound(config, options.timeout)))
    hooks = _live_hooks(options.live, number) + _adjudicator(options.adjudication, outcome)
    watch, transcripts = collecting(record)  # --strict judges the transcripts
    hooks += (watch,) if options.strict else ()
    check, monitors = collecting(monitor)  # --check-protocol's live checks
    hooks += (check,) if options.check_protocol else ()
    deadline = time.monotonic() + options.timeout
    owner_of = guard.owner_of if guard.by_proc else None
    with LocalServer(config, on_seat=guard.on_seat, owner_of=owner_of, opening=opening, session_hooks=hooks) as server:
        guard.port = server.port
        observer = Client.connect(game, HOST, port=server.port, timeout=30.0)
        observer.observe("match")
        launched: dict[int, Launched] = {}
        try:
            for side in (0, 1):
                player = first ^ side
                values = {
                    "game": game,
                    "host": HOST,
                    "port": str(server.port),
                    "side": SIDES[game][side],
                    "rules": options.rules,
                    "token": guard.tokens[player],
                }
                env = launch.environment(values)
                log = options.logs / f"game{number:04d}-{'AB'[player]}-{values['side']}.log" if options.logs else None
                launched[player] = Launched(specs[player].command(values), env, log, box, secret=values["token"])
                guard.launched(player, launched[player].group)
                if side == 0 and not guard.by_proc:
                    _await_seat(guard, launched[player], deadline)
            outcome.error, early = _follow(observer, launched, deadline)
            outcome.culprits += [] if early is None else [early]
            if outcome.error == "timed out":
                outcome.error, outcome.culprits = rulings.silent(observer, first, specs, game)
            outcome.result, outcome.counts = observer.result, observer.counts()
            if outcome.adjudicated:
                outcome.result = outcome.adjudged
        except ClientError as exc:
            outcome.error = f"observer: {exc}"
        finally:
            observer.close()
            killed: dict[int, int] = {}
            for player, proc in launched.items():
                status = proc.finish(0 if outcome.error else 10.0)
                outcome.summaries[player] = list(proc.summaries)
                if (
                    status is not None
                    and -status in rulings.FOREIGN_SIGNALS
                    and not box.isolates
                    and not proc.out_of_memory
                ):
                    killed[player] = -status
                if status not in (0, None) and outcome.error:
                    tail = " | ".join(list(proc.tail)[-3:])
                    outcome.error += f"; {'AB'[player]} exited with {status}: {tail}"
                    outcome.culprits += [] if player in outcome.culprits else [player]
    outcome.divergence = protocheck.divergence(monitors)
    lines = [line for t in transcripts for line in t.lines] if options.strict else None
    rulings.judge(outcome, guard, killed, lines, specs, game)
    return outcome


def deliver(loop: asyncio.AbstractEventLoop, callback: Callable[..., object], *args: object) -> None:
    """``callback(*args)`` on ``loop`` from another thread — unless the loop has closed
    (the game ended while a probe ran: its answer has nobody to tell).  Once, that
    answer was a traceback at the end of every ``--tb`` match (issue #54)."""
    with suppress(RuntimeError):
        loop.call_soon_threadsafe(callback, *args)


def _adjudicator(rules: Adjudication | None, outcome: GameOutcome) -> tuple[Callable[[Session], None], ...]:
    """A session hook judging each position by ``rules`` as the move that made it is
    accepted, and ending the game at that very position.  The ply count and the lead
    are judged on the loop (a few microseconds); the table's probe (milliseconds:
    ``probe.may_repeat``'s search; docs/tablebases.md measures it) in a thread, the session held
    meanwhile (``Session.hold``): the move was relayed and the opponent thinks, but
    its reply waits for the verdict, charged to its clock only up to its arrival.  So
    no player outruns the table, however fast (issue #54: a random player once
    finished 2 of 8 games before the probe answered).  An adjudicated game's outcome
    is noted and the players get 399 (the record's termination ``adjudication``)."""
    if rules is None:
        return ()

    def hook(session: Session) -> None:
        loop = asyncio.get_running_loop()
        leads: list[int] = []
        table = rules.tablebase
        prober = ThreadPoolExecutor(1, thread_name_prefix="adjudicate") if table is not None else None

        def judge(what: Event) -> None:
            if isinstance(what, GameOver):
                if prober is not None:
                    prober.shutdown(wait=False, cancel_futures=True)
                return
            if not isinstance(what, MoveMade):
                return
            first, second = what.engine.counts(what.after)
            leads.append(first - second)
            if what.to_move is None:  # the move ended the game
                return
            found = rules.verdict(len(leads), leads)
            if found is not None:
                session.hold()  # ended on the loop's next turn, from outside the session's own call
                loop.call_soon(end, found, "")
            elif table is not None and prober is not None and table.within(what.after):
                try:
                    probe = prober.submit(table.verdict, what.after)
                except RuntimeError:  # shut down: the game is over
                    return
                session.hold()
                probe.add_done_callback(lambda done: deliver(loop, answered, done))

        def answered(done: Future[tuple[Outcome, str, str] | None]) -> None:
            by_table = None if done.cancelled() or done.exception() is not None else done.result()
            if by_table is not None:
                end(by_table[:2], by_table[2])
            else:
                session.release(loop.time())

        def end(found: tuple[Outcome, str], value: str) -> None:
            if not session.over:
                outcome.adjudged, outcome.adjudicated = found
                outcome.tablebase = value
                session.shutdown(loop.time(), Termination.ADJUDICATION)
            session.release(loop.time())

        session.listeners.append(judge)

    return (hook,)


def _idle_bound(config: Config, timeout: float) -> float:
    """The private server's idle bound: a third of the game's timeout at most, so
    that a silent program loses by the server's rule (Termination.IDLE), named,
    instead of the game timing out with nobody to blame."""
    bound = config.limits.idle_timeout
    return min(bound, timeout / 3) if bound > 0 else timeout / 3


def _live_hooks(token: str, number: int) -> tuple[Callable[[Session], None], ...]:
    """The session hook of game ``number`` for the live view ``token``, if it
    is in this process (imported only then: the web view needs aiohttp)."""
    if not token:
        return ()
    from impl.web.tourney import hooks

    return hooks(token, number)


def _follow(
    observer: Client,
    launched: dict[int, Launched],
    deadline: float,
) -> tuple[str, int | None]:
    """Observe until the game is over (an adjudication ends it on the server:
    ``_adjudicator``); an error message if it cannot end, and the player whose
    program ended before the start."""
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


def _await_seat(guard: seats.SeatGuard, launched: Launched, deadline: float) -> None:
    """The weaker check: until the first program has taken a seat (or ended)."""
    while not guard.seated.wait(0.05):
        if launched.proc.poll() is not None or time.monotonic() > deadline:
            return


@contextmanager
def ended_like_ctrl_c() -> Iterator[None]:
    """Ctrl-C, SIGTERM and SIGHUP end the run alike: every game's programs are
    killed at once (``interrupt``), KeyboardInterrupt is raised in the main thread,
    and what was recorded is kept; the games then in progress are not.  (kill -9
    leaves no handler: the sandboxes end with their launching threads.)"""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def interrupted(signum: int, frame: object) -> None:
        interrupt()
        raise KeyboardInterrupt

    old = {signum: signal.signal(signum, interrupted) for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)}
    try:
        yield
    finally:
        for signum, handler in old.items():
            signal.signal(signum, handler)
