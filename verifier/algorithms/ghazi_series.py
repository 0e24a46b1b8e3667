"""Exact and certified expectations over the shared dropping variable ``k``.

Ghazi, Kamath, Knop, Kumar, Manurangsi, Zhang 2025, "Private Hyperparameter Tuning
with Ex-Post Guarantee" — every output probability of Algorithms 1–3 has the form

    ``E_k[ e^{-c_0 k} · Π_j (1 - q_j e^{-ε_j k})^{T_j} ]``

(Ghazi et al. 2025, eq. (2) and the proofs of Theorems 10, 11 and 13), where ``k``
follows the prior ``E`` — ``Geom_{p'}`` with ``p' = e^{-ε'}`` (``Geom_p(k) = (1-p)
p^k``, ``p`` the *failure* probability, as in Ghazi et al. 2025, §2) or ``Exp_{ε'}``.  This module
evaluates such expectations in three ways:

``expand`` + :meth:`Prior.moment` (exact, "polynomial" path)
    The product is expanded into an *exponential polynomial*
    ``Σ_n c_n e^{-⟨n, ε⟩ k}`` whose exponents are integer combinations of the
    distinct budgets (or, when all budgets are rational multiples of one unit
    ``u``, integer multiples ``n·u``: a polynomial in ``z = e^{-uk}``).  Equal
    exponents merge, so repeated mechanisms and budgets on a common grid cost
    ``O(Σ_j m_j T_j)`` terms instead of ``2^d``; a factor repeated ``T`` times is a
    binomial power, never ``T`` copies.  Then, term by term,
    ``E_k[e^{-ck}] = (1-p')/(1 - p' e^{-c})`` (geometric) or ``ε'/(ε' + c)``
    (exponential), and ``Σ_{k≥k_0} Geom_{p'}(k) w^k = (1-p')(p'w)^{k_0}/(1 - p'w)``.
``subset_expansion`` (exact, symbolic reference path)
    The literal expansion over subsets ``T ⊆ J`` of the proof of Theorem 11 (Ghazi et al. 2025),
    ``Σ_T (-1)^{|T|} Π_{j∈T} q_j · E_k[e^{-(c_0 + Σ_{j∈T} ε_j) k}]``: exponential in
    ``d``, kept as an independent implementation to test the polynomial path.
``certified_expectation`` (certified enclosure, geometric prior)
    Summation over ``k`` in interval arithmetic with the tail bound folded into the
    enclosure: every term is at most ``bound · r^k`` for an explicit ratio ``r < 1``,
    so the tail after ``K`` terms is at most ``bound · r^K / (1 - r)`` and the
    enclosure of the full infinite sum is ``[S_K, S_K + tail]``.  It handles any
    number of copies (powers are computed as ``exp(T·log(1 - y))`` with a certified
    enclosure of ``log(1-y)``), e.g. the ``T_i`` in the billions of Theorem 12.

Coefficients are computed in the smallest exact sympy domain holding the ``q_j``
(rationals when the base mechanisms have rational probabilities), so exact
cancellation happens during the expansion, not later in a simplifier.

>>> half, third = sp.Rational(1, 2), sp.Rational(1, 3)
>>> prior = Prior("geometric", sp.log(2))           # p' = 1/2
>>> basis, keys = make_basis([sp.log(3), sp.log(3)])
>>> poly = expand([Factor(third, keys[0], 2)], basis)  # (1 - e^{-ε k}/3)^2
>>> expectation(poly, basis, prior)                 # Σ_k 2^{-k-1} (1 - 3^{-k}/3)^2
56/85
>>> expectation(poly, basis, prior) == subset_expansion(
...     [third, third], [sp.log(3), sp.log(3)], prior)
True
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import mpmath
import sympy as sp
from mpmath import libmp
from mpmath.libmp import libmpi
from sympy.polys.constructor import construct_domain

from ..arithmetic.exact import Enclosure, exact
from ..arithmetic.precision import interval_context, real_context
from ..errors import InvalidParameter

__all__ = [
    "Prior",
    "Basis",
    "Factor",
    "ExpPoly",
    "make_basis",
    "expand",
    "expectation",
    "subset_expansion",
    "certified_expectation",
    "iv_of",
    "RationalMoments",
    "IntPoly",
    "SeriesExpectation",
]

Key = tuple[int, ...]


# ---------------------------------------------------------------------------
# the prior on k
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Prior:
    """The distribution ``E`` of the shared variable ``k`` (Ghazi et al. 2025,
    Algorithm 3): ``"geometric"`` — ``Geom_{p'}`` on ``Z≥0`` with failure
    probability ``p' = e^{-ε'}`` — or ``"exponential"`` — ``Exp_{ε'}`` on ``R>0``.

    >>> Prior("geometric", sp.log(2)).moment(sp.log(3), sp.Rational(1, 3))
    3/5
    >>> Prior("exponential", 1).moment(2, sp.exp(-2))
    1/3
    """

    kind: str
    eps_prime: sp.Expr

    def __post_init__(self) -> None:
        if self.kind not in ("geometric", "exponential"):
            raise InvalidParameter(
                f"the prior must be 'geometric' or 'exponential', got {self.kind!r}"
            )
        object.__setattr__(self, "eps_prime", exact(self.eps_prime))

    @property
    def p(self) -> sp.Expr:
        """``p' = e^{-ε'}``, the failure probability of ``Geom_{p'}``."""
        return sp.exp(-self.eps_prime)

    def moment(self, c: Any, w: Any, start: int = 0) -> sp.Expr:
        """``E_k[e^{-ck} 1{k ≥ start}]`` where ``w = e^{-c}``.

        Geometric (Ghazi et al. 2025, eq. (2) summed in closed form):
        ``Σ_{k≥start} (1-p') p'^k w^k = (1-p') (p'w)^start / (1 - p'w)``.
        Exponential (Ghazi et al. 2025, §2): ``E[e^{-cx}] = ε'/(ε' + c)`` (``start`` must be 0).
        """
        if self.kind == "geometric":
            p = self.p
            pw = p * exact(w)
            return (1 - p) * pw**start / (1 - pw)
        if start:
            raise InvalidParameter("a start index applies to the geometric prior only")
        return self.eps_prime / (self.eps_prime + exact(c))

    def __str__(self) -> str:
        return (
            f"Geom_(e^-{self.eps_prime})" if self.kind == "geometric" else f"Exp_({self.eps_prime})"
        )


# ---------------------------------------------------------------------------
# exponents: integer combinations of the distinct budgets (or of one grid unit)
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Basis:
    """Exponents ``e^{-⟨n, ε⟩ k}`` are keyed by integer vectors ``n`` over ``eps``.

    ``x[b] = e^{-eps[b]}`` (kept as sympy evaluates it: ``e^{-log 2} = 1/2``).
    """

    eps: tuple[sp.Expr, ...]
    x: tuple[sp.Expr, ...]

    def zero(self) -> Key:
        return (0,) * len(self.eps)

    def c(self, key: Key) -> sp.Expr:
        """The additive exponent ``Σ_b n_b ε_b``."""
        return sp.Add(*(n * e for n, e in zip(key, self.eps, strict=True) if n))

    def w(self, key: Key) -> sp.Expr:
        """The multiplicative weight ``Π_b x_b^{n_b} = e^{-Σ n_b ε_b}``."""
        return sp.Mul(*(xb**n for n, xb in zip(key, self.x, strict=True) if n))


def _add(a: Key, b: Key) -> Key:
    return tuple(i + j for i, j in zip(a, b, strict=True))


def _scale(a: Key, t: int) -> Key:
    return tuple(i * t for i in a)


def _log_of_rational(e: sp.Expr) -> tuple[sp.Rational, sp.Rational] | None:
    """``(c, a)`` when ``e = c·log(a)`` with rationals ``c`` and ``a > 0``."""
    c, rest = e.as_coeff_Mul()
    if isinstance(rest, sp.log) and rest.args[0].is_Rational and rest.args[0] > 0:
        return c, rest.args[0]
    return None


def _exponent_vector(a: sp.Rational) -> dict[int, int] | None:
    """The prime exponents of a positive rational (``None`` if it is too large to
    factor at once)."""
    p, q = int(a.p), int(a.q)
    if max(p, q) > 10**12:
        return None
    out = dict(sp.factorint(p))
    for prime, k in sp.factorint(q).items():
        out[prime] = out.get(prime, 0) - k
    return out


def _log_ratio(e: sp.Expr, ref: sp.Expr) -> tuple[bool, sp.Rational | None]:
    """``(applies, ratio)``: for ``e = c·log a`` and ``ref = c'·log b`` (rationals
    ``a, b`` small enough to factor) whether ``e / ref`` is rational is decided by the
    prime exponents of ``a`` and ``b`` — ``log a / log b`` is rational iff the
    exponent vectors are proportional — and ``ratio`` is it (``None``: irrational).
    ``applies`` is false for other budgets."""
    x, y = _log_of_rational(e), _log_of_rational(ref)
    if x is None or y is None or x[1] == 1 or y[1] == 1:
        return False, None
    va, vb = _exponent_vector(x[1]), _exponent_vector(y[1])
    if va is None or vb is None:
        return False, None
    primes = set(va) | set(vb)
    if any(va.get(p, 0) == 0 or vb.get(p, 0) == 0 for p in primes):
        return True, None  # a prime of one and not the other
    ratios = {sp.Rational(va[p], vb[p]) for p in primes}
    return True, (x[0] / y[0] * ratios.pop() if len(ratios) == 1 else None)


def _grid_ratio(e: sp.Expr, ref: sp.Expr) -> Fraction | None:
    r = e / ref
    if not r.is_Rational:
        applies, exact_ratio = _log_ratio(e, ref)
        if applies:
            if exact_ratio is None:
                return None
            r = exact_ratio
        else:
            try:
                r = sp.simplify(r)
            except (TypeError, ValueError, NotImplementedError):  # pragma: no cover
                return None
    if r.is_Rational and r > 0:
        return Fraction(int(r.p), int(r.q))
    return None


def make_basis(budgets: Sequence[Any], grid: bool = True) -> tuple[Basis, list[Key]]:
    """A basis for the exponents of ``budgets`` and the key of each budget.

    With ``grid`` and all positive budgets rational multiples of one another, the
    basis is one unit ``u`` (``ε_j = m_j u``, integers ``m_j``; ``u`` is the
    largest such unit), so products become polynomials in ``z = e^{-uk}``.
    Otherwise one basis element per distinct budget.  A zero budget has the zero
    key.

    >>> R = sp.Rational
    >>> b, keys = make_basis([R(1, 10), R(3, 10), R(1, 4)])
    >>> b.eps, keys
    ((1/20,), [(2,), (6,), (5,)])
    >>> b, keys = make_basis([sp.log(2), sp.log(3)])
    >>> b.eps, keys
    ((log(2), log(3)), [(1, 0), (0, 1)])
    """
    es = [exact(e) for e in budgets]
    distinct: list[sp.Expr] = []
    for e in es:
        if e != 0 and e not in distinct:
            distinct.append(e)
    if not distinct:
        return Basis((), ()), [() for _ in es]
    if grid and len(distinct) > 1:
        ratios = [_grid_ratio(e, distinct[0]) for e in distinct]
        if all(r is not None for r in ratios):
            rs = [r for r in ratios if r is not None]
            num = 0
            den = 1
            for r in rs:
                num = math.gcd(num, r.numerator)
                den = den * r.denominator // math.gcd(den, r.denominator)
            g = Fraction(num, den)
            unit = distinct[0] * sp.Rational(g.numerator, g.denominator)
            mult = {e: int(r / g) for e, r in zip(distinct, rs, strict=True)}
            basis = Basis((unit,), (sp.exp(-unit),))
            return basis, [((mult[e],) if e != 0 else (0,)) for e in es]
    basis = Basis(tuple(distinct), tuple(sp.exp(-e) for e in distinct))
    index = {e: i for i, e in enumerate(distinct)}
    keys: list[Key] = []
    for e in es:
        k = [0] * len(distinct)
        if e != 0:
            k[index[e]] = 1
        keys.append(tuple(k))
    return basis, keys


# ---------------------------------------------------------------------------
# exponential polynomials
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Factor:
    """The factor ``(1 - q e^{-⟨key, ε⟩ k})^power`` (``power`` copies of one
    mechanism: Ghazi et al. 2025, §4.1, the repetition trick)."""

    q: Any
    key: Key
    power: int = 1


@dataclass
class ExpPoly:
    """``Σ_n c_n e^{-⟨n, ε⟩ k}``: coefficients ``terms[n]`` in the exact domain
    ``domain`` (a sympy polys domain: ``QQ`` for rational data)."""

    terms: dict[Key, Any]
    domain: Any

    def to_sympy(self, c: Any) -> sp.Expr:
        return self.domain.to_sympy(c)

    def __len__(self) -> int:
        return len(self.terms)


def _domain(values: Iterable[Any]) -> tuple[Any, list[Any]]:
    vals = [exact(v) for v in values] or [sp.Integer(1)]
    dom, elems = construct_domain(vals, field=True)
    return dom, list(elems)


def _mul(a: dict[Key, Any], b: dict[Key, Any], zero: Any) -> dict[Key, Any]:
    out: dict[Key, Any] = {}
    for ka, ca in a.items():
        for kb, cb in b.items():
            k = _add(ka, kb)
            out[k] = out.get(k, zero) + ca * cb
    return {k: c for k, c in out.items() if c != zero}


def expand(
    factors: Sequence[Factor],
    basis: Basis,
    *,
    extra: Sequence[Mapping[Key, Any]] = (),
    scale: Any = 1,
    shift: Key | None = None,
) -> ExpPoly:
    """Expand ``scale · e^{-⟨shift, ε⟩ k} · Π extra · Π_j (1 - q_j e^{-⟨key_j, ε⟩ k})^{T_j}``.

    ``extra`` are further exponential polynomials given as ``{key: coefficient}``
    with sympy coefficients (used for the ``A^T - B^T`` factor of a group of copies).
    Powers are expanded with the binomial theorem (``T + 1`` terms, never ``T``
    factors); equal exponents merge as they appear.
    """
    extra_vals = [c for e in extra for c in e.values()]
    dom, elems = _domain([f.q for f in factors] + extra_vals + [exact(scale)])
    qs = elems[: len(factors)]
    ev = elems[len(factors) : len(factors) + len(extra_vals)]
    sc = elems[-1]
    zero = dom.zero
    acc: dict[Key, Any] = {shift or basis.zero(): sc}
    if sc == zero:
        return ExpPoly({}, dom)
    # merge equal factors first: (1 - qX)^a (1 - qX)^b = (1 - qX)^{a+b}
    merged: dict[tuple[Key, Any], int] = {}
    for f, q in zip(factors, qs, strict=True):
        if f.power < 0:
            raise InvalidParameter(f"a factor power must be >= 0, got {f.power}")
        if q == zero or f.power == 0:
            continue
        merged[(f.key, q)] = merged.get((f.key, q), 0) + f.power
    it = iter(ev)
    for e in extra:
        poly = {k: next(it) for k in e}
        acc = _mul(acc, {k: c for k, c in poly.items() if c != zero}, zero)
    for (key, q), power in merged.items():
        if not any(key):  # e^{0}: a constant factor (1 - q)^power
            acc = {k: c * (dom.one - q) ** power for k, c in acc.items()}
            acc = {k: c for k, c in acc.items() if c != zero}
            continue
        binom: dict[Key, Any] = {}
        coef = dom.one
        for t in range(power + 1):
            if t:
                coef = coef * (-q) * dom.convert(power - t + 1) / dom.convert(t)
            binom[_scale(key, t)] = coef
        acc = _mul(acc, binom, zero)
    return ExpPoly(acc, dom)


@functools.lru_cache(maxsize=4096)
def _moment(prior: Prior, basis: Basis, key: Key, start: int) -> sp.Expr:
    """:meth:`Prior.moment` of the exponent ``key``, computed once per exponent."""
    return prior.moment(basis.c(key), basis.w(key), start)


def expectation(poly: ExpPoly, basis: Basis, prior: Prior, start: int = 0) -> sp.Expr:
    """``E_k[Σ_n c_n e^{-⟨n, ε⟩ k} 1{k ≥ start}]`` exactly, term by term with
    :meth:`Prior.moment` (Ghazi et al. 2025, eq. (2) and the proof of Theorem 11).

    One moment per distinct exponent (cached); when every coefficient and moment is
    rational the sum is formed in integer arithmetic and converted to sympy once."""
    pairs = [
        (poly.to_sympy(c), _moment(prior, basis, key, start))
        for key, c in sorted(poly.terms.items())
    ]
    if all(c.is_Rational and m.is_Rational for c, m in pairs):
        return _rational_sum(pairs)
    return sp.Add(*(c * m for c, m in pairs))


def _rational_sum(pairs: Iterable[tuple[sp.Rational, sp.Rational]]) -> sp.Rational:
    """``Σ c·m`` of sympy rationals, summed as integer fractions (one reduction)."""
    num, den = 0, 1
    for c, m in pairs:
        p, q = int(c.p) * int(m.p), int(c.q) * int(m.q)
        num, den = num * q + p * den, den * q
        if den.bit_length() > 4096:  # keep the operands short
            g = math.gcd(num, den)
            num, den = num // g, den // g
    return sp.Rational(num, den)


# ---------------------------------------------------------------------------
# the rational fast path: one grid unit, rational data and rational moments
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class RationalMoments:
    """``μ_n = E_k[z^n]`` (``z = e^{-uk}``, ``u`` the one unit of the basis) for
    ``n = 0..top`` as integers over one common denominator: ``μ_n = W[n] / L``.

    With a common denominator, the expectation of an integer polynomial
    ``Σ_n N_n z^n`` is the integer dot product ``Σ_n N_n W[n]`` over ``L``: one
    reduction per probability instead of one per term.
    """

    W: tuple[int, ...]
    L: int

    @classmethod
    def of(cls, prior: Prior, basis: Basis, top: int) -> RationalMoments | None:
        """The moments ``μ_0..μ_top``, or ``None`` when the basis is not one unit or
        some moment is not rational."""
        if len(basis.eps) != 1:
            return None
        ms = [_moment(prior, basis, (n,), 0) for n in range(top + 1)]
        if not all(m.is_Rational for m in ms):
            return None
        L = 1
        for m in ms:
            q = int(m.q)
            L = L * q // math.gcd(L, q)
        return cls(tuple(int(m.p) * (L // int(m.q)) for m in ms), L)

    def expectation(self, poly: IntPoly, shift: int = 0) -> tuple[int, int]:
        """``E_k[z^shift · poly(z)]`` as an (unreduced) fraction ``(num, den)``."""
        W = self.W
        num = sum(c * W[n + shift] for n, c in enumerate(poly.N) if c)
        return num, poly.den * self.L


@dataclass
class IntPoly:
    """A polynomial in ``z`` with rational coefficients, ``Σ_n N[n] z^n / den``,
    kept as integers: ``N`` is the product of the factors ``b - a z^m`` it was
    multiplied by (divided by) and ``den`` the product of their ``b``.

    Multiplying by ``1 - (a/b) z^m`` and dividing by it again (exactly: it is a
    factor) cost ``O(deg)`` integer operations each — the update between two
    consecutive outputs of Algorithm 3 (Ghazi et al. 2025, proof of Theorem 11).

    >>> P = IntPoly.one()
    >>> P.mul(1, 2, 1); P.mul(1, 3, 2)            # (1 - z/2)(1 - z^2/3)
    >>> P.N, P.den
    ([6, -3, -2, 1], 6)
    >>> P.div(1, 2, 1); P.N, P.den                 # back to 1 - z^2/3
    ([3, 0, -1], 3)
    """

    N: list[int]
    den: int

    @classmethod
    def one(cls) -> IntPoly:
        return cls([1], 1)

    def mul(self, a: int, b: int, m: int) -> None:
        """Multiply by ``1 - (a/b) z^m`` (``b > 0``, ``m >= 1``)."""
        if not a:
            return
        N = self.N
        out = [b * c for c in N] + [0] * m
        for n, c in enumerate(N):
            if c:
                out[n + m] -= a * c
        self.N = out
        self.den *= b

    def div(self, a: int, b: int, m: int) -> None:
        """Divide by ``1 - (a/b) z^m``, a factor it was multiplied by (exact:
        ``M_n = (N_n + a M_{n-m}) / b``)."""
        if not a:
            return
        N = self.N
        size = len(N) - m
        M = [0] * size
        for n in range(size):
            v = N[n] + (a * M[n - m] if n >= m else 0)
            q, r = divmod(v, b)
            if r:
                raise ArithmeticError("IntPoly.div: not a factor")  # pragma: no cover
            M[n] = q
        self.N = M
        self.den //= b

    def copy(self) -> IntPoly:
        return IntPoly(list(self.N), self.den)


def subset_expansion(
    qs: Sequence[Any],
    budgets: Sequence[Any],
    prior: Prior,
    *,
    c0: Any = 0,
    scale: Any = 1,
) -> sp.Expr:
    """``scale · E_k[e^{-c0 k} Π_j (1 - q_j e^{-ε_j k})]`` by the literal subset
    expansion (proof of Theorem 11): ``Σ_{T⊆J} (-1)^{|T|} Π_{j∈T} q_j E_k[e^{-(c0 + Σ_T ε_j)k}]``.

    Exponential in ``len(qs)``; the reference implementation for small instances,
    symbols allowed.
    """
    if len(qs) != len(budgets):
        raise InvalidParameter("subset_expansion needs one budget per factor")
    if len(qs) > 16:
        raise InvalidParameter(
            f"the subset expansion of {len(qs)} factors has 2^{len(qs)} terms; "
            f"use the polynomial method"
        )
    c0e = exact(c0)
    out = []
    idx = range(len(qs))
    for r in range(len(qs) + 1):
        for T in itertools.combinations(idx, r):
            coef = sp.Integer(-1) ** r * sp.Mul(*(exact(qs[j]) for j in T))
            if coef == 0:
                continue
            c = c0e + sp.Add(*(exact(budgets[j]) for j in T))
            out.append(coef * prior.moment(c, sp.exp(-c)))
    return exact(scale) * sp.Add(*out)


# ---------------------------------------------------------------------------
# certified summation over k (geometric prior)
# ---------------------------------------------------------------------------


def iv_of(expr: Any, ctx: Any) -> Any:
    """An interval of the mpmath interval context ``ctx`` (see
    :func:`verifier.arithmetic.precision.interval_context`) enclosing the exact value ``expr``
    at the context's precision."""
    from ..arithmetic.exact import enclose

    e = enclose(exact(expr), ctx.prec)
    if e is None:
        raise InvalidParameter(f"could not enclose {expr} at {ctx.prec} bits")
    return ctx.mpf([e.lo, e.hi])


#: A raw interval of mpmath's ``libmpi`` (a pair of raw floats, lower end first).
_Raw = tuple[Any, Any]
#: The raw interval ``[1, 1]``.
_ONE: _Raw = (libmp.fone, libmp.fone)


def _point(x: Any) -> _Raw:
    """The raw interval ``[x, x]`` of a raw float ``x``."""
    return (x, x)


def _log1m_point(y: Any, prec: int, *, upper: bool) -> _Raw:
    """A certified bound of ``log(1 - y)`` for a point ``0 <= y < 1`` (a raw float):
    for tiny ``y`` (below ``2^{-prec/2}``) the bounds ``-y/(1-y) <= log(1-y) <= -y``,
    whose gap ``y^2/(1-y)`` is below the working precision and which avoid forming
    ``1 - y``; otherwise the corresponding end of ``log(1 - y)`` (outward rounded at
    ``prec`` bits); as a raw interval whose lower (``upper=False``) or upper end is
    the bound."""
    yy = _point(y)
    if libmp.mpf_le(y, libmp.from_man_exp(1, -(prec // 2))):
        neg = libmpi.mpi_neg(yy, prec)
        return neg if upper else libmpi.mpi_div(neg, libmpi.mpi_sub(_ONE, yy, prec), prec)
    v = libmpi.mpi_log(libmpi.mpi_sub(_ONE, yy, prec), prec)
    return _point(v[1]) if upper else _point(v[0])


def _iv_pow1m(y: _Raw, t: int, prec: int) -> _Raw:
    """Certified enclosure of ``(1 - y)^t`` for a raw interval ``y`` enclosing a value
    in ``[0, 1]`` (``t >= 1``): ``(1-y)^t`` decreases in ``y``, so the ends are
    ``(1 - y_hi)^t`` and ``(1 - y_lo)^t``, each from a bound on ``log(1 - y)``."""
    lo = y[0] if libmp.mpf_ge(y[0], libmp.fzero) else libmp.fzero
    hi = y[1] if libmp.mpf_le(y[1], libmp.fone) else libmp.fone
    if t == 1:
        return (
            libmpi.mpi_sub(_ONE, _point(hi), prec)[0],
            libmpi.mpi_sub(_ONE, _point(lo), prec)[1],
        )
    tt = _point(libmp.from_int(t))
    top = (
        libmp.fzero
        if libmp.mpf_ge(lo, libmp.fone)
        else libmpi.mpi_exp(libmpi.mpi_mul(tt, _log1m_point(lo, prec, upper=True), prec), prec)[1]
    )
    bottom = (
        libmp.fzero
        if libmp.mpf_ge(hi, libmp.fone)
        else libmpi.mpi_exp(libmpi.mpi_mul(tt, _log1m_point(hi, prec, upper=False), prec), prec)[0]
    )
    return (bottom, top)


def _clip0(x: _Raw) -> _Raw:
    """``[max(lo, 0), hi]``: an enclosure of a value known to be nonnegative."""
    return (libmp.fzero if libmp.mpf_lt(x[0], libmp.fzero) else x[0], x[1])


@dataclass(frozen=True)
class CertifiedSum:
    """An enclosure of an infinite sum and how it was obtained."""

    enclosure: Enclosure
    terms: int
    tail: mpmath.mpf


def certified_expectation(
    prior: Prior,
    factors: Sequence[tuple[Any, Any, int]],
    *,
    leading: tuple[Any, Any] | None = None,
    difference: tuple[Any, Any, Any, int] | None = None,
    bits: int = 80,
    max_terms: int = 2_000_000,
) -> CertifiedSum:
    """Certified enclosure of ``E_{k~Geom_{p'}}[L(k) · Π_j (1 - q_j x_j^k)^{T_j}]``.

    ``factors`` are ``(q_j, x_j, T_j)`` with ``x_j = e^{-ε_j}``; ``leading`` is
    ``(a, x)`` for a leading factor ``a x^k``; ``difference`` is ``(a, b, x, T)``
    for the group factor ``(1 - a x^k)^T - (1 - b x^k)^T`` (``a <= b``) of a
    mechanism repeated ``T`` times (Ghazi et al. 2025, §4.1).

    Every factor lies in ``[0, 1]``; the leading factor is at most ``a x^k`` and the
    group factor at most ``T (b - a) x^k``, so the ``k``-th term is at most
    ``(1-p') B r^k`` with ``r = p' x`` and the tail after ``K`` terms at most
    ``B r^K`` — added to the upper end of the enclosure.  Summation stops when the
    tail is below ``2^{-bits}`` times the partial sum (or ``max_terms``).

    The terms are summed in mpmath's raw interval arithmetic (``libmpi``: every
    operation rounded outward at ``bits`` bits), the operations of its interval
    context without the conversions around each one.
    """
    if prior.kind != "geometric":
        raise InvalidParameter("certified summation over k needs the geometric prior")
    prec = bits
    mul, add, sub = libmpi.mpi_mul, libmpi.mpi_add, libmpi.mpi_sub
    with interval_context(bits) as ctx:
        p = iv_of(prior.p, ctx)._mpi_
        fs = [(iv_of(q, ctx)._mpi_, iv_of(x, ctx)._mpi_, int(t)) for q, x, t in factors]
        lead = None
        if leading is not None:
            lead = (iv_of(leading[0], ctx)._mpi_, iv_of(leading[1], ctx)._mpi_)
        diff = None
        if difference is not None:
            a, b, x, T = difference
            diff = (iv_of(a, ctx)._mpi_, iv_of(b, ctx)._mpi_, iv_of(x, ctx)._mpi_, int(T))
    one_m_p = sub(_ONE, p, prec)
    bound, r = _ONE, p
    if lead is not None:
        bound = mul(bound, lead[0], prec)
        r = mul(r, lead[1], prec)
    if diff is not None:
        ai, bi, xi, T = diff
        bound = mul(mul(bound, _point(libmp.from_int(T)), prec), sub(bi, ai, prec), prec)
        r = mul(r, xi, prec)
    r_hi = _point(r[1])
    if libmp.mpf_ge(r[1], libmp.fone):
        raise InvalidParameter("the summand does not decay geometrically")
    total = (libmp.fzero, libmp.fzero)
    pk = _ONE  # p'^k
    xs = [_ONE for _ in fs]  # x_j^k
    lead_x = diff_x = _ONE  # the leading and group factors' x^k
    rk = _ONE  # r^k from the upper end of r
    eps = libmp.from_man_exp(1, -bits)  # 2^-bits; products with it are exact
    k = 0
    while True:
        term = mul(one_m_p, pk, prec)
        if lead is not None:
            term = mul(mul(term, lead[0], prec), lead_x, prec)
        if diff is not None:
            ai, bi, _, T = diff
            gap = sub(
                _iv_pow1m(mul(ai, diff_x, prec), T, prec),
                _iv_pow1m(mul(bi, diff_x, prec), T, prec),
                prec,
            )
            term = mul(term, _clip0(gap), prec)
        for (q, _, t), xk in zip(fs, xs, strict=True):
            term = mul(term, _iv_pow1m(mul(q, xk, prec), t, prec), prec)
        total = add(total, _clip0(term), prec)
        k += 1
        pk = mul(pk, p, prec)
        rk = mul(rk, r_hi, prec)
        if lead is not None:
            lead_x = mul(lead_x, lead[1], prec)
        if diff is not None:
            diff_x = mul(diff_x, diff[2], prec)
        xs = [mul(xk, x, prec) for (_, x, _), xk in zip(fs, xs, strict=True)]
        tail = mul(bound, rk, prec)[1]
        if libmp.mpf_gt(total[0], libmp.fzero) and libmp.mpf_le(tail, libmp.mpf_mul(eps, total[0])):
            break
        if libmp.mpf_le(tail, libmp.mpf_mul(eps, eps)):
            break
        if k >= max_terms:
            break
    enc = (total[0], add(total, _point(tail), prec)[1])
    with interval_context(bits) as ctx:
        return CertifiedSum(
            Enclosure.from_iv(ctx.make_mpf(enc), bits),
            k,
            Enclosure.from_iv(ctx.make_mpf(_point(tail)), bits).hi,
        )


class SeriesExpectation(sp.Expr):
    """The exact real number ``E_{k~Geom_{p'}}[L(k) · Π_j (1 - q_j x_j^k)^{T_j}]``,
    kept as its defining series and enclosed on demand (:func:`certified_expectation`).

    Ghazi et al. 2025, Algorithm 3 with many copies (§4.1) and transcendental data:
    the closed form of such an expectation is a sum of ``Σ_j T_j`` moments over
    pairwise different denominators, whose size grows with the square of the number
    of copies; the series has ``O(log T + bits)`` terms for ``T`` copies at ``bits``
    of precision (a power is ``exp(T log(1 - y))``).  A verdict about the number
    comes from certified enclosures, as for any transcendental value: the arithmetic
    layer encloses it through :meth:`_certified_interval` at the precision it asks
    for (raising the precision until a comparison is decided, like for ``log 2``).

    Arguments (sympy objects, so the value hashes and prints like an expression):
    ``eps_prime`` (``p' = e^{-ε'}``); ``factors``, a Tuple of ``(q, x, T)``;
    ``leading``, an empty Tuple or ``(a, x)`` for the factor ``a x^k``;
    ``difference``, an empty Tuple or ``(a, b, x, T)`` for the group factor
    ``(1 - a x^k)^T - (1 - b x^k)^T`` (``a <= b``).
    """

    is_real = True
    is_extended_real = True
    is_finite = True
    is_positive = True
    is_extended_positive = True
    is_nonnegative = True
    is_zero = False
    is_commutative = True

    def __new__(cls, eps_prime: Any, factors: Any, leading: Any, difference: Any) -> Any:
        return sp.Expr.__new__(
            cls,
            exact(eps_prime),
            sp.Tuple(*factors),
            sp.Tuple(*leading),
            sp.Tuple(*difference),
        )

    @property
    def free_symbols(self) -> set[sp.Basic]:  # a number: its arguments are constants
        return set()

    def _certified_interval(self, bits: int) -> tuple[mpmath.mpf, mpmath.mpf]:
        """Ends of a certified enclosure at ``bits`` of working precision (the
        protocol :func:`verifier.arithmetic.exact.enclose` evaluates)."""
        ep, factors, leading, difference = self.args
        s = certified_expectation(
            Prior("geometric", ep),
            [(q, x, int(t)) for q, x, t in factors],
            leading=tuple(leading) if leading else None,
            difference=tuple(difference) if difference else None,
            bits=bits,
        )
        return s.enclosure.lo, s.enclosure.hi

    def _eval_evalf(self, prec: int) -> sp.Float:
        lo, hi = self._certified_interval(prec + 16)
        with real_context(prec + 16) as ctx:
            return sp.Float((ctx.convert(lo) + hi) / 2, precision=prec)

    def _sympystr(self, printer: Any) -> str:
        ep, factors, leading, difference = self.args
        parts = []
        if leading:
            a, x = leading
            parts.append(f"{printer._print(a)}*({printer._print(x)})**k")
        if difference:
            a, b, x, t = difference
            X = f"({printer._print(x)})**k"
            parts.append(
                f"((1 - {_times(printer, a)}{X})**{t} - (1 - {_times(printer, b)}{X})**{t})"
            )
        for q, x, t in factors:
            power = "" if t == 1 else f"**{t}"
            parts.append(f"(1 - {_times(printer, q)}({printer._print(x)})**k){power}")
        body = "*".join(parts) or "1"
        return f"E[k~Geom(exp(-{printer._print(ep)}))]({body})"


def _times(printer: Any, c: sp.Expr) -> str:
    """``c*`` for a coefficient in :meth:`SeriesExpectation._sympystr` (nothing for 1)."""
    if c == 1:
        return ""
    text = printer._print(c)
    return f"({text})*" if c.is_Add else f"{text}*"
