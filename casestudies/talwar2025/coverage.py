"""Talwar 2025: every numbered statement and the claims that check it
(``verifier casestudies --coverage``; see :mod:`verifier.claims.coverage`)."""

from __future__ import annotations

from casestudies import REGISTRY
from verifier.claims import PaperCoverage, Statement

__all__ = ["COVERAGE"]

S = Statement

COVERAGE = PaperCoverage.of(
    "talwar2025",
    'Talwar 2025, "Privacy-Computation Trade-Offs in Private Repetition and Metaselection"',
    [
        S(
            "Figure 1",
            "figure",
            "existing upper bounds, the new lower bound and the hybrids, repetition and metaselection",
            claims=("talwar2025.figure1.tradeoff",),
            status="special case",
            reason="the green and blue points (A_max^T, A_LT, the hybrids, tuned to each gamma) and "
            "the red lower bounds of both panels are computed and decided for gamma = 10^-k, "
            "k <= 60, and K <= 16 (search; the hybrids' side also over a box, "
            "talwar2025.thm7.box); the grey region c < 1, 'excluded by straightforward "
            "arguments', is drawn but not decided",
        ),
        S(
            "Definition 1",
            "definition",
            "(eps, delta)-differential privacy",
            claims=(
                "talwar2025.prop4.box",
                "talwar2025.prop5.box",
                "talwar2025.prop5.hockey_stick",
            ),
            status="whole",
        ),
        S(
            "Proposition 2",
            "proposition",
            "extension lemma: an eps-DP partial mechanism extends to a 2 eps-DP mechanism",
            claims=(
                "talwar2025.prop2.extension_graphs",
                "talwar2025.prop2.extension_cube60",
                "talwar2025.prop2.one_eps",
                "talwar2025.prop2.step.min_lipschitz",
                "talwar2025.prop2.step.normaliser",
                "talwar2025.prop2.step.agrees_on_B",
            ),
            status="whole",
        ),
        S(
            "Proposition 3",
            "proposition",
            "a repetition algorithm for quantile beta gives a metaselection algorithm over mu_H",
            claims=("talwar2025.prop3.metaselection",),
            status="whole",
        ),
        S(
            "Proposition 4",
            "proposition",
            "eps-DP => Pr[M(d') in E] >= e^(-eps Delta) Pr[M(d) in E] at distance Delta",
            claims=(
                "talwar2025.prop4.geometric",
                "talwar2025.prop4.geometric_symbolic",
                "talwar2025.prop4.random_cube",
                "talwar2025.prop4.box",
                "talwar2025.prop4.without_factor",
            ),
            status="whole",
        ),
        S(
            "Proposition 5",
            "proposition",
            "(eps, delta)-DP group privacy at distance Delta, and the 1/4 -> e^(-eps Delta)/8 form",
            claims=(
                "talwar2025.prop5.hockey_stick",
                "talwar2025.prop5.box",
                "talwar2025.prop5.quarter",
            ),
            status="whole",
        ),
        S(
            "Proposition 6",
            "proposition",
            "(alpha, eps)-RDP group privacy at distance Delta, and its alpha >= Delta + 1 forms",
            claims=(
                "talwar2025.prop6.first_part",
                "talwar2025.prop6.chain",
                "talwar2025.prop6.box",
                "talwar2025.prop6.alpha_ge_Delta_plus_1",
                "talwar2025.prop6.quarter_4e",
                "talwar2025.prop6.quarter_printed",
                "talwar2025.prop6.pure_constant",
            ),
            status="whole",
        ),
        S(
            "Theorem 7",
            "theorem",
            "c-overhead repetition with T expected calls needs T >= (8 gamma)^(-1/(4c))/4",
            claims=(
                "talwar2025.thm7.chain",
                "talwar2025.thm7.box",
                "talwar2025.thm7.equivalently_printed",
                "talwar2025.thm7.equivalently_inverted",
                "talwar2025.thm7.two_c_step_fixed_eps",
                "talwar2025.thm7.two_c_uniform_eps",
                "talwar2025.thm7.step.specification_dp",
                "talwar2025.thm7.step.markov_and_union",
                "talwar2025.thm7.step.exponent_bound",
                "talwar2025.thm7.step.delta_condition",
                "talwar2025.thm7.step.rearrange",
            ),
            status="finding",
            reason="the 'equivalently' form c >= ln(1/(8 gamma))/(2 ln 4T) is not equivalent to the "
            "T-bound (thm7.equivalently_printed, refuted at c = 1, gamma = 2^-11, T = 1); "
            "inverted it reads 4 ln 4T (thm7.equivalently_inverted, proved), and the 2 needs "
            "eps Delta = ln 4T exactly (thm7.two_c_step_fixed_eps refuted at a fixed eps; "
            "thm7.two_c_uniform_eps holds with eps = ln(4T)/Delta).  The T-bound holds: every step "
            "of the proof over a box, and the chain on the construction against every algorithm "
            "of §4 by search",
        ),
        S(
            "Corollary 8",
            "corollary",
            "the RDP version of Theorem 7",
            claims=(
                "talwar2025.cor8.derived",
                "talwar2025.cor8.printed_fixed_eps",
                "talwar2025.cor8.printed_uniform_eps",
                "talwar2025.cor8.alpha_condition",
                "talwar2025.cor8.alpha_condition_corrected",
                "talwar2025.cor8.printed_conclusion_implied",
                "talwar2025.cor8.printed_conclusion_beyond",
                "talwar2025.cor8.printed_conclusion_algorithms",
            ),
            status="finding",
            reason="the printed alpha >= 1 + ln T/eps is below Prop. 6's alpha >= Delta + 1 "
            "(cor8.alpha_condition, refuted; the boundary lies between Delta and Delta + 1); the "
            "printed exponent 1/(2ec) needs eps Delta = ln 4T (cor8.printed_fixed_eps refuted, "
            "cor8.printed_uniform_eps holds); the printed conclusion follows from the derived "
            "T >= (4^e gamma)^(-1/(4ec))/4 (cor8.derived, searched) only for gamma >= 4^(-(8-e)) "
            "(cor8.printed_conclusion_implied / _beyond); no algorithm of §4 violates it",
        ),
        S(
            "Theorem 9",
            "theorem",
            "oracle calls on any inputs: T >= (8 gamma)^(-1/(40c))/8",
            claims=(
                "talwar2025.thm9.counting",
                "talwar2025.thm9.chain",
                "talwar2025.thm9.adaptive",
                "talwar2025.thm9.step.union",
                "talwar2025.thm9.step.exponent_bound",
            ),
            status="whole",
        ),
        S(
            "Theorem 10",
            "theorem",
            "metaselection over K settings: T >= (8 gamma)^(-1/(40c))/8 calls per setting",
            claims=(
                "talwar2025.thm10.chain",
                "talwar2025.thm10.adaptive",
                "talwar2025.thm10.step.union",
            ),
            status="whole",
        ),
        S(
            "Theorem 11",
            "theorem",
            "A_max^T: T eps-DP (and advanced composition), utility for the median and q_(1-1/K)",
            claims=(
                "talwar2025.thm11.privacy",
                "talwar2025.thm11.advanced_composition",
                "talwar2025.thm11.advanced_composition.rr_worst_case",
                "talwar2025.thm11.advanced_composition.delta_matters",
                "talwar2025.thm11.utility",
            ),
            status="whole",
        ),
        S(
            "Theorem 12",
            "theorem",
            "A_LT,gamma: 3 eps-DP, 1/gamma calls, utility",
            claims=("talwar2025.thm12.lt",),
            status="whole",
        ),
        S(
            "Theorem 13",
            "theorem",
            "the hybrid A_max^c over A_LT,gamma^(1/c): 3c eps-DP, c gamma^(-1/c) calls, utility",
            claims=("talwar2025.thm13.hybrid",),
            status="whole",
        ),
        S(
            "Theorem 14",
            "theorem",
            "the metaselection hybrid: 3c eps-DP, cK gamma^(-1/c) calls, utility for q_(1-1/K)",
            claims=("talwar2025.thm14.hybrid",),
            status="whole",
        ),
    ],
)

REGISTRY.add_coverage(COVERAGE)
