"""The z3 encoding of GothelloTurn (proofs/gothello/encoding.py) ≡ spec/gothello.py,
checked where the theorems use it (``proofs.gothello.theorems`` runs ``problems()``
before its theorems and fails on any difference):

* adjacency, every square: ``adj`` and ``adj_literal`` of {s} are spec ``adjoins_corrected``
  and ``adjoins`` ⦇{s}⦈, and ``directions`` of {s} names each neighbour once — so a
  wrapped edge (d5 → e1) or a wrong capture direction fails on its square;
* the targeted witnesses (a capture from each direction, at a corner and an edge, a
  group of three, two groups at once, suicide against capture): on every disjunct,
  literal and corrected, both sides, two histories, the same disjuncts hold with the
  same after-state and result as on the spec;
* groups and liberties, literal and corrected, of every stone on seeded boards.
"""

from __future__ import annotations

import random
from typing import Any

import z3

from proofs.gothello import encoding as E
from proofs.gothello.encoding import Post, Pre
from spec import gothello as S
from spec.z import Fun, image


def square(i: int) -> S.SQUARE:
    return (i // 5 + 1, i % 5 + 1)


def code(m: S.MOVE) -> int:
    if isinstance(m, S.move):
        file, rank = m.square
        return 5 * (file - 1) + (rank - 1)
    return E.PASS


def board_of(black: int, white: int) -> S.BOARD:
    def val(i: int) -> S.SQUAREVAL:
        if black >> i & 1:
            return S.stone(S.PLAYER.black)
        if white >> i & 1:
            return S.stone(S.PLAYER.white)
        return S.blank

    return Fun((square(i), val(i)) for i in range(E.N))


def bits(squares: frozenset[S.SQUARE]) -> int:
    return sum(1 << code(S.move(s)) for s in squares)


def value(term: Any) -> int:
    return int(z3.simplify(term).as_long())


def assignment(game: S.GothelloGame, action: S.MOVE, pre: Pre, h_free: bool = False) -> list[tuple[Any, Any]]:
    """The values of ``pre`` for a spec state (histories longer than 2 keep their
    first two actions: the abstraction).  With ``h_free`` the undefined hᵢ are left
    out (free); otherwise they are 0."""
    black = sum(1 << i for i in range(E.N) if game.board[square(i)] == S.stone(S.PLAYER.black))
    white = sum(1 << i for i in range(E.N) if game.board[square(i)] == S.stone(S.PLAYER.white))
    hs = [code(m) for m in game.history[:2]]
    pairs = [
        (pre.black, E.bv(black)),
        (pre.white_stones, E.bv(white)),
        (pre.white, z3.BoolVal(game.to_move == S.PLAYER.white)),
        (pre.action, z3.BitVecVal(code(action), 5)),
        (pre.hlen, z3.BitVecVal(min(len(game.history), 2), 2)),
    ]
    pairs += [(h, z3.BitVecVal(v, 5)) for h, v in zip((pre.h1, pre.h2), hs, strict=False)]
    if not h_free:
        pairs += [(h, z3.BitVecVal(0, 5)) for h in (pre.h1, pre.h2)[len(hs) :]]
    return pairs


# ─── Adjacency, every square ───────────────────────────────────────────────────


def adjacency_problems() -> list[str]:
    """Differences between the encoding's adjacency and the spec's, square by square."""
    problems = []
    for i in range(E.N):
        s = square(i)
        name = f"{'abcde'[s[0] - 1]}{s[1]}"
        want = bits(frozenset(image(S.adjoins_corrected, {s})))
        if (got := value(E.adj(E.bv(1 << i)))) != want:
            problems.append(f"adj {{{name}}} = {got:#09x}, spec adjoins_corrected ⦇{{{name}}}⦈ = {want:#09x}")
        if (lit := value(E.adj_literal(E.bv(1 << i)))) != (want_lit := bits(frozenset(image(S.adjoins, {s})))):
            problems.append(f"adj_literal {{{name}}} = {lit:#09x}, spec adjoins ⦇{{{name}}}⦈ = {want_lit:#09x}")
        ways = [d for d in (value(t) for t in E.directions(E.bv(1 << i))) if d]
        if sorted(ways) != sorted(1 << code(S.move(t)) for t in image(S.adjoins_corrected, {s})):
            problems.append(f"directions {{{name}}} = {[hex(d) for d in ways]}, not one per neighbour of {name}")
    return problems


# ─── Disjuncts on concrete states ──────────────────────────────────────────────

RESULT_CODES = {
    S.not_done: E.NOT_DONE,
    S.illegal_move: E.ILLEGAL,
    S.win(S.PLAYER.black): E.WIN_BLACK,
    S.win(S.PLAYER.white): E.WIN_WHITE,
    S.draw: E.DRAW,
}


def after_difference(model: Any, post: Post, outcome: S.Outcome, game: S.GothelloGame, action: S.MOVE) -> str | None:
    """None when the model's after-state and result are the spec outcome's."""

    def num(x: Any) -> int:
        return int(model.eval(x, model_completion=True).as_long())

    after = outcome.after
    cons = z3.is_true(model.eval(post.cons, model_completion=True))
    mine = (
        board_of(num(post.black), num(post.white_stones)),
        S.PLAYER.white if z3.is_true(model.eval(post.white, model_completion=True)) else S.PLAYER.black,
        (action, *game.history) if cons else game.history,
        num(post.result),
    )
    theirs = (after.board, after.to_move, after.history, RESULT_CODES[outcome.result])
    if cons and num(post.head) != code(action):
        return "history' holds another action at its head"
    return None if mine == theirs else f"the encoding's after-state {mine}, the spec's {theirs}"


def reading_difference(reading: str, game: S.GothelloGame, action: S.MOVE) -> str | None:
    """None when every disjunct of ``reading`` holds on (game, action) exactly when the
    spec's does, with the spec's after-state and result, and a disjunct that holds
    only under one value of an undefined term (``history 1`` of ⟨⟩) says so."""
    rels = E.LITERAL if reading == "literal" else E.CORRECTED
    turn = S.GothelloTurn_G5 if reading == "literal" else S.GothelloTurn_corrected
    by_name = {o.schema: o for o in turn(game, action)}
    for name, rel in rels.items():
        pre, post = Pre.fresh(), Post.fresh("")
        # Substituting the before-state first lets z3 fold the closures to constants.
        values = assignment(game, action, pre, h_free=True)
        s = z3.SolverFor("QF_BV")
        s.add(z3.simplify(z3.substitute(z3.And(pre.wellformed(), post.wellformed(), rel(pre, post)), *values)))
        holds = s.check() == z3.sat
        outcome = by_name.get(name)
        if holds != (outcome is not None):
            return f"{reading} {name} {'holds' if holds else 'does not hold'} in the encoding, not in the spec"
        if outcome is None:
            continue
        if (diff := after_difference(s.model(), post, outcome, game, action)) is not None:
            return f"{reading} {name}: {diff}"
        s.add(pre.h1 != E.PASS)
        if outcome.undefined is not None and (game.history or s.check() != z3.unsat):
            return f"{reading} {name}: holds whatever history 1 of ⟨⟩ is, the spec says only if it is pass"
    return None


def position(stones: str) -> S.BOARD:
    """A board from "b c3 w c4 …" (colour, then squares, file letter and rank)."""
    black = white = 0
    colour = "b"
    for word in stones.split():
        if word in ("b", "w"):
            colour = word
            continue
        i = 5 * ("abcde".index(word[0])) + int(word[1]) - 1
        if colour == "b":
            black |= 1 << i
        else:
            white |= 1 << i
    return board_of(black, white)


def place(square_name: str) -> S.MOVE:
    return S.move(("abcde".index(square_name[0]) + 1, int(square_name[1])))


WITNESSES: dict[str, tuple[str, str]] = {
    # A white stone captured from each of the four directions (black plays the last liberty).
    "capture to the right": ("w c3 b b3 c2 c4", "d3"),
    "capture to the left": ("w c3 b d3 c2 c4", "b3"),
    "capture upwards": ("w c3 b b3 d3 c2", "c4"),
    "capture downwards": ("w c3 b b3 d3 c4", "c2"),
    # Corner and edge captures, on every edge.
    "corner capture": ("w a1 b a2", "b1"),
    "edge capture": ("w c1 b b1 d1", "c2"),
    "edge capture, file e": ("w e3 b e2 e4", "d3"),
    "edge capture, rank 5": ("w c5 b b5 d5", "c4"),
    "corner capture at e5": ("w e5 b d5", "e4"),
    # A group larger than one: three white stones in a row, captured by their last liberty.
    "a group of three captured": ("w b2 c2 d2 b b1 c1 d1 a2 e2 b3 c3", "d3"),
    # Several groups at once: two separate white stones lose their last liberty together.
    "two groups at once": ("w b2 d2 b a2 b1 b3 c1 d1 e2 d3", "c2"),
    # Own group with a liberty elsewhere: legal, nothing captured.
    "joining a group with a liberty": ("b b2 w a2 b1 c1", "c2"),
    # Across the d5/e1 seam: no capture (d5 and e1 do not adjoin).
    "no capture across d5/e1": ("w e1 b e2 d1", "d5"),
    # Blocked: no liberty in cboard, before any capture (the paper's order), so refused
    # even where it would take both neighbours.
    "blocked": ("w a2 b1", "a1"),
    "blocked though it would capture": ("w a2 b1 b a3 b2 c1", "a1"),
}
CAPTURING = {n for n in WITNESSES if "capture" in n and "blocked" not in n and "no capture" not in n}
CAPTURING |= {"two groups at once"}
HISTORIES: tuple[S.HISTORY, ...] = ((), (place("e5"), S.pass_))


def witness_cases() -> list[tuple[str, S.GothelloGame, S.MOVE]]:
    """Every witness, both sides to move, the histories ⟨⟩ and ⟨e5, pass⟩."""
    return [
        (name, S.GothelloGame(position(stones), to_move, history), place(at))
        for name, (stones, at) in WITNESSES.items()
        for to_move in S.PLAYER
        for history in HISTORIES
    ]


def witness_problems() -> list[str]:
    problems = []
    for name, game, action in witness_cases():
        for reading in ("literal", "corrected"):
            if (d := reading_difference(reading, game, action)) is not None:
                problems.append(f"witness {name}, {game.to_move.name} to move, history {game.history}: {d}")
    return problems


def group_problems(boards: int = 10, seed: int = 1000) -> list[str]:
    """Groups and liberties, literal and corrected, of every stone on ``boards`` seeded
    boards of every density."""
    rng = random.Random(seed)
    problems = []
    for _ in range(boards):
        black, white = E.random_stones(rng, rng.choice((0.2, 0.5, 0.8, 0.95)))
        board = board_of(black, white)
        blank = E.bv(E.FULL & ~(black | white))
        for i in range(E.N):
            stones = black if black >> i & 1 else white if white >> i & 1 else 0
            if not stones:
                continue
            seed_bv, stones_bv, s = E.bv(1 << i), E.bv(stones), square(i)
            g, g_lit = E.group(seed_bv, stones_bv), E.group_literal(seed_bv, stones_bv)
            pairs = (
                ("group", value(g), S.group_corrected(board, s)),
                ("group literal", value(g_lit), S.group(board, s)),
                ("liberties", value(E.liberties(g, blank)), S.liberties_corrected(board, s)),
                ("liberties literal", value(E.liberties_literal(g_lit, blank)), S.liberties(board, s)),
            )
            problems += [f"{what} of {s} on {board}: {got:#x} ≠ spec" for what, got, want in pairs if got != bits(want)]
    return problems


def problems() -> list[str]:
    """Every difference between the encoding and the spec over this module's scope
    (a wrong adjacency alone, at once: the rest would repeat it, slowly)."""
    return adjacency_problems() or witness_problems() + group_problems()
