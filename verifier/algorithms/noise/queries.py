"""Neighbouring inputs of noise programs: vectors of integer query answers.

Neighbouring inputs are vectors of query answers joined by edges of a finite graph
(:func:`query_graph`): ``"all_differ"`` (every answer moves by at most Δ = 1),
``"one_differ"`` (one answer moves by at most 1) and ``"monotone"`` (all answers move
by at most 1 in the same direction), Ding, Wang, Wang, Zhang, Kifer 2018 ("Detecting
violations of differential privacy", CCS: ALL_DIFFER / ONE_DIFFER); the sensitivity
is validated on every edge.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from typing import Any, Literal

import networkx as nx

from ...errors import InvalidMechanism, InvalidParameter

__all__ = [
    "Vector",
    "Style",
    "as_vector",
    "neighbour_violation",
    "check_sensitivity",
    "query_graph",
    "half_half",
    "ramp_pair",
]

#: A vector of integer query answers.
Vector = tuple[int, ...]

#: How neighbouring answer vectors may differ (Ding et al. 2018's ALL_DIFFER, ONE_DIFFER).
Style = Literal["all_differ", "one_differ", "monotone"]


def as_vector(v: Any) -> Vector:
    """``v`` as a tuple of integer query answers (:class:`InvalidMechanism` otherwise)."""
    try:
        t = tuple(v)
    except TypeError:
        raise InvalidMechanism(
            f"a query vector must be a sequence of integers, got {v!r}"
        ) from None
    for x in t:
        if isinstance(x, bool) or not isinstance(x, int):
            raise InvalidMechanism(f"query answers must be integers, got {x!r} in {t}")
    return t


def neighbour_violation(a: Vector, b: Vector, style: Style, sensitivity: int) -> str | None:
    """``None`` when ``a ~ b`` is allowed under ``style``, else the reason."""
    if len(a) != len(b):
        return f"{a} and {b} have different lengths"
    diff = [y - x for x, y in zip(a, b, strict=True)]
    if all(d == 0 for d in diff):
        return f"{a} is listed as its own neighbour"
    if max(abs(d) for d in diff) > sensitivity:
        i = max(range(len(diff)), key=lambda j: abs(diff[j]))
        return f"answer {i} moves by {abs(diff[i])} > {sensitivity} between {a} and {b}"
    if style == "one_differ" and sum(d != 0 for d in diff) != 1:
        return f"{a} and {b} differ in more than one answer (one_differ)"
    if style == "monotone" and not (all(d >= 0 for d in diff) or all(d <= 0 for d in diff)):
        return f"{a} and {b} move in both directions (monotone neighbours move in one)"
    return None


def check_sensitivity(graph: nx.Graph, style: Style = "all_differ", sensitivity: int = 1) -> None:
    """Raise :class:`InvalidMechanism` unless every edge of ``graph`` joins two query
    vectors allowed as neighbours by ``style`` (each answer moves by at most
    ``sensitivity``)."""
    if style not in ("all_differ", "one_differ", "monotone"):
        raise InvalidParameter(f"unknown neighbour style {style!r}")
    for a, b in graph.edges:
        why = neighbour_violation(as_vector(a), as_vector(b), style, sensitivity)
        if why:
            raise InvalidMechanism(f"edge ({a}, {b}) violates the {style} sensitivity: {why}")


def query_graph(
    vectors: Iterable[Sequence[int]],
    style: Style = "all_differ",
    edges: Iterable[tuple[Sequence[int], Sequence[int]]] | None = None,
    sensitivity: int = 1,
) -> nx.Graph:
    """The neighbour graph of a list of query-answer vectors.

    Without ``edges`` every pair allowed by ``style`` is joined: ``"all_differ"`` —
    every answer moves by at most ``sensitivity``; ``"one_differ"`` — exactly one
    answer moves; ``"monotone"`` — all answers move by at most ``sensitivity`` in the
    same direction (Ding et al. 2018's ALL_DIFFER / ONE_DIFFER).  Given ``edges`` are
    validated against ``style`` instead.

    >>> G = query_graph([(0, 0), (1, 1), (1, -1)], style="monotone")
    >>> sorted(tuple(sorted(e)) for e in G.edges)
    [((0, 0), (1, 1))]
    """
    vs = [as_vector(v) for v in vectors]
    if not vs:
        raise InvalidMechanism("no query vectors given")
    if len({len(v) for v in vs}) != 1:
        raise InvalidMechanism("all query vectors must have the same number of answers")
    if len(set(vs)) != len(vs):
        raise InvalidMechanism("a query vector is listed twice")
    g = nx.Graph()
    g.add_nodes_from(vs)
    if edges is None:
        for a, b in itertools.combinations(vs, 2):
            if neighbour_violation(a, b, style, sensitivity) is None:
                g.add_edge(a, b)
    else:
        for ea, eb in edges:
            ta, tb = as_vector(ea), as_vector(eb)
            if ta not in g or tb not in g:
                raise InvalidMechanism(f"edge ({ta}, {tb}) names a vector not in the list")
            g.add_edge(ta, tb)
        check_sensitivity(g, style, sensitivity)
    g.graph["style"] = style
    return g


def half_half(m: int) -> tuple[Vector, Vector]:
    """``([0]*m + [1]*m, [1]*m + [0]*m)`` — the standard SVT counterexample inputs
    (Lyu et al. §3; Ding et al. 2018's "half-half" pattern); ALL_DIFFER neighbours."""
    return (0,) * m + (1,) * m, (1,) * m + (0,) * m


def ramp_pair(m: int) -> tuple[Vector, Vector]:
    """``([0]*m + [1], [1]*m + [0])``: m answers below then one above, and shifted."""
    return (0,) * m + (1,), (1,) * m + (0,)
