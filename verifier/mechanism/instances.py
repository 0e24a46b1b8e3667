"""A catalogue of concrete finite mechanisms (kept apart from the core, as in
sympy's ``frv_types``): randomized response, the truncated geometric mechanism,
and seeded random mechanisms with exact rational probabilities.

>>> import sympy as sp
>>> from verifier.checks.privacy import pure_epsilon
>>> pure_epsilon(randomized_response(sp.log(3))).value
log(3)
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from typing import Any

import networkx as nx
import sympy as sp

from ..arithmetic.exact import exact
from ..arithmetic.expressions import number
from ..errors import InvalidParameter
from .model import FiniteMechanism
from .neighbours import pair, path

__all__ = [
    "randomized_response",
    "truncated_geometric",
    "random_mechanism",
    "random_rational_distribution",
]


def randomized_response(
    epsilon: Any, datasets: tuple[Hashable, Hashable] = ("D", "D'"), name: str = "RR"
) -> FiniteMechanism:
    """Binary randomized response: ``D`` reports 1 w.p. ``e^ε/(1+e^ε)``, ``D'`` w.p.
    ``1/(1+e^ε)``; exactly ε-DP, the bound attained at both outputs.  ``epsilon`` as
    the spec kind of the same name takes it (a string in the spec grammar too).

    >>> randomized_response("log(3)").p("D", 1)
    3/4
    """
    e = number(epsilon, what="epsilon")
    p = sp.exp(e) / (1 + sp.exp(e))
    q = 1 / (1 + sp.exp(e))
    a, b = datasets
    return FiniteMechanism(pair(a, b), {a: {0: q, 1: p}, b: {0: p, 1: q}}, [0, 1], name=name)


def truncated_geometric(
    n: int, x: Any = None, name: str | None = None, *, epsilon: Any = None
) -> FiniteMechanism:
    """The truncated two-sided geometric mechanism on the path ``0 ~ 1 ~ ... ~ n``.

    Dataset ``k`` outputs ``o ∈ {0..n}`` with probability ``(1-x)/(1+x) · x^{|o-k|}``
    for ``0 < o < n`` and ``x^{|o-k|}/(1+x)`` at the two ends (the clamped tails), where
    ``x = e^{-ε}`` (Ghosh, Roughgarden, Sundararajan 2009).  It is exactly ε-DP and
    group privacy is attained with equality: ``P_0(0) / P_n(0) = x^{-n} = e^{nε}``.
    Give ``x`` or, as the spec kind does, ``epsilon`` (a string in the spec grammar too).

    >>> truncated_geometric(2, epsilon="log(2)").p(0, 0) == truncated_geometric(2, sp.Rational(1, 2)).p(0, 0)
    True
    """
    if not isinstance(n, int) or n < 1:
        raise InvalidParameter(f"n must be a positive integer, got {n!r}")
    if (x is None) == (epsilon is None):
        raise InvalidParameter("give x = e^(-epsilon) or epsilon, one of them")
    xx = exact(x) if x is not None else sp.exp(-number(epsilon, what="epsilon"))
    dists: dict[Hashable, dict[Hashable, sp.Expr]] = {}
    for k in range(n + 1):
        row: dict[Hashable, sp.Expr] = {}
        for o in range(n + 1):
            if o in (0, n):
                row[o] = xx ** abs(o - k) / (1 + xx)
            else:
                row[o] = (1 - xx) / (1 + xx) * xx ** abs(o - k)
        dists[k] = row
    return FiniteMechanism(path(n), dists, list(range(n + 1)), name=name or f"TGeom_{n}")


def random_rational_distribution(
    k: int, rng: random.Random, denominator: int = 60, positive: bool = True
) -> list[sp.Rational]:
    """A random distribution on ``k`` points with exact rational probabilities
    (multiples of ``1/denominator``; all positive when ``positive``)."""
    if k < 1 or denominator < k:
        raise InvalidParameter("need 1 <= k <= denominator")
    lo = 1 if positive else 0
    # stars and bars: k parts >= lo summing to denominator
    free = denominator - lo * k
    cuts = sorted(rng.randint(0, free) for _ in range(k - 1))
    parts = [b - a for a, b in zip([0, *cuts], [*cuts, free], strict=True)]
    return [sp.Rational(p + lo, denominator) for p in parts]


def random_mechanism(
    graph: nx.Graph,
    outputs: Sequence[Hashable] | int,
    seed: int,
    denominator: int = 60,
    positive: bool = True,
    name: str | None = None,
) -> FiniteMechanism:
    """A seeded random mechanism on ``graph`` with exact rational probabilities."""
    outs = list(range(outputs)) if isinstance(outputs, int) else list(outputs)
    rng = random.Random(seed)
    dists = {
        d: dict(
            zip(
                outs,
                random_rational_distribution(len(outs), rng, denominator, positive),
                strict=True,
            )
        )
        for d in graph.nodes
    }
    return FiniteMechanism(graph, dists, outs, name=name or f"random[{seed}]")
