"""Talwar 2025: the displayed steps of the proofs — each a claim of kind ``proof-step``
decided over a box of the proof's parameters (the closed-form steps of Theorems 7, 9
and 10: the step tables of :mod:`.steps`, one engine,
:func:`verifier.claims.steps.decide_steps`) or, where the step is about mechanisms, by
worst-case search over them (the three lines of Prop. 2's construction:
:func:`.mech_search.extension_search`).

The chains run on an algorithm (``talwar2025.thm7.chain``, ...) are in :mod:`.lower`.
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import sympy as sp

from casestudies import claim
from verifier.checks.certified import check_all_le
from verifier.checks.results import CheckResult
from verifier.claims.steps import decide_steps
from verifier.constructions.extension import extend

from .instances import SOURCE as SRC
from .instances import extension_cases
from .mech_search import EXTENSION_ROWS, Ext, extension_search
from .steps import (
    DELTA_CONDITION,
    MARKOV_AND_UNION,
    REARRANGE,
    SPECIFICATION_DP,
    THM9_UNION,
    THM10_UNION,
    exponent_bound,
)

F = Fraction


def _q(x: Any) -> Fraction:
    v = sp.Rational(x)
    return F(int(v.p), int(v.q))


# ===========================================================================
# Proposition 2: the construction (Borgs, Chayes, Smith, Zadik 2018)
# ===========================================================================


def _exts() -> list[tuple[str, Ext]]:
    """The registered extension instances (:func:`.instances.extension_cases`) in
    rationals; ``a = e^ε`` is rational for each."""
    out = []
    for name, g, partial, eps in extension_cases():
        a = sp.exp(eps)
        if not a.is_Rational:
            continue
        k = sorted({o for d in partial.values() for o in d}, key=str)
        p = {b: [_q(partial[b][o]) for o in k] for b in partial}
        full = {d: p.get(d, p[next(iter(p))]) for d in g.nodes}  # only B is read
        e = Ext(g, full, list(partial), _q(a))
        out.append((name, e))
    return out


def _registered_rows(which: str) -> Iterator[tuple[Any, Fraction, Fraction]]:
    for name, e in _exts():
        for label, lhs, rhs in EXTENSION_ROWS[which](e):
            yield (name, label), lhs, rhs


@claim(
    id="talwar2025.prop2.step.min_lipschitz",
    source=f"{SRC}, §2, Prop. 2, the construction it cites, line 'm_d(o) = min_b e^(eps dist(d,b)) p_b(o)'",
    statement="for neighbours d ~ d', m_d(o) <= e^eps m_d'(o) (every distance changes by at most one)",
    expected="holds",
    kind="proof-step",
    instances="random mechanisms restricted to B on a 7-cycle, the Petersen graph and a 3x3 grid; "
    "TGeom_4 at its ends",
    search=extension_search(
        "talwar2025.prop2.step.min_lipschitz", "min_lipschitz", "m_d(o) <= e^eps m_d'(o)"
    ),
)
def prop2_min_lipschitz() -> CheckResult:
    return check_all_le("m_d(o) <= e^eps m_d'(o)", _registered_rows("min_lipschitz"))


@claim(
    id="talwar2025.prop2.step.normaliser",
    source=f"{SRC}, §2, Prop. 2, the construction it cites, line 'p_hat_d = m_d / Σ_o m_d(o)'",
    statement="the normaliser Z_d = Σ_o m_d(o) moves by at most e^eps between neighbours, so "
    "p_hat_d(o)/p_hat_d'(o) = (m_d(o)/m_d'(o)) (Z_d'/Z_d) <= e^(2 eps)",
    expected="holds",
    kind="proof-step",
    instances="the four extension instances, every edge and output",
    search=extension_search(
        "talwar2025.prop2.step.normaliser", "normaliser", "Z_d <= e^eps Z_d' and the factor 2"
    ),
)
def prop2_normaliser() -> CheckResult:
    return check_all_le("the normaliser and the factor 2", _registered_rows("normaliser"))


@claim(
    id="talwar2025.prop2.step.agrees_on_B",
    source=f"{SRC}, §2, Prop. 2, the construction it cites, line 'at b in B the premise makes p_b(o) "
    "the minimum'",
    statement="for b in B the minimum is attained at b itself (the premise p_b(o) <= e^(eps dist(b,b')) "
    "p_b'(o)), so m_b = p_b, Z_b = 1 and p_hat_b = p_b; and p_hat = m/Z is the library's extension",
    expected="holds",
    kind="proof-step",
    instances="the four extension instances",
    search=extension_search(
        "talwar2025.prop2.step.agrees_on_B", "agrees_on_B", "m_b = p_b and Z_b = 1 on B"
    ),
)
def prop2_agrees_on_B() -> CheckResult:
    def rows() -> Iterator[tuple[Any, Fraction, Fraction]]:
        yield from _registered_rows("agrees_on_B")
        for (name, g, partial, eps), (_, e) in zip(extension_cases(), _exts(), strict=False):
            ext = extend(g, partial, eps, verify=False)
            k = sorted({o for d in partial.values() for o in d}, key=str)
            for d in g.nodes:
                for i, o in enumerate(k):
                    got = _q(ext.mechanism.p(d, o))
                    yield (name, d, o, "library <= m/Z"), got, e.phat[d][i]
                    yield (name, d, o, "m/Z <= library"), e.phat[d][i], got

    return check_all_le("the extension agrees with p_b on B", rows())


# ===========================================================================
# Theorem 7, §3
# ===========================================================================


@claim(
    id="talwar2025.thm7.step.specification_dp",
    source=f"{SRC}, §3, proof of Theorem 7, the line 'this specification on {{d0, d1}} satisfies eps-DP'",
    statement="(1-q)/q <= 1/q = e^(eps |d0 - d1|_H) with q = e^(-eps Delta) and |d0 - d1| = Delta, "
    "for every eps in [1/100, 3] and Delta in [1, 1000]",
    expected="holds",
    kind="proof-step",
)
def thm7_specification_dp() -> CheckResult:
    return decide_steps("the specification is eps-DP", SPECIFICATION_DP)


@claim(
    id="talwar2025.thm7.step.markov_and_union",
    source=f"{SRC}, §3, proof of Theorem 7, the paragraph 'Consider a run of A(d0)' (its three lines)",
    statement="Pr[E] >= 1/2 for E = 'at most 2T calls' (Markov; for A_LT the geometric tail "
    "(1 - 1/T)^(2T) <= 1/2); given E, (r, 1) appears among the runs with probability "
    "<= 1 - (1-q)^(2T) <= 1/2 for q <= 1/(4T); so Pr[A(d0) = (r', 0)] >= (1/2)(1/2) = 1/4 — "
    "over boxes of (T, q)",
    expected="holds",
    kind="proof-step",
)
def thm7_markov_union() -> CheckResult:
    return decide_steps("Markov and the union bound", MARKOV_AND_UNION)


@claim(
    id="talwar2025.thm7.step.exponent_bound",
    source=f"{SRC}, §3, proof of Theorem 7, the line 'Since e^(-2c eps Delta) >= e^(-4c ln 4T)'",
    statement="with Delta <= ln(4T)/eps + 1 (so Delta = ceil(ln(4T)/eps)) and T >= e^eps: "
    "eps Delta <= ln(4T) + eps <= 2 ln(4T), so e^(-2c eps Delta) >= (4T)^(-4c); over the box "
    "T = e^tau (tau in [0, 46]), eps = u tau (u in [0, 1]), c in [1/100, 100]",
    expected="holds",
    kind="proof-step",
)
def thm7_exponent_bound() -> CheckResult:
    return decide_steps("eps Delta <= 2 ln 4T", exponent_bound(4, 1))


@claim(
    id="talwar2025.thm7.step.delta_condition",
    source=f"{SRC}, §3, proof of Theorem 7, the line 'By Proposition 5, it follows that for delta < "
    "e^(-2c eps Delta)/(8 Delta)'",
    statement="the statement's delta < eps gamma/(4 ln 4T) gives Prop. 5's delta < e^(-2c eps Delta)/"
    "(8 Delta) at every gamma < e^(-2c eps Delta)/8 (the case the proof rules out): it needs "
    "eps Delta <= 4 ln(4T); over the box of thm7.step.exponent_bound",
    expected="holds",
    kind="proof-step",
)
def thm7_delta_condition() -> CheckResult:
    return decide_steps("the delta condition", DELTA_CONDITION)


@claim(
    id="talwar2025.thm7.step.rearrange",
    source=f"{SRC}, §3, proof of Theorem 7, the last line ('Rearranging, we get the claimed result')",
    statement="gamma >= (4T)^(-4c)/8 implies T >= (8 gamma)^(-1/(4c))/4 (equality at "
    "gamma = (4T)^(-4c)/8), for every ln 4T in [7/5, 50], c in [1/100, 100] and "
    "ln(8 gamma (4T)^(4c)) in [0, 50]",
    expected="holds",
    kind="proof-step",
)
def thm7_rearrange() -> CheckResult:
    return decide_steps("rearranging", REARRANGE)


# ===========================================================================
# Theorems 9 and 10, §3.1 and §3.2
# ===========================================================================


@claim(
    id="talwar2025.thm9.step.union",
    source=f"{SRC}, §3.1, proof of Theorem 9, the display 'Pr[M_v(d) = (r,1)] <= ...' and the line after it",
    statement="q = e^(-eps Delta) <= 1/(8T) (Delta >= ln(8T)/eps), so Pr[M_v(d) = (r,1)] <= "
    "1/(8T) + q <= 1/(4T), and over at most 2T runs 2T/(4T) = 1/2; over the box T = e^tau "
    "(tau in [0, 46]), eps = u tau, Delta = ln(8T)/eps + s (s in [0, 1])",
    expected="holds",
    kind="proof-step",
)
def thm9_union() -> CheckResult:
    return decide_steps("Theorem 9: the union bound", THM9_UNION)


@claim(
    id="talwar2025.thm9.step.exponent_bound",
    source=f"{SRC}, §3.1, proof of Theorem 9, the line 'Since e^(-20c eps Delta) >= e^(-40c ln 8T)'",
    statement="with Delta <= ln(8T)/eps + 1 and T >= e^eps: eps Delta <= 2 ln(8T), so "
    "e^(-20c eps Delta) >= (8T)^(-40c); over the box of thm7.step.exponent_bound",
    expected="holds",
    kind="proof-step",
)
def thm9_exponent_bound() -> CheckResult:
    return decide_steps("eps Delta <= 2 ln 8T", exponent_bound(8, 10))


@claim(
    id="talwar2025.thm10.step.union",
    source=f"{SRC}, §3.2, proof of Theorem 10, the display 'Pr[M_(v,k)(d,j) = (r,1)] <= ...' and the "
    "line after it",
    statement="Pr[j = k and d in B_v] + Pr[j = k] Pr[M_v(d) = (r,1) | ...] <= 1/(8TK) + q/K <= 1/(4TK); "
    "over at most 2TK runs 2TK/(4TK) = 1/2; for every T, K in [1, 10^6] and q <= 1/(8T)",
    expected="holds",
    kind="proof-step",
)
def thm10_union() -> CheckResult:
    return decide_steps("Theorem 10: the union bound", THM10_UNION)
