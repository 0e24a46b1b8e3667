"""Small exact helpers shared by the selection algorithms and the constructions.

* :func:`certified_ceil` / :func:`certified_floor` — the integer part of a real
  expression such as ``ln(4T)/ε`` (Talwar 2025, Theorem 7's ``Δ``), decided with
  certified enclosures (raising the precision until the enclosure lies strictly
  between two integers, or an exact test proves the value is an integer).
* :func:`certified_min` — the minimum of finitely many non-negative exact
  expressions, each comparison decided exactly or with enclosures.
* :func:`check_le` / :func:`check_eq` — one inequality (or identity) between exact
  expressions as a :class:`~verifier.checks.results.CheckResult`, for proof-step checks;
  :func:`check_all_le` — many rational inequalities at once (a proof step checked at
  every point of an instance), decided in exact rational arithmetic.

>>> import sympy as sp
>>> certified_ceil(sp.log(4000) * 6)
50
>>> certified_min([sp.exp(1), sp.Rational(27, 10), sp.Integer(3)])
27/10
>>> check_le(sp.Rational(1, 4), sp.exp(-1)).verdict
<Verdict.HOLDS: 'holds'>
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Sequence
from fractions import Fraction
from typing import Any

import sympy as sp
from sympy.polys.polyerrors import BasePolynomialError

from ..arithmetic.exact import (
    DEFAULT_PRECISION,
    Precision,
    Verdict,
    decide_eq,
    decide_le,
    enclose,
    exact,
    fraction_field,
    is_exactly_zero,
)
from ..errors import InvalidParameter, Undecidable
from .boxes import Box, BoxBudget, decide_on_box
from .results import CheckResult, Finding

__all__ = [
    "certified_ceil",
    "certified_floor",
    "certified_min",
    "check_le",
    "check_eq",
    "check_all_le",
    "identically_zero",
    "Undecidable",
]


def certified_floor(expr: Any, precision: Precision = DEFAULT_PRECISION) -> int:
    """``floor(expr)`` for a real constant expression, certified.

    >>> certified_floor(sp.log(8) / sp.log(2))   # exactly 3: proved, not guessed
    3
    """
    x = exact(expr)
    if x.is_Rational:
        return int(sp.floor(x))
    if x.free_symbols:
        raise InvalidParameter(f"cannot take the integer part of {x}: it has free symbols")
    for bits in precision.schedule():
        enc = enclose(x, bits)
        if enc is None:
            continue
        lo_q, hi_q = enc.bounds()
        lo, hi = math.floor(lo_q), math.floor(hi_q)
        if lo == hi and lo_q != lo:
            return lo
        # the enclosure touches an integer: is the value that integer?
        n = round((lo_q + hi_q) / 2)
        if is_exactly_zero(x - n) is True:
            return n
    raise Undecidable(f"could not decide the integer part of {x}")


def certified_ceil(expr: Any, precision: Precision = DEFAULT_PRECISION) -> int:
    """``ceil(expr)`` for a real constant expression, certified (see
    :func:`certified_floor`)."""
    return -certified_floor(-exact(expr), precision)


def certified_min(values: Sequence[Any], precision: Precision = DEFAULT_PRECISION) -> sp.Expr:
    """The least of ``values`` (exact expressions), with certified comparisons.

    Values proved equal are interchangeable; when two values can be neither
    separated nor proved equal within the precision limit the result is the exact
    (unevaluated) ``Min`` of the undecided candidates, which the certified evaluator
    still encloses correctly.
    """
    if not values:
        raise InvalidParameter("certified_min of an empty sequence")
    vals = [exact(v) for v in values]
    best = vals[0]
    tied: list[sp.Expr] = []
    for v in vals[1:]:
        if v == best:
            continue
        c = decide_le(v, best, precision)
        if c.verdict is Verdict.HOLDS:
            best, tied = v, [t for t in tied if decide_le(t, v).verdict is Verdict.HOLDS]
        elif c.verdict is Verdict.UNDECIDED:
            tied.append(v)
    if tied:
        return sp.Min(best, *tied, evaluate=False)
    return best


def _finding(
    verdict: Verdict,
    lhs: sp.Expr,
    rhs: sp.Expr,
    tight: bool,
    note: str,
    output: Hashable | None,
    pair: tuple[Hashable, Hashable] | None,
) -> Finding:
    return Finding(verdict, output, pair, lhs, rhs, lhs, rhs, tight=tight, note=note)


def check_le(
    lhs: Any,
    rhs: Any,
    title: str | None = None,
    *,
    note: str = "",
    output: Hashable | None = None,
    pair: tuple[Hashable, Hashable] | None = None,
    quantity: str = "lhs",
    precision: Precision = DEFAULT_PRECISION,
    over: Any = None,
    budget: BoxBudget | None = None,
    where: Any = None,
) -> CheckResult:
    """The inequality ``lhs <= rhs`` as a one-finding :class:`CheckResult`.

    The finding's ``realized`` is ``lhs`` and ``claimed`` is ``rhs`` (slack
    ``rhs - lhs``).  Infinite values (``sympy.oo``) are allowed.  With a box ``over``
    (``{symbol: (lo, hi), ...}``) the inequality is decided for every point of the box
    (:func:`verifier.checks.boxes.decide_on_box`; the finding carries the decision), or, with
    premises ``where`` (expressions ``g`` meaning ``g >= 0``, or sympy relationals
    such as ``x + y <= 2``), for every point of the box where they hold: a step of a
    proof decided over its hypothesis region.  The result's notes give the shares of
    the box outside the region, decided and undecided, and say so when the region is
    empty (the inequality then holds vacuously).  With a range ``over=(symbol, lo,
    hi)`` it is decided for every value of one parameter in ``[lo, hi]``
    (:func:`verifier.checks.ranges.decide_on_interval`; no premises).  The finding records the
    domain (``Finding.over``), so the verdict says what it covers.

    >>> x, y = sp.symbols("x y", nonnegative=True)
    >>> r = check_le(x * y, 2, over={x: (0, 2), y: (0, 2)}, where=[x + y <= 2])
    >>> r.verdict.value, r.notes[0]
    ('holds', 'premises x + y <= 2 (as -x - y + 2 >= 0): 0.25 of the box outside, 0.75 decided, 0 undecided')
    >>> t = sp.Symbol("t")
    >>> check_le(t**2, t, over=(t, 0, 1)).verdict.value
    'holds'
    >>> r = check_le(t**2, t, over=(t, 0, 2))
    >>> r.verdict.value, str(r.findings[0].over)
    ('violated', 't in [0, 2]')
    """
    a, b = exact(lhs), exact(rhs)
    if over is not None and not isinstance(over, (Box, dict)) and not hasattr(over, "items"):
        from .ranges import ParameterRange, decide_on_interval

        if where is not None:
            raise InvalidParameter(
                "premises (where=) restrict a box: give over as {symbol: (lo, hi)}, not a range"
            )
        rng = ParameterRange.of(over)
        assert rng is not None
        r = decide_on_interval(a, b, rng.symbol, rng.lo, rng.hi, precision=precision)
        f = Finding(
            r.verdict,
            output,
            pair,
            a,
            b,
            a,
            b,
            tight=r.identically_equal,
            note=note,
            failing=tuple(r.failing),
            over=rng,
        )
        return CheckResult(title or f"{a} <= {b} for {rng}", r.verdict, [f], quantity=quantity)
    if over is not None:
        d = decide_on_box(a, b, over, budget, where=where)
        f = Finding(
            d.verdict,
            output,
            pair,
            a,
            b,
            a,
            b,
            tight=d.identically_equal,
            note=note,
            failing=d.failing,
            region=d,
            over=d.box,
        )
        notes = []
        if d.premises:
            given = ", ".join(str(p) for p in _premise_texts(where))
            if d.vacuous:
                notes.append(
                    f"premises {given}: vacuous, no point of the box satisfies them (the "
                    f"inequality holds there only because the region is empty)"
                )
            else:
                notes.append(
                    f"premises {given} (as {' and '.join(d.premises)}): "
                    f"{float(d.outside_fraction):.3g} of the box outside, "
                    f"{float(d.decided_fraction):.3g} decided, "
                    f"{float(d.undecided_fraction):.3g} undecided"
                    + ("" if d.region_nonempty else "; no point of the region was found")
                )
        return CheckResult(
            title or f"{a} <= {b} on {d.box}" + (f" where {given}" if d.premises else ""),
            d.verdict,
            [f],
            quantity=quantity,
            notes=notes,
            vacuous=bool(d.premises and d.vacuous),
        )
    if where is not None:
        raise InvalidParameter("premises (where=) restrict a box: give one with over=")
    c = decide_le(a, b, precision)
    f = _finding(c.verdict, a, b, c.tight, note, output, pair)
    return CheckResult(title or f"{a} <= {b}", c.verdict, [f], quantity=quantity)


def _premise_texts(where: Any) -> list[Any]:
    if where is None:
        return []
    if isinstance(where, (sp.Basic, str)) or not hasattr(where, "__iter__"):
        return [where]
    return list(where)


def identically_zero(expr: Any) -> bool:
    """A fast *sound* proof that ``expr == 0``: every ``exp(a)`` with rational ``a`` is
    written ``w^{a·L}`` for one positive symbol ``w`` (``L`` the common denominator),
    other transcendental atoms become independent symbols, and the result is
    cancelled as a rational function.  ``True`` is a proof; ``False`` only means this
    route found none (the value may still be zero).

    >>> e = sp.exp(sp.Rational(1, 2))
    >>> identically_zero(e / (1 + e) + 1 / (1 + e) - 1)
    True
    """
    x = exact(expr)
    if x.is_Rational:
        return bool(x == 0)
    exps = [a for a in x.atoms(sp.exp) if a.args[0].is_Rational]
    subs: dict[sp.Expr, sp.Expr] = {}
    if exps:
        L = sp.ilcm(*[int(a.args[0].q) for a in exps]) if len(exps) > 1 else int(exps[0].args[0].q)
        w = sp.Dummy("w", positive=True)
        for a in exps:
            subs[a] = w ** int(a.args[0] * L)
    for a in x.atoms(sp.exp, sp.log, sp.Pow):
        if a in subs or (isinstance(a, sp.Pow) and a.exp.is_Integer):
            continue
        if isinstance(a, sp.exp) and a.args[0].is_Rational:
            continue
        if not a.free_symbols:
            subs[a] = _atom_symbol(a)
    y = x.xreplace(subs)
    zero = _zero_in_fraction_field(y)
    if zero is not None:
        return zero
    try:
        return bool(sp.cancel(y) == 0)
    except (sp.PolynomialError, TypeError, ValueError):  # pragma: no cover
        return False


def _zero_in_fraction_field(y: sp.Expr) -> bool | None:
    """Whether ``y`` is 0 as a rational function over QQ in its free symbols
    (:func:`~verifier.arithmetic.exact.fraction_field`), or ``None`` when ``y`` is not
    one (another constant, a function of a symbol, a divisor that vanishes)."""
    field = fraction_field([y])
    if field is None:
        return None
    try:
        return bool(field.from_sympy(y) == field.zero)
    except (BasePolynomialError, ValueError, TypeError, ZeroDivisionError):
        return None


def _atom_symbol(a: sp.Expr) -> sp.Dummy:
    """A symbol standing for the constant ``a`` in :func:`identically_zero`, with only
    the assumptions ``a`` certainly satisfies (a positive symbol for ``log(2/3)``
    would turn ``Min(log(2/3), 0)`` into 0): positive for ``exp`` of a real number
    and for a power of a positive rational, the exact sign of ``log(r)`` for a
    rational ``r``, else real when sympy infers it, else none."""
    if isinstance(a, sp.exp) and a.args[0].is_extended_real:
        return sp.Dummy(positive=True)
    if a.is_Pow and a.base.is_Rational and a.base > 0 and a.exp.is_extended_real:
        return sp.Dummy(positive=True)
    if isinstance(a, sp.log) and len(a.args) == 1 and a.args[0].is_Rational and a.args[0] > 0:
        return sp.Dummy(positive=True) if a.args[0] > 1 else sp.Dummy(negative=True)
    if a.is_extended_real:
        return sp.Dummy(real=True)
    return sp.Dummy()


def check_eq(
    lhs: Any,
    rhs: Any,
    title: str | None = None,
    *,
    note: str = "",
    output: Hashable | None = None,
    pair: tuple[Hashable, Hashable] | None = None,
    precision: Precision = DEFAULT_PRECISION,
) -> CheckResult:
    """The identity ``lhs == rhs`` (holds only on an exact proof of equality).

    A proved identity is recorded as a note, not as a finding, so that it does not
    mask the slacks of the inequalities it is combined with (its slack is 0 by
    definition); a refuted or undecided identity is a finding.
    """
    a, b = exact(lhs), exact(rhs)
    v = Verdict.HOLDS if (a == b or identically_zero(a - b)) else decide_eq(a, b, precision)
    t = title or f"{a} == {b}"
    if v is Verdict.HOLDS:
        return CheckResult(
            t,
            v,
            [],
            quantity="value",
            notes=[f"identity proved exactly: {t}"],
            # the symbols of both sides (a structurally equal pair has no symbols in a - b)
            identity_in=tuple(sorted(str(x) for x in a.free_symbols | b.free_symbols)),
        )
    f = Finding(v, output, pair, a, b, a, b, note=note, equality=True)
    return CheckResult(t, v, [f], quantity="value")


def check_all_le(
    title: str,
    rows: Iterable[tuple[Hashable, Fraction | int, Fraction | int]],
    *,
    quantity: str = "lhs",
    keep: int = 5,
) -> CheckResult:
    """Every ``lhs <= rhs`` of ``rows`` (``(label, lhs, rhs)`` with rational sides),
    decided exactly in :class:`fractions.Fraction` arithmetic.

    The result keeps the violated rows (at most ``keep``) and the row of least slack
    as findings (``output`` = the row's label) and notes how many rows were decided.

    >>> r = check_all_le("x^2 <= x on [0, 1]", [(x, Fraction(x, 4) ** 2, Fraction(x, 4)) for x in range(5)])
    >>> r.verdict.value, r.notes[0]
    ('holds', '5 inequalities decided in exact rational arithmetic')
    >>> check_all_le("x <= 1/2", [("a", Fraction(3, 4), Fraction(1, 2))]).verdict.value
    'violated'
    """
    n = 0
    worst: tuple[Hashable, Fraction, Fraction] | None = None
    bad: list[tuple[Hashable, Fraction, Fraction]] = []
    for label, lhs, rhs in rows:
        a, b = Fraction(lhs), Fraction(rhs)
        n += 1
        if b < a and len(bad) < keep:
            bad.append((label, a, b))
        if worst is None or b - a < worst[2] - worst[1]:
            worst = (label, a, b)
    if n == 0:
        raise InvalidParameter(f"{title}: no inequality to decide")
    assert worst is not None
    picked = list(bad)
    if worst not in picked:
        picked.append(worst)
    findings = []
    for label, a, b in picked:
        v = Verdict.HOLDS if a <= b else Verdict.VIOLATED
        x, y = sp.Rational(a.numerator, a.denominator), sp.Rational(b.numerator, b.denominator)
        findings.append(Finding(v, label, None, x, y, x, y, tight=a == b))
    verdict = Verdict.VIOLATED if bad or worst[1] > worst[2] else Verdict.HOLDS
    return CheckResult(
        title,
        verdict,
        findings,
        quantity=quantity,
        notes=[f"{n} inequalities decided in exact rational arithmetic"],
    )
