"""Talwar 2025: the registered instances the claims share (one module that the claim
modules import, so none imports another).

* group privacy on every event (Props 4 and 5): :func:`group_privacy_pure`;
* ``(ε, δ)`` mixtures ``(1-w)·TGeom_3 + w·R`` with their exact ``δ`` at ``ε = log 2``:
  :func:`approx_instances`;
* RDP instances on paths: :func:`rdp_instances`;
* restrictions of ε-DP mechanisms to a subset (Prop. 2's premise by group privacy):
  :func:`extension_cases`;
* oracles with scores (Theorems 11–14, Prop. 3): :func:`oracles`, :func:`meta_arms`;
* the weight-geometric mechanism on the cube: :func:`weight_geometric`.
"""

from __future__ import annotations

from typing import Any

import networkx as nx
import sympy as sp

from verifier.checks.privacy import check_pure_dp, delta, pure_epsilon
from verifier.checks.results import CheckResult, conjunction
from verifier.mechanism.compose import events, indicator, mixture
from verifier.mechanism.instances import random_mechanism, randomized_response, truncated_geometric
from verifier.mechanism.model import FiniteMechanism
from verifier.mechanism.neighbours import hamming_cube, pair, pairs_at_distance, path

__all__ = [
    "R",
    "SOURCE",
    "group_privacy_pure",
    "approx_instances",
    "rdp_instances",
    "prob",
    "all_events",
    "restricted",
    "extension_cases",
    "oracles",
    "meta_arms",
    "weight_geometric",
]

R = sp.Rational
SOURCE = "Talwar 2025"


def group_privacy_pure(
    mech: FiniteMechanism, eps: Any, dist: int, factor: Any, over: Any = None
) -> CheckResult:
    """Prop 4 on every event: ``Pr[M(d') ∈ E] <= e^{factor·ε} Pr[M(d) ∈ E]`` for all
    ordered pairs at distance ``<= dist`` (the paper's factor is ``dist``)."""
    prs = list(pairs_at_distance(mech.graph, dist, at_most=True))
    bound = factor * eps
    parts = [
        check_pure_dp(
            indicator(mech, ev),
            epsilon=bound,
            pairs=prs,
            title=f"event {sorted(ev, key=str)}",
            over=over,
        )
        for ev in events(mech.outputs)
    ]
    return conjunction(
        f"Pr[M(d) in E] >= e^(-{factor}*eps) Pr[M(d') in E] for |d-d'| <= {dist} on {mech.name}",
        parts,
    )


def approx_instances() -> list[tuple[FiniteMechanism, sp.Expr, sp.Expr]]:
    """(mechanism, ε, exact δ(ε)) for mixtures of TGeom_3 with random mechanisms."""
    out = []
    g = truncated_geometric(3, R(1, 2))  # log 2-DP
    for seed, w in ((0, R(1, 50)), (1, R(1, 100)), (2, R(1, 1000))):
        rnd = random_mechanism(g.graph, g.outputs, seed=seed)
        m = mixture(g, rnd, w, f"(1-{w}) TGeom_3 + {w} random[{seed}]")
        eps = sp.log(2)
        d = delta(m, epsilon=eps).value
        out.append((m, eps, d))
    return out


def rdp_instances() -> list[tuple[FiniteMechanism, sp.Expr]]:
    """(mechanism, alpha): on paths, so that pairs at distance k are chained."""
    two_point = FiniteMechanism(
        pair(0, 1),
        {0: {"a": R(1, 4), "b": R(3, 4)}, 1: {"a": R(1, 100), "b": R(99, 100)}},
        ["a", "b"],
        name="two-point",
    )
    return [
        (truncated_geometric(3, R(1, 2)), sp.Integer(4)),
        (random_mechanism(path(3), 3, seed=4, name="random-path3[4]"), sp.Integer(5)),
        (random_mechanism(path(2), 3, seed=6, name="random-path2[6]"), R(7, 2)),
        (two_point, sp.Integer(2)),
    ]


def prob(m: FiniteMechanism, d: Any, ev: frozenset[Any]) -> sp.Expr:
    return sp.Add(*[m.p(d, o) for o in ev])


def all_events(m: FiniteMechanism) -> list[frozenset[Any]]:
    return [*events(m.outputs), frozenset(m.outputs)]


def restricted(m: FiniteMechanism, B: list[Any]) -> dict[Any, dict[Any, sp.Expr]]:
    return {b: {o: m.p(b, o) for o in m.outputs} for b in B}


def extension_cases() -> list[tuple[str, Any, dict[Any, dict[Any, sp.Expr]], sp.Expr]]:
    """(name, graph, partial on B, eps): restrictions of eps-DP mechanisms to a subset
    (so the group-privacy premise holds by Prop. 4) on networkx graphs."""
    cases = []
    for name, g, B, seed in (
        ("cycle C7", nx.cycle_graph(7), [0, 3], 0),
        ("Petersen", nx.petersen_graph(), [0, 7, 9], 1),
        ("3x3 grid", nx.grid_2d_graph(3, 3), [(0, 0), (2, 2), (0, 2)], 2),
    ):
        m = random_mechanism(g, 3, seed=seed, name=name)
        cases.append((name, g, restricted(m, B), pure_epsilon(m).value))
    tg = truncated_geometric(4, R(1, 3))
    cases.append(("TGeom_4 ends", tg.graph, restricted(tg, [0, 4]), sp.log(3)))
    return cases


def oracles() -> list[FiniteMechanism]:
    """Oracles with scores 0..3 on a pair and a path, and randomized response."""
    return [
        random_mechanism(pair(), 4, seed=21, name="random4[21]"),
        random_mechanism(path(2), 4, seed=22, name="random4-path[22]"),
        randomized_response(R(1, 2)),
    ]


def meta_arms() -> list[FiniteMechanism]:
    """Three mechanisms on one pair of datasets (the settings of metaselection)."""
    return [
        random_mechanism(pair(), 4, seed=21, name="random4[21]"),
        randomized_response(R(1, 2)),
        random_mechanism(pair(), 3, seed=23, name="random3[23]"),
    ]


def weight_geometric(n: int, x: Any, name: str | None = None) -> FiniteMechanism:
    """``G(d) = TGeom_n(x)(|d|)`` on the cube ``{0,1}^n``: ε-DP with ``x = e^{-ε}``
    (neighbours change the weight by one), group privacy attained between ``0^n`` and
    ``1^n`` (``P_{0^n}(0)/P_{1^n}(0) = x^{-n}``)."""
    g = truncated_geometric(n, x)
    cube = hamming_cube(n)
    return FiniteMechanism(
        cube,
        {d: {o: g.p(sum(d), o) for o in g.outputs} for d in cube.nodes},
        list(g.outputs),
        name=name or f"TGeom_{n}({x})(|d|) on the {n}-cube",
        validate=False,
    )
