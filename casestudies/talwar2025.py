"""Talwar 2025, "Privacy-Computation Trade-Offs in Private Repetition and
Metaselection" — group privacy (Props 4 and 5) on small mechanisms.

Instances
---------
* ``TGeom_n``: the truncated two-sided geometric mechanism on the path ``0..n``
  (:func:`verifier.instances.truncated_geometric`), exactly ε-DP, where group privacy
  is attained with equality between the two ends: ``P_0(0)/P_n(0) = e^{nε}``.
* seeded random mechanisms with rational probabilities on the Hamming cube
  ``{0,1}^3``, with ε their exact realized pure ε.
* ``(ε, δ)`` mechanisms: the mixture ``(1-w)·TGeom_3 + w·R`` of the log 2-DP
  geometric mechanism with a random mechanism ``R``; its exact δ at ε = log 2 is
  computed, not assumed.
"""

from __future__ import annotations

from typing import Any

import sympy as sp

from casestudies import claim
from verifier.arithmetic import Verdict, combine_verdicts, decide_le
from verifier.compose import events, indicator
from verifier.instances import random_mechanism, truncated_geometric
from verifier.mechanism import FiniteMechanism
from verifier.neighbours import hamming_cube, pairs_at_distance
from verifier.privacy import check_approx_dp, check_pure_dp, delta, pure_epsilon
from verifier.results import CheckResult, Finding, conjunction

R = sp.Rational
SOURCE = "Talwar 2025"


def _group_privacy_pure(mech: FiniteMechanism, eps: Any, dist: int, factor: Any) -> CheckResult:
    """Prop 4 on every event: ``Pr[M(d') ∈ E] <= e^{factor·ε} Pr[M(d) ∈ E]`` for all
    ordered pairs at distance ``<= dist`` (the paper's factor is ``dist``)."""
    prs = list(pairs_at_distance(mech.graph, dist, at_most=True))
    bound = factor * eps
    parts = [
        check_pure_dp(indicator(mech, ev), bound, pairs=prs, title=f"event {sorted(ev)}")
        for ev in events(mech.outputs)
    ]
    return conjunction(
        f"Pr[M(d) in E] >= e^(-{factor}*eps) Pr[M(d') in E] for |d-d'| <= {dist} on {mech.name}",
        parts,
    )


def _mixture(a: FiniteMechanism, b: FiniteMechanism, w: Any, name: str) -> FiniteMechanism:
    return FiniteMechanism(
        a.graph,
        {d: {o: (1 - w) * a.p(d, o) + w * b.p(d, o) for o in a.outputs} for d in a.datasets},
        a.outputs,
        name=name,
    )


@claim(
    id="talwar2025.prop4.geometric",
    source=f"{SOURCE}, Prop. 4",
    statement="eps-DP => e^(-eps*Delta) group privacy at distance Delta (TGeom_4, eps = log 3; "
    "attained exactly between the ends)",
    expected="holds",
)
def prop4_geometric() -> CheckResult:
    m = truncated_geometric(4, R(1, 3))
    eps = pure_epsilon(m).value  # log 3, exactly
    return conjunction(
        "Prop 4 on TGeom_4 for Delta = 1..4",
        [_group_privacy_pure(m, eps, k, k) for k in range(1, 5)],
    )


@claim(
    id="talwar2025.prop4.geometric_symbolic",
    source=f"{SOURCE}, Prop. 4",
    statement="group privacy at distance 3 for TGeom_3 with x = e^(-1/2) (probabilities in exp)",
    expected="holds",
)
def prop4_geometric_symbolic() -> CheckResult:
    m = truncated_geometric(3, sp.exp(-R(1, 2)))
    return _group_privacy_pure(m, R(1, 2), 3, 3)


@claim(
    id="talwar2025.prop4.without_factor",
    source=f"{SOURCE}, Prop. 4 (negative control)",
    statement="dropping the factor Delta: e^(-eps) instead of e^(-eps*Delta) at distance 4 "
    "(refuted: P_0(0)/P_4(0) = e^(4 eps))",
    expected="refuted",
)
def prop4_without_factor() -> CheckResult:
    m = truncated_geometric(4, R(1, 3))
    return _group_privacy_pure(m, sp.log(3), 4, 1)


@claim(
    id="talwar2025.prop4.random_cube",
    source=f"{SOURCE}, Prop. 4",
    statement="group privacy at distances 2 and 3 for seeded random mechanisms on {0,1}^3",
    expected="holds",
)
def prop4_random_cube() -> CheckResult:
    parts = []
    for seed in range(3):
        m = random_mechanism(hamming_cube(3), 3, seed=seed, name=f"random[{seed}] on cube")
        eps = pure_epsilon(m).value
        parts += [_group_privacy_pure(m, eps, k, k) for k in (2, 3)]
    return conjunction("Prop 4 on random mechanisms on the 3-cube", parts)


def _approx_instances() -> list[tuple[FiniteMechanism, sp.Expr, sp.Expr]]:
    """(mechanism, ε, exact δ(ε)) for mixtures of TGeom_3 with random mechanisms."""
    out = []
    g = truncated_geometric(3, R(1, 2))  # log 2-DP
    for seed, w in ((0, R(1, 50)), (1, R(1, 100)), (2, R(1, 1000))):
        rnd = random_mechanism(g.graph, g.outputs, seed=seed)
        m = _mixture(g, rnd, w, f"(1-{w}) TGeom_3 + {w} random[{seed}]")
        eps = sp.log(2)
        d, _ = delta(m, eps)
        out.append((m, eps, d))
    return out


@claim(
    id="talwar2025.prop5.hockey_stick",
    source=f"{SOURCE}, Prop. 5",
    statement="(eps, delta)-DP => Pr[M(d) in E] <= e^(eps Delta) (Pr[M(d') in E] + Delta delta) "
    "for |d-d'| <= Delta, on (eps, delta) mixtures (delta computed exactly)",
    expected="holds",
)
def prop5_hockey_stick() -> CheckResult:
    parts = []
    for m, eps, d in _approx_instances():
        for k in (2, 3):
            prs = list(pairs_at_distance(m.graph, k, at_most=True))
            # sup over events of P_d(E) - e^{kε} P_d'(E) is the hockey-stick divergence
            parts.append(
                check_approx_dp(
                    m,
                    k * eps,
                    sp.exp(k * eps) * k * d,
                    pairs=prs,
                    title=f"{m.name}: Delta = {k}",
                )
            )
    return conjunction("Prop 5 on (eps, delta) mixtures", parts)


@claim(
    id="talwar2025.prop5.quarter",
    source=f"{SOURCE}, Prop. 5 (second part)",
    statement="if delta < e^(-eps Delta)/(8 Delta) and Pr[M(d) in E] >= 1/4 then "
    "Pr[M(d') in E] >= e^(-eps Delta)/8, for every event and |d-d'| <= Delta",
    expected="holds",
)
def prop5_quarter() -> CheckResult:
    findings: list[Finding] = []
    notes = []
    for m, eps, d in _approx_instances():
        for k in (1, 2, 3):
            premise = decide_le(d, sp.exp(-eps * k) / (8 * k))
            if premise.verdict is not Verdict.HOLDS or premise.tight:
                notes.append(f"{m.name}, Delta={k}: delta premise fails (vacuous)")
                continue
            lower = sp.exp(-eps * k) / 8
            for ev in events(m.outputs):
                for a, b in pairs_at_distance(m.graph, k, at_most=True):
                    pa = sum((m.p(a, o) for o in ev), sp.Integer(0))
                    if decide_le(R(1, 4), pa).verdict is not Verdict.HOLDS:
                        continue
                    pb = sum((m.p(b, o) for o in ev), sp.Integer(0))
                    c = decide_le(lower, pb)
                    findings.append(
                        Finding(
                            c.verdict,
                            tuple(sorted(ev)),
                            (a, b),
                            pb,
                            lower,
                            lower,
                            pb,
                            tight=c.tight,
                            lower_bound=True,
                        )
                    )
    if not findings:
        notes.append("no instance satisfied the premise")
    return CheckResult(
        "Prop 5: Pr >= 1/4 at d => Pr >= e^(-eps Delta)/8 at d'",
        combine_verdicts(f.verdict for f in findings) if findings else Verdict.UNDECIDED,
        findings,
        quantity="Pr[M(d') in E]",
        notes=notes,
    )
