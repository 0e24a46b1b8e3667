"""Liu & Talwar 2019: every numbered statement and the claims that check it
(``verifier casestudies --coverage``; see :mod:`verifier.claims.coverage`)."""

from __future__ import annotations

from casestudies import REGISTRY
from verifier.claims import PaperCoverage, Statement

__all__ = ["COVERAGE"]

S = Statement

#: The claims of these statements decide them on the instances each claim lists
#: (its ``instances``), with the parameters those instances pin.
PINNED = "decided on the instances each claim lists, with the parameters they pin"

THM31_STEPS = tuple(
    f"liu_talwar2019.thm31.step.{x}"
    for x in (
        "a_closed_form",
        "b_ratio",
        "b_choice_of_T",
        "b_eps0",
        "bottom_closed_form",
        "bottom_ratio",
        "amgm",
        "bottom_choice_of_T",
        "c_event_bounds",
        "c_differences",
        "c_lower_eps0",
        "d_geometric",
        "e_bottom",
    )
)

THM31 = (
    "liu_talwar2019.thm31.a_proportional",
    "liu_talwar2019.thm31.b_pure",
    "liu_talwar2019.thm31.b_passing_two_eps1",
    "liu_talwar2019.thm31.c_approx",
    "liu_talwar2019.thm31.d_iterations",
    "liu_talwar2019.thm31.e_bottom",
)
CONTINUOUS = (
    "continuous Laplace noise on the log-odds and, in Theorems 4.4/4.6, percentiles estimated from "
    "N samples with N polynomial in 1/beta; the finite facts the proofs use are checked exactly: the "
    "2 eps1-Lipschitz log-odds, the Laplace tails and the coupling's density ratio, the concentration "
    "Lemma 4.3, and the standard sparse-vector analysis the proof invokes (on exact sparse-vector "
    "programs, lyu2017.alg1)"
)

COVERAGE = PaperCoverage.of(
    "liu_talwar2019",
    'Liu & Talwar 2019, "Private Selection from Private Candidates"',
    [
        S(
            "Definition 1.1",
            "definition",
            "(eps, delta)-differential privacy (and the max-divergence of §2)",
            claims=("liu_talwar2019.def11.max_divergence",),
            status="special case",
            reason=PINNED,
        ),
        S(
            "Theorem 1.2",
            "theorem",
            "known threshold: 2 eps1-DP, q >= tau, E[calls] <= 2K (Theorem 3.1 with gamma = 0)",
            claims=("liu_talwar2019.thm12.known_threshold", "liu_talwar2019.thm31.b_pure"),
            status="special case",
            reason=PINNED,
        ),
        S(
            "Theorem 1.3",
            "theorem",
            "random stopping: 3 eps1-DP, E[calls] <= 1/gamma, the best sample seen (Theorems 3.2, 3.3)",
            claims=(
                "liu_talwar2019.thm13.random_stopping_calls",
                "liu_talwar2019.thm32",
                "liu_talwar2019.thm32.box",
                "liu_talwar2019.thm32.step.closed_form",
            ),
            status="special case",
            reason=PINNED,
        ),
        S(
            "Theorem 1.4",
            "theorem",
            "unknown threshold: (2 eps1 + eps0, delta)-DP selection, utility, calls (Theorem 4.7)",
            claims=(
                *THM31,
                "liu_talwar2019.thm41.laplace_tails",
                "liu_talwar2019.lemma43.binomials",
            ),
            reason="the summary of Theorem 4.7: " + CONTINUOUS + "; the call bound is an O(.)",
            status="ingredients only",
        ),
        S(
            "Theorem 1.5",
            "theorem",
            "sparse vector for private queries (Theorems 4.1, 4.4)",
            claims=(
                "liu_talwar2019.thm41.log_odds_lipschitz",
                "liu_talwar2019.thm41.laplace_tails",
                "lyu2017.alg1",
            ),
            reason="the summary of Theorems 4.1 and 4.4: " + CONTINUOUS,
            status="ingredients only",
        ),
        S(
            "Theorem 3.1",
            "theorem",
            "thresholding: proportional output, (2 eps1 + eps0)-DP, approximate DP, iterations, Pr[bot]",
            claims=(*THM31, *THM31_STEPS),
            status="special case",
            reason=PINNED,
        ),
        S(
            "Theorem 3.2",
            "theorem",
            "random stopping on an eps1-DP Q is 3 eps1-DP",
            claims=(
                "liu_talwar2019.thm32",
                "liu_talwar2019.thm32.two_eps",
                "liu_talwar2019.thm32.two_eps.box",
                "liu_talwar2019.thm32.step.conditionals",
                "liu_talwar2019.thm32.step.closed_form",
                "liu_talwar2019.thm32.step.ratio",
            ),
            status="special case",
            reason=PINNED,
        ),
        S(
            "Theorem 3.3",
            "theorem",
            "random stopping scores >= Q^(p)(D) except with probability gamma/p",
            claims=("liu_talwar2019.thm33.utility",),
            status="special case",
            reason=PINNED,
        ),
        S(
            "Theorem 3.4",
            "theorem",
            "hard stopping on (eps1, delta1)-DP Q is (3 eps1 + 3 sqrt(2 delta1), sqrt(2 delta1) T + delta2)-DP",
            claims=("liu_talwar2019.thm34.approx", "liu_talwar2019.thm34.delta_matters"),
            status="special case",
            reason=PINNED,
        ),
        S(
            "Theorem 3.5",
            "theorem",
            "hard stopping at the prescribed T is (3 eps1 + 3 eps0)-DP",
            claims=("liu_talwar2019.thm35.hard_stopping",),
            status="special case",
            reason=PINNED,
        ),
        S(
            "Theorem 4.1",
            "theorem",
            "sparse vector with an exact percentile oracle: eps3-DP, stops neither too early nor too late",
            claims=(
                "liu_talwar2019.thm41.log_odds_lipschitz",
                "liu_talwar2019.thm41.laplace_tails",
                "lyu2017.alg1",
            ),
            reason=CONTINUOUS,
            status="ingredients only",
        ),
        S(
            "Corollary 4.2",
            "corollary",
            "Theorem 4.1 at p* = 1/2",
            claims=("liu_talwar2019.cor42.p_half",),
            reason="its part (a) is Theorem 4.1 (a) (continuous Laplace noise); parts (b)-(d) are the "
            "conversions Phi(p) <= x iff p <= x/(1+x), checked exactly",
            status="ingredients only",
        ),
        S(
            "Lemma 4.3",
            "lemma",
            "sums of independent Bernoullis: X >= e^(eps1+eps0) Y + C ln(2/delta0)/eps0 w.p. <= delta0",
            claims=("liu_talwar2019.lemma43.binomials", "liu_talwar2019.lemma43.constant"),
            status="special case",
            reason=PINNED,
        ),
        S(
            "Theorem 4.4",
            "theorem",
            "sparse vector with sampled percentile estimates: (eps3, delta)-DP and utility",
            claims=(
                "liu_talwar2019.lemma43.binomials",
                "liu_talwar2019.lemma43.constant",
                "liu_talwar2019.thm41.laplace_tails",
                "liu_talwar2019.lemma45.coupling",
            ),
            reason=CONTINUOUS,
            status="ingredients only",
        ),
        S(
            "Lemma 4.5",
            "lemma",
            "a coupling with Pr[G] >= 1 - delta and conditional eps-closeness gives (eps, delta)",
            claims=("liu_talwar2019.lemma45.coupling",),
            status="special case",
            reason=PINNED,
        ),
        S(
            "Theorem 4.6",
            "theorem",
            "one-sided sparse vector for a percentile threshold",
            claims=(
                "liu_talwar2019.lemma43.binomials",
                "liu_talwar2019.thm41.laplace_tails",
                "liu_talwar2019.lemma45.coupling",
            ),
            reason=CONTINUOUS,
            status="ingredients only",
        ),
        S(
            "Theorem 4.7",
            "theorem",
            "selection with unknown threshold (Theorems 4.6 + 3.1)",
            claims=(
                *THM31,
                "liu_talwar2019.thm41.laplace_tails",
                "liu_talwar2019.lemma43.binomials",
            ),
            reason="composes Theorem 4.6 ("
            + CONTINUOUS
            + ") with Theorem 3.1 (checked); the call bounds "
            "are O(.)",
            status="ingredients only",
        ),
        S(
            "Lemma 5.1",
            "lemma",
            "the validation-scored candidate Q is eps2-DP in D2 and eps1-DP in D1",
            claims=("liu_talwar2019.lemma51.validation_scores",),
            status="special case",
            reason=PINNED,
        ),
        S(
            "Theorem 5.2",
            "theorem",
            "generalisations of the exponential mechanism (four parts)",
            claims=(
                "liu_talwar2019.thm52.laplace_candidates",
                "liu_talwar2019.thm32",
                "liu_talwar2019.thm34.approx",
                "liu_talwar2019.thm52.truncated_laplace",
                "liu_talwar2019.thm52.truncated_laplace_region",
            ),
            reason="the utility bounds are O(.) in K/beta, and the fourth part uses smooth sensitivity; "
            "the privacy of each part (Laplace candidates, Theorems 3.2 and 3.4, the truncated Laplace "
            "mechanism of the third part) is checked exactly",
            status="ingredients only",
        ),
        S(
            "Theorem A.1",
            "theorem",
            "Theorem 3.1 restated and proved (App. A.1)",
            claims=(*THM31, *THM31_STEPS),
            status="special case",
            reason=PINNED,
        ),
        S(
            "Theorem A.2",
            "theorem",
            "Theorem 3.5 restated and proved (App. A.2)",
            claims=("liu_talwar2019.thm35.hard_stopping",),
            status="special case",
            reason=PINNED,
        ),
        S(
            "Lemma A.3",
            "lemma",
            "Lemma 4.3 restated and proved (App. A.3)",
            claims=("liu_talwar2019.lemma43.binomials", "liu_talwar2019.lemma43.constant"),
            status="special case",
            reason=PINNED,
        ),
        S(
            "Lemma A.4",
            "lemma",
            "Chernoff: X >= e^eps E X + (e^eps + 1) ln(1/delta)/eps w.p. <= delta",
            claims=("liu_talwar2019.lemmaA4.upper_tail",),
            status="special case",
            reason=PINNED,
        ),
        S(
            "Lemma A.5",
            "lemma",
            "Chernoff: Y <= e^-eps E Y - ln(1/delta)/eps w.p. <= delta",
            claims=("liu_talwar2019.lemmaA5.lower_tail",),
            status="special case",
            reason=PINNED,
        ),
        S(
            "App. B.1",
            "example",
            "outputting the best of K eps-DP candidates is only K eps-DP, and not better than (Theta(ln 1/delta) eps, delta)",
            claims=(
                "liu_talwar2019.B1.printed_candidates_dp",
                "liu_talwar2019.B1.printed_candidates_all_eps",
                "liu_talwar2019.B1.rr_candidates_dp",
                "liu_talwar2019.B1.best_of_k_eps",
                "liu_talwar2019.B1.best_of_k_Keps",
                "liu_talwar2019.B1.best_of_k_max.box",
                "liu_talwar2019.B1.best_of_k.box",
                "liu_talwar2019.B1.best_of_k_Keps_all_eps",
                "liu_talwar2019.B1.best_of_k_eps_all_eps",
                "liu_talwar2019.B1.delta.candidates_dp",
                "liu_talwar2019.B1.delta.half_ln",
                "liu_talwar2019.B1.delta.full_ln",
                "liu_talwar2019.B1.step.probabilities",
                "liu_talwar2019.B1.step.delta_example",
            ),
            status="special case",
            reason=PINNED,
        ),
        S(
            "App. B.2",
            "example",
            "decreasing thresholds amplify the privacy loss R times",
            claims=(
                "liu_talwar2019.B2.closed_form",
                "liu_talwar2019.B2.amplified",
                "liu_talwar2019.B2.three_eps",
            ),
            status="special case",
            reason=PINNED,
        ),
        S(
            "App. B.3",
            "example",
            "releasing the median (or a percentile) is not private",
            claims=(
                "liu_talwar2019.B3.candidates_dp",
                "liu_talwar2019.B3.median_release",
                "liu_talwar2019.B3.median_of_samples",
            ),
            status="special case",
            reason=PINNED,
        ),
        S(
            "Theorem C.1",
            "theorem",
            "exponential mechanism with dummy classes: utility and (2 eps1 + 8 gamma)-DP",
            claims=("liu_talwar2019.thmC1.dummy_classes",),
            status="special case",
            reason=PINNED,
        ),
        S(
            "Lemma C.2",
            "lemma",
            "1/(1 + sum E X_i) <= E[1/(1 + sum X_i)] <= 1/sum E X_i",
            claims=(
                "liu_talwar2019.lemmaC2.negative_moment",
                "liu_talwar2019.lemmaC2.step.last_line",
                "liu_talwar2019.lemmaC2.step.last_line_as_printed",
            ),
            status="special case",
            reason=PINNED,
        ),
        S(
            "Definition D.1",
            "definition",
            "gamma-dominant index, gamma-weakly useful selector",
            claims=("liu_talwar2019.D2.instance",),
            status="special case",
            reason=PINNED,
        ),
        S(
            "Theorem D.2",
            "theorem",
            "a K^-alpha-weakly useful selector is not eps_hat-DP for eps_hat < (2 - 6 alpha) eps",
            claims=(
                "liu_talwar2019.D2.instance",
                "liu_talwar2019.D2.packing_bound",
                "liu_talwar2019.D2.factor_two",
                "liu_talwar2019.D2.factor_two_exhibited",
            ),
            status="special case",
            reason=PINNED,
        ),
        S(
            "Definition E.1",
            "definition",
            "(eps, delta)-far and the equivalence P ==_(eps, delta) Q",
            claims=("liu_talwar2019.defE1.far_is_hockey_stick",),
            status="special case",
            reason=PINNED,
        ),
        S(
            "Lemma E.2",
            "lemma",
            "(eps, delta)-closeness gives an event B of small mass off which P, Q are eps'-close",
            claims=("liu_talwar2019.lemmaE2.as_stated", "liu_talwar2019.lemmaE2.sqrt_case"),
            status="special case",
            reason=PINNED,
        ),
        S(
            "Lemma E.3",
            "lemma",
            "eps-closeness off an event of mass <= delta gives (eps, delta)-closeness",
            claims=(
                "liu_talwar2019.lemmaE3.as_printed",
                "liu_talwar2019.lemmaE3.with_small_Q_mass",
            ),
            status="special case",
            reason=PINNED,
        ),
    ],
)

REGISTRY.add_coverage(COVERAGE)
