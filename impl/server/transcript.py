"""Transcripts of games on the wire, and their check against the protocol's model.

A transcript is JSON lines: a header (``{"transcript": 1, "game": …}``: what the
server was started with), then one object per line each way and per connection
event, in the order the session saw them::

    {"t": 12.5, "c": 3, "d": "open"}                 a connection joined (the greeting follows)
    {"t": 12.6, "c": 3, "d": "in", "line": "0.9.1 player black"}
    {"t": 12.6, "c": 3, "d": "bad", "line": "Request not understood (line too long)"}
    {"t": 12.6, "c": 3, "d": "out", "line": "100 Request accepted"}
    {"t": 12.6, "c": 3, "d": "close"}                the server closed it
    {"t": 13.0, "c": 3, "d": "leave"}                the client left
    {"t": 14.0, "c": 0, "d": "stop"}                 the server ended the game itself

A ``stop`` is the server ending the game on its own account (a runner's
adjudication, a shutdown): the papers' protocol has no such message, so the check
ends there and what follows (the 399s, the closes) is not held against the model.

``t`` is the session's clock (seconds), ``c`` the connection's number in the game.
``record`` is a session hook (``ServerConfig.session_hooks``; ``referee serve
--transcript DIR``) that writes one file per game; ``check`` replays a transcript
against spec/protocol.py's ``Referee``, the moves judged by the rules engine, and
returns the first line the model does not allow, with what it allowed.
"""

from __future__ import annotations

import json
import logging
import os
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from impl.engines.port import GameEngine, side_to_move, winner
from impl.engines.registry import get_engine
from impl.game import Termination
from impl.log import event
from spec import protocol as M
from spec import result as R

from .session import Entity, LineError, Peer, Session

VERSION = 1
T = TypeVar("T", bound="Transcript")
K = TypeVar("K")


# ─── Writing ───────────────────────────────────────────────────────────────────


def header_of(session: Session) -> dict[str, Any]:
    """What the model needs to know of the server: the header line."""
    s, limits = session.settings, session.settings.limits
    return {
        "transcript": VERSION,
        "game": s.vocab.game,
        "server": s.server,
        "game_no": session.game_no,
        "rules": session.engine.rule_set,
        "timed": s.time is not None,
        "time": None if s.time is None else list(s.time),
        "increment": list(s.increment),
        "config_messages": s.config_messages.value,
        "opening": list(session.opening),
        "max_observers": limits.max_observers,
        "max_rejected": limits.max_rejected,
        "seat_timeout": limits.seat_timeout,
        "wait_timeout": limits.wait_timeout,
        "idle_timeout": limits.idle_timeout,
    }


class _Tap:
    """A session's peer that notes what the session sends it."""

    def __init__(self, peer: Peer, number: int, sink: Transcript) -> None:
        self.peer, self.number, self.sink = peer, number, sink
        self.address = peer.address
        self.closed = False

    def send(self, lines: Sequence[str]) -> None:
        if not self.closed:  # a closed connection sends nothing more (impl/server/net.py)
            for line in lines:
                self.sink.note(self.number, "out", line)
        self.peer.send(lines)

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.sink.note(self.number, "close")
        self.peer.close()


@dataclass
class Transcript:
    """One game's transcript, kept in ``lines`` and, with a ``path``, written as it grows."""

    session: Session
    path: Path | None = None
    lines: list[str] = field(default_factory=list)
    _count: int = 0

    def __post_init__(self) -> None:
        self._write(json.dumps(header_of(self.session)))

    def _write(self, text: str) -> None:
        self.lines.append(text)
        if self.path is not None:
            try:
                with self.path.open("a", encoding="ascii") as out:
                    out.write(text + "\n")
            except OSError:  # a transcript is a debugging aid: the game goes on without it
                self.path = None

    def note(self, conn: int, direction: str, line: str | None = None, at: float | None = None) -> None:
        """One entry, at ``at`` (an input's time, before the session has it) or the
        session's time (what it sends while handling an input)."""
        entry: dict[str, Any] = {"t": round(self.session.now if at is None else at, 6), "c": conn, "d": direction}
        if line is not None:
            entry["line"] = line
        self._write(json.dumps(entry))

    def tap(self, peer: Peer) -> _Tap:
        self._count += 1
        return _Tap(peer, self._count, self)


def record(session: Session, directory: Path | None = None) -> Transcript:
    """Transcribe ``session``: its inputs and its peers are wrapped (nothing else changes).
    With ``directory``, written to ``<game>-<server>-<pid>-<game no>.jsonl`` there."""
    path = None
    if directory is not None:
        s = session.settings
        path = directory / f"{s.vocab.game}-{s.server}-{os.getpid()}-{id(session):x}-{session.game_no}.jsonl"
    return _tap_inputs(session, Transcript(session, path))


def collecting(watch: Callable[[Session], K]) -> tuple[Callable[[Session], None], list[K]]:
    """A session hook that keeps what ``watch`` (``record``, ``monitor``) gives for each
    game's session, and the list it keeps them in, in the order the games began."""
    kept: list[K] = []

    def hook(session: Session) -> None:
        kept.append(watch(session))

    return hook, kept


def _tap_inputs(session: Session, transcript: T) -> T:
    """Wrap ``session``'s inputs and its peers so that ``transcript`` notes them: a
    line and a departure as they are handled (a held one at its release, in the order
    its answers come)."""
    join, receive, leave, shutdown = session.join, session.handle, session.depart, session.shutdown

    def joined(peer: Peer, now: float) -> Entity:
        tap = transcript.tap(peer)
        transcript.note(tap.number, "open", at=now)
        return join(tap, now)

    def received(ent: Entity, line: str | LineError, now: float, arrived: float | None = None) -> None:
        if isinstance(ent.peer, _Tap):
            if isinstance(line, LineError):
                transcript.note(ent.peer.number, "bad", line.value, at=now)
            else:
                transcript.note(ent.peer.number, "in", line, at=now)
        receive(ent, line, now, arrived)

    def left(ent: Entity, now: float) -> None:
        if isinstance(ent.peer, _Tap) and not ent.peer.closed:  # the server's own drop is its close
            transcript.note(ent.peer.number, "leave", at=now)
        leave(ent, now)

    session.join = joined  # type: ignore[method-assign]

    def stopped(now: float, termination: Termination = Termination.SHUTDOWN) -> None:
        if not session.over:
            transcript.note(0, "stop", at=now)
        shutdown(now, termination)

    session.shutdown = stopped  # type: ignore[method-assign]
    session.handle = received  # type: ignore[method-assign]
    session.depart = left  # type: ignore[method-assign]
    return transcript


class Monitor(Transcript):
    """``referee serve --check-protocol`` (``Config.check_protocol``): the transcript
    is not kept but fed, line by line as the session writes it, to the model
    (``Replay``), as ``--engine checked`` checks the rules.  The first line the model
    does not allow is logged as one ``protocol_divergence`` JSON line (impl/log.py)
    and the game goes on: the session is the authority, the model only watches.
    Checking stops there for this game, since the model no longer knows the state
    the server is in (its later lines would each differ too)."""

    replay: Replay | None = None
    divergence: str | None = None
    _number: int = 1

    def _write(self, text: str) -> None:
        if self.replay is None:
            self.replay = Replay(setup_of(json.loads(text)))
            return
        self._number += 1
        if self.divergence is None:
            self.divergence = self.replay.feed(event_of(self._number, text))
            if self.divergence is not None:
                s = self.session
                event(
                    logging.ERROR,
                    "protocol_divergence",
                    game=s.settings.vocab.game,
                    server=s.settings.server,
                    game_no=s.game_no,
                    problem=self.divergence,
                )


def monitor(session: Session) -> Monitor:
    """Check what ``session`` sends against the model as it sends it (``Monitor``)."""
    return _tap_inputs(session, Monitor(session))


# ─── Checking ──────────────────────────────────────────────────────────────────


class EngineRules:
    """A rules engine (impl/engines/port.py) as the model consults the rules."""

    def __init__(self, engine: GameEngine) -> None:
        self.engine = engine

    def initial(self) -> Any:
        return self.engine.initial()

    def to_move(self, position: Any) -> int:
        return int(side_to_move(self.engine, position))

    def parse(self, token: str) -> Any | None:
        return self.engine.parse_move(token)

    def apply(self, position: Any, move: Any) -> tuple[M.Verdict, Any]:
        result, after = self.engine.apply(position, move)
        if result == R.not_done:
            return M.Verdict.NOT_DONE, after
        if result == R.illegal_move:
            return M.Verdict.ILLEGAL, after
        won = winner(self.engine, result)
        verdict = M.Verdict.DRAW if won is None else (M.Verdict.FIRST_WINS, M.Verdict.SECOND_WINS)[int(won)]
        return verdict, after

    def format(self, move: Any) -> str:
        return self.engine.format_move(move)

    def render(self, position: Any) -> Sequence[str]:
        return self.engine.render(position)


class BadTranscript(ValueError):
    """A file that is no transcript."""


@dataclass(frozen=True)
class Event:
    number: int
    """Its line in the file (the header is line 1)."""
    t: float
    conn: int
    direction: str
    line: str | None


def setup_of(header: dict[str, Any]) -> M.Setup:
    try:
        if header.get("transcript") != VERSION or header["game"] not in M.WORDS:
            raise BadTranscript("not a transcript (version 1) of awari or gothello")
        return M.Setup(
            game=header["game"],
            timed=bool(header["timed"]),
            time=_time(header.get("time")),
            increment=_pair(header.get("increment", [0.0, 0.0])),
            config_messages=str(header["config_messages"]),
            rules=str(header["rules"]),
            opening=tuple(str(m) for m in header["opening"]),
            max_observers=int(header["max_observers"]),
            max_rejected=int(header["max_rejected"]),
            seat_timeout=float(header["seat_timeout"]),
            wait_timeout=float(header["wait_timeout"]),
            idle_timeout=float(header["idle_timeout"]),
        )
    except (KeyError, TypeError, ValueError, OverflowError) as exc:
        raise BadTranscript(f"line 1: bad header ({exc})") from None


def _time(value: Any) -> tuple[float, float] | None:
    """The header's clocks: two numbers, or absent (transcripts written before it)."""
    if value is None:
        return None
    first, second = value
    return float(first), float(second)


def _pair(values: Any) -> tuple[float, float]:
    first, second = (float(v) for v in values)
    return first, second


_DIRECTIONS = {"open": False, "in": True, "bad": True, "out": True, "close": False, "leave": False, "stop": False}


def parse(lines: Iterable[str]) -> tuple[M.Setup, list[Event]]:
    """A transcript's header and events; BadTranscript naming the line if malformed."""
    it = iter(lines)
    try:
        first = next(it)
    except StopIteration:
        raise BadTranscript("empty file") from None
    try:
        header = json.loads(first)
    except json.JSONDecodeError:
        raise BadTranscript("line 1: not JSON") from None
    if not isinstance(header, dict):
        raise BadTranscript("line 1: not a header")
    setup = setup_of(header)
    return setup, [event_of(number, text) for number, text in enumerate(it, 2) if text.strip()]


def event_of(number: int, text: str) -> Event:
    """Line ``number`` of a transcript, an event; BadTranscript if it is none."""
    try:
        entry = json.loads(text)
        direction = entry["d"]
        line = entry.get("line")
        if direction not in _DIRECTIONS or _DIRECTIONS[direction] != isinstance(line, str):
            raise ValueError(direction)
        return Event(number, float(entry["t"]), int(entry["c"]), direction, line)
    except (ValueError, KeyError, TypeError, AttributeError, OverflowError):
        raise BadTranscript(f"line {number}: not a transcript event") from None


@dataclass(frozen=True)
class _Cand:
    """One reading of the transcript so far: the model, and the lines it still owes."""

    model: M.Referee
    owed: tuple[tuple[int, tuple[str, ...]], ...] = ()

    def queues(self) -> dict[int, tuple[str, ...]]:
        return dict(self.owed)

    def settled(self) -> bool:
        return not self.owed

    def owe(self, out: list[M.Out]) -> _Cand:
        queues = self.queues()
        for conn, line in out:
            queues[conn] = (*queues.get(conn, ()), line)
        return _Cand(self.model, tuple(sorted((c, q) for c, q in queues.items() if q)))

    def take(self, conn: int, line: str) -> _Cand | None:
        queues = self.queues()
        owed = queues.get(conn, ())
        if not owed or not M.matches(owed[0], line):
            return None
        queues[conn] = owed[1:]
        return _Cand(self.model, tuple(sorted((c, q) for c, q in queues.items() if q)))


@dataclass(frozen=True)
class TranscriptCheck:
    ok: bool
    message: str
    rows: frozenset[str] = frozenset()
    """The model's rows taken (``state/request``), for coverage."""


def _shown(line: str) -> str:
    if line == M.CLOSE:
        return "<close>"
    return re.sub("\x02([0-9]+)\x03", r"<secs <= \1>", line.replace(M.SECS, "<secs>"))


def _input(cand: _Cand, ev: Event) -> list[_Cand]:
    model = cand.model
    if ev.direction == "open":
        results = [model.join(ev.conn)]
    elif ev.direction == "in":
        assert ev.line is not None
        results = model.receive(ev.conn, ev.line)
    elif ev.direction == "bad":
        assert ev.line is not None
        results = [model.refuse_line(ev.conn, ev.line)]
    else:
        results = [model.leave(ev.conn)]
    return [_Cand(m, cand.owed).owe(out) for m, out in results]


def _dedupe(cands: list[_Cand]) -> list[_Cand]:
    if len(cands) < 2:  # the usual case: no hash of a model, which is linear in its connections (issue #49)
        return cands
    seen: dict[Any, _Cand] = {}
    for c in cands:
        seen.setdefault((c.model, c.owed), c)
    return list(seen.values())[:64]


class Replay:
    """The model fed a transcript's events one by one: ``feed`` returns None, or the
    difference at that event.  ``models`` are the readings still possible (more than
    one while a ``player ?`` or a timeout is not yet told apart)."""

    def __init__(self, setup: M.Setup, engine: GameEngine | None = None) -> None:
        self.rules = EngineRules(engine if engine is not None else get_engine(setup.game, "impl", setup.rules))
        self.cands = [_Cand(M.Referee.new(setup, self.rules))]
        self.rows: set[str] = set()
        self._before: list[_Cand] = []
        self._pending: Event | None = None
        self._consumed: list[Event] = []
        self.stopped = False
        """The server ended the game itself (a ``stop``): nothing after it is checked."""

    @property
    def models(self) -> list[M.Referee]:
        return [c.model for c in self.cands]

    def feed(self, ev: Event) -> str | None:
        if self.stopped or ev.direction == "stop":
            self.stopped = True
            return None
        cands = self.cands
        if ev.direction in ("open", "in", "bad", "leave"):
            settled = [c for c in cands if c.settled()]
            if not settled:
                return f"line {ev.number}: {ev.direction} on {ev.conn} while {_owed(cands)}"
            self._before, self._pending, self._consumed = settled, ev, []
            self.cands = _dedupe([n for c in settled for n in _input(c, ev)])
            self.rows.update(c.model.last for c in self.cands if c.model.last)
            return None
        line = M.CLOSE if ev.direction == "close" else ev.line
        assert line is not None
        taken = [n for c in cands if (n := c.take(ev.conn, line)) is not None]
        if not taken:
            # Time alone may have acted: since the last input, or before it was handled.
            alt = [_Cand(m).owe(out) for s in cands if s.settled() for _, m, out in s.model.timeouts()]
            if self._pending is not None:
                for s in self._before:
                    for _, m, out in s.model.timeouts():
                        for c in _input(_Cand(m).owe(out), self._pending):
                            replayed: _Cand | None = c
                            for old in self._consumed:
                                old_line = M.CLOSE if old.direction == "close" else old.line or ""
                                replayed = replayed.take(old.conn, old_line) if replayed is not None else None
                            if replayed is not None:
                                alt.append(replayed)
            taken = [n for c in alt if (n := c.take(ev.conn, line)) is not None]
            if not taken:
                allowed = sorted({_shown(q[0]) for c in cands for conn, q in c.owed if conn == ev.conn})
                what = " or ".join(repr(a) for a in allowed) if allowed else "nothing"
                return (
                    f"line {ev.number}: connection {ev.conn} got {_shown(line)!r}; the model allowed {what}"
                    f" (after {cands[0].model.last or 'no request'})"
                )
        self._consumed.append(ev)
        self.cands = _dedupe(taken)
        return None

    def finish(self) -> str | None:
        if not any(c.settled() for c in self.cands):
            return f"end of transcript while {_owed(self.cands)}"
        return None


def check_events(setup: M.Setup, events: Sequence[Event], engine: GameEngine | None = None) -> TranscriptCheck:
    """Replay ``events`` against the model; the first one it does not allow, or OK."""
    replay = Replay(setup, engine)
    for ev in events:
        problem = replay.feed(ev)
        if problem is not None:
            return TranscriptCheck(False, problem, frozenset(replay.rows))
    problem = replay.finish()
    return TranscriptCheck(problem is None, problem or "OK", frozenset(replay.rows))


def _owed(cands: list[_Cand]) -> str:
    conn, queue = cands[0].owed[0]
    return f"connection {conn} is still owed {_shown(queue[0])!r}"


def check_lines(lines: Iterable[str]) -> TranscriptCheck:
    """A transcript's text, checked (BadTranscript if it is no transcript)."""
    setup, events = parse(lines)
    return check_events(setup, events)


def check_file(path: Path) -> TranscriptCheck:
    try:
        with path.open(encoding="utf-8") as f:
            return check_lines(f.read().splitlines())
    except UnicodeDecodeError:
        raise BadTranscript("not UTF-8") from None
