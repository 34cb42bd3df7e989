"""The checked engine (``--engine checked``): the fast engine referees, the executable
spec checks it move by move, and the spec's verdict is the one the game follows.

No third implementation of the rules: a checked engine is built from the two that
exist (``impl.engines.registry.get_engine(game, "impl")`` and ``…"spec"``) through the engine
interface (impl/engines/port.py).  Each action goes to both.  Compared, after every
``apply``: the results, the next states through the refinement mapping (the fast
engine's ``to_spec``), and whether the game is over in the next state; on every
``legal_moves``, ``is_over`` and ``describe`` call, the two answers; at ``initial``, the two
initial states.  The legal moves of each position are not recomputed after every
move (that costs the spec one referee step per action, 6 for Awari and 26 for
Gothello; see docs/engines.md's measurement log): in a game every action a player tries is
checked anyway, the illegal ones included, and perft through the checked engine
tries every action in every position.

A disagreement is a ``Divergence``: the spec's state before (in the notation of
impl/engines/statetext.py), the action in the papers' notation, and both answers.  Each is
counted (``CheckedEngine.count``), handed to ``report`` (by default logged at error
level on the ``referee`` logger, event ``divergence``) and, when found by ``apply``,
attached to the state it returns, so that whoever drives the game (the server's
session: the game record, ``--on-divergence abort``) sees which step found it
without any shared mutable channel.  The game then goes on from the spec's next
state: the fast engine is re-synchronised with ``from_spec``.

If the spec itself fails (a SpecError, a violated contract) that is not a
divergence but a failure of the referee: the exception propagates, and the server
aborts the game with 399 as for any engine failure.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol, cast

from .port import AnyEngine, Cells, Engine, GameState, MoveDescription, Refinement
from .statetext import format_state

LOGGER = logging.getLogger("referee")


@dataclass(frozen=True)
class Divergence:
    """One disagreement between the fast engine and the spec."""

    game: str
    check: str
    """What disagreed: ``initial``, ``result``, ``state``, ``is_over``, ``legal_moves``,
    ``describe`` or ``raised`` (the fast engine raised where the spec answered)."""
    state: str
    """The spec's state the question was asked in (impl/engines/statetext.py)."""
    action: str | None
    """The action, in the papers' notation (None for a question about a state)."""
    spec: str
    impl: str

    def fields(self) -> dict[str, str | None]:
        return {
            "game": self.game,
            "check": self.check,
            "state": self.state,
            "action": self.action,
            "spec": self.spec,
            "impl": self.impl,
        }

    def __str__(self) -> str:
        where = f"{self.action} in {self.state}" if self.action is not None else self.state
        return f"{self.check} of {where}: spec {self.spec}; impl {self.impl}"


def log_divergence(d: Divergence) -> None:
    """The default report: an error-level ``divergence`` event on the ``referee`` logger
    (JSON lines under impl/log.setup_logging)."""
    LOGGER.error("divergence", extra={"fields": d.fields()})


class RefinedEngine(Engine[Any, Any, Any], Refinement[Any, Any], Protocol):
    """A fast engine with its abstraction function (impl/engines/port.py): what the
    checked engine steps beside the spec, mapping states across at each step."""


@dataclass(frozen=True)
class CheckedState:
    """The spec's state (the authority), the fast engine's state in step with it, and
    the divergences found by the step that made this state."""

    spec: GameState
    fast: GameState
    divergences: tuple[Divergence, ...] = ()


def divergences(state: GameState) -> tuple[Divergence, ...]:
    """The divergences attached to a state (none for other engines' states)."""
    return state.divergences if isinstance(state, CheckedState) else ()


class CheckedEngine:
    """An Engine (impl/engines/port.py) over CheckedState, from a fast engine and the spec's."""

    kind = "checked"

    def divergences(self, state: GameState) -> tuple[Divergence, ...]:
        """The port's ``Checking``: what the step that made ``state`` found."""
        return divergences(state)

    def __init__(
        self, fast: AnyEngine, spec: AnyEngine, report: Callable[[Divergence], None] | None = log_divergence
    ) -> None:
        if fast.game != spec.game:
            raise ValueError(f"a checked engine needs one game, not {fast.game} and {spec.game}")
        self.fast: RefinedEngine = cast(RefinedEngine, fast)  # every fast engine is one (test_engine_interface)
        self.spec, self.report = spec, report
        self.game: str = spec.game
        self.players: tuple[Any, Any] = spec.players
        self.count = 0
        """Divergences found by this engine, in every game it served."""

    # ─── checking ──────────────────────────────────────────────────────────────

    def _found(
        self, found: list[Divergence], check: str, spec_state: GameState, action: Any, spec: Any, impl: Any
    ) -> None:
        text = None if action is None else self.spec.format_move(action)
        d = Divergence(self.game, check, format_state(spec_state), text, _text(spec), _text(impl))
        self.count += 1
        if self.report is not None:
            self.report(d)
        found.append(d)

    def initial(self) -> CheckedState:
        spec_state, fast_state = self.spec.initial(), self.fast.initial()
        found: list[Divergence] = []
        mapped = self.fast.to_spec(fast_state)
        if mapped != spec_state:
            self._found(found, "initial", spec_state, None, spec_state, format_state(mapped))
            fast_state = self.fast.from_spec(spec_state)
        return CheckedState(spec_state, fast_state, tuple(found))

    def apply(self, state: CheckedState, action: Any) -> tuple[Any, CheckedState]:
        """The spec's step, the fast engine's beside it, compared."""
        result, spec_after = self.spec.apply(state.spec, action)  # the authority: if it fails, the referee fails
        found: list[Divergence] = []
        try:
            fast_result, fast_after = self.fast.apply(state.fast, action)
            mapped = self.fast.to_spec(fast_after)
        except Exception as exc:  # a broken fast engine is a divergence, not a failed game
            self._found(found, "raised", state.spec, action, result, repr(exc))
            return result, CheckedState(spec_after, self.fast.from_spec(spec_after), tuple(found))
        if fast_result != result:
            self._found(found, "result", state.spec, action, result, fast_result)
        if mapped != spec_after:
            self._found(found, "state", state.spec, action, format_state(spec_after), format_state(mapped))
            fast_after = self.fast.from_spec(spec_after)
        else:
            spec_over, fast_over = self.spec.is_over(spec_after), self.fast.is_over(fast_after)
            if spec_over != fast_over:
                self._found(found, "is_over", spec_after, None, spec_over, fast_over)
        return result, CheckedState(spec_after, fast_after, tuple(found))

    def legal_moves(self, state: CheckedState) -> tuple[Any, ...]:
        spec_moves: tuple[Any, ...] = self.spec.legal_moves(state.spec)
        fast_moves = self._ask(state, "legal_moves", spec_moves, lambda: self.fast.legal_moves(state.fast))
        if fast_moves is not None and fast_moves != spec_moves:
            self._found(
                [], "legal_moves", state.spec, None, _moves(self.spec, spec_moves), _moves(self.spec, fast_moves)
            )
        return spec_moves

    def is_over(self, state: CheckedState) -> bool:
        spec_over: bool = self.spec.is_over(state.spec)
        fast_over = self._ask(state, "is_over", spec_over, lambda: self.fast.is_over(state.fast))
        if fast_over is not None and fast_over != spec_over:
            self._found([], "is_over", state.spec, None, spec_over, fast_over)
        return spec_over

    def describe(self, state: CheckedState, action: Any) -> MoveDescription:
        """The spec's description, the fast engine's compared with it (check
        ``describe``)."""
        spec: MoveDescription = self.spec.describe(state.spec, action)
        fast = self._ask(state, "describe", spec, lambda: self.fast.describe(state.fast, action))
        if fast is not None and fast != spec:
            self._found([], "describe", state.spec, action, spec, fast)
        return spec

    def _ask(self, state: CheckedState, check: str, spec_answer: Any, question: Callable[[], Any]) -> Any:
        """The fast engine's answer, or None (reported) if it raised."""
        try:
            return question()
        except Exception as exc:
            self._found([], check, state.spec, None, spec_answer, repr(exc))
            return None

    # ─── the rest: the spec's answers ──────────────────────────────────────────

    def to_move(self, state: CheckedState) -> Any:
        return self.spec.to_move(state.spec)

    def why_illegal(self, state: CheckedState, action: Any) -> str | None:
        reason: str | None = self.spec.why_illegal(state.spec, action)
        return reason

    def counts(self, state: CheckedState) -> tuple[int, int]:
        counts: tuple[int, int] = self.spec.counts(state.spec)
        return counts

    def parse_move(self, text: str) -> Any:
        return self.spec.parse_move(text)

    def format_move(self, action: Any) -> str:
        text: str = self.spec.format_move(action)
        return text

    def render(self, state: CheckedState) -> list[str]:
        lines: list[str] = self.spec.render(state.spec)
        return lines

    def cells(self, state: CheckedState) -> Cells:
        cells: Cells = self.spec.cells(state.spec)
        return cells

    def to_spec(self, state: CheckedState) -> Any:
        return state.spec

    def from_spec(self, game: Any) -> CheckedState:
        return CheckedState(game, self.fast.from_spec(game))


def _text(value: Any) -> str:
    return value if isinstance(value, str) else str(value)


def _moves(engine: AnyEngine, moves: tuple[Any, ...]) -> str:
    return " ".join(engine.format_move(m) for m in moves) or "none"
