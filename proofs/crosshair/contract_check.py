"""Checking a spec function's own contracts from a wrapper that crosshair can analyse.

crosshair cannot build some spec arguments itself (a ``spec.z.Fun`` board, an
AwariGame's set of positions), and when it meets a call to a function that has
contracts it may skip the body and assume the postconditions.  So a wrapper in
proofs/crosshair/targets.py takes primitive arguments, builds the spec's, requires
the spec function's own preconditions, runs the function's *body* (icontract keeps
it as ``__wrapped__``) and returns whether the function's own postconditions hold —
the contracts as written in spec/, evaluated by icontract's records of them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from icontract._checkers import find_checker


def _checker(f: Callable[..., Any]) -> Any:
    checker = find_checker(f)
    if checker is None:
        raise ValueError(f"{f.__name__} has no contracts (or they are disabled: SPEC_CONTRACTS=0)")
    return checker


def _arguments(condition: Any, kwargs: dict[str, Any]) -> dict[str, Any]:
    return {name: kwargs[name] for name in condition.condition_args}


def preconditions_hold(f: Callable[..., Any], /, **kwargs: Any) -> bool:
    """f's preconditions hold for these arguments (icontract: any group, all of it)."""
    groups = getattr(_checker(f), "__preconditions__", [])
    return not groups or any(all(c.condition(**_arguments(c, kwargs)) for c in group) for group in groups)


def postconditions_hold(f: Callable[..., Any], /, **kwargs: Any) -> bool:
    """Run f's body (not its contract checker) and evaluate f's postconditions."""
    checker = _checker(f)
    result = checker.__wrapped__(**kwargs)
    posts = getattr(checker, "__postconditions__", [])
    return all(c.condition(**_arguments(c, {**kwargs, "result": result})) for c in posts)
