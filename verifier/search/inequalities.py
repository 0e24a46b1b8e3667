"""Worst-case search for closed-form inequalities over rational parameter grids.

A displayed step of a proof is often an inequality between closed forms in a few real
parameters (``ε``, ``α``, ``γ``, a probability, an integer ``T``) that the proof
applies under its own hypotheses.  :func:`inequality_search` turns such a step into a
:class:`~verifier.claims.SearchSpec`: the instance space is a product of rational
grids (:class:`GridSpace`) restricted to the points where the hypotheses hold, the
screen is ``lhs/rhs`` in floats, and the document is a spec file whose target claim
is the step as an ``inequality`` claim (its hypotheses as premise ``inequality``
claims) — decided exactly by the same code ``verifier check`` runs.  The screen
compiles the two sides once into a floating-point function where that agrees with
the exact sides (:class:`_Screen`).

>>> from fractions import Fraction as F
>>> import sympy as sp
>>> space = GridSpace(("x",), ((F(1, 4), F(1, 2), F(3, 4)),))
>>> spec = inequality_search(
...     "demo.step", space, lambda v: ([], (v["x"] ** 2, v["x"])), "x^2 <= x", "none")
>>> inst = space.extreme(__import__("random").Random(0))
>>> round(spec.screen(inst), 6) <= 1
True
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from random import Random
from typing import Any

import sympy as sp

from ..arithmetic.exact import approx, exact
from ..arithmetic.precision import real_context
from ..claims import SearchSpec
from ..errors import InvalidParameter, UnsupportedExpression
from .certificates import expr_text, skeleton_document
from .core import InstanceSpace, instance_type
from .spaces import bits

__all__ = ["GridPoint", "GridSpace", "Sides", "inequality_search"]

#: ``values -> (premises, target)``: each a pair ``(lhs, rhs)`` meaning ``lhs <= rhs``.
Sides = Callable[[dict[str, sp.Expr]], tuple[Sequence[tuple[Any, Any]], tuple[Any, Any]]]


@instance_type
@dataclass(frozen=True)
class GridPoint:
    """One point of a :class:`GridSpace`: a value per parameter, in the space's order."""

    values: tuple[Fraction, ...]


class GridSpace(InstanceSpace):
    """The product of rational grids, restricted to the points where ``valid`` holds.

    Parameters
    ----------
    names : sequence of str
        Parameter names.
    grids : sequence of sequences of Fraction
        One increasing grid per parameter.
    valid : callable, optional
        ``{name: Fraction} -> bool``: the hypotheses under which the step is applied
        (points where it is false are never proposed).
    """

    def __init__(
        self,
        names: Sequence[str],
        grids: Sequence[Sequence[Fraction]],
        valid: Callable[[dict[str, Fraction]], bool] | None = None,
    ) -> None:
        if len(names) != len(grids) or not names:
            raise InvalidParameter("one grid per parameter name is needed")
        if any(not g for g in grids):
            raise InvalidParameter("every grid needs at least one value")
        self.names = tuple(names)
        self.grids = tuple(tuple(Fraction(x) for x in g) for g in grids)
        self.valid = valid

    def point(self, inst: GridPoint) -> dict[str, Fraction]:
        """The named values of ``inst``."""
        return dict(zip(self.names, inst.values, strict=True))

    def _ok(self, inst: GridPoint) -> bool:
        return self.valid is None or bool(self.valid(self.point(inst)))

    def _draw(
        self, rng: Random, pick: Callable[[Random, tuple[Fraction, ...]], Fraction]
    ) -> GridPoint:
        for _ in range(1000):
            inst = GridPoint(tuple(pick(rng, g) for g in self.grids))
            if self._ok(inst):
                return inst
        raise InvalidParameter("no point of the grid satisfies the hypotheses (1000 draws)")

    def random(self, rng: Random) -> GridPoint:
        return self._draw(rng, lambda r, g: r.choice(g))

    def extreme(self, rng: Random) -> GridPoint:
        return self._draw(rng, lambda r, g: g[0] if r.random() < 0.5 else g[-1])

    def neighbour(self, inst: GridPoint, rng: Random, scale: float) -> GridPoint:
        for _ in range(50):
            j = rng.randrange(len(self.grids))
            g = self.grids[j]
            i = g.index(inst.values[j]) if inst.values[j] in g else 0
            step = max(1, round(scale * len(g) / 4))
            k = min(max(i + rng.choice((-step, step)), 0), len(g) - 1)
            new = GridPoint(inst.values[:j] + (g[k],) + inst.values[j + 1 :])
            if self._ok(new):
                return new
        return inst

    def shrink(self, inst: GridPoint) -> Iterable[GridPoint]:
        out = []
        for j, g in enumerate(self.grids):
            for v in sorted(g, key=bits):
                if bits(v) < bits(inst.values[j]):
                    new = GridPoint(inst.values[:j] + (v,) + inst.values[j + 1 :])
                    if self._ok(new):
                        out.append(new)
        return out

    def complexity(self, inst: GridPoint) -> tuple[float, ...]:
        return (sum(bits(v) for v in inst.values),)

    def describe(self, inst: GridPoint) -> str:
        return ", ".join(f"{n} = {v}" for n, v in zip(self.names, inst.values, strict=True))


def _values(space: GridSpace, inst: GridPoint) -> dict[str, sp.Expr]:
    return {n: sp.Rational(v.numerator, v.denominator) for n, v in space.point(inst).items()}


def _screen(inst: GridPoint, space: GridSpace, sides: Sides) -> float:
    """``lhs/rhs`` at ``inst``: both sides built exactly, then shown as floats."""
    _, (lhs, rhs) = sides(_values(space, inst))
    return approx(lhs) / approx(rhs)


#: Bits of the floating-point evaluation of a compiled screen (:class:`_Screen`): a
#: ratio of sums whose terms cancel keeps its first 15 digits.
SCREEN_BITS = 113
#: Points of the space at which a compiled screen must agree with the exact one
#: (:meth:`_Screen.compiled`): this many extreme and this many random points, each
#: drawn with its own fixed seed.
CHECK_POINTS = 4
#: Largest relative difference between a compiled screen and the exact one at a
#: checked point.
CHECK_TOLERANCE = 1e-9


def _outcome(f: Callable[[], float]) -> float | type[BaseException]:
    try:
        return f()
    except Exception as err:  # a screen may fail at a point (the engine counts it)
        return type(err)


def _agree(a: float | type[BaseException], b: float | type[BaseException]) -> bool:
    if isinstance(a, type) or isinstance(b, type):
        return isinstance(a, type) and isinstance(b, type)
    if math.isnan(a) or math.isnan(b) or math.isinf(a) or math.isinf(b):
        return a == b or (math.isnan(a) and math.isnan(b))
    return abs(a - b) <= CHECK_TOLERANCE * max(abs(a), abs(b))


#: ``(context, argument values) -> value``: an expression evaluated in an mpmath
#: floating-point context (:func:`_float_program`).
_FloatProgram = Callable[[Any, Sequence[Any]], Any]


def _float_program(e: sp.Expr, index: dict[sp.Symbol, int]) -> _FloatProgram:
    """``e`` as a function evaluating it in a floating-point context at the values of
    the symbols of ``index`` (each rounded once per operation); sums, products,
    powers, ``exp``, ``log``, rationals, ``E`` and ``pi`` (anything else raises
    :class:`~verifier.errors.UnsupportedExpression`)."""
    if e.is_Symbol:
        if e not in index:
            raise UnsupportedExpression(f"the symbol {e} is not a parameter of the grid")
        i = index[e]
        return lambda c, a: a[i]
    if e.is_Rational:
        p, q = int(e.p), int(e.q)
        return lambda c, a: c.mpf(p) / q
    if e is sp.E:
        return lambda c, a: c.exp(1)
    if e is sp.pi:
        return lambda c, a: +c.pi
    if e.is_Add or e.is_Mul:
        parts = [_float_program(x, index) for x in e.args]
        if e.is_Add:
            return lambda c, a: c.fsum(f(c, a) for f in parts)
        return lambda c, a: c.fprod(f(c, a) for f in parts)
    if isinstance(e, sp.exp):
        x = _float_program(e.args[0], index)
        return lambda c, a: c.exp(x(c, a))
    if isinstance(e, sp.log) and len(e.args) == 1:
        x = _float_program(e.args[0], index)
        return lambda c, a: c.log(x(c, a))
    if e.is_Pow:
        base = _float_program(e.base, index)
        if e.exp.is_Integer:
            k = int(e.exp)
            return lambda c, a: base(c, a) ** k
        x = _float_program(e.exp, index)
        return lambda c, a: c.power(base(c, a), x(c, a))
    raise UnsupportedExpression(f"no float program for {type(e).__name__} in {e}")


class _Screen:
    """The float ratio ``lhs/rhs`` of a step at a point of its grid.

    Building both sides exactly at every point (radicals, exponentials of rationals,
    sums of 30 terms) costs milliseconds; the search screens hundreds of points.  So
    ``sides`` is called once on symbols, the two sides compiled into float programs
    (:func:`_float_program`) and evaluated at :data:`SCREEN_BITS` bits at each point.
    That function is used only if it agrees with the exact screen (:func:`_screen`)
    at :data:`CHECK_POINTS` extreme and random points of the space
    (fixed seeds: the choice is the same in every process): a ``sides`` that branches
    on its values in Python (``if v["x"] == 0``, ``max(...)``, ``int(...)``) either
    fails on symbols or disagrees there, and keeps the exact screen.  Either way the
    screen only guides the search; every candidate is decided exactly
    (:func:`_document`)."""

    def __init__(self, space: GridSpace, sides: Sides) -> None:
        self.space = space
        self.sides = sides
        self._compiled: Any = None
        self._tried = False

    def __getstate__(self) -> dict[str, Any]:
        return {"space": self.space, "sides": self.sides, "_compiled": None, "_tried": False}

    def exact(self, inst: GridPoint) -> float:
        """:func:`_screen`: the sides built exactly at ``inst``."""
        return _screen(inst, self.space, self.sides)

    def _compile(self) -> Callable[[GridPoint], float] | None:
        names = self.space.names
        symbols = {n: sp.Symbol(n) for n in names}
        index = {symbols[n]: i for i, n in enumerate(names)}
        try:
            _, (lhs, rhs) = self.sides(symbols)
            f, g = _float_program(exact(lhs), index), _float_program(exact(rhs), index)
        except Exception:  # branches on values, a function without a float program, ...
            return None

        def run(inst: GridPoint) -> float:
            with real_context(SCREEN_BITS) as ctx:
                args = [ctx.mpf(v.numerator) / v.denominator for v in inst.values]
                return float(ctx.mpf(f(ctx, args)) / g(ctx, args))

        return run

    def compiled(self) -> Callable[[GridPoint], float] | None:
        """The compiled screen, or ``None`` where it cannot be trusted (class
        docstring); decided once per process."""
        if not self._tried:
            self._tried = True
            run = self._compile()
            points = []
            if run is not None:
                try:
                    points = [
                        draw(Random(seed))
                        for seed in range(CHECK_POINTS)
                        for draw in (self.space.extreme, self.space.random)
                    ]
                except InvalidParameter:  # no valid point drawn: the search says so itself
                    run = None
            if run is not None and all(
                _agree(
                    _outcome(functools.partial(run, p)), _outcome(functools.partial(self.exact, p))
                )
                for p in points
            ):
                self._compiled = run
        return self._compiled

    def __call__(self, inst: GridPoint) -> float:
        run = self.compiled()
        return self.exact(inst) if run is None else run(inst)


def _document(
    inst: GridPoint, space: GridSpace, sides: Sides, claim_id: str, statement: str, source: str
) -> dict[str, Any]:
    premises, (lhs, rhs) = sides(_values(space, inst))
    doc = skeleton_document(f"{source}: {statement} at {space.describe(inst)}")
    for k, (a, b) in enumerate(premises):
        doc["claims"].append(
            {
                "id": f"premise-{k + 1}",
                "kind": "inequality",
                "lhs": expr_text(a),
                "rhs": expr_text(b),
                "expected": "holds",
                "statement": "a hypothesis of the step",
            }
        )
    doc["claims"].append(
        {
            "id": claim_id,
            "kind": "inequality",
            "lhs": expr_text(lhs),
            "rhs": expr_text(rhs),
            "expected": "refuted",
            "statement": f"{statement} ({space.describe(inst)})",
            "source": source,
        }
    )
    return doc


def inequality_search(
    claim_id: str,
    space: GridSpace,
    sides: Sides,
    statement: str,
    source: str,
    *,
    notes: str = "",
    default_instances: int = 2000,
) -> SearchSpec:
    """The :class:`~verifier.claims.SearchSpec` of a closed-form step ``lhs <= rhs``
    under hypotheses ``premises`` (``sides(values) -> (premises, (lhs, rhs))``, both
    sides positive), searched over ``space``."""
    return SearchSpec(
        space=space,
        screen=_Screen(space, sides),
        document=functools.partial(
            _document,
            space=space,
            sides=sides,
            claim_id=claim_id,
            statement=statement,
            source=source,
        ),
        default_instances=default_instances,
        exact_best=True,
        notes=notes or f"{', '.join(space.names)} on rational grids",
    )
