"""Generated sessions checked against the protocol's model, in process (issue #40 item 2).

Each session drives the server's session (impl/server/session.py) directly — no
sockets, the time passed in — with requests chosen from the model (spec/protocol.py):
every step the model, fed the transcript so far (impl/server/transcript.py
``Replay``), says each connection's state, the player to move, the serial and the
position, and the driver picks a request for a row of the transition table, the rows
not yet reached first: seat requests good and bad, moves right and wrong (serial,
ellipsis, token, legality, turn), resignations, Awari draw offers and answers,
garbled, oversize and non-ASCII lines, new connections, disconnects, and silences
long enough for a flag to fall or a seat, wait or idle bound to expire.  Every line
the session sends is checked against the model as it is sent, the moves by the rules
engine; the first difference ends the session as a divergence.

    python -m proofs.protocol_sessions --sessions 100000

prints ``N sessions, D divergences, R/T rows reached`` and ``OK`` when D is 0 and
every row of both games' tables was reached.  tests/support/sessions.py drives the
same choices over sockets (the glue: impl/server/net.py, server.py).
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from itertools import chain

from impl import protocol as P
from impl.config import ConfigMessages, Limits
from impl.engines.port import GameEngine
from impl.engines.registry import get_engine
from impl.server.session import Entity, LineError, Session, Settings
from impl.server.transcript import Replay, Transcript, parse, record
from spec import protocol as M

ALL_ROWS = frozenset(f"{r.state.value}/{r.request.value}" for r in M.ROWS)
GOTHELLO_ROWS = frozenset(r for r in ALL_ROWS if not r.endswith(("draw?", "draw/nodraw")))
OVERSIZE = "x" * 600
"""A line longer than the framing's 512 bytes: the server refuses it before the session."""
NOT_ASCII = "\x7f"
FRAMING = {OVERSIZE: LineError.TOO_LONG, NOT_ASCII: LineError.NOT_ASCII}
"""What the framing layer (impl/server/net.py) makes of the lines it refuses."""


def requests(rng: random.Random, model: M.Referee, ent: M.Entity) -> list[tuple[str, str]]:
    """(row, line) candidates for ``ent`` in ``model``'s state: each row's line, right
    or wrong in one respect."""
    w = model.words
    state = ent.state.value
    if ent.state is M.State.INITIAL:
        free = [w.sides[s] for s in (0, 1) if model.players[s] is None]
        seats = [f"0.9.1 player {s}" for s in free] + ["0.9.1 player ?", '0.9 observer "obs"']
        return [
            ("initial/seat", rng.choice(seats)),
            ("initial/seat", f"0.9.1 player {rng.choice(w.sides)}"),
            (
                "initial/bad seat",
                rng.choice(["1.0 player ?", "hello", "0.9.1 player purple", '0.9.1 player ? "' + "x" * 40 + '"']),
            ),
            ("initial/bad line", OVERSIZE),
        ]
    out = [
        (f"{state}/bad line", rng.choice([OVERSIZE, NOT_ASCII])),
        (f"{state}/garbled", rng.choice(["what", "1 2 3 4", "draw?" if w.game == "gothello" else "pass"])),
        (f"{state}/seat again", "0.9.1 observer"),
    ]
    if ent.state is not M.State.PLAYING or rng.random() < 0.03:
        out.append((f"{state}/resign", "resign"))
    if w.has_draw_offers:
        answer = rng.choice(["draw", "nodraw", "nodraw", "nodraw"])
        out += [(f"{state}/draw?", "draw?"), (f"{state}/draw/nodraw", answer)]
    side = ent.side if ent.side is not None else 0
    n = M.serial(model.plies)
    engine: GameEngine = model.rules.engine  # type: ignore[attr-defined]
    legal = [engine.format_move(m) for m in engine.legal_moves(model.position)] if not model.over else []
    good = rng.choice(legal) if legal else "a"
    good_line = f"{M.serial_text(n, side)} {good}"
    wrong = [f"{n + 1} {good}", f"{n} ... {good}" if side == 0 else f"{n} {good}", f"{M.serial_text(n, side)} zz"]
    return [*out, *[(f"{state}/move", good_line)] * 3, (f"{state}/move", rng.choice(wrong))]


def choose(rng: random.Random, model: M.Referee, ent: M.Entity, reached: set[str]) -> str:
    """The line ``ent`` sends: a row not yet reached half the time, else any; the player
    to move mostly plays a legal move in turn, the offer's opponent mostly answers."""
    options = requests(rng, model, ent)
    fresh = [o for o in options if o[0] not in reached]
    mover = model.offer is None and model.started and ent.side == model.mover()
    if ent.state is M.State.PLAYING and mover and rng.random() < 0.6:
        options = [o for o in options if o[0].endswith("/move")][:1]
    elif model.offer is not None and ent.side is not None and ent.side != model.offer and rng.random() < 0.5:
        options = [o for o in options if o[0].endswith("draw/nodraw")]
    return rng.choice(fresh if fresh and rng.random() < 0.5 else options)[1]


class _Peer:
    """A connection with nobody behind it: the transcript notes what it is sent."""

    address = "in-process"

    def send(self, lines: Sequence[str]) -> None:
        pass

    def close(self) -> None:
        pass


@dataclass
class Report:
    sessions: int = 0
    divergences: list[str] = field(default_factory=list)
    rows: set[str] = field(default_factory=set)
    lines: int = 0
    codes: set[int] = field(default_factory=set)


class _Checked:
    """A session under transcript, its lines fed to the model as they are written."""

    def __init__(self, session: Session, engine: GameEngine) -> None:
        self.session = session
        self.transcript: Transcript = record(session)
        setup, _ = parse(self.transcript.lines)
        self.replay = Replay(setup, engine)
        self.fed = 1
        self.problem: str | None = None

    def check(self) -> str | None:
        lines = self.transcript.lines
        if self.problem is None and self.fed < len(lines):
            _, events = parse(chain(lines[:1], lines[self.fed :]))
            for ev in events:
                self.problem = self.replay.feed(replace(ev, number=ev.number + self.fed - 1))
                if self.problem is not None:
                    break
            self.fed = len(lines)
        return self.problem


def _settings(game: str, rng: random.Random) -> tuple[Settings, bool]:
    timed = rng.random() < 0.3
    time = ((30.0, 0.6) if rng.random() < 0.5 else (30.0, 30.0)) if timed else None
    limits = Limits(max_rejected=rng.choice([64, 5]))
    if rng.random() < 0.3:  # short bounds, so that silences reach them
        limits = replace(limits, seat_timeout=2.0, wait_timeout=3.0, idle_timeout=2.5)
    return Settings(P.VOCABULARIES[game], 0, time, rng.choice(list(ConfigMessages)), limits), timed


def session(game: str, seed: int, engine: GameEngine, report: Report, steps: int = 80) -> None:
    """One random session of ``game``, checked line by line against the model."""
    rng = random.Random(seed)
    settings, timed = _settings(game, rng)
    now = 0.0
    s = Session(settings, engine, rng=random.Random(seed + 1), now=now)
    checked = _Checked(s, engine)
    ents: dict[int, Entity] = {}

    def connect() -> None:
        ents[len(ents) + 1] = s.join(_Peer(), now)

    def due() -> None:
        """The server ticks at the session's deadline (impl/server/server.py)."""
        deadline = s.deadline()
        if deadline is not None and deadline <= now:
            s.tick(now)

    connect()
    connect()
    for _ in range(steps):
        if checked.check() is not None:
            break
        model = checked.replay.models[0]
        if model.over:
            break
        now += 0.01
        due()
        live = [e for e in model.entities if e.id in ents and not e.closed]
        roll = rng.random()
        if roll < 0.08 and len(ents) < 6:
            connect()
        elif roll < 0.11 and live and (rng.random() < 0.1 or any(e.state is not M.State.PLAYING for e in live)):
            victim = rng.choice([e for e in live if e.state is not M.State.PLAYING] or live)
            s.leave(ents[victim.id], now)
        elif roll < 0.12 and (timed or settings.limits.seat_timeout < 60):
            now += 0.8 if timed else 3.5  # a flag may fall, a bound expire
            due()
        elif not live:
            connect()
        else:
            ent = rng.choice(live)
            line = choose(rng, model, ent, report.rows)
            s.receive(ents[ent.id], FRAMING.get(line, line), now)
    now += 0.01
    for e in list(ents.values()):
        s.leave(e, now)
    problem = checked.check() or checked.replay.finish()
    report.sessions += 1
    report.rows |= checked.replay.rows
    report.lines += len(checked.transcript.lines)
    if problem is not None:
        report.divergences.append(f"{game} seed {seed}: {problem}")


def run(count: int, seed: int = 0, steps: int = 80) -> Report:
    """``count`` sessions, the games alternating."""
    engines = {g: get_engine(g, "impl") for g in ("awari", "gothello")}
    report = Report()
    for i in range(count):
        game = ("awari", "gothello")[i % 2]
        session(game, seed + i, engines[game], report, steps)
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m proofs.protocol_sessions", description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=2000, help="how many sessions (default 2000)")
    parser.add_argument("--seed", type=int, default=0, help="the first session's seed (default 0)")
    parser.add_argument("--steps", type=int, default=80, help="requests per session at most (default 80)")
    args = parser.parse_args(argv)
    if args.sessions < 1 or args.steps < 1:
        parser.error("--sessions and --steps must be positive")
    report = run(args.sessions, args.seed, args.steps)
    missed = sorted(ALL_ROWS - report.rows)
    reached = f"{len(report.rows & ALL_ROWS)}/{len(ALL_ROWS)} rows reached"
    print(f"{report.sessions} sessions, {len(report.divergences)} divergences, {reached}")
    print(f"{report.lines} transcript lines")
    for d in report.divergences[:5]:
        print(f"  divergence: {d}")
    if missed:
        print(f"  rows never reached: {', '.join(missed)}")
    ok = not report.divergences and not missed
    print("OK" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
