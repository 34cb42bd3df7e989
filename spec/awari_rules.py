"""Awari's rule variants, as schemas beside the paper's (spec/awari.py).

Bart Massey's *Awari Rules* (2000) — the rules page that goes with *A Networked Awari
Referee* — lists, after Schaeffer et al., five ways of treating a grand slam (the
capture of every stone on the opponent's row) and two ways of ending a game on a
repeated position; the paper's schemas adopt one combination.  Eric van Riet Paap's
post *Re: olympic rules of awari* (rec.games.abstract, 1994) gives the Computer
Olympiad's rules of that year, which differ again.  A referee for Awari programs
has to play the rules its tournament uses, so the rule set is a parameter:

* **grand slam** (``GrandSlamRule``), Schaeffer et al.'s (a)–(e):
  (a) may not be sown unless no other move is possible; (b) is sown but captures
  nothing; (c) is sown but the last pit sown is not captured; (d) is sown but only
  the last pit sown is captured; (e) every capture happens and the stones left on
  the board go to the opponent (the paper's GrandSlam);
* **repetition** (``RepetitionRule``): each player claims their own row (the paper's
  NoMove); the stones left on the board are not counted (Computer Olympiads
  1990–92); the game is drawn (the 1994 post: repetition ends the game as a draw);
* **a player who cannot move** (``CannotMoveRule``): the opponent takes the stones
  left (the paper's NoMove and CannotFeed: each claims their own row, and the stuck
  player's row is empty or cannot be reached); the player loses (the 1994 post).

Named rule sets (``RULE_SETS``): ``paper`` (the default: (e), own row, opponent
takes), ``olympiad-1990`` ((a), uncounted, opponent takes), ``olympiad-1994`` ((a),
draw, player loses) and ``abapa`` ((b), own row, opponent takes: the rules of
OpenSpiel's ``oware``).  Any of the 30 combinations is named by a text ``parse_rules``
reads — a named set and/or overrides such as ``paper,grand-slam=c`` — and has one
``canonical_name``, which the greeting and the records carry.

Where the sources are silent this module decides; each decision is an erratum-style
note (``spec/errata.py``'s V-notes in ``VARIANT_NOTES`` below, argued in docs/rules.md):

* V1 — "last pit" and "first pit" in (c) and (d) are the last pit sown, where the
  harvest starts (the rules page: "the last pit filled is the first pit we will
  examine for possible capture").
* V2 — under (b)–(d) a grand slam is any sowing whose harvest would take every stone
  left on the opponent's row, including a lap into a row that was empty before the
  move (OpenSpiel's reading); under (a) and (e), as in the paper, a sowing that
  leaves a previously empty row empty fails to feed and is illegal.
* V3 — under (a) a grand slam forced because no other sowing leaves the opponent a
  stone is played with every capture, and the turn passes: the opponent then cannot
  move (the 1994 post: "capture all stones of the opponent and thereby winning").
* V4 — a player who cannot move: when their row is empty (NoMove's second case), or
  when their row is empty and no sowing of the opponent reaches it (CannotFeed,
  judged at the feeder's turn, where the starving player is the one who cannot
  move).  Under "player loses" the game ends there with the stuck player losing,
  the board left as it is.
* V5 — "stones left uncounted" and "draw" leave the board as it is (ΞAwariBoard, as
  WinMargin); the result is the winner of the scores, or a draw whatever the scores.
* V6 — an empty row takes precedence over a repetition (only an arbitrary state can
  hold both: a real game ends at the first occurrence of a position with an empty row).

Representation as in spec/awari.py: a schema is a pure function from the
before-state to an ``Outcome``; the rule set is the schemas' first argument.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from typing import Final

from spec import awari as A
from spec.contracts import ensure, require

# ─── The rules parameter ──────────────────────────────────────────────────────


class GrandSlamRule(Enum):
    """Schaeffer et al.'s five grand-slam rules, as the rules page lists them."""

    FORBIDDEN = "a"
    """(a) may not be sown unless no other move is possible."""
    NO_CAPTURE = "b"
    """(b) may be sown, but no capture results."""
    SPARE_LAST = "c"
    """(c) may be sown, but the last pit sown is not captured."""
    FIRST_ONLY = "d"
    """(d) may be sown, but only the first pit of the harvest (the last pit sown) is captured."""
    FORFEIT = "e"
    """(e) every capture happens; the stones left go to the opponent (the paper's)."""


class RepetitionRule(Enum):
    """What a repeated position does (it always ends the game)."""

    OWN_ROW = "own-row"
    """Each player claims the stones on their own row (the paper's NoMove)."""
    UNCOUNTED = "uncounted"
    """The stones left on the board are not counted (Computer Olympiads 1990–92)."""
    DRAW = "draw"
    """The game is a draw (1994 Olympiad)."""


class CannotMoveRule(Enum):
    """What a player who cannot move gets (it always ends the game)."""

    OPPONENT_TAKES = "opponent-takes"
    """The stones left belong to the opponent (the paper's NoMove and CannotFeed)."""
    PLAYER_LOSES = "player-loses"
    """The player who cannot move loses (1994 Olympiad)."""


@dataclass(frozen=True)
class AwariRules:
    """One rule set: a name and its three dimensions.  Two rule sets are equal when
    their dimensions are: the name is a label (``canonical_name`` gives the one name)."""

    name: str = field(compare=False)
    grand_slam: GrandSlamRule
    repetition: RepetitionRule
    cannot_move: CannotMoveRule

    def describe(self) -> str:
        """The rule set in one line, e.g. ``paper (grand slam e, repetition own-row,
        cannot move opponent-takes)``."""
        return (
            f"{self.name} (grand slam {self.grand_slam.value}, repetition {self.repetition.value}, "
            f"cannot move {self.cannot_move.value})"
        )


PAPER: Final = AwariRules("paper", GrandSlamRule.FORFEIT, RepetitionRule.OWN_ROW, CannotMoveRule.OPPONENT_TAKES)
"""The paper's rules: AwariRef as specified (the default)."""
OLYMPIAD_1990: Final = AwariRules(
    "olympiad-1990", GrandSlamRule.FORBIDDEN, RepetitionRule.UNCOUNTED, CannotMoveRule.OPPONENT_TAKES
)
"""The 1990–92 Computer Olympiads, as the rules page reports them."""
OLYMPIAD_1994: Final = AwariRules(
    "olympiad-1994", GrandSlamRule.FORBIDDEN, RepetitionRule.DRAW, CannotMoveRule.PLAYER_LOSES
)
"""The 1994 Olympiad, after van Riet Paap's post."""
ABAPA: Final = AwariRules("abapa", GrandSlamRule.NO_CAPTURE, RepetitionRule.OWN_ROW, CannotMoveRule.OPPONENT_TAKES)
"""The Abapa rules, as OpenSpiel's ``oware`` plays them."""

RULE_SETS: Final[dict[str, AwariRules]] = {r.name: r for r in (PAPER, OLYMPIAD_1990, OLYMPIAD_1994, ABAPA)}
"""The named rule sets, by name."""

ALL_COMBINATIONS: Final[tuple[AwariRules, ...]] = tuple(
    AwariRules(f"{g.value}/{r.value}/{c.value}", g, r, c)
    for g in GrandSlamRule
    for r in RepetitionRule
    for c in CannotMoveRule
)
"""Every combination of the three dimensions (30), for the tests."""


# ─── Rule-set texts: a named set, overrides, canonical names ──────────────────


class RulesError(ValueError):
    """A rule-set text ``parse_rules`` does not accept; its message is one line that
    says what is accepted."""


DIMENSIONS: Final[dict[str, type[GrandSlamRule] | type[RepetitionRule] | type[CannotMoveRule]]] = {
    "grand-slam": GrandSlamRule,
    "repetition": RepetitionRule,
    "cannot-move": CannotMoveRule,
}
"""The override keys, in canonical order, and the enum whose values each takes."""

_FIELDS: Final = {"grand-slam": "grand_slam", "repetition": "repetition", "cannot-move": "cannot_move"}

ACCEPTED: Final = f"a named set ({', '.join(RULE_SETS)}) and/or comma-separated overrides " + " ".join(
    f"{key}={'|'.join(v.value for v in enum)}" for key, enum in DIMENSIONS.items()
)
"""What ``parse_rules`` accepts, in the words of its error messages."""


def canonical_name(rules: AwariRules) -> str:
    """The one name of a combination: the named set's (``RULE_SETS``) when the
    dimensions are one's, otherwise ``paper`` followed by the overrides that differ
    from the paper's, in the order grand-slam, repetition, cannot-move, e.g.
    ``paper,grand-slam=c`` or ``paper,grand-slam=a,cannot-move=player-loses``.
    No spaces, so the greeting's ``Rules: NAME`` is one word (docs/protocol.md §4)."""
    for name, named in RULE_SETS.items():
        if named == rules:  # equal dimensions (AwariRules compares no names)
            return name
    overrides = [
        f"{key}={getattr(rules, attr).value}"
        for key, attr in _FIELDS.items()
        if getattr(rules, attr) != getattr(PAPER, attr)
    ]
    return ",".join(["paper", *overrides])


def parse_rules(text: str) -> AwariRules:
    """The rule set a text names: a named set (``RULE_SETS``), optionally followed by
    comma-separated overrides ``grand-slam=a``–``e`` (the rules page's Schaeffer et al.
    variants (a)–(e)), ``repetition=own-row|uncounted|draw`` and
    ``cannot-move=opponent-takes|player-loses``, or the overrides alone on top of
    ``paper``: ``paper,grand-slam=c``, ``olympiad-1994,repetition=own-row``,
    ``grand-slam=b,cannot-move=player-loses``.  The result is named
    ``canonical_name`` (the named set itself when it is one).  RulesError: a
    one-line message saying what is accepted."""
    items = [item.strip() for item in text.split(",")]
    base = PAPER
    if items and "=" not in items[0]:
        first = items.pop(0)
        if first not in RULE_SETS:
            raise RulesError(f"unknown Awari rules {text!r}: no rule set {first!r}; give {ACCEPTED}")
        base = RULE_SETS[first]
    g, r, c = base.grand_slam, base.repetition, base.cannot_move
    given: set[str] = set()
    for item in items:
        key, _, value = item.partition("=")
        if key not in DIMENSIONS:
            raise RulesError(f"unknown Awari rules {text!r}: {item!r} is not an override; give {ACCEPTED}")
        if key in given:
            raise RulesError(f"unknown Awari rules {text!r}: {key} given twice; give {ACCEPTED}")
        given.add(key)
        try:
            if key == "grand-slam":
                g = GrandSlamRule(value)
            elif key == "repetition":
                r = RepetitionRule(value)
            else:
                c = CannotMoveRule(value)
        except ValueError:
            raise RulesError(f"unknown Awari rules {text!r}: no {key} {value!r}; give {ACCEPTED}") from None
    combination = AwariRules("", g, r, c)
    name = canonical_name(combination)
    return RULE_SETS.get(name) or AwariRules(name, g, r, c)


def canonical(text: str) -> str:
    """``canonical_name(parse_rules(text))``: the one name of the rule set ``text`` names."""
    return parse_rules(text).name


def rules_named(name: str) -> AwariRules:
    """The rule set ``name`` names (``parse_rules``); RulesError, a ValueError, otherwise."""
    return parse_rules(name)


VARIANT_NOTES: Final[dict[str, str]] = {
    "V1": "(c)/(d): the 'last' and 'first' pit are the last pit sown, where the harvest starts",
    "V2": "(b)-(d): a harvest that would empty the opponent's row is a grand slam, even into a row starved before",
    "V3": "(a): a forced grand slam captures everything and passes the turn; the opponent then cannot move",
    "V4": "cannot move: an empty row, or a starved row no sowing reaches (decided at the feeder's turn)",
    "V5": "uncounted and draw leave the board as it is; the result is winner score, or draw",
    "V6": "an empty row takes precedence over a repetition",
}
"""The decisions this module takes where the sources are silent (module docstring)."""

# ─── Capture under a grand-slam rule ──────────────────────────────────────────


def wipes_out(s: A.AwariBoard, to_capture: A.PIT) -> bool:
    """The harvest from ``to_capture`` would take every stone on the opponent's row:

    captures ≠ ∅ ∧ opp_stones (Capture.board') = 0   (Capture corrected, A1)"""
    after, captures = A.Capture_corrected(s, to_capture)
    them = A.side(A.opponent(s.to_move))
    return bool(captures) and all(after.board[p] == 0 for p in them)


def _harvest(s: A.AwariBoard, to_capture: A.PIT) -> frozenset[A.PIT]:
    """Capture.captures (corrected, A1): the pits the paper's harvest takes."""
    return A.Capture_corrected(s, to_capture)[1]


def _captures(s: A.AwariBoard, to_capture: A.PIT, rule: GrandSlamRule) -> frozenset[A.PIT]:
    """The pits a sowing ending in ``to_capture`` captures under ``rule``."""
    harvest = A.Capture_corrected(s, to_capture)[1]
    if rule in (GrandSlamRule.FORBIDDEN, GrandSlamRule.FORFEIT) or not wipes_out(s, to_capture):
        return harvest
    if rule is GrandSlamRule.NO_CAPTURE:
        return frozenset()
    if rule is GrandSlamRule.SPARE_LAST:
        return harvest - {to_capture}
    return frozenset({to_capture})


def _captured(s: A.AwariBoard, captures: frozenset[A.PIT]) -> A.AwariBoard:
    """board' = board ⊕ (captures × {0});  score' to_move = score to_move + Σ (captures ◁ board)"""
    board, score = list(s.board), list(s.score)
    for p in captures:
        score[s.to_move] += board[p]
        board[p] = 0
    return A.AwariBoard(tuple(board), tuple(score), s.to_move)


@require(lambda s: A.AwariBoard_invariant(s), "AwariBoard")
@ensure(lambda result: A.AwariBoard_invariant(result[0]), "AwariBoard'")
@ensure(
    lambda s, to_capture, result: result[1] == (frozenset() if wipes_out(s, to_capture) else _harvest(s, to_capture)),
    "captures = if wipes_out then ∅ else Capture.captures",
)
def CaptureSlamSown(s: A.AwariBoard, to_capture: A.PIT) -> tuple[A.AwariBoard, frozenset[A.PIT]]:
    """Grand slam (b): a grand slam may be sown, but no capture results.

    ┌─ CaptureSlamSown ─────────────────────────────────
    │ ΔAwariBoard;  to_capture : PIT;  captures : ℙ PIT
    ├───────────────────────────────────────────────────
    │ captures = if Capture.captures ≠ ∅ ∧ opp_stones Capture.board' = 0
    │            then ∅ else Capture.captures
    │ board' = board ⊕ (captures × {0})
    │ score' to_move = score to_move + Σ (captures ◁ board)
    └───────────────────────────────────────────────────
    """
    captures = _captures(s, to_capture, GrandSlamRule.NO_CAPTURE)
    return _captured(s, captures), captures


@require(lambda s: A.AwariBoard_invariant(s), "AwariBoard")
@ensure(lambda result: A.AwariBoard_invariant(result[0]), "AwariBoard'")
@ensure(
    lambda s, to_capture, result: (
        result[1] == (_harvest(s, to_capture) - {to_capture} if wipes_out(s, to_capture) else _harvest(s, to_capture))
    ),
    "captures = if wipes_out then Capture.captures \\ {to_capture} else Capture.captures",
)
def CaptureSlamSpareLast(s: A.AwariBoard, to_capture: A.PIT) -> tuple[A.AwariBoard, frozenset[A.PIT]]:
    """Grand slam (c): a grand slam may be sown, but the last pit sown is not captured (V1).

    ┌─ CaptureSlamSpareLast ────────────────────────────
    │ captures = if Capture.captures ≠ ∅ ∧ opp_stones Capture.board' = 0
    │            then Capture.captures \\ {to_capture} else Capture.captures
    │ (board', score' as in Capture)
    └───────────────────────────────────────────────────
    """
    captures = _captures(s, to_capture, GrandSlamRule.SPARE_LAST)
    return _captured(s, captures), captures


@require(lambda s: A.AwariBoard_invariant(s), "AwariBoard")
@ensure(lambda result: A.AwariBoard_invariant(result[0]), "AwariBoard'")
@ensure(
    lambda s, to_capture, result: (
        result[1] == (frozenset({to_capture}) if wipes_out(s, to_capture) else _harvest(s, to_capture))
    ),
    "captures = if wipes_out then {to_capture} else Capture.captures",
)
def CaptureSlamFirstOnly(s: A.AwariBoard, to_capture: A.PIT) -> tuple[A.AwariBoard, frozenset[A.PIT]]:
    """Grand slam (d): a grand slam may be sown, but only the first pit of the harvest,
    the last pit sown, is captured (V1).

    ┌─ CaptureSlamFirstOnly ────────────────────────────
    │ captures = if Capture.captures ≠ ∅ ∧ opp_stones Capture.board' = 0
    │            then {to_capture} else Capture.captures
    │ (board', score' as in Capture)
    └───────────────────────────────────────────────────
    """
    captures = _captures(s, to_capture, GrandSlamRule.FIRST_ONLY)
    return _captured(s, captures), captures


CAPTURES: Final[dict[GrandSlamRule, Callable[[A.AwariBoard, A.PIT], tuple[A.AwariBoard, frozenset[A.PIT]]]]] = {
    GrandSlamRule.FORBIDDEN: A.Capture_corrected,
    GrandSlamRule.NO_CAPTURE: CaptureSlamSown,
    GrandSlamRule.SPARE_LAST: CaptureSlamSpareLast,
    GrandSlamRule.FIRST_ONLY: CaptureSlamFirstOnly,
    GrandSlamRule.FORFEIT: A.Capture_corrected,
}
"""The capture schema of each grand-slam rule ((a) and (e) capture as the paper)."""


def sow_capture(rules: AwariRules, s: A.AwariBoard, move: A.PIT) -> A.AwariBoard:
    """Sow ⨟ Capture_rules: the position after sowing ``move`` (its mover still to move)."""
    sown, to_capture = A.Sow(s, move)
    return CAPTURES[rules.grand_slam](sown, to_capture)[0]


# ─── Predicates of a state under a rule set ───────────────────────────────────


def _opp(g: A.AwariGame, board: A.BOARD) -> int:
    """opp_stones board = Σ ((side (opponent to_move)) ◁ board)"""
    return sum(board[p] for p in A.side(A.opponent(g.to_move)))


def _own(g: A.AwariGame) -> int:
    """Σ (side to_move ◁ board)"""
    return sum(g.board[p] for p in A.side(g.to_move))


def feeds(rules: AwariRules, g: A.AwariGame, move: A.PIT) -> bool:
    """pre Sow ∧ opp_stones (Sow ⨟ Capture_rules).board' > 0: the sowing leaves the opponent a stone."""
    s = A.θAwariBoard(g)
    return A._sow_pre(s, move) and _opp(g, sow_capture(rules, s, move).board) > 0


def slams(rules: AwariRules, g: A.AwariGame, move: A.PIT) -> bool:
    """(a), (e): pre Sow ∧ opp_stones board > 0 ∧ opp_stones (Sow ⨟ Capture).board' = 0."""
    s = A.θAwariBoard(g)
    return A._sow_pre(s, move) and _opp(g, g.board) > 0 and _opp(g, sow_capture(rules, s, move).board) == 0


def cannot_feed(rules: AwariRules, g: A.AwariGame) -> bool:
    """opp_stones board = 0 ∧ ¬ ∃ m : side to_move • feeds m"""
    return _opp(g, g.board) == 0 and not any(feeds(rules, g, m) for m in A.side(g.to_move))


def _kept(schema: str, result: A.RESULT, g: A.AwariGame, positions: frozenset[A.AwariBoard]) -> A.Outcome:
    """An ending that leaves the board as it is (ΞAwariBoard), the position recorded."""
    return A.Outcome(schema, result, A.After(g.board, g.score, g.to_move, positions))


def _claimed(schema: str, g: A.AwariGame, positions: frozenset[A.AwariBoard]) -> A.Outcome:
    """ClaimStones;  board' = PIT × {0};  to_move' = to_move;  result = winner score'"""
    score_ = A.ClaimStones(g.score, g.board)
    return A.Outcome(schema, A.winner(score_), A.After(A.EMPTY_BOARD, score_, g.to_move, positions))


def _below_25(g: A.AwariGame) -> bool:
    return all(n < 25 for n in g.score)


# ─── The end-of-game schemas ──────────────────────────────────────────────────


def _ended_ok(result: A.Outcome | None) -> bool:
    return result is None or (result.after.completions() == 1 and A.AwariGame_invariant(result.after.state()))


@require(lambda g: A.AwariGame_invariant(g))
@ensure(
    lambda g, result: (result is not None) == (_below_25(g) and _own(g) == 0),
    "∀ p • score p < 25;  Σ (side to_move ◁ board) = 0",
)
@ensure(lambda result: _ended_ok(result), "θAwariGame' determined")
@ensure(
    lambda rules, g, result: (
        result is None
        or rules.cannot_move is CannotMoveRule.OPPONENT_TAKES
        or result.result == A.win(A.opponent(g.to_move))
    ),
    "player loses ⇒ result = win (opponent to_move)",
)
def CannotMove(rules: AwariRules, g: A.AwariGame) -> A.Outcome | None:
    """NoMove's second case, an empty row (V4, V6), under the cannot-move rule:

    ∀ p : PLAYER • score p < 25;  Σ (side to_move ◁ board) = 0;  positions' = positions ∪ {θAwariBoard}
    opponent takes:  ClaimStones;  board' = PIT × {0};  result = winner score'
    player loses:    ΞAwariBoard;  result = win (opponent to_move)
    """
    if not (_below_25(g) and _own(g) == 0):
        return None
    positions_ = g.positions | {A.θAwariBoard(g)}
    if rules.cannot_move is CannotMoveRule.OPPONENT_TAKES:
        return _claimed("CannotMove", g, positions_)
    return _kept("CannotMove", A.win(A.opponent(g.to_move)), g, positions_)


@require(lambda g: A.AwariGame_invariant(g))
@ensure(
    lambda g, result: (result is not None) == (_below_25(g) and _own(g) > 0 and A.θAwariBoard(g) in g.positions),
    "score p < 25; Σ (side to_move ◁ board) > 0; θAwariBoard ∈ positions",
)
@ensure(lambda result: _ended_ok(result), "θAwariGame' determined")
@ensure(
    lambda rules, result: result is None or rules.repetition is not RepetitionRule.DRAW or result.result == A.draw,
    "draw ⇒ result = draw",
)
def Repetition(rules: AwariRules, g: A.AwariGame) -> A.Outcome | None:
    """NoMove's first case, a repeated position, under the repetition rule (V5, V6):

    ∀ p : PLAYER • score p < 25;  Σ (side to_move ◁ board) > 0;  θAwariBoard ∈ positions
    own row:    ClaimStones;  board' = PIT × {0};  result = winner score'
    uncounted:  ΞAwariBoard;  result = winner score
    draw:       ΞAwariBoard;  result = draw
    """
    if not (_below_25(g) and _own(g) > 0 and A.θAwariBoard(g) in g.positions):
        return None
    if rules.repetition is RepetitionRule.OWN_ROW:
        return _claimed("Repetition", g, g.positions)
    result = A.winner(g.score) if rules.repetition is RepetitionRule.UNCOUNTED else A.draw
    return _kept("Repetition", result, g, g.positions)


@require(lambda g: A.AwariGame_invariant(g))
@ensure(
    lambda rules, g, result: (
        (result is not None)
        == (_below_25(g) and _own(g) > 0 and A.θAwariBoard(g) not in g.positions and cannot_feed(rules, g))
    ),
    "pre StarvedOut",
)
@ensure(lambda result: _ended_ok(result), "θAwariGame' determined")
def StarvedOut(rules: AwariRules, g: A.AwariGame) -> A.Outcome | None:
    """The paper's CannotFeed (A8) under the rule set's captures and cannot-move rule (V4):

    ∀ p • score p < 25;  θAwariBoard ∉ positions;  Σ (side to_move ◁ board) > 0
    opp_stones board = 0;  ¬ ∃ m : side to_move • feeds m
    opponent takes:  ClaimStones;  board' = PIT × {0};  result = winner score'
    player loses:    ΞAwariBoard;  result = win to_move   (the starving player cannot move)
    """
    if not (_below_25(g) and _own(g) > 0 and A.θAwariBoard(g) not in g.positions and cannot_feed(rules, g)):
        return None
    positions_ = g.positions | {A.θAwariBoard(g)}
    if rules.cannot_move is CannotMoveRule.OPPONENT_TAKES:
        return _claimed("StarvedOut", g, positions_)
    return _kept("StarvedOut", A.win(g.to_move), g, positions_)


def Ended(rules: AwariRules, g: A.AwariGame) -> A.Outcome | None:
    """WinMargin ∨ CannotMove ∨ Repetition ∨ StarvedOut: the start-of-turn end
    conditions under the rule set (disjoint by their guards), or None: the game goes on."""
    won = A.WinMargin_corrected(g, A.PIT.a)
    if won is not None:
        return won
    for schema in (CannotMove, Repetition, StarvedOut):
        ended = schema(rules, g)
        if ended is not None:
            return ended
    return None


def game_over(rules: AwariRules, g: A.AwariGame) -> bool:
    """A start-of-turn end condition holds under the rule set."""
    if rules == PAPER:
        return A.game_over(g)
    return Ended(rules, g) is not None


# ─── The moves ────────────────────────────────────────────────────────────────


def pre_IllegalMoveUnder(rules: AwariRules, g: A.AwariGame, move: A.PIT) -> bool:
    """The game is on, and  move ∉ side to_move ∨ board move = 0 ∨ (opp_stones board = 0 ∧ ¬ feeds move)
    ∨ (grand slam (a) ∧ ¬ feeds move ∧ ∃ m : side to_move • feeds m)"""
    if Ended(rules, g) is not None:
        return False
    if not A._sow_pre(A.θAwariBoard(g), move):
        return True
    if feeds(rules, g, move):
        return False
    return _opp(g, g.board) == 0 or (
        rules.grand_slam is GrandSlamRule.FORBIDDEN and any(feeds(rules, g, m) for m in A.side(g.to_move))
    )


@require(lambda g: A.AwariGame_invariant(g))
@ensure(lambda rules, g, move, result: (result is not None) == pre_IllegalMoveUnder(rules, g, move), "pre IllegalMove")
@ensure(lambda g, result: result is None or result.after.state() == g, "ΞAwariGame")
def IllegalMoveUnder(rules: AwariRules, g: A.AwariGame, move: A.PIT) -> A.Outcome | None:
    """IllegalMove (corrected) under the rule set; under (a) a grand slam is illegal
    while another sowing leaves the opponent a stone (V3):

        ΞAwariGame;  result = illegal_move;  the game is on
        move ∉ side to_move ∨ board move = 0 ∨ (opp_stones board = 0 ∧ ¬ feeds move)
          ∨ (grand slam (a) ∧ ¬ feeds move ∧ ∃ m : side to_move • feeds m)
    """
    if not pre_IllegalMoveUnder(rules, g, move):
        return None
    return A.determined("IllegalMove", A.illegal_move, g)


@require(lambda g: A.AwariGame_invariant(g))
@ensure(lambda result: _ended_ok(result), "θAwariGame' determined")
def SowUnder(rules: AwariRules, g: A.AwariGame, move: A.PIT) -> A.Outcome | None:
    """NormalMove (corrected) with the rule set's capture, then its end conditions:

        SowUnder ≙ AwariMove ∧ (Sow ⨟ Capture_rules) ∧ the game is on ∧ ¬ IllegalMoveUnder ∧
                   ¬ (grand slam (e) ∧ slams move) ∧ to_move' = opponent to_move ∧ result = not_done

    then ``SowUnder ⨟ Ended``.  Under (a) it includes the forced grand slam (V3),
    under (b)–(d) the grand slams their captures allow (V2).
    """
    if Ended(rules, g) is not None or pre_IllegalMoveUnder(rules, g, move):
        return None
    if rules.grand_slam is GrandSlamRule.FORFEIT and slams(rules, g, move):
        return None
    after = sow_capture(rules, A.θAwariBoard(g), move)
    moved = A.AwariGame(after.board, after.score, A.opponent(g.to_move), g.positions | {A.θAwariBoard(g)})
    ended = Ended(rules, moved)
    if ended is None:
        return A.determined("SowUnder", A.not_done, moved)
    return A.Outcome("SowUnder ⨟ " + ended.schema, ended.result, ended.after)


def GrandSlamForfeit(rules: AwariRules, g: A.AwariGame, move: A.PIT) -> A.Outcome | None:
    """Grand slam (e): the paper's GrandSlam (corrected), Sow ⨟ Capture ⨟ ForfeitStones;
    only under (e), only while the game is on under the rule set."""
    if rules.grand_slam is not GrandSlamRule.FORFEIT or Ended(rules, g) is not None:
        return None
    return A.GrandSlam_corrected(g, move) if slams(rules, g, move) else None


def AwariRefUnder(rules: AwariRules, g: A.AwariGame, move: A.PIT) -> tuple[A.Outcome, ...]:
    """AwariRef under a rule set:

        AwariRef_rules ≙ Ended ∨ IllegalMoveUnder ∨ GrandSlamForfeit ∨ SowUnder

    every disjunct that holds, with its outcome.  For ``PAPER`` use spec.awari.AwariRef_corrected
    itself (``referee`` does); this general form agrees with it on every result and
    after-state (tests/spec/test_rules_variants.py)."""
    ended = Ended(rules, g)
    outcomes = [ended] if ended is not None else []
    for schema in (IllegalMoveUnder, GrandSlamForfeit, SowUnder):
        o = schema(rules, g, move)
        if o is not None:
            outcomes.append(o)
    return tuple(outcomes)


def general_referee(rules: AwariRules, g: A.AwariGame, move: A.PIT) -> tuple[A.RESULT, A.AwariGame]:
    """The single outcome of AwariRefUnder."""
    outcomes = AwariRefUnder(rules, g, move)
    if len(outcomes) != 1 or outcomes[0].after.completions() != 1:
        raise A.SpecError(f"AwariRef[{rules.name}] gave {outcomes!r} for {move.name} in {g!r}")
    return outcomes[0].result, outcomes[0].after.state()


@require(lambda g: A.AwariGame_invariant(g))
@ensure(lambda result: A.AwariGame_invariant(result[1]))
def referee(rules: AwariRules, g: A.AwariGame, move: A.PIT) -> tuple[A.RESULT, A.AwariGame]:
    """The referee's step under a rule set: the paper's own ``referee`` for ``PAPER``
    (the paper's AwariRef, as corrected, is the instance), ``general_referee`` otherwise."""
    if rules == PAPER:
        return A.referee(g, move)
    return general_referee(rules, g, move)


def legal_moves(rules: AwariRules, g: A.AwariGame) -> tuple[A.PIT, ...]:
    """The pits whose sowing the referee accepts under the rule set, in pit_order."""
    if game_over(rules, g):
        return ()
    return tuple(m for m in A.PIT if referee(rules, g, m)[0] != A.illegal_move)
