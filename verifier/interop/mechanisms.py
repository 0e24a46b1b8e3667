"""Exact finite forms of the discrete mechanisms other tools describe (shared by
:mod:`~verifier.interop.accounting` and :mod:`~verifier.interop.opendp_maps`).

Both are mechanisms on the pair ``D ~ D'``.
"""

from __future__ import annotations

from typing import Any

import sympy as sp

from ..arithmetic.exact import exact
from ..errors import InvalidParameter
from ..mechanism.model import FiniteMechanism
from ..mechanism.neighbours import pair

__all__ = ["replace_one_randomized_response", "clamped_discrete_laplace"]


def replace_one_randomized_response(p: Any, k: int) -> FiniteMechanism:
    """``k``-ary randomized response with noise parameter ``p`` on the pair ``D ~ D'``
    (``dp_accounting``'s ``RandomizedResponseDpEvent``, REPLACE_ONE): with probability
    ``1 - p`` the true bucket, else a uniform one, so the true bucket has mass
    ``1 - p + p/k`` and each other ``p/k``; ``D`` holds bucket ``k-1``, ``D'`` bucket
    ``k-2``.  Its pure ε is ``log((k - (k-1)p)/p)``.

    >>> replace_one_randomized_response(sp.Rational(1, 2), 2).p("D", 1)
    3/4
    """
    p = exact(p)
    if k < 2:
        raise InvalidParameter(f"randomized response needs at least 2 buckets, got {k}")
    if p <= 0 or p > 1:
        raise InvalidParameter(f"the noise parameter must lie in (0, 1] for a finite loss, got {p}")
    true_mass, other = 1 - p + p / k, p / k
    rows = {
        "D": {b: (true_mass if b == k - 1 else other) for b in range(k)},
        "D'": {b: (true_mass if b == k - 2 else other) for b in range(k)},
    }
    return FiniteMechanism(pair(), rows, list(range(k)), name=f"RR[p={p}, k={k}]")


def clamped_discrete_laplace(a: Any, sensitivity: int) -> FiniteMechanism:
    """``v + Z``, ``P(Z = z) = tanh(a/2) e^{-a|z|}`` (the discrete Laplace of
    ``dp_accounting``'s ``DiscreteLaplaceDpEvent`` and OpenDP's integer Laplace with
    scale ``1/a``), ``v = Δ`` at ``D`` and ``0`` at ``D'``, clamped to ``[0, Δ]``.

    Every output ``z <= 0`` has the same likelihood ratio ``e^{aΔ}`` and every
    ``z >= Δ`` the ratio ``e^{-aΔ}``, so clamping (lumping those tails) leaves the
    privacy loss distribution exactly as it is: a finite, exact form whose pure ε is
    ``aΔ``.  (It is the truncated geometric mechanism of Ghosh, Roughgarden,
    Sundararajan 2009 with ``x = e^{-a}`` at the two ends of ``0..Δ``.)

    >>> clamped_discrete_laplace(sp.log(2), 1).p("D", 1)
    2/3
    """
    a = exact(a)
    if not a.is_positive:
        raise InvalidParameter(f"the discrete Laplace parameter must be > 0, got {a}")
    if isinstance(sensitivity, bool) or not isinstance(sensitivity, int) or sensitivity < 1:
        raise InvalidParameter(f"the sensitivity must be a positive integer, got {sensitivity!r}")
    x = sp.exp(-a)
    norm = (1 - x) / (1 + x)  # tanh(a/2): P(Z = z) = tanh(a/2) e^{-a|z|}
    rows: dict[str, dict[int, sp.Expr]] = {}
    for name, v in (("D", sensitivity), ("D'", 0)):
        row: dict[int, sp.Expr] = {}
        for o in range(sensitivity + 1):
            if o == 0:  # Σ_{z <= -v} tanh(a/2) x^{|z|} = x^v / (1 + x)
                row[o] = x**v / (1 + x)
            elif o == sensitivity:  # Σ_{z >= Δ - v} ...
                row[o] = x ** (sensitivity - v) / (1 + x)
            else:
                row[o] = norm * x ** abs(o - v)
        rows[name] = row
    return FiniteMechanism(
        pair(), rows, list(range(sensitivity + 1)), name=f"DLap[a={a}, Δ={sensitivity}]"
    )
