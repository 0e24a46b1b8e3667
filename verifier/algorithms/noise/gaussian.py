"""Gaussian noise in noise programs: certified enclosures of the output laws.

A ``gaussian(sigma)`` draw (standard deviation ``σ``, density
``e^{-x²/(2σ²)}/(σ√(2π))``) has no closed-form law in the interpreter's ring of
exponential polynomials (:mod:`.expoly`): the probabilities of the sparse vector and
Report-Noisy-Max shapes are integrals of products of the normal distribution
function Φ.  Each is kept as an exact real number, :class:`GaussianProbability`, and
enclosed on demand with outward rounding, so the verdicts of the generic checks
(``P_D(o) <= e^ε P_D'(o)``, the hockey-stick divergence against δ) are certified or
undecided, never estimated.

Both shapes rest on one fact (Lyu, Su, Li 2017, "Understanding the sparse vector
technique for differential privacy", VLDB, proof of Theorem 2; for the maximum,
Dwork & Roth 2014, "The algorithmic foundations of differential privacy", proof of
Claim 3.9): given one shared variable the per-query events are independent, so every
output probability is a one-dimensional integral

    ``P = ∫ φ((t - μ)/s)/s · Π_j F_j(t) dt``

of a normal density times factors ``F_j(t) = Φ(±(t - a_j)/s_j)``, each monotone in
``t`` (a step ``[±(t - a_j) > 0]`` when a query has no noise):

* **sparse vector** with threshold noise ``ρ ~ N(0, σ_T²)`` and query noise
  ``ν ~ N(0, σ²)``, threshold ``T``: ``t = ρ``; a ⊤ at answer ``q_i`` is
  ``P(q_i + ν_i >= T + t) = Φ((q_i - T - t)/σ)`` (decreasing in ``t``), a ⊥ is
  ``Φ((t - q_i + T)/σ)`` (increasing).  With the threshold redrawn after each ⊤ (Lyu et
  al. Alg. 2) the segments between tops are independent: the probability is the
  product of one such integral per segment.
* **Report-Noisy-Max** with ``ν_i ~ N(0, σ²)``: ``t`` is the value of the maximum,
  ``P(argmax = i) = ∫ φ((t - q_i)/σ)/σ Π_{j≠i} Φ((t - q_j)/σ) dt`` (ties have
  probability zero).

**The enclosure** (:func:`integral_bounds`).  The grid ``t_k = k·h`` has a step ``h``
dividing every offset ``μ, a_j`` (rational) and at most ``min(s, s_j)/(16·2^L)`` at
refinement level ``L``.  On ``[t_k, t_{k+1}]`` the mass of the density is
``Φ((t_{k+1} - μ)/s) - Φ((t_k - μ)/s)`` (enclosed), and each monotone factor lies
between its values at the two ends, so the integral over the cell lies between the
mass times the product of the smaller ends and the mass times the product of the
larger ones.  Beyond ``μ ± 10·s`` the two tails contribute at least 0 and at most
their mass times the supremum of each factor there (again an end value, or 1).  Sums
are exact integer arithmetic on fixed-point enclosures of Φ (``2^-128``), so the only
rounding is the outward rounding of each Φ value.  The width shrinks like ``h``:
each level halves it, and :class:`GaussianProbability` maps the working precision a
check asks for to a level (64 bits → 0, doubling → one more level, at most
:data:`MAX_LEVEL`), so a comparison the checks cannot decide at the last level is
*undecided*, with the remaining gap in the finding.

**Φ on the grid** (:func:`phi_bounds`).  ``Φ(z) = 1/2 + φ(z) Σ_{n>=0} z^{2n+1}/(1·3···
(2n+1))`` (Abramowitz & Stegun 1964, 26.2.11), the series summed in integer arithmetic
with every term rounded down (lower sum) and up (upper sum); once the ratio of
consecutive terms ``z²/(2n+3)`` is at most 1/2 the remainder after a term is at most
that term, which the upper sum adds.  ``φ(z) = e^{-z²/2}/√(2π)`` comes from mpmath's
interval arithmetic (outward rounding), ``Φ(-z) = 1 - Φ(z)``, and beyond ``|z| = 10``
Φ is bounded by monotonicity (``Φ(z) ∈ [Φ(10), 1]``).  The same series, summed in
interval arithmetic, is :func:`verifier.arithmetic.normal.normal_cdf`; the tests hold
the two to each other.

**Released values.**  Releasing a value with Gaussian noise (``q[i] + nu`` at a ⊤, the
noisy maximum) is not ε-DP for any finite ε when a neighbour moves the answer: the
privacy loss at a released ``y`` is ``((y - q')² - (y - q)²)/(2σ²)``, linear in ``y``
and unbounded (Dwork & Roth 2014, §A.1, on the Gaussian mechanism's unbounded loss).
The lowering refuses such programs with that reason (:func:`from_laplace_model`).

>>> from fractions import Fraction as F
>>> lo, hi = integral_bounds(F(1), F(0), ((1, F(1, 2), F(1)),), 2)   # P(N(0,1) > 1/2 + N(0,1))
>>> lo <= F(361, 1000) <= hi, hi - lo < F(1, 20)   # Φ(-1/(2√2)) = 0.36183...
(True, True)
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

import mpmath
import networkx as nx
import sympy as sp
from mpmath.libmp import from_man_exp, from_rational, mpf_exp, round_ceiling, round_floor

from ...arithmetic.exact import enclose, exact
from ...arithmetic.precision import interval_context, raw_fraction, real_context
from ...errors import InvalidMechanism, InvalidParameter
from ...mechanism.model import FiniteMechanism, Output
from ...programs.syntax import Assign, Draw, For, If, ProgramText, Stmt
from .interpreter import BOT, TOP
from .noisy_max import NoisyMax
from .queries import Style, Vector, as_vector, check_sensitivity
from .svt import SparseVector

__all__ = [
    "MAX_LEVEL",
    "GaussianProbability",
    "GaussianSparseVector",
    "GaussianNoisyMax",
    "phi_bounds",
    "integral_bounds",
    "uses_gaussian",
    "as_laplace",
    "from_laplace_model",
    "gaussian_laws",
    "gaussian_mechanism",
    "probability_bounds",
    "delta_bounds",
]

#: Fixed-point bits of the Φ enclosures (values are integers over ``2^B``).
B = 128
_ONE = 1 << B
#: Beyond ``|z| = Z_CLAMP`` Φ is bounded by monotonicity (``1 - Φ(10) < 10^-23``).
Z_CLAMP = Fraction(10)
#: Grid cells per standard deviation at level 0 (each level doubles them).
CELLS_PER_SIGMA = 16
#: The finest refinement level: ``CELLS_PER_SIGMA · 2^MAX_LEVEL`` cells per σ.
MAX_LEVEL = 6


# ---------------------------------------------------------------------------
# Φ in fixed point
# ---------------------------------------------------------------------------


def _floor_scaled(x: Fraction, bits: int) -> int:
    return math.floor(x * (1 << bits))


def _ceil_scaled(x: Fraction, bits: int) -> int:
    return math.ceil(x * (1 << bits))


@functools.lru_cache(maxsize=1 << 18)
def phi_bounds(z: Fraction) -> tuple[int, int]:
    """Integers ``lo, hi`` with ``lo/2^B <= Φ(z) <= hi/2^B`` (module docstring).

    >>> lo, hi = phi_bounds(Fraction(1))                # Φ(1) = 0.8413447460685429...
    >>> lo / 2**128 <= 0.8413447460685429 <= hi / 2**128, hi - lo < 2**20
    (True, True)
    """
    if z < 0:
        lo, hi = phi_bounds(-z)
        return _ONE - hi, _ONE - lo
    if z == 0:
        return _ONE >> 1, _ONE >> 1
    if z > Z_CLAMP:
        return phi_bounds(Z_CLAMP)[0], _ONE
    p, q = z.numerator, z.denominator
    # the value of Φ(-z) = 1/2 - φ(z)S(z) is about e^{-z²/2}: the sum needs that many
    # more bits for an absolute error of 2^-B
    w = B + math.ceil(float(z) ** 2 * 0.7214) + 16
    p2, q2 = p * p, q * q
    lo_t = (p << w) // q
    hi_t = -((-p << w) // q)
    lo_s, hi_s = lo_t, hi_t
    n = 0
    while True:
        d = q2 * (2 * n + 3)
        lo_t = lo_t * p2 // d
        hi_t = -((-hi_t * p2) // d)
        lo_s += lo_t
        hi_s += hi_t
        n += 1
        # ratios z²/(2m+3) <= 1/2 from here on: the remainder is at most the last term
        if 2 * (2 * n + 3) * q2 >= 2 * 2 * p2 and hi_t <= 1:
            hi_s += hi_t
            break
    # e^{-z²/2} rounded down and up (mpmath's directed rounding, as its interval
    # exp), then 1/√(2π) as an enclosure: φ(z) S(z) at scale 2^{3w}
    prec = w + 16
    lo_x = from_rational(-p2, 2 * q2, prec, round_floor)
    hi_x = from_rational(-p2, 2 * q2, prec, round_ceiling)
    lo_e = _floor_scaled(raw_fraction(mpf_exp(lo_x, prec, round_floor)), w)
    hi_e = _ceil_scaled(raw_fraction(mpf_exp(hi_x, prec, round_ceiling)), w)
    lo_c, hi_c = _inv_sqrt_2pi(w)
    shift = 3 * w - B
    lo = (_ONE >> 1) + ((lo_e * lo_c * lo_s) >> shift)
    hi = (_ONE >> 1) - ((-(hi_e * hi_c * hi_s)) >> shift)
    return max(lo, 0), min(hi, _ONE)


@functools.lru_cache(maxsize=256)
def _inv_sqrt_2pi(w: int) -> tuple[int, int]:
    """``1/√(2π)`` enclosed at scale ``2^w``."""
    with interval_context(w + 16) as ctx:
        a, b = (1 / ctx.sqrt(2 * ctx.pi))._mpi_
        return _floor_scaled(raw_fraction(a), w), _ceil_scaled(raw_fraction(b), w)


# ---------------------------------------------------------------------------
# the one-dimensional integral
# ---------------------------------------------------------------------------

#: A factor ``Φ(sign·(t - a)/s)``, or the step ``[sign·(t - a) > 0]`` when ``s = 0``.
Factor = tuple[int, Fraction, Fraction]


def _grid_step(
    level: int, s: Fraction, offsets: Iterable[Fraction], scales: Iterable[Fraction]
) -> Fraction:
    """The largest ``1/(D·2^m)`` (``D`` the common denominator of the offsets) at most
    ``min scale / (CELLS_PER_SIGMA·2^level)``."""
    den = 1
    for a in offsets:
        den = math.lcm(den, a.denominator)
    smallest = min([s, *(x for x in scales if x > 0)])
    target = smallest / (CELLS_PER_SIGMA << level)
    h = Fraction(1, den)
    while h > target:
        h /= 2
    return h


def _factor_value(f: Factor, k: int, h: Fraction, steps: int) -> tuple[int, int]:
    """Enclosure of factor ``f`` at grid point ``k`` (``steps = a/h``)."""
    sign, _, s = f
    x = sign * (k - steps)
    if s == 0:
        return (_ONE, _ONE) if x > 0 else ((0, 0) if x < 0 else (0, _ONE))
    return phi_bounds(x * h / s)


@functools.lru_cache(maxsize=1 << 12)
def _integral_fixed(
    s: Fraction, mu: Fraction, factors: tuple[Factor, ...], level: int
) -> tuple[int, int, int]:
    """``(lo, hi, bits)``: the integral lies in ``[lo, hi] / 2^bits``."""
    h = _grid_step(level, s, [mu, *(a for _, a, _ in factors)], [f[2] for f in factors])
    m0 = int(mu / h)
    steps = [int(a / h) for _, a, _ in factors]
    reach = math.ceil(Z_CLAMP * s / h)
    k_lo, k_hi = m0 - reach, m0 + reach
    n = len(factors)
    dens = [phi_bounds((k - m0) * h / s) for k in range(k_lo, k_hi + 1)]
    vals = [
        [_factor_value(f, k, h, st) for k in range(k_lo, k_hi + 1)]
        for f, st in zip(factors, steps, strict=True)
    ]
    acc_lo = acc_hi = 0
    for i in range(k_hi - k_lo):
        (dl0, dh0), (dl1, dh1) = dens[i], dens[i + 1]
        m_lo, m_hi = max(dl1 - dh0, 0), dh1 - dl0
        for v in vals:
            (a0, b0), (a1, b1) = v[i], v[i + 1]
            m_lo *= a0 if a0 < a1 else a1
            m_hi *= b0 if b0 > b1 else b1
        acc_lo += m_lo
        acc_hi += m_hi
    # the tails: at least 0, at most their mass times each factor's supremum there
    left, right = dens[0][1], _ONE - dens[-1][0]
    for f, v in zip(factors, vals, strict=True):
        left *= v[0][1] if f[0] > 0 else _ONE
        right *= _ONE if f[0] > 0 else v[-1][1]
    acc_hi += left + right
    bits = B * (n + 1)
    return acc_lo, min(acc_hi, 1 << bits), bits


def integral_bounds(
    s: Fraction, mu: Fraction, factors: Sequence[Factor], level: int
) -> tuple[Fraction, Fraction]:
    """Rationals ``lo <= ∫ φ((t - μ)/s)/s Π_j F_j(t) dt <= hi`` at refinement ``level``
    (module docstring); ``factors`` are ``(sign, a, s_j)`` for ``Φ(sign·(t - a)/s_j)``
    (a step when ``s_j = 0``)."""
    fs = tuple((int(g), Fraction(a), Fraction(c)) for g, a, c in factors)
    lo, hi, bits = _integral_fixed(Fraction(s), Fraction(mu), fs, int(level))
    return Fraction(lo, 1 << bits), Fraction(hi, 1 << bits)


def _level(bits: int) -> int:
    """The refinement level a working precision asks for (64 bits: level 0)."""
    return min(MAX_LEVEL, max(0, (max(bits, 64) // 64).bit_length() - 1))


class GaussianProbability(sp.Expr):
    """The exact real number ``∫ φ((t - μ)/s)/s Π_j Φ(sign_j (t - a_j)/s_j) dt``
    (steps for ``s_j = 0``), kept as its defining integral and enclosed on demand
    (:func:`integral_bounds`) at the level the working precision asks for.

    Arguments (sympy rationals): ``s``, ``mu``, and a Tuple of ``(sign, a, s_j)``.
    Build it with :meth:`make`, which folds steps and gives an exact 0 for an
    empty event.
    """

    is_real = is_extended_real = is_finite = is_commutative = True
    is_positive = is_extended_positive = is_nonnegative = True
    is_zero = False

    @property
    def free_symbols(self) -> set[sp.Basic]:  # a number: its arguments are constants
        return set()

    @classmethod
    def make(cls, s: Any, mu: Any, factors: Sequence[Factor]) -> sp.Expr:
        """The probability, or exactly 0 when its steps leave an empty interval."""
        lower = max((a for g, a, c in factors if c == 0 and g > 0), default=None)
        upper = min((a for g, a, c in factors if c == 0 and g < 0), default=None)
        if lower is not None and upper is not None and lower >= upper:
            return sp.Integer(0)
        fs = sorted((int(g), Fraction(a), Fraction(c)) for g, a, c in factors)
        args = sp.Tuple(*(sp.Tuple(g, sp.Rational(a), sp.Rational(c)) for g, a, c in fs))
        return sp.Expr.__new__(cls, sp.Rational(s), sp.Rational(mu), args)

    def spec(self) -> tuple[Fraction, Fraction, tuple[Factor, ...]]:
        s, mu, fs = self.args
        return (
            Fraction(int(s.p), int(s.q)),
            Fraction(int(mu.p), int(mu.q)),
            tuple(
                (int(g), Fraction(int(a.p), int(a.q)), Fraction(int(c.p), int(c.q)))
                for g, a, c in fs
            ),
        )

    def bounds(self, level: int) -> tuple[Fraction, Fraction]:
        """The enclosure at refinement ``level``."""
        s, mu, fs = self.spec()
        return integral_bounds(s, mu, fs, level)

    def _certified_interval(self, bits: int) -> tuple[mpmath.mpf, mpmath.mpf]:
        """Ends of a certified enclosure (the protocol of
        :func:`verifier.arithmetic.exact.enclose`), rounded outward to ``bits``."""
        s, mu, fs = self.spec()
        lo, hi, shift = _integral_fixed(s, mu, fs, _level(bits))
        a = from_man_exp(lo, -shift, bits, round_floor)
        b = from_man_exp(hi, -shift, bits, round_ceiling)
        return mpmath.mp.make_mpf(a), mpmath.mp.make_mpf(b)

    def _eval_evalf(self, prec: int) -> sp.Float:
        lo, hi = self._certified_interval(prec + 16)
        with real_context(prec + 16) as ctx:
            return sp.Float((ctx.convert(lo) + hi) / 2, precision=prec)

    def _sympystr(self, printer: Any) -> str:
        s, mu, fs = self.spec()
        parts = [f"N({_num(mu)}, {_num(s)}^2)"]
        for g, a, c in fs:
            shifted = "t" if a == 0 else (f"t - {_num(a)}" if a > 0 else f"t + {_num(-a)}")
            arg = f"{'' if g > 0 else '-'}({shifted})"
            parts.append(f"Phi({arg}/{_num(c)})" if c else f"[{arg} > 0]")
        return "E[" + " * ".join(parts[1:] or ["1"]) + f"; t~{parts[0]}]"


def _num(x: Fraction) -> str:
    return str(x) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


# ---------------------------------------------------------------------------
# the models
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class GaussianSparseVector:
    """The sparse vector shape with Gaussian noise: ``ρ ~ N(0, σ_T²)``; for each
    query ``ν_i ~ N(0, σ²)`` (``sigma = 0``: no query noise); ⊤ when ``q_i + ν_i >= T +
    ρ``, else ⊥; stop after ``cutoff`` tops (``None``: never); with ``resample_sigma``
    the threshold noise is redrawn, ``N(0, resample_sigma²)``, after each ⊤."""

    name: str
    threshold_sigma: Fraction
    sigma: Fraction
    cutoff: int | None
    threshold: Fraction = Fraction(0)
    resample_sigma: Fraction | None = None
    claimed: sp.Expr | None = None
    source: str = "program text"

    def outputs(self, n: int) -> list[str]:
        """The answer sequences on ``n`` queries (a ⊤ number ``cutoff`` ends one)."""
        out = []
        for bits in itertools.product((TOP, BOT), repeat=n):
            seq = []
            tops = 0
            for b in bits:
                seq.append(b)
                tops += b == TOP
                if self.cutoff is not None and tops == self.cutoff:
                    break
            label = "".join(seq)
            if label not in out:
                out.append(label)
        return out

    def probability(self, q: Vector, label: str) -> sp.Expr:
        """``P(answer sequence = label)`` on the answers ``q`` (module docstring)."""
        total: sp.Expr = sp.Integer(1)
        s = self.threshold_sigma
        factors: list[Factor] = []
        for i, sym in enumerate(label):
            a = Fraction(q[i]) - self.threshold
            factors.append((-1 if sym == TOP else 1, a, self.sigma))
            if sym == TOP and self.resample_sigma is not None:
                total *= GaussianProbability.make(s, 0, factors)
                s, factors = self.resample_sigma, []
        if factors or self.resample_sigma is None or not label:
            total *= GaussianProbability.make(s, 0, factors)
        return total


@dataclass(frozen=True)
class GaussianNoisyMax:
    """Report-Noisy-Max with ``ν_i ~ N(0, σ²)``, releasing the argmax."""

    name: str
    sigma: Fraction
    claimed: sp.Expr | None = None
    source: str = "program text"

    def outputs(self, n: int) -> list[str]:
        return [f"argmax={i}" for i in range(n)]

    def probability(self, q: Vector, label: str) -> sp.Expr:
        i = int(label.split("=")[1])
        factors = [(1, Fraction(x), self.sigma) for j, x in enumerate(q) if j != i]
        return GaussianProbability.make(self.sigma, q[i], factors)


GaussianModel = GaussianSparseVector | GaussianNoisyMax


# ---------------------------------------------------------------------------
# from program text: gaussian draws lowered through the Laplace shapes
# ---------------------------------------------------------------------------


def _statements(stmts: Sequence[Stmt]) -> Iterable[Stmt]:
    for s in stmts:
        yield s
        if isinstance(s, For):
            yield from _statements(s.body)
        elif isinstance(s, If):
            yield from _statements(s.then)
            yield from _statements(s.orelse)


def uses_gaussian(prog: ProgramText) -> bool:
    """Whether ``prog`` draws Gaussian noise."""
    return any(
        isinstance(s, Assign) and isinstance(s.value, Draw) and s.value.kind == "gaussian"
        for s in _statements(prog.body)
    )


def _swap(stmts: Sequence[Stmt]) -> tuple[Stmt, ...]:
    out: list[Stmt] = []
    for s in stmts:
        if isinstance(s, Assign) and isinstance(s.value, Draw):
            if s.value.kind != "gaussian":
                raise InvalidMechanism(
                    f"program line {s.value.pos}: a {s.value.kind} draw in a program with "
                    "Gaussian noise: one noise family per program"
                )
            s = replace(s, value=replace(s.value, kind="laplace"))
        elif isinstance(s, For):
            s = replace(s, body=_swap(s.body))
        elif isinstance(s, If):
            s = replace(s, then=_swap(s.then), orelse=_swap(s.orelse))
        out.append(s)
    return tuple(out)


def as_laplace(prog: ProgramText) -> ProgramText:
    """``prog`` with every ``gaussian(σ)`` draw read as ``laplace(σ)``: the same
    program shape, whose lowering (:func:`~.text.lower`) checks the statements, and
    whose noise scales are the standard deviations (:func:`from_laplace_model`)."""
    return replace(prog, body=_swap(prog.body))


def _sigma(noise: Any, what: str) -> Fraction:
    if noise.kind == "none":
        return Fraction(0)
    scale = 1 / noise.rate
    if not scale.is_Rational:
        raise InvalidParameter(
            f"the standard deviation of the {what} must be a rational number, got {scale} "
            "(give the parameters as rationals)"
        )
    return Fraction(int(scale.p), int(scale.q))


_UNBOUNDED = (
    "releases a value with Gaussian noise: not eps-DP for any finite eps when a "
    "neighbour moves the answer (the privacy loss at a released y is "
    "((y - q')^2 - (y - q)^2)/(2 sigma^2), unbounded in y); refused — release the "
    "answer sequence or the argmax"
)


def from_laplace_model(model: Any, name: str) -> GaussianModel:
    """The Gaussian model of a program lowered through :func:`as_laplace`: every
    Laplace scale is a standard deviation.  Value releases are refused with the
    reason (unbounded privacy loss), and so are bucketed releases (not lowered)."""
    if isinstance(model, SparseVector):
        if model.release != "bit" or model.buckets is not None:
            raise InvalidMechanism(f"program {name!r} {_UNBOUNDED}")
        resample = model.resample_noise
        return GaussianSparseVector(
            model.name,
            _sigma(model.threshold_noise, "threshold noise"),
            _sigma(model.query_noise, "query noise"),
            model.cutoff,
            Fraction(model.threshold),
            None if resample is None else _sigma(resample, "redrawn threshold noise"),
            model.claimed,
        )
    if isinstance(model, NoisyMax) and model.release == "argmax" and model.buckets is None:
        return GaussianNoisyMax(model.name, _sigma(model.noise, "noise"), model.claimed)
    raise InvalidMechanism(f"program {name!r} {_UNBOUNDED}")


# ---------------------------------------------------------------------------
# laws and mechanisms
# ---------------------------------------------------------------------------


def gaussian_laws(model: GaussianModel, q: Sequence[int]) -> dict[str, sp.Expr]:
    """The law of ``model`` on the answers ``q``: every output's probability as an
    exact :class:`GaussianProbability` (or a product of them, or exactly 0)."""
    v = as_vector(q)
    return {o: model.probability(v, o) for o in model.outputs(len(v))}


def gaussian_mechanism(
    model: GaussianModel,
    graph: nx.Graph,
    answers: Mapping[Hashable, Sequence[int]],
    style: Style = "all_differ",
) -> FiniteMechanism:
    """The finite mechanism of ``model`` on the datasets of ``graph`` with their query
    answers; every edge is held to the sensitivity ``style`` (Δ = 1).  The laws sum to
    1 by construction (a partition of the outcomes); each probability is certified
    when a check encloses it."""
    ans = {d: as_vector(answers[d]) for d in graph.nodes}
    # the edges between the answer vectors, held to the sensitivity
    check_sensitivity(nx.Graph((ans[a], ans[b]) for a, b in graph.edges if ans[a] != ans[b]), style)
    lengths = {len(v) for v in ans.values()}
    if len(lengths) != 1:
        raise InvalidMechanism("all query vectors must have the same length")
    laws = {v: gaussian_laws(model, v) for v in dict.fromkeys(ans.values())}
    outputs: list[Output] = list(model.outputs(lengths.pop()))
    dists = {d: laws[ans[d]] for d in graph.nodes}
    return FiniteMechanism(graph, dists, outputs, name=model.name, validate=False)


def probability_bounds(p: sp.Expr, bits: int = 64) -> tuple[Fraction, Fraction]:
    """Rationals enclosing a probability of a Gaussian law (or any exact constant) at
    the refinement level ``bits`` asks for (64: level 0; each doubling one more)."""
    e = enclose(p, bits)
    if e is None:
        raise InvalidParameter("internal: no enclosure")
    return e.bounds()


def delta_bounds(
    P: Mapping[Output, sp.Expr], Q: Mapping[Output, sp.Expr], epsilon: Any, bits: int = 64
) -> tuple[Fraction, Fraction]:
    """An enclosure of the hockey-stick divergence ``δ(ε) = Σ_o max(0, P(o) - e^ε
    Q(o))`` (Dwork & Roth 2014, Definition 2.4 read as a divergence; Balle & Wang
    2018, Theorem 5): each term's lower end from the lower end of ``P(o)`` and the
    upper ends of ``e^ε`` and ``Q(o)``, and the other way round."""
    lo_e, hi_e = probability_bounds(sp.exp(exact(epsilon)), bits)
    lo = hi = Fraction(0)
    for o, p in P.items():
        pl, ph = probability_bounds(p, bits)
        ql, qh = probability_bounds(Q.get(o, sp.Integer(0)), bits)
        lo += max(Fraction(0), pl - hi_e * qh)
        hi += max(Fraction(0), ph - lo_e * ql)
    return lo, hi
