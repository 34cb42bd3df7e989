"""OpenSpiel's ``oware`` as an outside oracle for our ``abapa`` rule set.

OpenSpiel (DeepMind) implements Awari independently, in C++, under the Abapa rules:
a grand slam is sown but captures nothing, a starving opponent must be fed, a
repeated position or a player left without a move ends the game with each side
claiming its own row, more than 24 stones wins.  Our fast engine under ``abapa``
(checked against our spec by tests/spec/test_rules_variants.py) must agree with it
ply by ply: the position (every pit, both scores, the player to move), the legal
moves, whether the game is over, and the winner.

Scope.  Positions are those reached by play from the initial board: OpenSpiel's
Python API (open_spiel 2.0) cannot start from a given board (``new_initial_state``
from a string is not implemented for oware, and its ``OwareBoard`` constructor is
not exported).  To reach the rare cases, three policies drive the games: uniform
random moves; a *hoarder* that mostly sows its smallest pit, so that pits grow
past 12 stones and lap the board; and a *starver* that mostly leaves the opponent
the fewest stones, which starves rows and sets up grand slams.  Each run counts
what it covered (laps, moves into a starved row, grand slams whose capture the
rule cancelled, each way a game ends) and requires each to have occurred.
One difference is not a rule: when a side reaches 25, OpenSpiel also sweeps the
stones left on the board into each side's store (its ``CollectAndTerminate`` runs
whenever no action is legal, a finished game included), where our rule sets, like
the paper's WinMargin, leave them on the board; the winner cannot change (the
other side holds at most 23), so the final position is compared after that sweep
(``ClaimStones``).  OpenSpiel stops a game at 1,000 plies (its ``max_game_length``); a game reaching
that is compared up to there and counted.  Skipped without the ``crosscheck``
extra (``pip install -e '.[crosscheck]'``; ``make verify-deep`` installs it).
"""

from __future__ import annotations

import random
import threading
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from impl.client import Client, ClientError
from impl.config import Config
from impl.engines import awari as AW
from impl.engines import openspiel as OS
from impl.players import OpenSpielMCTSPlayer, RandomPlayer, play
from impl.server.local import LocalServer
from spec import awari as A
from spec import awari_rules as AR
from spec import result as R

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is the optional extra 'crosscheck'", exc_type=ImportError)

ENGINE = AW.RulesAwari(AR.ABAPA)
MAX_PLIES = 999
"""OpenSpiel refuses a 1,001st ply (SPIEL_CHECK on its max_game_length of 1,000)."""

Policy = Callable[[random.Random, AW.AwariState, tuple[A.PIT, ...]], A.PIT]


def uniform(rng: random.Random, state: AW.AwariState, legal: tuple[A.PIT, ...]) -> A.PIT:
    return rng.choice(legal)


def hoarder(rng: random.Random, state: AW.AwariState, legal: tuple[A.PIT, ...]) -> A.PIT:
    """Mostly the smallest pit: the big ones keep growing until they lap the board."""
    if rng.random() < 0.2:
        return rng.choice(legal)
    board = AW.unpack(state[:3]).board
    return min(legal, key=lambda p: (board[p], rng.random()))


def starver(rng: random.Random, state: AW.AwariState, legal: tuple[A.PIT, ...]) -> A.PIT:
    """Mostly the move leaving the opponent fewest stones: starved rows, grand slams."""
    if rng.random() < 0.2:
        return rng.choice(legal)
    me = AW.unpack(state[:3]).to_move

    def left(pit: A.PIT) -> tuple[int, float]:
        after = AW.unpack(ENGINE.apply(state, pit)[1][:3])
        return sum(after.board[p] for p in A.side(A.opponent(me))), rng.random()

    return min(legal, key=left)


POLICIES: dict[str, Policy] = {"uniform": uniform, "hoarder": hoarder, "starver": starver}


def _notes(state: AW.AwariState, pit: A.PIT, seen: Counter[str]) -> None:
    """Count the rare cases a move exercises."""
    mine, theirs, _, _ = state
    sh = (int(pit) % 6) << 3
    if mine >> sh & 255 >= 12:
        seen["lap"] += 1
    if not theirs:
        seen["into a starved row"] += 1
    if AW._sown_r(mine, theirs, sh, AW.GS_E)[1] == 0 and AW._sown_r(mine, theirs, sh, AW.GS_B)[1] != 0:
        seen["grand slam, capture cancelled"] += 1


def _ending(state: AW.AwariState, pit: A.PIT) -> str:
    """Which end condition the move ``pit`` from ``state`` met (it ended the game)."""
    mine, theirs, meta, positions = state
    me = meta >> 16
    mine_, theirs_, gained = AW._sown_r(mine, theirs, (int(pit) % 6) << 3, AW.GS_B)
    meta_ = (meta ^ 1 << 16) + (gained << (me << 3))
    if meta_ & 255 >= 25 or meta_ >> 8 & 255 >= 25:
        return "ends: 25 or more"
    if (theirs_, mine_, meta_) in positions | {(mine, theirs, meta)}:
        return "ends: repetition"
    return "ends: no move / starved out"


def play_one(game: Any, rng: random.Random, policy: Policy, seen: Counter[str]) -> None:
    """One game in lock-step, every ply compared."""
    theirs = game.new_initial_state()
    ours = ENGINE.initial()
    plies = 0
    while True:
        mine = AW.unpack(ours[:3])
        over = ENGINE.is_over(ours)
        board, score, to_move = OS.position(theirs)
        assert theirs.is_terminal() == over, f"ply {plies}: over? {theirs.observation_string(0)} vs {mine}"
        if over:  # OpenSpiel sweeps the stones left into the stores even after a win by 25 (see the scope)
            expected = (A.EMPTY_BOARD, A.ClaimStones(mine.score, mine.board))
            assert (board, score) == expected, f"ply {plies}: {theirs.observation_string(0)} vs {mine}"
            break
        assert (board, score) == (mine.board, mine.score), f"ply {plies}: {theirs.observation_string(0)} vs {mine}"
        assert to_move is mine.to_move
        legal = ENGINE.legal_moves(ours)
        assert OS.legal_pits(theirs) == legal, f"ply {plies}: legal moves in {mine}"
        if plies == MAX_PLIES:
            seen["stopped at OpenSpiel's 1,000 plies"] += 1
            return
        pit = policy(rng, ours, legal)
        _notes(ours, pit, seen)
        before = ours
        result, ours = ENGINE.apply(ours, pit)
        theirs.apply_action(OS.action_of(pit))
        plies += 1
        if result != R.not_done:
            seen[_ending(before, pit)] += 1
    winner = OS.outcome(theirs)
    final = ENGINE.apply(ours, A.PIT.a)[0]  # a finished game's result, whatever the action
    assert winner == (0 if final == R.draw else 1 if final == R.win(A.PLAYER.south) else -1)
    seen["games"] += 1
    seen["plies"] += plies


def crosscheck(games: int, seed: int) -> Counter[str]:
    game = OS.new_game()
    rng = random.Random(seed)
    seen: Counter[str] = Counter()
    names = sorted(POLICIES)
    for i in range(games):
        play_one(game, rng, POLICIES[names[i % len(names)]], seen)
    return seen


def test_openspiel_bridge() -> None:
    state = OS.new_game().new_initial_state()
    assert OS.position(state) == ((4,) * 12, (0, 0), A.PLAYER.south)
    assert OS.legal_pits(state) == tuple(sorted(A.side(A.PLAYER.south))) == ENGINE.legal_moves(ENGINE.initial())
    north = sorted(A.side(A.PLAYER.north))
    assert [OS.pit_of(A.PLAYER.north, OS.action_of(p)) for p in north] == north


def test_crosscheck_a_few_games() -> None:
    seen = crosscheck(60, 1)
    assert seen["games"] + seen["stopped at OpenSpiel's 1,000 plies"] == 60


@pytest.mark.deep
def test_crosscheck_abapa_against_openspiel() -> None:
    """5,000 games, 0 differences, and every rare case covered."""
    seen = crosscheck(5000, 2026)
    print(dict(seen))
    for case in ("lap", "into a starved row", "grand slam, capture cancelled", "ends: repetition"):
        assert seen[case] > 0, case
    assert seen["ends: 25 or more"] > 0 and seen["ends: no move / starved out"] > 0


# ─── OpenSpiel's MCTS as a player through the referee ─────────────────────────


def test_openspiel_mcts_plays_a_whole_game_through_the_referee() -> None:

    mcts = OpenSpielMCTSPlayer(budget=0.01, seed=1)
    with LocalServer(Config.local("awari", rules="abapa")) as local:
        first = Client.connect("awari", port=local.port, timeout=30.0)
        second = Client.connect("awari", port=local.port, timeout=30.0)
        first.seat("south", "mcts")
        second.seat("north", "random")
        thread = threading.Thread(target=play, args=(second, RandomPlayer(2)), daemon=True)
        thread.start()
        result = play(first, mcts)
        thread.join(30.0)
        first.close()
        second.close()
    assert result is not None and mcts.moves > 0 and mcts.simulations >= mcts.moves * 10


def test_openspiel_mcts_refuses_other_rules() -> None:

    with LocalServer(Config.local("awari")) as local:
        client = Client.connect("awari", port=local.port, timeout=30.0)
        with pytest.raises(ClientError, match="abapa rules only; this server plays paper"):
            OpenSpielMCTSPlayer(0.01, 1).choose(client)
        client.close()
