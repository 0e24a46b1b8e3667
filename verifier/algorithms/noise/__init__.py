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
:mod:`.linear`             linear releases: outputs affine in answers and noises
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

# the modules whose public names are all public here (listed once, in their __all__)
from . import checks, expoly, linear, noisy_max, svt, tails
from .checks import *  # noqa: F403
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
from .expoly import *  # noqa: F403
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
from .linear import *  # noqa: F403
from .noisy_max import *  # noqa: F403
from .queries import Style, Vector, check_sensitivity, half_half, query_graph, ramp_pair
from .svt import *  # noqa: F403
from .tails import *  # noqa: F403
from .text import Refused, lower, lower_linear, lower_text

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
    *expoly.__all__,
    *tails.__all__,
    # programs
    "BOT",
    "TOP",
    "Program",
    "prog_claim",
    *svt.__all__,
    *noisy_max.__all__,
    # programs written as text (verifier.programs.syntax)
    "Refused",
    "lower",
    "lower_text",
    "lower_linear",
    # linear releases (verifier.algorithms.noise.linear)
    *[n for n in linear.__all__ if n != "Refused"],
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
    *checks.__all__,
]
