"""The old import path of the exact algebra behind the noise programs.

The piecewise exponential polynomials now live in
:mod:`verifier.algorithms.noise.expoly`, the noise laws in
:mod:`verifier.algorithms.noise.distributions` and the tail suprema in
:mod:`verifier.algorithms.noise.tails`; this module re-exports their names.
"""

from __future__ import annotations

from .noise.distributions import (
    geometric_pmf,
    geometric_survival,
    laplace_density,
    laplace_survival,
    point_mass,
)
from .noise.expoly import (
    CONTINUOUS,
    CONTINUOUS_AT_POINTS,
    DISCRETE,
    PW,
    ExpPoly,
    Ring,
    step_below,
    step_from,
    to_exact,
    to_sympy,
)
from .noise.tails import TailSup, tail_sup

__all__ = [
    "Ring",
    "DISCRETE",
    "CONTINUOUS",
    "CONTINUOUS_AT_POINTS",
    "ExpPoly",
    "PW",
    "geometric_pmf",
    "geometric_survival",
    "laplace_density",
    "laplace_survival",
    "point_mass",
    "step_below",
    "step_from",
    "to_sympy",
    "to_exact",
    "TailSup",
    "tail_sup",
]
