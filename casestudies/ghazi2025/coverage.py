"""Ghazi et al. 2025: every numbered statement and the claims that check it
(``verifier casestudies --coverage``; see :mod:`verifier.claims.coverage`)."""

from __future__ import annotations

from casestudies import REGISTRY
from verifier.claims import PaperCoverage, Statement

__all__ = ["COVERAGE"]

S = Statement

#: The claims of these statements decide them on the instances each claim lists
#: (its ``instances``), with the parameters those instances pin.
PINNED = "decided on the instances each claim lists, with the parameters they pin"

THM8_STEPS = tuple(
    f"ghazi2025.thm8.step.{x}"
    for x in (
        "eq2",
        "eq3_first",
        "eq3_second",
        "prefix",
        "geom_shift",
        "chain_first",
        "chain_equal",
        "chain_last",
        "bottom_closed_form",
        "bottom_first",
        "bottom_second",
        "bottom_equal",
        "bottom_last",
    )
)
THM10_STEPS = tuple(
    f"ghazi2025.thm10.step.{x}"
    for x in (
        "closed_form",
        "dp_bounds",
        "chain_first",
        "chain_equal",
        "chain_last",
        "bottom_chain",
    )
) + ("ghazi2025.thm8.step.geom_shift",)
THM11_STEPS = tuple(
    f"ghazi2025.thm11.step.{x}"
    for x in (
        "bottom_data_free",
        "closed_form",
        "dp_bounds",
        "chain_first",
        "chain_equal",
        "chain_last",
    )
) + ("ghazi2025.thm8.step.geom_shift",)
THM12_STEPS = tuple(f"ghazi2025.thm12.step.{x}" for x in ("fixed_k", "choice_of_T", "prior_tail"))
THM13_STEPS = tuple(
    f"ghazi2025.thm13.step.{x}"
    for x in (
        "eq5",
        "factor_A",
        "truncate",
        "substitute",
        "lemma14_combined",
        "rdp_post_processing",
        "plug_in",
        "choice_of_eps",
        "final_sum",
    )
)
LEMMA14_STEPS = ("ghazi2025.lemma14.step.holder", "ghazi2025.lemma14.step.rearrange")
LEMMA15_STEPS = tuple(
    f"ghazi2025.lemma15.step.{x}"
    for x in (
        "eq4",
        "chain_eq4",
        "chain_factor",
        "chain_rewrite",
        "chain_amgm",
        "chain_collapse",
        "chain_last",
    )
)

COVERAGE = PaperCoverage.of(
    "ghazi2025",
    'Ghazi, Kamath, Knop, Kumar, Manurangsi, Zhang 2025, "Private Hyperparameter Tuning '
    'with Ex-Post Guarantee"',
    [
        S(
            "Definition 1",
            "definition",
            "pure (ex-ante) eps-DP",
            claims=("ghazi2025.defs.constant_eps_tilde",),
            status="special case",
            reason=PINNED,
        ),
        S(
            "Definition 2",
            "definition",
            "ex-post eps~-DP",
            claims=(
                "ghazi2025.defs.constant_eps_tilde",
                "ghazi2025.def2.ex_ante_max",
                "hartmann2022.ex_post_is_singleton_odp",
            ),
            status="special case",
            reason=PINNED,
        ),
        S(
            "Definition 3",
            "definition",
            "(eps, delta)-DP",
            claims=("ghazi2025.defs.constant_eps_tilde",),
            status="special case",
            reason=PINNED,
        ),
        S(
            "Definition 4",
            "definition",
            "Renyi DP",
            claims=("ghazi2025.defs.constant_eps_tilde",),
            status="special case",
            reason=PINNED,
        ),
        S(
            "Definition 5",
            "definition",
            "ex-post (eps~, delta)-DP",
            claims=(
                "ghazi2025.defs.constant_eps_tilde",
                "ghazi2025.lemma7.realized",
                "ghazi2025.lemma7.ii_near_sup",
                "ghazi2025.lemma7.box_ii",
                "ghazi2025.lemma7.box_i",
            ),
            status="special case",
            reason=PINNED,
        ),
        S(
            "Definition 6",
            "definition",
            "ex-post (alpha, eps~)-RDP",
            claims=("ghazi2025.defs.constant_eps_tilde", "ghazi2025.lemma7.rdp_constant"),
            status="special case",
            reason=PINNED,
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
            status="special case",
            reason=PINNED,
        ),
        S(
            "Eq. (1)",
            "equation",
            "Geom_p(u) <= p^(u-v) Geom_p(v) for u <= v",
            claims=("ghazi2025.eq1.geometric",),
            status="special case",
            reason=PINNED,
        ),
        S(
            "Algorithm 1",
            "algorithm",
            "ex-post AboveThreshold with geometric noise",
            claims=(
                "ghazi2025.thm8",
                "ghazi2025.thm8.box",
                "ghazi2025.thm8.step.eq2",
                "ghazi2025.thm8.step.bottom_closed_form",
            ),
            status="special case",
            reason=PINNED,
        ),
        S(
            "Theorem 8",
            "theorem",
            "Algorithm 1 is ex-post DP with eps~(o,i) = 2 eps_i + eps', eps~(bot) = eps'",
            claims=(
                "ghazi2025.thm8",
                "ghazi2025.thm8.tight",
                "ghazi2025.thm8.final_line_without_eps_prime",
                *THM8_STEPS,
            ),
            status="special case",
            reason=PINNED,
        ),
        S(
            "Theorem 9",
            "theorem",
            "for monotone f, Algorithm 1 is ex-post DP with eps~(o,i) = eps_i + eps'",
            claims=("ghazi2025.thm9", "ghazi2025.thm9.box", "ghazi2025.thm9.non_monotone"),
            status="special case",
            reason=PINNED,
        ),
        S(
            "Algorithm 2",
            "algorithm",
            "generalized AboveThreshold with random dropping",
            claims=("ghazi2025.thm10", "ghazi2025.thm10.box", "ghazi2025.thm10.step.closed_form"),
            status="special case",
            reason=PINNED,
        ),
        S(
            "Theorem 10",
            "theorem",
            "Algorithm 2 on eps_i-DP mechanisms is ex-post DP with 2 eps_i + eps', eps~(bot) = eps'",
            claims=(
                "ghazi2025.thm10",
                "ghazi2025.thm10.near_tight",
                "ghazi2025.thm10.bottom_zero",
                "ghazi2025.thm10.step.chain_first_as_printed",
                "ghazi2025.thm10.step.chain_first_as_printed_at_last_index",
                *THM10_STEPS,
            ),
            status="special case",
            reason=PINNED,
        ),
        S(
            "Algorithm 3",
            "algorithm",
            "hyperparameter tuning with random dropping",
            claims=(
                "ghazi2025.thm11",
                "ghazi2025.thm11.box",
                "ghazi2025.thm11.step.closed_form",
                "ghazi2025.thm13.step.factor_A",
            ),
            status="special case",
            reason=PINNED,
        ),
        S(
            "Theorem 11",
            "theorem",
            "Algorithm 3 with Geom(e^-eps') is ex-post DP with 2 eps_i + eps', eps~(bot) = 0",
            claims=(
                "ghazi2025.thm11",
                "ghazi2025.thm11.all_eps",
                "ghazi2025.thm11.no_factor2",
                "ghazi2025.thm11.no_factor2.box",
                *THM11_STEPS,
            ),
            status="special case",
            reason=PINNED,
        ),
        S(
            "Figure 1",
            "figure",
            "std vs mean of the number of runs: Theorem 11's prior against Papernot-Steinke's",
            claims=("ghazi2025.figure1.larger_variance", "ghazi2025.papernot_steinke.cor3"),
            status="special case",
            reason=PINNED,
        ),
        S(
            "Theorem 12",
            "theorem",
            "with T_i copies, Pr[output >= (o*, 0)] >= 1 - beta when Pr[M_i*(D) >= o*] >= alpha",
            claims=("ghazi2025.thm12", *THM12_STEPS),
            status="special case",
            reason=PINNED,
        ),
        S(
            "Theorem 13",
            "theorem",
            "Algorithm 3 with Exp(eps') on (alpha, eps_i)-RDP mechanisms is ex-post (alpha, eps~)-RDP",
            claims=(
                "ghazi2025.thm13",
                "ghazi2025.thm13.data_dependent",
                "ghazi2025.thm13.proof_step_printed",
                "ghazi2025.thm13.proof_step_printed_equal_budgets",
                "ghazi2025.thm13.proof_step_corrected",
                *THM13_STEPS,
            ),
            status="special case",
            reason=PINNED,
        ),
        S(
            "Lemma 14",
            "lemma",
            "reverse Hoelder: E[f]^a E[g]^(1-a) <= E[f^a g^(1-a)]",
            claims=("ghazi2025.lemma14", *LEMMA14_STEPS),
            status="special case",
            reason=PINNED,
        ),
        S(
            "Lemma 15",
            "lemma",
            "(1-a)^alpha (1 - e^(-eps(1+l)) b)^(1-alpha) <= exp(e^(-eps(1+alpha l))) under a^(1-alpha) b^alpha <= e^(eps(alpha-1))",
            claims=(
                "ghazi2025.lemma15",
                "ghazi2025.lemma15.at_step_failures",
                "ghazi2025.lemma15.step.exp_bound_as_printed",
                "ghazi2025.lemma15.step.exp_bound_where_it_holds",
                *LEMMA15_STEPS,
            ),
            status="special case",
            reason=PINNED,
        ),
        S(
            "Algorithm 4",
            "algorithm",
            "privacy filter for ex-post RDP",
            claims=("ghazi2025.thm16",),
            status="special case",
            reason=PINNED,
        ),
        S(
            "Theorem 16",
            "theorem",
            "the filter keeps D_alpha(IT^0 || IT^1) <= eps for every adversary",
            claims=("ghazi2025.thm16", "ghazi2025.thm16.no_filter"),
            status="special case",
            reason=PINNED,
        ),
        S(
            "Papernot-Steinke 2022, Theorem 2 (cited in §4.2)",
            "theorem",
            "truncated negative binomial repetition of an RDP mechanism is RDP (the prior result Theorem 13 is compared with)",
            claims=("ghazi2025.papernot_steinke.thm2",),
            status="special case",
            reason=PINNED,
        ),
        S(
            "Papernot-Steinke 2022, Corollary 3 (cited in §4.1)",
            "corollary",
            "truncated negative binomial repetition of an eps-DP mechanism is (2 + eta) eps-DP",
            claims=("ghazi2025.papernot_steinke.cor3",),
            status="special case",
            reason=PINNED,
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
