"""The sparse vector technique and its relatives, with exact output laws.

The programs are the "threshold + per-query noise, compare, output ⊤/⊥ or a value,
stop after c ⊤" family:

* Lyu, Su, Li 2017, "Understanding the Sparse Vector Technique for Differential
  Privacy" (VLDB), Algorithms 1-6 (their Figure 1 and Table 1):

  =====  ====  =========================  ==============  =================================
  Alg.   ε1    threshold noise ρ          query noise ν   flaw (Lyu et al.'s verdict)
  =====  ====  =========================  ==============  =================================
  1      ε/2   Lap(Δ/ε1)                  Lap(2cΔ/ε2)     none (ε-DP)
  2      ε/2   Lap(cΔ/ε1), resampled      Lap(2cΔ/ε2)     none (ε-DP; resampling unneeded)
               Lap(cΔ/ε2) after each ⊤
  3      ε/2   Lap(Δ/ε1)                  Lap(cΔ/ε2)      releases q_i + ν_i (∞-DP)
  4      ε/4   Lap(Δ/ε1)                  Lap(Δ/ε2)       ν not scaled by c ((1+6c)/4·ε-DP)
  5      ε/2   Lap(Δ/ε1)                  none            no query noise, no cutoff (∞-DP)
  6      ε/2   Lap(Δ/ε1)                  Lap(Δ/ε2)       no cutoff (∞-DP)
  =====  ====  =========================  ==============  =================================

  with ``ε2 = ε - ε1``; the monotone-query variant of Algorithm 1 uses Lap(cΔ/ε2).
* NumericalSVT (Wang, Ding, Wang, Kifer, Zhang 2019, "Proving differential privacy
  with shadow execution", PLDI): ρ ~ Lap(3Δ/ε), ν ~ Lap(6cΔ/ε), and each ⊤ releases
  ``q_i + ξ_i`` with fresh ξ ~ Lap(3cΔ/ε).
* GapSVT (Ding, Wang, Zhang, Kifer 2019, "Free gap information from the
  differentially private sparse vector and noisy max mechanisms", VLDB 2020): Lyu's
  Algorithm 1 releasing the gap ``q_i + ν_i - (T + ρ)`` at each ⊤.  Its flawed version
  here draws ν ~ Lap(cΔ/ε2) — the monotone-query scale — on arbitrary queries.

Noise is Laplace or two-sided geometric with the same rate (:mod:`.distributions`).
Comparisons use ``q_i + ν_i >= T + ρ``.  Given the threshold noise ``ρ = r`` the
answers are independent (Lyu et al., proof of Theorem 2), so each output probability
is the sum (integral) over ``r`` of a product of per-answer factors, piecewise
exponential in ``r`` (:mod:`.expoly`), in closed form.

>>> import sympy as sp
>>> from verifier.algorithms.noise.queries import query_graph
>>> from verifier.algorithms.noise.interpreter import program_mechanism
>>> prog = lyu_svt(1, sp.log(2) * 8, c=1)    # ε = 8 log 2: rates ε/2, ε/4; W = e^{-ε/4} = 1/4
>>> pm = program_mechanism(prog, query_graph([(0, 1), (1, 0)], style="all_differ"))
>>> pm.mechanism.p((0, 1), "⊥⊤")
31312/151725
"""

from __future__ import annotations

import dataclasses
import math
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

import sympy as sp

from ...arithmetic.exact import exact
from ...errors import InvalidMechanism, InvalidParameter
from ...mechanism.model import FiniteMechanism
from ..registry import Param, boolean, choice, exact_number, positive_int, transformer
from .distributions import NO_NOISE, Noise, noise_family
from .expoly import PW, ExpPoly, step_below, step_from
from .interpreter import (
    BOT,
    PROGRAM_PARAMS,
    TOP,
    Answer,
    Context,
    Laws,
    Released,
    answer_label,
    answers_of,
    bucket_releases,
    point_release_outputs,
    program_context,
    program_mechanism,
)
from .queries import Vector

__all__ = [
    "Release",
    "SparseVector",
    "lyu_svt",
    "svt_monotone",
    "numerical_svt",
    "gap_svt",
    "gap_svt_monotone",
    "bad_gap_svt",
    "answer_sequence_laws",
]


#: What a ⊤ answer releases besides itself: nothing (``bit``), the noisy answer
#: (``value``, Lyu et al. Alg. 3), the gap to the noisy threshold (``gap``, GapSVT) or
#: the answer with fresh noise (``fresh``, NumericalSVT).
Release = Literal["bit", "value", "gap", "fresh"]


@dataclass(frozen=True)
class SparseVector:
    """A sparse-vector program on a vector of query answers ``q``.

    ``ρ ~ threshold_noise``; for ``i = 1..n``: ``ν_i ~ query_noise``; if
    ``q_i + ν_i >= T + ρ`` answer ⊤ (or release: ``value`` = ``q_i + ν_i``, Lyu et al.
    Alg. 3; ``gap`` = ``q_i + ν_i - T - ρ``, Ding et al. 2019; ``fresh`` = ``q_i + ξ_i``
    with ``ξ_i ~ value_noise``, NumericalSVT), and after ``cutoff`` such answers stop;
    else answer ⊥.  With ``resample_noise`` the threshold noise is drawn afresh after
    every ⊤ (Lyu et al. Alg. 2).  The threshold ``T`` may be any rational (DP-Sniper
    runs Alg. 1 with ``T = 0.5``): with Laplace noise the program then runs on its
    inputs scaled by the common denominator (:class:`~.interpreter.Context`).  ``buckets`` (integer cut points) release the bucket
    of the value instead of the value.  ``claimed`` is the privacy claim from the
    literature, ``monotone`` whether it assumes monotone queries.
    """

    name: str
    threshold_noise: Noise
    query_noise: Noise
    cutoff: int | None
    release: Release = "bit"
    value_noise: Noise = NO_NOISE
    resample_noise: Noise | None = None
    threshold: Any = 0
    buckets: tuple[int, ...] | None = None
    claimed: sp.Expr | None = None
    monotone: bool = False
    source: str = ""

    def __post_init__(self) -> None:
        t = exact(self.threshold)
        if not t.is_Rational:
            raise InvalidParameter(f"the threshold must be a rational number, got {t}")
        object.__setattr__(
            self, "threshold", int(t) if t.is_Integer else Fraction(int(t.p), int(t.q))
        )
        if self.cutoff is not None and (not isinstance(self.cutoff, int) or self.cutoff < 1):
            raise InvalidParameter(f"cutoff must be a positive integer or None, got {self.cutoff}")
        if self.release not in ("bit", "value", "gap", "fresh"):
            raise InvalidParameter(f"unknown release {self.release!r}")
        if self.release == "fresh" and self.value_noise.kind == "none":
            raise InvalidParameter("a 'fresh' release needs value_noise")
        if self.buckets is not None:
            b = tuple(self.buckets)
            if not b or any(not isinstance(x, int) for x in b) or list(b) != sorted(set(b)):
                raise InvalidParameter("buckets must be strictly increasing integers")
            if self.release == "gap" and b[0] <= 0:
                raise InvalidParameter("gap buckets must be positive cut points (gaps are >= 0)")
        if self.release != "bit" and self.resample_noise is not None:
            raise InvalidParameter("threshold resampling is only supported with bit releases")
        kinds = {n.kind for n in self.noises() if n.kind != "none"}
        if len(kinds) > 1:
            raise InvalidParameter("mix of geometric and Laplace noise in one program")

    @property
    def has_density(self) -> bool:
        """Whether a released value has a density (Laplace noise, no buckets): its
        output law is then no finite distribution."""
        kinds = {n.kind for n in self.noises() if n.kind != "none"}
        return (
            self.release != "bit"
            and self.buckets is None
            and kinds == {"laplace"}
            and not (self.release == "gap" and self.query_noise.kind == "none")
        )

    def noises(self) -> list[Noise]:
        """Every noise the program draws (the threshold noise first)."""
        out = [self.threshold_noise, self.query_noise, self.value_noise]
        if self.resample_noise is not None:
            out.append(self.resample_noise)
        return out

    @property
    def outer_noise(self) -> Noise:
        """The threshold noise ρ: given ρ the answers are independent."""
        return self.threshold_noise

    @property
    def denominator(self) -> int:
        """The denominator of the threshold (the scale its program runs at)."""
        return Fraction(self.threshold).denominator

    def scaled(self, ctx: Context) -> SparseVector:
        """The program on inputs scaled by ``ctx.scale`` (an integer threshold)."""
        t = Fraction(self.threshold) * ctx.scale
        if t.denominator != 1:
            raise InvalidParameter(
                f"internal: threshold {self.threshold} is not an integer at scale {ctx.scale}"
            )
        return dataclasses.replace(self, threshold=int(t))

    def answers_only(self) -> SparseVector:
        """The program with the same noises releasing its answer sequence only (⊤/⊥
        per query): released values dropped, a post-processing
        (:func:`answer_sequence_laws`)."""
        return dataclasses.replace(self, release="bit", value_noise=NO_NOISE, buckets=None)

    def laws(self, ctx: Context, vectors: list[Vector]) -> Laws:
        """The exact output law on each of ``vectors`` (:func:`_sv_laws`)."""
        if self.has_density:
            raise InvalidParameter(
                "a released value with Laplace noise has a density, not a probability: "
                "use geometric noise or give integer buckets"
            )
        if ctx.scale != 1 and self.release != "bit":
            raise InvalidParameter(
                "released values with a rational threshold: use answer_sequence_laws "
                "for the answer sequence"
            )
        d = ctx.scale
        if d == 1:
            return _sv_laws(ctx, self.scaled(ctx), vectors)
        # the answers scaled by d with the threshold (Context); the rows keyed by the
        # vectors as given
        scaled = {tuple(x * d for x in q): q for q in vectors}
        laws = _sv_laws(ctx, self.scaled(ctx), list(scaled))
        return dataclasses.replace(laws, rows={scaled[v]: r for v, r in laws.rows.items()})


# -- the catalogue -------------------------------------------------------------

_LYU = "Lyu, Su, Li 2017, 'Understanding the Sparse Vector Technique for DP'"


def lyu_svt(
    k: int,
    eps: Any,
    c: int = 1,
    *,
    noise: str = "geometric",
    threshold: Any = 0,
    sensitivity: Any = 1,
) -> SparseVector:
    """Lyu, Su, Li 2017, Algorithm ``k`` (1-6) at privacy parameter ``eps`` for
    queries of sensitivity Δ = ``sensitivity`` (every scale is multiplied by Δ: the
    rates below are divided by it).

    Rates (η = 1/scale) from their Figure 1 / Table 1, with ``ε2 = ε - ε1``:
    Alg. 1: ρ rate ε1 = ε/2, ν rate ε2/(2c); Alg. 2: ρ rate ε1/c, ν rate ε2/(2c), ρ
    redrawn with rate ε2/c after each ⊤; Alg. 3: ρ rate ε/2, ν rate ε2/c, releases
    ``q_i + ν_i``; Alg. 4: ρ rate ε1 = ε/4, ν rate ε2 = 3ε/4; Alg. 5: ρ rate ε/2, no
    ν, no cutoff; Alg. 6: ρ rate ε/2, ν rate ε2, no cutoff.  Each claims ε-DP (the
    claim recorded; Lyu et al. prove it for Algs. 1-2 only).
    """
    delta = exact(sensitivity)
    if not delta.is_positive:
        raise InvalidParameter(f"the sensitivity must be positive, got {delta}")
    e = exact(eps) / delta
    fam = noise
    if k in (1, 2, 3, 5, 6):
        e1 = e / 2
    elif k == 4:
        e1 = e / 4
    else:
        raise InvalidParameter(f"Lyu, Su, Li 2017 have Algorithms 1-6, not {k}")
    e2 = e - e1
    src = f"{_LYU}, Algorithm {k}"
    if k == 1:
        return SparseVector(
            f"Lyu Alg 1 (c={c})", noise_family(fam, e1), noise_family(fam, e2 / (2 * c)), c,
            threshold=threshold, claimed=e * delta, source=src,
        )  # fmt: skip
    if k == 2:
        return SparseVector(
            f"Lyu Alg 2 (c={c})", noise_family(fam, e1 / c), noise_family(fam, e2 / (2 * c)), c,
            resample_noise=noise_family(fam, e2 / c), threshold=threshold, claimed=e * delta, source=src,
        )  # fmt: skip
    if k == 3:
        return SparseVector(
            f"Lyu Alg 3 (c={c})", noise_family(fam, e1), noise_family(fam, e2 / c), c,
            release="value", threshold=threshold, claimed=e * delta, source=src,
        )  # fmt: skip
    if k == 4:
        return SparseVector(
            f"Lyu Alg 4 (c={c})", noise_family(fam, e1), noise_family(fam, e2), c,
            threshold=threshold, claimed=e * delta, source=src,
        )  # fmt: skip
    if k == 5:
        return SparseVector(
            "Lyu Alg 5", noise_family(fam, e1), NO_NOISE, None,
            threshold=threshold, claimed=e * delta, source=src,
        )  # fmt: skip
    return SparseVector(
        "Lyu Alg 6", noise_family(fam, e1), noise_family(fam, e2), None,
        threshold=threshold, claimed=e * delta, source=src,
    )  # fmt: skip


def svt_monotone(
    eps: Any, c: int = 1, *, noise: str = "geometric", threshold: Any = 0
) -> SparseVector:
    """Lyu et al. Algorithm 1 for monotone queries: ν ~ Lap(cΔ/ε2) (rate ε2/c); ε-DP
    when all answers move in the same direction (Lyu, Su, Li 2017, §3, Theorem 2's
    remark on monotone queries)."""
    e = exact(eps)
    return SparseVector(
        f"Lyu Alg 1, monotone (c={c})", noise_family(noise, e / 2),
        noise_family(noise, e / 2 / c), c, threshold=threshold, claimed=e, monotone=True,
        source=f"{_LYU}, Algorithm 1 (monotone queries)",
    )  # fmt: skip


def numerical_svt(
    eps: Any,
    c: int = 1,
    *,
    noise: str = "geometric",
    threshold: Any = 0,
    buckets: Sequence[int] | None = None,
    sensitivity: Any = 1,
) -> SparseVector:
    """NumericalSVT (Wang et al. 2019, PLDI, Fig. 1): ρ ~ Lap(3Δ/ε), ν ~ Lap(6cΔ/ε),
    release ``q_i + ξ_i`` with ξ ~ Lap(3cΔ/ε) at each ⊤; ε-DP (Δ = ``sensitivity``)."""
    delta = exact(sensitivity)
    if not delta.is_positive:
        raise InvalidParameter(f"the sensitivity must be positive, got {delta}")
    e = exact(eps) / delta
    return SparseVector(
        f"NumericalSVT (c={c})", noise_family(noise, e / 3), noise_family(noise, e / (6 * c)), c,
        release="fresh", value_noise=noise_family(noise, e / (3 * c)), threshold=threshold,
        buckets=None if buckets is None else tuple(buckets), claimed=e * delta,
        source="Wang, Ding, Wang, Kifer, Zhang 2019 (ShadowDP), NumericalSVT",
    )  # fmt: skip


_DING = "Ding, Wang, Zhang, Kifer 2019, 'Free gap information ...' (GapSVT)"


def gap_svt(
    eps: Any,
    c: int = 1,
    *,
    noise: str = "geometric",
    threshold: Any = 0,
    buckets: Sequence[int] | None = None,
) -> SparseVector:
    """GapSVT (Ding et al. 2019, Algorithm 1 with gaps): Lyu's Algorithm 1 noise
    (ρ rate ε/2, ν rate ε2/(2c)) releasing the gap ``q_i + ν_i - T - ρ`` at each ⊤;
    ε-DP."""
    e = exact(eps)
    return SparseVector(
        f"GapSVT (c={c})", noise_family(noise, e / 2), noise_family(noise, e / 2 / (2 * c)), c,
        release="gap", threshold=threshold,
        buckets=None if buckets is None else tuple(buckets), claimed=e, source=_DING,
    )  # fmt: skip


def gap_svt_monotone(
    eps: Any, c: int = 1, *, noise: str = "geometric", threshold: Any = 0
) -> SparseVector:
    """GapSVT for monotone queries: ν ~ Lap(c/ε2) (rate ε2/c); ε-DP on monotone
    neighbours (Ding et al. 2019)."""
    e = exact(eps)
    return SparseVector(
        f"GapSVT, monotone (c={c})", noise_family(noise, e / 2), noise_family(noise, e / 2 / c), c,
        release="gap", threshold=threshold, claimed=e, monotone=True,
        source=f"{_DING}, monotone queries",
    )  # fmt: skip


def bad_gap_svt(
    eps: Any, c: int = 1, *, noise: str = "geometric", threshold: Any = 0
) -> SparseVector:
    """Flawed GapSVT: the monotone-query noise Lap(c/ε2) used on arbitrary
    sensitivity-1 queries (claimed ε-DP there; it is not: the gap reveals ``ν_i - ρ``,
    whose shift by 2 costs ``2ε2/c`` per ⊤)."""
    e = exact(eps)
    return SparseVector(
        f"GapSVT with unscaled noise (c={c})", noise_family(noise, e / 2),
        noise_family(noise, e / 2 / c), c, release="gap", threshold=threshold, claimed=e,
        source=f"{_DING} — flawed: the monotone scale Lap(c/eps2) on general queries",
    )  # fmt: skip


# ---------------------------------------------------------------------------
# the sparse-vector family: exact probabilities
# ---------------------------------------------------------------------------


def _sv_factor(ctx: Context, prog: SparseVector, q: int, ans: Answer) -> PW:
    """The factor of one query answer as a function of the noisy threshold offset r
    (Lyu et al., proof of Theorem 2: given ρ = r the answers are independent)."""
    T = prog.threshold
    nu = prog.query_noise
    ring = ctx.outer
    top = ctx.survival(nu, T - q)  # P(q + ν >= T + r)
    if ans == BOT:
        return 1 - top
    if ans == TOP:
        return top
    assert isinstance(ans, Released)
    if prog.release == "gap":
        # gap = q + ν - T - r ∈ [lo, hi)  ⇔  ν ∈ [r + T - q + lo, r + T - q + hi)
        lo = ans.lo if ans.lo is not None else 0
        f = ctx.survival(nu, T - q + lo)
        if ans.hi is not None:
            f = f - ctx.survival(nu, T - q + ans.hi)
        return f
    if prog.release == "fresh":
        # P(lo <= q + ξ < hi) = P(ξ >= lo - q) - P(ξ >= hi - q)
        xi = prog.value_noise
        lo_p = ring.one if ans.lo is None else ctx.survival_at(xi, ans.lo - q)
        mass = lo_p - ctx.survival_at(xi, None if ans.hi is None else ans.hi - q)
        return top * PW.const(ring, mass)
    # value = q + ν ∈ [lo, hi) and q + ν >= T + r:
    #   [T + r < lo]·P(lo <= q + ν < hi) + [lo <= T + r < hi]·P(T + r <= q + ν < hi)
    s_hi = ctx.survival_at(nu, None if ans.hi is None else ans.hi - q)
    out = top - PW.const(ring, s_hi)
    if ans.hi is not None:
        out = out * step_below(ring, ans.hi - T)
    if ans.lo is not None:
        below = step_below(ring, ans.lo - T)
        s_lo = ctx.survival_at(nu, ans.lo - q)
        out = out * step_from(ring, ans.lo - T) + below * PW.const(ring, s_lo - s_hi)
    return out


def _sv_answers(prog: SparseVector, n: int) -> Iterator[tuple[Answer, ...]]:
    """Every answer sequence of the program on n queries (finite releases only)."""
    if prog.release == "bit":
        rels: list[Answer] = [TOP]
    elif prog.buckets is not None:
        rels = list(bucket_releases(prog.buckets, prog.release == "gap"))
    else:
        raise InvalidParameter("internal: point releases are enumerated separately")

    def rec(prefix: tuple[Answer, ...], tops: int) -> Iterator[tuple[Answer, ...]]:
        if len(prefix) == n or (prog.cutoff is not None and tops == prog.cutoff):
            yield prefix
            return
        yield from rec(prefix + (BOT,), tops)
        for r in rels:
            yield from rec(prefix + (r,), tops + 1)

    yield from rec((), 0)


def _segment_total(ctx: Context, noise: Noise, integrand: PW) -> Any:
    return (ctx.density(noise) * integrand).total()


def _sv_probability(ctx: Context, prog: SparseVector, q: Vector, answers: Sequence[Answer]) -> Any:
    """Exact probability of a finite answer sequence (Lyu et al., proof of Thm 2;
    with resampling the segments between ⊤s are independent given their thresholds)."""
    if prog.resample_noise is None:
        f = PW.const(ctx.outer, 1)
        for qi, a in zip(q, answers, strict=False):
            f = f * _sv_factor(ctx, prog, qi, a)
        return _segment_total(ctx, prog.threshold_noise, f)
    total = ctx.outer.one
    noise = prog.threshold_noise
    f = PW.const(ctx.outer, 1)
    for qi, a in zip(q, answers, strict=False):
        f = f * _sv_factor(ctx, prog, qi, a)
        if a != BOT:
            total *= _segment_total(ctx, noise, f)
            noise, f = prog.resample_noise, PW.const(ctx.outer, 1)
    return total * _segment_total(ctx, noise, f)


#: Probabilities kept by :func:`_sv_bits_all` in the laws of single query vectors it
#: remembers (least recently used first out; a law of more than an eighth of this is
#: not kept).  A search screens thousands of neighbouring pairs that share their
#: vectors: Lyu et al.'s Algorithms 1, 2, 4 and 6 and GapSVT in ``verifier
#: casestudies`` asked for 2,304 laws of 502 distinct vectors.  The bound keeps the
#: memory to some MiB when the laws are large (``2^n`` answer sequences).
BITS_CACHE_PROBABILITIES = 20_000
_BITS_CACHE: OrderedDict[Hashable, dict[tuple[Answer, ...], Any]] = OrderedDict()
_BITS_CACHED = [0]  # probabilities in _BITS_CACHE
_BITS_LOCK = threading.Lock()  # a dask worker may run tasks in several threads


def _sv_bits_all(ctx: Context, prog: SparseVector, q: Vector) -> dict[tuple[Answer, ...], Any]:
    """All finite answer sequences of ``prog`` on the vector ``q`` with their
    probabilities (:func:`_sv_bits_law`), remembered per context, program and vector
    (:data:`BITS_CACHE_PROBABILITIES`): the law of one vector does not depend on the
    other datasets.  The dictionary is shared: callers copy it before changing it."""
    key = (ctx.u, ctx.outer, ctx.scale, frozenset(ctx.mult.items()), prog, tuple(q))
    with _BITS_LOCK:
        law = _BITS_CACHE.get(key)
        if law is not None:
            _BITS_CACHE.move_to_end(key)
            return law
    law = _sv_bits_law(ctx, prog, q)
    if len(law) <= BITS_CACHE_PROBABILITIES // 8:
        with _BITS_LOCK:
            if key not in _BITS_CACHE:
                _BITS_CACHE[key] = law
                _BITS_CACHED[0] += len(law)
            while _BITS_CACHED[0] > BITS_CACHE_PROBABILITIES:
                _BITS_CACHED[0] -= len(_BITS_CACHE.popitem(last=False)[1])
    return law


def _sv_bits_law(ctx: Context, prog: SparseVector, q: Vector) -> dict[tuple[Answer, ...], Any]:
    """All finite answer sequences by depth-first search sharing prefix products."""
    if prog.resample_noise is not None:
        return {a: _sv_probability(ctx, prog, q, a) for a in _sv_answers(prog, len(q))}
    n = len(q)
    rels: list[Answer]
    if prog.release == "bit":
        rels = [TOP]
    else:
        rels = list(bucket_releases(prog.buckets or (), prog.release == "gap"))
    dens = ctx.density(prog.threshold_noise)
    out: dict[tuple[Answer, ...], Any] = {}
    factors: dict[tuple[int, Answer], PW] = {}

    def factor(qi: int, a: Answer) -> PW:
        if (qi, a) not in factors:
            factors[(qi, a)] = _sv_factor(ctx, prog, qi, a)
        return factors[(qi, a)]

    def rec(prefix: tuple[Answer, ...], f: PW, tops: int) -> None:
        if len(prefix) == n or (prog.cutoff is not None and tops == prog.cutoff):
            out[prefix] = f.total()
            return
        i = len(prefix)
        rec(prefix + (BOT,), f * factor(q[i], BOT), tops)
        for r in rels:
            rec(prefix + (r,), f * factor(q[i], r), tops + 1)

    rec((), dens, 0)
    return out


def _sv_point_functions(ctx: Context, prog: SparseVector, q: Vector) -> dict[int, PW]:
    """For a point release (geometric noise, c = 1): ``j ↦ v ↦ P(⊥^j, release v)``
    as a piecewise exponential polynomial in the released value ``v``.

    * value (Lyu Alg. 3): ``P = pmf_ν(v - q_j) · G(v - T)``, ``G(y) = Σ_{r<=y} a(r)``,
      ``a(r) = P(ρ = r) Π_{i<j} P(q_i + ν_i < T + r)``;
    * gap (GapSVT): ``P = Σ_r a(r) pmf_ν(r + T - q_j + g)`` for ``g >= 0``, split at the
      sign of the pmf's argument into an upper and a lower running sum;
    * fresh (NumericalSVT): ``P = Σ_r a(r) P(q_j + ν_j >= T + r) · pmf_ξ(v - q_j)``.
    """
    ring = ctx.outer
    T = prog.threshold
    nu = prog.query_noise
    out: dict[int, PW] = {}
    a = ctx.density(prog.threshold_noise)
    for j, qj in enumerate(q):
        if prog.release == "value":
            if nu.kind == "none":
                raise InvalidParameter("a value release without query noise is deterministic")
            G = a.cumulative().shifted(-T)
            out[j] = ctx.density(nu).shifted(-qj) * G
        elif prog.release == "fresh":
            top = (a * ctx.survival(nu, T - qj)).total()
            out[j] = ctx.density(prog.value_noise).shifted(-qj) * PW.const(ring, top)
        else:  # gap
            s = T - qj
            if nu.kind == "none":
                # gap = q_j - T - r  ⇒  P(g) = a(q_j - T - g)
                out[j] = a.reflected(qj - T) * step_from(ring, 0)
            else:
                m = ctx.m(nu)
                C = (1 - ring.wpow(m)) / (1 + ring.wpow(m))
                plus = (a * PW(ring, (), (ExpPoly.exp(ring, m),))).upper_cumulative()
                minus = (a * PW(ring, (), (ExpPoly.exp(ring, -m),))).cumulative()
                h = PW(ring, (), (ExpPoly.exp(ring, m, C * ring.wpow(m * s)),)) * plus.reflected(
                    -s
                ) + PW(ring, (), (ExpPoly.exp(ring, -m, C * ring.wpow(-m * s)),)) * minus.reflected(
                    -s - 1
                )
                out[j] = h * step_from(ring, 0)
        a = a * _sv_factor(ctx, prog, qj, BOT)
    out[-1] = a  # ⊥^n as a function whose total is its probability
    return out


def _sv_laws(ctx: Context, program: SparseVector, vectors: list[Vector]) -> Laws:
    """Every answer sequence (bit releases, buckets) with its probability; a point
    release (``cutoff = 1``): the window of released values, its two lumped infinite
    tails per number of ⊥ before the release, and ``⊥^n``."""
    n = len(vectors[0])
    rows: dict[Vector, dict[str, Any]] = {}
    point = program.release != "bit" and program.buckets is None
    if not point:
        what = {"value": "v", "gap": "g", "fresh": "v"}.get(program.release, "")
        for q in vectors:
            probs = _sv_bits_all(ctx, program, q)
            rows[q] = {answer_label(a, what): p for a, p in probs.items()}
        return Laws(rows, list(next(iter(rows.values())).keys()))
    if program.cutoff != 1:
        raise InvalidParameter(
            "point releases are supported for cutoff c = 1 (one released value); "
            "give buckets for c > 1"
        )
    what = "g" if program.release == "gap" else "v"
    funcs = {q: _sv_point_functions(ctx, program, q) for q in vectors}
    keys_funcs = {q: {j: f for j, f in fs.items() if j >= 0} for q, fs in funcs.items()}
    laws = point_release_outputs(
        vectors, keys_funcs, what, lambda j: BOT * j, program.release == "gap"
    )
    lab = BOT * n
    laws.order.append(lab)
    for q in vectors:
        laws.rows[q][lab] = funcs[q][-1].total()
    return laws


def answer_sequence_laws(
    prog: SparseVector, vectors: Sequence[Sequence[Any]], *, symbolic: bool = False
) -> tuple[Context, dict[tuple[Fraction, ...], dict[tuple[Answer, ...], Any]]]:
    """The exact law of the answer sequence (⊥/⊤ per query, up to the cutoff) of
    ``prog`` on each of the rational query vectors ``vectors``.

    Released values do not change which answers are ⊤ (NumericalSVT's fresh noise ξ
    is independent of the comparison; Lyu et al.'s Alg. 3 releases the value it
    compared), so the answer sequence of any release is that of the bit program
    with the same noises.  The context's unit also divides the rate of a fresh
    release's noise.  Thresholds and answers are scaled by their common denominator
    (:class:`~.interpreter.Context`); with Laplace threshold noise and a rational
    unit the probabilities are :class:`~.expoly.Laurent` polynomials in
    ``W = e^{-u}``.

    Returns
    -------
    (Context, dict)
        The context (its ``u`` is the unit per ``1/scale``) and, per vector (as a
        tuple of Fractions), ``{answer sequence: probability}``.

    Examples
    --------
    >>> import sympy as sp
    >>> prog = lyu_svt(1, sp.Rational(1, 10), noise="laplace", threshold=sp.Rational(1, 2))
    >>> ctx, laws = answer_sequence_laws(prog, [(0,), (1,)])
    >>> ctx.scale, ctx.u
    (2, 1/80)
    >>> sum(laws[(Fraction(1),)].values()) == 1
    True
    """
    vecs = [tuple(Fraction(exact(x).p, exact(x).q) for x in q) for q in vectors]
    d = math.lcm(prog.denominator, *(x.denominator for q in vecs for x in q))
    bits = prog.answers_only()
    extra = [prog.value_noise.rate] if prog.value_noise.rate is not None else []
    ctx = program_context(bits, extra, symbolic, d)
    scaled = bits.scaled(ctx)
    out: dict[tuple[Fraction, ...], dict[tuple[Answer, ...], Any]] = {}
    for q in dict.fromkeys(vecs):
        law = _sv_bits_all(ctx, scaled, tuple(int(x * d) for x in q))
        total = sum(law.values(), ctx.outer.zero)
        if total != 1:
            raise InvalidMechanism(f"internal: the law of {prog.name} at {q} sums to {total}")
        out[q] = dict(law)
    return ctx, out


# ---------------------------------------------------------------------------
# transformer registry entry (spec files, CLI)
# ---------------------------------------------------------------------------

_Builder = Callable[[sp.Expr, int, str, "int | Fraction", "tuple[int, ...] | None"], SparseVector]

#: Largest denominator of a rational threshold: the program runs on its inputs scaled
#: by it (:class:`~.interpreter.Context`), so its exponents grow with it.
MAX_THRESHOLD_DENOMINATOR = 1000


def parse_threshold(raw: Any, values: Any) -> int | Fraction:
    """A parameter parser: the public threshold, an exact rational (an integer, or
    with Laplace noise a fraction whose denominator is at most
    :data:`MAX_THRESHOLD_DENOMINATOR`)."""
    v = exact_number(raw, values)
    if not v.is_Rational:
        raise InvalidParameter(f"must be a rational number, got {v}")
    if v.q > MAX_THRESHOLD_DENOMINATOR:
        raise InvalidParameter(
            f"the denominator of the threshold {v} is over {MAX_THRESHOLD_DENOMINATOR} "
            "(the program runs on its inputs scaled by it)"
        )
    return int(v.p) if v.q == 1 else Fraction(int(v.p), int(v.q))


def _lyu_builder(k: int) -> _Builder:
    def build(
        e: sp.Expr, c: int, fam: str, T: int | Fraction, b: tuple[int, ...] | None
    ) -> SparseVector:
        return lyu_svt(k, e, c, noise=fam, threshold=T)

    return build


#: The ``answers_only`` parameter of the threshold-program transformers
#: (:meth:`SparseVector.answers_only`).
ANSWERS_ONLY_PARAM = Param(
    "answers_only",
    boolean,
    "release the answer sequence only (released values dropped: a post-processing)",
    False,
)

_VARIANTS: dict[str, _Builder] = {
    **{f"lyu{k}": _lyu_builder(k) for k in range(1, 7)},
    "lyu1_monotone": lambda e, c, fam, T, b: svt_monotone(e, c, noise=fam, threshold=T),
    "numerical": lambda e, c, fam, T, b: numerical_svt(e, c, noise=fam, threshold=T, buckets=b),
    "gap": lambda e, c, fam, T, b: gap_svt(e, c, noise=fam, threshold=T, buckets=b),
    "gap_monotone": lambda e, c, fam, T, b: gap_svt_monotone(e, c, noise=fam, threshold=T),
    "gap_unscaled": lambda e, c, fam, T, b: bad_gap_svt(e, c, noise=fam, threshold=T),
}


@transformer(
    "sparse_vector",
    source=f"{_LYU}, Algorithms 1-6; NumericalSVT (Wang et al. 2019); GapSVT (Ding et al. 2019)",
    params=[
        Param("variant", choice(*_VARIANTS), "which program (lyu1..lyu6, numerical, gap, ...)"),
        Param("c", positive_int, "the cutoff: stop after c tops (ignored by lyu5, lyu6)", 1),
        Param(
            "threshold",
            parse_threshold,
            "the public threshold T (an integer; a fraction needs Laplace noise)",
            0,
        ),
        ANSWERS_ONLY_PARAM,
        *PROGRAM_PARAMS,
    ],
    inputs=(1, 1),
)
def _t_sparse_vector(inputs: list[FiniteMechanism], params: dict[str, Any]) -> FiniteMechanism:
    """A sparse-vector program on the query answers of each dataset (exact law).

    The input is a deterministic mechanism whose output at each dataset is its
    vector of query answers; infinite tails of point releases are lumped into one
    output each (a post-processing; the pointwise tail check is
    :func:`~.checks.check_program_dp` in Python).  ``answers_only`` keeps the answer
    sequence of the program with the same noises (:func:`answer_sequence_laws`)."""
    (base,) = inputs
    b = params["buckets"]
    prog = _VARIANTS[params["variant"]](
        params["epsilon"], params["c"], params["noise"], params["threshold"], b
    )
    if b is not None and prog.buckets != tuple(b):
        # the variants whose constructor takes no buckets (Lyu et al.'s Algorithms):
        # a released value is bucketed here, a bit release has nothing to bucket
        if prog.release == "bit":
            raise InvalidParameter(
                f"buckets: the variant {params['variant']!r} releases only ⊤ and ⊥, "
                "no value to bucket"
            )
        prog = dataclasses.replace(prog, buckets=tuple(b))
    if params["answers_only"]:
        prog = prog.answers_only()
    return program_mechanism(
        prog, base.graph, answers=answers_of(base), style=params["style"]
    ).mechanism
