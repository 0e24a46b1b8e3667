"""Noise-adding programs over finite query-answer vectors, with exact output laws.

The programs are the "threshold + per-query noise, compare, output ⊤/⊥ or a value,
stop after c ⊤" family of the sparse vector technique and its relatives — Lyu, Su,
Li 2017, Algorithms 1-6; NumericalSVT (Wang et al. 2019); GapSVT (Ding et al. 2019)
— and Report-Noisy-Max (Dwork & Roth 2014, §3.3; Ding et al. 2018, Algorithms 5 and
7).  Noise is either Laplace (continuous; probabilities are integrals of piecewise
exponential densities, closed forms in ``e^{-ε}`` and ``ε``) or two-sided geometric
(the discrete Laplace distribution with the same rate: ``P(ν = k) ∝ e^{-η|k|}``;
probabilities are sums of geometric series, closed forms in ``e^{-ε}``).  Every
output probability is computed in closed form, symbolically in the privacy parameter,
then evaluated.

=========================  =============================================================
module                     concern
=========================  =============================================================
:mod:`.expoly`             piecewise exponential polynomials: the exact algebra
:mod:`.distributions`      geometric, Laplace, exponential noise: pmf/density, survival
:mod:`.tails`              exact suprema of probability ratios on infinite tails
:mod:`.queries`            neighbouring query-answer vectors (sensitivity styles)
:mod:`.interpreter`        the program model and its exact interpreter
:mod:`.svt`                the sparse-vector family (Lyu et al.'s Algorithms 1-6, ...)
:mod:`.noisy_max`          Report-Noisy-Max
:mod:`.density_ratio`      exact supremum of a ratio of piecewise exponential densities
:mod:`.checks`             ε-DP on the whole output set, realized loss
:mod:`.samplers`           samplers of the programs (simulation, for the tests)
:mod:`.text`               programs written as text, lowered to these models
=========================  =============================================================

Every public name of those modules except the samplers is importable from here.

>>> import sympy as sp
>>> prog = lyu_svt(1, sp.log(2) * 8, c=1)    # ε = 8 log 2: rates ε/2, ε/4; W = e^{-ε/4} = 1/4
>>> G = query_graph([(0, 1), (1, 0)], style="all_differ")
>>> pm = program_mechanism(prog, G)
>>> pm.mechanism.p((0, 1), "⊥⊤")
31312/151725
>>> check_program_dp(pm, prog_claim(prog)).verdict.value
'holds'
"""

from __future__ import annotations

from .checks import (
    CurvePoint,
    LossMax,
    RealizedMax,
    check_program_dp,
    max_log_ratio,
    program_realized_epsilon,
    realized_epsilon_curve,
)
from .density_ratio import RatioSup, UndecidedRatio, ratio_at_most, sup_log_ratio
from .distributions import (
    NO_NOISE,
    Noise,
    NoiseKind,
    exponential,
    exponential_density,
    exponential_survival,
    geometric,
    geometric_pmf,
    geometric_survival,
    laplace,
    laplace_density,
    laplace_survival,
    point_mass,
)
from .expoly import (
    CONTINUOUS,
    CONTINUOUS_AT_POINTS,
    DISCRETE,
    PW,
    ExpPoly,
    Laurent,
    Ring,
    step_below,
    step_from,
    to_exact,
    to_sympy,
)
from .interpreter import (
    BOT,
    TOP,
    Program,
    ProgramMechanism,
    answers_of,
    common_unit,
    epsilon_for_base,
    output_probability,
    prog_claim,
    program_mechanism,
)
from .noisy_max import NoisyMax, argmax_laws, max_density, report_noisy_max
from .queries import Style, Vector, check_sensitivity, half_half, query_graph, ramp_pair
from .svt import (
    Release,
    SparseVector,
    answer_sequence_laws,
    bad_gap_svt,
    gap_svt,
    gap_svt_monotone,
    lyu_svt,
    numerical_svt,
    svt_monotone,
)
from .tails import TailSup, tail_sup
from .text import Refused, lower, lower_text

__all__ = [
    # noise distributions
    "Noise",
    "NoiseKind",
    "geometric",
    "laplace",
    "exponential",
    "exponential_density",
    "exponential_survival",
    "NO_NOISE",
    "geometric_pmf",
    "geometric_survival",
    "laplace_density",
    "laplace_survival",
    "point_mass",
    # the exact algebra
    "Ring",
    "DISCRETE",
    "CONTINUOUS",
    "CONTINUOUS_AT_POINTS",
    "ExpPoly",
    "Laurent",
    "PW",
    "step_below",
    "step_from",
    "to_sympy",
    "to_exact",
    "TailSup",
    "tail_sup",
    # programs
    "BOT",
    "TOP",
    "Program",
    "prog_claim",
    "Release",
    "SparseVector",
    "lyu_svt",
    "svt_monotone",
    "numerical_svt",
    "gap_svt",
    "gap_svt_monotone",
    "bad_gap_svt",
    "answer_sequence_laws",
    "NoisyMax",
    "report_noisy_max",
    "argmax_laws",
    "max_density",
    # programs written as text (verifier.programs.syntax)
    "Refused",
    "lower",
    "lower_text",
    # densities
    "RatioSup",
    "UndecidedRatio",
    "sup_log_ratio",
    "ratio_at_most",
    # inputs
    "Vector",
    "Style",
    "query_graph",
    "check_sensitivity",
    "half_half",
    "ramp_pair",
    "answers_of",
    # evaluation and checks
    "ProgramMechanism",
    "program_mechanism",
    "output_probability",
    "common_unit",
    "epsilon_for_base",
    "check_program_dp",
    "program_realized_epsilon",
    "RealizedMax",
    "CurvePoint",
    "realized_epsilon_curve",
    "LossMax",
    "max_log_ratio",
]
