"""The old import path of the exact algebra behind the noise programs.

The piecewise exponential polynomials now live in
:mod:`verifier.algorithms.noise.expoly`, the noise laws in
:mod:`verifier.algorithms.noise.distributions` and the tail suprema in
:mod:`verifier.algorithms.noise.tails`; this module re-exports their names.
"""

from __future__ import annotations

from typing import Any

from . import noise as _noise
from .noise import expoly as _expoly
from .noise import tails as _tails

#: The functions of the noise laws this path re-exports.
_LAWS = ("geometric_pmf", "geometric_survival", "laplace_density", "laplace_survival", "point_mass")

__all__ = [*(name for name in _expoly.__all__ if name != "Laurent"), *_LAWS, *_tails.__all__]


def __getattr__(name: str) -> Any:
    if name in __all__:
        return getattr(_noise, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
