"""What the match runner rules from how a game ended (impl/apps/games.py plays it):
a seat taken from the other program (a forfeit, ``SeatTheft``), a program killed by
a signal nobody in the referee sent (no result, flagged), ``--strict``'s first
protocol warning (a forfeit), a game that timed out (who was silent), and the
record rewritten with the runner's result.  Pure: each reads the outcome and what
the guard and the transcripts saw, and writes the outcome."""

from __future__ import annotations

import signal
from dataclasses import replace

from impl import pgn
from impl.apps import seats, strict
from impl.apps.terms import GameOutcome, PlayerSpec
from impl.client import Client, Result
from impl.game import Outcome, Side, Termination
from impl.protocol import VOCABULARIES

SIDES = {game: v.sides for game, v in VOCABULARIES.items()}

FOREIGN_SIGNALS = frozenset(
    int(s) for s in (signal.SIGKILL, signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGQUIT, signal.SIGUSR1)
)
"""Signals another process sends (a program's own faults — SIGSEGV, SIGABRT,
SIGPIPE … — are its own, and lose as a disconnection does)."""


def silent(observer: Client, first: int, specs: tuple[PlayerSpec, PlayerSpec], game: str) -> tuple[str, list[int]]:
    """A game that timed out: who was silent (the side to move, or a side never seated)."""
    if not observer.started:
        return "timed out before the game started (a program never took its seat)", []
    mover = observer.to_move
    if mover is None:
        return "timed out", []
    player = first ^ int(mover)
    label = specs[player].label
    return f"timed out: {'AB'[player]} ({label}), {SIDES[game][int(mover)]} to move, sent nothing", [player]


def decided_by_leaving(outcome: GameOutcome) -> bool:
    """Whether the game ended with a player leaving (or without a result): what a
    program killed by another would show."""
    result = outcome.result
    return result is None or result.termination in (Termination.DISCONNECT, Termination.IDLE, Termination.TIME)


def foul_play(outcome: GameOutcome, killed: dict[int, int], specs: tuple[PlayerSpec, PlayerSpec]) -> None:
    """A program killed by a signal the runner did not send (only possible without a
    sandbox: impl/apps/sandbox.py): no result, never a win for its opponent, and
    flagged."""
    names = []
    for player, number in sorted(killed.items()):
        try:
            name = signal.Signals(number).name
        except ValueError:
            name = f"signal {number}"
        names.append(f"{'AB'[player]} ({specs[player].label}) was killed by {name}")
    outcome.result = None
    outcome.error = "suspected foul play: " + "; ".join(names) + ", a signal the referee did not send"
    outcome.culprits = []
    outcome.foul = outcome.error


def rejudged(record: pgn.PgnGame, result: Outcome, tags: dict[str, str]) -> tuple[pgn.PgnGame, dict[str, str]]:
    """The server's record of a game the runner judged (a seat theft, an
    adjudication): its result, outcome and termination the runner's."""
    token = pgn.result_token(record.game, result)
    words = result.result(record.sides)  # the papers' words, as pgn.build writes them
    return replace(record, result=token), tags | {
        "Result": token,
        pgn.OUTCOME: words,
        "Termination": result.termination.value,
    }


def strictly_judged(outcome: GameOutcome, lines: list[str], specs: tuple[PlayerSpec, PlayerSpec], game: str) -> None:
    """``--strict``: the first protocol warning of a player loses it the game, a
    result the runner gives (Termination ``adjudication``, the warning in the
    record's ``ProtocolWarning`` tag and the failures)."""
    found = strict.first_warning(lines)
    if found is None:
        return
    player = outcome.first ^ found.side
    outcome.forfeit = f"{'AB'[player]} ({specs[player].label}) {found.describe(SIDES[game])}"
    outcome.result = Result(Side(found.side).other, Termination.ADJUDICATION)
    outcome.adjudicated, outcome.culprits = "", [player]


def theft(outcome: GameOutcome, thefts: list[seats.Theft], specs: tuple[PlayerSpec, PlayerSpec], game: str) -> None:
    """A seat taken by one program from the other: it loses by forfeit.  Taken by
    both, or by no launched program: no result."""
    sides = SIDES[game]
    thieves: frozenset[int] = frozenset().union(*(t.thieves for t in thefts))
    if len(thieves) == 1:
        (thief,) = thieves
        taken = ", ".join(sides[t.side] for t in thefts)
        outcome.theft = f"{'AB'[thief]} ({specs[thief].label}) took the {taken} seat"
        loser = Side(outcome.first ^ thief)
        outcome.result = Result(loser.other, Termination.SEAT_THEFT)
        outcome.error, outcome.culprits = "", [thief]
        return
    outcome.result = None
    seats_taken = ", ".join(sides[t.side] for t in thefts)
    held = "both programs" if thieves else "no program launched for the game"
    outcome.error = f"the {seats_taken} seat was taken by a connection of {held}"
    outcome.culprits = sorted(thieves)


def judge(
    outcome: GameOutcome,
    guard: seats.SeatGuard,
    killed: dict[int, int],
    lines: list[str] | None,
    specs: tuple[PlayerSpec, PlayerSpec],
    game: str,
) -> None:
    """The runner's ruling once a game's programs have ended, the first that applies:
    a seat theft, foul play, the referee's own failure (399), ``--strict``'s warning
    (``lines`` the players' transcripts, None without ``--strict``)."""
    if guard.thefts:
        theft(outcome, guard.thefts, specs, game)
    elif killed and decided_by_leaving(outcome):
        foul_play(outcome, killed, specs)
    elif outcome.result is not None and outcome.result.termination.aborted:
        outcome.error = outcome.error or "the referee failed (399)"
    elif lines is not None and outcome.result is not None and not outcome.error:
        strictly_judged(outcome, lines, specs, game)
