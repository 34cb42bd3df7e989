"""Run the engines' own Python code on z3 terms, every path: a small symbolic executor.

The fast engines (impl/engines/awari.py, impl/engines/gothello.py) compute with Python ints: shifts,
masks, additions, comparisons.  ``Sym`` is an int-like value standing for a z3
bit-vector term of ``WIDTH`` bits read as a two's-complement integer, which is
exactly a Python int as long as no result leaves that range; every operation that
could leave it (``+``, ``-``, ``*``, ``<<``) adds an *obligation* that it does not,
so a proof that passes is a proof about Python's unbounded ints.  Bitwise ``& | ^ ~``
and the arithmetic ``>>`` agree with Python's on two's complement at any width.

Where the code branches on a symbolic value (``if``, ``while``, ``and``, ``not``,
``in``), ``Sym.__bool__`` asks the running ``Explorer``, which takes one side and
remembers the other if z3 finds it feasible too; ``Explorer.run`` re-runs the
function until every feasible path has been taken (depth first), and on every
path proves the property the caller states of the path's result under the path's
condition.  So ``run`` returning without a counterexample means: for every input
satisfying the assumptions, the function (as written, run by CPython) returns a
value with that property — provided every loop ends, which the explorer checks by
refusing paths longer than ``max_decisions``.

Trusted: z3's bit-vector decision procedure, and CPython dispatching the
operators of the engine code to ``Sym`` (no operation on a ``Sym`` can silently
turn concrete: ``__index__`` and ``__int__`` accept only terms z3 simplifies to a
numeral).
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

import z3

_VERBOSE = bool(os.environ.get("PROOFS_VERBOSE"))
SOLVERS = ("by-logic", "smt", "default")
SOLVER = os.environ.get("PROOFS_SOLVER", "by-logic")
"""How the explorer asks z3 (``PROOFS_SOLVER``).  ``by-logic``: a query of bit-vectors
alone (Gothello's) goes to ``z3.SolverFor("QF_BV")``, which bit-blasts it eagerly
(15–30 % less CPU than ``z3.Solver()``'s choice of the same tactic); one with an
uninterpreted function (Awari's positions) is first simplified — constants
propagated, equations solved, unconstrained terms eliminated (``PREPROCESS``) — then
given to z3's SMT core, whose bit-vector theory bit-blasts lazily: the preprocessing
cuts RulesAwari's slices 2.3 times in all (the heaviest, 201 CPU-s, 9.4 times) and
leaves ImplAwari's as they were (1,135 CPU-s for the 600).
``smt``: the SMT core without the preprocessing, as before it, and ``default``:
``z3.Solver()`` for every query, which eliminates the function and bit-blasts the whole
query, 8–14 times slower on apply's slices — both kept to measure again
(proofs/README.md, "Solving").  The verdicts are the same; only the time differs."""
if SOLVER not in SOLVERS:
    raise SystemExit(f"PROOFS_SOLVER={SOLVER!r}: one of {', '.join(SOLVERS)}")


def load_engine_source(game: str) -> ModuleType:
    """impl/engines/<game>.py as source (never the mypyc build), under a private name, so a
    proof may hand its functions contracts without touching the engine in use."""
    path = Path(__file__).resolve().parents[1] / "impl" / "engines" / f"{game}.py"
    spec = importlib.util.spec_from_file_location(f"impl.engines._refine_{game}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


WIDTH = 128
"""Bits of a term unless a proof asks for fewer: far above any value the engines
compute (≤ 2⁹⁰).  A Sym's width is its term's; ints meeting it take that width.
A narrower width stays sound (the obligations are checked at the width used), it
only fails sooner: Awari's proof runs at 64 bits, as every value of its engine
(rows < 2⁴⁸, meta < 2¹⁷) fits."""

_current: list[Explorer] = []


@contextlib.contextmanager
def swapped(module: ModuleType, replacements: Mapping[str, Callable[..., Any]]) -> Iterator[None]:
    """Within: ``module``'s functions named in ``replacements`` are the replacements (a
    primitive by its proven contract); restored on the way out, however it is left."""
    real = {name: getattr(module, name) for name in replacements}
    for name, f in replacements.items():
        setattr(module, name, f)
    try:
        yield
    finally:
        for name, f in real.items():
            setattr(module, name, f)


def _explorer() -> Explorer:
    if not _current:
        raise RuntimeError("a symbolic value was branched on outside Explorer.run")
    return _current[-1]


def term(x: Sym | int, width: int = WIDTH) -> z3.BitVecRef:
    """The z3 term of an int (of ``width`` bits) or a Sym (its own width)."""
    if isinstance(x, Sym):
        return x.e
    assert isinstance(x, int) and -(1 << (width - 1)) <= x < 1 << (width - 1), x
    return z3.BitVecVal(x, width)


def bterm(x: SymBool | bool) -> z3.BoolRef:
    """The z3 term of a bool or a SymBool."""
    if isinstance(x, SymBool):
        return x.e
    return z3.BoolVal(bool(x))


class SymBool:
    """A symbolic truth value; ``bool()`` of it branches."""

    __slots__ = ("e",)

    def __init__(self, e: z3.BoolRef) -> None:
        self.e = e

    def __bool__(self) -> bool:
        return _explorer().decide(self.e)

    def __and__(self, other: SymBool | bool) -> SymBool:
        return SymBool(z3.And(self.e, bterm(other)))

    def __or__(self, other: SymBool | bool) -> SymBool:
        return SymBool(z3.Or(self.e, bterm(other)))

    def __invert__(self) -> SymBool:
        return SymBool(z3.Not(self.e))

    __hash__ = object.__hash__


class Sym:
    """A symbolic Python int (see the module docstring)."""

    __slots__ = ("e",)

    def __init__(self, e: z3.BitVecRef) -> None:
        self.e = e

    def _t(self, o: Sym | int) -> z3.BitVecRef:
        """The term of an operand, at this Sym's width (mixing widths is a bug)."""
        t = term(o, self.e.size())
        assert t.size() == self.e.size(), "Syms of different widths"
        return t

    # ─── exact at any width ────────────────────────────────────────────────
    def __and__(self, o: Sym | int) -> Sym:
        return Sym(self.e & self._t(o))

    __rand__ = __and__

    def __or__(self, o: Sym | int) -> Sym:
        return Sym(self.e | self._t(o))

    __ror__ = __or__

    def __xor__(self, o: Sym | int) -> Sym:
        return Sym(self.e ^ self._t(o))

    __rxor__ = __xor__

    def __invert__(self) -> Sym:
        return Sym(~self.e)

    def __rshift__(self, k: Sym | int) -> Sym:
        _oblige(self._t(k) >= 0, "negative shift count")
        return Sym(self.e >> self._t(k))

    def __rrshift__(self, x: int) -> Sym:
        return Sym(self._t(x)) >> self

    # ─── exact only without overflow: each adds an obligation ─────────────
    def __lshift__(self, k: Sym | int) -> Sym:
        kt = self._t(k)
        r = self.e << kt
        _oblige(z3.And(kt >= 0, kt < self.e.size(), (r >> kt) == self.e), "<< overflows")
        return Sym(r)

    def __rlshift__(self, x: int) -> Sym:
        return Sym(self._t(x)) << self

    def __add__(self, o: Sym | int) -> Sym:
        a, b = self.e, self._t(o)
        _oblige(z3.And(z3.BVAddNoOverflow(a, b, True), z3.BVAddNoUnderflow(a, b)), "+ overflows")
        return Sym(a + b)

    __radd__ = __add__

    def __sub__(self, o: Sym | int) -> Sym:
        a, b = self.e, self._t(o)
        _oblige(z3.And(z3.BVSubNoOverflow(a, b), z3.BVSubNoUnderflow(a, b, True)), "- overflows")
        return Sym(a - b)

    def __rsub__(self, x: int) -> Sym:
        return Sym(self._t(x)) - self

    def __neg__(self) -> Sym:
        _oblige(z3.BVSNegNoOverflow(self.e), "- overflows")
        return Sym(-self.e)

    def __mul__(self, o: Sym | int) -> Sym:
        a, b = self.e, self._t(o)
        if isinstance(o, int) and o > 0:  # by a constant: a range test, cheaper than a wide product
            top = (1 << (self.e.size() - 1)) - 1
            _oblige(z3.And(a >= -((top + 1) // o), a <= top // o), "* overflows")
        else:
            _oblige(z3.And(z3.BVMulNoOverflow(a, b, True), z3.BVMulNoUnderflow(a, b)), "* overflows")
        return Sym(a * b)

    __rmul__ = __mul__

    # ─── comparisons (signed, as Python's) ─────────────────────────────────
    def __eq__(self, o: object) -> SymBool:  # type: ignore[override]
        assert isinstance(o, Sym | int)
        return SymBool(self.e == self._t(o))

    def __ne__(self, o: object) -> SymBool:  # type: ignore[override]
        assert isinstance(o, Sym | int)
        return SymBool(self.e != self._t(o))

    def __lt__(self, o: Sym | int) -> SymBool:
        return SymBool(self.e < self._t(o))

    def __le__(self, o: Sym | int) -> SymBool:
        return SymBool(self.e <= self._t(o))

    def __gt__(self, o: Sym | int) -> SymBool:
        return SymBool(self.e > self._t(o))

    def __ge__(self, o: Sym | int) -> SymBool:
        return SymBool(self.e >= self._t(o))

    def __bool__(self) -> bool:
        return _explorer().decide(self.e != 0)

    def __index__(self) -> int:
        v = z3.simplify(self.e)
        if not z3.is_bv_value(v):
            raise TypeError(f"symbolic value used as an index: {v}")
        return int(v.as_signed_long())

    __int__ = __index__
    __hash__ = object.__hash__

    def bit_count(self) -> Sym:
        """int.bit_count, for values 0 ≤ x < 2**(width - 1)."""
        _oblige(self.e >= 0, "bit_count of a negative value")
        w = self.e.size()
        return Sym(z3.Sum([z3.ZeroExt(w - 1, z3.Extract(i, i, self.e)) for i in range(w)]))


def _oblige(cond: z3.BoolRef, what: str) -> None:
    if _current:
        _current[-1].oblige(cond, what)


def var(name: str, bits: int, width: int = WIDTH) -> Sym:
    """A fresh unsigned variable of ``bits`` bits, as a Sym of ``width`` bits (zero-extended)."""
    return Sym(z3.ZeroExt(width - bits, z3.BitVec(name, bits)))


class Refuted(AssertionError):
    """A path on which the stated property fails, with a model."""


_PURE_BV = z3.Probe("is-qfbv")


PREPROCESS = ("simplify", "propagate-values", "solve-eqs", "elim-uncnstr", "simplify", "max-bv-sharing")
"""z3's tactics run before the SMT core on a query with a function (``by-logic``): each
keeps the query's satisfiability and maps a model back (the explorer checks every model
it keeps).  Measured on RulesAwari's slices: without them 2–10 times the CPU."""


def _solver_for(query: list[z3.BoolRef]) -> z3.Solver:
    """A fresh solver for ``query``, as SOLVER says."""
    if SOLVER == "default":
        return z3.Solver()
    goal = z3.Goal()
    goal.add(*query)
    if _PURE_BV(goal):
        return z3.SolverFor("QF_BV")
    if SOLVER == "smt":
        return z3.Tactic("smt").solver()
    return z3.Then(*PREPROCESS, "smt").solver()


@dataclass
class Explorer:
    """Depth-first exploration of every feasible path of a function on Syms."""

    assumptions: list[z3.BoolRef]
    max_decisions: int = 400
    paths: int = 0
    _prefix: list[bool] = field(default_factory=list)
    _open: list[bool] = field(default_factory=list)  # per decision: the other side is still to be taken
    _pos: int = 0
    _pc: list[z3.BoolRef] = field(default_factory=list)
    _obligations: list[tuple[z3.BoolRef, str]] = field(default_factory=list)
    _model: z3.ModelRef | None = None
    """A model of the path condition so far, if one is known: a side of a decision
    it satisfies is feasible without asking z3."""
    _other: list[z3.ModelRef | None] = field(default_factory=list)  # per decision: a model of the open side

    def decide(self, cond: z3.BoolRef) -> bool:
        c = z3.simplify(cond)
        if z3.is_true(c):
            return True
        if z3.is_false(c):
            return False
        if self._pos < len(self._prefix):
            d = self._prefix[self._pos]
            if self._pos == len(self._prefix) - 1:  # the side flipped to: its model was kept
                self._model = self._other[-1]
        else:
            if self._pos >= self.max_decisions:
                raise Refuted(f"a path longer than {self.max_decisions} decisions (a loop that may not end?)")
            d, other = self._sides(c)
            self._prefix.append(d)
            self._open.append(other is not None)
            self._other.append(other)
        self._pos += 1
        self._pc.append(c if d else z3.Not(c))
        return d

    def _sides(self, c: z3.BoolRef) -> tuple[bool, z3.ModelRef | None]:
        """The side of c to take first (true if feasible), and a model of the path
        with the other side if that one is feasible too.  A side the model of the
        path so far satisfies needs no query; the model is checked to satisfy the
        whole path condition before it stands for a query."""
        known = self._model
        if known is not None and not z3.is_true(known.eval(z3.And(*self._pc), model_completion=True)):
            raise Refuted("a kept model does not satisfy its path condition (an explorer defect)")
        value = known.eval(c, model_completion=True) if known is not None else None
        if value is not None and z3.is_true(value):
            return True, self._model_of(z3.Not(c))
        true_model = self._model_of(c)
        if value is not None and z3.is_false(value):
            false_model: z3.ModelRef | None = known
        else:
            false_model = self._model_of(z3.Not(c))
        if true_model is None and false_model is None:
            raise AssertionError("an infeasible path was entered")
        if true_model is None:
            self._model = false_model
            return False, None
        self._model = true_model
        return True, false_model

    def _check(self, c: z3.BoolRef) -> tuple[z3.CheckSatResult, z3.Solver]:
        """Satisfiability of the path so far and c, by a fresh (non-incremental)
        solver (SOLVER says which): z3 then preprocesses the whole query, much
        faster on bit-vectors."""
        solver = _solver_for([*self._pc, c])
        solver.add(*self._pc, c)
        return solver.check(), solver

    def _model_of(self, c: z3.BoolRef) -> z3.ModelRef | None:
        """A model of the path so far and c, None if there is none."""
        r, solver = self._check(c)
        if r == z3.unknown:
            raise Refuted(f"z3 answered unknown: {solver.reason_unknown()}")
        return solver.model() if r == z3.sat else None

    def oblige(self, cond: z3.BoolRef, what: str) -> None:
        self._obligations.append((cond, what))

    def run(self, body: Callable[..., Any], check: Callable[..., Iterable[tuple[z3.BoolRef, str]]]) -> int:
        """Run ``body`` on every feasible path; on each, prove every (condition, name)
        that ``check`` states of its result, and every no-overflow obligation.
        Returns the number of paths; raises Refuted with a model on failure."""
        while True:
            self._pos = 0
            self._pc = list(self.assumptions)
            self._model = None
            self._obligations = []
            _current.append(self)
            try:
                out = body()
                goals = [*self._obligations, *check(out)]
            finally:
                _current.pop()
            r, _ = self._check(z3.Not(z3.And(*(cond for cond, _ in goals))))
            for cond, what in goals if r != z3.unsat else ():
                r, solver = self._check(z3.Not(cond))
                if r != z3.unsat:
                    model = solver.model() if r == z3.sat else solver.reason_unknown()
                    raise Refuted(f"{what}: {r} on path {self._prefix[: self._pos]}\n{model}")
            self.paths += 1
            if _VERBOSE and self.paths % 50 == 0:
                print(f"  … {self.paths} paths", file=sys.stderr, flush=True)
            # Backtrack to the last decision whose other side is still open.
            while self._open and not self._open[-1]:
                self._open.pop()
                self._prefix.pop()
                self._other.pop()
            if not self._prefix:
                return self.paths
            self._prefix[-1] = not self._prefix[-1]
            self._open[-1] = False


def explore(
    assumptions: list[z3.BoolRef],
    body: Callable[..., Any],
    check: Callable[..., Iterable[tuple[z3.BoolRef, str]]],
    max_decisions: int = 400,
) -> int:
    """Every path of ``body`` under ``assumptions`` satisfies ``check``: the number of paths."""
    return Explorer(list(assumptions), max_decisions).run(body, check)
