"""Showing that every contract of a spec module can fire.

A contract that no input and no wrong body can violate checks nothing.  For each
contract of each function of a module this harness looks for a violation:

  * a precondition is violated by some input from a pool of inputs, ill-formed ones
    included;
  * a postcondition is violated by a *wrong body*: the function's own result on a
    sample input, perturbed (a stone moved, a component changed, an outcome dropped
    or invented — ``perturbations``), which the contract must then reject.

The tests (tests/spec/test_contracts_*.py) assert that every contract is violated by
something; the violation found is reported in the failure message otherwise.
"""

from __future__ import annotations

import dataclasses
import inspect
import random
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from enum import Enum
from types import ModuleType
from typing import Any, TypeVar

import icontract
from icontract._checkers import find_checker

from spec.z import Fun


@dataclass(frozen=True)
class Contract:
    """One contract of one function: ``kind`` is ``pre`` or ``post``."""

    function: str
    kind: str
    index: int
    description: str
    condition: Callable[..., Any]
    args: tuple[str, ...]

    def __str__(self) -> str:
        return f"{self.function} {self.kind}[{self.index}] {self.description!r}"

    def holds(self, kwargs: dict[str, Any]) -> bool | None:
        """The condition's value, or None if it cannot be evaluated on these values."""
        try:
            return bool(self.condition(**{a: kwargs[a] for a in self.args}))
        except (KeyError, TypeError, AttributeError, AssertionError, ValueError, IndexError, icontract.ViolationError):
            return None


def contracts_of(module: ModuleType) -> list[Contract]:
    """Every contract of every function defined in ``module`` (in definition order)."""
    found = []
    for name, f in vars(module).items():
        if not callable(f) or getattr(f, "__module__", None) != module.__name__:
            continue
        checker = find_checker(f)
        if checker is None:
            continue
        pres = [c for group in getattr(checker, "__preconditions__", []) for c in group]
        posts = getattr(checker, "__postconditions__", [])
        for kind, group in (("pre", pres), ("post", posts)):
            for i, c in enumerate(group):
                found.append(Contract(name, kind, i, c.description or "", c.condition, tuple(c.condition_args)))
    return found


def body(module: ModuleType, function: str) -> Callable[..., Any]:
    """The function's body without its contracts (icontract keeps it as __wrapped__)."""
    checker = find_checker(getattr(module, function))
    assert checker is not None
    wrapped: Callable[..., Any] = checker.__wrapped__
    return wrapped


def perturbations(value: object, pool: tuple[object, ...] = (), depth: int = 3) -> Iterator[object]:
    """Values near ``value`` that a wrong body might return: a number off by one, a
    stone moved between two places of a tuple, another constant of a free type, an
    element added to or removed from a set, one square of a board changed, one field
    of a record perturbed; and, for an optional outcome, None or one from ``pool``."""
    if value is None:
        yield from pool
        return
    if isinstance(value, bool):
        yield not value
        return
    if isinstance(value, Enum):
        yield from (v for v in type(value) if v is not value)
        return
    if isinstance(value, int):
        yield value + 1
        yield value - 1
        return
    if isinstance(value, Fun):
        values = {v for (_, v) in value}
        for x, v in sorted(value, key=repr)[:3]:
            for w in values - {v}:
                yield Fun(value - {(x, v)} | {(x, w)})
        if value:
            yield Fun(list(value)[1:])
        return
    if isinstance(value, frozenset):
        for x in list(value)[:4]:
            yield value - {x}
        for x in pool:
            if isinstance(x, frozenset):
                yield value | x
        return
    if isinstance(value, tuple):
        if value and all(isinstance(x, int) and not isinstance(x, bool | Enum) for x in value):
            n = len(value)
            for i in range(n):
                yield (*value[:i], value[i] + 1, *value[i + 1 :])
                for j in range(n):
                    if i != j and value[i] > 0:
                        moved = list(value)
                        moved[i] -= 1
                        moved[j] += 1
                        yield tuple(moved)
            return
        if depth == 0:
            return
        for i, x in enumerate(value):
            for y in perturbations(x, pool, depth - 1):
                yield (*value[:i], y, *value[i + 1 :])
        return
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        yield None
        if depth == 0:
            return
        for field in dataclasses.fields(value):
            for y in perturbations(getattr(value, field.name), pool, depth - 1):
                yield dataclasses.replace(value, **{field.name: y})


def call_kwargs(function: Callable[..., Any], args: tuple[object, ...]) -> dict[str, Any]:
    return dict(zip(inspect.signature(function).parameters, args, strict=True))


def violations(
    module: ModuleType,
    contract: Contract,
    inputs: Callable[[str], Iterable[tuple[object, ...]]],
    pool: tuple[object, ...] = (),
    limit: int = 4000,
) -> Iterator[str]:
    """Descriptions of violations of ``contract``: inputs that violate a precondition,
    or (input, wrong result) pairs that violate a postcondition."""
    f = getattr(module, contract.function)
    tried = 0
    for args in inputs(contract.function):
        kwargs = call_kwargs(f, args)
        if contract.kind == "pre":
            if contract.holds(kwargs) is False:
                yield f"input {args!r}"
            continue
        try:
            right = f(*args)
        except icontract.ViolationError:
            continue  # outside the function's precondition
        for wrong in perturbations(right, pool):
            tried += 1
            if tried > limit:
                return
            if wrong != right and contract.holds({**kwargs, "result": wrong}) is False:
                yield f"input {args!r}, wrong result {wrong!r}"
                return


S = TypeVar("S")
M = TypeVar("M")


def playout(
    start: S, moves: Callable[[S], Sequence[M]], referee: Callable[[S, M], tuple[Any, S]], seed: int, plies: int
) -> list[S]:
    """The states of a seeded random game from ``start`` (itself excluded), up to
    ``plies`` moves drawn from ``moves`` and played by ``referee``, or to the end."""
    rng = random.Random(seed)
    state, seen = start, []
    for _ in range(plies):
        choices = moves(state)
        if not choices:
            break
        state = referee(state, rng.choice(choices))[1]
        seen.append(state)
    return seen
