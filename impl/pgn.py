"""Game records in the shape of chess's PGN (Portable Game Notation): tag pairs,
then numbered movetext with ``{[%clk h:mm:ss.s]}`` clock comments, then the result.
The server's ``--record``, ``referee match`` and ``referee tournament`` write it;
``referee replay`` / ``show`` and the web view's archive read it.  docs/protocol.md,
"Game records", is the reference.

Choices where the games are not chess:

* The players are tagged by the papers' side names, first mover first: ``South`` /
  ``North`` for Awari, ``Black`` / ``White`` for Gothello (whose first mover is
  black, unlike chess).  ``Result`` gives the first mover's score first: ``1-0``
  means south (or black) won, ``0-1`` north (or white), ``1/2-1/2`` a draw and
  ``*`` an aborted game.
* ``Termination`` is impl/game.py's ``Termination`` value (``move``, ``time``, …).
* ``Rules`` names the rule set (``massey``: the paper's, unless the record says
  otherwise).  ``TimeControl`` is PGN's: seconds per game (``300``), ``-`` without
  clocks, ``300:200`` when the sides' clocks differ (first mover's first).
* Awari movetext is the 1994 Olympiad notation: the pit, the stones sown, and
  ``x`` with the stones the move adds to the mover's store (``F4``, ``c7x2``).  Its
  first letter is the protocol's move; the reader checks the rest against the
  engine.  Gothello movetext is the protocol's (``c3``, ``pass``).
* Tag values are ASCII, ``\\`` and ``"`` escaped with a backslash.  A tag may repeat
  (``Divergence``, one per divergence of the checked engine).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from impl.awari import unpack
from impl.engine import GameEngine, GameState, side_to_move
from impl.engines import get_engine
from impl.game import Outcome, Side, Termination
from impl.protocol import VOCABULARIES

DEFAULT_RULES = "massey"
"""The rules of Bart Massey's papers."""


def engine_rules(game: str, name: str) -> str:
    """The canonical name of the rule set a ``Rules`` tag names (spec/awari_rules.py
    ``parse_rules``, which reads any combination): ``massey`` (or none) is the papers',
    ``paper`` to the engines; PgnError for a text the parser refuses, or for another
    set than the papers' in a Gothello record."""
    from spec.awari_rules import RulesError, canonical

    try:
        rules = "paper" if name in ("", DEFAULT_RULES) else canonical(name)
    except RulesError as exc:
        raise PgnError(f"unknown {game} rules {name!r}: {exc}") from None
    if rules != "paper" and game != "awari":
        raise PgnError(f"unknown {game} rules {name!r}")
    return rules


RESULTS = {Side.FIRST: "1-0", Side.SECOND: "0-1", None: "1/2-1/2"}
ABORTED = "*"
LINE = 79
UNCHECKED = "Unchecked"
"""Tag: the first ply the fast engine refused; it and those after are as sent."""


class PgnError(ValueError):
    """The text is not a record in this format; the message says why."""


@dataclass(frozen=True)
class Ply:
    """One move as recorded: the protocol's token, the movetext's notation, and the
    mover's clock after it (seconds, None without clocks)."""

    move: str
    san: str
    clock: float | None = None


@dataclass(frozen=True)
class PgnGame:
    """A record: its tags in order (a key may repeat), its plies and its result token."""

    tags: tuple[tuple[str, str], ...]
    plies: tuple[Ply, ...]
    result: str

    def tag(self, key: str, default: str = "") -> str:
        return next((v for k, v in self.tags if k == key), default)

    def tag_all(self, key: str) -> list[str]:
        return [v for k, v in self.tags if k == key]

    def with_tags(self, **values: str) -> PgnGame:
        """The record with these tags replaced (or added after the others)."""
        tags = [(k, values.pop(k) if k in values else v) for k, v in self.tags]
        return PgnGame((*tags, *values.items()), self.plies, self.result)

    @property
    def game(self) -> str:
        return self.tag("Game")

    @property
    def moves(self) -> list[str]:
        return [p.move for p in self.plies]

    @property
    def sides(self) -> tuple[str, str]:
        return VOCABULARIES[self.game].sides

    @property
    def names(self) -> tuple[str, str]:
        first, second = (self.tag(s.capitalize()) for s in self.sides)
        return first, second

    @property
    def outcome(self) -> Outcome:
        # Without a Termination tag (another program's record): by the rules, or aborted.
        default = Termination.ERROR if self.result == ABORTED else Termination.MOVE
        termination = Termination(self.tag("Termination", default.value))
        if self.result == ABORTED:
            return Outcome(None, termination)
        winner = next(side for side, token in RESULTS.items() if token == self.result)
        return Outcome(winner, termination)

    @property
    def time(self) -> tuple[float, float] | None:
        return parse_time_control(self.tag("TimeControl", "-"))


# ─── writing ───────────────────────────────────────────────────────────────────


def result_token(outcome: Outcome) -> str:
    return ABORTED if outcome.termination.aborted else RESULTS[outcome.winner]


def time_control(time: tuple[float, float] | None) -> str:
    if time is None:
        return "-"
    first, second = (f"{t:g}" for t in time)
    return first if first == second else f"{first}:{second}"


def parse_time_control(text: str) -> tuple[float, float] | None:
    if text in ("-", "?", ""):
        return None
    try:
        parts = [float(p) for p in text.split(":")]
    except ValueError:
        raise PgnError(f"bad TimeControl {text!r}") from None
    if len(parts) not in (1, 2) or any(p <= 0 for p in parts):
        raise PgnError(f"bad TimeControl {text!r}")
    return parts[0], parts[-1]


def clock_text(seconds: float) -> str:
    """``h:mm:ss.s``, as PGN's ``[%clk]`` (tenths kept: the server measures them)."""
    tenths = round(max(0.0, seconds) * 10)
    hours, rest = divmod(tenths, 36000)
    minutes, rest = divmod(rest, 600)
    return f"{hours}:{minutes:02d}:{rest // 10:02d}.{rest % 10}"


def escape(value: str) -> str:
    """A tag value: ASCII, on one line (control characters become spaces),
    ``\\`` and ``"`` escaped."""
    ascii_value = value.encode("ascii", "backslashreplace").decode("ascii")
    one_line = "".join(ch if " " <= ch <= "~" else " " for ch in ascii_value)
    return one_line.replace("\\", "\\\\").replace('"', '\\"')


def notate(game: str, moves: Sequence[str], rules: str = "paper") -> tuple[list[str], int | None]:
    """The movetext notation of each move, checked by the fast engine; and the
    first ply (1-based) it refuses, None if none: from there on the moves are
    written as sent (a game under the checked engine may follow the spec where the
    fast engine refuses: README, "The checked engine"); ``rules``, the engines' name
    of the rule set."""
    engine = get_engine(game, "impl", rules)
    state = engine.initial()
    out: list[str] = []
    for i, move in enumerate(moves):
        try:
            san, state = _step(game, engine, state, move, i)
        except PgnError:
            return [*out, *moves[i:]], i + 1
        out.append(san)
    return out, None


def _step(game: str, engine: GameEngine, state: GameState, move: str, index: int) -> tuple[str, GameState]:
    action = engine.parse_move(move)
    if action is None or engine.is_over(state) or action not in engine.legal_moves(state):
        raise PgnError(f"ply {index + 1}: {move!r} is not a legal move here")
    mover = side_to_move(engine, state)
    _, after = engine.apply(state, action)
    if game != "awari":
        return move, after
    sown = unpack(state[:3]).board[action.value]
    captured = engine.counts(after)[mover] - engine.counts(state)[mover]
    return f"{move}{sown}" + (f"x{captured}" if captured else ""), after


def write(record: PgnGame) -> str:
    """The record as text: tag pairs, a blank line, the movetext wrapped at 79
    columns, ending with the result."""
    lines = [f'[{key} "{escape(value)}"]' for key, value in record.tags]
    words: list[str] = []
    for i, ply in enumerate(record.plies):
        if i % 2 == 0:
            words.append(f"{i // 2 + 1}.")
        words.append(ply.san)
        if ply.clock is not None:
            words.append(f"{{[%clk {clock_text(ply.clock)}]}}")
    words.append(record.result)
    return "\n".join([*lines, "", *_wrap(words)]) + "\n"


def _wrap(words: Iterable[str]) -> list[str]:
    lines: list[str] = []
    current = ""
    for word in words:
        if current and len(current) + 1 + len(word) > LINE:
            lines.append(current)
            current = word
        else:
            current = f"{current} {word}" if current else word
    return [*lines, current] if current else lines


def build(
    game: str,
    tags: Sequence[tuple[str, str]],
    moves: Sequence[str],
    clocks: Sequence[float] | None,
    outcome: Outcome,
) -> PgnGame:
    """A record of ``moves`` (protocol tokens) with their notation worked out."""
    rules = engine_rules(game, next((v for k, v in tags if k == "Rules"), ""))
    sans, unchecked = notate(game, moves, rules)
    times = [None] * len(moves) if clocks is None else list(clocks)
    plies = tuple(Ply(m, s, c) for m, s, c in zip(moves, sans, times, strict=True))
    extra = [] if unchecked is None else [(UNCHECKED, str(unchecked))]
    return PgnGame((*tags, *extra), plies, result_token(outcome))


# ─── reading ───────────────────────────────────────────────────────────────────

_TAG = re.compile(r'\[([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\]\s*$')
_TOKEN = re.compile(r"\{[^}]*\}|;[^\n]*|\d+\.(?:\.\.)?|1-0|0-1|1/2-1/2|\*|[^\s{};]+")
_CLOCK = re.compile(r"\[%clk\s+(\d+):(\d+):(\d+(?:\.\d*)?)\]")
_AWARI_SAN = re.compile(r"([A-Fa-f])(\d+)(?:x(\d+))?")


def parse(text: str) -> PgnGame:
    """The record in ``text``, every move checked by the engine; PgnError if it is
    not one."""
    head, sep, body = text.strip().partition("\n\n")
    if not sep:
        raise PgnError("no blank line between the tags and the moves")
    tags = []
    for line in head.splitlines():
        match = _TAG.match(line.strip())
        if match is None:
            raise PgnError(f"not a tag pair: {line[:60]!r}")
        tags.append((match[1], re.sub(r"\\(.)", r"\1", match[2])))
    game = next((v for k, v in tags if k == "Game"), "")
    if game not in VOCABULARIES:
        raise PgnError(f"no Game tag naming awari or gothello (got {game!r})")
    engine = get_engine(game, "impl", engine_rules(game, next((v for k, v in tags if k == "Rules"), "")))
    state = engine.initial()
    plies: list[Ply] = []
    result = ""
    unchecked = int(next((v for k, v in tags if k == UNCHECKED), "0") or 0) or None
    for token in _TOKEN.findall(body):
        if result:
            raise PgnError(f"text after the result: {token!r}")
        if token.startswith("{"):
            clock = _CLOCK.search(token)
            if clock is not None and plies:
                h, m, s = clock.groups()
                plies[-1] = Ply(plies[-1].move, plies[-1].san, int(h) * 3600 + int(m) * 60 + float(s))
        elif token.startswith(";") or token.endswith("."):
            continue
        elif token in (*RESULTS.values(), ABORTED):
            result = token
        elif unchecked is not None and len(plies) + 1 >= unchecked:
            plies.append(Ply(token, token))
        else:
            move = _move_of(game, token)
            san, state = _step(game, engine, state, move, len(plies))
            if san != token:
                raise PgnError(f"ply {len(plies) + 1}: {token!r} should read {san!r}")
            plies.append(Ply(move, san))
    if not result:
        raise PgnError("no result at the end of the moves")
    if result != next((v for k, v in tags if k == "Result"), result):
        raise PgnError("the Result tag and the movetext's result differ")
    values = dict(tags)
    if values.get("Termination", "move") not in {t.value for t in Termination}:
        raise PgnError(f"unknown Termination {values['Termination']!r}")
    parse_time_control(values.get("TimeControl", "-"))
    return PgnGame(tuple(tags), tuple(plies), result)


def _move_of(game: str, token: str) -> str:
    if game == "awari":
        match = _AWARI_SAN.fullmatch(token)
        if match is None:
            raise PgnError(f"not an Awari move in the Olympiad notation: {token!r}")
        return match[1]
    return token
