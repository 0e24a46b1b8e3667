"""Exact and certified arithmetic behind every verdict.

One interface over two ways of evaluating a sympy expression:

* **exact** — rationals stay rationals; equalities are proved symbolically
  (:func:`is_exactly_zero`: rational functions of exponentials and roots, expansion,
  simplification, minimal polynomials of algebraic numbers);
* **certified** — an mpmath interval that provably contains the value, computed by
  :func:`enclose` with outward rounding at a chosen precision, in an interval
  context private to the call (:func:`verifier.arithmetic.precision.interval_context`: no
  process-global precision is read or set, so threads cannot disturb each other).

Comparisons are three-valued (:class:`Verdict`): ``HOLDS``, ``VIOLATED`` or
``UNDECIDED``.  :func:`decide_sign` raises the working precision (doubling from
``Precision.start_bits``) until the sign is certified, tries an exact zero test when
an enclosure keeps straddling zero (an attained bound with zero slack can never be
decided by intervals alone), and answers ``UNDECIDED`` when the precision limit is
reached.  No verdict ever comes from a float compared with a tolerance.

Examples
--------
>>> import sympy as sp
>>> decide_le(sp.Rational(1, 3), sp.Rational(1, 2)).verdict
<Verdict.HOLDS: 'holds'>
>>> eps = sp.Rational(1, 2)
>>> decide_le(sp.exp(eps) * sp.exp(eps), sp.exp(2 * eps)).verdict   # equality
<Verdict.HOLDS: 'holds'>
>>> decide_le(sp.exp(1), sp.Rational(271828, 100000)).verdict
<Verdict.VIOLATED: 'violated'>
"""

from __future__ import annotations

import enum
import functools
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import mpmath
import sympy as sp
from gmpy2 import mpq
from mpmath.libmp import from_int, from_rational, libmpi, round_ceiling, round_floor
from sympy.polys.polyerrors import BasePolynomialError

from ..errors import InvalidParameter, UnboundSymbol, UnsupportedExpression
from .precision import interval_context, raw_fraction, real_context

__all__ = [
    "Verdict",
    "Sign",
    "Precision",
    "DEFAULT_PRECISION",
    "Enclosure",
    "Comparison",
    "exact",
    "to_mpq",
    "to_fraction",
    "enclose",
    "is_exactly_zero",
    "decide_sign",
    "decide_le",
    "decide_eq",
    "exact_max",
    "combine_verdicts",
    "approx",
    "format_number",
    "MAX_EXP_ARGUMENT_BITS",
]

#: Largest magnitude, as a power of two, of the argument of ``exp`` (and of the
#: exponent of a non-integer power) in a certified evaluation: computing ``exp(x)``
#: needs about ``log2|x|`` more bits of working precision, and an ``x`` of 2^1024
#: already stands for a number with about 10^308 digits.  Beyond it the evaluation is
#: refused (:class:`~verifier.errors.UnsupportedExpression`) instead of exhausting
#: memory; spec files have a lower, adjustable limit (:mod:`verifier.spec.limits`).
MAX_EXP_ARGUMENT_BITS = 1024


class Verdict(enum.StrEnum):
    """Three-valued outcome of a check.

    A string enum: ``Verdict("holds") is Verdict.HOLDS`` and ``str(v)`` is its value.

    Attributes
    ----------
    HOLDS : Verdict
        Proved: exactly, or with certified enclosures.
    VIOLATED : Verdict
        Disproved, with the findings that fail.
    UNDECIDED : Verdict
        Neither could be proved at the precision limit (never rounded to one of the
        other two).

    Examples
    --------
    >>> Verdict("holds") is Verdict.HOLDS, str(Verdict.UNDECIDED)
    (True, 'undecided')
    >>> [v.value for v in Verdict]
    ['holds', 'violated', 'undecided']
    """

    HOLDS = "holds"
    VIOLATED = "violated"
    UNDECIDED = "undecided"

    def __str__(self) -> str:
        return self.value


def combine_verdicts(verdicts: Iterable[Verdict]) -> Verdict:
    """Conjunction: violated if any is violated, else undecided if any is, else holds.

    >>> combine_verdicts([Verdict.HOLDS, Verdict.UNDECIDED])
    <Verdict.UNDECIDED: 'undecided'>
    """
    seen_undecided = False
    for v in verdicts:
        if v is Verdict.VIOLATED:
            return Verdict.VIOLATED
        if v is Verdict.UNDECIDED:
            seen_undecided = True
    return Verdict.UNDECIDED if seen_undecided else Verdict.HOLDS


class Sign(enum.Enum):
    NEGATIVE = -1
    ZERO = 0
    POSITIVE = 1
    UNDECIDED = None


@dataclass(frozen=True)
class Precision:
    """Working precision of certified evaluation, in bits.

    Evaluation starts at ``start_bits`` and doubles up to ``max_bits`` before a
    comparison is declared undecided.

    Parameters
    ----------
    start_bits : int
        The first working precision (default 64).
    max_bits : int
        The last (default 4096).

    Attributes
    ----------
    start_bits, max_bits : int
        As given.

    Raises
    ------
    verifier.errors.InvalidParameter
        Unless ``16 <= start_bits <= max_bits``.

    Examples
    --------
    >>> Precision().schedule()
    [64, 128, 256, 512, 1024, 2048, 4096]
    >>> Precision(16, 100).schedule()
    [16, 32, 64, 100]
    >>> Precision(8)
    Traceback (most recent call last):
    ...
    verifier.errors.InvalidParameter: precision must satisfy 16 <= start_bits <= max_bits, got start_bits=8, max_bits=4096
    """

    start_bits: int = 64
    max_bits: int = 4096

    def __post_init__(self) -> None:
        if not (16 <= self.start_bits <= self.max_bits):
            raise InvalidParameter(
                f"precision must satisfy 16 <= start_bits <= max_bits, got "
                f"start_bits={self.start_bits}, max_bits={self.max_bits}"
            )

    def schedule(self) -> list[int]:
        bits, out = self.start_bits, []
        while bits < self.max_bits:
            out.append(bits)
            bits *= 2
        out.append(self.max_bits)
        return out


DEFAULT_PRECISION = Precision()

_LOG2_10 = math.log2(10)
#: The type of GMP rationals (``gmpy2.mpq``; the exact numeric ring of
#: :mod:`verifier.algorithms.noise.expoly`)
MPQ = type(mpq(0))


# ---------------------------------------------------------------------------
# exact values
# ---------------------------------------------------------------------------


def to_mpq(x: Any) -> Any:
    """An exact rational (``int``, :class:`fractions.Fraction`, ``gmpy2.mpq`` or a
    sympy rational) as a GMP rational, for exact rational arithmetic without a sympy
    number per operation.

    >>> to_mpq(sp.Rational(3, 4)) * to_mpq(Fraction(2, 3))
    mpq(1,2)
    """
    if isinstance(x, sp.Rational):
        return mpq(int(x.p), int(x.q))
    if isinstance(x, (int, Fraction, MPQ)):
        return mpq(x)
    raise InvalidParameter(f"{x!r} is not an exact rational")


def to_fraction(x: Any) -> Fraction:
    """An exact rational (``int``, :class:`fractions.Fraction`, ``gmpy2.mpq`` or a
    sympy rational) as a :class:`fractions.Fraction`: the way back from
    :func:`to_mpq` for values kept as Fractions.

    >>> to_fraction(to_mpq(Fraction(1, 3)) * 3 / 4)
    Fraction(1, 4)
    """
    if isinstance(x, sp.Rational):
        return Fraction(int(x.p), int(x.q))
    if isinstance(x, (int, Fraction, MPQ)):
        return Fraction(int(x.numerator), int(x.denominator))
    raise InvalidParameter(f"{x!r} is not an exact rational")


@functools.lru_cache(maxsize=1 << 15)
def _has_float(value: sp.Expr) -> bool:
    """Whether a floating-point number occurs in ``value`` (one traversal per
    expression: the same large probability is checked by every comparison)."""
    return bool(value.has(sp.Float))


def exact(value: Any) -> sp.Expr:
    """Convert ``value`` to an exact sympy expression.

    Accepts sympy expressions, ``int``, :class:`fractions.Fraction`, GMP rationals
    (``gmpy2.mpq``: the exact laws of :mod:`verifier.algorithms.noise`) and ``bool``.
    Python floats are refused: ``0.1`` is not one tenth, and a verifier that silently
    accepted it would certify a different mechanism from the one meant.  Strings are
    refused here; the privacy parameters of the checkers take them
    (:mod:`verifier.checks.vocabulary`), and :func:`verifier.arithmetic.expressions.number`
    reads them exactly.

    Parameters
    ----------
    value : sympy.Expr, int, fractions.Fraction, gmpy2.mpq or bool
        The number or expression.

    Returns
    -------
    sympy.Expr
        ``value`` itself for a sympy expression, else the exact sympy number.

    Raises
    ------
    verifier.errors.InvalidParameter
        ``value`` is a float, contains a float, is a string, or is no number.

    Examples
    --------
    >>> exact(Fraction(1, 3)), exact(2), exact(True)
    (1/3, 2, 1)
    >>> exact(Fraction(1, 3))
    1/3
    >>> exact(0.1)
    Traceback (most recent call last):
    ...
    verifier.errors.InvalidParameter: 0.1 is a float, which is not exact: write Fraction(1, 10) (or the string "0.1" where a number may be text)
    """
    if isinstance(value, sp.Basic):
        if value.is_Rational:  # integers and rationals: exact, no float inside
            return value
        if isinstance(value, sp.Float):
            raise InvalidParameter(
                f"{value} is a floating-point number, which is not exact; use a rational"
            )
        if not isinstance(value, sp.Expr):
            raise InvalidParameter(f"{value!r} is not a number or expression")
        if _has_float(value):
            raise InvalidParameter(
                f"{value} contains a floating-point number, which is not exact; use rationals"
            )
        return value
    if isinstance(value, bool):
        return sp.Integer(int(value))
    if isinstance(value, int):
        return sp.Integer(value)
    if isinstance(value, (Fraction, MPQ)):
        return sp.Rational(int(value.numerator), int(value.denominator))
    if isinstance(value, float):
        raise InvalidParameter(_float_message(value))
    raise InvalidParameter(f"{value!r} ({type(value).__name__}) is not an exact number")


def _float_message(value: float) -> str:
    """The one-line fix for a float: the Fraction of the decimal it was written as, or
    that decimal as a string (read exactly where a number may be text)."""
    if not math.isfinite(value):
        return f"{value!r} is a float, which is not exact: write oo, -oo or a number"
    text = repr(value)
    q = Fraction(text)
    return (
        f"{text} is a float, which is not exact: write Fraction({q.numerator}, "
        f'{q.denominator}) (or the string "{text}" where a number may be text)'
    )


# ---------------------------------------------------------------------------
# certified enclosures
# ---------------------------------------------------------------------------


class _NeedMorePrecision(Exception):
    """Internal: an enclosure was too wide for an operation (log of an interval
    touching 0, ...); retry at a higher precision."""


@dataclass(frozen=True)
class Enclosure:
    """A closed interval ``[lo, hi]`` certified to contain a real value."""

    lo: mpmath.mpf
    hi: mpmath.mpf
    bits: int

    @classmethod
    def from_iv(cls, x: Any, bits: int) -> Enclosure:
        lo, hi = _ends(x)
        return cls(lo, hi, bits)

    @property
    def mid(self) -> float:
        """The midpoint as a float (display only), computed in double precision."""
        with real_context(53) as ctx:
            return float((ctx.convert(self.lo) + self.hi) / 2)

    def bounds(self) -> tuple[Fraction, Fraction]:
        """The endpoints as the exact rationals they are.

        >>> Enclosure(mpmath.mpf(1) / 4, mpmath.mpf(3) / 4, 53).bounds()
        (Fraction(1, 4), Fraction(3, 4))
        """
        return _mpf_fraction(self.lo), _mpf_fraction(self.hi)

    def contains(self, other: Enclosure) -> bool:
        return self.lo <= other.lo and other.hi <= self.hi

    def minus(self, other: Enclosure) -> Enclosure:
        """An enclosure of ``self - other``: the difference of the two intervals, its
        ends rounded outward at this enclosure's precision."""
        lo, hi = libmpi.mpi_sub(
            (self.lo._mpf_, self.hi._mpf_), (other.lo._mpf_, other.hi._mpf_), self.bits
        )
        return Enclosure(mpmath.mp.make_mpf(lo), mpmath.mp.make_mpf(hi), self.bits)

    def log_ratio(self, other: Enclosure) -> Enclosure | None:
        """An enclosure of ``log(self / other)`` for two positive values, its ends
        rounded outward at this enclosure's precision; ``None`` when either enclosure
        still reaches zero or below.

        >>> e = Enclosure(mpmath.mpf(3), mpmath.mpf(3), 53).log_ratio(
        ...     Enclosure(mpmath.mpf(1), mpmath.mpf(1), 53))
        >>> e.lo <= mpmath.log(3) <= e.hi
        True
        """
        if not (self.lo > 0 and other.lo > 0):
            return None
        q = libmpi.mpi_div(
            (self.lo._mpf_, self.hi._mpf_), (other.lo._mpf_, other.hi._mpf_), self.bits + 10
        )
        lo, hi = libmpi.mpi_log(q, self.bits)
        return Enclosure(mpmath.mp.make_mpf(lo), mpmath.mp.make_mpf(hi), self.bits)

    def __str__(self) -> str:
        return f"[{mpmath.nstr(self.lo, 12)}, {mpmath.nstr(self.hi, 12)}]"


def _ends(x: Any) -> tuple[mpmath.mpf, mpmath.mpf]:
    """The endpoints of an mpmath interval as exact mpf values (no rounding: the
    raw mantissas are wrapped as they are, whatever ``mp.prec`` is)."""
    a, b = x._mpi_
    return mpmath.mp.make_mpf(a), mpmath.mp.make_mpf(b)


def _mpf_fraction(x: mpmath.mpf) -> Fraction:
    try:
        return raw_fraction(x._mpf_)
    except UnsupportedExpression:
        raise UnsupportedExpression(f"an enclosure end is {x}, which is not a rational") from None


def _require_positive(x: Any, what: str) -> None:
    lo, hi = _ends(x)
    if lo <= 0:
        if hi <= 0:
            raise UnsupportedExpression(f"{what} of a non-positive number")
        raise _NeedMorePrecision


def _exp_iv(x: Any, ctx: Any, expr: sp.Expr) -> Any:
    """``exp`` of the interval ``x``, refused when ``x`` is too large to evaluate."""
    lo, hi = _ends(x)
    if max(mpmath.mag(lo), mpmath.mag(hi)) > MAX_EXP_ARGUMENT_BITS:
        raise UnsupportedExpression(
            f"cannot evaluate {_short(expr)}: an exponent of magnitude about "
            f"2^{max(mpmath.mag(lo), mpmath.mag(hi))} is beyond the evaluation limit of "
            f"2^{MAX_EXP_ARGUMENT_BITS}"
        )
    return ctx.exp(x)


def _short(expr: sp.Expr, limit: int = 80) -> str:
    text = sp.sstr(expr) if sp.count_ops(expr) < 200 else type(expr).__name__ + "(...)"
    return text if len(text) <= limit else text[: limit - 3] + "..."


#: Enclosures of sub-expressions, ``(expr, bits) -> (lo, hi)`` as raw mpmath values.
#: A value shared by many comparisons (a probability in every pair and every check
#: of a mechanism, a bound in every pair) is enclosed once per precision.  Entries
#: are pure functions of their key (the same operations at the same precision), so
#: sharing them across threads changes no result; the table is emptied when full.
_IV_CACHE: dict[tuple[sp.Expr, int], tuple[Any, Any]] = {}
_IV_CACHE_MAX = 1 << 16


def _to_iv(expr: sp.Expr, ctx: Any) -> Any:
    """Interval evaluation in the interval context ``ctx``, at its precision
    (sub-expressions come from :data:`_IV_CACHE` when enclosed before)."""
    key = (expr, ctx.prec)
    hit = _IV_CACHE.get(key)
    if hit is not None:
        return ctx.make_mpf(hit)
    x = _to_iv_node(expr, ctx)
    if len(_IV_CACHE) >= _IV_CACHE_MAX:
        _IV_CACHE.clear()
    _IV_CACHE[key] = x._mpi_
    return x


def _to_iv_node(expr: sp.Expr, ctx: Any) -> Any:
    if expr.is_Integer:
        n, prec = int(expr), ctx.prec
        return ctx.make_mpf((from_int(n, prec, round_floor), from_int(n, prec, round_ceiling)))
    if expr.is_Rational:
        p, q, prec = int(expr.p), int(expr.q), ctx.prec
        return ctx.make_mpf(
            (from_rational(p, q, prec, round_floor), from_rational(p, q, prec, round_ceiling))
        )
    if isinstance(expr, sp.Float):
        raise UnsupportedExpression(f"inexact float {expr} in an expression")
    if expr is sp.pi:
        return ctx.pi
    if expr is sp.E:
        return ctx.e
    if expr.is_Symbol:
        raise UnboundSymbol(f"symbol '{expr}' has no value")
    if expr in (sp.oo, -sp.oo, sp.zoo, sp.nan):
        raise UnsupportedExpression(f"{expr} has no finite enclosure")
    if expr.is_Add:
        acc = ctx.mpf(0)
        for a in expr.args:
            acc = acc + _to_iv(a, ctx)
        return acc
    if expr.is_Mul:
        acc = ctx.mpf(1)
        for a in expr.args:
            acc = acc * _to_iv(a, ctx)
        return acc
    if expr.is_Pow:
        base, e = expr.args
        if e.is_Integer:
            b = _to_iv(base, ctx)
            n = int(e)
            if n >= 0:
                return b**n
            lo, hi = _ends(b)
            if lo <= 0 <= hi:
                if lo == hi == 0:
                    raise UnsupportedExpression(f"division by zero in {expr}")
                raise _NeedMorePrecision
            return ctx.mpf(1) / (b ** (-n))
        if e == sp.Rational(1, 2):
            b = _to_iv(base, ctx)
            lo, hi = _ends(b)
            if lo < 0:
                if hi < 0:
                    raise UnsupportedExpression(f"square root of a negative number in {expr}")
                raise _NeedMorePrecision
            return ctx.sqrt(b)
        if base is sp.E:
            return _exp_iv(_to_iv(e, ctx), ctx, expr)
        b = _to_iv(base, ctx)
        if base.is_zero and e.is_positive:
            return ctx.mpf(0)
        _require_positive(b, f"power {expr}")
        return _exp_iv(_to_iv(e, ctx) * ctx.log(b), ctx, expr)
    if isinstance(expr, sp.exp):
        return _exp_iv(_to_iv(expr.args[0], ctx), ctx, expr)
    if isinstance(expr, sp.log):
        if len(expr.args) != 1:
            raise UnsupportedExpression(f"log with a base in {expr}; write log(x)/log(b)")
        x = _to_iv(expr.args[0], ctx)
        _require_positive(x, "logarithm")
        return ctx.log(x)
    if isinstance(expr, (sp.erf, sp.erfc, sp.erfinv)):
        return _normal_iv(expr, ctx)
    if isinstance(expr, sp.Abs):
        # the context's |x|: exact negation of the ends (they carry at most ctx.prec bits)
        return abs(_to_iv(expr.args[0], ctx))
    if isinstance(expr, (sp.Min, sp.Max)):
        ends = [_ends(_to_iv(a, ctx)) for a in expr.args]
        los = [e[0] for e in ends]
        his = [e[1] for e in ends]
        if isinstance(expr, sp.Min):
            return ctx.mpf([min(los), min(his)])
        return ctx.mpf([max(los), max(his)])
    series = getattr(expr, "_certified_interval", None)
    if series is not None:
        # an exact number defined by a convergent series, enclosed by its own
        # certified method at this precision (e.g. an expectation over k of
        # verifier.algorithms.ghazi_series.SeriesExpectation)
        lo, hi = series(ctx.prec)
        return ctx.make_mpf((lo._mpf_, hi._mpf_))
    raise UnsupportedExpression(
        f"cannot evaluate {type(expr).__name__} in '{expr}' with certified arithmetic"
    )


def _normal_iv(expr: sp.Expr, ctx: Any) -> Any:
    """``erf``, ``erfc`` and ``erfinv`` through the certified normal distribution
    function and its inverse (:mod:`verifier.arithmetic.normal`): ``erf(x) = 2Φ(x√2) -
    1``, ``erfc(x) = 2Φ(-x√2)``, ``erfinv(v) = Φ⁻¹((v + 1)/2)/√2``, each monotone, so
    the ends of the argument's enclosure give the ends of the value's."""
    from .normal import MAX_ABS_ARGUMENT, normal_cdf, normal_quantile

    x = _to_iv(expr.args[0], ctx)
    lo, hi = (_mpf_fraction(e) for e in _ends(x))
    bits = ctx.prec

    def iv(a: Fraction, b: Fraction) -> Any:
        return ctx.make_mpf(
            (
                from_rational(a.numerator, a.denominator, bits, round_floor),
                from_rational(b.numerator, b.denominator, bits, round_ceiling),
            )
        )

    if isinstance(expr, sp.erfinv):
        if lo <= -1 or hi >= 1:
            if hi <= -1 or lo >= 1:
                raise UnsupportedExpression(f"erfinv of a number outside (-1, 1) in {expr}")
            raise _NeedMorePrecision
        a = normal_quantile((lo + 1) / 2, bits)
        b = normal_quantile((hi + 1) / 2, bits)
        if a is None or b is None:
            raise _NeedMorePrecision
        return iv(a[0], b[1]) / ctx.sqrt(2)
    # z = ±x·√2 enclosed by rationals (rounded outward), then Φ at the ends
    sign = 1 if isinstance(expr, sp.erf) else -1
    z = sign * x * ctx.sqrt(2)
    zlo, zhi = (_mpf_fraction(e) for e in _ends(z))
    if max(abs(zlo), abs(zhi)) > MAX_ABS_ARGUMENT:
        raise UnsupportedExpression(f"argument beyond {MAX_ABS_ARGUMENT} in {expr}")
    plo, phi = normal_cdf(zlo, bits)[0], normal_cdf(zhi, bits)[1]
    if sign == 1:
        return iv(2 * plo - 1, 2 * phi - 1)
    return iv(2 * plo, 2 * phi)


@functools.lru_cache(maxsize=65536)
def _enclose_cached(expr: sp.Expr, bits: int) -> Enclosure | None:
    with interval_context(bits) as ctx:
        try:
            return Enclosure.from_iv(_to_iv(expr, ctx), bits)
        except _NeedMorePrecision:
            return None


def enclose(expr: Any, bits: int = 64) -> Enclosure | None:
    """Certified enclosure of ``expr`` at ``bits`` of working precision.

    Returns ``None`` when the precision is too low for some operation (e.g. a
    logarithm of an enclosure that still touches zero).  Raises
    :class:`~verifier.errors.UnboundSymbol` for a free symbol and
    :class:`~verifier.errors.UnsupportedExpression` for anything outside the
    supported functions (``+ - * /``, powers, ``exp``, ``log``, ``sqrt``, ``Min``,
    ``Max``, ``Abs``, ``erf``, ``erfc``, ``erfinv``, ``pi``, ``E``) and numbers that enclose themselves (an
    expression with a method ``_certified_interval(bits) -> (lo, hi)``, e.g. a
    convergent series with its tail bound).

    Parameters
    ----------
    expr : sympy.Expr, int or fractions.Fraction
        A constant expression (no free symbols).
    bits : int
        Working precision, in bits.

    Returns
    -------
    Enclosure or None
        ``[lo, hi]`` with ``lo <= expr <= hi`` certified (outward rounding), or
        ``None`` when ``bits`` is too low.

    Raises
    ------
    verifier.errors.UnboundSymbol
        ``expr`` has a free symbol.
    verifier.errors.UnsupportedExpression
        ``expr`` uses a function the certified evaluator does not support.
    verifier.errors.InvalidParameter
        ``expr`` is not exact (a float).

    Examples
    --------
    ``log 2 = 0.693147...``: the enclosure's ends are rationals around it.

    >>> lo, hi = enclose(sp.log(2), 64).bounds()
    >>> Fraction(693147, 10**6) < lo <= hi < Fraction(693148, 10**6)
    True
    >>> enclose(sp.Symbol("x"))
    Traceback (most recent call last):
    ...
    verifier.errors.UnboundSymbol: symbol 'x' has no value
    >>> print(enclose(sp.log(2), 64))
    [0.69314718056, 0.69314718056]
    >>> enclose(sp.log(2), 64).hi - enclose(sp.log(2), 64).lo < 2**-60
    True
    """
    return _enclose_cached(exact(expr), int(bits))


def approx(expr: Any, digits: int = 15) -> float:
    """A float near the value of ``expr`` — for display only, never for verdicts.

    The precision is raised until the enclosure determines ``digits`` significant
    digits, so values that are tiny differences of large terms print correctly, or
    until doubling it narrows the enclosure by less than ``2^16`` (a value enclosed by
    a certified quadrature or a series bound, whose width only halves): then the
    midpoint of the last enclosure is shown.
    """
    x = exact(expr)
    if x is sp.oo:
        return float("inf")
    if x is -sp.oo:
        return float("-inf")
    # the first precision is the one decide_sign starts at whenever it suffices, so
    # the enclosure of a value the decision already bounded comes from the cache
    bits = max(DEFAULT_PRECISION.start_bits, math.ceil(digits * _LOG2_10) + 14)
    last: Enclosure | None = None
    last_width = None
    while bits <= 8192:
        e = enclose(x, bits)
        if e is not None:
            last = e
            with real_context(53) as ctx:  # a display tolerance, in double precision
                lo, hi = ctx.convert(e.lo), ctx.convert(e.hi)
                width = hi - lo
                close = width == 0 or width <= max(abs(lo), abs(hi)) * ctx.mpf(10) ** (-digits)
                # doubling the precision of an evaluation in floating point squares its
                # accuracy; an enclosure that narrows by less than 2^16 (a certified
                # quadrature, a series with a remainder bound) only creeps towards its
                # value, and more precision buys the display little at a growing cost
                creeping = last_width is not None and width > last_width * ctx.mpf(2) ** -16
                last_width = width
            if close or creeping:
                return e.mid
        bits *= 2
    return last.mid if last is not None else float(sp.N(x, digits))


def _log_sum(x: sp.Expr) -> tuple[sp.Rational, list[tuple[sp.Rational, sp.Rational]]] | None:
    """``x = r + Σ c_i log(a_i)`` with rationals ``r``, ``c_i`` and positive rationals
    ``a_i``, as ``(r, [(c_i, a_i)])``; ``None`` for any other form."""
    r, logs = sp.Integer(0), []
    for t in sp.Add.make_args(x):
        c, f = t.as_coeff_Mul()
        if f is sp.S.One:
            r += c
        elif isinstance(f, sp.log) and f.args[0].is_Rational and f.args[0] > 0:
            logs.append((c, f.args[0]))
        else:
            return None
    return r, logs


#: Largest exponent-weighted size, in bits, of the products :func:`_equal_log_sums`
#: forms (beyond it, the general proof of :func:`is_exactly_zero` decides).
_LOG_SUM_BITS = 4096


def _equal_log_sums(x: sp.Expr, y: sp.Expr) -> bool | None:
    """Whether two sums of rational multiples of logarithms of positive rationals (plus
    a rational) are equal, proved exactly: ``Σ c_i log a_i = Σ d_j log b_j`` exactly
    when ``Π a_i^{L c_i} = Π b_j^{L d_j}`` with ``L`` the common denominator of the
    ``c_i, d_j`` (the logarithm is injective on the positive reals).  ``None`` when
    either is not of that form or the products would be large."""
    fx, fy = _log_sum(x), _log_sum(y)
    if fx is None or fy is None:
        return None
    if fx[0] != fy[0]:
        return False
    terms = fx[1] + [(-c, a) for c, a in fy[1]]
    L = math.lcm(*(int(c.q) for c, _ in terms)) if terms else 1
    size = sum(abs(int(c * L)) * (int(a.p).bit_length() + int(a.q).bit_length()) for c, a in terms)
    if size > _LOG_SUM_BITS:
        return None
    prod = mpq(1)
    for c, a in terms:
        k = int(c * L)
        base = to_mpq(a)
        prod *= base**k if k >= 0 else 1 / base ** (-k)
    return prod == 1


def _shorter_logs(x: sp.Expr, text: str) -> str:
    """For display: a constant sum of logarithms combined into one when that is shorter
    (``-log(2) + log(3/2)`` is ``log(3/4)``), kept only when the two are proved equal
    (:func:`_equal_log_sums` for logarithms of rationals, else :func:`is_exactly_zero`)."""
    if not text or x.free_symbols or not x.has(sp.log) or sp.count_ops(x) > 30:
        return text
    y = sp.logcombine(x, force=True)
    short = str(y)
    if len(short) >= len(text):
        return text
    same = _equal_log_sums(x, y)
    if same is None:
        same = is_exactly_zero(x - y) is True
    return short if same else text


def format_number(expr: Any, digits: int = 6, max_len: int = 40) -> str:
    """Human-readable form: the exact expression when short, and a decimal value.

    >>> format_number(sp.Rational(1, 3))
    '1/3 ≈ 0.333333'
    >>> format_number(sp.Integer(2))
    '2'
    >>> format_number(-sp.log(2) + sp.log(sp.Rational(3, 2)))
    'log(3/4) ≈ -0.287682'
    """
    x = exact(expr)
    if x.is_Integer or x in (sp.oo, -sp.oo):
        try:
            return str(x)
        except ValueError:  # beyond Python's limit of digits for printing an int
            return f"≈ {approx(x):.{digits}g}"
    try:
        text = str(x)
    except ValueError:  # a rational with more digits than Python prints
        text = ""
    text = _shorter_logs(x, text)
    dec = f"{approx(x):.{digits}g}"
    if not text:
        return f"≈ {dec}"
    if len(text) <= max_len:
        return f"{text} ≈ {dec}"
    return f"≈ {dec}"


# ---------------------------------------------------------------------------
# exact zero tests and three-valued comparisons
# ---------------------------------------------------------------------------

_SIMPLIFY_OPS_LIMIT = 600
_x = sp.Dummy("x")
_t = sp.Dummy("t", positive=True)
#: limits of the zero test by rational functions (:func:`_zero_as_rational_function`):
#: tree nodes of the expression, and degree of one power in its generator
_RATIONAL_FUNCTION_NODES_LIMIT = 4000
_RATIONAL_FUNCTION_DEGREE_LIMIT = 2048


def _generators(exponents: list[sp.Rational]) -> tuple[int, bool]:
    """The common denominator L of ``exponents`` and whether every power t^{qL} stays
    within the degree limit."""
    common = math.lcm(*(int(q.q) for q in exponents))
    low = max(abs(int(q.p)) * (common // int(q.q)) for q in exponents)
    return common, low <= _RATIONAL_FUNCTION_DEGREE_LIMIT


class _NoValue(Exception):
    """The expression divides by a divisor that is exactly 0 (a form like 0/0 that
    sympy left unevaluated): it has no value, so neither "zero" nor "nonzero" is a
    proof (:func:`sympy.simplify` and :func:`sympy.cancel` would take D/D to 1)."""


def _zero_as_rational_function(x: sp.Expr) -> bool | None:
    """Decide ``x == 0`` for an expression built by sums, products and integer powers
    from rationals, symbols, exponentials e^{a_0 + a_1 x_1 + ...} (rational a_i,
    symbols x_i) and roots b^q (b, q rational); ``None`` for any other expression, or
    when the test below is inconclusive.

    With L the common denominator of the constant terms a_0, e^{a_0} is t^{a_0 L} at
    t = e^{1/L}; likewise e^{a_i x_i} is t_i^{a_i L_i} at t_i = e^{x_i / L_i} and each
    root b^q is s_b^{q L_b} at s_b = b^{1/L_b}. So x is R(t, t_i, x_i, s_b, ...) for a
    rational function R with rational coefficients. ``True`` when R cancels to 0
    (polynomial arithmetic over the rationals, far cheaper than :func:`sympy.simplify`):
    x is R's value, zero for every value of its symbols. When R does not cancel and x
    is a constant without roots, ``False``: e^{1/L} is transcendental
    (Lindemann-Weierstrass theorem: e^a is transcendental for every algebraic a != 0),
    so no nonzero polynomial with rational coefficients, the numerator of R, vanishes
    there, and the denominators of x do not vanish either. With roots (algebraic s_b,
    related to one another) or symbols, a rational function that does not cancel
    proves nothing here: ``None``. Raises :class:`_NoValue` when a divisor of x cancels
    to 0 (x has no value).

    >>> half = sp.Rational(1, 2)
    >>> _zero_as_rational_function(1 / (1 + sp.exp(half)) + sp.exp(half) / (1 + sp.exp(half)) - 1)
    True
    >>> _zero_as_rational_function(sp.exp(half) ** 2 - sp.Rational(271828, 100000))
    False
    >>> r = sp.root(5, 4)
    >>> _zero_as_rational_function(1 / (1 + r + sp.sqrt(5)) + (r + sp.sqrt(5)) / (1 + r + sp.sqrt(5)) - 1)
    True
    >>> _zero_as_rational_function(sp.sqrt(2) - sp.Rational(141, 100)) is None
    True
    >>> _zero_as_rational_function(sp.exp(sp.sqrt(2)) - 1) is None   # an irrational exponent
    True
    >>> eps = sp.Symbol("epsilon", positive=True)
    >>> _zero_as_rational_function(sp.exp(eps / 2) ** 2 / (1 + sp.exp(eps)) + 1 / (1 + sp.exp(eps)) - 1)
    True
    >>> x = sp.Symbol("x", positive=True)                  # a rational function of x only
    >>> _zero_as_rational_function(x / (x + 1) + 1 / (x + 1) - 1), _zero_as_rational_function(x / (x + 1))
    (True, None)
    """
    sub: dict[sp.Basic, sp.Expr] = {}
    # e^{a_0 + a_1 x_1 + ...} with rational a_i and symbols x_i is the product of the
    # powers of the generators t = e^{1/L}, t_i = e^{x_i / L_i}
    split: dict[sp.Basic, dict[sp.Basic, sp.Expr]] = {}
    parts: dict[sp.Basic, list[sp.Rational]] = {}
    for a in x.atoms(sp.exp):
        terms = a.exp.as_coefficients_dict()
        for k, c in terms.items():
            if not c.is_Rational or not (k == 1 or k.is_Symbol):
                return None
            parts.setdefault(k, []).append(c)
        split[a] = terms
    if x.has(sp.E):
        parts.setdefault(sp.Integer(1), []).append(sp.Integer(1))
    gens: dict[sp.Basic, tuple[sp.Symbol, int]] = {}
    for k, cs in parts.items():
        common, ok = _generators(cs)
        if not ok:
            return None
        gens[k] = (_t if k == 1 else sp.Dummy(f"t_{k}", positive=True), common)
    for a, terms in split.items():
        sub[a] = sp.Mul(*(gens[k][0] ** (c * gens[k][1]) for k, c in terms.items()))
    if x.has(sp.E):
        sub[sp.E] = _t ** gens[sp.Integer(1)][1]
    roots: dict[sp.Rational, list[sp.Pow]] = {}
    for a in x.atoms(sp.Pow):
        if a.base.is_Rational and a.exp.is_Rational and not a.exp.is_Integer:
            roots.setdefault(a.base, []).append(a)
    for b, rs in roots.items():
        common, ok = _generators([a.exp for a in rs])
        if not ok:
            return None
        s = sp.Dummy(f"s_{b}", positive=True)
        sub.update({a: s ** (a.exp * common) for a in rs})
    y = x.xreplace(sub) if sub else x
    nodes = 0
    for node in sp.preorder_traversal(y):
        nodes += 1
        if nodes > _RATIONAL_FUNCTION_NODES_LIMIT:
            return None
        if node.is_Symbol or node.is_Rational or isinstance(node, (sp.Add, sp.Mul)):
            continue
        if isinstance(node, sp.Pow) and node.exp.is_Integer:
            continue
        return None  # another constant (pi, log 2), or a zero division (zoo)
    # a divisor of x that cancels to 0 makes x a form like 0/0 that sympy left
    # unevaluated (the substitution, or cancel, would take D/D to 1): no proof either way
    divisors = {
        node.base.xreplace(sub)
        for node in sp.preorder_traversal(x)
        if isinstance(node, sp.Pow) and node.exp.is_negative and isinstance(node.base, sp.Add)
    }
    field = fraction_field([y, *divisors])
    if field is not None:
        try:
            if any(field.from_sympy(d) == field.zero for d in divisors):
                raise _NoValue
            is_zero = field.from_sympy(y) == field.zero
        except (BasePolynomialError, ValueError, TypeError, ZeroDivisionError, RecursionError):
            pass  # sympy's cancel below decides, as it would without the field
        else:
            if is_zero:
                return True
            return None if roots or x.free_symbols else False
    try:
        if any(sp.cancel(d) == 0 for d in divisors):
            raise _NoValue
        r = sp.cancel(y)
    except (ZeroDivisionError, NotImplementedError, ValueError, TypeError, RecursionError):
        return None
    if r == 0:
        return True
    if roots or x.free_symbols or r.has(sp.zoo, sp.nan, sp.oo, -sp.oo):
        return None
    return False


def fraction_field(exprs: Iterable[sp.Expr]) -> Any:
    """sympy's field of rational functions over QQ in the free symbols of ``exprs``
    (``None`` without free symbols).  An expression converted into it
    (``field.from_sympy``) is a reduced fraction, so it is zero exactly when it is the
    zero rational function: several times faster than :func:`sympy.cancel` of a large
    sum.  The conversion raises for an expression that is not a rational function over
    QQ (another constant, a function of a symbol) and ``ZeroDivisionError`` for a
    divisor that vanishes identically."""
    gens: set[sp.Symbol] = set()
    for e in exprs:
        gens |= e.free_symbols
    if not gens:
        return None
    return sp.QQ.frac_field(*sorted(gens, key=str))  # any order: zero tests ignore it


def is_exactly_zero(expr: Any) -> bool | None:
    """Decide ``expr == 0`` exactly, or return ``None`` when no proof was found.

    ``True`` and ``False`` are proofs (rational arithmetic, a rational function of
    exponentials and roots of rationals (:func:`_zero_as_rational_function`), symbolic
    simplification to 0, or the minimal polynomial of an algebraic number); ``None``
    means unknown.

    >>> is_exactly_zero(sp.sqrt(2) * sp.sqrt(3) - sp.sqrt(6))
    True
    >>> is_exactly_zero(sp.exp(sp.Rational(1, 2)) ** 2 - sp.E)
    True
    >>> is_exactly_zero(sp.sqrt(2) - sp.Rational(141, 100))
    False
    """
    x = exact(expr)
    if x.is_Rational:
        return bool(x == 0)
    try:
        z = _zero_as_rational_function(x)
    except _NoValue:
        return None
    if z is not None:
        return z
    if x.is_zero is not None and not x.free_symbols:
        # sympy's assumptions are proofs when they answer.
        return bool(x.is_zero)
    ops = sp.count_ops(x)
    if ops > _SIMPLIFY_OPS_LIMIT:
        return None
    try:
        e = sp.expand(sp.powsimp(x, combine="exp", force=True), power_exp=False)
        if e == 0:
            return True
        e = sp.simplify(x)
        if e == 0:
            return True
        if not x.free_symbols and x.is_algebraic:
            return bool(sp.minimal_polynomial(x, _x) == _x)
    except (NotImplementedError, ValueError, TypeError, RecursionError):
        return None
    return None


@dataclass(frozen=True)
class SignResult:
    sign: Sign
    enclosure: Enclosure | None
    exact_zero: bool = False


def decide_sign(expr: Any, precision: Precision = DEFAULT_PRECISION) -> SignResult:
    """Certified sign of a constant expression (three-valued via ``Sign.UNDECIDED``)."""
    x = exact(expr)
    if x is sp.oo:
        return SignResult(Sign.POSITIVE, None)
    if x is -sp.oo:
        return SignResult(Sign.NEGATIVE, None)
    if x.is_Rational:  # the sign of its numerator (the denominator is positive)
        num = int(x.p)
        s = Sign.ZERO if num == 0 else (Sign.POSITIVE if num > 0 else Sign.NEGATIVE)
        return SignResult(s, None, exact_zero=num == 0)
    zero_tested = False
    last: Enclosure | None = None
    for bits in precision.schedule():
        enc = enclose(x, bits)
        if enc is not None:
            last = enc
            if enc.lo > 0:
                return SignResult(Sign.POSITIVE, enc)
            if enc.hi < 0:
                return SignResult(Sign.NEGATIVE, enc)
            if enc.lo == 0 and enc.hi == 0:
                return SignResult(Sign.ZERO, enc, exact_zero=True)
        if not zero_tested and (enc is None or enc.lo <= 0 <= enc.hi):
            zero_tested = True
            z = is_exactly_zero(x)
            if z is True:
                return SignResult(Sign.ZERO, enc, exact_zero=True)
    return SignResult(Sign.UNDECIDED, last)


@dataclass(frozen=True)
class Comparison:
    """Outcome of deciding ``lhs <= rhs``: the verdict and the numbers behind it."""

    verdict: Verdict
    lhs: sp.Expr
    rhs: sp.Expr
    sign: SignResult  # the sign of rhs - lhs

    @property
    def difference(self) -> sp.Expr:
        """``rhs - lhs``, the slack of the inequality (formed when asked for)."""
        if self.rhs is sp.oo or self.lhs is -sp.oo:
            return sp.oo
        if self.lhs is sp.oo or self.rhs is -sp.oo:
            return -sp.oo
        return self.rhs - self.lhs

    @property
    def tight(self) -> bool:
        """True when equality is proved exactly (the bound is attained)."""
        return self.sign.sign is Sign.ZERO

    def holds(self, undecided: Callable[[], Exception]) -> bool:
        """Whether ``lhs <= rhs`` holds, decided; raises ``undecided()`` when it is not."""
        if self.verdict is Verdict.UNDECIDED:
            raise undecided()
        return self.verdict is Verdict.HOLDS


def _separated(a: sp.Expr, b: sp.Expr, bits: int) -> SignResult | None:
    """The sign of ``b - a`` when the enclosures of ``a`` and ``b`` at ``bits`` are
    disjoint (the sides are usually enclosed already: a realized value against its
    bound), without forming ``b - a``; ``None`` when they overlap or a side has no
    enclosure of its own (a symbol that cancels in ``b - a``, say)."""
    try:
        ea, eb = enclose(a, bits), enclose(b, bits)
    except (UnboundSymbol, UnsupportedExpression):
        return None
    if ea is None or eb is None or not (ea.hi < eb.lo or eb.hi < ea.lo):
        return None
    return SignResult(Sign.POSITIVE if ea.hi < eb.lo else Sign.NEGATIVE, eb.minus(ea))


def decide_le(lhs: Any, rhs: Any, precision: Precision = DEFAULT_PRECISION) -> Comparison:
    """Decide ``lhs <= rhs`` exactly or with certified enclosures.

    Infinite values are allowed (``sympy.oo``): ``x <= oo`` holds for every ``x``.
    Two rationals are compared by cross-multiplication, without forming (and
    reducing) their difference; other sides first by their own enclosures at the
    first precision (disjoint ones decide), then by the sign of ``rhs - lhs``.

    Parameters
    ----------
    lhs, rhs : sympy.Expr, int or fractions.Fraction
        Constant exact numbers (or ``oo``, ``-oo``).
    precision : Precision
        Up to how many bits the enclosures are refined before the verdict is
        *undecided*.

    Returns
    -------
    Comparison
        The verdict, both sides and the sign of ``rhs - lhs``; ``tight`` is True when
        equality is proved exactly.

    Raises
    ------
    verifier.errors.InvalidParameter
        A side is not exact (a float).
    verifier.errors.UnboundSymbol
        A side has a free symbol.

    Examples
    --------
    ``log 2 = 0.6931... <= 7/10``; ``1 <= log 2`` is false; ``(√2)² = 2`` is proved
    equal:

    >>> decide_le(sp.log(2), Fraction(7, 10)).verdict
    <Verdict.HOLDS: 'holds'>
    >>> decide_le(1, sp.log(2)).verdict
    <Verdict.VIOLATED: 'violated'>
    >>> decide_le(sp.sqrt(2) ** 2, 2).tight
    True
    """

    a, b = exact(lhs), exact(rhs)
    if b is sp.oo or a is -sp.oo:
        return Comparison(Verdict.HOLDS, a, b, SignResult(Sign.POSITIVE, None))
    if a is sp.oo or b is -sp.oo:
        return Comparison(Verdict.VIOLATED, a, b, SignResult(Sign.NEGATIVE, None))
    if a.is_Rational and b.is_Rational:
        x, y = int(a.p) * int(b.q), int(b.p) * int(a.q)  # denominators are positive
        sgn = Sign.ZERO if x == y else (Sign.POSITIVE if y > x else Sign.NEGATIVE)
        s = SignResult(sgn, None, exact_zero=sgn is Sign.ZERO)
    else:
        s = _separated(a, b, precision.start_bits) or decide_sign(b - a, precision)
    if s.sign in (Sign.POSITIVE, Sign.ZERO):
        v = Verdict.HOLDS
    elif s.sign is Sign.NEGATIVE:
        v = Verdict.VIOLATED
    else:
        v = Verdict.UNDECIDED
    return Comparison(v, a, b, s)


def decide_eq(lhs: Any, rhs: Any, precision: Precision = DEFAULT_PRECISION) -> Verdict:
    """Decide ``lhs == rhs``: HOLDS only on an exact proof of equality."""
    s = decide_sign(exact(rhs) - exact(lhs), precision)
    if s.sign is Sign.ZERO:
        return Verdict.HOLDS
    if s.sign in (Sign.POSITIVE, Sign.NEGATIVE):
        return Verdict.VIOLATED
    return Verdict.UNDECIDED


def exact_max(values: Sequence[Any], precision: Precision = DEFAULT_PRECISION) -> tuple[int, bool]:
    """Index of a maximum of ``values`` and whether it is certified.

    Ties (proved equal) keep the first index.  When two candidates can be neither
    separated nor proved equal the returned index is the best guess and the flag is
    ``False``.

    >>> exact_max([sp.Rational(1, 2), sp.log(2), sp.Rational(1, 3)])
    (1, True)
    """
    if not values:
        raise InvalidParameter("exact_max of an empty sequence")
    best = 0
    certified = True
    for i in range(1, len(values)):
        c = decide_le(values[i], values[best], precision)
        if c.verdict is Verdict.VIOLATED:
            best = i
        elif c.verdict is Verdict.UNDECIDED:
            certified = False
            if approx(values[i]) > approx(values[best]):
                best = i
    return best, certified
