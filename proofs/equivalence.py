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
from collections.abc import Iterable, Iterator
from functools import partial
from typing import Any, cast

from impl.cli import rules_text
from impl.engines.awari import RulesAwari
from impl.engines.port import GameEngine, GameState, Refinement
from impl.engines.registry import get_engine
from impl.engines.spec_engine import SpecAwari
from proofs.awari.exhaustive import LAPS, boards, lap_boards, splits, successor
from spec import awari as A
from spec import gothello as G
from spec.awari_rules import ALL_COMBINATIONS, RULE_SETS, AwariRules, canonical_name, parse_rules
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

AWARI_ACTIONS: tuple[A.PIT, ...] = tuple(A.PIT)

assert set(RULE_SETS.values()) <= set(ALL_COMBINATIONS)  # so --all-rules runs the named sets too


def awari_engines(rules: str | AwariRules, ruled: bool) -> tuple[Any, Any]:
    """(spec, fast) engines for a rule set; ``ruled``: the fast one is ``RulesAwari`` itself,
    even for the paper's rules (``get_engine`` gives ImplAwari for those)."""
    if not ruled:
        return get_engine("awari", "spec", rules), get_engine("awari", "impl", rules)
    ruleset = parse_rules(rules) if isinstance(rules, str) else rules
    return SpecAwari(ruleset), RulesAwari(ruleset)


def awari_states(board: A.BOARD, norths: Iterable[int]) -> Iterator[A.AwariGame]:
    """One board at each of north's scores ``norths``, both sides, positions ∅, {θ} and
    each {P'} (P' after a sowing, so that it repeats a position)."""
    left = 48 - sum(board)
    for north in norths:
        for to_move in A.PLAYER:
            g = A.AwariGame(board, (north, left - north), to_move, frozenset())
            sets = [frozenset(), frozenset({A.θAwariBoard(g)})]
            sets += [frozenset({p}) for m in A.side(to_move) if (p := successor(g, m)) is not None]
            for positions in sets:
                yield A.AwariGame(board, g.score, to_move, positions)


def awari_board(
    board: A.BOARD, rules: str | AwariRules = "paper", ruled: bool = False, band: bool = False
) -> tuple[int, list[Difference]]:
    """Every split (``band``: the band of proofs/awari/exhaustive.py's ``splits``), side and
    positions set of one board: (cases, differences)."""
    spec, impl = awari_engines(rules, ruled)
    norths = [n for n, _ in splits(sum(board), every=not band)]
    cases, diffs = 0, []
    for h in awari_states(board, norths):
        diffs += compare(spec, impl, h, AWARI_ACTIONS)
        cases += len(AWARI_ACTIONS)
    return cases, diffs


def lap_rule_sets() -> tuple[AwariRules, ...]:
    """The rule sets ``--all-rules`` runs the lap boards under: the named sets, and the first
    combination of each grand-slam rule none of them has.  On a lap board the rule sets
    differ in the sowing (a lap into an empty row is a grand slam under (b)–(d), V2): the
    grand-slam dimension, which these cover whole; the endings are run under every
    combination on the small boards.  (All 30 on the lap boards at both splits: ≈ 330 CPU-s.)"""
    chosen = list(RULE_SETS.values())
    for rules in ALL_COMBINATIONS:
        if rules.grand_slam not in {r.grand_slam for r in chosen}:
            chosen.append(rules)
    return tuple(chosen)


def every_rule_set(board: A.BOARD, band: bool, lap: bool) -> tuple[int, list[Difference]]:
    """One board under every combination the server accepts (``ALL_COMBINATIONS``; a lap
    board: under ``lap_rule_sets``, north one short of 25 only), on ``RulesAwari`` itself."""
    cases, diffs = 0, []
    for rules in lap_rule_sets() if lap else ALL_COMBINATIONS:
        n, d = awari_lap_board(board, rules, True, even=False) if lap else awari_board(board, rules, True, band)
        cases += n
        diffs += [f"[{canonical_name(rules)}] {x}" for x in d]
    return cases, diffs


def awari_work(stones: int) -> Iterator[A.BOARD]:
    for k in range(stones + 1):
        yield from boards(k)


def awari_lap_board(
    board: A.BOARD, rules: str | AwariRules = "paper", ruled: bool = False, even: bool = True
) -> tuple[int, list[Difference]]:
    """One lap board: two score splits (``even`` and north one short of 25, or only the
    latter), both sides, positions ∅, {θ} and each {P'}."""
    spec, impl = awari_engines(rules, ruled)
    left = 48 - sum(board)
    cases, diffs = 0, []
    for h in awari_states(board, sorted({left // 2 if even else min(24, left), min(24, left)})):
        diffs += compare(spec, impl, h, AWARI_ACTIONS)
        cases += len(AWARI_ACTIONS)
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
    parser.add_argument(
        "--all-rules",
        action="store_true",
        help="Awari: every rule set the server accepts (spec/awari_rules.py ALL_COMBINATIONS, the named ones "
        "among them), each on RulesAwari itself; instead of --rules",
    )
    parser.add_argument(
        "--band", action="store_true", help="Awari: the band of score splits (proofs/awari/exhaustive.py), not all"
    )
    args = parser.parse_args(argv)
    start = time.perf_counter()
    if args.game == "awari":
        splits_ = "band" if args.band else "all"
        scope = (
            f"every board with ≤ {args.stones} stones, {splits_} score splits, both sides, positions ∅ / {{θ}} / {{P'}}"
        )
        work: list[Any] = list(awari_work(args.stones))
        if args.all_rules:
            task: Any = partial(every_rule_set, band=args.band, lap=False)
            lap_task: Any = partial(every_rule_set, band=args.band, lap=True)
            scope += f", each of the {len(ALL_COMBINATIONS)} rule sets on RulesAwari"
            scope += f" (the lap boards under {', '.join(r.name for r in lap_rule_sets())})"
        else:
            task = partial(awari_board, rules=args.rules, band=args.band)
            lap_task = partial(awari_lap_board, rules=args.rules)
            scope += f", rules {args.rules}"
    else:
        work = gothello_states(args.plies)
        scope = f"{len(work)} states reachable within {args.plies} accepted actions"
        task = gothello_state
    print(f"spec ≡ impl, {args.game}: {scope}; spec contracts {'on' if CONTRACTS else 'off'}", flush=True)
    cases, diffs = 0, []
    with multiprocessing.Pool(args.workers) as pool:
        for n, d in pool.imap_unordered(task, work, chunksize=1 if args.all_rules else 8):
            cases += n
            diffs += d
        if args.game == "awari":
            sizes = tuple(n for n in LAPS if n >= 12) if args.all_rules else LAPS  # --all-rules: sowings that lap
            laps = list(lap_boards(sizes))
            lap_cases = 0
            for n, d in pool.imap_unordered(lap_task, laps, chunksize=8):
                lap_cases += n
                diffs += d
            print(f"  and {len(laps)} boards with a pit of {'/'.join(map(str, sizes))} stones: {lap_cases} cases")
            cases += lap_cases
    for d in diffs[:10]:
        print("DIFFERENCE:", d)
    print(f"  {cases} (state, action) cases, {len(diffs)} differences, {time.perf_counter() - start:.1f} s")
    print("OK" if not diffs else "FAILED")
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main())
