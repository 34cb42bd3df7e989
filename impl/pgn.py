"""Game records in the shape of chess's PGN (Portable Game Notation): tag pairs,
then numbered movetext with ``{[%clk h:mm:ss.s]}`` clock comments, then the result.
The server's ``--record``, ``referee match`` and ``referee tournament`` write it;
``referee replay`` / ``show`` and the web view's archive read it.  ``PgnGame`` is
the one model of a record, written (``record``: from the plies as the game's
events described them, never replaying it) and read (``parse``: every move
checked by the engine, the one place a record is replayed).  docs/protocol.md,
"Game records", is the reference.

Choices where the games are not chess:

* ``White`` / ``Black`` and ``Result`` follow PGN's convention, so that rating
  tools (Ordo, BayesElo, pgn-extract, python-chess) credit the right player:
  ``1-0`` White won, ``0-1`` Black won.  Awari's first mover (south) is White, as in
  chess; Gothello's black (the first mover) is Black.  Awari keeps the papers'
  ``South`` / ``North`` beside them, and ``Outcome`` gives the papers' words
  (``black wins``, ``draw``, ``aborted``).  ``[ResultConvention "PGN"]`` marks
  these records; earlier ones lack it, tag the players by side only and give the
  first mover's score first, and are still read right.
* ``Termination`` is impl/game.py's ``Termination`` value (``move``, ``time``, …).
* ``Rules`` names the rule set (``massey``: the paper's, unless the record says
  otherwise; impl/game.py's table of names).  ``TimeControl`` is PGN's: seconds
  per game (``300``) and a Fischer increment (``300+2``), ``-`` without clocks.
  When the sides' clocks differ, cutechess-cli's ``WhiteTimeControl`` and
  ``BlackTimeControl`` stand in its place (PGN's ``300:200`` would be two periods);
  older records' ``300:200`` (first mover's first) is still read.
* Awari movetext is the 1994 Olympiad notation: the pit, the stones sown, and
  ``x`` with the stones the move adds to the mover's store (``F4``, ``c7x2``).  Its
  first letter is the protocol's move; the reader checks the rest against the
  engine.  Gothello movetext is the protocol's (``c3``, ``pass``).
* The text is UTF-8; tag values are kept as they are (names in any script), only
  ``\\`` and ``"`` escaped with a backslash, as PGN says.  A tag may repeat
  (``Divergence``, one per divergence of the checked engine).
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from impl.engines.port import GameEngine, GameState
from impl.engines.registry import get_engine
from impl.game import GameRulesError, Outcome, Side, Termination, record_rules
from impl.protocol import VOCABULARIES, TimeControl


def engine_rules(game: str, name: str) -> str:
    """The canonical name of the rule set a ``Rules`` tag names (impl/game.py
    ``record_rules``: ``massey``, or none, is the papers'); PgnError for a text the
    parser refuses, or for another set than the papers' in a Gothello record."""
    try:
        return record_rules(game, name)
    except GameRulesError as exc:
        raise PgnError(str(exc)) from None
    except ValueError as exc:
        raise PgnError(f"unknown {game} rules {name!r}: {exc}") from None


WHITE_WON, BLACK_WON, DRAW, ABORTED = "1-0", "0-1", "1/2-1/2", "*"
COLOURS: dict[str, tuple[str, str]] = {"awari": ("White", "Black"), "gothello": ("Black", "White")}
"""PGN's colour of each side, first mover first: Awari's south moves first, as
chess's White; Gothello's black (its first mover) is PGN's Black."""
CONVENTION = "ResultConvention"
"""Tag: ``PGN`` when ``Result`` is White's score first; without it (records of
earlier versions) the first mover's score is first."""
OUTCOME = "Outcome"
"""Tag: the result in the papers' words (impl/game.py ``Outcome.result``)."""
LINE = 79
OPENING = "Opening"
"""Tag: the moves the referee played first (docs/protocol.md "Openings"); the
movetext marks them ``{book}``, as cutechess marks book moves."""
UNCHECKED = "Unchecked"
"""Tag: the first ply at which the checked engine found the fast one diverging (a
record the fast engine may not read past it); it and those after are as sent."""
MAX_BYTES = 4 << 20
"""A record is a few kilobytes; the reader refuses more than this (4 MiB), and the
commands that read a record file read no more (docs/protocol.md, "Game records")."""
MAX_SECONDS = 1e9
"""The largest time control the reader accepts (some 31 years)."""
REPEATABLE = frozenset({"Divergence"})
"""The tags a record may hold more than once."""


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

    def with_names(self, first: str, second: str) -> PgnGame:
        """The record with the players renamed (first mover's first), in every tag
        that names them."""
        names = dict(zip(self._name_keys(), (first, second), strict=True))
        present = {k for k, _ in self.tags}
        keys = (s.capitalize() for s in self.sides)
        sides = {k: n for k, n in zip(keys, (first, second), strict=True) if k in present}
        return self.with_tags(**(sides | names))

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
    def pgn_convention(self) -> bool:
        """Whether ``Result`` is White's score first (else the first mover's)."""
        return self.tag(CONVENTION) == "PGN"

    def _name_keys(self) -> tuple[str, str]:
        if self.pgn_convention:
            return COLOURS[self.game]
        first, second = (s.capitalize() for s in self.sides)
        return first, second

    @property
    def names(self) -> tuple[str, str]:
        """The players' names, first mover's first."""
        first, second = (self.tag(key) for key in self._name_keys())
        return first, second

    @property
    def outcome(self) -> Outcome:
        # Without a Termination tag (another program's record): by the rules, or aborted.
        default = Termination.ERROR if self.result == ABORTED else Termination.MOVE
        termination = Termination(self.tag("Termination", default.value))
        if self.result in (ABORTED, DRAW):
            return Outcome(None, termination)
        first_is_white = not self.pgn_convention or COLOURS[self.game][0] == "White"
        first_won = (self.result == WHITE_WON) == first_is_white
        return Outcome(Side.FIRST if first_won else Side.SECOND, termination)

    @property
    def controls(self) -> tuple[TimeControl, TimeControl] | None:
        """Each side's time control, first mover's first; None without clocks."""
        return controls_of(self.game, dict(self.tags))

    @property
    def time(self) -> tuple[float, float] | None:
        """Each side's seconds for the game, first mover's first."""
        controls = self.controls
        return None if controls is None else (controls[0].seconds, controls[1].seconds)

    @property
    def increment(self) -> tuple[float, float]:
        """Each side's Fischer increment, first mover's first."""
        controls = self.controls
        return (0.0, 0.0) if controls is None else (controls[0].increment, controls[1].increment)


# ─── writing ───────────────────────────────────────────────────────────────────


def record_name(number: int) -> str:
    """Game ``number``'s record in a match's or tournament's records directory."""
    return f"game-{number:04d}.pgn"


def result_token(game: str, outcome: Outcome) -> str:
    """PGN's ``Result``: White's score first (``COLOURS``), ``*`` if aborted."""
    if outcome.termination.aborted:
        return ABORTED
    if outcome.winner is None:
        return DRAW
    return WHITE_WON if COLOURS[game][outcome.winner] == "White" else BLACK_WON


def player_tags(game: str, names: tuple[str, str]) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """``White`` and ``Black`` (in PGN's order), and the papers' side tags where
    those are not PGN's (Awari's ``South`` and ``North``), for the players
    ``names`` (first mover's first)."""
    colours = dict(zip(COLOURS[game], names, strict=True))
    sides = VOCABULARIES[game].sides
    papers = [] if game == "gothello" else [(s.capitalize(), n) for s, n in zip(sides, names, strict=True)]
    return [("White", colours["White"]), ("Black", colours["Black"])], papers


def time_control_tags(
    game: str, time: tuple[float, float] | None, increment: tuple[float, float] = (0.0, 0.0)
) -> list[tuple[str, str]]:
    """``TimeControl``: ``-`` without clocks, the control both sides share (``300``,
    ``300+2``: PGN's forms); when they differ, ``WhiteTimeControl`` and
    ``BlackTimeControl`` instead, in PGN's order, as cutechess-cli writes them."""
    if time is None:
        return [("TimeControl", "-")]
    first, second = (str(TimeControl(t, i)) for t, i in zip(time, increment, strict=True))
    if first == second:
        return [("TimeControl", first)]
    colours = dict(zip(COLOURS[game], (first, second), strict=True))
    return [("WhiteTimeControl", colours["White"]), ("BlackTimeControl", colours["Black"])]


_SECONDS = re.compile(r"\d{1,12}(?:\.\d{0,12})?(?:e\+?\d{1,2})?")


def _control(text: str, tag: str) -> TimeControl:
    """One period, ``300`` or ``300+2``: seconds positive, increment not negative,
    both at most ``MAX_SECONDS``; PgnError otherwise."""
    parts = text.split("+")
    if len(parts) > 2 or not all(_SECONDS.fullmatch(p) for p in parts):
        raise PgnError(f"bad {tag} {text[:40]!r}")
    seconds, increment = float(parts[0]), float(parts[1]) if len(parts) > 1 else 0.0
    if not (0 < seconds <= MAX_SECONDS and 0 <= increment <= MAX_SECONDS):
        raise PgnError(f"bad {tag} {text[:40]!r}: seconds out of range")
    return TimeControl(seconds, increment)


def parse_time_control(text: str) -> tuple[TimeControl, TimeControl] | None:
    """A ``TimeControl`` tag: ``-`` (no clocks), ``300``, ``300+2``, or older records'
    ``300:200`` (first mover's first); PgnError otherwise."""
    if text in ("-", "?", ""):
        return None
    parts = text.split(":")
    if len(parts) > 2:
        raise PgnError(f"bad TimeControl {text[:40]!r}")
    controls = [_control(p, "TimeControl") for p in parts]
    return controls[0], controls[-1]


def controls_of(game: str, tags: dict[str, str]) -> tuple[TimeControl, TimeControl] | None:
    """The sides' time controls, first mover's first, from ``WhiteTimeControl`` and
    ``BlackTimeControl`` (both or neither), else from ``TimeControl``."""
    white, black = tags.get("WhiteTimeControl"), tags.get("BlackTimeControl")
    if white is None and black is None:
        return parse_time_control(tags.get("TimeControl", "-"))
    if white is None or black is None:
        raise PgnError("WhiteTimeControl and BlackTimeControl come together")
    by_colour = {"White": _control(white, "WhiteTimeControl"), "Black": _control(black, "BlackTimeControl")}
    first, second = (by_colour[c] for c in COLOURS[game])
    return first, second


def clock_text(seconds: float) -> str:
    """``h:mm:ss.s``, as PGN's ``[%clk]`` (tenths kept: the server measures them)."""
    tenths = round(max(0.0, seconds) * 10) if math.isfinite(seconds) else 0
    hours, rest = divmod(tenths, 36000)
    minutes, rest = divmod(rest, 600)
    return f"{hours}:{minutes:02d}:{rest // 10:02d}.{rest % 10}"


_BREAKS = frozenset({"Cc", "Cs", "Zl", "Zp"})
"""Characters a tag value cannot hold: controls, lone surrogates (not UTF-8) and
line or paragraph separators (they end a line)."""


def escape(value: str) -> str:
    """A tag value as PGN writes it: any script kept, on one line (a control
    character or line separator becomes a space), ``\\`` and ``"`` escaped."""
    one_line = "".join(" " if unicodedata.category(ch) in _BREAKS else ch for ch in value)
    return one_line.replace("\\", "\\\\").replace('"', '\\"')


def write(record: PgnGame) -> str:
    """The record as text: tag pairs, a blank line, the movetext wrapped at 79
    columns, ending with the result and a blank line."""
    lines = [f'[{key} "{escape(value)}"]' for key, value in record.tags]
    words: list[str] = []
    book = len(record.tag(OPENING).split())
    # PGN numbers White's moves; where PGN's Black moves first (Gothello's black),
    # the first is "1..." and every White move starts the next number.
    shift = int(record.pgn_convention and COLOURS[record.game][0] == "Black")
    for i, ply in enumerate(record.plies):
        if i == 0 and shift:
            words.append("1...")
        elif (i + shift) % 2 == 0:
            words.append(f"{(i + shift) // 2 + 1}.")
        words.append(ply.san)
        if i < book:
            words.append("{book}")
        if ply.clock is not None:
            words.append(f"{{[%clk {clock_text(ply.clock)}]}}")
    words.append(record.result)
    # A blank line ends each game, as PGN asks: records concatenated (cat *.pgn) read as games.
    return "\n".join([*lines, "", *_wrap(words)]) + "\n\n"


def export(texts: Iterable[str]) -> str:
    """Records (each a ``write`` text) as one PGN file, each game ending with a
    blank line, as cutechess-cli's ``-pgnout`` writes them: the same text as the
    records' files concatenated (``cat *.pgn``)."""
    return "".join(text.strip() + "\n\n" for text in texts)


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


def record(
    game: str,
    tags: Sequence[tuple[str, str]],
    plies: Sequence[Ply],
    outcome: Outcome,
    unchecked: int | None = None,
) -> PgnGame:
    """A record of ``plies`` as played (each with its movetext, as the game's
    events describe it: nothing here replays the game); its ``Result`` tag (if
    ``tags`` has one) set, and ``Outcome``, the ``ResultConvention`` and, if the
    fast engine diverged, ``Unchecked`` (the first ply from which the moves are
    as sent) added."""
    result = result_token(game, outcome)
    extra = [(OUTCOME, outcome.result(VOCABULARIES[game].sides)), (CONVENTION, "PGN")]
    extra += [] if unchecked is None else [(UNCHECKED, str(unchecked))]
    return PgnGame((*((k, result if k == "Result" else v) for k, v in tags), *extra), tuple(plies), result)


def build(
    game: str,
    tags: Sequence[tuple[str, str]],
    moves: Sequence[str],
    clocks: Sequence[float] | None,
    outcome: Outcome,
) -> PgnGame:
    """``record`` of a Gothello game from its tokens, which are its movetext, and the
    movers' clocks; an Awari game's movetext says more than its tokens (its
    description), so it is built with ``record`` from the plies."""
    if game != "gothello":
        raise ValueError(f"a {game} record is built from its described plies (pgn.record)")
    times = [None] * len(moves) if clocks is None else list(clocks)
    return record(game, tags, [Ply(m, m, c) for m, c in zip(moves, times, strict=True)], outcome)


# ─── reading ───────────────────────────────────────────────────────────────────

_TAG = re.compile(r'\[([A-Za-z0-9_]{1,40})\s+"((?:[^"\\]|\\.)*)"\]\s*')
_TOKEN = re.compile(
    r"(?P<space>\s+)|(?P<comment>\{[^}]*\}|;[^\n]*)|(?P<number>\d{1,6}\.(?:\.\.)?)"
    r"|(?P<result>1-0|0-1|1/2-1/2|\*)|(?P<word>[^\s{}();\[\]]{1,40})|(?P<bad>.)",
    re.DOTALL,
)
_CLOCK = re.compile(r"\[%clk\s+(\d{1,6}):(\d{1,2}):(\d{1,2}(?:\.\d{0,6})?)\]")
_AWARI_SAN = re.compile(r"([A-Fa-f])(\d{1,3})(?:x(\d{1,3}))?")
_PLY = re.compile(r"[1-9]\d{0,6}")
_UNESCAPE = re.compile(r"\\(.)")


def parse(data: str | bytes) -> PgnGame:
    """The record in ``data`` (UTF-8 if bytes), every move checked by the engine;
    PgnError, saying why and where, for anything else."""
    text = _text(data)
    head, sep, body = text.strip().partition("\n\n")
    if not sep:
        raise PgnError("no blank line between the tags and the moves")
    tags = _tags(head, text[: len(text) - len(text.lstrip())].count("\n"))
    game = next((v for k, v in tags if k == "Game"), "")
    if game not in VOCABULARIES:
        raise PgnError(f"no Game tag naming awari or gothello (got {game[:20]!r})")
    values = dict(tags)
    if values.get("Termination", "move") not in {t.value for t in Termination}:
        raise PgnError(f"unknown Termination {values['Termination'][:20]!r}")
    controls_of(game, values)
    unchecked = values.get(UNCHECKED)
    if unchecked is not None and not _PLY.fullmatch(unchecked):
        raise PgnError(f"bad {UNCHECKED} {unchecked[:20]!r}: not a ply number")
    engine = get_engine(game, "impl", engine_rules(game, values.get("Rules", "")))
    plies, result = _movetext(game, engine, body, int(unchecked) if unchecked else None)
    record = PgnGame(tuple(tags), tuple(plies), result)
    _check(record, values)
    return record


def tag_in(text: str, key: str) -> str:
    """The tag ``key`` of the record ``text`` (the first, if it repeats), "" if the
    record has none or is no record; parsed only when the key appears in the text."""
    if key not in text:
        return ""
    try:
        return parse(text).tag(key)
    except PgnError:
        return ""


def _text(data: str | bytes) -> str:
    """The text, split into lines at newlines; PgnError if too long, not UTF-8, or with a
    control character (one would garble the terminal ``referee replay`` prints to)."""
    if len(data) > MAX_BYTES:
        raise PgnError(f"more than {MAX_BYTES} bytes: not a game record")
    text = data if isinstance(data, str) else _decode(data)
    text = text.removeprefix("\ufeff").replace("\r\n", "\n")
    for number, line in enumerate(text.split("\n"), 1):
        bad = next((ch for ch in line if ch != "\t" and unicodedata.category(ch) in _BREAKS), None)
        if bad is not None:
            raise PgnError(f"line {number}: control character {bad!r}")
    return text


def _decode(data: bytes) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise PgnError(f"line {line}: not UTF-8 text (byte offset {exc.start})") from None


def _tags(head: str, skipped: int) -> list[tuple[str, str]]:
    """The tag pairs, PgnError naming the line of one that is not.  Linear in the
    tags: the keys seen are a set (a scan of the list per tag was quadratic, 9 s
    for a record of 20,000 tags: issue #49)."""
    tags: list[tuple[str, str]] = []
    seen: set[str] = set()
    for number, line in enumerate(head.split("\n"), 1 + skipped):
        match = _TAG.fullmatch(line.strip())
        if match is None:
            raise PgnError(f"line {number}: not a tag pair: {line[:60]!r}")
        key = match[1]
        if key in seen:
            raise PgnError(f"line {number}: a second {key} tag")
        if key not in REPEATABLE:
            seen.add(key)
        tags.append((key, _UNESCAPE.sub(r"\1", match[2])))
    return tags


def _movetext(game: str, engine: GameEngine, body: str, unchecked: int | None) -> tuple[list[Ply], str]:
    """The plies (each checked by ``engine`` up to the ``unchecked`` one) and the
    result token."""
    state = engine.initial()
    plies: list[Ply] = []
    result = ""
    for match in _TOKEN.finditer(body):
        kind, token = match.lastgroup, match[0]
        if kind == "space":
            continue
        if kind == "bad":
            raise PgnError(f"unexpected {token!r} in the moves")
        if result:
            raise PgnError(f"text after the result: {token[:20]!r}")
        if kind == "comment":
            clock = _CLOCK.search(token)
            if clock is not None and plies:
                h, m, s = clock.groups()
                plies[-1] = Ply(plies[-1].move, plies[-1].san, int(h) * 3600 + int(m) * 60 + float(s))
        elif kind == "result":
            result = token
        elif kind == "word" and unchecked is not None and len(plies) + 1 >= unchecked:
            plies.append(Ply(token, token))
        elif kind == "word":
            move = _move_of(game, token)
            san, state = _step(engine, state, move, len(plies))
            if san != token:
                raise PgnError(f"ply {len(plies) + 1}: {token!r} should read {san!r}")
            plies.append(Ply(move, san))
    if not result:
        raise PgnError("no result at the end of the moves")
    return plies, result


def _step(engine: GameEngine, state: GameState, move: str, index: int) -> tuple[str, GameState]:
    """The movetext of ``move`` (the engine's ``describe``) and the state after it:
    the reader's deliberate check of a record's moves, the one place pgn runs an
    engine."""
    action = engine.parse_move(move)
    if action is None or engine.is_over(state) or action not in engine.legal_moves(state):
        raise PgnError(f"ply {index + 1}: {move[:20]!r} is not a legal move here")
    return engine.describe(state, action).notation, engine.apply(state, action)[1]


def _check(record: PgnGame, values: dict[str, str]) -> None:
    """The tags that restate the movetext agree with it and with each other."""
    result = record.result
    if result != values.get("Result", result):
        raise PgnError("the Result tag and the movetext's result differ")
    if "Termination" in values and Termination(values["Termination"]).aborted != (result == ABORTED):
        raise PgnError(f"Termination {values['Termination']!r} with the result {result}")
    if values.get("PlyCount", str(len(record.plies))) != str(len(record.plies)):
        raise PgnError(f"PlyCount {values['PlyCount'][:20]!r}, but the moves have {len(record.plies)} plies")
    if UNCHECKED in values and int(values[UNCHECKED]) > len(record.plies):
        raise PgnError(f"{UNCHECKED} {values[UNCHECKED]}, but the moves have {len(record.plies)} plies")
    if values.get(CONVENTION, "PGN") != "PGN":
        raise PgnError(f"unknown {CONVENTION} {values[CONVENTION][:20]!r}")
    if OUTCOME in values and values[OUTCOME] != record.outcome.result(record.sides):
        raise PgnError(f"the {OUTCOME} tag and the Result differ")
    if record.pgn_convention:
        for side, name in zip(record.sides, record.names, strict=True):
            if values.get(side.capitalize(), name) != name:
                raise PgnError(f"the {side.capitalize()} tag and its player's colour tag differ")


def _move_of(game: str, token: str) -> str:
    if game == "awari":
        match = _AWARI_SAN.fullmatch(token)
        if match is None:
            raise PgnError(f"not an Awari move in the Olympiad notation: {token!r}")
        return match[1]
    return token
