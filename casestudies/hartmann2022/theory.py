"""Hartmann et al. 2022: Lemmas 3, 4, 6 and 10 and Theorem 7 as functions.

The ODP machinery (partitions, guarantees, subset DP, the composition experiment of
Alg. 1, the PTR cascade) is the library's (:mod:`verifier.odp.guarantees`, :mod:`verifier.odp.ptr`);
what carries a statement number lives here.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Any

import sympy as sp

from verifier.arithmetic.exact import DEFAULT_PRECISION, Precision, exact
from verifier.checks.privacy import check_approx_dp, check_pure_dp
from verifier.checks.results import CheckResult, conjunction, implication
from verifier.mechanism.model import FiniteMechanism
from verifier.odp.guarantees import CompositionRun, ODPGuarantee, Partition, check_odp
from verifier.odp.ptr import bottom_partition, ptr_delta0

__all__ = ["lemma3", "lemma4", "lemma6", "lemma10_guarantee", "check_theorem7"]


def lemma3(eps: Any, delta: Any, partition: Partition) -> ODPGuarantee:
    """Hartmann et al. Lemma 3: an ``(ε, δ)``-DP mechanism is ``(P, e ≡ ε, δ)``-ODP
    for every partition ``P``."""
    return ODPGuarantee.of(partition, exact(eps), exact(delta))


def lemma6(
    partition: Partition, eps: Mapping[Hashable, Any], deltas: Mapping[Hashable, Any]
) -> ODPGuarantee:
    """Hartmann et al. Lemma 6: ``(S_j, e(j), δ(j))``-subset DP for every cell ⇒
    ``(P, e, Σ_j δ(j))``-ODP."""
    total = sp.Add(*[exact(deltas[n]) for n in partition.names])
    return ODPGuarantee.of(partition, eps, total)


def check_theorem7(
    run: CompositionRun,
    *,
    precision: Precision = DEFAULT_PRECISION,
    check_moves: bool = True,
    title: str | None = None,
) -> CheckResult:
    """Theorem 7 on one unfolded game: if every move's ODP claim holds (checked
    exactly on all neighbours of its mechanism), the view is
    ``(ε_g, δ_g)``-indistinguishable in both directions."""
    what = f"views are ({run.eps_total}, {run.delta_total})-indistinguishable"
    if run.delta_total == 0:
        conclusion = check_pure_dp(
            run.transcript, epsilon=run.eps_total, precision=precision, title=what
        )
    else:
        conclusion = check_approx_dp(
            run.transcript,
            epsilon=run.eps_total,
            delta=run.delta_total,
            precision=precision,
            title=what,
        )
    if not check_moves:
        return conclusion
    seen: dict[tuple[int, int], CheckResult] = {}
    claims = []
    for _, mv in run.moves:
        key = id(mv.mechanism), id(mv.guarantee)
        if key in seen:
            continue
        r = check_odp(mv.mechanism, mv.guarantee, precision=precision)
        seen[key] = r
        claims.append(r)
    premise = conjunction("every move's ODP claim holds", claims)
    return implication(title or "Theorem 7 on this adversary", premise, conclusion)


def lemma4(g: ODPGuarantee) -> tuple[sp.Expr, sp.Expr]:
    """Hartmann et al. Lemma 4: ``(P, e, δ)``-ODP ⇒ ``(max_j e(j), δ)``-DP (the
    maximum is taken exactly)."""
    return g.dp_guarantee()


def lemma10_guarantee(mech: FiniteMechanism, eps: Any, threshold: int) -> ODPGuarantee:
    """Hartmann et al. Lemma 10 for the cascade of two PTR functions:
    ``({⊥}: 2ε, R: 3ε, (1 + e^ε) δ0)`` (δ derived in the module docstring)."""
    e = exact(eps)
    d0 = ptr_delta0(e, threshold)
    return ODPGuarantee.of(
        bottom_partition(mech.outputs), {"⊥": 2 * e, "R": 3 * e}, (1 + sp.exp(e)) * d0
    )
