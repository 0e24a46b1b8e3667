"""Hartmann et al. 2022: every numbered statement and the claims that check it
(``verifier casestudies --coverage``; see :mod:`verifier.claims.coverage`)."""

from __future__ import annotations

from casestudies import REGISTRY
from verifier.claims import PaperCoverage, Statement

__all__ = ["COVERAGE"]

S = Statement

#: The claims of these statements decide them on the instances each claim lists
#: (its ``instances``), with the parameters those instances pin.
PINNED = "decided on the instances each claim lists, with the parameters they pin"

_THM7 = (
    "hartmann2022.theorem7.step.slice_bound",
    "hartmann2022.theorem7.step.odp_sum",
    "hartmann2022.theorem7.step.continuations",
    "hartmann2022.theorem7.svt_then_rr",
    "hartmann2022.theorem7.box",
    "hartmann2022.theorem7.ptr_then_rr",
    "hartmann2022.theorem7.toy_repeated",
    "hartmann2022.theorem7.adaptive_random",
    "hartmann2022.theorem7.cell_charge_same_adversary",
    "hartmann2022.theorem7.output_dependent_charge_delta0",
    "hartmann2022.theorem7.output_dependent_charge",
)

ITERATIVE = ("hartmann2022.lemma11.iterative", "hartmann2022.lemma14.post_processing")
ML = (
    "logistic regression in R^d with the noise of Chaudhuri et al.'s output perturbation; the "
    "guarantee depends on the data's norms, the dimension and the split between training and test "
    "data, and no exact finite instance reproduces the continuous mechanism"
)

COVERAGE = PaperCoverage.of(
    "hartmann2022",
    'Hartmann, Bindschaedler, Bentkamp, West 2022, "Privacy accounting εconomics: Improving '
    'differential privacy composition via a posteriori bounds"',
    [
        S(
            "Definition 1",
            "definition",
            "(eps, delta)-differential privacy",
            claims=("hartmann2022.lemma3",),
            status="special case",
            reason=PINNED,
        ),
        S(
            "Definition 2",
            "definition",
            "(P, e, delta)-output differential privacy",
            claims=(
                "hartmann2022.ex_post_is_singleton_odp",
                "hartmann2022.def2.readings_differ",
                "hartmann2022.lemma4.per_cell_reading",
            ),
            status="special case",
            reason=PINNED,
        ),
        S(
            "Lemma 3",
            "lemma",
            "(eps, delta)-DP => (P, e = eps, delta)-ODP for every partition",
            claims=("hartmann2022.lemma3",),
            status="special case",
            reason=PINNED,
        ),
        S(
            "Lemma 4",
            "lemma",
            "(P, e, delta)-ODP => (max_j e(j), delta)-DP",
            claims=("hartmann2022.lemma4", "hartmann2022.lemma4.per_cell_reading"),
            status="special case",
            reason=PINNED,
        ),
        S(
            "Definition 5",
            "definition",
            "(S, e, delta)-subset differential privacy",
            claims=("hartmann2022.lemma6",),
            status="special case",
            reason=PINNED,
        ),
        S(
            "Lemma 6",
            "lemma",
            "subset DP in every cell => (P, e, sum_j delta(j))-ODP",
            claims=("hartmann2022.lemma6",),
            status="special case",
            reason=PINNED,
        ),
        S(
            "Algorithm 1",
            "algorithm",
            "the ODP composition experiment",
            claims=_THM7,
            status="special case",
            reason=PINNED,
        ),
        S(
            "Theorem 7",
            "theorem",
            "the views of Algorithm 1 are (eps_g, delta_g)-indistinguishable",
            claims=_THM7,
            status="special case",
            reason=PINNED,
        ),
        S(
            "Algorithm 2",
            "algorithm",
            "the sparse vector technique (Lyu et al. Alg. 1) with STOP",
            claims=("hartmann2022.lemma8.svt",),
            status="special case",
            reason=PINNED,
        ),
        S(
            "Lemma 8",
            "lemma",
            "SVT is ODP with cells 'l tops' and e(l) = eps1 + l eps2/c",
            claims=(
                "hartmann2022.lemma8.svt",
                "hartmann2022.lemma8.budget_saving",
                "hartmann2022.lemma8.without_threshold_cost",
            ),
            status="special case",
            reason=PINNED,
        ),
        S(
            "Figure 1",
            "figure",
            "noise added to the released entries with and without ODP (SVT)",
            claims=("hartmann2022.lemma8.budget_saving",),
            reason="the figure plots a Chebyshev upper bound on the expected Laplace noise for a "
            "200-entry vector; its finite consequence, SVT's expected ODP charge below the DP charge "
            "with the per-entry budget it leaves, is checked on the worked instance",
            status="ingredients only",
        ),
        S(
            "Definition 9",
            "definition",
            "(eps, delta)-PTR function",
            claims=("hartmann2022.ptr.function",),
            status="special case",
            reason=PINNED,
        ),
        S(
            "Lemma 10",
            "lemma",
            "the Dwork-Lei cascade of two PTR functions is ({bot}: 2 eps, R: 3 eps, delta)-ODP",
            claims=(
                "hartmann2022.ptr.function",
                "hartmann2022.lemma10.ptr",
                "hartmann2022.lemma10.single_test_for_bottom",
            ),
            status="special case",
            reason=PINNED,
        ),
        S(
            "Algorithm 3",
            "algorithm",
            "an iterative mechanism with stopping points",
            claims=ITERATIVE,
            status="special case",
            reason=PINNED,
        ),
        S(
            "Lemma 11",
            "lemma",
            "ODP of an iterative mechanism from any DP composition theorem",
            claims=("hartmann2022.lemma11.iterative",),
            status="special case",
            reason=PINNED,
        ),
        S(
            "Lemma 12",
            "lemma",
            "(Kairouz et al.) every (eps, delta)-DP pair is a post-processing of randomized response",
            claims=("hartmann2022.lemma12.rr_post_processing",),
            status="special case",
            reason=PINNED,
        ),
        S(
            "Lemma 13",
            "lemma",
            "the optimal ODP delta is attained by iterated randomized response",
            claims=(
                "hartmann2022.theorem15.step.rr_is_worst",
                "hartmann2022.lemma12.rr_post_processing",
            ),
            status="special case",
            reason=PINNED,
        ),
        S(
            "Lemma 14",
            "lemma",
            "post-processing of an iterative mechanism keeps its ODP guarantee",
            claims=("hartmann2022.lemma14.post_processing",),
            status="special case",
            reason=PINNED,
        ),
        S(
            "Theorem 15",
            "theorem",
            "the optimal ODP delta of iterative mechanisms, Eq. (3)",
            claims=(
                "hartmann2022.theorem15.step.deterministic_criteria",
                "hartmann2022.theorem15.step.rr_is_worst",
            ),
            reason="Eq. (3) is a maximum over sets of output sequences of iterated randomized "
            "response; it is checked through the two reductions of its proof on two-step "
            "iterations (deterministic stopping criteria suffice; randomized response is the "
            "worst case)",
            status="ingredients only",
        ),
        S(
            "Algorithm 4",
            "algorithm",
            "output perturbation for regularized ERM (Chaudhuri et al.)",
            claims=("hartmann2022.theorem16.erm_sensitivity",),
            reason="in R^d with noise density ∝ e^(-beta |b|); checked in one dimension, where it is "
            "Laplace noise",
            status="ingredients only",
        ),
        S(
            "Theorem 16",
            "theorem",
            "(Chaudhuri et al.) sensitivity 2/(n Lambda) of the ERM minimiser; Alg. 4 is eps-DP",
            claims=("hartmann2022.theorem16.erm_sensitivity",),
            reason="stated for differentiable convex losses in R^d; checked for L2-regularised logistic "
            "regression in one dimension with certified enclosures of the minimisers",
            status="ingredients only",
        ),
        S(
            "Algorithm 5",
            "algorithm",
            "release a private model only if its noisy test error is below a threshold",
            reason=ML,
        ),
        S("Theorem 17", "theorem", "the ODP guarantee of Algorithm 5", reason=ML),
        S(
            "Corollary 18",
            "corollary",
            "Theorem 17 with the budget split chosen to save on bot",
            reason=ML,
        ),
        S(
            "Figure 2",
            "figure",
            "percentiles of the noise added to the test error",
            claims=("hartmann2022.figure2.noise_percentile",),
            reason="the figure plots the 95th percentile of the test noise for several eps and data "
            "set sizes; the percentile's closed form b ln 10 is checked",
            status="ingredients only",
        ),
        S(
            "Table 1",
            "table",
            "composition lengths from which advanced composition beats simple composition",
            reason="numeric thresholds of Kairouz et al.'s optimal advanced composition for long "
            "compositions (up to thousands of mechanisms), not a statement about a finite mechanism",
        ),
        S(
            "Algorithm 6",
            "algorithm",
            "the composition experiment with an ODP filter",
            claims=_THM7,
            reason="the one filter the paper exhibits is Algorithm 1's budget rule, whose validity is "
            "Theorem 7 (checked); other filters are left open by the paper",
            status="ingredients only",
        ),
        S(
            "Definition 19",
            "definition",
            "valid ODP filter",
            claims=_THM7,
            reason="as for Algorithm 6: Algorithm 1's filter is valid by Theorem 7",
            status="ingredients only",
        ),
        S(
            "Lemma 20",
            "lemma",
            "one step of the composition: an ODP mechanism followed by close continuations",
            claims=(
                "hartmann2022.theorem7.step.slice_bound",
                "hartmann2022.theorem7.step.odp_sum",
                "hartmann2022.theorem7.step.continuations",
            ),
            status="special case",
            reason=PINNED,
        ),
        S(
            "Lemma 21",
            "lemma",
            "the noisy test error is DP in the training and in the test set",
            claims=("hartmann2022.lemma21.test_set", "hartmann2022.theorem16.erm_sensitivity"),
            reason="part (1) involves Algorithm 4's noise in R^d ("
            + ML
            + "); part (2), the test set, "
            "is checked exactly with Laplace noise, and the sensitivity part (1) uses (Theorem 16) in "
            "one dimension",
            status="ingredients only",
        ),
    ],
)

REGISTRY.add_coverage(COVERAGE)
