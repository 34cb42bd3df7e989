"""impl/engines/awari.py's RulesAwari refines spec/awari_rules.py's AwariRefUnder on
every state and under every rule set at once: the engine's own code, run on z3 terms
with the rule set's three dimensions symbolic.

    python -m proofs.awari.rules_refinement [--bounded | --deep] [--jobs N] [--scheduler tcp://HOST:PORT | --no-cluster]

The rule set is three numbers, as RulesAwari holds them: the grand-slam rule ``gs``
(0 … 4 for (a) … (e)), the repetition rule ``rep`` (own row, uncounted, draw) and the
cannot-move rule ``stuck`` (opponent takes, player loses).  Here each is a z3
variable over its range, so one proof covers all 30 combinations — the named sets
(paper, olympiad-1990, olympiad-1994, abapa) among them.  The theorems (proofs/README.md
§8.6 says what each covers):

* ``rules_are_the_engines_numbers`` — RulesAwari(rules) holds, for each of the 30
  rule sets, the numbers the statement reads for it (the rule set's abstraction);
* ``capture_r_matches_statement`` — ``_capture_r`` (every path, every row, every last
  pit, every rule) ≡ the statement's Capture_rules;
* ``feeds_r_matches_statement`` — ``_feeds_r`` (every path, every sowing count, every
  pair of rows, every rule) ≡ the statement's feeds under the rule;
* ``any_feeds_r_matches_statement`` — ``_any_feeds_r`` (``_feeds_r`` by its contract)
  ≡ ∃ m : side to_move • feeds m;
* ``statement_is_spec_referee_under`` — the statement ≡ spec.awari_rules.referee under
  each of the 30 rule sets, on concrete states (boards of ≤ 1 stone, corner states,
  the 384 lap boards' kind of state, the encoding's witnesses): trusted beyond;
* ``legal_r_matches_statement`` — ``_legal_r`` (feeds as predicates) ≡ the statement's
  ¬ IllegalMoveUnder for a non-empty pit;
* ``is_over_refines_under`` / ``legal_moves_refine_under`` — RulesAwari's
  ``is_over`` and ``legal_moves`` ≡ the statement's, every AwariBoard (Σ = 48), both
  sides, every positions set, every rule;
* ``apply_slice_under`` — RulesAwari's ``apply`` ≡ the statement's step, slice by
  slice as ImplAwari's (proofs/awari/slices.py ``--engine rules`` runs all 600).

Inside, ``_row_sum`` and ``_winner`` stand by the contracts proofs/awari/refinement.py
proves, and ``_capture_r``, ``_feeds_r`` / ``_any_feeds_r`` by theirs here (the last
two as predicates of no known meaning, which both sides apply alike: the theorem then
holds for every predicate, so for the statement's); everything else of RulesAwari
(``apply``, ``_ended_r``, ``_play_r``, ``_claimed``, the sowing table) runs as written, on the private copy of
the pure-Python source that proofs/awari/refinement.py loads.
"""

from __future__ import annotations

import contextlib
import itertools
import random
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

import z3

from proofs.awari import refinement as P
from proofs.awari.refinement import (
    CODES,
    DRAW,
    ILLEGAL,
    NOT_DONE,
    SIDE,
    W_NORTH,
    W_SOUTH,
    Board,
    Goals,
    Key,
    Positions,
    Slice,
    Step,
    Z,
    bytes_of,
    capture,
    is_row,
    k,
    key_terms,
    same_key,
    same_state,
    sow,
    stones,
    total,
    winner,
)
from proofs.symbolic import Sym, SymBool, _oblige, explore, swapped
from proofs.verdict import ProofStep, in_processes, run_steps, scope_arguments
from spec import awari as A
from spec import awari_rules as AR

E = P.E
"""The engine under proof: the private copy proofs/awari/refinement.py loads (its
``_SOW`` read through the symbolic table)."""

# ─── The rule set as three numbers ─────────────────────────────────────────────

GS_A, GS_B, GS_C, GS_D, GS_E = range(5)
REP_OWN_ROW, REP_UNCOUNTED, REP_DRAW = range(3)
STUCK_TAKES, STUCK_LOSES = range(2)


def numbers_of(rules: AR.AwariRules) -> tuple[int, int, int]:
    """The statement's numbers for a rule set: each dimension's index in the order
    spec/awari_rules.py lists its values ((a) … (e); own row, uncounted, draw;
    opponent takes, player loses)."""
    return (
        tuple(AR.GrandSlamRule).index(rules.grand_slam),
        tuple(AR.RepetitionRule).index(rules.repetition),
        tuple(AR.CannotMoveRule).index(rules.cannot_move),
    )


@dataclass(frozen=True)
class Rules:
    """The rule set as terms: ``gs``, ``rep``, ``stuck`` (z3 bit-vectors of the proof's width)."""

    gs: Z
    rep: Z
    stuck: Z
    predicates: tuple[Any, Any] | None = None
    """None: feeds and ∃ feeds are the statement's terms; else two uninterpreted
    predicates of the mover's view and the rule standing for them (``feeds``)."""

    @staticmethod
    def fresh(tag: str = "", uninterpreted: bool = False) -> Rules:
        """Fresh rule variables; ``uninterpreted``: with feeds and ∃ feeds as
        predicates of no known meaning (what the composed proofs need of them is only
        that the statement and the engine's contracts apply the same predicate)."""
        numbers = [P.var(f"{tag}{n}", 3).e for n in ("gs", "rep", "stuck")]
        if not uninterpreted:
            return Rules(numbers[0], numbers[1], numbers[2])
        one = z3.Function(f"{tag}feeds", *[P.KEY] * 14, z3.BoolSort())
        some = z3.Function(f"{tag}any_feeds", *[P.KEY] * 13, z3.BoolSort())
        return Rules(numbers[0], numbers[1], numbers[2], (one, some))

    def feeds(self, view: Sequence[Z], j: int) -> z3.BoolRef:
        """feeds (pit j of the mover's view) under the rule: the statement's term
        (``feeds_view``), or the predicate."""
        if self.predicates is None:
            return feeds_view(view, j, self.gs)
        return self.predicates[0](*view, k(j), self.gs)

    def any_feeds(self, view: Sequence[Z]) -> z3.BoolRef:
        """∃ m : side to_move • feeds m, on the mover's view: the term, or the predicate."""
        if self.predicates is None:
            return z3.Or(*(feeds_view(view, j, self.gs) for j in range(6)))
        return self.predicates[1](*view, self.gs)

    def well_formed(self) -> list[z3.BoolRef]:
        """Every combination and nothing else: gs ≤ 4, rep ≤ 2, stuck ≤ 1."""
        return [z3.ULE(self.gs, 4), z3.ULE(self.rep, 2), z3.ULE(self.stuck, 1)]

    @property
    def gs_sym(self) -> Sym:
        return Sym(self.gs)

    def engine(self) -> Any:
        """A RulesAwari of the private copy whose three numbers are these terms (its
        ``__init__`` reads a concrete rule set: ``rules_are_the_engines_numbers``
        checks what it stores for each)."""
        engine = E.RulesAwari.__new__(E.RulesAwari)
        engine.gs, engine.rep, engine.stuck = Sym(self.gs), Sym(self.rep), Sym(self.stuck)
        return engine

    def values(self, rules: AR.AwariRules) -> list[tuple[Z, Z]]:
        """The substitution of a concrete rule set's numbers for the variables."""
        terms = (self.gs, self.rep, self.stuck)
        return [(t.arg(0), z3.BitVecVal(v, 3)) for t, v in zip(terms, numbers_of(rules), strict=True)]


# ─── The statement of AwariRefUnder, from spec/awari_rules.py ──────────────────


def capture_under(board: Sequence[Z], to_capture: Sequence[z3.BoolRef | bool], mover: int, gs: Z) -> tuple[list[Z], Z]:
    """Capture_rules after a sowing (the paper's corrected Capture, then the grand-slam
    rule's exception): (board', stones gained).

        wipes = Capture.captures ≠ ∅ ∧ opp_stones Capture.board' = 0
        (b) captures = ∅;  (c) Capture.captures \\ {to_capture};  (d) {to_capture}  when wipes
        (a), (e), or not wipes: Capture.captures"""
    harvest, gained = capture(board, to_capture, mover)
    wipes = z3.And(gained > 0, stones(harvest, 1 - mover) == 0)
    last = [t if isinstance(t, z3.BoolRef) else z3.BoolVal(t) for t in to_capture]
    spare_last = [z3.If(last[q], board[q], harvest[q]) for q in range(12)]
    spared = total(z3.If(last[q], board[q], k(0)) for q in range(12))
    first_only = [z3.If(last[q], k(0), board[q]) for q in range(12)]

    def pick(b: Sequence[Z], c: Sequence[Z], d: Sequence[Z], other: Sequence[Z]) -> list[Z]:
        return [
            z3.If(
                z3.And(wipes, gs == GS_B),
                x,
                z3.If(z3.And(wipes, gs == GS_C), y, z3.If(z3.And(wipes, gs == GS_D), w, o)),
            )
            for x, y, w, o in zip(b, c, d, other, strict=True)
        ]

    after = pick(board, spare_last, first_only, harvest)
    gain = pick([k(0)], [gained - spared], [spared], [gained])[0]
    return after, gain


def sow_capture_under(board: Sequence[Z], score: Sequence[Z], mover: int, m: int, gs: Z) -> tuple[list[Z], list[Z]]:
    """Sow ⨟ Capture_rules from pit m: (board', score')."""
    sown, to_capture = sow(board, m)
    after, gained = capture_under(sown, to_capture, mover, gs)
    return after, [score[p] + gained if p == mover else score[p] for p in range(2)]


def sow_pre(board: Sequence[Z], mover: int, m: int) -> z3.BoolRef:
    """pre Sow: m on the mover's side, non-empty."""
    return z3.And(z3.BoolVal(m in SIDE[mover]), board[m] > 0)


def rotated(board: Sequence[Z], mover: int) -> list[Z]:
    """The board seen from its mover: the mover's pits first (as north's a–f), then the
    opponent's — the engine's own view, (mine, theirs)."""
    return [*board[6 * mover : 6 * mover + 6], *board[6 - 6 * mover : 12 - 6 * mover]]


def feeds_view(view: Sequence[Z], j: int, gs: Z) -> z3.BoolRef:
    """feeds: pre Sow ∧ opp_stones (Sow ⨟ Capture_rules).board' > 0, from pit j of a
    board seen from its mover (``rotated``).  The rules treat both sides alike
    (``rotation_is_a_symmetry``), so the statement says feeds on the mover's view:
    it and the engine's contract then build one term."""
    after, _ = sow_capture_under(view, [k(0), k(0)], 0, j, gs)
    return z3.And(view[j] > 0, stones(after, 1) > 0)


def rotation_is_a_symmetry() -> int:
    """The spec's sowing order and capture direction are the same seen from either
    side: trace (m + 6) i = trace m i + 6 and prev (p + 6) = prev p + 6 (mod 12), side
    south = side north + 6 — so Sow ⨟ Capture_rules of a board from south's pit m is
    that of the rotated board from north's pit m − 6, rotated back, and ``feeds_under``
    may state feeds on the rotated board."""
    checked = 0
    for m in range(12):
        for i in range(48):
            assert P.TRACE[(m + 6) % 12][i] == (P.TRACE[m][i] + 6) % 12, (m, i)
            checked += 1
        assert P.PREV[(m + 6) % 12] == (P.PREV[m] + 6) % 12, m
    assert SIDE[1] == [q + 6 for q in SIDE[0]]
    return checked


@dataclass(frozen=True)
class Ended:
    """Ended (WinMargin ∨ CannotMove ∨ Repetition ∨ StarvedOut) of a state as terms:
    whether it holds, and its result, board, score (the player to move is kept)."""

    holds: z3.BoolRef
    adds_theta: z3.BoolRef
    result: Z
    board: list[Z]
    score: list[Z]


def ended_view(view: Sequence[Z], score: Sequence[Z], me: int, repeated: z3.BoolRef, rules: Rules) -> Ended:
    """spec.awari_rules.Ended on a board seen from its mover ``me`` (``rotated``: the
    mover's pits, then the opponent's), the scores by player, ``repeated``: θ ∈ positions.

        WinMargin:   score p ≥ 25;  ΞAwariBoard;  result = winner score
        CannotMove:  own = 0;  takes: ClaimStones, board' empty, winner score'  |  loses: Ξ, win opponent
        Repetition:  own > 0 ∧ θ ∈ positions;  own row: ClaimStones …  |  uncounted: Ξ, winner score  |  draw: Ξ, draw
        StarvedOut:  own > 0 ∧ θ ∉ positions ∧ opp = 0 ∧ ¬ ∃ feeds;  takes: ClaimStones …  |  loses: Ξ, win to_move

    The board after is the view after (``rotated`` back by ``ended_under``)."""
    win_margin = z3.Or(score[0] >= 25, score[1] >= 25)
    own, opp = total(view[:6]), total(view[6:])
    cannot_move = z3.And(z3.Not(win_margin), own == 0)
    repetition = z3.And(z3.Not(win_margin), own > 0, repeated)
    starved = z3.And(z3.Not(win_margin), own > 0, z3.Not(repeated), opp == 0, z3.Not(rules.any_feeds(view)))
    claimed = [score[p] + (own if p == me else opp) for p in range(2)]  # ClaimStones
    takes = rules.stuck == STUCK_TAKES
    win = [k(W_NORTH), k(W_SOUTH)]
    claims = z3.Or(z3.And(z3.Or(cannot_move, starved), takes), z3.And(repetition, rules.rep == REP_OWN_ROW))
    kept = z3.If(starved, win[me], z3.If(rules.rep == REP_UNCOUNTED, winner(score), k(DRAW)))
    result = z3.If(win_margin, winner(score), z3.If(claims, winner(claimed), z3.If(cannot_move, win[1 - me], kept)))
    return Ended(
        z3.Or(win_margin, cannot_move, repetition, starved),
        z3.Or(win_margin, cannot_move, starved),
        result,
        P.ite_list(claims, [k(0)] * 12, view),
        P.ite_list(claims, claimed, score),
    )


def ended_under(
    board: Sequence[Z], score: Sequence[Z], mover: int, seen: Callable[[Key], z3.BoolRef], rules: Rules
) -> Ended:
    """spec.awari_rules.Ended on terms (``ended_view`` on the mover's view); ``seen(θ)``:
    θAwariBoard ∈ positions."""
    e = ended_view(rotated(board, mover), score, mover, seen(key_terms(board, score, mover)), rules)
    return Ended(e.holds, e.adds_theta, e.result, rotated(e.board, mover), e.score)


def referee_under(
    board: Sequence[Z], score: Sequence[Z], mover: int, m: int, positions: Positions, rules: Rules
) -> Step:
    """spec.awari_rules.AwariRefUnder (Ended ∨ IllegalMoveUnder ∨ GrandSlamForfeit ∨
    SowUnder ⨟ Ended), stated on terms, the rule set's numbers symbolic."""
    opp = 1 - mover
    theta = key_terms(board, score, mover)
    st = ended_under(board, score, mover, positions.holds, rules)
    playing = z3.Not(st.holds)
    a_board, a_score = sow_capture_under(board, score, mover, m, rules.gs)
    pre = sow_pre(board, mover, m)
    fm = z3.And(pre, stones(a_board, opp) > 0)  # feeds m: the very sowing below
    opp_before = stones(board, opp)
    slam_a = z3.And(rules.gs == GS_A, rules.any_feeds(rotated(board, mover)))
    illegal = z3.And(playing, z3.Or(z3.Not(pre), z3.And(z3.Not(fm), z3.Or(opp_before == 0, slam_a))))
    slams = z3.And(pre, opp_before > 0, stones(a_board, opp) == 0)
    forfeit_ = z3.And(playing, z3.Not(illegal), rules.gs == GS_E, slams)
    sown = z3.And(playing, z3.Not(illegal), z3.Not(forfeit_))
    theta2 = key_terms(a_board, a_score, opp)
    st2 = ended_under(a_board, a_score, opp, lambda key: z3.Or(positions.holds(key), same_key(key, theta)), rules)
    fscore = P.forfeit(a_score, a_board)
    empty = [k(0)] * 12

    # The after-state, case by case from the last to the first (the cases are disjoint).
    result = z3.If(st2.holds, st2.result, k(NOT_DONE))
    b = P.ite_list(st2.holds, st2.board, a_board)
    s = P.ite_list(st2.holds, st2.score, a_score)
    t = k(opp)
    result = z3.If(forfeit_, winner(fscore), result)
    b, s = P.ite_list(forfeit_, empty, b), P.ite_list(forfeit_, fscore, s)
    result = z3.If(illegal, k(ILLEGAL), result)
    b, s, t = P.ite_list(illegal, board, b), P.ite_list(illegal, score, s), z3.If(illegal, k(mover), t)
    result = z3.If(st.holds, st.result, result)
    b, s, t = P.ite_list(st.holds, st.board, b), P.ite_list(st.holds, st.score, s), z3.If(st.holds, k(mover), t)
    added = [
        (z3.simplify(z3.Or(z3.And(st.holds, st.adds_theta), z3.And(playing, z3.Not(illegal)))), theta),
        (z3.simplify(z3.And(sown, st2.holds, st2.adds_theta)), theta2),
    ]
    return Step(z3.simplify(result), [z3.simplify(x) for x in b], [z3.simplify(x) for x in s], z3.simplify(t), added)


# ─── Contracts: _feeds_r and _any_feeds_r, proven below ────────────────────────


def rows_board(mine: Any, theirs: Any) -> list[Z]:
    """The engine's view of a position (its mover's row as north's a–f, the other as
    south's A–F): the mover is player 0 of the statement (the sowing table is the same
    for both sides: ``sow_table_is_spec_sow``)."""
    return [*bytes_of(mine), *bytes_of(theirs)]


def on_a_board(mine: Any, theirs: Any) -> z3.BoolRef:
    """Two packed rows of one board: Σ of their pits ≤ 48."""
    return z3.And(is_row(mine), is_row(theirs), total(rows_board(mine, theirs)) <= 48)


def capture_r_statement(theirs: Any, last: int, gs: Z) -> tuple[list[Z], Z]:
    """Capture_rules on the opponent's row (south's, the mover north) from its pit
    ``last``: the row after and the stones gained."""
    board = [*[k(0)] * 6, *bytes_of(theirs)]
    after, gained = capture_under(board, [q == 6 + last for q in range(12)], 0, gs)
    return after[6:], gained


def capture_r_contract(theirs: Any, last: int, gs: Any) -> tuple[P.Row, P.Small]:
    """``_capture_r`` as ``capture_r_matches_statement`` proves it: a packed row (pits
    ≤ 48), a last pit 0 … 5 of it, any rule: the statement's Capture_rules."""
    assert isinstance(last, int) and 0 <= last < 6, f"_capture_r called on last pit {last}"
    _oblige(is_row(theirs), "_capture_r's precondition")
    row, gained = capture_r_statement(theirs, last, P.term(gs))
    _oblige(gained <= 255, "_capture_r gains more than a byte")
    return P.Row(row), P.Small(gained)


def legal_statement(rules: Rules, view: Sequence[Z], j: int) -> z3.BoolRef:
    """¬ IllegalMoveUnder for the mover's non-empty pit j, the game being on, on its
    view: feeds j ∨ (opp_stones > 0 ∧ ¬ (grand slam (a) ∧ ∃ m • feeds m))."""
    slam_a = z3.And(rules.gs == GS_A, rules.any_feeds(view))
    return z3.Or(rules.feeds(view, j), z3.And(total(view[6:]) > 0, z3.Not(slam_a)))


def by_contracts(rules: Rules, *names: str) -> contextlib.ExitStack[bool | None]:
    """Within: the engine's primitives ``names`` are their proven contracts: those of
    proofs/awari/refinement.py, and ``_feeds_r`` / ``_any_feeds_r`` as ``rules`` says
    feeds (the statement's terms, or its predicates), on two rows of a board (Σ ≤ 48)
    — ``feeds_r_matches_statement`` and ``any_feeds_r_matches_statement`` prove the
    engine's functions are the terms; a proof over the predicates holds for every
    predicate, the terms among them."""

    def feeds_r(mine: Any, theirs: Any, sh: int, gs: Any) -> SymBool:
        assert isinstance(sh, int) and sh % 8 == 0 and 0 <= sh < 48, sh
        _oblige(z3.And(on_a_board(mine, theirs), P.term(gs) == rules.gs), "_feeds_r's rows and rule")
        _oblige(bytes_of(mine)[sh // 8] != 0, "_feeds_r on an empty pit")
        return SymBool(rules.feeds(rows_board(mine, theirs), sh // 8))

    def any_feeds_r(mine: Any, theirs: Any, gs: Any) -> SymBool:
        _oblige(z3.And(on_a_board(mine, theirs), P.term(gs) == rules.gs), "_any_feeds_r's rows and rule")
        return SymBool(rules.any_feeds(rows_board(mine, theirs)))

    def legal_r(mine: Any, theirs: Any, sh: int, gs: Any) -> SymBool:
        assert isinstance(sh, int) and sh % 8 == 0 and 0 <= sh < 48, sh
        _oblige(z3.And(on_a_board(mine, theirs), P.term(gs) == rules.gs), "_legal_r's rows and rule")
        _oblige(bytes_of(mine)[sh // 8] != 0, "_legal_r on an empty pit")
        return SymBool(legal_statement(rules, rows_board(mine, theirs), sh // 8))

    ours: dict[str, Callable[..., Any]] = {
        "_legal_r": legal_r,
        "_feeds_r": feeds_r,
        "_any_feeds_r": any_feeds_r,
        "_capture_r": capture_r_contract,
    }
    stack = contextlib.ExitStack()
    stack.enter_context(P.by_contracts(*(n for n in names if n not in ours)))
    stack.enter_context(swapped(E, {n: ours[n] for n in names if n in ours}))
    return stack


CONTRACTS: Final = ("_row_sum", "_winner", "_capture_r", "_any_feeds_r", "_feeds_r")
"""The primitives that stand by their contracts inside RulesAwari's apply, legal_moves
and is_over: proofs/awari/refinement.py proves the first two; this module the rest."""

# ─── The theorems ───────────────────────────────────────────────────────────────


def rules_are_the_engines_numbers() -> int:
    """For each of the 30 rule sets, RulesAwari(rules) holds the statement's numbers,
    and the statement's number constants are the engine's."""
    assert (E.GS_A, E.GS_B, E.GS_C, E.GS_D, E.GS_E) == (GS_A, GS_B, GS_C, GS_D, GS_E)
    assert (E.REP_OWN_ROW, E.REP_UNCOUNTED, E.REP_DRAW) == (REP_OWN_ROW, REP_UNCOUNTED, REP_DRAW)
    assert (E.STUCK_OPPONENT_TAKES, E.STUCK_PLAYER_LOSES) == (STUCK_TAKES, STUCK_LOSES)
    for rules in AR.ALL_COMBINATIONS:
        engine = E.RulesAwari(rules)
        assert (engine.gs, engine.rep, engine.stuck) == numbers_of(rules), rules
    return len(AR.ALL_COMBINATIONS)


def _rows(tag: str) -> tuple[Board, Any, Any]:
    b = Board.fresh(tag)
    mine, theirs, _ = P.pack_terms(b.board, b.score, 0)
    return b, Sym(mine), Sym(theirs)


def feeds_r_matches_statement(pits: Sequence[int] = tuple(range(6))) -> int:
    """For every two rows of a board (Σ ≤ 48), every rule and every pit j of the mover's row
    holding stones, ``_feeds_r(mine, theirs, 8j, gs)`` (the engine's code on z3 terms,
    every path: each sowing count's table row; ``_capture`` by its contract) ≡ the
    statement's feeds under the rule."""
    paths = 0
    rules = Rules.fresh("f")
    b, mine, theirs = _rows("f")
    board = b.board
    with P.by_contracts("_capture"):
        for j in pits:
            want = feeds_view(board, j, rules.gs)

            def check(out: Any, want: z3.BoolRef = want) -> Goals:
                got = out.e if isinstance(out, SymBool) else z3.BoolVal(bool(out))
                return [(got == want, "feeds under the rule")]

            paths += explore(
                [total(board) <= 48, board[j] >= 1, *rules.well_formed()],
                lambda j=j: E._feeds_r(mine, theirs, 8 * j, rules.gs_sym),
                check,
            )
    return paths


def capture_r_matches_statement(lasts: Sequence[int] = tuple(range(6))) -> int:
    """For every opposing row (pits ≤ 48), every last pit 0 … 5 and every rule,
    ``_capture_r`` (the engine's code on z3 terms, every path; ``_capture`` by its
    contract) returns the row and the gain of the statement's Capture_rules."""
    paths = 0
    rules = Rules.fresh("c")
    b = Board.fresh("c")
    theirs = Sym(P.pack(b.board[:6]))
    for last in lasts:
        row, gain = capture_r_statement(P.Row(b.board[:6]), last, rules.gs)

        def check(out: Any, row: list[Z] = row, gain: Z = gain) -> Goals:
            got_row, gained = out
            return [(P.term(got_row) == P.pack(row), "row after capture"), (P.term(gained) == gain, "stones gained")]

        with P.by_contracts("_capture"):
            paths += explore(
                [*(x <= 48 for x in b.board[:6]), *rules.well_formed()],
                lambda last=last: E._capture_r(theirs, last, rules.gs_sym),
                check,
            )
    return paths


def legal_r_matches_statement() -> int:
    """For every two rows of a board (Σ ≤ 48), every rule, every non-empty pit j of
    the mover's row and every predicates F (feeds) and ∃F, ``_legal_r`` (every path;
    ``_feeds_r``, ``_any_feeds_r`` as F, ∃F) is ``legal_statement``."""
    rules = Rules.fresh("g", uninterpreted=True)
    b, mine, theirs = _rows("g")
    view = rows_board(mine, theirs)
    paths = 0
    for j in range(6):
        want = legal_statement(rules, view, j)

        def check(out: Any, want: z3.BoolRef = want) -> Goals:
            got = out.e if isinstance(out, SymBool) else z3.BoolVal(bool(out))
            return [(got == want, "legal under the rule")]

        with by_contracts(rules, "_feeds_r", "_any_feeds_r"):
            paths += explore(
                [total(b.board) <= 48, b.board[j] >= 1, *rules.well_formed()],
                lambda j=j: E._legal_r(mine, theirs, 8 * j, rules.gs_sym),
                check,
            )
    return paths


def any_feeds_r_matches_statement() -> int:
    """For every two rows of a board (Σ ≤ 48), every rule and every predicate F,
    ``_any_feeds_r`` (every path; ``_feeds_r`` by its contract as F) is
    ∃ j • pit j of the mover non-empty ∧ F j.  With F the statement's feeds (which
    implies its pit non-empty), that is the statement's ∃ m • feeds m: what
    ``_feeds_r`` computes (``feeds_r_matches_statement``), so what ``_any_feeds_r`` does."""
    rules = Rules.fresh("y", uninterpreted=True)
    b, mine, theirs = _rows("y")
    view = rows_board(mine, theirs)
    want = z3.Or(*(z3.And(view[j] != 0, rules.feeds(view, j)) for j in range(6)))

    def check(out: Any) -> Goals:
        got = out.e if isinstance(out, SymBool) else z3.BoolVal(bool(out))
        return [(got == want, "any feeds under the rule")]

    with by_contracts(rules, "_feeds_r"):
        return explore(
            [total(b.board) <= 48, *rules.well_formed()],
            lambda: E._any_feeds_r(mine, theirs, rules.gs_sym),
            check,
        )


def stones_on(b: Board, mover: int) -> list[z3.BoolRef]:
    """Σ of the pits ≤ 48, summed as the contracts' obligations sum them (the mover's
    view, ``rotated``): implied by Σ = 48 of pits and scores, so assuming it proves
    nothing new; stated in the obligations' very terms, z3 need not reorder a sum."""
    return [total(rotated(b.board, mover)) <= 48]


def _start_of_turn(tag: str, mover: int) -> tuple[Board, tuple[Any, ...], Rules, Ended]:
    """A fully symbolic state (every board, positions set and rule) with ``mover`` to
    move, as the engine's state, and the statement's Ended of it."""
    b = Board.fresh(tag)
    rules = Rules.fresh(tag, uninterpreted=True)
    positions = Positions(z3.Function(f"{tag}member", *[P.KEY] * 15, z3.BoolSort()))
    state = P.ImplState(b.board, b.score, mover, positions)
    return b, state, rules, ended_under(b.board, b.score, mover, positions.holds, rules)


def is_over_refines_under(sides: Sequence[int] = (0, 1)) -> int:
    """For every AwariBoard, side, positions set and rule, RulesAwari's ``is_over``
    (every path; CONTRACTS by their contracts) iff the statement's Ended holds."""
    paths = 0
    for mover in sides:
        b, state, rules, st = _start_of_turn("o", mover)
        engine = rules.engine()

        def check(out: Any, st: Ended = st) -> Goals:
            got = out.e if isinstance(out, SymBool) else z3.BoolVal(bool(out))
            return [(st.holds == got, "is_over")]

        with by_contracts(rules, *CONTRACTS):
            paths += explore(
                [*b.well_formed(), *stones_on(b, mover), *rules.well_formed()],
                lambda state=state, e=engine: e.is_over(state),
                check,
            )
    return paths


def legal_moves_refine_under(sides: Sequence[int] = (0, 1)) -> int:
    """For every AwariBoard, side, positions set and rule, a pit is in RulesAwari's
    ``legal_moves`` (every path; CONTRACTS by their contracts) iff the game goes on and
    the statement's step for it is not IllegalMoveUnder, for all 12 pits."""
    paths = 0
    for mover in sides:
        b, state, rules, st = _start_of_turn("l", mover)
        engine = rules.engine()
        view = rotated(b.board, mover)
        legal = [
            z3.And(z3.Not(st.holds), sow_pre(b.board, mover, m), legal_statement(rules, view, m - 6 * mover))
            if m in SIDE[mover]
            else z3.BoolVal(False)
            for m in range(12)
        ]

        def check(out: tuple[A.PIT, ...], legal: list[z3.BoolRef] = legal) -> Goals:
            return [(legal[m] == z3.BoolVal(A.PIT(m) in out), f"legal {A.PIT(m).name}") for m in range(12)]

        with by_contracts(rules, *CONTRACTS, "_legal_r"):
            paths += explore(
                [*b.well_formed(), *stones_on(b, mover), *rules.well_formed()],
                lambda state=state, e=engine: e.legal_moves(state),
                check,
            )
    return paths


def apply_slice_under(mover: int, m: int, n: int | None) -> int:
    """For every AwariBoard (Σ = 48) with ``mover`` to move and n stones in pit m (any
    count if None), every positions set and every rule set: RulesAwari's ``apply(state,
    m)`` (every path; CONTRACTS by their contracts) gives the statement's result,
    after-state and positions'."""
    b = P.slice_board("r", m, n)
    rules = Rules.fresh("r", uninterpreted=True)
    positions = Positions(z3.Function("member", *[P.KEY] * 15, z3.BoolSort()))
    state = P.ImplState(b.board, b.score, mover, positions)
    step = referee_under(b.board, b.score, mover, m, positions, rules)
    engine = rules.engine()
    with by_contracts(rules, *CONTRACTS):
        return explore(
            [*b.well_formed(), *stones_on(b, mover), *rules.well_formed()],
            lambda: engine.apply(state, A.PIT(m)),
            lambda out: same_state(out, step, positions, state, "apply under the rules"),
        )


def _legal_moves(sides: tuple[int, ...]) -> int:
    return legal_moves_refine_under(sides)


def _apply_slice(s: Slice) -> int:
    return apply_slice_under(*s)


# ─── The statement against the spec itself ──────────────────────────────────────

_STEPS: dict[tuple[int, int, bool], tuple[Board, Rules, Step]] = {}


def _symbolic_step(mover: int, m: int, seen: bool) -> tuple[Board, Rules, Step]:
    """The statement on a symbolic board and rule, positions ∅ or {θ}: built once,
    evaluated on every concrete state and rule set by substitution."""
    if (mover, m, seen) not in _STEPS:
        b = Board.fresh("e")
        rules = Rules.fresh("e")
        theta = key_terms(b.board, b.score, mover)

        def member(*key: Z) -> z3.BoolRef:
            theta_bytes = (*theta[0], *theta[1], *theta[2])
            return z3.And(*(x == y for x, y in zip(key, theta_bytes, strict=True))) if seen else z3.BoolVal(False)

        _STEPS[mover, m, seen] = b, rules, referee_under(b.board, b.score, mover, m, Positions(member), rules)
    return _STEPS[mover, m, seen]


def _concrete_step(rules_set: AR.AwariRules, g: A.AwariGame, move: A.PIT) -> tuple[int, A.AwariGame]:
    """The statement evaluated on a concrete rule set and state (positions ∅ or {θ}):
    every term of the step substituted at once (one traversal of the shared terms)."""
    theta = A.θAwariBoard(g)
    assert g.positions in (frozenset(), frozenset({theta}))
    b, rules, step = _symbolic_step(int(g.to_move), int(move), bool(g.positions))
    cells = zip((*b.board, *b.score), (*g.board, *g.score), strict=True)
    values = [(x.arg(0), z3.BitVecVal(v, P.CELL)) for x, v in cells] + rules.values(rules_set)
    terms = [step.result, *step.board, *step.score, step.to_move]
    for c, key in step.added:
        terms += [z3.If(c, k(1), k(0)), P.pack(key[0]), P.pack(key[1]), P.pack(key[2])]
    whole = z3.simplify(z3.substitute(z3.Concat(*terms), *values))
    assert z3.is_bv_value(whole), whole
    bits = whole.as_long()
    got = [bits >> (P.WIDTH * (len(terms) - 1 - i)) & ((1 << P.WIDTH) - 1) for i in range(len(terms))]
    result, board, score, to_move, rest = got[0], got[1:13], got[13:15], got[15], got[16:]
    added = {(rest[i + 1], rest[i + 2], rest[i + 3]) for i in range(0, len(rest), 4) if rest[i]}
    keys = {E.pack(p) for p in g.positions} | added
    after = A.AwariGame(
        board=tuple(board),
        score=tuple(score),
        to_move=A.PLAYER(to_move),
        positions=frozenset(E.unpack(key) for key in keys),
    )
    return result, after


def sample_states(stones_on_board: int, corners: int, seed: int, witnessed: bool = True) -> list[A.AwariGame]:
    """Every board of ≤ ``stones_on_board`` stones (three score splits, both sides,
    positions ∅ and {θ}), ``corners`` seeded states near the rules' corners
    (proofs/awari/refinement.py's), and (``witnessed``) the encoding's 40 witnesses —
    capture chains, laps of 11, 12, 22 and 33, a grand slam — with positions ∅ and {θ}."""
    from proofs.awari.encoding_check import witnesses

    states: list[A.AwariGame] = []
    for on in range(stones_on_board + 1):
        for pits in itertools.combinations_with_replacement(range(12), on):
            board = tuple(pits.count(p) for p in range(12))
            rest = 48 - on
            for north in sorted({rest // 2, min(rest, 24), max(rest - 23, 0)}):
                for mover in A.PLAYER:
                    s = A.AwariBoard(board, (north, rest - north), mover)
                    states += [A.game_of(s, frozenset()), A.game_of(s, frozenset({s}))]
    states += P._corner_states(random.Random(seed), corners)
    for _, (s, _, _, _) in witnesses() if witnessed else ():
        states += [A.game_of(s, frozenset()), A.game_of(s, frozenset({s}))]
    return states


def statement_is_spec_referee_under(
    rule_sets: Sequence[AR.AwariRules], stones_on_board: int = 0, corners: int = 60, witnessed: bool = True
) -> int:
    """The statement ≡ spec.awari_rules.referee (result and whole next state) under
    each of ``rule_sets``, on ``sample_states`` and every action."""
    checked = 0
    states = sample_states(stones_on_board, corners, 2026, witnessed)
    for rules_set in rule_sets:
        for g in states:
            for move in A.PIT:
                result, after = AR.referee(rules_set, g, move)
                got = _concrete_step(rules_set, g, move)
                assert got == (CODES[result], after), (rules_set.name, g, move, got, result, after)
                checked += 1
    return checked


def _spec_task(task: tuple[int, int, bool]) -> int:
    """One share of the statement's check (every n-th rule set from the i-th).  Full:
    all 30 rule sets on the empty board, 60 corner states and the 40 witnesses.
    Bounded: all 30 on the empty board and 10 corner states, the named four on the
    witnesses."""
    i, n, bounded = task
    every = AR.ALL_COMBINATIONS[i::n]
    if not bounded:
        return statement_is_spec_referee_under(every)
    named = tuple(AR.RULE_SETS.values())[i::n]
    return statement_is_spec_referee_under(every, corners=10, witnessed=False) + statement_is_spec_referee_under(
        named, corners=0
    )


# ─── CLI ────────────────────────────────────────────────────────────────────────

BOUNDED_SLICES: Final[tuple[Slice, ...]] = ((1, 9, 3), (0, 0, 1))
"""make verify's slices: south sows 3 from D (a capture and every grand-slam rule's
exception on it) and north sows 1 from a (no capture: the end conditions)."""


LAP_SLICES: Final[tuple[Slice, ...]] = ((1, 11, 13),)
"""make proofs' lap: south sows 13 from F, past its origin, ending at north's b (a
capture chain of two after a lap)."""


def main(argv: list[str] | None = None) -> int:
    deep_scope = "also apply on every slice here (proofs/awari/slices.py --engine rules runs them as tasks)"
    scope = scope_arguments("proofs.awari.rules_refinement", __doc__, deep_scope, argv)
    bounded, deep = scope.bounded, scope.deep
    steps: list[ProofStep] = [
        ("rules_are_the_engines_numbers", rules_are_the_engines_numbers),
        ("rotation_is_a_symmetry", rotation_is_a_symmetry),
        ("capture_r_matches_statement", lambda: capture_r_matches_statement((0, 5) if bounded else range(6))),
        ("feeds_r_matches_statement", lambda: feeds_r_matches_statement((0, 5) if bounded else range(6))),
        ("any_feeds_r_matches_statement", any_feeds_r_matches_statement),
        ("legal_r_matches_statement", legal_r_matches_statement),
        ("is_over_refines_under", lambda: is_over_refines_under((1,) if bounded else (0, 1))),
        (
            "statement_is_spec_referee_under",
            lambda: in_processes(_spec_task, [(i, 2, bounded) for i in range(2)]),
        ),
    ]
    if bounded:
        steps.append(("apply_slice_under on BOUNDED_SLICES", lambda: in_processes(_apply_slice, list(BOUNDED_SLICES))))
    else:
        steps.append(("legal_moves_refine_under", lambda: in_processes(_legal_moves, [(0,), (1,)])))
        sample = [*P.off_side_slices(), *BOUNDED_SLICES, *LAP_SLICES]
        steps.append(
            (
                "apply_slice_under, opponent's pits, BOUNDED_SLICES and LAP_SLICES",
                lambda: in_processes(_apply_slice, sample),
            )
        )
    if deep:
        steps.append(("apply_slice_under, every slice", lambda: in_processes(_apply_slice, P.every_slice())))
    return run_steps(steps, scope)


if __name__ == "__main__":
    sys.exit(main())
