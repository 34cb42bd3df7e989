"""One game's view of its executable Z spec, as the spec animator reads it
(impl/apps/animate.py, ``referee spec``): the turn schema as written and corrected,
the referee's step and legal moves under a rule set, states and moves as text, an
after-state described with the components a literal schema leaves free, and the
rule that refuses a move."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial
from types import ModuleType
from typing import Any

from impl.engines import notation
from impl.engines.port import GameState
from impl.engines.statetext import format_awari, format_gothello, parse_awari, parse_gothello
from impl.game import PAPER_RULES
from spec import awari as A
from spec import awari_rules as AR
from spec import gothello as G


@dataclass(frozen=True)
class Rules:
    """What the animator needs of one game's spec."""

    game: str
    parse_state: Callable[[str], Any]
    format_state: Callable[[Any], str]
    parse_action: Callable[[str], Any]
    initial: Callable[[], Any]
    literal: tuple[str, Callable[[Any, Any], tuple[Any, ...]]]
    corrected: tuple[str, Callable[[Any, Any], tuple[Any, ...]]]
    legal_moves: Callable[[Any], tuple[Any, ...]]
    format_action: Callable[[Any], str]
    module: Any
    referee: Callable[[Any, Any], tuple[Any, Any]]
    """The referee's step (the corrected schema's single outcome)."""
    name: str = PAPER_RULES
    """The rule set (spec/awari_rules.py's canonical name)."""


def _paper(
    game: str,
    module: ModuleType,
    schema: str,
    initial: Callable[[], Any],
    state_text: tuple[Callable[[str], Any], Callable[[Any], str]],
    move_text: tuple[Callable[[str], Any], Callable[[Any], str]],
) -> Rules:
    """``game``'s view of its spec ``module`` under the papers' rules: the turn schema
    ``schema`` as written and ``schema_corrected``, and the module's legal moves and
    referee; ``state_text`` and ``move_text`` parse and format a state and a move."""
    corrected = f"{schema}_corrected"
    parse_state, format_state = state_text
    parse_action, format_action = move_text
    return Rules(
        game,
        parse_state,
        format_state,
        parse_action,
        initial,
        (schema, getattr(module, schema)),
        (corrected, getattr(module, corrected)),
        module.legal_moves,
        format_action,
        module,
        module.referee,
    )


RULES = {
    "awari": _paper(
        "awari", A, "AwariRef", A.InitAwari, (parse_awari, format_awari), (notation.parse_pit, notation.format_pit)
    ),
    "gothello": _paper(
        "gothello",
        G,
        "GothelloTurn",
        G.InitGothelloGame,
        (parse_gothello, format_gothello),
        (notation.parse_gothello, notation.format_gothello),
    ),
}


def rules_for(game: str, name: str = PAPER_RULES) -> Rules:
    """The animator's view of ``game`` under the rule set ``name`` (a canonical name,
    spec/awari_rules.py): the papers' own schemas for ``paper``; otherwise
    ``AwariRefUnder`` in the corrected schema's place, its referee and legal moves.
    The literal schema stays the papers' AwariRef as written: the rule set changes
    what the referee does, not what the paper says."""
    if name == PAPER_RULES:
        return RULES[game]
    rules = AR.parse_rules(name)
    return replace(
        RULES[game],
        corrected=(f"AwariRef[{rules.name}]", partial(AR.AwariRefUnder, rules)),
        legal_moves=partial(AR.legal_moves, rules),
        referee=partial(AR.referee, rules),
        name=rules.name,
    )


def describe_after(game: str, outcome: Any) -> tuple[str, Any]:
    """The after-state of an outcome as text, and the state itself when the schema
    determines it (else None)."""
    if game == "gothello":
        undefined = f" (holds only if {outcome.undefined} is pass)" if outcome.undefined else ""
        return format_gothello(outcome.after) + undefined, outcome.after
    after: A.After = outcome.after
    if after.completions() == 1:
        return format_awari(after.state()), after.state()
    board = (
        "board' free" if after.board is None else " ".join(f"{p.name}{after.board[p]}" for p in A.PIT if after.board[p])
    )
    score = "score' free" if after.score is None else f"{after.score[A.PLAYER.north]}/{after.score[A.PLAYER.south]}"
    to_move = "to_move' free" if after.to_move is None else after.to_move.name
    seen = f", {len(after.positions)} seen" if after.positions else ""
    completions = after.completions()
    many = f"{completions:,} after-states" if completions else "no after-state satisfies AwariBoard'"
    return f"{board or 'empty'}, {score}, {to_move}{seen}  [{many}]", None


def refusal(game: str, state: GameState, token: str, rules: str) -> str:
    """The rule that refuses ``token`` in the spec's ``state`` (a move the engine
    found illegal): Gothello's occupied square or GothelloMove's liberty guard;
    Awari's own row, a non-empty pit, feeding a starving opponent (Feed), or the
    rule set's grand-slam rule."""
    mover = state.to_move.name
    if game == "gothello":
        square = (ord(token[0]) - ord("a") + 1, int(token[1]))
        if notation.GOTHELLO_CELL[dict(state.board)[square]] != ".":
            return f"{token} is occupied"
        return f"a stone at {token} would leave its own group no liberty before captures (GothelloMove's guard)"
    pits = "abcdefABCDEF"  # the spec's PIT order: north's row, then south's
    own = pits[6:] if mover == "south" else pits[:6]
    other = "north" if mover == "south" else "south"
    if token not in own:
        return f"{token} is not {mover}'s pit ({mover} sows {own[0]}-{own[-1]})"
    if state.board[pits.index(token)] == 0:
        return f"pit {token} is empty"
    if not any(state.board[pits.index(p)] for p in pits if p not in own):
        return f"{other} has no stones: {mover} must sow a pit that reaches {other}'s row (Feed)"
    return f"the {rules} rules refuse it: a grand slam, while another move is possible"
