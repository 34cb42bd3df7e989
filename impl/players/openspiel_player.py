"""OpenSpiel's MCTS as an outside opponent: ``referee player openspiel-mcts awari``.

It plays through the referee like any client, under the ``abapa`` rule set only
(OpenSpiel's ``oware`` plays the Abapa rules; impl/engines/openspiel.py).  OpenSpiel cannot
start from a given board, so each move the game's accepted moves are replayed on a
fresh OpenSpiel state, and OpenSpiel's MCTS (UCT with random rollouts, its
``MCTSBot`` with the MCTS-Solver backups) searches from there.  Its search is
bounded by a number of simulations, not by time: the player keeps the rate it
measured on its previous moves and asks for as many simulations as fit in its
budget (the first move probes with 100), so it spends about the budget a move.
Needs the optional extra ``crosscheck``.
"""

from __future__ import annotations

import importlib
import random
import time
from typing import Any

from impl.client import Client, ClientError
from impl.engines import openspiel as OS
from impl.game import ABAPA_RULES
from spec import awari as A

from .base import log, move_budget

PROBE = 100
"""Simulations of the first search, which measures the rate."""


class OpenSpielMCTSPlayer:
    name = "openspiel-mcts"

    def __init__(self, budget: float = 1.0, seed: int | None = None, uct_c: float = 2.0) -> None:
        """ImportError without the crosscheck extra."""
        self.mcts: Any = importlib.import_module("open_spiel.python.algorithms.mcts")
        self.numpy: Any = importlib.import_module("numpy")
        self.game = OS.new_game()
        self.budget, self.uct_c = budget, uct_c
        self.seed = random.Random(seed).randrange(2**31) if seed is not None else random.randrange(2**31)
        self.rate: float | None = None
        """Simulations per second, as measured so far."""
        self.moves, self.seconds, self.simulations = 0, 0.0, 0

    def _state(self, client: Client) -> Any:
        """OpenSpiel's state after the game's accepted moves."""
        if client.rules != ABAPA_RULES:
            raise ClientError(f"openspiel-mcts plays the abapa rules only; this server plays {client.rules}")
        state = self.game.new_initial_state()
        for token in client.plies:
            state.apply_action(OS.action_of(A.PIT[token]))
        return state

    def choose(self, client: Client) -> str:
        state = self._state(client)
        budget = move_budget(client, self.budget)
        simulations = PROBE if self.rate is None else max(10, int(self.rate * budget))
        rng = self.numpy.random.RandomState(self.seed + self.moves)
        evaluator = self.mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
        bot = self.mcts.MCTSBot(
            self.game, self.uct_c, simulations, evaluator, solve=True, random_state=rng, verbose=False
        )
        start = time.perf_counter()
        action = bot.step(state)
        seconds = time.perf_counter() - start
        self.rate = simulations / max(seconds, 1e-6)
        self.moves, self.seconds, self.simulations = (
            self.moves + 1,
            self.seconds + seconds,
            self.simulations + simulations,
        )
        pit = OS.pit_of(OS.SOUTH_FIRST[state.current_player()], action)
        log.info(
            "move %d: %s, %d simulations in %.2f s (budget %.2f s)",
            client.serial,
            pit.name,
            simulations,
            seconds,
            budget,
        )
        return pit.name

    def accept_draw(self, client: Client) -> bool:
        return False

    def summary(self) -> str:
        """One log line for the whole game: moves, seconds and simulations."""
        return f"summary: moves={self.moves} seconds={self.seconds:.3f} simulations={self.simulations}"
