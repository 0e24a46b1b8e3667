"""Decide an inequality for *every* value of a parameter in a closed interval.

The question answered here is: does ``lhs(s) <= rhs(s)`` hold for all ``s`` in
``[a, b]``?  Typical inputs are output probabilities of a mechanism written in the
privacy parameter ``eps`` (``exp(-eps)/(1 + exp(-eps))``, ``exp(2*eps)*(1 -
exp(-eps))**3``, ...), and the inequality is one of the ``P(o) <= exp(eps) P'(o)``
constraints of differential privacy.

Two methods, tried in this order:

``"polynomial"`` (exact)
    The substitution ``w = exp((s - shift)/L)`` (``L`` the lcm of the denominators
    of the rational coefficients of ``s`` in the exponents, ``shift`` a constant
    absorbing constant shifts such as ``exp(s + 1)``) turns ``rhs - lhs`` into
    ``K * N(w)/D(w)`` with ``N, D`` polynomials over the rationals and ``K`` a
    constant of known sign.  When ``rhs - lhs`` is already a rational function of
    ``s`` with rational coefficients, ``w = s`` is used directly.  The real roots of
    ``N`` and ``D`` are isolated exactly (sympy's real root isolation), placed
    relative to the endpoints with certified arithmetic (exact zero tests when an
    endpoint is a root), and the sign between consecutive roots is evaluated
    exactly at a rational point.  Nothing is approximated: the failing set, the
    equality points and the verdict are proved.

``"bisection"`` (certified intervals)
    For anything else (``log(1 + eps)``, ``2**eps``, a mix of ``eps`` and
    ``exp(eps)``, ...) the interval is bisected at rational points and ``rhs - lhs``
    is enclosed over every piece with interval arithmetic (mpmath intervals).  A piece
    whose enclosure is ``>= 0`` is proved, a piece whose enclosure is ``< 0`` is a
    proved failure.  Interval arithmetic can never prove that a bound is attained
    *with equality*: an inequality that is tight at some point of ``[a, b]`` (such as
    ``log(1 + eps) <= eps`` at ``eps = 0``) comes out ``UNDECIDED`` under bisection.

Examples
--------
>>> import sympy as sp
>>> eps = sp.Symbol("eps")
>>> p, q = sp.exp(eps) / (1 + sp.exp(eps)), 1 / (1 + sp.exp(eps))
>>> d = decide_on_interval(p, sp.exp(eps) * q, eps, 0, 5)
>>> d.verdict, d.identically_equal, d.method
(<Verdict.HOLDS: 'holds'>, True, 'polynomial')
>>> d = decide_on_interval(sp.exp(-eps), sp.Rational(1, 2), eps, 0, 2)
>>> d.verdict, d.failing[0].lo, d.failing[0].hi, d.equality_points
(<Verdict.VIOLATED: 'violated'>, 0, log(2), (log(2),))
"""

from __future__ import annotations

import dataclasses
import functools
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import mpmath
import sympy as sp
from mpmath.libmp import from_rational, round_ceiling, round_floor

from ..arithmetic.exact import (
    DEFAULT_PRECISION,
    Enclosure,
    Precision,
    Sign,
    Verdict,
    _NeedMorePrecision,
    _to_iv,
    combine_verdicts,
    decide_le,
    decide_sign,
    exact,
    is_exactly_zero,
)
from ..arithmetic.precision import interval_context
from ..errors import InvalidParameter, UnsupportedExpression

__all__ = [
    "ParameterRange",
    "check_interval_assumptions",
    "SubInterval",
    "IntervalDecision",
    "decide_on_interval",
    "decide_all_on_interval",
    "BISECTION_MAX_DEPTH",
]

#: Bisection never splits deeper than this (at most ``2**BISECTION_MAX_DEPTH`` leaves).
BISECTION_MAX_DEPTH = 12
#: Undecided bisection leaves whose midpoint is tested for a violation, at most.
_POINT_CHECKS = 32


# ---------------------------------------------------------------------------
# results
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class ParameterRange:
    """``symbol`` ranging over the closed interval ``[lo, hi]``."""

    symbol: sp.Symbol
    lo: sp.Expr
    hi: sp.Expr

    @classmethod
    def of(cls, over: Any) -> ParameterRange | None:
        if over is None or isinstance(over, ParameterRange):
            return over
        try:
            s, a, b = over
        except (TypeError, ValueError):
            raise InvalidParameter("over= must be (symbol, lo, hi)") from None
        if isinstance(s, str):
            s = sp.Symbol(s)
        return cls(s, exact(a), exact(b))

    def __str__(self) -> str:
        return f"{self.symbol} in [{self.lo}, {self.hi}]"


@dataclass(frozen=True)
class SubInterval:
    """A part of ``[a, b]`` on which the inequality fails.

    Attributes
    ----------
    lo, hi : sympy.Expr
        Exact endpoints: ``a`` or ``b`` themselves, rationals, or exact algebraic /
        logarithmic expressions such as ``log(2)`` or ``3*log(CRootOf(x**3 - x - 1,
        0))``.  ``enclose`` cannot evaluate ``CRootOf``; use the enclosures.
    lo_enclosure, hi_enclosure : Enclosure
        Certified bounds of ``lo`` and ``hi``.
    witness : sympy.Expr or None
        An exact point strictly inside (a rational when one could be certified) at
        which ``lhs > rhs``; for a single-point interval the point itself.
    lo_included, hi_included : bool
        Whether the endpoint itself fails (``False`` at an equality point or a pole,
        ``True`` at ``a``/``b`` when the inequality fails there).

    Examples
    --------
    >>> eps = sp.Symbol("eps")
    >>> piece = decide_on_interval(sp.exp(-eps), sp.Rational(1, 2), eps, 0, 2).failing[0]
    >>> str(piece), piece.witness
    ('[0, log(2))', 1/2)
    """

    lo: sp.Expr
    hi: sp.Expr
    lo_enclosure: Enclosure
    hi_enclosure: Enclosure
    witness: sp.Expr | None
    lo_included: bool = True
    hi_included: bool = True

    def rational_points(self) -> list[sp.Rational]:
        """Rational points of the piece, best first: its witness when it is rational,
        then the simplest rational strictly between the certified enclosures of its
        ends (the point itself for a single rational point).  Candidates only: whether
        the inequality fails at one is for the caller to decide exactly.

        >>> eps = sp.Symbol("eps")
        >>> piece = decide_on_interval(sp.exp(-eps), sp.Rational(1, 2), eps, 0, 2).failing[0]
        >>> piece.rational_points()
        [1/2]
        """
        out: list[sp.Rational] = []
        if self.witness is not None and self.witness.is_Rational:
            out.append(self.witness)
        if self.lo == self.hi and self.lo.is_Rational:
            cand: sp.Rational | None = self.lo
        else:
            lo, hi = self.lo_enclosure.bounds()[1], self.hi_enclosure.bounds()[0]
            cand = _rat(_simplest_between(lo, hi)) if lo < hi else None
        if cand is not None and cand not in out:
            out.append(cand)
        return out

    def __str__(self) -> str:
        left = "[" if self.lo_included else "("
        right = "]" if self.hi_included else ")"
        return f"{left}{self.lo}, {self.hi}{right}"


@dataclass(frozen=True)
class IntervalDecision:
    """Outcome of deciding ``lhs(s) <= rhs(s)`` for every ``s`` in ``[a, b]``.

    Attributes
    ----------
    verdict : Verdict
        ``HOLDS``: proved for every ``s``; ``VIOLATED``: proved to fail for some
        ``s`` (see ``failing``); ``UNDECIDED``: neither could be proved.
    failing : tuple of SubInterval
        Sub-intervals where ``lhs > rhs``.  With the polynomial method these are
        exactly the maximal ones; with bisection they are unions of pieces proved to
        fail (inner approximations).
    equality_points : tuple of sympy.Expr
        Points of ``[a, b]`` where ``lhs == rhs`` exactly, in increasing order
        (polynomial method only; empty when ``identically_equal``).
    identically_equal : bool
        ``rhs - lhs`` is identically zero on the interval.
    method : str
        ``"polynomial"``, ``"bisection"``, ``"point"`` (``a == b``) or, for a
        combination of several inequalities decided differently, ``"mixed"``.
    note : str
        Why a result is ``UNDECIDED`` (a pole, an endpoint that could not be
        separated from a root, pieces bisection could not decide), else empty.

    Examples
    --------
    >>> eps = sp.Symbol("eps")
    >>> decide_on_interval(eps**2, eps, eps, 0, 1).equality_points
    (0, 1)
    """

    verdict: Verdict
    failing: tuple[SubInterval, ...] = ()
    equality_points: tuple[sp.Expr, ...] = ()
    identically_equal: bool = False
    method: str = "polynomial"
    note: str = ""


# ---------------------------------------------------------------------------
# exact <-> certified helpers
# ---------------------------------------------------------------------------


class _Unresolved(Exception):
    """Internal: an enclosure could not be computed on a piece (domain, precision)."""


def _raw_to_fraction(raw: Any) -> Fraction:
    sign, man, exp, _ = raw
    if not man:
        if exp:  # inf / nan
            raise _Unresolved
        return Fraction(0)
    v = Fraction(int(man)) * 2**exp if exp >= 0 else Fraction(int(man), 2 ** (-exp))
    return -v if sign else v


def _iv_bounds(x: Any) -> tuple[Fraction, Fraction]:
    lo, hi = x._mpi_
    return _raw_to_fraction(lo), _raw_to_fraction(hi)


def _iv_from_bounds(lo: Fraction, hi: Fraction, ctx: Any) -> Any:
    """An interval of the context ``ctx`` containing ``[lo, hi]`` at its precision."""
    p = ctx.prec
    a = from_rational(lo.numerator, lo.denominator, p, round_floor)
    b = from_rational(hi.numerator, hi.denominator, p, round_ceiling)
    return ctx.make_mpf((a, b))


def _enclosure(lo: Fraction, hi: Fraction, bits: int) -> Enclosure:
    """An :class:`Enclosure` containing ``[lo, hi]`` (outward rounding)."""
    p = max(int(bits), 53)
    a = from_rational(lo.numerator, lo.denominator, p, round_floor)
    b = from_rational(hi.numerator, hi.denominator, p, round_ceiling)
    return Enclosure(mpmath.mpf(a, prec=p), mpmath.mpf(b, prec=p), p)


def _const_bounds(expr: sp.Expr, bits: int) -> tuple[Fraction, Fraction] | None:
    """Certified rational bounds of a constant expression, or ``None``.

    (Built directly on ``_to_iv``: the endpoints must keep all ``bits`` bits.)
    """
    if expr.is_Rational:
        r = Fraction(int(expr.p), int(expr.q))
        return r, r
    with interval_context(bits) as ctx:
        try:
            return _iv_bounds(_to_iv(expr, ctx))
        except (_NeedMorePrecision, _Unresolved):
            return None


def _point_enclosure(expr: sp.Expr, precision: Precision = DEFAULT_PRECISION) -> Enclosure:
    for bits in precision.schedule():
        b = _const_bounds(expr, bits)
        if b is not None:
            return _enclosure(b[0], b[1], bits)
    raise UnsupportedExpression(f"cannot enclose {expr}")


def _rat(x: Fraction) -> sp.Rational:
    return sp.Rational(x.numerator, x.denominator)


def _frac(x: sp.Expr) -> Fraction:
    return Fraction(int(x.p), int(x.q))


def _simplest_between(lo: Fraction, hi: Fraction) -> Fraction:
    """The rational with the smallest denominator in the open interval ``(lo, hi)``.

    >>> _simplest_between(Fraction(0), Fraction(693, 1000))
    Fraction(1, 2)
    """
    if not lo < hi:
        raise ValueError("empty interval")
    if lo < 0 < hi:
        return Fraction(0)
    if hi <= 0:
        return -_simplest_between(-hi, -lo)
    fl = lo.numerator // lo.denominator
    if fl + 1 < hi:
        return Fraction(fl + 1)
    if lo == fl:
        n = math.floor(1 / (hi - fl)) + 1
        return fl + Fraction(1, n)
    return fl + 1 / _simplest_between(1 / (hi - fl), 1 / (lo - fl))


# ---------------------------------------------------------------------------
# input validation
# ---------------------------------------------------------------------------


def _exact_named(x: Any, name: str) -> sp.Expr:
    """``exact(x)``, its error naming ``name``."""
    try:
        return exact(x)
    except InvalidParameter as err:
        raise InvalidParameter(f"{name}: {err}") from None


def _check_endpoint(x: Any, name: str) -> sp.Expr:
    e = _exact_named(x, f"endpoint {name}")
    if e.free_symbols:
        raise InvalidParameter(
            f"endpoint {name} = {e} must be a constant, but it contains "
            f"{', '.join(sorted(map(str, e.free_symbols)))}"
        )
    if e.has(sp.oo, -sp.oo, sp.zoo, sp.nan) or e.is_finite is False:
        raise InvalidParameter(f"endpoint {name} = {e} is not finite; the interval is closed")
    if e.is_real is False:
        raise InvalidParameter(f"endpoint {name} = {e} is not a real number")
    try:
        _point_enclosure(e)
    except UnsupportedExpression as err:
        raise InvalidParameter(f"endpoint {name} = {e} cannot be evaluated: {err}") from None
    return e


@functools.lru_cache(maxsize=4096)
def _symbols_besides(e: sp.Expr, symbol: sp.Symbol) -> frozenset[sp.Symbol]:
    """The free symbols of ``e`` but ``symbol`` (cached: a side is checked against
    every neighbour of its dataset, and the walk of a large side is costly)."""
    return frozenset(e.free_symbols - {symbol})


def _check_side(x: Any, name: str, symbol: sp.Symbol) -> sp.Expr:
    e = _exact_named(x, name)
    extra = _symbols_besides(e, symbol)
    if extra:
        raise InvalidParameter(
            f"{name} = {e} may only depend on {symbol}, but it also contains "
            f"{', '.join(sorted(map(str, extra)))}; substitute values for them first"
        )
    return e


def check_interval_assumptions(symbol: sp.Symbol, a: sp.Expr, b: sp.Expr, what: str) -> None:
    """Refuse an interval ``[a, b]`` that leaves what ``symbol`` is declared to be
    (``positive``: ``a > 0``; ``nonnegative``: ``a >= 0``; ``negative``,
    ``nonpositive`` likewise at ``b``; ``nonzero``: 0 outside; ``integer``: a single
    integer, since the interval is decided at every real point).  An expression built
    with an assumption may have been simplified with it (``Abs(x)`` is ``x`` for a
    positive ``x``), so deciding it outside would decide another function.

    >>> check_interval_assumptions(sp.Symbol("t", positive=True), sp.Integer(0), sp.Integer(1), "symbol t")
    Traceback (most recent call last):
    ...
    verifier.errors.InvalidParameter: symbol t is declared positive, but its range [0, 1] reaches 0
    """

    def sign(x: sp.Expr) -> Sign:
        return Sign.ZERO if x == 0 else decide_sign(x).sign

    span = f"[{a}, {b}]"
    if symbol.is_real is False or symbol.is_extended_real is False:
        raise InvalidParameter(f"{what} is declared non-real; the parameter of a range is real")
    sa, sb = sign(a), sign(b)
    if symbol.is_positive and sa is not Sign.POSITIVE:
        raise InvalidParameter(f"{what} is declared positive, but its range {span} reaches {a}")
    if symbol.is_nonnegative and sa not in (Sign.POSITIVE, Sign.ZERO):
        raise InvalidParameter(f"{what} is declared nonnegative, but its range {span} reaches {a}")
    if symbol.is_negative and sb is not Sign.NEGATIVE:
        raise InvalidParameter(f"{what} is declared negative, but its range {span} reaches {b}")
    if symbol.is_nonpositive and sb not in (Sign.NEGATIVE, Sign.ZERO):
        raise InvalidParameter(f"{what} is declared nonpositive, but its range {span} reaches {b}")
    if (
        symbol.is_zero is False
        and not (symbol.is_positive or symbol.is_negative)
        and not (sa is Sign.POSITIVE or sb is Sign.NEGATIVE)
    ):
        raise InvalidParameter(f"{what} is declared nonzero, but its range {span} may contain 0")
    if symbol.is_integer and not (a.is_Integer and b.is_Integer and a == b):
        raise InvalidParameter(
            f"{what} is declared integer, but its range {span} is decided at every real "
            f"point; decide each integer value on its own"
        )


def _validate(
    lhs: Any, rhs: Any, symbol: Any, a: Any, b: Any
) -> tuple[sp.Expr, sp.Expr, sp.Expr, sp.Expr, bool]:
    """Checked inputs and whether the interval is a single point."""
    if not isinstance(symbol, sp.Symbol):
        raise InvalidParameter(f"the parameter must be a sympy Symbol, got {symbol!r}")
    lhs_e = _check_side(lhs, "lhs", symbol)
    rhs_e = _check_side(rhs, "rhs", symbol)
    try:
        hash((a, b))
    except TypeError:  # not hashable: checked without the cache (it names the problem)
        return (lhs_e, rhs_e, *_checked_interval.__wrapped__(symbol, a, b))
    return (lhs_e, rhs_e, *_checked_interval(symbol, a, b))


@functools.lru_cache(maxsize=1024, typed=True)  # typed: 1 and 1.0 are not one endpoint
def _checked_interval(symbol: sp.Symbol, a: Any, b: Any) -> tuple[sp.Expr, sp.Expr, bool]:
    """The checked endpoints of ``[a, b]`` and whether it is a single point (cached: a
    check of every output and pair of a mechanism decides many inequalities on one
    interval; a refusal is raised again on every call)."""
    a_e = _check_endpoint(a, "a")
    b_e = _check_endpoint(b, "b")
    s = decide_sign(b_e - a_e)
    if s.sign is Sign.NEGATIVE:
        raise InvalidParameter(f"empty interval: a = {a_e} > b = {b_e}")
    if s.sign is Sign.UNDECIDED:
        raise InvalidParameter(f"cannot certify a = {a_e} <= b = {b_e}")
    check_interval_assumptions(symbol, a_e, b_e, f"the parameter {symbol}")
    return a_e, b_e, s.sign is Sign.ZERO


# ---------------------------------------------------------------------------
# the rewrite to a rational function with rational coefficients
# ---------------------------------------------------------------------------

_W = sp.Dummy("w", positive=True)
_X = sp.Symbol("x")  # display variable of CRootOf polynomials


@dataclass(frozen=True)
class _Rewrite:
    """``rhs - lhs == factor_sign * |K| * num(w)/den(w)`` with ``w = exp((s-shift)/L)``
    (``exponential``) or ``w = s``."""

    num: sp.Poly
    den: sp.Poly
    factor_sign: int
    exponential: bool
    L: int = 1
    shift: sp.Expr = sp.Integer(0)
    #: ``num/den`` as an element of :data:`_QQ_W` when ``|K| = 1`` (the rewrite of a
    #: rational function with rational coefficients), else ``None``: two such rewrites
    #: in one ``w`` subtract in the field (:func:`_difference_rewrite`)
    fraction: Any = field(default=None, compare=False)

    def w_of(self, s: sp.Expr) -> sp.Expr:
        if not self.exponential:
            return s
        return sp.exp((s - self.shift) / self.L)

    def s_of(self, w: sp.Expr) -> sp.Expr:
        if not self.exponential:
            return w
        return sp.expand_log(self.shift + self.L * sp.log(w), force=True)

    def s_bounds(self, lo: Fraction, hi: Fraction, bits: int) -> tuple[Fraction, Fraction]:
        """Certified bounds of ``s`` for ``w`` in ``[lo, hi]`` (``0 < lo``)."""
        if not self.exponential:
            return lo, hi
        with interval_context(bits) as ctx:
            x = _to_iv(self.shift, ctx) + ctx.mpf(self.L) * ctx.log(_iv_from_bounds(lo, hi, ctx))
            return _iv_bounds(x)


def _qq_poly(expr: sp.Expr) -> tuple[sp.Poly, sp.Expr] | None:
    """``expr == c * P(w)`` with ``P`` over QQ (leading coefficient 1 unless rational)."""
    try:
        p = sp.Poly(expr, _W)
    except (sp.PolynomialError, sp.GeneratorsNeeded, ValueError, TypeError):
        return None
    if p.is_zero:
        return sp.Poly(0, _W, domain=sp.QQ), sp.Integer(1)
    try:
        return p.set_domain(sp.QQ), sp.Integer(1)
    except (sp.polys.polyerrors.CoercionFailed, sp.polys.polyerrors.DomainError):
        pass
    lead = p.LC()
    if decide_sign(lead).sign not in (Sign.POSITIVE, Sign.NEGATIVE):
        return None
    coeffs = []
    for c in p.all_coeffs():
        r = sp.simplify(c / lead) if c != 0 else sp.Integer(0)
        if not r.is_Rational:
            return None
        coeffs.append(r)
    return sp.Poly(coeffs, _W, domain=sp.QQ), lead


#: The rational functions of ``w`` over QQ (sympy's sparse field: canonical, reduced).
_QQ_W = sp.QQ.frac_field(_W)


def _qq_fraction(expr: sp.Expr) -> Any:
    """``expr`` as an element of :data:`_QQ_W` (``num(w)/den(w)`` with ``num`` and
    ``den`` coprime polynomials over QQ), or ``None`` when a coefficient is not
    rational (``exp(1/3) w``) or ``expr`` is not a rational function of ``w``.
    Converts into sympy's field of rational functions, several times faster than
    ``together`` then ``Poly`` of both parts."""
    try:
        return _QQ_W.from_sympy(expr)
    except (ValueError, TypeError, sp.polys.polyerrors.PolynomialError):
        return None


def _fraction_rewrite(f: Any, exponential: bool, L: int, shift: sp.Expr) -> _Rewrite:
    """The rewrite ``num(w)/den(w)`` of an element ``f`` of :data:`_QQ_W` (``|K| = 1``)."""
    num = sp.Poly.from_dict(dict(f.numer.terms()) or {(0,): 0}, _W, domain=sp.QQ)
    if num.is_zero:
        return _Rewrite(num, sp.Poly(1, _W, domain=sp.QQ), 0, exponential, L, shift, f)
    den = sp.Poly.from_dict(dict(f.denom.terms()), _W, domain=sp.QQ)
    return _Rewrite(num, den, 1, exponential, L, shift, f)


def _to_rewrite(
    diff: sp.Expr, var: sp.Expr, exponential: bool, L: int, shift: sp.Expr
) -> _Rewrite | None:
    if not diff.is_rational_function(var):
        return None
    fast = _qq_fraction(diff if var == _W else diff.xreplace({var: _W}))
    if fast is not None:
        return _fraction_rewrite(fast, exponential, L, shift)
    # coefficients that are not rational (``exp(1/3)``): a common factor may be one
    num, den = sp.fraction(sp.together(diff))
    pn = _qq_poly(num.subs(var, _W) if var != _W else num)
    pd = _qq_poly(den.subs(var, _W) if var != _W else den)
    if pn is None or pd is None:
        return None
    (n, cn), (d, cd) = pn, pd
    if d.is_zero:
        return None
    if n.is_zero:
        return _Rewrite(n, sp.Poly(1, _W, domain=sp.QQ), 0, exponential, L, shift)
    g = n.gcd(d)
    n, d = n.quo(g), d.quo(g)
    k = sp.Integer(1) if (cn == 1 and cd == 1) else cn / cd
    ks = decide_sign(k).sign
    if ks not in (Sign.POSITIVE, Sign.NEGATIVE):
        return None
    return _Rewrite(n, d, 1 if ks is Sign.POSITIVE else -1, exponential, L, shift)


@functools.lru_cache(maxsize=4096)
def _rewrite(diff: sp.Expr, symbol: sp.Symbol) -> _Rewrite | None:
    """Try to write ``diff`` as a rational function of ``w`` over QQ (see module doc).
    Cached (the rewrite is immutable): a side shared by many decisions, such as one
    output's probability on one dataset against every neighbour, is rewritten once
    for the test of its poles."""
    if symbol.is_real:
        t, e = symbol, diff  # already real: nothing to substitute (a rebuild is costly)
    else:
        t = sp.Dummy("t", real=True)
        e = diff.xreplace({symbol: t})
    exps = [x for x in e.atoms(sp.exp) if x.has(t)]
    if not exps:
        # w = s itself (t is real; a simplification by a stronger assumption of the
        # symbol, sqrt(s**2) -> s for a positive s, holds on the whole interval, which
        # check_interval_assumptions keeps within the declared sign)
        return _to_rewrite(e, t, False, 1, sp.Integer(0))
    plan = _linear_exponents(exps, t)
    if plan is None:
        return None
    linear, L = plan
    shifts: list[sp.Expr] = [sp.Integer(0)]
    for _, c, r in linear:
        cand = sp.expand(-r / c)
        if cand not in shifts:
            shifts.append(cand)
    for shift in shifts:
        # exp(c*t + r) = exp(r + c*shift) * w**(c*L) with w = exp((t - shift)/L)
        repl = {x: sp.exp(sp.expand(r + c * shift)) * _W ** int(c * L) for x, c, r in linear}
        ew = e.xreplace(repl)
        if ew.has(t):
            return None
        rw = _to_rewrite(ew, _W, True, L, shift)
        if rw is not None:
            return rw
    return None


def _linear_exponents(
    exps: Iterable[sp.Expr], t: sp.Expr
) -> tuple[list[tuple[sp.Expr, sp.Rational, sp.Expr]], int] | None:
    """Each ``exp(c t + r)`` of ``exps`` as ``(x, c, r)`` with ``c`` a non-zero
    rational, and ``L``, the least common denominator of the ``c`` (``w = e^{t/L}``
    makes every ``e^{c t}`` an integer power of ``w``); ``None`` when an exponent is
    not of that form."""
    linear: list[tuple[sp.Expr, sp.Rational, sp.Expr]] = []
    for x in exps:
        arg = sp.expand(x.args[0])
        c = sp.diff(arg, t)
        if c.has(t) or not c.is_Rational or c == 0:
            return None
        linear.append((x, c, sp.expand(arg - c * t)))
    L = 1
    for _, c, _ in linear:
        L = L * int(c.q) // math.gcd(L, int(c.q))
    return linear, L


def _difference_rewrite(
    lhs: sp.Expr, rhs: sp.Expr, diff: sp.Expr, symbol: sp.Symbol
) -> _Rewrite | None:
    """:func:`_rewrite` of ``diff = rhs - lhs`` from the cached rewrites of its two sides,
    subtracted in :data:`_QQ_W`, when that gives the very rewrite of ``diff``: both
    sides rational functions with rational coefficients (``|K| = 1``) of the ``w``
    that ``diff``'s own rewrite takes first (``w = s``, or ``w = e^{s/L}`` with the
    ``L`` of ``diff``'s exponentials and no shift) or rational constants; else
    ``None``.  A side shared by many decisions (one output's probability against
    every neighbour) is converted once, not once per difference."""
    sides = []
    for side in (lhs, rhs):
        rw = _rewrite(side, symbol)
        if rw is None or rw.fraction is None or rw.shift != 0:
            return None
        sides.append((rw, side.has(symbol)))
    exps = [x for x in diff.atoms(sp.exp) if x.has(symbol)]
    if not exps:
        exponential, L = False, 1
    else:
        plan = _linear_exponents(exps, symbol)
        if plan is None:
            return None
        exponential, L = True, plan[1]
    for rw, varies in sides:
        if varies and (rw.exponential != exponential or rw.L != L):
            return None
    (lw, _), (rw_, _) = sides
    return _fraction_rewrite(rw_.fraction - lw.fraction, exponential, L, sp.Integer(0))


# ---------------------------------------------------------------------------
# exact root isolation and location
# ---------------------------------------------------------------------------


@dataclass
class _Root:
    poly: sp.Poly  # square-free, over QQ
    index: int  # among the real roots of poly, increasing
    lo: Fraction
    hi: Fraction
    pole: bool
    pos: dict[str, int] = field(default_factory=dict)  # endpoint name -> -1/0/+1

    def refine(self, bits: int) -> None:
        if self.lo == self.hi or self.hi - self.lo < Fraction(1, 2**bits):
            return
        lo, hi = self.poly.refine_root(
            _rat(self.lo), _rat(self.hi), eps=sp.Rational(1, 2**bits), check_sqf=False
        )
        self.lo, self.hi = _frac(sp.Rational(lo)), _frac(sp.Rational(hi))

    def exact(self) -> sp.Expr:
        if self.lo == self.hi:
            return _rat(self.lo)
        return sp.rootof(self.poly.as_expr().subs(_W, _X), _X, self.index, radicals=True)


def _isolate(p: sp.Poly, pole: bool) -> list[_Root]:
    if p.degree() <= 0:
        return []
    sqf = p.sqf_part()
    return [
        _Root(sqf, i, _frac(sp.Rational(lo)), _frac(sp.Rational(hi)), pole)
        for i, ((lo, hi), _) in enumerate(sqf.intervals())
    ]


@dataclass
class _Endpoint:
    name: str
    s: sp.Expr  # the parameter value (a or b)
    w: sp.Expr  # its image
    lo: Fraction  # running certified bounds of w
    hi: Fraction


def _locate(roots: list[_Root], ep: _Endpoint, precision: Precision) -> bool:
    """Set ``root.pos[ep.name]`` = sign(root - w_ep) for every root; False if stuck."""
    if ep.w.is_Rational:
        e = _frac(ep.w)
        for r in roots:
            if r.poly.eval(ep.w) == 0 and r.lo <= e <= r.hi:
                r.pos[ep.name] = 0
                continue
            bits = precision.start_bits
            while r.lo <= e <= r.hi:
                r.refine(bits)
                bits *= 2
            r.pos[ep.name] = 1 if r.lo > e else -1
        return True
    zero_at: dict[int, bool | None] = {}
    for bits in precision.schedule():
        bnd = _const_bounds(ep.w, bits)
        if bnd is not None:
            ep.lo, ep.hi = max(ep.lo, bnd[0]), min(ep.hi, bnd[1])
        open_roots = [r for r in roots if ep.name not in r.pos]
        if not open_roots:
            return True
        for r in open_roots:
            r.refine(bits)
            if r.hi < ep.lo:
                r.pos[ep.name] = -1
            elif r.lo > ep.hi:
                r.pos[ep.name] = 1
        # an endpoint that is itself a root: the last unresolved root of that poly
        for r in roots:
            if ep.name in r.pos:
                continue
            key = id(r.poly)
            if key not in zero_at:
                zero_at[key] = is_exactly_zero(r.poly.as_expr().subs(_W, ep.w))
            siblings = [q for q in roots if q.poly is r.poly and ep.name not in q.pos]
            if zero_at[key] is True and siblings == [r]:
                r.pos[ep.name] = 0
    return all(ep.name in r.pos for r in roots)


def _separate(inside: list[_Root], precision: Precision) -> bool:
    """Refine the isolating intervals of distinct roots until they are disjoint."""
    inside.sort(key=lambda r: r.lo)
    for bits in precision.schedule():
        clash = False
        for p, q in zip(inside, inside[1:], strict=False):
            if not p.hi < q.lo:
                clash = True
                p.refine(bits)
                q.refine(bits)
        inside.sort(key=lambda r: r.lo)
        if not clash:
            return True
    return all(p.hi < q.lo for p, q in zip(inside, inside[1:], strict=False))


# ---------------------------------------------------------------------------
# witnesses
# ---------------------------------------------------------------------------


def _fails_at(lhs: sp.Expr, rhs: sp.Expr, symbol: sp.Symbol, s: sp.Expr, prec: Precision) -> bool:
    try:
        return decide_le(lhs.subs(symbol, s), rhs.subs(symbol, s), prec).verdict is (
            Verdict.VIOLATED
        )
    except (UnsupportedExpression, InvalidParameter, ZeroDivisionError):
        return False


# ---------------------------------------------------------------------------
# the polynomial method
# ---------------------------------------------------------------------------


def _endpoint(rw: _Rewrite, name: str, s: sp.Expr, precision: Precision) -> _Endpoint | None:
    """The end ``name = s`` of the interval at ``w = w(s)``, with certified rational bounds
    of ``w`` at the first precision of the schedule that encloses it (``None``: none does)."""
    w = rw.w_of(s)
    for bits in precision.schedule():
        bnd = _const_bounds(w, bits)
        if bnd is not None:
            return _Endpoint(name, s, w, bnd[0], bnd[1])
    return None


def _decide_polynomial(
    lhs: sp.Expr,
    rhs: sp.Expr,
    symbol: sp.Symbol,
    a: sp.Expr,
    b: sp.Expr,
    rw: _Rewrite,
    precision: Precision,
) -> IntervalDecision:
    if rw.factor_sign == 0:
        return IntervalDecision(Verdict.HOLDS, identically_equal=True, method="polynomial")
    eps: list[_Endpoint] = []
    for name, s in (("a", a), ("b", b)):
        ep = _endpoint(rw, name, s, precision)
        if ep is None:
            return IntervalDecision(
                Verdict.UNDECIDED, method="polynomial", note=f"cannot enclose {name} = {s}"
            )
        eps.append(ep)
    ea, eb = eps
    roots = _isolate(rw.num, False) + _isolate(rw.den, True)
    for ep in eps:
        if not _locate(roots, ep, precision):
            return IntervalDecision(
                Verdict.UNDECIDED,
                method="polynomial",
                note=f"a root of rhs - lhs could be neither separated from nor proved "
                f"equal to the endpoint {ep.name} = {ep.s}",
            )
    inside = [r for r in roots if r.pos["a"] > 0 and r.pos["b"] < 0]
    at_a = [r for r in roots if r.pos["a"] == 0]
    at_b = [r for r in roots if r.pos["b"] == 0]
    if not _separate(inside, precision):  # pragma: no cover - distinct roots separate
        return IntervalDecision(Verdict.UNDECIDED, method="polynomial", note="roots not separated")
    for r in inside:  # tight enclosures of the reported endpoints
        r.refine(max(precision.start_bits, 64))
    bits = precision.start_bits
    while not ea.hi < eb.lo and bits <= precision.max_bits:
        for ep in eps:
            bnd = _const_bounds(ep.w, bits)
            if bnd is not None:
                ep.lo, ep.hi = max(ep.lo, bnd[0]), min(ep.hi, bnd[1])
        bits *= 2
    if not ea.hi < eb.lo:
        return IntervalDecision(
            Verdict.UNDECIDED, method="polynomial", note="endpoints not separated"
        )

    def sign_at(q: Fraction) -> int:
        v = rw.num.eval(_rat(q)) / rw.den.eval(_rat(q)) * rw.factor_sign
        return 1 if v > 0 else (-1 if v < 0 else 0)

    # breakpoints: (kind, object, lower bound, upper bound) in increasing order
    bps: list[tuple[str, Any, Fraction, Fraction]] = [("a", ea, ea.lo, ea.hi)]
    bps += [("root", r, r.lo, r.hi) for r in inside]
    bps.append(("b", eb, eb.lo, eb.hi))
    poles = [r for r in inside + at_a + at_b if r.pole]
    n_roots_at = {"a": [r for r in at_a if not r.pole], "b": [r for r in at_b if not r.pole]}
    pole_at = {"a": any(r.pole for r in at_a), "b": any(r.pole for r in at_b)}

    def s_end(bp: tuple[str, Any, Fraction, Fraction]) -> tuple[sp.Expr, Enclosure, bool]:
        kind, obj = bp[0], bp[1]
        if kind in ("a", "b"):
            included = not n_roots_at[kind] and not pole_at[kind]
            return obj.s, _point_enclosure(obj.s, precision), included
        lo, hi = rw.s_bounds(obj.lo, obj.hi, max(precision.start_bits, 64))
        return rw.s_of(obj.exact()), _enclosure(lo, hi, max(precision.start_bits, 64)), False

    failing: list[SubInterval] = []
    for left, right in zip(bps, bps[1:], strict=False):
        q = _simplest_between(left[3], right[2])
        if sign_at(q) >= 0:
            continue
        lo, lo_enc, lo_in = s_end(left)
        hi, hi_enc, hi_in = s_end(right)
        witness = _gap_witness(lhs, rhs, symbol, rw, left, right, q, precision)
        failing.append(SubInterval(lo, hi, lo_enc, hi_enc, witness, lo_in, hi_in))
    eq_points: list[sp.Expr] = []
    if n_roots_at["a"]:
        eq_points.append(a)
    eq_points += [rw.s_of(r.exact()) for r in inside if not r.pole]
    if n_roots_at["b"]:
        eq_points.append(b)
    if poles:
        return IntervalDecision(
            Verdict.UNDECIDED,
            tuple(failing),
            tuple(eq_points),
            method="polynomial",
            note="the denominator of rhs - lhs vanishes at "
            + ", ".join(str(rw.s_of(r.exact())) for r in poles)
            + " in the interval (a pole: probabilities have none, so the input is "
            "probably malformed)",
        )
    verdict = Verdict.VIOLATED if failing else Verdict.HOLDS
    return IntervalDecision(verdict, tuple(failing), tuple(eq_points), method="polynomial")


def _gap_witness(
    lhs: sp.Expr,
    rhs: sp.Expr,
    symbol: sp.Symbol,
    rw: _Rewrite,
    left: tuple[str, Any, Fraction, Fraction],
    right: tuple[str, Any, Fraction, Fraction],
    q: Fraction,
    precision: Precision,
) -> sp.Expr:
    """A point strictly inside a failing gap: a certified rational ``s`` if possible,
    else ``s(q)`` for the rational ``w = q`` at which the sign was computed exactly."""
    if not rw.exponential:
        # s = w: the sign at q was computed exactly; confirm on the original formula
        # (it differs only where a cancelled common factor vanishes)
        for cand in (q, _simplest_between(left[3], q), _simplest_between(q, right[2])):
            if _fails_at(lhs, rhs, symbol, _rat(cand), precision):
                return _rat(cand)
        return _rat(q)
    for bits in (64, 128, 256):
        s_lo = rw.s_bounds(left[2], left[3], bits)[1]
        s_hi = rw.s_bounds(right[2], right[3], bits)[0]
        if s_lo < s_hi:
            cand = _rat(_simplest_between(s_lo, s_hi))
            if _fails_at(lhs, rhs, symbol, cand, precision):
                return cand
            break
    return rw.s_of(_rat(q))


# ---------------------------------------------------------------------------
# the bisection method
# ---------------------------------------------------------------------------

_Fn = Callable[[Any], Any]


def _compile(expr: sp.Expr, symbol: sp.Symbol, ctx: Any) -> _Fn:
    """An interval function ``X -> enclosure of expr(X)`` in the interval context
    ``ctx`` (constants are evaluated once, at compile time)."""
    if expr == symbol:
        return lambda x: x
    if not expr.has(symbol):
        try:
            c = _to_iv(expr, ctx)
        except _NeedMorePrecision:
            raise _Unresolved from None
        return lambda x: c
    if expr.is_Add or expr.is_Mul:
        parts = [_compile(t, symbol, ctx) for t in expr.args]
        if expr.is_Add:

            def add(x: Any) -> Any:
                acc = parts[0](x)
                for f in parts[1:]:
                    acc = acc + f(x)
                return acc

            return add

        def mul(x: Any) -> Any:
            acc = parts[0](x)
            for f in parts[1:]:
                acc = acc * f(x)
            return acc

        return mul
    if isinstance(expr, sp.exp) or (expr.is_Pow and expr.args[0] is sp.E):
        g = _compile(expr.args[-1] if isinstance(expr, sp.exp) else expr.args[1], symbol, ctx)
        return lambda x: ctx.exp(g(x))
    if isinstance(expr, sp.log):
        if len(expr.args) != 1:
            raise UnsupportedExpression(f"log with a base in {expr}; write log(x)/log(b)")
        g = _compile(expr.args[0], symbol, ctx)

        def log(x: Any) -> Any:
            y = g(x)
            if _iv_bounds(y)[0] <= 0:
                raise _Unresolved
            return ctx.log(y)

        return log
    if expr.is_Pow:
        base, e = expr.args
        fb = _compile(base, symbol, ctx)
        if e.is_Integer:
            n = int(e)
            if n >= 0:
                return lambda x: fb(x) ** n

            def inv_pow(x: Any) -> Any:
                y = fb(x)
                lo, hi = _iv_bounds(y)
                if lo <= 0 <= hi:
                    raise _Unresolved
                return ctx.mpf(1) / (y ** (-n))

            return inv_pow
        fe = _compile(e, symbol, ctx)
        if e == sp.Rational(1, 2):

            def sqrt(x: Any) -> Any:
                y = fb(x)
                if _iv_bounds(y)[0] < 0:
                    raise _Unresolved
                return ctx.sqrt(y)

            return sqrt

        def gen_pow(x: Any) -> Any:
            y = fb(x)
            if _iv_bounds(y)[0] <= 0:
                raise _Unresolved
            return ctx.exp(fe(x) * ctx.log(y))

        return gen_pow
    if isinstance(expr, (sp.floor, sp.ceiling)):
        # piecewise constant: the integer parts of the ends enclose it (no derivative
        # is used by bisection, so the jumps need no special care)
        inner = _compile(expr.args[0], symbol, ctx)
        rnd = math.floor if isinstance(expr, sp.floor) else math.ceil

        def integer_part(x: Any) -> Any:
            lo, hi = _iv_bounds(inner(x))
            return _iv_from_bounds(Fraction(rnd(lo)), Fraction(rnd(hi)), ctx)

        return integer_part
    if isinstance(expr, (sp.Min, sp.Max, sp.Abs)):
        fs = [_compile(t, symbol, ctx) for t in expr.args]
        kind = type(expr)

        def minmaxabs(x: Any) -> Any:
            bs = [_iv_bounds(f(x)) for f in fs]
            if kind is sp.Min:
                lo, hi = min(t[0] for t in bs), min(t[1] for t in bs)
            elif kind is sp.Max:
                lo, hi = max(t[0] for t in bs), max(t[1] for t in bs)
            else:
                lo, hi = bs[0]
                lo, hi = (
                    (lo, hi)
                    if lo >= 0
                    else ((-hi, -lo) if hi <= 0 else (Fraction(0), max(-lo, hi)))
                )
            return _iv_from_bounds(lo, hi, ctx)

        return minmaxabs
    raise UnsupportedExpression(
        f"cannot evaluate {type(expr).__name__} in '{expr}' with certified interval arithmetic"
    )


def _nonzero_inside(
    f: _Fn | None, lo_b: tuple[Fraction, Fraction], hi_b: tuple[Fraction, Fraction], ctx: Any
) -> bool:
    """Whether the compiled ``f`` is certified nonzero at one rational point strictly
    inside the range with end bounds ``lo_b`` and ``hi_b`` (then ``f`` is not
    identically zero there); ``False`` when that is not shown."""
    if f is None or not lo_b[1] < hi_b[0]:
        return False
    width = hi_b[0] - lo_b[1]
    m = _simplest_between(lo_b[1] + width / 4, hi_b[0] - width / 4)
    try:
        lo_v, hi_v = _iv_bounds(f(_iv_from_bounds(m, m, ctx)))
    except (_Unresolved, _NeedMorePrecision, ZeroDivisionError):
        return False
    return lo_v > 0 or hi_v < 0


@dataclass
class _Leaf:
    lo: sp.Expr
    hi: sp.Expr
    lo_b: tuple[Fraction, Fraction]
    hi_b: tuple[Fraction, Fraction]
    status: int  # +1 proved >= 0, -1 proved < 0, 0 unknown


def _decide_bisection(
    lhs: sp.Expr,
    rhs: sp.Expr,
    symbol: sp.Symbol,
    a: sp.Expr,
    b: sp.Expr,
    precision: Precision,
) -> IntervalDecision:
    diff = rhs - lhs
    bits = max(precision.start_bits, 64)
    with interval_context(bits) as ctx:
        try:
            f: _Fn | None = _compile(diff, symbol, ctx)
        except _Unresolved:
            f = None
        leaves: list[_Leaf] = []

        def bounds(x: sp.Expr) -> tuple[Fraction, Fraction]:
            bnd = _const_bounds(x, bits)
            if bnd is None:  # pragma: no cover - endpoints were enclosed in _validate
                raise _Unresolved
            return bnd

        a_b, b_b = bounds(a), bounds(b)
        # the symbolic zero test (simplification: a tenth of a second and more) only
        # when no point of the range certifies rhs - lhs != 0 there
        if not _nonzero_inside(f, a_b, b_b, ctx) and is_exactly_zero(diff) is True:
            return IntervalDecision(Verdict.HOLDS, identically_equal=True, method="bisection")

        def visit(lo: sp.Expr, hi: sp.Expr, lo_b: tuple, hi_b: tuple, depth: int) -> None:
            status = 0
            if f is not None:
                try:
                    lo_v, hi_v = _iv_bounds(f(_iv_from_bounds(lo_b[0], hi_b[1], ctx)))
                    status = 1 if lo_v >= 0 else (-1 if hi_v < 0 else 0)
                except (_Unresolved, _NeedMorePrecision, ZeroDivisionError):
                    status = 0
            if status != 0 or depth >= BISECTION_MAX_DEPTH or not lo_b[1] < hi_b[0]:
                leaves.append(_Leaf(lo, hi, lo_b, hi_b, status))
                return
            width = hi_b[0] - lo_b[1]
            m = _simplest_between(lo_b[1] + width / 4, hi_b[0] - width / 4)
            mb = (m, m)
            visit(lo, _rat(m), lo_b, mb, depth + 1)
            visit(_rat(m), hi, mb, hi_b, depth + 1)

        visit(a, b, a_b, b_b, 0)

    failing: list[SubInterval] = []
    run: list[_Leaf] = []

    def flush() -> None:
        if not run:
            return
        first, last = run[0], run[-1]
        witness: sp.Expr | None = None
        if first.lo_b[1] < last.hi_b[0]:
            cand = _rat(_simplest_between(first.lo_b[1], last.hi_b[0]))
            if _fails_at(lhs, rhs, symbol, cand, precision):
                witness = cand
        failing.append(
            SubInterval(
                first.lo,
                last.hi,
                _enclosure(*first.lo_b, bits),
                _enclosure(*last.hi_b, bits),
                witness,
            )
        )
        run.clear()

    for leaf in leaves:
        if leaf.status < 0:
            run.append(leaf)
        else:
            flush()
    flush()
    unknown = [leaf for leaf in leaves if leaf.status == 0]
    if not failing and unknown:
        for leaf in unknown[:_POINT_CHECKS]:
            if not leaf.lo_b[1] < leaf.hi_b[0]:
                continue
            q = _rat(_simplest_between(leaf.lo_b[1], leaf.hi_b[0]))
            if _fails_at(lhs, rhs, symbol, q, precision):
                enc = _point_enclosure(q)
                failing.append(SubInterval(q, q, enc, enc, q))
                break
        else:
            # the ends themselves (a jump of floor/ceil may fail there only)
            for end in (a, b):
                if _fails_at(lhs, rhs, symbol, end, precision):
                    enc = _point_enclosure(end, precision)
                    failing.append(SubInterval(end, end, enc, enc, end))
                    break
    if failing:
        note = (
            f"failing pieces are those proved negative; {len(unknown)} pieces stayed "
            f"undecided, so the true failing set may be larger"
            if unknown
            else ""
        )
        return IntervalDecision(Verdict.VIOLATED, tuple(failing), method="bisection", note=note)
    if unknown:
        spots = ", ".join(f"[{leaf.lo}, {leaf.hi}]" for leaf in unknown[:3])
        more = f" and {len(unknown) - 3} more" if len(unknown) > 3 else ""
        return IntervalDecision(
            Verdict.UNDECIDED,
            method="bisection",
            note=f"interval arithmetic could not certify the sign of rhs - lhs on "
            f"{spots}{more} (bisection cannot prove an attained bound: equality at a "
            f"point always comes out undecided)",
        )
    return IntervalDecision(Verdict.HOLDS, method="bisection")


# ---------------------------------------------------------------------------
# public entry points
# ---------------------------------------------------------------------------


def _decide_point(
    lhs: sp.Expr, rhs: sp.Expr, symbol: sp.Symbol, a: sp.Expr, precision: Precision
) -> IntervalDecision:
    try:
        c = decide_le(lhs.subs(symbol, a), rhs.subs(symbol, a), precision)
    except UnsupportedExpression as err:
        return IntervalDecision(
            Verdict.UNDECIDED,
            method="point",
            note=f"lhs or rhs is undefined at {symbol} = {a} ({err})",
        )
    if c.verdict is Verdict.VIOLATED:
        enc = _point_enclosure(a)
        return IntervalDecision(Verdict.VIOLATED, (SubInterval(a, a, enc, enc, a),), method="point")
    eq = (a,) if c.tight else ()
    return IntervalDecision(c.verdict, (), eq, method="point")


@functools.lru_cache(maxsize=4096)
def _decide_cached(
    lhs: sp.Expr,
    rhs: sp.Expr,
    symbol: sp.Symbol,
    a: sp.Expr,
    b: sp.Expr,
    single_point: bool,
    precision: Precision,
) -> IntervalDecision:
    if single_point:
        return _decide_point(lhs, rhs, symbol, a, precision)
    lhs_x, rhs_x = _expand_binomials(lhs), _expand_binomials(rhs)
    diff = rhs_x - lhs_x
    rw = _difference_rewrite(lhs_x, rhs_x, diff, symbol) or _rewrite(diff, symbol)
    if rw is not None:
        d = _decide_polynomial(lhs, rhs, symbol, a, b, rw, precision)
    else:
        d = _decide_bisection(lhs, rhs, symbol, a, b, precision)
    if d.verdict is Verdict.HOLDS:
        # rhs - lhs may have lost a pole of both sides (1/s + 1 <= 1/s + 2): a side
        # undefined somewhere in [a, b] leaves the verdict open there
        problem = _undefined_somewhere(lhs_x, rhs_x, symbol, a, b, precision)
        if problem:
            return dataclasses.replace(d, verdict=Verdict.UNDECIDED, note=problem)
    return d


def _expand_binomials(e: sp.Expr) -> sp.Expr:
    """``binomial(n, k)`` with a constant integer ``0 <= k <= 64`` as the polynomial
    ``n (n-1) ... (n-k+1) / k!`` (sympy's value at every real ``n``)."""

    def expand(n: sp.Expr, k: sp.Expr) -> sp.Expr:
        if k.is_Integer and 0 <= int(k) <= 64:
            return sp.Mul(*[n - j for j in range(int(k))]) / sp.factorial(int(k))
        if k.is_Integer and int(k) < 0:
            return sp.Integer(0)
        return sp.binomial(n, k)

    if not e.has(sp.binomial):
        return e
    return e.replace(
        lambda x: isinstance(x, sp.binomial) and bool(x.free_symbols), lambda x: expand(*x.args)
    )


def _undefined_somewhere(
    lhs: sp.Expr, rhs: sp.Expr, symbol: sp.Symbol, a: sp.Expr, b: sp.Expr, precision: Precision
) -> str:
    """Why ``lhs`` or ``rhs`` may be undefined somewhere in ``[a, b]`` ("": both are
    defined everywhere, removable singularities aside).  A side that is a rational
    function of ``w`` has a pole in ``[a, b]`` exactly when its reduced denominator
    has a root there (exact root isolation); any other side is evaluated with
    certified intervals on at most 256 pieces, each of which must be free of domain
    problems (a logarithm of a number <= 0, a division by an interval around 0)."""
    for name, side in (("lhs", lhs), ("rhs", rhs)):
        if not side.has(symbol):
            continue
        rw = _rewrite(side, symbol)
        if rw is not None:
            if rw.factor_sign == 0 or rw.den.degree() <= 0:
                continue
            roots = _isolate(rw.den, True)
            ends = []
            for end_name, s in (("a", a), ("b", b)):
                ep = _endpoint(rw, end_name, s, precision)
                if ep is None:
                    return f"{name} may have a pole in [{a}, {b}] (the end {s} cannot be enclosed)"
                ends.append(ep)
            if not all(_locate(roots, ep, precision) for ep in ends):
                return f"{name} may have a pole in [{a}, {b}] (a root of its denominator could not be placed)"
            for r in roots:
                if r.pos["a"] >= 0 and r.pos["b"] <= 0:
                    return (
                        f"{name} = {side} has a pole at {symbol} = {rw.s_of(r.exact())} in "
                        f"[{a}, {b}]: it is undefined there"
                    )
            continue
        if not _defined_by_intervals(side, symbol, a, b, precision):
            return (
                f"{name} = {side} may be undefined somewhere in [{a}, {b}] (a pole, or a "
                f"function outside its domain): certified intervals could not exclude it"
            )
    return ""


def _defined_by_intervals(
    side: sp.Expr, symbol: sp.Symbol, a: sp.Expr, b: sp.Expr, precision: Precision
) -> bool:
    bits = max(precision.start_bits, 64)
    lo_b, hi_b = _const_bounds(a, bits), _const_bounds(b, bits)
    if lo_b is None or hi_b is None:
        return False
    with interval_context(bits) as ctx:
        try:
            f = _compile(side, symbol, ctx)
        except (_Unresolved, UnsupportedExpression):
            return False
        todo = [(lo_b[0], hi_b[1], 0)]
        while todo:
            lo, hi, depth = todo.pop()
            try:
                _iv_bounds(f(_iv_from_bounds(lo, hi, ctx)))
                continue
            except (_Unresolved, _NeedMorePrecision, ZeroDivisionError):
                pass
            if depth >= 8 or not lo < hi:
                return False
            m = (lo + hi) / 2
            todo += [(lo, m, depth + 1), (m, hi, depth + 1)]
    return True


def decide_on_interval(
    lhs: Any,
    rhs: Any,
    symbol: sp.Symbol,
    a: Any,
    b: Any,
    precision: Precision = DEFAULT_PRECISION,
) -> IntervalDecision:
    """Decide ``lhs(s) <= rhs(s)`` for every ``s`` in the closed interval ``[a, b]``.

    Parameters
    ----------
    lhs, rhs : sympy.Expr
        Exact expressions whose only free symbol is ``symbol``.
    symbol : sympy.Symbol
        The parameter (e.g. ``eps``).
    a, b : sympy.Expr or int or Fraction
        Exact, finite, constant endpoints with ``a <= b`` (e.g. ``0``,
        ``Rational(1, 100)``, ``log(2)``).
    precision : Precision
        Working precision of the certified parts.

    Returns
    -------
    IntervalDecision
        The verdict, the failing sub-intervals (each with an exact witness), the
        equality points and the method used.  With the polynomial method the
        result is exact; common factors of the numerator and denominator of
        ``rhs - lhs`` are cancelled (a removable singularity is treated by
        continuity), and a genuine pole in ``[a, b]`` gives ``UNDECIDED`` (see
        ``note``).  With the bisection fallback, an inequality that holds with
        equality somewhere in ``[a, b]`` can never be proved and comes out
        ``UNDECIDED``; failures are still proved.

    Raises
    ------
    InvalidParameter
        Another free symbol, a non-exact or non-finite endpoint, or ``a > b``.
    UnsupportedExpression
        A function outside the certified evaluator's (bisection only).

    Examples
    --------
    >>> eps = sp.Symbol("eps")
    >>> d = decide_on_interval(eps**2, eps, eps, 0, 2)
    >>> d.verdict, str(d.failing[0]), d.failing[0].witness
    (<Verdict.VIOLATED: 'violated'>, '(1, 2]', 3/2)
    >>> decide_on_interval(sp.log(1 + eps), eps, eps, sp.Rational(1, 10), 1).verdict
    <Verdict.HOLDS: 'holds'>
    """
    lhs_e, rhs_e, a_e, b_e, point = _validate(lhs, rhs, symbol, a, b)
    return _decide_cached(lhs_e, rhs_e, symbol, a_e, b_e, point, precision)


def _cmp(x: Enclosure, y: Enclosure, ex: sp.Expr, ey: sp.Expr) -> int | None:
    """Certified sign of ``x - y`` from enclosures / structural equality."""
    if ex == ey:
        return 0
    if x.hi < y.lo:
        return -1
    if x.lo > y.hi:
        return 1
    return None


def _display_key(p: sp.Expr) -> float:
    """A float near ``p``, to list points in increasing order (never for verdicts)."""
    try:
        return _point_enclosure(p).mid
    except UnsupportedExpression:  # CRootOf
        return float(sp.N(p, 20))


def _union(intervals: Sequence[SubInterval]) -> list[SubInterval]:
    """Merge overlapping failing intervals (where the overlap can be certified)."""
    out: list[SubInterval] = []
    for s in sorted(intervals, key=lambda t: (t.lo_enclosure.lo, t.hi_enclosure.lo)):
        if not out:
            out.append(s)
            continue
        cur = out[-1]
        c = _cmp(s.lo_enclosure, cur.hi_enclosure, s.lo, cur.hi)
        touching = c is not None and (c < 0 or (c == 0 and (s.lo_included or cur.hi_included)))
        lo_c = _cmp(s.lo_enclosure, cur.lo_enclosure, s.lo, cur.lo)
        if not touching or lo_c is None or lo_c < 0:
            out.append(s)
            continue
        lo_in = cur.lo_included or (lo_c == 0 and s.lo_included)
        hc = _cmp(s.hi_enclosure, cur.hi_enclosure, s.hi, cur.hi)
        if hc is None:
            out.append(s)
            continue
        if hc < 0:
            merged = dataclasses.replace(cur, lo_included=lo_in)
        elif hc == 0:
            merged = dataclasses.replace(
                cur, lo_included=lo_in, hi_included=cur.hi_included or s.hi_included
            )
        else:
            merged = dataclasses.replace(
                cur,
                hi=s.hi,
                hi_enclosure=s.hi_enclosure,
                witness=cur.witness if cur.witness is not None else s.witness,
                lo_included=lo_in,
                hi_included=s.hi_included,
            )
        out[-1] = merged
    return out


def decide_all_on_interval(
    pairs: Iterable[tuple[Any, Any]],
    symbol: sp.Symbol,
    a: Any,
    b: Any,
    precision: Precision = DEFAULT_PRECISION,
) -> IntervalDecision:
    """Decide ``lhs <= rhs`` on ``[a, b]`` for every pair at once (a conjunction).

    Duplicate ``(lhs, rhs)`` pairs are decided once.  The failing set is the union
    of the failing sets (overlapping or touching sub-intervals merged where the
    overlap can be certified; each keeps a witness at which *some* inequality
    fails), the equality points are the union of all pairs' equality points,
    ``identically_equal`` holds when every pair is identically equal, and
    ``method`` is the common method or ``"mixed"``.

    Examples
    --------
    >>> eps = sp.Symbol("eps")
    >>> p, q = sp.exp(eps) / (1 + sp.exp(eps)), 1 / (1 + sp.exp(eps))
    >>> pairs = [(p, sp.exp(eps) * q), (q, sp.exp(eps) * p), (p, sp.exp(eps) * q)]
    >>> d = decide_all_on_interval(pairs, eps, 0, 1)
    >>> d.verdict, d.identically_equal
    (<Verdict.HOLDS: 'holds'>, False)
    """
    if not isinstance(symbol, sp.Symbol):
        raise InvalidParameter(f"the parameter must be a sympy Symbol, got {symbol!r}")
    seen: set[tuple[sp.Expr, sp.Expr]] = set()
    decisions: list[IntervalDecision] = []
    for lhs, rhs in pairs:
        key = (exact(lhs), exact(rhs))
        if key in seen:
            continue
        seen.add(key)
        decisions.append(decide_on_interval(key[0], key[1], symbol, a, b, precision))
    if not decisions:
        _validate(sp.Integer(0), sp.Integer(0), symbol, a, b)
        return IntervalDecision(Verdict.HOLDS, method="none")
    methods = {d.method for d in decisions}
    failing = _union([s for d in decisions for s in d.failing])
    eq: list[sp.Expr] = []
    for d in decisions:
        for p in d.equality_points:
            if p not in eq:
                eq.append(p)
    if len(eq) > 1:
        eq.sort(key=_display_key)
    notes = [d.note for d in decisions if d.note]
    return IntervalDecision(
        combine_verdicts(d.verdict for d in decisions),
        tuple(failing),
        tuple(eq),
        all(d.identically_equal for d in decisions),
        methods.pop() if len(methods) == 1 else "mixed",
        "; ".join(dict.fromkeys(notes)),
    )
