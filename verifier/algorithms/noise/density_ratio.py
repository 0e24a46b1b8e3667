"""The exact supremum of the ratio of two piecewise exponential densities.

The pure ε of a mechanism whose output ``v`` has a density on each input is the
supremum over ``v`` of the log-ratio of the two densities (Dwork & Roth 2014, "The
algorithmic foundations of differential privacy", Def. 2.4: ``P(M(D) ∈ S) <= e^ε
P(M(D') ∈ S)`` for every measurable ``S`` is equivalent to ``f_D <= e^ε f_D'`` almost
everywhere).  Here both densities are :class:`~.expoly.PW` functions whose pieces
are sums ``Σ_k c_k W^{k v}`` (``W = e^{-u}``, ``u`` rational, coefficients
:class:`~.expoly.Laurent` polynomials in ``W``): the density of the maximum of
noisy values under Laplace or exponential noise
(:func:`~.noisy_max.max_density`), a sum of products of densities and distribution
functions, no integral.

On a piece ``[a, b)`` the substitution ``y = W^v = e^{-uv}`` (``t = 1/y`` on a piece
reaching ``-∞``) turns both pieces into polynomials ``F(t)``, ``G(t)`` on an interval
``(lo, hi)`` of ``t`` whose ends are powers of ``W`` (or ``0`` for the infinite end).
The supremum of ``F/G`` on the piece is attained at an end (a one-sided limit:
common factors ``(t - t_0)`` divided out exactly, so ``0/0`` ends become limits) or
at an interior critical point.  The algorithm:

1. the candidates: every end of every piece (a limit ratio ``F(t_0)/G(t_0)``, or
   ``∞`` when only ``G`` vanishes there, or where ``G`` vanishes on a whole piece and
   ``F`` does not — a set of outputs possible on one input only); their largest
   ``M = p/q``, compared exactly (:func:`.checks.max_log_ratio`);
2. the certificate that no interior point exceeds it: ``H = q F - p G <= 0`` on every
   open piece (for a positive ``G``, ``F/G <= p/q`` there), by Descartes' rule of
   signs on the interval (Collins & Akritas 1976, "Polynomial real root isolation
   using Descartes' rule of signs": the number of sign changes of the coefficients of
   ``(1+s)^n H((lo + hi s)/(1+s))`` bounds the number of roots of ``H`` in
   ``(lo, hi)`` and has its parity; no sign change means no root) with bisection,
   after dividing out the roots of ``H`` at the ends (where ``M`` is attained);
   every sign is exact: a coefficient is a Laurent polynomial in ``W = e^{-u}``,
   transcendental for rational ``u != 0`` (Lindemann 1882), so it vanishes only when
   identically zero and its sign is that of a refined enclosure
   (:meth:`.expoly.Laurent.sign`).

If ``H > 0`` at a bisection point, an interior critical point exceeds every end:
:func:`sup_log_ratio` then reports the exact ratio at that point as a lower bound
(``interior=True``); :func:`ratio_at_most` still certifies a larger bound (the
largest over several pairs).  Nothing is ever decided from a float.

>>> from fractions import Fraction
>>> from verifier.algorithms.noise.expoly import CONTINUOUS
>>> from verifier.algorithms.noise.distributions import laplace_density
>>> ring = CONTINUOUS.at_unit(Fraction(1, 20))
>>> f = laplace_density(ring, 1)                 # Lap(20) at 0 and at 1
>>> sup_log_ratio(f, f.shifted(-1), Fraction(1, 20)).value   # e^{ε Δ / b}: Δ = 1, b = 20
1/20
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import sympy as sp

from ...arithmetic.precision import interval_context
from ...errors import InvalidParameter
from .checks import max_log_ratio
from .expoly import PW, Laurent

__all__ = ["RatioSup", "sup_log_ratio", "ratio_at_most", "best_of", "UndecidedRatio"]

_ZERO = Laurent({})
_ONE = Laurent.const(1)

#: bisection depth of the Descartes test on one piece before giving up
MAX_DEPTH = 40


class UndecidedRatio(InvalidParameter):
    """The interior of a piece could not be certified within :data:`MAX_DEPTH`
    bisections (a root of ``H`` of even multiplicity, where ``F/G`` touches ``M``)."""


@dataclass(frozen=True)
class RatioSup:
    """``sup_v log(f(v)/g(v))``: ``value`` its closed form (``sp.oo`` when unbounded),
    ``p/q`` the ratio attaining it (Laurent polynomials in ``W``; ``q = 0`` when
    unbounded), ``where`` a description of the point or limit, ``event`` for a
    support mismatch: the exact probabilities ``(∫_piece f, ∫_piece g = 0)`` of the
    piece where only ``f`` is positive.  ``interior``: an interior critical point
    exceeds every end; ``value`` is then the exact log-ratio at a point of it (a
    lower bound of the supremum), not the supremum."""

    value: sp.Expr
    p: Laurent
    q: Laurent
    where: str
    event: tuple[Laurent, Laurent] | None = None
    interior: bool = False


# ---------------------------------------------------------------------------
# polynomials with Laurent coefficients (index = degree)
# ---------------------------------------------------------------------------

Poly = list[Laurent]


def _trim(a: Poly) -> Poly:
    a = list(a)
    while a and a[-1].is_zero:
        a.pop()
    return a


def _eval(a: Poly, x: Laurent) -> Laurent:
    acc = _ZERO
    for c in reversed(a):
        acc = acc * x + c
    return acc


def _divide_root(a: Poly, x: Laurent) -> Poly:
    """``a(t) / (t - x)`` for a root ``x`` of ``a`` (synthetic division, exact)."""
    n = len(a) - 1
    out: Poly = [_ZERO] * n
    carry = _ZERO
    for k in range(n, 0, -1):
        carry = a[k] + carry * x
        out[k - 1] = carry
    if not (a[0] + carry * x).is_zero:
        raise InvalidParameter("internal: dividing by a factor that is not one")
    return out


def _mul(a: Poly, b: Poly) -> Poly:
    out = [_ZERO] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        if x.is_zero:
            continue
        for j, y in enumerate(b):
            out[i + j] = out[i + j] + x * y
    return out


def _descartes(a: Poly, lo: Laurent, hi: Laurent, u: Fraction) -> int:
    """Sign changes of ``(1+s)^n a((lo + hi s)/(1+s))``: an upper bound on the number
    of roots of ``a`` in ``(lo, hi)``, of the same parity (Collins & Akritas 1976)."""
    signs = [x.sign(u) for x in _moebius(a, lo, hi) if not x.is_zero]
    return sum(1 for s1, s2 in zip(signs, signs[1:], strict=False) if s1 != s2)


def _moebius(a: Poly, lo: Laurent, hi: Laurent) -> Poly:
    """The coefficients in ``s`` of ``(1+s)^n a((lo + hi s)/(1+s))``, ``n = deg a``."""
    n = len(a) - 1
    # the coefficients are summed as integer numerators over a common denominator and
    # made Laurent polynomials (reduced) once at the end: exact, without reducing
    # every partial sum
    nums: list[dict[int, int]] = [{} for _ in range(n + 1)]
    dens = [1] * (n + 1)
    lin = [lo, hi]  # lo + hi s
    pow_lin: list[Poly] = [[_ONE]]
    for _ in range(n):
        pow_lin.append(_mul(pow_lin[-1], lin))
    for k, c in enumerate(a):
        if c.is_zero:
            continue
        # c (lo + hi s)^k (1 + s)^m: the coefficients of (1 + s)^m are the binomials
        m = n - k
        binomials = [math.comb(m, j) for j in range(m + 1)]
        for i, x in enumerate(pow_lin[k]):
            if x.is_zero:
                continue
            cx = c * x
            for j, b in enumerate(binomials):
                acc, den = nums[i + j], dens[i + j]
                if den % cx.den:
                    scale = cx.den // math.gcd(den, cx.den)
                    acc = {e: v * scale for e, v in acc.items()}
                    den *= scale
                    nums[i + j], dens[i + j] = acc, den
                f = b * (den // cx.den)
                for e, v in cx.num.items():
                    acc[e] = acc.get(e, 0) + v * f
    return [Laurent(acc, den) for acc, den in zip(nums, dens, strict=True)]


def _nonpositive(
    h: Poly, lo: Laurent, hi: Laurent, u: Fraction, depth: int = MAX_DEPTH
) -> Laurent | None:
    """``None`` when ``h <= 0`` on the open interval ``(lo, hi)``; otherwise a point
    of it where ``h > 0``.  Raises :class:`UndecidedRatio` past ``depth``."""
    h = _trim(h)
    flip = 1
    # roots at the ends: (t - lo) > 0 and (t - hi) < 0 inside, so dividing keeps or
    # flips the sign
    while len(h) > 1 and _eval(h, lo).is_zero:
        h = _divide_root(h, lo)
    while len(h) > 1 and _eval(h, hi).is_zero:
        h = _divide_root(h, hi)
        flip = -flip
    if not h:
        return None
    mid = (lo + hi) * Fraction(1, 2)
    s = _eval(h, mid).sign(u) * flip
    if s > 0:
        return mid
    if len(h) == 1 or _descartes(h, lo, hi, u) == 0:
        return None  # no root inside: the sign of h is constant, that at mid
    if depth == 0:
        raise UndecidedRatio("internal: no certificate after the maximum bisection depth")
    if flip < 0:
        h = [-c for c in h]
    return _nonpositive(h, lo, mid, u, depth - 1) or _nonpositive(h, mid, hi, u, depth - 1)


# ---------------------------------------------------------------------------
# pieces in the variable t
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class _Piece:
    F: Poly
    G: Poly
    lo: Laurent  # ends of the t-interval; t = W^v (or W^{-v}): 0 is an infinite end
    hi: Laurent
    lo_label: str
    hi_label: str
    a: int | None
    b: int | None
    #: the parts multiplied by v (terms v W^{kv}); v = sigma log(t)/u
    F1: Poly = dataclasses.field(default_factory=list)
    G1: Poly = dataclasses.field(default_factory=list)
    sigma: int = -1
    v_lo: int | None = None  # v at t = lo (None: infinite)
    v_hi: int | None = None

    @property
    def log(self) -> bool:
        return bool(self.F1 or self.G1)


def _pieces(f: PW, g: PW) -> list[_Piece]:
    breaks = sorted(set(f.breaks) | set(g.breaks)) or [0]
    ff, gg = f.refine(breaks), g.refine(breaks)
    out: list[_Piece] = []
    for i, (pf, pg) in enumerate(zip(ff.pieces, gg.pieces, strict=True)):
        a, b = ff.bounds(i)
        if pf.degree > 1 or pg.degree > 1:
            raise InvalidParameter(
                "the density ratio needs pieces Σ (c + c' v) W^{kv} (v to the power 0 or 1)"
            )
        parts = [
            {k: c for (k, d), c in e.terms.items() if d == deg} for e in (pf, pg) for deg in (0, 1)
        ]
        sign = 1 if a is None else -1
        ks = [sign * -k for part in parts for k in part] or [0]
        if a is None:
            # t = W^{-v} = 1/y in (0, W^{-b}]: exponent k of y becomes -k
            lo, hi = _ZERO, Laurent.monomial(-b)  # type: ignore[operator]
            lo_label, hi_label = "v -> -oo", f"v -> {b} from below"
            v_lo, v_hi = None, b
        else:
            lo = _ZERO if b is None else Laurent.monomial(b)
            hi = Laurent.monomial(a)
            lo_label = "v -> +oo" if b is None else f"v -> {b} from below"
            hi_label = f"v -> {a} from above"
            v_lo, v_hi = b, a
        kmin = min(ks)
        deg = max(ks) - kmin
        polys: list[Poly] = []
        for part in parts:
            poly: Poly = [_ZERO] * (deg + 1)
            for k, c in part.items():
                poly[sign * -k - kmin] = c
            polys.append(_trim(poly))
        F0, F1, G0, G1 = polys
        out.append(_Piece(F0, G0, lo, hi, lo_label, hi_label, a, b, F1, G1, sign, v_lo, v_hi))
    return out


def _limit(F: Poly, G: Poly, t0: Laurent) -> tuple[Laurent, Laurent]:
    """``(F, G)`` at ``t0`` after dividing out their common factors ``(t - t0)``."""
    while len(F) > 1 and len(G) > 1 and _eval(F, t0).is_zero and _eval(G, t0).is_zero:
        F, G = _divide_root(F, t0), _divide_root(G, t0)
    return _eval(F, t0), _eval(G, t0)


# ---------------------------------------------------------------------------
# pieces with terms v W^{kv}: H(t) = H0(t) + v H1(t), v = sigma log(t) / u
# ---------------------------------------------------------------------------


def _deriv(a: Poly) -> Poly:
    return [c * k for k, c in enumerate(a)][1:]


def _lowest_index(a: Poly) -> int | None:
    for k, c in enumerate(a):
        if not c.is_zero:
            return k
    return None


def _dominant(h0: Poly, h1: Poly, sigma: int) -> tuple[int, int, Laurent, int] | None:
    """The dominant term of ``h0 + v h1`` as ``t -> 0`` (``v -> -sigma oo``):
    ``(index j, power of v L, coefficient, sign of v^L)``; ``t^j |log t|`` beats
    ``t^j`` and loses to ``t^{j-1}``."""
    j0, j1 = _lowest_index(h0), _lowest_index(h1)
    if j1 is not None and (j0 is None or j1 <= j0):
        return j1, 1, h1[j1], -sigma
    if j0 is not None:
        return j0, 0, h0[j0], 1
    return None


def _iv_laurent(ctx: Any, x: Laurent, u: Fraction, bits: int) -> Any:
    lo, hi = x.enclosure(u, bits)
    a = ctx.mpf(lo.numerator) / lo.denominator
    b = ctx.mpf(hi.numerator) / hi.denominator
    return ctx.mpf([a.a, b.b])


def _iv_poly(ctx: Any, a: Poly, t: Any, u: Fraction, bits: int) -> Any:
    acc = ctx.mpf(0)
    for c in reversed(a):
        acc = acc * t + _iv_laurent(ctx, c, u, bits)
    return acc


def _sign_log_at(h0: Poly, h1: Poly, sigma: int, t: Laurent, u: Fraction) -> int:
    """The sign of ``h0(t) + sigma log(t)/u h1(t)`` at a positive Laurent ``t``
    (interval enclosures refined until they exclude 0; a zero is not decided)."""
    bits = 96
    while bits <= 6144:
        with interval_context(bits + 32) as ctx:
            tt = _iv_laurent(ctx, t, u, bits)
            val = _iv_poly(ctx, h0, tt, u, bits) + ctx.log(tt) * (
                ctx.mpf(sigma * u.denominator) / u.numerator
            ) * _iv_poly(ctx, h1, tt, u, bits)
            if val.a > 0:
                return 1
            if val.b < 0:
                return -1
        bits *= 2
    raise UndecidedRatio("internal: the sign of a log-exponential term is not separated")


def _upper_log_on(h0: Poly, h1: Poly, sigma: int, a: Laurent, b: Laurent, u: Fraction) -> bool:
    """Whether an interval enclosure proves ``h0 + v h1 < 0`` on all of ``[a, b]``
    (``0 < a``)."""
    with interval_context(160) as ctx:
        ta = _iv_laurent(ctx, a, u, 128)
        tb = _iv_laurent(ctx, b, u, 128)
        tt = ctx.mpf([ta.a, tb.b])
        val = _iv_poly(ctx, h0, tt, u, 128) + ctx.log(tt) * (
            ctx.mpf(sigma * u.denominator) / u.numerator
        ) * _iv_poly(ctx, h1, tt, u, 128)
        return bool(val.b < 0)


def _k_end_sign(
    h0: Poly, h1: Poly, sigma: int, t0: Laurent, v0: int | None, s_h1: int, u: Fraction
) -> int:
    """The sign of ``s_h1 · K`` at the end ``t0`` of an interval on whose inside
    ``h1`` has the sign ``s_h1`` and ``K = h0/h1 + v`` is monotone: the sign of ``h``
    just inside, which decides ``h <= 0`` there (see :func:`_nonpositive_log`).
    ``v0`` is the (integer) value of ``v`` at ``t0`` when exact, ``None`` at ``t = 0``
    or at a bisection point."""
    if t0.is_zero:
        # K(0+) = lim h0/h1 + v: a pole of h0/h1 beats the logarithm
        j0, j1 = _lowest_index(h0), _lowest_index(h1)
        assert j1 is not None
        if j0 is not None and j0 < j1:
            return s_h1 * h0[j0].sign(u) * h1[j1].sign(u)
        return s_h1 * -sigma
    H1 = _eval(h1, t0)
    if v0 is not None:
        H = _eval(h0, t0) + H1 * v0
        if not H.is_zero or not H1.is_zero:
            return H.sign(u)  # K(t0) = H/H1, or a pole of the sign of H
        # both vanish: K(t0) = (h0/(t - t0))/(h1/(t - t0)) + v0
        a0, a1 = _divide_root(h0, t0), _divide_root(h1, t0)
        d1 = _eval(a1, t0)
        if d1.is_zero:
            raise UndecidedRatio("internal: a double root of the v-part at an end")
        k = _eval(a0, t0) + d1 * v0
        return s_h1 * k.sign(u) * d1.sign(u)
    if not H1.is_zero:
        return _sign_log_at(h0, h1, sigma, t0, u)
    H0 = _eval(h0, t0)
    if H0.is_zero:
        raise UndecidedRatio("internal: h0 and h1 vanish at a bisection point")
    return H0.sign(u)


def _nonpositive_log(
    h0: Poly,
    h1: Poly,
    sigma: int,
    lo: Laurent,
    hi: Laurent,
    v_lo: int | None,
    v_hi: int | None,
    u: Fraction,
) -> Laurent | None:
    """``None`` when ``h(t) = h0(t) + v h1(t) <= 0`` on ``(lo, hi)``, ``v = sigma
    log(t)/u``; otherwise a point of it where ``h > 0``.

    Where ``h1 != 0``, ``h = h1 K`` with ``K = h0/h1 + v`` and ``K' = R/(u t h1^2)``,
    ``R = u t (h0' h1 - h0 h1') + sigma h1^2`` a polynomial (the derivative of the
    logarithm is ``1/t``: Khovanskii 1991, "Fewnomials", the Rolle-type reduction of
    exponential-polynomial sums).  On an interval where ``h1 R`` has no root
    (Descartes' rule of signs, exact), ``K`` is strictly monotone and ``h1`` of one
    sign, so ``h <= 0`` inside follows from the signs of ``h`` at the two ends;
    elsewhere the interval is bisected, and one containing a single root of ``h1 R``
    is closed by an interval enclosure of ``h`` once narrow enough."""
    h0, h1 = _trim(h0), _trim(h1)
    if not h1:
        return _nonpositive(h0, lo, hi, u)
    z = [_ZERO]
    D = _sub(_mul(_deriv(h0) or z, h1), _mul(h0 or z, _deriv(h1) or z))  # h0' h1 - h0 h1'
    R = _trim(_sub([_ZERO] + [c * u for c in D], _scale(_mul(h1, h1), Laurent.const(-sigma))))
    S = _trim(_mul(h1, R)) if R else h1

    def rec(a: Laurent, b: Laurent, va: int | None, vb: int | None, depth: int) -> Laurent | None:
        mid = (a + b) * Fraction(1, 2)
        H1m = _eval(h1, mid)
        sm = _sign_log_at(h0, h1, sigma, mid, u) if not H1m.is_zero else _eval(h0, mid).sign(u)
        if sm > 0:
            return mid
        count = _descartes(S, a, b, u) if len(S) > 1 else 0
        if count == 0:
            s_h1 = H1m.sign(u)
            if s_h1 == 0:
                raise UndecidedRatio("internal: h1 vanishes at a bisection point")
            for t0, v0 in ((a, va), (b, vb)):
                if _k_end_sign(h0, h1, sigma, t0, v0, s_h1, u) > 0:
                    if not t0.is_zero:
                        return t0
                    # h > 0 as t -> 0: find a point of it
                    x = mid
                    for _ in range(200):
                        x = x * Fraction(1, 2)
                        if _sign_log_at(h0, h1, sigma, x, u) > 0:
                            return x
                    raise UndecidedRatio("internal: h > 0 near t = 0 but at no probe")
            return None
        if count == 1 and not a.is_zero and depth < MAX_DEPTH - 8:
            if _upper_log_on(h0, h1, sigma, a, b, u):
                return None
        if depth == 0:
            raise UndecidedRatio("internal: no certificate after the maximum bisection depth")
        return rec(a, mid, va, None, depth - 1) or rec(mid, b, None, vb, depth - 1)

    return rec(lo, hi, v_lo, v_hi, MAX_DEPTH)


def _end_value(F0: Poly, F1: Poly, t0: Laurent, v0: int) -> Laurent:
    return _eval(F0, t0) + _eval(F1, t0) * v0


def _log(p: Laurent, q: Laurent, u: Fraction) -> sp.Expr:
    uu = sp.Rational(u.numerator, u.denominator)
    return sp.log(p.to_sympy(uu) / q.to_sympy(uu))


def sup_log_ratio(f: PW, g: PW, u: Fraction) -> RatioSup:
    """``sup_v log(f(v)/g(v))`` exactly (module docstring) for two densities with
    pieces ``Σ_k c_k W^{kv}`` on the same unit ``u`` (rational, ``W = e^{-u}``)."""
    pieces = _pieces(f, g)
    # 1. support mismatch: f > 0 = g on a whole piece
    for pc in pieces:
        if (pc.F or pc.F1) and not (pc.G or pc.G1):
            pf = f.refine([x for x in (pc.a, pc.b) if x is not None])
            mass = pf.total_between(pc.a, pc.b)
            where = f"v in [{_end(pc.a)}, {_end(pc.b)}) (density 0 on the second input)"
            return RatioSup(sp.oo, mass, _ZERO, where, event=(mass, _ZERO))
    # 2. the ends of every piece
    P: dict[Hashable, Laurent] = {}
    Q: dict[Hashable, Laurent] = {}
    for pc in pieces:
        if not (pc.F or pc.F1):
            continue
        for t0, label, v0 in ((pc.lo, pc.lo_label, pc.v_lo), (pc.hi, pc.hi_label, pc.v_hi)):
            p, q = _limit(pc.F, pc.G, t0) if not pc.log else _log_limit(pc, t0, v0)
            if p.is_zero:
                continue
            if q.is_zero:
                return RatioSup(sp.oo, p, q, f"{label} (the ratio is unbounded)")
            P[label], Q[label] = p, q
    if not P:
        raise InvalidParameter("the first density is zero everywhere")
    best = max_log_ratio(P, Q, u)
    p, q = best.p, best.q
    # 3. no interior point above the best end
    for pc in pieces:
        if not (pc.F or pc.F1):
            continue
        at = _certify(pc, p, q, u)
        if at is not None:
            if pc.log:
                return RatioSup(
                    _log_at(pc, at, u),
                    _ONE,
                    _ONE,
                    f"an interior critical point of v in [{_end(pc.a)}, {_end(pc.b)}) "
                    "exceeds every end (the value is the ratio at one of its points)",
                    interior=True,
                )
            fp, gp = _eval(pc.F, at), _eval(pc.G, at)
            return RatioSup(
                _log(fp, gp, u),
                fp,
                gp,
                f"an interior critical point of v in [{_end(pc.a)}, {_end(pc.b)}) "
                "exceeds every end (the value is the ratio at one of its points)",
                interior=True,
            )
    return RatioSup(best.value, p, q, str(best.output))


def ratio_at_most(f: PW, g: PW, u: Fraction, p: Laurent, q: Laurent) -> bool:
    """Whether ``f(v)/g(v) <= p/q`` for almost every ``v`` (``q > 0``), decided
    exactly: ``q f - p g <= 0`` on every piece (module docstring, step 3)."""
    if q.sign(u) <= 0:
        raise InvalidParameter("the bound's denominator must be positive")
    for pc in _pieces(f, g):
        if not (pc.F or pc.F1):
            continue
        if not (pc.G or pc.G1):
            return False
        if _certify(pc, p, q, u) is not None:
            return False
        if pc.log:
            # the ends of a piece with v-terms are not covered by the certificate
            for t0, v0 in ((pc.lo, pc.v_lo), (pc.hi, pc.v_hi)):
                fp, gp = _log_limit(pc, t0, v0)
                if gp.is_zero and not fp.is_zero:
                    return False
                if not gp.is_zero and (fp * q - gp * p).sign(u) > 0:
                    return False
    return True


def _certify(pc: _Piece, p: Laurent, q: Laurent, u: Fraction) -> Laurent | None:
    """A point of the open piece where ``f/g > p/q``, or ``None`` (certified)."""
    H = _sub(_scale(pc.F, q), _scale(pc.G, p))
    if not pc.log:
        return _nonpositive(H, pc.lo, pc.hi, u)
    H1 = _sub(_scale(pc.F1, q), _scale(pc.G1, p))
    return _nonpositive_log(H, H1, pc.sigma, pc.lo, pc.hi, pc.v_lo, pc.v_hi, u)


def _log_limit(pc: _Piece, t0: Laurent, v0: int | None) -> tuple[Laurent, Laurent]:
    """``(f, g)`` at an end of a piece with v-terms: exact values at a finite end, the
    dominant coefficients as ``t -> 0`` (the ratio's limit; ``(1, 0)`` or ``(0, 1)``
    when one dominates)."""
    if v0 is not None:
        fp, gp = _end_value(pc.F, pc.F1, t0, v0), _end_value(pc.G, pc.G1, t0, v0)
        if fp.is_zero and gp.is_zero:
            raise UndecidedRatio("internal: 0/0 at a finite end of a piece with v-terms")
        return fp, gp
    df, dg = _dominant(pc.F, pc.F1, pc.sigma), _dominant(pc.G, pc.G1, pc.sigma)
    assert df is not None and dg is not None
    kf, kg = (df[0], -df[1]), (dg[0], -dg[1])
    if kf < kg:
        return _ONE, _ZERO
    if kf > kg:
        return _ZERO, _ONE
    return df[2] * df[3], dg[2] * dg[3]  # the sign of v^L: both positive densities


def _log_at(pc: _Piece, t: Laurent, u: Fraction) -> sp.Expr:
    """The exact log-ratio at the point ``t`` of a piece with v-terms."""
    uu = sp.Rational(u.numerator, u.denominator)
    tt = t.to_sympy(uu)
    v = pc.sigma * sp.log(tt) / uu
    f = _eval(pc.F, t).to_sympy(uu) + v * _eval(pc.F1, t).to_sympy(uu)
    g = _eval(pc.G, t).to_sympy(uu) + v * _eval(pc.G1, t).to_sympy(uu)
    return sp.log(f / g)


def _scale(a: Poly, c: Laurent) -> Poly:
    return [x * c for x in a]


def _sub(a: Poly, b: Poly) -> Poly:
    n = max(len(a), len(b))
    a = a + [_ZERO] * (n - len(a))
    b = b + [_ZERO] * (n - len(b))
    return [x - y for x, y in zip(a, b, strict=True)]


def _end(x: int | None) -> str:
    return "oo" if x is None else str(x)


def best_of(results: Sequence[RatioSup], u: Fraction) -> int:
    """The index of the largest of several suprema (exact comparisons; an unbounded
    one with a support-mismatch event first)."""
    inf = [i for i, r in enumerate(results) if r.value == sp.oo]
    if inf:
        with_event = [i for i in inf if results[i].event is not None]
        return (with_event or inf)[0]
    P: dict[Hashable, Laurent] = {i: r.p for i, r in enumerate(results)}
    Q: dict[Hashable, Laurent] = {i: r.q for i, r in enumerate(results)}
    out = max_log_ratio(P, Q, u).output
    assert isinstance(out, int)
    return out
