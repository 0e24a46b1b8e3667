"""Talwar 2025, §2: Propositions 2, 4, 5 and 6 (the extension lemma and group privacy).

Scopes: Prop. 4 over a range of ``ε`` (``TGeom_4`` and the weight-geometric mechanism
on the cube, where it is attained) and by search over mixtures on the cube; Prop. 5 by
search over ``(ε, δ)`` mixtures on paths, its second part derived from its first over a
box; Prop. 2 by search over random graphs, mechanisms and subsets; Prop. 6's induction,
second and third parts as step tables over boxes (:mod:`.steps`).
"""

from __future__ import annotations

import sympy as sp

from casestudies import claim
from verifier.arithmetic.exact import Verdict, combine_verdicts, decide_le
from verifier.checks.privacy import check_approx_dp, check_pure_dp, pure_epsilon, rdp_epsilon
from verifier.checks.results import CheckResult, Finding, conjunction
from verifier.claims.steps import Step, decide_steps
from verifier.constructions.extension import extend
from verifier.mechanism.instances import random_mechanism, randomized_response, truncated_geometric
from verifier.mechanism.neighbours import hamming_cube, pairs_at_distance, path

from .chain_search import cube60_tightness, extension_cube_search
from .instances import (
    SOURCE,
    R,
    all_events,
    approx_instances,
    extension_cases,
    group_privacy_pure,
    prob,
    rdp_instances,
    restricted,
    weight_geometric,
)
from .mech_search import (
    cube_group_privacy_search,
    extension_search,
    path_group_privacy_search,
    rdp_search,
)
from .steps import PROP6_INDUCTION
from .theory import rdp_chain
from .tightness import (
    PROP2_ODDS,
    prop2_tightness,
    prop5_quarter_tightness,
    prop6_first_tightness,
    prop6_printed_tightness,
    prop6_second_tightness,
)

EPS = sp.Symbol("eps", positive=True)
X, P_, U_ = sp.symbols("x p u", nonnegative=True)
EPS_RANGE = (EPS, R(1, 100), 3)

# --- Prop. 4 -----------------------------------------------------------------------


@claim(
    id="talwar2025.prop4.geometric",
    source=f"{SOURCE}, Prop. 4",
    statement="eps-DP => Pr[M(d) in E] <= e^(eps Delta) Pr[M(d') in E] at distance Delta <= 4, "
    "for TGeom_4(e^-eps) and every eps in [1/100, 3] (every output: an event's probability "
    "is the sum over its outputs); attained between the ends, P_0(0)/P_4(0) = e^(4 eps); and "
    "'in particular', Pr[M(d) in E] >= 1/4 => Pr[M(d') in E] >= e^(-eps Delta)/4, for every "
    "x = eps Delta in [0, 60] and Pr[M(d) in E] in [1/4, 1]",
    expected="holds",
)
def prop4_geometric() -> CheckResult:
    m = truncated_geometric(4, sp.exp(-EPS))
    particular = decide_steps(
        "Prop. 4, 'in particular'",
        [
            Step(
                "Pr[M(d') in E] >= e^(-x) Pr[M(d) in E] >= e^(-x)/4 for Pr[M(d) in E] = p >= 1/4",
                sp.exp(-X) / 4,
                sp.exp(-X) * P_,
                domain={X: (0, 60), P_: (R(1, 4), 1)},
            )
        ],
    )
    return conjunction(
        "Prop. 4 on TGeom_4, Delta = 1..4, every eps in [1/100, 3]",
        [particular]
        + [
            check_pure_dp(
                m,
                epsilon=k * EPS,
                pairs=list(pairs_at_distance(m.graph, k, at_most=True)),
                over=EPS_RANGE,
                title=f"Delta = {k}",
            )
            for k in range(1, 5)
        ],
    )


@claim(
    id="talwar2025.prop4.geometric_symbolic",
    source=f"{SOURCE}, Prop. 4",
    statement="group privacy at distances 1..3 on the cube {0,1}^3 for G(d) = TGeom_3(e^-eps)(|d|) "
    "(eps-DP: neighbours change the weight by one), every event, every eps in [1/100, 3]; "
    "attained between 000 and 111",
    expected="holds",
)
def prop4_geometric_symbolic() -> CheckResult:
    m = weight_geometric(3, sp.exp(-EPS))
    return conjunction(
        "Prop. 4 on the 3-cube",
        [group_privacy_pure(m, EPS, k, k, over=EPS_RANGE) for k in range(1, 4)],
    )


@claim(
    id="talwar2025.prop4.without_factor",
    source=f"{SOURCE}, Prop. 4 (negative control)",
    statement="dropping the factor Delta: e^(-eps) instead of e^(-eps*Delta) at distance 4 "
    "(refuted: P_0(0)/P_4(0) = e^(4 eps))",
    expected="refuted",
    kind="negative-control",
)
def prop4_without_factor() -> CheckResult:
    m = truncated_geometric(4, R(1, 3))
    return group_privacy_pure(m, sp.log(3), 4, 1)


@claim(
    id="talwar2025.prop4.random_cube",
    source=f"{SOURCE}, Prop. 4",
    statement="group privacy at distances 2 and 3 on {0,1}^3 for seeded random mechanisms and for "
    "the weight-geometric mechanism TGeom_3(1/2)(|d|) (attained), every event; by search over "
    "(1-w) TGeom_3(x)(|d|) + w R",
    expected="holds",
    search=cube_group_privacy_search("talwar2025.prop4.random_cube"),
)
def prop4_random_cube() -> CheckResult:
    parts = []
    for seed in range(3):
        m = random_mechanism(hamming_cube(3), 3, seed=seed, name=f"random[{seed}] on cube")
        eps = pure_epsilon(m).value
        parts += [group_privacy_pure(m, eps, k, k) for k in (2, 3)]
    g = weight_geometric(3, R(1, 2))
    parts += [group_privacy_pure(g, sp.log(2), k, k) for k in (2, 3)]
    return conjunction("Prop 4 on mechanisms on the 3-cube", parts)


# --- Prop. 5 -----------------------------------------------------------------------


@claim(
    id="talwar2025.prop5.hockey_stick",
    source=f"{SOURCE}, Prop. 5",
    statement="(eps, delta)-DP => Pr[M(d) in E] <= e^(eps Delta) (Pr[M(d') in E] + Delta delta) "
    "for |d-d'| <= Delta, on (eps, delta) mixtures (delta computed exactly); by search over "
    "(1-w) TGeom_n(x) + w R on paths",
    expected="holds",
    search=path_group_privacy_search("talwar2025.prop5.hockey_stick"),
)
def prop5_hockey_stick() -> CheckResult:
    parts = []
    for m, eps, d in approx_instances():
        for k in (2, 3):
            prs = list(pairs_at_distance(m.graph, k, at_most=True))
            # sup over events of P_d(E) - e^{kε} P_d'(E) is the hockey-stick divergence
            parts.append(
                check_approx_dp(
                    m,
                    epsilon=k * eps,
                    delta=sp.exp(k * eps) * k * d,
                    pairs=prs,
                    title=f"{m.name}: Delta = {k}",
                )
            )
    return conjunction("Prop 5 on (eps, delta) mixtures", parts)


@claim(
    id="talwar2025.prop5.quarter",
    source=f"{SOURCE}, Prop. 5 (second part)",
    statement="if delta < e^(-eps Delta)/(8 Delta) and Pr[M(d) in E] >= 1/4 then Pr[M(d') in E] >= "
    "e^(-eps Delta)/8: derived from the first part, Pr[M(d') in E] >= e^(-eps Delta) Pr[M(d) in E] "
    "- Delta delta, for every x = eps Delta in [0, 60], Pr[M(d) in E] = p in [1/4, 1] and "
    "Delta delta = u e^(-x)/8, u in [0, 1]",
    expected="holds",
    tightness=prop5_quarter_tightness,
)
def prop5_quarter() -> CheckResult:
    box = {X: (0, 60), P_: (R(1, 4), 1), U_: (0, 1)}
    return decide_steps(
        "Prop. 5, second part",
        [
            Step(
                "e^(-x) p - Delta delta >= e^(-x)/4 - Delta delta (p >= 1/4)",
                sp.exp(-X) * P_ - U_ * sp.exp(-X) / 8,
                sp.exp(-X) / 4 - U_ * sp.exp(-X) / 8,
                ">=",
                domain=box,
            ),
            Step(
                "e^(-x)/4 - Delta delta >= e^(-x)/8 (Delta delta <= e^(-x)/8)",
                sp.exp(-X) / 4 - U_ * sp.exp(-X) / 8,
                sp.exp(-X) / 8,
                ">=",
                domain={X: (0, 60), U_: (0, 1)},
            ),
        ],
    )


# --- Prop. 2 -----------------------------------------------------------------------


@claim(
    id="talwar2025.prop2.extension_graphs",
    source=f"{SOURCE}, Prop. 2",
    statement="the constructive extension min_b e^(eps dist(d,b)) p_b(o), normalised, is "
    "2eps-DP and agrees with p_b on B (cycle, Petersen graph, grid, path; randomized response at "
    "2 eps on the ends of the path 0 - 1 - 2 with e^eps = 10^16, near the factor 2; by search "
    "over random connected graphs, mechanisms and subsets B)",
    expected="holds",
    tightness=prop2_tightness,
    search=extension_search(
        "talwar2025.prop2.extension_graphs", "theorem", "the extension is 2 eps-DP and agrees on B"
    ),
)
def prop2_graphs() -> CheckResult:
    parts = []
    for name, g, partial, eps in extension_cases():
        ext = extend(g, partial, eps, name=f"extension on {name}", verify=False)
        parts.append(ext.verification)
    # the factor 2 nearly attained: p_hat_1 = (1/2, 1/2), loss ln((1 + e^(2 eps))/2)
    eps = sp.log(PROP2_ODDS)
    rr = randomized_response(2 * eps, datasets=(0, 2))
    parts.append(extend(path(2), restricted(rr, [0, 2]), eps, verify=False).verification)
    return conjunction("Prop. 2 on networkx graphs", parts)


@claim(
    id="talwar2025.prop2.extension_cube60",
    source=f"{SOURCE}, Prop. 2 (Theorem 7's instance)",
    statement="Theorem 7's partial mechanism on {d0, d1} extends to a 2eps-DP mechanism on "
    "{0,1}^Delta (lumped by distance), eps = 1/10, T = 100 (Delta = 60); by search over "
    "(eps, T) with Delta <= 70",
    expected="holds",
    search=extension_cube_search("talwar2025.prop2.extension_cube60"),
    tightness=cube60_tightness,
)
def prop2_cube60() -> CheckResult:
    from verifier.constructions.lower_bounds import theorem7_instance

    inst = theorem7_instance(R(1, 10), 100)
    assert inst.Delta == 60
    return inst.extension.verification


@claim(
    id="talwar2025.prop2.one_eps",
    source=f"{SOURCE}, Prop. 2 (the factor 2)",
    statement="the extension is eps-DP (refuted: on the path 0-1-2 with randomized response "
    "at 2 eps on {0, 2}, p_hat_1 = (1/2, 1/2) and p_hat_1(b)/p_0(b) = (1 + e^(2 eps))/2 > e^eps)",
    expected="refuted",
    kind="negative-control",
)
def prop2_one_eps() -> CheckResult:
    # eps = log 2: p_0 = (4/5, 1/5), p_2 = (1/5, 4/5), premise ratio 4 = e^(2 eps).
    # m_1 = e^eps min(p_0, p_2) = (2/5, 2/5), so p_hat_1 = (1/2, 1/2);
    # p_hat_1(b)/p_0(b) = 5/2 > 2 = e^eps (and < 4 = e^(2 eps), as Prop. 2 says).
    rr = randomized_response(2 * sp.log(2), datasets=(0, 2))
    ext = extend(path(2), restricted(rr, [0, 2]), sp.log(2), verify=True)
    return check_pure_dp(ext.mechanism, epsilon=sp.log(2))


# --- Prop. 6 -----------------------------------------------------------------------

DELTA, S_, ETA, L_ = sp.symbols("Delta s eta L", nonnegative=True)
T_ = sp.Symbol("t", nonnegative=True)
ELL = sp.Symbol("ell", nonpositive=True)


@claim(
    id="talwar2025.prop6.chain",
    source=f"{SOURCE}, §2, proof of Prop. 6, the induction display (first part)",
    statement="(alpha, eps)-RDP => ln Pr[M(d_k) in E] <= eps sum_{i<=k} (1-1/alpha)^i + "
    "(1-1/alpha)^k ln Pr[M(d_0) in E]: the base case and the induction step (the monotone step "
    "over a box, the identity for every r = 1 - 1/alpha, R = r^(k-1), eps, L)",
    expected="holds",
    kind="proof-step",
)
def prop6_chain() -> CheckResult:
    return decide_steps("Prop. 6, the induction", PROP6_INDUCTION)


@claim(
    id="talwar2025.prop6.first_part",
    source=f"{SOURCE}, Prop. 6 (first part)",
    statement="(alpha, eps)-RDP => Pr[M(d) in E] <= e^(eps sum_{i<=Delta} (1-1/alpha)^i) "
    "Pr[M(d') in E]^((1-1/alpha)^Delta) at distance Delta, every event (eps = the exact RDP eps); "
    "on RDP instances on paths, and by search over (1-w) TGeom_n(x) + w R on paths and alpha",
    expected="holds",
    search=rdp_search("talwar2025.prop6.first_part"),
    tightness=prop6_first_tightness,
)
def prop6_first_part() -> CheckResult:
    return conjunction("Prop. 6, first part", [rdp_chain(m, a) for m, a in rdp_instances()])


def _prop6_second() -> list[Step]:
    alpha = DELTA + 1 + S_  # alpha >= Delta + 1
    r = 1 - 1 / alpha
    box = {DELTA: (1, 100), S_: (0, 100)}
    return [
        Step(
            "(1 - 1/alpha)^Delta >= 1/e for alpha >= Delta + 1: -Delta ln(1 - 1/alpha) <= 1",
            -DELTA * sp.log(r),
            1,
            domain=box,
        ),
        Step(
            "sum_{i<=Delta} r^i = (alpha - 1)(1 - r^Delta) <= alpha - 1",
            (alpha - 1) * (1 - sp.exp(DELTA * sp.log(r))),
            alpha - 1,
            domain=box,
        ),
        Step(
            "Pr^(r^Delta) <= Pr^(1/e): y L <= L/e for L = ln Pr <= 0 and y = r^Delta = 1/e + t "
            ">= 1/e (the first step)",
            (1 / sp.E + T_) * ELL,
            ELL / sp.E,
            domain={T_: (0, 1), ELL: (-100, 0)},
        ),
    ]


@claim(
    id="talwar2025.prop6.alpha_ge_Delta_plus_1",
    source=f"{SOURCE}, Prop. 6 (second part)",
    statement="alpha >= Delta + 1 => Pr[M(d) in E] <= e^((alpha-1) eps) Pr[M(d') in E]^(1/e): "
    "derived from the first part, for every Delta in [1, 100], alpha = Delta + 1 + s "
    "(s in [0, 100]) and ln Pr in [-100, 0]",
    expected="holds",
    tightness=prop6_second_tightness,
)
def prop6_second() -> CheckResult:
    return decide_steps("Prop. 6, second part", _prop6_second())


def _prop6_third(constant: sp.Expr) -> list[Step]:
    x = X  # x = (alpha - 1) eps
    box = {x: (0, 20), P_: (R(1, 4), 1)}
    steps = [
        Step(
            "Pr[M(d') in E] >= (Pr[M(d) in E] e^(-x))^e (the second part rearranged, x = "
            "(alpha - 1) eps) >= (e^(-x)/4)^e for Pr[M(d) in E] = P >= 1/4",
            (sp.exp(-x) / 4) ** sp.E,
            (P_ * sp.exp(-x)) ** sp.E,
            domain=box,
        ),
        Step(
            "(e^(-x)/4)^e = e^(-e x)/4^e",
            (sp.exp(-x) / 4) ** sp.E,
            sp.exp(-sp.E * x) / 4**sp.E,
            "==",
            domain={x: (0, 20)},
        ),
    ]
    if constant != sp.E:
        steps.append(
            Step(
                f"e^(-e x)/4^e >= e^(-e x)/4^{constant} (the printed constant is weaker): "
                f"-e x - e ln 4 >= -e x - {constant} ln 4",
                -sp.E * x - sp.E * sp.log(4),
                -sp.E * x - constant * sp.log(4),
                ">=",
                domain={x: (0, 20)},
            )
        )
    return steps


@claim(
    id="talwar2025.prop6.quarter_4e",
    source=f"{SOURCE}, Prop. 6 (third part, constant as derived)",
    statement="alpha >= Delta + 1 and Pr[M(d) in E] >= 1/4 => Pr[M(d') in E] >= "
    "e^(-e(alpha-1)eps)/4^e (the constant the derivation gives: (e^(-(alpha-1)eps)/4)^e), derived "
    "from the second part for every x = (alpha-1) eps in [0, 20] and Pr[M(d) in E] in [1/4, 1]",
    expected="holds",
)
def prop6_quarter_4e() -> CheckResult:
    return decide_steps("Prop. 6, third part", _prop6_third(sp.E))


@claim(
    id="talwar2025.prop6.quarter_printed",
    source=f"{SOURCE}, Prop. 6 (third part, constant as printed: '/44')",
    statement="... >= e^(-e(alpha-1)eps)/4^4 (the printed '44' read as 4^4 = 256 > 4^e ~ 43.3: "
    "a weaker bound, implied by the derived one for every x = (alpha-1) eps in [0, 20])",
    expected="holds",
    tightness=prop6_printed_tightness,
)
def prop6_quarter_printed() -> CheckResult:
    return decide_steps("Prop. 6, third part as printed", _prop6_third(sp.Integer(4)))


def _prop6_lower(constant: object, exponent_e: bool = True) -> CheckResult:
    """Third part of Prop. 6 with alpha >= Delta + 1 on the RDP instances:
    Pr[M(d) in E] >= 1/4 implies Pr[M(d') in E] >= e^(-E (alpha-1) eps)/4^constant
    (E = e, or 1 without the e)."""
    import networkx as nx

    findings = []
    for m, a in rdp_instances():
        eps = rdp_epsilon(m, alpha=a).value
        Delta = max(nx.eccentricity(m.graph).values())
        assert a >= Delta + 1
        E_ = sp.E if exponent_e else 1
        lower = sp.exp(-E_ * (a - 1) * eps) / 4 ** sp.sympify(constant)
        for d, d2 in pairs_at_distance(m.graph, Delta, at_most=True):
            for ev in all_events(m):
                if decide_le(R(1, 4), prob(m, d, ev)).verdict is not Verdict.HOLDS:
                    continue
                pb = prob(m, d2, ev)
                c = decide_le(lower, pb)
                findings.append(
                    Finding(
                        c.verdict,
                        tuple(sorted(map(str, ev))),
                        (d, d2),
                        pb,
                        lower,
                        lower,
                        pb,
                        tight=c.tight,
                        lower_bound=True,
                        note=f"{m.name}, alpha = {a}",
                    )
                )
    return CheckResult(
        f"Prop. 6: Pr >= 1/4 => Pr >= e^(-{E_} (alpha-1) eps)/4^{constant}",
        combine_verdicts(f.verdict for f in findings),
        findings,
        quantity="Pr[M(d') in E]",
    )


@claim(
    id="talwar2025.prop6.pure_constant",
    source=f"{SOURCE}, Prop. 6 (negative control)",
    statement="... >= e^(-(alpha-1)eps)/4 (Prop. 4's form without the power e; refuted on the "
    "two-point instance: 1/100 < 1/(4 * 6.82))",
    expected="refuted",
    kind="negative-control",
)
def prop6_pure_constant() -> CheckResult:
    # two-point, alpha = 2: D_2(P||Q) = log(1/16 * 100 + 9/16 * 100/99) = log(6.818..),
    # the other direction is log(1.307); eps = log 6.818.  E = {a}: Pr[d0] = 1/4 and
    # Pr[d1] = 1/100 < e^(-eps)/4 = 0.0367, whereas e^(-e eps)/4^e ~ 1.25e-4 <= 1/100.
    return _prop6_lower(1, exponent_e=False)
