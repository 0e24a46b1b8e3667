"""Noise-adding programs over finite query-answer vectors, with exact output laws.

The programs are the "threshold + per-query noise, compare, output ⊤/⊥ or a value,
stop after c ⊤" family of the sparse vector technique and its relatives:

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
* Report-Noisy-Max (Dwork & Roth 2014, §3.3; Ding et al. 2018, "Detecting violations
  of differential privacy", CCS, Algorithms 5 and 7): ν_i ~ Lap(2Δ/ε), release the
  argmax (ε-DP) or the noisy maximum itself (not ε-DP); Lap(Δ/ε) for monotone queries.

Noise is either Laplace (continuous; probabilities are integrals of piecewise
exponential densities, closed forms in ``e^{-ε}`` and ``ε``) or two-sided geometric
(the discrete Laplace distribution with the same rate: ``P(ν = k) ∝ e^{-η|k|}``;
probabilities are sums of geometric series, closed forms in ``e^{-ε}``).  Every
output probability is computed in closed form, symbolically in the privacy parameter
(a rational function of ``W = e^{-u}``, ``u`` the common unit of the noise rates;
see :mod:`verifier.algorithms.noise_pw`), then evaluated.  Comparisons use
``q_i + ν_i >= T + ρ``; argmax ties go to the lowest index.

Released values.  With Laplace noise a released value has a density, not a
probability; the finite-output checkers cannot take densities, so a released value
is either (a) *discretised by geometric noise* — its law is an exact pmf on the
integers, whose infinite support is handled exactly: the window of values between the
breakpoints is enumerated and on the two infinite tails the probability is a finite
exponential sum in the value, decided by :func:`~verifier.algorithms.noise_pw.tail_sup`
— or (b) *bucketed* by integer cut points (Laplace or geometric), a post-processing of
the release: a violation found on buckets is a violation of the program, a bound that
holds on buckets only bounds the bucketed release.

Neighbouring inputs are vectors of query answers (integers) joined by edges of a finite
graph (:func:`query_graph`): ``"all_differ"`` (every answer moves by at most Δ = 1),
``"one_differ"`` (one answer moves by at most 1) and ``"monotone"`` (all answers move by
at most 1 in the same direction), as in Ding et al. 2018; the sensitivity is validated
on every edge.

>>> import sympy as sp
>>> prog = lyu_svt(1, sp.log(2) * 8, c=1)    # ε = 8 log 2: rates ε/2, ε/4; W = e^{-ε/4} = 1/4
>>> G = query_graph([(0, 1), (1, 0)], style="all_differ")
>>> pm = program_mechanism(prog, G)
>>> pm.mechanism.p((0, 1), "⊥⊤")
31312/151725
>>> check_program_dp(pm, prog_claim(prog)).verdict.value
'holds'
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Literal

import networkx as nx
import sympy as sp

from ..arithmetic import DEFAULT_PRECISION, Precision, Verdict, combine_verdicts, decide_le, exact
from ..errors import InvalidMechanism, InvalidParameter
from ..mechanism import FiniteMechanism
from ..privacy import check_pure_dp, realized_ex_post_epsilon
from ..results import CheckResult, Finding, conjunction
from .noise_pw import (
    CONTINUOUS,
    CONTINUOUS_AT_POINTS,
    DISCRETE,
    PW,
    ExpPoly,
    Ring,
    TailSup,
    geometric_pmf,
    geometric_survival,
    laplace_density,
    laplace_survival,
    point_mass,
    step_below,
    step_from,
    tail_sup,
    to_sympy,
)

__all__ = [
    "BOT",
    "TOP",
    "Noise",
    "geometric",
    "laplace",
    "NO_NOISE",
    "SparseVector",
    "NoisyMax",
    "Program",
    "lyu_svt",
    "svt_monotone",
    "numerical_svt",
    "gap_svt",
    "gap_svt_monotone",
    "bad_gap_svt",
    "report_noisy_max",
    "prog_claim",
    "query_graph",
    "check_sensitivity",
    "half_half",
    "ramp_pair",
    "ProgramMechanism",
    "program_mechanism",
    "output_probability",
    "check_program_dp",
    "program_realized_epsilon",
    "CurvePoint",
    "realized_epsilon_curve",
    "common_unit",
    "epsilon_for_base",
    "answers_of",
]

BOT = "⊥"
TOP = "⊤"
NoiseKind = Literal["geometric", "laplace", "none"]
Vector = tuple[int, ...]


# ---------------------------------------------------------------------------
# noise distributions
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Noise:
    """A noise distribution: two-sided geometric or Laplace with rate ``η`` (scale
    ``1/η``: density/pmf proportional to ``e^{-η|x|}``), or no noise."""

    kind: NoiseKind
    rate: sp.Expr | None = None

    def __post_init__(self) -> None:
        if self.kind not in ("geometric", "laplace", "none"):
            raise InvalidParameter(f"unknown noise kind {self.kind!r}")
        if self.kind == "none":
            if self.rate is not None:
                raise InvalidParameter("'none' noise has no rate")
            return
        r = exact(self.rate)
        if r.is_positive is False or (not r.free_symbols and not r.is_positive):
            raise InvalidParameter(f"a noise rate must be > 0, got {r}")
        object.__setattr__(self, "rate", r)

    def __str__(self) -> str:
        if self.kind == "none":
            return "0"
        scale = 1 / self.rate  # type: ignore[operator]
        return f"{'Lap' if self.kind == 'laplace' else 'Geom'}({scale})"


def geometric(rate: Any) -> Noise:
    """Two-sided geometric noise ``P(ν = k) = (1-x)/(1+x) x^{|k|}``, ``x = e^{-rate}``."""
    return Noise("geometric", exact(rate))


def laplace(rate: Any) -> Noise:
    """Laplace noise with density ``(rate/2) e^{-rate|x|}`` (scale ``1/rate``)."""
    return Noise("laplace", exact(rate))


NO_NOISE = Noise("none")


def _family(kind: str, rate: Any) -> Noise:
    if kind == "geometric":
        return geometric(rate)
    if kind == "laplace":
        return laplace(rate)
    raise InvalidParameter(f"noise family must be 'geometric' or 'laplace', got {kind!r}")


# ---------------------------------------------------------------------------
# programs
# ---------------------------------------------------------------------------

Release = Literal["bit", "value", "gap", "fresh"]


@dataclass(frozen=True)
class SparseVector:
    """A sparse-vector program on a vector of query answers ``q``.

    ``ρ ~ threshold_noise``; for ``i = 1..n``: ``ν_i ~ query_noise``; if
    ``q_i + ν_i >= T + ρ`` answer ⊤ (or release: ``value`` = ``q_i + ν_i``, Lyu et al.
    Alg. 3; ``gap`` = ``q_i + ν_i - T - ρ``, Ding et al. 2019; ``fresh`` = ``q_i + ξ_i``
    with ``ξ_i ~ value_noise``, NumericalSVT), and after ``cutoff`` such answers stop;
    else answer ⊥.  With ``resample_noise`` the threshold noise is drawn afresh after
    every ⊤ (Lyu et al. Alg. 2).  ``buckets`` (integer cut points) release the bucket
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
    threshold: int = 0
    buckets: tuple[int, ...] | None = None
    claimed: sp.Expr | None = None
    monotone: bool = False
    source: str = ""

    def __post_init__(self) -> None:
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
        if (
            self.release != "bit"
            and self.buckets is None
            and kinds == {"laplace"}
            and not (self.release == "gap" and self.query_noise.kind == "none")
        ):
            raise InvalidParameter(
                "a released value with Laplace noise has a density, not a probability: "
                "use geometric noise or give integer buckets"
            )

    def noises(self) -> list[Noise]:
        out = [self.threshold_noise, self.query_noise, self.value_noise]
        if self.resample_noise is not None:
            out.append(self.resample_noise)
        return out


@dataclass(frozen=True)
class NoisyMax:
    """Report-Noisy-Max: ``ν_i ~ noise``; release ``argmax_i (q_i + ν_i)`` (ties to
    the lowest index) or the noisy maximum ``max_i (q_i + ν_i)`` itself (``value``;
    with Laplace noise only as ``buckets``)."""

    name: str
    noise: Noise
    release: Literal["argmax", "value"] = "argmax"
    buckets: tuple[int, ...] | None = None
    claimed: sp.Expr | None = None
    monotone: bool = False
    source: str = ""

    def __post_init__(self) -> None:
        if self.noise.kind == "none":
            raise InvalidParameter("Report-Noisy-Max needs noise")
        if self.release not in ("argmax", "value"):
            raise InvalidParameter(f"unknown release {self.release!r}")
        if self.release == "value" and self.noise.kind == "laplace" and self.buckets is None:
            raise InvalidParameter(
                "the noisy maximum under Laplace noise has a density: use geometric noise "
                "or give integer buckets"
            )

    def noises(self) -> list[Noise]:
        return [self.noise]


Program = SparseVector | NoisyMax


def prog_claim(program: Program) -> sp.Expr:
    """The privacy claim recorded with ``program`` (raises when there is none)."""
    if program.claimed is None:
        raise InvalidParameter(f"program {program.name!r} records no privacy claim")
    return program.claimed


# -- the catalogue -------------------------------------------------------------

_LYU = "Lyu, Su, Li 2017, 'Understanding the Sparse Vector Technique for DP'"


def lyu_svt(
    k: int, eps: Any, c: int = 1, *, noise: str = "geometric", threshold: int = 0
) -> SparseVector:
    """Lyu, Su, Li 2017, Algorithm ``k`` (1-6) at privacy parameter ``eps`` (Δ = 1).

    Rates (η = 1/scale) from their Figure 1 / Table 1, with ``ε2 = ε - ε1``:
    Alg. 1: ρ rate ε1 = ε/2, ν rate ε2/(2c); Alg. 2: ρ rate ε1/c, ν rate ε2/(2c), ρ
    redrawn with rate ε2/c after each ⊤; Alg. 3: ρ rate ε/2, ν rate ε2/c, releases
    ``q_i + ν_i``; Alg. 4: ρ rate ε1 = ε/4, ν rate ε2 = 3ε/4; Alg. 5: ρ rate ε/2, no
    ν, no cutoff; Alg. 6: ρ rate ε/2, ν rate ε2, no cutoff.  Each claims ε-DP (the
    claim recorded; Lyu et al. prove it for Algs. 1-2 only).
    """
    e = exact(eps)
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
            f"Lyu Alg 1 (c={c})", _family(fam, e1), _family(fam, e2 / (2 * c)), c,
            threshold=threshold, claimed=e, source=src,
        )  # fmt: skip
    if k == 2:
        return SparseVector(
            f"Lyu Alg 2 (c={c})", _family(fam, e1 / c), _family(fam, e2 / (2 * c)), c,
            resample_noise=_family(fam, e2 / c), threshold=threshold, claimed=e, source=src,
        )  # fmt: skip
    if k == 3:
        return SparseVector(
            f"Lyu Alg 3 (c={c})", _family(fam, e1), _family(fam, e2 / c), c, release="value",
            threshold=threshold, claimed=e, source=src,
        )  # fmt: skip
    if k == 4:
        return SparseVector(
            f"Lyu Alg 4 (c={c})", _family(fam, e1), _family(fam, e2), c,
            threshold=threshold, claimed=e, source=src,
        )  # fmt: skip
    if k == 5:
        return SparseVector(
            "Lyu Alg 5", _family(fam, e1), NO_NOISE, None,
            threshold=threshold, claimed=e, source=src,
        )  # fmt: skip
    return SparseVector(
        "Lyu Alg 6", _family(fam, e1), _family(fam, e2), None,
        threshold=threshold, claimed=e, source=src,
    )  # fmt: skip


def svt_monotone(
    eps: Any, c: int = 1, *, noise: str = "geometric", threshold: int = 0
) -> SparseVector:
    """Lyu et al. Algorithm 1 for monotone queries: ν ~ Lap(cΔ/ε2) (rate ε2/c); ε-DP
    when all answers move in the same direction (Lyu, Su, Li 2017, §3, Theorem 2's
    remark on monotone queries)."""
    e = exact(eps)
    return SparseVector(
        f"Lyu Alg 1, monotone (c={c})", _family(noise, e / 2), _family(noise, e / 2 / c), c,
        threshold=threshold, claimed=e, monotone=True,
        source=f"{_LYU}, Algorithm 1 (monotone queries)",
    )  # fmt: skip


def numerical_svt(
    eps: Any,
    c: int = 1,
    *,
    noise: str = "geometric",
    threshold: int = 0,
    buckets: Sequence[int] | None = None,
) -> SparseVector:
    """NumericalSVT (Wang et al. 2019, PLDI, Fig. 1): ρ ~ Lap(3/ε), ν ~ Lap(6c/ε),
    release ``q_i + ξ_i`` with ξ ~ Lap(3c/ε) at each ⊤; ε-DP."""
    e = exact(eps)
    return SparseVector(
        f"NumericalSVT (c={c})", _family(noise, e / 3), _family(noise, e / (6 * c)), c,
        release="fresh", value_noise=_family(noise, e / (3 * c)), threshold=threshold,
        buckets=None if buckets is None else tuple(buckets), claimed=e,
        source="Wang, Ding, Wang, Kifer, Zhang 2019 (ShadowDP), NumericalSVT",
    )  # fmt: skip


_DING = "Ding, Wang, Zhang, Kifer 2019, 'Free gap information ...' (GapSVT)"


def gap_svt(
    eps: Any,
    c: int = 1,
    *,
    noise: str = "geometric",
    threshold: int = 0,
    buckets: Sequence[int] | None = None,
) -> SparseVector:
    """GapSVT (Ding et al. 2019, Algorithm 1 with gaps): Lyu's Algorithm 1 noise
    (ρ rate ε/2, ν rate ε2/(2c)) releasing the gap ``q_i + ν_i - T - ρ`` at each ⊤;
    ε-DP."""
    e = exact(eps)
    return SparseVector(
        f"GapSVT (c={c})", _family(noise, e / 2), _family(noise, e / 2 / (2 * c)), c,
        release="gap", threshold=threshold,
        buckets=None if buckets is None else tuple(buckets), claimed=e, source=_DING,
    )  # fmt: skip


def gap_svt_monotone(
    eps: Any, c: int = 1, *, noise: str = "geometric", threshold: int = 0
) -> SparseVector:
    """GapSVT for monotone queries: ν ~ Lap(c/ε2) (rate ε2/c); ε-DP on monotone
    neighbours (Ding et al. 2019)."""
    e = exact(eps)
    return SparseVector(
        f"GapSVT, monotone (c={c})", _family(noise, e / 2), _family(noise, e / 2 / c), c,
        release="gap", threshold=threshold, claimed=e, monotone=True,
        source=f"{_DING}, monotone queries",
    )  # fmt: skip


def bad_gap_svt(
    eps: Any, c: int = 1, *, noise: str = "geometric", threshold: int = 0
) -> SparseVector:
    """Flawed GapSVT: the monotone-query noise Lap(c/ε2) used on arbitrary
    sensitivity-1 queries (claimed ε-DP there; it is not: the gap reveals ``ν_i - ρ``,
    whose shift by 2 costs ``2ε2/c`` per ⊤)."""
    e = exact(eps)
    return SparseVector(
        f"GapSVT with unscaled noise (c={c})", _family(noise, e / 2), _family(noise, e / 2 / c),
        c, release="gap", threshold=threshold, claimed=e,
        source=f"{_DING} — flawed: the monotone scale Lap(c/eps2) on general queries",
    )  # fmt: skip


def report_noisy_max(
    eps: Any,
    *,
    noise: str = "geometric",
    release: Literal["argmax", "value"] = "argmax",
    monotone: bool = False,
    buckets: Sequence[int] | None = None,
) -> NoisyMax:
    """Report-Noisy-Max with ν_i ~ Lap(2/ε) (rate ε/2), or Lap(1/ε) for monotone
    queries (Dwork & Roth 2014, Claim 3.9); ``release="value"`` is Ding et al. 2018's
    flawed Algorithm 7 (the noisy maximum itself), claimed ε-DP."""
    e = exact(eps)
    rate = e if monotone else e / 2
    tag = "monotone, " if monotone else ""
    what = "argmax" if release == "argmax" else "noisy max value"
    return NoisyMax(
        f"Report-Noisy-Max ({tag}{what})", _family(noise, rate), release,
        buckets=None if buckets is None else tuple(buckets), claimed=e, monotone=monotone,
        source="Dwork & Roth 2014 §3.3; Ding et al. 2018 (CCS) Algs. 5 (argmax) and 7 (value)",
    )  # fmt: skip


# ---------------------------------------------------------------------------
# neighbouring query vectors
# ---------------------------------------------------------------------------

Style = Literal["all_differ", "one_differ", "monotone"]


def _as_vector(v: Any) -> Vector:
    try:
        t = tuple(v)
    except TypeError:
        raise InvalidMechanism(
            f"a query vector must be a sequence of integers, got {v!r}"
        ) from None
    for x in t:
        if isinstance(x, bool) or not isinstance(x, int):
            raise InvalidMechanism(f"query answers must be integers, got {x!r} in {t}")
    return t


def _neighbours_ok(a: Vector, b: Vector, style: Style, sensitivity: int) -> str | None:
    """``None`` when ``a ~ b`` is allowed under ``style``, else the reason."""
    if len(a) != len(b):
        return f"{a} and {b} have different lengths"
    diff = [y - x for x, y in zip(a, b, strict=True)]
    if all(d == 0 for d in diff):
        return f"{a} is listed as its own neighbour"
    if max(abs(d) for d in diff) > sensitivity:
        i = max(range(len(diff)), key=lambda j: abs(diff[j]))
        return f"answer {i} moves by {abs(diff[i])} > {sensitivity} between {a} and {b}"
    if style == "one_differ" and sum(d != 0 for d in diff) != 1:
        return f"{a} and {b} differ in more than one answer (one_differ)"
    if style == "monotone" and not (all(d >= 0 for d in diff) or all(d <= 0 for d in diff)):
        return f"{a} and {b} move in both directions (monotone neighbours move in one)"
    return None


def check_sensitivity(graph: nx.Graph, style: Style = "all_differ", sensitivity: int = 1) -> None:
    """Raise :class:`InvalidMechanism` unless every edge of ``graph`` joins two query
    vectors allowed as neighbours by ``style`` (each answer moves by at most
    ``sensitivity``)."""
    if style not in ("all_differ", "one_differ", "monotone"):
        raise InvalidParameter(f"unknown neighbour style {style!r}")
    for a, b in graph.edges:
        why = _neighbours_ok(_as_vector(a), _as_vector(b), style, sensitivity)
        if why:
            raise InvalidMechanism(f"edge ({a}, {b}) violates the {style} sensitivity: {why}")


def query_graph(
    vectors: Iterable[Sequence[int]],
    style: Style = "all_differ",
    edges: Iterable[tuple[Sequence[int], Sequence[int]]] | None = None,
    sensitivity: int = 1,
) -> nx.Graph:
    """The neighbour graph of a list of query-answer vectors.

    Without ``edges`` every pair allowed by ``style`` is joined: ``"all_differ"`` —
    every answer moves by at most ``sensitivity``; ``"one_differ"`` — exactly one
    answer moves; ``"monotone"`` — all answers move by at most ``sensitivity`` in the
    same direction (Ding et al. 2018's ALL_DIFFER / ONE_DIFFER).  Given ``edges`` are
    validated against ``style`` instead.

    >>> G = query_graph([(0, 0), (1, 1), (1, -1)], style="monotone")
    >>> sorted(tuple(sorted(e)) for e in G.edges)
    [((0, 0), (1, 1))]
    """
    vs = [_as_vector(v) for v in vectors]
    if not vs:
        raise InvalidMechanism("no query vectors given")
    if len({len(v) for v in vs}) != 1:
        raise InvalidMechanism("all query vectors must have the same number of answers")
    if len(set(vs)) != len(vs):
        raise InvalidMechanism("a query vector is listed twice")
    g = nx.Graph()
    g.add_nodes_from(vs)
    if edges is None:
        for a, b in itertools.combinations(vs, 2):
            if _neighbours_ok(a, b, style, sensitivity) is None:
                g.add_edge(a, b)
    else:
        for ea, eb in edges:
            ta, tb = _as_vector(ea), _as_vector(eb)
            if ta not in g or tb not in g:
                raise InvalidMechanism(f"edge ({ta}, {tb}) names a vector not in the list")
            g.add_edge(ta, tb)
        check_sensitivity(g, style, sensitivity)
    g.graph["style"] = style
    return g


def half_half(m: int) -> tuple[Vector, Vector]:
    """``([0]*m + [1]*m, [1]*m + [0]*m)`` — the standard SVT counterexample inputs
    (Lyu et al. §3; Ding et al. 2018's "half-half" pattern); ALL_DIFFER neighbours."""
    return (0,) * m + (1,) * m, (1,) * m + (0,) * m


def ramp_pair(m: int) -> tuple[Vector, Vector]:
    """``([0]*m + [1], [1]*m + [0])``: m answers below then one above, and shifted."""
    return (0,) * m + (1,), (1,) * m + (0,)


# ---------------------------------------------------------------------------
# units and rings
# ---------------------------------------------------------------------------


def common_unit(rates: Sequence[sp.Expr]) -> tuple[sp.Expr, list[int]]:
    """The largest ``u`` with every rate an integer multiple ``m_i·u``.

    >>> eps = sp.Symbol("epsilon", positive=True)
    >>> common_unit([eps / 2, eps / 8, eps / 4])
    (epsilon/8, [4, 1, 2])
    """
    if not rates:
        raise InvalidParameter("no noise rates")
    r0 = exact(rates[0])
    qs = []
    for r in rates:
        q = sp.simplify(exact(r) / r0)
        if not q.is_Rational or q <= 0:
            raise InvalidParameter(
                f"noise rates {r0} and {r} are not rational multiples of one unit; the exact "
                f"closed forms need commensurable rates"
            )
        qs.append(sp.Rational(q))
    den = math.lcm(*(int(q.q) for q in qs))
    ms = [int(q * den) for q in qs]
    g = math.gcd(*ms)
    return sp.simplify(r0 * g / den), [m // g for m in ms]


def epsilon_for_base(build: Callable[[sp.Expr], Program], w: Any) -> sp.Expr:
    """The privacy parameter at which ``build(ε)`` has ``W = e^{-u} = w``.

    With ``u = ε/L`` the common unit of the program's rates, this is
    ``ε = L·log(1/w)``: for rational ``w`` every probability is then an exact rational
    (the fast exact path).

    >>> epsilon_for_base(lambda e: lyu_svt(1, e, c=1), sp.Rational(4, 5))
    4*log(5/4)
    """
    e = sp.Symbol("epsilon", positive=True)
    prog = build(e)
    rates: list[sp.Expr] = [n.rate for n in prog.noises() if n.rate is not None]
    u, _ = common_unit(rates)
    L = sp.simplify(e / u)
    if not L.is_Rational:
        raise InvalidParameter(f"the unit {u} is not a rational multiple of epsilon")
    return L * sp.log(1 / exact(w))


@dataclass(frozen=True)
class _Ctx:
    """Evaluation context: the unit ``u``, the rings and the multiple of each noise."""

    u: sp.Expr
    outer: Ring  # the ring of functions of the outer variable
    mult: dict[Noise, int]

    def m(self, n: Noise) -> int:
        return self.mult[n]

    # -- the distribution of one noise as functions of the outer variable -----
    def survival(self, n: Noise, a: int) -> PW:
        """``r ↦ P(ν >= r + a)``."""
        ring = self.outer
        if n.kind == "none":
            # [0 >= r + a] = [r <= -a]
            return step_below(ring, -a + (0 if ring.real else 1))
        base = (
            geometric_survival(ring, self.m(n))
            if n.kind == "geometric"
            else laplace_survival(ring, self.m(n))
        )
        return base.shifted(a)

    def survival_at(self, n: Noise, x: int | None) -> Any:
        """``P(ν >= x)`` (``x = None`` is ``+∞``)."""
        ring = self.outer
        if x is None:
            return ring.zero
        if n.kind == "none":
            return ring.one if x <= 0 else ring.zero
        base = (
            geometric_survival(ring, self.m(n))
            if n.kind == "geometric"
            else laplace_survival(ring, self.m(n))
        )
        return base.at(x)  # both survival functions are continuous where it matters

    def density(self, n: Noise) -> PW:
        """The pmf / density of ``n`` as a function of the outer variable."""
        ring = self.outer
        if n.kind == "none":
            return point_mass(ring)
        if n.kind == "geometric":
            return geometric_pmf(ring, self.m(n))
        return laplace_density(ring, self.m(n))


def _context(program: Program, extra_rates: Sequence[sp.Expr] = (), symbolic: bool = False) -> _Ctx:
    noises = [n for n in program.noises() if n.kind != "none"]
    if not noises:
        raise InvalidParameter(f"program {program.name!r} adds no noise at all")
    rates: list[sp.Expr] = [n.rate for n in noises if n.rate is not None]
    rates += [exact(r) for r in extra_rates]
    u, ms = common_unit(rates)
    mult = {n: m for n, m in zip(noises, ms, strict=False)}
    laplace_used = any(n.kind == "laplace" for n in noises)
    if isinstance(program, SparseVector):
        outer_kind = program.threshold_noise.kind
    else:
        outer_kind = program.noise.kind
    if outer_kind == "laplace":
        ring = CONTINUOUS
    elif laplace_used:
        ring = CONTINUOUS_AT_POINTS
    else:
        ring = DISCRETE
        w = sp.exp(-u)
        if not symbolic and w.is_Rational:
            # exact rational arithmetic at this value of the privacy parameter
            ring = ring.at_rational(Fraction(int(w.p), int(w.q)))
    return _Ctx(u, ring, mult)


# ---------------------------------------------------------------------------
# outputs
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class _Rel:
    """A released quantity: the bucket ``[lo, hi)`` of a value/gap (``None`` = ∞);
    ``point`` marks the single integer ``lo`` of a point release."""

    lo: int | None
    hi: int | None
    point: bool = False

    def label(self, what: str) -> str:
        if self.point:
            return f"[{what}={self.lo}]"
        if self.lo is None:
            return f"[{what}≤{self.hi - 1}]"  # type: ignore[operator]
        if self.hi is None:
            return f"[{what}≥{self.lo}]"
        return f"[{what}∈[{self.lo},{self.hi})]"


Answer = str | _Rel


def _label(answers: Sequence[Answer], what: str) -> str:
    return "".join(a if isinstance(a, str) else a.label(what) for a in answers)


def _bucket_rels(buckets: Sequence[int], gap: bool) -> list[_Rel]:
    cuts = list(buckets)
    rels = [] if gap else [_Rel(None, cuts[0])]
    if gap:
        rels.append(_Rel(0, cuts[0]))
    rels += [_Rel(a, b) for a, b in zip(cuts, cuts[1:], strict=False)]
    rels.append(_Rel(cuts[-1], None))
    return rels


# ---------------------------------------------------------------------------
# the sparse-vector family: exact probabilities
# ---------------------------------------------------------------------------


def _sv_factor(ctx: _Ctx, prog: SparseVector, q: int, ans: Answer) -> PW:
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
    assert isinstance(ans, _Rel)
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
        rels = list(_bucket_rels(prog.buckets, prog.release == "gap"))
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


def _segment_total(ctx: _Ctx, noise: Noise, integrand: PW) -> Any:
    return (ctx.density(noise) * integrand).total()


def _sv_probability(ctx: _Ctx, prog: SparseVector, q: Vector, answers: Sequence[Answer]) -> Any:
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


def _sv_bits_all(ctx: _Ctx, prog: SparseVector, q: Vector) -> dict[tuple[Answer, ...], Any]:
    """All finite answer sequences by depth-first search sharing prefix products."""
    if prog.resample_noise is not None:
        return {a: _sv_probability(ctx, prog, q, a) for a in _sv_answers(prog, len(q))}
    n = len(q)
    rels: list[Answer]
    if prog.release == "bit":
        rels = [TOP]
    else:
        rels = list(_bucket_rels(prog.buckets or (), prog.release == "gap"))
    dens = ctx.density(prog.threshold_noise)
    out: dict[tuple[Answer, ...], Any] = {}

    def rec(prefix: tuple[Answer, ...], f: PW, tops: int) -> None:
        if len(prefix) == n or (prog.cutoff is not None and tops == prog.cutoff):
            out[prefix] = f.total()
            return
        i = len(prefix)
        rec(prefix + (BOT,), f * _sv_factor(ctx, prog, q[i], BOT), tops)
        for r in rels:
            rec(prefix + (r,), f * _sv_factor(ctx, prog, q[i], r), tops + 1)

    rec((), dens, 0)
    return out


def _sv_point_functions(ctx: _Ctx, prog: SparseVector, q: Vector) -> dict[int, PW]:
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


# ---------------------------------------------------------------------------
# Report-Noisy-Max: exact probabilities
# ---------------------------------------------------------------------------


def _rnm_argmax(ctx: _Ctx, prog: NoisyMax, q: Vector) -> dict[int, Any]:
    """``P(argmax = i) = Σ_t P(q_i+ν_i = t) Π_{j<i} P(q_j+ν_j < t) Π_{j>i} P(q_j+ν_j <= t)``
    (ties to the lowest index; an integral with continuous noise)."""
    nu = prog.noise
    out = {}
    discrete = not ctx.outer.real
    for i, qi in enumerate(q):
        f = ctx.density(nu).shifted(-qi)
        for j, qj in enumerate(q):
            if j == i:
                continue
            # P(ν_j < t - q_j) = 1 - S(t - q_j);  P(ν_j <= t - q_j) = 1 - S(t - q_j + 1)
            shift = -qj + (1 if (j > i and discrete) else 0)
            f = f * (1 - ctx.survival(nu, shift))
        out[i] = f.total()
    return out


def _rnm_cdf(ctx: _Ctx, prog: NoisyMax, q: Vector) -> PW:
    """``H(v) = P(max_i (q_i + ν_i) < v) = Π_i (1 - S(v - q_i))`` as a function of v."""
    f = PW.const(ctx.outer, 1)
    for qi in q:
        f = f * (1 - ctx.survival(prog.noise, -qi))
    return f


# ---------------------------------------------------------------------------
# the mechanism of a program on a neighbour graph
# ---------------------------------------------------------------------------


@dataclass
class _TailInfo:
    """An infinite tail of a point release: per dataset the exponential polynomial of
    the release probability there, its first point and direction."""

    label: str
    start: int
    direction: int
    pieces: dict[Hashable, ExpPoly]


def _key(d: Any) -> Hashable:
    return tuple(d) if isinstance(d, list) else d


@dataclass
class ProgramMechanism:
    """A program evaluated exactly on every query vector of a neighbour graph.

    ``mechanism`` is a :class:`FiniteMechanism` over the finite outputs (answer
    sequences; point releases inside the window of breakpoints; each infinite tail of
    a point release lumped into one output, which is a post-processing).  ``tails``
    keep the exact law on those tails for the pointwise checks of
    :func:`check_program_dp`.  ``probabilities`` holds the closed forms (rational
    functions of ``W = e^{-u}``; ``U = u`` for Laplace) before evaluation.
    """

    program: Program
    mechanism: FiniteMechanism
    unit: sp.Expr
    probabilities: dict[Hashable, dict[str, Any]]
    tails: list[_TailInfo] = field(default_factory=list)
    window: tuple[int, int] | None = None
    point_laws: dict[Hashable, dict[Any, PW]] = field(default_factory=dict)

    def point_probability(self, q: Sequence[int], key: int, v: int) -> sp.Expr:
        """``P(release = v)`` for a point release at any integer ``v`` (inside or
        outside the window): ``key`` is the number of ⊥ before the release (sparse
        vector) or ``0`` (the noisy maximum)."""
        laws = self.point_laws.get(_key(q))
        if not laws or key not in laws:
            raise InvalidParameter("this program has no point release with that key")
        return to_sympy(laws[key].at(v), self.unit)

    def classify(self, raw: str) -> str:
        """The output of :attr:`mechanism` that a raw program output falls in: itself,
        or the lumped tail containing a point release such as ``"⊥⊥[v=17]"``."""
        if raw in self.mechanism._index:
            return raw
        i = raw.find("[")
        if i < 0 or not raw.endswith("]") or "=" not in raw[i:]:
            raise InvalidParameter(f"{raw!r} is not an output of {self.program.name}")
        prefix, inner = raw[:i], raw[i + 1 : -1]
        what, _, val = inner.partition("=")
        v = int(val)
        for t in self.tails:
            if not t.label.startswith(prefix + "[" + what):
                continue
            if t.label[len(prefix) :].count("[") != 1:
                continue
            if (t.direction > 0 and v >= t.start) or (t.direction < 0 and v <= t.start):
                return t.label
        raise InvalidParameter(f"{raw!r} is not an output of {self.program.name}")

    def closed_form(self, q: Sequence[int], label: str) -> sp.Expr:
        """The exact probability of output ``label`` at ``q`` (an expression in the
        unit ``u``; symbolic when the program's ε is a symbol)."""
        row = self.probabilities[_key(q)]
        if label not in row:
            raise InvalidParameter(f"unknown output {label!r}")
        return to_sympy(row[label], self.unit)


def _point_release_outputs(
    ctx: _Ctx,
    prog: SparseVector | NoisyMax,
    vectors: list[Vector],
    funcs: dict[Vector, dict[Any, PW]],
    what: str,
    prefix_of: Callable[[Any], str],
    nonneg: bool,
) -> tuple[dict[Vector, dict[str, Any]], list[str], list[_TailInfo], tuple[int, int]]:
    """Window + tails for point releases: ``funcs[q][key]`` is ``v ↦ P``."""
    rows: dict[Vector, dict[str, Any]] = {q: {} for q in vectors}
    order: list[str] = []
    tails: list[_TailInfo] = []
    keys = list(next(iter(funcs.values())).keys())
    all_lo, all_hi = [], []
    for key in keys:
        fs = {q: funcs[q][key] for q in vectors}
        breaks = sorted({b for f in fs.values() for b in f.breaks})
        if not breaks:
            raise InvalidParameter("internal: a release law without breakpoints")
        lo, hi = breaks[0], breaks[-1] - 1
        if nonneg:
            lo = max(lo, 0)
        all_lo.append(lo)
        all_hi.append(hi)
        pre = prefix_of(key)
        refined = {q: f.refine([lo, hi + 1]) for q, f in fs.items()}
        left: dict[Hashable, ExpPoly] = {q: f.pieces[0] for q, f in refined.items()}
        if not all(p.is_zero for p in left.values()):
            lab = pre + _Rel(None, lo).label(what)
            order.append(lab)
            for q, f in fs.items():
                rows[q][lab] = f.total_between(None, lo)
            tails.append(_TailInfo(lab, lo - 1, -1, left))
        for v in range(lo, hi + 1):
            lab = pre + _Rel(v, v + 1, point=True).label(what)
            order.append(lab)
            for q, f in fs.items():
                rows[q][lab] = f.at(v)
        lab = pre + _Rel(hi + 1, None).label(what)
        order.append(lab)
        right: dict[Hashable, ExpPoly] = {q: f.pieces[-1] for q, f in refined.items()}
        for q, f in fs.items():
            rows[q][lab] = f.total_between(hi + 1, None)
        tails.append(_TailInfo(lab, hi + 1, 1, right))
    return rows, order, tails, (min(all_lo), max(all_hi))


def program_mechanism(
    program: Program,
    graph: nx.Graph,
    *,
    answers: Mapping[Hashable, Sequence[int]] | None = None,
    style: Style | None = None,
    extra_rates: Sequence[sp.Expr] = (),
    symbolic: bool = False,
    name: str | None = None,
) -> ProgramMechanism:
    """The exact output law of ``program`` on every dataset of ``graph``.

    The nodes of ``graph`` are query-answer vectors (:func:`query_graph`), or any
    datasets with their vectors given by ``answers``.  Every edge is validated against
    the neighbour style (``graph.graph["style"]``, or ``style``; default
    ``"all_differ"``): neighbouring datasets with different answers must differ as the
    style allows.  Probabilities are computed in closed form in ``Q(W)`` / ``Q(W, U)``
    (once per distinct vector); each law is proved to sum to 1 *as a rational
    function* (for every value of ε) before evaluation.  ``extra_rates`` joins more
    rates to the common unit (e.g. a claimed ε̃ that is not a multiple of the noise
    rates).  When ``e^{-u}`` is rational the laws are evaluated with exact rational
    arithmetic at that point; ``symbolic=True`` keeps rational functions of ``W``
    instead (slower; :attr:`ProgramMechanism.probabilities` then holds closed forms
    valid for every ε).

    Parameters
    ----------
    program : SparseVector or NoisyMax
        The program (e.g. :func:`lyu_svt`, :func:`gap_svt`, :func:`report_noisy_max`).
    graph : networkx.Graph
        Neighbouring datasets; its nodes are query vectors unless ``answers`` is given.
    answers : mapping, optional
        ``{dataset: vector of integer query answers}``.
    style : {"all_differ", "one_differ", "monotone"}, optional
        The sensitivity every edge must respect (Δ = 1).
    extra_rates, symbolic, name
        See above.

    Returns
    -------
    ProgramMechanism
        The exact finite mechanism (with lumped infinite tails of point releases) and
        the exact laws on those tails.

    Raises
    ------
    InvalidMechanism
        An edge violating the sensitivity, vectors of different lengths.
    InvalidParameter
        Incommensurable noise rates, a point release with ``c > 1``, ...
    """
    st = style or graph.graph.get("style", "all_differ")
    if answers is None:
        check_sensitivity(graph, st)
        ans: dict[Hashable, Vector] = {d: _as_vector(d) for d in graph.nodes}
    else:
        ans = {}
        for d in graph.nodes:
            if d not in answers:
                raise InvalidMechanism(f"dataset {d!r} has no query answers")
            ans[d] = _as_vector(answers[d])
        for a, b in graph.edges:
            if ans[a] != ans[b]:
                why = _neighbours_ok(ans[a], ans[b], st, 1)
                if why:
                    raise InvalidMechanism(
                        f"edge ({a!r}, {b!r}) violates the {st} sensitivity: {why}"
                    )
    vectors = list(dict.fromkeys(ans.values()))
    if not vectors:
        raise InvalidMechanism("the neighbour graph has no datasets")
    n = len(vectors[0])
    if any(len(v) != n for v in vectors):
        raise InvalidMechanism("all query vectors must have the same length")
    ctx = _context(program, extra_rates, symbolic)
    ring = ctx.outer
    rows: dict[Vector, dict[str, Any]] = {}
    order: list[str] = []
    tails: list[_TailInfo] = []
    window = None
    point_laws: dict[Vector, dict[Any, PW]] = {}
    if isinstance(program, SparseVector):
        point = program.release != "bit" and program.buckets is None
        if not point:
            what = {"value": "v", "gap": "g", "fresh": "v"}.get(program.release, "")
            for q in vectors:
                probs = _sv_bits_all(ctx, program, q)
                rows[q] = {_label(a, what): p for a, p in probs.items()}
            order = list(next(iter(rows.values())).keys())
        else:
            if program.cutoff != 1:
                raise InvalidParameter(
                    "point releases are supported for cutoff c = 1 (one released value); "
                    "give buckets for c > 1"
                )
            what = "g" if program.release == "gap" else "v"
            funcs = {q: _sv_point_functions(ctx, program, q) for q in vectors}
            keys_funcs = {q: {j: f for j, f in fs.items() if j >= 0} for q, fs in funcs.items()}
            point_laws = keys_funcs
            rows, order, tails, window = _point_release_outputs(
                ctx,
                program,
                vectors,
                keys_funcs,
                what,
                lambda j: BOT * j,
                program.release == "gap",
            )
            lab = BOT * n
            order.append(lab)
            for q in vectors:
                rows[q][lab] = funcs[q][-1].total()
    else:
        if program.release == "argmax":
            for q in vectors:
                rows[q] = {f"argmax={i}": p for i, p in _rnm_argmax(ctx, program, q).items()}
            order = [f"argmax={i}" for i in range(n)]
        elif program.buckets is not None:
            rels = _bucket_rels(program.buckets, gap=False)
            for q in vectors:
                H = _rnm_cdf(ctx, program, q)
                row = {}
                for r in rels:
                    hi = ring.one if r.hi is None else H.at(r.hi)
                    lo = ring.zero if r.lo is None else H.at(r.lo)
                    row[r.label("max")] = hi - lo
                rows[q] = row
            order = [r.label("max") for r in rels]
        else:
            # P(max = v) = H(v + 1) - H(v),  H(v) = P(max < v)
            funcs = {}
            for q in vectors:
                H = _rnm_cdf(ctx, program, q)
                funcs[q] = {0: H.shifted(1) - H}
            point_laws = funcs
            rows, order, tails, window = _point_release_outputs(
                ctx, program, vectors, funcs, "max", lambda _k: "", False
            )
    # exact validation: every law sums to 1 as a rational function of W (and U)
    for q, row in rows.items():
        total = sum(row.values(), ring.zero)
        if total != 1:
            raise InvalidMechanism(
                f"internal: the law of {program.name} at {q} sums to {total}, not 1"
            )
    evaluated = {q: {lab: to_sympy(p, ctx.u) for lab, p in row.items()} for q, row in rows.items()}
    dists = {d: evaluated[ans[d]] for d in graph.nodes}
    mech = FiniteMechanism(
        graph,
        dists,
        order,
        name=name or program.name,
        validate=False,
    )
    by_dataset_tails = [
        _TailInfo(t.label, t.start, t.direction, {d: t.pieces[ans[d]] for d in graph.nodes})
        for t in tails
    ]
    return ProgramMechanism(
        program,
        mech,
        ctx.u,
        {d: rows[ans[d]] for d in graph.nodes},
        by_dataset_tails,
        window,
        {d: point_laws[ans[d]] for d in graph.nodes} if point_laws else {},
    )


def output_probability(program: Program, q: Sequence[int], label: str) -> sp.Expr:
    """The exact probability of one output of ``program`` on the answers ``q``
    (closed form; symbolic in ε when the program's rates are)."""
    v = _as_vector(q)
    g = nx.Graph()
    g.add_node(v)
    g.graph["style"] = "all_differ"
    return program_mechanism(program, g).closed_form(v, label)


# ---------------------------------------------------------------------------
# checks and realized privacy loss
# ---------------------------------------------------------------------------


def _tail_findings(
    pm: ProgramMechanism,
    eps: sp.Expr | None,
    pairs: Sequence[tuple[Hashable, Hashable]],
    precision: Precision,
) -> list[tuple[Finding, TailSup]]:
    out = []
    for t in pm.tails:
        for d, d2 in pairs:
            P, Q = t.pieces[d], t.pieces[d2]
            if P.is_zero:
                continue
            ts = tail_sup(P, Q, t.start, t.direction, pm.unit, precision)
            realized = sp.oo if ts.value is sp.oo else sp.log(ts.value)
            if eps is None:
                verdict, tight, rhs = Verdict.HOLDS, False, sp.oo
            else:
                rhs = sp.exp(eps)
                if ts.value is sp.oo:
                    verdict, tight = Verdict.VIOLATED, False
                else:
                    c = decide_le(ts.value, rhs, precision)
                    verdict, tight = c.verdict, c.tight
            where = f"sup over the tail from {t.start} ({'up' if t.direction > 0 else 'down'})"
            if ts.at is None:
                where += "; the limit, not attained"
            else:
                where += f"; attained at {ts.at}"
            out.append(
                (
                    Finding(
                        verdict,
                        t.label + " (pointwise)",
                        (d, d2),
                        realized,
                        eps if eps is not None else sp.oo,
                        ts.value,
                        rhs,
                        tight=tight,
                        note=where,
                    ),
                    ts,
                )
            )
    return out


def check_program_dp(
    pm: ProgramMechanism,
    eps: Any,
    *,
    pairs: Iterable[tuple[Hashable, Hashable]] | None = None,
    over: Any = None,
    precision: Precision = DEFAULT_PRECISION,
    title: str | None = None,
) -> CheckResult:
    """ε-DP of a program on its whole (possibly infinite) output set.

    The finite outputs are checked by :func:`verifier.privacy.check_pure_dp`; every
    infinite tail of a point release is checked pointwise by the exact tail supremum
    (:func:`~verifier.algorithms.noise_pw.tail_sup`).

    Parameters
    ----------
    pm : ProgramMechanism
        From :func:`program_mechanism`.
    eps : exact number
        The claimed ε (a symbol only together with ``over``, finite outputs only).
    pairs : iterable of (dataset, dataset), optional
        Ordered pairs to check (default: both directions of every edge).
    over : (symbol, lo, hi), optional
        Decide the claim for every value of the symbol in ``[lo, hi]``.

    Returns
    -------
    CheckResult
        A conjunction: the finite outputs, then the tails (per tail and pair: the
        exact supremum of the probability ratio, where it is attained or that it is a
        limit).
    """
    e = exact(eps)
    prs = list(pairs) if pairs is not None else list(pm.mechanism.ordered_pairs())
    parts = [check_pure_dp(pm.mechanism, e, pairs=prs, over=over, precision=precision)]
    if pm.tails:
        if over is not None:
            raise InvalidParameter("tails of point releases are decided at a numeric epsilon")
        fs = [f for f, _ in _tail_findings(pm, e, prs, precision)]
        parts.append(
            CheckResult(
                "infinite tails, pointwise",
                combine_verdicts(f.verdict for f in fs),
                fs,
                quantity="realized eps(o)",
            )
        )
    return conjunction(title or f"{pm.program.name} is ({e})-DP", parts)


@dataclass(frozen=True)
class RealizedMax:
    """The realized privacy loss ``max_o max_{(D,D')} log(P_D(o)/P_D'(o))`` with the
    output and pair attaining it (``oo`` when some output is impossible at ``D'``)."""

    value: sp.Expr
    output: str
    pair: tuple[Hashable, Hashable]
    attained: bool = True


def program_realized_epsilon(
    pm: ProgramMechanism,
    pairs: Iterable[tuple[Hashable, Hashable]] | None = None,
    precision: Precision = DEFAULT_PRECISION,
) -> RealizedMax:
    """The exact realized ε of the program over its whole output set.

    Finite outputs by :func:`verifier.privacy.realized_ex_post_epsilon`, infinite
    tails by their exact supremum.

    Returns
    -------
    RealizedMax
        ``max_o max_{(D,D')} log(P_D(o)/P_D'(o))`` (``oo`` if some output is possible
        only on one side), the output (a tail label ending in ``(pointwise)`` when the
        maximum lies on a tail) and the ordered pair attaining it.
    """
    prs = list(pairs) if pairs is not None else list(pm.mechanism.ordered_pairs())
    tail_labels = {t.label for t in pm.tails}
    table = realized_ex_post_epsilon(pm.mechanism, prs, precision)
    cands: list[RealizedMax] = [
        RealizedMax(r.value, str(r.output), r.pair)
        for r in table.rows
        if str(r.output) not in tail_labels
    ]
    for f, ts in _tail_findings(pm, None, prs, precision):
        cands.append(RealizedMax(f.realized, str(f.output), f.pair, ts.at is not None))  # type: ignore[arg-type]
    if not cands:
        raise InvalidParameter("no possible output")
    inf = [c for c in cands if c.value is sp.oo]
    if inf:
        return inf[0]
    best = cands[0]
    for c in cands[1:]:
        if decide_le(c.value, best.value, precision).verdict is Verdict.VIOLATED:
            best = c
    return best


@dataclass(frozen=True)
class CurvePoint:
    """Realized ε of a program on the counterexample pair of size ``m``."""

    m: int
    value: sp.Expr
    output: str
    pair: tuple[Hashable, Hashable]

    @property
    def approx(self) -> float:
        if self.value is sp.oo:
            return float("inf")
        return float(sp.N(self.value, 20))


def realized_epsilon_curve(
    build: Callable[[int], Program],
    pair: Callable[[int], tuple[Vector, Vector]],
    ms: Iterable[int],
    *,
    both_directions: bool = True,
) -> list[CurvePoint]:
    """Exact realized ε against the size ``m`` of the standard counterexample inputs.

    For each ``m``: build the program (it may depend on ``m``), evaluate it exactly on
    the two vectors ``pair(m)`` (one ALL_DIFFER edge, its sensitivity validated) and
    take the largest realized loss over all outputs (both directions).

    Parameters
    ----------
    build : callable ``m -> program``
    pair : callable ``m -> (q, q')``
        E.g. :func:`half_half` (``0^m 1^m`` vs ``1^m 0^m``) or :func:`ramp_pair`.
    ms : iterable of int

    Returns
    -------
    list of CurvePoint
        ``(m, exact realized ε, output, pair)``.

    Examples
    --------
    >>> eps = epsilon_for_base(lambda e: lyu_svt(3, e, 1), sp.Rational(4, 5))
    >>> [sp.simplify(p.value / eps) for p in
    ...  realized_epsilon_curve(lambda m: lyu_svt(3, eps, 1), ramp_pair, [1, 2, 3])]
    [1, 3/2, 2]
    """
    out = []
    for m in ms:
        a, b = pair(m)
        prog = build(m)
        g = query_graph([a, b], style="all_differ")
        pm = program_mechanism(prog, g)
        prs = [(a, b), (b, a)] if both_directions else [(a, b)]
        r = program_realized_epsilon(pm, prs)
        out.append(CurvePoint(m, r.value, r.output, r.pair))
    return out


# ---------------------------------------------------------------------------
# transformer registry entries (spec files, CLI)
# ---------------------------------------------------------------------------

from .registry import Param, boolean, choice, exact_number, positive_int, transformer  # noqa: E402

_Builder = Callable[[sp.Expr, int, str, int, "tuple[int, ...] | None"], SparseVector]


def _lyu_builder(k: int) -> _Builder:
    def build(e: sp.Expr, c: int, fam: str, T: int, b: tuple[int, ...] | None) -> SparseVector:
        return lyu_svt(k, e, c, noise=fam, threshold=T)

    return build


_VARIANTS: dict[str, _Builder] = {
    **{f"lyu{k}": _lyu_builder(k) for k in range(1, 7)},
    "lyu1_monotone": lambda e, c, fam, T, b: svt_monotone(e, c, noise=fam, threshold=T),
    "numerical": lambda e, c, fam, T, b: numerical_svt(e, c, noise=fam, threshold=T, buckets=b),
    "gap": lambda e, c, fam, T, b: gap_svt(e, c, noise=fam, threshold=T, buckets=b),
    "gap_monotone": lambda e, c, fam, T, b: gap_svt_monotone(e, c, noise=fam, threshold=T),
    "gap_unscaled": lambda e, c, fam, T, b: bad_gap_svt(e, c, noise=fam, threshold=T),
}


def _integer(raw: Any, values: Mapping[str, sp.Expr]) -> int:
    v = exact_number(raw, values)
    if not v.is_Integer:
        raise InvalidParameter(f"must be an integer, got {v}")
    return int(v)


def _positive_number(raw: Any, values: Mapping[str, sp.Expr]) -> sp.Expr:
    v = exact_number(raw, values)
    if not v.is_positive:
        raise InvalidParameter(f"must be > 0, got {v}")
    return v


def _buckets(raw: Any, values: Mapping[str, sp.Expr]) -> tuple[int, ...] | None:
    if raw is None:
        return None
    if not isinstance(raw, (list, tuple)) or not raw:
        raise InvalidParameter(f"must be a non-empty list of increasing integers, got {raw!r}")
    out = tuple(_integer(x, values) for x in raw)
    if list(out) != sorted(set(out)):
        raise InvalidParameter(f"cut points must increase strictly, got {list(out)}")
    return out


def answers_of(mech: FiniteMechanism) -> dict[Hashable, Vector]:
    """The query-answer vector of every dataset of a *deterministic* mechanism whose
    outputs are integer tuples (or integers, one query) — the input format of the
    ``sparse_vector`` and ``report_noisy_max`` transformers."""
    out: dict[Hashable, Vector] = {}
    for d in mech.datasets:
        supp = mech.support(d)
        if len(supp) != 1 or mech.p(d, supp[0]) != 1:
            raise InvalidMechanism(
                f"the input of a noise program must be deterministic: dataset {d!r} has "
                f"{len(supp)} possible outputs"
            )
        o = supp[0]
        out[d] = _as_vector((o,) if isinstance(o, int) else o)
    return out


_COMMON = [
    Param("epsilon", _positive_number, "the privacy parameter epsilon > 0"),
    Param("noise", choice("geometric", "laplace"), "the noise family", "geometric"),
    Param(
        "style",
        choice("all_differ", "one_differ", "monotone"),
        "neighbouring query answers: every answer moves by <= 1 / one answer / "
        "all in one direction",
        "all_differ",
    ),
    Param("buckets", _buckets, "integer cut points: release buckets of values", None),
]


@transformer(
    "sparse_vector",
    source=f"{_LYU}, Algorithms 1-6; NumericalSVT (Wang et al. 2019); GapSVT (Ding et al. 2019)",
    params=[
        Param("variant", choice(*_VARIANTS), "which program (lyu1..lyu6, numerical, gap, ...)"),
        Param("c", positive_int, "the cutoff: stop after c tops (ignored by lyu5, lyu6)", 1),
        Param("threshold", _integer, "the public threshold T", 0),
        *_COMMON,
    ],
    inputs=(1, 1),
)
def _t_sparse_vector(inputs: list[FiniteMechanism], params: dict[str, Any]) -> FiniteMechanism:
    """A sparse-vector program on the query answers of each dataset (exact law).

    The input is a deterministic mechanism whose output at each dataset is its
    vector of query answers; infinite tails of point releases are lumped into one
    output each (a post-processing; the pointwise tail check is
    :func:`check_program_dp` in Python)."""
    (base,) = inputs
    prog = _VARIANTS[params["variant"]](
        params["epsilon"], params["c"], params["noise"], params["threshold"], params["buckets"]
    )
    return program_mechanism(
        prog, base.graph, answers=answers_of(base), style=params["style"]
    ).mechanism


@transformer(
    "report_noisy_max",
    source="Dwork & Roth 2014 §3.3; Ding et al. 2018 (CCS), Algs. 5 and 7",
    params=[
        Param(
            "release", choice("argmax", "value"), "release the argmax or the noisy max", "argmax"
        ),
        Param("monotone", boolean, "Lap(1/eps) for monotone queries instead of Lap(2/eps)", False),
        *_COMMON,
    ],
    inputs=(1, 1),
)
def _t_report_noisy_max(inputs: list[FiniteMechanism], params: dict[str, Any]) -> FiniteMechanism:
    """Report-Noisy-Max on the query answers of each dataset (exact law)."""
    (base,) = inputs
    prog = report_noisy_max(
        params["epsilon"],
        noise=params["noise"],
        release=params["release"],
        monotone=params["monotone"],
        buckets=params["buckets"],
    )
    return program_mechanism(
        prog, base.graph, answers=answers_of(base), style=params["style"]
    ).mechanism
