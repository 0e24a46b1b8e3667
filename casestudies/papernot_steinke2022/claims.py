"""Papernot & Steinke 2022, "Hyperparameter tuning with Rényi differential privacy"
(ICLR; arXiv 2110.03620v2): the claims decided at points (:mod:`.boxes` registers those
over boxes of ``(η, γ)``).  The algorithm is a selection program of the engine
(:func:`.instances.tuned`); the derivations of every expected outcome are in NOTES.md.

* Definition 1: the count's law and mean, from the paper's formulas, equal the engine's
  count (identities at points).
* Theorem 2 at points (``λ ∈ {2, 3}``, ``λ̂ ∈ {1, 2, oo}``) on three base mechanisms,
  and a tightening refuted: without the term ``(1+η) log(1/γ)/λ̂``.
* Theorem 6 at ``μ ∈ {1, 2, 5}`` and for every ``μ ∈ [1, 10]``; refuted without the
  term ``μ δ̂``, and below ``μ = 1`` (the bound turns negative).
* The pure-DP corollary ``(2+η)ε`` (derived from Theorem 2) at points, and refuted with
  ``(1+η)ε`` and with ``0.9 (2+η)ε`` on ``Q3``.
* Approximate-DP corollaries (Theorems 2 and 6 with Mironov 2017, Proposition 3).
"""

from __future__ import annotations

from typing import Any

import sympy as sp

from casestudies import claim
from verifier.checks.certified import check_eq, check_le
from verifier.checks.privacy import (
    check_approx_dp,
    check_ex_post_rdp,
    check_pure_dp,
    check_rdp,
    rdp_epsilon,
    renyi_divergence,
)
from verifier.checks.results import CheckResult, conjunction
from verifier.mechanism.model import FiniteMechanism
from verifier.programs.counts import Z

from . import boxes, coverage  # noqa: F401  (registers the box claims and the coverage)
from .instances import (
    MU,
    Q3,
    RARE,
    RR3,
    RR9,
    SOURCE,
    R,
    definition1_mean,
    poisson_tuned,
    theorem2_epsilon,
    theorem6_epsilon,
    tnb,
    to_approx_epsilon,
    tuned,
)

# ---------------------------------------------------------------------------
# Definition 1
# ---------------------------------------------------------------------------

DEF1_POINTS = ((R(-1, 2), R(1, 4)), (0, R(1, 3)), (R(1, 2), R(1, 10)), (1, R(2, 3)), (2, R(1, 5)))


def definition1_pmf(eta: Any, gamma: Any, k: int) -> sp.Expr:
    """``Pr[K = k]`` of Definition 1, written from the paper: ``(1-γ)^k/(γ^{-η} - 1) ·
    Π_{ℓ<k} (ℓ+η)/(ℓ+1)`` (``η != 0``), ``(1-γ)^k/(k log(1/γ))`` (``η = 0``)."""
    e, g = sp.sympify(eta), sp.sympify(gamma)
    if e == 0:
        return (1 - g) ** k / (k * sp.log(1 / g))
    prod = sp.Mul(*[(ell + e) / (ell + 1) for ell in range(k)])
    return (1 - g) ** k / (g ** (-e) - 1) * prod


@claim(
    id="papernot_steinke2022.def1.count",
    source=f"{SOURCE}, Definition 1 (truncated negative binomial; logarithmic at eta = 0)",
    statement="the engine's count has Definition 1's probabilities Pr[K = k] (k = 1..6, as the "
    "series coefficients of its generating function), total mass G(1) = 1 and mean E[K]",
    expected="holds",
    instances="(eta, gamma) in {(-1/2, 1/4), (0, 1/3), (1/2, 1/10), (1, 2/3), (2, 1/5)}",
    scope_note="identities between closed forms at points; the series coefficients are exact "
    "numbers only at given (eta, gamma)",
)
def def1_count() -> CheckResult:
    parts = []
    for eta, gamma in DEF1_POINTS:
        c = tnb(eta, gamma)
        series = sp.series(c.pgf, Z, 0, 7).removeO()
        tag = f"eta = {eta}, gamma = {gamma}"
        for k in range(1, 7):
            parts.append(
                check_eq(series.coeff(Z, k), definition1_pmf(eta, gamma, k), f"{tag}: Pr[K = {k}]")
            )
        parts.append(check_eq(c.at(1), 1, f"{tag}: G(1) = 1"))
        parts.append(
            check_eq(
                sp.diff(c.pgf, Z).subs(Z, 1), definition1_mean(eta, gamma), f"{tag}: G'(1) = E[K]"
            )
        )
    return conjunction("Definition 1: the count's law and mean", parts)


# ---------------------------------------------------------------------------
# Theorem 2 at points
# ---------------------------------------------------------------------------

THM2_POINTS = (
    (R(-1, 2), R(1, 10)),
    (0, R(1, 2)),
    (1, R(1, 100)),
    (R(1, 2), R(99, 100)),
    (2, R(9, 10)),
)
THM2_ORDERS = ((2, 1), (2, sp.oo), (3, 2))


def rdp_holds(A: FiniteMechanism, eps: sp.Expr, lam: Any, title: str) -> CheckResult:
    """``(λ, ε)``-RDP of ``A``, exactly or certified, on both ordered pairs."""
    return check_rdp(A, epsilon=eps, alpha=lam, title=title)


@claim(
    id="papernot_steinke2022.thm2",
    source=f"{SOURCE}, Theorem 2",
    statement="the best of K ~ D_{eta,gamma} runs of Q is (lambda, eps')-RDP, eps' = eps + "
    "(1+eta)(1 - 1/lambda_hat) eps_hat + (1+eta) log(1/gamma)/lambda_hat + log(E[K])/(lambda-1)",
    expected="holds",
    instances="Q in {RR3, RR9, Q3}; (lambda, lambda_hat) in {(2, 1), (2, oo) (the limit, derived), "
    "(3, 2)}; (eta, gamma) in {(-1/2, 1/10), (0, 1/2), (1, 1/100), (1/2, 99/100), (2, 9/10)}",
    scope_note="points spread over eta in [-1/2, 2] (eta = 0 the logarithmic count) and gamma "
    "from 1/100 to 99/100; every (eta, gamma) of boxes: papernot_steinke2022.thm2.box*",
)
def thm2_points() -> CheckResult:
    parts = []
    for Q in (RR3, RR9, Q3):
        for eta, gamma in THM2_POINTS:
            A = tuned(Q, tnb(eta, gamma))
            for lam, lam_hat in THM2_ORDERS:
                eps = theorem2_epsilon(Q, lam, lam_hat, eta, gamma)
                title = f"{Q.name}, eta = {eta}, gamma = {gamma}: ({lam}, eps')-RDP, lambda_hat = {lam_hat}"
                parts.append(rdp_holds(A, eps, lam, title))
    return conjunction("Theorem 2 at points", parts)


@claim(
    id="papernot_steinke2022.thm2.no_log_term",
    source=f"{SOURCE}, Theorem 2 (tightened; negative control)",
    statement="Theorem 2 without the term (1+eta) log(1/gamma)/lambda_hat: RR9 at eta = 1, "
    "gamma = 3/10, lambda = 3, lambda_hat = 1 is (3, eps_3(RR9) + log(E[K])/2)-RDP",
    expected="refuted",
    kind="negative-control",
    instances="RR9 (Pr = 1/10, 9/10), eta = 1 (geometric), gamma = 3/10: the Rényi sum from D' to "
    "D is 170247877/455877 > e^{2 eps'} = (5905/81)(10/3) = 59050/243 (NOTES.md)",
    scope_note="one instance of a tightening, refuted exactly (rational arithmetic)",
)
def thm2_no_log_term() -> CheckResult:
    eta, gamma, lam = 1, R(3, 10), 3
    full = theorem2_epsilon(RR9, lam, 1, eta, gamma)
    dropped = full - (1 + eta) * sp.log(1 / gamma)
    return rdp_holds(tuned(RR9, tnb(eta, gamma)), dropped, lam, "Theorem 2 without log(1/gamma)")


# ---------------------------------------------------------------------------
# Theorem 6 (Poisson)
# ---------------------------------------------------------------------------


@claim(
    id="papernot_steinke2022.thm6",
    source=f"{SOURCE}, Theorem 6 (Poisson count)",
    statement="the best of K ~ Poisson(mu) runs of Q (bottom when K = 0) is (lambda, eps + mu "
    "delta_hat + log(mu)/(lambda-1))-RDP, delta_hat = delta_Q(eps_hat), e^eps_hat = 1 + "
    "1/(lambda-1)",
    expected="holds",
    instances="Q in {RR3, RR9, Q3}, lambda in {2, 3}, mu in {1, 2, 5}",
    scope_note="points; every mu in [1, 10]: papernot_steinke2022.thm6.mu_range",
)
def thm6_points() -> CheckResult:
    parts = []
    for Q in (RR3, RR9, Q3):
        for mu in (1, 2, 5):
            A = poisson_tuned(Q, mu)
            for lam in (2, 3):
                eps = theorem6_epsilon(Q, lam, mu)
                parts.append(rdp_holds(A, eps, lam, f"{Q.name}, mu = {mu}: ({lam}, eps')-RDP"))
    return conjunction("Theorem 6 at points", parts)


@claim(
    id="papernot_steinke2022.thm6.mu_range",
    source=f"{SOURCE}, Theorem 6 (Poisson count)",
    statement="Theorem 6 on RR9 at lambda = 3 for every mu in [1, 10]",
    expected="holds",
    instances="RR9, lambda = 3, the Poisson mean mu over [1, 10] (certified interval decision)",
)
def thm6_mu_range() -> CheckResult:
    A = poisson_tuned(RR9, MU)
    eps = theorem6_epsilon(RR9, 3, MU)
    return check_ex_post_rdp(A, epsilon_tilde=eps, alpha=3, over=(MU, 1, 10))


@claim(
    id="papernot_steinke2022.thm6.no_delta_term",
    source=f"{SOURCE}, Theorem 6 (tightened; negative control)",
    statement="Theorem 6 without the term mu delta_hat: RR9 at lambda = 3, mu = 2 is "
    "(3, eps_3(RR9) + log(2)/2)-RDP",
    expected="refuted",
    kind="negative-control",
    instances="RR9, lambda = 3, mu = 2: the Rényi sum from D' to D exceeds 2 * 5905/81 (NOTES.md)",
    scope_note="one instance of a tightening, refuted with a certified comparison",
)
def thm6_no_delta_term() -> CheckResult:
    lam, mu = 3, 2
    eps = rdp_epsilon(RR9, alpha=lam).value + sp.log(mu) / (lam - 1)
    return rdp_holds(poisson_tuned(RR9, mu), eps, lam, "Theorem 6 without mu delta_hat")


@claim(
    id="papernot_steinke2022.thm6.small_mu",
    source=f"{SOURCE}, Theorem 6 (mean below 1; negative control)",
    statement="Theorem 6 at mu = 1/2 on Q3 at lambda = 2: its bound eps_2(Q3) + 0 + log(1/2) = "
    "log(779/1168) is negative, so no mechanism meets it",
    expected="refuted",
    kind="negative-control",
    instances="Q3 (delta_hat = 0 at e^eps_hat = 2: Q3's ratios are at most 2), lambda = 2, mu = 1/2",
    scope_note="one instance: the bound is negative for every mu < e^{-(lambda-1) eps}, any Q",
)
def thm6_small_mu() -> CheckResult:
    # the RDP checkers refuse a negative bound as a parameter: the Rényi divergence of
    # each ordered pair is compared with it directly
    A = poisson_tuned(Q3, R(1, 2))
    bound = theorem6_epsilon(Q3, 2, R(1, 2))
    parts = [
        check_le(
            renyi_divergence(_row(A, d), _row(A, d2), 2),
            bound,
            f"D_2(A(D) || A({d2})) <= {bound}",
            pair=(d, d2),
            quantity="D_alpha",
        )
        for d, d2 in A.ordered_pairs()
    ]
    return conjunction("Theorem 6 at mu = 1/2", parts)


def _row(A: FiniteMechanism, d: Any) -> dict[Any, sp.Expr]:
    return {o: A.p(d, o) for o in A.outputs}


# ---------------------------------------------------------------------------
# pure DP: (2 + eta) eps, derived from Theorem 2
# ---------------------------------------------------------------------------

PURE_POINTS = (
    (R(-1, 2), R(1, 100)),
    (0, R(1, 100)),
    (R(1, 2), R(1, 10)),
    (1, R(1, 100)),
    (2, R(1, 100)),
)


@claim(
    id="papernot_steinke2022.pure",
    source=f"{SOURCE}, Theorem 2 with lambda, lambda_hat -> oo (derived, NOTES.md)",
    statement="the best of K ~ D_{eta,gamma} runs of an eps-DP Q is (2+eta) eps-DP",
    expected="holds",
    instances="Q in {RR3 (eps = log 3), Q3 (eps = log 2)}; (eta, gamma) in {(-1/2, 1/100), "
    "(0, 1/100), (1/2, 1/10), (1, 1/100), (2, 1/100)}",
    scope_note="points; every (eta, gamma) of a box: papernot_steinke2022.pure.box",
)
def pure_points() -> CheckResult:
    parts = []
    for Q, eps in ((RR3, sp.log(3)), (Q3, sp.log(2))):
        for eta, gamma in PURE_POINTS:
            A = tuned(Q, tnb(eta, gamma))
            parts.append(check_pure_dp(A, epsilon=(2 + sp.sympify(eta)) * eps))
    return conjunction("(2 + eta) eps-DP at points", parts)


@claim(
    id="papernot_steinke2022.pure.one_plus_eta",
    source=f"{SOURCE}, pure-DP corollary of Theorem 2 (tightened; negative control)",
    statement="(1+eta) eps instead of (2+eta) eps: Q3 at eta = 1, gamma = 1/100 is 2 log 2-DP",
    expected="refuted",
    kind="negative-control",
    instances="Q3, eta = 1, gamma = 1/100: the middle output has probabilities 800/285619 at D' "
    "and 200/520049 at D, ratio 2080196/285619 = 7.28 > 4 (NOTES.md)",
    scope_note="one instance of a tightening, refuted exactly (rational arithmetic)",
)
def pure_one_plus_eta() -> CheckResult:
    return check_pure_dp(tuned(Q3, tnb(1, R(1, 100))), epsilon=2 * sp.log(2))


@claim(
    id="papernot_steinke2022.pure.ninety_percent",
    source=f"{SOURCE}, pure-DP corollary of Theorem 2 (tightened; negative control)",
    statement="0.9 (2+eta) eps instead of (2+eta) eps: Q3 at eta = 1, gamma = 1/100 is "
    "(27/10) log 2-DP",
    expected="refuted",
    kind="negative-control",
    instances="Q3, eta = 1, gamma = 1/100: ratio 2080196/285619 = 7.28 > 2^{27/10} = 6.50 at the "
    "middle output (NOTES.md)",
    scope_note="one instance of a tightening; a box of (eta, gamma) where it fails: "
    "papernot_steinke2022.pure.ninety_percent.box",
)
def pure_ninety_percent() -> CheckResult:
    return check_pure_dp(tuned(Q3, tnb(1, R(1, 100))), epsilon=R(27, 10) * sp.log(2))


# ---------------------------------------------------------------------------
# approximate DP, derived (Theorems 2, 6 and Mironov 2017, Proposition 3)
# ---------------------------------------------------------------------------

APPROX_DELTA = R(1, 10)


@claim(
    id="papernot_steinke2022.approx",
    source=f"{SOURCE}, Theorems 2 and 6 with Mironov 2017, Proposition 3 (derived, NOTES.md)",
    statement="the best of K runs of Q is (eps' + log(1/delta)/(lambda-1), delta)-DP, eps' the "
    "RDP bound of Theorem 2 (K ~ D_{eta,gamma}) or Theorem 6 (K ~ Poisson(mu))",
    expected="holds",
    instances="Q = RARE (Pr[0] = 1/100 at D, 1/10000 at D'), delta = 1/10; Theorem 2: (lambda, "
    "lambda_hat) in {(2, 2), (3, 2)}, eta = -1/2, gamma = 1/10; Theorem 6: lambda in {2, 3}, "
    "mu in {1, 2} (each converted eps lies below the algorithm's pure eps: delta is used)",
    scope_note="points: the converted bound is a corollary of the RDP claims, which are decided "
    "over boxes and ranges",
)
def approx_points() -> CheckResult:
    parts = []
    eta, gamma = R(-1, 2), R(1, 10)
    A = tuned(RARE, tnb(eta, gamma))
    for lam in (2, 3):
        eps = to_approx_epsilon(theorem2_epsilon(RARE, lam, 2, eta, gamma), lam, APPROX_DELTA)
        parts.append(check_approx_dp(A, epsilon=eps, delta=APPROX_DELTA))
    for mu in (1, 2):
        for lam in (2, 3):
            eps = to_approx_epsilon(theorem6_epsilon(RARE, lam, mu), lam, APPROX_DELTA)
            parts.append(check_approx_dp(poisson_tuned(RARE, mu), epsilon=eps, delta=APPROX_DELTA))
    return conjunction("approximate-DP corollaries", parts)
