"""Papernot & Steinke 2022: the numbered statements this case study checks and the
claims that check them (``verifier casestudies --coverage``)."""

from __future__ import annotations

from casestudies import REGISTRY
from verifier.claims import PaperCoverage, Statement

__all__ = ["COVERAGE"]

S = Statement

P = "papernot_steinke2022"

COVERAGE = PaperCoverage.of(
    P,
    'Papernot & Steinke 2022, "Hyperparameter tuning with Rényi differential privacy"',
    [
        S(
            "Definition 1",
            "definition",
            "the truncated negative binomial D_{eta,gamma} (logarithmic at eta = 0), its mean",
            claims=(f"{P}.def1.count",),
            status="whole",
            reason="probabilities, total mass and mean of the engine's count against the paper's "
            "formulas, at five (eta, gamma) including eta = 0 and eta < 0",
        ),
        S(
            "Theorem 2",
            "theorem",
            "K ~ D_{eta,gamma} runs, best released: (lambda, eps + (1+eta)(1-1/lambda_hat) eps_hat "
            "+ (1+eta) log(1/gamma)/lambda_hat + log(E[K])/(lambda-1))-RDP",
            claims=(
                f"{P}.thm2",
                f"{P}.thm2.box",
                f"{P}.thm2.box_negative_eta",
                f"{P}.thm2.box_lambda3",
                f"{P}.thm2.no_log_term",
                f"{P}.pure",
                f"{P}.pure.box",
                f"{P}.pure.one_plus_eta",
                f"{P}.pure.ninety_percent",
                f"{P}.pure.ninety_percent.box",
                f"{P}.approx",
            ),
            status="special case",
            reason="decided on three finite base mechanisms at lambda in {2, 3}, lambda_hat in "
            "{1, 2, oo}: at points (eta = 0 included) and over boxes of (eta, gamma) away from "
            "eta = 0; the pure-DP (2+eta) eps and approximate-DP forms are derived corollaries; "
            "the bound without (1+eta) log(1/gamma)/lambda_hat, and (2+eta) eps tightened to "
            "(1+eta) eps or 0.9 (2+eta) eps, are refuted",
        ),
        S(
            "Theorem 6",
            "theorem",
            "K ~ Poisson(mu) runs, best released: (lambda, eps + mu delta_hat + "
            "log(mu)/(lambda-1))-RDP when e^eps_hat <= 1 + 1/(lambda-1)",
            claims=(
                f"{P}.thm6",
                f"{P}.thm6.mu_range",
                f"{P}.thm6.no_delta_term",
                f"{P}.thm6.small_mu",
                f"{P}.approx",
            ),
            status="special case",
            reason="three finite base mechanisms, lambda in {2, 3}, mu in {1, 2, 5} and every mu "
            "in [1, 10] (RR9, lambda = 3); K = 0 releases bottom; the bound fails for mu < 1 "
            "(negative for small mu), and without mu delta_hat",
        ),
    ],
)

REGISTRY.add_coverage(COVERAGE)
