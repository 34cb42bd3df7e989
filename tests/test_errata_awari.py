"""Witnesses of the Awari errata (proofs/ERRATA.md, A1–A15, A18): each test runs the
literal reading of a schema on the erratum's witness and shows the problem, then
shows what the corrected reading, which the referee uses, does instead."""

from __future__ import annotations

import inspect

from spec import awari as S
from spec.awari import PIT, PLAYER, AwariRef, AwariRef_literal, InitAwari, θAwariBoard
from tests.awari_states import game, initial_seen

F, A, B = PIT.F, PIT.A, PIT.B


def schemas(outcomes: tuple[S.Outcome, ...]) -> list[str]:
    return [o.schema for o in outcomes]


def test_A1_reachable_is_reflexive_so_the_last_pit_is_always_captured() -> None:
    """A1 — Capture: reachable (vul ◁ prev ▷ vul) {to_capture} = ran ({to_capture} ◁ r*)
    contains to_capture, because r* ⊇ id PIT.  Witness: the opening F sows into d, which
    then holds 5 stones; literally d is captured."""
    sown, to_capture = S.Sow(θAwariBoard(InitAwari()), F)
    assert to_capture == PIT.d and sown.board[PIT.d] == 5
    _, literal = S.Capture_literal(sown, to_capture)
    assert literal == {PIT.d}
    _, corrected = S.Capture(sown, to_capture)
    assert corrected == frozenset()


def test_A1_captures_even_on_the_movers_own_side() -> None:
    """A1 — the same on south's own row: sowing A with 1 stone ends in B (south's), which
    is captured literally."""
    g = game({"A": 1, "a": 3}, 20, 24, PLAYER.south)
    _, literal = S.Capture_literal(*S.Sow(θAwariBoard(g), A))
    assert literal == {B}


def test_A2_no_schema_passes_the_turn() -> None:
    """A2 — Sow and Capture keep to_move, AwariMove and NormalMove say nothing: after the
    opening move south is still to move."""
    (normal,) = [o for o in AwariRef_literal(InitAwari(), F) if o.schema == "NormalMove"]
    assert normal.after.to_move == PLAYER.south
    (corrected,) = AwariRef(InitAwari(), F)
    assert corrected.after.to_move == PLAYER.north


def test_A3_grand_slam_guard_is_vacuous() -> None:
    """A3 — GrandSlam's ``opp_stones board' = 0`` is about the final board, which
    ForfeitStones and AwariBoard' force empty: the opening F is literally a grand slam
    that wins the game for south, though north keeps five full pits."""
    outcomes = AwariRef_literal(InitAwari(), F)
    (slam,) = [o for o in outcomes if o.schema == "GrandSlam"]
    assert slam.result == S.win(PLAYER.south)
    assert schemas(AwariRef(InitAwari(), F)) == ["NormalMove"]


def test_A4_a_real_grand_slam_is_also_a_normal_move() -> None:
    """A4 — NormalMove does not exclude a grand slam: F (2 stones) fills a and b to 2 and
    captures north's whole row; literally both NormalMove (not_done) and GrandSlam hold."""
    g = game({"a": 1, "b": 1, "F": 2, "A": 4}, 20, 20, PLAYER.south)
    assert schemas(AwariRef_literal(g, F)) == ["NormalMove", "GrandSlam"]
    (slam,) = AwariRef(g, F)
    assert slam.schema == "GrandSlam" and slam.after.score == (24, 24) and slam.result == S.draw


def test_A5_illegal_move_leaves_the_after_state_free() -> None:
    """A5 — IllegalMove has no ΞAwariBoard: board', score' and to_move' may be anything."""
    (illegal,) = AwariRef_literal(InitAwari(), PIT.a)
    assert illegal.schema == "IllegalMove" and illegal.after.completions() > 10**12
    (corrected,) = AwariRef(InitAwari(), PIT.a)
    assert corrected.after.completions() == 1 and corrected.after.state() == InitAwari()


def test_A6_win_margin_leaves_board_and_turn_free() -> None:
    """A6 — WinMargin fixes only score' = score."""
    g = game({"a": 10, "A": 10}, 3, 25, PLAYER.north)
    (won,) = AwariRef_literal(g, PIT.a)
    assert won.schema == "WinMargin" and won.after.board is None and won.after.to_move is None
    assert won.after.completions() > 1
    (corrected,) = AwariRef(g, PIT.a)
    assert corrected.after.completions() == 1 and corrected.after.board == g.board


def test_A7_no_move_leaves_the_turn_free() -> None:
    """A7 — NoMove: board' is forced empty by AwariBoard', but to_move' is free."""
    g = game({"a": 5}, 20, 23, PLAYER.south)
    (ended,) = AwariRef_literal(g, A)
    assert ended.schema == "NoMove" and ended.after.completions() == 2
    (corrected,) = AwariRef(g, A)
    assert corrected.after.completions() == 1 and corrected.result == S.win(PLAYER.north)


def test_A8_no_disjunct_when_the_opponent_cannot_be_fed() -> None:
    """A8 — North's row is empty and south's only move, A, cannot reach it: no disjunct
    of AwariRef holds."""
    g = game({"A": 1}, 23, 24, PLAYER.south)
    assert AwariRef_literal(g, A) == ()
    (ended,) = AwariRef(g, A)
    assert ended.schema == "CannotFeed" and ended.result == S.win(PLAYER.south)
    assert ended.after.score == (23, 25)


def test_A9_an_illegal_attempt_makes_the_retry_a_repetition() -> None:
    """A9 — AwariMove records θAwariBoard on every action, illegal ones included: after
    south's illegal ``a`` the initial position is in positions, so south's retry meets
    NoMove (a repetition) and the game ends."""
    (illegal,) = AwariRef_literal(InitAwari(), PIT.a)
    assert θAwariBoard(InitAwari()) in illegal.after.positions
    retry = initial_seen()  # the same board, with the attempt recorded
    assert "NoMove" in schemas(AwariRef_literal(retry, F))
    (corrected,) = AwariRef(InitAwari(), PIT.a)
    assert corrected.after.state().positions == frozenset()


def test_A10_awari_move_declares_no_move() -> None:
    """A10 — IllegalMove's predicate uses ``move``, which neither it nor AwariMove
    declares (NormalMove and GrandSlam get it from Sow)."""
    declarations = (S.AwariMove.__doc__ or "").split("├")[0]
    assert "move :" not in declarations.replace("to_move", "")
    assert "move ∉ side to_move" in (S.IllegalMove_literal.__doc__ or "")


def test_A11_a_game_ending_move_is_reported_as_continuing() -> None:
    """A11 — WinMargin is checked at the start of a turn: the move that takes south to 25
    gets not_done, and the game ends only at north's next attempt, whatever it is."""
    g = game({"a": 1, "c": 5, "F": 1, "A": 3}, 15, 23, PLAYER.south)
    (normal,) = [o for o in AwariRef_literal(g, F) if o.schema == "NormalMove"]
    assert normal.result == S.not_done and normal.after.score == (15, 25)
    assert normal.after.board is not None and normal.after.score is not None
    after = S.AwariGame(normal.after.board, normal.after.score, PLAYER.north, normal.after.positions)
    assert schemas(AwariRef_literal(after, PIT.c)) == ["WinMargin"]
    (corrected,) = AwariRef(g, F)
    assert corrected.schema == "NormalMove ⨟ WinMargin" and corrected.result == S.win(PLAYER.south)


def test_A12_a_repeated_position_is_also_a_normal_move() -> None:
    """A12 — NoMove's repetition does not exclude the moves: on a repeated position a
    legal move is NoMove, NormalMove and (A3) GrandSlam at once."""
    assert schemas(AwariRef_literal(initial_seen(), F)) == ["NormalMove", "NoMove", "GrandSlam"]
    assert schemas(AwariRef(initial_seen(), F)) == ["NoMove"]


def test_A13_sigma_has_no_value_on_an_infinite_relation() -> None:
    """A13 — Σ : (X ↔ ℕ) → ℕ is declared on infinite relations too.  For r = ℕ × {1}
    write Sₖ for Σ of r less k of its pairs (each remainder is infinite again).  The
    axiom gives Sₖ = 1 + Sₖ₊₁ and the declaration Sₖ ∈ ℕ; z3 derives S₀ ≥ n for each n
    tried, i.e. no natural number can be Σ r."""
    import z3

    for n in (1, 2, 10, 100):
        s = [z3.Int(f"S{k}") for k in range(n + 1)]
        solver = z3.Solver()
        solver.add(*(s[k] == 1 + s[k + 1] for k in range(n)), *(sk >= 0 for sk in s))
        solver.add(s[0] < n)  # suppose Σ r were below n
        assert solver.check() == z3.unsat


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
    refuting = S._normal_move_boards_elsewhere(B)
    assert refuting and all(sum(b[p] for p in S.side(PLAYER.north)) > 0 for b in refuting)
    assert AwariRef_literal(g, B) == ()
    assert schemas(AwariRef(g, B)) == ["IllegalMove"]
    assert schemas(AwariRef(g, F)) == ["NormalMove"]


def test_A18_normal_moves_forall_binds_nothing() -> None:
    """A18 — NormalMove's ``∀ b : BOARD • opp_stones board = 0 ⇒ opp_stones board' > 0``:
    b does not occur in the body, so the quantifier is idle (harmless)."""
    doc = S.NormalMove_literal.__doc__ or ""
    line = next(ln for ln in doc.splitlines() if "∀ b : BOARD" in ln)
    body = line.split("•", 1)[1]
    assert " b " not in f" {body} " and "b)" not in body
    assert inspect.signature(S.NormalMove_literal).parameters.keys() == {"g", "move"}
