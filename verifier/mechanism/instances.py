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

    Parameters
    ----------
    epsilon : sympy.Expr, int, fractions.Fraction or str
        The privacy parameter ε (exact; a string such as ``"log(3)"`` is read by the
        spec grammar).
    datasets : tuple of two hashables
        The neighbouring datasets ``(D, D')``; default ``("D", "D'")``.
    name : str
        Used in reports.

    Returns
    -------
    FiniteMechanism
        Outputs ``0 < 1`` on the pair ``D ~ D'``.

    Raises
    ------
    verifier.errors.InvalidParameter
        ``epsilon`` is not an exact number (a float, an unparsable string).

    Examples
    --------
    With ε = log 3, ``D`` reports 1 with probability 3/(1+3) = 3/4 and ``D'`` with
    probability 1/4:

    >>> rr = randomized_response("log(3)")
    >>> rr.p("D", 1), rr.p("D", 0), rr.p("D'", 1)
    (3/4, 1/4, 1/4)
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

    Parameters
    ----------
    n : int
        The largest dataset (and output): datasets and outputs are ``0..n``.
    x : sympy.Expr, int or fractions.Fraction, optional
        ``e^{-ε}``, in ``(0, 1)``.
    name : str, optional
        Used in reports; default ``TGeom_<n>``.
    epsilon : sympy.Expr, int, fractions.Fraction or str, optional
        ε itself (keyword-only), instead of ``x``.

    Returns
    -------
    FiniteMechanism
        On the path graph :func:`~verifier.mechanism.neighbours.path` ``(n)``.

    Raises
    ------
    verifier.errors.InvalidParameter
        ``n`` is not a positive integer, or not exactly one of ``x`` and ``epsilon``
        is given.

    Examples
    --------
    With ``n = 2`` and ``x = 1/2`` (ε = log 2), dataset 0 outputs 0 with probability
    ``1/(1 + 1/2) = 2/3``, 1 with ``(1/2)/(3/2) · 1/2 = 1/6`` and 2 with
    ``(1/4)/(3/2) = 1/6``:

    >>> tg = truncated_geometric(2, sp.Rational(1, 2))
    >>> [tg.p(0, o) for o in tg.outputs]
    [2/3, 1/6, 1/6]
    >>> truncated_geometric(2, epsilon="log(2)").p(0, 0)
    2/3
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
    """A seeded random mechanism on ``graph`` with exact rational probabilities.

    Parameters
    ----------
    graph : networkx.Graph
        The neighbour graph; every node gets a distribution.
    outputs : int or sequence of hashables
        The outputs (``k`` means ``0..k-1``).
    seed : int
        Seeds :class:`random.Random`: the same seed gives the same mechanism.
    denominator : int
        Every probability is a multiple of ``1/denominator``.
    positive : bool
        Every probability is at least ``1/denominator`` (default), so every ratio is
        finite.
    name : str, optional
        Used in reports; default ``random[<seed>]``.

    Returns
    -------
    FiniteMechanism

    Raises
    ------
    verifier.errors.InvalidParameter
        ``denominator`` is smaller than the number of outputs.

    Examples
    --------
    >>> from verifier.mechanism.neighbours import pair
    >>> m = random_mechanism(pair(), 3, seed=0)
    >>> [sum(m.p(d, o) for o in m.outputs) for d in m.datasets]
    [1, 1]
    >>> all((60 * m.p(d, o)).is_Integer and m.p(d, o) > 0 for d in m.datasets for o in m.outputs)
    True
    """

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
