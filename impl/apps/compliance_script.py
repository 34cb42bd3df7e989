"""The scripted referee of ``referee compliance`` (impl/apps/compliance.py runs it
against a program): its scenarios, one run's state on the protocol's model
(spec/protocol.py) with the virtual opponent's lines, and the grading of a run,
one PASS or FAIL line a behaviour."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from dataclasses import dataclass, field

from impl.engines.registry import get_engine
from impl.server.transcript import EngineRules
from spec import protocol as M


@dataclass(frozen=True)
class Scenario:
    name: str
    side: int
    """The program's side (0: the first player)."""
    timed: bool = False
    draw_offer_at: int | None = None
    """The opponent's move number at which it offers a draw instead (Awari)."""
    resign_at: int | None = None
    leave_at: int | None = None
    refuse_first: bool = False
    max_plies: int = 400


@dataclass
class Result:
    checks: list[tuple[str, bool, str]] = field(default_factory=list)

    def check(self, name: str, ok: bool, detail: str = "") -> None:
        self.checks.append((name, ok, detail))


class Session:
    """One scripted referee for one run of the program."""

    def __init__(self, game: str, scenario: Scenario, rng: random.Random) -> None:
        self.game, self.scenario, self.rng = game, scenario, rng
        self.rules = EngineRules(get_engine(game))
        setup = M.Setup(game, timed=scenario.timed, config_messages="all" if game == "awari" else "observers")
        self.model = M.Referee.new(setup, self.rules)
        self.words = setup.words
        self.sent: list[str] = []
        self.got: list[str] = []
        self.refusals: list[tuple[str, str]] = []
        """(the program's line, the refusal it got)."""
        self.scripted: tuple[str, str] | None = None
        """The move the scenario refused (``refuse_first``), and its refusal."""
        self.writer: asyncio.StreamWriter | None = None
        self.opponent_plies = 0
        self.offer_at: int | None = None
        """How many lines the program had sent when the opponent offered a draw."""
        self.output = ""
        """The program's last lines of output, when it failed (told with the failure)."""
        self.pending = bytearray()
        """The program's bytes read and not yet framed as lines (``_line``)."""

    def out(self, outs: list[M.Out]) -> None:
        assert self.writer is not None
        for conn, line in outs:
            if conn != 1 or line == M.CLOSE:
                continue
            text = line.replace(M.SECS, "300")
            self.sent.append(text)
            self.writer.write((text + "\r\n").encode("ascii"))

    def feed(self, conn: int, line: str, pick: Callable[[M.Referee], bool] = lambda m: True) -> list[M.Out]:
        branches = self.model.receive(conn, line)
        chosen = next((b for b in branches if pick(b[0])), branches[0])
        self.model = chosen[0]
        return chosen[1]

    def opponent_line(self) -> str:
        s, other = self.scenario, 1 - self.scenario.side
        self.opponent_plies += 1
        if s.resign_at == self.opponent_plies:
            return "resign"
        if s.draw_offer_at == self.opponent_plies and not self.model.refused:
            self.offer_at = len(self.got)
            return "draw?"
        engine = self.rules.engine
        moves = [engine.format_move(m) for m in engine.legal_moves(self.model.position)]
        return f"{M.serial_text(M.serial(self.model.plies), other)} {self.rng.choice(moves)}"


EXPECTED = ("'<n> <move>'", "'<n> ... <move>'")
"""A move's form, by side (a pass too: ``2 pass``, ``2 ... pass``)."""
RULES_REFUSAL = "291 Illegal move"
"""The rules refused a well-formed move: the papers let the player try another, so
it is no protocol failure."""


def _what(refusal: str) -> str:
    """The behaviour a refusal's text says the program got wrong."""
    words = {"serial": "serial number", "Ellipses": "ellipses", "turn": "turn", "draw offer": "draw offer"}
    return next((what for key, what in words.items() if key in refusal), "request")


def grade(
    game: str, scenario: Scenario, session: Session, status: int | None, stopped: str, result: Result, timeout: float
) -> None:
    """One run's lines, PASS or FAIL each, into ``result``: the seat request, each refusal the model gave that
    the protocol counts (not the rules' 291), the retry after a refused move, the
    draw answer, serials and ellipses, the game's end and a clean exit within ``timeout``."""
    w = M.WORDS[game]
    side = w.sides[scenario.side]
    got = session.got
    said = f" (its output: {session.output})" if session.output else ""
    if not got:
        result.check(
            f"{scenario.name}: seat request", False, f"expected '0.9.1 player {side}', got nothing ({stopped}){said}"
        )
        return
    seat = M.seat_request(w, got[0])
    ok = isinstance(seat, M.SeatRequest) and seat.seat in (M.Seat(scenario.side), M.Seat.EITHER)
    result.check(
        f"{scenario.name}: greeting read, seat request", ok, f"expected '0.9.1 player {side}' or '? ', got {got[0]!r}"
    )
    shapes = ("serial number", "ellipses")
    for line, refusal in session.refusals:
        protocol = not refusal.startswith(RULES_REFUSAL) and _what(refusal) not in shapes
        if (line, refusal) != session.scripted and protocol:
            result.check(f"{scenario.name}: {_what(refusal)}", False, f"sent {line!r}, refused {refusal!r}")
    if scenario.refuse_first:
        after = got[got.index(session.scripted[0]) + 1 :] if session.scripted is not None else []
        retried = any((a := M.action(w, g)) is not None and a.request is M.Request.MOVE for g in after)
        result.check(
            f"{scenario.name}: illegal move refused, another sent",
            retried,
            f"expected another move after {session.scripted[1] if session.scripted else '291'!r}, "
            f"{stopped or 'got none'}",
        )
    if scenario.draw_offer_at is not None and session.offer_at is not None:
        after = got[session.offer_at : session.offer_at + 1]
        answered = after != [] and after[0].strip() in ("draw", "nodraw")
        result.check(
            f"{scenario.name}: draw offer answered",
            answered,
            f"expected 'draw' or 'nodraw' after 331/332, got {repr(after[0]) if after else 'nothing'}",
        )
    moves = [g for g in got[1:] if (a := M.action(w, g)) is not None and a.request is M.Request.MOVE]
    if moves:
        second = scenario.side == M.SECOND
        refused = dict(session.refusals)
        bad = [g for g in moves if g.split()[:1] == ["pass"] or (second and " ... " not in f" {g} ")]
        bad += [line for line, r in session.refusals if _what(r) in shapes]
        why = f", refused {refused[bad[0]]!r}" if bad and bad[0] in refused else ""
        result.check(
            f"{scenario.name}: {'serials and ellipses (...)' if second else 'serials'} as {side}",
            not bad,
            f"expected {EXPECTED[second]} (n: the full-move number), sent {bad[0] if bad else ''!r}{why}",
        )
    result.check(
        f"{scenario.name}: game played to its end",
        not stopped and session.model.over,
        (stopped or "the game did not end") + said,
    )
    exited = "still running (killed)" if status is None else f"exit status {status}"
    result.check(
        f"{scenario.name}: clean exit after the final status",
        status == 0,
        f"expected exit status 0 within {timeout:g} s of the end, got {exited}{said}",
    )


def scenarios(game: str) -> list[Scenario]:
    found = [
        Scenario("first player", M.FIRST),
        Scenario("second player", M.SECOND),
        Scenario("time controls", M.SECOND, timed=True, max_plies=30, resign_at=8),
        Scenario("illegal move refused", M.FIRST, refuse_first=True, resign_at=4),
        Scenario("opponent resigns", M.FIRST, resign_at=3),
        Scenario("opponent disconnects", M.SECOND, leave_at=3),
    ]
    if game == "awari":
        found.append(Scenario("draw offer", M.FIRST, draw_offer_at=2, resign_at=5))
    return found
