"""Exact suprema of ratios of exponential polynomials on an infinite integer tail.

A released value with infinite support — the noisy answer of Lyu, Su, Li 2017's
Algorithm 3, the gap of GapSVT (Ding, Wang, Zhang, Kifer 2019), the noisy maximum
(Ding et al. 2018, Algorithm 7) — has, on each of its two infinite tails, a release
probability that is one exponential polynomial (:class:`~.expoly.ExpPoly`) of the
released value.  :func:`tail_sup` decides ``sup_v P(v)/Q(v)`` over such a tail
exactly, which is how those programs are checked on their whole output set.

>>> import sympy as sp
>>> from verifier.algorithms.noise.expoly import DISCRETE, ExpPoly
>>> one = DISCRETE.c(1)
>>> P = ExpPoly(DISCRETE, {(1, 0): one, (2, 0): one})   # W^v + W^{2v}
>>> Q = ExpPoly(DISCRETE, {(1, 0): one})                # W^v
>>> ts = tail_sup(P, Q, 0, 1, sp.log(2))                # v >= 0, W = 1/2: sup of 1 + 2^{-v}
>>> ts.value, ts.at, ts.limit
(2, 0, 1)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import sympy as sp
from gmpy2 import mpq

from ...arithmetic.exact import (
    DEFAULT_PRECISION,
    Precision,
    Sign,
    decide_le,
    decide_sign,
    enclose,
    exact,
    to_mpq,
)
from ...errors import InvalidParameter
from .expoly import ExpPoly, to_sympy

__all__ = ["TailSup", "tail_sup"]


@dataclass(frozen=True)
class TailSup:
    """``sup`` of ``P(v)/Q(v)`` over the integers of an infinite tail.

    ``value`` is exact (``oo`` when ``Q`` decays faster than ``P`` or vanishes);
    ``at`` is a tail point attaining it, or ``None`` when the supremum is the limit at
    infinity and is not attained; ``checked_up_to`` is the last point examined one by
    one before the rest of the tail was proved to stay at or below ``value``.
    """

    value: sp.Expr
    at: int | None
    limit: sp.Expr
    checked_up_to: int


def _ratio(p: sp.Expr, q: sp.Expr) -> sp.Expr:
    if q == 0:
        return sp.oo if p != 0 else sp.Integer(0)
    return p / q


def tail_sup(
    P: ExpPoly,
    Q: ExpPoly,
    start: int,
    direction: int,
    u: sp.Expr,
    precision: Precision = DEFAULT_PRECISION,
    max_scan: int = 20_000,
) -> TailSup:
    """Exact ``sup_v P(v)/Q(v)`` over ``v = start, start+direction, ...`` (to ±∞).

    Along the tail write ``x = direction·v -> +∞``; ``P`` and ``Q`` are finite sums
    ``Σ a_{j,p} x^p W^{j x}`` with ``j > 0`` (they decay).  The dominant term (smallest
    ``j``, then largest ``p``) fixes the limit of the ratio.  For a candidate supremum
    ``M`` let ``M·Q - P = Σ c_{j,p} x^p W^{jx}`` with dominant term ``c_0 x^{p0} W^{j0 x}``,
    ``c_0 > 0``.  Then ``M·Q - P >= x^{p0} W^{j0 x} (c_0 - Σ |c_{j,p}| x^{p-p0}
    W^{(j-j0)x})`` and every term of the subtracted sum decreases for
    ``x >= x1 = max(1, (p-p0)/((j-j0)u))``; so once the bracket is positive at some
    ``x* >= x1`` it stays positive beyond, and only the finitely many tail points
    before ``x*`` are checked one by one (exactly), raising ``M`` whenever one
    exceeds it.  Every comparison is exact or certified.
    """
    if direction not in (1, -1):
        raise InvalidParameter("direction must be +1 or -1")
    for f in (P, Q):
        for k, _ in f.terms:
            if k * direction <= 0:
                raise InvalidParameter("internal: a tail function that does not decay")
    w = sp.exp(-u)

    def coeffs(f: ExpPoly) -> dict[tuple[int, int], sp.Expr]:
        # x = direction·v: v^p = direction^p x^p; W^{kv} = W^{|k| x}
        return {(abs(k), p): to_sympy(c, u) * direction**p for (k, p), c in f.terms.items()}

    a, b = coeffs(P), coeffs(Q)

    def value_at(f: dict[tuple[int, int], sp.Expr], x: int) -> sp.Expr:
        t = w**x
        return sp.Add(*[c * sp.Integer(x) ** p * t**j for (j, p), c in f.items()])

    def sign(x: sp.Expr) -> Sign:
        s = decide_sign(x, precision).sign
        if s is Sign.UNDECIDED:
            raise InvalidParameter(f"could not decide the sign of {x} (precision exhausted)")
        return s

    def dominant(f: dict[tuple[int, int], sp.Expr]) -> tuple[int, int] | None:
        nz = [jp for jp, c in f.items() if sign(c) is not Sign.ZERO]
        return min(nz, key=lambda jp: (jp[0], -jp[1])) if nz else None

    x0 = direction * start
    da, db = dominant(a), dominant(b)
    if da is None:
        return TailSup(sp.Integer(0), start, sp.Integer(0), start)
    if db is None or (da[0], -da[1]) < (db[0], -db[1]):
        return TailSup(sp.oo, None, sp.oo, start)
    limit = a[da] / b[db] if da == db else sp.Integer(0)

    def positive_from(M: sp.Expr) -> int | None:
        """``x*`` with ``P <= M·Q`` proved for every tail point ``x >= x*``; ``None``
        when the dominant coefficient of ``M·Q - P`` is negative."""
        c = {jp: M * b.get(jp, sp.Integer(0)) - a.get(jp, sp.Integer(0)) for jp in set(a) | set(b)}
        d0 = dominant(c)
        if d0 is None:
            return x0  # M·Q - P vanishes identically
        c0 = c[d0]
        if sign(c0) is Sign.NEGATIVE:
            return None
        rest = {jp: cv for jp, cv in c.items() if jp != d0 and sign(cv) is not Sign.ZERO}
        if not rest:
            return x0
        j0, p0 = d0
        x1 = 1
        for j, p in rest:
            if p > p0:
                x1 = max(x1, int(sp.ceiling(sp.Rational(p - p0, j - j0) / _lower(u, precision))))
        x = max(x1, x0, 1)
        step = 1
        while True:
            bracket = c0 - sp.Add(
                *[
                    sp.Abs(cv) * sp.Integer(x) ** (p - p0) * w ** ((j - j0) * x)
                    for (j, p), cv in rest.items()
                ]
            )
            if sign(bracket) is Sign.POSITIVE:
                return x
            x += step
            step *= 2
            if x - x0 > max_scan:
                raise InvalidParameter(
                    f"the tail analysis needs more than {max_scan} points (noise too weak)"
                )

    # with e^{-u} and every coefficient rational (geometric noise at a rational base),
    # the tail points' ratios are rationals: computed and compared in GMP rationals
    rational = w.is_Rational and all(c.is_Rational for c in (*a.values(), *b.values()))
    if rational:
        wq = to_mpq(w)
        aq = [(j, p, to_mpq(c)) for (j, p), c in a.items()]
        bq = [(j, p, to_mpq(c)) for (j, p), c in b.items()]

        def value_q(f: list[tuple[int, int, Any]], x: int) -> Any:
            return sum((c * x**p * wq ** (j * x) for j, p, c in f), mpq(0))

    best, best_at = limit, None
    last = x0 - 1  # last point examined (in x)
    while True:
        xs = positive_from(best)
        if xs is not None and last + 1 >= xs:
            return TailSup(best, best_at, limit, direction * last)
        target = xs - 1 if xs is not None else last + 64
        x = last + 1
        while x <= target:
            if rational and best.is_Rational:
                pv, qv = value_q(aq, x), value_q(bq, x)
                if qv == 0 and pv != 0:
                    return TailSup(sp.oo, direction * x, limit, direction * x)
                rq = pv / qv if qv != 0 else mpq(0)
                if rq > to_mpq(best):
                    best, best_at = exact(rq), direction * x
            else:
                r = _ratio(value_at(a, x), value_at(b, x))
                if r is sp.oo:
                    return TailSup(sp.oo, direction * x, limit, direction * x)
                cmp = decide_le(r, best, precision)
                if cmp.verdict.value == "undecided":
                    raise InvalidParameter(
                        "could not compare two tail ratios (precision exhausted)"
                    )
                if cmp.verdict.value == "violated":
                    best, best_at = r, direction * x
            last = x
            x += 1
            if x - x0 > max_scan:
                raise InvalidParameter(
                    f"the tail analysis needs more than {max_scan} points (noise too weak)"
                )


def _lower(u: sp.Expr, precision: Precision) -> sp.Rational:
    """A positive rational lower bound of ``u > 0``."""
    bits = precision.start_bits
    while True:
        enc = enclose(u, bits)
        if enc is not None and enc.lo > 0:
            man, exp_ = enc.lo.man_exp
            return sp.Rational(int(man)) * sp.Rational(2) ** int(exp_)
        if bits >= precision.max_bits:
            raise InvalidParameter(f"could not bound the unit {u} away from 0")
        bits *= 2
