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

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction

import sympy as sp

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
    n = len(a) - 1
    total: Poly = [_ZERO] * (n + 1)
    lin = [lo, hi]  # lo + hi s
    one_s = [_ONE, _ONE]  # 1 + s
    pow_lin: list[Poly] = [[_ONE]]
    for _ in range(n):
        pow_lin.append(_mul(pow_lin[-1], lin))
    pow_one: list[Poly] = [[_ONE]]
    for _ in range(n):
        pow_one.append(_mul(pow_one[-1], one_s))
    for k, c in enumerate(a):
        if c.is_zero:
            continue
        term = _mul(pow_lin[k], pow_one[n - k])
        for i, x in enumerate(term):
            total[i] = total[i] + c * x
    signs = [x.sign(u) for x in total if not x.is_zero]
    return sum(1 for s1, s2 in zip(signs, signs[1:], strict=False) if s1 != s2)


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


def _pieces(f: PW, g: PW) -> list[_Piece]:
    breaks = sorted(set(f.breaks) | set(g.breaks)) or [0]
    ff, gg = f.refine(breaks), g.refine(breaks)
    out: list[_Piece] = []
    for i, (pf, pg) in enumerate(zip(ff.pieces, gg.pieces, strict=True)):
        a, b = ff.bounds(i)
        if pf.degree or pg.degree:
            raise InvalidParameter(
                "the density ratio needs pieces Σ c W^{kv} (no polynomial factor in v)"
            )
        terms = {k: c for (k, _), c in pf.terms.items()}
        gterms = {k: c for (k, _), c in pg.terms.items()}
        ks = list(terms) + list(gterms) or [0]
        if a is None:
            # t = W^{-v} = 1/y in (0, W^{-b}]: exponent k of y becomes -k
            terms = {-k: c for k, c in terms.items()}
            gterms = {-k: c for k, c in gterms.items()}
            ks = [-k for k in ks]
            lo, hi = _ZERO, Laurent.monomial(-b)  # type: ignore[operator]
            lo_label, hi_label = "v -> -oo", f"v -> {b} from below"
        else:
            lo = _ZERO if b is None else Laurent.monomial(b)
            hi = Laurent.monomial(a)
            lo_label = "v -> +oo" if b is None else f"v -> {b} from below"
            hi_label = f"v -> {a} from above"
        kmin = min(ks)
        deg = max(ks) - kmin
        F: Poly = [_ZERO] * (deg + 1)
        G: Poly = [_ZERO] * (deg + 1)
        for k, c in terms.items():
            F[k - kmin] = c
        for k, c in gterms.items():
            G[k - kmin] = c
        out.append(_Piece(_trim(F), _trim(G), lo, hi, lo_label, hi_label, a, b))
    return out


def _limit(F: Poly, G: Poly, t0: Laurent) -> tuple[Laurent, Laurent]:
    """``(F, G)`` at ``t0`` after dividing out their common factors ``(t - t0)``."""
    while len(F) > 1 and len(G) > 1 and _eval(F, t0).is_zero and _eval(G, t0).is_zero:
        F, G = _divide_root(F, t0), _divide_root(G, t0)
    return _eval(F, t0), _eval(G, t0)


def _log(p: Laurent, q: Laurent, u: Fraction) -> sp.Expr:
    uu = sp.Rational(u.numerator, u.denominator)
    return sp.log(p.to_sympy(uu) / q.to_sympy(uu))


def sup_log_ratio(f: PW, g: PW, u: Fraction) -> RatioSup:
    """``sup_v log(f(v)/g(v))`` exactly (module docstring) for two densities with
    pieces ``Σ_k c_k W^{kv}`` on the same unit ``u`` (rational, ``W = e^{-u}``)."""
    pieces = _pieces(f, g)
    # 1. support mismatch: f > 0 = g on a whole piece
    for pc in pieces:
        if pc.F and not pc.G:
            pf = f.refine([x for x in (pc.a, pc.b) if x is not None])
            mass = pf.total_between(pc.a, pc.b)
            where = f"v in [{_end(pc.a)}, {_end(pc.b)}) (density 0 on the second input)"
            return RatioSup(sp.oo, mass, _ZERO, where, event=(mass, _ZERO))
    # 2. the ends of every piece
    P: dict[Hashable, Laurent] = {}
    Q: dict[Hashable, Laurent] = {}
    for pc in pieces:
        if not pc.F:
            continue
        for t0, label in ((pc.lo, pc.lo_label), (pc.hi, pc.hi_label)):
            p, q = _limit(pc.F, pc.G, t0)
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
        if not pc.F:
            continue
        H = _sub(_scale(pc.F, q), _scale(pc.G, p))
        at = _nonpositive(H, pc.lo, pc.hi, u)
        if at is not None:
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
        if not pc.F:
            continue
        if not pc.G:
            return False
        H = _sub(_scale(pc.F, q), _scale(pc.G, p))
        if _nonpositive(H, pc.lo, pc.hi, u) is not None:
            return False
    return True


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
