"""Ghazi et al. 2025: every numbered statement and the claims that check it
(``verifier casestudies --coverage``; see :mod:`verifier.claims.coverage`)."""

from __future__ import annotations

from casestudies import REGISTRY
from verifier.claims import PaperCoverage, Statement

__all__ = ["COVERAGE"]

S = Statement

COVERAGE = PaperCoverage.of(
    "ghazi2025",
    'Ghazi, Kamath, Knop, Kumar, Manurangsi, Zhang 2025, "Private Hyperparameter Tuning '
    'with Ex-Post Guarantee"',
    [
        S("Definition 1", "definition", "pure (ex-ante) eps-DP", reason="not yet checked"),
        S(
            "Definition 2",
            "definition",
            "ex-post eps~-DP",
            claims=("hartmann2022.ex_post_is_singleton_odp",),
        ),
        S("Definition 3", "definition", "(eps, delta)-DP", reason="not yet checked"),
        S("Definition 4", "definition", "Renyi DP", reason="not yet checked"),
        S("Definition 5", "definition", "ex-post (eps~, delta)-DP", reason="not yet checked"),
        S(
            "Definition 6",
            "definition",
            "ex-post (alpha, eps~)-RDP",
            claims=("ghazi2025.lemma7.rdp_constant",),
        ),
        S(
            "Lemma 7",
            "lemma",
            "ex-post eps~-DP => ex-post (alpha, eps~)-RDP => ex-post (eps~ + log(1/delta)/(alpha-1), delta)-DP",
            claims=(
                "ghazi2025.lemma7.realized",
                "ghazi2025.lemma7.rdp_constant",
                "ghazi2025.lemma7.algorithm3",
                "ghazi2025.lemma7.without_log_term",
            ),
        ),
        S(
            "Eq. (1)",
            "equation",
            "Geom_p(u) <= p^(u-v) Geom_p(v) for u <= v",
            reason="not yet checked",
        ),
        S(
            "Algorithm 1",
            "algorithm",
            "ex-post AboveThreshold with geometric noise",
            claims=("ghazi2025.thm8",),
        ),
        S(
            "Theorem 8",
            "theorem",
            "Algorithm 1 is ex-post DP with eps~(o,i) = 2 eps_i + eps', eps~(bot) = eps'",
            claims=("ghazi2025.thm8", "ghazi2025.thm8.tight"),
        ),
        S(
            "Theorem 9",
            "theorem",
            "for monotone f, Algorithm 1 is ex-post DP with eps~(o,i) = eps_i + eps'",
            claims=("ghazi2025.thm9", "ghazi2025.thm9.non_monotone"),
        ),
        S(
            "Algorithm 2",
            "algorithm",
            "generalized AboveThreshold with random dropping",
            claims=("ghazi2025.thm10",),
        ),
        S(
            "Theorem 10",
            "theorem",
            "Algorithm 2 on eps_i-DP mechanisms is ex-post DP with 2 eps_i + eps', eps~(bot) = eps'",
            claims=("ghazi2025.thm10", "ghazi2025.thm10.near_tight", "ghazi2025.thm10.bottom_zero"),
        ),
        S(
            "Algorithm 3",
            "algorithm",
            "hyperparameter tuning with random dropping",
            claims=("ghazi2025.thm11",),
        ),
        S(
            "Theorem 11",
            "theorem",
            "Algorithm 3 with Geom(e^-eps') is ex-post DP with 2 eps_i + eps', eps~(bot) = 0",
            claims=("ghazi2025.thm11", "ghazi2025.thm11.all_eps", "ghazi2025.thm11.no_factor2"),
        ),
        S(
            "Figure 1",
            "figure",
            "std vs mean of the number of runs: Theorem 11's prior against Papernot-Steinke's",
            reason="not yet checked",
        ),
        S(
            "Theorem 12",
            "theorem",
            "with T_i copies, Pr[output >= (o*, 0)] >= 1 - beta when Pr[M_i*(D) >= o*] >= alpha",
            claims=("ghazi2025.thm12",),
        ),
        S(
            "Theorem 13",
            "theorem",
            "Algorithm 3 with Exp(eps') on (alpha, eps_i)-RDP mechanisms is ex-post (alpha, eps~)-RDP",
            claims=(
                "ghazi2025.thm13",
                "ghazi2025.thm13.proof_step_printed",
                "ghazi2025.thm13.proof_step_corrected",
            ),
        ),
        S(
            "Lemma 14",
            "lemma",
            "reverse Hoelder: E[f]^a E[g]^(1-a) <= E[f^a g^(1-a)]",
            claims=("ghazi2025.lemma14",),
        ),
        S(
            "Lemma 15",
            "lemma",
            "(1-a)^alpha (1 - e^(-eps(1+l)) b)^(1-alpha) <= exp(e^(-eps(1+alpha l))) under a^(1-alpha) b^alpha <= e^(eps(alpha-1))",
            claims=("ghazi2025.lemma15",),
        ),
        S(
            "Algorithm 4",
            "algorithm",
            "privacy filter for ex-post RDP",
            claims=("ghazi2025.thm16",),
        ),
        S(
            "Theorem 16",
            "theorem",
            "the filter keeps D_alpha(IT^0 || IT^1) <= eps for every adversary",
            claims=("ghazi2025.thm16", "ghazi2025.thm16.no_filter"),
        ),
        S(
            "Papernot-Steinke 2022, Theorem 2 (cited in §4.2)",
            "theorem",
            "truncated negative binomial repetition of an RDP mechanism is RDP (the prior result Theorem 13 is compared with)",
            reason="not yet checked",
        ),
        S(
            "Papernot-Steinke 2022, Corollary 3 (cited in §4.1)",
            "corollary",
            "truncated negative binomial repetition of an eps-DP mechanism is (2 + eta) eps-DP",
            reason="not yet checked",
        ),
        S(
            "Table 1",
            "table",
            "pure-DP experiments: answers produced and precision on synthetic and Reddit data",
            reason="empirical results on data sets (means and standard deviations over runs); "
            "no statement a finite exact instance decides",
        ),
        S(
            "Table 2",
            "table",
            "approximate-DP experiments on synthetic data",
            reason="empirical results on data sets; no statement a finite exact instance decides",
        ),
    ],
)

REGISTRY.add_coverage(COVERAGE)
