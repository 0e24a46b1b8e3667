"""Liu & Talwar 2019, §4: the sparse vector on the log scale, exactly.

Every algorithm of §4 compares a *noisy log-percentile* with a *noisy log-target*:

* Theorem 4.1 (``gensparse0``): ``e^{ξ_i} Φ(p(τ_i, Q_i)) > e^{ν} Φ(p_*)`` with
  ``Φ(x) = x/(1-x)``;
* Theorem 4.4 (``gensparse1``): ``e^{ξ_i} Φ^{(N,Δ)}(p̃_i) >= e^{ν} Φ^{(N,Δ)}(p_*)`` with
  ``Φ^{(N,Δ)}(x) = (Nx + Δ)/(N(1-x) + Δ)`` and ``p̃_i`` the fraction of ``N`` samples of
  ``Q_i`` scoring ``>= τ_i``;
* Theorem 4.6 (``sparse1``): ``exp(ξ_i)(N p̃_i + Δ) >= exp(ν - Λ)(N p_* + Δ)``.

Writing ``q_i`` for the ratio of the two sides' deterministic parts (``q_i =
Φ(p_i)/Φ(p_*)``, ...), the ``i``-th test passes iff ``ξ_i >= ν - ln q_i``.  The noises
are Laplace with ``ξ_i`` of rate ``u`` and ``ν`` of rate ``2u`` (per natural-log unit:
Theorem 4.1 ``ξ ~ Lap(8ε_1/ε_3)``, ``ν ~ Lap(4ε_1/ε_3)``, ``u = ε_3/(8ε_1)``; Theorems
4.4 and 4.6 ``ξ ~ Lap(4S/ε_3)``, ``ν ~ Lap(2S/ε_3)``, ``u = ε_3/(4S)``).  Given ``ν = r``
the tests are independent (the conditional independence of the sparse vector's
answers, Lyu, Su, Li 2017, proof of Theorem 2), so with ``z = e^r``

``P(stop at k) = ∫ f_ν(r) Π_{i<k} P(ξ_i < r - ln q_i) P(ξ_k >= r - ln q_k) dr``

and ``P(ξ >= r - ln q) = ½ q^u z^{-u}`` for ``z >= q``, ``1 - ½ q^{-u} z^{u}`` for ``z < q``;
``f_ν(r) dr = u z^{∓2u} dr`` for ``z ≷ 1``.  On every piece between the breakpoints (the
``q_i``, and ``1``) the integrand is a finite sum ``Σ_k c_k z^{ku}``, and
``∫ z^{ku} dr = (hi^{ku} - lo^{ku})/(ku)`` (``k ≠ 0``), ``ln(hi/lo)`` (``k = 0``).  So every
probability is exactly

``Σ_Q a_Q Q^u + u Σ_L b_L ln L``  (``Q``, ``L`` positive rationals, ``a``, ``b`` rational
when ``u`` is an integer; symbolic in ``u`` otherwise),

computed here in closed form, with no truncation.  A query whose answer is random and
independent of the others (an estimate ``p̃_i`` from fresh samples, Theorem 4.4) is a
mixture ``Σ_x w_x P(ξ >= r - ln q_x)``, still a sum of such terms; a sample shared by
all queries (Theorem 4.6 re-uses one sample for every threshold) is a mixture over the
sample of laws with deterministic answers.

Unlike the engine's :mod:`verifier.algorithms.noise` (integer breakpoints: answers on a
lattice), the breakpoints here are arbitrary positive rationals ``q`` — the logs of
sampled percentile ratios; on lattice answers the two agree
(``tests/casestudies/liu_talwar2019/test_section45.py``).
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import sympy as sp

from verifier.errors import InvalidParameter

__all__ = ["Value", "sv_law", "sv_law_shared", "value_sympy", "law_sympy"]

#: A query's answer law: ``[(weight, q), ...]`` with ``q > 0`` the ratio whose log is
#: the (noise-free) margin of the test ``ξ >= ν - ln q``.
Mixture = Sequence[tuple[Fraction, Fraction]]

_INF = None  # the breakpoint +∞ (z -> ∞); 0 is z -> 0


@dataclass
class Value:
    """``main + u Σ_L logs[L] ln L`` (``L`` a positive rational): an output probability.

    With an integer unit ``u`` the coefficients are :class:`Fraction`; with a symbolic
    unit they are sympy expressions (``Q^u`` kept as powers)."""

    main: Any
    logs: dict[Fraction, Any] = field(default_factory=dict)

    def __add__(self, o: Value) -> Value:
        logs = dict(self.logs)
        for k, c in o.logs.items():
            logs[k] = logs.get(k, 0) + c
        return Value(self.main + o.main, logs)

    def scaled(self, w: Any) -> Value:
        return Value(self.main * w, {k: c * w for k, c in self.logs.items()})


class LP:
    """A Laurent polynomial ``Σ c Π_p p^{e_p u}`` in the powers ``p^u`` of primes, with
    rational coefficients: the exact coefficients of a law symbolic in the unit ``u``
    (``Q^u = Π_p p^{v_p(Q) u}``; the ``p^u`` are multiplicatively independent, so two
    such polynomials are equal as functions of ``u`` iff their dicts are)."""

    __slots__ = ("terms",)

    def __init__(self, terms: dict[tuple[tuple[int, int], ...], Fraction] | None = None):
        self.terms = {m: c for m, c in (terms or {}).items() if c != 0}

    @staticmethod
    def of_power(q: Fraction, k: int) -> LP:
        """``q^{k u}``."""
        exps: dict[int, int] = {}
        for p, e in sp.factorint(q.numerator).items():
            exps[int(p)] = exps.get(int(p), 0) + int(e) * k
        for p, e in sp.factorint(q.denominator).items():
            exps[int(p)] = exps.get(int(p), 0) - int(e) * k
        return LP({tuple(sorted((p, e) for p, e in exps.items() if e)): Fraction(1)})

    def __add__(self, o: Any) -> LP:
        o = _lift(o)
        out = dict(self.terms)
        for m, c in o.terms.items():
            out[m] = out.get(m, Fraction(0)) + c
        return LP(out)

    __radd__ = __add__

    def __neg__(self) -> LP:
        return LP({m: -c for m, c in self.terms.items()})

    def __sub__(self, o: Any) -> LP:
        return self + (-_lift(o))

    def __rsub__(self, o: Any) -> LP:
        return _lift(o) - self

    def __mul__(self, o: Any) -> LP:
        o = _lift(o)
        out: dict[tuple[tuple[int, int], ...], Fraction] = {}
        for m1, c1 in self.terms.items():
            for m2, c2 in o.terms.items():
                e = dict(m1)
                for p, x in m2:
                    e[p] = e.get(p, 0) + x
                m = tuple(sorted((p, x) for p, x in e.items() if x))
                out[m] = out.get(m, Fraction(0)) + c1 * c2
        return LP(out)

    __rmul__ = __mul__

    def __truediv__(self, k: Any) -> LP:
        f = Fraction(k)
        return LP({m: c / f for m, c in self.terms.items()})

    def __eq__(self, o: object) -> bool:
        if isinstance(o, (int, Fraction)):
            o = _lift(o)
        return isinstance(o, LP) and self.terms == o.terms

    def __ne__(self, o: object) -> bool:
        return not self == o

    __hash__ = None  # type: ignore[assignment]

    def to_sympy(self, u: Any) -> sp.Expr:
        return sp.Add(
            *[
                sp.Rational(c.numerator, c.denominator) * sp.Mul(*[sp.Pow(p, e * u) for p, e in m])
                for m, c in self.terms.items()
            ]
        )


def _lift(x: Any) -> LP:
    if isinstance(x, LP):
        return x
    f = Fraction(x)
    return LP({(): f})


class _Backend:
    """The coefficient arithmetic: ``q^{ku}`` exactly — a rational for an integer ``u``,
    a Laurent polynomial in the ``p^u`` (:class:`LP`) for a symbolic one — or, with an
    interval context ``ctx`` (integer ``u``), a certified enclosure (outward rounding)."""

    def __init__(self, u: Any, ctx: Any = None):
        ue = sp.sympify(u)
        self.ctx = ctx
        if ue.is_Integer and ue > 0:
            self.u: Any = int(ue)
            self.exact = True
        elif ue.is_Symbol and ue.is_positive and ctx is None:
            self.u, self.exact = ue, False
        else:
            raise InvalidParameter(
                f"the noise unit u must be a positive integer or a positive symbol, got {u}"
            )
        if ctx is not None:
            self.zero: Any = ctx.mpf(0)
            self.one: Any = ctx.mpf(1)
        else:
            self.zero = Fraction(0) if self.exact else LP()
            self.one = Fraction(1) if self.exact else LP({(): Fraction(1)})
        self._pows: dict[tuple[Fraction, int], Any] = {}

    def nonzero(self, c: Any) -> bool:
        if self.ctx is not None:
            return c is not self.zero
        return bool(c != 0)

    def pow(self, q: Fraction, k: int) -> Any:
        """``q^{k u}``."""
        if k == 0 or q == 1:
            return self.one
        key = (q, k)
        hit = self._pows.get(key)
        if hit is None:
            hit = self._pow(q, k)
            self._pows[key] = hit
        return hit

    def _pow(self, q: Fraction, k: int) -> Any:
        if self.ctx is not None:
            return self.const(q ** (k * self.u))
        if self.exact:
            return q ** (k * self.u)
        return LP.of_power(q, k)

    def const(self, c: Fraction) -> Any:
        if self.ctx is not None:
            c = Fraction(c)
            return self.ctx.mpf(c.numerator) / self.ctx.mpf(c.denominator)
        return Fraction(c) if self.exact else _lift(c)


Piece = dict[int, Any]  # exponent k -> coefficient of z^{k u}


@dataclass
class _PW:
    """A function of ``z = e^r`` on ``(0, ∞)``: ``pieces[j]`` on ``(B[j-1], B[j])`` with
    ``B[-1] = 0``, ``B[len] = ∞``."""

    breaks: list[Fraction]
    pieces: list[Piece]

    def piece_at(self, j_lo: Fraction | None) -> Piece:
        """The piece containing the open interval starting at ``j_lo`` (``None`` = 0)."""
        if j_lo is None:
            return self.pieces[0]
        return self.pieces[bisect.bisect_right(self.breaks, j_lo)]


def _mul(a: Piece, b: Piece, zero: Any) -> Piece:
    out: Piece = {}
    for ka, ca in a.items():
        for kb, cb in b.items():
            k = ka + kb
            out[k] = out.get(k, zero) + ca * cb
    return out


def _product(f: _PW, g: _PW, zero: Any) -> _PW:
    breaks = sorted(set(f.breaks) | set(g.breaks))
    lows: list[Fraction | None] = [None, *breaks]
    return _PW(breaks, [_mul(f.piece_at(lo), g.piece_at(lo), zero) for lo in lows])


def _density(be: _Backend) -> _PW:
    """``f_ν / u``: ``z^{2u}`` below ``z = 1`` (``r < 0``), ``z^{-2u}`` above."""
    return _PW([Fraction(1)], [{2: be.one}, {-2: be.one}])


def _factor(be: _Backend, mix: Mixture, top: bool) -> _PW:
    """``Σ_x w_x P(ξ >= r - ln q_x)`` (``top``) or its complement, piecewise in ``z``."""
    half = Fraction(1, 2)
    comps = sorted(((Fraction(q), Fraction(w)) for w, q in mix if w != 0), key=lambda t: t[0])
    if not comps:
        raise InvalidParameter("a query law without mass")
    if any(q <= 0 for q, _ in comps):
        raise InvalidParameter("every ratio q must be positive")
    by_q: dict[Fraction, Fraction] = {}
    for q, w in comps:
        by_q[q] = by_q.get(q, Fraction(0)) + w
    breaks = sorted(by_q)
    # group the components by breakpoint: (w, w ½ q^u, w ½ q^{-u}) summed per q
    groups: list[tuple[Any, Any, Any]] = []
    for b in breaks:
        wsum = by_q[b]
        groups.append(
            (
                be.const(wsum),
                be.const(wsum * half) * be.pow(b, 1),
                be.const(wsum * half) * be.pow(b, -1),
            )
        )
    m = len(groups)
    # piece j lies above breaks[0..j-1] and below breaks[j..m-1]; prefix / suffix sums
    # (no subtraction, so a sum over no component is the exact zero)
    pre_w, pre_m1 = [be.zero], [be.zero]
    for w, m1, _ in groups:
        pre_w.append(w if pre_w[-1] is be.zero else pre_w[-1] + w)
        pre_m1.append(m1 if pre_m1[-1] is be.zero else pre_m1[-1] + m1)
    suf_w, suf_p1 = [be.zero] * (m + 1), [be.zero] * (m + 1)
    for j in range(m - 1, -1, -1):
        w, _, p1 = groups[j]
        suf_w[j] = w if suf_w[j + 1] is be.zero else suf_w[j + 1] + w
        suf_p1[j] = p1 if suf_p1[j + 1] is be.zero else suf_p1[j + 1] + p1
    pieces: list[Piece] = []
    for j in range(m + 1):
        above_w, above_m1, below_w, below_p1 = pre_w[j], pre_m1[j], suf_w[j], suf_p1[j]
        # P(top) = Σ_{q<=z} w ½ q^u z^{-u} + Σ_{q>z} w (1 - ½ q^{-u} z^u)
        if top:
            pc: Piece = {-1: above_m1, 0: below_w, 1: _neg(be, below_p1)}
        else:  # P(bot) = Σ_{q<=z} w (1 - ½ q^u z^{-u}) + Σ_{q>z} w ½ q^{-u} z^u
            pc = {-1: _neg(be, above_m1), 0: above_w, 1: below_p1}
        pieces.append({k: c for k, c in pc.items() if be.nonzero(c)})
    return _PW(breaks, pieces)


def _neg(be: _Backend, c: Any) -> Any:
    return be.zero if c is be.zero else -c


def _integrate(be: _Backend, f: _PW) -> Value:
    """``u ∫ f(e^r) dr`` over the real line (the density's factor ``u`` restored)."""
    main = be.zero
    logs: dict[Fraction, Any] = {}
    ends: list[Fraction | None] = [None, *f.breaks, _INF]
    for j, pc in enumerate(f.pieces):
        lo, hi = ends[j], ends[j + 1]
        for k, c in pc.items():
            if not be.nonzero(c):
                continue
            if k == 0:
                if lo is None or hi is None:
                    raise InvalidParameter("internal: a non-integrable constant piece")
                assert isinstance(hi, Fraction) and isinstance(lo, Fraction)
                L = hi / lo
                logs[L] = logs.get(L, be.zero) + c
                continue
            if (k < 0 and lo is None) or (k > 0 and hi is None):
                raise InvalidParameter("internal: a non-integrable exponential piece")
            top = be.zero if hi is None else be.pow(hi, k)
            bot = be.zero if lo is None else be.pow(lo, k)
            # u ∫ z^{ku} dr = (hi^{ku} - lo^{ku})/k
            main = main + c * (top - bot) / k
    return Value(main, logs)


def sv_law(queries: Sequence[Mixture], u: Any) -> list[Value]:
    """The exact law of the sparse vector on independent (possibly random) answers:
    ``[P(stop at query 1), ..., P(stop at query n), P(⊥ at every query)]``.

    ``queries[i]`` is the law of the ratio ``q_i`` (the test is ``ξ_i >= ν - ln q_i``),
    ``u`` the rate of ``ξ`` (``ν`` has rate ``2u``): a positive integer (exact rationals
    and logs) or a symbol.

    >>> law = sv_law([[(Fraction(1), Fraction(1))]], 1)     # one query at the threshold
    >>> [value_sympy(v, 1) for v in law]
    [1/2, 1/2]
    """
    return _sv_law(_Backend(u), queries)


def _sv_law(be: _Backend, queries: Sequence[Mixture]) -> list[Value]:
    out: list[Value] = []
    prefix = _density(be)
    for mix in queries:
        out.append(_integrate(be, _product(prefix, _factor(be, mix, True), be.zero)))
        prefix = _product(prefix, _factor(be, mix, False), be.zero)
    out.append(_integrate(be, prefix))
    return out


def sv_law_shared(samples: Sequence[tuple[Fraction, Sequence[Fraction]]], u: Any) -> list[Value]:
    """The law when every answer is a function of one shared random sample:
    ``samples = [(weight, (q_1, ..., q_n)), ...]`` (the laws with deterministic answers,
    mixed with the weights)."""
    total: list[Value] | None = None
    for w, qs in samples:
        law = sv_law([[(Fraction(1), q)] for q in qs], u)
        part = [v.scaled(Fraction(w)) for v in law]
        total = part if total is None else [a + b for a, b in zip(total, part, strict=True)]
    if total is None:
        raise InvalidParameter("no samples")
    return total


def _rat(x: Any, u: Any = None) -> sp.Expr:
    if isinstance(x, LP):
        return x.to_sympy(u)
    if isinstance(x, Fraction):
        return sp.Rational(x.numerator, x.denominator)
    return sp.sympify(x)


def _prime_logs(logs: dict[Fraction, Any]) -> dict[int, Any]:
    """``Σ_L c_L ln L`` as ``Σ_p c_p ln p`` (exact factorisation of every ``L``)."""
    out: dict[int, Any] = {}
    for L, c in logs.items():
        for p, e in sp.factorint(L.numerator).items():
            out[int(p)] = out.get(int(p), 0) + c * int(e)
        for p, e in sp.factorint(L.denominator).items():
            out[int(p)] = out.get(int(p), 0) - c * int(e)
    return {p: c for p, c in out.items() if c != 0}


def value_sympy(v: Value, u: Any) -> sp.Expr:
    """The exact sympy expression of an output probability (``u`` the unit: the integer
    or the symbol the law was computed with)."""
    ue = sp.sympify(u)
    tail = sp.Add(*[_rat(c, ue) * sp.log(p) for p, c in _prime_logs(v.logs).items()])
    return _rat(v.main, ue) + ue * tail


def law_sympy(law: Sequence[Value], u: Any) -> list[sp.Expr]:
    """:func:`value_sympy` of every entry, after checking that the law sums to 1 exactly
    (as a function of ``u`` when it is a symbol: the log parts cancel prime by prime)."""
    tot = Value(Fraction(0))
    for v in law:
        tot = tot + v
    if not (tot.main == 1 and not _prime_logs(tot.logs)):
        raise InvalidParameter(f"internal: the law sums to {value_sympy(tot, u)}, not 1")
    return [value_sympy(v, u) for v in law]


def sv_law_enclosed(
    queries: Sequence[Mixture], u: int, bits: int = 256
) -> list[tuple[Fraction, Fraction]]:
    """Certified enclosures ``[lo, hi]`` (rational ends) of :func:`sv_law`'s probabilities,
    computed in interval arithmetic with outward rounding at ``bits`` of precision (for
    laws whose exact rationals run to thousands of digits: binomial mixtures over
    ``N + 1`` sample counts)."""
    from mpmath.libmp import to_rational

    from verifier.arithmetic.precision import interval_context

    with interval_context(bits) as ctx:
        be = _Backend(u, ctx)
        law = _sv_law(be, queries)
        out = []
        for v in law:
            x = v.main
            for L, c in v.logs.items():
                x = x + be.u * c * ctx.log(be.const(L))
            lo, hi = x._mpi_
            out.append((Fraction(*to_rational(lo)), Fraction(*to_rational(hi))))
        total_lo = sum((a for a, _ in out), Fraction(0))
        total_hi = sum((b for _, b in out), Fraction(0))
        if not total_lo <= 1 <= total_hi:
            raise InvalidParameter(
                f"internal: the enclosed law sums to [{total_lo}, {total_hi}], not 1"
            )
        return out
