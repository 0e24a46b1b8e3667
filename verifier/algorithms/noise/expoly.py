"""Piecewise exponential polynomials: the exact algebra behind noise programs.

Every output probability of a "threshold + per-query noise" program (Lyu, Su, Li
2017, Algorithms 1-6; Ding et al. 2019 GapSVT; Wang et al. 2019 NumericalSVT;
Report-Noisy-Max) is a sum (geometric noise) or an integral (Laplace noise) over
the noisy threshold ``r`` of a product of factors, each of which is *piecewise
exponential* in ``r`` (the noise laws of :mod:`.distributions`, in ``W = e^{-u}`` and
``U = u`` for the common unit ``u`` of all noise rates).  Products of such functions
are finite sums of terms ``c · y^p · W^{k y}`` on each piece between integer
breakpoints, and sums / integrals of such terms over a piece are closed forms
(finite or infinite geometric series, ``Σ_{y=a}^{b-1} W^{ky} = (W^{ka} - W^{kb})/(1 -
W^k)``, ``∫_a^b e^{-kUy} dy = (W^{ka} - W^{kb})/(kU)``).  Nothing is truncated:
infinite pieces are summed in closed form.

Coefficients live in the field ``Q(W)`` (geometric noise) or ``Q(W, U)`` (Laplace
noise) — exact rational functions, valid for *every* value of the privacy
parameter.  :func:`to_sympy` substitutes ``W = e^{-u}`` (and ``U = u``) at the end;
when ``e^{-u}`` is rational (``u = log(10/9)``, say) :func:`to_exact` evaluates the
rational function exactly instead — or, faster, the whole computation runs in exact
rational arithmetic at that point (:meth:`Ring.at_rational`).

When the unit ``u`` itself is rational (``ε = 1/10``: ``W = e^{-1/40}`` is
transcendental) the Laplace computation needs no field at all: the only denominators
an integral brings in are ``k·U`` with ``U = u`` rational, so every coefficient is a
*Laurent polynomial* in ``W`` with rational coefficients (:class:`Laurent`,
:meth:`Ring.at_unit`) — exact, without the gcds of a rational-function field.  Since
``e^{-u}`` is transcendental for rational ``u != 0`` (Lindemann 1882), such a
polynomial vanishes at ``W = e^{-u}`` only if it is identically zero: the sign of
any closed form is decided by an enclosure refined until it excludes zero
(:meth:`Laurent.sign`).

>>> box = step_from(DISCRETE, 0) * step_below(DISCRETE, 3)   # [0 <= y < 3]
>>> box.total() == 3                                           # Σ_y [0 <= y < 3]
True
"""

from __future__ import annotations

import bisect
import functools
import math
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from dataclasses import field as dc_field
from fractions import Fraction
from typing import Any

import sympy as sp
from gmpy2 import mpq
from sympy import QQ
from sympy.polys.fields import field

from ...arithmetic.exact import MPQ, exact, to_mpq
from ...arithmetic.precision import interval_context
from ...errors import InvalidParameter

__all__ = [
    "Ring",
    "Laurent",
    "DISCRETE",
    "CONTINUOUS",
    "CONTINUOUS_AT_POINTS",
    "ExpPoly",
    "PW",
    "step_below",
    "step_from",
    "to_sympy",
    "to_exact",
]

_KW, _W = field("W", QQ)
_KWU, _W2, _U2 = field("W,U", QQ)
_SYM_W = sp.Symbol("W")
_SYM_U = sp.Symbol("U")


class Laurent:
    """A Laurent polynomial ``Σ_k c_k W^k`` in ``W = e^{-u}`` with rational
    coefficients, stored as integer numerators over one positive common denominator.

    >>> x = Laurent.monomial(2, Fraction(1, 2)) + Laurent.const(1)   # W²/2 + 1
    >>> (x * x - x * x) == 0, (x * 2).numerators, (x * 2).den
    (True, {2: 1, 0: 2}, 1)
    >>> x.sign(Fraction(1, 10))
    1
    """

    __slots__ = ("num", "den")

    def __init__(self, num: dict[int, int], den: int = 1):
        if den <= 0:
            raise InvalidParameter("internal: a Laurent denominator must be positive")
        if 0 in num.values():
            num = {k: c for k, c in num.items() if c}
        if num:
            g = math.gcd(den, *num.values())
            if g > 1:
                num = {k: c // g for k, c in num.items()}
                den //= g
        else:
            den = 1
        self.num = num
        self.den = den

    @classmethod
    def const(cls, c: Any) -> Laurent:
        return cls.monomial(0, c)

    @classmethod
    def monomial(cls, k: int, c: Any = 1) -> Laurent:
        if isinstance(c, int):
            return cls({k: c})
        f = Fraction(c)
        return cls({k: f.numerator}, f.denominator)

    @property
    def numerators(self) -> dict[int, int]:
        return dict(self.num)

    @staticmethod
    def _lift(x: Any) -> Laurent:
        if isinstance(x, Laurent):
            return x
        if isinstance(x, (int, Fraction)):
            return Laurent.const(x)
        raise TypeError(f"cannot combine a Laurent polynomial with {type(x).__name__}")

    def __add__(self, other: Any) -> Laurent:
        o = self._lift(other)
        if not o.num:
            return self
        if not self.num:
            return o
        if self.den == o.den:
            out = dict(self.num)
            for k, c in o.num.items():
                out[k] = out.get(k, 0) + c
            return Laurent(out, self.den)
        d = self.den * o.den
        out = {k: c * o.den for k, c in self.num.items()}
        for k, c in o.num.items():
            out[k] = out.get(k, 0) + c * self.den
        return Laurent(out, d)

    __radd__ = __add__

    def __neg__(self) -> Laurent:
        return Laurent({k: -c for k, c in self.num.items()}, self.den)

    def __sub__(self, other: Any) -> Laurent:
        return self + (-self._lift(other))

    def __rsub__(self, other: Any) -> Laurent:
        return self._lift(other) + (-self)

    def __mul__(self, other: Any) -> Laurent:
        if isinstance(other, int):
            return Laurent({k: c * other for k, c in self.num.items()}, self.den)
        if isinstance(other, Fraction):
            return Laurent(
                {k: c * other.numerator for k, c in self.num.items()},
                self.den * other.denominator,
            )
        o = self._lift(other)
        a, b = (self.num, o.num) if len(self.num) >= len(o.num) else (o.num, self.num)
        if len(b) == 1:
            ((kb, cb),) = b.items()
            return Laurent({k + kb: c * cb for k, c in a.items()}, self.den * o.den)
        out: dict[int, int] = {}
        for k1, c1 in a.items():
            for k2, c2 in b.items():
                k = k1 + k2
                out[k] = out.get(k, 0) + c1 * c2
        return Laurent(out, self.den * o.den)

    __rmul__ = __mul__

    def __truediv__(self, other: Any) -> Laurent:
        if isinstance(other, Laurent):
            if len(other.num) != 1:
                raise InvalidParameter("internal: division by a Laurent polynomial")
            ((k, c),) = other.num.items()
            return self * Laurent.monomial(-k, Fraction(other.den, c))
        f = Fraction(other)
        return self * Fraction(f.denominator, f.numerator)

    def __pow__(self, e: int) -> Laurent:
        if len(self.num) == 1 and e >= 0:
            ((k, c),) = self.num.items()
            return Laurent({k * e: c**e}, self.den**e)
        out = Laurent.const(1)
        for _ in range(e):
            out = out * self
        return out

    def __eq__(self, other: object) -> bool:
        if isinstance(other, int):
            if other == 0:
                return not self.num
            return self.den == 1 and self.num == {0: other}
        if isinstance(other, Fraction):
            other = Laurent.const(other)
        if not isinstance(other, Laurent):
            return NotImplemented
        return self.den == other.den and self.num == other.num

    def __ne__(self, other: object) -> bool:
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    def __hash__(self) -> int:
        return hash((self.den, tuple(sorted(self.num.items()))))

    def __repr__(self) -> str:
        terms = " + ".join(f"{c}*W^{k}" for k, c in sorted(self.num.items()))
        return f"({terms or '0'})/{self.den}"

    @property
    def is_zero(self) -> bool:
        return not self.num

    def enclosure(self, u: Fraction, bits: int) -> tuple[Fraction, Fraction]:
        """Rational bounds ``lo <= value <= hi`` of the polynomial at ``W = e^{-u}``
        (each power of ``W`` enclosed to ``bits`` bits, :func:`_power_bounds`)."""
        lo = hi = 0
        for k, c in self.num.items():
            a, b = _power_bounds(u, k, bits)
            if c > 0:
                lo += c * a
                hi += c * b
            else:
                lo += c * b
                hi += c * a
        scale = self.den << bits
        return Fraction(lo, scale), Fraction(hi, scale)

    def sign(self, u: Fraction, bits: int = 96) -> int:
        """The sign of the value at ``W = e^{-u}`` (``u`` rational, nonzero): ``0``
        exactly when the polynomial is identically zero (``e^{-u}`` is
        transcendental), otherwise from an enclosure refined until it excludes 0."""
        if not self.num:
            return 0
        if u == 0:
            raise InvalidParameter("internal: the sign at W = 1 is not decided here")
        while True:
            lo, hi = self.enclosure(u, bits)
            if lo > 0:
                return 1
            if hi < 0:
                return -1
            bits *= 2

    def to_sympy(self, u: sp.Expr) -> sp.Expr:
        """The value at ``W = e^{-u}`` as an exact sympy expression."""
        w = sp.exp(-u)
        return sp.Add(*(sp.Rational(c, self.den) * w**k for k, c in sorted(self.num.items())))


_POWER_CACHE: dict[tuple[Fraction, int, int], tuple[int, int]] = {}


def _power_bounds(u: Fraction, k: int, bits: int) -> tuple[int, int]:
    """Integers ``a <= 2^bits · e^{-k u} <= b`` (outward-rounded interval arithmetic)."""
    key = (u, k, bits)
    hit = _POWER_CACHE.get(key)
    if hit is not None:
        return hit
    with interval_context(bits + 32) as ctx:
        x = ctx.exp(ctx.mpf(-k * u.numerator) / u.denominator) * ctx.mpf(2) ** bits
        lo, hi = (_raw_fraction(e) for e in x._mpi_)
    a, b = math.floor(lo), math.ceil(hi)
    _POWER_CACHE[key] = (a, b)
    return a, b


def _raw_fraction(mpf: tuple[int, int, int, int]) -> Fraction:
    """The exact rational value of a raw mpmath ``_mpf_`` tuple (a finite number)."""
    sign, man, exp, _ = mpf
    v = Fraction(int(man) << exp) if exp >= 0 else Fraction(int(man), 1 << -exp)
    return -v if sign else v


@dataclass(frozen=True)
class Ring:
    """Where coefficients live and how the variable ranges.

    ``continuous`` selects the coefficient field ``Q(W, U)`` (needed as soon as a
    Laplace density is integrated, which brings in ``1/(kU)``) instead of ``Q(W)``;
    ``real`` makes the variable range over the reals (integrals) instead of the
    integers (sums).  ``w`` (a rational in ``(0, 1)``) evaluates everything at
    ``W = w`` with exact rational arithmetic instead (geometric noise only; GMP
    rationals, ``gmpy2.mpq``, a dozen times faster than :class:`fractions.Fraction`):
    the same closed forms, much faster, for one value of the privacy parameter.  ``u``
    (a positive rational unit, continuous rings only) substitutes ``U = u`` and keeps
    ``W = e^{-u}`` as the variable of :class:`Laurent` polynomials: exact and fast at
    one transcendental value of ``W``.
    """

    continuous: bool
    real: bool
    w: Fraction | None = None
    u: Fraction | None = None
    _wq: Any = dc_field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.w is not None:
            if self.continuous:
                raise InvalidParameter("internal: numeric W needs geometric noise")
            if not (0 < self.w < 1):
                raise InvalidParameter(f"internal: W = {self.w} outside (0, 1)")
            # W as a GMP rational, the key of its cached powers (:meth:`wpow`): hashed
            # and compared in C, where a Fraction key costs two Python calls per power
            object.__setattr__(self, "_wq", mpq(self.w))
        if self.u is not None:
            if not self.continuous:
                raise InvalidParameter("internal: a rational unit needs Laplace noise")
            if self.u <= 0:
                raise InvalidParameter(f"internal: unit u = {self.u} must be positive")

    @property
    def numeric(self) -> bool:
        return self.w is not None

    @property
    def K(self) -> Any:
        return _KWU if self.continuous else _KW

    @property
    def zero(self) -> Any:
        if self.u is not None:
            return Laurent({})
        return _MPQ_ZERO if self.w is not None else self.K.zero

    @property
    def one(self) -> Any:
        if self.u is not None:
            return Laurent.const(1)
        return _MPQ_ONE if self.w is not None else self.K.one

    @property
    def W(self) -> Any:
        if self.u is not None:
            return Laurent.monomial(1)
        if self.w is not None:
            return mpq(self.w)
        return _W2 if self.continuous else _W

    @property
    def U(self) -> Any:
        if not self.continuous:
            raise InvalidParameter("the discrete coefficient field Q(W) has no U")
        if self.u is not None:
            return self.u
        return _U2

    def c(self, x: Any) -> Any:
        """A coefficient: an int, Fraction or field element."""
        if self.u is not None:
            return x if isinstance(x, Laurent) else Laurent.const(x)
        if self.w is not None:
            return to_mpq(x)
        if isinstance(x, Fraction):
            return self.K(QQ(x.numerator, x.denominator))
        return self.K(x)

    def wpow(self, k: int) -> Any:
        if self.u is not None:
            return Laurent.monomial(k)
        if self.w is not None:
            return _mpq_power(self._wq, k)
        return self.W**k

    def at_rational(self, w: Fraction) -> Ring:
        """The same ring evaluated at the rational ``W = w``."""
        return Ring(self.continuous, self.real, w)

    def at_unit(self, u: Fraction) -> Ring:
        """The same (continuous) ring at the rational unit ``U = u``: coefficients
        are :class:`Laurent` polynomials in ``W = e^{-u}``."""
        return Ring(self.continuous, self.real, None, Fraction(u))


_MPQ_ZERO = mpq(0)
_MPQ_ONE = mpq(1)


@functools.lru_cache(maxsize=4096)
def _mpq_power(w: Any, k: int) -> Any:
    """``w^k`` for a GMP rational ``w`` (the exact numeric ring's powers of ``W``)."""
    return w**k


#: Geometric noise: sums over the integers, coefficients in Q(W).
DISCRETE = Ring(continuous=False, real=False)
#: Laplace noise integrated over the reals, coefficients in Q(W, U).
CONTINUOUS = Ring(continuous=True, real=True)
#: Laplace survival functions evaluated at integer points (no integration).
CONTINUOUS_AT_POINTS = Ring(continuous=True, real=False)


class ExpPoly:
    """A finite sum ``Σ c_{k,p} · y^p · W^{k y}`` with field coefficients.

    Stored as ``{(k, p): c}``; ``p`` is a small polynomial degree (``0`` or ``1`` in
    practice: a ``y^1`` term arises when a constant is summed over a finite piece).
    """

    __slots__ = ("ring", "terms")

    def __init__(self, ring: Ring, terms: Mapping[tuple[int, int], Any] | None = None):
        self.ring = ring
        self.terms: dict[tuple[int, int], Any] = {
            kp: c for kp, c in (terms or {}).items() if c != 0
        }

    # -- construction ---------------------------------------------------------
    @classmethod
    def const(cls, ring: Ring, c: Any) -> ExpPoly:
        return cls(ring, {(0, 0): ring.c(c)})

    @classmethod
    def exp(cls, ring: Ring, k: int, c: Any = 1) -> ExpPoly:
        """``c · W^{k y}``."""
        return cls(ring, {(k, 0): ring.c(c)})

    # -- algebra --------------------------------------------------------------
    def __add__(self, other: ExpPoly) -> ExpPoly:
        out = dict(self.terms)
        for kp, c in other.terms.items():
            out[kp] = out.get(kp, 0) + c
        return ExpPoly(self.ring, out)

    def __neg__(self) -> ExpPoly:
        return ExpPoly(self.ring, {kp: -c for kp, c in self.terms.items()})

    def __sub__(self, other: ExpPoly) -> ExpPoly:
        return self + (-other)

    def __mul__(self, other: ExpPoly | Any) -> ExpPoly:
        if not isinstance(other, ExpPoly):
            c0 = self.ring.c(other) if not hasattr(other, "numer") else other
            return ExpPoly(self.ring, {kp: c * c0 for kp, c in self.terms.items()})
        out: dict[tuple[int, int], Any] = {}
        for (k1, p1), c1 in self.terms.items():
            for (k2, p2), c2 in other.terms.items():
                key = (k1 + k2, p1 + p2)
                out[key] = out.get(key, 0) + c1 * c2
        return ExpPoly(self.ring, out)

    __rmul__ = __mul__

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ExpPoly) and self.terms == other.terms

    def __hash__(self) -> int:  # pragma: no cover - not used as a key
        return hash(tuple(sorted(self.terms)))

    @property
    def is_zero(self) -> bool:
        return not self.terms

    @property
    def degree(self) -> int:
        return max((p for _, p in self.terms), default=0)

    def shifted(self, t: int) -> ExpPoly:
        """``y ↦ f(y + t)``."""
        out: dict[tuple[int, int], Any] = {}
        for (k, p), c in self.terms.items():
            c2 = c * self.ring.wpow(k * t)
            if p == 0:
                out[(k, 0)] = out.get((k, 0), 0) + c2
            elif p == 1:
                out[(k, 1)] = out.get((k, 1), 0) + c2
                out[(k, 0)] = out.get((k, 0), 0) + c2 * t
            else:
                for j in range(p + 1):
                    key = (k, j)
                    out[key] = out.get(key, 0) + c2 * math.comb(p, j) * t ** (p - j)
        return ExpPoly(self.ring, out)

    def reflected(self, t: int) -> ExpPoly:
        """``y ↦ f(t - y)``."""
        out: dict[tuple[int, int], Any] = {}
        for (k, p), c in self.terms.items():
            c2 = c * self.ring.wpow(k * t)
            for j in range(p + 1):
                # (t - y)^p = Σ_j C(p, j) t^{p-j} (-y)^j
                key = (-k, j)
                out[key] = out.get(key, 0) + c2 * math.comb(p, j) * t ** (p - j) * (-1) ** j
        return ExpPoly(self.ring, out)

    def at(self, y: int) -> Any:
        """The value at an integer point ``y``."""
        total = self.ring.zero
        for (k, p), c in self.terms.items():
            total += c * (y**p) * self.ring.wpow(k * y)
        return total

    def __repr__(self) -> str:
        parts = []
        for (k, p), c in sorted(self.terms.items()):
            mono = ("" if p == 0 else ("y" if p == 1 else f"y^{p}")) + (
                "" if k == 0 else f"W^({k}y)"
            )
            parts.append(f"({c}){'·' + mono if mono else ''}")
        return " + ".join(parts) or "0"

    # -- sums and integrals over one piece ----------------------------------
    def _require_degree0(self, what: str) -> None:
        if self.degree > 0:
            raise InvalidParameter(f"internal: {what} of a term with a polynomial factor")

    def _piece_terms(self, a: int | None, b: int | None) -> Iterator[tuple[int, int, Any]]:
        """The terms ``(k, p, c)`` (``c y^p W^{ky}``) of a sum over the piece ``[a, b)``,
        each checked to have a closed form there: degree at most 1, a polynomial only
        on a finite piece, an exponential only towards its decaying side."""
        for (k, p), c in self.terms.items():
            if p > 1:
                raise InvalidParameter("internal: a sum of a term of degree > 1")
            if k == 0:
                if a is None or b is None:
                    raise InvalidParameter("internal: a polynomial summed over an infinite piece")
            elif a is None and k > 0 or b is None and k < 0:
                raise InvalidParameter("internal: a divergent exponential tail")
            yield k, p, c

    def piece_total(self, a: int | None, b: int | None) -> Any:
        """``Σ_{y=a}^{b-1}`` (integers) or ``∫_a^b`` (reals) of the function; ``None``
        is an infinite end.  Closed forms of (infinite) geometric and
        arithmetico-geometric series (terms ``y^p W^{ky}`` with ``p <= 1``)."""
        ring = self.ring
        if ring.u is not None and ring.real:
            return self._laurent_piece_total(a, b)
        total = ring.zero
        for k, p, c in self._piece_terms(a, b):
            if k == 0:
                assert a is not None and b is not None  # finite ends: _piece_terms
                if p == 0:
                    total += c * (b - a)
                elif ring.real:
                    total += c * Fraction(b * b - a * a, 2)
                else:
                    total += c * Fraction(b * (b - 1) - a * (a - 1), 2)
                continue
            total += c * (
                _antider(ring, k, p, a, upper=False) - _antider(ring, k, p, b, upper=True)
            )
        return total

    def _laurent_piece_total(self, a: int | None, b: int | None) -> Laurent:
        """:meth:`piece_total` on the reals with :class:`Laurent` coefficients: the
        same closed forms (``∫_a^b y^p e^{-kuy} dy = F(a) - F(b)``, :func:`_antider`),
        accumulated over one common integer denominator."""
        u = self.ring.u
        assert u is not None
        parts: list[tuple[Laurent, Fraction, int]] = []  # c · r · W^s
        for k, p, c in self._piece_terms(a, b):
            if k == 0:
                assert a is not None and b is not None  # finite ends: _piece_terms
                r = Fraction(b - a) if p == 0 else Fraction(b * b - a * a, 2)
                parts.append((c, r, 0))
                continue
            if a is not None:
                parts.append((c, _antider_coefficient(u, k, p, a), k * a))
            if b is not None:
                parts.append((c, -_antider_coefficient(u, k, p, b), k * b))
        if not parts:
            return Laurent({})
        dens = [c.den * r.denominator for c, r, _ in parts]
        D = math.lcm(*dens)
        out: dict[int, int] = {}
        for (c, r, shift), d in zip(parts, dens, strict=True):
            m = r.numerator * (D // d)
            for e, v in c.num.items():
                key = e + shift
                out[key] = out.get(key, 0) + v * m
        return Laurent(out, D)

    def running_from(self, a: int | None) -> ExpPoly:
        """``G(y) = Σ_{r=a}^{y} f(r)`` (or ``∫_a^y``; ``a = None`` is ``-∞``) as a
        function of ``y``."""
        self._require_degree0("a running sum")
        return self._summed(self._running_from_terms(a))

    def running_to(self, b: int | None) -> ExpPoly:
        """``Ḡ(y) = Σ_{r=y}^{b-1} f(r)`` (or ``∫_y^b``) as a function of ``y``."""
        self._require_degree0("a running sum")
        return self._summed(self._running_to_terms(b))

    def _summed(self, terms: Iterable[tuple[tuple[int, int], Any]]) -> ExpPoly:
        out: dict[tuple[int, int], Any] = {}
        for key, v in terms:
            out[key] = out.get(key, 0) + v
        return ExpPoly(self.ring, out)

    def _running_from_terms(self, a: int | None) -> Iterator[tuple[tuple[int, int], Any]]:
        ring = self.ring
        for (k, _), c in self.terms.items():
            if ring.real:
                if k == 0:
                    if a is None:
                        raise InvalidParameter("internal: a constant integrated from -oo")
                    yield (0, 1), c
                    yield (0, 0), -c * a
                elif a is None:
                    if k > 0:
                        raise InvalidParameter("internal: a divergent exponential tail")
                    yield (k, 0), c / (-k * ring.U)
                else:
                    yield (0, 0), c * ring.wpow(k * a) / (k * ring.U)
                    yield (k, 0), -c / (k * ring.U)
            else:
                if k == 0:
                    if a is None:
                        raise InvalidParameter("internal: a constant summed from -oo")
                    yield (0, 1), c
                    yield (0, 0), c * (1 - a)
                elif a is None:
                    if k > 0:
                        raise InvalidParameter("internal: a divergent exponential tail")
                    # Σ_{r<=y} W^{kr} = W^{ky} / (1 - W^{-k})
                    yield (k, 0), c / (1 - ring.wpow(-k))
                else:
                    # Σ_{r=a}^{y} W^{kr} = (W^{ka} - W^{k(y+1)}) / (1 - W^k)
                    den = 1 - ring.wpow(k)
                    yield (0, 0), c * ring.wpow(k * a) / den
                    yield (k, 0), -c * ring.wpow(k) / den

    def _running_to_terms(self, b: int | None) -> Iterator[tuple[tuple[int, int], Any]]:
        ring = self.ring
        for (k, _), c in self.terms.items():
            if k == 0:
                if b is None:
                    raise InvalidParameter("internal: a constant summed to +oo")
                yield (0, 1), -c
                yield (0, 0), c * b
                continue
            if b is None and k < 0:
                raise InvalidParameter("internal: a divergent exponential tail")
            den = (k * ring.U) if ring.real else (1 - ring.wpow(k))
            yield (k, 0), c / den
            if b is not None:
                yield (0, 0), -c * ring.wpow(k * b) / den


@functools.lru_cache(maxsize=65536)
def _antider_coefficient(u: Fraction, k: int, p: int, x: int) -> Fraction:
    """The rational factor of :func:`_antider` on the reals at ``U = u``:
    ``F(x) = r · W^{kx}`` with ``r = 1/λ`` (``p = 0``) or ``x/λ + 1/λ²`` (``p = 1``),
    ``λ = k u``."""
    lam = k * u
    return 1 / lam if p == 0 else x / lam + 1 / lam**2


def _antider(ring: Ring, k: int, p: int, x: int | None, upper: bool) -> Any:
    """``F(x)`` with ``Σ_{y=a}^{b-1} y^p W^{ky} = F(a) - F(b)`` (integers, as an identity
    of rational functions in ``W``) or ``∫_a^b = F(a) - F(b)`` (reals), ``k != 0``;
    ``F(±∞) = 0`` on the decaying side.

    Integers: ``F(x) = Σ_{y>=x} W^{ky} = W^{kx}/(1-W^k)`` and
    ``Σ_{y>=x} y W^{ky} = W^{kx} (x(1-W^k) + W^k)/(1-W^k)^2``.
    Reals (``λ = kU``): ``F(x) = e^{-λx}/λ`` and ``e^{-λx}(x/λ + 1/λ²)``.
    """
    if x is None:
        return ring.zero
    B = ring.wpow(k)
    Bx = ring.wpow(k * x)
    if ring.real:
        lam = k * ring.U
        return Bx / lam if p == 0 else Bx * (x / lam + 1 / lam**2)
    if p == 0:
        return Bx / (1 - B)
    return Bx * (x * (1 - B) + B) / (1 - B) ** 2


class PW:
    """A piecewise exponential polynomial of one variable ``y``.

    ``breaks`` are sorted integers ``b_0 < ... < b_{K-1}``; piece ``0`` is
    ``y < b_0``, piece ``i`` is ``b_{i-1} <= y < b_i``, piece ``K`` is ``y >= b_{K-1}``.
    On the integers these are integer ranges; on the reals the endpoints have measure
    zero (discontinuities at breakpoints never matter for sums of densities).
    """

    __slots__ = ("ring", "breaks", "pieces")

    def __init__(self, ring: Ring, breaks: Sequence[int], pieces: Sequence[ExpPoly]):
        if len(pieces) != len(breaks) + 1:
            raise InvalidParameter("internal: a piecewise function needs len(breaks)+1 pieces")
        if any(b2 <= b1 for b1, b2 in zip(breaks, breaks[1:], strict=False)):
            raise InvalidParameter("internal: breakpoints must increase strictly")
        self.ring = ring
        self.breaks: tuple[int, ...] = tuple(int(b) for b in breaks)
        self.pieces: tuple[ExpPoly, ...] = tuple(pieces)

    # -- construction ---------------------------------------------------------
    @classmethod
    def const(cls, ring: Ring, c: Any) -> PW:
        return cls(ring, (), (ExpPoly.const(ring, c),))

    @classmethod
    def zero(cls, ring: Ring) -> PW:
        return cls(ring, (), (ExpPoly(ring),))

    def bounds(self, i: int) -> tuple[int | None, int | None]:
        """``(a, b)`` of piece ``i`` (``None`` for an infinite end)."""
        a = None if i == 0 else self.breaks[i - 1]
        b = None if i == len(self.breaks) else self.breaks[i]
        return a, b

    # -- algebra --------------------------------------------------------------
    def refine(self, breaks: Iterable[int]) -> PW:
        """The same function on a superset of breakpoints."""
        new = sorted(set(self.breaks) | set(int(b) for b in breaks))
        pieces = []
        for i in range(len(new) + 1):
            # representative point of new piece i: its left end (or below the first)
            probe = new[0] - 1 if i == 0 else new[i - 1]
            pieces.append(self.pieces[bisect.bisect_right(self.breaks, probe)])
        return PW(self.ring, new, pieces)

    def _binary(self, other: PW | Any, op: str) -> PW:
        if not isinstance(other, PW):
            other = PW.const(self.ring, other)
        a = self.refine(other.breaks)
        b = other.refine(self.breaks)
        if op == "+":
            pieces = [x + y for x, y in zip(a.pieces, b.pieces, strict=True)]
        elif op == "-":
            pieces = [x - y for x, y in zip(a.pieces, b.pieces, strict=True)]
        else:
            pieces = [x * y for x, y in zip(a.pieces, b.pieces, strict=True)]
        return PW(self.ring, a.breaks, pieces).merged()

    def __add__(self, other: PW | Any) -> PW:
        return self._binary(other, "+")

    def __sub__(self, other: PW | Any) -> PW:
        return self._binary(other, "-")

    def __rsub__(self, other: Any) -> PW:
        return PW.const(self.ring, other)._binary(self, "-")

    def __mul__(self, other: PW | Any) -> PW:
        return self._binary(other, "*")

    __radd__ = __add__
    __rmul__ = __mul__

    def merged(self) -> PW:
        """Drop breakpoints between equal pieces."""
        breaks: list[int] = []
        pieces = [self.pieces[0]]
        for b, p in zip(self.breaks, self.pieces[1:], strict=True):
            if p == pieces[-1]:
                continue
            breaks.append(b)
            pieces.append(p)
        return PW(self.ring, breaks, pieces)

    def shifted(self, t: int) -> PW:
        """``y ↦ f(y + t)``."""
        return PW(self.ring, [b - t for b in self.breaks], [p.shifted(t) for p in self.pieces])

    def reflected(self, t: int) -> PW:
        """``y ↦ f(t - y)``.

        On the integers the piece ``[a, b)`` of ``f`` becomes ``(t-b, t-a]`` =
        ``[t-b+1, t-a+1)``; on the reals the endpoints do not matter.
        """
        off = 0 if self.ring.real else 1
        breaks = [t - b + off for b in reversed(self.breaks)]
        pieces = [p.reflected(t) for p in reversed(self.pieces)]
        return PW(self.ring, breaks, pieces)

    def piece_at(self, y: int) -> ExpPoly:
        return self.pieces[bisect.bisect_right(self.breaks, y)]

    def at(self, y: int) -> Any:
        """The value at the integer ``y``."""
        return self.piece_at(y).at(y)

    def total(self) -> Any:
        """``Σ_y f(y)`` or ``∫ f(y) dy`` over the whole line, in closed form."""
        acc = self.ring.zero
        for i, p in enumerate(self.pieces):
            if p.is_zero:
                continue
            a, b = self.bounds(i)
            acc += p.piece_total(a, b)
        return acc

    def total_between(self, lo: int | None, hi: int | None) -> Any:
        """``Σ_{lo <= y < hi} f(y)`` (or the integral), ``None`` for infinite ends."""
        g = self.refine([x for x in (lo, hi) if x is not None])
        acc = self.ring.zero
        for i, p in enumerate(g.pieces):
            a, b = g.bounds(i)
            inside_lo = lo is None or (a is not None and a >= lo)
            inside_hi = hi is None or (b is not None and b <= hi)
            if inside_lo and inside_hi and not p.is_zero:
                acc += p.piece_total(a, b)
        return acc

    def cumulative(self) -> PW:
        """``G(y) = Σ_{r <= y} f(r)`` (or ``∫_{-∞}^y``), piecewise on the same breaks."""
        pieces = []
        acc = self.ring.zero
        for i, p in enumerate(self.pieces):
            a, b = self.bounds(i)
            pieces.append(p.running_from(a) + _const(self.ring, acc))
            if b is not None and not p.is_zero:
                acc += p.piece_total(a, b)
        return PW(self.ring, self.breaks, pieces)

    def upper_cumulative(self) -> PW:
        """``Ḡ(y) = Σ_{r >= y} f(r)`` (or ``∫_y^∞``), piecewise on the same breaks."""
        n = len(self.pieces)
        pieces: list[ExpPoly] = [ExpPoly(self.ring)] * n
        acc = self.ring.zero
        for i in range(n - 1, -1, -1):
            a, b = self.bounds(i)
            p = self.pieces[i]
            pieces[i] = p.running_to(b) + _const(self.ring, acc)
            if a is not None and not p.is_zero:
                acc += p.piece_total(a, b)
        return PW(self.ring, self.breaks, pieces)

    def __repr__(self) -> str:
        out = []
        for i, p in enumerate(self.pieces):
            a, b = self.bounds(i)
            out.append(f"[{'-oo' if a is None else a}, {'oo' if b is None else b}): {p!r}")
        return "PW(" + "; ".join(out) + ")"


def _const(ring: Ring, c: Any) -> ExpPoly:
    return ExpPoly(ring, {(0, 0): c})


def step_below(ring: Ring, b: int) -> PW:
    """``[y < b]``."""
    return PW(ring, (b,), (ExpPoly.const(ring, 1), ExpPoly(ring)))


def step_from(ring: Ring, b: int) -> PW:
    """``[y >= b]``."""
    return PW(ring, (b,), (ExpPoly(ring), ExpPoly.const(ring, 1)))


# ---------------------------------------------------------------------------
# from field elements to numbers
# ---------------------------------------------------------------------------


def to_sympy(elem: Any, u: sp.Expr) -> sp.Expr:
    """The field element with ``W = e^{-u}`` and ``U = u`` substituted.

    When ``e^{-u}`` is a rational number the rational function is evaluated exactly
    (:func:`to_exact`); otherwise the result is an expression in ``exp(-u)``.
    """
    if isinstance(elem, Laurent):
        return elem.to_sympy(u)
    if isinstance(elem, (Fraction, int, MPQ)):
        return exact(elem)
    w = sp.exp(-u)
    if w.is_Rational:
        value = to_exact(elem, Fraction(int(w.p), int(w.q)), u)
        if value is not None:
            return value
    expr = elem.as_expr()
    return expr.xreplace({_SYM_W: w, _SYM_U: u})


def to_exact(elem: Any, w: Fraction, u: sp.Expr) -> sp.Expr | None:
    """Evaluate a ``Q(W)`` element at a rational ``W`` exactly (``None`` if it has ``U``)."""
    num, den = elem.numer, elem.denom
    ring = num.ring
    if len(ring.gens) != 1:
        # Q(W, U): exact only when U does not occur
        if any(m[1] != 0 for m in num.monoms()) or any(m[1] != 0 for m in den.monoms()):
            return None
        gw = ring.gens[0]
        n = num.evaluate([(gw, QQ(w.numerator, w.denominator))])
        d = den.evaluate([(gw, QQ(w.numerator, w.denominator))])
        n = n.coeff(1) if hasattr(n, "coeff") else n
        d = d.coeff(1) if hasattr(d, "coeff") else d
    else:
        gw = ring.gens[0]
        n = num.evaluate(gw, QQ(w.numerator, w.denominator))
        d = den.evaluate(gw, QQ(w.numerator, w.denominator))
    if d == 0:
        raise InvalidParameter("internal: a pole at the chosen noise parameter")
    q = QQ.to_sympy(n) / QQ.to_sympy(d)
    return sp.Rational(q)
