"""OpenSpiel's ``oware`` beside our Awari: the bridge between its states and
actions and ours, for the cross-check (tests/engines/test_crosscheck_openspiel.py) and the
OpenSpiel bot players (impl/players/openspiel_player.py).

OpenSpiel (DeepMind's ``open_spiel``, the optional extra ``crosscheck``) plays the
Abapa rules, our ``abapa`` rule set.  Its player 0 is our south and moves first;
its houses 0–5 are south's A–F, 6–11 north's a–f, and an action is the index of a
house within the mover's row (0–5: A–F, or a–f).  Sowing runs the same way round:
A … F, a … f, A.  Its observation string is ``P | S0 S1 | h0 … h11``: the player to
move, the two scores, the twelve houses.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from typing import Any, Protocol

from spec import awari as A


class SpielState(Protocol):
    """What the bridge reads of an OpenSpiel oware state (``pyspiel.State``, untyped)."""

    def observation_string(self, player: int) -> str: ...

    def is_terminal(self) -> bool: ...

    def current_player(self) -> int: ...

    def legal_actions(self) -> Sequence[int]: ...

    def returns(self) -> Sequence[float]: ...


SOUTH_FIRST: tuple[A.PLAYER, A.PLAYER] = (A.PLAYER.south, A.PLAYER.north)
"""OpenSpiel's player 0, 1 as ours."""


def load() -> Any:
    """The ``pyspiel`` module (ImportError without the crosscheck extra)."""
    return importlib.import_module("pyspiel")


def new_game() -> Any:
    """OpenSpiel's oware with our board: six houses a side, four stones in each."""
    return load().load_game("oware", {"num_houses_per_player": 6, "num_seeds_per_house": 4})


def action_of(pit: A.PIT) -> int:
    """The OpenSpiel action of sowing ``pit`` (its index within its owner's row)."""
    return int(pit) % 6


def pit_of(player: A.PLAYER, action: int) -> A.PIT:
    """The pit a player's OpenSpiel action sows."""
    return A.PIT(6 * int(player) + action)


def position(state: SpielState) -> tuple[A.BOARD, A.SCORE, A.PLAYER | None]:
    """(board, score, to_move) of an OpenSpiel oware state, in the spec's terms:
    board indexed by PIT, score by PLAYER (north, south); to_move None once the
    game is over."""
    mover, scores, houses = state.observation_string(0).split("|")
    seeds = [int(n) for n in houses.split()]
    south, north = (int(n) for n in scores.split())
    board = tuple(seeds[6:12] + seeds[0:6])  # a–f are houses 6–11; A–F are 0–5
    to_move = None if state.is_terminal() else SOUTH_FIRST[int(mover)]
    return board, (north, south), to_move


def legal_pits(state: SpielState) -> tuple[A.PIT, ...]:
    """The pits OpenSpiel lets the player to move sow, in pit order."""
    if state.is_terminal():
        return ()
    player = SOUTH_FIRST[state.current_player()]
    return tuple(sorted(pit_of(player, a) for a in state.legal_actions()))


def outcome(state: SpielState) -> int | None:
    """A finished game's winner as OpenSpiel scores it: 1 south, -1 north, 0 draw."""
    if not state.is_terminal():
        return None
    south, north = state.returns()
    return 0 if south == north else (1 if south > north else -1)
