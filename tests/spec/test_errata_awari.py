"""Witnesses of the Awari errata (spec/errata.py, proofs/ERRATA.md: A1–A15, A18, A21, A22): each test runs the
literal reading of a schema on the erratum's witness and shows the problem, then
shows what the corrected reading, which the referee uses, does instead."""

from __future__ import annotations

import inspect

from spec import awari as S
from spec.awari import PIT, PLAYER, AwariRef, AwariRef_corrected, InitAwari, θAwariBoard
from tests.support.awari_states import game, initial_seen

F, A, B = PIT.F, PIT.A, PIT.B


def schemas(outcomes: tuple[S.Outcome, ...]) -> list[str]:
    return [o.schema for o in outcomes]


def test_A1_reachable_is_reflexive_so_the_last_pit_is_always_captured() -> None:
    """A1 — Capture: reachable (vul ◁ prev ▷ vul) {to_capture} = ran ({to_capture} ◁ r*)
    contains to_capture, because r* ⊇ id PIT.  Witness: the opening F sows into d, which
    then holds 5 stones; literally d is captured."""
    sown, to_capture = S.Sow(θAwariBoard(InitAwari()), F)
    assert to_capture == PIT.d and sown.board[PIT.d] == 5
    _, literal = S.Capture(sown, to_capture)
    assert literal == {PIT.d}
    _, corrected = S.Capture_corrected(sown, to_capture)
    assert corrected == frozenset()


def test_A1_captures_even_on_the_movers_own_side() -> None:
    """A1 — the same on south's own row: sowing A with 1 stone ends in B (south's), which
    is captured literally."""
    g = game({"A": 1, "a": 3}, 20, 24, PLAYER.south)
    _, literal = S.Capture(*S.Sow(θAwariBoard(g), A))
    assert literal == {B}


def test_A2_no_schema_passes_the_turn() -> None:
    """A2 — Sow and Capture keep to_move, AwariMove and NormalMove say nothing: after the
    opening move south is still to move."""
    (normal,) = [o for o in AwariRef(InitAwari(), F) if o.schema == "NormalMove"]
    assert normal.after.to_move == PLAYER.south
    (corrected,) = AwariRef_corrected(InitAwari(), F)
    assert corrected.after.to_move == PLAYER.north


def test_A3_grand_slam_guard_is_vacuous() -> None:
    """A3 — GrandSlam's ``opp_stones board' = 0`` is about the final board, which
    ForfeitStones and AwariBoard' force empty: the opening F is literally a grand slam
    that wins the game for south, though north keeps five full pits."""
    outcomes = AwariRef(InitAwari(), F)
    (slam,) = [o for o in outcomes if o.schema == "GrandSlam"]
    assert slam.result == S.win(PLAYER.south)
    assert schemas(AwariRef_corrected(InitAwari(), F)) == ["NormalMove"]


def test_A4_a_real_grand_slam_is_also_a_normal_move() -> None:
    """A4 — NormalMove does not exclude a grand slam: F (2 stones) fills a and b to 2 and
    captures north's whole row; literally both NormalMove (not_done) and GrandSlam hold."""
    g = game({"a": 1, "b": 1, "F": 2, "A": 4}, 20, 20, PLAYER.south)
    assert schemas(AwariRef(g, F)) == ["NormalMove", "GrandSlam"]
    (slam,) = AwariRef_corrected(g, F)
    assert slam.schema == "GrandSlam" and slam.after.score == (24, 24) and slam.result == S.draw


def test_A5_illegal_move_leaves_the_after_state_free() -> None:
    """A5 — IllegalMove has no ΞAwariBoard: board', score' and to_move' may be anything."""
    (illegal,) = AwariRef(InitAwari(), PIT.a)
    assert illegal.schema == "IllegalMove" and illegal.after.completions() > 10**12
    (corrected,) = AwariRef_corrected(InitAwari(), PIT.a)
    assert corrected.after.completions() == 1 and corrected.after.state() == InitAwari()


def test_A6_win_margin_leaves_board_and_turn_free() -> None:
    """A6 — WinMargin fixes only score' = score."""
    g = game({"a": 10, "A": 10}, 3, 25, PLAYER.north)
    (won,) = AwariRef(g, PIT.a)
    assert won.schema == "WinMargin" and won.after.board is None and won.after.to_move is None
    assert won.after.completions() > 1
    (corrected,) = AwariRef_corrected(g, PIT.a)
    assert corrected.after.completions() == 1 and corrected.after.board == g.board


def test_A7_no_move_leaves_the_turn_free() -> None:
    """A7 — NoMove: board' is forced empty by AwariBoard', but to_move' is free."""
    g = game({"a": 5}, 20, 23, PLAYER.south)
    (ended,) = AwariRef(g, A)
    assert ended.schema == "NoMove" and ended.after.completions() == 2
    (corrected,) = AwariRef_corrected(g, A)
    assert corrected.after.completions() == 1 and corrected.result == S.win(PLAYER.north)


def test_A8_no_disjunct_when_the_opponent_cannot_be_fed() -> None:
    """A8 — North's row is empty and south's only move, A, cannot reach it: no disjunct
    of AwariRef holds."""
    g = game({"A": 1}, 23, 24, PLAYER.south)
    assert AwariRef(g, A) == ()
    (ended,) = AwariRef_corrected(g, A)
    assert ended.schema == "CannotFeed" and ended.result == S.win(PLAYER.south)
    assert ended.after.score == (23, 25)


def test_A9_an_illegal_attempt_makes_the_retry_a_repetition() -> None:
    """A9 — AwariMove records θAwariBoard on every action, illegal ones included: after
    south's illegal ``a`` the initial position is in positions, so south's retry meets
    NoMove (a repetition) and the game ends."""
    (illegal,) = AwariRef(InitAwari(), PIT.a)
    assert θAwariBoard(InitAwari()) in illegal.after.positions
    retry = initial_seen()  # the same board, with the attempt recorded
    assert "NoMove" in schemas(AwariRef(retry, F))
    (corrected,) = AwariRef_corrected(InitAwari(), PIT.a)
    assert corrected.after.state().positions == frozenset()


def test_A10_awari_move_declares_no_move() -> None:
    """A10 — IllegalMove's predicate uses ``move``, which neither it nor AwariMove
    declares.  The spec takes it as the schema's input: on the initial state the
    literal IllegalMove holds for north's ``a`` and not for south's ``F``.  Left free
    (bound by nothing, i.e. some move), it would hold for F as well."""
    g = InitAwari()
    assert S.IllegalMove(g, PIT.a) is not None
    assert S.IllegalMove(g, F) is None
    assert all("move" in inspect.signature(d).parameters for d in (S.IllegalMove, S.IllegalMove_corrected))
    assert "move" not in inspect.signature(S.AwariMove).parameters  # AwariMove, as written, has none


def test_A11_a_game_ending_move_is_reported_as_continuing() -> None:
    """A11 — WinMargin is checked at the start of a turn: the move that takes south to 25
    gets not_done, and the game ends only at north's next attempt, whatever it is."""
    g = game({"a": 1, "c": 5, "F": 1, "A": 3}, 15, 23, PLAYER.south)
    (normal,) = [o for o in AwariRef(g, F) if o.schema == "NormalMove"]
    assert normal.result == S.not_done and normal.after.score == (15, 25)
    assert normal.after.board is not None and normal.after.score is not None
    after = S.AwariGame(normal.after.board, normal.after.score, PLAYER.north, normal.after.positions)
    assert schemas(AwariRef(after, PIT.c)) == ["WinMargin"]
    (corrected,) = AwariRef_corrected(g, F)
    assert corrected.schema == "NormalMove ⨟ WinMargin" and corrected.result == S.win(PLAYER.south)


def test_A12_a_repeated_position_is_also_a_normal_move() -> None:
    """A12 — NoMove's repetition does not exclude the moves: on a repeated position a
    legal move is NoMove, NormalMove and (A3) GrandSlam at once."""
    assert schemas(AwariRef(initial_seen(), F)) == ["NormalMove", "NoMove", "GrandSlam"]
    assert schemas(AwariRef_corrected(initial_seen(), F)) == ["NoMove"]


def test_A13_sigma_has_no_value_on_an_infinite_relation() -> None:
    """A13 — Σ : (X ↔ ℕ) → ℕ is total on X ↔ ℕ, which holds infinite relations even for
    X = PIT: r = {a} × ℕ.  Write Sₖ for Σ of r less its pairs a ↦ 0 … a ↦ k − 1 (each
    remainder is infinite again).  The axiom, applied to the pair a ↦ k, gives
    Sₖ = k + Sₖ₊₁ and the declaration Sₖ ∈ ℕ; z3 derives S₀ ≥ n(n − 1)/2 from n
    unfoldings, for each n tried: no
    natural number is Σ r, so no function satisfies the axiom — it is inconsistent.
    The spec's Σ takes finite relations only: it refuses an infinite one's prefix
    pretending to be total on PIT."""
    import z3

    for n in (2, 10, 100):
        s = [z3.Int(f"S{k}") for k in range(n + 1)]
        solver = z3.Solver()
        solver.add(*(s[k] == k + s[k + 1] for k in range(n)), *(sk >= 0 for sk in s))
        solver.add(s[0] < n * (n - 1) // 2)  # suppose Σ r were below 0 + 1 + … + (n − 1)
        assert solver.check() == z3.unsat
    # Consistent on the finite relations the paper applies it to: the axiom holds pair by pair.
    r = S.graph(InitAwari().board)
    assert all(S.Σ(r) == n + S.Σ(r - {(p, n)}) for (p, n) in r)


def test_A14_trace_is_infinite_so_not_a_seq() -> None:
    """A14 — trace p is λ n : ℕ₁ • …, defined at every n ≥ 1 (period 11): no seq has that
    domain."""
    t = S.trace(A)
    assert all(t(n) == t(n + 11) for n in range(1, 60))
    assert t(500) == t(500 - 11 * 45)
    assert A not in {t(n) for n in range(1, 23)}  # the origin is always skipped


def test_A15_the_feeding_clause_quantifies_over_all_states() -> None:
    """A15 — North's row is empty; south's B does not feed it, F would.  IllegalMove's
    ∀ m : NormalMove ranges over every state's NormalMoves, and one from the initial
    board with m.move = B leaves north stones, so the clause fails: B is neither legal
    nor illegal."""
    g = game({"B": 1, "F": 1}, 23, 23, PLAYER.south)
    refuting = S.normal_move_binding(B)  # a NormalMove with m.move = B, from the initial board
    assert sum(refuting[p] for p in S.side(PLAYER.north)) > 0
    assert AwariRef(g, B) == ()
    assert schemas(AwariRef_corrected(g, B)) == ["IllegalMove"]
    assert schemas(AwariRef_corrected(g, F)) == ["NormalMove"]


def test_A18_normal_moves_forall_binds_nothing() -> None:
    """A18 — NormalMove's ``∀ b : BOARD • opp_stones board = 0 ⇒ opp_stones board' > 0``:
    b does not occur in the body, so the quantifier is idle and the implication is
    about this move only.  It is vacuous when the opponent has stones (F empties
    north's row and is a NormalMove) and live when the opponent starves (B does not
    feed and is refused, F2 feeds).  Read as binding the implication's board, ∀ b would demand
    opp_stones board' > 0 of every move, and F would be refused."""
    slam = game({"a": 1, "b": 1, "F": 2, "A": 4}, 20, 20, PLAYER.south)
    normal = S.NormalMove(slam, F)
    assert normal is not None and normal.after.board is not None
    assert sum(normal.after.board[p] for p in S.side(PLAYER.north)) == 0
    starving = game({"B": 1, "F": 2}, 23, 22, PLAYER.south)  # F leaves a stone in a even literally (A1)
    assert S.NormalMove(starving, B) is None and S.NormalMove(starving, F) is not None


def test_A21_the_schema_records_the_position_before_the_move() -> None:
    """A21 — the prose: "recording the resulting board position"; AwariMove: positions'
    = positions ∪ {θAwariBoard}, the position before the move.  The spec follows the
    schema: after F the initial position is recorded and the new one is not (were it,
    NoMove's repetition test would end the game at once)."""
    g = InitAwari()
    result, g1 = S.referee(g, F)
    assert result == S.not_done and g1.positions == {θAwariBoard(g)}
    assert θAwariBoard(g1) not in g1.positions and not S.game_over(g1)


def test_A22_a_grand_slam_leaves_the_opponent_no_move() -> None:
    """A22 — "a player must leave the opponent with a legal move … if it is possible",
    yet variant (e) allows a grand slam.  South's F captures all of north's stones
    though A would leave them; the referee accepts F as a grand slam (the schemas'
    reading: the obligation binds only when the opponent's row is already empty)."""
    g = game({"a": 1, "b": 1, "F": 2, "A": 4}, 20, 20, PLAYER.south)
    (slam,) = AwariRef_corrected(g, F)
    assert slam.schema == "GrandSlam" and slam.result != S.illegal_move
    assert schemas(AwariRef_corrected(g, A)) == ["NormalMove"]  # a move that leaves north a move exists
