"""Openings the referee plays before the players move (issue #29): read from a
file, or drawn at random; each is checked by the rules engine.

An openings file has one opening a line: moves in the papers' notation separated
by spaces (Gothello ``c3 d4 pass``, Awari ``F a``), optionally numbered as the wire
numbers them (``1 c3 1 ... d4``, docs/protocol.md Tables 6 and 9; ``1.`` is read
as ``1``); ``#`` starts a comment, blank lines are skipped.  An opening is valid
when every move is legal in turn and none ends the game.  The server plays it
(impl/server/session.py); a tournament plays each with colours reversed
(impl/apps/tournament/schedule.py).  Everything here is pure: no I/O but ``read_openings``.

A file is bounded: at most ``MAX_BYTES`` bytes and ``MAX_OPENINGS`` openings, and
only a regular file is read (a FIFO or ``/dev/zero`` is refused, never waited on).
A run file keeps the openings' ``digest`` and count, not the list.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
from collections.abc import Sequence
from pathlib import Path

from impl.atomic import read_bounded, why
from impl.engines.port import GameEngine, GameState
from spec import result as R

Opening = tuple[str, ...]
"""An opening's moves as the wire spells them (``c3``, ``pass``, ``F``)."""

ORDERS = ("sequential", "random")
MAX_BYTES = 1 << 20
"""The largest openings file read (1 MiB: some 50,000 lines of a 20-ply opening)."""
MAX_OPENINGS = 10_000
"""The most openings a file may hold: more than any match or tournament plays."""
_NUMBER = re.compile(r"([0-9]+)\.?")


class OpeningError(ValueError):
    """An opening that is not one; the message says where and why."""


def play(engine: GameEngine, moves: Sequence[str]) -> tuple[Opening, GameState]:
    """``moves`` checked and normalised (``format_move``), and the position after
    them.  OpeningError naming the first bad move: not a move, illegal, or ending
    the game (an opening leaves the game to the players)."""
    state = engine.initial()
    out: list[str] = []
    for i, token in enumerate(moves):
        action = engine.parse_move(token)
        if action is None:
            raise OpeningError(f"no such move {token!r}")
        reason = engine.why_illegal(state, action)
        if reason is not None:
            raise OpeningError(f"move {i + 1} {token}: {reason}")
        result, state = engine.apply(state, action)
        if result == R.illegal_move:
            raise OpeningError(f"move {i + 1} {token} is illegal")
        if result != R.not_done:
            raise OpeningError(f"move {i + 1} {token} ends the game")
        out.append(engine.format_move(action))
    return tuple(out), state


def parse_opening(engine: GameEngine, text: str) -> Opening:
    """One opening from a line (comment already removed): its moves, with any
    full-move numbers and ``...`` checked against the ply they precede."""
    moves: list[str] = []
    for word in text.split():
        number = _NUMBER.fullmatch(word)
        if number is not None:
            if int(number[1]) != len(moves) // 2 + 1:
                raise OpeningError(f"move number {word} before ply {len(moves) + 1}")
        elif word == "...":
            if len(moves) % 2 == 0:
                raise OpeningError(f"'...' before a move of the first player (ply {len(moves) + 1})")
        else:
            moves.append(word)
    return play(engine, moves)[0]


def parse_openings(engine: GameEngine, text: str, name: str) -> tuple[Opening, ...]:
    """Every opening in an openings file's ``text``; OpeningError ``NAME:LINE:
    reason`` at the first bad line, or if there is none."""
    out: list[Opening] = []
    for number, line in enumerate(text.splitlines(), 1):
        body = line.split("#", 1)[0].strip()
        if not body:
            continue
        if len(out) == MAX_OPENINGS:
            raise OpeningError(f"{name}:{number}: more than {MAX_OPENINGS:,} openings")
        try:
            out.append(parse_opening(engine, body))
        except OpeningError as exc:
            raise OpeningError(f"{name}:{number}: {exc}") from None
    if not out:
        raise OpeningError(f"{name}: no openings in the file")
    return tuple(out)


def read_openings(engine: GameEngine, path: Path) -> tuple[Opening, ...]:
    """The openings of the regular file at ``path`` of at most ``MAX_BYTES``
    (``parse_openings``)."""
    try:
        text = read_bounded(path, MAX_BYTES).decode("ascii")
    except OSError as exc:
        raise OpeningError(why(exc) if exc.filename else f"{path}: {why(exc)}") from None
    except UnicodeDecodeError:
        raise OpeningError(f"{path}: not an ASCII text file") from None
    return parse_openings(engine, text, str(path))


def digest(openings: Sequence[Sequence[str]]) -> str:
    """The SHA-256 of ``openings`` in order, as compact JSON: what a run file keeps
    to know its openings again (the same for a list read back from an old run file)."""
    text = json.dumps([list(o) for o in openings], separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def playable(engine: GameEngine, state: GameState) -> bool:
    """The player to move has a move that does not end the game (else the opening
    would decide it)."""
    return any(engine.apply(state, m)[0] == R.not_done for m in engine.legal_moves(state))


def random_openings(engine: GameEngine, count: int, plies: int, seed: int) -> tuple[Opening, ...]:
    """``count`` distinct openings of ``plies`` random legal moves each, drawn with
    ``seed``: none ends the game, and after each the player to move can go on
    without ending it.  OpeningError if that many cannot be found."""
    rng = random.Random(seed)
    found: dict[Opening, None] = {}
    for _ in range(100 * count + 1000):
        if len(found) == count:
            break
        opening = _walk(engine, plies, rng)
        if opening is not None:
            found.setdefault(opening)
    if len(found) < count:
        raise OpeningError(f"found only {len(found)} distinct openings of {plies} plies, not {count}")
    return tuple(found)


def _walk(engine: GameEngine, plies: int, rng: random.Random) -> Opening | None:
    state = engine.initial()
    moves: list[str] = []
    for _ in range(plies):
        legal = engine.legal_moves(state)
        if not legal:
            return None
        action = rng.choice(legal)
        result, state = engine.apply(state, action)
        if result != R.not_done:
            return None
        moves.append(engine.format_move(action))
    return tuple(moves) if playable(engine, state) else None


def ordered(openings: Sequence[Opening], order: str, seed: int) -> tuple[Opening, ...]:
    """The openings in file order (``sequential``) or shuffled with ``seed``."""
    if order not in ORDERS:
        raise ValueError(f"order must be one of {ORDERS}, not {order!r}")
    out = list(openings)
    if order == "random":
        random.Random(seed).shuffle(out)
    return tuple(out)


def nth_opening(openings: Sequence[Opening], repeat: bool, game: int) -> Opening:
    """The opening of the ``game``-th game (from 0) of a pairing: with ``repeat``
    games 2k and 2k+1 share opening k (played with colours reversed), else game k
    plays opening k; the list wraps around.  No openings: the empty one."""
    if not openings:
        return ()
    return openings[(game // 2 if repeat else game) % len(openings)]
