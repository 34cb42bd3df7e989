"""Bounded-exhaustive equivalence of the spec and the fast engines, through the engine
interface (impl.engines.registry.get_engine): on every state in the scope and every action,
the two engines give the same result and the same next state (``to_spec``), the same
legal moves and the same verdict on whether the game is over.

Scopes:
  awari     every board with at most K stones on it, every score split of the other
            48 − K stones, both sides to move, positions ∅ and {θ}, and for each
            sowing {P'}, P' the position it leads to (so that it repeats one); then
            targeted boards with one pit of 11, 12, 17 or 22 stones (laps: ``lap_boards``);
  gothello  every state reachable from the initial one within P accepted actions
            (illegal attempts change nothing), every action from each.

Run: ``python -m proofs.equivalence awari --stones K [--rules RULES]`` or ``gothello --plies P``
(exit 1 on the first few differences, each printed with its input).
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
from collections.abc import Iterator
from functools import partial
from typing import Any, cast

from impl.cli import rules_text
from impl.engines.port import GameEngine, GameState, Refinement
from impl.engines.registry import get_engine
from proofs.awari.exhaustive import LAPS, boards, lap_boards, successor
from spec import awari as A
from spec import gothello as G
from spec.contracts import ENABLED as CONTRACTS

Difference = str


def compare(spec: GameEngine, impl: GameEngine, state: GameState, actions: tuple[Any, ...]) -> list[Difference]:
    """Every action from one spec state on both engines."""
    refines = cast(Refinement[Any, Any], impl)  # every fast engine does (tests/engines/test_engine_interface.py)
    diffs = []
    here = refines.from_spec(state)
    if refines.to_spec(here) != state:
        return [f"to_spec(from_spec(s)) ≠ s for {state!r}"]
    accepted = []
    for action in actions:
        r1, s1 = spec.apply(state, action)
        r2, s2 = impl.apply(here, action)
        if r1 != r2 or refines.to_spec(s2) != s1:
            diffs.append(f"{action!r} in {state!r}: spec {r1} → {s1!r}, impl {r2} → {refines.to_spec(s2)!r}")
        if r1 != A.illegal_move:
            accepted.append(action)
    over = spec.is_over(state)
    if impl.is_over(here) != over:
        diffs.append(f"is_over differs in {state!r}")
    legal = () if over else tuple(accepted)
    if impl.legal_moves(here) != legal:
        diffs.append(f"legal_moves in {state!r}: spec {legal!r}, impl {impl.legal_moves(here)!r}")
    return diffs


# ─── Awari ────────────────────────────────────────────────────────────────────


def awari_board(board: A.BOARD, rules: str = "paper") -> tuple[int, list[Difference]]:
    """Every split, side and positions set of one board: (cases, differences)."""
    spec, impl = get_engine("awari", "spec", rules), get_engine("awari", "impl", rules)
    actions = tuple(A.PIT)
    k = sum(board)
    cases, diffs = 0, []
    for north in range(48 - k + 1):
        for to_move in A.PLAYER:
            g = A.AwariGame(board, (north, 48 - k - north), to_move, frozenset())
            sets = [frozenset(), frozenset({A.θAwariBoard(g)})]
            sets += [frozenset({p}) for m in A.side(to_move) if (p := successor(g, m)) is not None]
            for positions in sets:
                h = A.AwariGame(board, g.score, to_move, positions)
                diffs += compare(spec, impl, h, actions)
                cases += len(actions)
    return cases, diffs


def awari_work(stones: int) -> Iterator[A.BOARD]:
    for k in range(stones + 1):
        yield from boards(k)


def awari_lap_board(board: A.BOARD, rules: str = "paper") -> tuple[int, list[Difference]]:
    """One lap board: two score splits (even, and north one short of 25), both sides,
    positions ∅, {θ} and each {P'}."""
    spec, impl = get_engine("awari", "spec", rules), get_engine("awari", "impl", rules)
    actions = tuple(A.PIT)
    left = 48 - sum(board)
    cases, diffs = 0, []
    for north in sorted({left // 2, min(24, left)}):
        for to_move in A.PLAYER:
            g = A.AwariGame(board, (north, left - north), to_move, frozenset())
            sets = [frozenset(), frozenset({A.θAwariBoard(g)})]
            sets += [frozenset({p}) for m in A.side(to_move) if (p := successor(g, m)) is not None]
            for positions in sets:
                diffs += compare(spec, impl, A.AwariGame(board, g.score, to_move, positions), actions)
                cases += len(actions)
    return cases, diffs


# ─── Gothello ─────────────────────────────────────────────────────────────────

GOTHELLO_ACTIONS: tuple[G.MOVE, ...] = (*(G.move(s) for s in sorted(G.SQUARES)), G.pass_)


def gothello_states(plies: int) -> list[G.GothelloGame]:
    """Every state reachable within ``plies`` accepted actions, by the spec."""
    spec = get_engine("gothello", "spec")
    frontier = [spec.initial()]
    states = list(frontier)
    for _ in range(plies):
        nxt = []
        for s in frontier:
            for a in GOTHELLO_ACTIONS:
                r, t = spec.apply(s, a)
                if r != G.illegal_move and t != s:
                    nxt.append(t)
        states += nxt
        frontier = nxt
    return states


def gothello_state(state: G.GothelloGame) -> tuple[int, list[Difference]]:
    spec, impl = get_engine("gothello", "spec"), get_engine("gothello", "impl")
    return len(GOTHELLO_ACTIONS), compare(spec, impl, state, GOTHELLO_ACTIONS)


# ─── Running ──────────────────────────────────────────────────────────────────


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", choices=("awari", "gothello"))
    parser.add_argument("--stones", type=int, default=2, help="K: at most this many Awari stones on the board")
    parser.add_argument("--plies", type=int, default=2, help="P: Gothello states within this many accepted actions")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--rules", type=rules_text, default="paper", help="Awari: the rule set (docs/rules.md; default paper)"
    )
    args = parser.parse_args(argv)
    start = time.perf_counter()
    if args.game == "awari":
        scope = f"every board with ≤ {args.stones} stones, all score splits, both sides, positions ∅ / {{θ}} / {{P'}}"
        work: list[Any] = list(awari_work(args.stones))
        task: Any = partial(awari_board, rules=args.rules)
        scope += f", rules {args.rules}"
    else:
        work = gothello_states(args.plies)
        scope = f"{len(work)} states reachable within {args.plies} accepted actions"
        task = gothello_state
    print(f"spec ≡ impl, {args.game}: {scope}; spec contracts {'on' if CONTRACTS else 'off'}", flush=True)
    cases, diffs = 0, []
    with multiprocessing.Pool(args.workers) as pool:
        for n, d in pool.imap_unordered(task, work, chunksize=8):
            cases += n
            diffs += d
        if args.game == "awari":
            laps = list(lap_boards())
            lap_cases = 0
            for n, d in pool.imap_unordered(partial(awari_lap_board, rules=args.rules), laps, chunksize=8):
                lap_cases += n
                diffs += d
            print(f"  and {len(laps)} boards with a pit of {'/'.join(map(str, LAPS))} stones: {lap_cases} cases")
            cases += lap_cases
    for d in diffs[:10]:
        print("DIFFERENCE:", d)
    print(f"  {cases} (state, action) cases, {len(diffs)} differences, {time.perf_counter() - start:.1f} s")
    print("OK" if not diffs else "FAILED")
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main())
