"""Previous implementations, kept as the baselines of the benchmark runner.

:func:`alg3_termwise` is Algorithm 3's exact path as it was before the integer
path (Ghazi et al. 2025, Algorithm 3 and the proof of Theorem 11): for every output a
generic sparse expansion of the product over ``j != i`` (``O(deg^2)`` coefficient
operations per output, so ``O(n·d^3)`` in all), then one sympy moment and one sympy
product per term.  The runner checks that the current implementation returns the
*same* exact probabilities before it counts either time.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import sympy as sp

from verifier.algorithms.ghazi import (
    BOTTOM,
    _alg3_others,
    _budget,
    _budgets,
    _common_order,
    _merged_values,
    _tables,
    copy_counts,
)
from verifier.algorithms.ghazi_series import ExpPoly, Factor, Prior, expand, make_basis
from verifier.mechanism.compose import same_neighbour_graph
from verifier.mechanism.model import Dataset, FiniteMechanism, Output

__all__ = ["alg3_termwise"]


def _expectation_termwise(poly: ExpPoly, basis: Any, prior: Prior) -> sp.Expr:
    """``E_k[Σ_n c_n e^{-⟨n, ε⟩ k}]``: one :meth:`Prior.moment` per term, summed by
    sympy (the previous :func:`verifier.algorithms.ghazi_series.expectation`)."""
    terms = []
    for key, c in sorted(poly.terms.items()):
        terms.append(poly.to_sympy(c) * prior.moment(basis.c(key), basis.w(key)))
    return sp.Add(*terms)


def alg3_termwise(
    mechanisms: Sequence[FiniteMechanism],
    epsilons: Sequence[Any],
    eps_prime: Any,
    *,
    prior: str = "geometric",
    copies: Sequence[int] | None = None,
) -> FiniteMechanism:
    """Algorithm 3 (Ghazi et al. 2025) by the previous term-by-term expansion."""
    mechs = list(mechanisms)
    graph = same_neighbour_graph(mechs)
    eps = _budgets(mechs, epsilons)
    ts = copy_counts(copies, len(mechs))
    pr = Prior(prior, _budget(eps_prime, "eps_prime", positive=True))
    outs = _common_order(mechs, None)
    rank = {o: r for r, o in enumerate(outs)}
    tab = _tables(mechs, outs)
    basis, keys = make_basis(eps)
    d = len(mechs)
    labels: list[tuple[Output, int]] = [
        (o, i + 1) for o in outs for i, m in enumerate(mechs) if o in set(m.outputs)
    ]
    bottom = _expectation_termwise(
        expand([Factor(1, keys[j], ts[j]) for j in range(d)], basis), basis, pr
    )
    dists: dict[Dataset, dict[Output, sp.Expr]] = {}
    for D in graph.nodes:
        row: dict[Output, sp.Expr] = {BOTTOM: bottom}
        for o, i1 in labels:
            i = i1 - 1
            r = rank[o]
            qo = tab.point[i][D][r]
            if qo == 0:
                continue
            factors = [Factor(q, keys[j], ts[j]) for j, q in _alg3_others(i, r, D, tab)]
            if ts[i] == 1:
                poly = expand(factors, basis, scale=qo, shift=keys[i])
            else:
                a = tab.above[i][D][r]
                b = a + qo
                T = ts[i]
                grp = {
                    tuple(t * n for n in keys[i]): sp.Integer(math.comb(T, t) * (-1) ** t)
                    * (a**t - b**t)
                    for t in range(1, T + 1)
                }
                poly = expand(factors, basis, extra=[grp])
            row[(o, i1)] = _expectation_termwise(poly, basis, pr)
        dists[D] = row
    return FiniteMechanism(
        graph, dists, [BOTTOM, *labels], values=_merged_values(mechs), validate=False
    )
