"""Liu & Talwar 2019: the numbers of iterations that Theorems 3.1, 3.4 and 3.5 prescribe.

The algorithms themselves are the library's (:mod:`verifier.algorithms.liu_talwar`).
"""

from __future__ import annotations

from typing import Any

import sympy as sp

from verifier.arithmetic.exact import exact
from verifier.checks.certified import certified_ceil

__all__ = ["theorem31_min_T", "theorem32_bound", "theorem34_T", "theorem35_T"]


def theorem31_min_T(gamma: Any, eps0: Any) -> int:
    """The least integer ``T ≥ max{(1/γ) ln(2/ε0), 1 + 1/(eγ)}`` (Liu & Talwar 2019,
    Theorem 3.1's condition), decided with certified arithmetic.

    >>> theorem31_min_T(sp.Rational(1, 10), sp.Rational(1, 10))
    30
    """
    g, e0 = exact(gamma), exact(eps0)
    return max(certified_ceil(sp.log(2 / e0) / g), certified_ceil(1 + 1 / (sp.E * g)))


def theorem32_bound(eps0: Any) -> sp.Expr:
    """Liu & Talwar 2019, Theorem 3.2: random stopping (a geometric number of runs of
    an ``ε0``-DP mechanism, the best output released) is ``3ε0``-DP, whatever ``γ``.

    >>> theorem32_bound(sp.log(3))
    3*log(3)
    """
    return 3 * exact(eps0)


def theorem35_T(gamma: Any, eps0: Any) -> int:
    """Liu & Talwar 2019, Theorem 3.5:
    ``T = ⌈(1/γ)(ln L + ln ln L)⌉`` with ``L = 2(1+γ)²/(ε0 γ²)``, certified.

    >>> theorem35_T(sp.Rational(1, 10), sp.Rational(1, 4))
    89
    """
    g, e0 = exact(gamma), exact(eps0)
    L = 2 * (1 + g) ** 2 / (e0 * g**2)
    return certified_ceil((sp.log(L) + sp.log(sp.log(L))) / g)


def theorem34_T(gamma: Any, delta2: Any) -> int:
    """Liu & Talwar 2019, Theorem 3.4: ``T = (1/γ) log(1/δ2)``, rounded up."""
    return certified_ceil(sp.log(1 / exact(delta2)) / exact(gamma))
