"""Liu & Talwar 2019, App. D, Theorem D.2: the packing instance showing that the
factor 2 of private selection is necessary.

``K`` Bernoulli mechanisms ``M_1..M_K`` on datasets ``D_0, D_1, ..., D_K`` with

    ``p_i(D_0) = 1/(2√K)``,  ``p_i(D_j) = 1 - 1/(2K^α)`` if ``i = j`` else ``1/(2K^{1+α})``,

``D_j`` at distance ``Δ = ⌈(0.5 + α) ln K / ε⌉`` from ``D_0``.  The neighbour graph
here is a star of ``K`` paths of length ``Δ`` (``D_0`` in the centre, ``D_j`` at the
end of arm ``j``), and each ``M_i`` is interpolated along every arm greedily —
``p_{t+1} = min(b, e^ε p_t, 1 - e^{-ε}(1 - p_t))`` towards a larger endpoint ``b``
(``max(b, e^{-ε} p_t, 1 - e^ε(1 - p_t))`` towards a smaller one), the fastest move
that keeps both ``p`` and ``1 - p`` within a factor ``e^ε`` per step — which makes
every ``M_i`` exactly ε-DP ("it is easy to check that ... the ``M_i``'s can be
extended to satisfy ε-DP").  The endpoints always satisfy the premise
(``b/a = 2√K (1 - K^{-α}/2) <= K^{1/2+α}`` iff ``(K^α - 1)^2 >= 0``, and
``(1-a)/(1-b) <= 2K^α <= K^{1/2+α}``), and the construction checks that the greedy
path arrives at ``b`` after ``Δ`` steps.

Theorem D.2's argument: ``i = j`` is ``K^{-α}``-dominant at ``D_j``; a
``K^{-α}``-weakly-useful ε̂-DP selector outputs ``j`` at ``D_j`` with probability
``≥ K^{-α}``, hence at ``D_0`` with probability ``≥ e^{-Δε̂} K^{-α}`` for every ``j``;
these sum to at most 1, so ``ε̂ ≥ (1 - α) ln K / Δ``, which is ``≥ (2 - 6α)ε`` for
large ``K``.

>>> import sympy as sp
>>> inst = packing_instance(16, sp.Rational(1, 4), sp.log(2))
>>> inst.Delta, inst.mechanisms[0].p((0, 1), 1), inst.mechanisms[1].p((0, 1), 1)
(3, 1/4, 1/16)
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

import networkx as nx
import sympy as sp

from ..arithmetic.exact import DEFAULT_PRECISION, Precision, Verdict, decide_eq, decide_le, exact
from ..checks.certified import certified_ceil, certified_min, check_le
from ..checks.privacy import check_epsilon
from ..checks.results import CheckResult, Finding, conjunction
from ..errors import InvalidParameter
from ..mechanism.model import FiniteMechanism

__all__ = ["PackingInstance", "packing_instance", "packing_bound", "dominance", "weak_usefulness"]

R = sp.Rational


@dataclass
class PackingInstance:
    """The D.2 instance: star graph, the ``K`` Bernoulli mechanisms (outputs 0 < 1),
    ``Δ``, ``γ = K^{-α}``, the centre ``D0`` and the arm ends ``D(j)``."""

    K: int
    alpha: sp.Expr
    eps: sp.Expr
    Delta: int
    gamma: sp.Expr
    graph: nx.Graph
    mechanisms: list[FiniteMechanism]
    centre: Hashable = "D0"

    def D(self, j: int) -> Hashable:
        """The dataset ``D_j`` (end of arm ``j``), ``j = 0..K-1``."""
        return (j, self.Delta)


def _greedy_path(a: sp.Expr, b: sp.Expr, e: sp.Expr, steps: int, prec: Precision) -> list[sp.Expr]:
    up = decide_le(a, b, prec).verdict is Verdict.HOLDS
    x = sp.exp(e)
    out = [a]
    p = a
    for _ in range(steps):
        if up:
            p = certified_min([b, x * p, 1 - (1 - p) / x], prec)
        else:
            p = -certified_min([-b, -p / x, -(1 - x * (1 - p))], prec)
        out.append(p)
    if decide_eq(out[-1], b, prec) is not Verdict.HOLDS:
        raise InvalidParameter(
            f"no eps-DP Bernoulli path of length {steps} joins {a} and {b} (eps = {e}); "
            f"increase K or alpha"
        )
    out[-1] = b
    return out


def packing_instance(
    K: int, alpha: Any, eps: Any, *, precision: Precision = DEFAULT_PRECISION
) -> PackingInstance:
    """Build Liu & Talwar 2019, Theorem D.2's instance (see the module docstring)."""
    if isinstance(K, bool) or not isinstance(K, int) or K < 2:
        raise InvalidParameter(f"K must be an integer >= 2, got {K!r}")
    a = exact(alpha)
    if not (a.is_Rational and 0 < a < R(1, 2)):
        raise InvalidParameter(f"alpha must be a rational in (0, 1/2), got {a}")
    e = check_epsilon(eps, precision=precision)
    Delta = certified_ceil((R(1, 2) + a) * sp.log(K) / e, precision)
    at_centre = 1 / (2 * sp.sqrt(K))
    own = 1 - 1 / (2 * sp.Integer(K) ** a)
    other = 1 / (2 * sp.Integer(K) ** (1 + a))
    g = nx.Graph()
    centre = "D0"
    g.add_node(centre)
    for j in range(K):
        prev: Hashable = centre
        for t in range(1, Delta + 1):
            g.add_edge(prev, (j, t))
            prev = (j, t)
    to_own = _greedy_path(at_centre, own, e, Delta, precision)
    to_other = _greedy_path(at_centre, other, e, Delta, precision)
    mechs = []
    for i in range(K):
        dist: dict[Hashable, dict[int, sp.Expr]] = {centre: {1: at_centre, 0: 1 - at_centre}}
        for j in range(K):
            path = to_own if i == j else to_other
            for t in range(1, Delta + 1):
                dist[(j, t)] = {1: path[t], 0: 1 - path[t]}
        mechs.append(FiniteMechanism(g, dist, [0, 1], name=f"M_{i}", validate=False))
    return PackingInstance(K, a, e, Delta, sp.Integer(K) ** (-a), g, mechs, centre)


def packing_bound(inst: PackingInstance) -> sp.Expr:
    """``(1 - α) ln K / Δ``: the least ε̂ of a ``K^{-α}``-weakly-useful selector
    (Liu & Talwar 2019, proof of Theorem D.2)."""
    return (1 - inst.alpha) * sp.log(inst.K) / inst.Delta


def dominance(inst: PackingInstance, precision: Precision = DEFAULT_PRECISION) -> CheckResult:
    """``i* = j`` is ``γ``-dominant at ``D_j`` (Definition D.1): the probability that
    ``m_j = 1`` and every other ``m_i = 0`` (so ``argmax`` is ``j`` whatever the
    tie-breaking) is at least ``1 - γ``."""
    parts = []
    for j in range(inst.K):
        d = inst.D(j)
        pr = inst.mechanisms[j].p(d, 1)
        for i, m in enumerate(inst.mechanisms):
            if i != j:
                pr = pr * m.p(d, 0)
        parts.append(check_le(1 - inst.gamma, pr, f"j = {j} is gamma-dominant at D_{j}"))
    return conjunction(f"Definition D.1: dominance with gamma = {inst.gamma}", parts)


def weak_usefulness(
    inst: PackingInstance, selector: FiniteMechanism, precision: Precision = DEFAULT_PRECISION
) -> CheckResult:
    """A selector (outputs: indices ``0..K-1``) is ``γ``-weakly useful on the
    instance: ``Pr[selector(D_j) = j] ≥ γ`` for every ``j`` (Definition D.1)."""
    findings = []
    for j in range(inst.K):
        pr = selector.p(inst.D(j), j)
        c = decide_le(inst.gamma, pr, precision)
        findings.append(
            Finding(
                c.verdict,
                j,
                (inst.D(j), inst.D(j)),
                pr,
                inst.gamma,
                inst.gamma,
                pr,
                tight=c.tight,
                lower_bound=True,
            )
        )
    from ..arithmetic.exact import combine_verdicts

    return CheckResult(
        f"{selector.name} is {inst.gamma}-weakly useful",
        combine_verdicts(f.verdict for f in findings),
        findings,
        quantity="Pr[output j at D_j]",
    )
