"""Liu & Talwar 2019: every numbered statement and the claims that check it
(``verifier casestudies --coverage``; see :mod:`verifier.claims.coverage`)."""

from __future__ import annotations

from casestudies import REGISTRY
from verifier.claims import PaperCoverage, Statement

__all__ = ["COVERAGE"]

S = Statement
TODO = "not yet checked"

COVERAGE = PaperCoverage.of(
    "liu_talwar2019",
    'Liu & Talwar 2019, "Private Selection from Private Candidates"',
    [
        S("Definition 1.1", "definition", "(eps, delta)-differential privacy", reason=TODO),
        S(
            "Theorem 1.2",
            "theorem",
            "known threshold: 2 eps1-DP, q >= tau, E[calls] <= 2K",
            reason=TODO,
        ),
        S(
            "Theorem 1.3",
            "theorem",
            "random stopping: 3 eps1-DP, E[calls] <= 1/gamma, best seen",
            reason=TODO,
        ),
        S(
            "Theorem 1.4",
            "theorem",
            "unknown threshold: (2 eps1 + eps0, delta)-DP selection",
            reason=TODO,
        ),
        S("Theorem 1.5", "theorem", "sparse vector for private queries", reason=TODO),
        S(
            "Theorem 3.1",
            "theorem",
            "thresholding: proportional output, (2 eps1 + eps0)-DP, approximate DP, iterations, Pr[bot]",
            claims=(
                "liu_talwar2019.thm31.a_proportional",
                "liu_talwar2019.thm31.b_pure",
                "liu_talwar2019.thm31.c_approx",
                "liu_talwar2019.thm31.d_iterations",
                "liu_talwar2019.thm31.e_bottom",
            ),
        ),
        S(
            "Theorem 3.2",
            "theorem",
            "random stopping on an eps1-DP Q is 3 eps1-DP",
            claims=("liu_talwar2019.thm32", "liu_talwar2019.thm32.two_eps"),
        ),
        S(
            "Theorem 3.3",
            "theorem",
            "random stopping scores >= Q^(p)(D) except with probability gamma/p",
            claims=("liu_talwar2019.thm33.utility",),
        ),
        S(
            "Theorem 3.4",
            "theorem",
            "hard stopping on (eps1, delta1)-DP Q is (3 eps1 + 3 sqrt(2 delta1), sqrt(2 delta1) T + delta2)-DP",
            claims=("liu_talwar2019.thm34.approx",),
        ),
        S(
            "Theorem 3.5",
            "theorem",
            "hard stopping at the prescribed T is (3 eps1 + 3 eps0)-DP",
            claims=("liu_talwar2019.thm35.hard_stopping",),
        ),
        S("Theorem 4.1", "theorem", "sparse vector with an exact percentile oracle", reason=TODO),
        S("Corollary 4.2", "corollary", "Theorem 4.1 at p* = 1/2", reason=TODO),
        S(
            "Lemma 4.3",
            "lemma",
            "sums of independent Bernoullis: X >= e^(eps1+eps0) Y + C ln(2/delta0)/eps0 w.p. <= delta0",
            reason=TODO,
        ),
        S("Theorem 4.4", "theorem", "sparse vector with sampled percentile estimates", reason=TODO),
        S(
            "Lemma 4.5",
            "lemma",
            "a coupling with Pr[G] >= 1 - delta and conditional eps-closeness gives (eps, delta)",
            reason=TODO,
        ),
        S(
            "Theorem 4.6",
            "theorem",
            "one-sided sparse vector for a percentile threshold",
            reason=TODO,
        ),
        S(
            "Theorem 4.7",
            "theorem",
            "selection with unknown threshold (Theorems 4.6 + 3.1)",
            reason=TODO,
        ),
        S(
            "Lemma 5.1",
            "lemma",
            "the validation-scored candidate Q is eps2-DP in D2 and eps1-DP in D1",
            reason=TODO,
        ),
        S("Theorem 5.2", "theorem", "generalisations of the exponential mechanism", reason=TODO),
        S("Theorem A.1", "theorem", "Theorem 3.1 restated and proved (App. A.1)", reason=TODO),
        S("Theorem A.2", "theorem", "Theorem 3.5 restated and proved (App. A.2)", reason=TODO),
        S("Lemma A.3", "lemma", "Lemma 4.3 restated and proved (App. A.3)", reason=TODO),
        S(
            "Lemma A.4",
            "lemma",
            "Chernoff: X >= e^eps E X + (e^eps + 1) ln(1/delta)/eps w.p. <= delta",
            reason=TODO,
        ),
        S(
            "Lemma A.5",
            "lemma",
            "Chernoff: Y <= e^-eps E Y - ln(1/delta)/eps w.p. <= delta",
            reason=TODO,
        ),
        S(
            "App. B.1",
            "example",
            "outputting the best of K eps-DP candidates is only K eps-DP, and not better than (Theta(ln 1/delta) eps, delta)",
            claims=(
                "liu_talwar2019.B1.printed_candidates_dp",
                "liu_talwar2019.B1.best_of_k_eps",
                "liu_talwar2019.B1.best_of_k_Keps",
                "liu_talwar2019.B1.best_of_k_Keps_all_eps",
                "liu_talwar2019.B1.best_of_k_eps_all_eps",
                "liu_talwar2019.B1.delta.candidates_dp",
                "liu_talwar2019.B1.delta.half_ln",
                "liu_talwar2019.B1.delta.full_ln",
            ),
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
        ),
        S(
            "Theorem C.1",
            "theorem",
            "exponential mechanism with dummy classes: utility and (2 eps1 + 8 gamma)-DP",
            reason=TODO,
        ),
        S(
            "Lemma C.2",
            "lemma",
            "1/(1 + sum E X_i) <= E[1/(1 + sum X_i)] <= 1/sum E X_i",
            reason=TODO,
        ),
        S(
            "Definition D.1",
            "definition",
            "gamma-dominant index, gamma-weakly useful selector",
            claims=("liu_talwar2019.D2.instance",),
        ),
        S(
            "Theorem D.2",
            "theorem",
            "a K^-alpha-weakly useful selector is not eps_hat-DP for eps_hat < (2 - 6 alpha) eps",
            claims=(
                "liu_talwar2019.D2.instance",
                "liu_talwar2019.D2.packing_bound",
                "liu_talwar2019.D2.factor_two",
            ),
        ),
        S(
            "Definition E.1",
            "definition",
            "(eps, delta)-far and the equivalence P ==_(eps, delta) Q",
            reason=TODO,
        ),
        S(
            "Lemma E.2",
            "lemma",
            "(eps, delta)-closeness gives an event B of small mass off which P, Q are eps'-close",
            reason=TODO,
        ),
        S(
            "Lemma E.3",
            "lemma",
            "eps-closeness off an event of mass <= delta gives (eps, delta)-closeness",
            reason=TODO,
        ),
    ],
)

REGISTRY.add_coverage(COVERAGE)
