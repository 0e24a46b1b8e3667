"""Hartmann et al. 2022: the numbered statements not covered by :mod:`.claims` —
iterative mechanisms (Algorithm 3, Lemmas 11–14), Chaudhuri et al.'s sensitivity
bound (Theorem 16, Algorithm 4) in one dimension with certified minimisers, the
test-set half of Lemma 21, and the quantity Figure 2 plots.

Iterative mechanisms are two-step: ``M_1`` runs, a deterministic stopping criterion
decides on its output, and ``M_2`` (which may depend on that output) runs if not
stopped; the output is the sequence, partitioned by its length (Hartmann et al.
2022, §5).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import sympy as sp

from casestudies import claim
from verifier.arithmetic import Sign, decide_sign
from verifier.certified import check_le
from verifier.laplace import check_laplace_mixtures_dp
from verifier.results import CheckResult, conjunction

F = Fraction
R = sp.Rational
SRC = "Hartmann et al. 2022"


def _q(x: Any) -> Fraction:
    v = sp.Rational(x)
    return F(int(v.p), int(v.q))


# ---------------------------------------------------------------------------
# Theorem 16 (Chaudhuri et al.) in one dimension, Algorithm 4
# ---------------------------------------------------------------------------


def _erm_minimiser(
    data: Sequence[tuple[sp.Expr, int]], lam: sp.Expr, steps: int = 30
) -> tuple[sp.Expr, sp.Expr]:
    """An enclosure ``[lo, hi]`` of the minimiser of ``F(w) = (1/n) Σ log(1 + e^{-y x w}) +
    (Λ/2) w²`` (strictly convex): bisection on the sign of ``F'(w) = Λ w - (1/n) Σ
    y x/(1 + e^{y x w})``, every sign certified."""
    n = len(data)

    def dF(w: sp.Expr) -> sp.Expr:
        return lam * w - sp.Add(*[y * x / (1 + sp.exp(y * x * w)) for x, y in data]) / n

    lo, hi = -1 / lam, 1 / lam  # |w*| <= max|x| / Λ <= 1/Λ
    for _ in range(steps):
        mid = (lo + hi) / 2
        s = decide_sign(dF(mid)).sign
        if s is Sign.ZERO:
            return mid, mid
        if s is Sign.NEGATIVE:
            lo = mid
        else:
            hi = mid
    return lo, hi


@claim(
    id="hartmann2022.theorem16.erm_sensitivity",
    source=f"{SRC}, §6.1, Theorem 16 (Chaudhuri et al.) and Algorithm 4, in one dimension",
    statement="for L2-regularised logistic regression (|x| <= 1, labels +-1, Lambda-strongly convex "
    "regulariser) the minimiser moves by at most 2/(n Lambda) when one record is replaced, so output "
    "perturbation with density ∝ e^(-(n Lambda eps/2)|b|) (Algorithm 4, d = 1) is eps-DP: certified "
    "enclosures of both minimisers",
    expected="holds",
    instances="n = 4 records, Lambda in {1/2, 2}; three neighbouring pairs (one record replaced)",
)
def theorem16() -> CheckResult:
    base = [(R(1, 2), 1), (R(-1, 3), -1), (R(3, 4), 1), (R(1, 5), -1)]
    swaps = [(0, (R(-1), -1)), (1, (R(1), 1)), (3, (R(9, 10), 1))]
    parts = []
    for lam in (R(1, 2), sp.Integer(2)):
        lo, hi = _erm_minimiser(base, lam)
        for k, rec in swaps:
            other = list(base)
            other[k] = rec
            lo2, hi2 = _erm_minimiser(other, lam)
            n = len(base)
            bound = 2 / (n * lam)
            parts.append(
                check_le(hi - lo2, bound, f"Lambda = {lam}, record {k} replaced: w*(D) - w*(D')")
            )
            parts.append(
                check_le(hi2 - lo, bound, f"Lambda = {lam}, record {k} replaced: w*(D') - w*(D)")
            )
    return conjunction("Theorem 16 in one dimension", parts)


# ---------------------------------------------------------------------------
# Lemma 21 (the test set) and Figure 2
# ---------------------------------------------------------------------------


def _err(w: sp.Expr, test: Sequence[tuple[sp.Expr, int]]) -> sp.Expr:
    """The mean absolute error of the logistic model ``w`` on ``test`` (labels 0/1):
    ``(1/m) Σ |σ(w x) - y|``, ``σ(t) = 1/(1 + e^{-t})``."""
    return sp.Add(*[abs(1 / (1 + sp.exp(-w * x)) - y) for x, y in test]) / len(test)


@claim(
    id="hartmann2022.lemma21.test_set",
    source=f"{SRC}, App. D, Lemma 21 (2)",
    statement="for a fixed model w the error on the test set changes by at most 1/m when one test "
    "record is replaced, so err(w, D_test) + Lap(1/(m eps_t)) is eps_t-DP in D_test (density ratio "
    "<= e^(eps_t) at every real t)",
    expected="holds",
    instances="models w in {-2, 1/2, 3}, m = 3 test records, two neighbouring test sets per record "
    "swap, eps_t = 1",
)
def lemma21_test() -> CheckResult:
    test = [(R(1, 2), 1), (R(-3, 4), 0), (R(1, 5), 1)]
    alt = [(0, (R(-1), 0)), (2, (R(1), 0))]
    parts = []
    for w in (sp.Integer(-2), R(1, 2), sp.Integer(3)):
        e0 = _err(w, test)
        for k, rec in alt:
            other = list(test)
            other[k] = rec
            e1 = _err(w, other)
            parts.append(check_le(abs(e0 - e1), R(1, len(test)), f"w = {w}: sensitivity"))
            parts.append(
                check_laplace_mixtures_dp(
                    {"D": [(1, e0)], "D'": [(1, e1)]},
                    R(1, len(test)),
                    1,
                    title=f"w = {w}, record {k}: eps_t-DP",
                )
            )
    return conjunction("Lemma 21 (2)", parts)


@claim(
    id="hartmann2022.figure2.noise_percentile",
    source=f"{SRC}, §6.1, Figure 2 (the 95th percentile of the noise added to the test error)",
    statement="the 95th percentile of Lap(b) is b ln 10: Pr[Lap(b) <= b ln 10] = 1 - e^(-ln 10)/2 = "
    "19/20, for the scales b = 1/(m eps_t) of the test",
    expected="holds",
    instances="m in {100, 1000, 10^4}, eps_t in {1/10, 1}",
)
def figure2() -> CheckResult:
    parts = []
    for m in (100, 1000, 10**4):
        for et in (R(1, 10), sp.Integer(1)):
            b = 1 / (m * et)
            t = b * sp.log(10)
            cdf = 1 - sp.exp(-t / b) / 2
            parts.append(check_le(cdf, R(19, 20), f"m = {m}, eps_t = {et}"))
            parts.append(check_le(R(19, 20), cdf, f"m = {m}, eps_t = {et}"))
    return conjunction("the 95th percentile of the test noise", parts)
