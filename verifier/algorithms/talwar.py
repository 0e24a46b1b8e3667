"""Talwar 2025, "Privacy-Computation Trade-Offs in Private Repetition and
Metaselection" — the oracle algorithms of §4 with exact output distributions,
exact expected numbers of oracle calls and exact failure probabilities.

An oracle algorithm gets a dataset ``d`` and oracle access to a mechanism ``M``
whose outputs ``(o, v)`` carry a score ``v`` (:func:`~verifier.algorithms.liu_talwar.value_of`),
and releases one of the tuples it received.  Every algorithm here is a function of
the ranks of the samples only, so it is described by its *CDF transform* ``Φ``:
if ``M(d)`` puts mass ``F`` on the candidates ranked ``≤ x`` then the algorithm's
output is ranked ``≤ x`` with probability ``Φ(F)``.  With ``G = 1 - F`` passed as
its own expression (no complements):

* ``A_max^T`` (Theorem 11): run ``M`` ``T`` times, release the best:
  ``Φ(F) = F^T``, ``1 - Φ = G Σ_{i<T} F^i``; ``T`` calls; ``(Tε)``-DP.
* ``A_LT,γ`` (Theorem 12 = Liu & Talwar 2019, Theorem 3.2): the best of a
  geometric number (mean ``1/γ``) of runs: ``Φ(F) = γF/(G + γF)``,
  ``1 - Φ = G/(G + γF)``; ``1/γ`` calls in expectation; ``3ε``-DP.
* the hybrids (Theorems 13 and 14): ``A_max^c`` over an ``A_LT,γ'`` oracle with
  ``γ' = γ^{1/c}`` (repetition) or ``γ' = γ^{1/c}/K`` (metaselection):
  ``Φ = Φ_LT,γ'^c``; ``c/γ' = c γ^{-1/c}`` (``cK γ^{-1/c}``) calls; ``3cε``-DP.

``A_max^T``, ``A_LT,γ`` and the hybrids are presets of selection programs
(:mod:`verifier.programs.selection`): a fixed count, halting alone, and a fixed count
over a halting program — equal in law (``tests/test_programs_selection.py``).

The failure probability against a target ``z`` (``Median(M(d))`` for repetition,
the ``(1 - 1/K)`` quantile ``q_{1-1/K}`` for metaselection) is
``Φ(Pr[v < z])``; since ``Φ`` increases and ``Pr[v < z] ≤ 1 - β`` (``β = 1/2`` or
``1/K``), the worst case over all ``M`` is exactly ``Φ(1 - β)``, the
:attr:`OracleAlgorithm.failure_bound`.

>>> import sympy as sp
>>> A = hybrid(sp.Rational(1, 10**4), 2)          # Theorem 13 with c = 2
>>> A.overhead, A.expected_calls, A.failure_bound  # 3c, c*gamma^(-1/c), Phi(1/2)
(6, 200, 1/10201)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import sympy as sp

from ..arithmetic.exact import exact, to_mpq
from ..checks.certified import certified_ceil
from ..errors import InvalidParameter
from ..mechanism.model import Dataset, FiniteMechanism, Output
from .liu_talwar import (
    Score,
    Tails,
    _by_rank,
    _check_gamma,
    _check_T,
    random_stopping,
    scored_transformer,
    upper_quantile,
    value_of,
)
from .registry import Param, positive_int, probability

__all__ = [
    "OracleAlgorithm",
    "max_of_runs",
    "a_max",
    "a_lt",
    "hybrid",
    "repetition_algorithms",
    "metaselection_algorithms",
    "failure_probability",
    "target_quantile",
]

R = sp.Rational
HALF = R(1, 2)


def _power(base: sp.Expr, k: int) -> sp.Expr:
    """``base**k`` for an integer ``k >= 0``, unevaluated unless trivial."""
    if k == 0:
        return sp.Integer(1)
    if k == 1 or base.is_Rational:
        return base**k
    return sp.Pow(base, k, evaluate=False)


def max_of_runs(
    M: FiniteMechanism, T: int, score: Score | None = None, name: str | None = None
) -> FiniteMechanism:
    """``A_max^T`` (Talwar 2025, Theorem 11), exactly: the best of ``T`` independent
    runs of ``M``.  The best is ``o`` with probability ``F^T - F⁻^T`` where
    ``F = M(ranked ≤ o)`` and ``F⁻ = M(ranked < o)``; written
    ``p Σ_{i<T} F^i F⁻^{T-1-i}`` (``p = M(o)``) to avoid a cancelling difference
    when the probabilities are not rational.
    """
    _check_T(T)

    def law(tl: Tails, o: Output) -> sp.Expr:
        p, lo = tl.p[o], tl.below[o]
        # F = 1 at the top output (the distribution sums to 1): the sum below is
        # then of single powers of F⁻, not of products of powers of two sums
        hi = sp.Integer(1) if tl.above[o] == 0 else lo + p
        if p.is_Rational and lo.is_Rational:
            # in GMP rationals: the same value, without a sympy Rational per operation
            return exact(to_mpq(hi) ** T - to_mpq(lo) ** T)
        # powers of sums of radicals left unevaluated: sympy's evaluation asks
        # whether the base is an integer, which computes a minimal polynomial
        # (minutes for a sum of a few 60th roots); the enclosures decide them
        return p * sp.Add(*[_power(hi, i) * _power(lo, T - 1 - i) for i in range(T)])

    return _by_rank(M, score, law, name or f"Max^{T}[{M.name}]")


@dataclass(frozen=True)
class OracleAlgorithm:
    """One of Talwar's oracle algorithms, as data.

    Attributes
    ----------
    name : str
        ``"A_max^T"``, ``"A_LT"`` or ``"hybrid"``.
    overhead : sympy.Expr
        The guaranteed privacy overhead ``c``: ``cε``-DP whenever the oracle is ε-DP.
    expected_calls : sympy.Expr
        Exact expected number of oracle calls (the same on every input).
    quantile : sympy.Expr
        ``β`` of the target ``sup{z : Pr[v ≥ z] ≥ β}``: 1/2 (median) or ``1/K``.
    failure_bound : sympy.Expr
        The exact worst-case failure probability ``Φ(1 - β)``.
    source : str
        Theorem the guarantees come from.
    params : dict
        The algorithm's parameters (``T``, ``gamma``, ``c``, ``K``, inner ``gamma``).
    """

    name: str
    overhead: sp.Expr
    expected_calls: sp.Expr
    quantile: sp.Expr
    failure_bound: sp.Expr
    source: str
    params: dict[str, Any] = field(default_factory=dict)
    _cdf: Callable[[sp.Expr, sp.Expr], tuple[sp.Expr, sp.Expr]] | None = field(
        default=None, repr=False, compare=False
    )

    def cdf(self, F: Any, G: Any | None = None) -> tuple[sp.Expr, sp.Expr]:
        """``(Φ(F), 1 - Φ(F))`` given ``F`` and ``G = 1 - F`` (``G`` computed as
        ``1 - F`` only when not given)."""
        f = exact(F)
        g = exact(G) if G is not None else 1 - f
        assert self._cdf is not None
        return self._cdf(f, g)

    def apply(
        self, M: FiniteMechanism, score: Score | None = None, name: str | None = None
    ) -> FiniteMechanism:
        """The exact output mechanism of this algorithm with oracle ``M``."""
        kind = self.params["kind"]
        if kind == "max":
            return max_of_runs(M, self.params["T"], score, name=name)
        if kind == "lt":
            return random_stopping(M, self.params["gamma"], score, name=name)
        inner = random_stopping(M, self.params["inner_gamma"], score)
        return max_of_runs(inner, self.params["c"], score, name=name or f"{self.label}[{M.name}]")

    @property
    def label(self) -> str:
        kind = self.params["kind"]
        if kind == "max":
            return f"A_max^{self.params['T']}"
        if kind == "lt":
            return f"A_LT,{self.params['gamma']}"
        return f"A_max^{self.params['c']}(A_LT,{self.params['inner_gamma']})"

    def __str__(self) -> str:
        return self.label


def _check_quantile(beta: Any) -> sp.Expr:
    b = exact(beta)
    if not (b.is_Rational and 0 < b <= 1):
        raise InvalidParameter(f"the target quantile beta must be a rational in (0, 1], got {b}")
    return b


def _lt_cdf(g: sp.Expr) -> Callable[[sp.Expr, sp.Expr], tuple[sp.Expr, sp.Expr]]:
    def cdf(F: sp.Expr, G: sp.Expr) -> tuple[sp.Expr, sp.Expr]:
        den = G + g * F  # = 1 - (1-γ)F
        return g * F / den, G / den

    return cdf


def a_max(T: int, quantile: Any = HALF) -> OracleAlgorithm:
    """``A_max^T`` (Talwar 2025, Theorem 11): ``Tε``-DP, exactly ``T`` calls,
    worst-case failure ``(1 - β)^T`` (``2^{-T} ≤ γ`` when ``T ≥ log₂(1/γ)``;
    ``(1 - 1/K)^T ≤ e^{-T/K} ≤ γ`` when ``T ≥ K ln(1/γ)``)."""
    _check_T(T)
    b = _check_quantile(quantile)

    def cdf(F: sp.Expr, G: sp.Expr) -> tuple[sp.Expr, sp.Expr]:
        return F**T, G * sp.Add(*[F**i for i in range(T)])

    return OracleAlgorithm(
        "A_max^T",
        sp.Integer(T),
        sp.Integer(T),
        b,
        (1 - b) ** T,
        "Talwar 2025, Theorem 11",
        {"kind": "max", "T": T},
        cdf,
    )


def a_lt(gamma: Any, quantile: Any = HALF) -> OracleAlgorithm:
    """``A_LT,γ`` (Talwar 2025, Theorem 12; Liu & Talwar 2019, Theorem 3.2):
    ``3ε``-DP, ``1/γ`` expected calls, worst-case failure
    ``Φ(1-β) = γ(1-β)/(β + γ(1-β))`` (``γ/(1+γ) ≤ γ`` for the median,
    ``≤ Kγ`` for ``β = 1/K``)."""
    g = _check_gamma(gamma)
    b = _check_quantile(quantile)
    cdf = _lt_cdf(g)
    return OracleAlgorithm(
        "A_LT",
        sp.Integer(3),
        1 / g,
        b,
        cdf(1 - b, b)[0],
        "Talwar 2025, Theorem 12 (Liu & Talwar 2019, Theorem 3.2)",
        {"kind": "lt", "gamma": g},
        cdf,
    )


def hybrid(gamma: Any, c: int, K: int = 1, quantile: Any | None = None) -> OracleAlgorithm:
    """The hybrid ``A_max^c`` over ``A_LT,γ'`` (Talwar 2025, Theorem 13 for ``K = 1``
    with ``γ' = γ^{1/c}``; Theorem 14 with ``γ' = γ^{1/c}/K``): ``3cε``-DP,
    ``c/γ' = cK γ^{-1/c}`` expected calls, worst-case failure ``Φ_LT,γ'(1-β)^c``
    with ``β = 1/2`` (``K = 1``) or ``1/K``.
    """
    g = _check_gamma(gamma)
    if isinstance(c, bool) or not isinstance(c, int) or c < 1:
        raise InvalidParameter(f"the number of repetitions c must be a positive integer, got {c!r}")
    if isinstance(K, bool) or not isinstance(K, int) or K < 1:
        raise InvalidParameter(f"K must be a positive integer, got {K!r}")
    b = _check_quantile(quantile if quantile is not None else (HALF if K == 1 else R(1, K)))
    inner = g ** R(1, c) / K
    lt = _lt_cdf(inner)

    def cdf(F: sp.Expr, G: sp.Expr) -> tuple[sp.Expr, sp.Expr]:
        phi, up = lt(F, G)
        return phi**c, up * sp.Add(*[phi**i for i in range(c)])

    return OracleAlgorithm(
        "hybrid",
        sp.Integer(3 * c),
        c / inner,
        b,
        lt(1 - b, b)[0] ** c,
        f"Talwar 2025, Theorem {13 if K == 1 else 14}",
        {"kind": "hybrid", "gamma": g, "c": c, "K": K, "inner_gamma": inner},
        cdf,
    )


def repetition_algorithms(gamma: Any, cs: Sequence[int] = (2, 3, 4, 6, 8)) -> list[OracleAlgorithm]:
    """The repetition algorithms tuned to failure ``≤ γ`` against the median:
    ``A_max^T`` with ``T = ⌈log₂(1/γ)⌉`` (Theorem 11), ``A_LT,γ`` (Theorem 12) and
    the hybrids of Theorem 13 for each ``c`` in ``cs``."""
    g = _check_gamma(gamma)
    T = max(1, certified_ceil(sp.log(1 / g) / sp.log(2)))
    return [a_max(T), a_lt(g)] + [hybrid(g, c) for c in cs if c >= 2]


def metaselection_algorithms(
    gamma: Any, K: int, cs: Sequence[int] = (2, 3, 4, 6, 8)
) -> list[OracleAlgorithm]:
    """The metaselection algorithms tuned to failure ``≤ γ`` against ``q_{1-1/K}``:
    ``A_max^T`` with ``T = ⌈K ln(1/γ)⌉`` (Theorem 11), ``A_LT,γ/K`` (Theorem 12:
    failure ``≤ K·γ/K``) and the hybrids of Theorem 14."""
    g = _check_gamma(gamma)
    if isinstance(K, bool) or not isinstance(K, int) or K < 2:
        raise InvalidParameter(f"metaselection needs an integer K >= 2, got {K!r}")
    b = R(1, K)
    T = max(1, certified_ceil(K * sp.log(1 / g)))
    return [a_max(T, b), a_lt(g / K, b)] + [hybrid(g, c, K) for c in cs if c >= 2]


def target_quantile(
    M: FiniteMechanism, d: Dataset, beta: Any = HALF, score: Score | None = None
) -> sp.Rational:
    """``sup{z : Pr[v ≥ z] ≥ β}`` for ``v`` the score of ``M(d)`` (Talwar 2025, §2:
    ``Median`` for ``β = 1/2``; ``q_{1-1/K}`` for ``β = 1/K``)."""
    return upper_quantile(M, d, beta, score)


def failure_probability(
    A_out: FiniteMechanism,
    M: FiniteMechanism,
    d: Dataset,
    beta: Any = HALF,
    score: Score | None = None,
) -> sp.Expr:
    """Exact ``Pr[val(A(d)) < z]`` with ``z`` the target quantile of ``M(d)``, from
    the exact output mechanism ``A_out`` (whose outputs are ``M``'s outputs)."""
    sc = score or value_of
    z = target_quantile(M, d, beta, sc)
    return sp.Add(*[A_out.p(d, o) for o in A_out.outputs if sc(o) < z])


# ---------------------------------------------------------------------------
# transformer registry entries
# ---------------------------------------------------------------------------


scored_transformer(
    "talwar_max_of_runs",
    "Talwar 2025, Theorem 11 (A_max^T)",
    [Param("T", positive_int, "number of runs")],
    max_of_runs,
    "Run the oracle T times and release the best output.",
)
scored_transformer(
    "talwar_hybrid",
    "Talwar 2025, Theorems 13 and 14 (A_max^c over A_LT with gamma^(1/c)[/K])",
    [
        Param("gamma", probability, "target failure probability"),
        Param("c", positive_int, "number of A_LT runs (privacy overhead 3c)"),
        Param("K", positive_int, "number of hyperparameter settings (Theorem 14)", 1),
    ],
    lambda M, gamma, c, K, score: hybrid(gamma, c, K).apply(M, score),
    "Best of c runs of random stopping with stopping probability gamma^(1/c)/K.",
)
