"""Subsampling, exactly: a mechanism run on a random subsample of the records.

A *base* mechanism is given as a function from a dataset — a tuple of records, any
hashable values — to its exact output distribution (a mapping output -> probability).
The subsampled mechanism's law at a dataset ``D`` of ``n`` records is the mixture of
the base's laws over the subsamples (records taken by position, so equal records are
distinct draws):

* **Poisson subsampling** with rate ``γ`` (:func:`poisson_subsample`): every record
  is kept independently with probability ``γ``, ``P_D(o) = Σ_{I ⊆ [n]} γ^{|I|}
  (1-γ)^{n-|I|} base(D_I)(o)``; its neighbours are add/remove (``D' = D`` plus one
  record, :func:`add_remove_graph`);
* **sampling without replacement** of ``m`` records (:func:`sample_without_replacement`):
  ``P_D(o) = Σ_{|I| = m} base(D_I)(o) / C(n, m)``; its neighbours are substitutions
  (same size, one record replaced, :func:`substitution_graph`).

Both sums run over the ``2^n`` (or ``C(n, m)``) subsets, each base law computed once
per distinct sub-multiset; datasets of up to :data:`MAX_RECORDS` records.  The
amplification theorems these laws are checked against are those of Balle, Barthe &
Gaboardi 2018 ("Privacy amplification by subsampling: tight analyses via couplings
and divergences", NeurIPS; the Poisson and without-replacement rows of their Table 1):
an ``ε``-DP base gives ``log(1 + γ(e^ε - 1))`` under Poisson subsampling and
``log(1 + (m/n)(e^ε - 1))`` without replacement (``casestudies.subsampling``).

>>> import sympy as sp
>>> from verifier.checks.privacy import pure_epsilon
>>> rr = lambda S: {1: sp.Rational(3, 4), 0: sp.Rational(1, 4)} if "x" in S else {1: sp.Rational(1, 4), 0: sp.Rational(3, 4)}
>>> m = poisson_subsample(rr, [("y",), ("x", "y")], sp.Rational(1, 2))
>>> m.p(("x", "y"), 1), pure_epsilon(m).value      # 1 + (1/2)(3 - 1) = 2
(1/2, log(2))
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any

import networkx as nx
import sympy as sp

from ..arithmetic.exact import exact
from ..errors import InvalidMechanism, InvalidParameter
from .model import FiniteMechanism

__all__ = [
    "MAX_RECORDS",
    "add_remove_graph",
    "substitution_graph",
    "poisson_subsample",
    "sample_without_replacement",
]

#: The largest dataset subsampled (its ``2^n`` subsets are summed).
MAX_RECORDS = 16

Dataset = tuple[Hashable, ...]
Base = Callable[[Dataset], Mapping[Hashable, Any]]


def _multiset(d: Dataset) -> Counter[Hashable]:
    return Counter(d)


def add_remove_graph(datasets: Sequence[Dataset]) -> nx.Graph:
    """The add/remove neighbours among ``datasets``: ``D ~ D'`` when one is the other
    with one more record (as multisets)."""
    g = nx.Graph()
    g.add_nodes_from(datasets)
    for a, b in itertools.combinations(datasets, 2):
        small, big = (a, b) if len(a) < len(b) else (b, a)
        if len(big) == len(small) + 1 and not _multiset(small) - _multiset(big):
            g.add_edge(a, b)
    return g


def substitution_graph(datasets: Sequence[Dataset]) -> nx.Graph:
    """The substitution neighbours among ``datasets``: same size, one record replaced
    (as multisets)."""
    g = nx.Graph()
    g.add_nodes_from(datasets)
    for a, b in itertools.combinations(datasets, 2):
        if len(a) == len(b) and sum((_multiset(a) - _multiset(b)).values()) == 1:
            g.add_edge(a, b)
    return g


def _check_datasets(datasets: Sequence[Dataset]) -> list[Dataset]:
    out = [tuple(d) for d in datasets]
    if not out:
        raise InvalidParameter("no dataset to subsample")
    if len(set(out)) != len(out):
        raise InvalidParameter("a dataset is listed twice")
    for d in out:
        if len(d) > MAX_RECORDS:
            raise InvalidParameter(
                f"a dataset of {len(d)} records: subsampling sums its 2^n subsets "
                f"(at most {MAX_RECORDS} records)"
            )
    return out


def _mixture(
    base: Base,
    d: Dataset,
    weighted: Sequence[tuple[Sequence[int], sp.Expr]],
    cache: dict[Dataset, dict[Hashable, sp.Expr]],
) -> dict[Hashable, sp.Expr]:
    """``Σ_I w_I base(D_I)`` over the index subsets ``I`` with weights ``w_I``."""
    law: dict[Hashable, sp.Expr] = {}
    for idx, w in weighted:
        sub = tuple(sorted((d[i] for i in idx), key=repr))
        if sub not in cache:
            dist = base(sub)
            if not isinstance(dist, Mapping):
                raise InvalidMechanism(
                    f"the base mechanism returned {type(dist).__name__} for {sub!r}, "
                    f"not a mapping output -> probability"
                )
            cache[sub] = {o: exact(p) for o, p in dist.items()}
        for o, p in cache[sub].items():
            law[o] = law.get(o, sp.Integer(0)) + w * p
    return law


def _build(
    laws: dict[Dataset, dict[Hashable, sp.Expr]],
    graph: nx.Graph,
    name: str,
    *,
    symbolic_rate: bool,
) -> FiniteMechanism:
    """The mechanism of the mixtures, validated — except with a symbolic Poisson rate:
    each probability is then a polynomial in it (expanded), a distribution for every
    rate in ``[0, 1]`` by construction — weights ``γ^k (1-γ)^{n-k} >= 0`` summing to one
    times distributions — which the model's validation, asked about every real rate,
    cannot see (the checkers decide over a range inside ``[0, 1]``)."""
    outputs = sorted({o for law in laws.values() for o in law}, key=repr)
    zero = sp.Integer(0)
    dists = {
        d: {o: sp.expand(law.get(o, zero)) if symbolic_rate else law.get(o, zero) for o in outputs}
        for d, law in laws.items()
    }
    return FiniteMechanism(graph, dists, outputs, name=name, validate=not symbolic_rate)


def poisson_subsample(
    base: Base, datasets: Sequence[Dataset], rate: Any, *, name: str | None = None
) -> FiniteMechanism:
    """``base`` on a Poisson subsample (every record kept with probability ``rate``)
    at each of ``datasets``, on their add/remove neighbour graph (module docstring).
    ``rate`` is exact in ``[0, 1]`` or a symbol."""
    ds = _check_datasets(datasets)
    g = exact(rate)
    if not g.free_symbols and not (0 <= g <= 1):
        raise InvalidParameter(f"the sampling rate must lie in [0, 1], got {g}")
    cache: dict[Dataset, dict[Hashable, sp.Expr]] = {}
    laws = {}
    for d in ds:
        n = len(d)
        weighted = [
            (idx, g**k * (1 - g) ** (n - k))
            for k in range(n + 1)
            for idx in itertools.combinations(range(n), k)
        ]
        laws[d] = _mixture(base, d, weighted, cache)
    return _build(
        laws, add_remove_graph(ds), name or f"Poisson({g})", symbolic_rate=bool(g.free_symbols)
    )


def sample_without_replacement(
    base: Base, datasets: Sequence[Dataset], size: int, *, name: str | None = None
) -> FiniteMechanism:
    """``base`` on ``size`` records drawn uniformly without replacement at each of
    ``datasets`` (all of at least ``size`` records), on their substitution neighbour
    graph (module docstring)."""
    ds = _check_datasets(datasets)
    if isinstance(size, bool) or not isinstance(size, int) or size < 0:
        raise InvalidParameter(f"the sample size must be a nonnegative integer, got {size!r}")
    short = [d for d in ds if len(d) < size]
    if short:
        raise InvalidParameter(f"dataset {short[0]!r} has fewer than {size} records")
    cache: dict[Dataset, dict[Hashable, sp.Expr]] = {}
    laws = {}
    for d in ds:
        subsets = list(itertools.combinations(range(len(d)), size))
        w = sp.Rational(1, len(subsets))
        laws[d] = _mixture(base, d, [(idx, w) for idx in subsets], cache)
    return _build(laws, substitution_graph(ds), name or f"WOR(m={size})", symbolic_rate=False)
