"""The errata register: every place where the papers, read as mathematics or as a
protocol, are wrong, partial, nondeterministic or silent, and what this project does.

This is the one structured list that the code, the tests and proofs/ERRATA.md read:
ERRATA.md gives each erratum's argument and witness in prose, and
tests/docs/test_errata_index.py checks that its headings, theorem markers and witness tests
are exactly these.  Ids are stable: A = Awari (Massey, *A Networked Awari Referee*),
G = Gothello (Massey, *A Networked Gothello Referee*).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

Game = Literal["awari", "gothello"]
Kind = Literal["rules", "protocol"]


@dataclass(frozen=True)
class StateWitness:
    """A state on which the erratum shows, for the spec animator (``load ID``).

    ``state`` is in the papers' notation (impl/engines/statetext.py; proofs/ERRATA.md's
    witnesses), ``action`` the input to give there, ``look`` what to look at in the
    listing of the literal and corrected disjuncts.  ``seen`` puts the state's own
    position among those seen (an Awari repetition)."""

    state: str
    action: str
    look: str
    seen: bool = False


@dataclass(frozen=True)
class Erratum:
    """One erratum.

    ``kind`` is ``rules`` for a defect of the Z (§1 of a paper) or of the prose that
    states the rules, ``protocol`` for §2.  ``schema`` names the paper's schema or
    table; ``witness`` the tests (``path::name``) that fail when the erratum is
    reintroduced; ``theorem`` the well-foundedness theorem of proofs/README.md that
    finds it in the literal schemas, if one does.  ``layered`` names the errata that
    must be repaired before this one shows.  ``state`` is a state witness the spec
    animator loads, for errata that show on a state (not those about declarations
    or types, nor the protocol).
    """

    id: str
    game: Game
    kind: Kind
    schema: str
    summary: str
    witness: tuple[str, ...]
    theorem: str | None = None
    layered: tuple[str, ...] = ()
    state: StateWitness | None = None


@dataclass(frozen=True)
class _RulesErrata:
    """Builds the rules errata of one game, its witness tests named within ``tests``."""

    game: Game
    tests: str

    def __call__(
        self,
        id: str,
        schema: str,
        summary: str,
        *tests: str,
        theorem: str | None = None,
        layered: tuple[str, ...] = (),
        state: StateWitness | None = None,
    ) -> Erratum:
        witness = tuple(f"{self.tests}::{t}" for t in tests)
        return Erratum(id, self.game, "rules", schema, summary, witness, theorem, layered, state)


@dataclass(frozen=True)
class _ProtocolErrata:
    """Builds the protocol (§2) errata of one game, its witness tests named within the folder ``tests``."""

    game: Game
    tests: str = "tests/server"

    def __call__(self, id: str, point: str, *tests: str) -> Erratum:
        return Erratum(id, self.game, "protocol", "§2", point, tuple(f"{self.tests}/{t}" for t in tests))


_a: Final = _RulesErrata("awari", "tests/spec/test_errata_awari.py")
_g: Final = _RulesErrata("gothello", "tests/spec/test_errata_gothello.py")
_pa: Final = _ProtocolErrata("awari")
_pg: Final = _ProtocolErrata("gothello")


_AWARI_START: Final = "a4 b4 c4 d4 e4 f4 A4 B4 C4 D4 E4 F4, 0/0, south"
_GOTHELLO_START: Final = "empty, black"
_FULL_BLACK: Final = "b " + " ".join(f + r for f in "abcde" for r in "12345") + ", black"
_SEAT_WITNESS: Final = "test_a_connection_that_does_not_sit_and_a_player_without_opponent_are_closed"


ERRATA: Final[tuple[Erratum, ...]] = (
    # ── Awari, rules ──
    _a(
        "A1",
        "reachable, Capture",
        "reachable is reflexive (r* ⊇ id PIT), so Capture takes the last pit sown whatever it holds",
        "test_A1_reachable_is_reflexive_so_the_last_pit_is_always_captured",
        "test_A1_captures_even_on_the_movers_own_side",
        theorem="(b) gap, with A8 or A15",
        state=StateWitness(
            _AWARI_START, "F", "literal NormalMove captures d's 5 stones; corrected, nothing is captured"
        ),
    ),
    _a(
        "A2",
        "Sow, Capture, NormalMove, GrandSlam",
        "no schema passes the turn",
        "test_A2_no_schema_passes_the_turn",
        theorem="(iii) the turn is kept",
        state=StateWitness(_AWARI_START, "F", "literal NormalMove leaves south to move; corrected, north moves"),
    ),
    _a(
        "A3",
        "GrandSlam",
        "the guard opp_stones board' = 0 is vacuous: ForfeitStones leaves board' to AwariBoard'",
        "test_A3_grand_slam_guard_is_vacuous",
        theorem="(a) overlap",
        state=StateWitness(_AWARI_START, "F", "the literal GrandSlam holds on the opening move"),
    ),
    _a(
        "A4",
        "NormalMove, GrandSlam",
        "a grand slam is also a NormalMove",
        "test_A4_a_real_grand_slam_is_also_a_normal_move",
        theorem="(a) overlap",
        state=StateWitness(
            "a1 b1 A4 F2, 20/20, south",
            "F",
            "literally NormalMove and GrandSlam both hold; corrected, GrandSlam alone (24-24, drawn)",
        ),
    ),
    _a(
        "A5",
        "IllegalMove",
        "IllegalMove constrains no after-state component but positions'",
        "test_A5_illegal_move_leaves_the_after_state_free",
        theorem="(c) nondeterminism; (ii)",
        state=StateWitness(_AWARI_START, "a", "the literal IllegalMove leaves board', score' and to_move' free"),
    ),
    _a(
        "A6",
        "WinMargin",
        "WinMargin leaves board' and to_move' free",
        "test_A6_win_margin_leaves_board_and_turn_free",
        theorem="(c) nondeterminism",
        state=StateWitness("a10 A10, 3/25, north", "a", "the literal WinMargin fixes only score'"),
    ),
    _a(
        "A7",
        "NoMove",
        "NoMove leaves to_move' free",
        "test_A7_no_move_leaves_the_turn_free",
        theorem="(c) nondeterminism",
        state=StateWitness("a5, 20/23, south", "A", "the literal NoMove leaves to_move' free"),
    ),
    _a(
        "A8",
        "AwariRef",
        "no disjunct holds when the starving opponent cannot be fed",
        "test_A8_no_disjunct_when_the_opponent_cannot_be_fed",
        theorem="(b) gap",
        state=StateWitness("A1, 23/24, south", "A", "no literal disjunct holds; corrected, CannotFeed ends the game"),
    ),
    _a(
        "A9",
        "AwariMove, IllegalMove",
        "an illegal attempt is recorded, so the retry is a repetition",
        "test_A9_an_illegal_attempt_makes_the_retry_a_repetition",
        theorem="(ii) an illegal attempt changes the state",
        layered=("A5",),
        state=StateWitness(
            _AWARI_START,
            "a",
            "the literal IllegalMove records the position, so a retry meets NoMove (load A12: that state)",
        ),
    ),
    _a(
        "A10",
        "AwariMove, IllegalMove",
        "AwariMove declares no move; IllegalMove uses one",
        "test_A10_awari_move_declares_no_move",
    ),
    Erratum(
        "A11",
        "awari",
        "rules",
        "WinMargin, NoMove; §2 status messages",
        "the end of the game is detected one turn late, and no status message reports an end without a move",
        (
            "tests/spec/test_errata_awari.py::test_A11_a_game_ending_move_is_reported_as_continuing",
            "tests/server/test_games.py::test_game_ending_move",
        ),
        state=StateWitness(
            "a1 c5 A3 F1, 15/23, south",
            "F",
            "literal NormalMove says not_done at 25 stones; corrected, NormalMove ⨟ WinMargin",
        ),
    ),
    _a(
        "A12",
        "NoMove, NormalMove, GrandSlam, IllegalMove",
        "a repeated position is also a move",
        "test_A12_a_repeated_position_is_also_a_normal_move",
        theorem="(a) overlap",
        state=StateWitness(
            _AWARI_START, "F", "on a repeated position NormalMove, NoMove and GrandSlam all hold literally", seen=True
        ),
    ),
    _a(
        "A13",
        "[X] Σ",
        "Σ's axiom has no model: Σ is total on X ↔ ℕ, which holds infinite relations (also for X = PIT)",
        "test_A13_sigma_has_no_value_on_an_infinite_relation",
    ),
    _a("A14", "trace", "trace p is infinite, not a seq", "test_A14_trace_is_infinite_so_not_a_seq"),
    _a(
        "A15",
        "IllegalMove",
        "the feeding clause quantifies over every state's NormalMoves",
        "test_A15_the_feeding_clause_quantifies_over_all_states",
        theorem="(b) gap; (d) dead clause",
        state=StateWitness(
            "B1 F1, 23/23, south", "B", "no literal disjunct holds for B; corrected, B is illegal (F feeds)"
        ),
    ),
    _a("A18", "NormalMove", "∀ b : BOARD binds nothing", "test_A18_normal_moves_forall_binds_nothing"),
    _a(
        "A21",
        "AwariMove, prose",
        "the prose records the resulting position, the schema the position before the move",
        "test_A21_the_schema_records_the_position_before_the_move",
    ),
    _a(
        "A22",
        "prose, GrandSlam",
        '"a player must leave the opponent a legal move" conflicts with grand-slam variant (e)',
        "test_A22_a_grand_slam_leaves_the_opponent_no_move",
    ),
    # ── Gothello, rules ──
    _g(
        "G1",
        "_ adjoins _, neighbor, adjoining_squares, group_liberties",
        "adjoins is one-way",
        "test_G1_adjoins_is_one_way",
        theorem="(f) placement refused with a liberty",
        state=StateWitness(_GOTHELLO_START, "e5", "literally e5 has no liberty on the empty board"),
    ),
    _g(
        "G2",
        "group",
        "group uses ⁺, so a lone stone has no group",
        "test_G2_a_lone_stone_has_an_empty_group",
        theorem="(f) placement refused with a liberty",
        state=StateWitness(_GOTHELLO_START, "c3", "literally no first move is legal"),
    ),
    _g(
        "G3",
        "GothelloMove (captures)",
        "captures look at same-coloured neighbours",
        "test_G3_captures_look_at_same_coloured_neighbours",
        theorem="(iv) an opposing group without liberties stays",
        state=StateWitness(
            "b a2 w a1, black", "b1", "the corrected GothelloMove captures a1; the literal captures nothing"
        ),
    ),
    _g(
        "G4",
        "GothelloMove (capture_at)",
        "capture_at applies liberties at blank squares, where group is loose",
        "test_G4_capture_at_applies_liberties_at_blank_squares",
    ),
    _g(
        "G5",
        "GothelloMove (capture_at, captures)",
        "capture_at and captures are typed as total functions, which no value is: GothelloMove is unsatisfiable",
        "test_G5_capture_at_is_not_a_total_function",
        "test_G5_so_the_literal_move_never_holds",
    ),
    _g(
        "G6",
        "GothelloPass",
        "GothelloPass contradicts its own frame",
        "test_G6_pass_contradicts_its_own_frame",
        theorem="(b) gap; (d) dead disjunct",
        state=StateWitness("b c3, white, history c3", "pass", "no literal disjunct holds for white's pass"),
    ),
    _g(
        "G7",
        "GothelloPass, GothelloGameOver",
        "history 1 of the empty history",
        "test_G7_history_1_of_the_empty_history",
        theorem="(e) undefined term; (b) gap",
        state=StateWitness(
            _GOTHELLO_START, "pass", "the literal GothelloGameOver holds only if the undefined history 1 is pass"
        ),
    ),
    _g(
        "G8",
        "GothelloAction",
        "illegal attempts are recorded and break a pair of passes",
        "test_G8_illegal_attempts_break_a_pair_of_passes",
        theorem="(i) an illegal attempt changes the history",
        state=StateWitness(
            "b c3, black, history pass c3",
            "c3",
            "the literal Nonblank records c3: follow it, then pass does not end the game",
        ),
    ),
    _g(
        "G9",
        "GothelloTurn",
        "nothing ends the game",
        "test_G9_nothing_ends_the_game",
        state=StateWitness(
            "b c3, black, history pass pass c3",
            "pass",
            "literally a third pass ends the game again; corrected, GothelloEnded refuses it",
        ),
    ),
    _g(
        "G10",
        "GothelloIllegalMoveBlocked",
        "Blocked overlaps Nonblank",
        "test_G10_blocked_overlaps_nonblank",
        theorem="(a) overlap",
        state=StateWitness(_FULL_BLACK, "a1", "literally both illegal-move disjuncts hold on a full board"),
    ),
    _g(
        "G22",
        "SQUARE",
        "which coordinate of SQUARE is the file",
        "test_G22_the_schemas_do_not_say_which_coordinate_is_the_file",
    ),
    _g(
        "G26",
        "GothelloTurn, AwariRef",
        "the two papers end their games differently; one semantics for both",
        "test_G26_after_the_end_both_games_answer_the_final_result",
        layered=("G9",),
    ),
    _g(
        "G27",
        "group, GothelloMove (capture_at)",
        "with G1 and G3 repaired, the written group still leaves a captured lone stone on the board",
        "test_G27_a_captured_lone_stone_is_not_recoloured",
        layered=("G1", "G3"),
    ),
    _g(
        "G28",
        "group, GothelloMove (capture_at)",
        "group is loose at blank squares, so GothelloMove's capture_at, hence the schema, is not deterministic",
        "test_G28_capture_at_is_loose_at_blank_squares",
        layered=("G5",),
    ),
    # ── protocol ──
    _pa("A16", "move numbers", "test_play.py::test_awari_serials_are_full_move_numbers"),
    _pa("A17", "observer ∈ ℙ (seq ENTITY)", "test_games.py::test_complete_random_game"),
    _pa(
        "A19",
        "the draw protocol",
        "test_play.py::test_draw_offer_refused_then_accepted",
        "test_play.py::test_draw_refused_by_south_333_and_misuse_291",
    ),
    _pa("A20", "observers' board display", "test_games.py::test_complete_random_game"),
    _pg("G12", "move numbers", "test_play.py::test_passes_315_316_with_serials_and_bare_pass"),
    _pg("G13", "version grammar and order", "test_vocabulary.py::test_versions_compare_numerically"),
    _pg("G14", "greeting", "test_seating.py::test_greeting_000"),
    _pg("G15", "pass", "test_play.py::test_passes_315_316_with_serials_and_bare_pass"),
    _pg("G16", "an unreadable move in play", "test_play.py::test_refused_moves_291_299_and_retry"),
    _pg("G17", "380 when the game is over", "test_games.py::test_complete_random_game"),
    _pg("G18", "what the mover receives", "test_play.py::test_moves_200_then_311_312_to_everyone"),
    _pg(
        "G19",
        "names and player ?",
        "test_seating.py::test_names_up_to_31_characters_with_escaped_quotes",
        "test_seating.py::test_either_side_gets_the_free_side",
    ),
    _pg("G20", "a player disconnects", "test_play.py::test_player_disconnect_391_392_loses"),
    _pg(
        "G21",
        "time controls",
        "test_time.py::test_clocks_run_only_while_waiting_for_their_player",
        "test_time.py::test_flag_fall_362_first_player_silent",
    ),
    _pg("G23", "observer ∈ seq ENTITY", "test_games.py::test_complete_random_game"),
    _pg(
        "G24",
        "configuration messages 341–344",
        "test_seating.py::test_config_messages_to_observers_only",
        "test_compat.py::test_legacy_libraries_play_whole_games",
    ),
    _pg("G25", "the 382 board lines", "test_play.py::test_moves_200_then_311_312_to_everyone"),
    _pa(
        "A23",
        "connection states",
        "test_protocol_model.py::test_model_table_is_the_sessions",
        "test_protocol_model.py::test_random_sessions_validate_and_reach_every_row",
    ),
    _pa("A24", "resignation", "test_play.py::test_resign_204_327_328_at_any_time"),
    _pa("A25", "a player disconnects", "test_play.py::test_player_disconnect_391_392_loses"),
    _pg(
        "G29",
        "connection states",
        "test_protocol_model.py::test_model_table_is_the_sessions",
        "test_protocol_model.py::test_random_sessions_validate_and_reach_every_row",
    ),
    _pg("G30", "resignation", "test_play.py::test_resign_204_327_328_at_any_time"),
    # ── the server's departures from the message tables (docs/protocol.md; issue #49) ──
    _pa("A26", "399 from the Awari server", "test_departures.py::test_399_aborts_a_game_when_the_server_stops"),
    _pa("A27", "202 on a flag fall", "test_departures.py::test_202_comes_unasked_when_a_flag_falls"),
    _pg("G31", "202 on a flag fall", "test_departures.py::test_202_comes_unasked_when_a_flag_falls"),
    _pa("A28", "the observer cap (193)", "test_departures.py::test_the_65th_observer_gets_193_at_the_default_cap"),
    _pg("G32", "the observer cap (193)", "test_departures.py::test_the_65th_observer_gets_193_at_the_default_cap"),
    _pa("A29", "the seat and wait timeouts", f"test_departures.py::{_SEAT_WITNESS}"),
    _pg("G33", "the seat and wait timeouts", f"test_departures.py::{_SEAT_WITNESS}"),
    _pa("A30", "the idle timeout", "test_departures.py::test_a_silent_player_loses_on_the_idle_timeout"),
    _pg("G34", "the idle timeout", "test_departures.py::test_a_silent_player_loses_on_the_idle_timeout"),
)
"""Every erratum, in the order of proofs/ERRATA.md."""

BY_ID: Final[dict[str, Erratum]] = {e.id: e for e in ERRATA}


def erratum(id: str) -> Erratum:
    """The erratum with this id (KeyError if there is none)."""
    return BY_ID[id]


def with_theorem(game: Game) -> frozenset[str]:
    """The ids of ``game``'s errata that a well-foundedness theorem finds in the literal schemas."""
    return frozenset(e.id for e in ERRATA if e.game == game and e.theorem is not None)
