"""Well-foundedness of GothelloTurn, literal and corrected, by z3 over every 5×5 board,
side to move, action and history (proofs/gothello/encoding.py has the encoding).

  (a) disjoint      no two disjuncts hold together
  (b) total         some disjunct holds
  (c) deterministic each disjunct allows one after-state and result
  (d) satisfiable   each disjunct holds somewhere
  (e) defined       which disjuncts hold does not depend on an undefined term
                    (history 1 of ⟨⟩, history 2 of a shorter history)
  invariants        illegal actions change nothing; a placement adds one stone and
                    recolours only whole captured opposing groups, all of them
  (f) refused       a placement is refused as blocked only when its group would
                    have no liberty (the prose of GothelloIllegalMoveBlocked)

On the literal schemas every failure is classified: each erratum comes with a
predicate on the before-state, z3 proves that every counterexample satisfies one of
them, and one witness per erratum is decoded and replayed on spec/gothello.py.

Run: ``python -m proofs.gothello.theorems`` (exit 1 on any unexpected result).
"""

from __future__ import annotations

import itertools
import multiprocessing
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import z3

from proofs.gothello import encoding as E
from proofs.gothello import encoding_check, errata
from proofs.gothello.encoding import Frame, Post, Pre, Relation
from proofs.gothello.encoding_check import RESULT_CODES, assignment, board_of, code, square
from proofs.verdict import verdict
from spec import gothello as S

Classifier = errata.Predicate


# ─── Decoding a model into the spec's terms ───────────────────────────────────


def action_of(c: int) -> S.MOVE:
    return S.pass_ if c == E.PASS else S.move(square(c))


@dataclass(frozen=True)
class Witness:
    """A concrete before-state and action, as the spec's terms."""

    game: S.GothelloGame
    action: S.MOVE

    def __str__(self) -> str:
        stones = ", ".join(
            f"{'b' if v == S.stone(S.PLAYER.black) else 'w'} {'abcde'[s[0] - 1]}{s[1]}"
            for s, v in sorted(self.game.board)
            if v != S.blank
        )
        hist = ", ".join(repr(m) for m in self.game.history)
        return f"[{stones or 'empty'}] {self.game.to_move.name} to move, history ⟨{hist}⟩, action {self.action!r}"


def witness(model: Any, pre: Pre) -> Witness:
    def num(x: Any) -> int:
        return int(model.eval(x, model_completion=True).as_long())

    hlen = num(pre.hlen)
    history = tuple(action_of(num(h)) for h in (pre.h1, pre.h2)[:hlen])
    to_move = S.PLAYER.white if z3.is_true(model.eval(pre.white, model_completion=True)) else S.PLAYER.black
    game = S.GothelloGame(board_of(num(pre.black), num(pre.white_stones)), to_move, history)
    return Witness(game, action_of(num(pre.action)))


def concrete(game: S.GothelloGame, action: S.MOVE, pre: Pre, h_free: bool = False) -> Any:
    """Constraints fixing ``pre`` to a spec state (see ``assignment``)."""
    return z3.And([x == v for x, v in assignment(game, action, pre, h_free)])


# ─── Queries ──────────────────────────────────────────────────────────────────


def solve(*constraints: Any, timeout_ms: int = 600_000) -> Any:
    """A model of the constraints, or None when they are unsatisfiable.  Quantifier-
    free queries go to z3's bit-blasting QF_BV solver, which is faster on them."""
    quantified = any(_has_quantifier(c) for c in constraints)
    s = z3.Solver() if quantified else z3.SolverFor("QF_BV")
    s.set("timeout", timeout_ms)
    s.add(*constraints)
    verdict = s.check()
    if verdict == z3.unknown:
        raise RuntimeError(f"z3 returned unknown: {s.reason_unknown()}")
    return s.model() if verdict == z3.sat else None


def _has_quantifier(e: Any) -> bool:
    seen: set[int] = set()
    todo = [e]
    while todo:
        x = todo.pop()
        if z3.is_quantifier(x):
            return True
        if x.get_id() not in seen:
            seen.add(x.get_id())
            todo.extend(x.children())
    return False


def holds(rel: Relation, pre: Pre, tag: str) -> Any:
    """pre D: some after-state and result satisfy D (∃ post • D)."""
    post = Post.fresh(tag)
    return z3.Exists(post.variables(), z3.And(post.wellformed(), rel(pre, post)))


def with_undefined(pre: Pre, h1: Any, h2: Any) -> Pre:
    return Pre(pre.black, pre.white_stones, pre.white, pre.action, pre.hlen, h1, h2)


@dataclass
class Finding:
    theorem: str
    reading: str
    what: str
    errata: tuple[str, ...]
    witness: Witness | None
    replay: str


@dataclass
class Report:
    """Findings of one reading, and the timings of each theorem."""

    reading: str
    findings: list[Finding] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)

    def fail(self, message: str) -> None:
        self.problems.append(message)


def smallest(pre: Pre, *constraints: Any, seconds: float = 5.0) -> Any:
    """A model with as few stones, and as short a history, as z3 finds by descent
    within ``seconds``: witnesses fit to read."""
    model = solve(*constraints)
    deadline = time.perf_counter() + seconds
    while model is not None and time.perf_counter() < deadline:
        stones = model.eval(E.popcount(pre.black | pre.white_stones), model_completion=True).as_long()
        hlen = model.eval(pre.hlen, model_completion=True).as_long()
        smaller = z3.Or(
            z3.ULT(E.popcount(pre.black | pre.white_stones), stones),
            z3.And(E.popcount(pre.black | pre.white_stones) == stones, z3.ULT(pre.hlen, hlen)),
        )
        better = solve(*constraints, smaller)
        if better is None:
            return model
        model = better
    return model


def classify(
    report: Report,
    theorem: str,
    what: str,
    failure: Callable[[Pre], Any],
    classes: dict[str, Classifier],
    replay: Callable[[Witness], str],
    post: Post | None = None,
) -> None:
    """Find a witness of each erratum class among the failures, then prove that no
    failure lies outside every class (a new finding if one does).  ``post`` is the
    failing after-state, when the failure has one: the classes may read it."""
    pre = Pre.fresh()
    base = z3.And(pre.wellformed(), failure(pre))
    if solve(base) is None:
        return
    for label, predicate in classes.items():
        model = smallest(pre, base, predicate(pre, post))
        if model is not None:
            w = witness(model, pre)
            report.findings.append(Finding(theorem, report.reading, what, tuple(label.split("+")), w, replay(w)))
    outside = solve(base, *[z3.Not(p(pre, post)) for p in classes.values()])
    if outside is not None:
        w = witness(outside, pre)
        report.findings.append(Finding(theorem, report.reading, what, ("NEW",), w, replay(w)))
        report.fail(f"{theorem} {what}: a counterexample matching no erratum: {w} — {replay(w)}")


def names_on(reading: str, w: Witness) -> str:
    turn = S.GothelloTurn_G5 if reading == "literal" else S.GothelloTurn_corrected
    outcomes = turn(w.game, w.action)
    return "spec: " + (
        ", ".join(o.schema + (f" (only if {o.undefined} is pass)" if o.undefined else "") for o in outcomes)
        or "no disjunct holds"
    )


# ─── The theorems ─────────────────────────────────────────────────────────────


def timed(report: Report, name: str, run: Callable[[], None]) -> None:
    start = time.perf_counter()
    run()
    report.timings[name] = time.perf_counter() - start


def both(r1: Relation, r2: Relation) -> Callable[[Pre], Any]:
    """pre r1 ∧ pre r2."""
    return lambda pre: z3.And(holds(r1, pre, "1"), holds(r2, pre, "2"))


def disjuncts_are_disjoint(
    report: Report, rels: dict[str, Relation], expected: dict[tuple[str, str], dict[str, Classifier]]
) -> None:
    for (n1, r1), (n2, r2) in itertools.combinations(rels.items(), 2):
        classes = expected.get((n1, n2), {})
        classify(
            report,
            "(a) disjoint",
            f"{n1} ∧ {n2}",
            both(r1, r2),
            classes,
            lambda w: names_on(report.reading, w),
        )


def some_disjunct_holds(report: Report, rels: dict[str, Relation], classes: dict[str, Classifier]) -> None:
    classify(
        report,
        "(b) total",
        "no disjunct holds",
        lambda pre: z3.And([z3.Not(holds(r, pre, n)) for n, r in rels.items()]),
        classes,
        lambda w: names_on(report.reading, w),
    )


def each_disjunct_is_deterministic(report: Report, rels: dict[str, Relation]) -> None:
    for name, rel in rels.items():
        p1, p2 = Post.fresh("1"), Post.fresh("2")

        def two(pre: Pre, rel: Relation = rel, p1: Post = p1, p2: Post = p2) -> Any:
            return z3.And(p1.wellformed(), p2.wellformed(), rel(pre, p1), rel(pre, p2), p1.differs(p2))

        classify(
            report, "(c) deterministic", f"{name} has two outcomes", two, {}, lambda w: names_on(report.reading, w)
        )


def each_disjunct_is_satisfiable(report: Report, rels: dict[str, Relation], dead: dict[str, str]) -> None:
    for name, rel in rels.items():
        pre, post = Pre.fresh(), Post.fresh("")
        model = solve(pre.wellformed(), post.wellformed(), rel(pre, post))
        if model is None:
            errata = dead.get(name)
            report.findings.append(
                Finding("(d) satisfiable", report.reading, f"{name} never holds", (errata or "NEW",), None, "")
            )
            if errata is None:
                report.fail(f"(d) {name} never holds")
        else:
            w = witness(model, pre)
            turn = S.GothelloTurn_G5 if report.reading == "literal" else S.GothelloTurn_corrected
            same = [o for o in turn(w.game, w.action) if o.schema == name]
            if not same:
                report.fail(f"(d) z3 says {name} holds on {w}, the spec says {names_on(report.reading, w)}")
            elif (diff := after_differs(model, post, same[0], w)) is not None:
                report.fail(f"(d) {name} on {w}: {diff}")


def after_differs(model: Any, post: Post, outcome: S.Outcome, w: Witness) -> str | None:
    """The replay of a witness compares the whole after-state: the model's board',
    to_move', history' and result against the spec's outcome."""

    def num(x: Any) -> int:
        return int(model.eval(x, model_completion=True).as_long())

    cons = z3.is_true(model.eval(post.cons, model_completion=True))
    white = z3.is_true(model.eval(post.white, model_completion=True))
    mine = (
        board_of(num(post.black), num(post.white_stones)),
        S.PLAYER.white if white else S.PLAYER.black,
        (w.action, *w.game.history) if cons else w.game.history,
        num(post.result),
    )
    after = outcome.after
    theirs = (after.board, after.to_move, after.history, RESULT_CODES[outcome.result])
    if cons and num(post.head) != code(w.action):
        return "history' holds another action at its head"
    return None if mine == theirs else f"the encoding's after-state {mine}, the spec's {theirs}"


def holding_does_not_depend_on_undefined_terms(
    report: Report, rels: dict[str, Relation], classes: dict[str, Classifier]
) -> None:
    """(e) Whether each disjunct holds is the same under every value of the undefined
    terms: history 1 when #history = 0, history 2 when #history < 2."""
    for name, rel in rels.items():
        u1, u2 = z3.BitVec("u1", 5), z3.BitVec("u2", 5)

        def depends(pre: Pre, rel: Relation = rel, u1: Any = u1, u2: Any = u2) -> Any:
            other = with_undefined(pre, z3.If(pre.hlen == 0, u1, pre.h1), z3.If(pre.hlen != 2, u2, pre.h2))
            return z3.And(z3.ULE(u1, E.PASS), z3.ULE(u2, E.PASS), holds(rel, pre, "a") != holds(rel, other, "b"))

        classify(
            report,
            "(e) defined",
            f"{name} depends on an undefined term",
            depends,
            classes,
            lambda w: names_on(report.reading, w),
        )


def illegal_changes_nothing(report: Report, rels: dict[str, Relation], classes: dict[str, Classifier]) -> None:
    for name, rel in rels.items():
        post = Post.fresh("")

        def changes(pre: Pre, rel: Relation = rel, post: Post = post) -> Any:
            return z3.And(
                post.wellformed(), rel(pre, post), post.result == E.ILLEGAL, z3.Not(Frame.of(pre).xi_game(post))
            )

        classify(
            report,
            "(i) illegal changes nothing",
            f"{name} changes the state",
            changes,
            classes,
            lambda w: names_on(report.reading, w),
            post,
        )


def _placement_parts(pre: Pre, post: Post) -> tuple[Frame, Any, Any, Any]:
    """The placement's frame, the mover's stones after, the squares other than s that
    changed, and the blank squares of cboard."""
    f = Frame.of(pre)
    mine_ = z3.If(pre.white, post.white_stones, post.black)
    changed = ((pre.black ^ post.black) | (pre.white_stones ^ post.white_stones)) & ~f.sbit
    return f, mine_, changed, f.blank & ~f.sbit


def a_placement_adds_one_stone(pre: Pre, post: Post) -> Any:
    """(ii) The blank squares after are those before less s, and s holds the mover's stone."""
    f, mine_, _, blank_c = _placement_parts(pre, post)
    blank_ = E.bv(E.FULL) & ~(post.black | post.white_stones)
    return z3.And(blank_ == blank_c, mine_ & f.sbit != 0)


# The placement laws read adjacency from coordinate arithmetic (STEPS, bounds-checked),
# not from the encoding's shifts and masks (E.adj, E.directions): a wrong neighbour in
# those (a wrapped edge, a wrong direction) would otherwise be shared by the move's
# statement and the laws that check it, and cancel out.

STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1))
"""The four orthogonal steps, as (Δfile, Δrank)."""


def neighbour(i: int, step: tuple[int, int]) -> int | None:
    """The square one ``step`` from square bit i, None off the 5 × 5 board."""
    file, rank = divmod(i, 5)
    f, r = file + step[0], rank + step[1]
    return 5 * f + r if 0 <= f < 5 and 0 <= r < 5 else None


def neighbours_mask(i: int) -> int:
    return sum(1 << n for step in STEPS if (n := neighbour(i, step)) is not None)


def explicit_adj(x: Any) -> Any:
    """The squares orthogonally adjoining some square of x: per step, the squares that
    have a neighbour that way (by coordinates), shifted onto it."""
    out = E.bv(0)
    for step in STEPS:
        has = sum(1 << i for i in range(E.N) if neighbour(i, step) is not None)
        by = 5 * step[0] + step[1]
        out = out | ((x & E.bv(has)) << by if by > 0 else z3.LShR(x & E.bv(has), -by))
    return out


def seeds_are_the_neighbours(pre: Pre) -> Any:
    """The encoding's ``directions`` of {s} (the seeds of the captured groups, shared
    with the move's statement) are the neighbours of s by coordinates, each once."""
    f = Frame.of(pre)
    ways = E.directions(f.sbit)
    want = E.bv(0)
    for i in range(E.N):
        want = z3.If(pre.action == i, E.bv(neighbours_mask(i)), want)
    single = [w & (w - 1) == 0 for w in ways]
    apart = [a & b == 0 for a, b in itertools.combinations(ways, 2)]
    return z3.And(ways[0] | ways[1] | ways[2] | ways[3] == want, *single, *apart)


def only_captured_groups_change_colour(pre: Pre, post: Post) -> Any:
    """(iii) Every square that changes colour was the opponent's and becomes the mover's;
    the changed squares are whole opposing groups, without liberties in cboard, each
    adjoining s."""
    f, mine_, changed, blank_c = _placement_parts(pre, post)
    near = E.bv(0)
    for t in E.directions(f.sbit):
        near = near | z3.If(t & f.theirs != 0, E.group(t, f.theirs), E.bv(0))
    return z3.And(
        seeds_are_the_neighbours(pre),
        changed & ~f.theirs == 0,  # only opposing stones change…
        changed & ~mine_ == 0,  # …to the mover's colour
        explicit_adj(changed) & f.theirs & ~changed == 0,  # whole groups
        explicit_adj(changed) & blank_c == 0,  # without liberties in cboard
        changed & ~near == 0,  # adjoining s
    )


def every_captured_group_changes_colour(pre: Pre, post: Post) -> Any:
    """(iv) Every opposing group adjoining s without liberties in cboard changes colour."""
    f, _, changed, blank_c = _placement_parts(pre, post)
    laws = [seeds_are_the_neighbours(pre)]
    for t in E.directions(f.sbit):
        g = E.group(t, f.theirs)
        laws.append(z3.Implies(z3.And(t & f.theirs != 0, explicit_adj(g) & ~g & blank_c == 0), t & changed != 0))
    return z3.And(laws)


PLACEMENT_LAWS: dict[str, Callable[[Pre, Post], Any]] = {
    "(ii) a placement adds one stone": a_placement_adds_one_stone,
    "(iii) only captured groups change colour": only_captured_groups_change_colour,
    "(iv) every captured group changes colour": every_captured_group_changes_colour,
}


def placement_laws_hold(
    report: Report, rel: Relation, classes: dict[str, dict[str, Classifier]], abstract: bool = False
) -> None:
    """Each of PLACEMENT_LAWS holds for every after-state of ``rel`` (GothelloMove).

    With ``abstract`` the corrected groups are any sets satisfying the group lemmas
    (E.AbstractGroups), which the unrolled closure does (``closure_bounds_are_fixpoints``)."""
    post = Post.fresh("")
    groups = E.AbstractGroups() if abstract else None
    for law, prop in PLACEMENT_LAWS.items():

        def fails(pre: Pre, prop: Callable[[Pre, Post], Any] = prop) -> Any:
            E.ABSTRACT = groups
            try:
                claim = z3.And(post.wellformed(), rel(pre, post), z3.Not(prop(pre, post)))
                return z3.And(claim, *(groups.lemmas if groups else []))
            finally:
                E.ABSTRACT = None

        classify(report, law, "GothelloMove", fails, classes.get(law, {}), lambda w: names_on(report.reading, w), post)


def refused_only_without_liberties(report: Report, rels: dict[str, Relation], classes: dict[str, Classifier]) -> None:
    """(f) The prose of GothelloIllegalMoveBlocked: a placement on a blank square is
    refused as blocked only if "the stone placed becomes part of a group with no
    remaining liberties" — liberties over orthogonal adjacency, s in its group."""
    blocked = rels["GothelloIllegalMoveBlocked"]

    def refused_with_a_liberty(pre: Pre) -> Any:
        f = Frame.of(pre)
        return z3.And(holds(blocked, pre, "b"), f.on_blank(), E.own_liberties(f) != 0)

    classify(
        report,
        "(f) refused only without liberties",
        "GothelloIllegalMoveBlocked",
        refused_with_a_liberty,
        classes,
        lambda w: names_on(report.reading, w),
    )


def closure_bounds_are_fixpoints(report: Report) -> None:
    """The unrolled closures have reached their fixpoint (one more step adds nothing),
    and the unrolled group satisfies the lemmas that AbstractGroups assumes — for
    every seed of at most one square and every set of stones.  One query per seed:
    z3 folds a constant seed through the unrolling, which is much faster."""
    stones = z3.BitVec("stones", E.N)
    for seed in [E.bv(0)] + [E.bv(1 << i) for i in range(E.N)]:
        # The corrected group's fixpoint is its last lemma (closed under adjacency).
        for lemma in E.group_lemmas(seed, stones, E.group_unrolled(seed, stones)).children():
            if solve(z3.Not(lemma)) is not None:
                report.fail(f"the unrolled group does not satisfy the group lemma {lemma}")
        literal = E.group_literal(seed, stones)
        if solve(literal | (E.adj_literal(literal) & stones) != literal) is not None:
            report.fail(f"group: {E.ITERATIONS} steps do not reach the fixpoint")


# ─── Both readings ────────────────────────────────────────────────────────────

P = errata.PREDICATES
LITERAL_OVERLAPS: dict[tuple[str, str], dict[str, Classifier]] = {
    ("GothelloIllegalMoveNonblank", "GothelloIllegalMoveBlocked"): {"G10": P["G10"]},
}
LITERAL_GAPS: dict[str, Classifier] = {"G6": P["G6"], "G6+G7": P["G7"]}
LITERAL_DEAD = errata.DEAD
LITERAL_UNDEFINED: dict[str, Classifier] = {"G7": P["G7"]}
LITERAL_ILLEGAL: dict[str, Classifier] = {"G8": P["G8"]}
LITERAL_PLACEMENT: dict[str, dict[str, Classifier]] = {"(iv) every captured group changes colour": {"G3": P["G3"]}}
LITERAL_REFUSED: dict[str, Classifier] = {"G2": P["G2"], "G1": P["G1"]}
"""Which errata may explain a failure of each theorem on the literal reading."""


def run_literal() -> Report:
    report = Report("literal")
    rels = E.LITERAL
    timed(report, "(a) disjoint", lambda: disjuncts_are_disjoint(report, rels, LITERAL_OVERLAPS))
    timed(report, "(b) total", lambda: some_disjunct_holds(report, rels, LITERAL_GAPS))
    timed(report, "(c) deterministic", lambda: each_disjunct_is_deterministic(report, rels))
    timed(report, "(d) satisfiable", lambda: each_disjunct_is_satisfiable(report, rels, LITERAL_DEAD))
    timed(report, "(e) defined", lambda: holding_does_not_depend_on_undefined_terms(report, rels, LITERAL_UNDEFINED))
    timed(report, "(i) illegal", lambda: illegal_changes_nothing(report, rels, LITERAL_ILLEGAL))
    timed(report, "(ii–iv) placement", lambda: placement_laws_hold(report, rels["GothelloMove"], LITERAL_PLACEMENT))
    timed(report, "(f) refused", lambda: refused_only_without_liberties(report, rels, LITERAL_REFUSED))
    return report


def run_bounds() -> Report:
    report = Report("corrected")
    timed(report, "closure bounds and group lemmas", lambda: closure_bounds_are_fixpoints(report))
    return report


def run_corrected_disjoint() -> Report:
    report = Report("corrected")
    timed(report, "(a) disjoint", lambda: disjuncts_are_disjoint(report, E.CORRECTED, {}))
    return report


def run_corrected_rest() -> Report:
    report = Report("corrected")
    rels = E.CORRECTED
    timed(report, "(b) total", lambda: some_disjunct_holds(report, rels, {}))
    timed(report, "(c) deterministic", lambda: each_disjunct_is_deterministic(report, rels))
    timed(report, "(d) satisfiable", lambda: each_disjunct_is_satisfiable(report, rels, {}))
    timed(report, "(e) defined", lambda: holding_does_not_depend_on_undefined_terms(report, rels, {}))
    timed(report, "(i) illegal", lambda: illegal_changes_nothing(report, rels, {}))
    timed(report, "(ii–iv) placement", lambda: placement_laws_hold(report, rels["GothelloMove"], {}, abstract=True))
    timed(report, "(f) refused", lambda: refused_only_without_liberties(report, rels, {}))
    return report


PARTS: dict[str, Callable[[], Report]] = {
    "literal": run_literal,
    "corrected (b–f)": run_corrected_rest,
    "corrected: closure bounds": run_bounds,
    "corrected (a)": run_corrected_disjoint,
}
"""Four parts of 20–30 s, shared out to two processes."""
EXPECTED_LITERAL_ERRATA = frozenset(errata.PREDICATES)
"""The errata the literal run must find, each with a witness: every one with a predicate."""


def run_part(name: str) -> Report:
    return PARTS[name]()


def main() -> int:
    start = time.perf_counter()
    # The theorems are about the encoding: first check it against the spec (seconds).
    if wrong := encoding_check.problems():
        return verdict(wrong, "ENCODING ≠ SPEC:", "the encoding disagrees with spec/gothello.py: no theorem run")
    print(f"encoding ≡ spec (proofs.gothello.encoding_check): {time.perf_counter() - start:.1f} s")
    with multiprocessing.Pool(2) as pool:  # two cores; the corrected half is the slow one
        reports = dict(zip(PARTS, pool.map(run_part, PARTS, chunksize=1), strict=True))
    for name, report in reports.items():
        print(f"GothelloTurn, {name}")
        for theorem, seconds in report.timings.items():
            print(f"  {theorem}: {seconds:.1f} s")
        for f in report.findings:
            print(f"  {f.theorem}: {f.what} → {'+'.join(f.errata)}\n      {f.witness or ''}  {f.replay}")
            if report.reading == "corrected":
                report.fail(f"{f.theorem}: {f.what}: {f.witness} {f.replay}")
    literal = reports["literal"]
    found = {e for f in literal.findings for e in f.errata}
    if found != EXPECTED_LITERAL_ERRATA:
        literal.fail(f"literal findings {sorted(found)}, expected {sorted(EXPECTED_LITERAL_ERRATA)}")
    problems = [p for r in reports.values() for p in r.problems]
    return verdict(problems, "UNEXPECTED:", f"total {time.perf_counter() - start:.1f} s (two processes)")


if __name__ == "__main__":
    sys.exit(main())
