"""Talwar 2025 over whole parameter boxes (decider ``box``).

Instances, built symbolically (without sympy's nonnegativity check; each claim decides
over its box that the instance is a mechanism, :func:`verifier.checks.privacy.check_distributions`):

* ``G_{ε,w} = (1-w) TGeom_2(e^{-ε}) + w U`` on the path ``0 ~ 1 ~ 2``, ``U`` uniform on
  the three outputs: ``ε``-DP for every ``w ∈ [0, 1]`` (a mixture with a
  data-independent mechanism), and group privacy at distance 2 is attained on the face
  ``w = 0`` (``P_0(0)/P_2(0) = e^{2ε}``);
* ``H_{ε,w} = (1-w) TGeom_2(e^{-ε}) + w R`` with a fixed random mechanism ``R``:
  ``(ε, w)``-DP (``P_d(E) <= (1-w) e^ε G_d'(E) + w <= e^ε P_d'(E) + w``).

Claims: Prop. 4 (``ε``-DP ⇒ ``e^{-εΔ}`` group privacy, every event) over
``(ε, w) ∈ [1/100, 3] × [0, 1/2]``; Prop. 5 (``(ε, δ)``-DP ⇒ ``Pr[M(d) ∈ E] <= e^{εΔ}
(Pr[M(d') ∈ E] + Δδ)`` at ``|d - d'|_H = Δ = 2``) over ``(x, w) ∈ [1/8, 991/1000] ×
[1/1000, 1/10]`` with ``x = e^{-ε}`` (the probabilities rational in ``x``); Prop. 6 (second
part: ``α >= Δ + 1`` ⇒ ``Pr[M(d) ∈ E] <= e^{(α-1)ε} Pr[M(d') ∈ E]^{1/e}``) for
``TGeom_2(e^{-η})``, which is ``(α, η)``-RDP, over ``(η, α) ∈ [1/100, 2] × [3, 6]``;
Theorem 7's bound against the hybrids ``A_max^c ∘ A_LT,γ^{1/c}`` (``3c``-overhead,
``T = c γ^{-1/c}`` calls in expectation, Talwar 2025, Theorem 13): ``T >= (8γ)^{-1/(4·3c)}/4``
for every ``(γ, c) ∈ [10^-12, 1/10] × [1, 6]`` — the allowed side of Figure 1 as one
statement about the whole family.
"""

from __future__ import annotations

from typing import Any

import sympy as sp

from casestudies import claim
from verifier.checks.certified import check_le
from verifier.checks.privacy import check_approx_dp, check_distributions, check_pure_dp
from verifier.checks.results import CheckResult, conjunction, given
from verifier.mechanism.compose import events, indicator
from verifier.mechanism.model import FiniteMechanism
from verifier.mechanism.neighbours import pairs_at_distance, path

R = sp.Rational
SOURCE = "Talwar 2025"

EPS, ETA, ALPHA = sp.symbols("eps eta alpha", positive=True)
#: the mixture weight ranges over a box that starts at 0
W = sp.Symbol("w", nonnegative=True)
GAMMA, C = sp.symbols("gamma c", positive=True)


def tgeom2(eps: Any) -> dict[int, dict[int, sp.Expr]]:
    """``TGeom_2`` with ``x = e^{-ε}`` (:func:`verifier.mechanism.instances.truncated_geometric`)."""
    x = sp.exp(-eps)
    return {
        k: {
            o: (x ** abs(o - k) / (1 + x) if o in (0, 2) else (1 - x) / (1 + x) * x ** abs(o - k))
            for o in range(3)
        }
        for k in range(3)
    }


#: A fixed random mechanism on the path 0 ~ 1 ~ 2 (rational, any privacy level).
RANDOM = {
    0: {0: R(1, 6), 1: R(2, 3), 2: R(1, 6)},
    1: {0: R(1, 2), 1: R(1, 4), 2: R(1, 4)},
    2: {0: R(1, 10), 1: R(1, 10), 2: R(4, 5)},
}


def mixture(eps: Any, w: Any, other: dict[int, dict[int, Any]], name: str) -> FiniteMechanism:
    """``(1-w) TGeom_2(e^{-ε}) + w · other`` on the path ``0 ~ 1 ~ 2``."""
    g = tgeom2(eps)
    return FiniteMechanism(
        path(2),
        {k: {o: (1 - w) * g[k][o] + w * other[k][o] for o in range(3)} for k in range(3)},
        [0, 1, 2],
        name=name,
        validate=False,
    )


UNIFORM = {k: {o: R(1, 3) for o in range(3)} for k in range(3)}
PROP4 = {"eps": (R(1, 100), 3), "w": (0, R(1, 2))}


@claim(
    id="talwar2025.prop4.box",
    source=f"{SOURCE}, Prop. 4",
    statement="eps-DP => Pr[M(d') in E] >= e^(-2 eps) Pr[M(d) in E] for every event and "
    "|d - d'| <= 2, on (1-w) TGeom_2 + w Uniform, for every (eps, w) in [1/100, 3] x [0, 1/2]; "
    "attained on the face w = 0",
    expected="holds",
    domain=PROP4,
)
def prop4_box() -> CheckResult:
    m = mixture(EPS, W, UNIFORM, "G_(eps,w)")
    prs = list(pairs_at_distance(m.graph, 2, at_most=True))
    premise = conjunction(
        "G is an eps-DP mechanism on the box",
        [check_distributions(m, PROP4), check_pure_dp(m, epsilon=EPS, over=PROP4)],
    )
    group = [
        check_pure_dp(
            indicator(m, ev),
            epsilon=2 * EPS,
            pairs=prs,
            over=PROP4,
            title=f"event {sorted(ev, key=str)}",
        )
        for ev in events(m.outputs)
    ]
    return given("Prop. 4 over the box", premise, conjunction("distance 2", group))


#: x = e^(-eps) in [1/8, 991/1000]: eps in [ln(1000/991), ln 8] = [0.00904, 2.079], which
#: contains [1/100, 2]; in x the probabilities are rational functions (no exp to enclose).
PROP5 = {"x": (R(1, 8), R(991, 1000)), "w": (R(1, 1000), R(1, 10))}
X = sp.Symbol("x", positive=True)


@claim(
    id="talwar2025.prop5.box",
    source=f"{SOURCE}, Prop. 5",
    statement="(eps, delta)-DP => Pr[M(d) in E] <= e^(2 eps) (Pr[M(d') in E] + 2 delta) for "
    "|d - d'|_H = 2, on (1-w) TGeom_2 + w R (delta = w), for every x = e^(-eps) in [1/8, 991/1000] "
    "(eps in [0.009, 2.08], containing [1/100, 2]) and w in [1/1000, 1/10]",
    expected="holds",
    domain=PROP5,
)
def prop5_box() -> CheckResult:
    m = mixture(-sp.log(X), W, RANDOM, "H_(x,w)")
    prs = list(pairs_at_distance(m.graph, 2))  # Prop. 5: |d - d'|_H = Delta exactly
    premise = conjunction(
        "H is an (eps, w)-DP mechanism on the box",
        [
            check_distributions(m, PROP5),
            check_approx_dp(m, epsilon=-sp.log(X), delta=W, over=PROP5),
        ],
    )
    # sup over events of P_d(E) - e^(2 eps) P_d'(E) is the hockey-stick divergence
    conclusion = check_approx_dp(
        m, epsilon=-2 * sp.log(X), delta=2 * W / X**2, pairs=prs, over=PROP5, title="distance 2"
    )
    return given("Prop. 5 over the box", premise, conclusion)


PROP6 = {"eta": (R(1, 100), 2), "alpha": (3, 6)}


@claim(
    id="talwar2025.prop6.box",
    source=f"{SOURCE}, Prop. 6 (second part)",
    statement="alpha >= Delta + 1 = 3 => Pr[M(d) in E] <= e^((alpha-1) eta) Pr[M(d') in E]^(1/e) "
    "for |d - d'| <= 2 and every event, M = TGeom_2(e^-eta), which is (alpha, eta)-RDP, for "
    "every (eta, alpha) in [1/100, 2] x [3, 6]",
    expected="holds",
    domain=PROP6,
)
def prop6_box() -> CheckResult:
    m = mixture(ETA, 0, UNIFORM, "TGeom_2(eta)")
    prs = list(pairs_at_distance(m.graph, 2, at_most=True))
    premise = conjunction(
        "TGeom_2(eta) is an eta-DP mechanism on the box, hence (alpha, eta)-RDP",
        [check_distributions(m, PROP6), check_pure_dp(m, epsilon=ETA, over=PROP6)],
    )
    parts = []
    for ev in [*events(m.outputs), frozenset(m.outputs)]:
        for d, d2 in prs:
            pd = sp.Add(*[m.p(d, o) for o in ev])
            pd2 = sp.Add(*[m.p(d2, o) for o in ev])
            parts.append(
                check_le(
                    pd,
                    sp.exp((ALPHA - 1) * ETA) * pd2 ** (1 / sp.E),
                    output=tuple(sorted(ev, key=str)),
                    pair=(d, d2),
                    over=PROP6,
                )
            )
    return given("Prop. 6 (second part) over the box", premise, conjunction("every event", parts))


THM7 = {"gamma": (R(1, 10**12), R(1, 10)), "c": (1, 6)}


@claim(
    id="talwar2025.thm7.box",
    source=f"{SOURCE}, Theorem 7 (against Theorem 13's hybrids)",
    statement="the hybrids A_max^c o A_LT,gamma^(1/c) (overhead 3c, c gamma^(-1/c) expected "
    "calls) respect Theorem 7's lower bound T >= (8 gamma)^(-1/(4 * 3c))/4 for every "
    "(gamma, c) in [1e-12, 1/10] x [1, 6]",
    expected="holds",
    domain=THM7,
)
def thm7_box() -> CheckResult:
    bound = (8 * GAMMA) ** (-1 / (12 * C)) / 4
    return check_le(
        bound,
        C * GAMMA ** (-1 / C),
        "Theorem 7's bound for the hybrids",
        over=THM7,
        quantity="(8 gamma)^(-1/(12c))/4",
    )
