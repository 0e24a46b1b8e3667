"""Neighbour graphs: pairs, Hamming cubes (explicit and lumped), add/remove.

Every builder returns an undirected :class:`networkx.Graph` whose nodes are datasets.
Lumped graphs (quotients by a symmetry) carry a node attribute ``size``: the number
of original datasets in each class, as an exact integer.

Lumping and privacy.  If a mechanism gives the same distribution to every dataset
of a class, and every edge of the original graph joins two classes joined by an edge
of the quotient (and vice versa), then the set of ordered neighbouring pairs of
distributions is the same on the graph and on its quotient, so every per-pair
privacy check (pure, approximate, Rényi, ex-post DP) has the same answer on both.
:func:`lumped_hamming_cube` is the quotient of ``{0,1}^n`` by the distance to
``0^n``: ``n + 1`` classes instead of ``2^n`` nodes.

>>> G = lumped_hamming_cube(60)
>>> G.number_of_nodes(), G.nodes[30]["size"]
(61, 118264581564861424)
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable, Iterable, Iterator
from math import comb

import networkx as nx

from ..errors import InvalidParameter
from ..runtime.docstrings import filler

__all__ = [
    "pair",
    "path",
    "hamming_cube",
    "lumped_hamming_cube",
    "add_remove",
    "replace_one",
    "lump_by_distance",
    "pairs_at_distance",
    "MAX_EXPLICIT_NODES",
]

#: Explicit graphs larger than this are refused: lump them instead.
MAX_EXPLICIT_NODES = 1 << 20


#: The entry of the constructors that take a size ``n`` (checked by ``_check_n``).
_fill_doc = filler(
    raises_n="verifier.errors.InvalidParameter\n    ``n`` is not a positive integer."
)


def _check_n(n: int, what: str) -> None:
    if not isinstance(n, int) or isinstance(n, bool) or n < 1:
        raise InvalidParameter(f"{what} must be a positive integer, got {n!r}")


def pair(a: Hashable = "D", b: Hashable = "D'") -> nx.Graph:
    """Two neighbouring datasets.

    Parameters
    ----------
    a, b : hashable
        The two datasets; default ``"D"`` and ``"D'"``.

    Returns
    -------
    networkx.Graph
        One edge ``a ~ b``.

    Raises
    ------
    verifier.errors.InvalidParameter
        ``a == b``.

    Examples
    --------
    >>> sorted(pair().nodes), list(pair(0, 1).edges)
    (['D', "D'"], [(0, 1)])
    """
    if a == b:
        raise InvalidParameter("a neighbouring pair needs two distinct datasets")
    g = nx.Graph()
    g.add_edge(a, b)
    return g


@_fill_doc
def path(n: int) -> nx.Graph:
    """Datasets ``0, 1, ..., n`` with ``i ~ i+1`` (a chain; distance = ``|i-j|``).

    Parameters
    ----------
    n : int
        The number of edges (``n + 1`` datasets).

    Returns
    -------
    networkx.Graph

    Raises
    ------
    %(raises_n)s

    Examples
    --------
    >>> sorted(path(3).edges)
    [(0, 1), (1, 2), (2, 3)]
    """
    _check_n(n, "path length")
    return nx.path_graph(n + 1)


def hamming_cube(n: int) -> nx.Graph:
    """``{0,1}^n`` as bit tuples; neighbours differ in one coordinate.

    Parameters
    ----------
    n : int
        The dimension.

    Returns
    -------
    networkx.Graph
        ``2^n`` nodes and ``n 2^(n-1)`` edges.

    Raises
    ------
    verifier.errors.InvalidParameter
        ``n`` is not a positive integer, or the cube exceeds
        :data:`MAX_EXPLICIT_NODES` (use :func:`lumped_hamming_cube`).

    Examples
    --------
    >>> G = hamming_cube(3)
    >>> G.number_of_nodes(), G.number_of_edges()
    (8, 12)
    >>> sorted(G[(0, 0, 0)])
    [(0, 0, 1), (0, 1, 0), (1, 0, 0)]
    """
    _check_n(n, "cube dimension")
    if 2**n > MAX_EXPLICIT_NODES:
        raise InvalidParameter(
            f"the cube {{0,1}}^{n} has 2^{n} nodes; use lumped_hamming_cube({n}) instead"
        )
    g = nx.Graph()
    for x in itertools.product((0, 1), repeat=n):
        g.add_node(x)
        for i in range(n):
            if x[i] == 0:
                g.add_edge(x, x[:i] + (1,) + x[i + 1 :])
    return g


@_fill_doc
def lumped_hamming_cube(n: int) -> nx.Graph:
    """``{0,1}^n`` lumped by Hamming distance to ``0^n``: classes ``0..n``.

    Class ``k`` has ``size = C(n, k)``; classes ``k`` and ``k+1`` are adjacent.
    Exact for mechanisms that depend on a dataset only through its distance to
    ``0^n`` (see the module docstring); the graph distance between the singleton
    classes ``0`` and ``n`` is the Hamming distance ``n`` between ``0^n`` and ``1^n``.

    Parameters
    ----------
    n : int
        The dimension of the cube.

    Returns
    -------
    networkx.Graph
        The path ``0 ~ 1 ~ ... ~ n``; node attribute ``size`` is ``C(n, k)``.

    Raises
    ------
    %(raises_n)s

    Examples
    --------
    >>> G = lumped_hamming_cube(3)
    >>> sorted(G.nodes(data="size")), sorted(G.edges)
    ([(0, 1), (1, 3), (2, 3), (3, 1)], [(0, 1), (1, 2), (2, 3)])
    """
    _check_n(n, "cube dimension")
    g = nx.path_graph(n + 1)
    for k in range(n + 1):
        g.nodes[k]["size"] = comb(n, k)
    g.graph["lumped_from"] = f"hamming_cube({n}) by distance to 0^{n}"
    return g


def add_remove(universe: Iterable[Hashable], max_size: int | None = None) -> nx.Graph:
    """Subsets of ``universe`` (as frozensets); neighbours differ by one element.

    Parameters
    ----------
    universe : iterable of hashables
        The possible records (duplicates are dropped).
    max_size : int, optional
        Only subsets of at most this many records.

    Returns
    -------
    networkx.Graph
        Nodes are frozensets.

    Raises
    ------
    verifier.errors.InvalidParameter
        The universe is empty, ``max_size`` is negative, or there are more than
        :data:`MAX_EXPLICIT_NODES` subsets.

    Examples
    --------
    >>> G = add_remove("ab")
    >>> sorted(sorted(s) for s in G.nodes)
    [[], ['a'], ['a', 'b'], ['b']]
    >>> G.number_of_edges()
    4
    """
    items = list(dict.fromkeys(universe))
    if not items:
        raise InvalidParameter("the universe of records is empty")
    top = len(items) if max_size is None else max_size
    if top < 0:
        raise InvalidParameter(f"max_size must be non-negative, got {max_size}")
    count = sum(comb(len(items), k) for k in range(min(top, len(items)) + 1))
    if count > MAX_EXPLICIT_NODES:
        raise InvalidParameter(f"{count} subsets exceed the limit of {MAX_EXPLICIT_NODES}")
    g = nx.Graph()
    for k in range(min(top, len(items)) + 1):
        for s in itertools.combinations(items, k):
            fs = frozenset(s)
            g.add_node(fs)
            for x in items:
                if x not in fs and k + 1 <= top:
                    g.add_edge(fs, fs | {x})
    return g


def replace_one(universe: Iterable[Hashable], n: int) -> nx.Graph:
    """Datasets of ``n`` records from ``universe`` (tuples); neighbours differ in one
    position ("bounded" or substitution neighbours)."""
    items = list(dict.fromkeys(universe))
    _check_n(n, "number of records")
    if len(items) ** n > MAX_EXPLICIT_NODES:
        raise InvalidParameter(f"{len(items)}^{n} datasets exceed {MAX_EXPLICIT_NODES}")
    g = nx.Graph()
    for x in itertools.product(items, repeat=n):
        g.add_node(x)
        for i in range(n):
            for y in items:
                if y != x[i]:
                    g.add_edge(x, x[:i] + (y,) + x[i + 1 :])
    return g


def lump_by_distance(graph: nx.Graph, source: Hashable) -> nx.Graph:
    """Quotient of ``graph`` by the graph distance to ``source``.

    Class ``k`` holds the nodes at distance ``k`` (attribute ``size`` and ``members``);
    classes are adjacent when some edge joins them.  Exact for mechanisms that depend
    on a dataset only through its distance to ``source``.
    """
    if source not in graph:
        raise InvalidParameter(f"{source!r} is not a node of the graph")
    dist = nx.single_source_shortest_path_length(graph, source)
    q = nx.Graph()
    for node, k in dist.items():
        if k not in q:
            q.add_node(k, size=0, members=[])
        q.nodes[k]["size"] += 1
        q.nodes[k]["members"].append(node)
    for u, v in graph.edges:
        if u in dist and v in dist and dist[u] != dist[v]:
            q.add_edge(dist[u], dist[v])
    return q


def pairs_at_distance(
    graph: nx.Graph, k: int, *, at_most: bool = False
) -> Iterator[tuple[Hashable, Hashable]]:
    """Ordered pairs of datasets at graph distance exactly ``k`` (or ``1..k``).

    Group privacy (Talwar 2025, Props 4-6) is a statement about these pairs.

    Parameters
    ----------
    graph : networkx.Graph
        The neighbour graph.
    k : int
        The graph distance.
    at_most : bool
        Every distance ``1..k`` instead of exactly ``k``.

    Returns
    -------
    iterator of (hashable, hashable)
        Both orders of every pair.

    Raises
    ------
    verifier.errors.InvalidParameter
        ``k`` is not a positive integer (raised when the iterator is first advanced).

    Examples
    --------
    >>> sorted(pairs_at_distance(path(3), 2))
    [(0, 2), (1, 3), (2, 0), (3, 1)]
    >>> len(list(pairs_at_distance(path(3), 2, at_most=True)))
    10
    """

    if not isinstance(k, int) or k < 1:
        raise InvalidParameter(f"distance must be a positive integer, got {k!r}")
    for u, lengths in nx.all_pairs_shortest_path_length(graph, cutoff=k):
        for v, dd in lengths.items():
            if (dd == k) or (at_most and 1 <= dd <= k):
                yield (u, v)
