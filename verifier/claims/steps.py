"""Proof steps as data: a chain of displayed (in)equalities decided over its domain.

A displayed step of a proof — "``A <= B`` by Eq. (1)", "``B = C``" — is a
:class:`Step`: its left side, relation and right side as expressions in the proof's
parameters, the premises the proof has at that point (relations between the
parameters: ``a <= b``, ``x > 0``), and the box of parameters where the proof applies
it.  :func:`decide_steps` decides every step of a chain over its box with one engine:

* ``==``: an identity in the parameters, proved exactly (every ``exp`` of a rational
  linear form becomes a monomial; :func:`verifier.checks.boxes.identically_zero`) — then it
  holds for every value; otherwise it is decided as two inequalities over the box;
* ``<=`` and ``>=``: over a range (:func:`verifier.checks.ranges.decide_on_interval`: one
  parameter, no premise; when it is left undecided, over the one-dimensional box), over a box (:func:`verifier.checks.boxes.decide_on_box`: several
  parameters, or premises restricting the region), or between numbers.

The result is the conjunction of the steps, each step a part titled by its label; the
first failing step is named in a note and carries an exact failing point of its box
(the numbers at that point form a violated numeric finding, so the claim's certificate
is the inequality at that point, which ``verifier check`` re-verifies).  A chain whose
every step is decided over its domain has the scope ``box`` or ``range``
(:mod:`verifier.claims.scope`).

>>> a, b = sp.symbols("a b", nonnegative=True)
>>> box = {a: (0, 1), b: (0, 1)}
>>> steps = [
...     Step("product", a * b, a + b, domain=box),
...     Step("square", (a + b) ** 2, a**2 + 2 * a * b + b**2, "==", domain=box),
...     Step("too strong", a + b, a * b, domain=box),
... ]
>>> r = decide_steps("toy chain", steps)
>>> r.verdict.value, r.notes[0]
('violated', "first failing step: 'too strong'")
>>> r.parts[2].notes[0]
'fails at a = 1, b = 0'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

import sympy as sp

from ..arithmetic.exact import Verdict, exact
from ..checks.boxes import DEFAULT_BUDGET, Box, BoxBudget, identically_zero
from ..checks.certified import check_le
from ..checks.results import CheckResult, conjunction
from ..errors import InvalidParameter

__all__ = ["Relation", "Step", "decide_step", "decide_steps"]

Relation = Literal["<=", ">=", "=="]


@dataclass(frozen=True)
class Step:
    """One displayed step of a proof.

    Parameters
    ----------
    label : str
        Where the step is in the paper (``"Eq. (2), first inequality"``).
    lhs, rhs : expression
        The two sides, in the proof's parameters (sympy expressions or numbers).
    relation : {"<=", ">=", "=="}
        Default ``"<="``.
    premises : tuple of sympy relations
        What the proof has at this point, as relations between the parameters
        (``a <= b``, ``x > 0``): the step is decided where they all hold.
    domain : mapping, optional
        Parameter -> ``(lo, hi)`` (rational ends): where the proof applies the step.
        ``None``: the step has no free parameter (numbers) or takes the chain's.
    note : str
        Why the step holds, as the paper says (shown in the result).
    """

    label: str
    lhs: Any
    rhs: Any
    relation: Relation = "<="
    premises: tuple[Any, ...] = ()
    domain: Mapping[Any, Any] | None = None
    note: str = ""

    def __post_init__(self) -> None:
        if self.relation not in ("<=", ">=", "=="):
            raise InvalidParameter(
                f"step {self.label!r}: relation must be '<=', '>=' or '==', got {self.relation!r}"
            )
        if not isinstance(self.premises, tuple):
            raise InvalidParameter(f"step {self.label!r}: premises must be a tuple of relations")


def _symbols(*exprs: sp.Expr) -> set[sp.Symbol]:
    out: set[sp.Symbol] = set()
    for e in exprs:
        out |= e.free_symbols
    return out


def _simplest_inside(lo: Fraction, hi: Fraction) -> Fraction:
    """A rational with a small denominator strictly inside ``(lo, hi)`` (``lo`` when
    they are equal)."""
    if lo == hi:
        return lo
    d = 1
    while True:
        for n in range(
            -(-lo.numerator * d // lo.denominator), hi.numerator * d // hi.denominator + 1
        ):
            x = Fraction(n, d)
            if lo < x < hi:
                return x
        d *= 2


def _witness(r: CheckResult) -> dict[sp.Symbol, sp.Rational] | None:
    """An exact failing point of a violated step decided over a domain."""
    for f in r.all_findings():
        if f.verdict is not Verdict.VIOLATED:
            continue
        if f.region is not None and f.region.witness:
            return dict(f.region.witness)
        if f.failing and f.over is not None and not isinstance(f.over, Box):
            s = f.over.symbol
            for piece in f.failing:
                cands: list[sp.Expr] = []
                if piece.lo.is_Rational and piece.hi.is_Rational:
                    x = _simplest_inside(_fraction(piece.lo), _fraction(piece.hi))
                    cands.append(sp.Rational(x.numerator, x.denominator))
                # an irrational end (a root such as sqrt(2)/2): a rational inside the
                # certified enclosures of the ends
                cands += piece.rational_points()
                for c in cands:
                    point = {s: c}
                    if check_le(f.lhs.xreplace(point), f.rhs.xreplace(point)).violated:
                        return point
    return None


def _fraction(x: sp.Expr) -> Fraction:
    return Fraction(int(x.p), int(x.q))


def _le(
    title: str,
    lhs: sp.Expr,
    rhs: sp.Expr,
    box: Box | None,
    premises: tuple[Any, ...],
    budget: BoxBudget,
) -> CheckResult:
    if box is None:
        return check_le(lhs, rhs, title)
    free = [s for s, lo, hi in zip(box.symbols, box.lows, box.highs, strict=True) if lo < hi]
    if not premises and len(free) == 1 and box.dimension == len(box.symbols):
        s = box.symbols[0]
        r = check_le(lhs, rhs, title, over=(s, sp.Rational(box.lows[0]), sp.Rational(box.highs[0])))
        if r.verdict is not Verdict.UNDECIDED:
            return r
        # certified bisection cannot prove a bound attained at a point (``1 - x <=
        # e^{-x}`` at 0); the box decider's derivative tests can: the step over the
        # one-dimensional box
        return check_le(lhs, rhs, title, over=box, budget=budget)
    if premises:
        return check_le(lhs, rhs, title, over=box, where=premises, budget=budget)
    return check_le(lhs, rhs, title, over=box, budget=budget)


def decide_step(
    step: Step,
    domain: Mapping[Any, Any] | None = None,
    premises: tuple[Any, ...] = (),
    budget: BoxBudget = DEFAULT_BUDGET,
) -> CheckResult:
    """Decide one step over its domain (else ``domain``) under its premises and
    ``premises`` (module docstring).  A violated step's result starts with the exact
    failing point: the numbers there, as a violated numeric inequality."""
    lhs, rhs = exact(step.lhs), exact(step.rhs)
    dom = step.domain if step.domain is not None else domain
    prem = tuple(premises) + step.premises
    free = _symbols(lhs, rhs)
    box = None
    if free:
        if dom is None:
            raise InvalidParameter(
                f"step {step.label!r} has free parameters {sorted(map(str, free))} and no domain"
            )
        box = Box.of(dom)
        lhs, rhs = box.bind(lhs), box.bind(rhs)
        missing = sorted(str(s) for s in _symbols(lhs, rhs) if s not in box.symbols)
        if missing:
            raise InvalidParameter(
                f"step {step.label!r}: parameters {missing} are not in its domain {box}"
            )
        prem = tuple(box.bind(exact(p)) if isinstance(p, sp.Basic) else p for p in prem)
    title = f"{step.label}: {step.lhs} {step.relation} {step.rhs}"
    if step.relation == "==":
        syms = sorted(_symbols(lhs, rhs), key=str)
        if identically_zero(lhs - rhs, syms) if syms else lhs == rhs:
            return CheckResult(
                title,
                Verdict.HOLDS,
                notes=[f"identity proved exactly: {step.label}"]
                + ([step.note] if step.note else []),
                identity_in=tuple(str(s) for s in syms),
            )
        parts = [
            _le(f"{step.label} (<=)", lhs, rhs, box, prem, budget),
            _le(f"{step.label} (>=)", rhs, lhs, box, prem, budget),
        ]
    elif step.relation == "<=":
        parts = [_le(step.label, lhs, rhs, box, prem, budget)]
    else:
        parts = [_le(step.label, rhs, lhs, box, prem, budget)]
    out = conjunction(title, parts, notes=[step.note] if step.note else [])
    if out.verdict is Verdict.VIOLATED and box is not None:
        for p in parts:
            w = _witness(p) if p.verdict is Verdict.VIOLATED else None
            if w is None:
                continue
            a, b = (p.findings[0].lhs, p.findings[0].rhs) if p.findings else (lhs, rhs)
            at = ", ".join(f"{k} = {v}" for k, v in w.items())
            point = check_le(a.xreplace(w), b.xreplace(w), f"{step.label} at {at}")
            out.parts.insert(0, point)
            out.notes.insert(0, f"fails at {at}")
            break
    return out


def decide_steps(
    title: str,
    steps: Sequence[Step],
    *,
    domain: Mapping[Any, Any] | None = None,
    premises: tuple[Any, ...] = (),
    budget: BoxBudget = DEFAULT_BUDGET,
) -> CheckResult:
    """Decide every step of a proof chain (module docstring); ``domain`` and
    ``premises`` apply to every step (a step's own domain replaces the chain's, its
    premises add to the chain's).  The result names the first failing step."""
    if not steps:
        raise InvalidParameter(f"{title}: a proof chain needs at least one step")
    results = [decide_step(s, domain, premises, budget) for s in steps]
    out = conjunction(title, results)
    bad = [s for s, r in zip(steps, results, strict=True) if r.verdict is Verdict.VIOLATED]
    if bad:
        out.notes.insert(0, f"first failing step: {bad[0].label!r}")
    return out
