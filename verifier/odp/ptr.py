"""Propose-Test-Release (PTR) functions with geometric noise, exactly — the worked
mechanism of Hartmann et al. 2022, §4.2 (Def 9, Lemma 10), after Dwork & Lei 2009
("Differential privacy and robust statistics", the IQR mechanism with two shifted
discretisations).

A PTR function proposes a bound ``s`` on the local sensitivity of an integer
statistic ``h``, tests privately that the data are far from any dataset where the
bound fails, and releases ``h`` with noise scaled to ``s`` if the test passes:

* ``LS(D) = max_{D' ~ D} |h(D) - h(D')|``; the *unstable* datasets are those with
  ``LS(D) > s``; ``A(D)`` is the graph distance from ``D`` to the unstable set
  (sensitivity 1 along edges);
* ``f(D) = ⊥`` if ``A(D) + Z < t`` with ``Z`` two-sided geometric of rate ``ε``;
  otherwise ``clamp(h(D) + Y, lo, hi)`` with ``Y`` two-sided geometric of rate
  ``ε/s`` (clamping to a finite range is a post-processing that keeps the output set
  finite).

Privacy (Hartmann et al. Def 9, here proved by direct computation for every
instance): ``Pr[f(D) = ⊥] <= e^ε Pr[f(D') = ⊥]`` (``A`` has sensitivity 1); on the
values ``(R, 2ε, δ0)``-subset DP with ``δ0 = Pr[Z >= t]`` (if ``A(D) >= 1`` then
``|h(D) - h(D')| <= s``: test ``e^ε`` times release ``e^ε``; if ``A(D) = 0`` a value
is released with probability at most ``δ0``).  By Lemma 6 a PTR function is
``({⊥}: ε, R: 2ε, δ0)``-ODP.

The Dwork–Lei cascade ``M = f1, or f2 if f1 returns ⊥`` (two discretisations) is
``(3ε, (1 + e^ε) δ0)``-DP instead of the naive ``(4ε, 2δ0)``: a value from ``f1``
costs ``2ε``, a value from ``f2`` costs ``ε`` (``f1``'s ⊥) plus ``2ε``, and ``⊥``
costs ``2ε`` (both tests).  Hartmann et al. Lemma 10: ``M`` is
``({⊥}: 2ε, R: 3ε, δ)``-ODP — a ``⊥`` output saves ``ε`` (the δ here is the one
derived above; the formula is unreadable in the paper's text).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Any

import networkx as nx
import sympy as sp

from ..arithmetic.exact import exact
from ..checks.vocabulary import privacy_parameters
from ..errors import InvalidMechanism, InvalidParameter
from ..mechanism.model import FiniteMechanism
from .guarantees import ODPGuarantee, Partition

__all__ = [
    "BOTTOM",
    "distance_to_instability",
    "geometric_survival",
    "geometric_survival_at",
    "ptr_function",
    "ptr_cascade",
    "ptr_delta0",
    "ptr_guarantee",
    "bottom_partition",
]

BOTTOM = "⊥"


def geometric_survival(rate: sp.Expr, x: int) -> sp.Expr:
    """``P(Z >= x)`` for the two-sided geometric law ``P(Z = k) ∝ e^{-rate|k|}``:
    ``r^x/(1+r)`` for ``x >= 1`` and ``1 - r^{1-x}/(1+r)`` for ``x <= 0``, ``r = e^{-rate}``."""
    return geometric_survival_at(sp.exp(-rate), x)


def geometric_survival_at(r: Any, x: int) -> Any:
    """:func:`geometric_survival` given ``r = e^{-rate}`` itself, in the number type
    it comes in (a sympy expression, or a :class:`fractions.Fraction` when ``e^{rate}``
    is rational: exact rational arithmetic without sympy).

    >>> from fractions import Fraction
    >>> geometric_survival_at(Fraction(1, 2), 1), geometric_survival_at(Fraction(1, 2), 0)
    (Fraction(1, 3), Fraction(2, 3))
    """
    if x >= 1:
        return r**x / (1 + r)
    return 1 - r ** (1 - x) / (1 + r)


def distance_to_instability(
    graph: nx.Graph, h: Mapping[Hashable, int], s: int
) -> dict[Hashable, int | None]:
    """``A(D)``: the graph distance from ``D`` to ``{D'' : LS(D'') > s}`` (``None``
    when no dataset is unstable)."""
    for d in graph.nodes:
        if d not in h or isinstance(h[d], bool) or not isinstance(h[d], int):
            raise InvalidMechanism(f"the statistic needs an integer value at {d!r}")
    unstable = [d for d in graph.nodes if any(abs(h[d] - h[e]) > s for e in graph.neighbors(d))]
    if not unstable:
        return {d: None for d in graph.nodes}
    dist = nx.multi_source_dijkstra_path_length(graph, unstable, weight=lambda u, v, d: 1)
    return {d: dist.get(d) for d in graph.nodes}


def ptr_function(
    graph: nx.Graph,
    h: Mapping[Hashable, int],
    *,
    eps: Any,
    threshold: int,
    value_range: tuple[int, int],
    s: int = 1,
    name: str = "PTR",
) -> FiniteMechanism:
    """The PTR function of the module docstring as an exact finite mechanism.

    Outputs: ``"⊥"`` and the integers of ``value_range`` (the clamped release).
    """
    e = exact(eps)
    if not isinstance(s, int) or s < 1:
        raise InvalidParameter(
            f"the proposed sensitivity bound must be a positive integer, got {s}"
        )
    lo, hi = value_range
    if lo > hi:
        raise InvalidParameter("empty value range")
    A = distance_to_instability(graph, h, s)
    rate_y = e / s
    dists: dict[Hashable, dict[Any, sp.Expr]] = {}
    for d in graph.nodes:
        a = A[d]
        # P(test passes) = P(A + Z >= t) = P(Z >= t - A); A = None: never unstable
        passes = sp.Integer(1) if a is None else geometric_survival(e, threshold - a)
        # ⊥ from its own closed form P(Z < t - A) = P(Z <= t - A - 1) = P(Z >= A + 1 - t)
        row: dict[Any, sp.Expr] = {
            BOTTOM: sp.Integer(0) if a is None else geometric_survival(e, a + 1 - threshold)
        }
        for v in range(lo, hi + 1):
            x = v - h[d]
            if v == lo:
                p = 1 - geometric_survival(rate_y, x + 1)  # P(h + Y <= lo)
            elif v == hi:
                p = geometric_survival(rate_y, x)  # P(h + Y >= hi)
            else:
                p = (1 - sp.exp(-rate_y)) / (1 + sp.exp(-rate_y)) * sp.exp(-rate_y) ** abs(x)
            row[v] = passes * p
        dists[d] = row
    return FiniteMechanism(graph, dists, [BOTTOM, *range(lo, hi + 1)], name=name)


def ptr_cascade(f1: FiniteMechanism, f2: FiniteMechanism, name: str = "M_IQR") -> FiniteMechanism:
    """Dwork & Lei's cascade: release ``f1(D)`` unless it is ⊥, then ``f2(D)``
    (independent coins): ``P(v) = P_1(v) + P_1(⊥) P_2(v)``, ``P(⊥) = P_1(⊥) P_2(⊥)``."""
    if set(f1.graph.nodes) != set(f2.graph.nodes):
        raise InvalidMechanism("the two PTR functions live on different datasets")
    values: set[int] = {o for o in (*f1.outputs, *f2.outputs) if isinstance(o, int)}
    outs: list[Any] = [BOTTOM, *sorted(values)]
    dists = {}
    for d in f1.graph.nodes:
        b1 = f1.p(d, BOTTOM)
        row = {BOTTOM: b1 * f2.p(d, BOTTOM)}
        for o in outs[1:]:
            row[o] = f1.p(d, o) + b1 * f2.p(d, o)
        dists[d] = row
    return FiniteMechanism(f1.graph, dists, outs, name=name)


def ptr_delta0(eps: Any, threshold: int) -> sp.Expr:
    """``δ0 = Pr[Z >= t]``: the chance that an unstable dataset passes the test."""
    return geometric_survival(exact(eps), threshold)


def bottom_partition(outputs: Any) -> Partition:
    return Partition.from_key(outputs, lambda o: "⊥" if o == BOTTOM else "R")


@privacy_parameters("epsilon", "threshold")
def ptr_guarantee(mech: FiniteMechanism, *, epsilon: Any, threshold: int) -> ODPGuarantee:
    """A PTR function's ODP guarantee (Hartmann et al. §4.2, via Lemma 6):
    ``({⊥}: ε, R: 2ε, δ0)``."""
    e = exact(epsilon)
    return ODPGuarantee.of(
        bottom_partition(mech.outputs), {"⊥": e, "R": 2 * e}, ptr_delta0(e, threshold)
    )
