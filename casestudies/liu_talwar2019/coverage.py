"""Liu & Talwar 2019: every numbered statement and the claims that check it
(``verifier casestudies --coverage``; see :mod:`verifier.claims.coverage`)."""

from __future__ import annotations

from casestudies import REGISTRY
from verifier.claims import PaperCoverage, Statement

__all__ = ["COVERAGE"]

S = Statement


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
COVERAGE = PaperCoverage.of(
    "liu_talwar2019",
    'Liu & Talwar 2019, "Private Selection from Private Candidates"',
    [
        S(
            "Definition 1.1",
            "definition",
            "(eps, delta)-differential privacy (and the max-divergence of §2)",
            claims=("liu_talwar2019.def11.max_divergence",),
            status="whole",
            reason="every event against the hockey-stick sum, searched over pairs of distributions",
        ),
        S(
            "Theorem 1.2",
            "theorem",
            "known threshold: 2 eps1-DP, q >= tau, E[calls] <= 2K (Theorem 3.1 with gamma = 0)",
            claims=("liu_talwar2019.thm12.known_threshold", "liu_talwar2019.thm31.b_pure"),
            status="whole",
            reason="thresholding with gamma = 0, T = oo run on uniform selections (all three parts) and "
            "searched over eps-DP base mechanisms (part (a))",
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
            status="whole",
            reason="(a) searched and over a box, (b) an identity in gamma, (c) the algorithm's closed "
            "form (the best of the draws) as an identity",
        ),
        S(
            "Theorem 1.4",
            "theorem",
            "unknown threshold: (2 eps1 + eps0, delta)-DP selection, utility, calls (Theorem 4.7)",
            claims=(
                *THM31,
                "liu_talwar2019.thm46.a_private",
                "liu_talwar2019.thm46.bc_utility",
            ),
            status="ingredients only",
            reason="the summary of Theorem 4.7, whose algorithm (Theorem 4.6's threshold search feeding "
            "Theorem 3.1's thresholding) is not run: its two parts are, each on its own instances; the call "
            "bounds are O(.)",
        ),
        S(
            "Theorem 1.5",
            "theorem",
            "sparse vector for private queries (Theorems 4.1, 4.4)",
            claims=(
                "liu_talwar2019.thm41.a_private",
                "liu_talwar2019.thm41.b_conditional",
                "liu_talwar2019.thm41.b_joint",
                "liu_talwar2019.thm41.d_joint",
                "liu_talwar2019.thm44.a_private",
                "liu_talwar2019.thm44.bcd_as_printed",
                "liu_talwar2019.thm44.bcd_joint",
            ),
            status="finding",
            reason="the summary of Theorems 4.1 and 4.4, both run: privacy holds; (b) 'if M outputs i, then "
            "except with probability beta ...' is false read conditionally (the percentile of the output query "
            "is a number) and holds as a joint probability; (a) 'outputs i with probability 1 - beta' is the "
            "joint (d) (halting by a query far above the threshold), which holds",
        ),
        S(
            "Theorem 3.1",
            "theorem",
            "thresholding: proportional output, (2 eps1 + eps0)-DP, approximate DP, iterations, Pr[bot]",
            claims=(*THM31, *THM31_STEPS),
            status="whole",
            reason="(a) identities on a base mechanism with symbolic probabilities; (b), (c), (e) "
            "searched over eps-DP and (eps, delta)-DP base mechanisms (and gamma, eps0, the least T); "
            "(d) over a box; every displayed step over a range or box",
        ),
        S(
            "Theorem 3.2",
            "theorem",
            "random stopping on an eps1-DP Q is 3 eps1-DP",
            claims=(
                "liu_talwar2019.thm32",
                "liu_talwar2019.thm32.box",
                "liu_talwar2019.thm32.two_eps",
                "liu_talwar2019.thm32.two_eps.box",
                "liu_talwar2019.thm32.step.conditionals",
                "liu_talwar2019.thm32.step.closed_form",
                "liu_talwar2019.thm32.step.ratio",
            ),
            status="whole",
            reason="searched over eps-DP base mechanisms and gamma, decided over a box of (eps, gamma) "
            "on a three-candidate family; approached (x/h -> 0, gamma -> 0)",
        ),
        S(
            "Theorem 3.3",
            "theorem",
            "random stopping scores >= Q^(p)(D) except with probability gamma/p",
            claims=("liu_talwar2019.thm33.utility",),
            status="whole",
            reason="the algorithm's failure probability depends on Q only through x = Pr[Q(D) < "
            "Q^(p)(D)] < 1 - p: decided over a box of (x/(1-p), p, gamma)",
        ),
        S(
            "Theorem 3.4",
            "theorem",
            "hard stopping on (eps1, delta1)-DP Q is (3 eps1 + 3 sqrt(2 delta1), sqrt(2 delta1) T + delta2)-DP",
            claims=(
                "liu_talwar2019.thm34.approx",
                "liu_talwar2019.thm34.delta_matters",
                "liu_talwar2019.thm34.corrected",
                "liu_talwar2019.lemmaE2.sqrt_case",
                "liu_talwar2019.lemmaE2.corrected",
                "liu_talwar2019.lemmaE3.as_printed",
                "liu_talwar2019.lemmaE3.with_small_Q_mass",
            ),
            status="whole",
            reason="the conclusion holds on its instances and on the searched (eps1, delta1)-DP base "
            "mechanisms; its proof does not: the sqrt case of Lemma E.2 and Lemma E.3 fail as printed "
            "(findings); the corrected lemmas give (3 eps'', (1 + e^(3 eps''))(m T + delta2))-DP "
            "(liu_talwar2019.thm34.corrected)",
        ),
        S(
            "Theorem 3.5",
            "theorem",
            "hard stopping at the prescribed T is (3 eps1 + 3 eps0)-DP",
            claims=("liu_talwar2019.thm35.hard_stopping",),
            status="whole",
            reason="searched over eps-DP base mechanisms, gamma and eps0 with the prescribed T",
        ),
        S(
            "Theorem 4.1",
            "theorem",
            "sparse vector with an exact percentile oracle: eps3-DP, stops neither too early nor too late",
            claims=(
                "liu_talwar2019.thm41.a_private",
                "liu_talwar2019.thm41.a_ramp",
                "liu_talwar2019.thm41.b_conditional",
                "liu_talwar2019.thm41.b_joint",
                "liu_talwar2019.thm41.c_conditional",
                "liu_talwar2019.thm41.c_joint",
                "liu_talwar2019.thm41.d_as_printed",
                "liu_talwar2019.thm41.d_conditional",
                "liu_talwar2019.thm41.d_joint",
                "liu_talwar2019.thm41.log_odds_lipschitz",
                "liu_talwar2019.thm41.laplace_tails",
            ),
            status="finding",
            reason="gensparse0 run exactly (lattice log-odds, every eps1, ranges of eps3): (a) holds (approached: "
            "ramps, 0.9956 eps3); (b)-(d) as printed are false: conditional on stopping at R the events are determined by the instance (probability 0 or 1), and (d) prints ⊤ where ⊥ is meant; conditioning on earlier ⊥ answers tilts the threshold noise upwards, so even Pr[⊥ | ⊥⊥] exceeds beta (0.246 at beta = 1/10); as joint probabilities — what the union-bound proofs give — (b)-(d) hold",
        ),
        S(
            "Corollary 4.2",
            "corollary",
            "Theorem 4.1 at p* = 1/2",
            claims=(
                "liu_talwar2019.cor42.a_private",
                "liu_talwar2019.cor42.bcd_as_printed",
                "liu_talwar2019.cor42.bcd_joint",
                "liu_talwar2019.cor42.p_half",
            ),
            status="finding",
            reason="gensparse0 run at p* = 1/2: (a) holds over a range of eps3; (b)-(d) in the p-form are "
            "Theorem 4.1's events (proved conversions) and fail and hold as there",
        ),
        S(
            "Lemma 4.3",
            "lemma",
            "sums of independent Bernoullis: X >= e^(eps1+eps0) Y + C ln(2/delta0)/eps0 w.p. <= delta0",
            claims=(
                "liu_talwar2019.lemma43.binomials",
                "liu_talwar2019.lemma43.poisson_binomial",
                "liu_talwar2019.lemma43.constant",
            ),
            status="special case",
            reason="e^eps1 = 5/4, e^eps0 = 9/4, 2/delta0 = (9/4)^m pinned (every threshold rational); the "
            "binomial family Bin(12, .) is decided for every p' on the worst-case boundary p = min(1, e^eps1 p'), "
            "Poisson-binomial sums on three instances; C < 21 over the whole square",
        ),
        S(
            "Theorem 4.4",
            "theorem",
            "sparse vector with sampled percentile estimates: (eps3, delta)-DP and utility",
            claims=(
                "liu_talwar2019.thm44.a_private",
                "liu_talwar2019.thm44.bcd_as_printed",
                "liu_talwar2019.thm44.bcd_joint",
                "liu_talwar2019.thm44.c_moreover_as_printed",
                "liu_talwar2019.lemma43.binomials",
                "liu_talwar2019.lemma43.constant",
                "liu_talwar2019.lemma45.coupling",
                "liu_talwar2019.thm41.laplace_tails",
            ),
            status="finding",
            reason="gensparse1 run exactly (binomial estimates, N up to 4000, Delta from the formula): (a) holds "
            "on its instances (realized delta 0); (b)-(d) read conditionally are false as in Theorem 4.1 and "
            "hold as joint probabilities (ranges of eps3); (c)'s 'moreover' bounds the stopping query "
            "p(tau_R, Q_R) from above and is false even jointly (the proof bounds the queries i < R)",
        ),
        S(
            "Lemma 4.5",
            "lemma",
            "a coupling with Pr[G] >= 1 - delta and conditional eps-closeness gives (eps, delta)",
            claims=("liu_talwar2019.lemma45.coupling", "liu_talwar2019.lemma45.steps"),
            status="whole",
        ),
        S(
            "Theorem 4.6",
            "theorem",
            "one-sided sparse vector for a percentile threshold",
            claims=(
                "liu_talwar2019.thm46.a_private",
                "liu_talwar2019.thm46.bc_utility",
                "liu_talwar2019.lemma45.coupling",
                "liu_talwar2019.thm41.laplace_tails",
            ),
            status="special case",
            reason="sparse1 run exactly (shared binomial sample, the proof's N = 1029 for (b)) on six score "
            "distributions at u = eps3/(4S) = 3, beta = 1/4, where the shifted target e^Lambda is rational; "
            "other (eps3, beta) move every comparison point",
        ),
        S(
            "Theorem 4.7",
            "theorem",
            "selection with unknown threshold (Theorems 4.6 + 3.1)",
            claims=(
                *THM31,
                "liu_talwar2019.thm46.a_private",
                "liu_talwar2019.thm46.bc_utility",
            ),
            status="ingredients only",
            reason="composes Theorem 4.6 (run: liu_talwar2019.thm46.*) with Theorem 3.1 (run); the composed "
            "algorithm, with p1 = (beta^2/(R+1))^(6 + 12 eps1/eps0)/(12K), needs astronomically many samples "
            "and is not run; the call bounds are O(.)",
        ),
        S(
            "Lemma 5.1",
            "lemma",
            "the validation-scored candidate Q is eps2-DP in D2 and eps1-DP in D1",
            claims=("liu_talwar2019.lemma51.validation_scores",),
            status="special case",
            reason="two learners with two models each; the eps2 part for every e^eps2 in [11/10, 20] at "
            "e^eps1 = 2, the eps1 part for every e^eps1 in [11/10, 20] at e^eps2 = 4 (both at once as a box "
            "took minutes)",
        ),
        S(
            "Theorem 5.2",
            "theorem",
            "generalisations of the exponential mechanism (four parts)",
            claims=(
                "liu_talwar2019.thm52.part1_as_proved",
                "liu_talwar2019.thm52.part1_three_eps",
                "liu_talwar2019.thm52.laplace_candidates",
                "liu_talwar2019.thm32",
                "liu_talwar2019.thm34.approx",
                "liu_talwar2019.thm52.truncated_laplace",
                "liu_talwar2019.thm52.truncated_laplace_region",
            ),
            status="finding",
            reason="part 1's mechanism (random stopping on q_i + Lap(s/eps)) is 3 eps-DP (approached, 0.9993), "
            "not eps-DP nor 2 eps-DP (refuted over ranges of eps): the statement needs Lap(3s/eps); part 3's "
            "truncated Laplace is (eps, delta)-DP iff e^eps <= 3 - 2 delta, not on all of eps < 1, delta < 1/4; "
            "parts 2 and 4 (generalised and smooth-sensitivity mechanisms, O(.) utility) are not run",
        ),
        S(
            "Theorem A.1",
            "theorem",
            "Theorem 3.1 restated and proved (App. A.1)",
            claims=(*THM31, "liu_talwar2019.thm31.A1a_as_printed", *THM31_STEPS),
            status="finding",
            reason="part (a) as printed drops 'for q >= tau' and is false (a candidate below tau is "
            "never output: liu_talwar2019.thm31.A1a_as_printed); with it, as in Theorem 3.1 (a), it "
            "holds (liu_talwar2019.thm31.a_proportional); parts (b)-(e) and every step of the proof hold",
        ),
        S(
            "Theorem A.2",
            "theorem",
            "Theorem 3.5 restated and proved (App. A.2)",
            claims=("liu_talwar2019.thm35.hard_stopping",),
            status="whole",
            reason="as Theorem 3.5",
        ),
        S(
            "Lemma A.3",
            "lemma",
            "Lemma 4.3 restated and proved (App. A.3)",
            claims=(
                "liu_talwar2019.lemma43.binomials",
                "liu_talwar2019.lemma43.poisson_binomial",
                "liu_talwar2019.lemma43.constant",
            ),
            status="special case",
            reason="as Lemma 4.3: e^eps1 = 5/4, e^eps0 = 9/4, 2/delta0 = (9/4)^m pinned (every threshold "
            "rational); the binomial family decided for every p' on the worst-case boundary, Poisson-binomial "
            "sums on three instances",
        ),
        S(
            "Lemma A.4",
            "lemma",
            "Chernoff: X >= e^eps E X + (e^eps + 1) ln(1/delta)/eps w.p. <= delta",
            claims=("liu_talwar2019.lemmaA4.upper_tail",),
            status="whole",
            reason="searched over sums of independent Bernoullis (e^eps rational, delta = e^(-m eps))",
        ),
        S(
            "Lemma A.5",
            "lemma",
            "Chernoff: Y <= e^-eps E Y - ln(1/delta)/eps w.p. <= delta",
            claims=("liu_talwar2019.lemmaA5.lower_tail",),
            status="whole",
            reason="searched over sums of independent Bernoullis (e^eps rational, delta = e^(-m eps))",
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
            status="finding",
            reason="the printed candidates (0.8 w.p. 1/2 vs e^eps/2) are eps-DP at no eps > 0 "
            "(B1.printed_candidates_*); with randomized-response candidates the example holds: best of "
            "K is K eps-DP with equality and not better (searched, over a range and a box), and the "
            "(ln 1/delta) companion holds",
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
            status="whole",
            reason="the closed form as an identity in p and gamma, the amplification over a range of gamma",
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
            status="whole",
            reason="the candidates are O(eps)-close over a range of eta; both releases are refuted",
        ),
        S(
            "Theorem C.1",
            "theorem",
            "exponential mechanism with dummy classes: utility and (2 eps1 + 8 gamma)-DP",
            claims=("liu_talwar2019.thmC1.dummy_classes", "liu_talwar2019.thmC1.dummy_as_printed"),
            status="finding",
            reason="'outputs a dummy class with probability (gamma + 1)/(N p gamma + 1)' is false as an "
            "equality (9/109 vs 1/12 at N = 100: liu_talwar2019.thmC1.dummy_as_printed); as the upper "
            "bound the proof shows, with the utility and privacy conclusions, it holds on N = 3..5 "
            "and 100 candidates (every conclusion non-vacuous)",
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
            status="whole",
            reason="the lemma is searched over independent variables on [0, 1]; the last line of its "
            "proof has a sign error (a finding), corrected it holds over ranges",
        ),
        S(
            "Definition D.1",
            "definition",
            "gamma-dominant index, gamma-weakly useful selector",
            claims=("liu_talwar2019.D2.instance",),
            status="special case",
            reason="the notions are decided on Theorem D.2's packing instance (K = 16): dominance of "
            "i = j at D_j and weak usefulness of two selectors",
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
            reason="the statement ranges over every weakly useful selector: decided for two selectors "
            "on the K = 16 packing instance and the proportional selector at K = 2^20, 2^40 (no search "
            "ranges over selectors); the limit (1-alpha) ln K/Delta -> 2(1-alpha)eps/(1+2alpha) is proved",
        ),
        S(
            "Definition E.1",
            "definition",
            "(eps, delta)-far and the equivalence P ==_(eps, delta) Q",
            claims=("liu_talwar2019.defE1.far_is_hockey_stick",),
            status="whole",
            reason="every event against the hockey-stick sum, searched over pairs of distributions",
        ),
        S(
            "Lemma E.2",
            "lemma",
            "(eps, delta)-closeness gives an event B of small mass off which P, Q are eps'-close",
            claims=(
                "liu_talwar2019.lemmaE2.as_stated",
                "liu_talwar2019.lemmaE2.sqrt_case",
                "liu_talwar2019.lemmaE2.corrected",
            ),
            status="finding",
            reason="false as stated and in the case Theorem 3.4 uses (eps' = eps + sqrt(2 delta), "
            "P(B) <= sqrt(delta)): refuted by the search over (eps, delta)-close pairs with randomised "
            "events; with P(B), Q(B) <= delta coth(sqrt(delta/2)) and closeness eps + sqrt(2 delta) + "
            "ln(1/(1 - m)) it holds (proved by hand, searched)",
        ),
        S(
            "Lemma E.3",
            "lemma",
            "eps-closeness off an event of mass <= delta gives (eps, delta)-closeness",
            claims=(
                "liu_talwar2019.lemmaE3.as_printed",
                "liu_talwar2019.lemmaE3.with_small_Q_mass",
            ),
            status="finding",
            reason="false as printed (Q(B) large); with Q(B) <= P(B) both directions of == hold "
            "(proved by hand, searched)",
        ),
    ],
)

REGISTRY.add_coverage(COVERAGE)
