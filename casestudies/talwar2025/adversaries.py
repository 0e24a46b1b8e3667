"""Adaptive oracle algorithms that query other inputs, for Talwar 2025, Theorems 9–10.

The registered algorithms (``A_max^T``, ``A_LT``, the hybrids) call the oracle only on
their own input and never choose where to call it.  Theorems 9 and 10 quantify over
every oracle algorithm within three hypotheses — privacy (``cε``-DP whenever the oracle
is ε-DP), utility (failure at most ``γ``), runtime (at most ``T`` calls in expectation)
— including algorithms that call the oracle on other datasets and choose those calls
from what they have seen.  Two such algorithms, each within the hypotheses by a hand
argument, run on the lower-bound instances lumped by the distance to the hidden centre
(``{0,1}^n``, class ``j`` = distance ``j``; a uniformly random neighbour of a point of
class ``j`` is in class ``j - 1`` with probability ``j/n`` and ``j + 1`` otherwise, so
the lumping is exact):

* :func:`neighbour_probe` ``(T, T')``: ``T`` calls on the input ``d``; if the first
  returned a score below the top, ``T'`` further calls, each on ``d`` with one uniformly
  random coordinate flipped (an adaptive, data-dependent choice of other inputs); release
  the best tuple received.  Privacy: for a fixed flipped coordinate ``d ↦ d ⊕ e_i``
  preserves neighbours, so each call is ε-DP in ``d`` and by adaptive composition the
  algorithm is ``(T + T')ε``-DP: ``c = T + T'``.  Utility: the release is at least the
  best of the ``T`` calls on ``d``, so its failure is at most ``A_max^T``'s ``(1-β)^T``.
  Runtime: at most ``T + T'`` calls.
* :func:`blind_probe` ``(alg, m)``: a rank-based algorithm ``alg`` on ``d``, plus up to
  ``m`` probes at uniformly random datasets, stopping at the first top-scored answer (the
  number of probes adapts to the answers); release the best tuple received.  The probes do
  not depend on ``d``: privacy ``c`` and failure are ``alg``'s; runtime at most
  ``E[calls of alg] + m``.

On every input the release is the best of independent calls, so
``Pr[release ranked <= x] = Π_calls F_call(x)`` (stopping at a top-scored answer does not
change the release, only the number of calls).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from math import comb
from typing import Any

import sympy as sp

from verifier.algorithms.liu_talwar import ranking
from verifier.algorithms.talwar import HALF, OracleAlgorithm, a_max
from verifier.errors import InvalidParameter
from verifier.mechanism.model import FiniteMechanism

R = sp.Rational


def _classes(M: FiniteMechanism) -> int:
    n = max(M.datasets)
    if sorted(M.datasets) != list(range(n + 1)):
        raise InvalidParameter(
            f"{M.name!r} is not lumped by distance: its datasets must be the classes 0..n"
        )
    return int(n)


def _best_of(
    M: FiniteMechanism, calls: dict[int, list[tuple[dict[Any, sp.Expr], int]]], name: str
) -> FiniteMechanism:
    """The best (by score) of independent calls: at class ``j`` the calls ``calls[j]``
    (distribution, count); ``Pr[o] = Π F(<= o)^count - Π F(< o)^count``."""
    rk = ranking(M)
    dists: dict[Any, dict[Any, sp.Expr]] = {}
    for j, cl in calls.items():
        row: dict[Any, sp.Expr] = {}
        below = [sp.Integer(0)] * len(cl)
        for o in rk.order:
            at = [b + dist.get(o, 0) for b, (dist, _) in zip(below, cl, strict=True)]
            hi = sp.Mul(*[a**k for a, (_, k) in zip(at, cl, strict=True)])
            lo = sp.Mul(*[b**k for b, (_, k) in zip(below, cl, strict=True)])
            pr = hi - lo
            if pr != 0:
                row[o] = pr
            below = at
        dists[j] = row
    return FiniteMechanism(M.graph, dists, list(rk.order), name=name, validate=False)


def _dist(M: FiniteMechanism, j: int) -> dict[Any, sp.Expr]:
    return {o: M.p(j, o) for o in M.outputs}


def _mix(parts: list[tuple[sp.Expr, dict[Any, sp.Expr]]]) -> dict[Any, sp.Expr]:
    out: dict[Any, sp.Expr] = {}
    for w, d in parts:
        for o, p in d.items():
            out[o] = out.get(o, sp.Integer(0)) + w * p
    return out


@dataclass(frozen=True)
class AdaptiveAlgorithm:
    """An adaptive oracle algorithm with the attributes the lower-bound chains read
    (those of :class:`verifier.algorithms.talwar.OracleAlgorithm`)."""

    label: str
    overhead: sp.Expr
    expected_calls: sp.Expr
    quantile: sp.Expr
    failure_bound: sp.Expr
    kind: str
    params: dict[str, Any] = field(default_factory=dict)

    def apply(self, M: FiniteMechanism) -> FiniteMechanism:
        n = _classes(M)
        if self.kind == "neighbour":
            T, Tp = self.params["T"], self.params["T_extra"]
            calls = {}
            for j in range(n + 1):
                parts = []
                if j > 0:
                    parts.append((R(j, n), _dist(M, j - 1)))
                if j < n:
                    parts.append((R(n - j, n), _dist(M, j + 1)))
                nb = _mix(parts)
                calls[j] = [(_dist(M, j), T), (nb, Tp)]
            return _best_of(M, calls, f"{self.label}[{M.name}]")
        inner: OracleAlgorithm = self.params["alg"]
        base = inner.apply(M)
        uniform = _mix([(R(comb(n, j), 2**n), _dist(M, j)) for j in range(n + 1)])
        calls = {j: [(_dist(base, j), 1), (uniform, self.params["m"])] for j in range(n + 1)}
        return _best_of(M, calls, f"{self.label}[{M.name}]")

    def __str__(self) -> str:
        return self.label


def neighbour_probe(T: int, T_extra: int, quantile: Any = HALF) -> AdaptiveAlgorithm:
    """``T`` calls on ``d``, then (if the first is not top-scored) ``T_extra`` calls on
    random neighbours of ``d``: ``c = T + T_extra``, failure ``<= (1-β)^T``."""
    base = a_max(T, quantile)
    return AdaptiveAlgorithm(
        f"NeighbourProbe({T}, {T_extra})",
        sp.Integer(T + T_extra),
        sp.Integer(T + T_extra),
        base.quantile,
        base.failure_bound,
        "neighbour",
        {"T": T, "T_extra": T_extra},
    )


def blind_probe(alg: OracleAlgorithm, m: int) -> AdaptiveAlgorithm:
    """``alg`` on ``d`` plus up to ``m`` probes at uniformly random datasets (stopping at
    the first top-scored answer): ``alg``'s ``c`` and failure, ``E[calls] <= alg's + m``."""
    return AdaptiveAlgorithm(
        f"BlindProbe({alg.label}, {m})",
        alg.overhead,
        alg.expected_calls + m,
        alg.quantile,
        alg.failure_bound,
        "blind",
        {"alg": alg, "m": m},
    )
